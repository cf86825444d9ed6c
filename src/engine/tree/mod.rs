//! Recording a real search as a tree, for learners to walk through.
//!
//! [`TreeRecorder`] is a [`SearchObserver`]: it listens to a normal search
//! (the very same code that plays games) and builds an arena of nodes, one
//! per `enter`, plus the flat list of events in the order they happened
//! (for replaying the search step by step). Only the final iteration of
//! iterative deepening is kept, with any aspiration re-searches of the root
//! ("passes"). A node cap bounds the memory; past it, nodes are no longer
//! recorded and the tree says it is truncated.
//!
//! [`record`] runs a fixed-depth search with a fresh engine (exactly what
//! `kibitz analyse --depth N` does) and returns the tree with the engine's
//! own report, so the two can be compared.

pub mod export;

use super::board::Board;
use super::observer::{IterationInfo, NodeInfo, NodeKind, Prune, Research, SearchObserver};
use super::score::{Bound, Depth, Ply, Score};
use super::time::{Features, Limits};
use super::variant::{Std, Variant};
use super::{Engine, EngineOptions, GamePosition, SearchReport};
use shakmaty::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Index of a node in [`SearchTree::nodes`].
pub type NodeId = u32;

/// Nodes recorded at most, unless told otherwise.
pub const DEFAULT_NODE_CAP: usize = 200_000;

/// One recorded node.
#[derive(Clone, Debug)]
pub struct TreeNode {
    pub parent: Option<NodeId>,
    /// The move that led here; `None` at the root, after a null move and for
    /// a null-move verification search (see `entry`).
    pub mv: Option<Move>,
    pub entry: Entry,
    pub ply: Ply,
    pub depth: Depth,
    /// The window on entry (this node's point of view).
    pub alpha: Score,
    pub beta: Score,
    /// The window the moves were searched with: the entry window, narrowed
    /// by mate-distance pruning near mates.
    pub search_window: (Score, Score),
    pub kind: NodeKind,
    /// Searched as a PV node (its best line is part of the reported PV).
    pub pv_node: bool,
    pub in_check: bool,
    /// The score returned, this node's point of view (root-relative mates).
    pub score: Score,
    pub bound: Bound,
    /// Children in the order they were searched (a re-searched move appears
    /// again).
    pub children: Vec<NodeId>,
    /// Moves tried whose child node was not recorded (past the node cap).
    pub unrecorded_children: u32,
    /// Index in `children` of the move that caused a beta cutoff.
    pub cutoff: Option<usize>,
    /// The cutting move's number among the moves the search tried (0-based;
    /// `children` can also hold re-searches and null-move searches).
    pub cutoff_move: Option<usize>,
    /// Index in `children` of the move that set the score (last alpha raise
    /// or the cutoff).
    pub best: Option<usize>,
    pub stand_pat: Option<Score>,
    /// The node's best score so far as it changed (stand pat, alpha
    /// raises, the final score): (step index, score), for step mode.
    pub progress: Vec<(u32, Score)>,
    pub notes: Vec<Note>,
    /// Range of this node's events in [`SearchTree::steps`].
    pub first_step: u32,
    pub last_step: u32,
}

impl TreeNode {
    /// The node ended as a terminal position: a draw by rule, or no legal
    /// move (checkmate, stalemate).
    pub fn is_terminal(&self) -> bool {
        self.notes.iter().any(|n| {
            matches!(
                n,
                Note::Prune(Prune::Draw) | Note::Prune(Prune::NoLegalMoves)
            )
        })
    }

    /// The bound to record for `score` as the search reported it, so that
    /// it agrees with the window the node shows: exact only strictly inside
    /// it, at least (lower) from beta up, at most (upper) from alpha down.
    /// The search may report an exact score outside the window (a
    /// mate-distance cut, an exact TT entry, the static evaluation at the
    /// last ply): it is a true bound, not a PV score. A bound at the edge of
    /// the window mate-distance pruning left is exact. Terminal positions and
    /// tablebase answers keep what the search said: their scores are what
    /// the position is worth, and the node says why.
    fn window_bound(&self, score: Score, bound: Bound) -> Bound {
        if bound == Bound::None
            || self.kind == NodeKind::Tablebase
            || (bound == Bound::Exact && self.is_terminal())
        {
            return bound;
        }
        // The window mate-distance pruning narrowed the search to: beyond
        // it no score is possible from this ply, so a bound reaching its
        // edge is the exact score (a mate in one found, mated at once).
        let (low, high) = self.search_window;
        if score >= self.beta {
            Bound::Lower
        } else if score <= self.alpha {
            Bound::Upper
        } else if (bound == Bound::Lower && score >= high)
            || (bound == Bound::Upper && score <= low)
        {
            Bound::Exact
        } else {
            bound
        }
    }
}

/// How a node was entered.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Root,
    Move,
    /// The opponent "passes" (null-move pruning).
    NullMove,
    /// The same position searched again, reduced and without null move, to
    /// confirm a null-move cutoff.
    Verification,
}

/// Something that happened at a node besides its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Note {
    TtHit {
        mv: Option<Move>,
        score: Score,
        bound: Bound,
        cutoff: bool,
    },
    Prune(Prune),
    Research {
        mv: Move,
        why: Research,
    },
    TtStore {
        score: Score,
        bound: Bound,
        depth: Depth,
    },
}

impl Note {
    /// Short label for exports and the explorer (`tt-hit`, `lmr -2`, ...).
    pub fn label(&self) -> String {
        match self {
            Note::TtHit { cutoff: true, .. } => "tt-cutoff".into(),
            Note::TtHit { .. } => "tt-hit".into(),
            Note::Prune(p) => p.label(),
            Note::Research {
                why: Research::Reduction,
                ..
            } => "re-search: reduced search failed high".into(),
            Note::Research {
                why: Research::FullWindow,
                ..
            } => "re-search: full window".into(),
            Note::TtStore { .. } => "tt-store".into(),
        }
    }
}

/// One event of the search, in order, for step-by-step replay.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub node: NodeId,
    pub kind: StepKind,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    Enter,
    StandPat(Score),
    Note(Note),
    /// About to search move `index` with this window (the child's view).
    TryMove {
        mv: Move,
        index: usize,
        alpha: Score,
        beta: Score,
        depth: Depth,
    },
    MoveScore {
        mv: Move,
        score: Score,
    },
    AlphaRaised {
        mv: Move,
        score: Score,
    },
    Cutoff {
        mv: Move,
        index: usize,
    },
    Leave {
        score: Score,
        bound: Bound,
    },
}

/// The recorded final iteration of a search.
#[derive(Clone, Debug)]
pub struct SearchTree<V: Variant = Std> {
    pub root_board: Board<V>,
    /// Depth of the recorded iteration.
    pub depth: Depth,
    pub nodes: Vec<TreeNode>,
    /// Root node of each pass of the final iteration (aspiration
    /// re-searches); the last one produced the result.
    pub passes: Vec<NodeId>,
    pub steps: Vec<Step>,
    /// The node cap was reached: some nodes (and their events) are missing.
    pub truncated: bool,
    /// Nodes entered in the final iteration, recorded or not.
    pub nodes_entered: u64,
}

impl<V: Variant> SearchTree<V> {
    /// The root of the final pass.
    pub fn root(&self) -> Option<NodeId> {
        self.passes.last().copied()
    }

    pub fn node(&self, id: NodeId) -> &TreeNode {
        &self.nodes[id as usize]
    }

    /// Moves from the root to `id` (a null move is `None`; a verification
    /// node repeats its parent's position and adds nothing).
    pub fn path(&self, id: NodeId) -> Vec<(NodeId, Option<Move>)> {
        let mut path = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            let n = self.node(c);
            if n.entry != Entry::Root {
                path.push((c, n.mv));
            }
            cur = n.parent;
        }
        path.reverse();
        path
    }

    /// The position at a node.
    pub fn board_at(&self, id: NodeId) -> Board<V> {
        let mut b = self.root_board.clone();
        for (node, mv) in self.path(id) {
            match (self.node(node).entry, mv) {
                (Entry::Move, Some(m)) => b = b.play(m),
                (Entry::NullMove, _) => {
                    if let Some(n) = b.null_move() {
                        b = n;
                    }
                }
                _ => {}
            }
        }
        b
    }

    /// The principal variation as the tree shows it: from the root, the
    /// best child of each PV node.
    pub fn pv_nodes(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let Some(mut cur) = self.root() else {
            return out;
        };
        loop {
            let n = self.node(cur);
            if !n.pv_node {
                break;
            }
            let Some(&child) = n.best.and_then(|b| n.children.get(b)) else {
                break;
            };
            out.push(child);
            cur = child;
        }
        out
    }

    pub fn pv_moves(&self) -> Vec<Move> {
        self.pv_nodes()
            .iter()
            .filter_map(|&id| self.node(id).mv)
            .collect()
    }

    /// PV / CUT / ALL / quiescence / tablebase / terminal, by what the node
    /// turned out to be. PV only for an exact score inside the window (a
    /// null-window node never is one).
    pub fn node_type(&self, id: NodeId) -> NodeType {
        let n = self.node(id);
        if n.bound == Bound::Exact && n.is_terminal() {
            return NodeType::Terminal;
        }
        match n.kind {
            NodeKind::Quiescence => NodeType::Quiescence,
            NodeKind::Tablebase => NodeType::Tablebase,
            NodeKind::Root => NodeType::Pv,
            _ => match n.bound {
                Bound::Exact => NodeType::Pv,
                Bound::Lower => NodeType::Cut,
                _ => NodeType::All,
            },
        }
    }

    /// The legal moves of a main-search node that were never searched
    /// (after a cutoff, or pruned), in the order shakmaty lists them; for a
    /// quiescence node, the captures skipped by delta or SEE pruning.
    pub fn unsearched(&self, id: NodeId) -> Vec<Move> {
        self.unsearched_at(id, &self.board_at(id))
    }

    /// [`SearchTree::unsearched`] when the node's position is at hand.
    pub fn unsearched_at(&self, id: NodeId, board: &Board<V>) -> Vec<Move> {
        let n = self.node(id);
        if n.kind == NodeKind::Tablebase {
            return Vec::new(); // a leaf: the table answered, nothing skipped
        }
        if n.kind == NodeKind::Quiescence {
            return n
                .notes
                .iter()
                .filter_map(|note| match note {
                    Note::Prune(p @ (Prune::Delta { .. } | Prune::See { .. })) => p.mv(),
                    _ => None,
                })
                .collect();
        }
        if n.unrecorded_children > 0 {
            return Vec::new(); // past the node cap: cannot tell
        }
        let searched: Vec<Move> = n.children.iter().filter_map(|&c| self.node(c).mv).collect();
        board
            .pos()
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !searched.contains(m))
            .collect()
    }

    /// A node's best score so far at step `step` (stand pat, alpha raises,
    /// its final score), if it had one by then.
    pub fn best_at(&self, id: NodeId, step: usize) -> Option<Score> {
        let p = &self.node(id).progress;
        let i = p.partition_point(|&(at, _)| at as usize <= step);
        i.checked_sub(1).map(|i| p[i].1)
    }

    /// Number of recorded nodes below `id`, itself included.
    pub fn subtree_size(&self, id: NodeId) -> usize {
        let mut count = 0;
        let mut stack = vec![id];
        while let Some(c) = stack.pop() {
            count += 1;
            stack.extend(self.node(c).children.iter().copied());
        }
        count
    }
}

/// What a node turned out to be.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeType {
    /// Exact score: the window held it.
    Pv,
    /// Failed high: a move was too good, the rest was cut off.
    Cut,
    /// Failed low: every move was searched and none reached alpha.
    All,
    Quiescence,
    /// Answered by an endgame tablebase: a leaf with an exact score.
    Tablebase,
    /// A position that ends the game or the line: checkmate, stalemate or
    /// a draw by rule. Its score is exact whatever the window.
    Terminal,
}

impl NodeType {
    pub fn name(self) -> &'static str {
        match self {
            NodeType::Pv => "pv",
            NodeType::Cut => "cut",
            NodeType::All => "all",
            NodeType::Quiescence => "qs",
            NodeType::Tablebase => "tb",
            NodeType::Terminal => "terminal",
        }
    }
}

/// Builds a [`SearchTree`] from the events of a search.
pub struct TreeRecorder<V: Variant = Std> {
    tree: SearchTree<V>,
    cap: usize,
    /// The recorded node of each open `enter` (`None`: not recorded).
    stack: Vec<Option<NodeId>>,
    /// The last iteration's info (score, PV) as the engine reported it.
    pub last_iteration: Option<IterationInfo>,
}

impl<V: Variant> TreeRecorder<V> {
    pub fn new(root: &Board<V>, cap: usize) -> TreeRecorder<V> {
        TreeRecorder {
            tree: SearchTree {
                root_board: root.clone(),
                depth: 0,
                nodes: Vec::new(),
                passes: Vec::new(),
                steps: Vec::new(),
                truncated: false,
                nodes_entered: 0,
            },
            cap: cap.max(1),
            stack: Vec::new(),
            last_iteration: None,
        }
    }

    pub fn finish(self) -> SearchTree<V> {
        self.tree
    }

    fn current(&self) -> Option<NodeId> {
        self.stack.last().copied().flatten()
    }

    fn step(&mut self, kind: StepKind) {
        if let Some(node) = self.current() {
            self.tree.steps.push(Step { node, kind });
        }
    }

    fn note(&mut self, note: Note) {
        if let Some(id) = self.current() {
            self.tree.nodes[id as usize].notes.push(note);
            self.step(StepKind::Note(note));
        }
    }

    /// The latest child of the current node entered by `mv`.
    fn child_by_move(&self, mv: Move) -> Option<usize> {
        let id = self.current()?;
        let n = &self.tree.nodes[id as usize];
        n.children
            .iter()
            .rposition(|&c| self.tree.nodes[c as usize].mv == Some(mv))
    }
}

impl<V: Variant> SearchObserver for TreeRecorder<V> {
    const NODE_EVENTS: bool = true;

    fn iteration(&mut self, info: &IterationInfo) {
        if info.multipv <= 1 {
            self.last_iteration = Some(info.clone());
        }
    }

    fn enter(&mut self, node: &NodeInfo<'_>) {
        if node.kind == NodeKind::Root {
            if node.depth != self.tree.depth || self.tree.passes.is_empty() {
                // A new iteration: forget the previous one.
                self.tree.depth = node.depth;
                self.tree.nodes.clear();
                self.tree.passes.clear();
                self.tree.steps.clear();
                self.tree.truncated = false;
                self.tree.nodes_entered = 0;
            }
            self.stack.clear();
        }
        self.tree.nodes_entered += 1;
        // Past the cap nothing more is recorded, except the root of a new
        // aspiration pass: the tree must end with the pass that counts.
        if self.tree.nodes.len() >= self.cap && node.kind != NodeKind::Root {
            self.tree.truncated = true;
            self.stack.push(None);
            return;
        }
        let parent = self.current();
        if parent.is_none() && node.kind != NodeKind::Root && !self.stack.is_empty() {
            // Inside an unrecorded subtree.
            self.stack.push(None);
            return;
        }
        let entry = match (node.kind, node.mv, parent) {
            (NodeKind::Root, _, _) => Entry::Root,
            (_, Some(_), _) => Entry::Move,
            (_, None, Some(p)) if self.tree.nodes[p as usize].ply == node.ply => {
                Entry::Verification
            }
            _ => Entry::NullMove,
        };
        let id = self.tree.nodes.len() as NodeId;
        let first_step = self.tree.steps.len() as u32;
        self.tree.nodes.push(TreeNode {
            parent,
            mv: node.mv,
            entry,
            ply: node.ply,
            depth: node.depth,
            alpha: node.alpha,
            beta: node.beta,
            search_window: (node.alpha, node.beta),
            // A PV node entered with a null window cannot get an exact
            // score: it is not shown as a PV node.
            kind: if node.kind == NodeKind::Pv && node.beta.0 - node.alpha.0 <= 1 {
                NodeKind::NonPv
            } else {
                node.kind
            },
            pv_node: node.pv,
            in_check: node.in_check,
            score: Score::ZERO,
            bound: Bound::None,
            children: Vec::new(),
            unrecorded_children: 0,
            cutoff: None,
            cutoff_move: None,
            best: None,
            stand_pat: None,
            progress: Vec::new(),
            notes: Vec::new(),
            first_step,
            last_step: first_step,
        });
        if let Some(p) = parent {
            self.tree.nodes[p as usize].children.push(id);
        }
        if entry == Entry::Root {
            self.tree.passes.push(id);
        }
        self.stack.push(Some(id));
        self.step(StepKind::Enter);
    }

    fn stand_pat(&mut self, _ply: Ply, score: Score) {
        if let Some(id) = self.current() {
            self.step(StepKind::StandPat(score));
            let at = self.tree.steps.len() as u32 - 1;
            let n = &mut self.tree.nodes[id as usize];
            n.stand_pat = Some(score);
            n.progress.push((at, score));
        }
    }

    fn tt_hit(&mut self, _ply: Ply, mv: Option<Move>, score: Score, bound: Bound, cutoff: bool) {
        self.note(Note::TtHit {
            mv,
            score,
            bound,
            cutoff,
        });
    }

    fn prune(&mut self, _ply: Ply, what: Prune) {
        if let (Prune::MateDistanceWindow { alpha, beta }, Some(id)) = (what, self.current()) {
            self.tree.nodes[id as usize].search_window = (alpha, beta);
        }
        self.note(Note::Prune(what));
    }

    fn try_move(
        &mut self,
        _ply: Ply,
        mv: Move,
        index: usize,
        alpha: Score,
        beta: Score,
        depth: Depth,
    ) {
        self.step(StepKind::TryMove {
            mv,
            index,
            alpha,
            beta,
            depth,
        });
        // Count children that will not be recorded.
        if let Some(id) = self.current()
            && self.tree.nodes.len() >= self.cap
        {
            self.tree.nodes[id as usize].unrecorded_children += 1;
        }
    }

    fn research(&mut self, _ply: Ply, mv: Move, why: Research) {
        self.note(Note::Research { mv, why });
    }

    fn move_score(&mut self, _ply: Ply, mv: Move, score: Score) {
        self.step(StepKind::MoveScore { mv, score });
    }

    fn alpha_raised(&mut self, _ply: Ply, mv: Move, score: Score) {
        let best = self.child_by_move(mv);
        self.step(StepKind::AlphaRaised { mv, score });
        if let Some(id) = self.current() {
            let at = self.tree.steps.len() as u32 - 1;
            let n = &mut self.tree.nodes[id as usize];
            n.best = best;
            n.progress.push((at, score));
        }
    }

    fn cutoff(&mut self, _ply: Ply, mv: Move, index: usize) {
        let child = self.child_by_move(mv);
        if let Some(id) = self.current() {
            let n = &mut self.tree.nodes[id as usize];
            n.cutoff = child;
            n.cutoff_move = Some(index);
            n.best = child;
        }
        self.step(StepKind::Cutoff { mv, index });
    }

    fn tt_store(&mut self, _ply: Ply, score: Score, bound: Bound, depth: Depth) {
        self.note(Note::TtStore {
            score,
            bound,
            depth,
        });
    }

    fn leave(&mut self, _ply: Ply, score: Score, bound: Bound) {
        if let Some(id) = self.current() {
            let bound = self.tree.nodes[id as usize].window_bound(score, bound);
            self.step(StepKind::Leave { score, bound });
            let last = self.tree.steps.len().saturating_sub(1) as u32;
            let n = &mut self.tree.nodes[id as usize];
            n.score = score;
            n.bound = bound;
            n.last_step = last;
            n.progress.push((last, score));
        }
        self.stack.pop();
    }
}

/// The features that can be switched off, by the names `--no` takes, with
/// what each one is.
pub const FEATURE_NAMES: [(&str, &str); 8] = [
    (
        "alpha-beta",
        "alpha-beta itself: plain minimax, every move with the full window",
    ),
    (
        "ordering",
        "move ordering (TT move, captures by value, killers, history)",
    ),
    ("tt", "the transposition table"),
    ("null-move", "null-move pruning"),
    ("lmr", "late move reductions"),
    (
        "pruning",
        "futility, late-move, SEE and reverse futility pruning, IIR",
    ),
    (
        "quiescence",
        "quiescence search (leaves take the static evaluation)",
    ),
    ("aspiration", "aspiration windows at the root"),
];

/// Features with the named ones switched off.
pub fn features_without(names: &[String]) -> Result<Features, String> {
    let mut f = Features::default();
    for name in names {
        match name.trim().to_ascii_lowercase().as_str() {
            "alpha-beta" | "alphabeta" | "minimax" => f.alpha_beta = false,
            "ordering" | "move-ordering" => f.move_ordering = false,
            "tt" | "hash" => f.transposition_table = false,
            "null-move" | "nullmove" | "null" => f.null_move = false,
            "lmr" => f.late_move_reductions = false,
            "pruning" => f.pruning = false,
            "quiescence" | "qs" => f.quiescence = false,
            "aspiration" => f.aspiration = false,
            other => {
                let names: Vec<&str> = FEATURE_NAMES.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown feature '{other}' (use {})",
                    names.join(", ")
                ));
            }
        }
    }
    Ok(f)
}

/// A recorded search with the engine's own report of it.
#[derive(Clone, Debug)]
pub struct Recording<V: Variant = Std> {
    pub tree: SearchTree<V>,
    pub report: SearchReport,
    pub elapsed: Duration,
}

/// Searches `pos` to `depth` with a fresh engine (as `kibitz analyse
/// --depth` does) and records the final iteration.
pub fn record<V: Variant>(
    pos: &GamePosition<V>,
    depth: Depth,
    features: Features,
    options: EngineOptions,
    cap: usize,
) -> Recording<V> {
    record_until(pos, depth, features, options, cap, &AtomicBool::new(false))
}

/// [`record`], stopped early (after depth 1) when `stop` is set.
pub fn record_until<V: Variant>(
    pos: &GamePosition<V>,
    depth: Depth,
    features: Features,
    options: EngineOptions,
    cap: usize,
    stop: &AtomicBool,
) -> Recording<V> {
    let mut engine = Engine::new(options);
    let limits = Limits {
        features,
        ..Limits::depth(depth)
    };
    let mut rec = TreeRecorder::new(pos.current(), cap);
    let t0 = Instant::now();
    let report = engine.search(pos, &limits, stop, &mut rec);
    let elapsed = t0.elapsed();
    Recording {
        tree: rec.finish(),
        report,
        elapsed,
    }
}

#[cfg(test)]
mod tests;
