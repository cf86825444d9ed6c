//! The drill panel (a puzzle or a Retry position), in place of the search
//! panel: what to find, how it went, and the rating or the game's mistake.

use super::widgets::{block, key_label};
use super::*;
use crate::ui::screens::chess::drill::{Drill, DrillKind, DrillState};

pub(super) fn draw_drill_panel(buf: &mut Buffer, app: &ChessView<'_>, d: &Drill, area: Rect) {
    let theme = app.ui.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let good = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let bad = Style::default().fg(theme.error);
    let mut lines: Vec<Line> = Vec::new();
    let solver = color_name(d.run.solver());
    let title;
    match &d.kind {
        DrillKind::Puzzles {
            theme: filter,
            done,
            solved,
        } => {
            title = format!("Puzzle {}", d.run.puzzle.id);
            let p = &d.run.puzzle;
            lines.push(Line::from(Span::styled(
                format!(
                    "Rated {} · theme: {}",
                    p.rating,
                    filter.as_deref().unwrap_or("any")
                ),
                text,
            )));
            if let Some(store) = &app.ui.puzzles {
                let r = store.rating();
                lines.push(Line::from(Span::styled(
                    format!(
                        "You: {:.0}{} · due now: {}",
                        r.rating,
                        // Lichess' mark of a provisional rating.
                        if r.deviation > PROVISIONAL { "?" } else { "" },
                        store.due(crate::util::unix_now())
                    ),
                    dim,
                )));
            }
            lines.push(Line::from(Span::styled(
                format!("This sitting: {solved} of {done} solved"),
                dim,
            )));
        }
        DrillKind::Retry {
            side,
            items,
            index,
            found,
        } => {
            title = format!("Retry: {}'s mistakes", color_name(*side));
            lines.push(Line::from(Span::styled(
                format!("Position {} of {} · found: {found}", index + 1, items.len()),
                dim,
            )));
            if let Some(it) = items.get(*index) {
                lines.push(Line::from(vec![
                    Span::styled("In the game: ", text),
                    Span::styled(
                        format!(
                            "{}{} ({}, {} → {})",
                            it.played,
                            glyph(it.judgement),
                            it.judgement.name(),
                            score_text(it.best_score),
                            score_text(it.played_score)
                        ),
                        bad,
                    ),
                ]));
                if let Some(b) = &it.book {
                    lines.push(Line::from(Span::styled(b.clone(), dim)));
                }
            }
        }
    }
    let task = match d.state {
        DrillState::Solving if d.run.expected().is_some() => {
            Some((format!("Find the best move for {solver}."), text))
        }
        DrillState::Solving => None,
        DrillState::Checking { .. } => Some(("Judging your move…".to_string(), dim)),
        DrillState::Solved => None,
        DrillState::Shown => None,
    };
    if let Some((t, s)) = task {
        lines.push(Line::from(Span::styled(t, s)));
    }
    if let Some((ok, v)) = &d.verdict {
        lines.push(Line::from(Span::styled(
            v.clone(),
            if *ok { good } else { bad },
        )));
    }
    if d.finished() {
        if let Some(r) = &d.rating_note {
            lines.push(Line::from(Span::styled(r.clone(), text)));
        }
        match &d.kind {
            DrillKind::Puzzles { .. } => {
                let themes = d.run.puzzle.themes.join(" ");
                if !themes.is_empty() {
                    lines.push(Line::from(Span::styled(format!("Themes: {themes}"), dim)));
                }
            }
            DrillKind::Retry { .. } => {
                if let Some(it) = d.retry_item() {
                    if !it.best_line.is_empty() {
                        lines.push(Line::from(Span::styled(
                            format!("Best line: {}", it.best_line),
                            text,
                        )));
                    }
                    if let Some(r) = &it.reason {
                        lines.push(Line::from(Span::styled(
                            format!("Why {} was bad: {r}", it.played),
                            text,
                        )));
                    }
                    lines.push(Line::from(Span::styled(
                        format!(
                            "{}: explore the refutation in the search tree",
                            key_label(app.ui, Action::Explore)
                        ),
                        dim,
                    )));
                }
            }
        }
        lines.push(Line::from(Span::styled(
            format!("{}: next", key_label(app.ui, Action::NewGame)),
            dim,
        )));
    } else {
        lines.push(Line::from(Span::styled(
            format!(
                "{}: hint (piece, square, answer)   {}: skip",
                key_label(app.ui, Action::Hint),
                key_label(app.ui, Action::NewGame)
            ),
            dim,
        )));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block(&title, theme))
        .render_ref(area, buf);
}

/// The puzzle themes to choose from, the chosen one highlighted and kept
/// in view.
pub(super) fn draw_theme_menu(
    buf: &mut Buffer,
    ui: &Shared,
    themes: &[(String, usize)],
    selected: usize,
    area: Rect,
) {
    let theme = ui.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let chosen = Style::default()
        .fg(theme.background)
        .bg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let h = area.height.saturating_sub(4).clamp(3, 24);
    let w = 44.min(area.width);
    let rows = h.saturating_sub(3) as usize;
    let first = selected.saturating_sub(rows.saturating_sub(1));
    let mut entries: Vec<(String, String)> = vec![("every theme".into(), String::new())];
    entries.extend(themes.iter().map(|(t, n)| (t.clone(), n.to_string())));
    let mut lines: Vec<Line> = entries
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, (t, n))| {
            let row = format!(" {t:<30}{n:>8} ");
            Line::from(Span::styled(row, if i == selected { chosen } else { text }))
        })
        .collect();
    lines.push(Line::from(Span::styled(
        "↑↓ choose  Enter filter  Esc close",
        dim,
    )));
    let r = super::overlays::centered(area, w, h);
    Clear.render_ref(r, buf);
    Paragraph::new(lines)
        .style(Style::default().bg(theme.background))
        .block(block("Filter puzzles by theme", theme))
        .render_ref(r, buf);
}

/// A rating deviation above this is provisional (lichess' threshold).
const PROVISIONAL: f64 = 110.0;

fn glyph(j: crate::game::review::Judgement) -> &'static str {
    match j {
        crate::game::review::Judgement::Inaccuracy => "?!",
        crate::game::review::Judgement::Mistake => "?",
        crate::game::review::Judgement::Blunder => "??",
    }
}
