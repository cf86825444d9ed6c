//! Browse mode of the explorer: the layout (the moves searched on the
//! left, the selected one's position and details on the right) and the
//! path from the root on the first line.

use super::context::Browse;
use super::details::draw_browse_child;
use super::moves::browse_moves;
use super::*;
use crate::engine::tree::{Entry, SearchTree};

/// Browse mode: where we are on the first line; below it the moves
/// searched here on the left, the selected one's position and details on
/// the right.
pub(super) fn draw_browse<V: crate::engine::Variant>(
    buf: &mut Buffer,
    app: &Shared,
    ex: &Explorer<V>,
    t: &SearchTree<V>,
    area: Rect,
) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let here = ex.node;
    let cx = Browse {
        app,
        ex,
        t,
        theme,
        text,
        dim: Style::default().fg(theme.dim),
        bold: text.add_modifier(Modifier::BOLD),
        pv: t.pv_nodes(),
        here,
        node: t.node(here),
        board: t.board_at(here),
    };
    draw_browse_path(buf, &cx, area);

    // Left: the moves searched here. Right: board and details.
    let right_w = (area.width / 2).clamp(36, 60);
    let left = Rect::new(
        area.x,
        area.y + 1,
        area.width - right_w - 1,
        area.height - 1,
    );
    let right = Rect::new(
        area.x + left.width + 1,
        area.y + 1,
        right_w,
        area.height - 1,
    );
    Paragraph::new(browse_moves(&cx, left.height, left.width))
        .wrap(Wrap { trim: false })
        .render_ref(left, buf);
    draw_browse_child(buf, &cx, right);
}

/// The first line: the path from the root as a move line, and whether the
/// node is on the principal variation.
fn draw_browse_path<V: crate::engine::Variant>(buf: &mut Buffer, cx: &Browse<'_, V>, area: Rect) {
    let t = cx.t;
    let here = cx.here;
    let path: Vec<String> = {
        let mut b = t.root_board.clone();
        let mut out = Vec::new();
        for (id, mv) in t.path(here) {
            let n = t.node(id);
            match (n.entry, mv) {
                (Entry::Move, Some(m)) => {
                    let num = b.pos().fullmoves().get();
                    let san = b.san(m);
                    if b.turn() == Color::White {
                        out.push(format!("{num}. {san}"));
                    } else if out.is_empty() {
                        out.push(format!("{num}... {san}"));
                    } else {
                        out.push(san);
                    }
                    b = b.play(m);
                }
                (Entry::NullMove, _) => {
                    out.push("(null)".into());
                    if let Some(n) = b.null_move() {
                        b = n;
                    }
                }
                _ => out.push("(verify)".into()),
            }
        }
        out
    };
    let on_pv = here == t.root().unwrap_or(0) || cx.pv.contains(&here);
    let path_text = if path.is_empty() {
        "the root (the position searched)".to_string()
    } else {
        path.join(" ")
    };
    buf.set_line(
        area.x,
        area.y,
        &Line::from(vec![
            Span::styled("At: ", cx.dim),
            Span::styled(path_text, cx.bold),
            Span::styled(
                if on_pv { "  ★ on the PV" } else { "" },
                Style::default().fg(cx.theme.accent),
            ),
        ]),
        area.width,
    );
}
