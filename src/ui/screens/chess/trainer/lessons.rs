//! Lessons on the trainer's screen: their page of the trainer menu, the
//! progress read from and recorded in the data folder, each position's
//! goal checked after every move, and the way on to the next position.

use super::super::*;
use crate::tablebase::{Material, Wdl};
use crate::train::lessons::progress::{self, Progress};
use crate::train::lessons::{Goal, LESSONS, Lesson};
use crate::ui::screens::chess::game::LessonRun;
use crate::ui::screens::chess::trainer as tr;

impl Shared {
    fn lessons_path(&self) -> Option<PathBuf> {
        self.dirs.data.as_deref().map(progress::path)
    }

    /// The lessons passed, read on first use (a damaged file is set
    /// aside, and that said).
    pub(crate) fn lesson_progress(&mut self) -> &Progress {
        if self.trainer.lessons.is_none() {
            let (p, note) = match self.lessons_path() {
                Some(path) => Progress::load_or_set_aside(&path),
                None => (Progress::default(), None),
            };
            if let Some(n) = note {
                self.error(n);
            }
            self.trainer.lessons = Some(p);
        }
        self.trainer.lessons.get_or_insert_with(Progress::default)
    }

    /// Marks position `step` of `lesson` passed, here and in the file.
    fn record_lesson(&mut self, lesson: &'static Lesson, step: usize) {
        self.lesson_progress();
        if let Some(p) = &mut self.trainer.lessons {
            p.pass(lesson.id, step);
        }
        if let Some(path) = self.lessons_path() {
            self.effects.push(Effect::RecordLesson {
                path,
                lesson: lesson.id,
                step,
            });
        }
    }

    /// A key on the lessons page of the trainer menu.
    pub(crate) fn lesson_menu_key(&mut self, k: KeyEvent, now: Instant) {
        let Overlay::Trainer(menu) = &mut self.overlay else {
            return;
        };
        let n = LESSONS.len();
        match k.code {
            KeyCode::Up | KeyCode::Char('k') => menu.lesson = (menu.lesson + n - 1) % n,
            KeyCode::Down | KeyCode::Char('j') => menu.lesson = (menu.lesson + 1) % n,
            KeyCode::Home => menu.lesson = 0,
            KeyCode::End => menu.lesson = n - 1,
            KeyCode::Esc | KeyCode::Char('q') => {
                self.trainer.last_menu = Some(menu.clone());
                self.overlay = Overlay::None;
                self.uncover();
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let lesson = &LESSONS[menu.lesson.min(n - 1)];
                self.trainer.last_menu = Some(menu.clone());
                self.overlay = Overlay::None;
                let step = self.lesson_progress().next_step(lesson);
                self.begin_trainer(TrainerStart::Lesson { lesson, step }, now);
            }
            _ => {}
        }
    }
}

impl Chess<'_, TrainerGame> {
    /// After a move of a lesson's game: is the position's goal reached?
    /// Then it is passed, kept, and the way on said.
    pub(super) fn check_lesson(&mut self) {
        let Some(run) = self.task.lesson.filter(|r| !r.passed) else {
            return;
        };
        let Some(t) = self.ui.trainer.tables.clone() else {
            return;
        };
        let human = self.task.human;
        let board = self.s.game.current().clone();
        // The trainee's result with best play from here.
        let result = tr::probe(&t, &board).map(|p| {
            if board.turn() == human {
                p.wdl
            } else {
                match p.wdl {
                    Wdl::Win => Wdl::Loss,
                    Wdl::Draw => Wdl::Draw,
                    Wdl::Loss => Wdl::Win,
                }
            }
        });
        let pos = board.chess();
        let mated = pos.is_checkmate() && board.turn() != human;
        let converted = Material::of_board(board.board()).normalized().0
            != Material::of_board(self.s.game.start().board())
                .normalized()
                .0;
        let reached = match run.position().goal {
            Goal::Mate => mated,
            Goal::Convert => mated || (converted && result == Some(Wdl::Win)),
            Goal::Hold(n) => {
                // Held long enough, or the game ends drawn (stalemate, no
                // mating material, a draw the tables will claim).
                let ends = pos.is_stalemate()
                    || pos.is_insufficient_material()
                    || self.claimable_draw().is_some();
                result == Some(Wdl::Draw) && (self.task.feedback.len() >= n as usize || ends)
            }
        };
        if !reached {
            return;
        }
        if let Some(r) = &mut self.task.lesson {
            r.passed = true;
        }
        self.ui.record_lesson(run.lesson, run.step);
        let note = self.lesson_note();
        self.ui.info(note.trim_start().to_string());
    }

    /// What passing this position means and the way on (empty before it
    /// is passed): "Passed position 1 of 4! n = position 2 of 4."
    pub(super) fn lesson_note(&self) -> String {
        let Some(run) = self.task.lesson.filter(|r| r.passed) else {
            return String::new();
        };
        let key = self.ui.keys_hint(Action::NewGame);
        let total = run.lesson.steps.len();
        let passed = self
            .ui
            .trainer
            .lessons
            .as_ref()
            .map_or(0, |p| p.passed(run.lesson));
        let on = if run.step + 1 < total {
            format!("{key} = position {} of {total}", run.step + 2)
        } else {
            match next_lesson(run.lesson) {
                Some(l) => format!("{key} = next lesson: {}", l.title),
                None => format!("{key} = the lessons"),
            }
        };
        let lesson_done = if passed == total {
            format!(" Lesson passed ({total} of {total}).")
        } else {
            String::new()
        };
        format!(
            " Passed position {} of {total}!{lesson_done} {on}.",
            run.step + 1
        )
    }

    /// The new-game key in a lesson: the next position once this one is
    /// passed, else this one again. False outside lessons.
    pub(super) fn lesson_next(&mut self, now: Instant) -> bool {
        let Some(run) = self.task.lesson else {
            return false;
        };
        let (lesson, step) = if !run.passed {
            (run.lesson, run.step)
        } else if run.step + 1 < run.lesson.steps.len() {
            (run.lesson, run.step + 1)
        } else if let Some(l) = next_lesson(run.lesson) {
            (l, self.ui.lesson_progress().next_step(l))
        } else {
            self.ui.close();
            self.ui.open_trainer_menu();
            if let Overlay::Trainer(m) = &mut self.ui.overlay {
                m.lessons = true;
            }
            return true;
        };
        self.ui
            .begin_trainer(TrainerStart::Lesson { lesson, step }, now);
        true
    }

    /// The plan in words for the hint, from what the table shows here.
    pub(super) fn lesson_plan(&self) -> Option<String> {
        let run = self.task.lesson?;
        let t = self.ui.trainer.tables.as_ref()?;
        crate::train::lessons::plan::advice(t, self.board().chess(), run.lesson.plans)
    }
}

/// The lesson after `l` in the catalogue.
fn next_lesson(l: &Lesson) -> Option<&'static Lesson> {
    let i = LESSONS.iter().position(|x| std::ptr::eq(x, l))?;
    LESSONS.get(i + 1)
}

/// The lesson run a trainer game belongs to: its start's, or for a
/// resumed game the one its `KibitzLesson` header names ("lucena 2": the
/// id and the position, counted from 1).
pub(super) fn lesson_run(start: &TrainerStart) -> Option<LessonRun> {
    match start {
        TrainerStart::Lesson { lesson, step } => Some(LessonRun {
            lesson,
            step: (*step).min(lesson.steps.len() - 1),
            passed: false,
        }),
        TrainerStart::Resume(g, _) => {
            let (id, n) = g.header("KibitzLesson")?.split_once(' ')?;
            let lesson = Lesson::find(id)?;
            let step = n.trim().parse::<usize>().ok()?.checked_sub(1)?;
            (step < lesson.steps.len()).then_some(LessonRun {
                lesson,
                step,
                passed: false,
            })
        }
        _ => None,
    }
}
