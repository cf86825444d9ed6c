//! Drawing the menus above every screen: the endgame trainer's, the tables
//! being prepared, the puzzle themes.

use super::widgets::*;
use super::*;
use crate::ui::screens::chess::trainer::{Difficulty, ENDINGS, SideChoice};
use crate::ui::state::{Preparing, TrainerMenu};

pub(crate) fn draw_trainer_menu(buf: &mut Buffer, app: &Shared, menu: &TrainerMenu, area: Rect) {
    if menu.lessons {
        draw_lessons_menu(buf, app, menu, area);
        return;
    }
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::from(Span::styled(
        "Play an ending against perfect defence from the tablebases.",
        text,
    ))];
    for (i, e) in ENDINGS.iter().enumerate() {
        let chosen = i == menu.selected;
        let row = format!(
            "{} {:<6} {:<22} longest mate {:>2}",
            if chosen { "▶" } else { " " },
            e.name,
            e.title,
            e.longest
        );
        let style = if chosen {
            Style::default()
                .fg(theme.background)
                .bg(theme.accent)
                .add_modifier(Modifier::BOLD)
        } else {
            text
        };
        lines.push(Line::from(Span::styled(row, style)));
    }
    lines.push(Line::from(""));
    let choice = |label: &str, options: Vec<&str>, at: usize| -> Line<'static> {
        let mut spans = vec![Span::styled(format!("{label:<12}"), text)];
        for (i, o) in options.iter().enumerate() {
            let style = if i == at { accent } else { dim };
            let shown = if i == at {
                format!("[{o}]")
            } else {
                format!(" {o} ")
            };
            spans.push(Span::styled(shown, style));
        }
        Line::from(spans)
    };
    lines.push(choice(
        "Difficulty",
        Difficulty::ALL.iter().map(|d| d.name()).collect(),
        menu.difficulty,
    ));
    lines.push(choice(
        "You play",
        SideChoice::ALL.iter().map(|s| s.name()).collect(),
        menu.side,
    ));
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "↑↓ ending  ←→ difficulty  Tab side  Enter random position",
        dim,
    )));
    lines.push(Line::from(Span::styled(
        "e enter a position (board editor)  L lessons  Esc close",
        dim,
    )));
    lines.push(Line::from(Span::styled(
        "Missing tables are made on first use (5 pieces: minutes).",
        dim,
    )));
    draw_trainer_box(buf, app, "Endgame trainer", lines, area);
}

/// A page of the trainer menu: `lines` in a box 62 wide, centred.
fn draw_trainer_box(buf: &mut Buffer, app: &Shared, title: &str, lines: Vec<Line<'_>>, area: Rect) {
    let theme = app.theme();
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = centered(area, 62.min(area.width), h);
    Clear.render_ref(r, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .style(Style::default().bg(theme.background))
        .block(block(title, theme))
        .render_ref(r, buf);
}

/// The lessons page of the trainer menu: each lesson with the positions
/// passed, the chosen one's line.
fn draw_lessons_menu(buf: &mut Buffer, app: &Shared, menu: &TrainerMenu, area: Rect) {
    use crate::train::lessons::LESSONS;
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let good = Style::default().fg(theme.accent);
    let mut lines = vec![
        Line::from(Span::styled(
            "The endings every player must know, against perfect defence.",
            text,
        )),
        Line::from(""),
    ];
    let chosen = menu.lesson.min(LESSONS.len() - 1);
    for (i, l) in LESSONS.iter().enumerate() {
        let passed = app.trainer.lessons.as_ref().map_or(0, |p| p.passed(l));
        let done = passed == l.steps.len();
        let row = format!(
            "{} {} {:<34} {:<7} {}/{}",
            if i == chosen { "▶" } else { " " },
            if done { "✓" } else { " " },
            l.title,
            l.material,
            passed,
            l.steps.len()
        );
        let style = if i == chosen {
            Style::default()
                .fg(theme.background)
                .bg(theme.accent)
                .add_modifier(Modifier::BOLD)
        } else if done {
            good
        } else {
            text
        };
        lines.push(Line::from(Span::styled(row, style)));
    }
    lines.push(Line::from(""));
    let l = &LESSONS[chosen];
    lines.push(Line::from(Span::styled(l.line, text)));
    if l.five_pieces() {
        lines.push(Line::from(Span::styled(
            "Five pieces: its tables take minutes to make the first time.",
            dim,
        )));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "↑↓ lesson  Enter start  E endings  Esc close",
        dim,
    )));
    draw_trainer_box(buf, app, "Lessons", lines, area);
}

pub(crate) fn draw_preparing(buf: &mut Buffer, app: &Shared, p: &Preparing, area: Rect) {
    let bar_w = 30usize;
    let share = p.share.clamp(0.0, 1.0);
    let filled = (share * bar_w as f64).round() as usize;
    let bar = format!(
        "{}{} {:>3.0}%",
        "█".repeat(filled),
        "░".repeat(bar_w - filled),
        share * 100.0
    );
    draw_message(
        buf,
        app.theme(),
        area,
        "Endgame tables",
        &[
            &p.text,
            &bar,
            "",
            "Generated once, then read from disk.",
            "Esc stops waiting",
        ],
    );
}

/// The puzzle themes to choose from, the chosen one highlighted and kept
/// in view.
pub(crate) fn draw_theme_menu(
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
