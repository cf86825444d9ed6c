//! Puzzles and Retry on the chess screen: moves checked one by one, the
//! opponent's replies played, hints, results recorded, and Retry's
//! engine-judged alternatives.

use super::replay::*;
use super::*;
use crate::game::review::{Judgement, MoveReview};
use crate::train::puzzle::read_csv;
use crate::train::store::{Source, Store};
use crate::ui::screens::chess::drill::{DrillKind, DrillState};
use crate::ui::screens::chess::game::REPLY_DELAY;

/// Black to move after 1.Rxe4: 1...Rd1+ 2.Rxd1 Rxd1# (lichess 007mr).
const BACK_RANK: &str = "007mr,5k2/p2r3p/1p4pP/3r1q2/3Rp3/2P5/PP3PQ1/K3R3 w - - 0 33,d4e4 d5d1 e1d1 d7d1,661,77,100,191,backRankMate endgame mate mateIn2 short,https://lichess.org/J12UnEgz#65,,";

fn store_with(csv: &str) -> Store {
    let mut s = Store::in_memory();
    s.import(read_csv(csv).puzzles, Source::Lichess)
        .expect("stored");
    s
}

fn drill_state(a: &App) -> DrillState {
    a.task::<Drill>().expect("a drill").state.clone()
}

fn status(a: &App) -> String {
    a.ui.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

#[test]
fn a_puzzle_is_solved_move_by_move_and_a_wrong_move_is_not_played() {
    let now = Instant::now();
    let mut a = app();
    a.ui.puzzles = Some(store_with(BACK_RANK));
    command(&mut a, Action::Puzzles, now);
    assert_eq!(a.depth(), 2, "the puzzle screen opens over the game");
    assert!(a.ui.look.flipped, "Black solves: the board turns");
    assert!(uci_moves(&a).is_empty(), "the opponent's move comes first");
    let t = now + REPLY_DELAY * 3;
    a.update(Msg::Tick, t);
    assert_eq!(uci_moves(&a), ["d4e4"]);

    type_str(&mut a, "a5", t);
    assert_eq!(uci_moves(&a), ["d4e4"], "a wrong move is not played");
    assert!(status(&a).contains("a5 is not it"), "{}", status(&a));
    let store = a.ui.puzzles.as_ref().expect("store");
    assert_eq!(store.history().len(), 1, "the failure is recorded at once");
    assert!(!store.history()[0].solved);

    type_str(&mut a, "Rd1+", t);
    assert_eq!(uci_moves(&a), ["d4e4", "d5d1"]);
    // One wording for a right move, on the status line and in the panel.
    assert!(
        status(&a).contains("Rd1+: right. Keep going."),
        "{}",
        status(&a)
    );
    assert!(render(&a, 120, 40).contains("Rd1+: right. Keep going."));
    let t = t + REPLY_DELAY * 2;
    a.update(Msg::Tick, t);
    assert_eq!(uci_moves(&a), ["d4e4", "d5d1", "e1d1"], "the reply");
    type_str(&mut a, "Rxd1#", t);
    assert_eq!(drill_state(&a), DrillState::Solved);
    assert!(status(&a).contains("solved, with help"), "{}", status(&a));
    assert_eq!(
        a.ui.puzzles.as_ref().map(|s| s.history().len()),
        Some(1),
        "one result per puzzle"
    );
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Puzzle 007mr"), "{screen}");
    assert!(screen.contains("backRankMate"), "themes after: {screen}");

    // Leaving goes back to the game beneath.
    command(&mut a, Action::Quit, t);
    assert_eq!(a.depth(), 1);
    assert!(a.task::<Drill>().is_none());
}

#[test]
fn a_clean_solve_wins_rating_and_hints_go_piece_square_answer() {
    let now = Instant::now();
    let mut a = app();
    a.ui.puzzles = Some(store_with(BACK_RANK));
    command(&mut a, Action::Puzzles, now);
    let t = now + REPLY_DELAY * 3;
    a.update(Msg::Tick, t);
    command(&mut a, Action::Hint, t);
    assert_eq!(
        a.chess().pick.selected,
        Some(Square::D5),
        "the piece to move"
    );
    command(&mut a, Action::Hint, t);
    assert!(status(&a).contains("d5 to d1"), "{}", status(&a));
    command(&mut a, Action::Hint, t);
    assert_eq!(uci_moves(&a), ["d4e4", "d5d1"], "the answer is played");
    let t = t + REPLY_DELAY * 2;
    a.update(Msg::Tick, t);
    // The rest is the solver's again: solved with help, not clean.
    type_str(&mut a, "Rxd1#", t);
    assert_eq!(drill_state(&a), DrillState::Solved);
    let h = a.ui.puzzles.as_ref().expect("store").history();
    assert_eq!(h.len(), 1);
    assert!(!h[0].solved, "a shown answer is a failure");

    // The same puzzle in a new store, solved clean: the rating goes up.
    let mut a = app();
    a.ui.puzzles = Some(store_with(BACK_RANK));
    let before = a.ui.puzzles.as_ref().expect("store").rating().rating;
    command(&mut a, Action::Puzzles, now);
    a.update(Msg::Tick, t);
    type_str(&mut a, "Rd1+", t);
    a.update(Msg::Tick, t + REPLY_DELAY * 2);
    type_str(&mut a, "Rxd1#", t + REPLY_DELAY * 2);
    let store = a.ui.puzzles.as_ref().expect("store");
    assert!(store.history()[0].solved);
    assert!(store.rating().rating > before, "a solve raises the rating");
    assert!(status(&a).contains("solved!"), "{}", status(&a));
}

/// The Opera game replayed, reviewed with 11...Nbd7 a blunder (best
/// 11...Kd8... as a stand-in for the engine's choice).
fn reviewed_opera(now: Instant) -> App {
    let mut a = replaying(OPERA, None, now);
    a.take_effects();
    let (id, moves) = start_review(&mut a, now);
    let mut board = Board::startpos();
    for &m in &moves[..21] {
        board = board.play(m);
    }
    let best = board.parse_uci("e8d8").expect("legal");
    let review = MoveReview {
        ply: 21,
        before: Score(-100),
        after: Score(400),
        best: Some(best),
        best_line: vec![best],
        depth: 10,
        judgement: Some(Judgement::Blunder),
        loss: 0.4,
        reason: Some("allows 12.O-O-O, pinning the knight".into()),
    };
    a.update(
        Msg::Reviewed {
            id,
            done: 33,
            total: 33,
            review: Some(Box::new(review)),
            finished: true,
        },
        now,
    );
    a
}

#[test]
fn retry_walks_the_mistakes_and_the_engine_judges_other_moves() {
    let now = Instant::now();
    let mut a = reviewed_opera(now);
    a.ui.puzzles = Some(Store::in_memory());
    let depth = a.depth();
    assert!(status(&a).contains("retry"), "offered: {}", status(&a));
    // White made no marked mistake.
    key(&mut a, KeyCode::Char('m'), now);
    assert_eq!(a.depth(), depth);
    assert!(
        status(&a).contains("White made no mistake"),
        "{}",
        status(&a)
    );
    shift(&mut a, 'M', now);
    assert_eq!(a.depth(), depth + 1, "Retry opens over the replay");
    let d = a.task::<Drill>().expect("drill");
    let DrillKind::Retry { items, .. } = &d.kind else {
        panic!("a Retry drill");
    };
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].played, "11...Nbd7");
    let t = now + REPLY_DELAY * 3;
    a.update(Msg::Tick, t);
    assert_eq!(a.chess().game.moves().len(), 1, "11.Bxb5+ is replayed");

    // Another move than the engine's: judged by the assistant.
    a.take_effects();
    type_str(&mut a, "Nfd7", t);
    let go = take_go(&mut a, Slot::Assistant).expect("the move is judged");
    assert_eq!(go.purpose, Purpose::Check);
    assert_eq!(go.moves.len(), 2);
    assert!(matches!(drill_state(&a), DrillState::Checking { .. }));
    // White to move after it, +3.00 for White: far worse than -1.00.
    let done = |id, score| {
        assistant_said(EngineEvent::Done {
            id,
            purpose: Purpose::Check,
            best: None,
            score: Some(Score(score)),
            pv: vec![],
        })
    };
    a.update(done(go.id, 300), t);
    assert_eq!(drill_state(&a), DrillState::Solving);
    assert_eq!(a.chess().game.moves().len(), 1, "refused, not played");
    assert!(status(&a).contains("not good enough"), "{}", status(&a));

    // Judged as good as the best (-0.95 for White): accepted and played.
    type_str(&mut a, "Nfd7", t);
    let go = take_go(&mut a, Slot::Assistant).expect("judged again");
    a.update(done(go.id, -95), t);
    assert_eq!(drill_state(&a), DrillState::Solved);
    assert_eq!(a.chess().game.moves().len(), 2);
    let store = a.ui.puzzles.as_ref().expect("store");
    assert_eq!(store.len(), 1, "the position joins your puzzles");
    assert_eq!(store.history().len(), 1);
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Retry: Black's mistakes"), "{screen}");
    assert!(screen.contains("11...Nbd7??"), "{screen}");
    assert!(screen.contains("Best line: 11...Kd8"), "{screen}");
    assert!(
        screen.contains("Why 11...Nbd7 was bad: allows 12.O-O-O"),
        "the review's reason once the position is done: {screen}"
    );
    // The last one: next says Retry is done.
    command(&mut a, Action::NewGame, t);
    assert!(status(&a).contains("Retry done"), "{}", status(&a));
}

#[test]
fn retry_before_a_review_reviews_first() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    a.take_effects();
    let depth = a.depth();
    shift(&mut a, 'M', now);
    assert!(
        a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Review(_))),
        "the review starts"
    );
    assert_eq!(a.depth(), depth);
}

#[test]
fn the_puzzle_panel_fits_80x24() {
    let now = Instant::now();
    let mut a = app();
    a.update(Msg::Resize(80, 24), now);
    a.ui.puzzles = Some(store_with(BACK_RANK));
    command(&mut a, Action::Puzzles, now);
    a.update(Msg::Tick, now + REPLY_DELAY * 3);
    let screen = render(&a, 80, 24);
    assert!(screen.contains("Puzzle 007mr"), "{screen}");
    assert!(screen.contains("Find the best move"), "{screen}");
}

/// A knight fork after 21...Bxb5: 22.Ne7+ Kf8 23.Nxc8 (lichess 00BNd).
const FORK: &str = "00BNd,1rr3k1/3bppbp/3p1np1/1B1N4/P2BP3/5P2/P2R2PP/R5K1 b - - 0 21,d7b5 d5e7 g8f8 e7c8,881,78,100,437,advantage fork middlegame short,https://lichess.org/52dQ8pN2/black#42,,";

#[test]
fn the_theme_key_filters_and_a_fresh_puzzle_is_only_skipped() {
    let now = Instant::now();
    let mut a = app();
    a.ui.puzzles = Some(store_with(&format!("{BACK_RANK}\n{FORK}")));
    command(&mut a, Action::Puzzles, now);
    let theme_of = |a: &App| match &a.task::<Drill>().expect("drill").kind {
        DrillKind::Puzzles { theme, .. } => theme.clone(),
        DrillKind::Retry { .. } => None,
    };
    assert_eq!(theme_of(&a), None);
    // The list of themes: most puzzles first, then by name (one puzzle
    // each here: `advantage` first); the first entry is every theme.
    command(&mut a, Action::Puzzles, now);
    let Overlay::PuzzleThemes { themes, selected } = &a.ui.overlay else {
        panic!("the themes' list opens");
    };
    assert_eq!(*selected, 0, "every theme, as now");
    let themes = themes.clone();
    assert_eq!(themes, a.ui.puzzle_themes());
    let screen = render(&a, 120, 40);
    assert!(screen.contains("every theme"), "{screen}");
    key(&mut a, KeyCode::Down, now);
    key(&mut a, KeyCode::Enter, now);
    assert!(matches!(a.ui.overlay, Overlay::None));
    assert_eq!(theme_of(&a).as_deref(), Some(themes[0].0.as_str()));
    let d = a.task::<Drill>().expect("drill");
    assert!(
        d.run.puzzle.themes.contains(&themes[0].0),
        "the puzzle shown has the theme: {:?}",
        d.run.puzzle.themes
    );
    assert!(
        a.ui.puzzles.as_ref().expect("store").history().is_empty(),
        "a puzzle not yet tried is skipped, not failed"
    );
}

#[test]
fn a_damaged_store_is_said_and_the_puzzles_go_on() {
    let now = Instant::now();
    let dir = std::env::temp_dir().join(format!("kibitz-drill-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("puzzles")).expect("temp dir");
    std::fs::write(
        dir.join("puzzles/puzzles.jsonl"),
        b"garbage\xff not json\n{\"try\":",
    )
    .expect("write");
    let mut a = app();
    a.ui.dirs.data = Some(dir.clone());
    command(&mut a, Action::Puzzles, now);
    assert!(a.task::<Drill>().is_some(), "the puzzles open anyway");
    assert!(status(&a).contains("Puzzle store:"), "{}", status(&a));
    let kept = std::fs::read_dir(dir.join("puzzles"))
        .expect("dir")
        .filter_map(|e| e.ok())
        .any(|e| e.file_name().to_string_lossy().contains("damaged"));
    assert!(kept, "the file as found is kept aside");
    let _ = std::fs::remove_dir_all(&dir);
}
