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
//! one function as before. What quiescence shares with them is in
//! `common.rs`.

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
        let raw = self.raw_eval(board, in_check, tt);
        self.stack[ply].eval = raw;
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

    // ---- 3. Whole-node pruning ------------------------------------------

    /// Reverse futility and null move (not in PV nodes, in check or in a
    /// singular test). `Some` ends the node.
    #[inline(always)]
    fn prune_node<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        cut_node: bool,
        node: &Probe,
        se: &StaticEval,
    ) -> Option<(Score, Bound)> {
        let (false, Some(eval), None) = (PV, se.eval, node.excluded) else {
            return None;
        };
        if let Some(result) = self.reverse_futility::<V>(depth, ply, eval, node, se.improving) {
            return Some(result);
        }
        self.null_move::<V>(board, depth, ply, eval, node.beta, cut_node)
    }

    /// Reverse futility: so far above beta that a quiet move will not
    /// bring us back below it. Not when the TT move is a quiet move: it may
    /// be a threat (a quiet mating attack) that the static evaluation
    /// cannot see.
    #[inline(always)]
    fn reverse_futility<V: Variant>(
        &mut self,
        depth: Depth,
        ply: Ply,
        eval: Score,
        node: &Probe,
        improving: bool,
    ) -> Option<(Score, Bound)> {
        if self.features.pruning
            && depth <= RFP_DEPTH
            && !node.beta.is_mate()
            && node.tt_move.is_none_or(is_tactical)
        {
            let margin =
                margin::<V>(RFP_MARGIN * depth - if improving { RFP_IMPROVING_MARGIN } else { 0 });
            if eval - margin >= node.beta {
                observe!(self.obs.prune(ply, Prune::ReverseFutility { eval, margin }));
                return Some((eval, Bound::Lower));
            }
        }
        None
    }

    /// Null move: if passing still fails high, a real move will too.
    #[inline(always)]
    fn null_move<V: Variant>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        eval: Score,
        beta: Score,
        cut_node: bool,
    ) -> Option<(Score, Bound)> {
        if !(self.features.null_move
            && depth >= NMP_DEPTH
            && eval >= beta
            && !self.stack[ply].no_null
            && ply >= 1
            && self.stack[ply - 1].cont.is_some()
            && !beta.is_loss()
            && board.has_non_pawn_material(board.turn()))
        {
            return None;
        }
        let null = board.null_move()?;
        let r = NMP_BASE_REDUCTION
            + depth / NMP_DEPTH_DIVISOR
            + ((eval - beta) / margin::<V>(NMP_EVAL_DIVISOR)).min(3);
        observe!(self.obs.prune(ply, Prune::NullMoveTry { reduction: r }));
        self.stack[ply].cont = None;
        self.hashes.push(null.hash());
        let score =
            -self.negamax::<V, false>(&null, depth - r, ply + 1, -beta, -beta + 1, !cut_node, None);
        self.hashes.pop();
        if self.aborted {
            return Some(ABORTED);
        }
        if score < beta {
            return None;
        }
        // A mate or tablebase win after passing proves nothing.
        let score = if score.is_proven_win() { beta } else { score };
        // Zugzwang is likely with little material: verify with a reduced
        // search of our own moves, null move disabled.
        if non_pawn_units(board) <= NMP_VERIFY_MATERIAL || depth >= 12 {
            self.stack[ply].no_null = true;
            let v = self.negamax::<V, false>(board, depth - r, ply, beta - 1, beta, false, None);
            self.stack[ply].no_null = false;
            if self.aborted {
                return Some(ABORTED);
            }
            let confirmed = v >= beta;
            observe!(self.obs.prune(ply, Prune::NullMoveVerified { confirmed }));
            if !confirmed {
                return None;
            }
        }
        observe!(self.obs.prune(ply, Prune::NullMoveCutoff { score }));
        Some((score, Bound::Lower))
    }

    /// Internal iterative reduction: no TT move means this node was not
    /// searched before; search it a little shallower.
    #[inline(always)]
    fn iir<const PV: bool>(
        &mut self,
        depth: Depth,
        ply: Ply,
        cut_node: bool,
        node: &Probe,
    ) -> Depth {
        if self.features.pruning
            && depth >= IIR_DEPTH
            && node.tt_move.is_none()
            && node.excluded.is_none()
            && (PV || cut_node)
        {
            observe!(self.obs.prune(ply, Prune::Iir));
            return depth - 1;
        }
        depth
    }

    // ---- 4. The move loop -----------------------------------------------

    /// Searches the moves in the picker's order until one cuts the node or
    /// none is left.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_moves<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        cut_node: bool,
        in_check: bool,
        node: &Probe,
        se: &StaticEval,
    ) -> NodeFlow<Searched> {
        let prev = self.prev_keys(ply);
        let counter = self.hist.counter_move(prev[0]);
        let mut picker = MovePicker::<V>::new(
            node.tt_move,
            self.stack[ply].killers,
            counter,
            in_check,
            self.features.move_ordering,
        );
        let mut best = Best::new(node.alpha);
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let lmp_limit = (LMP_BASE + depth * depth) as usize / if se.improving { 1 } else { 2 };
        let mut skipping_quiets = false;
        let mut discovered = None;
        let mut overlooked = false;
        loop {
            if !skipping_quiets
                && self.prune_quiets::<V, PV>(depth, ply, in_check, lmp_limit, se, &best)
            {
                picker.skip_quiets();
                skipping_quiets = true;
            }
            let Some(m) = picker.next(board, self.hist, prev) else {
                break;
            };
            if Some(m) == node.excluded {
                continue;
            }
            if self.blind_pct != 0 && !in_check && self.overlooks(board, m) {
                overlooked = true;
                continue;
            }
            let quiet = !is_tactical(m);
            if self.prune_move::<V>(board, depth, ply, m, quiet, &best, &mut discovered) {
                continue;
            }
            let singular = self.singular::<V>(board, depth, ply, m, cut_node, node)?;
            let score = self.search_move::<V, PV>(
                board,
                depth,
                ply,
                m,
                quiet,
                singular,
                cut_node,
                in_check,
                se.improving,
                node.beta,
                &best,
            );
            if self.aborted {
                return Break(ABORTED);
            }
            if self.take_score::<PV>(ply, m, score, node.beta, &mut best) {
                if quiet {
                    self.on_quiet_cutoff(ply, board.turn(), m, &quiets, depth, prev);
                }
                break;
            }
            if quiet {
                let _ = quiets.try_push(m);
            }
        }
        Continue(Searched { best, overlooked })
    }

    /// Whole groups of quiet moves can be pruned before they are even
    /// generated (late move pruning, futility); never before one move has
    /// been searched (so "no move searched" still means mate or stalemate).
    /// Returns whether the remaining quiet moves are to be skipped.
    #[inline(always)]
    fn prune_quiets<V: Variant, const PV: bool>(
        &mut self,
        depth: Depth,
        ply: Ply,
        in_check: bool,
        lmp_limit: usize,
        se: &StaticEval,
        best: &Best,
    ) -> bool {
        if !(self.features.pruning && best.searched > 0 && !best.score.is_loss()) {
            return false;
        }
        // Not at the last plies of a PV node: with little to order quiet
        // moves by there, the move that holds may come late.
        let late = depth <= LMP_DEPTH
            && !(PV && depth <= PV_LMP_MIN_DEPTH)
            && best.searched >= lmp_limit
            && !in_check;
        let lmr_depth = (depth - self.lmr_reduction(depth, best.searched)).max(1);
        // Futility judges the position itself (the corrected static
        // evaluation), not the TT-adjusted value: a bound left by an
        // earlier, shallower pass could be low enough to skip every quiet
        // move, the only escapes included, and the result then became the
        // next pass's bound (tests/search.rs, the queen position).
        let futile = se.corrected.is_some_and(|e| {
            lmr_depth <= FUTILITY_DEPTH
                && e + margin::<V>(FUTILITY_BASE + FUTILITY_MARGIN * lmr_depth) <= best.alpha.0
        });
        if late || futile {
            observe!(self.obs.prune(
                ply,
                Prune::QuietsPruned {
                    futility: futile && !late
                }
            ));
        }
        late || futile
    }

    /// Per-move pruning by static exchange, never before one move has been
    /// searched. Returns whether `m` is skipped.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn prune_move<V: Variant>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        m: Move,
        quiet: bool,
        best: &Best,
        discovered: &mut Option<crate::engine::CheckInfo>,
    ) -> bool {
        if !(self.features.pruning && best.searched > 0 && !best.score.is_loss()) {
            return false;
        }
        let pruned = if quiet {
            let lmr_depth = (depth - self.lmr_reduction(depth, best.searched)).max(1);
            lmr_depth <= SEE_QUIET_DEPTH
                && !board.gives_check(m, check_info(discovered, board))
                && !see::see_ge(board.pos(), m, -margin::<V>(SEE_QUIET_MARGIN * lmr_depth))
        } else {
            depth <= SEE_CAPTURE_DEPTH
                && !see::see_ge(board.pos(), m, -margin::<V>(SEE_CAPTURE_MARGIN * depth))
        };
        if pruned {
            observe!(self.obs.prune(ply, Prune::See { mv: m }));
        }
        pruned
    }

    /// Singular extension: is the TT move the only good one? Search the
    /// others shallower against a bound just below its score. Gives the
    /// TT move's extension (+1 singular, -1 others are good too, else 0);
    /// a multi-cut (another move reaches beta) ends the node.
    #[inline(always)]
    fn singular<V: Variant>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        m: Move,
        cut_node: bool,
        node: &Probe,
    ) -> NodeFlow<Depth> {
        let Some(hit) = node.tt else {
            return Continue(0);
        };
        if !(SINGULAR_EXTENSIONS
            && self.features.pruning
            && ply > 0
            && depth >= SE_DEPTH
            && Some(m) == node.tt_move
            && node.excluded.is_none()
            && matches!(hit.bound, Bound::Lower | Bound::Exact)
            && hit.depth >= depth - SE_TT_DEPTH
            && !hit.score.is_proven_win()
            && !hit.score.is_proven_loss())
        {
            return Continue(0);
        }
        let singular_beta = hit.score - SE_MARGIN * depth;
        self.stack[ply].excluded = Some(m);
        let v = self.negamax::<V, false>(
            board,
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            cut_node,
            None,
        );
        self.stack[ply].excluded = None;
        if self.aborted {
            return Break(ABORTED);
        }
        let plies = if v < singular_beta {
            1
        } else if singular_beta >= node.beta {
            observe!(self.obs.prune(
                ply,
                Prune::Singular {
                    mv: m,
                    singular_beta,
                    score: v,
                    plies: 0
                }
            ));
            observe!(self.obs.prune(
                ply,
                Prune::MultiCut {
                    score: singular_beta
                }
            ));
            return Break((singular_beta, Bound::Lower));
        } else if hit.score >= node.beta {
            -1
        } else {
            0
        };
        observe!(self.obs.prune(
            ply,
            Prune::Singular {
                mv: m,
                singular_beta,
                score: v,
                plies
            }
        ));
        Continue(plies)
    }

    /// Plays `m` and searches it: extended when it checks (and by the
    /// singular test), the first move with the node's window, the others
    /// by PVS. The score is this node's view (meaningless when the search
    /// was stopped).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_move<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        m: Move,
        quiet: bool,
        singular: Depth,
        cut_node: bool,
        in_check: bool,
        improving: bool,
        beta: Score,
        best: &Best,
    ) -> Score {
        // Start loading the child's TT entry while the move is made.
        if self.features.transposition_table {
            self.tt.prefetch(board.key_after(m));
        }
        let child = board.play(m);
        let gives_check = child.in_check();
        let extension = (i32::from(gives_check) + singular).clamp(-1, 1);
        if gives_check {
            observe!(self.obs.prune(ply, Prune::Extension { mv: m, plies: 1 }));
        }
        let new_depth = depth - 1 + extension;
        self.stack[ply].cont = Some(ContKey::new(board.turn(), m));
        self.hashes.push(child.hash());
        let (alpha, searched) = (best.alpha, best.searched);
        let score = if searched == 0 || !self.features.alpha_beta {
            // The first move gets the node's window; in plain minimax
            // every move gets the full window (and every node is PV).
            let (a, b) = if self.features.alpha_beta {
                (-beta, -alpha)
            } else {
                (-Score::INFINITE, Score::INFINITE)
            };
            observe!(self.obs.try_move(ply, m, searched, a, b, new_depth));
            -self.negamax::<V, PV>(&child, new_depth, ply + 1, a, b, false, Some(m))
        } else {
            let r = self.reduction::<V, PV>(
                board,
                depth,
                ply,
                m,
                quiet,
                searched,
                new_depth,
                cut_node,
                improving,
                gives_check || in_check,
            );
            self.pvs::<V, PV>(
                &child, ply, m, searched, new_depth, r, alpha, beta, cut_node,
            )
        };
        self.hashes.pop();
        score
    }

    /// Late move reduction of a later move (0: none).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn reduction<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        m: Move,
        quiet: bool,
        searched: usize,
        new_depth: Depth,
        cut_node: bool,
        improving: bool,
        checks: bool,
    ) -> Depth {
        if !(self.features.late_move_reductions
            && depth >= LMR_DEPTH
            && searched > PV as usize
            && (quiet || !see::see_ge(board.pos(), m, 0)))
        {
            return 0;
        }
        let mut r = self.lmr_reduction(depth, searched);
        if !PV {
            r += 1;
        }
        if cut_node {
            r += 1;
        }
        if improving {
            r -= 1;
        }
        if checks {
            r -= 1;
        }
        if quiet {
            r -= self.hist.butterfly(board.turn(), m) / LMR_HISTORY_DIVISOR;
        }
        let r = r.clamp(0, (new_depth - 1).max(0));
        if r > 0 {
            observe!(self.obs.prune(
                ply,
                Prune::Lmr {
                    mv: m,
                    reduction: r
                }
            ));
        }
        r
    }

    /// Principal variation search of a later move: a zero window (reduced
    /// by `r`), again at full depth when a reduced search fails high, and
    /// with the full window in a PV node when it lands inside the window.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn pvs<V: Variant, const PV: bool>(
        &mut self,
        child: &Board<V>,
        ply: Ply,
        m: Move,
        searched: usize,
        new_depth: Depth,
        r: Depth,
        alpha: Score,
        beta: Score,
        cut_node: bool,
    ) -> Score {
        observe!(
            self.obs
                .try_move(ply, m, searched, -alpha - 1, -alpha, new_depth - r)
        );
        let mut score = -self.negamax::<V, false>(
            child,
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
                child,
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
            score =
                -self.negamax::<V, true>(child, new_depth, ply + 1, -beta, -alpha, false, Some(m));
        }
        score
    }

    /// A quiet move cut the node: it becomes a killer, and the histories
    /// learn from it and from the quiet moves tried before it.
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
