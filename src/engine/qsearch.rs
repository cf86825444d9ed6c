//! Quiescence search: at the horizon, keep searching captures and queen
//! promotions (all evasions when in check) until the position is quiet, so
//! the static evaluation is never taken in the middle of an exchange.
//!
//! A position the tablebases know is scored by them, so a capture into a
//! won or drawn ending is valued exactly.
//!
//! Drops (Crazyhouse, Bughouse) are quiet moves: a hand full of pieces has
//! dozens of them, and a quiescence search that tried them would never
//! end. It tries none, except (with `QS_CHECKING_DROPS`) at its first ply
//! the checking drops that do not simply lose the piece: mates by drops
//! are the typical tactic just beyond the horizon, and one ply of them is
//! bounded (the checked side answers with all its evasions, the plies after
//! that see captures only).
//!
//! The side to move may "stand pat" on its static evaluation (it is not
//! forced to capture). Captures that cannot raise alpha even when winning the
//! piece (delta pruning) and captures that lose material by static exchange
//! evaluation are skipped.

use super::board::{Board, Move16};
use super::movegen;
use super::movepick::mvv_lva;
use super::observer::{NodeInfo, NodeKind, Prune, SearchObserver};
use super::params::{DELTA_MARGIN, QS_CHECKING_DROPS};
use super::score::{Bound, MAX_PLY, Ply, Score};
use super::search::{Searcher, observe};
use super::see;
use super::variant::{Variant, margin};
use arrayvec::ArrayVec;
use shakmaty::{Move, Position};

impl<O: SearchObserver> Searcher<'_, O> {
    pub fn qsearch<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        alpha: Score,
        beta: Score,
        entered_by: Option<Move>,
    ) -> Score {
        let in_check = board.in_check();
        // Captures into a position the tables know are scored exactly.
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
            pv: PV,
            mv: entered_by,
            in_check,
            occupied: board.board().occupied(),
            _life: std::marker::PhantomData,
        }));
        let (score, bound) = self.qsearch_body::<V, PV>(board, ply, alpha, beta, in_check, tb);
        observe!(self.obs.leave(ply, score, bound));
        score
    }

    fn qsearch_body<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        mut alpha: Score,
        beta: Score,
        in_check: bool,
        tb: Option<(Score, Bound)>,
    ) -> (Score, Bound) {
        self.pv.clear(ply);
        if self.visit(ply) {
            return (Score::ZERO, Bound::None);
        }
        self.stats.qnodes += 1;
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
            let cutoff = !PV
                && match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                    Bound::None => false,
                };
            if in_check {
                tt_move = Self::legal_tt_move(board, hit.mv);
            }
            observe!(self.obs.tt_hit(ply, tt_move, hit.score, hit.bound, cutoff));
            if cutoff {
                self.stats.tt_cutoffs += 1;
                return (hit.score, hit.bound);
            }
        }

        // Stand pat.
        let raw_eval = if in_check {
            None
        } else {
            Some(match tt.and_then(|h| h.eval) {
                Some(e) => e.0,
                None => self.eval.evaluate(board),
            })
        };
        let original_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut stand_pat = -Score::INFINITE;
        if let Some(e) = raw_eval {
            stand_pat = Score(e);
            if let Some(hit) = tt {
                let better = match hit.bound {
                    Bound::Lower => hit.score > stand_pat,
                    Bound::Upper => hit.score < stand_pat,
                    _ => false,
                };
                if better && !hit.score.is_mate() {
                    stand_pat = hit.score;
                }
            }
            observe!(self.obs.stand_pat(ply, stand_pat));
            if stand_pat >= beta {
                if self.features.transposition_table && tt.is_none() {
                    self.tt.store(
                        key,
                        ply,
                        Move16::NONE,
                        stand_pat,
                        raw_eval.map(Score),
                        0,
                        Bound::Lower,
                    );
                    observe!(self.obs.tt_store(ply, stand_pat, Bound::Lower, 0));
                }
                return (stand_pat, Bound::Lower);
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
        }

        // (move, ordering score): the TT move, then captures by MVV-LVA.
        let mut moves: ArrayVec<(Move, i32), 256> = ArrayVec::new();
        let score = |m: Move| {
            if Some(m) == tt_move {
                1 << 20
            } else if m.is_capture() || m.is_promotion() {
                mvv_lva(m) + (1 << 16)
            } else {
                0
            }
        };
        if in_check {
            for m in board.pos().legal_moves() {
                moves.push((m, score(m)));
            }
            if moves.is_empty() {
                return (super::search::no_moves_score(board, ply), Bound::Exact);
            }
        } else if ply >= self.qs_top + self.qs_cap {
            // A weaker level stops looking at exchanges here (stand pat).
        } else if let Some(ctx) = movegen::GenContext::new(board.pos()) {
            movegen::tactical(board.pos(), &ctx, false, |m| moves.push((m, score(m))));
            // Drop variants: at the first quiescence ply only, the checking
            // drops that do not lose the piece (see the module comment).
            if V::DROPS && QS_CHECKING_DROPS && ply == self.qs_top {
                movegen::checking_drops(board.pos(), |m| {
                    if moves.len() < moves.capacity() && see::see_ge(board.pos(), m, 0) {
                        moves.push((m, 1 << 15));
                    }
                });
            }
        }
        let mut best_move = None;
        let mut searched = 0usize;
        for i in 0..moves.len() {
            // Selection sort: the next best-ordered move.
            let mut b = i;
            for j in i + 1..moves.len() {
                if moves[j].1 > moves[b].1 {
                    b = j;
                }
            }
            moves.swap(i, b);
            let m = moves[i].0;
            if self.blind_pct != 0 && !in_check && self.overlooks(board, m) {
                continue;
            }

            if !in_check {
                // Delta pruning: even winning the captured piece and a margin
                // does not reach alpha.
                if m.promotion().is_none()
                    && m.is_capture()
                    && stand_pat + margin::<V>(see::gain(m) + DELTA_MARGIN) <= alpha
                    && self.features.pruning
                {
                    observe!(self.obs.prune(ply, Prune::Delta { mv: m }));
                    continue;
                }
                // Taking a piece at least as valuable as the capturer never
                // loses material; only the others need the exchange check.
                let cheap = m
                    .capture()
                    .is_some_and(|c| see::value(c) >= see::value(m.role()));
                if !cheap && !see::see_ge(board.pos(), m, 0) {
                    observe!(self.obs.prune(ply, Prune::See { mv: m }));
                    continue;
                }
            }

            // Start loading the child's TT entry while the move is made.
            if self.features.transposition_table {
                self.tt.prefetch(board.key_after(m));
            }
            let child = board.play(m);
            let (a, b) = if self.features.alpha_beta {
                (-beta, -alpha)
            } else {
                (-Score::INFINITE, Score::INFINITE)
            };
            observe!(self.obs.try_move(ply, m, searched, a, b, 0));
            let score = -self.qsearch::<V, PV>(&child, ply + 1, a, b, Some(m));
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
                        break;
                    }
                    observe!(self.obs.alpha_raised(ply, m, score));
                    alpha = score;
                }
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > original_alpha {
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
                0,
                bound,
            );
            observe!(self.obs.tt_store(ply, best, bound, 0));
        }
        (best, bound)
    }
}
