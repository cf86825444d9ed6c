//! Tomasz Michniewski's "simplified evaluation function" (2003/2004): material
//! 100/320/330/500/900/20000 and one piece-square table per piece, with the
//! king's table switched to the endgame one when both sides have no queens,
//! or every side that has a queen has no other piece or one minor piece.
//! Nothing else: a baseline a learner can compare the full evaluation with.

use super::{S, Term, Tracer};
use shakmaty::{Board, Chess, Color, Position, Role, Square};

pub const MATERIAL: [i32; 6] = [100, 320, 330, 500, 900, 20000];

// Tables from White's side, rank 8 first (as the original publication prints them).
#[rustfmt::skip]
pub const PAWN: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
pub const KNIGHT: [i32; 64] = [
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50,
];
#[rustfmt::skip]
pub const BISHOP: [i32; 64] = [
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20,
];
#[rustfmt::skip]
pub const ROOK: [i32; 64] = [
      0,  0,  0,  0,  0,  0,  0,  0,
      5, 10, 10, 10, 10, 10, 10,  5,
     -5,  0,  0,  0,  0,  0,  0, -5,
     -5,  0,  0,  0,  0,  0,  0, -5,
     -5,  0,  0,  0,  0,  0,  0, -5,
     -5,  0,  0,  0,  0,  0,  0, -5,
     -5,  0,  0,  0,  0,  0,  0, -5,
      0,  0,  0,  5,  5,  0,  0,  0,
];
#[rustfmt::skip]
pub const QUEEN: [i32; 64] = [
    -20,-10,-10, -5, -5,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5,  5,  5,  5,  0,-10,
     -5,  0,  5,  5,  5,  5,  0, -5,
      0,  0,  5,  5,  5,  5,  0, -5,
    -10,  5,  5,  5,  5,  5,  0,-10,
    -10,  0,  5,  0,  0,  0,  0,-10,
    -20,-10,-10, -5, -5,-10,-10,-20,
];
#[rustfmt::skip]
pub const KING_MIDDLEGAME: [i32; 64] = [
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20,
];
#[rustfmt::skip]
pub const KING_ENDGAME: [i32; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// Michniewski's endgame rule: no queens on the board, or every side with a
/// queen has no rook and at most one minor piece besides it.
pub fn is_endgame(board: &Board) -> bool {
    Color::ALL.into_iter().all(|c| {
        let us = board.by_color(c);
        if (board.queens() & us).is_empty() {
            return true;
        }
        let minors = (board.knights() | board.bishops()) & us;
        (board.rooks() & us).is_empty() && !minors.more_than_one()
    })
}

fn table(role: Role, endgame: bool) -> &'static [i32; 64] {
    match role {
        Role::Pawn => &PAWN,
        Role::Knight => &KNIGHT,
        Role::Bishop => &BISHOP,
        Role::Rook => &ROOK,
        Role::Queen => &QUEEN,
        Role::King if endgame => &KING_ENDGAME,
        Role::King => &KING_MIDDLEGAME,
    }
}

/// Side-to-move score. The tracer sees material and piece-square values per
/// side (as `S(v, v)`: this evaluation is not tapered).
pub(crate) fn evaluate<T: Tracer>(pos: &Chess, t: &mut T) -> i32 {
    let board = pos.board();
    let endgame = is_endgame(board);
    let mut score = [0i32; 2];
    for (sq, piece) in board.iter() {
        let c = piece.color;
        let idx = match c {
            Color::White => sq as usize ^ 56,
            Color::Black => sq as usize,
        };
        // The kings' 20000 cancel out (each side has one), so they are left
        // out of the sums to keep the per-side numbers readable.
        let material = if piece.role == Role::King {
            0
        } else {
            MATERIAL[piece.role as usize - 1]
        };
        let square = table(piece.role, endgame)[idx];
        score[c as usize] += material + square;
        if T::ACTIVE {
            t.add(Term::Material, c, 0, 1, S::new(material, material));
            t.add(Term::PieceSquares, c, 0, 1, S::new(square, square));
        }
    }
    let white = score[1] - score[0];
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// The simplified piece-square value of `role` on `sq` for `color` (for the UI).
pub fn square_value(role: Role, color: Color, sq: Square, endgame: bool) -> i32 {
    let idx = match color {
        Color::White => sq as usize ^ 56,
        Color::Black => sq as usize,
    };
    table(role, endgame)[idx]
}
