//! Crazyhouse and Bughouse evaluation weights (middlegame, endgame) in
//! centipawns: the board part has the layout of the standard evaluation
//! (`layout.rs`), the drop terms follow it (`zh.rs`).
//!
//! State: hand-set starting values (the board part is standard chess's);
//! to be replaced by `kibitz tune --variant crazyhouse`.

use super::S;
use super::layout::{DEFAULT_WEIGHTS, NUM_WEIGHTS};

const fn s(mg: i32, eg: i32) -> S {
    S::new(mg, eg)
}

/// The board terms (standard layout).
pub const BOARD: [S; NUM_WEIGHTS] = DEFAULT_WEIGHTS;

/// A piece in hand: pawn, knight, bishop, rook, queen.
pub const HAND: [S; 5] = [
    s(100, 100),
    s(300, 300),
    s(300, 300),
    s(420, 420),
    s(950, 950),
];

/// Empty squares next to the enemy king that it has no piece to defend
/// (0..=8), when we have something in hand to drop there.
pub const DROP_ZONE: [S; 9] = [
    s(0, 0),
    s(10, 5),
    s(25, 12),
    s(45, 22),
    s(70, 35),
    s(100, 50),
    s(130, 65),
    s(160, 80),
    s(190, 95),
];

/// A safe square to drop a checking pawn, knight, bishop, rook or queen
/// we hold (per square, at most four counted).
pub const DROP_CHECK: [S; 5] = [s(20, 20), s(40, 40), s(25, 25), s(30, 30), s(40, 40)];

/// Bughouse: a pawn, knight, bishop, rook or queen captured here and sent
/// to our partner.
pub const SENT: [S; 5] = [
    s(60, 60),
    s(180, 180),
    s(180, 180),
    s(250, 250),
    s(500, 500),
];
