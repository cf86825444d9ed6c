//! The shapes of some checkmates, and double check.

use super::attackers;
use shakmaty::{Chess, Color, Position, Rank, Square};

/// Whether the side to move is checkmated on its back rank in lichess'
/// sense: the king stands on its first rank, a checking piece stands on
/// that rank too, and the three squares in front of the king (fewer at the
/// edge) are all blocked by the king's own pieces, none of them attacked
/// by the mating side (so it is the own pieces, not the attackers, that
/// shut the king in).
pub fn is_back_rank_mate(pos: &Chess) -> bool {
    if !pos.is_checkmate() {
        return false;
    }
    let mated = pos.turn();
    let board = pos.board();
    let Some(king) = board.king_of(mated) else {
        return false;
    };
    let (back, forward) = match mated {
        Color::White => (Rank::First, 8),
        Color::Black => (Rank::Eighth, -8),
    };
    if king.rank() != back {
        return false;
    }
    let Some(front) = king.offset(forward) else {
        return false;
    };
    let shut = [-1, 0, 1]
        .into_iter()
        .filter_map(|df| {
            front
                .file()
                .offset(df)
                .map(|f| Square::from_coords(f, front.rank()))
        })
        .all(|sq| board.color_at(sq) == Some(mated) && attackers(board, sq, !mated).is_empty());
    shut && pos.checkers().into_iter().any(|c| c.rank() == back)
}

/// Whether the side to move is mated by a knight with every square around
/// its king taken by its own pieces: a smothered mate.
pub fn is_smothered_mate(pos: &Chess) -> bool {
    if !pos.is_checkmate() {
        return false;
    }
    let board = pos.board();
    let mated = pos.turn();
    let Some(king) = board.king_of(mated) else {
        return false;
    };
    (pos.checkers() & board.knights()).any()
        && (shakmaty::attacks::king_attacks(king) & !board.by_color(mated)).is_empty()
}

/// Whether the side to move is in check from two pieces at once (only a
/// king move answers it).
pub fn is_double_check(pos: &Chess) -> bool {
    pos.checkers().more_than_one()
}
