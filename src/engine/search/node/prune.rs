//! Pruning (phase 3 of a node, and the per-move rules of phase 4): reverse
//! futility, null move and internal iterative reduction before the moves;
//! late move and futility pruning of quiet moves, SEE pruning and the
//! singular test inside the move loop.

use super::*;

impl<O: SearchObserver> Searcher<'_, O> {
    // ---- 3. Whole-node pruning ------------------------------------------

    /// Reverse futility and null move (not in PV nodes, in check or in a
    /// singular test). `Some` ends the node.
    #[inline(always)]
    pub(super) fn prune_node<V: Variant, const PV: bool>(
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
    pub(super) fn reverse_futility<V: Variant>(
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

    /// Reverse futility on the lazy prediction of the evaluation (see
    /// `Searcher::lazy_eval` in `qsearch.rs`): when even the prediction
    /// minus its margin clears reverse futility's margin, the node ends
    /// without evaluating. Only where reverse futility would be tried.
    #[inline(always)]
    pub(super) fn lazy_reverse_futility<V: Variant>(
        &mut self,
        board: &Board<V>,
        depth: Depth,
        ply: Ply,
        node: &Probe,
    ) -> Option<(Score, Bound)> {
        if !self.lazy
            || V::DROPS
            || ply == 0
            || depth > RFP_DEPTH
            || node.excluded.is_some()
            || node.beta.is_mate()
            || node.tt.is_some_and(|h| h.eval.is_some())
            || !node.tt_move.is_none_or(is_tactical)
        {
            return None;
        }
        let parent = self.stack[ply - 1].resid?;
        let mut predicted = material_estimate(board) - parent;
        if CORRECTION_HISTORY {
            predicted += self
                .hist
                .correction(board.turn(), pawn_index(board.board()));
        }
        let limit = Score::TB_WIN_BOUND - 1;
        let predicted = Score(predicted.clamp(-limit, limit));
        let margin = LAZY_MARGIN + margin::<V>(RFP_MARGIN * depth);
        if predicted - margin >= node.beta {
            observe!(
                self.obs
                    .prune(ply, Prune::LazyReverseFutility { predicted, margin })
            );
            return Some((predicted - LAZY_MARGIN, Bound::Lower));
        }
        None
    }

    /// Null move: if passing still fails high, a real move will too.
    #[inline(always)]
    pub(super) fn null_move<V: Variant>(
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
        // Start loading the child's TT entry and evaluation-cache slot
        // while shakmaty builds (and validates) the position.
        self.prefetch_child(board.null_key());
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
    pub(super) fn iir<const PV: bool>(
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

    /// Whole groups of quiet moves can be pruned before they are even
    /// generated (late move pruning, futility); never before one move has
    /// been searched (so "no move searched" still means mate or stalemate).
    /// Returns whether the remaining quiet moves are to be skipped.
    #[inline(always)]
    pub(super) fn prune_quiets<V: Variant, const PV: bool>(
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
    pub(super) fn prune_move<V: Variant>(
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
    pub(super) fn singular<V: Variant>(
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
}
