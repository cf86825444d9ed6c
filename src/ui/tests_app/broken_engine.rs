//! The play screen against a real engine process that misbehaves (`kibitz
//! fake-engine`, issue 30): the app's effects carried out as the runtime
//! does, the engine's events fed back. The game ends as the engine's
//! forfeit, said on screen, the saved file keeps every move, no update of
//! the app waits for the engine, and the process goes.

use super::*;
use crate::ui::engines::Engines;
use std::path::Path;
use std::sync::mpsc::channel;

/// The `kibitz` binary next to this test's (`target/PROFILE/kibitz`), when
/// it has been built (`cargo test` builds it for the integration tests).
fn kibitz_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("kibitz");
    bin.is_file().then_some(bin)
}

/// One game against the fake in `mode` (bad from its second move): the
/// app's final state, the last file saved, the longest update, the fake's
/// process ids.
fn play_against(mode: &str, xboard: bool, bin: &Path) -> (App, String, Duration, Vec<u32>) {
    let dir = temp_dir(&format!("broken-{mode}-{xboard}"));
    let pids = dir.join("pids");
    let command = format!(
        "{}'{}' fake-engine {mode} --protocol {} --after 2 --pid-file '{}'",
        if xboard { "xboard:" } else { "" },
        bin.display(),
        if xboard { "xboard" } else { "uci" },
        pids.display()
    );
    let config = Config {
        engine_pace: crate::ui::pace::Pace::Fast,
        ..Config::default()
    };
    let mut a = App::new(config, theme::builtin(), Some(dir.clone()));
    let (tx, rx) = channel();
    let mut engines = Engines::default();
    let mut saved = String::new();
    let mut slowest = Duration::ZERO;
    let mut timed = |a: &mut App, msg: Msg| {
        let start = Instant::now();
        a.update(msg, Instant::now());
        slowest = slowest.max(start.elapsed());
    };
    a.start_game(
        Setup {
            mode: WHITE,
            engine: EngineSpec::External { command },
            time: None,
            start: Board::startpos(),
        },
        Instant::now(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while a.chess().game.ending.is_none() && Instant::now() < deadline {
        for effect in a.take_effects() {
            match effect {
                Effect::Engine { table, job } => {
                    let tx = tx.clone();
                    engines.handle(table, job, move |seat, report| {
                        let _ = tx.send(Msg::Engine {
                            table,
                            seat,
                            report,
                        });
                    });
                }
                Effect::Save { contents, .. } => saved = contents,
                _ => {}
            }
        }
        let board = a.chess().game.current().clone();
        if board.turn() == Color::White && a.chess().game.ending.is_none() {
            // Our move: the first legal one, typed in.
            let m = board.legal_moves()[0];
            for c in Board::uci(m).chars() {
                timed(
                    &mut a,
                    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
                );
            }
            timed(
                &mut a,
                Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
            );
            continue;
        }
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(msg) => timed(&mut a, msg),
            Err(_) => timed(&mut a, Msg::Tick),
        }
    }
    for effect in a.take_effects() {
        if let Effect::Save { contents, .. } = effect {
            saved = contents;
        }
    }
    drop(engines);
    let ids: Vec<u32> = std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    (a, saved, slowest, ids)
}

#[cfg(target_os = "linux")]
#[test]
fn a_misbehaving_engine_forfeits_on_the_play_screen() {
    let Some(bin) = kibitz_binary() else {
        eprintln!("skipped: the kibitz binary is not built (cargo test builds it)");
        return;
    };
    let cases = [
        ("crash", Termination::Abandoned),
        ("hang-go", Termination::Abandoned),
        ("garbage", Termination::Abandoned),
        ("illegal", Termination::IllegalMove),
        ("wrong-board", Termination::IllegalMove),
    ];
    let runs: Vec<_> = cases
        .into_iter()
        .flat_map(|c| [(c, false), (c, true)])
        .map(|((mode, want), xboard)| {
            let bin = bin.clone();
            let t = std::thread::spawn(move || {
                let (a, saved, slowest, ids) = play_against(mode, xboard, &bin);
                let game = &a.chess().game;
                let status = a.ui.status.as_ref().map(|s| s.text.clone());
                (
                    game.ending,
                    game.moves().len(),
                    crate::game::write_pgn(game),
                    status,
                    saved,
                    slowest,
                    ids,
                )
            });
            (mode, want, xboard, t)
        })
        .collect();
    for (mode, want, xboard, t) in runs {
        let (ending, plies, pgn, status, saved, slowest, ids) = t.join().expect("case panicked");
        let case = format!("{mode}/{}", if xboard { "xboard" } else { "uci" });
        eprintln!("{case}: slowest update {slowest:?}");
        let ending = ending.unwrap_or_else(|| panic!("{case}: the game did not end"));
        assert_eq!(
            (ending.result, ending.termination),
            (GameResult::WhiteWins, want),
            "{case}"
        );
        // Our move, its answer, our move: then it went wrong.
        assert_eq!(plies, 3, "{case}");
        assert_eq!(saved, pgn, "{case}: the file has the whole game");
        let status = status.unwrap_or_default();
        assert!(status.contains("(Black)"), "{case}: {status}");
        assert!(slowest < Duration::from_millis(100), "{case}: {slowest:?}");
        assert!(!ids.is_empty(), "{case}");
        let start = Instant::now();
        while ids
            .iter()
            .any(|p| Path::new(&format!("/proc/{p}")).exists())
        {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{case}: {ids:?} left"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
