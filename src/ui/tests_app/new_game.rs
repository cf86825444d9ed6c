//! A new game over a game in play: the engines of the new game answer
//! (Crazyhouse and Bughouse used to lose theirs to the old game's "quit"),
//! and a key that would leave a game in progress asks first while a move
//! typed in lower case (`nf3`) is a move.
//!
//! The engines run as the runtime runs them ([`Engines`], one a seat of a
//! table), for each variant and each kind of seat: the built-in engine
//! (chess; in the drop variants it is this program's `uci`, which a test
//! binary is not), and a small engine in `sh` that answers the first move
//! of either side, in UCI or in XBoard (`xboard:CMD`).

use super::house_live::{jobs, live_moves, table};
use super::*;
use crate::ui::engines::Engines;
use crate::ui::screens::house::live::{EngineJob, LiveSetup, Player};
use crate::variant::VariantKind;
use std::sync::mpsc::{Receiver, Sender, channel};

/// A UCI engine that moves a knight out and back, whatever the position
/// (the side to move read from the FEN and the moves after it):
/// White g1f3, f3g1, ...; Black g8f6, f6g8, ... (legal while nobody else
/// touches those squares, which is all these tests need).
#[cfg(unix)]
fn shuffler(name: &str) -> (String, PathBuf) {
    let dir = temp_dir(&format!("shuffler-{name}"));
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        r#"side=w; out=0
while IFS= read -r line; do
  case "$line" in
    uci) printf 'id name Shuffler\nuciok\n' ;;
    isready) echo readyok ;;
    position*)
      case "$line" in *" b "*) side=b ;; *) side=w ;; esac
      case "$line" in
        *" moves "*)
          n=$(echo "${line#* moves }" | wc -w)
          if [ $((n % 2)) = 1 ]; then
            if [ $side = w ]; then side=b; else side=w; fi
          fi ;;
      esac ;;
    go*)
      if [ "$side" = b ]; then
        if [ $out = 0 ]; then echo "bestmove g8f6"; else echo "bestmove f6g8"; fi
      else
        if [ $out = 0 ]; then echo "bestmove g1f3"; else echo "bestmove f3g1"; fi
      fi
      out=$((1 - out)) ;;
    quit) exit 0 ;;
  esac
done
"#,
    )
    .unwrap();
    (format!("sh {}", script.display()), dir)
}

/// The same knight shuffle as [`shuffler`], in the XBoard protocol as the
/// client here speaks it: features at `protover` (moves as `usermove`, in
/// coordinates; `setboard`; the drop variants), the side to move kept from
/// `new`, `setboard` and the moves it hears, `move ...` at `go`; the rest
/// (`variant`, `force`, `holding`, `white`/`black`, `st`, `accepted`, ...)
/// it ignores. Returns its command line with the `xboard:` prefix.
#[cfg(unix)]
fn xboard_shuffler(name: &str) -> (String, PathBuf) {
    let dir = temp_dir(&format!("xshuffler-{name}"));
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        r#"side=w; out=0
flip() { if [ $side = w ]; then side=b; else side=w; fi; }
while IFS= read -r line; do
  case "$line" in
    "protover "*)
      echo 'feature myname="XShuffler" usermove=1 san=0 setboard=1 sigint=0 sigterm=0'
      echo 'feature variants="normal,crazyhouse,bughouse" done=1' ;;
    new) side=w; out=0 ;;
    "setboard "*" b "*) side=b ;;
    "setboard "*) side=w ;;
    "usermove "*) flip ;;
    go)
      if [ $side = b ]; then
        if [ $out = 0 ]; then echo "move g8f6"; else echo "move f6g8"; fi
      else
        if [ $out = 0 ]; then echo "move g1f3"; else echo "move f3g1"; fi
      fi
      out=$((1 - out)); flip ;;
    quit) exit 0 ;;
  esac
done
"#,
    )
    .unwrap();
    (format!("xboard:sh {}", script.display()), dir)
}

/// Half-moves played on board A of the live game.
fn board_a_moves(a: &App) -> usize {
    a.live()
        // `board_ply` counts from the start position's move number (1).
        .map_or(0, |l| l.board_ply(0) - 2)
}

/// The runtime's part for engines: jobs go to real engines,
/// their news comes back as the app's messages.
struct Runtime {
    engines: Engines,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
}

impl Runtime {
    fn new() -> Runtime {
        let (tx, rx) = channel();
        Runtime {
            engines: Engines::default(),
            tx,
            rx,
        }
    }

    /// Carries out the app's engine jobs (other effects are dropped).
    fn run(&mut self, a: &mut App) {
        for e in a.take_effects() {
            if let Effect::Engine { table, job } = e {
                let tx = self.tx.clone();
                self.engines.handle(table, job, move |seat, report| {
                    let _ = tx.send(Msg::Engine {
                        table,
                        seat,
                        report,
                    });
                });
            }
        }
    }

    /// Hands engine news to the app until `done` holds (or ten seconds).
    fn until(&mut self, a: &mut App, done: impl Fn(&App) -> bool) -> bool {
        let end = Instant::now() + Duration::from_secs(10);
        self.run(a);
        while !done(a) {
            let left = end.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(msg) => a.update(msg, Instant::now()),
                Err(_) => return false,
            }
            self.run(a);
        }
        true
    }
}

/// `n`, then Enter in the dialog (and again where it asks first).
fn new_game_from_dialog(a: &mut App, now: Instant) {
    key(a, KeyCode::Char('n'), now);
    assert!(
        matches!(a.ui.overlay, Overlay::NewGame(_)),
        "n opens the new-game dialog"
    );
    key(a, KeyCode::Enter, now);
    if matches!(a.ui.overlay, Overlay::NewGame(_)) {
        key(a, KeyCode::Enter, now);
    }
    assert!(matches!(a.ui.overlay, Overlay::None), "a new game started");
}

/// A live game of `kind` against an engine (its command, and the directory
/// of its script, removed after), then a new one from the dialog: the
/// engines answer in both, and the opponent bears the engine's `name`.
#[cfg(unix)]
fn house_new_game_gets_replies(kind: VariantKind, (command, dir): (String, PathBuf), name: &str) {
    let t = Instant::now();
    let engine = EngineSpec::External {
        command: command.clone(),
    };
    let mut a = app();
    a.update(Msg::Resize(160, 50), t);
    // The dialog offers the same engine for the next game.
    a.ui.launch_setup = Some(Setup {
        engine: engine.clone(),
        ..setup(WHITE, None, None)
    });
    let e = Player::Engine(engine);
    let players = if kind == VariantKind::Bughouse {
        vec![[Player::Human, e.clone()], [e.clone(), e]]
    } else {
        vec![[Player::Human, e]]
    };
    a.start_live(
        LiveSetup {
            kind,
            players,
            time: None,
            start: None,
        },
        t,
    );
    let mut rt = Runtime::new();
    let first = table(&a);
    type_str(&mut a, "e4", t);
    // Bughouse: board B plays too; wait for the reply on our board.
    let replied = |a: &App| board_a_moves(a) >= 2;
    assert!(rt.until(&mut a, replied), "the first game's engine answers");
    new_game_from_dialog(&mut a, t);
    let second = table(&a);
    assert_ne!(first, second, "the new game has a table of its own");
    assert_eq!(board_a_moves(&a), 0);
    rt.run(&mut a);
    assert!(
        rt.engines.running().iter().any(|&(t, _)| t == second),
        "the new game's engines run: {:?}",
        rt.engines.running()
    );
    assert!(
        !rt.engines.running().iter().any(|&(t, _)| t == first),
        "the old game's engines quit: {:?}",
        rt.engines.running()
    );
    type_str(&mut a, "e4", t);
    assert!(
        rt.until(&mut a, replied),
        "the new game's engine answers; status: {:?}",
        a.ui.status
    );
    let opponent = a.live().map(|l| l.seat_name(0, Color::Black));
    assert!(
        opponent.as_deref().is_some_and(|n| n.contains(name)),
        "the engine's own name: {opponent:?}"
    );
    drop(rt);
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn a_new_crazyhouse_game_has_engines_that_answer() {
    let kind = VariantKind::Crazyhouse;
    house_new_game_gets_replies(kind, shuffler(&format!("{kind:?}")), "Shuffler");
}

#[cfg(unix)]
#[test]
fn a_new_bughouse_game_has_engines_that_answer() {
    let kind = VariantKind::Bughouse;
    house_new_game_gets_replies(kind, shuffler(&format!("{kind:?}")), "Shuffler");
}

#[cfg(unix)]
#[test]
fn a_new_crazyhouse_game_with_an_xboard_engine_answers() {
    let kind = VariantKind::Crazyhouse;
    house_new_game_gets_replies(kind, xboard_shuffler(&format!("{kind:?}")), "XShuffler");
}

#[cfg(unix)]
#[test]
fn a_new_bughouse_game_with_an_xboard_engine_answers() {
    let kind = VariantKind::Bughouse;
    house_new_game_gets_replies(kind, xboard_shuffler(&format!("{kind:?}")), "XShuffler");
}

/// Stale news of an old game's engine never reaches the new game.
#[test]
fn news_of_another_table_is_not_played() {
    let t = Instant::now();
    let mut a = super::house_live::crazyhouse(t);
    let old = table(&a);
    type_str(&mut a, "e4", t);
    let (id, _) = super::house_live::go_for(&jobs(&mut a), 1).expect("the engine is asked");
    new_game_from_dialog(&mut a, t);
    type_str(&mut a, "e4", t);
    assert_eq!(live_moves(&a), 1);
    // The old game's engine answers late, with an id the new game uses.
    a.update(
        Msg::Engine {
            table: old,
            seat: 1,
            report: super::house_live::best_of(a.live().unwrap(), 1, id, "e7e5"),
        },
        t,
    );
    assert_eq!(live_moves(&a), 1, "an old game's answer is not played");
    let new = table(&a);
    let quits: Vec<u64> = a
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Engine {
                table,
                job: EngineJob::QuitAll,
            } => Some(table),
            _ => None,
        })
        .collect();
    assert_eq!(quits, [old], "only the old game's engines quit");
    assert_ne!(new, old);
}

/// Chess: a game against `engine`, then a new one from the dialog, the
/// engines run as the runtime runs them: both games' engines answer, the
/// old table's engine quits, and an external engine's own `name` shows.
fn chess_new_game_gets_replies(engine: EngineSpec, name: Option<&str>) {
    let t = Instant::now();
    let mut a = app();
    let game = Setup {
        engine: engine.clone(),
        ..setup(WHITE, None, None)
    };
    a.ui.launch_setup = Some(game.clone());
    a.start_game(game, t);
    let mut rt = Runtime::new();
    let first = a.chess().opponent.table;
    type_str(&mut a, "e4", t);
    let replied = |a: &App| a.chess().game.moves().len() >= 2;
    assert!(
        rt.until(&mut a, replied),
        "{engine:?}: the first game's engine answers"
    );
    new_game_from_dialog(&mut a, t);
    assert!(a.chess().game.moves().is_empty(), "{engine:?}: a new game");
    assert_eq!(a.chess().opponent.spec, engine, "the same opponent");
    let second = a.chess().opponent.table;
    assert_ne!(first, second, "the new game has a table of its own");
    rt.run(&mut a);
    let running = rt.engines.running();
    assert!(running.contains(&(second, 1)), "{engine:?}: {running:?}");
    assert!(
        !running.iter().any(|&(t, _)| t == first),
        "{engine:?}: {running:?}"
    );
    type_str(&mut a, "d4", t);
    assert!(
        rt.until(&mut a, replied),
        "{engine:?}: the new game's engine answers; status: {:?}",
        a.ui.status
    );
    assert_eq!(uci_moves(&a)[0], "d2d4");
    if let Some(name) = name {
        assert_eq!(a.chess().opponent.name, name);
        // The record names it so too, not by its program ("sh").
        assert_eq!(a.chess().game.header("Black"), Some(name));
        assert_eq!(a.chess().game.header("White"), Some("You"));
    }
}

#[test]
fn a_new_chess_game_against_the_built_in_engine_answers() {
    chess_new_game_gets_replies(EngineSpec::BuiltIn { level: 3 }, None);
}

#[cfg(unix)]
#[test]
fn a_new_chess_game_against_external_engines_answers() {
    for (command, dir) in [shuffler("chess"), xboard_shuffler("chess")] {
        let name = if command.starts_with("xboard:") {
            "XShuffler"
        } else {
            "Shuffler"
        };
        chess_new_game_gets_replies(EngineSpec::External { command }, Some(name));
        let _ = std::fs::remove_dir_all(dir);
    }
}
