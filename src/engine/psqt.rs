//! The material + piece-square tables the board keeps a running sum of,
//! one per evaluation family: standard chess ([`PSQT`], built next to the
//! weights in `eval/layout.rs`) and the drop variants ([`ZH_PSQT`], from
//! their own weights).
//!
//! This module sits between the weight tables and the board: it reads only
//! the generated weights (data) and the variant markers, so the board can
//! take its tables from here without importing the evaluator, and the
//! variant layer knows nothing about evaluation at all.

use super::eval::layout::build_psqt;
use super::eval::zh_weights;
use super::tapered::S;
use super::variant::Variant;

pub use super::eval::layout::PSQT;

/// Material plus piece-square value of every piece on every square, signed
/// (White positive). Indexed `[color as usize][role as usize - 1][square]`.
pub type PsqtTable = [[[S; 64]; 6]; 2];

/// The drop variants' material + piece-square table (Crazyhouse and
/// Bughouse share their weights), like [`PSQT`].
pub static ZH_PSQT: PsqtTable = build_psqt(&zh_weights::BOARD);

/// The table of variant `V`: the one its evaluation's running sum uses.
#[inline(always)]
pub fn table<V: Variant>() -> &'static PsqtTable {
    if V::DROPS { &ZH_PSQT } else { &PSQT }
}
