//! The opening explorer on a chess screen: shown and hidden, kept on the
//! position shown, its keys (↑↓ choose a move, Enter plays it, `/` one
//! player's games, Esc hides it; every other key goes to the screen, so
//! moves can still be typed and a replay stepped).

use super::*;

impl<T: Task> Chess<'_, T> {
    pub(super) fn toggle_openings(&mut self) {
        if !T::OPENINGS {
            self.ui
                .error("The opening explorer is for games and replays, not here.");
            return;
        }
        if self.ui.openings.repertoires.is_none() {
            let reps = crate::ui::openings::Repertoires::load(self.ui.dirs.data.as_deref());
            if let Some((_, why)) = reps.broken.first() {
                self.ui.error(why.clone());
            }
            self.ui.openings.repertoires = Some(reps);
        }
        if let Some(req) = self.ui.openings.toggle() {
            self.ui.effects.push(Effect::Openings(req));
            self.ui.info(format!(
                "Opening explorer: ↑↓ choose a move, Enter plays it, + / - mark it in your repertoire, / one player's games; {} or Esc hides it.",
                self.ui.keys_hint(Action::Openings)
            ));
        } else {
            self.ui.info("Opening explorer hidden.");
        }
    }

    /// Asks for the moves of the position shown, when it changed; on the
    /// play screen, counts the repertoire positions due (once).
    pub(super) fn sync_openings(&mut self) {
        if !T::OPENINGS {
            return;
        }
        if T::KEPT && self.ui.openings.due.is_none() {
            let data = self.ui.dirs.data.clone();
            // Read afresh (the drill may have changed the files).
            let reps = crate::ui::openings::Repertoires::load(data.as_deref());
            let due = match data.as_deref() {
                Some(d) if !reps.white.is_empty() || !reps.black.is_empty() => {
                    let (progress, _) = crate::train::repertoire::Progress::load(d);
                    super::repdrill::due_count(&reps, &progress, crate::util::unix_now())
                }
                _ => 0,
            };
            self.ui.openings.due = Some(due);
        }
        let pos = self.board().chess().clone();
        if let Some(req) = self.ui.openings.want(&pos) {
            self.ui.effects.push(Effect::Openings(req));
        }
    }

    /// The explorer's keys while it is shown and nothing covers it; true
    /// if the key was one.
    pub(super) fn openings_key(&mut self, k: KeyEvent, now: Instant) -> bool {
        if !T::OPENINGS || !self.ui.openings.shown || !matches!(self.ui.overlay, Overlay::None) {
            return false;
        }
        if self.ui.openings.player_box.is_some() {
            self.player_box_key(k);
            return true;
        }
        if self.move_box_shown()
            || k.modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return false;
        }
        let pos = self.board().chess().clone();
        match k.code {
            KeyCode::Char('/') => self.ui.openings.open_player_box(),
            KeyCode::Up => self.ui.openings.step(&pos, -1),
            KeyCode::Down => self.ui.openings.step(&pos, 1),
            KeyCode::Enter => match self.ui.openings.selected_move(&pos) {
                Some(row) => {
                    let m = row.mv;
                    T::explorer_move(self, m, now);
                }
                None => self.ui.error("No move to play from the explorer here."),
            },
            KeyCode::Char(c @ ('+' | '-')) => self.mark_repertoire(&pos, c == '+'),
            KeyCode::Esc => {
                self.ui.openings.shown = false;
                self.ui.info("Opening explorer hidden.");
            }
            _ => return false,
        }
        true
    }

    /// A key of the player box; the explorer asks again when it closes
    /// on another player.
    fn player_box_key(&mut self, k: KeyEvent) {
        use crate::ui::openings::player::{BoxKey, describe};
        match self.ui.openings.player_box_key(k) {
            BoxKey::Typing | BoxKey::Cancelled => {}
            BoxKey::Chosen(Some(f)) => self.ui.info(format!(
                "The explorer shows the games of {}; / and an empty name shows every game.",
                describe(&f)
            )),
            BoxKey::Chosen(None) => self.ui.info("The explorer shows every game."),
        }
        self.sync_openings();
    }

    /// Adds the explorer's move to your repertoire, or takes it out, and
    /// saves the repertoire.
    fn mark_repertoire(&mut self, pos: &shakmaty::Chess, add: bool) {
        use crate::db::repertoire;
        let Some(row) = self.ui.openings.selected_move(pos) else {
            self.ui.error("No move chosen in the explorer.");
            return;
        };
        let (m, san) = (row.mv, row.san.clone());
        let Some(reps) = &mut self.ui.openings.repertoires else {
            return;
        };
        match reps.mark(pos, m, add) {
            Ok(side) => {
                self.ui.openings.due = None;
                let Some(reps) = &self.ui.openings.repertoires else {
                    return;
                };
                let r = reps.side(side);
                let contents = r.to_pgn();
                let name = color_name(side);
                match self.ui.dirs.data.clone() {
                    Some(d) => {
                        let path = repertoire::path(&d, side);
                        self.ui.effects.push(Effect::WriteFile {
                            what: "your repertoire",
                            path,
                            contents,
                        });
                        let done = if add { "added to" } else { "taken out of" };
                        self.ui
                            .info(format!("{san} {done} your repertoire for {name}."));
                    }
                    None => self
                        .ui
                        .error("No data folder: the repertoire cannot be saved."),
                }
            }
            Err(why) => self.ui.error(why),
        }
    }
}
