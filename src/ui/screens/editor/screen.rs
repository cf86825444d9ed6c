//! The board editor screen: set up a position for the endgame trainer.

use super::Editor;
use crate::ui::prelude::*;
use crate::ui::screens::chess::trainer as tr;
use crate::ui::state::screen::{Screen, screen_any};

pub struct EditorScreen {
    pub ed: Editor,
}

impl EditorScreen {
    /// The editor on `board` (or an empty board); says how it works.
    pub fn new(board: Option<&Board>, ui: &mut Shared) -> EditorScreen {
        ui.info(
            "Board editor: arrows move, KQRBNP/kqrbnp put a piece, Space or Del empties, Tab side to move, f FEN, Enter play, Esc back.",
        );
        EditorScreen {
            ed: Editor::new(board),
        }
    }
}

impl Screen for EditorScreen {
    fn key(&mut self, ui: &mut Shared, k: KeyEvent, now: Instant) {
        let ed = &mut self.ed;
        // Typing a FEN.
        if let Some(text) = &mut ed.fen {
            match k.code {
                KeyCode::Enter => {
                    let fen = std::mem::take(text);
                    ed.fen = None;
                    match ed.load_fen(&fen) {
                        Ok(()) => ui.info("Position taken from the FEN."),
                        Err(e) => ui.error(e),
                    }
                }
                KeyCode::Esc => ed.fen = None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char(c) if text.len() < 100 => text.push(c),
                _ => {}
            }
            return;
        }
        let step = |sq: Square, df: i32, dr: i32| {
            let f = (sq.file() as i32 + df).clamp(0, 7) as u32;
            let r = (sq.rank() as i32 + dr).clamp(0, 7) as u32;
            Square::from_coords(shakmaty::File::new(f), shakmaty::Rank::new(r))
        };
        let flip = if ui.look.flipped { -1 } else { 1 };
        match k.code {
            KeyCode::Up => ed.cursor = step(ed.cursor, 0, flip),
            KeyCode::Down => ed.cursor = step(ed.cursor, 0, -flip),
            KeyCode::Left => ed.cursor = step(ed.cursor, -flip, 0),
            KeyCode::Right => ed.cursor = step(ed.cursor, flip, 0),
            KeyCode::Char(' ') | KeyCode::Delete | KeyCode::Backspace | KeyCode::Char('x') => {
                ed.put(None);
            }
            KeyCode::Tab | KeyCode::BackTab => ed.toggle_turn(),
            KeyCode::Char('c') => ed.clear(),
            KeyCode::Char('f') => ed.fen = Some(String::new()),
            KeyCode::Esc => {
                ui.close();
                ui.open_trainer_menu();
            }
            KeyCode::Enter => match tr::validate(&ed.board, ed.turn) {
                Ok(board) => {
                    ui.close();
                    ui.begin_trainer(TrainerStart::Position(board), now);
                }
                Err(problems) => ui.error(format!("Cannot play this: {}", problems.join(" "))),
            },
            KeyCode::Char(c) => match shakmaty::Piece::from_char(c) {
                Some(p) => ed.put(Some(p)),
                None => ui.error(format!(
                    "'{c}' is not a piece: K Q R B N P for White, k q r b n p for Black."
                )),
            },
            _ => {}
        }
    }

    /// A click on the board moves the cursor there.
    fn mouse(&mut self, ui: &mut Shared, m: MouseEvent, _now: Instant) {
        if let (MouseEventKind::Down(MouseButton::Left), Some(geo)) = (m.kind, ui.geometry())
            && let Some(sq) = geo.square_at(m.column, m.row, ui.look.flipped)
        {
            self.ed.cursor = sq;
        }
    }

    fn draw(&self, ui: &Shared, buf: &mut Buffer, area: Rect, _now: Instant) {
        super::draw::draw_editor_screen(buf, area, ui, &self.ed);
    }

    screen_any!();
}
