//! What a longer search said of the explored position (a review's
//! refutation), and whether the recorded tree agrees with it.
//!
//! A review searches each position for a fixed time, deeper than a tree
//! anyone can browse; the explorer opened on one of its marks starts
//! shallow. So it records one ply deeper at a time, on its own, until its
//! best move is the review's, or it reaches the review's depth or the node
//! cap; then it says in words whether they agree, and if not, why.

use super::words::parent_view;
use super::{Explorer, MAX_DEPTH, Request, show};
use crate::engine::{Depth, Score, Variant};
use shakmaty::Move;

/// A longer search's verdict on the explored position.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Who searched it, as a sentence names it: "the review".
    pub by: &'static str,
    /// Its best move.
    pub best: Move,
    /// Its score, the side to move's view.
    pub score: Score,
    /// The depth its search finished.
    pub depth: Depth,
    /// Still recording deeper on its own, until the tree agrees.
    pub chasing: bool,
}

impl Verdict {
    pub fn new(by: &'static str, best: Move, score: Score, depth: Depth) -> Verdict {
        Verdict {
            by,
            best,
            score,
            depth,
            chasing: true,
        }
    }
}

impl<V: Variant> Explorer<V> {
    /// After a recording: the next, one ply deeper, while the tree's best
    /// is not the verdict's and a deeper tree may find it (not past the
    /// verdict's own depth, [`MAX_DEPTH`], or a tree the node cap cut).
    pub(super) fn chase_verdict(&mut self, next_id: &mut u64) -> Option<Request<V>> {
        let rec = self.recording.as_ref()?;
        let v = self.verdict.as_mut()?;
        let agrees = rec.report.best_move == Some(v.best);
        let deeper = self.depth < v.depth.min(MAX_DEPTH) && !rec.tree.truncated;
        if !v.chasing || agrees || !deeper {
            v.chasing = false;
            return None;
        }
        self.depth += 1;
        *next_id += 1;
        let id = *next_id;
        Some(self.start(id))
    }

    /// Whether the tree agrees with the verdict, in words; `None` without
    /// a verdict or a recording.
    pub fn verdict_words(&self) -> Option<String> {
        let v = self.verdict.as_ref()?;
        let rec = self.recording.as_ref()?;
        let t = &rec.tree;
        let san = |m: Move| t.root_board.san(m);
        let theirs = format!(
            "{}'s {} ({} at depth {})",
            v.by,
            san(v.best),
            show(v.score.0),
            v.depth
        );
        let ours = show(rec.report.result.score.0);
        let Some(best) = rec.report.best_move else {
            return Some(format!(
                "This tree found no best move; {theirs} is the line to look for."
            ));
        };
        if best == v.best {
            return Some(format!(
                "Depth {} agrees with {}: {} {ours} ({} at depth {}).",
                self.depth,
                v.by,
                san(best),
                show(v.score.0),
                v.depth
            ));
        }
        // The verdict's move as the tree saw it from the root.
        let searched = t.root().and_then(|r| {
            t.node(r)
                .children
                .iter()
                .rev()
                .find(|&&c| t.node(c).mv == Some(v.best))
                .map(|&c| parent_view(t, c))
        });
        let here = match searched {
            Some((_, score, bound)) => match bound {
                "upper" => format!("{} scores at most {score} here", san(v.best)),
                "lower" => format!("{} scores at least {score} here", san(v.best)),
                _ => format!("{} scores {score} here", san(v.best)),
            },
            None => format!("{} was not searched here", san(v.best)),
        };
        let why = if t.truncated {
            "the node cap stopped this tree; the review saw further"
        } else if self.depth < v.depth {
            "its point lies deeper than this tree (+ records deeper)"
        } else {
            "the review's search kept what it learnt from the game's earlier positions"
        };
        Some(format!(
            "Depth {} prefers {} {ours}; {theirs}: {here}, {why}.",
            self.depth,
            san(best)
        ))
    }
}
