//! Pins to the king, and what a pin does.

use super::{attackers, is_defended, value};
use shakmaty::{Bitboard, Board, Color, Role, Square, attacks};

/// A piece that may not leave the line between its king and an enemy
/// slider (an absolute pin: moving it would expose the king).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pin {
    /// The pinned piece's square.
    pub pinned: Square,
    /// The enemy rook, bishop or queen that pins it.
    pub pinner: Square,
    /// The pinned side's king.
    pub king: Square,
}

impl Pin {
    /// The whole line through king and pinner, edge to edge: the pinned
    /// piece may still move along it (and take the pinner).
    pub fn ray(&self) -> Bitboard {
        attacks::ray(self.king, self.pinner)
    }
}

/// Why a pin matters, in lichess' two senses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinEffect {
    /// The pinned piece attacks `target` off the pin line, a piece worth
    /// more than itself or undefended, and cannot take it.
    CannotTake { target: Square },
    /// `attacker` attacks the pinned piece along the pin line and the piece
    /// cannot step away: the attacker is worth less, or the pinned piece
    /// is undefended, cannot take the attacker, and could otherwise move.
    CannotEscape { attacker: Square },
}

/// The pin on the piece on `sq`, if it is pinned to its own king.
fn pin_of(board: &Board, sq: Square) -> Option<Pin> {
    let color = board.color_at(sq)?;
    let king = board.king_of(color)?;
    if king == sq {
        return None;
    }
    let line = attacks::ray(king, sq);
    if line.is_empty() {
        return None;
    }
    let straight = king.file() == sq.file() || king.rank() == sq.rank();
    let sliders = if straight {
        board.rooks_and_queens()
    } else {
        board.bishops_and_queens()
    };
    let only = Bitboard::from_square(sq);
    (sliders & board.by_color(!color) & line)
        .into_iter()
        .find(|&s| attacks::between(s, king) & (board.occupied() | only) == only)
        .map(|pinner| Pin {
            pinned: sq,
            pinner,
            king,
        })
}

/// The line the piece on `sq` is pinned to (see [`Pin::ray`]), or `None`
/// when it is free to move (or no piece stands there).
pub fn pin_ray(board: &Board, sq: Square) -> Option<Bitboard> {
    pin_of(board, sq).map(|p| p.ray())
}

/// Every piece of `color` pinned to its king.
pub fn pins(board: &Board, color: Color) -> Vec<Pin> {
    (board.by_color(color) & !board.kings())
        .into_iter()
        .filter_map(|sq| pin_of(board, sq))
        .collect()
}

/// Whether the piece on `sq` has a pseudo-legal move off `ray` (as if it
/// were its side's turn): it would run if it were not pinned.
fn could_leave(board: &Board, sq: Square, ray: Bitboard) -> bool {
    let Some(piece) = board.piece_at(sq) else {
        return false;
    };
    if piece.role != Role::Pawn {
        return (board.attacks_from(sq) & !board.by_color(piece.color) & !ray).any();
    }
    let them = board.by_color(!piece.color);
    if (attacks::pawn_attacks(piece.color, sq) & them & !ray).any() {
        return true;
    }
    let forward = if piece.color == Color::White { 8 } else { -8 };
    let Some(one) = sq.offset(forward) else {
        return false;
    };
    if board.occupied().contains(one) {
        return false;
    }
    // Off the line with one step; a double step stays on the line when the
    // single one does (the line is then the pawn's file).
    !ray.contains(one)
}

/// What `pin` does on `board`, if anything (lichess counts a pin as a
/// theme only when it prevents an attack or an escape; a pinned piece that
/// neither wanted to take nor to flee is just pinned).
pub fn pin_effect(board: &Board, pin: &Pin) -> Option<PinEffect> {
    let pinned = board.piece_at(pin.pinned)?;
    let ray = pin.ray();
    let hanging = !is_defended(board, pin.pinned);
    for target in board.attacks_from(pin.pinned) & board.by_color(!pinned.color) & !ray {
        let Some(role) = board.role_at(target) else {
            continue;
        };
        if value(role) > value(pinned.role) || !is_defended(board, target) {
            return Some(PinEffect::CannotTake { target });
        }
    }
    for attacker in attackers(board, pin.pinned, !pinned.color) & ray {
        let Some(role) = board.role_at(attacker) else {
            continue;
        };
        if value(pinned.role) > value(role) {
            return Some(PinEffect::CannotEscape { attacker });
        }
        if hanging
            && !attackers(board, attacker, pinned.color).contains(pin.pinned)
            && could_leave(board, pin.pinned, ray)
        {
            return Some(PinEffect::CannotEscape { attacker });
        }
    }
    None
}
