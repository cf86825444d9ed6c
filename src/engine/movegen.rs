//! Staged legal move generation on shakmaty's attack tables.
//!
//! shakmaty generates all legal moves at once (`capture_moves()` generates
//! everything and then filters). The search mostly needs the tactical moves
//! first and often never gets to the quiet ones (a capture or the TT move cuts
//! the node), and quiescence nodes need captures only. So, when the side to
//! move is not in check, we generate the two groups separately:
//! - [`tactical`]: captures (with promotion) and queen promotions;
//! - [`quiet`]: everything else (pushes, piece moves, castling, quiet
//!   underpromotions).
//!
//! Legality uses a pin mask (a pinned piece may only move along the line to
//! its king) and, for king moves, the attacks on the target square with the
//! king lifted off the board. En passant and castling come from shakmaty's
//! own legal generators. In check, use shakmaty's evasion generator
//! (`legal_moves()`). The union of both groups is exactly the legal moves
//! (tested against shakmaty below).

use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, Move, MoveList, Position, Rank, Role, Square, attacks,
};

/// Per-node facts shared by both generators.
#[derive(Copy, Clone, Debug)]
pub struct GenContext {
    pub king: Square,
    pub pinned: Bitboard,
}

impl GenContext {
    /// `None` when the side to move has no king (not a legal chess position).
    #[inline]
    pub fn new(pos: &Chess) -> Option<GenContext> {
        let king = pos.board().king_of(pos.turn())?;
        Some(GenContext {
            king,
            pinned: pinned(pos, king),
        })
    }
}

/// Our pieces pinned to our king.
#[inline]
pub fn pinned(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let us = pos.us();
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & pos.them();
    let occupied = board.occupied();
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one() {
            pinned |= between & us;
        }
    }
    pinned
}

#[inline(always)]
fn last_rank(to: Square) -> bool {
    matches!(to.rank(), Rank::First | Rank::Eighth)
}

#[inline(always)]
fn allowed(ctx: &GenContext, from: Square, to: Square) -> bool {
    !ctx.pinned.contains(from) || attacks::aligned(ctx.king, from, to)
}

/// Pieces other than pawns and the king, to `targets`.
#[inline(always)]
fn piece_moves(pos: &Chess, ctx: &GenContext, targets: Bitboard, f: &mut impl FnMut(Move)) {
    let board = pos.board();
    let us = pos.us();
    let occupied = board.occupied();
    for from in board.knights() & us & !ctx.pinned {
        for to in attacks::knight_attacks(from) & targets {
            f(Move::Normal {
                role: Role::Knight,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
    for (role, pieces) in [
        (Role::Bishop, board.bishops()),
        (Role::Rook, board.rooks()),
        (Role::Queen, board.queens()),
    ] {
        for from in pieces & us {
            let mut to_set = match role {
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            } & targets;
            if ctx.pinned.contains(from) {
                to_set &= attacks::ray(ctx.king, from);
            }
            for to in to_set {
                f(Move::Normal {
                    role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }
}

/// King steps to `targets` that are not attacked once the king has moved.
#[inline(always)]
fn king_moves(pos: &Chess, ctx: &GenContext, targets: Bitboard, f: &mut impl FnMut(Move)) {
    let board = pos.board();
    let occupied = board.occupied().without(ctx.king);
    for to in attacks::king_attacks(ctx.king) & targets {
        if board.attacks_to(to, !pos.turn(), occupied).is_empty() {
            f(Move::Normal {
                role: Role::King,
                from: ctx.king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

/// Captures and queen promotions (not in check). With `underpromotions`,
/// capturing underpromotions too (the main search needs every legal move;
/// quiescence does not).
pub fn tactical(pos: &Chess, ctx: &GenContext, underpromotions: bool, mut f: impl FnMut(Move)) {
    let board = pos.board();
    let turn = pos.turn();
    let us = pos.us();
    let targets = pos.them() & !board.kings();
    let occupied = board.occupied();

    let pawns = board.pawns() & us;
    for from in pawns {
        for to in attacks::pawn_attacks(turn, from) & targets {
            if !allowed(ctx, from, to) {
                continue;
            }
            let capture = board.role_at(to);
            if last_rank(to) {
                f(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(Role::Queen),
                });
                if underpromotions {
                    for p in [Role::Knight, Role::Rook, Role::Bishop] {
                        f(Move::Normal {
                            role: Role::Pawn,
                            from,
                            capture,
                            to,
                            promotion: Some(p),
                        });
                    }
                }
            } else {
                f(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
        }
    }
    // Queen promotions by a push.
    let (seventh, step) = match turn {
        Color::White => (Bitboard::from_rank(Rank::Seventh), 8),
        Color::Black => (Bitboard::from_rank(Rank::Second), -8),
    };
    for from in pawns & seventh {
        if let Some(to) = from.offset(step)
            && !occupied.contains(to)
            && allowed(ctx, from, to)
        {
            f(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to,
                promotion: Some(Role::Queen),
            });
        }
    }
    if pos.maybe_ep_square().is_some() {
        for m in pos.en_passant_moves() {
            f(m);
        }
    }
    piece_moves(pos, ctx, targets, &mut f);
    king_moves(pos, ctx, targets, &mut f);
}

/// Every legal move that [`tactical`] (with underpromotions) does not
/// generate (not in check): pushes, quiet underpromotions, quiet piece and
/// king moves, castling.
pub fn quiet(pos: &Chess, ctx: &GenContext, mut f: impl FnMut(Move)) {
    let board = pos.board();
    let turn = pos.turn();
    let us = pos.us();
    let empty = !board.occupied();

    let pawns = board.pawns() & us;
    let (step, start_rank): (i32, Rank) = match turn {
        Color::White => (8, Rank::Second),
        Color::Black => (-8, Rank::Seventh),
    };
    for from in pawns {
        let Some(to) = from.offset(step) else {
            continue;
        };
        if !empty.contains(to) {
            continue;
        }
        if allowed(ctx, from, to) {
            if last_rank(to) {
                for p in [Role::Knight, Role::Rook, Role::Bishop] {
                    f(Move::Normal {
                        role: Role::Pawn,
                        from,
                        capture: None,
                        to,
                        promotion: Some(p),
                    });
                }
            } else {
                f(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: None,
                    to,
                    promotion: None,
                });
            }
        }
        if from.rank() == start_rank
            && let Some(to2) = to.offset(step)
            && empty.contains(to2)
            && allowed(ctx, from, to2)
        {
            f(Move::Normal {
                role: Role::Pawn,
                from,
                capture: None,
                to: to2,
                promotion: None,
            });
        }
    }
    piece_moves(pos, ctx, empty, &mut f);
    king_moves(pos, ctx, empty, &mut f);
    if pos.castles().has_color(turn) {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if pos.castles().has(turn, side) {
                for m in pos.castling_moves(side) {
                    f(m);
                }
            }
        }
    }
}

/// The moves quiescence search looks at: all evasions when in check,
/// otherwise captures and queen promotions.
pub fn tactical_moves(pos: &Chess, in_check: bool) -> MoveList {
    if in_check {
        return pos.legal_moves();
    }
    let mut moves = MoveList::new();
    if let Some(ctx) = GenContext::new(pos) {
        tactical(pos, &ctx, false, |m| moves.push(m));
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;
    use crate::util::Rng;

    fn key(m: &Move) -> String {
        format!("{m:?}")
    }

    fn check(pos: &Chess, checked: &mut u32) {
        if pos.is_check() {
            return;
        }
        let fen = Board::from_chess(pos.clone()).fen();
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
}
