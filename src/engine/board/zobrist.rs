//! The parts of the Zobrist key: shakmaty's Polyglot-compatible numbers
//! for pieces, pockets, promoted pieces, turn, castling rights and the
//! en-passant file (Polyglot's rule).

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Color, Piece, Position, Role, Square, attacks};

#[inline]
pub(super) fn zpocket(color: Color, role: Role, n: u8) -> u64 {
    Zobrist64::zobrist_for_pocket(color, role, n).0
}

#[inline]
pub(super) fn zpromoted(sq: Square) -> u64 {
    Zobrist64::zobrist_for_promoted(sq).0
}

#[inline]
pub(super) fn zpiece(sq: Square, piece: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(sq, piece).0
}

#[inline]
pub(super) fn zturn() -> u64 {
    Zobrist64::zobrist_for_white_turn().0
}

#[inline]
pub(super) fn zcastle<P: Position>(pos: &P) -> u64 {
    let castles = pos.castles();
    let mut h = 0;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                h ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    h
}

/// The en-passant part of the key: the file of the ep square when a pawn of
/// the side to move attacks it (Polyglot's rule).
#[inline]
pub(super) fn zep<P: Position>(pos: &P) -> u64 {
    match pos.maybe_ep_square() {
        Some(ep) if (attacks::pawn_attacks(!pos.turn(), ep) & pos.our(Role::Pawn)).any() => {
            Zobrist64::zobrist_for_en_passant_file(ep.file()).0
        }
        _ => 0,
    }
}
