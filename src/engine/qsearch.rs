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
//!
//! Many quiescence nodes are not evaluated at all, because their
//! evaluation can be predicted far outside the window (lazy evaluation).
//! A capture changes the material (the board's running sum) but little of
//! the rest of the evaluation (mobility, king safety, pawns, the network's
//! correction), so a child's evaluation is close to its material estimate
//! plus what the rest added at its parent. A node predicted more than
//! `LAZY_MARGIN` above beta stands pat on the prediction minus the margin;
//! one predicted that far below alpha searches its captures without
//! evaluating. The main search cuts nodes by reverse futility on the same
//! prediction (`node/prune.rs`).

use super::board::Board;
use super::movegen;
use super::movepick::mvv_lva;
use super::observer::{NodeInfo, NodeKind, Prune, SearchObserver};
use super::params::{DELTA_MARGIN, LAZY_MARGIN, QS_CHECKING_DROPS};
use super::score::{Bound, Ply, Score};
use super::search::{
    ABORTED, Best, NodeFlow, Searcher, bound_cuts, material_estimate, observe, phase,
};
use super::see;
use super::tt::TtHit;
use super::variant::{Variant, margin};
use arrayvec::ArrayVec;
use shakmaty::Move;
use std::ops::ControlFlow;

/// The moves of a quiescence node with their ordering scores.
type QsMoves = ArrayVec<(Move, i32), 256>;

impl<O: SearchObserver> Searcher<'_, O> {
    /// Kept out of line: the main search calls it at every horizon node.
    #[inline(never)]
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
        alpha: Score,
        beta: Score,
        in_check: bool,
        tb: Option<(Score, Bound)>,
    ) -> (Score, Bound) {
        let (key, tt, tt_move) =
            phase!(self.qs_probe::<V, PV>(board, ply, alpha, beta, in_check, tb));
        // The material estimate, once, where lazy evaluation may use it
        // (full strength, standard chess, not in check).
        let estimate = (self.lazy && !V::DROPS && !in_check).then(|| material_estimate(board));
        let lazy_pat = phase!(self.lazy_eval(ply, alpha, beta, key, tt, estimate));
        let raw_eval = match lazy_pat {
            Some(_) => None,
            None => self.raw_eval(board, ply, in_check, tt),
        };
        if self.lazy && !V::DROPS && lazy_pat.is_none() {
            self.stack[ply].resid = estimate.zip(raw_eval).map(|(est, e)| e - est);
        }
        let (stand_pat, best) =
            phase!(self.stand_pat(ply, alpha, beta, key, raw_eval.or(lazy_pat), tt));
        // (move, ordering score), built in place: the list is large.
        let mut moves = QsMoves::new();
        phase!(self.qs_moves(board, ply, in_check, tt_move, &mut moves));
        let best =
            phase!(self.qs_loop::<V, PV>(board, ply, beta, in_check, stand_pat, &mut moves, best));
        let bound = if best.score >= beta {
            Bound::Lower
        } else if PV && best.score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt_store(key, ply, best.mv, best.score, raw_eval, 0, bound);
        (best.score, bound)
    }

    /// The stop check, the tablebase and last-ply leaves, and the
    /// transposition table (its move is used only in check, where all
    /// moves are searched). Hands on the key, the entry and its move.
    #[inline(always)]
    fn qs_probe<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        alpha: Score,
        beta: Score,
        in_check: bool,
        tb: Option<(Score, Bound)>,
    ) -> NodeFlow<(u64, Option<TtHit>, Option<Move>)> {
        self.start_node(ply)?;
        self.stats.qnodes += 1;
        self.leaf_before_moves(board, ply, in_check, tb)?;
        let key = board.hash();
        let tt = self.tt_probe(key, ply);
        let mut tt_move = None;
        if let Some(hit) = tt {
            let cutoff = !PV && bound_cuts(hit.bound, hit.score, alpha, beta);
            if in_check {
                tt_move = Self::legal_tt_move(board, hit.mv);
            }
            self.tt_hit(ply, hit, tt_move, cutoff)?;
        }
        ControlFlow::Continue((key, tt, tt_move))
    }

    /// Lazy evaluation: the material estimate plus the parent's evaluation
    /// minus its estimate (what mobility, king safety, pawns and the
    /// network added there, which one capture changes little) predicts the
    /// evaluation within `LAZY_MARGIN` almost always (in the bench's
    /// quiescence, 99.8% of the decisions below agree with the evaluation
    /// itself). So a node
    /// whose prediction is that far above beta stands pat on it without
    /// evaluating (ends the node), and one that far below alpha searches
    /// its captures with the prediction plus the margin as its stand-pat
    /// score (hands it on; `None`: evaluate as usual). Neither is stored as
    /// the node's evaluation. `estimate`: the node's material estimate
    /// (`None` where lazy evaluation does not apply).
    #[inline(always)]
    fn lazy_eval(
        &mut self,
        ply: Ply,
        alpha: Score,
        beta: Score,
        key: u64,
        tt: Option<TtHit>,
        estimate: Option<i32>,
    ) -> NodeFlow<Option<i32>> {
        let (Some(estimate), true) = (estimate, ply > 0) else {
            return ControlFlow::Continue(None);
        };
        if tt.is_some_and(|h| h.eval.is_some()) {
            return ControlFlow::Continue(None);
        }
        let Some(parent) = self.stack[ply - 1].resid else {
            return ControlFlow::Continue(None);
        };
        // The parent's residual is from its side's point of view. Kept clear
        // of the mate and tablebase scores, margin included.
        let limit = Score::TB_WIN_BOUND - 1 - LAZY_MARGIN;
        let predicted = (estimate - parent).clamp(-limit, limit);
        let (low, high) = (predicted - LAZY_MARGIN, predicted + LAZY_MARGIN);
        let cut = low >= beta.0;
        if cut || high <= alpha.0 {
            observe!(self.obs.prune(
                ply,
                Prune::Lazy {
                    predicted: Score(predicted),
                    margin: LAZY_MARGIN,
                    cut
                }
            ));
        }
        if cut {
            observe!(self.obs.stand_pat(ply, Score(low)));
            if tt.is_none() {
                self.tt_store(key, ply, None, Score(low), None, 0, Bound::Lower);
            }
            return ControlFlow::Break((Score(low), Bound::Lower));
        }
        if high <= alpha.0 {
            // The captures' children predict from this node's residual.
            self.stack[ply].resid = Some(-parent);
            return ControlFlow::Continue(Some(high));
        }
        ControlFlow::Continue(None)
    }

    /// Stand pat: the side to move may keep the static evaluation (the TT
    /// score when its bound says it is better). Ends the node when that
    /// reaches beta; otherwise hands on the stand-pat score (-INFINITE in
    /// check) and the node's best so far.
    #[inline(always)]
    fn stand_pat(
        &mut self,
        ply: Ply,
        alpha: Score,
        beta: Score,
        key: u64,
        raw_eval: Option<i32>,
        tt: Option<TtHit>,
    ) -> NodeFlow<(Score, Best)> {
        let mut best = Best::new(alpha);
        let Some(e) = raw_eval else {
            return ControlFlow::Continue((-Score::INFINITE, best));
        };
        let mut stand_pat = Score(e);
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
            if tt.is_none() {
                self.tt_store(key, ply, None, stand_pat, raw_eval, 0, Bound::Lower);
            }
            return ControlFlow::Break((stand_pat, Bound::Lower));
        }
        if stand_pat > alpha {
            best.alpha = stand_pat;
        }
        best.score = stand_pat;
        ControlFlow::Continue((stand_pat, best))
    }

    /// The moves to try with their ordering scores: the TT move, then
    /// captures by MVV-LVA. In check all evasions (none: the node ends,
    /// mated or stuck); otherwise captures and queen promotions, and at
    /// the first ply of the drop variants the checking drops that do not
    /// lose the piece (see the module comment).
    #[inline(always)]
    fn qs_moves<V: Variant>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        in_check: bool,
        tt_move: Option<Move>,
        moves: &mut QsMoves,
    ) -> NodeFlow<()> {
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
            super::movepick::evasions(board, |m| moves.push((m, score(m))));
            if moves.is_empty() {
                observe!(self.obs.prune(ply, Prune::NoLegalMoves));
                return ControlFlow::Break((
                    super::search::no_moves_score(board, ply),
                    Bound::Exact,
                ));
            }
        } else if ply >= self.qs_top + self.qs_cap {
            // A weaker level stops looking at exchanges here (stand pat).
        } else if let Some(ctx) = movegen::GenContext::new(board.pos()) {
            movegen::tactical(board.pos(), &ctx, false, |m| moves.push((m, score(m))));
            if V::DROPS && QS_CHECKING_DROPS && ply == self.qs_top {
                movegen::checking_drops(board.pos(), |m| {
                    if moves.len() < moves.capacity() && see::see_ge(board.pos(), m, 0) {
                        moves.push((m, 1 << 15));
                    }
                });
            }
        }
        ControlFlow::Continue(())
    }

    /// Searches the moves best-ordered first until one reaches beta.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn qs_loop<V: Variant, const PV: bool>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        beta: Score,
        in_check: bool,
        stand_pat: Score,
        moves: &mut QsMoves,
        mut best: Best,
    ) -> NodeFlow<Best> {
        // Start loading every child's TT entry and evaluation-cache slot
        // while the moves are ordered, checked and made.
        if self.features.transposition_table {
            for &(m, _) in moves.iter() {
                self.prefetch_child(board.key_after(m));
            }
        }
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
            if !in_check && self.qs_prune::<V>(board, ply, m, stand_pat, best.alpha) {
                continue;
            }
            let child = board.play(m);
            let (a, b) = if self.features.alpha_beta {
                (-beta, -best.alpha)
            } else {
                (-Score::INFINITE, Score::INFINITE)
            };
            observe!(self.obs.try_move(ply, m, best.searched, a, b, 0));
            let score = -self.qsearch::<V, PV>(&child, ply + 1, a, b, Some(m));
            if self.aborted {
                return ControlFlow::Break(ABORTED);
            }
            if self.take_score::<PV>(ply, m, score, beta, &mut best) {
                break;
            }
        }
        ControlFlow::Continue(best)
    }

    /// Delta pruning (even winning the captured piece and a margin does
    /// not reach alpha) and losing exchanges. Returns whether `m` is
    /// skipped.
    #[inline(always)]
    fn qs_prune<V: Variant>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        m: Move,
        stand_pat: Score,
        alpha: Score,
    ) -> bool {
        if m.promotion().is_none()
            && m.is_capture()
            && stand_pat + margin::<V>(see::gain(m) + DELTA_MARGIN) <= alpha
            && self.features.pruning
        {
            observe!(self.obs.prune(ply, Prune::Delta { mv: m }));
            return true;
        }
        // Taking a piece at least as valuable as the capturer never
        // loses material; only the others need the exchange check.
        let cheap = m
            .capture()
            .is_some_and(|c| see::value(c) >= see::value(m.role()));
        if !cheap && !see::see_ge(board.pos(), m, 0) {
            observe!(self.obs.prune(ply, Prune::See { mv: m }));
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EvalKind;
    use crate::engine::bench::POSITIONS;
    use crate::engine::eval::{Evaluator, WeightSet};

    /// What lazy evaluation rests on: after a capture, the child's
    /// evaluation is its material estimate plus the parent's evaluation
    /// minus the parent's estimate, give or take `LAZY_MARGIN`, nearly
    /// always. Checked on every capture (and two plies of captures after
    /// it) from the bench positions, with the network at full strength.
    #[test]
    fn a_capture_changes_the_evaluation_beyond_material_little() {
        let mut eval = Evaluator::new(EvalKind::Nnue);
        assert!(eval.lazy_ok());
        let (mut within, mut total, mut worst) = (0, 0, 0);
        let mut check = |parent: &Board, eval: &mut Evaluator| {
            let resid = eval.evaluate(parent) - material_estimate(parent);
            let mut children = Vec::new();
            for m in parent.legal_moves() {
                if !m.is_capture() {
                    continue;
                }
                let child = parent.play(m);
                if child.in_check() {
                    continue;
                }
                let predicted = material_estimate(&child) - resid;
                let error = (eval.evaluate(&child) - predicted).abs();
                total += 1;
                within += usize::from(error <= LAZY_MARGIN);
                worst = worst.max(error);
                children.push(child);
            }
            children
        };
        for fen in POSITIONS {
            let board = Board::from_fen(fen).unwrap();
            for child in check(&board, &mut eval) {
                for grandchild in check(&child, &mut eval) {
                    check(&grandchild, &mut eval);
                }
            }
        }
        let share = within as f64 / total as f64;
        println!("{within} of {total} captures within {LAZY_MARGIN} ({share:.4}), worst {worst}");
        assert!(total > 1000, "{total} captures");
        assert!(share >= 0.97, "{share}");
    }

    /// Levels 1-7 and the simple evaluation evaluate every node, as they
    /// were calibrated.
    #[test]
    fn only_full_strength_evaluates_lazily() {
        let mut eval = Evaluator::new(EvalKind::Full);
        assert!(eval.lazy_ok());
        eval.set_weights(WeightSet::Levels);
        assert!(!eval.lazy_ok());
        assert!(!Evaluator::new(EvalKind::Simple).lazy_ok());
    }

    /// The estimate is the board's running sum, tapered, from the side to
    /// move's point of view.
    #[test]
    fn the_material_estimate_is_symmetric() {
        for fen in POSITIONS {
            let board = Board::from_fen(fen).unwrap();
            if board.in_check() {
                continue;
            }
            let null = board.null_move().unwrap();
            assert_eq!(
                material_estimate(&null),
                -material_estimate(&board),
                "{fen}"
            );
        }
        let start = Board::from_fen(POSITIONS[0]).unwrap();
        assert_eq!(material_estimate(&start), 0);
    }
}
