//! Drawing the board editor: the board being set up and its panel.

use super::Editor;
use crate::ui::view::widgets::*;
use crate::ui::view::*;

/// The board editor: its board, its panel and the status line.
pub fn draw_editor_screen(
    buf: &mut Buffer,
    area: Rect,
    ui: &Shared,
    e: &crate::ui::screens::chess::trainer::Editor,
) {
    let Some(l) = layout(area) else {
        too_small(buf, area, ui, false);
        return;
    };
    let scene = board::Scene {
        pieces: &e.board,
        last: Vec::new(),
        check: None,
        dests: Vec::new(),
        hint: Vec::new(),
        selected: None,
        cursor: Some(e.cursor),
    };
    board::draw_scene(buf, ui, &l.board, &scene);
    draw_editor_panel(buf, ui, e, l.panel);
    overlays::draw_plain_status(buf, ui, l.status);
}

/// The board editor's panel (in place of the whole side panel).
pub(crate) fn draw_editor_panel(buf: &mut Buffer, app: &Shared, e: &Editor, area: Rect) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let w = area.width.saturating_sub(2) as usize;
    let mut lines = vec![
        Line::from(Span::styled(
            format!("{} to move (Tab changes)", color_name(e.turn)),
            text.add_modifier(Modifier::BOLD),
        )),
        Line::from(Span::styled(
            format!("Square {}", e.cursor),
            Style::default().fg(theme.accent),
        )),
        Line::from(""),
    ];
    match &e.fen {
        Some(f) => {
            // The end, where the typing is, stays visible.
            let typed = format!("FEN: {f}▏");
            let n = typed.chars().count();
            let shown: String = if n > w {
                std::iter::once('…')
                    .chain(typed.chars().skip(n + 1 - w))
                    .collect()
            } else {
                typed
            };
            lines.push(Line::from(Span::styled(
                shown,
                Style::default().fg(theme.accent),
            )))
        }
        None => lines.push(Line::from(Span::styled(fit(&e.fen(), w), dim))),
    }
    lines.push(Line::from(""));
    if e.problems.is_empty() {
        lines.push(Line::from(Span::styled(
            "Legal. Enter plays it against the tables.",
            Style::default().fg(theme.accent),
        )));
    } else {
        for p in &e.problems {
            lines.push(Line::from(Span::styled(
                p.clone(),
                Style::default().fg(theme.error),
            )));
        }
    }
    lines.push(Line::from(""));
    for help in [
        "Arrows or a click: move the cursor",
        "K Q R B N P: white piece, k q r b n p: black",
        "Space, Del or x: empty the square",
        "Tab: side to move    c: clear the board",
        "f: type or paste a FEN",
        "Enter: play    Esc: back to the menu",
    ] {
        lines.push(Line::from(Span::styled(help, dim)));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block("Board editor", theme))
        .render_ref(area, buf);
}
