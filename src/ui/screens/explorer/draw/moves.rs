//! The left column of browse mode: the node's window and result, its
//! events, a row per move searched (scores seen from the node, the side
//! choosing the move) and the moves never searched.

use super::context::Browse;
use super::*;
use crate::engine::tree::export::{event_labels, node_relative};
use crate::engine::tree::{Entry, NodeType};
use crate::ui::screens::explorer::bound_words;
use crate::ui::screens::explorer::words::parent_view;

/// The left column: the node's window and result, its events, then a row
/// per move searched and the moves never searched; `height` rows tall and
/// `width` wide (narrower than a full row, the rows leave out the window,
/// which the details beside them show for the selected move).
pub(super) fn browse_moves<'a, V: crate::engine::Variant>(
    cx: &Browse<'_, V>,
    height: u16,
    width: u16,
) -> Vec<Line<'a>> {
    let narrow = width < FULL_ROW;
    let (t, node, here) = (cx.t, cx.node, cx.here);
    let (text, dim) = (cx.text, cx.dim);
    let side = if cx.board.turn() == Color::White {
        "White"
    } else {
        "Black"
    };
    let mut lines: Vec<Line> = Vec::new();
    let window = format!(
        "window [{}, {}] → {} ({})",
        show(node_relative(node.alpha, node.ply)),
        show(node_relative(node.beta, node.ply)),
        show(node_relative(node.score, node.ply)),
        bound_words(node.bound),
    );
    let who = format!(
        "{side} to move · depth {} · {} node",
        node.depth,
        t.node_type(here).name().to_uppercase()
    );
    if narrow {
        lines.push(Line::from(Span::styled(who, text)));
        lines.push(Line::from(Span::styled(window, text)));
    } else {
        lines.push(Line::from(Span::styled(format!("{who} · {window}"), text)));
    }
    let events = event_labels(t, here);
    if !events.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("events: {}", events.join(", ")),
            dim,
        )));
    }
    lines.push(Line::from(Span::styled(
        if narrow {
            format!(
                "{:>3}  {:<8} {:>7} {:<5} {:<4}",
                "#", "move", "score", "bound", "type"
            )
        } else {
            format!(
                "{:>3}  {:<8} {:<18} {:>7} {:<6} {:<4}  (scores for {side})",
                "#", "move", "window", "score", "bound", "type"
            )
        },
        dim,
    )));
    let visible = (height as usize).saturating_sub(lines.len() + 3).max(1);
    lines.extend(child_rows(cx, visible, width, narrow));
    if node.children.is_empty() {
        lines.push(Line::from(Span::styled(
            match node.kind {
                crate::engine::NodeKind::Quiescence => {
                    "a leaf: the evaluation (or captures) decided"
                }
                crate::engine::NodeKind::Tablebase => {
                    "a leaf: the endgame tables know this position exactly"
                }
                _ => "no moves searched here (the node ended before its move loop)",
            },
            dim,
        )));
    }
    lines.extend(unsearched_line(cx, &events));
    lines
}

/// A row with every column and a mark: narrower, the window is left out.
const FULL_ROW: u16 = 56;

/// The rows of the moves searched at the node, `visible` of them around
/// the selected one, each cut to `width` (`narrow`: without the window,
/// with short marks).
fn child_rows<'a, V: crate::engine::Variant>(
    cx: &Browse<'_, V>,
    visible: usize,
    width: u16,
    narrow: bool,
) -> Vec<Line<'a>> {
    let (t, node) = (cx.t, cx.node);
    let children = &node.children;
    let first = cx
        .ex
        .selected
        .saturating_sub(visible.saturating_sub(1) / 2)
        .min(children.len().saturating_sub(visible));
    let mut lines = Vec::new();
    let mut seen: Vec<Option<shakmaty::Move>> = Vec::new();
    for (i, &c) in children.iter().enumerate() {
        let cn = t.node(c);
        let again = cn.mv.is_some() && seen.contains(&cn.mv);
        seen.push(cn.mv);
        if i < first || i >= first + visible {
            continue;
        }
        let name = match cn.entry {
            Entry::Move => cn.mv.map(|m| cx.board.san(m)).unwrap_or_default(),
            Entry::NullMove => "(null)".into(),
            _ => "(verify)".into(),
        };
        let (window, score, bound) = parent_view(t, c);
        let ty = match t.node_type(c) {
            NodeType::Pv => "PV",
            NodeType::Cut => "CUT",
            NodeType::All => "ALL",
            NodeType::Quiescence => "QS",
            NodeType::Tablebase => "TB",
            NodeType::Terminal => "END",
        };
        let short = narrow;
        let mut marks = Vec::new();
        if cx.pv.contains(&c) {
            marks.push("★ PV".to_string());
        }
        if node.cutoff == Some(i) {
            marks.push(if short { "✂ cut" } else { "✂ beta cutoff" }.to_string());
        }
        if again {
            marks.push(if short { "↻" } else { "↻ re-search" }.to_string());
        }
        if cn
            .notes
            .iter()
            .any(|n| matches!(n, crate::engine::tree::Note::TtHit { cutoff: true, .. }))
        {
            marks.push("TT".to_string());
        }
        if cn.unrecorded_children > 0 {
            marks.push("…".to_string());
        }
        let row = if narrow {
            format!(
                "{:>3}. {name:<8} {score:>7} {bound:<5} {ty:<4} {}",
                i + 1,
                marks.join(" ")
            )
        } else {
            format!(
                "{:>3}. {name:<8} {window:<18} {score:>7} {bound:<6} {ty:<4}  {}",
                i + 1,
                marks.join(" ")
            )
        };
        let row = crate::ui::view::widgets::fit(row.trim_end(), usize::from(width));
        let style = if i == cx.ex.selected {
            Style::default()
                .fg(cx.theme.background)
                .bg(cx.theme.accent)
                .add_modifier(Modifier::BOLD)
        } else if cx.pv.contains(&c) {
            cx.bold
        } else {
            cx.text
        };
        lines.push(Line::from(Span::styled(row, style)));
    }
    lines
}

/// The legal moves never searched at the node and why, if any (`events`:
/// the node's, naming why it ended early).
fn unsearched_line<'a, V: crate::engine::Variant>(
    cx: &Browse<'_, V>,
    events: &[String],
) -> Option<Line<'a>> {
    let (node, board, dim) = (cx.node, &cx.board, cx.dim);
    let skipped = cx.t.unsearched_at(cx.here, board);
    if skipped.is_empty() || node.kind == crate::engine::NodeKind::Quiescence {
        return None;
    }
    let pruned_quiets = node.notes.iter().find_map(|n| match n {
        crate::engine::tree::Note::Prune(crate::engine::Prune::QuietsPruned { futility }) => {
            Some(*futility)
        }
        _ => None,
    });
    let why = match (node.cutoff_move, pruned_quiets) {
        (Some(k), _) => format!(
            "beta cutoff by move {} of {}: {} never searched:",
            k + 1,
            board.legal_moves().len(),
            skipped.len()
        ),
        (None, Some(true)) => format!(
            "{} never searched (futility pruning skipped the quiet moves, SEE the losing ones):",
            skipped.len()
        ),
        (None, Some(false)) => format!(
            "{} never searched (late move pruning skipped the quiet moves, SEE the losing ones):",
            skipped.len()
        ),
        (None, None) if node.children.is_empty() => format!(
            "{} never searched (the node ended early: {}):",
            skipped.len(),
            events
                .first()
                .cloned()
                .unwrap_or_else(|| "see events".into())
        ),
        (None, None) => format!("{} never searched (pruned):", skipped.len()),
    };
    let list: Vec<String> = skipped.iter().map(|&m| board.san(m)).collect();
    Some(Line::from(vec![
        Span::styled(why, dim),
        Span::raw(" "),
        Span::styled(list.join(" "), dim.add_modifier(Modifier::DIM)),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Bound;
    use crate::engine::tree::{DEFAULT_NODE_CAP, NodeId, record};
    use crate::engine::{Board, EngineOptions, Features, GamePosition};

    #[test]
    fn null_move_and_verification_children_seen_from_the_parent() {
        // Little material: null-move cutoffs are verified.
        let fens = [
            "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 1",
            "8/8/4kp2/8/8/2N2PK1/8/8 w - - 0 1",
            "6k1/5p2/6p1/8/8/6P1/5PK1/3R4 w - - 0 1",
        ];
        let mut checked_null = 0;
        let mut checked_ver = 0;
        let mut errs: Vec<String> = Vec::new();
        for fen in fens {
            let pos = GamePosition::new(Board::from_fen(fen).unwrap());
            let rec = record(
                &pos,
                9,
                Features::default(),
                EngineOptions::default(),
                DEFAULT_NODE_CAP,
            );
            let t = &rec.tree;
            for (i, n) in t.nodes.iter().enumerate() {
                let id = i as NodeId;
                let Some(p) = n.parent else { continue };
                let pn = t.node(p);
                let (window, score, bound) = parent_view(t, id);
                match n.entry {
                    Entry::Verification => {
                        checked_ver += 1;
                        // Same side to move: the window is the parent's own terms already.
                        let want = format!(
                            "[{}, {}]",
                            show(node_relative(n.alpha, n.ply)),
                            show(node_relative(n.beta, n.ply))
                        );
                        if window != want
                            && errs.iter().filter(|e| e.starts_with("verif")).count() < 3
                        {
                            errs.push(format!("verification {id}: shown {window} score {score}, its own window {want} score {} (parent window [{}, {}])", show(node_relative(n.score, n.ply)), show(node_relative(pn.alpha, pn.ply)), show(node_relative(pn.beta, pn.ply))));
                        }
                    }
                    Entry::NullMove if n.bound == Bound::Upper || n.bound == Bound::Lower => {
                        checked_null += 1;
                        let want = if n.bound == Bound::Upper {
                            "lower"
                        } else {
                            "upper"
                        };
                        if bound != want && errs.len() < 8 {
                            errs.push(format!("null {id}: child bound {:?}, shown for parent as {bound}, score {score}", n.bound));
                        }
                    }
                    _ => {}
                }
            }
        }
        assert!(
            checked_null > 0 && checked_ver > 0,
            "null {checked_null} verification {checked_ver}"
        );
        assert!(errs.is_empty(), "{}", errs.join(" || "));
    }
}
