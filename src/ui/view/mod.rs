//! Drawing: a pure function of the app state (`draw` never changes it).

use super::app::{
    App, DIALOG_FIELDS, Mode, NewGameDialog, Overlay, PROMOTIONS, SIDES, StatusKind, color_name,
    describe_ending, san_line, score_text, shown_to, time_choices,
};
use super::config::Action;
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
mod overlays;
mod panel;
mod replay;
mod search;
mod trainer;

pub use replay::{ReplayPanel, replay_panel, replay_rows};

use board::draw_board;
pub use board::{draw_plain_board, glyph, sprite, sprite_fit};
use overlays::{centered, draw_dialog, draw_help, draw_message, draw_promotion, draw_status};
pub use panel::move_rows;
use panel::{block, draw_panel, key_label};

/// The smallest terminal the app draws in.
pub const MIN_W: u16 = 58;
pub const MIN_H: u16 = 12;
const PANEL_MIN_W: u16 = 30;
const STATUS_H: u16 = 2;

/// Where the board sits on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Top-left of the a8 square (h1 when flipped).
    pub x: u16,
    pub y: u16,
    pub sq_w: u16,
    pub sq_h: u16,
}

impl BoardGeometry {
    /// The square under a screen cell.
    pub fn square_at(&self, col: u16, row: u16, flipped: bool) -> Option<Square> {
        if col < self.x || row < self.y {
            return None;
        }
        let c = (col - self.x) / self.sq_w;
        let r = (row - self.y) / self.sq_h;
        if c >= 8 || r >= 8 {
            return None;
        }
        let (file, rank) = if flipped { (7 - c, r) } else { (c, 7 - r) };
        Some(Square::from_coords(
            shakmaty::File::new(u32::from(file)),
            shakmaty::Rank::new(u32::from(rank)),
        ))
    }

    /// Screen rectangle of a square.
    pub fn rect_of(&self, sq: Square, flipped: bool) -> Rect {
        let (f, r) = (sq.file() as u16, sq.rank() as u16);
        let (c, row) = if flipped { (7 - f, r) } else { (f, 7 - r) };
        Rect::new(
            self.x + c * self.sq_w,
            self.y + row * self.sq_h,
            self.sq_w,
            self.sq_h,
        )
    }
}

pub struct Layout {
    pub board: BoardGeometry,
    /// The eval bar beside the board, when there is room.
    pub eval_bar: Option<Rect>,
    pub panel: Rect,
    pub status: Rect,
}

/// Square sizes from large to small: (width, height) in cells.
const SIZES: [(u16, u16); 5] = [(11, 5), (9, 4), (7, 3), (5, 2), (3, 1)];

/// The screen layout, or `None` when the terminal is too small.
pub fn layout(area: Rect) -> Option<Layout> {
    if area.width < MIN_W || area.height < MIN_H {
        return None;
    }
    let avail_h = area.height - STATUS_H;
    let (sq_w, sq_h) = SIZES
        .iter()
        .copied()
        .find(|&(w, h)| 2 + 8 * w + 1 + PANEL_MIN_W <= area.width && 8 * h < avail_h)?;
    let board_w = 2 + 8 * sq_w;
    let board_h = 8 * sq_h + 1;
    let top = area.y + (avail_h - board_h) / 2;
    let board = BoardGeometry {
        x: area.x + 2,
        y: top,
        sq_w,
        sq_h,
    };
    // The eval bar takes four columns (a gap and three for the bar, room
    // for "1.5" or "M12").
    let bar = board_w + 1 + 4 + PANEL_MIN_W <= area.width;
    let eval_bar = bar.then(|| Rect::new(area.x + board_w + 1, top, 3, 8 * sq_h));
    let panel_x = area.x + board_w + if bar { 5 } else { 1 };
    let panel = Rect::new(panel_x, area.y, area.width - (panel_x - area.x), avail_h);
    let status = Rect::new(area.x, area.y + avail_h, area.width, STATUS_H);
    Some(Layout {
        board,
        eval_bar,
        panel,
        status,
    })
}

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
        if matches!(app.overlay, Overlay::Help) {
            draw_help(buf, app, area);
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
        Overlay::Help => draw_help(buf, app, area),
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
