//! Static exchange evaluation: does a move win at least `threshold`
//! centipawns if both sides keep capturing on its target square with their
//! least valuable attacker? X-ray attackers behind moved sliders join in;
//! pins are ignored.

use shakmaty::{Bitboard, Color, Move, Position, Role, attacks};

/// Piece values used by SEE (king: large, it can only capture last).
pub const SEE_VALUE: [i32; 7] = [0, 100, 300, 300, 500, 900, 20000];

#[inline]
pub fn value(role: Role) -> i32 {
    SEE_VALUE[role as usize]
}

/// The material the move captures (promotions count their gain).
#[inline]
pub fn gain(m: Move) -> i32 {
    let captured = m.capture().map_or(0, value);
    match m.promotion() {
        Some(p) => captured + value(p) - value(Role::Pawn),
        None => captured,
    }
}

/// True if the exchange started by `m` gains at least `threshold`. A drop
/// starts an exchange like a quiet move: it wins nothing and may lose the
/// dropped piece.
pub fn see_ge<P: Position>(pos: &P, m: Move, threshold: i32) -> bool {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (Some(from), to),
        Move::Put { to, .. } => (None, to),
        // Castling never loses material.
        Move::Castle { .. } => return 0 >= threshold,
    };
    let board = pos.board();

    // What we win first, minus the threshold.
    let mut swap = gain(m) - threshold;
    if swap < 0 {
        return false;
    }
    // What we lose if the piece now on `to` is taken.
    let moved = m.promotion().unwrap_or(m.role());
    swap = value(moved) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = match from {
        Some(from) => board.occupied() ^ Bitboard::from(from) | Bitboard::from(to),
        None => board.occupied() | Bitboard::from(to),
    };
    if let (Move::EnPassant { .. }, Some(from)) = (m, from) {
        occupied ^= Bitboard::from(shakmaty::Square::from_coords(to.file(), from.rank()));
    }
    let mut stm = pos.turn();
    let bishops = board.bishops_and_queens();
    let rooks = board.rooks_and_queens();
    let mut attackers = attackers_to(board, to, occupied) & occupied;
    let mut res = true;

    loop {
        stm = !stm;
        attackers &= occupied;
        let stm_attackers = attackers & board.by_color(stm);
        if stm_attackers.is_empty() {
            break;
        }
        res = !res;

        // Least valuable attacker.
        let mut next = None;
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let bb = stm_attackers & board.by_role(role);
            if let Some(sq) = bb.first() {
                next = Some((role, sq));
                break;
            }
        }
        match next {
            Some((role, sq)) => {
                swap = value(role) - swap;
                if swap < res as i32 {
                    break;
                }
                occupied ^= Bitboard::from(sq);
                // Sliders behind the capturer now see the square.
                if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
                    attackers |= attacks::bishop_attacks(to, occupied) & bishops;
                }
                if matches!(role, Role::Rook | Role::Queen) {
                    attackers |= attacks::rook_attacks(to, occupied) & rooks;
                }
            }
            None => {
                // Only the king is left: it may capture only if the square is
                // not defended any more.
                return if (attackers & !board.by_color(stm)).any() {
                    !res
                } else {
                    res
                };
            }
        }
    }
    res
}

/// Pieces of both colours attacking `to` with `occupied` (what
/// `attacks_to` gives for White and for Black, with each slider lookup
/// done once).
#[inline(always)]
fn attackers_to(board: &shakmaty::Board, to: shakmaty::Square, occupied: Bitboard) -> Bitboard {
    let pawns = board.pawns();
    attacks::rook_attacks(to, occupied) & board.rooks_and_queens()
        | attacks::bishop_attacks(to, occupied) & board.bishops_and_queens()
        | attacks::knight_attacks(to) & board.knights()
        | attacks::king_attacks(to) & board.kings()
        | attacks::pawn_attacks(Color::Black, to) & pawns & board.white()
        | attacks::pawn_attacks(Color::White, to) & pawns & board.black()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Board;

    #[test]
    fn attackers_of_both_colours_at_once() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "2r3k1/1q3ppp/p3p3/1p1nP3/3P4/P2Q1N2/1P3PPP/2R3K1 b - - 3 24",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let board = b.board();
            for to in shakmaty::Square::ALL {
                // With the board's occupancy and with pieces taken off it.
                for occupied in [board.occupied(), board.occupied() & !board.pawns()] {
                    assert_eq!(
                        attackers_to(board, to, occupied),
                        board.attacks_to(to, Color::White, occupied)
                            | board.attacks_to(to, Color::Black, occupied),
                        "{fen} {to}"
                    );
                }
            }
        }
    }

    fn see(fen: &str, uci: &str) -> (bool, bool, bool) {
        let b = Board::from_fen(fen).unwrap();
        let m = b.parse_uci(uci).unwrap();
        (
            see_ge(b.chess(), m, 0),
            see_ge(b.chess(), m, 1),
            see_ge(b.chess(), m, -1),
        )
    }

    /// Exact SEE value found by bisection on the threshold.
    fn see_value(fen: &str, uci: &str) -> i32 {
        let b = Board::from_fen(fen).unwrap();
        let m = b.parse_uci(uci).unwrap();
        let (mut lo, mut hi) = (-3000, 3000);
        // Invariant: see_ge(lo) && !see_ge(hi)
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if see_ge(b.chess(), m, mid) {
                lo = mid
            } else {
                hi = mid
            }
        }
        lo
    }

    #[test]
    fn known_exchanges() {
        // Rook takes an undefended pawn: +100.
        assert_eq!(
            see_value("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Knight takes a pawn defended by a pawn behind a queen battery: loses N for P.
        assert_eq!(
            see_value(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            -200
        );
        // Pawn takes a defended knight: +200 (N for P).
        assert_eq!(see_value("4k3/8/1n6/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 0);
        assert_eq!(
            see_value("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
            200
        );
        // Queen takes a pawn defended by a pawn: -800.
        assert_eq!(
            see_value("4k3/2p5/3p4/8/8/8/3Q4/4K3 w - - 0 1", "d2d6"),
            -800
        );
        // X-ray: after RxR RxR the rook behind recaptures: a rook up.
        assert_eq!(
            see_value("3r2k1/3r4/8/8/8/8/3R4/3R2K1 w - - 0 1", "d2d7"),
            500
        );
        // Quiet move to a square a pawn attacks loses the piece.
        assert_eq!(see_value("4k3/8/8/8/3p4/8/8/2B1K3 w - - 0 1", "c1e3"), -300);
        // King takes an undefended rook.
        assert_eq!(see_value("4k3/8/8/8/8/3n4/3r4/3K4 w - - 0 1", "d1d2"), 500);
        let (ge0, ge1, gem1) = see("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5");
        assert!(ge0 && ge1 && gem1);
    }

    #[test]
    fn en_passant_and_promotion() {
        assert_eq!(see_value("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"), 100);
        assert_eq!(see_value("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), 800);
        // Promotion onto a defended square loses the new queen for a pawn.
        assert_eq!(see_value("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), -100);
    }
}
