//! Reviews of lines and games: judgements, reasons, the annotated tree.

use super::*;

fn line(start: &Board, sans: &[&str]) -> Vec<Move> {
    let mut b = start.clone();
    let mut out = Vec::new();
    for s in sans {
        let san: shakmaty::san::San = s.parse().unwrap();
        let m = san.to_move(b.chess()).unwrap();
        b = b.play(m);
        out.push(m);
    }
    out
}

fn review(sans: &[&str]) -> (Vec<Move>, Vec<MoveReview>) {
    let start = Board::startpos();
    let moves = line(&start, sans);
    let stop = AtomicBool::new(false);
    let reviews = review_line(&start, &moves, &Limits::depth(6), &stop, &mut |_, _, _| {});
    (moves, reviews)
}

#[test]
fn win_chance_is_symmetric_and_monotone() {
    assert!((win_chance(Score(0), Color::White) - 0.5).abs() < 1e-12);
    for cp in [-2000, -350, -1, 0, 40, 999, 5000] {
        let w = win_chance(Score(cp), Color::White);
        let b = win_chance(Score(cp), Color::Black);
        assert!((w + b - 1.0).abs() < 1e-12);
        assert!((w - win_chance(Score(-cp), Color::Black)).abs() < 1e-12);
    }
    let mut last = 0.0;
    for cp in (-1000..=1000).step_by(10) {
        let w = win_chance(Score(cp), Color::White);
        assert!(w > last, "{cp}");
        last = w;
    }
    // Capped: a mate is as good as +10, and no better.
    let mate = win_chance(Score::mate_in(3), Color::White);
    assert_eq!(mate, win_chance(Score(1000), Color::White));
    assert_eq!(mate, win_chance(Score(3000), Color::White));
    assert_eq!(
        win_chance(Score::mated_in(4), Color::White),
        win_chance(Score(-1000), Color::White)
    );
    // Lichess' -1..1 value at +1.00 is 0.182; ours is (1 + it) / 2.
    let lichess = 2.0 / (1.0 + (-0.00368208f64 * 100.0).exp()) - 1.0;
    assert!((win_chance(Score(100), Color::White) - (1.0 + lichess) / 2.0).abs() < 1e-12);
    assert!((lichess - 0.182).abs() < 1e-3);
}

#[test]
fn thresholds_classify_drops() {
    let drop = |from: i32, to: i32| {
        win_chance(Score(from), Color::White) - win_chance(Score(to), Color::White)
    };
    assert_eq!(Judgement::from_loss(drop(30, 0)), None);
    // +0.20 -> -0.50: about 0.064.
    assert_eq!(
        Judgement::from_loss(drop(20, -50)),
        Some(Judgement::Inaccuracy)
    );
    // +0.20 -> -1.50: about 0.20.
    assert_eq!(
        Judgement::from_loss(drop(20, -150)),
        Some(Judgement::Blunder)
    );
    // 0.00 -> -1.20: about 0.11.
    assert_eq!(
        Judgement::from_loss(drop(0, -120)),
        Some(Judgement::Mistake)
    );
    assert_eq!(Judgement::from_loss(0.049), None);
    assert_eq!(
        Judgement::from_loss(INACCURACY),
        Some(Judgement::Inaccuracy)
    );
    assert_eq!(Judgement::from_loss(MISTAKE), Some(Judgement::Mistake));
    assert_eq!(Judgement::from_loss(BLUNDER), Some(Judgement::Blunder));
    assert_eq!(Judgement::Blunder.nag(), 4);
    assert_eq!(Judgement::Mistake.nag(), 2);
    assert_eq!(Judgement::Inaccuracy.nag(), 6);
}

#[test]
fn white_view_mates() {
    // White to move mates in 3 plies = 2 moves.
    assert_eq!(
        white_view(Score::mate_in(3), Color::White).to_string(),
        "#2"
    );
    // Black to move mates in 3 plies: Black mates in 2.
    assert_eq!(
        white_view(Score::mate_in(3), Color::Black).to_string(),
        "#-2"
    );
    // Black to move is mated in 4 plies: White mates in 2.
    assert_eq!(
        white_view(Score::mated_in(4), Color::Black).to_string(),
        "#2"
    );
    assert_eq!(
        white_view(Score::mated_in(4), Color::White).to_string(),
        "#-2"
    );
    assert_eq!(white_view(Score(35), Color::Black), Score(-35));
    assert!(white_view(Score::mated_in(0), Color::Black).is_win());
    assert!(white_view(Score::mated_in(0), Color::White).is_loss());
}

#[test]
fn a_hung_queen_is_a_blunder() {
    // 3. Qxe5+?? loses the queen to the knight; 3... Nxe5 is best.
    let (moves, r) = review(&["e4", "e5", "Qh5", "Nc6", "Qxe5+", "Nxe5"]);
    assert_eq!(r.len(), 6);
    assert_eq!(r[4].judgement, Some(Judgement::Blunder), "{:?}", r[4]);
    assert_ne!(r[4].best, Some(moves[4]));
    assert!(r[4].loss >= BLUNDER);
    assert!(r[4].after.0 < -500, "{}", r[4].after);
    assert_eq!(r[4].after, r[5].before);
    assert_eq!(r[5].best, Some(moves[5]), "the capture is best");
    assert_eq!(r[5].judgement, None);
    assert_eq!(r[4].best_line.first(), r[4].best.as_ref());
    assert!(r[4].best_line.len() <= MAX_BEST_LINE);
    assert_eq!(r[0].judgement, None, "1. e4 is fine");
}

#[test]
fn allowing_mate_is_a_blunder_and_the_defence_is_best() {
    let (moves, r) = review(&["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    let nf6 = &r[5];
    assert_eq!(nf6.judgement, Some(Judgement::Blunder), "{nf6:?}");
    assert_eq!(nf6.after.to_string(), "#1");
    let start = Board::startpos();
    let mut b = start.clone();
    for &m in &moves[..5] {
        b = b.play(m);
    }
    let best = b.san(nf6.best.unwrap());
    assert!(["g6", "Qe7", "Qf6"].contains(&best.as_str()), "{best}");
    // The mate itself: best, and the final position is mate.
    assert_eq!(r[6].judgement, None);
    assert!(r[6].after.is_win() && r[6].after.mate_moves() == Some(0));

    let mut tree = MoveTree::from_line(start, &moves, &[]);
    let nf6_node = tree.main_line()[5];
    tree.nodes[nf6_node]
        .comments
        .push("[%eval 0.10] [%clk 0:01:00] old".to_string());
    annotate_tree(&mut tree, &r);
    let main = tree.main_line();
    let n = tree.node(main[5]);
    assert_eq!(n.nags, vec![4]);
    assert_eq!(n.comments[0], "[%eval #1]");
    assert_eq!(n.comments[1], "[%clk 0:01:00] old");
    assert!(
        n.comments[2].starts_with("Blunder (")
            && n.comments[2].ends_with(&format!("{best} was best.")),
        "{:?}",
        n.comments
    );
    assert_eq!(nf6.reason.as_deref(), Some("allows 4.Qxf7# mate"));
    assert!(
        n.comments[2].contains("#1): allows 4.Qxf7# mate. "),
        "{:?}",
        n.comments
    );
    let parent = tree.node(main[4]);
    assert_eq!(parent.children.len(), 2);
    assert_eq!(tree.node(parent.children[1]).mv, nf6.best);
    // The mate has no eval comment.
    assert!(tree.node(main[6]).comments.is_empty());

    // Annotating again changes nothing.
    let before = tree.clone();
    annotate_tree(&mut tree, &r);
    assert!(tree.same_as(&before));
}

#[test]
fn review_comments_are_recognised_with_and_without_reasons() {
    for c in [
        "Mistake (+0.20 → -1.50).",
        "Mistake (+0.20 → -1.50). Qd2 was best.",
        "Blunder (+0.20 → #-1): allows 24.Qxf7# mate. Qd2 was best.",
        "Inaccuracy (+0.40 → -0.60): 18.Qd2 was better (+0.40); after 18.Rd1 the position is -0.60.",
        "Mistake (+0.20 → -1.50): loses a pawn: 19.Nxe5 Nxe5 20.Qxe5 …",
    ] {
        assert!(is_review_comment(c), "{c}");
    }
    for c in [
        "Mistake (a big one) here.",
        "Mistake (+0.20 → -1.50)",
        "Mistake (+0.20 → -1.50): ",
        "A mistake (+0.20 → -1.50).",
        "Blunder (+0.20 → -1.50). Played in time trouble.",
    ] {
        assert!(!is_review_comment(c), "{c}");
    }
    // The best move is not repeated when the reason names it.
    let board = Board::startpos();
    let e4 = board.parse_uci("e2e4").unwrap();
    let mut r = MoveReview {
        ply: 0,
        before: Score(40),
        after: Score(-60),
        best: Some(e4),
        best_line: vec![e4],
        depth: 10,
        judgement: Some(Judgement::Inaccuracy),
        loss: 0.06,
        reason: Some("1.e4 was better (+0.40); after 1.a4 the position is -0.60".into()),
    };
    assert_eq!(
        judgement_comment(Judgement::Inaccuracy, &r, &board, Some(e4)),
        "Inaccuracy (+0.40 → -0.60): 1.e4 was better (+0.40); after 1.a4 the position is -0.60."
    );
    r.reason = Some("loses a pawn: 1...d5 2.Nf3 Bxg4".into());
    assert_eq!(
        judgement_comment(Judgement::Inaccuracy, &r, &board, Some(e4)),
        "Inaccuracy (+0.40 → -0.60): loses a pawn: 1...d5 2.Nf3 Bxg4. e4 was best."
    );
}

#[test]
fn stop_returns_what_is_done() {
    let start = Board::startpos();
    let moves = line(&start, &["e4", "e5", "Nf3", "Nc6"]);
    let stop = AtomicBool::new(false);
    let mut reviewer = Reviewer::new(Limits::depth(3));
    let r = reviewer.review(&start, &moves, &stop, &mut |done, total, _| {
        assert_eq!(total, 4);
        if done == 2 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(r.len(), 2);
}

#[test]
fn eval_comments_round_trip() {
    for (score, text) in [
        (Score(35), "[%eval 0.35]"),
        (Score(-120), "[%eval -1.20]"),
        (Score(0), "[%eval 0.00]"),
        (mate_score(3), "[%eval #3]"),
        (mate_score(-3), "[%eval #-3]"),
        (Score::mated_in(0), "[%eval #-0]"),
    ] {
        assert_eq!(eval_comment(score), text);
        assert_eq!(parse_eval_comment(text), Some(score), "{text}");
    }
    assert_eq!(parse_eval_comment("[%eval -1.2]"), Some(Score(-120)));
    assert_eq!(
        parse_eval_comment("good move [%eval 0.35,18] [%clk 0:01:00]"),
        Some(Score(35))
    );
    assert_eq!(parse_eval_comment("[%eval #-3,30]"), Some(mate_score(-3)));
    assert_eq!(parse_eval_comment("[%eval  2 ]"), Some(Score(200)));
    assert_eq!(parse_eval_comment("[%eval]"), None);
    assert_eq!(parse_eval_comment("[%eval x]"), None);
    assert_eq!(parse_eval_comment("[%eval 0.3"), None);
    assert_eq!(parse_eval_comment("[%evaluation 0.3]"), None);
    assert_eq!(parse_eval_comment("no eval"), None);
    assert_eq!(strip_eval("a [%eval 0.3] b [%eval #2]"), "a b");
}

#[test]
fn clock_comments() {
    assert_eq!(
        parse_clk_comment("[%clk 1:23:45]"),
        Some(Duration::from_secs(3600 + 23 * 60 + 45))
    );
    assert_eq!(
        parse_clk_comment("[%eval 0.2] [%clk 0:03:12.5]"),
        Some(Duration::from_millis(192_500))
    );
    assert_eq!(
        parse_clk_comment("[%clk 3:07]"),
        Some(Duration::from_secs(187))
    );
    assert_eq!(parse_clk_comment("[%clk -0:01:00]"), None);
    assert_eq!(parse_clk_comment("[%clk 1:2:x]"), None);
    assert_eq!(parse_clk_comment("[%clk 5]"), None);
    assert_eq!(parse_clk_comment("[%clk 0:01:00"), None);
    assert_eq!(parse_clk_comment("no clock"), None);
}
