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
use super::movepick::{MovePicker, is_tactical};
use super::observer::{NodeInfo, NodeKind, Prune, Research, SearchObserver, SearchStats};
use super::params::*;
use super::score::{Bound, Depth, MAX_PLY, Ply, Score};
use super::see;
use super::tb::TbAccess;
use super::time::{Features, TimeManager};
use super::tt::TranspositionTable;
use super::variant::{Variant, margin};
use arrayvec::ArrayVec;
use shakmaty::{Move, Position, Role};
use std::sync::atomic::{AtomicBool, Ordering};

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
    pub tt: &'a mut TranspositionTable,
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
    lmr: Vec<[u8; 64]>,
    /// The ply where the current quiescence search began (drop variants).
    pub qs_top: Ply,
}

impl<'a, O: SearchObserver> Searcher<'a, O> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a mut TranspositionTable,
        hist: &'a mut Histories,
        eval: &'a mut Evaluator,
        obs: &'a mut O,
        stop: &'a AtomicBool,
        time: TimeManager,
        node_limit: u64,
        hashes: Vec<u64>,
        features: Features,
    ) -> Self {
        let mut lmr = vec![[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
                *r = v.max(0.0) as u8;
            }
        }
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
            lmr,
            qs_top: 0,
        }
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
        if self.root_depth > 1 {
            if self.stats.nodes >= self.node_limit
                || (self.stats.nodes & 1023 == 0
                    && (self.stop.load(Ordering::Relaxed) || self.time.hard_exceeded()))
            {
                self.aborted = true;
            }
        } else if self.stats.nodes & 1023 == 0 && self.stop.load(Ordering::Relaxed) {
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
    #[inline]
    pub fn legal_tt_move<V: Variant>(board: &Board<V>, m: Move16) -> Option<Move> {
        board
            .decode(m)
            .filter(|&m| super::movegen::is_legal(board.pos(), board.in_check(), m))
    }

    #[inline]
    fn lmr_reduction(&self, depth: Depth, moves: usize) -> Depth {
        self.lmr[(depth as usize).min(63)][moves.min(63)] as Depth
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
                if V::DROPS {
                    // Quiescence's first ply may try checking drops.
                    self.qs_top = ply;
                }
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
            no_moves_score(board, ply)
        } else {
            Score(self.eval.evaluate(board))
        };
        observe!(self.obs.stand_pat(ply, score));
        observe!(self.obs.leave(ply, score, Bound::Exact));
        score
    }

    /// Counts a node the tablebases answered and stores its score.
    #[cold]
    pub(crate) fn tb_leaf<V: Variant>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        score: Score,
        bound: Bound,
    ) -> (Score, Bound) {
        self.stats.tb_hits += 1;
        if self.features.transposition_table {
            self.tt.store(
                board.hash(),
                ply,
                Move16::NONE,
                score,
                None,
                TB_DEPTH,
                bound,
            );
            observe!(self.obs.tt_store(ply, score, bound, TB_DEPTH));
        }
        (score, bound)
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax_body<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        mut depth: Depth,
        ply: Ply,
        mut alpha: Score,
        mut beta: Score,
        cut_node: bool,
        in_check: bool,
        tb: Option<(Score, Bound)>,
    ) -> (Score, Bound) {
        self.pv.clear(ply);
        if self.visit(ply) {
            return (Score::ZERO, Bound::None);
        }

        // Draws, and mate-distance pruning: no line from here can beat a
        // mate already found nearer the root.
        if self.is_draw(board, ply) {
            observe!(self.obs.prune(ply, Prune::Draw));
            return (Score::DRAW, Bound::Exact);
        }
        // A tablebase answer ends the node (after the draw rules, which the
        // tables do not know).
        if let Some((score, bound)) = tb {
            return self.tb_leaf(board, ply, score, bound);
        }
        if ply >= MAX_PLY - 4 {
            let e = if in_check {
                Score::DRAW
            } else {
                Score(self.eval.evaluate(board))
            };
            return (e, Bound::Exact);
        }
        if self.features.alpha_beta {
            let (entry_alpha, entry_beta) = (alpha, beta);
            let mated = Score::mated_in(ply);
            let mating = Score::mate_in(ply + 1);
            if mated > alpha {
                alpha = mated;
            }
            if mating < beta {
                beta = mating;
            }
            if alpha >= beta {
                observe!(self.obs.prune(ply, Prune::MateDistance));
                return (alpha, Bound::Exact);
            }
            if O::NODE_EVENTS && (alpha, beta) != (entry_alpha, entry_beta) {
                observe!(
                    self.obs
                        .prune(ply, Prune::MateDistanceWindow { alpha, beta })
                );
            }
        }

        // Transposition table.
        let key = board.hash();
        let tt = if self.features.transposition_table {
            self.stats.tt_probes += 1;
            self.tt.probe(key, ply)
        } else {
            None
        };
        let mut tt_move = None;
        if let Some(hit) = tt {
            self.stats.tt_hits += 1;
            tt_move = Self::legal_tt_move(board, hit.mv);
            let cutoff = !PV
                && hit.depth >= depth
                && board.halfmoves() < 90
                && match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                    Bound::None => false,
                };
            observe!(self.obs.tt_hit(ply, tt_move, hit.score, hit.bound, cutoff));
            if cutoff {
                self.stats.tt_cutoffs += 1;
                return (hit.score, hit.bound);
            }
        }

        // Static evaluation, corrected by the TT score when its bound allows.
        let raw_eval = if in_check {
            None
        } else {
            Some(match tt.and_then(|h| h.eval) {
                Some(e) => e.0,
                None => self.eval.evaluate(board),
            })
        };
        self.stack[ply].eval = raw_eval;
        let eval = raw_eval.map(|e| {
            let mut e = Score(e);
            if let Some(hit) = tt {
                let better = match hit.bound {
                    Bound::Lower => hit.score > e,
                    Bound::Upper => hit.score < e,
                    Bound::Exact => true,
                    Bound::None => false,
                };
                if better && !hit.score.is_mate() {
                    e = hit.score;
                }
            }
            e
        });
        let improving = match (raw_eval, ply >= 2) {
            (Some(e), true) => self.stack[ply - 2].eval.is_none_or(|prev| e > prev),
            _ => false,
        };
        self.stack[ply + 1].killers = [None, None];
        let us = board.turn();

        if let (false, Some(eval)) = (PV, eval) {
            // Reverse futility: so far above beta that a quiet move will not
            // bring us back below it.
            // Not when the TT move is a quiet move: it may be a threat (a
            // quiet mating attack) that the static evaluation cannot see.
            if self.features.pruning
                && depth <= RFP_DEPTH
                && !beta.is_mate()
                && tt_move.is_none_or(is_tactical)
            {
                let margin = margin::<V>(
                    RFP_MARGIN * depth - if improving { RFP_IMPROVING_MARGIN } else { 0 },
                );
                if eval - margin >= beta {
                    observe!(self.obs.prune(ply, Prune::ReverseFutility { eval, margin }));
                    return (eval, Bound::Lower);
                }
            }

            // Null move: if passing still fails high, a real move will too.
            if self.features.null_move
                && depth >= NMP_DEPTH
                && eval >= beta
                && !self.stack[ply].no_null
                && ply >= 1
                && self.stack[ply - 1].cont.is_some()
                && !beta.is_loss()
                && board.has_non_pawn_material(us)
                && let Some(null) = board.null_move()
            {
                let r = NMP_BASE_REDUCTION
                    + depth / NMP_DEPTH_DIVISOR
                    + ((eval - beta) / margin::<V>(NMP_EVAL_DIVISOR)).min(3);
                observe!(self.obs.prune(ply, Prune::NullMoveTry { reduction: r }));
                self.stack[ply].cont = None;
                self.hashes.push(null.hash());
                let score = -self.negamax::<V, false>(
                    &null,
                    depth - r,
                    ply + 1,
                    -beta,
                    -beta + 1,
                    !cut_node,
                    None,
                );
                self.hashes.pop();
                if self.aborted {
                    return (Score::ZERO, Bound::None);
                }
                if score >= beta {
                    // A mate or tablebase win after passing proves nothing.
                    let score = if score.is_proven_win() { beta } else { score };
                    // Zugzwang is likely with little material: verify with a
                    // reduced search of our own moves, null move disabled.
                    if non_pawn_units(board) <= NMP_VERIFY_MATERIAL || depth >= 12 {
                        self.stack[ply].no_null = true;
                        let v = self.negamax::<V, false>(
                            board,
                            depth - r,
                            ply,
                            beta - 1,
                            beta,
                            false,
                            None,
                        );
                        self.stack[ply].no_null = false;
                        if self.aborted {
                            return (Score::ZERO, Bound::None);
                        }
                        let confirmed = v >= beta;
                        observe!(self.obs.prune(ply, Prune::NullMoveVerified { confirmed }));
                        if confirmed {
                            observe!(self.obs.prune(ply, Prune::NullMoveCutoff { score }));
                            return (score, Bound::Lower);
                        }
                    } else {
                        observe!(self.obs.prune(ply, Prune::NullMoveCutoff { score }));
                        return (score, Bound::Lower);
                    }
                }
            }
        }

        // Internal iterative reduction: no TT move means this node was not
        // searched before; search it a little shallower.
        if self.features.pruning && depth >= IIR_DEPTH && tt_move.is_none() && (PV || cut_node) {
            depth -= 1;
            observe!(self.obs.prune(ply, Prune::Iir));
        }

        let prev = self.prev_keys(ply);
        let counter = self.hist.counter_move(prev[0]);
        let mut picker = MovePicker::<V>::new(
            tt_move,
            self.stack[ply].killers,
            counter,
            in_check,
            self.features.move_ordering,
        );
        let original_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let lmp_limit = (LMP_BASE + depth * depth) as usize / if improving { 1 } else { 2 };

        let mut skipping_quiets = false;
        let mut discovered = None;
        loop {
            // Whole groups of quiet moves can be pruned before they are even
            // generated; never before one move has been searched (so "no
            // move searched" still means mate or stalemate).
            if self.features.pruning && searched > 0 && !best.is_loss() && !skipping_quiets {
                let late = depth <= LMP_DEPTH && searched >= lmp_limit && !in_check;
                let lmr_depth = (depth - self.lmr_reduction(depth, searched)).max(1);
                let futile = eval.is_some_and(|e| {
                    lmr_depth <= FUTILITY_DEPTH
                        && e + margin::<V>(FUTILITY_BASE + FUTILITY_MARGIN * lmr_depth) <= alpha
                });
                if late || futile {
                    picker.skip_quiets();
                    skipping_quiets = true;
                    observe!(self.obs.prune(
                        ply,
                        Prune::QuietsPruned {
                            futility: futile && !late
                        }
                    ));
                }
            }
            let Some(m) = picker.next(board, self.hist, prev) else {
                break;
            };
            let quiet = !is_tactical(m);

            // Per-move pruning, never before one move has been searched.
            if self.features.pruning && searched > 0 && !best.is_loss() {
                if quiet {
                    let lmr_depth = (depth - self.lmr_reduction(depth, searched)).max(1);
                    if lmr_depth <= SEE_QUIET_DEPTH
                        && !board.gives_check(m, discovery(&mut discovered, board))
                        && !see::see_ge(board.pos(), m, -margin::<V>(SEE_QUIET_MARGIN * lmr_depth))
                    {
                        observe!(self.obs.prune(ply, Prune::See { mv: m }));
                        continue;
                    }
                } else if depth <= SEE_CAPTURE_DEPTH
                    && !see::see_ge(board.pos(), m, -margin::<V>(SEE_CAPTURE_MARGIN * depth))
                {
                    observe!(self.obs.prune(ply, Prune::See { mv: m }));
                    continue;
                }
            }

            // Start loading the child's TT entry while the move is made.
            if self.features.transposition_table {
                self.tt.prefetch(board.key_after(m));
            }
            let child = board.play(m);
            let gives_check = child.in_check();
            let extension = if gives_check { 1 } else { 0 };
            if extension > 0 {
                observe!(self.obs.prune(
                    ply,
                    Prune::Extension {
                        mv: m,
                        plies: extension
                    }
                ));
            }
            let new_depth = depth - 1 + extension;
            self.stack[ply].cont = Some(ContKey::new(us, m));
            self.hashes.push(child.hash());

            let mut score;
            if searched == 0 || !self.features.alpha_beta {
                // The first move gets the node's window; in plain minimax
                // every move gets the full window (and every node is PV).
                let (a, b) = if self.features.alpha_beta {
                    (-beta, -alpha)
                } else {
                    (-Score::INFINITE, Score::INFINITE)
                };
                observe!(self.obs.try_move(ply, m, searched, a, b, new_depth));
                score = -self.negamax::<V, PV>(&child, new_depth, ply + 1, a, b, false, Some(m));
            } else {
                // Late move reductions.
                let mut r = 0;
                if self.features.late_move_reductions
                    && depth >= LMR_DEPTH
                    && searched > PV as usize
                    && (quiet || !see::see_ge(board.pos(), m, 0))
                {
                    r = self.lmr_reduction(depth, searched);
                    if !PV {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if improving {
                        r -= 1;
                    }
                    if gives_check || in_check {
                        r -= 1;
                    }
                    if quiet {
                        r -= self.hist.butterfly(us, m) / LMR_HISTORY_DIVISOR;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                    if r > 0 {
                        observe!(self.obs.prune(
                            ply,
                            Prune::Lmr {
                                mv: m,
                                reduction: r
                            }
                        ));
                    }
                }
                observe!(
                    self.obs
                        .try_move(ply, m, searched, -alpha - 1, -alpha, new_depth - r)
                );
                score = -self.negamax::<V, false>(
                    &child,
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                    Some(m),
                );
                if score > alpha && r > 0 && !self.aborted {
                    observe!(self.obs.research(ply, m, Research::Reduction));
                    observe!(
                        self.obs
                            .try_move(ply, m, searched, -alpha - 1, -alpha, new_depth)
                    );
                    score = -self.negamax::<V, false>(
                        &child,
                        new_depth,
                        ply + 1,
                        -alpha - 1,
                        -alpha,
                        !cut_node,
                        Some(m),
                    );
                }
                if PV && score > alpha && score < beta && !self.aborted {
                    observe!(self.obs.research(ply, m, Research::FullWindow));
                    observe!(
                        self.obs
                            .try_move(ply, m, searched, -beta, -alpha, new_depth)
                    );
                    score = -self.negamax::<V, true>(
                        &child,
                        new_depth,
                        ply + 1,
                        -beta,
                        -alpha,
                        false,
                        Some(m),
                    );
                }
            }
            self.hashes.pop();
            if self.aborted {
                return (Score::ZERO, Bound::None);
            }
            observe!(self.obs.move_score(ply, m, score));
            searched += 1;

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.pv.update(ply, m);
                    }
                    if score >= beta {
                        self.stats.beta_cutoffs += 1;
                        if searched == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        observe!(self.obs.cutoff(ply, m, searched - 1));
                        if quiet {
                            self.on_quiet_cutoff(ply, us, m, &quiets, depth, prev);
                        }
                        break;
                    }
                    observe!(self.obs.alpha_raised(ply, m, score));
                    alpha = score;
                }
            }
            if quiet {
                let _ = quiets.try_push(m);
            }
        }

        if searched == 0 {
            // Nothing was searched and nothing can be pruned before the first
            // move: there is no legal move.
            return (no_moves_score(board, ply), Bound::Exact);
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.features.transposition_table {
            self.tt.store(
                key,
                ply,
                best_move.map_or(Move16::NONE, Move16::new),
                best,
                raw_eval.map(Score),
                depth,
                bound,
            );
            observe!(self.obs.tt_store(ply, best, bound, depth));
        }
        (best, bound)
    }

    fn on_quiet_cutoff(
        &mut self,
        ply: Ply,
        us: shakmaty::Color,
        m: Move,
        tried: &[Move],
        depth: Depth,
        prev: [Option<ContKey>; 2],
    ) {
        let k = &mut self.stack[ply].killers;
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        self.hist.update_quiet(us, m, tried, depth, prev);
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

/// The discovered-check candidates of `board`, computed at most once per node.
#[inline]
fn discovery<V: Variant>(
    cache: &mut Option<shakmaty::Bitboard>,
    board: &Board<V>,
) -> shakmaty::Bitboard {
    *cache.get_or_insert_with(|| board.discovery_candidates())
}

/// Non-pawn material of the side to move in pawn units (N = B = 3, R = 5, Q = 9).
fn non_pawn_units<V: Variant>(board: &Board<V>) -> i32 {
    let b = board.board();
    let us = b.by_color(board.turn());
    [
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(r, v)| (b.by_role(r) & us).count() as i32 * v)
    .sum()
}
