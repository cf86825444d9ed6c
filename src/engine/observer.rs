//! The one window into the search.
//!
//! The search is generic over `O: SearchObserver` and calls these hooks at
//! every step of alpha-beta. [`NoObserver`] has empty `#[inline(always)]`
//! bodies, so a normal search compiles to the plain search: no calls, no
//! branches, no event values built. Observers that need the per-node events
//! (the tree recorder, a node counter) set [`SearchObserver::NODE_EVENTS`];
//! the search uses that constant to skip work done only to feed them.
//!
//! Event order inside one node, as the search produces it:
//! `enter`, then any of `tt_hit`, `stand_pat`, `prune`; for each move tried:
//! `try_move` (with the window the child will get), the child's own events,
//! maybe `research` and the child again, then `move_score`, then
//! `alpha_raised` or `cutoff`; finally `tt_store` and `leave`. Every `enter`
//! is matched by exactly one `leave`, also when the search is stopped.

use super::score::{Bound, Depth, Ply, Score};
use shakmaty::Move;
use std::time::Duration;

/// What kind of node the search thinks it is in when it enters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The root of the search.
    Root,
    /// A principal-variation node (open window).
    Pv,
    /// A zero-window node (expected CUT or ALL).
    NonPv,
    /// A quiescence-search node.
    Quiescence,
    /// A leaf answered by an endgame tablebase: it searches no move (a draw
    /// by repetition or the 50-move rule still comes first).
    Tablebase,
}

/// Passed to [`SearchObserver::enter`].
#[derive(Debug)]
pub struct NodeInfo<'a> {
    pub ply: Ply,
    pub depth: Depth,
    pub alpha: Score,
    pub beta: Score,
    pub kind: NodeKind,
    /// Searched as a principal-variation node (its best line is reported).
    pub pv: bool,
    /// The move that led here (`None` at the root and after a null move).
    pub mv: Option<Move>,
    pub in_check: bool,
    /// The occupied squares of the node's board.
    pub occupied: shakmaty::Bitboard,
    /// Ties the event to the search's lifetime (observers copy what they
    /// keep).
    pub _life: std::marker::PhantomData<&'a ()>,
}

/// Why the search skipped, shortened or ended something early.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Prune {
    /// A draw by repetition, 50-move rule or insufficient material.
    Draw,
    /// No legal move: checkmate or stalemate (in Bughouse maybe only
    /// waiting for a piece from the partner). The node's score is exact.
    NoLegalMoves,
    /// Mate-distance pruning closed the window.
    MateDistance,
    /// Mate-distance pruning narrowed the window to what a mate from this
    /// ply can still reach (the window the moves are searched with).
    MateDistanceWindow { alpha: Score, beta: Score },
    /// Reverse futility (static null move): eval - margin >= beta.
    ReverseFutility { eval: Score, margin: i32 },
    /// Lazy evaluation in quiescence: the evaluation predicted from the
    /// parent's is more than `margin` outside the window, so the node is
    /// not evaluated. `cut`: above beta, it stands pat on `predicted -
    /// margin` and ends; otherwise below alpha, its captures are searched
    /// against `predicted + margin`.
    Lazy {
        predicted: Score,
        margin: i32,
        cut: bool,
    },
    /// Reverse futility on the predicted evaluation: the prediction minus
    /// `margin` (lazy evaluation's plus reverse futility's) is at least
    /// beta, so the node is cut without evaluating.
    LazyReverseFutility { predicted: Score, margin: i32 },
    /// A null move is tried with this depth reduction.
    NullMoveTry { reduction: Depth },
    /// The null move failed high: the node is cut.
    NullMoveCutoff { score: Score },
    /// The null-move cutoff was checked by a verification search.
    NullMoveVerified { confirmed: bool },
    /// Internal iterative reduction: no TT move, depth reduced by one.
    Iir,
    /// All remaining quiet moves are skipped: by futility pruning (the
    /// static evaluation is too far below alpha) or by late move pruning
    /// (enough moves were searched at this depth).
    QuietsPruned { futility: bool },
    /// A move skipped because static exchange evaluation loses material.
    See { mv: Move },
    /// Quiescence: a capture skipped because even winning it cannot reach alpha.
    Delta { mv: Move },
    /// Late move reduction applied to a move.
    Lmr { mv: Move, reduction: Depth },
    /// A move is extended (check extension).
    Extension { mv: Move, plies: Depth },
    /// Singular extension test of the TT move: the other moves, searched
    /// shallower against `singular_beta` (just below the TT score), scored
    /// `score`; `plies` is what it does to the TT move's depth (+1: it is
    /// the only good move, extended; -1: others are good too, reduced).
    Singular {
        mv: Move,
        singular_beta: Score,
        score: Score,
        plies: Depth,
    },
    /// Multi-cut: even without the TT move another move reaches beta, so
    /// the node is cut at `score`.
    MultiCut { score: Score },
}

impl Prune {
    /// Short label used by the tree explorer and exports (`lmr -2`, ...).
    pub fn label(&self) -> String {
        match self {
            Prune::Draw => "draw".into(),
            Prune::NoLegalMoves => "no legal moves".into(),
            Prune::MateDistance => "mate-distance".into(),
            Prune::MateDistanceWindow { .. } => "mate-distance window".into(),
            Prune::ReverseFutility { margin, .. } => format!("reverse-futility {margin}"),
            Prune::Lazy { cut: true, .. } => "lazy cut".into(),
            Prune::Lazy { cut: false, .. } => "lazy stand-pat".into(),
            Prune::LazyReverseFutility { margin, .. } => {
                format!("lazy reverse-futility {margin}")
            }
            Prune::NullMoveTry { reduction } => format!("null-move -{reduction}"),
            Prune::NullMoveCutoff { .. } => "null-move-cutoff".into(),
            Prune::NullMoveVerified { confirmed } => {
                format!(
                    "null-move-verify {}",
                    if *confirmed { "ok" } else { "failed" }
                )
            }
            Prune::Iir => "iir -1".into(),
            Prune::QuietsPruned { futility: true } => "futility: quiet moves skipped".into(),
            Prune::QuietsPruned { futility: false } => "late-move: quiet moves skipped".into(),
            Prune::See { .. } => "see".into(),
            Prune::Delta { .. } => "delta".into(),
            Prune::Lmr { reduction, .. } => format!("lmr -{reduction}"),
            Prune::Extension { plies, .. } => format!("extension +{plies}"),
            Prune::Singular { plies, .. } => format!("singular {plies:+}"),
            Prune::MultiCut { .. } => "multi-cut".into(),
        }
    }

    /// The move this decision is about, if any.
    pub fn mv(&self) -> Option<Move> {
        match *self {
            Prune::See { mv }
            | Prune::Delta { mv }
            | Prune::Lmr { mv, .. }
            | Prune::Extension { mv, .. }
            | Prune::Singular { mv, .. } => Some(mv),
            _ => None,
        }
    }
}

/// Why a move is searched again.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Research {
    /// A reduced (LMR) search failed high: search again at full depth.
    Reduction,
    /// A zero-window search failed high inside a PV node: search with the
    /// full window.
    FullWindow,
}

/// Counters the search keeps anyway (they cost an increment each).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// All nodes (main search and quiescence).
    pub nodes: u64,
    /// Quiescence nodes.
    pub qnodes: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    pub beta_cutoffs: u64,
    /// Beta cutoffs made by the first move tried: move-ordering quality.
    pub first_move_cutoffs: u64,
    /// Positions answered by an endgame tablebase (in the search, and the
    /// root moves ranked by one).
    pub tb_hits: u64,
    pub seldepth: Ply,
}

impl SearchStats {
    /// Share of TT probes that found an entry, in percent.
    pub fn tt_hit_rate(&self) -> f64 {
        if self.tt_probes == 0 {
            0.0
        } else {
            100.0 * self.tt_hits as f64 / self.tt_probes as f64
        }
    }

    /// Share of beta cutoffs made by the first move tried, in percent.
    pub fn first_move_cutoff_rate(&self) -> f64 {
        if self.beta_cutoffs == 0 {
            0.0
        } else {
            100.0 * self.first_move_cutoffs as f64 / self.beta_cutoffs as f64
        }
    }
}

/// One finished line of one iteration (one per MultiPV line).
#[derive(Clone, Debug)]
pub struct IterationInfo {
    pub depth: Depth,
    pub seldepth: Ply,
    /// 1-based MultiPV index.
    pub multipv: usize,
    pub score: Score,
    /// `Exact` normally; `Lower`/`Upper` for an aspiration fail reported
    /// while the search is still resolving it.
    pub bound: Bound,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Permille of the transposition table used by this search.
    pub hashfull: u32,
    pub pv: Vec<Move>,
    pub stats: SearchStats,
}

impl IterationInfo {
    pub fn nps(&self) -> u64 {
        let us = self.elapsed.as_micros() as u64;
        (self.nodes * 1_000_000).checked_div(us).unwrap_or(0)
    }
}

/// Hooks into the search. All methods default to doing nothing.
#[allow(unused_variables)]
pub trait SearchObserver {
    /// Set to `true` to receive per-node events. When `false` the search may
    /// skip computing values that only observers need.
    const NODE_EVENTS: bool = false;

    /// A completed iteration (or MultiPV line).
    #[inline(always)]
    fn iteration(&mut self, info: &IterationInfo) {}

    /// The root move being searched now: `index` of `count` (0-based).
    #[inline(always)]
    fn root_move(&mut self, depth: Depth, mv: Move, index: usize, count: usize) {}

    #[inline(always)]
    fn enter(&mut self, node: &NodeInfo<'_>) {}

    /// Quiescence: the static evaluation used as "stand pat" score.
    #[inline(always)]
    fn stand_pat(&mut self, ply: Ply, score: Score) {}

    /// The transposition table had an entry. `cutoff` when it ended the node.
    #[inline(always)]
    fn tt_hit(&mut self, ply: Ply, mv: Option<Move>, score: Score, bound: Bound, cutoff: bool) {}

    #[inline(always)]
    fn prune(&mut self, ply: Ply, what: Prune) {}

    /// About to search move number `index` (0-based) with this window
    /// (from the child's point of view) and depth.
    #[inline(always)]
    fn try_move(
        &mut self,
        ply: Ply,
        mv: Move,
        index: usize,
        alpha: Score,
        beta: Score,
        depth: Depth,
    ) {
    }

    /// The move will be searched again.
    #[inline(always)]
    fn research(&mut self, ply: Ply, mv: Move, why: Research) {}

    /// The final score of a move, from this node's point of view.
    #[inline(always)]
    fn move_score(&mut self, ply: Ply, mv: Move, score: Score) {}

    #[inline(always)]
    fn alpha_raised(&mut self, ply: Ply, mv: Move, score: Score) {}

    /// Beta cutoff by move number `index` (0-based).
    #[inline(always)]
    fn cutoff(&mut self, ply: Ply, mv: Move, index: usize) {}

    #[inline(always)]
    fn tt_store(&mut self, ply: Ply, score: Score, bound: Bound, depth: Depth) {}

    #[inline(always)]
    fn leave(&mut self, ply: Ply, score: Score, bound: Bound) {}
}

/// The observer of a normal search: every hook is empty.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;

impl SearchObserver for NoObserver {}

/// Counts nodes through `enter`; used to check that observing does not
/// change the search.
#[derive(Debug, Default, Clone, Copy)]
pub struct CountingObserver {
    pub enters: u64,
    pub leaves: u64,
    pub cutoffs: u64,
    pub iterations: u64,
}

impl SearchObserver for CountingObserver {
    const NODE_EVENTS: bool = true;

    fn iteration(&mut self, _info: &IterationInfo) {
        self.iterations += 1;
    }
    fn enter(&mut self, _node: &NodeInfo<'_>) {
        self.enters += 1;
    }
    fn cutoff(&mut self, _ply: Ply, _mv: Move, _index: usize) {
        self.cutoffs += 1;
    }
    fn leave(&mut self, _ply: Ply, _score: Score, _bound: Bound) {
        self.leaves += 1;
    }
}

/// Lets `&mut O` be passed where an observer is expected.
impl<O: SearchObserver> SearchObserver for &mut O {
    const NODE_EVENTS: bool = O::NODE_EVENTS;
    #[inline(always)]
    fn iteration(&mut self, info: &IterationInfo) {
        (**self).iteration(info)
    }
    #[inline(always)]
    fn root_move(&mut self, depth: Depth, mv: Move, index: usize, count: usize) {
        (**self).root_move(depth, mv, index, count)
    }
    #[inline(always)]
    fn enter(&mut self, node: &NodeInfo<'_>) {
        (**self).enter(node)
    }
    #[inline(always)]
    fn stand_pat(&mut self, ply: Ply, score: Score) {
        (**self).stand_pat(ply, score)
    }
    #[inline(always)]
    fn tt_hit(&mut self, ply: Ply, mv: Option<Move>, score: Score, bound: Bound, cutoff: bool) {
        (**self).tt_hit(ply, mv, score, bound, cutoff)
    }
    #[inline(always)]
    fn prune(&mut self, ply: Ply, what: Prune) {
        (**self).prune(ply, what)
    }
    #[inline(always)]
    fn try_move(
        &mut self,
        ply: Ply,
        mv: Move,
        index: usize,
        alpha: Score,
        beta: Score,
        depth: Depth,
    ) {
        (**self).try_move(ply, mv, index, alpha, beta, depth)
    }
    #[inline(always)]
    fn research(&mut self, ply: Ply, mv: Move, why: Research) {
        (**self).research(ply, mv, why)
    }
    #[inline(always)]
    fn move_score(&mut self, ply: Ply, mv: Move, score: Score) {
        (**self).move_score(ply, mv, score)
    }
    #[inline(always)]
    fn alpha_raised(&mut self, ply: Ply, mv: Move, score: Score) {
        (**self).alpha_raised(ply, mv, score)
    }
    #[inline(always)]
    fn cutoff(&mut self, ply: Ply, mv: Move, index: usize) {
        (**self).cutoff(ply, mv, index)
    }
    #[inline(always)]
    fn tt_store(&mut self, ply: Ply, score: Score, bound: Bound, depth: Depth) {
        (**self).tt_store(ply, score, bound, depth)
    }
    #[inline(always)]
    fn leave(&mut self, ply: Ply, score: Score, bound: Bound) {
        (**self).leave(ply, score, bound)
    }
}
