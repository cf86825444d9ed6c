//! Opening the Crazyhouse/Bughouse game screen from the app: a new game,
//! the resume offer, a saved game taken up.

use super::*;
use crate::ui::screens::house::House;
use crate::ui::screens::house::live::{Live, LiveSetup};

impl App {
    /// Offers the newest unfinished game of the same variant, or starts
    /// `setup` (at once when `new_game`).
    pub fn offer_or_start_live(&mut self, setup: LiveSetup, new_game: bool, now: Instant) {
        let found = if new_game {
            None
        } else {
            self.ui.dirs.data.as_ref().and_then(|d| {
                crate::ui::screens::house::file::find_unfinished(&d.join("games"), setup.kind)
            })
        };
        match found {
            Some((path, summary)) => {
                // Asked over an empty board of its own screen.
                self.open_house(|_| {}, now);
                self.ui.overlay = Overlay::Resume {
                    path,
                    summary,
                    game: Unfinished::House(Box::new(setup)),
                };
            }
            None => self.start_live(setup, now),
        }
    }

    /// Takes up the saved game at `path` (or, if it cannot be read, starts
    /// `setup` and says why).
    pub fn resume_live(&mut self, path: PathBuf, setup: LiveSetup, now: Instant) {
        let kind = setup.kind;
        let live = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|text| Live::resume(&text, kind, now));
        let live = match live {
            Ok(l) => l,
            Err(e) => {
                self.start_live(setup, now);
                self.ui.error(format!(
                    "Cannot resume {}: {e}; a new game started.",
                    path.display()
                ));
                return;
            }
        };
        self.open_house(|h| h.begin_live(live, GameFile::resumed(path), now), now);
        self.ui
            .info("Resumed: the clocks stand as they were when the game was saved.");
    }

    /// Starts a Crazyhouse or Bughouse game on its screen, over the chess
    /// game (which waits), in place of a Crazyhouse/Bughouse screen on top.
    pub fn start_live(&mut self, setup: LiveSetup, now: Instant) {
        self.open_house(|h| h.start_live(setup, now), now);
    }

    /// Opens a Crazyhouse/Bughouse screen made by `make`.
    fn open_house(&mut self, make: impl FnOnce(&mut House<'_>), now: Instant) {
        let mut s = HouseScreen::default();
        make(&mut House {
            ui: &mut self.ui,
            s: &mut s,
        });
        self.ui.open_instead(Box::new(s), |top| {
            top.as_any().downcast_ref::<HouseScreen>().is_some()
        });
        self.settle(now);
    }
}
