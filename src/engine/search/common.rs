//! What the main search (`node/`) and quiescence (`qsearch.rs`) share:
//! the leaves that end a node before it searches a move, the
//! transposition-table probe and store (with their statistics and observer
//! events), the static evaluation read from the TT entry, and the
//! bookkeeping of the move loop (best score, alpha, PV, beta cutoff).
//!
//! Everything here is `#[inline(always)]`: each piece is compiled into the
//! node that uses it, as if written there.

use super::{Searcher, TB_DEPTH, observe};
use crate::engine::board::{Board, Move16};
use crate::engine::observer::SearchObserver;
use crate::engine::score::{Bound, Depth, MAX_PLY, Ply, Score};
use crate::engine::tt::TtHit;
use crate::engine::variant::Variant;
use shakmaty::Move;
use std::ops::ControlFlow;

/// A node phase either ends the node with its score and bound (`Break`) or
/// hands what it learned to the next phase (`Continue`).
pub(crate) type NodeFlow<T> = ControlFlow<(Score, Bound), T>;

/// Unwraps a phase's [`NodeFlow`] in a function that returns the node's
/// `(Score, Bound)`: a `Break` ends the node with its result.
macro_rules! phase {
    ($e:expr) => {
        match $e {
            std::ops::ControlFlow::Break(result) => return result,
            std::ops::ControlFlow::Continue(v) => v,
        }
    };
}
pub(crate) use phase;

/// The board's running material and piece-square sum, tapered by the
/// material left, from the side to move's point of view: what the static
/// evaluation is made of before mobility, king safety, threats, pawn
/// structure and the network. A node's evaluation minus this estimate
/// changes little from a node to its child, which is what lazy evaluation
/// in quiescence relies on.
#[inline(always)]
pub(crate) fn material_estimate<V: Variant>(board: &Board<V>) -> i32 {
    let b = board.board();
    let phase =
        ((b.knights() | b.bishops()).count() + 2 * b.rooks().count() + 4 * b.queens().count())
            .min(24) as i32;
    let p = board.psqt();
    let white = (p.mg() * phase + p.eg() * (24 - phase)) / 24;
    if board.turn() == shakmaty::Color::White {
        white
    } else {
        -white
    }
}

/// The result of a node whose search was stopped (it is thrown away).
pub(crate) const ABORTED: (Score, Bound) = (Score::ZERO, Bound::None);

/// Does an entry with this score and bound end a node with the window
/// `alpha`..`beta`?
#[inline(always)]
pub(crate) fn bound_cuts(bound: Bound, score: Score, alpha: Score, beta: Score) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
        Bound::None => false,
    }
}

/// The best score and move of a node so far, the window's lower edge as
/// the moves raised it, and how many moves were searched.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Best {
    pub score: Score,
    pub mv: Option<Move>,
    pub alpha: Score,
    pub searched: usize,
}

impl Best {
    /// Nothing searched yet: every score is better.
    #[inline(always)]
    pub fn new(alpha: Score) -> Best {
        Best {
            score: -Score::INFINITE,
            mv: None,
            alpha,
            searched: 0,
        }
    }
}

impl<O: SearchObserver> Searcher<'_, O> {
    /// Counts the node, checks the limits (`Break` when the search must
    /// stop) and starts its PV empty.
    #[inline(always)]
    pub(crate) fn start_node(&mut self, ply: Ply) -> NodeFlow<()> {
        self.pv.clear(ply);
        if self.visit(ply) {
            return ControlFlow::Break(ABORTED);
        }
        ControlFlow::Continue(())
    }

    /// The leaves before any move: a tablebase answer, or the deepest ply
    /// the search may reach (the static evaluation, a draw in check).
    #[inline(always)]
    pub(crate) fn leaf_before_moves<V: Variant>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        in_check: bool,
        tb: Option<(Score, Bound)>,
    ) -> NodeFlow<()> {
        // A tablebase answer ends the node (after the draw rules, which the
        // tables do not know).
        if let Some((score, bound)) = tb {
            return ControlFlow::Break(self.tb_leaf(board, ply, score, bound));
        }
        if ply >= MAX_PLY - 4 {
            let e = if in_check {
                Score::DRAW
            } else {
                Score(self.eval.evaluate(board))
            };
            return ControlFlow::Break((e, Bound::Exact));
        }
        ControlFlow::Continue(())
    }

    /// Probes the transposition table, counting probes and hits.
    #[inline(always)]
    pub(crate) fn tt_probe(&mut self, key: u64, ply: Ply) -> Option<TtHit> {
        if !self.features.transposition_table {
            return None;
        }
        self.stats.tt_probes += 1;
        let hit = self.tt.probe(key, ply);
        if hit.is_some() {
            self.stats.tt_hits += 1;
        }
        hit
    }

    /// Reports a TT hit; with `cutoff` it ends the node with the entry's
    /// score and bound.
    #[inline(always)]
    pub(crate) fn tt_hit(
        &mut self,
        ply: Ply,
        hit: TtHit,
        tt_move: Option<Move>,
        cutoff: bool,
    ) -> NodeFlow<()> {
        observe!(self.obs.tt_hit(ply, tt_move, hit.score, hit.bound, cutoff));
        if cutoff {
            self.stats.tt_cutoffs += 1;
            return ControlFlow::Break((hit.score, hit.bound));
        }
        ControlFlow::Continue(())
    }

    /// The static evaluation (`None` in check), from the TT entry when it
    /// has one.
    #[inline(always)]
    pub(crate) fn raw_eval<V: Variant>(
        &mut self,
        board: &Board<V>,
        ply: Ply,
        in_check: bool,
        tt: Option<TtHit>,
    ) -> Option<i32> {
        if in_check {
            None
        } else {
            Some(match tt.and_then(|h| h.eval) {
                Some(e) => e.0,
                None => self.eval.evaluate_at(board, ply),
            })
        }
    }

    /// Stores a node's result in the transposition table (when it is on).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn tt_store(
        &mut self,
        key: u64,
        ply: Ply,
        mv: Option<Move>,
        score: Score,
        eval: Option<i32>,
        depth: Depth,
        bound: Bound,
    ) {
        if self.features.transposition_table {
            self.tt.store(
                key,
                ply,
                mv.map_or(Move16::NONE, Move16::new),
                score,
                eval.map(Score),
                depth,
                bound,
            );
            observe!(self.obs.tt_store(ply, score, bound, depth));
        }
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
        self.tt_store(board.hash(), ply, None, score, None, TB_DEPTH, bound);
        (score, bound)
    }

    /// Takes the score of the move just searched into `best`: a new best
    /// move, a raised alpha (and PV), or a beta cutoff, which it counts
    /// and reports. Returns whether the move cut the node.
    #[inline(always)]
    pub(crate) fn take_score<const PV: bool>(
        &mut self,
        ply: Ply,
        m: Move,
        score: Score,
        beta: Score,
        best: &mut Best,
    ) -> bool {
        observe!(self.obs.move_score(ply, m, score));
        best.searched += 1;
        if score > best.score {
            best.score = score;
            if score > best.alpha {
                best.mv = Some(m);
                if PV {
                    self.pv.update(ply, m);
                }
                if score >= beta {
                    self.stats.beta_cutoffs += 1;
                    if best.searched == 1 {
                        self.stats.first_move_cutoffs += 1;
                    }
                    observe!(self.obs.cutoff(ply, m, best.searched - 1));
                    return true;
                }
                observe!(self.obs.alpha_raised(ply, m, score));
                best.alpha = score;
            }
        }
        false
    }
}
