//! The right column of browse mode: the selected child's position (the
//! move marked) and its details: window and result in its own view, the
//! size of its subtree, its cutoff and events.

use super::context::Browse;
use super::*;
use crate::engine::tree::export::{event_labels, node_relative};
use crate::engine::tree::{Entry, NodeId};
use crate::ui::screens::explorer::{bound_words, node_name};

/// The right column: the selected child's position (the move marked) and
/// what happened there.
pub(super) fn draw_browse_child<V: crate::engine::Variant>(
    buf: &mut Buffer,
    cx: &Browse<'_, V>,
    right: Rect,
) {
    let (t, theme) = (cx.t, cx.theme);
    let sel = cx.ex.selected_child();
    let (preview, marked) = match sel.map(|c| (c, t.node(c))) {
        Some((c, cn)) => {
            let b = crate::engine::tree::export::child_position(t, c, &cx.board);
            let marked = match (cn.entry, cn.mv) {
                (Entry::Move, Some(m)) => move_squares(m),
                _ => Vec::new(),
            };
            (b, marked)
        }
        None => (cx.board.clone(), Vec::new()),
    };
    let ascii = cx.app.look.ascii || theme.ascii;
    // The board takes what the details below it leave.
    let board_h = right.height.saturating_sub(9).min(41);
    let drawn = draw_plain_board(
        buf,
        Rect::new(right.x, right.y, right.width, board_h),
        &preview,
        &marked,
        theme,
        ascii,
        cx.app.look.flipped,
    );
    let top = right.y + drawn.map_or(0, |(_, h)| h) + 1;
    let d = sel.map(|c| child_details(cx, c)).unwrap_or_default();
    Paragraph::new(d).wrap(Wrap { trim: true }).render_ref(
        Rect::new(
            right.x,
            top,
            right.width,
            (right.y + right.height).saturating_sub(top),
        ),
        buf,
    );
}

/// The details of child `c`: its name, window and result in its own
/// view, the size of its subtree, its cutoff and events.
fn child_details<'a, V: crate::engine::Variant>(cx: &Browse<'_, V>, c: NodeId) -> Vec<Line<'a>> {
    let (t, text) = (cx.t, cx.text);
    let cn = t.node(c);
    let mut d: Vec<Line> = Vec::new();
    d.push(Line::from(Span::styled(
        format!(
            "{} · ply {} · depth {} · {}",
            node_name(t, c),
            cn.ply,
            cn.depth,
            if cn.pv_node {
                "searched as PV"
            } else {
                "zero window"
            }
        ),
        cx.bold,
    )));
    d.push(Line::from(Span::styled(
        format!(
            "its view: window [{}, {}] → {} ({})",
            show(node_relative(cn.alpha, cn.ply)),
            show(node_relative(cn.beta, cn.ply)),
            show(node_relative(cn.score, cn.ply)),
            bound_words(cn.bound)
        ),
        text,
    )));
    let below = t.subtree_size(c) - 1;
    d.push(Line::from(Span::styled(
        format!(
            "{} move{} searched below, {below} node{} in all",
            cn.children.len(),
            if cn.children.len() == 1 { "" } else { "s" },
            if below == 1 { "" } else { "s" }
        ),
        text,
    )));
    if let Some(k) = cn.cutoff_move {
        let cb = crate::engine::tree::export::child_position(t, c, &cx.board);
        let legal = cb.legal_moves().len();
        d.push(Line::from(Span::styled(
            format!(
                "beta cutoff by move {} of {legal} — {} never searched",
                k + 1,
                legal.saturating_sub(k + 1)
            ),
            Style::default().fg(cx.theme.accent),
        )));
    }
    let ev = event_labels(t, c);
    if !ev.is_empty() {
        d.push(Line::from(Span::styled(
            format!("events: {}", ev.join(", ")),
            cx.dim,
        )));
    }
    d
}
