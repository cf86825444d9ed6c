//! Drawing a puzzle or Retry drill: the position's task, the verdicts, the
//! rating and the run so far.

use crate::ui::screens::chess::draw::view::*;
use crate::ui::screens::chess::drill::{Drill, DrillKind, DrillState};

pub(crate) fn draw_drill_panel(buf: &mut Buffer, app: &ChessView<'_>, d: &Drill, area: Rect) {
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

/// A rating deviation above this is provisional (lichess' threshold).
const PROVISIONAL: f64 = 110.0;

fn glyph(j: crate::game::review::Judgement) -> &'static str {
    match j {
        crate::game::review::Judgement::Inaccuracy => "?!",
        crate::game::review::Judgement::Mistake => "?",
        crate::game::review::Judgement::Blunder => "??",
    }
}
