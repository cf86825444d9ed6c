//! The search-tree explorer screen, for a position of any variant: it
//! covers the screen it was opened from (a game there waits) and goes back
//! to it on close.

use super::{AnyExplorer, Explorer};
use crate::ui::state::screen::{Screen, screen_any};
use crate::ui::state::*;
use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

pub struct ExplorerScreen {
    pub ex: AnyExplorer,
}

/// Opens `ex` over the current screen and asks for its first recording.
/// `standalone`: the app started on it, and closing it quits.
pub fn open(ui: &mut Shared, mut ex: Explorer, standalone: bool) {
    ex.standalone = standalone;
    open_any(ui, AnyExplorer::Chess(Box::new(ex)));
}

/// Opens an explorer of any variant over the current screen.
pub fn open_any(ui: &mut Shared, mut ex: AnyExplorer) {
    let id = ui.new_id();
    ui.effects.push(Effect::Explorer(ex.start(id)));
    ui.open(Box::new(ExplorerScreen { ex }));
}

impl Screen for ExplorerScreen {
    fn key(&mut self, ui: &mut Shared, k: KeyEvent, _now: Instant) {
        if k.code == KeyCode::Char('?') || k.code == KeyCode::F(1) {
            ui.overlay = Overlay::Help { scroll: 0 };
            return;
        }
        match self.ex.key(k, &mut ui.next_id) {
            Some(r) if r.is_close() => {
                if self.ex.standalone() {
                    ui.quit();
                } else {
                    ui.close();
                }
            }
            Some(r) => ui.effects.push(Effect::Explorer(r)),
            None => {}
        }
    }

    fn message(&mut self, ui: &mut Shared, msg: Msg, _now: Instant) -> Option<Msg> {
        match msg {
            Msg::TreeRecorded { id, recording } => {
                if let Some(next) = self.ex.recorded(id, recording, &mut ui.next_id) {
                    ui.effects.push(Effect::Explorer(next));
                }
            }
            Msg::Compared { id, row, result } => self.ex.compared(id, row, result),
            other => return Some(other),
        }
        None
    }

    fn draw(&self, ui: &Shared, buf: &mut Buffer, area: Rect, _now: Instant) {
        use super::draw::draw_explorer;
        match &self.ex {
            AnyExplorer::Chess(e) => draw_explorer(buf, ui, e, area),
            AnyExplorer::Zh(e) => draw_explorer(buf, ui, e, area),
            AnyExplorer::Bug(e) => draw_explorer(buf, ui, e, area),
        }
    }

    fn leave(&mut self, ui: &mut Shared) {
        ui.effects.push(Effect::Explorer(self.ex.cancel()));
    }

    fn fits(&self, area: Rect) -> bool {
        area.width >= 40 && area.height >= 12
    }

    screen_any!();
}
