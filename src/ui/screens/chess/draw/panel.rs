//! The side panel: players and clocks, the engine, the move list.

use crate::ui::screens::chess::draw::view::*;
// view/mod.rs imports these two from here.

pub(crate) fn draw_panel(buf: &mut Buffer, app: &ChessView<'_>, area: Rect, now: Instant) {
    let theme = app.ui.theme();
    let text = Style::default().fg(theme.text);
    // Players and clocks.
    let mut lines = Vec::new();
    let turn = app.s.board().turn();
    for c in [Color::White, Color::Black] {
        let marker = if !app.s.is_over() && c == turn {
            "▶ "
        } else {
            "  "
        };
        let name = player_name(app, c);
        let clock = app.clock_text(c, now).unwrap_or_default();
        let width = area.width.saturating_sub(4) as usize;
        let left = format!(
            "{marker}{} {name}",
            if c == Color::White { "○" } else { "●" }
        );
        let pad = width.saturating_sub(left.chars().count() + clock.chars().count());
        let mut style = text;
        if c == turn && !app.s.is_over() {
            style = style.add_modifier(Modifier::BOLD);
        }
        let low = app
            .s
            .clocks
            .as_ref()
            .is_some_and(|k| k.remaining(c, now).as_secs() < 10);
        lines.push(Line::from(vec![
            Span::styled(left, style),
            Span::raw(" ".repeat(pad)),
            Span::styled(
                clock,
                if low {
                    Style::default()
                        .fg(theme.error)
                        .add_modifier(Modifier::BOLD)
                } else {
                    style
                },
            ),
        ]));
    }
    let state = state_line(app, turn, area);
    lines.push(Line::from(state));
    let game_h = 5u16.min(area.height);
    let game_area = Rect::new(area.x, area.y, area.width, game_h);
    Paragraph::new(lines)
        .block(block("Game", theme))
        .render_ref(game_area, buf);

    // Search panel, eval graph, moves.
    let rest = area.height.saturating_sub(game_h);
    // A drill has no evaluations to graph.
    let graph_h = if rest >= 26 && app.drill().is_none() {
        7
    } else {
        0
    };
    let search_h = if app.drill().is_some() {
        // A drill's moves are few: its panel takes all but four rows.
        rest.saturating_sub(4).max(5).min(rest)
    } else {
        ((rest - graph_h) * 55 / 100).max(5).min(rest)
    };
    let moves_h = rest.saturating_sub(search_h + graph_h);
    let search_area = Rect::new(area.x, area.y + game_h, area.width, search_h);
    match (app.trainer(), app.drill()) {
        (Some(t), _) => {
            crate::ui::screens::chess::trainer::draw::draw_trainer_panel(buf, app, t, search_area)
        }
        (None, Some(d)) => {
            crate::ui::screens::chess::drill::draw::draw_drill_panel(buf, app, d, search_area)
        }
        (None, None) if app.repertoire().is_some() => {
            if let Some(d) = app.repertoire() {
                crate::ui::screens::chess::repdrill::draw::draw_repertoire_panel(
                    buf,
                    app,
                    d,
                    search_area,
                )
            }
        }
        (None, None) if app.ui.openings.shown => draw_openings_here(buf, app, search_area),
        (None, None) => super::search::draw_search(buf, app, search_area),
    }
    if graph_h > 0 {
        let graph_area = Rect::new(area.x, area.y + game_h + search_h, area.width, graph_h);
        super::search::draw_eval_graph(buf, app, graph_area);
    }
    let moves_area = Rect::new(
        area.x,
        area.y + game_h + search_h + graph_h,
        area.width,
        moves_h,
    );
    if moves_area.height < 3 {
        return;
    }
    let rows = move_rows(app);
    let scroll_note = |scroll: usize| {
        if scroll > 0 {
            format!("(↑{scroll})")
        } else {
            String::new()
        }
    };
    // The titles decide how many rows a long opening name takes inside;
    // the scroll note never changes that (it is on the top border).
    let head = moves_titles(app.s.opening.text(), &scroll_note(1), moves_area.width)
        .inside
        .len();
    let visible = (moves_area.height.saturating_sub(2) as usize)
        .saturating_sub(head)
        .max(1);
    let max_scroll = rows.len().saturating_sub(visible);
    let scroll = app.s.scroll.min(max_scroll);
    let end = rows.len() - scroll;
    let start = end.saturating_sub(visible);
    let titles = moves_titles(app.s.opening.text(), &scroll_note(scroll), moves_area.width);
    let accent = Style::default().fg(theme.accent);
    let lines: Vec<Line> = titles
        .inside
        .iter()
        .map(|r| Line::from(Span::styled(r.clone(), accent)))
        .chain(
            rows[start..end]
                .iter()
                .map(|r| Line::from(Span::styled(r.clone(), text))),
        )
        .collect();
    Paragraph::new(lines)
        .block(block_with_bottom(&titles.top, titles.bottom, theme))
        .render_ref(moves_area, buf);
}

/// The game box's third line: the result, pause or check, else the clock
/// and (on the play screen) the repertoire positions due.
fn state_line(app: &ChessView<'_>, turn: Color, area: Rect) -> Span<'static> {
    let theme = app.ui.theme();
    let dim = Style::default().fg(theme.dim);
    if let Some(e) = app.s.game.ending {
        Span::styled(
            format!("{}  {}", e.result.pgn(), describe_ending(e)),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        )
    } else if app.s.paused {
        Span::styled("Paused", Style::default().fg(theme.accent))
    } else if app.s.board().in_check() {
        Span::styled(
            format!("{} is in check", color_name(turn)),
            Style::default().fg(theme.error),
        )
    } else {
        let mut tc = app
            .s
            .time
            .map_or("no clock".to_string(), |t| format!("{t} clock"));
        // The play screen says when repertoire positions wait.
        if app.trainer().is_none()
            && app.drill().is_none()
            && app.repertoire().is_none()
            && let Some(n) = app.ui.openings.due.filter(|&n| n > 0)
        {
            let due = format!(
                "{n} repertoire move{} due ({})",
                if n == 1 { "" } else { "s" },
                key_label(app.ui, Action::Repertoire)
            );
            let both = format!("{tc} · {due}");
            // Narrow: the count matters more than "no clock" (the clocks
            // are beside the names).
            tc = if both.chars().count() + 4 <= area.width as usize {
                both
            } else {
                due
            };
        }
        Span::styled(tc, dim)
    }
}

/// "1. e4 e5" rows of the move list.
pub fn move_rows(app: &ChessView<'_>) -> Vec<String> {
    let mut rows = Vec::new();
    let mut b = app.s.game.start().clone();
    let mut cur = String::new();
    for (i, &m) in app.s.game.moves().iter().enumerate() {
        let n = b.chess().fullmoves().get();
        let san = b.san(m);
        if b.turn() == Color::White {
            cur = format!("{n:>3}. {san:<8}");
        } else if i == 0 {
            cur = format!("{n:>3}. {:<8}{san}", "...");
            rows.push(std::mem::take(&mut cur));
        } else {
            cur.push_str(&san);
            rows.push(std::mem::take(&mut cur));
        }
        b = b.play(m);
    }
    if !cur.is_empty() {
        rows.push(cur);
    }
    rows
}
