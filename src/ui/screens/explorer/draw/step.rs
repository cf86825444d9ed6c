//! Step mode of the explorer: one recorded event at a time, with the
//! stack of open nodes, the events around it and the board at its node.

use super::*;
use crate::engine::tree::export::node_relative;
use crate::engine::tree::{NodeId, SearchTree, StepKind};
use crate::ui::screens::explorer::node_name;

pub(super) fn draw_step<V: crate::engine::Variant>(
    buf: &mut Buffer,
    app: &Shared,
    ex: &Explorer<V>,
    t: &SearchTree<V>,
    area: Rect,
) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let bold = text.add_modifier(Modifier::BOLD);
    if t.steps.is_empty() {
        buf.set_string(area.x, area.y, "No events recorded.", dim);
        return;
    }
    let i = ex.step.min(t.steps.len() - 1);
    let step = t.steps[i];
    buf.set_line(
        area.x,
        area.y,
        &Line::from(vec![
            Span::styled(format!("Step {} of {}: ", i + 1, t.steps.len()), dim),
            Span::styled(ex.describe_step(i), bold),
        ]),
        area.width,
    );
    let right_w = (area.width / 2).clamp(36, 60);
    let left = Rect::new(
        area.x,
        area.y + 2,
        area.width - right_w - 1,
        area.height - 2,
    );
    let right = Rect::new(
        area.x + left.width + 1,
        area.y + 2,
        right_w,
        area.height - 2,
    );

    // The stack of open nodes, root first, with their windows and the best
    // score found so far (alpha raises seen up to this step).
    let chain: Vec<NodeId> = {
        let mut v = Vec::new();
        let mut cur = Some(step.node);
        while let Some(c) = cur {
            v.push(c);
            cur = t.node(c).parent;
        }
        v.reverse();
        v
    };
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "{:<4} {:<14} {:<20} {:>8}",
            "ply", "node", "window (its view)", "best yet"
        ),
        dim,
    ))];
    for &c in &chain {
        let n = t.node(c);
        let best = t
            .best_at(c, i)
            .map(|s| show(node_relative(s, n.ply)))
            .unwrap_or_else(|| "-".into());
        let style = if c == step.node { bold } else { text };
        lines.push(Line::from(Span::styled(
            format!(
                "{:<4} {:<14} [{}, {}]{:>w$} {:>8}",
                n.ply,
                node_name(t, c),
                show(node_relative(n.alpha, n.ply)),
                show(node_relative(n.beta, n.ply)),
                "",
                best,
                w = 20usize.saturating_sub(
                    4 + show(node_relative(n.alpha, n.ply)).len()
                        + show(node_relative(n.beta, n.ply)).len()
                )
            ),
            style,
        )));
    }
    // The events around this one.
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("events", dim)));
    let room = (left.height as usize).saturating_sub(lines.len());
    let from = i.saturating_sub(room / 3);
    for j in from..(from + room).min(t.steps.len()) {
        let depth = {
            let mut d = 0;
            let mut cur = t.node(t.steps[j].node).parent;
            while let Some(c) = cur {
                d += 1;
                cur = t.node(c).parent;
            }
            d
        };
        let indent = " ".repeat((depth as usize).min(20));
        let s = format!("{indent}{}", ex.describe_step(j));
        lines.push(Line::from(Span::styled(
            s,
            if j == i {
                Style::default().fg(theme.background).bg(theme.accent)
            } else {
                dim
            },
        )));
    }
    Paragraph::new(lines).render_ref(left, buf);

    // The board at this node, the move being tried marked.
    let board = t.board_at(step.node);
    let marked = match step.kind {
        StepKind::TryMove { mv, .. }
        | StepKind::MoveScore { mv, .. }
        | StepKind::AlphaRaised { mv, .. }
        | StepKind::Cutoff { mv, .. } => move_squares(mv),
        _ => match t.node(step.node).mv {
            Some(m) => move_squares(m),
            None => Vec::new(),
        },
    };
    let _ = draw_plain_board(
        buf,
        right,
        &board,
        &marked,
        app.theme(),
        app.look.ascii || app.theme().ascii,
        app.look.flipped,
    );
}
