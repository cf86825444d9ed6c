//! The new-game dialog and the engine choices it offers.

use super::*;

impl Shared {
    /// Opens the new-game dialog filled in with the game shown.
    pub fn open_new_game_dialog(
        &mut self,
        mode: Mode,
        spec: &EngineSpec,
        time: Option<TimeControl>,
        variant: usize,
    ) {
        let d = NewGameDialog::new(mode, spec, time, variant, &self.config);
        self.overlay = Overlay::NewGame(Box::new(d));
    }
}

impl App {
    pub(super) fn dialog_key(&mut self, k: KeyEvent, now: Instant) {
        let n_time = time_choices().len();
        // A Crazyhouse or Bughouse game opens over a chess game, which
        // waits beneath it: nothing is left, nothing to ask.
        let over_chess = crate::ui::screens::chess::game_of(self.top()).is_some();
        let Overlay::NewGame(d) = &mut self.ui.overlay else {
            return;
        };
        let n_opp = d.opponent_choices();
        let text_field = matches!(d.field, 2 | 4 | 5);
        // The letter that opened the dialog began a move (`n`, `f`: `nf3`).
        if let Some(first) = d.typed.take()
            && let KeyCode::Char(c) = k.code
            && !k
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            let text = format!("{first}{c}");
            let dialog = std::mem::replace(&mut self.ui.overlay, Overlay::None);
            let ui = &mut self.ui;
            if let Some(top) = self.screens.last_mut()
                && top.continue_typing(ui, &text)
            {
                return;
            }
            self.ui.overlay = dialog;
        }
        let Overlay::NewGame(d) = &mut self.ui.overlay else {
            return;
        };
        match k.code {
            KeyCode::Esc => {
                self.ui.overlay = Overlay::None;
                return;
            }
            KeyCode::Up | KeyCode::BackTab => {
                d.field = (d.field + DIALOG_FIELDS.len() - 1) % DIALOG_FIELDS.len()
            }
            KeyCode::Down | KeyCode::Tab => d.field = (d.field + 1) % DIALOG_FIELDS.len(),
            KeyCode::Left | KeyCode::Right if !text_field => {
                let delta = if k.code == KeyCode::Left { -1 } else { 1 };
                let cycle = |v: usize, n: usize| ((v as i64 + delta).rem_euclid(n as i64)) as usize;
                match d.field {
                    0 => d.side = cycle(d.side, SIDES.len()),
                    1 => d.opponent = cycle(d.opponent, n_opp),
                    3 => d.time = cycle(d.time, n_time),
                    6 => d.variant = cycle(d.variant, VARIANTS.len()),
                    _ => {}
                }
            }
            KeyCode::Backspace if text_field => {
                let f = text_of(d);
                f.pop();
            }
            KeyCode::Char(c) if text_field => {
                let f = text_of(d);
                if f.len() < 100 {
                    f.push(c);
                }
            }
            // A game in progress is left only on a second Enter.
            KeyCode::Enter if d.leaves.is_some() && !d.armed && !(over_chess && d.variant > 0) => {
                let leaves = d.leaves.clone().unwrap_or_default();
                d.armed = true;
                d.error = Some(format!(
                    "Enter again starts a new game, Esc goes back: a new game leaves {leaves}."
                ));
                return;
            }
            KeyCode::Enter if d.variant > 0 => {
                match d.live_setup() {
                    Ok(setup) => {
                        self.ui.overlay = Overlay::None;
                        self.start_live(setup, now);
                    }
                    Err(e) => {
                        if let Overlay::NewGame(dd) = &mut self.ui.overlay {
                            dd.error = Some(e);
                        }
                    }
                }
                return;
            }
            KeyCode::Enter => {
                match d.setup() {
                    Ok(setup) => {
                        self.ui.overlay = Overlay::None;
                        self.start_game(setup, now);
                    }
                    Err(e) => {
                        if let Overlay::NewGame(dd) = &mut self.ui.overlay {
                            dd.error = Some(e);
                        }
                    }
                }
                return;
            }
            _ => {}
        }
        if let Overlay::NewGame(d) = &mut self.ui.overlay {
            d.error = None;
            d.armed = false;
        }
    }
}

pub(super) fn text_of(d: &mut NewGameDialog) -> &mut String {
    match d.field {
        2 => &mut d.limits,
        4 => &mut d.custom_time,
        _ => &mut d.fen,
    }
}
