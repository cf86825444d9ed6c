//! The search-tree explorer: walk a recorded alpha-beta search like a file
//! browser, replay it event by event, and compare it with searches that
//! have one idea switched off.
//!
//! The explorer is a state machine like the rest of the app: keys change
//! its state and may ask for work (record a tree, run a comparison), which
//! the runtime does on a thread of its own and sends back as messages.

use crate::engine::tree::{self, NodeId, Recording, SearchTree, StepKind};
use crate::engine::{Depth, Features, GamePosition, Score, Std, Variant};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::Move;
use std::time::Duration;

mod any;
pub mod draw;
mod screen;

pub use any::{AnyExplorer, AnyRecording, AnyRequest};
mod verdict;
mod words;

pub use verdict::Verdict;

pub use screen::{ExplorerScreen, open, open_any};

use words::NoteText;
pub use words::{bound_words, node_name, show};

/// Depths the explorer records, and its default.
pub const MIN_DEPTH: Depth = 1;
pub const MAX_DEPTH: Depth = 12;
pub const DEFAULT_DEPTH: Depth = 3;

/// The explorer's keys by mode, as its footer shows them: (keys, label,
/// what they do). Every key listed acts with one press (tested).
pub type KeyRow = (&'static [KeyCode], &'static str, &'static str);

pub const BROWSE_KEYS: &[KeyRow] = &[
    (
        &[
            KeyCode::Up,
            KeyCode::Char('k'),
            KeyCode::Down,
            KeyCode::Char('j'),
        ],
        "↑↓",
        "select",
    ),
    (
        &[KeyCode::Right, KeyCode::Enter, KeyCode::Char('l')],
        "→",
        "enter",
    ),
    (
        &[KeyCode::Left, KeyCode::Backspace, KeyCode::Char('h')],
        "←",
        "up",
    ),
    (&[KeyCode::PageUp, KeyCode::PageDown], "PgUp/PgDn", "±10"),
    (&[KeyCode::Char('p')], "p", "next PV move"),
    (&[KeyCode::Char('P')], "P", "PV end"),
    (&[KeyCode::Char('g'), KeyCode::Home], "g", "root"),
    (&[KeyCode::Char('s')], "s", "step through"),
    (&[KeyCode::Char('c')], "c", "compare"),
    (
        &[
            KeyCode::Char('+'),
            KeyCode::Char('='),
            KeyCode::Char(']'),
            KeyCode::Char('-'),
            KeyCode::Char('['),
        ],
        "+/-",
        "depth",
    ),
    (&[KeyCode::Char('q'), KeyCode::Esc], "q", "back"),
];

pub const STEP_KEYS: &[KeyRow] = &[
    (
        &[KeyCode::Right, KeyCode::Char('l'), KeyCode::Char(' ')],
        "→/Space",
        "next event",
    ),
    (&[KeyCode::Left, KeyCode::Char('h')], "←", "previous"),
    (
        &[
            KeyCode::Down,
            KeyCode::Char('j'),
            KeyCode::Up,
            KeyCode::Char('k'),
        ],
        "↓↑",
        "next/previous event of this node",
    ),
    (&[KeyCode::PageDown, KeyCode::PageUp], "PgDn/PgUp", "±20"),
    (&[KeyCode::Home, KeyCode::End], "Home/End", "first/last"),
    (
        &[KeyCode::Enter, KeyCode::Esc, KeyCode::Char('s')],
        "Enter",
        "browse here",
    ),
    (&[KeyCode::Char('q')], "q", "back"),
];

pub const COMPARE_KEYS: &[KeyRow] = &[
    (&[KeyCode::Char('r')], "r", "run again"),
    (
        &[KeyCode::Char('+'), KeyCode::Char('-')],
        "+/-",
        "record the tree one ply deeper/shallower",
    ),
    (
        &[KeyCode::Esc, KeyCode::Char('c'), KeyCode::Backspace],
        "Esc",
        "back to the tree",
    ),
    (&[KeyCode::Char('q')], "q", "back"),
];

/// The footer of a key table as key and label spans for
/// [`fit_footer`](crate::ui::view::widgets::fit_footer), `? help` first.
pub fn footer_spans(
    rows: &[KeyRow],
    style: ratatui::style::Style,
) -> Vec<ratatui::text::Span<'static>> {
    let help: KeyRow = (&[KeyCode::Char('?')], "?", "help");
    std::iter::once(&help)
        .chain(rows)
        .flat_map(|(_, label, what)| {
            [
                ratatui::text::Span::styled(format!("{label} "), style),
                ratatui::text::Span::styled(format!("{what}  "), style),
            ]
        })
        .collect()
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Walk the tree: the moves searched at a node, one level at a time.
    Browse,
    /// Replay the search event by event.
    Step,
    /// The same search with one feature off at a time.
    Compare,
}

/// One line of compare mode: a feature set and what its search did.
#[derive(Clone, Debug)]
pub struct CompareRow {
    pub label: &'static str,
    pub features: Features,
    /// The row this one is measured against.
    pub reference: usize,
    pub result: Option<CompareResult>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CompareResult {
    pub nodes: u64,
    pub time: Duration,
    pub score: Score,
    pub best: Option<Move>,
    /// The search hit the node limit before finishing its depth.
    pub stopped: bool,
}

/// Nodes a comparison search may take (plain minimax explodes quickly).
pub const COMPARE_NODE_LIMIT: u64 = 20_000_000;

/// Work the explorer wants done.
#[derive(Clone, Debug)]
pub enum Request<V: Variant = Std> {
    Record {
        id: u64,
        pos: Box<GamePosition<V>>,
        depth: Depth,
        features: Features,
        cap: usize,
    },
    Compare {
        id: u64,
        pos: Box<GamePosition<V>>,
        depth: Depth,
        rows: Vec<(usize, Features)>,
    },
    /// Stop any work in progress.
    Cancel,
    /// Leave the explorer.
    Close,
}

pub struct Explorer<V: Variant = Std> {
    pub pos: GamePosition<V>,
    pub depth: Depth,
    pub cap: usize,
    pub features: Features,
    pub recording: Option<Recording<V>>,
    /// The id of the awaited recording or comparison.
    pub job: u64,
    pub mode: Mode,
    /// Browse: the node whose moves are listed, and the selected one.
    pub node: NodeId,
    pub selected: usize,
    /// Step: index into the tree's steps.
    pub step: usize,
    pub compare: Vec<CompareRow>,
    /// Opened by `kibitz tree`: leaving the explorer quits.
    pub standalone: bool,
    pub note: Option<String>,
    /// A longer search's verdict (the review's refutation): its move is
    /// selected when a recording arrives, the recording deepens until it
    /// agrees, and the screen says whether it does.
    pub verdict: Option<Verdict>,
}

impl<V: Variant> Explorer<V> {
    /// An explorer for `pos` (not recorded yet: see [`Explorer::start`]).
    pub fn new(pos: GamePosition<V>, depth: Depth, features: Features, cap: usize) -> Explorer<V> {
        Explorer {
            pos,
            depth: depth.clamp(MIN_DEPTH, MAX_DEPTH),
            cap,
            features,
            recording: None,
            job: 0,
            mode: Mode::Browse,
            node: 0,
            selected: 0,
            step: 0,
            compare: Vec::new(),
            standalone: false,
            note: None,
            verdict: None,
        }
    }

    /// Asks for a (new) recording of the position at the current depth.
    pub fn start(&mut self, id: u64) -> Request<V> {
        self.job = id;
        self.recording = None;
        self.mode = Mode::Browse;
        self.compare.clear();
        Request::Record {
            id,
            pos: Box::new(self.pos.clone()),
            depth: self.depth,
            features: self.features,
            cap: self.cap,
        }
    }

    pub fn tree(&self) -> Option<&SearchTree<V>> {
        self.recording.as_ref().map(|r| &r.tree)
    }

    /// A recording arrived: the next one to ask for, if any (a deeper one
    /// while the tree disagrees with its [`Verdict`]).
    pub fn recorded(
        &mut self,
        id: u64,
        rec: Recording<V>,
        next_id: &mut u64,
    ) -> Option<Request<V>> {
        if id != self.job {
            return None;
        }
        let focus = self.verdict.as_ref().map(|v| v.best);
        self.node = rec.tree.root().unwrap_or(0);
        let focused = rec.tree.root().and_then(|r| {
            rec.tree
                .node(r)
                .children
                .iter()
                .position(|&c| focus.is_some() && rec.tree.node(c).mv == focus)
        });
        self.selected = focused
            .or_else(|| rec.tree.root().and_then(|r| rec.tree.node(r).best))
            .unwrap_or(0);
        self.step = 0;
        self.recording = Some(rec);
        self.chase_verdict(next_id)
    }

    /// A comparison row finished.
    pub fn compared(&mut self, id: u64, row: usize, result: CompareResult) {
        if id == self.job
            && let Some(r) = self.compare.get_mut(row)
        {
            r.result = Some(result);
        }
    }

    /// The children of the current node.
    pub fn children(&self) -> &[NodeId] {
        match self.tree() {
            Some(t) if (self.node as usize) < t.nodes.len() => &t.node(self.node).children,
            _ => &[],
        }
    }

    pub fn selected_child(&self) -> Option<NodeId> {
        self.children().get(self.selected).copied()
    }

    /// Handles a key; `next_id` numbers new work.
    pub fn key(&mut self, k: KeyEvent, next_id: &mut u64) -> Option<Request<V>> {
        self.note = None;
        let ch = match k.code {
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => Some(c),
            _ => None,
        };
        // Keys for every mode.
        match (k.code, ch) {
            (KeyCode::Char('+') | KeyCode::Char('='), _) | (_, Some(']'))
                if self.mode != Mode::Step =>
            {
                return self.change_depth(1, next_id);
            }
            (KeyCode::Char('-'), _) | (_, Some('[')) if self.mode != Mode::Step => {
                return self.change_depth(-1, next_id);
            }
            (KeyCode::Char('q'), _) => return Some(Request::Close),
            (KeyCode::Esc, _) if self.mode == Mode::Browse || self.recording.is_none() => {
                return Some(Request::Close);
            }
            _ => {}
        }
        self.tree()?;
        match self.mode {
            Mode::Browse => self.browse_key(k.code, next_id),
            Mode::Step => {
                self.step_key(k.code);
                None
            }
            Mode::Compare => match k.code {
                KeyCode::Esc | KeyCode::Char('c') | KeyCode::Backspace => {
                    self.mode = Mode::Browse;
                    Some(Request::Cancel)
                }
                KeyCode::Char('r') => Some(self.start_compare(next_id)),
                _ => None,
            },
        }
    }

    fn change_depth(&mut self, delta: Depth, next_id: &mut u64) -> Option<Request<V>> {
        // The depth is the user's now.
        if let Some(v) = &mut self.verdict {
            v.chasing = false;
        }
        let d = (self.depth + delta).clamp(MIN_DEPTH, MAX_DEPTH);
        if d == self.depth {
            self.note = Some(format!("Depth stays {d} ({MIN_DEPTH} to {MAX_DEPTH})."));
            return None;
        }
        self.depth = d;
        *next_id += 1;
        Some(self.start(*next_id))
    }

    fn browse_key(&mut self, code: KeyCode, next_id: &mut u64) -> Option<Request<V>> {
        let n = self.children().len();
        match code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(n.max(1) - 1)
            }
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
            KeyCode::PageDown => self.selected = (self.selected + 10).min(n.saturating_sub(1)),
            KeyCode::Right | KeyCode::Enter | KeyCode::Char('l') => self.descend(),
            KeyCode::Left | KeyCode::Backspace | KeyCode::Char('h') => self.ascend(),
            KeyCode::Home | KeyCode::Char('g') => {
                if let Some(root) = self.tree().and_then(|t| t.root()) {
                    self.go_to(root);
                }
            }
            KeyCode::Char('p') => self.follow_pv(false),
            KeyCode::Char('P') => self.follow_pv(true),
            KeyCode::Char('s') => {
                // Replay from where this node's search begins.
                self.mode = Mode::Step;
                if let Some(t) = self.tree() {
                    self.step = t.node(self.node).first_step as usize;
                }
            }
            KeyCode::Char('c') => return Some(self.start_compare(next_id)),
            _ => {}
        }
        None
    }

    /// Into the selected child (if it has children of its own).
    fn descend(&mut self) {
        let Some(c) = self.selected_child() else {
            return;
        };
        let Some(t) = self.tree() else { return };
        let n = t.node(c);
        let (leaf, best, lost) = (
            n.children.is_empty(),
            n.best.unwrap_or(0),
            n.unrecorded_children > 0,
        );
        if leaf {
            self.note = Some(
                if lost {
                    "Not recorded: the search went on below here after the node cap was reached."
                } else {
                    "A leaf: no moves were searched below it."
                }
                .into(),
            );
            return;
        }
        self.node = c;
        self.selected = best;
    }

    fn ascend(&mut self) {
        let Some(t) = self.tree() else { return };
        let here = self.node;
        let Some(parent) = t.node(here).parent else {
            self.note = Some("At the root.".into());
            return;
        };
        let index = t
            .node(parent)
            .children
            .iter()
            .position(|&c| c == here)
            .unwrap_or(0);
        self.node = parent;
        self.selected = index;
    }

    /// Shows `id` selected in its parent's list (or the root itself).
    pub fn go_to(&mut self, id: NodeId) {
        let Some(t) = self.tree() else { return };
        let (node, selected) = match t.node(id).parent {
            Some(p) => (
                p,
                t.node(p)
                    .children
                    .iter()
                    .position(|&c| c == id)
                    .unwrap_or(0),
            ),
            None => (id, t.node(id).best.unwrap_or(0)),
        };
        self.node = node;
        self.selected = selected;
    }

    /// One step along the principal variation (or to its end): from the
    /// root when the current node is not on it.
    fn follow_pv(&mut self, to_end: bool) {
        let Some(t) = self.tree() else { return };
        let pv = t.pv_nodes();
        let Some(&last) = pv.last() else {
            self.note = Some("No principal variation was recorded.".into());
            return;
        };
        let target = if to_end {
            last
        } else {
            // The PV node after the selected one, if the selection is on it.
            let sel = self.selected_child();
            match sel.and_then(|s| pv.iter().position(|&p| p == s)) {
                Some(i) => pv.get(i + 1).copied().unwrap_or(last),
                None => pv[0],
            }
        };
        self.go_to(target);
    }

    fn step_key(&mut self, code: KeyCode) {
        let total = self.tree().map_or(0, |t| t.steps.len());
        if total == 0 {
            return;
        }
        let last = total - 1;
        match code {
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => {
                self.step = (self.step + 1).min(last)
            }
            KeyCode::Left | KeyCode::Char('h') => self.step = self.step.saturating_sub(1),
            KeyCode::PageDown => self.step = (self.step + 20).min(last),
            KeyCode::PageUp => self.step = self.step.saturating_sub(20),
            KeyCode::Home => self.step = 0,
            KeyCode::End => self.step = last,
            // To the next / previous event of the same node (skipping what
            // its children did).
            KeyCode::Down | KeyCode::Char('j') => self.step = self.sibling_step(true),
            KeyCode::Up | KeyCode::Char('k') => self.step = self.sibling_step(false),
            KeyCode::Enter | KeyCode::Esc | KeyCode::Char('s') => {
                // Back to browsing, at the node of this step.
                if let Some(node) = self.tree().map(|t| t.steps[self.step.min(last)].node) {
                    self.go_to(node);
                }
                self.mode = Mode::Browse;
            }
            _ => {}
        }
    }

    fn sibling_step(&self, forward: bool) -> usize {
        let Some(t) = self.tree() else {
            return self.step;
        };
        let node = t.steps[self.step].node;
        let range: Box<dyn Iterator<Item = usize>> = if forward {
            Box::new(self.step + 1..t.steps.len())
        } else {
            Box::new((0..self.step).rev())
        };
        for i in range {
            if t.steps[i].node == node {
                return i;
            }
            // Left the node (its parent's event): stop there.
            if Some(t.steps[i].node) == t.node(node).parent {
                return i;
            }
        }
        self.step
    }

    fn start_compare(&mut self, next_id: &mut u64) -> Request<V> {
        *next_id += 1;
        self.job = *next_id;
        self.mode = Mode::Compare;
        let base = self.features;
        let off = |f: fn(&mut Features)| {
            let mut x = base;
            f(&mut x);
            x
        };
        let bare = off(|f| {
            f.quiescence = false;
            f.pruning = false;
            f.null_move = false;
            f.late_move_reductions = false;
            f.transposition_table = false;
            f.aspiration = false;
        });
        let row = |label, features, reference| CompareRow {
            label,
            features,
            reference,
            result: None,
        };
        let rows = vec![
            row("everything on (the real search)", base, 0),
            row("no move ordering", off(|f| f.move_ordering = false), 0),
            row(
                "no transposition table",
                off(|f| f.transposition_table = false),
                0,
            ),
            row("no null move", off(|f| f.null_move = false), 0),
            row(
                "no late move reductions",
                off(|f| f.late_move_reductions = false),
                0,
            ),
            row(
                "no pruning (futility, LMP, SEE, IIR)",
                off(|f| f.pruning = false),
                0,
            ),
            row("no quiescence search", off(|f| f.quiescence = false), 0),
            row("bare alpha-beta (nothing else)", bare, 0),
            row(
                "plain minimax (bare, no alpha-beta)",
                Features {
                    alpha_beta: false,
                    ..bare
                },
                7,
            ),
        ];
        let req = Request::Compare {
            id: self.job,
            pos: Box::new(self.pos.clone()),
            depth: self.depth,
            rows: rows.iter().map(|r| r.features).enumerate().collect(),
        };
        self.compare = rows;
        req
    }

    /// What the event at `step` means, in words.
    pub fn describe_step(&self, step: usize) -> String {
        let Some(t) = self.tree() else {
            return String::new();
        };
        let Some(s) = t.steps.get(step) else {
            return String::new();
        };
        let n = t.node(s.node);
        let board = t.board_at(s.node);
        let san = |m: Move| {
            if board.is_legal(m) {
                board.san(m)
            } else {
                crate::engine::Board::uci(m)
            }
        };
        let sc = |x: Score| tree::export::node_relative(x, n.ply);
        let w = |a: Score, b: Score| format!("[{}, {}]", show(sc(a)), show(sc(b)));
        match s.kind {
            StepKind::Enter => format!(
                "Enter {} at ply {}, depth {}, window {}{}",
                node_name(t, s.node),
                n.ply,
                n.depth,
                w(n.alpha, n.beta),
                if n.in_check { " (in check)" } else { "" }
            ),
            // A node evaluated lazily stands pat on the prediction.
            StepKind::StandPat(v) => match n.notes.iter().find_map(|x| match x {
                tree::Note::Prune(crate::engine::Prune::Lazy { cut, .. }) => Some(*cut),
                _ => None,
            }) {
                Some(true) => format!(
                    "Stand pat on the prediction minus the margin, {}: at least beta, the node ends",
                    show(sc(v))
                ),
                Some(false) => format!(
                    "Stand pat on the prediction plus the margin, {}: at most what standing pat is worth",
                    show(sc(v))
                ),
                None => format!(
                    "Stand pat: the static evaluation {} is a score this side can already count on",
                    show(sc(v))
                ),
            },
            StepKind::Note(note) => format!("{}", NoteText(note, &board, n.ply)),
            StepKind::TryMove {
                mv,
                index,
                alpha,
                beta,
                depth,
            } => format!(
                "Try move {}: {} with window {} (the child's view), depth {depth}",
                index + 1,
                san(mv),
                format_args!(
                    "[{}, {}]",
                    show(tree::export::node_relative(alpha, n.ply + 1)),
                    show(tree::export::node_relative(beta, n.ply + 1))
                )
            ),
            StepKind::MoveScore { mv, score } => {
                format!("{} comes back with {}", san(mv), show(sc(score)))
            }
            StepKind::AlphaRaised { mv, score } => format!(
                "Alpha raised to {} by {}: the best so far, a new lower limit",
                show(sc(score)),
                san(mv)
            ),
            StepKind::Cutoff { mv, index } if n.kind == crate::engine::NodeKind::Quiescence => {
                format!(
                    "Beta cutoff by capture {}: {} is enough, the other captures are not needed",
                    index + 1,
                    san(mv)
                )
            }
            StepKind::Cutoff { mv, index } => {
                let legal = board.legal_moves().len();
                let left = legal.saturating_sub(index + 1);
                format!(
                    "Beta cutoff by move {} of {legal}: {} is too good, the opponent avoids this \
                     line; {left} move{} never searched",
                    index + 1,
                    san(mv),
                    if left == 1 { "" } else { "s" }
                )
            }
            StepKind::Leave { score, bound } => {
                format!("Leave with {} ({})", show(sc(score)), bound_words(bound))
            }
        }
    }
}

/// Runs the comparison searches of `rows` in order, calling `done` after
/// each; stops early when `stop` is set.
pub fn run_compare<V: Variant>(
    pos: &GamePosition<V>,
    depth: Depth,
    rows: &[(usize, Features)],
    stop: &std::sync::atomic::AtomicBool,
    mut done: impl FnMut(usize, CompareResult),
) {
    use crate::engine::{Engine, Limits, NoObserver};
    use std::sync::atomic::Ordering;
    for &(row, features) in rows {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let mut engine = Engine::default();
        let limits = Limits {
            features,
            nodes: Some(COMPARE_NODE_LIMIT),
            ..Limits::depth(depth)
        };
        let t0 = std::time::Instant::now();
        let report = engine.search(pos, &limits, stop, &mut NoObserver);
        let r = &report.result;
        done(
            row,
            CompareResult {
                nodes: r.stats.nodes,
                time: t0.elapsed(),
                score: r.score,
                best: report.best_move,
                stopped: r.depth < depth,
            },
        );
    }
}

#[cfg(test)]
mod tests;
