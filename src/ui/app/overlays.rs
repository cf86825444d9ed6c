//! Keys first: quitting, the overlays that sit above every screen (help,
//! messages, the resume prompts, the new-game dialog, the file picker, the
//! trainer's menu), background work waiting (a file opening, tables being
//! prepared); then the top screen.

use super::*;

impl App {
    pub(super) fn on_key(&mut self, k: KeyEvent, now: Instant) {
        // Ctrl+C always quits.
        if k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c') {
            return self.do_quit();
        }
        // A file being opened: Esc gives up on it.
        if self.ui.opening.is_some() && k.code == KeyCode::Esc {
            if let Some(o) = self.ui.opening.take() {
                self.ui.effects.push(Effect::StopFile { id: o.id });
            }
            self.ui.info("Opening cancelled.");
            return;
        }
        if self.overlay_key(k, now) {
            return;
        }
        // Tables being prepared: Esc stops waiting, q quits.
        if self.ui.trainer.preparing.is_some() {
            match k.code {
                KeyCode::Esc => self.ui.cancel_preparing(),
                KeyCode::Char('q') => self.do_quit(),
                _ => self.ui.info("Preparing the tables... Esc stops waiting."),
            }
            return;
        }
        // Too small to see: nothing acts unseen but quitting.
        if !self.fits() {
            if k.code == KeyCode::Char('q') || k.code == KeyCode::Esc {
                self.do_quit();
            }
            return;
        }
        let dialog_before = matches!(self.ui.overlay, Overlay::NewGame(_));
        let ui = &mut self.ui;
        if let Some(top) = self.screens.last_mut() {
            top.key(ui, k, now);
            // The new-game dialog just opened: it knows the game it would
            // leave, and the letter that opened it if a move can begin so.
            if !dialog_before && let Overlay::NewGame(d) = &mut ui.overlay {
                d.leaves = top.game_in_progress();
                d.typed = match k.code {
                    KeyCode::Char(c)
                        if !k
                            .modifiers
                            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                            && crate::ui::input::looks_like_move_prefix(&c.to_string()) =>
                    {
                        Some(c)
                    }
                    _ => None,
                };
            }
        }
    }

    /// The puzzle themes' list: the arrows choose, Enter filters by the
    /// theme chosen, Esc (or the key that opened it) closes it.
    fn theme_menu_key(&mut self, k: KeyEvent, now: Instant) {
        let Overlay::PuzzleThemes { themes, selected } = &mut self.ui.overlay else {
            return;
        };
        let last = themes.len();
        match k.code {
            KeyCode::Up | KeyCode::Char('k') => *selected = selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => *selected = (*selected + 1).min(last),
            KeyCode::PageUp => *selected = selected.saturating_sub(10),
            KeyCode::PageDown => *selected = (*selected + 10).min(last),
            KeyCode::Home | KeyCode::Char('g') => *selected = 0,
            KeyCode::End | KeyCode::Char('G') => *selected = last,
            KeyCode::Enter | KeyCode::Char(' ') => {
                let theme = selected
                    .checked_sub(1)
                    .and_then(|i| themes.get(i))
                    .map(|(t, _)| t.clone());
                self.ui.overlay = Overlay::None;
                self.ui.info(match &theme {
                    Some(t) => format!("Puzzles with the theme {t}."),
                    None => "Puzzles of every theme.".to_string(),
                });
                if let Some(mut c) = self.chess_at::<Drill>() {
                    c.drill_set_theme(theme, now);
                }
            }
            _ => self.ui.overlay = Overlay::None,
        }
    }

    /// The overlays above every screen take their keys; true if one did.
    fn overlay_key(&mut self, k: KeyEvent, now: Instant) -> bool {
        match &self.ui.overlay {
            Overlay::Help { scroll } => {
                // The arrows, PgUp/PgDn, Home and End scroll; other keys close.
                let area = Rect::new(0, 0, self.ui.size.0, self.ui.size.1);
                let v = crate::ui::help::help_view(&self.ui, self.replaying(), area, *scroll);
                let (now_at, page) = (v.first, v.visible.saturating_sub(1).max(1));
                let to = match k.code {
                    KeyCode::Up => Some(now_at.saturating_sub(1)),
                    KeyCode::Down => Some(now_at + 1),
                    KeyCode::PageUp => Some(now_at.saturating_sub(page)),
                    KeyCode::PageDown => Some(now_at + page),
                    KeyCode::Home => Some(0),
                    KeyCode::End => Some(v.max_scroll()),
                    _ => None,
                };
                self.ui.overlay = match to {
                    Some(s) => Overlay::Help {
                        scroll: s.min(v.max_scroll()) as u16,
                    },
                    None => Overlay::None,
                };
            }
            Overlay::Text { .. } => {
                self.ui.overlay = Overlay::None;
            }
            Overlay::SaveAs { .. } => self.save_as_key(k),
            Overlay::Trainer(_) => {
                self.ui.trainer_menu_key(k, now);
            }
            Overlay::PuzzleThemes { .. } => self.theme_menu_key(k, now),
            Overlay::Files(_) => self.files_key(k),
            Overlay::NewGame(_) => self.dialog_key(k, now),
            Overlay::Resume { .. } => {
                let Some(resume) = self.resume_answer(k) else {
                    return true;
                };
                let overlay = std::mem::replace(&mut self.ui.overlay, Overlay::None);
                if let Overlay::Resume { path, game, .. } = overlay {
                    self.answer_resume(resume, path, game, now);
                }
            }
            // The overlays of one screen (promotion, confirmations, the
            // games list) go with that screen's keys.
            _ => return false,
        }
        true
    }

    /// Resumes the unfinished game at `path`, or (`resume` false) leaves
    /// it in the games folder and starts a new one.
    fn answer_resume(&mut self, resume: bool, path: PathBuf, game: Unfinished, now: Instant) {
        match (resume, game) {
            (true, Unfinished::Chess(g)) => self.resume(*g, path, now),
            (true, Unfinished::House(setup)) => self.resume_live(path, *setup, now),
            (false, game) => {
                crate::ui::gamefile::release(&path);
                match game {
                    Unfinished::Chess(_) => self.start_launch_game(now),
                    Unfinished::House(setup) => self.start_live(*setup, now),
                }
                self.ui
                    .info("Started a new game; the unfinished one stays in your games folder.");
            }
        }
    }

    /// The answer to a resume prompt: resume (y, Enter) or not (n); q and
    /// Esc quit; other keys wait for an answer.
    fn resume_answer(&mut self, k: KeyEvent) -> Option<bool> {
        match k.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => Some(true),
            KeyCode::Char('n' | 'N') => Some(false),
            KeyCode::Char('q') | KeyCode::Esc => {
                self.do_quit();
                None
            }
            _ => None,
        }
    }

    /// Starts a game as the command line asked (or the default one).
    pub(super) fn start_launch_game(&mut self, now: Instant) {
        let setup = self
            .ui
            .launch_setup
            .clone()
            .unwrap_or_else(|| self.default_setup());
        self.start_game(setup, now);
    }
}
