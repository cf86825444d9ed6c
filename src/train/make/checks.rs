//! When a puzzle's gain is realised: material won that the opponent cannot
//! take straight back.

use crate::engine::see;
use shakmaty::{Chess, Color, Position, Role};

/// A solution that does not mate must leave the solver at least this much
/// material (centipawns, pawn = 100) better off than before the
/// opponent's move, after the opponent's best capture.
pub const MIN_GAIN: i32 = 200;

/// `color`'s material minus the other side's (pawn 100, knight and bishop
/// 300, rook 500, queen 900).
pub fn material(pos: &Chess, color: Color) -> i32 {
    let board = pos.board();
    let side = |c: Color| -> i32 {
        [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .iter()
        .map(|&r| (board.by_color(c) & board.by_role(r)).count() as i32 * see::value(r))
        .sum()
    };
    side(color) - side(!color)
}

/// About the most material the side to move wins with one capture (or
/// promotion) and the exchange that follows on its square (static
/// exchange evaluation, rounded down to a step of 100); 0 if none wins any.
pub fn opponent_best_capture(pos: &Chess) -> i32 {
    const STEPS: [i32; 9] = [900, 800, 600, 500, 400, 300, 200, 100, 1];
    let mut best = 0;
    for m in pos.legal_moves() {
        if !m.is_capture() && !m.is_promotion() {
            continue;
        }
        if let Some(&t) = STEPS.iter().find(|&&t| t > best && see::see_ge(pos, m, t)) {
            best = t;
        }
    }
    best
}

/// Is the solver's gain realised in `pos` (the opponent to move, after the
/// solver's last move)? Its material, less what the opponent can capture
/// back at once, is at least [`MIN_GAIN`] above `before` (the solver's
/// material balance before the opponent's first move).
pub fn realised(pos: &Chess, solver: Color, before: i32) -> bool {
    material(pos, solver) - opponent_best_capture(pos) - before >= MIN_GAIN
}
