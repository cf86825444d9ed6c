//! The endgame trainer: menu, table preparation, verdicts, replies, hints,
//! the board editor, saving and resuming.

use super::*;
use crate::tablebase::{Material, Wdl};
use crate::ui::app::{REPLY_DELAY, TrainerStart};
use crate::ui::screens::chess::trainer::{self as tr, Tables, Verdict};
use std::sync::{Arc, OnceLock};

/// KQvK and KRvK, generated once for all tests of this file.
fn tables() -> Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let dir = temp_dir("trainer-tables");
            let materials: Vec<Material> = ["KQvK", "KRvK"]
                .iter()
                .map(|n| n.parse().unwrap())
                .collect();
            let tb = tr::prepare_tables(Some(dir), &materials, &mut |_, _| {}).unwrap();
            Tables(Arc::new(tb))
        })
        .clone()
}

pub(super) fn trainer_app() -> App {
    let mut a = app();
    a.ui.trainer.tables = Some(tables());
    a.ui.trainer.rng = crate::util::Rng::new(7);
    a
}

pub(super) fn start_at(a: &mut App, fen: &str, now: Instant) {
    a.begin_trainer(TrainerStart::Position(Board::from_fen(fen).unwrap()), now);
    assert!(a.task::<TrainerGame>().is_some(), "{:?}", a.ui.status);
}

/// Plays the queued table reply.
fn let_tables_reply(a: &mut App, now: Instant) -> Instant {
    assert!(a.chess().engine_thinking(), "a reply is due");
    let later = now + REPLY_DELAY;
    a.update(Msg::Tick, later);
    later
}

/// Asks for the hint and types its move, as a user would; returns its SAN.
fn play_hint(a: &mut App, now: Instant) -> String {
    shift(a, 'H', now);
    let m = a.chess().hint.clone().expect("a hint").mv;
    let san = a.board().san(m);
    type_str(a, &san, now);
    san
}

fn status(a: &App) -> String {
    a.ui.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

#[test]
fn the_menu_starts_a_random_won_position_of_the_chosen_ending() {
    let t = Instant::now();
    for (downs, name) in [(0, "KQvK"), (1, "KRvK")] {
        let mut a = trainer_app();
        shift(&mut a, 'T', t);
        assert!(matches!(a.ui.overlay, Overlay::Trainer(_)));
        for _ in 0..downs {
            key(&mut a, KeyCode::Down, t);
        }
        key(&mut a, KeyCode::Enter, t);
        let trainer = a.task::<TrainerGame>().expect("started");
        assert_eq!(trainer.name, name);
        assert_eq!(Material::of_board(a.board().board()).to_string(), name);
        assert_eq!(trainer.start.wdl, Wdl::Win);
        assert!(a.chess().human_to_move(&a.ui));
        assert_eq!(a.chess().mode, WHITE, "White by default");
        // Medium: between 45% and 75% of the longest mate.
        let longest = tr::Ending::find(name).unwrap().longest as i32 * 2 - 1;
        let dtm = trainer.start.dtm;
        assert!(
            dtm * 100 >= longest * 40 && dtm * 100 <= longest * 80,
            "{name}: mate in {dtm} plies of {longest}"
        );
    }
}

#[test]
fn the_menu_offers_black_and_difficulty() {
    let t = Instant::now();
    let mut a = trainer_app();
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Right, t); // hard
    key(&mut a, KeyCode::Tab, t); // Black
    key(&mut a, KeyCode::Enter, t);
    let trainer = a.task::<TrainerGame>().expect("started");
    assert_eq!(trainer.human, Color::Black);
    assert_eq!(a.board().turn(), Color::Black);
    assert!(a.ui.look.flipped, "Black at the bottom");
    assert!(trainer.start.dtm >= 13, "hard KQvK: {}", trainer.start.dtm);
    // The black side has the queen.
    assert!((a.board().board().queens() & a.board().board().black()).any());
    // Esc closes the menu without starting anything.
    let mut b = trainer_app();
    shift(&mut b, 'T', t);
    key(&mut b, KeyCode::Esc, t);
    assert!(matches!(b.ui.overlay, Overlay::None) && b.task::<TrainerGame>().is_none());
}

#[test]
fn missing_tables_are_prepared_in_the_background_with_progress() {
    let t = Instant::now();
    let mut a = app();
    let dir = temp_dir("trainer-prepare");
    a.ui.dirs.tables = Some(dir.clone());
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Down, t); // KRvK
    key(&mut a, KeyCode::Enter, t);
    assert!(
        a.task::<TrainerGame>().is_none(),
        "not before the tables are ready"
    );
    let (id, materials) = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::PrepareTables { id, materials, .. } => Some((id, materials)),
            _ => None,
        })
        .expect("asks for the tables");
    assert_eq!(materials, vec!["KRvK".parse::<Material>().unwrap()]);
    // The runtime's work, with its progress fed back.
    let mut progress = Vec::new();
    let tb = tr::prepare_tables(Some(dir.clone()), &materials, &mut |text, share| {
        progress.push((text, share));
    })
    .unwrap();
    assert!(
        progress
            .iter()
            .any(|(t, _)| t.starts_with("Generating KRvK")),
        "{progress:?}"
    );
    let (text, share) = progress[progress.len() / 2].clone();
    a.update(Msg::TablesProgress { id, text, share }, t);
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Endgame tables"), "{screen}");
    assert!(screen.contains("Esc stops waiting"));
    // Keys do not reach the board meanwhile.
    type_str(&mut a, "e4", t);
    assert!(a.chess().game.moves().is_empty());
    a.update(
        Msg::TablesReady {
            id,
            result: Ok(Tables(Arc::new(tb))),
        },
        t,
    );
    assert!(a.ui.trainer.preparing.is_none());
    assert_eq!(
        a.task::<TrainerGame>().map(|t| t.name.as_str()),
        Some("KRvK")
    );
    assert!(dir.join("KRvK.kbtb").exists() || std::fs::read_dir(&dir).unwrap().count() > 0);
    // The table is reused: the next start needs no preparation.
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Enter, t); // menu remembers KRvK
    assert!(a.ui.trainer.preparing.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn esc_stops_waiting_and_a_late_answer_is_dropped() {
    let t = Instant::now();
    let mut a = app();
    a.ui.dirs.tables = Some(temp_dir("trainer-cancel"));
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Enter, t);
    let id = a.ui.trainer.preparing.as_ref().expect("preparing").id;
    key(&mut a, KeyCode::Esc, t);
    assert!(a.ui.trainer.preparing.is_none());
    a.update(
        Msg::TablesReady {
            id,
            result: Ok(tables()),
        },
        t,
    );
    assert!(
        a.task::<TrainerGame>().is_none(),
        "nobody waits for it any more"
    );
    // The tables are kept: choosing the ending again starts at once.
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Enter, t);
    assert!(a.ui.trainer.preparing.is_none() && a.task::<TrainerGame>().is_some());
    // Choosing again while the job still runs waits for the same job.
    let mut a = app();
    a.ui.dirs.tables = Some(temp_dir("trainer-cancel"));
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Enter, t);
    let id = a.ui.trainer.preparing.as_ref().expect("preparing").id;
    key(&mut a, KeyCode::Esc, t);
    let _ = a.take_effects();
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(
        a.ui.trainer.preparing.as_ref().map(|p| p.id),
        Some(id),
        "the same job"
    );
    assert!(
        !a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::PrepareTables { .. })),
        "no second generator"
    );
    // A failure is reported.
    a.update(
        Msg::TablesReady {
            id,
            result: Err("disk full".into()),
        },
        t,
    );
    assert!(status(&a).contains("disk full"), "{}", status(&a));
    assert!(a.task::<TrainerGame>().is_none());
}

#[test]
fn best_moves_are_praised_and_the_tables_reply() {
    let t = Instant::now();
    let mut a = trainer_app();
    // KQvK: the hint's move is best.
    start_at(&mut a, "8/8/8/3k4/8/8/8/4K1Q1 w - - 0 1", t);
    let start = a.task::<TrainerGame>().unwrap().start;
    shift(&mut a, 'H', t);
    let hint = a.chess().hint.clone().expect("a hint");
    assert!(status(&a).starts_with("Hint: "), "{}", status(&a));
    assert_eq!(hint.score.and_then(|s| s.mate_plies()), Some(start.dtm));
    let san = a.board().san(hint.mv);
    type_str(&mut a, &san, t);
    let fb = a
        .task::<TrainerGame>()
        .unwrap()
        .feedback
        .last()
        .cloned()
        .unwrap();
    assert_eq!(fb.verdict, Verdict::Best, "{}", fb.text);
    let n = (start.dtm + 1) / 2;
    assert_eq!(
        fb.text,
        format!("mate in {n} -> mate in {}: best", n - 1),
        "the verdict names the distances"
    );
    assert!(status(&a).contains(": best"));
    // The reply comes after a short pause, and is a best defence.
    let before = a.board().clone();
    let t2 = let_tables_reply(&mut a, t);
    assert_eq!(a.chess().game.moves().len(), 2);
    let reply = *a.chess().game.moves().last().unwrap();
    let tb = tables();
    let best = tr::best_moves(&tb, &before).unwrap();
    assert!(best.iter().any(|(m, _)| *m == reply), "a longest defence");
    assert_eq!(tb.probe(a.board()).unwrap().dtm, start.dtm - 2);
    assert!(a.chess().human_to_move(&a.ui));
    let _ = t2;
}

#[test]
fn slower_moves_and_lost_wins_are_named_and_taken_back() {
    let t = Instant::now();
    let mut a = trainer_app();
    // KRvK: find a slower move with the tables.
    let fen = "8/8/8/4k3/8/8/3K4/7R w - - 0 1";
    start_at(&mut a, fen, t);
    let tb = tables();
    let board = a.board().clone();
    let all = tb.best_moves(&board).unwrap();
    let top = all[0].1;
    let slower = all
        .iter()
        .find(|(_, p)| p.wdl == Wdl::Win && p.dtm > top.dtm)
        .map(|(m, _)| *m)
        .unwrap();
    type_str(&mut a, &board.san(slower), t);
    let fb = a.task::<TrainerGame>().unwrap().feedback[0].clone();
    assert_eq!(fb.verdict, Verdict::Slower);
    assert!(fb.text.contains("slower (best: "), "{}", fb.text);
    assert!(matches!(
        a.ui.status.as_ref().map(|s| s.kind),
        Some(crate::ui::app::StatusKind::Error)
    ));
    // Take it back before the tables answer: one move, verdict gone.
    key(&mut a, KeyCode::Char('u'), t);
    assert!(a.chess().game.moves().is_empty());
    assert!(a.task::<TrainerGame>().unwrap().feedback.is_empty());
    assert!(!a.chess().engine_thinking(), "the queued reply is dropped");
    a.update(Msg::Tick, t + REPLY_DELAY * 2);
    assert!(a.chess().game.moves().is_empty());
    // A move that lets the king take the rook: the win is gone.
    start_at(&mut a, "8/8/8/4k3/1R6/8/3K4/8 w - - 0 1", t);
    let board = a.board().clone();
    let hang = tb
        .best_moves(&board)
        .unwrap()
        .into_iter()
        .find(|(_, p)| p.wdl == Wdl::Draw)
        .map(|(m, _)| m)
        .unwrap();
    type_str(&mut a, &board.san(hang), t);
    let fb = a.task::<TrainerGame>().unwrap().feedback[0].clone();
    assert_eq!(fb.verdict, Verdict::Spoiled);
    assert!(
        fb.text.contains("-> draw: the win is gone ("),
        "{}",
        fb.text
    );
}

#[test]
fn perfect_play_mates_in_the_table_distance_and_is_saved_in_both_formats() {
    let t = Instant::now();
    let dir = temp_dir("trainer-save");
    let mut a = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    a.update(Msg::Resize(120, 40), t);
    a.ui.trainer.tables = Some(tables());
    start_at(&mut a, "8/8/8/4k3/8/8/3K4/7R w - - 0 1", t);
    let start = a.task::<TrainerGame>().unwrap().start;
    let mut now = t;
    let mut mine = 0;
    while !a.chess().is_over() {
        assert!(a.chess().human_to_move(&a.ui), "after {mine} moves");
        play_hint(&mut a, now);
        mine += 1;
        if !a.chess().is_over() {
            now = let_tables_reply(&mut a, now);
        }
        assert!(mine < 40, "no mate");
    }
    assert_eq!(
        mine as i32,
        (start.dtm + 1) / 2,
        "mated in the table's distance"
    );
    assert_eq!(
        a.chess().game.ending.map(|e| e.termination),
        Some(Termination::Checkmate)
    );
    let (best, moves) = a.task::<TrainerGame>().unwrap().score();
    assert_eq!((best, moves), (mine, mine));
    assert!(status(&a).contains(&format!("{mine} moves of yours, {mine} of them best")));
    // Saved: PGN with the trainer's tags, and the move-history file.
    let mut pgn = None;
    let mut history = None;
    for e in a.take_effects() {
        if let Effect::Save { path, contents } = e {
            match path.extension().and_then(|x| x.to_str()) {
                Some("pgn") => pgn = Some((path, contents)),
                Some("history") => history = Some((path, contents)),
                _ => {}
            }
        }
    }
    let (pgn_path, pgn) = pgn.expect("PGN saved");
    let (hist_path, hist) = history.expect("history saved");
    assert!(
        pgn_path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("trainer-")
    );
    assert_eq!(pgn_path.with_extension("history"), hist_path);
    assert!(pgn.contains("[KibitzTrainer \"KRvK\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"));
    let list = crate::game::history::read_history(&hist).unwrap();
    assert_eq!(list.moves.len(), a.chess().game.moves().len());
    assert!(
        hist.starts_with("8/8/8/4k3/8/8/3K4/7R w - - 0 1\n1. "),
        "{hist}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_trainer_game_gets_its_verdicts_back() {
    let t = Instant::now();
    let mut a = trainer_app();
    start_at(&mut a, "8/8/8/4k3/8/8/3K4/7R w - - 0 1", t);
    play_hint(&mut a, t);
    let now = let_tables_reply(&mut a, t);
    let game = a.chess().game.clone();
    let mut b = trainer_app();
    b.resume(game, PathBuf::from("/nonexistent/trainer-x.pgn"), now);
    let trainer = b.task::<TrainerGame>().expect("resumed as a trainer game");
    assert_eq!(trainer.feedback.len(), 1);
    assert_eq!(trainer.feedback[0].verdict, Verdict::Best);
    assert_eq!(trainer.human, Color::White);
    assert_eq!(b.chess().game.moves().len(), 2);
    assert!(b.chess().human_to_move(&b.ui));
    assert!(
        b.chess().evals.get(2).is_some_and(|e| e.is_some()),
        "eval bar refilled"
    );
}

#[test]
fn the_editor_validates_explains_and_starts_the_trainer() {
    let t = Instant::now();
    let mut a = trainer_app();
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Char('e'), t);
    assert!(a.editor().is_some() && matches!(a.ui.overlay, Overlay::None));
    // Cursor starts on e4: white king there, black king next to it.
    shift(&mut a, 'K', t);
    key(&mut a, KeyCode::Right, t);
    key(&mut a, KeyCode::Char('k'), t);
    let e = a.editor().unwrap();
    assert!(e.problems.iter().any(|p| p.contains("next to each other")));
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Board editor"), "{screen}");
    assert!(screen.contains("The kings on e4 and f4"), "{screen}");
    // Enter refuses, and keeps the position.
    key(&mut a, KeyCode::Enter, t);
    assert!(a.editor().is_some());
    assert!(status(&a).starts_with("Cannot play this"), "{}", status(&a));
    // Move the black king two files away, add a rook on a1 (arrows).
    key(&mut a, KeyCode::Char('x'), t);
    key(&mut a, KeyCode::Right, t);
    key(&mut a, KeyCode::Char('k'), t);
    for _ in 0..3 {
        key(&mut a, KeyCode::Down, t);
    }
    for _ in 0..7 {
        key(&mut a, KeyCode::Left, t);
    }
    shift(&mut a, 'R', t);
    // g4 is attacked by nothing; a1 rook: legal with White to move.
    assert!(
        a.editor().unwrap().problems.is_empty(),
        "{:?}",
        a.editor().unwrap().problems
    );
    // Not a piece letter: an error, nothing placed.
    key(&mut a, KeyCode::Char('z'), t);
    assert!(status(&a).contains("not a piece"));
    key(&mut a, KeyCode::Enter, t);
    assert!(a.editor().is_none());
    let trainer = a.task::<TrainerGame>().expect("started");
    assert_eq!(trainer.name, "KRvK");
    assert_eq!(a.board().fen(), "8/8/8/8/4K1k1/8/8/R7 w - - 0 1");
    assert_eq!(trainer.start.wdl, Wdl::Win);
}

#[test]
fn the_editor_takes_a_fen_and_the_side_to_move() {
    let t = Instant::now();
    let mut a = trainer_app();
    a.open_editor(None, t);
    key(&mut a, KeyCode::Char('f'), t);
    // Black to move in check from the rook is legal; White to move is not.
    for c in "4k3/8/8/8/8/8/8/K3R3 w - - 0 1".chars() {
        key(&mut a, KeyCode::Char(c), t);
    }
    key(&mut a, KeyCode::Enter, t);
    let e = a.editor().unwrap();
    assert!(
        e.problems
            .iter()
            .any(|p| p.contains("Black is in check from the white rook on e1")),
        "{:?}",
        e.problems
    );
    key(&mut a, KeyCode::Tab, t);
    assert!(a.editor().unwrap().problems.is_empty());
    key(&mut a, KeyCode::Enter, t);
    // The trainee takes Black, the losing side: resist.
    let trainer = a.task::<TrainerGame>().expect("started");
    assert_eq!(trainer.human, Color::Black);
    assert_eq!(trainer.start.wdl, Wdl::Loss);
    assert!(status(&a).contains("resist"), "{}", status(&a));
    // A bad FEN is refused with a reason; the editor keeps its board.
    a.open_editor(
        Some(&Board::from_fen("8/8/8/4k3/8/8/3K4/7R w - - 0 1").unwrap()),
        t,
    );
    key(&mut a, KeyCode::Char('f'), t);
    for c in "not/a/fen".chars() {
        key(&mut a, KeyCode::Char(c), t);
    }
    key(&mut a, KeyCode::Enter, t);
    assert!(status(&a).contains("Not a FEN"), "{}", status(&a));
    assert!(
        a.editor()
            .as_ref()
            .unwrap()
            .fen()
            .starts_with("8/8/8/4k3/8/8/3K4/7R w")
    );
    // Esc goes back to the menu.
    key(&mut a, KeyCode::Esc, t);
    assert!(a.editor().is_none() && matches!(a.ui.overlay, Overlay::Trainer(_)));
}

#[test]
fn trainer_screens_render_at_every_size() {
    let t = Instant::now();
    let mut a = trainer_app();
    shift(&mut a, 'T', t);
    let menu = render(&a, 120, 40);
    assert!(
        menu.contains("Endgame trainer") && menu.contains("KBNvK"),
        "{menu}"
    );
    assert!(menu.contains("[medium]"));
    // Every ending and every line of the menu fit 80x24.
    let small = render(&a, 80, 24);
    for words in ["KRPvKR", "L lessons", "(5 pieces: minutes)"] {
        assert!(small.contains(words), "{words}: {small}");
    }
    key(&mut a, KeyCode::Down, t);
    key(&mut a, KeyCode::Enter, t);
    play_hint(&mut a, t);
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Trainer: KRvK"), "{screen}");
    assert!(screen.contains("Best moves: 1 of 1"), "{screen}");
    assert!(screen.contains(": best"), "{screen}");
    for (w, h) in [(58, 12), (80, 24), (200, 60), (40, 10)] {
        let _ = render(&a, w, h);
        a.open_editor(None, t);
        let _ = render(&a, w, h);
        a.close_screen(t);
    }
}

#[test]
fn draw_offers_follow_the_tables() {
    let t = Instant::now();
    // The trainee defends a lost position: the tables decline.
    let mut a = trainer_app();
    start_at(&mut a, "8/8/8/4k3/8/8/3K4/7R b - - 0 1", t);
    shift(&mut a, 'D', t);
    assert!(!a.chess().is_over());
    assert!(status(&a).contains("The tables decline"), "{}", status(&a));
    // The trainee wins and offers a draw anyway: the losing side accepts.
    start_at(&mut a, "8/8/8/4k3/8/8/3K4/7R w - - 0 1", t);
    shift(&mut a, 'D', t);
    assert_eq!(
        a.chess().game.ending.map(|e| (e.result, e.termination)),
        Some((GameResult::Draw, Termination::Agreement))
    );
}

#[test]
fn a_live_game_waits_behind_the_trainer_menu_and_editor() {
    let t = Instant::now();
    let mut a = trainer_app();
    let black = Mode::HumanVsEngine {
        human: Color::Black,
    };
    a.start_game(setup(black, None, Some("3+2")), t);
    assert!(
        take_go(&mut a, Slot::Opponent).is_some(),
        "the engine thinks"
    );
    shift(&mut a, 'T', t);
    assert!(a.chess().paused, "the game waits behind the menu");
    key(&mut a, KeyCode::Char('e'), t);
    assert!(a.editor().is_some() && a.chess().paused);
    key(&mut a, KeyCode::Esc, t); // editor -> menu
    key(&mut a, KeyCode::Esc, t); // menu -> the game
    assert!(!a.chess().paused, "resumed");
    assert!(
        take_go(&mut a, Slot::Opponent).is_some(),
        "the engine is asked again"
    );
    // Starting a trainer game leaves the old game for good.
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Enter, t);
    assert!(a.task::<TrainerGame>().is_some() && !a.chess().paused && a.chess().clocks.is_none());
}

#[test]
fn black_moves_are_numbered_with_dots_and_slow_moves_say_by_how_much() {
    let t = Instant::now();
    let mut a = trainer_app();
    start_at(&mut a, "7r/8/3k4/8/8/8/8/4K3 b - - 0 1", t);
    assert_eq!(a.task::<TrainerGame>().unwrap().human, Color::Black);
    let san = play_hint(&mut a, t);
    let screen = render(&a, 120, 40);
    assert!(screen.contains(&format!("1... {san} mate in")), "{screen}");
    // A slower move names the loss in moves.
    let now = let_tables_reply(&mut a, t);
    let tb = tables();
    let board = a.board().clone();
    let all = tb.best_moves(&board).unwrap();
    let top = all[0].1.dtm;
    let slow = all
        .iter()
        .find(|(_, p)| p.wdl == Wdl::Win && p.dtm == top + 2)
        .map(|(m, _)| *m)
        .unwrap();
    type_str(&mut a, &board.san(slow), now);
    let fb = a
        .task::<TrainerGame>()
        .unwrap()
        .feedback
        .last()
        .cloned()
        .unwrap();
    assert_eq!(fb.verdict, Verdict::Slower);
    assert!(fb.text.contains(": a move slower (best: "), "{}", fb.text);
}
