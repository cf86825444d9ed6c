//! The endgame trainer's drawing: the ending menu, the progress of table
//! generation, the trainer panel (verdicts per move) and the board
//! editor's panel.

use super::widgets::{block, fit};
use super::*;
use crate::tablebase::Wdl;
use crate::ui::screens::chess::game::TrainerGame;
use crate::ui::screens::chess::trainer::{
    self as tr, Difficulty, ENDINGS, Editor, SideChoice, Verdict,
};
use crate::ui::state::{Preparing, TrainerMenu};

pub(super) fn draw_trainer_menu(buf: &mut Buffer, app: &Shared, menu: &TrainerMenu, area: Rect) {
    let theme = app.theme();
    let text = Style::default().fg(theme.text);
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let mut lines = vec![
        Line::from(Span::styled(
            "Play an ending against perfect defence from the tablebases.",
            text,
        )),
        Line::from(""),
    ];
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
        "e enter a position (board editor)  Esc close",
        dim,
    )));
    lines.push(Line::from(Span::styled(
        "Missing tables are made on first use (seconds; pawns up to ~20 s).",
        dim,
    )));
    let h = (lines.len() as u16 + 2).min(area.height);
    let w = 62.min(area.width);
    let r = centered(area, w, h);
    Clear.render_ref(r, buf);
    Paragraph::new(lines)
        .style(Style::default().bg(theme.background))
        .block(block("Endgame trainer", theme))
        .render_ref(r, buf);
}

pub(super) fn draw_preparing(buf: &mut Buffer, app: &Shared, p: &Preparing, area: Rect) {
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

/// The trainer panel (in place of the search panel).
pub(super) fn draw_trainer_panel(
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
    let start = match t.start.wdl {
        Wdl::Win => format!("Start: {} with best play", tr::describe(t.start)),
        Wdl::Draw => "Start: a draw with best play".to_string(),
        Wdl::Loss => format!("Start: {} with best play", tr::describe(t.start)),
    };
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
        lines.push(Line::from(Span::styled(n, text)));
    }
    let (best, moves) = t.score();
    lines.push(Line::from(Span::styled(
        format!("Best moves: {best} of {moves}"),
        dim,
    )));
    // The latest verdicts, newest last, as many as fit (wrapped).
    let mut room = (area.height as usize).saturating_sub(2 + lines.len());
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
        let h = row.chars().count().div_ceil(w.max(1)).max(1);
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
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(block(&format!("Trainer: {}", t.name), theme))
        .render_ref(area, buf);
}

/// The board editor's panel (in place of the whole side panel).
pub(super) fn draw_editor_panel(buf: &mut Buffer, app: &Shared, e: &Editor, area: Rect) {
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
