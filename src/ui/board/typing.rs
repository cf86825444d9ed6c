//! The move box: a move typed in any spelling (`Nf3`, `nf3`, `g1f3`,
//! `N@f3`, `O-O`), the same on every board.
//!
//! Moves are typed without a prefix, and no command sits on a key that
//! begins one ([`begins_move`]: files a-h, K Q R B N P, O o 0 for castling,
//! @ for a drop; the config refuses such bindings). So a key either begins
//! a move or acts at once. The one exception is the cursor: `h` (a file)
//! moves it left at once and is remembered; if the next key continues a
//! move (`h3`, `hxg5`), the cursor goes back and the move box takes the
//! whole text. The box opened with its key (`:`) takes every letter as
//! text. A refused move stays on show (Backspace corrects it) until the
//! next key, which starts afresh: a new move, or a command.

use super::BoardInput;
use crate::ui::keymap::{Action, begins_move};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::Square;

/// The longest text the box takes.
const MAX_TEXT: usize = 12;

/// The text being typed and its state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveBox {
    /// The text typed so far.
    pub text: String,
    /// Opened with its key before anything is typed: every letter is text.
    pub open: bool,
    /// The text was refused: it stays on show until the next key.
    pub refused: bool,
    /// Cursor letters (`h`, `k`) typed just now that may still become a
    /// move, and where the cursor was before them.
    pending: String,
    pending_cursor: Option<Square>,
}

/// What a key did to the move box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoxKey {
    /// The key was not for the box: handle it as a command.
    Pass,
    /// The box took it.
    Taken,
    /// Enter on this text: play it (or [`MoveBox::refuse`] it).
    Submit(String),
    /// Esc closed the box: old words on screen are stale.
    Closed,
}

impl MoveBox {
    /// The box is on screen.
    pub fn shown(&self) -> bool {
        !self.text.is_empty() || self.open
    }

    /// Empties and closes the box.
    pub fn close(&mut self) {
        self.text.clear();
        self.open = false;
        self.refused = false;
        self.pending.clear();
        self.pending_cursor = None;
    }

    /// `text` was not a move: it stays on show, marked, until the next key.
    pub fn refuse(&mut self, text: String) {
        self.text = text;
        self.open = false;
        self.refused = true;
    }

    /// Text typed elsewhere that turned out to be a move (`n` opened a
    /// dialog, then `f`): the box takes it.
    pub fn take(&mut self, text: &str) {
        self.text = text.to_string();
        self.refused = false;
    }

    /// A key while the box is shown.
    pub fn key(&mut self, k: KeyEvent) -> BoxKey {
        // A refused move gives way to whatever comes next but Backspace
        // (which corrects it): Enter and Esc put it away, a letter or any
        // other key acts as if the box were closed (a new move, `?`, `q`,
        // an arrow).
        if self.refused && k.code != KeyCode::Backspace {
            self.close();
            return match k.code {
                KeyCode::Enter => BoxKey::Taken,
                KeyCode::Esc => BoxKey::Closed,
                _ => BoxKey::Pass,
            };
        }
        match k.code {
            KeyCode::Enter if self.text.is_empty() => {
                self.close();
                BoxKey::Taken
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.text);
                self.open = false;
                self.refused = false;
                BoxKey::Submit(text)
            }
            KeyCode::Esc => {
                self.close();
                BoxKey::Closed
            }
            KeyCode::Backspace => {
                self.refused = false;
                if self.text.pop().is_none() {
                    self.open = false;
                }
                BoxKey::Taken
            }
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
                if self.text.len() < MAX_TEXT {
                    self.text.push(c);
                }
                BoxKey::Taken
            }
            _ => BoxKey::Pass,
        }
    }
}

impl BoardInput {
    /// A plain letter typed where a move may be typed (`action`: the
    /// command the key is bound to): true if it began or continued a move,
    /// or moved the cursor as part of one. `could_begin` says whether a
    /// move of the board can begin with a text (case of piece letters
    /// aside); `flipped` and `held` are for the cursor, as in
    /// [`BoardInput::move_cursor`].
    pub fn typed_letter(
        &mut self,
        c: char,
        action: Option<Action>,
        could_begin: &dyn Fn(&str) -> bool,
        flipped: bool,
        held: usize,
    ) -> bool {
        let cursor_key = matches!(
            action,
            Some(Action::Up | Action::Down | Action::Left | Action::Right)
        );
        let pending = std::mem::take(&mut self.typing.pending);
        let before = self.typing.pending_cursor.take();
        if !pending.is_empty() {
            let typed = format!("{pending}{c}");
            let continues = if cursor_key || action.is_some() {
                could_begin(&typed)
            } else {
                crate::ui::input::looks_like_move_prefix(&typed)
            };
            if continues && !cursor_key {
                if let Some(sq) = before {
                    self.cursor = sq;
                }
                self.typing.text = typed;
                return true;
            }
            if continues {
                self.typing.pending = typed;
                self.typing.pending_cursor = before;
                if let Some(a) = action {
                    self.move_cursor(a, flipped, held);
                }
                return true;
            }
        }
        if begins_move(c) {
            if cursor_key {
                self.typing.pending = c.to_string();
                self.typing.pending_cursor = Some(self.cursor);
                if let Some(a) = action {
                    self.move_cursor(a, flipped, held);
                }
            } else {
                self.typing.text.push(c);
            }
            return true;
        }
        false
    }

    /// A key that was not typing: cursor letters typed before it are
    /// commands after all.
    pub fn not_typing(&mut self) {
        self.typing.pending.clear();
        self.typing.pending_cursor = None;
    }
}
