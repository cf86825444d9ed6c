//! The endgame trainer's way in: its menu (an overlay), the tables it
//! needs (loaded or made in the background, with a progress bar), and the
//! trainer game it then opens on a chess screen of its own, over the game
//! in progress.

use super::super::*;
use crate::tablebase::Material;
use crate::ui::screens::chess::trainer::{Difficulty, ENDINGS, SideChoice, Tables};
use crate::ui::screens::editor::EditorScreen;

impl Shared {
    pub fn open_trainer_menu(&mut self) {
        self.cover();
        let menu = self.trainer.last_menu.clone().unwrap_or(TrainerMenu {
            selected: 0,
            difficulty: 1,
            side: 0,
            lessons: false,
            lesson: 0,
        });
        if menu.lessons {
            self.lesson_progress();
        }
        self.overlay = Overlay::Trainer(menu);
    }

    pub(crate) fn trainer_menu_key(&mut self, k: KeyEvent, now: Instant) {
        let Overlay::Trainer(menu) = &mut self.overlay else {
            return;
        };
        if k.code == KeyCode::Char('L') || (menu.lessons && k.code == KeyCode::Char('E')) {
            menu.lessons = !menu.lessons;
            if menu.lessons {
                self.lesson_progress();
            }
            return;
        }
        if menu.lessons {
            self.lesson_menu_key(k, now);
            return;
        }
        let n = ENDINGS.len();
        match k.code {
            KeyCode::Up | KeyCode::Char('k') => menu.selected = (menu.selected + n - 1) % n,
            KeyCode::Down | KeyCode::Char('j') => menu.selected = (menu.selected + 1) % n,
            KeyCode::Home => menu.selected = 0,
            KeyCode::End => menu.selected = n - 1,
            KeyCode::Left | KeyCode::Char('h') => {
                menu.difficulty = (menu.difficulty + Difficulty::ALL.len() - 1) % 3;
            }
            KeyCode::Right | KeyCode::Char('l') => {
                menu.difficulty = (menu.difficulty + 1) % Difficulty::ALL.len();
            }
            KeyCode::Tab | KeyCode::Char('s') => {
                menu.side = (menu.side + 1) % SideChoice::ALL.len();
            }
            KeyCode::Esc | KeyCode::Char('q') => {
                self.trainer.last_menu = Some(menu.clone());
                self.overlay = Overlay::None;
                self.uncover();
            }
            KeyCode::Char('e') => {
                self.trainer.last_menu = Some(menu.clone());
                self.overlay = Overlay::None;
                let editor = EditorScreen::new(None, self);
                self.open(Box::new(editor));
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let menu = menu.clone();
                self.trainer.last_menu = Some(menu.clone());
                self.overlay = Overlay::None;
                let start = TrainerStart::Random {
                    ending: &ENDINGS[menu.selected.min(n - 1)],
                    difficulty: Difficulty::ALL[menu.difficulty % 3],
                    side: SideChoice::ALL[menu.side % 3],
                };
                self.begin_trainer(start, now);
            }
            _ => {}
        }
    }

    /// Starts `start` once the tables it needs are ready: at once when
    /// they are loaded, else after loading or generating them in the
    /// background (with a progress bar).
    pub fn begin_trainer(&mut self, start: TrainerStart, now: Instant) {
        let material = match &start {
            TrainerStart::Random { ending, .. } => ending.material(),
            TrainerStart::Lesson { lesson, .. } => lesson.material(),
            TrainerStart::Position(b) => Material::of_board(b.board()),
            // The start's tables cover every later position of the game.
            TrainerStart::Resume(g, _) => Material::of_board(g.start().board()),
        };
        let (material, _) = material.normalized();
        let covers = |t: &Tables| material == Material::KVK || t.table(&material).is_some();
        // The engines' tables, loaded at start, may already have it (when
        // they were loaded from the folder the trainer reads).
        let dir = self.tables_dir();
        if !self.trainer.tables.as_ref().is_some_and(covers)
            && let Some(loaded) = crate::tablebase::shared_loader().get()
            && dir.as_deref() == Some(loaded.tables.dir())
            && covers(&Tables(loaded.tables.clone()))
        {
            self.trainer.tables = Some(Tables(loaded.tables.clone()));
        }
        if let Some(t) = self.trainer.tables.clone().filter(covers) {
            self.start_trainer(start, &t, now);
            return;
        }
        // Tables for this material are still being made (the user stopped
        // waiting earlier): wait for that job again.
        if let Some((id, m)) = self.trainer.job
            && m == material
        {
            self.trainer.preparing = Some(Preparing {
                id,
                text: format!("Preparing {material}"),
                share: 0.0,
                then: start,
            });
            return;
        }
        let Some(dir) = self.tables_dir() else {
            self.uncover();
            self.error("No data folder for tablebases on this system.");
            return;
        };
        let id = self.new_id();
        self.trainer.job = Some((id, material));
        self.trainer.preparing = Some(Preparing {
            id,
            text: format!("Preparing {material}"),
            share: 0.0,
            then: start,
        });
        self.effects.push(Effect::PrepareTables {
            id,
            dir,
            materials: vec![material],
        });
    }

    pub fn on_tables_progress(&mut self, id: u64, text: String, share: f64) {
        if let Some(p) = &mut self.trainer.preparing
            && p.id == id
        {
            p.text = text;
            p.share = share;
        }
    }

    pub fn on_tables_ready(&mut self, id: u64, result: Result<Tables, String>, now: Instant) {
        if self.trainer.job.is_some_and(|(j, _)| j == id) {
            self.trainer.job = None;
            // Kept even if nobody waits any more: the next start is quick.
            if let Ok(t) = &result {
                self.trainer.tables = Some(t.clone());
            }
        }
        if self.trainer.preparing.as_ref().is_none_or(|p| p.id != id) {
            return;
        }
        let Some(p) = self.trainer.preparing.take() else {
            return;
        };
        match result {
            Ok(t) => {
                self.trainer.tables = Some(t.clone());
                self.start_trainer(p.then, &t, now);
            }
            Err(e) => {
                self.uncover();
                self.error(format!("The tables could not be prepared: {e}"));
            }
        }
    }

    /// Esc while tables are prepared: stop waiting. The job goes on in the
    /// background (each table is written when done); choosing the same
    /// ending again waits for it instead of starting another.
    pub(crate) fn cancel_preparing(&mut self) {
        if let Some(p) = self.trainer.preparing.take() {
            if let TrainerStart::Position(b) = &p.then {
                // Back to the editor with the position entered.
                let editor = EditorScreen::new(Some(b), self);
                self.open(Box::new(editor));
            } else {
                self.uncover();
            }
            self.info("Stopped waiting; the tables are still being made in the background.");
        }
    }

    /// Opens the trainer game `start` on a chess screen of its own (in
    /// place of a trainer game shown before).
    fn start_trainer(&mut self, start: TrainerStart, tables: &Tables, now: Instant) {
        match ChessScreen::trainer(self, start, tables, now) {
            Some(s) => self.open_instead(Box::new(s), |top| {
                top.as_any().is::<ChessScreen<TrainerGame>>()
            }),
            None => self.uncover(),
        }
    }
}
