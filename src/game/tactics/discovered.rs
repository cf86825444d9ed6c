//! Discovered attacks: a move that unmasks another piece's line.

use super::{dest, is_slider};
use shakmaty::{Chess, Move, Position, Square, attacks};

/// A piece of the mover's side that attacks `target` only because the
/// move left the line between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscoveredAttack {
    /// The unmasked rook, bishop or queen.
    pub by: Square,
    /// The enemy piece it now attacks (the king: a discovered check).
    pub target: Square,
}

/// The attacks that `m`, played in `before`, uncovers: enemy pieces that
/// a slider of the mover attacks afterwards and not before, through the
/// square the moved piece left. The moved piece's own attacks are not
/// counted (that is a direct attack, not a discovered one).
pub fn discovered_attacks(before: &Chess, m: Move) -> Vec<DiscoveredAttack> {
    let Some(from) = m.from() else {
        return Vec::new();
    };
    let mover = before.turn();
    let mut after = before.clone();
    after.play_unchecked(m);
    let board = after.board();
    let moved_to = dest(m);
    let mut out = Vec::new();
    for by in board.by_color(mover) {
        if by == moved_to || !board.role_at(by).is_some_and(is_slider) {
            continue;
        }
        let old = before.board().attacks_from(by);
        for target in board.attacks_from(by) & board.by_color(!mover) & !old {
            if attacks::between(by, target).contains(from) {
                out.push(DiscoveredAttack { by, target });
            }
        }
    }
    out
}

/// Whether `m` gave check with a piece other than the one that moved
/// (`pos_after` is the position after `m`), a double check included.
/// Castling's rook counts as moved.
pub fn is_discovered_check(pos_after: &Chess, m: Move) -> bool {
    let mut moved = shakmaty::Bitboard::from_square(dest(m));
    if let Move::Castle { king, rook } = m {
        let side = shakmaty::CastlingSide::from_king_side(rook > king);
        moved.add(Square::from_coords(side.rook_to_file(), king.rank()));
    }
    (pos_after.checkers() & !moved).any()
}
