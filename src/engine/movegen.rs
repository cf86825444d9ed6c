//! A dedicated generator of legal captures and queen promotions for the
//! quiescence search.
//!
//! shakmaty's `capture_moves()` generates every legal move and then filters;
//! quiescence nodes are the majority of all nodes, so we generate only the
//! tactical moves, with shakmaty's attack tables, and check legality with a
//! pin mask instead of trying each move. Positions in check use shakmaty's
//! evasion generator instead (see [`tactical_moves`]).

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Rank, Role, Square, attacks};

/// Our pieces pinned to our king.
#[inline]
pub fn pinned(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let us = pos.us();
    let them = pos.them();
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        & them;
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

#[inline]
fn push_pawn_move(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    let promotion = if matches!(to.rank(), Rank::First | Rank::Eighth) {
        Some(Role::Queen)
    } else {
        None
    };
    moves.push(Move::Normal {
        role: Role::Pawn,
        from,
        capture,
        to,
        promotion,
    });
}

/// Legal captures (with queen promotion when capturing onto the last rank),
/// en passant, and quiet queen promotions. The side to move must not be in
/// check.
pub fn captures_and_promotions(pos: &Chess, moves: &mut MoveList) {
    debug_assert!(!pos.is_check());
    let board = pos.board();
    let turn = pos.turn();
    let us = pos.us();
    let them = pos.them();
    let occupied = board.occupied();
    let Some(king) = board.king_of(turn) else {
        return;
    };
    let pinned = pinned(pos, king);
    let targets = them & !board.kings();

    // Pawns.
    let pawns = board.pawns() & us;
    for from in pawns {
        let caps = attacks::pawn_attacks(turn, from) & targets;
        for to in caps {
            if pinned.contains(from) && !attacks::aligned(king, from, to) {
                continue;
            }
            push_pawn_move(moves, from, to, board.role_at(to));
        }
    }
    // Quiet queen promotions.
    let seventh = match turn {
        Color::White => Bitboard::from_rank(Rank::Seventh),
        Color::Black => Bitboard::from_rank(Rank::Second),
    };
    for from in pawns & seventh {
        let to = match turn {
            Color::White => from.offset(8),
            Color::Black => from.offset(-8),
        };
        if let Some(to) = to
            && !occupied.contains(to)
            && (!pinned.contains(from) || attacks::aligned(king, from, to))
        {
            push_pawn_move(moves, from, to, None);
        }
    }
    if pos.maybe_ep_square().is_some() {
        moves.extend(pos.en_passant_moves());
    }

    // Knights (a pinned knight can never move).
    for from in board.knights() & us & !pinned {
        for to in attacks::knight_attacks(from) & targets {
            moves.push(Move::Normal {
                role: Role::Knight,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
    // Sliders.
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
            if pinned.contains(from) {
                to_set &= attacks::ray(king, from);
            }
            for to in to_set {
                moves.push(Move::Normal {
                    role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }
    // King: the target square must not be attacked once the king has left.
    for to in attacks::king_attacks(king) & targets {
        if board
            .attacks_to(to, !turn, occupied.without(king))
            .is_empty()
        {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

/// The moves quiescence search looks at: all evasions when in check,
/// otherwise captures and queen promotions.
pub fn tactical_moves(pos: &Chess, in_check: bool) -> MoveList {
    if in_check {
        pos.legal_moves()
    } else {
        let mut moves = MoveList::new();
        captures_and_promotions(pos, &mut moves);
        moves
    }
}

/// Is this move a capture or a promotion (a "noisy" move)?
#[inline]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;

    fn expected(pos: &Chess) -> Vec<Move> {
        let mut v: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| match m.promotion() {
                Some(Role::Queen) => true,
                Some(_) => false,
                None => m.is_capture(),
            })
            .collect();
        v.sort_by_key(|m| format!("{m:?}"));
        v
    }

    fn check_tree(pos: &Chess, depth: u32, checked: &mut u32) {
        if !pos.is_check() {
            let mut got = MoveList::new();
            captures_and_promotions(pos, &mut got);
            let mut got: Vec<Move> = got.into_iter().collect();
            got.sort_by_key(|m| format!("{m:?}"));
            let fen = Board::from_chess(pos.clone()).fen();
            assert_eq!(got, expected(pos), "captures differ in {fen}");
            *checked += 1;
        }
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            check_tree(&child, depth - 1, checked);
        }
    }

    #[test]
    fn generator_matches_filtered_legal_moves() {
        let mut checked = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            // Pins along files, ranks and diagonals, and an en-passant pin.
            "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2",
            "4k3/4r3/8/8/4B3/3q4/4K3/8 w - - 0 1",
        ] {
            let pos = Board::from_fen(fen).unwrap().into_chess();
            check_tree(&pos, 2, &mut checked);
        }
        assert!(checked > 5000, "checked {checked} positions");
    }
}
