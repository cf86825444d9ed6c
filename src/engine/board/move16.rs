//! The 16-bit move of the transposition table.

use shakmaty::{Move, Role, Square};

/// A move packed into 16 bits for the transposition table:
/// from (6 bits) | to (6 bits) | promotion role (3 bits). Castling is stored
/// as king-takes-rook, as shakmaty represents it. A drop is stored with
/// from = to (no board move has that) and its role in the promotion bits.
/// Zero means "no move".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct Move16(pub u16);

impl Move16 {
    pub const NONE: Move16 = Move16(0);

    #[inline]
    pub fn new(m: Move) -> Move16 {
        let (from, to, promo) = match m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => (from, to, promotion.map_or(0, |r| r as u16)),
            Move::EnPassant { from, to } => (from, to, 0),
            Move::Castle { king, rook } => (king, rook, 0),
            Move::Put { role, to } => (to, to, role as u16),
        };
        Move16(from as u16 | (to as u16) << 6 | promo << 12)
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The dropped role of a drop's code.
    #[inline]
    pub(super) fn drop_role(self) -> Option<Role> {
        Role::try_from(self.0 >> 12).ok()
    }

    #[inline]
    pub(super) fn parts(self) -> (Square, Square, Option<Role>) {
        let from = Square::new((self.0 & 63) as u32);
        let to = Square::new(((self.0 >> 6) & 63) as u32);
        let promo = match self.0 >> 12 {
            2 => Some(Role::Knight),
            3 => Some(Role::Bishop),
            4 => Some(Role::Rook),
            5 => Some(Role::Queen),
            _ => None,
        };
        (from, to, promo)
    }
}
