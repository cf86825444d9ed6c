//! The two status lines under the Crazyhouse/Bughouse boards: news or the
//! move shown (or, in a game being played, the move being typed and whose
//! move it is), then the keys.

use super::*;
use crate::ui::keymap::ReplayAction;
use crate::ui::screens::house::{HouseReplay, Playing, Show};
use crate::ui::view::widgets::{key_label, status_span};

pub(super) fn draw_house_status(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    p: Option<Playing<'_>>,
    show: &Show,
    area: Rect,
) {
    let theme = app.theme();
    if let Some(p) = p {
        return draw_live_status(buf, app, h, p, show, area);
    }
    let line1 = if let Some(s) = &app.status {
        Line::from(status_span(s, theme))
    } else {
        let mut spans = Vec::new();
        if h.cursor == 0 {
            spans.push(Span::styled(
                format!("{}: the start ({} moves)", show.title, show.moves.len()),
                Style::default().fg(theme.dim),
            ));
        } else {
            spans.push(Span::styled(
                show.describe_move(h.cursor - 1),
                Style::default().fg(theme.text),
            ));
        }
        if h.at_end() {
            let end = show
                .ending
                .clone()
                .unwrap_or_else(|| format!("Result {}", show.result));
            spans.push(Span::styled(
                format!("   {end}"),
                Style::default()
                    .fg(theme.accent)
                    .add_modifier(Modifier::BOLD),
            ));
        } else if let Some(c) = h.chat_so_far().last().filter(|c| c.after_moves == h.cursor) {
            spans.push(Span::styled(
                format!("   {}: {}", show.seat_name(c.from.0, c.from.1), c.text),
                Style::default().fg(theme.accent),
            ));
        }
        Line::from(spans)
    };
    crate::ui::view::overlays::draw_status_message(buf, theme, line1, area);
    let key = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let dim = Style::default().fg(theme.dim);
    let rk = |a: ReplayAction| {
        app.config
            .replay_keys
            .keys_for(a)
            .first()
            .cloned()
            .unwrap_or_else(|| "-".into())
    };
    let autoplay = if h.autoplay.is_some() {
        format!(" stop ({})  ", h.pace_text())
    } else {
        format!(" autoplay ({})  ", h.pace_text())
    };
    let mut spans = vec![
        Span::styled(
            format!("{}/{}", rk(ReplayAction::Previous), rk(ReplayAction::Next)),
            key,
        ),
        Span::styled(" step  ", dim),
        Span::styled(rk(ReplayAction::Autoplay), key),
        Span::styled(autoplay, dim),
        Span::styled(
            format!("{}/{}", rk(ReplayAction::Faster), rk(ReplayAction::Slower)),
            key,
        ),
        Span::styled(" speed  ", dim),
    ];
    if show.boards() == 2 {
        spans.push(Span::styled("Tab", key));
        spans.push(Span::styled(" big board  ", dim));
    }
    for (a, label) in [(Action::Flip, "flip"), (Action::Help, "help")] {
        spans.push(Span::styled(key_label(app, a), key));
        spans.push(Span::styled(format!(" {label}  "), dim));
    }
    if h.games.len() > 1 {
        spans.push(Span::styled(rk(ReplayAction::Games), key));
        spans.push(Span::styled(" games  ", dim));
    }
    spans.push(Span::styled("Esc", key));
    spans.push(Span::styled(" back  ", dim));
    spans.push(Span::styled(key_label(app, Action::Quit), key));
    spans.push(Span::styled(" quit", dim));
    let footer = crate::ui::view::widgets::fit_footer(spans, area.width);
    Paragraph::new(footer).render_ref(Rect::new(area.x, area.y + 1, area.width, 1), buf);
}

/// The status lines of a game being played: the move being typed, news,
/// whose move it is; then the keys.
fn draw_live_status(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    p: Playing<'_>,
    show: &Show,
    area: Rect,
) {
    let l = p.live;
    use crate::ui::screens::house::live::seat_of;
    let theme = app.theme();
    let key = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let dim = Style::default().fg(theme.dim);
    let status_span = app.status.as_ref().map(|s| status_span(s, theme));
    let line1 = if p.pick.typing.shown() {
        let mut spans = vec![
            Span::styled("Move: ", Style::default().fg(theme.accent)),
            Span::styled(
                format!("{}▏", p.pick.typing.text),
                Style::default().fg(theme.text).add_modifier(Modifier::BOLD),
            ),
        ];
        if let Some(s) = status_span {
            spans.push(Span::raw("  "));
            spans.push(s);
        }
        Line::from(spans)
    } else if let Some(s) = status_span {
        Line::from(s)
    } else if let Some(e) = &l.ending {
        Line::from(Span::styled(
            e.clone(),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ))
    } else if let Some(s) = l.human_to_move() {
        let (b, c) = seat_of(s);
        let long = format!(
            "{} to move: type a move (e4, Nf3, N@f3) or pick with the cursor or mouse (your pocket: by your name)",
            l.seat_name(b, c)
        );
        // One row on a narrow screen, so the panel above keeps its rows.
        let text = if long.chars().count() <= usize::from(area.width) {
            long
        } else {
            format!(
                "{} to move: type a move (N@f3) or pick it",
                l.seat_name(b, c)
            )
        };
        Line::from(Span::styled(text, dim))
    } else if h.cursor > 0 {
        Line::from(Span::styled(
            show.describe_move(h.cursor - 1),
            Style::default().fg(theme.text),
        ))
    } else {
        Line::from(Span::styled("The engines think...", dim))
    };
    crate::ui::view::overlays::draw_status_message(buf, theme, line1, area);
    let mut spans = Vec::new();
    let mut push = |k: String, label: &str| {
        spans.push(Span::styled(k, key));
        spans.push(Span::styled(format!(" {label}  "), dim));
    };
    push(key_label(app, Action::Help), "help");
    let people = !l.human_seats().is_empty();
    if l.boards() == 2 && people {
        push("m".into(), "message");
    }
    // A finished game: no hint, takeback or resigning. The game's own
    // keys first: a narrow footer leaves out the tools (the help lists
    // them).
    let playing = people && !l.is_over();
    if playing {
        push(key_label(app, Action::Hint), "hint");
    }
    push(key_label(app, Action::NewGame), "new");
    if playing {
        push(key_label(app, Action::Resign), "resign");
    }
    if l.boards() == 1 && playing {
        push(key_label(app, Action::Takeback), "takeback");
    }
    push(key_label(app, Action::Analyse), "analyse");
    push(key_label(app, Action::EvalBreakdown), "eval");
    push(key_label(app, Action::Explore), "explore");
    push(key_label(app, Action::Flip), "flip");
    if app.below > 0 {
        push(key_label(app, Action::Cancel), "back");
    }
    push(key_label(app, Action::Quit), "quit");
    let footer = crate::ui::view::widgets::fit_footer(spans, area.width);
    Paragraph::new(footer).render_ref(Rect::new(area.x, area.y + 1, area.width, 1), buf);
}
