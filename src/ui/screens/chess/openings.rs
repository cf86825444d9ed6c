//! The opening explorer on a chess screen: shown and hidden, kept on the
//! position shown, its keys (↑↓ choose a move, Enter plays it, Esc hides
//! it; every other key goes to the screen, so moves can still be typed
//! and a replay stepped).

use super::*;

impl<T: Task> Chess<'_, T> {
    pub(super) fn toggle_openings(&mut self) {
        if !T::OPENINGS {
            self.ui
                .error("The opening explorer is for games and replays, not here.");
            return;
        }
        if let Some(req) = self.ui.openings.toggle() {
            self.ui.effects.push(Effect::Openings(req));
            self.ui.info(format!(
                "Opening explorer: ↑↓ choose a move, Enter plays it; {} or Esc hides it.",
                self.ui.keys_hint(Action::Openings)
            ));
        } else {
            self.ui.info("Opening explorer hidden.");
        }
    }

    /// Asks for the moves of the position shown, when it changed.
    pub(super) fn sync_openings(&mut self) {
        if !T::OPENINGS {
            return;
        }
        let pos = self.board().chess().clone();
        if let Some(req) = self.ui.openings.want(&pos) {
            self.ui.effects.push(Effect::Openings(req));
        }
    }

    /// The explorer's keys while it is shown and nothing covers it; true
    /// if the key was one.
    pub(super) fn openings_key(&mut self, k: KeyEvent, now: Instant) -> bool {
        if !T::OPENINGS
            || !self.ui.openings.shown
            || !matches!(self.ui.overlay, Overlay::None)
            || self.move_box_shown()
            || k.modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return false;
        }
        let pos = self.board().chess().clone();
        match k.code {
            KeyCode::Up => self.ui.openings.step(&pos, -1),
            KeyCode::Down => self.ui.openings.step(&pos, 1),
            KeyCode::Enter => match self.ui.openings.selected_move(&pos) {
                Some(row) => {
                    let m = row.mv;
                    T::explorer_move(self, m, now);
                }
                None => self.ui.error("No move to play from the explorer here."),
            },
            KeyCode::Esc => {
                self.ui.openings.shown = false;
                self.ui.info("Opening explorer hidden.");
            }
            _ => return false,
        }
        true
    }
}
