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

use super::board::Board;
use super::movegen;
use super::movepick::mvv_lva;
use super::observer::{NodeInfo, NodeKind, Prune, SearchObserver};
use super::params::{DELTA_MARGIN, QS_CHECKING_DROPS};
use super::score::{Bound, Ply, Score};
use super::search::{ABORTED, Best, NodeFlow, Searcher, bound_cuts, observe, phase};
use super::see;
use super::tt::TtHit;
use super::variant::{Variant, margin};
use arrayvec::ArrayVec;
use shakmaty::{Move, Position};
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
        let raw_eval = self.raw_eval(board, ply, in_check, tt);
        let (stand_pat, best) = phase!(self.stand_pat(ply, alpha, beta, key, raw_eval, tt));
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
            for m in board.pos().legal_moves() {
                moves.push((m, score(m)));
            }
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
            // Start loading the child's TT entry and evaluation-cache slot
            // while the move is made.
            if self.features.transposition_table {
                let key = board.key_after(m);
                self.tt.prefetch(key);
                self.eval.prefetch(key);
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
