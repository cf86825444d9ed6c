//! The move loop (phase 4 of a node): each move's extension and
//! reduction, the principal variation search with its re-searches, and
//! what a quiet move's cutoff teaches the histories.

use super::*;

impl<O: SearchObserver> Searcher<'_, O> {
    // ---- 4. The move loop -----------------------------------------------

    /// Searches the moves in the picker's order until one cuts the node or
    /// none is left.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn search_moves<V: Variant, const PV: bool>(
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
        let lmp_limit = (LMP_BASE + depth * depth) as usize >> u32::from(!se.improving);
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
            let fetch = |m: Move| self.prefetch_child(board.key_after(m));
            let Some(m) = picker.next_with(board, self.hist, prev, &fetch) else {
                break;
            };
            if Some(m) == node.excluded {
                continue;
            }
            let quiet = !is_tactical(m);
            if self.blind_pct != 0 && !in_check && self.overlooks(board, m) {
                overlooked = true;
                continue;
            }
            if self.prune_move::<V>(board, depth, ply, m, quiet, &best, &mut discovered) {
                continue;
            }
            // Start loading the child's TT entry and evaluation-cache slot
            // while the move is made (captures out of check started when
            // they were generated). Not before the pruning above: a pruned
            // move's child is never read.
            if quiet || in_check || Some(m) == node.tt_move {
                self.prefetch_child(board.key_after(m));
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

    /// Plays `m` and searches it: extended when it checks (and by the
    /// singular test), the first move with the node's window, the others
    /// by PVS. The score is this node's view (meaningless when the search
    /// was stopped).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn search_move<V: Variant, const PV: bool>(
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
    pub(super) fn reduction<V: Variant, const PV: bool>(
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
    pub(super) fn pvs<V: Variant, const PV: bool>(
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
    pub(super) fn on_quiet_cutoff(
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
