//! Evaluating a [`Board`]: the one place where the evaluation meets the
//! board type, choosing the variant's evaluation.
//!
//! The rest of `eval/mod.rs` and its tables work on shakmaty positions and
//! sit below the board (the board keeps a running sum of their
//! piece-square tables, see `engine/psqt.rs`); this file and the drop
//! variants' evaluation (`zh.rs`, which reads a board's pockets and what
//! it sent to the partner) sit above it.

use super::{Evaluator, zh};
use crate::engine::board::Board;
use crate::engine::variant::{Std, Variant};

impl Evaluator {
    /// Evaluates `board` from the side to move's point of view, by its
    /// variant's evaluation (which one is decided at compile time).
    #[inline(always)]
    pub fn evaluate<V: Variant>(&mut self, board: &Board<V>) -> i32 {
        self.evaluate_at(board, 0)
    }

    /// [`Evaluator::evaluate`] of a position at `ply` of a search: the same
    /// result, computed from what was evaluated at the ply before when that
    /// is cheaper.
    #[inline(always)]
    pub fn evaluate_at<V: Variant>(&mut self, board: &Board<V>, ply: usize) -> i32 {
        match board.as_std() {
            Some(board) => self.evaluate_std_at(board, ply),
            None => zh::evaluate(self, board),
        }
    }

    /// The standard-chess evaluation (from the cache when the position was
    /// evaluated lately).
    #[inline(always)]
    pub fn evaluate_std(&mut self, board: &Board<Std>) -> i32 {
        self.evaluate_std_at(board, 0)
    }

    #[inline(always)]
    fn evaluate_std_at(&mut self, board: &Board<Std>, ply: usize) -> i32 {
        let key = board.hash();
        let &mut (k, e) = self.cache.slot(key);
        if k == key {
            return e;
        }
        let e = self.evaluate_chess_at(board.chess(), board.psqt(), ply);
        *self.cache.slot(key) = (key, e);
        e
    }
}
