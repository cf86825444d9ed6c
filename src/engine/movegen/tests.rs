use super::*;
use crate::engine::board::Board;
use crate::util::Rng;
use shakmaty::Chess;

fn key(m: &Move) -> String {
    format!("{m:?}")
}

/// A spread of moves of every kind, mostly illegal in any one position.
fn foreign_moves() -> Vec<Move> {
    use std::sync::OnceLock;
    static MOVES: OnceLock<Vec<Move>> = OnceLock::new();
    MOVES
        .get_or_init(|| {
            let mut rng = Rng::new(99);
            let mut out = Vec::new();
            for fen in [
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
                "1n2k3/P1P5/8/8/8/8/p1p5/1N2K3 w - - 0 1",
            ] {
                let mut pos = Board::from_fen(fen).unwrap().into_chess();
                for _ in 0..30 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    out.extend(moves.iter().copied());
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
            out.sort_by_key(|m| format!("{m:?}"));
            out.dedup();
            out
        })
        .clone()
}

/// Every ordinary move of the side to move's pieces to any square not its
/// own (captures named by what stands there, every promotion on the last
/// rank), legal or not.
fn every_shape(pos: &Chess) -> Vec<Move> {
    let board = pos.board();
    let mut out = Vec::new();
    for from in pos.us() {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        for to in !pos.us() {
            let capture = board.role_at(to);
            let promotions: &[Option<Role>] = if role == Role::Pawn && last_rank(to) {
                &[
                    Some(Role::Queen),
                    Some(Role::Rook),
                    Some(Role::Bishop),
                    Some(Role::Knight),
                ]
            } else {
                &[None]
            };
            for &promotion in promotions {
                out.push(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion,
                });
            }
        }
    }
    out
}

fn check(pos: &Chess, checked: &mut u32) {
    let fen = Board::from_chess(pos.clone()).fen();
    if pos.is_check() {
        // The evasions are shakmaty's legal moves, in the same order.
        let ctx = GenContext::new(pos).unwrap();
        let mut got = Vec::new();
        evasions(pos, &ctx, pos.checkers(), |m| got.push(key(&m)));
        let legal: Vec<String> = pos.legal_moves().iter().map(key).collect();
        assert_eq!(got, legal, "evasions differ in {fen}");
        // The legality test agrees with shakmaty's.
        for m in pos.legal_moves() {
            assert!(is_legal(pos, true, m), "{m:?} legal in {fen}");
        }
        for m in foreign_moves().into_iter().chain(every_shape(pos)) {
            assert_eq!(is_legal(pos, true, m), pos.is_legal(m), "{m:?} in {fen}");
        }
        *checked += 1;
        return;
    }
    let ctx = GenContext::new(pos).unwrap();
    let mut legal: Vec<String> = pos.legal_moves().iter().map(key).collect();
    legal.sort();
    let mut got = Vec::new();
    tactical(pos, &ctx, true, |m| got.push(key(&m)));
    let n_tactical = got.len();
    quiet(pos, &ctx, |m| got.push(key(&m)));
    let mut all = got.clone();
    all.sort();
    assert_eq!(all, legal, "staged generation differs in {fen}");
    // The split: captures and promotions first, quiet moves after.
    let expected_tactical = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_capture() || m.promotion() == Some(Role::Queen))
        .count();
    assert_eq!(n_tactical, expected_tactical, "tactical split in {fen}");
    // The fast legality test agrees with shakmaty on legal moves and on
    // moves taken from other positions.
    for m in pos.legal_moves() {
        assert!(is_legal(pos, false, m), "{m:?} legal in {fen}");
    }
    for m in foreign_moves() {
        assert_eq!(is_legal(pos, false, m), pos.is_legal(m), "{m:?} in {fen}");
    }
    // Quiet checks: exactly the quiet moves after which the opponent is in check.
    let mut checks: Vec<String> = Vec::new();
    quiet_checks(
        pos,
        &ctx,
        Board::from_chess(pos.clone()).discovery_candidates(),
        |m| checks.push(key(&m)),
    );
    checks.sort();
    let mut expect_checks: Vec<String> = Vec::new();
    quiet(pos, &ctx, |m| {
        let mut p = pos.clone();
        p.play_unchecked(m);
        if p.is_check() {
            expect_checks.push(key(&m));
        }
    });
    expect_checks.sort();
    assert_eq!(checks, expect_checks, "quiet checks differ in {fen}");
    // Quiescence generator: captures without underpromotion, queen promotions.
    let mut q: Vec<String> = tactical_moves(pos, false).iter().map(key).collect();
    q.sort();
    let mut expect: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| match m.promotion() {
            Some(Role::Queen) => true,
            Some(_) => false,
            None => m.is_capture(),
        })
        .map(key)
        .collect();
    expect.sort();
    assert_eq!(q, expect, "quiescence moves differ in {fen}");
    *checked += 1;
}

#[test]
fn staged_generation_equals_legal_moves() {
    let mut rng = Rng::new(5);
    let mut checked = 0;
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        // Pins along files, ranks and diagonals, and an en-passant pin.
        "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2",
        "4k3/4r3/8/8/4B3/3q4/4K3/8 w - - 0 1",
        // Promotions with and without capture, for both sides.
        "1n2k3/P1P5/8/8/8/8/p1p5/1N2K3 w - - 0 1",
        "1n2k3/P1P5/8/8/8/8/p1p5/1N2K3 b - - 0 1",
        // Discovered checks by every piece type, castling into check.
        "4k3/8/8/4N3/8/2B5/8/R3K2R w KQ - 0 1",
        "r3k2r/8/8/8/4q3/8/8/3K4 b kq - 0 1",
        "3k4/8/3P4/8/3Q4/8/8/4K3 w - - 0 1",
        // In check: a pinned piece that could block, a double check, an
        // en-passant capture of the checker, a king stepping along the
        // checking line.
        "4k3/4r3/8/b7/8/8/4N3/4K3 w - - 0 1",
        "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "4k3/8/8/8/8/8/8/r3K2R w K - 0 1",
    ] {
        // Random games from each position.
        for _ in 0..20 {
            let mut pos = Board::from_fen(fen).unwrap().into_chess();
            for _ in 0..40 {
                check(&pos, &mut checked);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(checked > 5000, "checked {checked} positions");
}
