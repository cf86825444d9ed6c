//! Negamax alpha-beta with principal variation search.
//!
//! One node, in order: draw checks, a tablebase answer (few pieces, a table
//! loaded: the node ends, see `tb.rs`), mate-distance pruning,
//! transposition-table probe (a cutoff ends the node), static evaluation,
//! whole-node pruning (reverse futility, null move with verification when
//! material is low), internal iterative reduction, then the move loop:
//! per-move pruning (late move, futility, SEE), check extension, PVS with
//! late move reductions and re-searches, history/killer/countermove updates
//! on a cutoff, and finally the TT store. Quiescence search is in `qsearch.rs`, the root and
//! iterative deepening in `iterative.rs`.

use super::board::{Board, Move16};
use super::eval::Evaluator;
use super::history::{ContKey, Histories};
use super::observer::{NodeInfo, NodeKind, SearchObserver, SearchStats};
use super::params::*;
use super::score::{Bound, Depth, MAX_PLY, Ply, Score};
use super::tb::TbAccess;
use super::time::{Features, TimeManager};
use super::tt::TranspositionTable;
use super::variant::Variant;
use shakmaty::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

mod common;
mod node;

pub(crate) use common::{ABORTED, Best, NodeFlow, bound_cuts, material_estimate, phase};

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    /// Static evaluation at this ply (`None` when in check).
    pub eval: Option<i32>,
    pub killers: [Option<Move>; 2],
    /// The move played from this ply (`None` for a null move).
    pub cont: Option<ContKey>,
    /// Skip null move here (set while verifying a null-move cutoff).
    pub no_null: bool,
    /// The move left out here (set while testing whether it is singular).
    pub excluded: Option<Move>,
    /// Static evaluation minus the material estimate at this ply (`None`:
    /// unknown), for the children's lazy evaluation (see `qsearch.rs`).
    pub resid: Option<i32>,
}

/// Triangular principal-variation table.
pub(crate) struct PvTable {
    lines: Vec<[Option<Move>; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 2],
}

impl PvTable {
    pub fn new() -> PvTable {
        PvTable {
            lines: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            len: [0; MAX_PLY + 2],
        }
    }

    #[inline(always)]
    pub fn clear(&mut self, ply: Ply) {
        self.len[ply] = 0;
    }

    #[inline(always)]
    pub fn update(&mut self, ply: Ply, m: Move) {
        let child_len = self.len[ply + 1].min(MAX_PLY - ply);
        self.lines[ply][0] = Some(m);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.len[ply] = child_len + 1;
    }

    pub fn line(&self, ply: Ply) -> Vec<Move> {
        self.lines[ply][..self.len[ply]]
            .iter()
            .map_while(|m| *m)
            .collect()
    }
}

/// A move at the root with what the last iterations learned about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Score in the current iteration (-INFINITE unless it is known).
    pub score: Score,
    /// Score in the last completed iteration.
    pub prev_score: Score,
    pub pv: Vec<Move>,
    pub seldepth: Ply,
    /// The score the tablebases give this move, reported instead of a
    /// search score that is not a mate.
    pub tb_score: Option<Score>,
}

impl RootMove {
    /// The score to report for `score` (this move's search score): the
    /// tablebase score unless the search found a mate.
    pub fn shown(&self, score: Score) -> Score {
        match self.tb_score {
            Some(tb) if !score.is_mate() => tb,
            _ => score,
        }
    }
}

/// Depth stored with tablebase scores: deeper than any search.
pub(crate) const TB_DEPTH: Depth = MAX_PLY as Depth;

/// Observer calls, compiled out entirely with the `strip-observer` feature.
macro_rules! observe {
    ($e:expr) => {
        #[cfg(not(feature = "strip-observer"))]
        {
            $e;
        }
    };
}
pub(crate) use observe;

pub(crate) struct Searcher<'a, O: SearchObserver> {
    pub tt: &'a TranspositionTable,
    pub hist: &'a mut Histories,
    pub eval: &'a mut Evaluator,
    pub obs: &'a mut O,
    pub stop: &'a AtomicBool,
    pub time: TimeManager,
    pub node_limit: u64,
    pub stats: SearchStats,
    pub stack: Vec<Frame>,
    pub pv: PvTable,
    /// Keys of the game's positions, then of the search path. The current
    /// node's key is the last one.
    pub hashes: Vec<u64>,
    pub root_moves: Vec<RootMove>,
    pub pv_index: usize,
    pub features: Features,
    pub aborted: bool,
    pub root_depth: Depth,
    /// The tables probed inside the search.
    pub tb: TbAccess<'a>,
    /// Root moves with their tablebase scores, in the order to search them
    /// (empty: the tables do not cover the root).
    pub root_tb: Vec<(Move, Score)>,
    /// The ply where the current quiescence search began.
    pub qs_top: Ply,
    /// How many capture plies quiescence may play (levels 1-7 see fewer
    /// exchanges to the end; `MAX_PLY` = no cap).
    pub qs_cap: Ply,
    /// Levels 1-7: the per cent of moves below the root the level does not
    /// see (0 = sees everything), and the seed that picks them.
    pub blind_pct: u64,
    pub blind_seed: u64,
    /// Quiescence may stand pat on an estimate far outside the window
    /// (full strength, standard chess, pruning on).
    pub lazy: bool,
    /// With helper threads: every thread adds its nodes here in steps of
    /// 1024, so the main thread can report the total while it searches.
    pub shared_nodes: Option<&'a AtomicU64>,
}

/// Late move reductions by depth and move number, computed once (a search
/// starts on every move, and the logarithms cost more than a lookup).
static LMR_TABLE: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut lmr = [[0u8; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
            *r = v.max(0.0) as u8;
        }
    }
    lmr
});

impl<'a, O: SearchObserver> Searcher<'a, O> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a TranspositionTable,
        hist: &'a mut Histories,
        eval: &'a mut Evaluator,
        obs: &'a mut O,
        stop: &'a AtomicBool,
        time: TimeManager,
        node_limit: u64,
        hashes: Vec<u64>,
        features: Features,
    ) -> Self {
        let lazy = features.effective().pruning && eval.lazy_ok();
        Searcher {
            tt,
            hist,
            eval,
            obs,
            stop,
            time,
            node_limit,
            stats: SearchStats::default(),
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: PvTable::new(),
            hashes,
            root_moves: Vec::new(),
            pv_index: 0,
            features: features.effective(),
            aborted: false,
            root_depth: 0,
            tb: TbAccess::none(),
            root_tb: Vec::new(),
            qs_top: 0,
            qs_cap: MAX_PLY,
            blind_pct: 0,
            blind_seed: 0,
            lazy,
            shared_nodes: None,
        }
    }

    /// Does a level with blind spots overlook `m` here? The same move in
    /// the same position is always overlooked or always seen within one
    /// search. Moves that are hard to see (backward, long, knight jumps)
    /// are missed twice as often as the others. Never called at full
    /// strength (`blind_pct` 0).
    #[cold]
    pub fn overlooks<V: Variant>(&self, board: &Board<V>, m: Move) -> bool {
        let to = m.to();
        let (hard, from) = match m.from() {
            Some(from) => {
                let backward = match board.pos().turn() {
                    shakmaty::Color::White => to.rank() < from.rank(),
                    shakmaty::Color::Black => to.rank() > from.rank(),
                };
                let long = from.distance(to) >= 3;
                (
                    backward || long || m.role() == shakmaty::Role::Knight,
                    from as u64,
                )
            }
            None => (false, 64),
        };
        let mut h = board.hash()
            ^ self.blind_seed
            ^ ((from << 6 | to as u64) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 31;
        let pct = if hard {
            self.blind_pct
        } else {
            self.blind_pct / 2
        };
        h % 100 < pct
    }

    /// Counts a node and checks the stop flag, clock and node limit.
    #[inline(always)]
    pub fn visit(&mut self, ply: Ply) -> bool {
        self.stats.nodes += 1;
        if ply > self.stats.seldepth {
            self.stats.seldepth = ply;
        }
        if self.aborted {
            return true;
        }
        // Limits apply once depth 1 is complete, so there is always a move.
        if self.stats.nodes & 1023 == 0 {
            if let Some(shared) = self.shared_nodes {
                shared.fetch_add(1024, Ordering::Relaxed);
            }
            if self.stop.load(Ordering::Relaxed)
                || (self.root_depth > 1 && self.time.hard_exceeded())
            {
                self.aborted = true;
            }
        }
        if self.root_depth > 1 && self.stats.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.aborted
    }

    /// The two previous moves' continuation keys, as seen from `ply`.
    #[inline(always)]
    pub fn prev_keys(&self, ply: Ply) -> [Option<ContKey>; 2] {
        [
            if ply >= 1 {
                self.stack[ply - 1].cont
            } else {
                None
            },
            if ply >= 2 {
                self.stack[ply - 2].cont
            } else {
                None
            },
        ]
    }

    /// Repetition: a position repeated inside the search tree is a draw; one
    /// that repeats the game's history must have occurred twice before.
    pub fn is_repetition<V: Variant>(&self, board: &Board<V>, ply: Ply) -> bool {
        let n = self.hashes.len();
        let back = (board.halfmoves() as usize).min(n.saturating_sub(1));
        let key = board.hash();
        let mut seen = 0;
        let mut i = 4;
        while i <= back {
            if self.hashes[n - 1 - i] == key {
                if i < ply {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// Draw by the 50-move rule, repetition or insufficient material.
    /// (Bughouse has no 50-move rule and never runs out of material: a
    /// piece may always arrive from the partner.)
    pub fn is_draw<V: Variant>(&self, board: &Board<V>, ply: Ply) -> bool {
        if !V::BUGHOUSE && board.halfmoves() >= 100 {
            // Checkmate on the 100th half-move still wins.
            return !(board.in_check() && board.pos().legal_moves().is_empty());
        }
        if self.is_repetition(board, ply) {
            return true;
        }
        let b = board.board();
        !V::BUGHOUSE
            && (b.pawns() | b.rooks() | b.queens()).is_empty()
            && board.pos().is_insufficient_material()
    }

    /// Decodes a TT move and checks that it is legal here.
    #[inline(always)]
    pub fn legal_tt_move<V: Variant>(board: &Board<V>, m: Move16) -> Option<Move> {
        match board.decode(m) {
            Some(m) if super::movegen::is_legal(board.pos(), board.in_check(), m) => Some(m),
            _ => None,
        }
    }

    #[inline]
    fn lmr_reduction(&self, depth: Depth, moves: usize) -> Depth {
        LMR_TABLE[(depth as usize).min(63)][moves.min(63)] as Depth
    }

    /// Starts loading the TT entry and evaluation-cache slot of the
    /// position with `key` (a child about to be searched), so that they
    /// are in cache when the child is entered.
    #[inline(always)]
    pub(crate) fn prefetch_child(&self, key: u64) {
        if self.features.transposition_table {
            self.tt.prefetch(key);
            self.eval.prefetch(key);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn negamax<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
        cut_node: bool,
        entered_by: Option<Move>,
    ) -> Score {
        if depth <= 0 {
            if self.features.quiescence {
                // Quiescence's first ply may try checking drops; levels
                // cap the capture plies counted from here.
                self.qs_top = ply;
                return self.qsearch::<V, PV>(board, ply, alpha, beta, entered_by);
            }
            return self.leaf(board, ply, alpha, beta, entered_by);
        }
        let in_check = board.in_check();
        let tb = self.tb.probe(board, ply);
        observe!(self.obs.enter(&NodeInfo {
            ply,
            depth,
            alpha,
            beta,
            kind: if tb.is_some() {
                NodeKind::Tablebase
            } else if PV {
                NodeKind::Pv
            } else {
                NodeKind::NonPv
            },
            pv: PV,
            mv: entered_by,
            in_check,
            occupied: board.board().occupied(),
            _life: std::marker::PhantomData,
        }));
        let (score, bound) =
            self.negamax_body::<V, PV>(board, depth, ply, alpha, beta, cut_node, in_check, tb);
        observe!(self.obs.leave(ply, score, bound));
        score
    }

    /// A leaf without quiescence (that feature switched off): the static
    /// evaluation, or the mate/stalemate score.
    #[cold]
    fn leaf<V: Variant>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        alpha: Score,
        beta: Score,
        entered_by: Option<Move>,
    ) -> Score {
        let in_check = board.in_check();
        let tb = self.tb.probe(board, ply);
        observe!(self.obs.enter(&NodeInfo {
            ply,
            depth: 0,
            alpha,
            beta,
            kind: if tb.is_some() {
                NodeKind::Tablebase
            } else {
                NodeKind::Quiescence
            },
            pv: false,
            mv: entered_by,
            in_check,
            occupied: board.board().occupied(),
            _life: std::marker::PhantomData,
        }));
        self.visit(ply);
        self.pv.clear(ply);
        if let Some((score, bound)) = tb {
            self.stats.tb_hits += 1;
            observe!(self.obs.leave(ply, score, bound));
            return score;
        }
        let score = if board.pos().legal_moves().is_empty() {
            observe!(self.obs.prune(ply, super::observer::Prune::NoLegalMoves));
            no_moves_score(board, ply)
        } else {
            Score(self.eval.evaluate(board))
        };
        observe!(self.obs.stand_pat(ply, score));
        observe!(self.obs.leave(ply, score, Bound::Exact));
        score
    }
}

/// Bughouse: the score of a player who has no legal move but is not mated
/// (a check a drop could block, or no move at all): they must wait for a
/// piece from their partner while their clock runs. Bad, but not lost.
pub(crate) const BUG_STUCK_IN_CHECK: i32 = 1200;
pub(crate) const BUG_STUCK: i32 = 300;

/// The score of a position without legal moves, from the side to move's
/// view: mated, stalemated (a draw), or in Bughouse maybe only waiting
/// (a check that a drop could block is not mate: the partner may still
/// send a piece).
#[inline]
pub(crate) fn no_moves_score<V: Variant>(board: &Board<V>, ply: Ply) -> Score {
    let in_check = board.in_check();
    if V::BUGHOUSE {
        let blockable = board.checkers().single_square().is_some_and(|checker| {
            board
                .board()
                .king_of(board.turn())
                .is_some_and(|king| shakmaty::attacks::between(checker, king).any())
        });
        if !in_check {
            return Score(-BUG_STUCK);
        }
        if blockable {
            return Score(-BUG_STUCK_IN_CHECK);
        }
    }
    if in_check {
        Score::mated_in(ply)
    } else {
        Score::DRAW
    }
}
