//! Forks: one piece attacking two enemy pieces at once.

use super::{attacked_pieces, attackers, is_defended, is_in_bad_spot, value};
use shakmaty::{Chess, Position, Role, Square};

/// One piece attacking two or more enemy pieces that it can win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fork {
    /// The forking piece's square.
    pub by: Square,
    /// The forked pieces' squares (at least two).
    pub targets: Vec<Square>,
}

/// The fork made by the piece on `by` in `pos_after` (typically the
/// position just after that piece moved), if it is one in lichess' sense:
/// - the forking piece is not a king and does not stand in a bad spot
///   itself (a fork by a piece that is simply taken wins nothing);
/// - it attacks at least two enemy pieces other than pawns (a pawn is
///   never worth a fork), each either worth more than the forking piece
///   (a king counts as the most valuable) or undefended and unable to
///   take the forking piece.
///
/// So a knight attacking two defended pawns, or two defended knights, is
/// no fork; a knight checking the king and attacking a rook is.
pub fn fork(pos_after: &Chess, by: Square) -> Option<Fork> {
    let board = pos_after.board();
    let piece = board.piece_at(by)?;
    if piece.role == Role::King || is_in_bad_spot(board, by) {
        return None;
    }
    let can_take_forker = attackers(board, by, !piece.color);
    let targets: Vec<Square> = attacked_pieces(board, by)
        .into_iter()
        .filter(|&(sq, role)| {
            role != Role::Pawn
                && (value(role) > value(piece.role)
                    || (!is_defended(board, sq) && !can_take_forker.contains(sq)))
        })
        .map(|(sq, _)| sq)
        .collect();
    (targets.len() >= 2).then_some(Fork { by, targets })
}
