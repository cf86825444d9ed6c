//! A Crazyhouse or Bughouse file replayed: stepping, autoplay, the
//! games list, the large board, copying and exploring (a game being
//! played is the other house screen, [`super::HouseScreen`]).

use super::*;
use crate::ui::state::screen::{Screen, screen_any};

/// A Crazyhouse/Bughouse file on the screen, one of its games shown.
pub struct HouseReplayScreen {
    pub house: Box<HouseReplay>,
}

impl Screen for HouseReplayScreen {
    fn key(&mut self, ui: &mut Shared, k: KeyEvent, now: Instant) {
        self.on_key(ui, k, now);
    }

    fn mouse(&mut self, _: &mut Shared, m: MouseEvent, now: Instant) {
        let h = &mut *self.house;
        match m.kind {
            MouseEventKind::ScrollUp => h.go(h.cursor.saturating_sub(1), now),
            MouseEventKind::ScrollDown => h.go(h.cursor + 1, now),
            _ => {}
        }
    }

    fn tick(&mut self, _: &mut Shared, now: Instant) {
        self.house.tick(now);
    }

    fn draw(&self, ui: &Shared, buf: &mut Buffer, area: Rect, now: Instant) {
        crate::ui::screens::house::draw::draw_house(buf, ui, &self.house, None, area, now);
    }

    fn fits(&self, area: Rect) -> bool {
        self.house.layout(area, false).is_some()
    }

    screen_any!();
}

impl HouseReplayScreen {
    /// Keys of the replay (overlays such as help and the file picker have
    /// had theirs).
    fn on_key(&mut self, ui: &mut Shared, k: KeyEvent, now: Instant) {
        let h = &mut *self.house;
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
                    ui.info(text);
                }
                KeyCode::Esc => h.list = None,
                KeyCode::Char('q') => ui.quit(),
                _ => {}
            }
            return;
        }
        if k.code == KeyCode::Tab || k.code == KeyCode::BackTab {
            if h.show().is_ok_and(|s| s.boards() == 2) {
                h.main = 1 - h.main;
                let b = if h.main == 0 { 'A' } else { 'B' };
                ui.info(format!("Board {b} large."));
            }
            return;
        }
        if let Some(a) = ui.config.replay_keys.action(&k) {
            ui.last_replay_action = Some(a);
            ui.status = None;
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
                        ui.info("This file has one game.");
                    }
                }
                ReplayAction::Open => ui.open_file_picker(),
                ReplayAction::VariationUp
                | ReplayAction::VariationDown
                | ReplayAction::GoTo
                | ReplayAction::Review
                | ReplayAction::PlayFromHere
                | ReplayAction::RetryWhite
                | ReplayAction::RetryBlack
                | ReplayAction::Export
                | ReplayAction::Refutation => {
                    let what = a.description();
                    ui.error(format!(
                        "Not on the Crazyhouse/Bughouse screen yet ({what})."
                    ));
                }
            }
            if matches!(a, ReplayAction::Faster | ReplayAction::Slower) {
                let pace = h.pace_text();
                ui.info(format!("Autoplay: {pace}."));
            }
            return;
        }
        match ui.keys.action(&k) {
            Some(Action::Quit) => ui.quit(),
            Some(Action::Cancel) => {
                if h.autoplay.is_some() {
                    h.autoplay = None;
                    ui.info("Autoplay stopped.");
                } else {
                    ui.status = None;
                    ui.close();
                }
            }
            Some(Action::Flip) => h.flipped = !h.flipped,
            Some(Action::Help) => ui.overlay = Overlay::Help { scroll: 0 },
            Some(Action::Open) => ui.open_file_picker(),
            Some(Action::CycleTheme) => ui.cycle_theme(),
            Some(Action::Explore) => explore(ui, h, None, h.main),
            Some(a @ (Action::CopyFen | Action::CopyPgn)) => copy(ui, h, None, a),
            Some(a) => ui.not_while_replaying(a, "Esc leaves the replay"),
            None => ui.not_a_replay_command(k),
        }
    }
}
