//! Drawing: a pure function of the app state (`draw` never changes it).

// The app's state (read only: views never call its update logic).
pub(crate) use super::input::color_name;
pub(crate) use super::keymap::Action;
pub(crate) use super::screens::chess::game::{ChessGame, TaskView};
pub(crate) use super::state::{
    DIALOG_FIELDS, Mode, NewGameDialog, Overlay, PROMOTIONS, SIDES, Shared, StatusKind,
    time_choices,
};
pub(crate) use super::text::{capitalise, describe_ending, san_line, score_text, shown_to};
pub(crate) use super::theme::Theme;
pub(crate) use crate::engine::Level;
pub(crate) use ratatui::buffer::Buffer;
pub(crate) use ratatui::layout::{Alignment, Rect};
pub(crate) use ratatui::style::{Modifier, Style};
pub(crate) use ratatui::text::{Line, Span};
pub(crate) use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
pub(crate) use shakmaty::{Color, Piece, Position, Role, Square};
pub(crate) use std::time::Instant;

pub(crate) mod board;
pub(crate) mod evalbar;
mod files;
mod menus;
pub(crate) mod overlays;
pub(crate) mod widgets;

// Geometry lives in `ui::layout` (the app maps clicks with it); re-exported
// for the views' and tests' convenience.
pub use super::layout::{
    BoardGeometry, Layout, MIN_H, MIN_W, ReplayPanel, layout, replay_panel, replay_rows,
};

pub use board::{draw_plain_board, glyph, sprite, sprite_fit};
pub(crate) use overlays::{centered, draw_dialog, draw_help, draw_message, popup};
pub(crate) use widgets::block;

/// Says the terminal is too small; true if it is.
pub(crate) fn too_small(buf: &mut Buffer, area: Rect, ui: &Shared, fits: bool) -> bool {
    if fits {
        return false;
    }
    let theme = ui.theme();
    let msg = format!(
        "Terminal too small (needs {MIN_W} x {MIN_H}, have {} x {}). Enlarge it or press q to quit.",
        area.width, area.height
    );
    Paragraph::new(msg)
        .wrap(Wrap { trim: true })
        .alignment(Alignment::Center)
        .style(Style::default().fg(theme.text).bg(theme.background))
        .render_ref(area, buf);
    true
}

/// The overlays above every screen (`replaying`: the help lists the
/// replay keys), and the progress of a file being opened or tables being
/// prepared.
pub fn draw_overlays(buf: &mut Buffer, area: Rect, ui: &Shared, replaying: bool) {
    let theme = ui.theme();
    match &ui.overlay {
        Overlay::Help { scroll } => draw_help(buf, ui, replaying, *scroll, area),
        Overlay::Files(p) => files::draw_files(buf, ui, p, area),
        Overlay::NewGame(d) => draw_dialog(buf, ui, d, area),
        Overlay::Trainer(m) => menus::draw_trainer_menu(buf, ui, m, area),
        Overlay::PuzzleThemes { themes, selected } => {
            menus::draw_theme_menu(buf, ui, themes, *selected, area)
        }
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
        Overlay::Text { title, lines } => {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            draw_message(buf, theme, area, title, &lines)
        }
        Overlay::SaveAs { input } => draw_message(
            buf,
            theme,
            area,
            "Save the game",
            &[
                "File name (later moves are saved there too):",
                &format!("{input}\u{2588}"),
                "",
                "Enter = save    Esc = cancel    Ctrl+u = clear",
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
        // The chess screen draws its own (promotion, confirmations...).
        _ => {}
    }
    if let Some(o) = &ui.opening {
        files::draw_opening(buf, ui, o, area);
    }
    if let Some(p) = &ui.trainer.preparing {
        menus::draw_preparing(buf, ui, p, area);
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

/// The mark of a game kept in memory only (no file, or its saving fails):
/// " not saved " at the right of the top row, for as long as it is so.
pub fn draw_unsaved_mark(buf: &mut Buffer, area: Rect, ui: &Shared) {
    const MARK: &str = " not saved ";
    let w = MARK.chars().count() as u16;
    if area.width < w + 4 || area.height == 0 {
        return;
    }
    let theme = ui.theme();
    let style = Style::default()
        .fg(theme.background)
        .bg(theme.error)
        .add_modifier(Modifier::BOLD);
    buf.set_string(area.x + area.width - w - 2, area.y, MARK, style);
}

/// Plain mode: every cell of `area` in ASCII, for a terminal whose locale
/// is not UTF-8 (where box drawing and figurines would come out as
/// several wrong characters each, breaking the layout). Frames become
/// `+ - |`, markers and pieces letters; anything else unknown `?`.
pub fn asciify(buf: &mut Buffer, area: Rect) {
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let Some(cell) = buf.cell_mut((x, y)) else {
                continue;
            };
            let sym = cell.symbol();
            if sym.is_ascii() {
                continue;
            }
            let plain = match sym.chars().next().unwrap_or(' ') {
                '─' | '━' | '═' | '╌' | '┄' => "-",
                '│' | '┃' | '║' | '╎' | '┆' => "|",
                '┌' | '┐' | '└' | '┘' | '╭' | '╮' | '╰' | '╯' | '├' | '┤' | '┬' | '┴' | '┼'
                | '╔' | '╗' | '╚' | '╝' => "+",
                '▶' | '►' | '→' | '⇒' | '›' | '»' => ">",
                '◀' | '◄' | '←' | '‹' | '«' => "<",
                '↑' | '▲' => "^",
                '↓' | '▼' => "v",
                '○' | '◦' => "o",
                '●' | '•' | '·' | '∙' => "*",
                '…' => "~",
                '█' | '▀' | '▄' | '▌' | '▐' | '■' | '░' | '▒' | '▓' => "#",
                '♔' | '♚' => "K",
                '♕' | '♛' => "Q",
                '♖' | '♜' => "R",
                '♗' | '♝' => "B",
                '♘' | '♞' => "N",
                '♙' | '♟' => "P",
                '✓' | '✔' => "v",
                '✗' | '✘' | '×' => "x",
                '±' => "+-",
                '–' | '—' => "-",
                '≈' => "~",
                ' ' => " ",
                _ => "?",
            };
            cell.set_symbol(plain);
        }
    }
}
