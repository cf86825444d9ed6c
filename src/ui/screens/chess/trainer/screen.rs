//! The endgame trainer in the app: the ending menu, the board editor,
//! preparing tables in the background, the table's replies, the verdict on
//! each move, hints and the trainer's files.

use super::super::*;
use crate::tablebase::{Material, Probe, Wdl};
use crate::ui::screens::chess::trainer::{self as tr, SideChoice, Tables, Verdict};

impl Task for TrainerGame {
    const OPENINGS: bool = false;
    fn view(&self) -> TaskView<'_> {
        TaskView::Trainer(self)
    }

    fn action(c: &mut Chess<'_, Self>, a: Action, now: Instant) -> bool {
        // The trainer's game sits over the game in progress: q and Esc go
        // back to it (the trainer game is saved).
        match a {
            // In a lesson: the next position, or this one again.
            Action::NewGame => return c.lesson_next(now),
            Action::Quit => c.leave_trainer(),
            Action::Cancel if c.s.pick.selected.is_none() => c.leave_trainer(),
            _ => return false,
        }
        true
    }

    fn reply(c: &mut Chess<'_, Self>, now: Instant) {
        c.trainer_reply(now);
    }

    fn after_move(c: &mut Chess<'_, Self>, before: &Board, m: Move) {
        c.task.plan = None;
        c.trainer_after_move(before, m);
        c.check_lesson();
    }

    fn hint(c: &mut Chess<'_, Self>, _: Instant) {
        c.trainer_hint();
    }

    fn offer_draw(c: &mut Chess<'_, Self>, now: Instant) {
        c.trainer_draw_offer(now);
    }

    fn ending_note(c: &Chess<'_, Self>) -> String {
        c.trainer_summary()
    }

    fn saved(c: &mut Chess<'_, Self>) {
        if let Some(path) = c.task.history_path.clone() {
            let contents = crate::game::history::write_history(c.s.game.start(), c.s.game.moves());
            c.ui.effects.push(Effect::Save { path, contents });
        }
    }

    fn took_back(c: &mut Chess<'_, Self>) {
        let len = c.s.game.moves().len();
        c.task.feedback.retain(|f| f.ply < len);
        c.task.plan = None;
    }
}

impl ChessScreen<TrainerGame> {
    /// A screen with the trainer game `start`; None (and the reason said)
    /// if it cannot be played.
    pub fn trainer(
        ui: &mut Shared,
        start: TrainerStart,
        tables: &Tables,
        now: Instant,
    ) -> Option<Self> {
        let lesson = super::lessons::lesson_run(&start);
        let (board, name, resumed) = trainer_position(ui, start, tables)?;
        let Some(probe) = tr::probe(tables, &board) else {
            ui.error("The tables do not cover this position.");
            return None;
        };
        ui.overlay = Overlay::None;
        let human = match &resumed {
            Some((g, _)) => match g.header("KibitzMode") {
                Some("trainer-black") => Color::Black,
                Some("trainer-white") => Color::White,
                _ => g.current().turn(),
            },
            None => board.turn(),
        };
        let start_probe = match &resumed {
            Some((g, _)) => tables.probe(g.start()).unwrap_or(probe),
            None => probe,
        };
        let mut s = ChessScreen {
            game: ChessGame::new(EngineSpec::BuiltIn { level: 8 }, None),
            task: TrainerGame {
                name,
                human,
                start: start_probe,
                feedback: Vec::new(),
                history_path: None,
                lesson,
                plan: None,
            },
        };
        s.at(ui).begin(board, resumed, probe, now);
        if s.task.lesson.is_some() {
            // The progress a pass is added to (a damaged file is said now).
            ui.lesson_progress();
        }
        Some(s)
    }
}

/// The position, name and (for a resumed game) the game and file of the
/// trainer game `start`; none (and why said) if there is none.
#[allow(clippy::type_complexity)]
fn trainer_position(
    ui: &mut Shared,
    start: TrainerStart,
    tables: &Tables,
) -> Option<(Board, String, Option<(Box<Game>, PathBuf)>)> {
    Some(match start {
        TrainerStart::Random {
            ending,
            difficulty,
            side,
        } => {
            let side = match side {
                SideChoice::White => Color::White,
                SideChoice::Black => Color::Black,
                SideChoice::Random => {
                    if ui.trainer.rng.below(2) == 0 {
                        Color::White
                    } else {
                        Color::Black
                    }
                }
            };
            match tr::random_position(tables, ending, difficulty, side, &mut ui.trainer.rng) {
                Some((b, _)) => (b, ending.name.to_string(), None),
                None => {
                    ui.error(format!("No table for {}.", ending.name));
                    return None;
                }
            }
        }
        TrainerStart::Position(b) => {
            let name = Material::of_board(b.board()).to_string();
            (b, name, None)
        }
        TrainerStart::Lesson { lesson, step } => {
            let fen = lesson.steps[step.min(lesson.steps.len() - 1)].fen;
            match Board::from_fen(fen) {
                Ok(b) => (b, lesson.title.to_string(), None),
                Err(e) => {
                    ui.error(format!("{}: a bad position ({e})", lesson.title));
                    return None;
                }
            }
        }
        TrainerStart::Resume(game, path) => {
            let name = game
                .header("KibitzTrainer")
                .unwrap_or("endgame")
                .to_string();
            (game.current().clone(), name, Some((game, path)))
        }
    })
}

impl Chess<'_, TrainerGame> {
    /// Sets the board up for the trainer game on `board` (or the resumed
    /// game) and says what to aim for.
    fn begin(
        &mut self,
        board: Board,
        resumed: Option<(Box<Game>, PathBuf)>,
        probe: Probe,
        now: Instant,
    ) {
        let human = self.task.human;
        let name = self.task.name.clone();
        let start_probe = self.task.start;
        self.s.mode = Mode::HumanVsEngine { human };
        self.ui.look.flipped = human == Color::Black;
        self.s.pick.cursor = board
            .board()
            .king_of(human)
            .unwrap_or(if human == Color::White {
                Square::E2
            } else {
                Square::E7
            });
        match resumed {
            Some((game, path)) => {
                self.s.game = *game;
                self.s.file = GameFile::resumed(path);
            }
            None => {
                self.s.game = Game::new(board.clone());
                self.set_trainer_headers(&name, human);
                let path = self.ui.reserve_save_path("trainer-", "pgn", &["history"]);
                self.s.file = GameFile::new(path);
            }
        }
        self.task.history_path = self.s.file.path().map(|p| p.with_extension("history"));
        self.rebuild_feedback();
        let ply = self.s.game.moves().len();
        let current = self.s.game.current().clone();
        self.note_eval(ply, &current, tr::probe_score(probe));
        if current.turn() != human {
            self.s.opponent.score = Some(tr::probe_score(probe));
        }
        let you = color_name(human);
        let goal = match start_probe.wdl {
            Wdl::Win => format!("win it: {} with best play", tr::describe(start_probe)),
            Wdl::Draw => "hold the draw".to_string(),
            Wdl::Loss => format!("resist as long as you can ({})", tr::describe(start_probe)),
        };
        let hint = self.ui.keys_hint(Action::Hint);
        let back = self.ui.keys_hint(Action::Takeback);
        match self.task.lesson {
            Some(run) => {
                let step = run.position();
                self.ui.info(format!(
                    "Lesson {name}, position {} of {}: {} Goal: {}. {hint} = hint and plan, {back} = take back, {} = start again.",
                    run.step + 1,
                    run.lesson.steps.len(),
                    step.note,
                    step.goal.words(),
                    self.ui.keys_hint(Action::NewGame),
                ));
            }
            None => self.ui.info(format!(
                "Endgame trainer, {name}: you play {you}; {goal}. The tables defend perfectly. {hint} = hint, {back} = take back."
            )),
        }
        self.s.started_at = Some(now);
        self.save();
        self.next_turn(now);
    }

    /// Leaves the trainer's screen: back to the game beneath.
    fn leave_trainer(&mut self) {
        self.ui
            .info("Left the endgame trainer (its game is saved).");
        self.ui.close();
    }

    fn set_trainer_headers(&mut self, name: &str, human: Color) {
        let table = "Kibitz tablebase".to_string();
        let (white, black) = match human {
            Color::White => ("You".to_string(), table),
            Color::Black => (table, "You".to_string()),
        };
        let event = format!("Kibitz endgame trainer: {name}");
        super::super::start::set_seven_tags(&mut self.s.game, &event, white, black);
        let g = &mut self.s.game;
        g.set_header(
            "KibitzMode",
            format!("trainer-{}", color_name(human).to_lowercase()),
        );
        g.set_header("KibitzTrainer", name);
        if let Some(run) = self.task.lesson {
            g.set_header(
                "KibitzLesson",
                format!("{} {}", run.lesson.id, run.step + 1),
            );
        }
    }

    /// The verdicts on every move of the trainee in the game so far (a
    /// resumed game gets them back), and the eval bar's values.
    pub(super) fn rebuild_feedback(&mut self) {
        let Some(t) = self.ui.trainer.tables.clone() else {
            return;
        };
        let human = self.task.human;
        let mut feedback = Vec::new();
        let mut board = self.s.game.start().clone();
        if let Some(p) = tr::probe(&t, &board) {
            self.note_eval(0, &board, tr::probe_score(p));
        }
        let moves = self.s.game.moves().to_vec();
        for (ply, &m) in moves.iter().enumerate() {
            let after = board.play(m);
            if board.turn() == human
                && let Some(fb) = tr::judge_move(&t, &board, m, ply)
            {
                feedback.push(fb);
            }
            if let Some(a) = tr::probe(&t, &after) {
                self.note_eval(ply + 1, &after, tr::probe_score(a));
            }
            board = after;
        }
        self.task.feedback = feedback;
    }

    /// The table's reply: one of the best moves (longest resistance, or
    /// the fastest win), shown after a short pause.
    pub(super) fn trainer_reply(&mut self, now: Instant) {
        let Some(t) = self.ui.trainer.tables.clone() else {
            return;
        };
        let board = self.board().clone();
        match tr::best_moves(&t, &board) {
            Some(best) if !best.is_empty() => {
                let pick = tr::pick_reply(&t, &board, &best, &mut self.ui.trainer.rng);
                self.s.opponent.hold(pick, now + REPLY_DELAY);
            }
            _ => self
                .ui
                .error("The tables do not cover this position: the trainer stops here."),
        }
    }

    /// After a move of the trainer game: the verdict on the trainee's
    /// move, the eval bar, and the end-of-game summary.
    pub(super) fn trainer_after_move(&mut self, before: &Board, m: Move) {
        let Some(t) = self.ui.trainer.tables.clone() else {
            return;
        };
        let human = self.task.human;
        let ply = self.s.game.moves().len();
        let after_board = self.s.game.current().clone();
        if let Some(a) = tr::probe(&t, &after_board) {
            self.note_eval(ply, &after_board, tr::probe_score(a));
            if after_board.turn() != human {
                // What the tables' side stands to get (draw claims).
                self.s.opponent.score = Some(tr::probe_score(a));
            }
        }
        if before.turn() != human {
            return;
        }
        let Some(fb) = tr::judge_move(&t, before, m, ply - 1) else {
            return;
        };
        let text = format!("{}: {}", fb.san, fb.text);
        match fb.verdict {
            Verdict::Best => self.ui.info(text),
            _ => self.ui.error(text),
        }
        self.task.feedback.push(fb);
    }

    /// The hint: the table's best move and line.
    pub(super) fn trainer_hint(&mut self) {
        let Some(t) = self.ui.trainer.tables.clone() else {
            return;
        };
        let board = self.board().clone();
        let Some(best) = tr::best_moves(&t, &board).filter(|b| !b.is_empty()) else {
            self.ui.error("The tables do not cover this position.");
            return;
        };
        let (mv, value) = best[0];
        let line = tr::table_line(&t, &board, 12);
        let others: Vec<String> = best[1..].iter().map(|(m, _)| board.san(*m)).collect();
        let also = match others.len() {
            0 => String::new(),
            1..=3 => format!("; as good: {}", others.join(", ")),
            n => format!("; as good: {} and {} more", others[..3].join(", "), n - 3),
        };
        let after = tr::describe(Probe {
            wdl: value.wdl,
            dtm: value.dtm,
        });
        self.task.plan = self.lesson_plan();
        let plan = match &self.task.plan {
            Some(p) => format!("{p}  "),
            None => String::new(),
        };
        self.ui.info(format!(
            "{plan}Hint: {} ({after}){also}   line: {}",
            board.san(mv),
            san_line(&board, &line, 8)
        ));
        self.s.hint = Some(Hint {
            mv,
            line,
            score: Some(tr::probe_score(value)),
            ply: self.s.game.moves().len(),
        });
    }

    /// The trainer's summary at the end of a game.
    fn trainer_summary(&self) -> String {
        let t = &*self.task;
        let (best, moves) = t.score();
        let target = match t.start.wdl {
            Wdl::Win => format!("best play: {}", tr::describe(t.start)),
            Wdl::Draw => "best play: a draw".to_string(),
            Wdl::Loss => format!("best defence: {}", tr::describe(t.start)),
        };
        format!(
            " {moves} move{} of yours, {best} of them best ({target}).{}",
            if moves == 1 { "" } else { "s" },
            self.lesson_note()
        )
    }

    /// The draw offer in a trainer game: the tables accept a drawn
    /// position and decline the rest.
    pub(super) fn trainer_draw_offer(&mut self, now: Instant) {
        let Some(t) = self.ui.trainer.tables.clone() else {
            return;
        };
        let human = self.task.human;
        let board = self.board().clone();
        let Some(p) = t.probe(&board) else {
            self.ui.error("The tables do not cover this position.");
            return;
        };
        // The trainee's prospects; the tables accept unless they win.
        let human_loses = if board.turn() == human {
            p.wdl == Wdl::Loss
        } else {
            p.wdl == Wdl::Win
        };
        if human_loses {
            let you = if board.turn() == human {
                format!("you are {}", tr::describe(p))
            } else {
                format!("they have {}", tr::describe(p))
            };
            self.ui.info(format!("The tables decline: {you}."));
        } else {
            self.finish(
                Ending {
                    result: GameResult::Draw,
                    termination: Termination::Agreement,
                },
                now,
            );
            self.ui.info("The tables accept the draw.");
        }
    }
}
