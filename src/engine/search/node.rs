//! The body of one search node: draw and tablebase checks, TT probe,
//! static evaluation, whole-node pruning, and the move loop with per-move
//! pruning, extensions, PVS, reductions and the updates on a cutoff (see
//! the module above for the order).

use super::*;
use crate::engine::board::{Board, Move16};
use crate::engine::history::{ContKey, pawn_index};
use crate::engine::movepick::{MovePicker, is_tactical};
use crate::engine::observer::{Prune, Research, SearchObserver};
use crate::engine::score::{Bound, Depth, MAX_PLY, Ply, Score};
use crate::engine::see;
use crate::engine::variant::{Variant, margin};
use arrayvec::ArrayVec;
use shakmaty::{Move, Role};

impl<O: SearchObserver> Searcher<'_, O> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax_body<V: Variant, const PV: bool>(
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

        // Transposition table. A singular test (a move left out) neither
        // takes the entry's cutoff nor its move, nor stores its result.
        let excluded = self.stack[ply].excluded;
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
            tt_move = Self::legal_tt_move(board, hit.mv).filter(|&m| Some(m) != excluded);
            let cutoff = !PV
                && excluded.is_none()
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
        // The static evaluation corrected by what searches of positions
        // with the same pawns found (pruning decisions only: scores still
        // come from the evaluation itself).
        let pawns = pawn_index(board.board());
        let corrected = raw_eval.map(|e| {
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
        let improving = match (raw_eval, ply >= 2) {
            (Some(e), true) => self.stack[ply - 2].eval.is_none_or(|prev| e > prev),
            _ => false,
        };
        self.stack[ply + 1].killers = [None, None];
        let us = board.turn();

        if let (false, Some(eval), None) = (PV, eval, excluded) {
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
        if self.features.pruning
            && depth >= IIR_DEPTH
            && tt_move.is_none()
            && excluded.is_none()
            && (PV || cut_node)
        {
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
        let mut overlooked = false;
        loop {
            // Whole groups of quiet moves can be pruned before they are even
            // generated; never before one move has been searched (so "no
            // move searched" still means mate or stalemate).
            if self.features.pruning && searched > 0 && !best.is_loss() && !skipping_quiets {
                // Not at the last plies of a PV node: with little to order
                // quiet moves by there, the move that holds may come late.
                let late = depth <= LMP_DEPTH
                    && !(PV && depth <= PV_LMP_MIN_DEPTH)
                    && searched >= lmp_limit
                    && !in_check;
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
            if Some(m) == excluded {
                continue;
            }
            if self.blind_pct != 0 && !in_check && self.overlooks(board, m) {
                overlooked = true;
                continue;
            }
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

            // Singular extension: is the TT move the only good one? Search
            // the others shallower against a bound just below its score.
            let mut singular = 0;
            if SINGULAR_EXTENSIONS
                && self.features.pruning
                && ply > 0
                && depth >= SE_DEPTH
                && Some(m) == tt_move
                && excluded.is_none()
                && let Some(hit) = tt
                && matches!(hit.bound, Bound::Lower | Bound::Exact)
                && hit.depth >= depth - SE_TT_DEPTH
                && !hit.score.is_proven_win()
                && !hit.score.is_proven_loss()
            {
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
                    return (Score::ZERO, Bound::None);
                }
                if v < singular_beta {
                    singular = 1;
                } else if singular_beta >= beta {
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
                    return (singular_beta, Bound::Lower);
                } else if hit.score >= beta {
                    singular = -1;
                }
                observe!(self.obs.prune(
                    ply,
                    Prune::Singular {
                        mv: m,
                        singular_beta,
                        score: v,
                        plies: singular
                    }
                ));
            }

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
            if excluded.is_some() {
                // Only the move left out: the test fails low.
                return (alpha, Bound::Upper);
            }
            if overlooked {
                // A level saw none of the moves here: it judges the
                // position as it stands.
                return (Score(self.eval.evaluate(board)), Bound::Exact);
            }
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
        // Teach the correction table when the result says more than the
        // bound: an exact score, a fail high above the eval, a fail low
        // below it; not for tactical best moves (their gain is not the
        // position's) or proven results.
        if let (Some(raw), Some(se), None) = (raw_eval, corrected, excluded)
            && CORRECTION_HISTORY
            && self.features.pruning
            && best_move.is_none_or(|m| !is_tactical(m))
            && !best.is_proven_win()
            && !best.is_proven_loss()
            && !(bound == Bound::Lower && best.0 <= se)
            && !(bound == Bound::Upper && best.0 >= se)
        {
            self.hist
                .update_correction(board.turn(), pawns, best.0 - raw, depth);
        }
        if self.features.transposition_table && excluded.is_none() {
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

/// The discovered-check candidates of `board`, computed at most once per node.
#[inline]
pub(super) fn discovery<V: Variant>(
    cache: &mut Option<shakmaty::Bitboard>,
    board: &Board<V>,
) -> shakmaty::Bitboard {
    *cache.get_or_insert_with(|| board.discovery_candidates())
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
