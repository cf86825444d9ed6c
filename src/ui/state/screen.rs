//! What a screen is: a piece of the app that owns its state, takes the keys
//! and mouse while it is on top, reacts to the messages meant for it and
//! draws itself.
//!
//! The app keeps screens on a stack ([`super::App`]). The top one is shown
//! and gets each key (after the overlays, such as help, that sit above
//! every screen); the ones below wait as they were. A screen asks for
//! another to open, or to leave, through [`super::Shared::open`] and
//! [`super::Shared::close`]; the app carries that out after the event, and
//! tells the screen below that it was covered or is on top again, so a
//! game under another screen pauses (its clock stops) and goes on when it
//! is back.
//!
//! Adding a screen: write a module with a state struct that implements
//! [`Screen`], and open it with `ui.open(Box::new(...))` from whatever key
//! or message starts it. Nothing else changes.
//!
//! The screens today:
//! - the chess screens, `ChessScreen<T>` (`ui::screens::chess`): one game
//!   component (`ChessGame`: board, engines, analysis, moves) and
//!   a task `T` that makes the screen what it is: `Play` (a game played),
//!   `Replay` (a file replayed), `TrainerGame` (the endgame trainer's game)
//!   and `Drill` (a puzzle or Retry position). The task's hooks
//!   (`ui::screens::chess::Task`) decide what differs: its own keys, who
//!   answers a move, what a move means, what is kept;
//! - the Crazyhouse/Bughouse game (`HouseScreen`: the game, its board
//!   input and file) and a Crazyhouse/Bughouse file replayed
//!   (`HouseReplayScreen`), which show their boards through one viewer;
//! - the tree explorer and the board editor.
//!
//! A screen with a board takes its input from the one board component
//! ([`crate::ui::board`]); the new-game dialog asks the top screen what a
//! new game would leave ([`Screen::game_in_progress`]) and hands back a
//! move typed over it ([`Screen::continue_typing`]); the frame marks a
//! game not being saved ([`Screen::unsaved`]). A game's engines are its
//! table's in the engine runtime ([`crate::ui::engines`]): their answers
//! come as `Msg::Engine` with the table, which only its screen keeps.

use super::{Msg, Shared};
use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::any::Any;
use std::time::Instant;

/// One screen of the app.
pub trait Screen: Any {
    /// A key, when this screen is on top and no overlay took it.
    fn key(&mut self, ui: &mut Shared, k: KeyEvent, now: Instant);

    /// A mouse event, when this screen is on top and no overlay is open.
    fn mouse(&mut self, ui: &mut Shared, m: MouseEvent, now: Instant) {
        let _ = (ui, m, now);
    }

    /// Time passes (clocks, autoplay); every screen of the stack gets it.
    fn tick(&mut self, ui: &mut Shared, now: Instant) {
        let _ = (ui, now);
    }

    /// A message from outside (an engine, a background job). The screen
    /// keeps it if it is its own and gives it back otherwise: the app then
    /// offers it to the screen below.
    fn message(&mut self, ui: &mut Shared, msg: Msg, now: Instant) -> Option<Msg> {
        let _ = (ui, now);
        Some(msg)
    }

    /// Called after every event: keeps background work (analysis) in step
    /// with what the screen shows.
    fn sync(&mut self, ui: &mut Shared, now: Instant) {
        let _ = (ui, now);
    }

    /// Draws the screen (the whole area; overlays are drawn over it).
    fn draw(&self, ui: &Shared, buf: &mut Buffer, area: Rect, now: Instant);

    /// Another screen opened over this one.
    fn covered(&mut self, ui: &mut Shared, now: Instant) {
        let _ = (ui, now);
    }

    /// This screen is on top again.
    fn uncovered(&mut self, ui: &mut Shared, now: Instant) {
        let _ = (ui, now);
    }

    /// The screen leaves (closed, replaced, or the app quits): stop its
    /// work and save what must be kept.
    fn leave(&mut self, ui: &mut Shared) {
        let _ = ui;
    }

    /// Whether the screen fits in `area`: while it does not, keys other
    /// than quit are not given to it (they would act unseen).
    fn fits(&self, area: Rect) -> bool {
        super::super::layout::layout(area).is_some()
    }

    /// The game in progress that a new game would leave, in words ("your
    /// game after 3. Nf3"): starting one asks first. None when nothing
    /// would be lost (no move yet, the game over, a replay).
    fn game_in_progress(&self) -> Option<String> {
        None
    }

    /// A key opened a dialog over this screen and the next one showed it
    /// was a move being typed (`n`, then `f`: `nf3`): the screen takes
    /// `text` into its move box if a move of its board can begin so.
    fn continue_typing(&mut self, ui: &mut Shared, text: &str) -> bool {
        let _ = (ui, text);
        false
    }

    /// Whether the screen shows a game that is not being saved (no file, or
    /// its saving fails): the frame keeps a mark while it is so.
    fn unsaved(&self, ui: &Shared) -> bool {
        let _ = ui;
        false
    }

    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// A change of screens asked for by a screen or an overlay.
pub enum Nav {
    /// Open a screen on top.
    Open(Box<dyn Screen>),
    /// The top screen leaves.
    Close,
    /// Open a screen on top, in place of the top one if `instead` says so
    /// of it (a new trainer game in place of the last).
    OpenInstead(Box<dyn Screen>, fn(&dyn Screen) -> bool),
    /// Every screen leaves and this one is the only one (a new game).
    Replace(Box<dyn Screen>),
    /// An overlay that stops the top screen opened (the trainer's menu): it
    /// is told it is covered, as by a screen.
    Cover,
    /// That overlay closed: the top screen goes on.
    Uncover,
}

/// Implements the `as_any` pair of [`Screen`] for a type.
macro_rules! screen_any {
    () => {
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
        fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
            self
        }
    };
}
pub(crate) use screen_any;
