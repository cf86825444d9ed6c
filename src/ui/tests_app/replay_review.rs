//! The replay screen's review: engine analysis following the moves shown,
//! mistake marking and the annotated export, evaluations read from the
//! file, and playing on from a position.

use super::replay::*;
use super::*;
use crate::game::library::Library;
use crate::game::review::{Judgement, MoveReview};

#[test]
fn analysis_follows_the_moves_shown() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    let go = take_go(&mut a, Slot::Assistant).expect("analysis starts");
    assert_eq!(go.purpose, Purpose::Analysis);
    assert!(go.moves.is_empty());
    type_str(&mut a, "3b", now);
    let go = take_go(&mut a, Slot::Assistant).expect("analysis of the new position");
    assert_eq!(go.moves.len(), 6);
    // The other move at the same number: a new position, a new search.
    key(&mut a, KeyCode::Down, now);
    let go = take_go(&mut a, Slot::Assistant).expect("analysis of the variation");
    assert_eq!(Board::uci(go.moves[5]), "e5d4");
    // Its score is kept for the node.
    analysis_done(&mut a, go.id, Score(-50), now);
    let r = a.task::<Replay>().unwrap();
    assert_eq!(
        r.evals[r.cursor],
        Some(Score(-50)),
        "White's view (White to move, -0.5)"
    );
    // Black to move: the sign turns.
    key(&mut a, KeyCode::Right, now);
    let go = take_go(&mut a, Slot::Assistant).expect("analysis");
    analysis_done(&mut a, go.id, Score(-50), now);
    let r = a.task::<Replay>().unwrap();
    assert_eq!(r.evals[r.cursor], Some(Score(50)));
}

#[test]
fn review_marks_moves_and_export_writes_them() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    a.take_effects();
    let (id, moves) = start_review(&mut a, now);
    assert_eq!(moves.len(), 33);
    // 11...Nbd7 (ply 21) judged a blunder; the better move 11...Nfd7? Take
    // 11...Kd8 as the engine's choice.
    let board = {
        let mut b = Board::startpos();
        for &m in &moves[..21] {
            b = b.play(m);
        }
        b
    };
    let best = board.parse_uci("e8d8").unwrap();
    let review = MoveReview {
        ply: 21,
        before: Score(-100),
        after: Score(400),
        best: Some(best),
        best_line: vec![best],
        depth: 10,
        judgement: Some(Judgement::Blunder),
        loss: 0.4,
        reason: Some("allows 12.Bxd7+ Nxd7 13.Qb8+ Nxb8 14.Rd8# mate".to_string()),
    };
    a.update(
        Msg::Reviewed {
            id,
            done: 22,
            total: 33,
            review: Some(Box::new(review)),
            finished: false,
        },
        now,
    );
    let screen = render(&a, 160, 50);
    assert!(screen.contains("review 66%"), "progress shown: {screen}");
    a.update(
        Msg::Reviewed {
            id,
            done: 33,
            total: 33,
            review: None,
            finished: true,
        },
        now,
    );
    assert!(
        a.ui.status.as_ref().is_some_and(|s| s
            .text
            .contains("Black: 0 inaccuracies, 0 mistakes, 1 blunder")),
        "{:?}",
        a.ui.status
    );
    type_str(&mut a, "11b", now);
    let screen = render(&a, 160, 50);
    assert!(screen.contains("Nbd7??"), "the mark in the list: {screen}");
    assert!(
        screen.contains("Blunder"),
        "the verdict under the list: {screen}"
    );
    assert!(screen.contains("Best was Kd8"), "{screen}");
    // Words across the note's rows, the box's sides left out.
    let words = screen
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("chance): allows 12.Bxd7+ Nxd7 13.Qb8+ Nxb8 14.Rd8# mate."),
        "the reason after the verdict: {screen}"
    );
    // At 80x24 the note grows so the verdict and the reason show whole.
    let small = render(&a, 80, 24).replace('│', " ");
    let words: Vec<&str> = small.split_whitespace().collect();
    let joined = words.join(" ");
    for part in [
        "Blunder", "allows", "12.Bxd7+", "Nxd7", "13.Qb8+", "Nxb8", "14.Rd8#", "mate.",
    ] {
        assert!(words.contains(&part), "{part} at 80x24: {small}");
    }
    assert!(joined.contains("Nbd7??"), "a move row is left: {small}");
    // Export: the annotated PGN, readable again with the same moves.
    a.ui.dirs.data = Some(PathBuf::from("/tmp/kibitz-test-data"));
    shift(&mut a, 'E', now);
    let (text, path) = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Copy { text, path, .. } => Some((text, path)),
            _ => None,
        })
        .expect("export");
    assert!(
        text.contains("Nbd7??") || text.contains("Nbd7 $4"),
        "{text}"
    );
    assert!(text.contains("[%eval"), "{text}");
    assert!(
        text.contains("allows 12.Bxd7+ Nxd7 13.Qb8+ Nxb8 14.Rd8# mate. Kd8 was best."),
        "the reason in the comment: {text}"
    );
    assert!(
        path.is_some_and(|p| p.ends_with("annotated/test-game1-annotated.pgn")),
        "saved in the data directory"
    );
    let again = crate::game::pgn_read::read_games_full(&text);
    let g = again[0].as_ref().expect("the export reads back");
    assert_eq!(g.game.moves(), &moves[..]);
    // A second review press while it runs cancels it.
    key(&mut a, KeyCode::Char('r'), now);
    key(&mut a, KeyCode::Char('r'), now);
    assert!(
        a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::CancelReview))
    );
}

#[test]
fn play_from_here_starts_a_game_from_the_position() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    type_str(&mut a, "9", now);
    let fen = a.board().fen();
    shift(&mut a, 'P', now);
    assert!(a.task::<Replay>().is_none());
    assert_eq!(a.chess().game.start().fen(), fen);
    assert_eq!(
        a.chess().mode,
        Mode::HumanVsEngine {
            human: Color::Black
        },
        "the human plays the side to move"
    );
    assert!(a.chess().human_to_move(&a.ui));
}

#[test]
fn leaving_restores_analysis_and_old_messages_are_ignored() {
    let now = Instant::now();
    let mut a = app();
    assert!(a.chess().analysis.mode.is_none());
    let text = format!("{OPERA}{BAD}{OPERA}");
    // Opened while no analysis was on.
    a.open_file(PathBuf::from("a.pgn"), None);
    let id = a.ui.opening.as_ref().unwrap().id;
    let lib = Library::from_text("a.pgn".into(), text.clone(), &mut |_| {});
    a.update(
        Msg::Opened {
            id,
            path: PathBuf::from("a.pgn"),
            result: Ok(FileRead::Chess(Box::new(lib))),
        },
        now,
    );
    key(&mut a, KeyCode::Esc, now);
    assert!(
        a.chess().analysis.mode.is_some(),
        "analysis follows the replay"
    );
    // The check of another file does not land here.
    a.update(
        Msg::Checked {
            id: id + 100,
            statuses: vec![(
                0,
                crate::game::library::Status::Bad {
                    line: 1,
                    reason: "x".into(),
                },
                None,
            )],
            left_repertoire: Vec::new(),
            done: true,
        },
        now,
    );
    let r = a.task::<Replay>().unwrap();
    assert_eq!(
        r.library.entries[0].status,
        crate::game::library::Status::Ok
    );
    assert!(r.checking, "its own check still runs");
    // Its own does.
    a.update(
        Msg::Checked {
            id,
            statuses: vec![(
                1,
                crate::game::library::Status::Bad {
                    line: 11,
                    reason: "bad".into(),
                },
                None,
            )],
            left_repertoire: vec![(0, "1.e4 leaves your repertoire: you prepared 1.d4".into())],
            done: true,
        },
        now,
    );
    let r = a.task::<Replay>().unwrap();
    assert!(!r.checking);
    assert!(r.left_repertoire.contains_key(&0));
    assert!(matches!(
        r.library.entries[1].status,
        crate::game::library::Status::Bad { line: 11, .. }
    ));
    // The game list marks the game that left your repertoire, and says
    // where under the rows.
    shift(&mut a, 'L', now);
    let list = render(&a, 160, 50);
    assert!(list.contains("≠"), "{list}");
    assert!(list.contains("1.e4 leaves your repertoire"), "{list}");
    key(&mut a, KeyCode::Esc, now);
    // Playing from here: the analysis setting comes back (off).
    type_str(&mut a, "9", now);
    shift(&mut a, 'P', now);
    assert!(a.task::<Replay>().is_none());
    assert!(
        a.chess().analysis.mode.is_none(),
        "no engine lines while you play"
    );
}

#[test]
fn evaluations_from_the_file_are_shown() {
    let now = Instant::now();
    let text =
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 {[%eval 0.31] [%clk 0:03:00]} e5 {[%eval -1.5]} *\n";
    let mut a = replaying(text, None, now);
    key(&mut a, KeyCode::Right, now);
    let screen = render(&a, 160, 50);
    assert!(screen.contains("Evaluation in the file: +0.31"), "{screen}");
    assert!(screen.contains("3:00"), "{screen}");
    let r = a.task::<Replay>().unwrap();
    assert_eq!(
        r.evals[r.cursor],
        Some(Score(31)),
        "on the eval bar and graph"
    );
    key(&mut a, KeyCode::Right, now);
    assert_eq!(a.chess().current_eval(), Some(Score(-150)));
}

#[test]
fn the_refutation_key_explores_the_search_after_a_mistake() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    a.take_effects();
    // Not reviewed yet: it says how to get a review.
    type_str(&mut a, "11b", now);
    shift(&mut a, 'X', now);
    assert!(a.explorer().is_none());
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("reviews the game")),
        "{:?}",
        a.ui.status
    );
    type_str(&mut a, "1", now);
    key(&mut a, KeyCode::Enter, now);
    let (id, moves) = start_review(&mut a, now);
    let board_at = |ply: usize| {
        let mut b = Board::startpos();
        for &m in &moves[..ply] {
            b = b.play(m);
        }
        b
    };
    // 11...Nbd7 judged; the next move's review holds the search after it,
    // whose best move (12.Bxd7+ here) is the refutation.
    let kd8 = board_at(21).parse_uci("e8d8").unwrap();
    let bxd7 = board_at(22).parse_uci("b5d7").unwrap();
    for review in [
        MoveReview {
            ply: 21,
            before: Score(-100),
            after: Score(400),
            best: Some(kd8),
            best_line: vec![kd8],
            depth: 10,
            judgement: Some(Judgement::Blunder),
            loss: 0.4,
            reason: Some("allows 12.Bxd7+".into()),
        },
        MoveReview {
            ply: 22,
            before: Score(400),
            after: Score(380),
            best: Some(bxd7),
            best_line: vec![bxd7],
            depth: 10,
            judgement: None,
            loss: 0.01,
            reason: None,
        },
    ] {
        a.update(
            Msg::Reviewed {
                id,
                done: review.ply + 1,
                total: 33,
                review: Some(Box::new(review)),
                finished: false,
            },
            now,
        );
    }
    // A good move has nothing to refute.
    type_str(&mut a, "12", now);
    key(&mut a, KeyCode::Enter, now);
    shift(&mut a, 'X', now);
    assert!(a.explorer().is_none());
    // The mistake: the explorer on the position after it, the review's
    // refutation to be selected.
    type_str(&mut a, "11b", now);
    key(&mut a, KeyCode::Enter, now);
    a.take_effects();
    shift(&mut a, 'X', now);
    let ex = a.explorer().expect("the explorer is open");
    assert_eq!(ex.pos.current().fen(), board_at(22).fen());
    assert_eq!(
        ex.verdict.as_ref().map(|v| (v.best, v.depth)),
        Some((bxd7, 10))
    );
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("after 11... Nbd7: allows 12.Bxd7+")),
        "{:?}",
        a.ui.status
    );
    // Recorded as the runtime does it, deeper while the tree disagrees.
    let mut effects = a.take_effects();
    let mut depths = Vec::new();
    while let Some(Effect::Explorer(crate::ui::screens::explorer::AnyRequest::Chess(
        crate::ui::screens::explorer::Request::Record {
            id,
            pos,
            depth,
            features,
            cap,
        },
    ))) = effects
        .into_iter()
        .find(|e| matches!(e, Effect::Explorer(_)))
    {
        depths.push(depth);
        let rec = crate::engine::tree::record(&pos, depth, features, Default::default(), cap);
        a.update(
            Msg::TreeRecorded {
                id,
                recording: crate::ui::screens::explorer::AnyRecording::Chess(Box::new(rec)),
            },
            now,
        );
        effects = a.take_effects();
    }
    // This review is made up: Morphy's 12.Rd1 is best, the tree keeps
    // it up to the review's depth and then says why they differ.
    assert_eq!(depths, (4..=10).collect::<Vec<_>>());
    let ex = a.explorer().expect("still open");
    let tree = ex.tree().expect("recorded");
    let chosen = ex.selected_child().map(|c| tree.node(c).mv);
    let words = ex.verdict_words().expect("a verdict");
    assert!(
        words.starts_with("Depth 10 prefers Rd1")
            && words.contains("the review's Bxd7+ (+4.00 at depth 10): Bxd7+ scores at most"),
        "{words}"
    );
    assert_eq!(chosen, Some(Some(bxd7)), "the refutation is selected");
}
