//! The body of one search node, in the phases the module above lists:
//!
//! 1. probe ([`Searcher::probe_node`]): draw, tablebase and last-ply
//!    leaves, mate-distance pruning, the transposition-table probe;
//! 2. static evaluation ([`Searcher::static_eval`]);
//! 3. whole-node pruning ([`Searcher::prune_node`]): reverse futility and
//!    null move, then internal iterative reduction;
//! 4. the move loop ([`Searcher::search_moves`]): per-move pruning, the
//!    singular test, extensions, PVS with reductions and re-searches, and
//!    the updates on a cutoff;
//! 5. store ([`Searcher::finish_node`]): the result's bound, the correction
//!    history, the TT store.
//!
//! Each phase may end the node (a [`NodeFlow::Break`] with its score and
//! bound). The phases are `#[inline(always)]`: `negamax_body` compiles to
//! one function as before. Phases 1, 2 and 5 are here; the pruning rules
//! (phase 3, and the per-move pruning and singular test of phase 4) are in
//! `prune.rs`, the move loop itself in `moves.rs`. What quiescence shares
//! with them is in `../common.rs`.

mod moves;
mod prune;

use super::common::{ABORTED, Best, NodeFlow, bound_cuts, phase};
use super::*;
use crate::engine::board::Board;
use crate::engine::history::{ContKey, pawn_index};
use crate::engine::movepick::{MovePicker, is_tactical};
use crate::engine::observer::{Prune, Research, SearchObserver};
use crate::engine::score::{Bound, Depth, Ply, Score};
use crate::engine::see;
use crate::engine::tt::TtHit;
use crate::engine::variant::{Variant, margin};
use arrayvec::ArrayVec;
use shakmaty::{Move, Role};
use std::ops::ControlFlow::{Break, Continue};

/// What the probe phase hands on: the window after mate-distance pruning,
/// the TT entry and move, and the move a singular test leaves out.
#[derive(Copy, Clone)]
struct Probe {
    alpha: Score,
    beta: Score,
    key: u64,
    tt: Option<TtHit>,
    tt_move: Option<Move>,
    excluded: Option<Move>,
}

/// The node's static evaluation (`None` in check).
#[derive(Copy, Clone)]
struct StaticEval {
    /// The evaluation itself (stored in the TT).
    raw: Option<i32>,
    /// Corrected by the correction history.
    corrected: Option<i32>,
    /// Corrected, then replaced by the TT score when its bound allows:
    /// what the pruning decisions use.
    eval: Option<Score>,
    /// Better than two plies ago.
    improving: bool,
    /// The correction history's index of this position's pawns.
    pawns: usize,
}

/// What the move loop leaves for the store phase.
struct Searched {
    best: Best,
    /// A level overlooked at least one move here.
    overlooked: bool,
}

impl<O: SearchObserver> Searcher<'_, O> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax_body<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
        cut_node: bool,
        in_check: bool,
        tb: Option<(Score, Bound)>,
    ) -> (Score, Bound) {
        let node = phase!(self.probe_node::<V, PV>(board, depth, ply, alpha, beta, in_check, tb));
        if !PV
            && !in_check
            && let Some(result) = self.lazy_reverse_futility::<V>(board, depth, ply, &node)
        {
            return result;
        }
        let se = self.static_eval(board, ply, in_check, node.tt);
        self.stack[ply + 1].killers = [None, None];
        if let Some(result) = self.prune_node::<V, PV>(board, depth, ply, cut_node, &node, &se) {
            return result;
        }
        let depth = self.iir::<PV>(depth, ply, cut_node, &node);
        let searched =
            phase!(self.search_moves::<V, PV>(board, depth, ply, cut_node, in_check, &node, &se));
        self.finish_node(board, depth, ply, &node, &se, searched)
    }

    // ---- 1. Probe -------------------------------------------------------

    /// Everything that may end the node before its evaluation: the stop
    /// check, draws, tablebase and last-ply leaves, mate-distance pruning
    /// and a TT cutoff.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn probe_node<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
        in_check: bool,
        tb: Option<(Score, Bound)>,
    ) -> NodeFlow<Probe> {
        self.start_node(ply)?;
        if self.is_draw(board, ply) {
            observe!(self.obs.prune(ply, Prune::Draw));
            return Break((Score::DRAW, Bound::Exact));
        }
        self.leaf_before_moves(board, ply, in_check, tb)?;
        let (alpha, beta) = self.mate_distance(ply, alpha, beta)?;
        self.probe_tt_node::<V, PV>(board, depth, ply, alpha, beta)
    }

    /// Mate-distance pruning: no line from here can beat a mate already
    /// found nearer the root, so the window shrinks to what a mate from
    /// this ply can still reach (and the node ends when nothing is left).
    #[inline(always)]
    fn mate_distance(&mut self, ply: Ply, alpha: Score, beta: Score) -> NodeFlow<(Score, Score)> {
        if !self.features.alpha_beta {
            return Continue((alpha, beta));
        }
        let (entry_alpha, entry_beta) = (alpha, beta);
        let alpha = alpha.max(Score::mated_in(ply));
        let beta = beta.min(Score::mate_in(ply + 1));
        if alpha >= beta {
            observe!(self.obs.prune(ply, Prune::MateDistance));
            return Break((alpha, Bound::Exact));
        }
        if O::NODE_EVENTS && (alpha, beta) != (entry_alpha, entry_beta) {
            observe!(
                self.obs
                    .prune(ply, Prune::MateDistanceWindow { alpha, beta })
            );
        }
        Continue((alpha, beta))
    }

    /// The transposition table. A singular test (a move left out) neither
    /// takes the entry's cutoff nor its move, nor stores its result.
    #[inline(always)]
    fn probe_tt_node<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        alpha: Score,
        beta: Score,
    ) -> NodeFlow<Probe> {
        let excluded = self.stack[ply].excluded;
        let key = board.hash();
        let tt = self.tt_probe(key, ply);
        let mut tt_move = None;
        if let Some(hit) = tt {
            tt_move = match Self::legal_tt_move(board, hit.mv) {
                Some(m) if Some(m) != excluded => Some(m),
                _ => None,
            };
            let cutoff = !PV
                && excluded.is_none()
                && hit.depth >= depth
                && board.halfmoves() < 90
                && bound_cuts(hit.bound, hit.score, alpha, beta);
            self.tt_hit(ply, hit, tt_move, cutoff)?;
        }
        Continue(Probe {
            alpha,
            beta,
            key,
            tt,
            tt_move,
            excluded,
        })
    }

    // ---- 2. Static evaluation -------------------------------------------

    /// The static evaluation, corrected by what searches of positions with
    /// the same pawns found, then by the TT score when its bound allows
    /// (pruning decisions only: scores still come from the evaluation
    /// itself).
    #[inline(always)]
    fn static_eval<V: Variant>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        in_check: bool,
        tt: Option<TtHit>,
    ) -> StaticEval {
        let raw = self.raw_eval(board, ply, in_check, tt);
        self.stack[ply].eval = raw;
        if self.lazy && !V::DROPS {
            self.stack[ply].resid = raw.map(|e| e - material_estimate(board));
        }
        let pawns = pawn_index(board.board());
        let corrected = raw.map(|e| {
            if CORRECTION_HISTORY && self.features.pruning {
                e + self.hist.correction(board.turn(), pawns)
            } else {
                e
            }
        });
        let eval = corrected.map(|e| {
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
        let improving = match (raw, ply >= 2) {
            (Some(e), true) => self.stack[ply - 2].eval.is_none_or(|prev| e > prev),
            _ => false,
        };
        StaticEval {
            raw,
            corrected,
            eval,
            improving,
            pawns,
        }
    }

    // ---- 5. Store -------------------------------------------------------

    /// The node's result from its moves: the bound, what the correction
    /// history learns, the TT store.
    #[inline(always)]
    fn finish_node<V: Variant>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        node: &Probe,
        se: &StaticEval,
        searched: Searched,
    ) -> (Score, Bound) {
        let Searched { best, overlooked } = searched;
        if best.searched == 0 {
            return self.no_move_searched(board, ply, node, overlooked);
        }
        let bound = if best.score >= node.beta {
            Bound::Lower
        } else if best.mv.is_some() && best.score > node.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if node.excluded.is_none() {
            self.learn_correction(board, depth, se, &best, bound);
            self.tt_store(node.key, ply, best.mv, best.score, se.raw, depth, bound);
        }
        (best.score, bound)
    }

    /// No move was searched: a singular test whose only move was left out,
    /// a level that overlooked every move, or no legal move at all.
    #[cold]
    fn no_move_searched<V: Variant>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        node: &Probe,
        overlooked: bool,
    ) -> (Score, Bound) {
        if node.excluded.is_some() {
            // Only the move left out: the test fails low.
            return (node.alpha, Bound::Upper);
        }
        if overlooked {
            // A level saw none of the moves here: it judges the position
            // as it stands.
            return (Score(self.eval.evaluate(board)), Bound::Exact);
        }
        // Nothing was searched and nothing can be pruned before the first
        // move: there is no legal move.
        observe!(self.obs.prune(ply, Prune::NoLegalMoves));
        (no_moves_score(board, ply), Bound::Exact)
    }

    /// Teaches the correction table when the result says more than the
    /// bound: an exact score, a fail high above the eval, a fail low below
    /// it; not for tactical best moves (their gain is not the position's)
    /// or proven results.
    #[inline(always)]
    fn learn_correction<V: Variant>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        se: &StaticEval,
        best: &Best,
        bound: Bound,
    ) {
        if let (Some(raw), Some(corrected)) = (se.raw, se.corrected)
            && CORRECTION_HISTORY
            && self.features.pruning
            && best.mv.is_none_or(|m| !is_tactical(m))
            && !best.score.is_proven_win()
            && !best.score.is_proven_loss()
            && !(bound == Bound::Lower && best.score.0 <= corrected)
            && !(bound == Bound::Upper && best.score.0 >= corrected)
        {
            self.hist
                .update_correction(board.turn(), se.pawns, best.score.0 - raw, depth);
        }
    }
}

/// What deciding whether a move of `board` gives check needs, computed at
/// most once per node.
#[inline(always)]
pub(super) fn check_info<'a, V: Variant>(
    cache: &'a mut Option<crate::engine::CheckInfo>,
    board: &Board<V>,
) -> &'a crate::engine::CheckInfo {
    cache.get_or_insert_with(|| board.check_info())
}

/// Non-pawn material of the side to move in pawn units (N = B = 3, R = 5, Q = 9).
pub(super) fn non_pawn_units<V: Variant>(board: &Board<V>) -> i32 {
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
