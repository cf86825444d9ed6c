use super::*;
use crate::engine::board::Board;
use crate::util::Rng;
use shakmaty::{CastlingMode, EnPassantMode, FromSetup};

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "6k1/5ppp/8/8/8/8/1B3PPP/6K1 w - - 0 1",
    "8/8/4k3/8/3b4/8/4K3/2B5 w - - 0 1",
    "2r3k1/1q3ppp/p3p3/1p1nP3/3P4/P2Q1N2/1P3PPP/2R3K1 b - - 3 24",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
];

fn mirror(board: &Board) -> Board {
    let setup = board.chess().to_setup(EnPassantMode::Legal).into_mirrored();
    let pos = shakmaty::Chess::from_setup(setup, CastlingMode::Standard).unwrap();
    Board::from_chess(pos)
}

/// Positions from the FENs above plus random walks from them.
fn positions() -> Vec<Board> {
    let mut rng = Rng::new(11);
    let mut out = Vec::new();
    for fen in FENS {
        let mut b = Board::from_fen(fen).unwrap();
        for _ in 0..30 {
            out.push(b.clone());
            let moves = b.chess().legal_moves();
            if moves.is_empty() {
                break;
            }
            b = b.play(moves[rng.below(moves.len())]);
        }
    }
    out
}

#[test]
fn mirrored_positions_score_the_same_for_the_side_to_move() {
    for b in positions() {
        let m = mirror(&b);
        for kind in [EvalKind::Full, EvalKind::Simple] {
            assert_eq!(
                evaluate(b.chess(), kind),
                evaluate(m.chess(), kind),
                "{kind:?} asymmetric: {} vs {}",
                b.fen(),
                m.fen()
            );
            // From White's point of view, the mirror is the negation.
            assert_eq!(trace(b.chess(), kind).white, -trace(m.chess(), kind).white);
        }
    }
}

#[test]
fn trace_parts_add_up_to_the_engine_score() {
    let mut ev = Evaluator::new(EvalKind::Full);
    for b in positions() {
        for kind in [EvalKind::Full, EvalKind::Simple] {
            let t = trace(b.chess(), kind);
            let sum: i32 = t.terms.iter().map(|x| x.net()).sum();
            assert_eq!(sum, t.white, "{kind:?} parts in {}", b.fen());
            assert_eq!(
                t.score,
                evaluate(b.chess(), kind),
                "{kind:?} score in {}",
                b.fen()
            );
            let stm = if b.turn() == shakmaty::Color::White {
                t.white
            } else {
                -t.white
            };
            assert_eq!(stm, t.score);
            if kind == EvalKind::Full {
                let mg: i32 = t.terms.iter().map(|x| x.white.mg - x.black.mg).sum();
                let eg: i32 = t.terms.iter().map(|x| x.white.eg - x.black.eg).sum();
                assert_eq!((mg, eg), (t.mg, t.eg));
                // The cached evaluator agrees with the uncached one.
                assert_eq!(ev.evaluate(&b), t.score);
                assert_eq!(ev.evaluate(&b), t.score);
            }
        }
    }
}

#[test]
fn simplified_evaluation_known_values() {
    let start = Board::startpos();
    assert_eq!(evaluate(start.chess(), EvalKind::Simple), 0);
    // 1.e4: the pawn goes from e2 (-20) to e4 (+20): +40 for White, and it
    // is Black's move.
    let e4 = start.play(start.parse_uci("e2e4").unwrap());
    assert_eq!(evaluate(e4.chess(), EvalKind::Simple), -40);
    let t = trace(e4.chess(), EvalKind::Simple);
    assert_eq!(t.terms.len(), 2);
    assert_eq!(t.terms[0].term, Term::Material);
    assert_eq!(
        t.terms[0].white.mg,
        8 * 100 + 2 * 320 + 2 * 330 + 2 * 500 + 900
    );
    assert_eq!(t.terms[0].net(), 0);
    assert_eq!(t.terms[1].net(), 40);
    // A knight in the corner is worth 320 - 50.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/N3K3 w - - 0 1").unwrap();
    let t = trace(b.chess(), EvalKind::Simple);
    assert_eq!(t.terms[0].net(), 320);
    // Kings: e1 middlegame 0 vs e8 0; but this is an endgame (no queens),
    // so both kings use the endgame table (-30 on e1/e8 rank edges).
    assert_eq!(
        t.terms[1].white.mg,
        -50 + simple::square_value(
            shakmaty::Role::King,
            shakmaty::Color::White,
            shakmaty::Square::E1,
            true
        )
    );
}

#[test]
fn michniewski_endgame_rule() {
    let b = |f: &str| Board::from_fen(f).unwrap();
    assert!(!simple::is_endgame(
        b("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").board()
    ));
    // No queens: endgame.
    assert!(simple::is_endgame(
        b("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1").board()
    ));
    // Queen plus one minor each: endgame.
    assert!(simple::is_endgame(
        b("3qk1n1/pppppppp/8/8/8/8/PPPPPPPP/3QKB2 w - - 0 1").board()
    ));
    // A queen with a rook: not.
    assert!(!simple::is_endgame(
        b("3qk1n1/pppppppp/8/8/8/8/PPPPPPPP/R2QK3 w - - 0 1").board()
    ));
}

#[test]
fn full_evaluation_has_sensible_signs() {
    let e = |f: &str| evaluate(Board::from_fen(f).unwrap().chess(), EvalKind::Full);
    // Start position: small tempo bonus only.
    let start = e("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(start.abs() < 40, "{start}");
    // A queen up is winning.
    assert!(e("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > 700);
    // A lone bishop cannot win: scaled to (almost) nothing.
    assert!(e("8/8/4k3/8/8/8/4K3/2B5 w - - 0 1").abs() < 30);
    // Passed pawn on the 7th supported by the king is worth a lot in an endgame.
    assert!(e("8/4P3/4K3/8/8/8/8/k7 w - - 0 1") > 300);
}

#[test]
fn packed_scores() {
    for (mg, eg) in [(0, 0), (5, -7), (-300, 250), (1200, -1500), (-1, -1)] {
        let s = S::new(mg, eg);
        assert_eq!((s.mg(), s.eg()), (mg, eg));
        let t = s * 3 - S::new(1, 1) + S::new(1, 1);
        assert_eq!((t.mg(), t.eg()), (3 * mg, 3 * eg));
    }
}

#[test]
fn level_weights_are_used_when_chosen_and_the_pawn_cache_follows() {
    // The two sets differ (levels keep the weights they were calibrated
    // with); an evaluator switched between them scores every position
    // exactly as the weights it holds, whatever its pawn cache saw before.
    assert_ne!(WEIGHTS[..], LEVEL_WEIGHTS[..]);
    let mut ev = Evaluator::new(EvalKind::Full);
    let mut differ = 0;
    for b in positions() {
        ev.set_weights(WeightSet::Tuned);
        let tuned = ev.evaluate(&b);
        assert_eq!(
            tuned,
            evaluate_with(b.chess(), WeightSet::Tuned),
            "{}",
            b.fen()
        );
        ev.set_weights(WeightSet::Levels);
        let levels = ev.evaluate(&b);
        assert_eq!(
            levels,
            evaluate_with(b.chess(), WeightSet::Levels),
            "{}",
            b.fen()
        );
        differ += usize::from(tuned != levels);
    }
    assert!(differ > 100, "only {differ} positions score differently");
}

#[test]
fn the_network_is_symmetric_and_leaves_the_levels_alone() {
    // The embedded network: colour-mirrored positions get the same score
    // for the side to move, as the hand-crafted evaluation does.
    let mut nnue = Evaluator::new(EvalKind::Nnue);
    let mut full = Evaluator::new(EvalKind::Full);
    let mut differs = 0;
    for b in positions() {
        let m = mirror(&b);
        let (a, c) = (nnue.evaluate_std(&b), nnue.evaluate_std(&m));
        assert_eq!(a, c, "{} vs its mirror", b.fen());
        differs += usize::from(a != full.evaluate_std(&b));
    }
    // A committed network corrects the hand-crafted evaluation somewhere.
    let residual_nonzero = nnue::Network::embedded()
        .out_weights
        .iter()
        .any(|&w| w != 0);
    assert!(!residual_nonzero || differs > 0);
    // Levels 1-7 evaluate with their calibrated weights, network or not.
    nnue.set_weights(WeightSet::Levels);
    full.set_weights(WeightSet::Levels);
    for b in positions() {
        assert_eq!(nnue.evaluate_std(&b), full.evaluate_std(&b), "{}", b.fen());
    }
}

/// Black's king-safety share (middlegame, endgame) in `fen`, with or
/// without the fixed king-danger term, from the tuned weights.
fn black_king_safety(fen: &str, danger: bool) -> (i32, i32) {
    let b = Board::from_fen(fen).unwrap();
    let mut t = TermTracer::default();
    full::evaluate(b.chess(), &WEIGHTS, None, None, danger, &mut t);
    let s = t.sums[Term::KingSafety as usize][Color::Black as usize];
    (s.mg(), s.eg())
}

#[test]
fn king_danger_penalises_a_king_under_attack() {
    // White's queen, knight and rook against the castled king...
    let attacked = "r1b2rk1/pp3ppp/2n5/6NQ/8/7R/PP3PPP/6K1 w - - 0 1";
    // ...and the same pieces at home.
    let quiet = "r1b2rk1/pp3ppp/2n5/8/8/8/PP3PPP/RN1Q2K1 w - - 0 1";
    let penalty = |fen: &str| {
        let (mg0, eg0) = black_king_safety(fen, false);
        let (mg1, eg1) = black_king_safety(fen, true);
        (mg0 - mg1, eg0 - eg1)
    };
    let (mg, eg) = penalty(attacked);
    assert!(mg >= 100 && eg > 0, "attacked: {mg} {eg}");
    assert_eq!(penalty(quiet), (0, 0));
    // The whole evaluation sees it: the attack is worth clearly more to
    // White with king danger than without.
    let b = Board::from_fen(attacked).unwrap();
    let with = full::evaluate(b.chess(), &WEIGHTS, None, None, true, &mut NoTrace);
    let raw = full::evaluate(b.chess(), &WEIGHTS, None, None, false, &mut NoTrace);
    let gain = with.taper(with.mg, with.eg) - raw.taper(raw.mg, raw.eg);
    assert!(gain >= 80, "{gain}");
    // Colour-flipped, the side to move's score is the same.
    let m = mirror(&b);
    assert_eq!(
        evaluate(b.chess(), EvalKind::Full),
        evaluate(m.chess(), EvalKind::Full)
    );
    assert_eq!(
        trace(b.chess(), EvalKind::Full).white,
        -trace(m.chess(), EvalKind::Full).white
    );
}

/// A fingerprint of the evaluations of [`positions`].
fn fingerprint(mut eval: impl FnMut(&Board) -> i32) -> i64 {
    positions()
        .iter()
        .fold(0i64, |h, b| h.wrapping_mul(31).wrapping_add(eval(b) as i64))
}

#[test]
fn levels_evaluate_as_before_king_danger() {
    // Recorded before king danger existed: levels 1-7 must keep scoring
    // every position exactly as they were calibrated.
    assert_eq!(
        fingerprint(|b| evaluate_with(b.chess(), WeightSet::Levels)),
        -2989099637993540865
    );
    let mut ev = Evaluator::new(EvalKind::Full);
    ev.set_weights(WeightSet::Levels);
    assert_eq!(fingerprint(|b| ev.evaluate(b)), -2989099637993540865);
    // The tuned weights' own terms are unchanged too: only the king-danger
    // term is new.
    let without = |b: &Board| {
        let raw = full::evaluate(b.chess(), &WEIGHTS, None, None, false, &mut NoTrace);
        let white = raw.taper(raw.mg, raw.eg);
        if b.turn() == Color::White {
            white
        } else {
            -white
        }
    };
    assert_eq!(fingerprint(without), -1123640542017898339);
    // And, switched on, it matters in some of these positions.
    assert_eq!(
        fingerprint(|b| evaluate_with(b.chess(), WeightSet::Tuned)) != -1123640542017898339,
        super::king_danger::KING_DANGER
    );
}

/// The cache of evaluations gives what evaluating afresh gives, and every
/// setting that changes the evaluation empties it.
#[test]
fn cached_evaluations_follow_the_settings() {
    let mut ev = Evaluator::new(EvalKind::Nnue);
    let boards = positions();
    for kind in [
        EvalKind::Nnue,
        EvalKind::Full,
        EvalKind::Simple,
        EvalKind::Nnue,
    ] {
        ev.set_kind(kind);
        // Twice over: the second pass reads the cache.
        for _ in 0..2 {
            for b in &boards {
                assert_eq!(ev.evaluate(b), evaluate(b.chess(), kind), "{kind:?}");
            }
        }
    }
    ev.set_kind(EvalKind::Full);
    ev.set_weights(WeightSet::Levels);
    for b in &boards {
        assert_eq!(ev.evaluate(b), evaluate_with(b.chess(), WeightSet::Levels));
    }
    // A network of zeros: the residual network adds nothing.
    ev.set_kind(EvalKind::Nnue);
    ev.set_weights(WeightSet::Tuned);
    ev.set_network(std::sync::Arc::new(nnue::Network::zero(true)));
    for b in &boards {
        assert_eq!(ev.evaluate(b), evaluate(b.chess(), EvalKind::Full));
    }
}
