//! Skewers: a slider attacking a valuable piece with a lesser one behind
//! it on the same line.

use super::{is_in_bad_spot, is_slider, value};
use shakmaty::{Chess, Position, Square, attacks};

/// A slider attacking `front`, which is worth more than `behind`, the
/// next piece on the line: when `front` steps away, `behind` falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skewer {
    /// The attacking rook, bishop or queen.
    pub by: Square,
    /// The attacked, more valuable piece (often the king).
    pub front: Square,
    /// The piece behind it, won once the front piece moves.
    pub behind: Square,
}

/// The skewer made by the slider on `by` in `pos_after`, if any: it
/// attacks an enemy piece worth more (a king counts as the most valuable)
/// than the enemy piece right behind it on the same line, and with the
/// front piece gone the one behind stands in a bad spot (undefended, or
/// attacked by something cheaper), so moving out of the line loses it.
///
/// This is the position seen before the front piece moves; lichess' theme
/// looks at the game instead (the front piece moved and the piece behind
/// was taken), see [`crate::train::themes`].
pub fn skewer(pos_after: &Chess, by: Square) -> Option<Skewer> {
    let board = pos_after.board();
    let piece = board.piece_at(by)?;
    if !is_slider(piece.role) {
        return None;
    }
    let them = board.by_color(!piece.color);
    for front in board.attacks_from(by) & them {
        let Some(front_role) = board.role_at(front) else {
            continue;
        };
        let mut without = board.clone();
        without.discard_piece_at(front);
        // The first piece beyond `front` on the line from `by`.
        let beyond = attacks::attacks(by, piece, without.occupied())
            & attacks::ray(by, front)
            & !attacks::between(by, front)
            & without.occupied();
        let Some(behind) = (beyond & them).first() else {
            continue;
        };
        let Some(behind_role) = board.role_at(behind) else {
            continue;
        };
        if value(front_role) > value(behind_role) && is_in_bad_spot(&without, behind) {
            return Some(Skewer { by, front, behind });
        }
    }
    None
}
