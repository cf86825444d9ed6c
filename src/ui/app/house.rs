//! The Crazyhouse/Bughouse screen in the app: opening its files, its keys,
//! autoplay, and going back to the game beneath.

use super::*;
use crate::ui::house::{HouseReplay, Show};
use crate::ui::keymap::ReplayAction;

impl App {
    /// A Crazyhouse or Bughouse file was read (or could not be).
    pub(super) fn on_house_opened(
        &mut self,
        id: u64,
        path: PathBuf,
        result: Result<Vec<Result<Show, String>>, String>,
        now: Instant,
    ) {
        let Some(opening) = self.opening.take_if(|o| o.id == id) else {
            return; // cancelled, or an older request
        };
        let games = match result {
            Ok(g) => g,
            Err(e) => {
                self.open_failed(format!("Cannot open {}: {e}", path.display()), now);
                return;
            }
        };
        let n = games.len();
        let wanted = opening.game;
        let index = wanted.filter(|&g| g < n).unwrap_or(0);
        let mut house = HouseReplay::new(Some(path.clone()), games, index);
        house.flipped = self.flipped;
        if n > 1 && wanted.is_none() {
            house.list = Some(index);
        }
        // A live game beneath waits (clocks, engine) until the screen closes.
        if self.house.is_none()
            && self.started_at.is_some()
            && !self.is_over()
            && !self.paused
            && self.mode_is_live()
        {
            self.toggle_pause(now);
            self.paused_for_house = true;
        }
        self.autoplay_off();
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        );
        let what = match house.show() {
            Ok(s) if s.boards() == 2 => "Bughouse",
            _ => "Crazyhouse",
        };
        let message = match wanted.filter(|&g| g >= n) {
            Some(g) => format!("{name} has {n} game(s); there is no game {}.", g + 1),
            None => match house.show() {
                Ok(s) => format!("{what}: {}. → steps, Space plays it.", s.title),
                Err(e) => format!("Game {} cannot be read: {e}", index + 1),
            },
        };
        self.house = Some(Box::new(house));
        self.overlay = Overlay::None;
        if message.starts_with("Game ") || message.contains("there is no game") {
            self.error(message);
        } else {
            self.info(message);
        }
    }

    /// Leaves the Crazyhouse/Bughouse screen: back to the game beneath (or
    /// a new one when the app started on the file).
    pub(super) fn close_house(&mut self, now: Instant) {
        self.house = None;
        self.status = None;
        if self.replay.is_none() && self.started_at.is_none() {
            let setup = self
                .launch_setup
                .clone()
                .unwrap_or_else(|| self.default_setup());
            self.start_game(setup, now);
        } else if self.paused_for_house {
            self.paused_for_house = false;
            self.toggle_pause(now);
        }
    }

    /// Keys of the Crazyhouse/Bughouse screen (overlays such as help and
    /// the file picker have had theirs).
    pub(super) fn house_key(&mut self, k: KeyEvent, now: Instant) {
        if self.house.as_ref().is_some_and(|h| h.live.is_some()) {
            return self.live_key(k, now);
        }
        let Some(h) = self.house.as_deref_mut() else {
            return;
        };
        // The games list has the keys while it is open.
        if let Some(sel) = h.list {
            match k.code {
                KeyCode::Up | KeyCode::Char('k') => h.list = Some(sel.saturating_sub(1)),
                KeyCode::Down | KeyCode::Char('j') => {
                    h.list = Some((sel + 1).min(h.games.len().saturating_sub(1)));
                }
                KeyCode::PageUp => h.list = Some(sel.saturating_sub(10)),
                KeyCode::PageDown => h.list = Some((sel + 10).min(h.games.len().saturating_sub(1))),
                KeyCode::Enter => {
                    h.list = None;
                    h.select_game(sel, now);
                    let text = match h.show() {
                        Ok(s) => format!("Game {}: {}", sel + 1, s.title),
                        Err(e) => format!("Game {} cannot be read: {e}", sel + 1),
                    };
                    self.info(text);
                }
                KeyCode::Esc => h.list = None,
                KeyCode::Char('q') => self.do_quit(),
                _ => {}
            }
            return;
        }
        if k.code == KeyCode::Tab || k.code == KeyCode::BackTab {
            if h.show().is_ok_and(|s| s.boards() == 2) {
                h.main = 1 - h.main;
                let b = if h.main == 0 { 'A' } else { 'B' };
                self.info(format!("Board {b} large."));
            }
            return;
        }
        if let Some(a) = self.config.replay_keys.action(&k) {
            self.last_replay_action = Some(a);
            self.status = None;
            let Some(h) = self.house.as_deref_mut() else {
                return;
            };
            match a {
                ReplayAction::Next => {
                    h.autoplay = None;
                    h.go(h.cursor + 1, now);
                }
                ReplayAction::Previous => {
                    h.autoplay = None;
                    h.go(h.cursor.saturating_sub(1), now);
                }
                ReplayAction::First => {
                    h.autoplay = None;
                    h.go(0, now);
                }
                ReplayAction::Last => {
                    h.autoplay = None;
                    h.go(usize::MAX, now);
                }
                ReplayAction::Autoplay => h.toggle_autoplay(now),
                ReplayAction::Faster => h.faster(),
                ReplayAction::Slower => h.slower(),
                ReplayAction::Games => {
                    if h.games.len() > 1 {
                        h.list = Some(h.index);
                    } else {
                        self.info("This file has one game.");
                    }
                }
                ReplayAction::Open => self.open_file_picker(),
                ReplayAction::VariationUp
                | ReplayAction::VariationDown
                | ReplayAction::GoTo
                | ReplayAction::Review
                | ReplayAction::PlayFromHere
                | ReplayAction::Export => {
                    let what = a.description();
                    self.error(format!(
                        "Not on the Crazyhouse/Bughouse screen yet ({what})."
                    ));
                }
            }
            if matches!(a, ReplayAction::Faster | ReplayAction::Slower)
                && let Some(h) = &self.house
            {
                let pace = h.pace_text();
                self.info(format!("Autoplay: {pace}."));
            }
            return;
        }
        match self.keys.action(&k) {
            Some(Action::Quit) => self.do_quit(),
            Some(Action::Cancel) => {
                if let Some(h) = self.house.as_deref_mut()
                    && h.autoplay.is_some()
                {
                    h.autoplay = None;
                    self.info("Autoplay stopped.");
                } else {
                    self.close_house(now);
                }
            }
            Some(Action::Flip) => {
                if let Some(h) = self.house.as_deref_mut() {
                    h.flipped = !h.flipped;
                }
            }
            Some(Action::Help) => self.overlay = Overlay::Help { scroll: 0 },
            Some(Action::Open) => self.open_file_picker(),
            Some(Action::CycleTheme) => self.run_action(Action::CycleTheme, now),
            Some(Action::Explore) => self.open_house_explorer(),
            Some(a @ (Action::CopyFen | Action::CopyPgn)) => self.house_copy(a),
            Some(a) => {
                let what = a.description();
                self.error(format!(
                    "Not while replaying ({}: {what}). Esc goes back to your game.",
                    self.keys_hint(a)
                ));
            }
            None => {
                if let KeyCode::Char(c) = k.code
                    && !c.is_whitespace()
                {
                    self.error(format!(
                        "'{c}' is not a replay command ({} shows the keys).",
                        self.keys_hint(Action::Help)
                    ));
                }
            }
        }
    }
}

impl App {
    /// Opens the search-tree explorer on the Crazyhouse/Bughouse board shown
    /// (the person's board in a game, the large board in a replay).
    pub fn open_house_explorer(&mut self) {
        use crate::engine::tree::DEFAULT_NODE_CAP;
        use crate::engine::{Board, Bug, Features, GamePosition, Zh};
        use crate::ui::explorer::{AnyExplorer, AnyRequest, DEFAULT_DEPTH, Explorer};
        let Some(h) = self.house.as_deref() else {
            return;
        };
        let b = self.live_mover().map_or(h.main, |(b, _, _)| b);
        let Some(frame) = h.frame() else { return };
        let Some(pos) = frame.boards.get(b).cloned() else {
            return;
        };
        if pos.legal_moves().is_empty() {
            self.error("No moves here: there is no search to explore.");
            return;
        }
        self.next_id += 1;
        let id = self.next_id;
        let (ex, req) = if frame.boards.len() == 2 {
            let mut e = Explorer::new(
                GamePosition::new(Board::<Bug>::from_pos(pos)),
                DEFAULT_DEPTH,
                Features::default(),
                DEFAULT_NODE_CAP,
            );
            let r = e.start(id);
            (AnyExplorer::Bug(Box::new(e)), AnyRequest::Bug(r))
        } else {
            let mut e = Explorer::new(
                GamePosition::new(Board::<Zh>::from_pos(pos)),
                DEFAULT_DEPTH,
                Features::default(),
                DEFAULT_NODE_CAP,
            );
            let r = e.start(id);
            (AnyExplorer::Zh(Box::new(e)), AnyRequest::Zh(r))
        };
        self.effects.push(Effect::HouseExplorer(req));
        self.house_explorer = Some(ex);
        if h.live
            .as_ref()
            .is_some_and(|l| !l.is_over() && l.time.is_some())
        {
            self.info("The clocks keep running while you explore (q comes back).");
        }
    }
}

impl App {
    /// `y`: the position shown (both boards in Bughouse, `A | B`); `Y`: the
    /// game (the record of a game being played; the file's game in a
    /// replay, as BPGN or Crazyhouse PGN).
    pub(super) fn house_copy(&mut self, what: Action) {
        let Some(h) = self.house.as_deref() else {
            return;
        };
        let (kind, text, file) = if what == Action::CopyFen {
            let Some(frame) = h.frame() else { return };
            let fens: Vec<String> = frame
                .boards
                .iter()
                .map(crate::variant::fen::write_fen)
                .collect();
            ("FEN", fens.join(" | "), "position.fen")
        } else {
            match &h.live {
                Some(l) => {
                    let ext = if l.boards() == 2 {
                        "game.bpgn"
                    } else {
                        "game.pgn"
                    };
                    ("PGN", l.save_text(), ext)
                }
                None => {
                    // The game shown, written again from the file.
                    let text = h
                        .path
                        .as_ref()
                        .and_then(|p| std::fs::read_to_string(p).ok())
                        .unwrap_or_default();
                    let two = h.show().is_ok_and(|s| s.boards() == 2);
                    let game = if two {
                        crate::bughouse::bpgn::read_bpgn(&text)
                            .ok()
                            .and_then(|g| g.get(h.index).map(crate::bughouse::bpgn::write_bpgn))
                    } else {
                        crate::game::variant_pgn::read_variant_pgn(&text)
                            .get(h.index)
                            .and_then(|g| g.as_ref().ok())
                            .map(crate::game::write_variant_pgn)
                    };
                    let Some(game) = game else {
                        self.error("Nothing to copy: the game cannot be read from its file.");
                        return;
                    };
                    ("PGN", game, if two { "game.bpgn" } else { "game.pgn" })
                }
            }
        };
        self.effects.push(Effect::Copy {
            what: kind,
            text,
            path: self.data_dir.as_ref().map(|d| d.join(file)),
        });
    }
}
