//! The status line, dialogs and overlays.

use super::*;

/// The message line of the status (the first of its rows in `area`): a
/// message longer than the screen is wide wraps, its rows growing upward
/// over the screen (half of it at most; beyond that it ends with `…`).
pub(crate) fn draw_status_message(buf: &mut Buffer, theme: &Theme, line: Line, area: Rect) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let base = Style::default().fg(theme.text).bg(theme.background);
    // Nearly every status fits its row: draw it there as it is.
    if line.width() <= area.width as usize {
        buf.set_style(Rect::new(area.x, area.y, area.width, 1), base);
        buf.set_line(area.x, area.y, &line, area.width);
        return;
    }
    // Otherwise wrap it, straight into the buffer (a frame is drawn many
    // times a second; no strings are built).
    let mut chars = Vec::new();
    let mut styles = Vec::new();
    for span in &line.spans {
        let st = line.style.patch(span.style);
        for c in span.content.chars() {
            chars.push(c);
            styles.push(st);
        }
    }
    let width = area.width as usize;
    let mut rows = crate::ui::text::wrap_ranges(&chars, width);
    let max = ((area.y + area.height) / 2).clamp(1, area.y + 1) as usize;
    let cut = rows.len() > max;
    rows.truncate(max);
    let n = rows.len() as u16;
    let top = area.y + 1 - n;
    for (i, row) in rows.iter().enumerate() {
        let y = top + i as u16;
        let r = Rect::new(area.x, y, area.width, 1);
        Clear.render_ref(r, buf);
        buf.set_style(r, base);
        let last = i + 1 == rows.len();
        // The last row of a message cut short ends with `…`.
        let keep = if cut && last {
            row.len().min(width - 1)
        } else {
            row.len()
        };
        let mut x = area.x;
        for j in row.start..row.start + keep {
            buf[(x, y)].set_char(chars[j]).set_style(styles[j]);
            x += 1;
        }
        if cut && last {
            let st = styles
                .get(row.start + keep.max(1) - 1)
                .copied()
                .unwrap_or(base);
            buf[(x, y)].set_char('…').set_style(st);
        }
    }
}

/// A window of `w` x `h` in the middle of `area`, cleared, framed and
/// titled, on the theme's background; returns the area inside its frame.
pub(crate) fn popup(
    buf: &mut Buffer,
    area: Rect,
    w: u16,
    h: u16,
    title: &str,
    theme: &Theme,
) -> Rect {
    let rect = centered(area, w, h);
    Clear.render_ref(rect, buf);
    let frame = block(title, theme).style(Style::default().bg(theme.background));
    let inner = frame.inner(rect);
    frame.render_ref(rect, buf);
    inner
}

pub(crate) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

pub(crate) fn draw_message(
    buf: &mut Buffer,
    theme: &Theme,
    area: Rect,
    title: &str,
    lines: &[&str],
) {
    let w = lines.iter().map(|l| l.chars().count()).max().unwrap_or(10) as u16 + 6;
    let r = centered(area, w.max(30), lines.len() as u16 + 2);
    Clear.render_ref(r, buf);
    let text: Vec<Line> = lines
        .iter()
        .map(|l| Line::from(Span::styled(l.to_string(), Style::default().fg(theme.text))))
        .collect();
    Paragraph::new(text)
        .alignment(Alignment::Center)
        .style(Style::default().bg(theme.background))
        .block(block(title, theme))
        .render_ref(r, buf);
}

pub(crate) fn draw_help(buf: &mut Buffer, app: &Shared, replaying: bool, scroll: u16, area: Rect) {
    use crate::ui::help::{CLOSE, Part, help_view};
    let theme = app.theme();
    let key = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let text = Style::default().fg(theme.text);
    let v = help_view(app, replaying, area, scroll);
    let lines: Vec<Line> = v.rows[v.first..]
        .iter()
        .take(v.visible)
        .map(|row| {
            Line::from(
                row.iter()
                    .map(|(s, p)| Span::styled(s.clone(), if *p == Part::Key { key } else { text }))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    // The bottom border: where the lines shown are, and how to close.
    let footer = if v.rows.len() > v.visible {
        format!(
            " lines {}-{} of {}: ↑/↓ PgUp/PgDn Home/End scroll, Esc or ? closes ",
            v.first + 1,
            v.first + v.visible,
            v.rows.len()
        )
    } else {
        format!(" {CLOSE} ")
    };
    let footer = if footer.chars().count() + 2 > v.rect.width as usize {
        format!(
            " {}-{}/{} ↑↓ PgUp PgDn, Esc closes ",
            v.first + 1,
            (v.first + v.visible).min(v.rows.len()),
            v.rows.len()
        )
    } else {
        footer
    };
    Clear.render_ref(v.rect, buf);
    Paragraph::new(lines)
        .style(Style::default().bg(theme.background))
        .block(block(v.title, theme).title_bottom(Line::from(Span::styled(
            footer,
            Style::default().fg(theme.accent),
        ))))
        .render_ref(v.rect, buf);
}

pub(crate) fn draw_dialog(buf: &mut Buffer, app: &Shared, d: &NewGameDialog, area: Rect) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let sel = Style::default()
        .fg(theme.background)
        .bg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let opponent = match d.opponent {
        0..=7 => {
            let l = d.opponent as u8 + 1;
            let mut desc = Level::new(l).map(|x| x.describe()).unwrap_or_default();
            let threads = app.config.engine_threads;
            if l == Level::MAX.get() && threads > 1 {
                desc.push_str(&format!(", {threads} threads"));
            }
            format!("Level {l} ({desc})")
        }
        8 => "Custom limits".to_string(),
        _ => format!(
            "External: {}",
            d.external.clone().unwrap_or_else(|| "?".into())
        ),
    };
    let times = time_choices();
    let values = [
        format!("◀ {} ▶", SIDES[d.side.min(SIDES.len() - 1)]),
        format!("◀ {opponent} ▶"),
        format!("{}▏", d.limits),
        format!("◀ {} ▶", times.get(d.time).map_or("?", String::as_str)),
        format!("{}▏", d.custom_time),
        if d.fen.is_empty() {
            "(standard start)▏".to_string()
        } else {
            format!("{}▏", d.fen)
        },
        format!(
            "◀ {} ▶",
            crate::ui::state::VARIANTS[d.variant.min(crate::ui::state::VARIANTS.len() - 1)]
        ),
    ];
    let mut lines = Vec::new();
    for (i, (name, value)) in DIALOG_FIELDS.iter().zip(values.iter()).enumerate() {
        let active = i == d.field;
        let relevant = match i {
            2 => d.opponent == 8,
            4 => times.get(d.time).is_some_and(|t| t == "custom"),
            _ => true,
        };
        let vstyle = if active {
            sel
        } else if relevant {
            text
        } else {
            dim
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!("{name:>14}  "),
                if active {
                    text.add_modifier(Modifier::BOLD)
                } else {
                    dim
                },
            ),
            Span::styled(value.clone(), vstyle),
        ]));
    }
    lines.push(Line::from(""));
    match &d.error {
        Some(e) => lines.push(Line::from(Span::styled(
            e.clone(),
            Style::default()
                .fg(theme.error)
                .add_modifier(Modifier::BOLD),
        ))),
        None => lines.push(Line::from(Span::styled(
            "↑/↓ field  ←/→ change  type in text fields  Enter start  Esc cancel",
            dim,
        ))),
    }
    lines.push(Line::from(Span::styled(
        "Limits: e.g. 'depth 8', 'movetime 500', 'nodes 20000'. Time: minutes+seconds, e.g. 5+3.",
        dim,
    )));
    let w = area.width.min(100);
    // Long lines wrap: the box is as tall as the wrapped text.
    let inner = usize::from(w.saturating_sub(2)).max(1);
    let rows: usize = lines.iter().map(|l| l.width().div_ceil(inner).max(1)).sum();
    let r = centered(area, w, rows as u16 + 2);
    Clear.render_ref(r, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .style(Style::default().bg(theme.background))
        .block(block("New game", theme))
        .render_ref(r, buf);
}

/// The status line alone (screens without a game of their own).
pub(crate) fn draw_plain_status(buf: &mut Buffer, ui: &Shared, area: Rect) {
    let theme = ui.theme();
    if let Some(s) = &ui.status {
        Paragraph::new(Line::from(super::widgets::status_span(s, theme)))
            .wrap(Wrap { trim: true })
            .render_ref(area, buf);
    }
}
