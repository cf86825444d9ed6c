//! The explorer's words: bounds, node names, scores and the notes of a
//! search step, as the learner reads them.

use crate::engine::tree::export::node_relative;
use crate::engine::tree::{self, Entry, NodeId, SearchTree};
use crate::engine::{Bound, Score};
use shakmaty::Move;

/// What a bound means for the score returned.
pub fn bound_words(b: crate::engine::Bound) -> &'static str {
    match b {
        crate::engine::Bound::Exact => "exact",
        crate::engine::Bound::Lower => "at least: failed high",
        crate::engine::Bound::Upper => "at most: failed low",
        crate::engine::Bound::None => "search stopped",
    }
}

/// A node's name: its move in SAN, or what kind of node it is.
pub fn node_name<V: crate::engine::Variant>(t: &SearchTree<V>, id: NodeId) -> String {
    let n = t.node(id);
    match (n.entry, n.mv, n.parent) {
        (tree::Entry::Root, _, _) => "the root".to_string(),
        (tree::Entry::Move, Some(m), Some(p)) => t.board_at(p).san(m),
        (tree::Entry::NullMove, _, _) => "a null move".to_string(),
        _ => "a verification search".to_string(),
    }
}

/// A centipawn or mate value as text (`+0.35`, `M3`, `-M2`, `+inf`).
pub fn show(v: i32) -> String {
    if v >= Score::INFINITE.0 {
        "+inf".into()
    } else if v <= -Score::INFINITE.0 {
        "-inf".into()
    } else if v.abs() >= Score::MATE_BOUND {
        let plies = Score::MATE.0 - v.abs();
        format!("{}M{}", if v > 0 { "" } else { "-" }, (plies + 1) / 2)
    } else {
        format!("{:+.2}", f64::from(v) / 100.0)
    }
}

/// A note in words; scores are shown from the node's view (`ply` below
/// the root).
pub(super) struct NoteText<'a, V: crate::engine::Variant>(
    pub(super) tree::Note,
    pub(super) &'a crate::engine::Board<V>,
    pub(super) usize,
);

impl<V: crate::engine::Variant> std::fmt::Display for NoteText<'_, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::engine::Research;
        let (v, san) = (|s| self.score(s), |m| self.san(m));
        match self.0 {
            tree::Note::TtHit {
                cutoff: true,
                score,
                bound,
                ..
            } => write!(
                f,
                "Transposition table hit: this position was searched before deep enough \
                 ({}, {}), so the node ends here",
                v(score),
                bound_words(bound)
            ),
            tree::Note::TtHit { mv: Some(m), .. } => write!(
                f,
                "Transposition table hit: not enough to end the node, but {} is tried first",
                san(m)
            ),
            tree::Note::TtHit { mv: None, .. } => write!(
                f,
                "Transposition table hit: not deep enough to end the node, and no move to try first"
            ),
            tree::Note::TtStore { bound, depth, .. } => write!(
                f,
                "Store the result in the transposition table ({}, depth {depth})",
                bound_words(bound)
            ),
            tree::Note::Research { mv, why } => match why {
                Research::Reduction => write!(
                    f,
                    "{} did better than expected at reduced depth: search it again at full depth",
                    san(mv)
                ),
                Research::FullWindow => write!(
                    f,
                    "{} beat the zero window: search it again with the full window for its exact score",
                    san(mv)
                ),
            },
            tree::Note::Prune(p) => self.prune(f, p),
        }
    }
}

impl<V: crate::engine::Variant> NoteText<'_, V> {
    /// A score from the node's view.
    fn score(&self, s: Score) -> String {
        show(tree::export::node_relative(s, self.2))
    }

    /// A move in SAN when legal at the node (UCI otherwise).
    fn san(&self, m: Move) -> String {
        if self.1.is_legal(m) {
            self.1.san(m)
        } else {
            crate::engine::Board::uci(m)
        }
    }

    /// A pruning decision in words.
    fn prune(&self, f: &mut std::fmt::Formatter<'_>, p: crate::engine::Prune) -> std::fmt::Result {
        use crate::engine::Prune;
        let (v, san) = (|s| self.score(s), |m| self.san(m));
        match p {
            Prune::Draw => write!(
                f,
                "A draw (repetition, 50-move rule or insufficient material)"
            ),
            Prune::NoLegalMoves => {
                write!(f, "No legal move: checkmate or stalemate, an exact score")
            }
            Prune::MateDistance => write!(
                f,
                "Mate-distance pruning: no mate from here can beat one already found"
            ),
            Prune::MateDistanceWindow { .. } => {
                write!(
                    f,
                    "The window is narrowed to the mates still possible from this ply"
                )
            }
            Prune::ReverseFutility { eval, margin } => write!(
                f,
                "Reverse futility: the static evaluation {} minus a margin of {margin} is still above beta",
                v(eval)
            ),
            Prune::Lazy {
                predicted,
                margin,
                cut: true,
            } => write!(
                f,
                "Lazy evaluation: predicted {}, over {margin} cp above beta: not evaluated",
                v(predicted)
            ),
            Prune::Lazy {
                predicted,
                margin,
                cut: false,
            } => write!(
                f,
                "Lazy evaluation: predicted {}, over {margin} cp below alpha: not evaluated",
                v(predicted)
            ),
            Prune::LazyReverseFutility { predicted, margin } => write!(
                f,
                "Lazy reverse futility: predicted {}, over {margin} cp above beta: cut",
                v(predicted)
            ),
            Prune::NullMoveTry { reduction } => write!(
                f,
                "Null move: let the opponent move twice, searched {reduction} plies shallower"
            ),
            Prune::NullMoveCutoff { .. } => {
                write!(
                    f,
                    "Even after passing the score stays above beta: the node is cut"
                )
            }
            Prune::NullMoveVerified { confirmed } => write!(
                f,
                "Verification search (little material, zugzwang possible): {}",
                if confirmed {
                    "the cutoff holds"
                } else {
                    "the cutoff is refused"
                }
            ),
            Prune::Iir => write!(f, "No move from the table: search one ply shallower (IIR)"),
            Prune::QuietsPruned { futility: true } => write!(
                f,
                "Futility pruning: the position is too far below alpha for a quiet move to help; quiet moves skipped"
            ),
            Prune::QuietsPruned { futility: false } => write!(
                f,
                "Late move pruning: enough moves searched at this depth; the remaining quiet moves are skipped"
            ),
            Prune::See { mv } => write!(f, "{} loses material (SEE): skipped", san(mv)),
            Prune::Delta { mv } => write!(
                f,
                "Delta pruning: even winning with {} cannot reach alpha: skipped",
                san(mv)
            ),
            Prune::Lmr { mv, reduction } => write!(
                f,
                "Late move reduction: {} is searched {reduction} plies shallower",
                san(mv)
            ),
            Prune::Extension { mv, plies } => {
                write!(f, "{} gives check: searched {plies} ply deeper", san(mv))
            }
            Prune::Singular {
                mv,
                singular_beta,
                score,
                plies,
            } => write!(
                f,
                "Singular test of {}: the other moves, searched shallower, reach {} against {}: {}",
                san(mv),
                v(score),
                v(singular_beta),
                match plies {
                    1.. => "it is the only good move, searched one ply deeper",
                    0 => "no change",
                    _ => "other moves are as good, it is searched one ply shallower",
                }
            ),
            Prune::MultiCut { score } => write!(
                f,
                "Multi-cut: even without the table's move another move reaches beta ({}): the node is cut",
                v(score)
            ),
        }
    }
}

/// Scores of a child seen from its parent (the side choosing the move), and
/// the child's window in the parent's terms: what a learner compares with
/// the parent's own window.
pub(super) fn parent_view<V: crate::engine::Variant>(
    t: &SearchTree<V>,
    child: NodeId,
) -> (String, String, &'static str) {
    let n = t.node(child);
    let p = n.ply;
    let (a, b) = (node_relative(n.alpha, p), node_relative(n.beta, p));
    let s = node_relative(n.score, p);
    let name = |b: Bound| match b {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        _ => "upper",
    };
    if n.entry == Entry::Verification {
        // The same side searching the same position again: nothing flips.
        return (
            format!("[{}, {}]", show(a), show(b)),
            show(s),
            name(n.bound),
        );
    }
    // Negate into the parent's view (a mate one ply further away); the
    // window turns round and a lower bound becomes an upper one.
    let flip = |v: i32| -> i32 {
        if v.abs() >= Score::INFINITE.0 {
            -v
        } else if v.abs() >= Score::MATE_BOUND {
            -v + v.signum()
        } else {
            -v
        }
    };
    let bound = match n.bound {
        Bound::Lower => Bound::Upper,
        Bound::Upper | Bound::None => Bound::Lower,
        Bound::Exact => Bound::Exact,
    };
    (
        format!("[{}, {}]", show(flip(b)), show(flip(a))),
        show(flip(s)),
        name(bound),
    )
}
