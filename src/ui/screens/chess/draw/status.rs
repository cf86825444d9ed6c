//! The chess screens' status lines and the promotion choice.

use crate::ui::screens::chess::draw::view::*;

pub(crate) fn draw_status(buf: &mut Buffer, app: &ChessView<'_>, area: Rect) {
    let theme = app.ui.theme();
    let line1 = if app.s.move_box_shown() {
        let mut spans = vec![
            Span::styled("Move: ", Style::default().fg(theme.accent)),
            if app.s.pick.typing.refused {
                // Refused: on show, struck out, until a key types anew.
                Span::styled(
                    format!("{}▏", app.s.pick.typing.text),
                    Style::default()
                        .fg(theme.dim)
                        .add_modifier(Modifier::CROSSED_OUT),
                )
            } else {
                Span::styled(
                    format!("{}▏", app.s.pick.typing.text),
                    Style::default().fg(theme.text).add_modifier(Modifier::BOLD),
                )
            },
        ];
        if let Some(s) = &app.ui.status {
            let st = match s.kind {
                StatusKind::Error => Style::default().fg(theme.error),
                StatusKind::Info => Style::default().fg(theme.dim),
            };
            spans.push(Span::raw("  "));
            spans.push(Span::styled(s.text.clone(), st));
        }
        Line::from(spans)
    } else if let Some(s) = &app.ui.status {
        Line::from(super::widgets::status_span(s, theme))
    } else if app.human_to_move() {
        // The hint is no error: on a narrow screen it says less rather
        // than wrap over the board.
        let side = color_name(app.s.board().turn());
        let long = format!(
            "{side} to move: type a move (e4, Nf3, O-O) or pick squares with arrows+Enter or the mouse"
        );
        let text = if long.chars().count() <= area.width as usize {
            long
        } else {
            format!("{side} to move: type a move (e4, Nf3, O-O) or use arrows+Enter")
        };
        Line::from(Span::styled(text, Style::default().fg(theme.dim)))
    } else {
        Line::from("")
    };
    if app.replay().is_some() {
        draw_replay_status(buf, app, line1, area);
        return;
    }
    // The trainer's game sits over the game in progress: q goes back.
    let quit = if app.ui.below == 0 {
        "quit"
    } else if app.trainer().is_some() {
        "back to your game"
    } else if app.drill().is_some() {
        "back"
    } else {
        "quit"
    };
    let drill = [
        (Action::Help, "help"),
        (Action::Hint, "hint"),
        (Action::NewGame, "next"),
        (Action::Puzzles, "theme"),
        (Action::Explore, "explore"),
        (Action::Flip, "flip"),
        (Action::Quit, quit),
    ];
    let game = [
        (Action::Help, "help"),
        (Action::NewGame, "new"),
        (Action::Takeback, "takeback"),
        (Action::Hint, "hint"),
        (Action::Openings, "openings"),
        (Action::Flip, "flip"),
        (Action::OfferDraw, "draw"),
        (Action::Resign, "resign"),
        (Action::Quit, quit),
    ];
    let retry = app.drill().is_some_and(|d| d.is_retry());
    let repertoire = [
        (Action::Help, "help"),
        (Action::Hint, "show move"),
        (Action::NewGame, "next"),
        (Action::Flip, "flip"),
        (Action::Quit, "back"),
    ];
    let hints: Vec<(Action, &str)> = match app.drill() {
        None if app.repertoire().is_some() => repertoire.to_vec(),
        Some(_) => drill
            .into_iter()
            .filter(|(a, _)| match a {
                Action::Puzzles => !retry,
                Action::Explore => retry,
                _ => true,
            })
            .collect(),
        None => game.to_vec(),
    };
    let mut spans = Vec::new();
    for (a, label) in hints {
        if app.s.mode == Mode::EngineVsEngine
            && matches!(
                a,
                Action::Takeback | Action::Hint | Action::Resign | Action::OfferDraw
            )
        {
            continue;
        }
        // A finished game: no moves to ask for or take back, nothing to
        // offer or resign (taking back goes on after an engine failure).
        let over = app.s.game.ending.is_some_and(|e| {
            a != Action::Takeback || e.termination != crate::game::Termination::Abandoned
        });
        if over
            && matches!(
                a,
                Action::Takeback | Action::Hint | Action::Resign | Action::OfferDraw
            )
        {
            continue;
        }
        spans.push(Span::styled(
            key_label(app.ui, a),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::styled(
            format!(" {label}  "),
            Style::default().fg(theme.dim),
        ));
    }
    if app.s.mode == Mode::EngineVsEngine && !app.s.is_over() {
        spans.push(Span::styled(
            key_label(app.ui, Action::Pause),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::styled(" pause", Style::default().fg(theme.dim)));
    }
    let footer = crate::ui::view::widgets::fit_footer(spans, area.width);
    Paragraph::new(vec![Line::from(""), footer]).render_ref(area, buf);
    draw_status_message(buf, theme, line1, area);
}

/// The replay screen's status: the move-number box or the message, then
/// its keys.
fn draw_replay_status(buf: &mut Buffer, app: &ChessView<'_>, line1: Line, area: Rect) {
    use crate::ui::keymap::ReplayAction as R;
    let theme = app.ui.theme();
    let key = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let dim = Style::default().fg(theme.dim);
    let line1 = match app.replay().and_then(|r| r.goto.as_ref()) {
        Some(t) => Line::from(vec![
            Span::styled("Go to move: ", Style::default().fg(theme.accent)),
            Span::styled(
                format!("{t}▏"),
                Style::default().fg(theme.text).add_modifier(Modifier::BOLD),
            ),
            Span::styled(
                "  (23 = White's 23rd move, 23b = Black's; Enter goes, Esc cancels)",
                dim,
            ),
        ]),
        None => line1,
    };
    let replay_hints = [
        (R::Previous, R::Next, "step"),
        (R::First, R::Last, "start/end"),
    ];
    let mut spans = Vec::new();
    let label = |a: R| {
        app.ui
            .config
            .replay_keys
            .keys_for(a)
            .first()
            .map(|k| match k.as_str() {
                "Left" => "←".to_string(),
                "Right" => "→".to_string(),
                "Up" => "↑".to_string(),
                "Down" => "↓".to_string(),
                other => other.to_string(),
            })
            .unwrap_or_else(|| "-".into())
    };
    for (a, b, what) in replay_hints {
        let (la, lb) = (label(a), label(b));
        let sep = if la.chars().count() > 1 || lb.chars().count() > 1 {
            "/"
        } else {
            ""
        };
        spans.push(Span::styled(format!("{la}{sep}{lb}"), key));
        spans.push(Span::styled(format!(" {what}  "), dim));
    }
    for (a, what) in [
        (R::Autoplay, "autoplay"),
        (R::GoTo, "go to"),
        (R::Review, "review"),
        (R::PlayFromHere, "play from here"),
        (R::Games, "games"),
        (R::Open, "open"),
    ] {
        spans.push(Span::styled(label(a), key));
        spans.push(Span::styled(format!(" {what}  "), dim));
    }
    for (a, what) in [
        (Action::Openings, "openings"),
        (Action::Help, "help"),
        (Action::Quit, "quit"),
    ] {
        spans.push(Span::styled(key_label(app.ui, a), key));
        spans.push(Span::styled(format!(" {what}  "), dim));
    }
    spans.push(Span::styled("Esc", key));
    spans.push(Span::styled(" back", dim));
    let footer = crate::ui::view::widgets::fit_footer(spans, area.width);
    Paragraph::new(vec![Line::from(""), footer]).render_ref(area, buf);
    draw_status_message(buf, theme, line1, area);
}

pub(crate) fn draw_promotion(buf: &mut Buffer, app: &ChessView<'_>, choice: usize, area: Rect) {
    let theme = app.ui.theme();
    let color = app.s.board().turn();
    let mut spans = Vec::new();
    for (i, role) in PROMOTIONS.iter().enumerate() {
        let p = Piece { color, role: *role };
        let label = format!(
            " {} {} ",
            glyph(p, app.ui.look.ascii || theme.ascii),
            crate::ui::input::role_name(*role)
        );
        let st = if i == choice {
            Style::default()
                .fg(theme.background)
                .bg(theme.accent)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(theme.text)
        };
        spans.push(Span::styled(label, st));
    }
    let r = centered(area, 48, 5);
    Clear.render_ref(r, buf);
    Paragraph::new(vec![
        Line::from(spans),
        Line::from(Span::styled(
            "←/→ choose, Enter confirm, q r b n, Esc cancel",
            Style::default().fg(theme.dim),
        )),
    ])
    .alignment(Alignment::Center)
    .style(Style::default().bg(theme.background))
    .block(block("Promote to", theme))
    .render_ref(r, buf);
}
