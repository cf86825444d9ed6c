//! Drawing the search-tree explorer: browse, step and compare modes.
//!
//! This file draws the title (what was searched) and the footer (the note
//! and the keys); each mode's body is drawn by its module below.

use super::{Explorer, Mode, show};
use crate::ui::view::widgets::block;
use crate::ui::view::*;

mod browse;
mod compare;
mod context;
mod details;
mod moves;
mod step;

use browse::draw_browse;
use compare::draw_compare;
use step::draw_step;

/// The squares a move touches, for highlighting (king and rook squares of a
/// castling move shown the usual way).
fn move_squares(m: shakmaty::Move) -> Vec<Square> {
    let mut v = vec![crate::ui::text::shown_to(m)];
    if let Some(f) = m.from() {
        v.push(f);
    }
    v
}

pub(crate) fn draw_explorer<V: crate::engine::Variant>(
    buf: &mut Buffer,
    app: &Shared,
    ex: &Explorer<V>,
    area: Rect,
) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    if area.width < 60 || area.height < 16 {
        Paragraph::new(format!(
            "Terminal too small for the tree explorer (needs 60 x 16, have {} x {}).",
            area.width, area.height
        ))
        .wrap(Wrap { trim: true })
        .style(text)
        .render_ref(area, buf);
        return;
    }
    let Some(rec) = &ex.recording else {
        let msg = format!(
            "Recording the search to depth {}... (the engine's real search, every node kept up to {} nodes)",
            ex.depth, ex.cap
        );
        Paragraph::new(msg)
            .block(block("Search tree", theme))
            .style(text)
            .render_ref(area, buf);
        return;
    };
    let t = &rec.tree;
    // Title: what was searched (in fewer words on a narrow screen).
    let wide = area.width >= 110;
    let mut title = vec![
        Span::styled("Search tree ", accent),
        Span::styled(
            format!(
                "depth {} · {} nodes{}{} · {} ms · best {} {}",
                t.depth,
                t.nodes_entered,
                if wide { " in the last iteration" } else { "" },
                match t.passes.len() {
                    1 => String::new(),
                    n if wide => format!(" ({n} root passes: aspiration)"),
                    n => format!(" ({n} passes)"),
                },
                rec.elapsed.as_millis(),
                rec.report
                    .best_move
                    .map(|m| t.root_board.san(m))
                    .unwrap_or_else(|| "-".into()),
                show(rec.report.result.score.0),
            ),
            text,
        ),
    ];
    if t.truncated {
        title.push(Span::styled(
            format!("  TRUNCATED at {} nodes", t.nodes.len()),
            Style::default()
                .fg(theme.error)
                .add_modifier(Modifier::BOLD),
        ));
    }
    let off = crate::engine::tree::export::disabled_features(ex.features);
    if !off.is_empty() {
        title.push(Span::styled(format!("  off: {}", off.join(", ")), dim));
    }
    buf.set_line(area.x, area.y, &Line::from(title), area.width);

    // The note (or whether the tree agrees with the verdict it was
    // opened to show) over the keys, two lines when it needs them.
    let note = ex.note.clone().or_else(|| ex.verdict_words());
    let note_rows = match &note {
        Some(n) if n.chars().count() > usize::from(area.width) => 2,
        _ => 1,
    };
    let body = Rect::new(
        area.x,
        area.y + 1,
        area.width,
        area.height.saturating_sub(2 + note_rows),
    );
    match ex.mode {
        Mode::Browse => draw_browse(buf, app, ex, t, body),
        Mode::Step => draw_step(buf, app, ex, t, body),
        Mode::Compare => draw_compare(buf, app, ex, body),
    }
    let keys = crate::ui::screens::explorer::footer_spans(
        match ex.mode {
            Mode::Browse => crate::ui::screens::explorer::BROWSE_KEYS,
            Mode::Step => crate::ui::screens::explorer::STEP_KEYS,
            Mode::Compare => crate::ui::screens::explorer::COMPARE_KEYS,
        },
        dim,
    );
    let y = area.y + area.height - 1 - note_rows;
    if let Some(n) = note {
        Paragraph::new(n)
            .wrap(Wrap { trim: true })
            .style(Style::default().fg(theme.accent))
            .render_ref(Rect::new(area.x, y, area.width, note_rows), buf);
    }
    buf.set_line(
        area.x,
        y + note_rows,
        &crate::ui::view::widgets::fit_footer(keys, area.width),
        area.width,
    );
}
