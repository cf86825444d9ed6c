//! Drawing: a pure function of the app state (`draw` never changes it).

// The app's state (read only: views never call its update logic).
use super::app::{
    App, DIALOG_FIELDS, Mode, NewGameDialog, Overlay, PROMOTIONS, SIDES, StatusKind, time_choices,
};
use super::input::color_name;
use super::keymap::Action;
use super::text::{describe_ending, san_line, score_text, shown_to};
use super::theme::Theme;
use crate::engine::Level;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use shakmaty::{Color, Piece, Position, Role, Square};
use std::time::Instant;

mod board;
mod evalview;
mod explorer;
mod house;
mod overlays;
mod panel;
mod replay;
mod search;
mod trainer;

// Geometry lives in `ui::layout` (the app maps clicks with it); re-exported
// for the views' and tests' convenience.
pub use super::layout::{
    BoardGeometry, Layout, MIN_H, MIN_W, ReplayPanel, layout, replay_panel, replay_rows,
};

use board::draw_board;
pub use board::{draw_plain_board, glyph, sprite, sprite_fit};
use overlays::{centered, draw_dialog, draw_help, draw_message, draw_promotion, draw_status};
pub use panel::move_rows;
use panel::{block, draw_panel, key_label};

/// Draws everything.
pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    let area = frame.area();
    let buf = frame.buffer_mut();
    draw_to(buf, area, app, now);
}

/// Draws into a buffer (used by `draw`, render tests and the benchmark).
pub fn draw_to(buf: &mut Buffer, area: Rect, app: &App, now: Instant) {
    let theme = app.theme();
    let base = Style::default().fg(theme.text).bg(theme.background);
    buf.set_style(area, base);
    if let Some(ex) = &app.explorer {
        explorer::draw_explorer(buf, app, ex, area);
        if matches!(app.overlay, Overlay::Help { .. }) {
            draw_help(buf, app, area);
        }
        return;
    }
    if let Some(ex) = &app.house_explorer {
        match ex {
            crate::ui::explorer::AnyExplorer::Zh(e) => explorer::draw_explorer(buf, app, e, area),
            crate::ui::explorer::AnyExplorer::Bug(e) => explorer::draw_explorer(buf, app, e, area),
        }
        if matches!(app.overlay, Overlay::Help { .. }) {
            draw_help(buf, app, area);
        }
        return;
    }
    // An unfinished Crazyhouse/Bughouse game: the offer stands on its own
    // screen (or a blank one), not over the chess board.
    if let Overlay::ResumeHouse { summary, .. } = &app.overlay
        && (app.house.is_some() || layout(area).is_some())
    {
        if let Some(h) = &app.house {
            house::draw_house(buf, app, h, area, now);
        }
        draw_message(
            buf,
            theme,
            area,
            "Unfinished game",
            &[
                "An unfinished game was found:",
                summary,
                "",
                "Enter or y = resume    n = new game    q = quit",
            ],
        );
        return;
    }
    if let Some(h) = &app.house {
        house::draw_house(buf, app, h, area, now);
        match &app.overlay {
            Overlay::Help { .. } => draw_help(buf, app, area),
            Overlay::Files(p) => replay::draw_files(buf, app, p, area),
            Overlay::NewGame(d) => draw_dialog(buf, app, d, area),
            Overlay::Text { title, lines } => {
                let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
                draw_message(buf, app.theme(), area, title, &lines)
            }
            _ => {}
        }
        if let Some(o) = &app.opening {
            replay::draw_opening(buf, app, o, area);
        }
        return;
    }
    let Some(l) = layout(area) else {
        let msg = format!(
            "Terminal too small (needs {MIN_W} x {MIN_H}, have {} x {}). Enlarge it or press q to quit.",
            area.width, area.height
        );
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .alignment(Alignment::Center)
            .style(base)
            .render_ref(area, buf);
        return;
    };
    draw_board(buf, app, &l.board);
    if let Some(bar) = l.eval_bar.filter(|_| app.editor.is_none()) {
        search::draw_eval_bar(buf, app, bar);
    }
    match (&app.replay, &app.editor) {
        (_, Some(e)) => trainer::draw_editor_panel(buf, app, e, l.panel),
        (Some(r), None) => replay::draw_replay_panel(buf, app, r, l.panel, now),
        (None, None) => draw_panel(buf, app, l.panel, now),
    }
    draw_status(buf, app, l.status);
    match &app.overlay {
        Overlay::None => {}
        Overlay::Games { selected } => {
            if let Some(r) = &app.replay {
                replay::draw_games(buf, app, r, *selected, area);
            }
        }
        Overlay::Files(p) => replay::draw_files(buf, app, p, area),
        Overlay::Trainer(m) => trainer::draw_trainer_menu(buf, app, m, area),
        Overlay::Help { .. } => draw_help(buf, app, area),
        Overlay::Eval { simple } => evalview::draw_eval(buf, app, *simple, area),
        Overlay::NewGame(d) => draw_dialog(buf, app, d, area),
        Overlay::Promotion { choice, .. } => draw_promotion(buf, app, *choice, area),
        Overlay::ConfirmResign => draw_message(
            buf,
            theme,
            area,
            "Resign",
            &[
                "Resign this game?",
                "",
                "y = resign    any other key = play on",
            ],
        ),
        Overlay::DrawOffer => {
            let offering = color_name(app.board().turn());
            let answering = color_name(!app.board().turn());
            let line = format!("{offering} offers a draw. {answering}, do you accept?");
            draw_message(
                buf,
                theme,
                area,
                "Draw offer",
                &[&line, "", "y = accept    any other key = decline"],
            );
        }
        Overlay::Text { title, lines } => {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            draw_message(buf, theme, area, title, &lines)
        }
        Overlay::ResumeHouse { summary, .. } => draw_message(
            buf,
            theme,
            area,
            "Unfinished game",
            &[
                "An unfinished game was found:",
                summary,
                "",
                "Enter or y = resume    n = new game    q = quit",
            ],
        ),
        Overlay::Resume { summary, .. } => draw_message(
            buf,
            theme,
            area,
            "Unfinished game",
            &[
                "An unfinished game was found:",
                summary,
                "",
                "Enter or y = resume    n = new game    q = quit",
            ],
        ),
    }
    if let Some(o) = &app.opening {
        replay::draw_opening(buf, app, o, area);
    }
    if let Some(p) = &app.preparing {
        trainer::draw_preparing(buf, app, p, area);
    }
}

/// Small extension so widgets render by reference into a buffer.
pub(super) trait RenderRef {
    fn render_ref(self, area: Rect, buf: &mut Buffer);
}

impl<W: ratatui::widgets::Widget> RenderRef for W {
    fn render_ref(self, area: Rect, buf: &mut Buffer) {
        self.render(area, buf);
    }
}
