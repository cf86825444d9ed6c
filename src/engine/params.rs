//! Search tuning constants, in one place. Naming: `*_DEPTH` is the deepest
//! remaining depth where a technique applies, `*_MARGIN` a centipawn margin
//! (per ply of depth where it says so), `*_BASE`/`*_DIVISOR` formula parts.

use super::score::Depth;

/// Aspiration windows start at this half-width from the previous score...
pub const ASPIRATION_WINDOW: i32 = 20;
/// ...from this depth on.
pub const ASPIRATION_DEPTH: Depth = 4;

/// Reverse futility pruning (static null move).
pub const RFP_DEPTH: Depth = 8;
pub const RFP_MARGIN: i32 = 75;
pub const RFP_IMPROVING_MARGIN: i32 = 60;

/// Null-move pruning.
pub const NMP_DEPTH: Depth = 3;
pub const NMP_BASE_REDUCTION: Depth = 3;
pub const NMP_DEPTH_DIVISOR: Depth = 4;
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// Verify null-move cutoffs when the side to move has at most this much
/// non-pawn material (in pawn units: a rook is 5), where zugzwang is likely.
pub const NMP_VERIFY_MATERIAL: i32 = 5;

/// Internal iterative reduction.
pub const IIR_DEPTH: Depth = 4;

/// Late move pruning: quiet moves after this many are skipped.
pub const LMP_DEPTH: Depth = 8;
pub const LMP_BASE: i32 = 3;
/// PV nodes at this depth or less prune no late quiet moves.
pub const PV_LMP_MIN_DEPTH: Depth = 2;

/// Futility pruning of quiet moves.
pub const FUTILITY_DEPTH: Depth = 8;
pub const FUTILITY_BASE: i32 = 90;
pub const FUTILITY_MARGIN: i32 = 90;

/// SEE pruning in the main search.
pub const SEE_QUIET_DEPTH: Depth = 8;
pub const SEE_QUIET_MARGIN: i32 = 60;
pub const SEE_CAPTURE_DEPTH: Depth = 6;
pub const SEE_CAPTURE_MARGIN: i32 = 100;

/// Late move reductions: `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR`.
pub const LMR_DEPTH: Depth = 3;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// History score worth one ply less (or more) reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Quiescence delta pruning margin.
pub const DELTA_MARGIN: i32 = 200;

/// Lazy evaluation in quiescence: a node whose estimated evaluation is
/// this far above beta (or below alpha) stands pat on the estimate
/// instead of evaluating (see `qsearch.rs`).
pub const LAZY_MARGIN: i32 = 200;

/// Drop variants: quiescence tries checking drops at its first ply.
pub const QS_CHECKING_DROPS: bool = false;

/// Drop variants: pruning margins in percent of standard chess's.
pub const ZH_MARGIN_PCT: i32 = 100;

/// Singular extensions: from this depth, a TT move whose entry is at most
/// `SE_TT_DEPTH` plies shallower is tested against the other moves.
pub const SINGULAR_EXTENSIONS: bool = true;
pub const SE_DEPTH: Depth = 8;
pub const SE_TT_DEPTH: Depth = 3;
/// The test's beta is the TT score minus this many centipawns per ply.
pub const SE_MARGIN: i32 = 2;

/// Correct the static evaluation by the pawn structure's history.
pub const CORRECTION_HISTORY: bool = true;
