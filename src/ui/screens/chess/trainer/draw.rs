//! Drawing the endgame trainer's game: the table's verdict on each move.

use crate::tablebase::Wdl;
use crate::ui::screens::chess::draw::view::*;
use crate::ui::screens::chess::game::TrainerGame;
use crate::ui::screens::chess::trainer::{self as tr, Verdict};

/// The trainer panel (in place of the search panel).
pub(crate) fn draw_trainer_panel(
    buf: &mut Buffer,
    app: &ChessView<'_>,
    t: &TrainerGame,
    area: Rect,
) {
    let theme = app.ui.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let good = Style::default().fg(theme.accent);
    let warn = Style::default().fg(theme.hint);
    let bad = Style::default().fg(theme.error);
    let w = area.width.saturating_sub(2) as usize;
    let mut lines = Vec::new();
    // Rows the lines take once wrapped.
    let mut used = 0usize;
    let rows = |text: &str| {
        let chars: Vec<char> = text.chars().collect();
        crate::ui::text::wrap_ranges(&chars, w).len().max(1)
    };
    if let Some(run) = t.lesson {
        let step = run.position();
        used += rows(step.note);
        lines.push(Line::from(Span::styled(step.note, good)));
        let goal = match step.goal {
            crate::train::lessons::Goal::Hold(n) => format!(
                "Goal: {} ({} done)",
                step.goal.words(),
                t.feedback.len().min(n as usize)
            ),
            g => format!("Goal: {}", g.words()),
        };
        let goal = if run.passed {
            format!("{goal}: passed")
        } else {
            goal
        };
        used += rows(&goal);
        lines.push(Line::from(Span::styled(goal, text)));
    }
    if let Some(plan) = &t.plan {
        let plan = format!("Plan: {plan}");
        used += rows(&plan);
        lines.push(Line::from(Span::styled(plan, warn)));
    }
    // Before the first move (and any hint): what the ending is about.
    if let Some(run) = t
        .lesson
        .filter(|_| t.feedback.is_empty() && t.plan.is_none())
    {
        for l in run.lesson.intro {
            used += rows(l);
            lines.push(Line::from(Span::styled(*l, dim)));
        }
    }
    let start = match t.start.wdl {
        Wdl::Win => format!("Start: {} with best play", tr::describe(t.start)),
        Wdl::Draw => "Start: a draw with best play".to_string(),
        Wdl::Loss => format!("Start: {} with best play", tr::describe(t.start)),
    };
    used += rows(&start);
    lines.push(Line::from(Span::styled(start, text)));
    let now = app
        .ui
        .trainer
        .tables
        .as_ref()
        .and_then(|tb| tb.probe(app.s.board()))
        .map(|p| {
            let who = if app.s.board().turn() == t.human {
                "you"
            } else {
                "the tables"
            };
            format!("Now: {who} to move, {}", tr::describe(p))
        });
    if let Some(n) = now.filter(|_| !app.s.is_over()) {
        used += rows(&n);
        lines.push(Line::from(Span::styled(n, text)));
    }
    let (best, moves) = t.score();
    used += 1;
    lines.push(Line::from(Span::styled(
        format!("Best moves: {best} of {moves}"),
        dim,
    )));
    // The latest verdicts, newest last, as many as fit (wrapped).
    let mut room = (area.height as usize).saturating_sub(2 + used);
    let mut shown = Vec::new();
    let start = app.s.game.start();
    let first = start.chess().fullmoves().get() as usize;
    let black_first = start.turn() == Color::Black;
    for f in t.feedback.iter().rev() {
        // Move number and mover of half-move f.ply.
        let (n, black) = if black_first {
            (first + f.ply.div_ceil(2), f.ply % 2 == 0)
        } else {
            (first + f.ply / 2, f.ply % 2 == 1)
        };
        let dots = if black { "..." } else { "." };
        let row = format!("{n}{dots} {} {}", f.san, f.text);
        let h = rows(&row);
        if h > room {
            break;
        }
        room -= h;
        let style = match f.verdict {
            Verdict::Best => good,
            Verdict::Slower => warn,
            Verdict::Spoiled => bad,
        };
        shown.push(Line::from(Span::styled(row, style)));
    }
    shown.reverse();
    lines.extend(shown);
    let title = match t.lesson {
        Some(run) => format!(
            "Lesson {}/{}: {}",
            run.step + 1,
            run.lesson.steps.len(),
            t.name
        ),
        None => format!("Trainer: {}", t.name),
    };
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block(&title, theme))
        .render_ref(area, buf);
}
