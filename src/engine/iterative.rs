//! Iterative deepening with aspiration windows, MultiPV, and the root node.
//!
//! Each iteration searches one ply deeper, starting with the moves in the
//! order the previous iteration ranked them (so the best move so far is
//! searched first). From `ASPIRATION_DEPTH` on, the window is a narrow band
//! around the previous score, widened on a fail low or high.

use super::board::{Board, Move16};
use super::history::ContKey;
use super::observer::{IterationInfo, NodeInfo, NodeKind, SearchObserver, SearchStats};
use super::params::{ASPIRATION_DEPTH, ASPIRATION_WINDOW};
use super::score::{Bound, Depth, Line, MAX_PLY, Score};
use super::search::{RootMove, Searcher, observe};
use super::time::Limits;
use super::variant::Variant;
use shakmaty::{Move, Position};
use std::time::Duration;

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    pub score: Score,
    /// Last completed depth.
    pub depth: Depth,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// All MultiPV lines, best first.
    pub lines: Vec<Line>,
    pub stats: SearchStats,
    pub elapsed: Duration,
}

/// What the stopping rules remember from one iteration to the next.
struct Progress {
    /// Iterations in a row whose best move did not change.
    stable_iterations: usize,
    last_best: Option<Move>,
    last_score: Score,
}

impl<O: SearchObserver> Searcher<'_, O> {
    /// Runs iterative deepening from `root` under `limits`.
    pub fn run<V: Variant>(
        &mut self,
        root: &Board<V>,
        limits: &Limits,
        multipv: usize,
    ) -> SearchResult {
        self.init_root_moves(root, limits);
        if self.root_moves.is_empty() {
            let score = super::search::no_moves_score(root, 0);
            return SearchResult {
                best_move: None,
                score,
                depth: 0,
                seldepth: 0,
                pv: Vec::new(),
                lines: Vec::new(),
                stats: self.stats,
                elapsed: self.time.elapsed(),
            };
        }
        let multipv = multipv.clamp(1, self.root_moves.len());
        let max_depth = max_depth(limits);
        let mut completed = 0;
        let mut lines: Vec<Line> = Vec::new();
        let mut progress = Progress {
            stable_iterations: 0,
            last_best: None,
            last_score: Score::ZERO,
        };

        for depth in 1..=max_depth {
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
                rm.score = -Score::INFINITE;
            }
            for pv_index in 0..multipv {
                self.search_line(root, depth, pv_index);
                if self.aborted {
                    break;
                }
            }
            if self.aborted {
                self.keep_partial_best(&mut lines);
                break;
            }
            completed = depth;
            lines = self.root_moves[..multipv]
                .iter()
                .map(|rm| Line {
                    score: rm.shown(rm.score),
                    pv: rm.pv.clone(),
                })
                .collect();
            if self.should_stop(limits, depth, &mut progress) {
                break;
            }
        }

        if lines.is_empty() {
            // Stopped before depth 1 finished: fall back on the first move.
            let rm = &self.root_moves[0];
            lines.push(Line {
                score: rm.shown(rm.score.max(-Score::INFINITE)),
                pv: vec![rm.mv],
            });
        }
        let best = lines[0].clone();
        SearchResult {
            best_move: best.pv.first().copied(),
            score: best.score,
            depth: completed,
            seldepth: self.root_moves[0].seldepth,
            pv: best.pv,
            lines,
            stats: self.stats,
            elapsed: self.time.elapsed(),
        }
    }

    /// The root moves to search (`searchmoves` only, when given; only the
    /// moves the tablebases allow, in their order, when they cover the
    /// root), the TT move first.
    fn init_root_moves<V: Variant>(&mut self, root: &Board<V>, limits: &Limits) {
        let legal = root.pos().legal_moves();
        self.root_moves = legal
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -Score::INFINITE,
                prev_score: -Score::INFINITE,
                pv: vec![mv],
                seldepth: 0,
                tb_score: None,
            })
            .collect();
        if !self.root_tb.is_empty() {
            // Only the moves the tables allow, in their order.
            let tb = std::mem::take(&mut self.root_tb);
            self.root_moves
                .retain(|r| tb.iter().any(|&(m, _)| m == r.mv));
            self.root_moves
                .sort_by_key(|r| tb.iter().position(|&(m, _)| m == r.mv));
            for rm in &mut self.root_moves {
                rm.tb_score = tb.iter().find(|&&(m, _)| m == rm.mv).map(|&(_, s)| s);
            }
        }
        if self.root_moves.is_empty() {
            return;
        }
        // TT move first at depth 1.
        if let Some(hit) = self.tt.probe(root.hash(), 0)
            && let Some(m) = root.decode(hit.mv)
            && let Some(i) = self.root_moves.iter().position(|r| r.mv == m)
        {
            self.root_moves[..=i].rotate_right(1);
        }
    }

    /// Searches MultiPV line `pv_index` of iteration `depth` with an
    /// aspiration window, widened until the score falls inside it, and
    /// reports it (not when the search was stopped).
    fn search_line<V: Variant>(&mut self, root: &Board<V>, depth: Depth, pv_index: usize) {
        self.pv_index = pv_index;
        self.stats.seldepth = 0;
        let prev = self.root_moves[pv_index].prev_score;
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH
            && self.features.aspiration
            && !prev.is_mate()
            && prev > -Score::INFINITE
        {
            (
                (prev - delta).max(-Score::INFINITE),
                (prev + delta).min(Score::INFINITE),
            )
        } else {
            (-Score::INFINITE, Score::INFINITE)
        };
        let score = loop {
            let score = self.search_root(root, depth, alpha, beta);
            // Best first; moves not yet known keep their order.
            self.root_moves[pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.aborted {
                return;
            }
            if score <= alpha {
                beta = Score((alpha.0 + beta.0) / 2);
                alpha = (score - delta).max(-Score::INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(Score::INFINITE);
            } else {
                break score;
            }
            delta += delta / 2 + 5;
            if delta > 1000 {
                alpha = -Score::INFINITE;
                beta = Score::INFINITE;
            }
        };
        // This line's move is the best of the moves not yet shown.
        let rm = &self.root_moves[pv_index];
        let info = IterationInfo {
            depth,
            seldepth: rm.seldepth,
            multipv: pv_index + 1,
            score: rm.shown(score),
            bound: Bound::Exact,
            // All threads' nodes: theirs are added in steps of 1024, so
            // add what this thread has not handed in yet.
            nodes: self.shared_nodes.map_or(self.stats.nodes, |n| {
                n.load(std::sync::atomic::Ordering::Relaxed) + (self.stats.nodes & 1023)
            }),
            elapsed: self.time.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: rm.pv.clone(),
            stats: self.stats,
        };
        self.obs.iteration(&info);
        self.root_moves[..=pv_index].sort_by_key(|r| std::cmp::Reverse(r.score));
    }

    /// The search stopped inside an iteration: a better move found before
    /// the abort is reliable (its search completed), so the partial
    /// ranking's first move replaces the last iteration's best line.
    fn keep_partial_best(&self, lines: &mut [Line]) {
        if let Some(first) = self.root_moves.first()
            && first.score > -Score::INFINITE
            && Some(first.mv) != lines.first().and_then(|l| l.pv.first().copied())
            && !lines.is_empty()
        {
            lines[0] = Line {
                score: first.shown(first.score),
                pv: first.pv.clone(),
            };
        }
    }

    /// The stopping rules after iteration `depth` completed: a mate search
    /// found its mate; with a clock, a single legal move, a mate this depth
    /// has fully seen, or the soft time limit (scaled by how stable the best
    /// move has been and whether the score dropped).
    fn should_stop(&mut self, limits: &Limits, depth: Depth, progress: &mut Progress) -> bool {
        let best = &self.root_moves[0];
        if Some(best.mv) == progress.last_best {
            progress.stable_iterations += 1;
        } else {
            progress.stable_iterations = 0;
        }
        progress.last_best = Some(best.mv);
        let score = best.score;
        if let Some(n) = limits.mate
            && score.is_win()
            && score.mate_moves().is_some_and(|m| m <= n as i32)
        {
            return true;
        }
        if self.time.is_timed() {
            if self.root_moves.len() == 1 && depth >= 4 {
                return true;
            }
            // A mate for us that this depth has fully seen.
            if score.is_win() && score.mate_plies().is_some_and(|p| depth >= p + 4) {
                return true;
            }
            let mut scale = [1.5, 1.2, 1.0, 0.85, 0.7][progress.stable_iterations.min(4)];
            if depth > 4 && score < progress.last_score - 40 {
                scale *= 1.3;
            }
            if self.time.soft_exceeded(scale) {
                return true;
            }
        }
        progress.last_score = score;
        false
    }

    /// The root node: like an interior PV node, but its moves come from the
    /// ranked root-move list, each move's score is remembered for the next
    /// iteration, and MultiPV lines already found are skipped.
    fn search_root<V: Variant>(
        &mut self,
        root: &Board<V>,
        depth: Depth,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        let in_check = root.in_check();
        observe!(self.obs.enter(&NodeInfo {
            ply: 0,
            depth,
            alpha,
            beta,
            kind: NodeKind::Root,
            pv: true,
            mv: None,
            in_check,
            occupied: root.board().occupied(),
            _life: std::marker::PhantomData,
        }));
        self.stats.nodes += 1;
        self.pv.clear(0);
        self.stack[1].killers = [None, None];
        let original_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_move = None;
        let count = self.root_moves.len();
        let us = root.turn();

        for i in self.pv_index..count {
            let m = self.root_moves[i].mv;
            let searched = i - self.pv_index;
            observe!(self.obs.root_move(depth, m, i, count));
            let child = root.play(m);
            let new_depth = depth - 1 + if child.in_check() { 1 } else { 0 };
            self.stack[0].cont = Some(ContKey::new(us, m));
            self.hashes.push(child.hash());
            let mut score;
            if searched == 0 || !self.features.alpha_beta {
                let (a, b) = if self.features.alpha_beta {
                    (-beta, -alpha)
                } else {
                    (-Score::INFINITE, Score::INFINITE)
                };
                observe!(self.obs.try_move(0, m, searched, a, b, new_depth));
                score = -self.negamax::<V, true>(&child, new_depth, 1, a, b, false, Some(m));
            } else {
                observe!(
                    self.obs
                        .try_move(0, m, searched, -alpha - 1, -alpha, new_depth)
                );
                score = -self.negamax::<V, false>(
                    &child,
                    new_depth,
                    1,
                    -alpha - 1,
                    -alpha,
                    true,
                    Some(m),
                );
                if score > alpha && score < beta && !self.aborted {
                    observe!(
                        self.obs
                            .research(0, m, super::observer::Research::FullWindow)
                    );
                    observe!(self.obs.try_move(0, m, searched, -beta, -alpha, new_depth));
                    score = -self.negamax::<V, true>(
                        &child,
                        new_depth,
                        1,
                        -beta,
                        -alpha,
                        false,
                        Some(m),
                    );
                }
            }
            self.hashes.pop();
            if self.aborted {
                break;
            }
            observe!(self.obs.move_score(0, m, score));
            let rm = &mut self.root_moves[i];
            if searched == 0 || score > alpha {
                rm.score = score;
                rm.seldepth = self.stats.seldepth;
                let mut pv = vec![m];
                pv.extend(self.pv.line(1));
                rm.pv = pv;
            } else {
                rm.score = -Score::INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    self.pv.update(0, m);
                    if score >= beta {
                        observe!(self.obs.cutoff(0, m, searched));
                        break;
                    }
                    observe!(self.obs.alpha_raised(0, m, score));
                    alpha = score;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !self.aborted && self.pv_index == 0 && self.features.transposition_table {
            self.tt.store(
                root.hash(),
                0,
                best_move.map_or(Move16::NONE, Move16::new),
                best,
                None,
                depth,
                bound,
            );
            observe!(self.obs.tt_store(0, best, bound, depth));
        }
        observe!(self.obs.leave(0, best, bound));
        best
    }
}

/// The deepest iteration: the depth limit, or for a mate search a few
/// plies more than the mate is long (selective pruning may need them).
fn max_depth(limits: &Limits) -> Depth {
    let default_depth = match limits.mate {
        Some(n) => 4 * n as Depth + 10,
        None => MAX_PLY as Depth - 8,
    };
    limits
        .depth
        .unwrap_or(default_depth)
        .clamp(1, MAX_PLY as Depth - 8)
}
