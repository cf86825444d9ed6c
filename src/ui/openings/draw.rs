//! Drawing the opening explorer: a row a move (games, a White / draws /
//! Black bar with its shares, the average rating), the opening the chosen
//! move leads to underneath.

use super::player::describe;
use super::{LoadState, OpeningsPanel, PlayerStatus, Row};
use crate::db::Stats;
use crate::ui::theme::Theme;
use crate::ui::view::widgets::{block_with_bottom, fit};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use shakmaty::Chess;

/// Games as they fit in six columns: 987, 12,345, 123k, 1.2M.
pub fn games_text(n: u64) -> String {
    match n {
        0..=99_999 => crate::util::thousands(n),
        100_000..=999_999 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// White / draw / Black shares in per cent, summing to 100 (over the
/// games with a result).
pub fn shares(s: &Stats) -> Option<[u64; 3]> {
    let n = s.white + s.draws + s.black;
    if n == 0 {
        return None;
    }
    let w = (s.white * 100 + n / 2) / n;
    let b = (s.black * 100 + n / 2) / n;
    let w = w.min(100);
    let b = b.min(100 - w);
    Some([w, 100 - w - b, b])
}

/// The bar of `width` cells: White's share `█`, draws `▒`, Black's `░`.
fn bar(s: &Stats, width: usize, theme: &Theme) -> Vec<Span<'static>> {
    let Some([w, d, _]) = shares(s) else {
        return vec![Span::raw(" ".repeat(width))];
    };
    let cw = (w as usize * width + 50) / 100;
    let cd = ((w + d) as usize * width + 50) / 100 - cw;
    let cb = width - cw - cd;
    vec![
        Span::styled("█".repeat(cw), Style::default().fg(theme.white_piece)),
        Span::styled("▒".repeat(cd), Style::default().fg(theme.dim)),
        Span::styled("░".repeat(cb), Style::default().fg(theme.black_piece)),
    ]
}

/// What fits in a row of `inner` columns: (bar width, shares, rating).
fn columns(inner: usize) -> (usize, bool, bool) {
    // Marker, SAN and games take 15; shares 10; rating 5.
    let left = inner.saturating_sub(15);
    if left >= 10 + 5 + 6 {
        (left - 15, true, true)
    } else if left >= 10 + 4 {
        (left - 10, true, false)
    } else {
        (left, false, false)
    }
}

fn row_line(r: &Row, selected: bool, mine: bool, inner: usize, theme: &Theme) -> Line<'static> {
    let (bar_w, show_shares, show_elo) = columns(inner);
    let text = Style::default().fg(theme.text);
    let mark = if selected { "▶" } else { " " };
    let san = if mine {
        format!("{}★", fit(&r.san, 6))
    } else {
        fit(&r.san, 7)
    };
    let mut spans = vec![
        Span::styled(
            format!("{mark}{san:<7}"),
            if selected {
                text.add_modifier(Modifier::BOLD | Modifier::REVERSED)
            } else {
                text.add_modifier(Modifier::BOLD)
            },
        ),
        Span::styled(format!("{:>6} ", games_text(r.stats.games())), text),
    ];
    if bar_w > 0 {
        spans.extend(bar(&r.stats, bar_w, theme));
    }
    if show_shares {
        // 8 columns, 9 when one share is 100.
        let pct =
            shares(&r.stats).map_or("-".to_string(), |[w, d, b]| format!("{w:>2}/{d:>2}/{b:>2}"));
        spans.push(Span::styled(
            format!(" {pct:>9}"),
            Style::default().fg(theme.dim),
        ));
    }
    if show_elo {
        let elo = r
            .stats
            .average_rating()
            .map_or("   -".to_string(), |e| format!("{e:>4}"));
        spans.push(Span::styled(
            format!(" {elo}"),
            Style::default().fg(theme.dim),
        ));
    }
    Line::from(spans)
}

/// The explorer in `area`, for the position `pos` reached at `ply`.
pub fn draw_openings(
    buf: &mut Buffer,
    panel: &OpeningsPanel,
    pos: &Chess,
    ply: usize,
    area: Rect,
    theme: &Theme,
) {
    if area.height < 3 || area.width < 12 {
        return;
    }
    let inner = area.width.saturating_sub(2) as usize;
    let rows_h = area.height.saturating_sub(2) as usize;
    let rows = panel.rows_for(pos);
    let total = rows.map(|r| r.iter().map(|m| m.stats.games()).sum::<u64>());
    let title = fit(&title(panel, total, inner), inner.saturating_sub(2));
    let mut lines: Vec<Line> = Vec::new();
    player_lines(&mut lines, panel, inner, theme);
    match rows {
        Some(rows) if !rows.is_empty() => {
            move_rows(&mut lines, panel, pos, rows, rows_h, inner, theme)
        }
        Some(_) => no_game_lines(&mut lines, panel, ply, inner, theme),
        None => waiting_line(&mut lines, panel, inner, theme),
    }
    collection_notes(&mut lines, panel, rows_h, inner, theme);
    let opening = panel
        .selected_move(pos)
        .and_then(|r| r.opening.clone())
        .map(|o| fit(&o, inner.saturating_sub(2)));
    while lines.len() + 1 < rows_h {
        lines.push(Line::from(""));
    }
    Paragraph::new(lines)
        .block(block_with_bottom(&title, opening, theme))
        .render(area, buf);
}

/// The panel's title: whose games and how many, or how far indexing is.
fn title(panel: &OpeningsPanel, total: Option<u64>, inner: usize) -> String {
    let who = panel.player.as_ref().map(|p| describe(&p.filter));
    match (&panel.load, total, &who) {
        (LoadState::Loading { share, .. }, _, _) => {
            format!("Openings · indexing {:.0}%", share * 100.0)
        }
        (_, Some(n), Some(who)) if n > 0 => {
            // Whose games and how many matter more than the panel's name.
            let full = format!("Openings · {who} · {} games", games_text(n));
            if full.chars().count() + 2 <= inner {
                full
            } else {
                format!("{who} · {} games", games_text(n))
            }
        }
        (_, _, Some(who)) => format!("Openings · {who}"),
        (_, Some(n), None) if n > 0 => format!("Openings · {} games", games_text(n)),
        _ => "Openings".to_string(),
    }
}

/// The player box being typed, and where the player's games stand.
fn player_lines(
    lines: &mut Vec<Line<'static>>,
    panel: &OpeningsPanel,
    inner: usize,
    theme: &Theme,
) {
    let dim = Style::default().fg(theme.dim);
    if let Some(b) = &panel.player_box {
        let text = Style::default().fg(theme.text);
        lines.push(Line::from(vec![
            Span::styled("Player: ", dim),
            Span::styled(
                fit(&format!("{}\u{2588}", b.name), inner.saturating_sub(8)),
                text.add_modifier(Modifier::BOLD),
            ),
        ]));
        lines.push(Line::from(Span::styled(
            fit(&format!("Tab {} · Enter · Esc", b.color_text()), inner),
            dim,
        )));
    }
    if let Some(p) = &panel.player {
        let line = match &p.status {
            PlayerStatus::Reading(share) => Some((
                format!(
                    "Reading the games of {} {:.0}%…",
                    describe(&p.filter),
                    share * 100.0
                ),
                dim,
            )),
            PlayerStatus::Failed(why) => Some((why.clone(), Style::default().fg(theme.error))),
            PlayerStatus::Ready(0) => Some((
                format!("No game of {} in your collections.", describe(&p.filter)),
                Style::default().fg(theme.error),
            )),
            PlayerStatus::Ready(_) => None,
        };
        if let Some((t, style)) = line {
            lines.push(Line::from(Span::styled(fit(&t, inner), style)));
        }
    }
}

/// The header and the moves that fit, scrolled to keep the selected one
/// in view (the selected move's opening is on the bottom border).
fn move_rows(
    lines: &mut Vec<Line<'static>>,
    panel: &OpeningsPanel,
    pos: &Chess,
    rows: &[Row],
    rows_h: usize,
    inner: usize,
    theme: &Theme,
) {
    let dim = Style::default().fg(theme.dim);
    let (bar_w, show_shares, show_elo) = columns(inner);
    let mut head = format!(" {:<7}{:>6} ", "Move", "Games");
    head.push_str(&format!(
        "{:<w$}",
        if bar_w >= 5 { "Score" } else { "" },
        w = bar_w
    ));
    if show_shares {
        head.push_str("  W/ D/ B ");
    }
    if show_elo {
        head.push_str("  Elo");
    }
    lines.push(Line::from(Span::styled(fit(&head, inner), dim)));
    // Rows that fit, scrolled to keep the selected one in view;
    // the selected move's opening is on the bottom border.
    let room = rows_h.saturating_sub(lines.len()).max(1);
    let first = panel
        .selected
        .saturating_sub(room - 1)
        .min(rows.len().saturating_sub(room));
    for (i, r) in rows.iter().enumerate().skip(first).take(room) {
        let mine = panel
            .repertoires
            .as_ref()
            .is_some_and(|reps| reps.has(pos, r.mv));
        lines.push(row_line(r, i == panel.selected, mine, inner, theme));
    }
}

/// No game reached the position: said, with why when it is past the
/// indexed plies.
fn no_game_lines(
    lines: &mut Vec<Line<'static>>,
    panel: &OpeningsPanel,
    ply: usize,
    inner: usize,
    theme: &Theme,
) {
    let dim = Style::default().fg(theme.dim);
    let who = panel.player.as_ref().map(|p| describe(&p.filter));
    let none = match &who {
        Some(who) => format!("No game of {who} reached this position."),
        None => "No game in your collections reached this position.".to_string(),
    };
    // (A player with no game at all is said above.)
    let no_player_games = panel
        .player
        .as_ref()
        .is_some_and(|p| p.status == PlayerStatus::Ready(0));
    if !no_player_games {
        lines.push(Line::from(Span::styled(fit(&none, inner), dim)));
    }
    if ply >= crate::db::DEFAULT_MAX_PLIES {
        lines.push(Line::from(Span::styled(
            fit(
                &format!(
                    "Games are indexed for their first {} plies.",
                    crate::db::DEFAULT_MAX_PLIES
                ),
                inner,
            ),
            dim,
        )));
    }
}

/// The answer is not in yet: what the explorer is doing.
fn waiting_line(
    lines: &mut Vec<Line<'static>>,
    panel: &OpeningsPanel,
    inner: usize,
    theme: &Theme,
) {
    let dim = Style::default().fg(theme.dim);
    let what = match &panel.load {
        LoadState::Loading { what, share } => {
            format!(
                "{} {:.0}%…",
                crate::ui::text::capitalise(what),
                share * 100.0
            )
        }
        _ => "Looking up the position…".to_string(),
    };
    lines.push(Line::from(Span::styled(fit(&what, inner), dim)));
}

/// Under the moves: how to add games when there are none, and the first
/// collection that could not be opened.
fn collection_notes(
    lines: &mut Vec<Line<'static>>,
    panel: &OpeningsPanel,
    rows_h: usize,
    inner: usize,
    theme: &Theme,
) {
    let dim = Style::default().fg(theme.dim);
    if let LoadState::Loaded {
        collections,
        errors,
    } = &panel.load
    {
        let empty = collections.iter().all(|(_, n)| *n == 0);
        if empty && lines.len() + 2 <= rows_h {
            lines.push(Line::from(""));
            lines.push(Line::from(Span::styled(
                fit(
                    "Your saved games show here; `kibitz db add FILE.pgn` adds more.",
                    inner,
                ),
                dim,
            )));
        }
        if let Some(e) = errors.first()
            && lines.len() < rows_h
        {
            lines.push(Line::from(Span::styled(
                fit(e, inner),
                Style::default().fg(theme.error),
            )));
        }
    }
}
