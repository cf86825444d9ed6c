//! Tactical motifs found on a position, without search: forks, pins,
//! skewers, discovered attacks, hanging and trapped pieces, and the shapes
//! of some mates.
//!
//! The definitions follow lichess' puzzle tagger (`lichess-puzzler`), so the
//! puzzle themes made from them ([`crate::train::themes`]) mean what
//! lichess' do; they are plain enough to explain a mistake in words too.
//! The common words:
//! - a piece is **defended** when a piece of its own side attacks its
//!   square, also from behind an enemy slider that attacks it (a rook
//!   behind the rook that takes on the square defends it);
//! - it is **hanging** when it is not defended (whether attacked or not:
//!   [`hanging`] lists the attacked ones);
//! - it stands in a **bad spot** when it is attacked and either hanging or
//!   attackable by an enemy piece worth less than itself (not a king).
//!
//! Piece values are the usual 1, 3, 3, 5, 9, with the king at 99 so that it
//! is always the most valuable target; material counts leave kings out.

mod discovered;
mod fork;
mod mates;
mod pin;
mod skewer;

#[cfg(test)]
mod tests;

pub use discovered::{DiscoveredAttack, discovered_attacks, is_discovered_check};
pub use fork::{Fork, fork};
pub use mates::{is_back_rank_mate, is_double_check, is_smothered_mate};
pub use pin::{Pin, PinEffect, pin_effect, pin_ray, pins};
pub use skewer::{Skewer, skewer};

use shakmaty::{Bitboard, Board, CastlingSide, Chess, Color, Move, Position, Role, Square};

/// What a piece is worth in pawns; the king 99 (more than all the rest
/// together, so attacking it always counts as attacking the most valuable
/// piece).
pub const fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 99,
    }
}

/// The sum of `color`'s piece values, kings left out.
pub fn material(board: &Board, color: Color) -> i32 {
    let m = board.material_side(color);
    [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ]
    .into_iter()
    .map(|r| i32::from(m[r]) * value(r))
    .sum()
}

/// `color`'s material minus the other side's.
pub fn material_diff(board: &Board, color: Color) -> i32 {
    material(board, color) - material(board, !color)
}

/// Rooks, bishops and queens: the pieces that act along lines.
pub const fn is_slider(role: Role) -> bool {
    matches!(role, Role::Rook | Role::Bishop | Role::Queen)
}

/// Where the moved piece stands after `m`: its target square, and for
/// castling the king's square (shakmaty's castling move points at the
/// rook, UCI and people at the king's target).
pub fn dest(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            Square::from_coords(side.king_to_file(), king.rank())
        }
        _ => m.to(),
    }
}

/// The pieces of `by` that attack `sq` (pinned ones too: a pinned piece
/// still guards and threatens).
pub fn attackers(board: &Board, sq: Square, by: Color) -> Bitboard {
    board.attacks_to(sq, by, board.occupied())
}

/// The pieces defending the piece on `sq` directly (its own side's pieces
/// that attack its square); empty for an empty square. See
/// [`is_defended`] for defence through an attacker.
pub fn defenders(board: &Board, sq: Square) -> Bitboard {
    board
        .color_at(sq)
        .map_or(Bitboard::EMPTY, |color| attackers(board, sq, color))
}

/// The enemy pieces the piece on `from` attacks, with their squares.
pub fn attacked_pieces(board: &Board, from: Square) -> Vec<(Square, Role)> {
    let Some(color) = board.color_at(from) else {
        return Vec::new();
    };
    (board.attacks_from(from) & board.by_color(!color))
        .into_iter()
        .filter_map(|sq| board.role_at(sq).map(|r| (sq, r)))
        .collect()
}

/// Whether the piece on `sq` is defended by its own side, directly or from
/// behind an enemy slider that attacks it (an x-ray defence: the slider
/// that takes is taken back). An empty square is not defended.
pub fn is_defended(board: &Board, sq: Square) -> bool {
    let Some(color) = board.color_at(sq) else {
        return false;
    };
    if defenders(board, sq).any() {
        return true;
    }
    attackers(board, sq, !color).into_iter().any(|a| {
        if !board.role_at(a).is_some_and(is_slider) {
            return false;
        }
        let mut without = board.clone();
        without.discard_piece_at(a);
        attackers(&without, sq, color).any()
    })
}

/// Whether some enemy piece worth less than the piece on `sq` (not the
/// king) attacks it: taking would win material even if it is defended.
pub fn can_be_taken_by_lower_piece(board: &Board, sq: Square) -> bool {
    let Some(piece) = board.piece_at(sq) else {
        return false;
    };
    attackers(board, sq, !piece.color).into_iter().any(|a| {
        board
            .role_at(a)
            .is_some_and(|r| r != Role::King && value(r) < value(piece.role))
    })
}

/// Whether the piece on `sq` is attacked and either undefended or
/// attacked by a cheaper piece: where it stands, it can be won.
pub fn is_in_bad_spot(board: &Board, sq: Square) -> bool {
    let Some(color) = board.color_at(sq) else {
        return false;
    };
    attackers(board, sq, !color).any()
        && (!is_defended(board, sq) || can_be_taken_by_lower_piece(board, sq))
}

/// `color`'s pieces (kings left out) that the other side attacks and that
/// no piece of `color` defends: they can be taken for free.
pub fn hanging(board: &Board, color: Color) -> Vec<Square> {
    (board.by_color(color) & !board.kings())
        .into_iter()
        .filter(|&sq| attackers(board, sq, !color).any() && !is_defended(board, sq))
        .collect()
}

/// Whether the piece on `sq`, of the side to move, is trapped: it stands
/// in a bad spot and every legal move of it either lands in a bad spot
/// again or takes a piece worth less. Kings and pawns are never trapped,
/// nor are pieces of a side in check or pieces pinned to their king (they
/// have other worries).
pub fn is_trapped(pos: &Chess, sq: Square) -> bool {
    let board = pos.board();
    let Some(piece) = board.piece_at(sq) else {
        return false;
    };
    if piece.color != pos.turn()
        || pos.is_check()
        || pin_ray(board, sq).is_some()
        || matches!(piece.role, Role::Pawn | Role::King)
        || !is_in_bad_spot(board, sq)
    {
        return false;
    }
    for m in pos.legal_moves().iter().filter(|m| m.from() == Some(sq)) {
        if m.capture().is_some_and(|c| value(c) >= value(piece.role)) {
            return false;
        }
        let mut after = pos.clone();
        after.play_unchecked(*m);
        if !is_in_bad_spot(after.board(), dest(*m)) {
            return false;
        }
    }
    true
}
