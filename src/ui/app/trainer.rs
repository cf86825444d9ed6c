//! The endgame trainer in the app: the ending menu, the board editor,
//! preparing tables in the background, the table's replies, the verdict on
//! each move, hints and the trainer's files.

use super::*;
use crate::tablebase::{Material, Probe, Wdl};
use crate::ui::trainer::{
    self as tr, Difficulty, ENDINGS, Editor, Feedback, SideChoice, Tables, Verdict,
};

/// The trainer menu's choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainerMenu {
    /// Index into [`ENDINGS`].
    pub selected: usize,
    pub difficulty: usize,
    pub side: usize,
}

/// What to do once the tables are ready.
#[derive(Clone, Debug)]
pub enum TrainerStart {
    /// A random won position of an ending.
    Random {
        ending: &'static tr::Ending,
        difficulty: Difficulty,
        side: SideChoice,
    },
    /// A position from the editor or the command line: the trainee plays
    /// the side to move.
    Position(Board),
    /// An unfinished trainer game found on start.
    Resume(Box<Game>, PathBuf),
}

/// Tables being loaded or generated for the trainer.
#[derive(Clone, Debug)]
pub struct Preparing {
    pub id: u64,
    pub text: String,
    /// Share of the table being generated (0..1).
    pub share: f64,
    pub then: TrainerStart,
}

/// A trainer game in progress (or just finished).
#[derive(Clone, Debug)]
pub struct TrainerGame {
    /// The ending's name ("KBNvK") or the material of an entered position.
    pub name: String,
    pub human: Color,
    /// The start position's value for the trainee.
    pub start: Probe,
    /// The verdict on each of the trainee's moves, in order.
    pub feedback: Vec<Feedback>,
    /// Where the move-history copy of the game goes.
    pub history_path: Option<PathBuf>,
}

impl TrainerGame {
    /// Best moves / moves judged.
    pub fn score(&self) -> (usize, usize) {
        let best = self
            .feedback
            .iter()
            .filter(|f| f.verdict == Verdict::Best)
            .count();
        (best, self.feedback.len())
    }
}

/// Delay before the table's reply is shown.
pub const REPLY_DELAY: Duration = Duration::from_millis(400);

impl App {
    /// The directory tables are read from and written to.
    pub fn tables_dir(&self) -> Option<PathBuf> {
        self.tables_dir
            .clone()
            .or_else(|| {
                std::env::var_os("KIBITZ_TB_DIR")
                    .filter(|d| !d.is_empty())
                    .map(PathBuf::from)
            })
            .or_else(|| self.data_dir.as_ref().map(|d| d.join("tablebases")))
    }

    /// A live game (engine to move, clocks) waits while the trainer's
    /// menu, editor or table preparation is open.
    fn pause_for_trainer(&mut self, now: Instant) {
        if self.trainer.is_none()
            && self.replay.is_none()
            && !self.is_over()
            && !self.paused
            && self.mode_is_live()
        {
            self.toggle_pause(now);
            self.paused_for_trainer = true;
        }
    }

    /// Back to the game behind the trainer's menu or editor.
    fn resume_after_trainer(&mut self, now: Instant) {
        if std::mem::take(&mut self.paused_for_trainer) && self.paused {
            self.toggle_pause(now);
        }
    }

    pub fn open_trainer_menu(&mut self, now: Instant) {
        self.pause_for_trainer(now);
        let (difficulty, side) = match &self.last_trainer_menu {
            Some(m) => (m.difficulty, m.side),
            None => (1, 0),
        };
        let selected = self.last_trainer_menu.as_ref().map_or(0, |m| m.selected);
        self.overlay = Overlay::Trainer(TrainerMenu {
            selected,
            difficulty,
            side,
        });
    }

    pub(super) fn trainer_menu_key(&mut self, k: KeyEvent, now: Instant) {
        let Overlay::Trainer(menu) = &mut self.overlay else {
            return;
        };
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
                self.last_trainer_menu = Some(menu.clone());
                self.overlay = Overlay::None;
                self.resume_after_trainer(now);
            }
            KeyCode::Char('e') => {
                self.last_trainer_menu = Some(menu.clone());
                self.overlay = Overlay::None;
                self.open_editor(None, now);
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let menu = menu.clone();
                self.last_trainer_menu = Some(menu.clone());
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

    /// Opens the board editor on `board` (or an empty board).
    pub fn open_editor(&mut self, board: Option<&Board>, now: Instant) {
        self.pause_for_trainer(now);
        self.stop_all();
        self.hint = None;
        self.selected = None;
        self.close_move_box();
        self.editor = Some(Box::new(Editor::new(board)));
        self.info(
            "Board editor: arrows move, KQRBNP/kqrbnp put a piece, Space or Del empties, Tab side to move, f FEN, Enter play, Esc back.",
        );
    }

    pub(super) fn editor_key(&mut self, k: KeyEvent, now: Instant) {
        let Some(ed) = &mut self.editor else {
            return;
        };
        // Typing a FEN.
        if let Some(text) = &mut ed.fen {
            match k.code {
                KeyCode::Enter => {
                    let fen = std::mem::take(text);
                    ed.fen = None;
                    match ed.load_fen(&fen) {
                        Ok(()) => self.info("Position taken from the FEN."),
                        Err(e) => self.error(e),
                    }
                }
                KeyCode::Esc => ed.fen = None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char(c) if text.len() < 100 => text.push(c),
                _ => {}
            }
            return;
        }
        let step = |sq: Square, df: i32, dr: i32| {
            let f = (sq.file() as i32 + df).clamp(0, 7) as u32;
            let r = (sq.rank() as i32 + dr).clamp(0, 7) as u32;
            Square::from_coords(shakmaty::File::new(f), shakmaty::Rank::new(r))
        };
        let flip = if self.flipped { -1 } else { 1 };
        match k.code {
            KeyCode::Up => ed.cursor = step(ed.cursor, 0, flip),
            KeyCode::Down => ed.cursor = step(ed.cursor, 0, -flip),
            KeyCode::Left => ed.cursor = step(ed.cursor, -flip, 0),
            KeyCode::Right => ed.cursor = step(ed.cursor, flip, 0),
            KeyCode::Char(' ') | KeyCode::Delete | KeyCode::Backspace | KeyCode::Char('x') => {
                ed.put(None);
            }
            KeyCode::Tab | KeyCode::BackTab => ed.toggle_turn(),
            KeyCode::Char('c') => ed.clear(),
            KeyCode::Char('f') => ed.fen = Some(String::new()),
            KeyCode::Esc => {
                self.editor = None;
                self.open_trainer_menu(now);
            }
            KeyCode::Enter => match tr::validate(&ed.board, ed.turn) {
                Ok(board) => {
                    self.editor = None;
                    self.begin_trainer(TrainerStart::Position(board), now);
                }
                Err(problems) => self.error(format!("Cannot play this: {}", problems.join(" "))),
            },
            KeyCode::Char(c) => match shakmaty::Piece::from_char(c) {
                Some(p) => ed.put(Some(p)),
                None => self.error(format!(
                    "'{c}' is not a piece: K Q R B N P for White, k q r b n p for Black."
                )),
            },
            _ => {}
        }
    }

    /// A click on the board while editing moves the cursor there.
    pub(super) fn editor_click(&mut self, sq: Square) {
        if let Some(ed) = &mut self.editor {
            ed.cursor = sq;
        }
    }

    /// Starts `start` once the tables it needs are ready: at once when
    /// they are loaded, else after loading or generating them in the
    /// background (with a progress bar).
    pub fn begin_trainer(&mut self, start: TrainerStart, now: Instant) {
        let material = match &start {
            TrainerStart::Random { ending, .. } => ending.material(),
            TrainerStart::Position(b) => Material::of_board(b.board()),
            // The start's tables cover every later position of the game.
            TrainerStart::Resume(g, _) => Material::of_board(g.start().board()),
        };
        let (material, _) = material.normalized();
        let covers = |t: &Tables| material == Material::KVK || t.table(&material).is_some();
        // The engines' tables, loaded at start, may already have it.
        if !self.tables.as_ref().is_some_and(covers)
            && let Some(loaded) = crate::tablebase::shared_loader().get()
            && covers(&Tables(loaded.tables.clone()))
        {
            self.tables = Some(Tables(loaded.tables.clone()));
        }
        if let Some(t) = self.tables.clone().filter(covers) {
            self.start_trainer(start, &t, now);
            return;
        }
        // Tables for this material are still being made (the user stopped
        // waiting earlier): wait for that job again.
        if let Some((id, m)) = self.tables_job
            && m == material
        {
            self.preparing = Some(Preparing {
                id,
                text: format!("Preparing {material}"),
                share: 0.0,
                then: start,
            });
            return;
        }
        let Some(dir) = self.tables_dir() else {
            self.resume_after_trainer(now);
            self.error("No data folder for tablebases on this system.");
            return;
        };
        self.next_id += 1;
        let id = self.next_id;
        self.tables_job = Some((id, material));
        self.preparing = Some(Preparing {
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

    pub(super) fn on_tables_progress(&mut self, id: u64, text: String, share: f64) {
        if let Some(p) = &mut self.preparing
            && p.id == id
        {
            p.text = text;
            p.share = share;
        }
    }

    pub(super) fn on_tables_ready(
        &mut self,
        id: u64,
        result: Result<Tables, String>,
        now: Instant,
    ) {
        if self.tables_job.is_some_and(|(j, _)| j == id) {
            self.tables_job = None;
            // Kept even if nobody waits any more: the next start is quick.
            if let Ok(t) = &result {
                self.tables = Some(t.clone());
            }
        }
        if self.preparing.as_ref().is_none_or(|p| p.id != id) {
            return;
        }
        let Some(p) = self.preparing.take() else {
            return;
        };
        match result {
            Ok(t) => {
                self.tables = Some(t.clone());
                self.start_trainer(p.then, &t, now);
            }
            Err(e) => {
                self.resume_after_trainer(now);
                self.error(format!("The tables could not be prepared: {e}"));
            }
        }
    }

    /// Esc while tables are prepared: stop waiting. The job goes on in the
    /// background (each table is written when done); choosing the same
    /// ending again waits for it instead of starting another.
    pub(super) fn cancel_preparing(&mut self, now: Instant) {
        if let Some(p) = self.preparing.take() {
            if let TrainerStart::Position(b) = &p.then {
                // Back to the editor with the position entered.
                self.editor = Some(Box::new(Editor::new(Some(b))));
            } else {
                self.resume_after_trainer(now);
            }
            self.info("Stopped waiting; the tables are still being made in the background.");
        }
    }

    fn start_trainer(&mut self, start: TrainerStart, tables: &Tables, now: Instant) {
        let (board, name, resumed) = match start {
            TrainerStart::Random {
                ending,
                difficulty,
                side,
            } => {
                let side = match side {
                    SideChoice::White => Color::White,
                    SideChoice::Black => Color::Black,
                    SideChoice::Random => {
                        if self.trainer_rng.below(2) == 0 {
                            Color::White
                        } else {
                            Color::Black
                        }
                    }
                };
                match tr::random_position(tables, ending, difficulty, side, &mut self.trainer_rng) {
                    Some((b, _)) => (b, ending.name.to_string(), None),
                    None => {
                        self.resume_after_trainer(now);
                        self.error(format!("No table for {}.", ending.name));
                        return;
                    }
                }
            }
            TrainerStart::Position(b) => {
                let name = Material::of_board(b.board()).to_string();
                (b, name, None)
            }
            TrainerStart::Resume(game, path) => {
                let name = game
                    .header("KibitzTrainer")
                    .unwrap_or("endgame")
                    .to_string();
                (game.current().clone(), name, Some((game, path)))
            }
        };
        let Some(probe) = tr::probe(tables, &board) else {
            self.resume_after_trainer(now);
            self.error("The tables do not cover this position.");
            return;
        };
        self.stop_all();
        self.leave_replay();
        self.hint = None;
        self.selected = None;
        self.close_move_box();
        self.scroll = 0;
        self.queued = None;
        self.paused = false;
        self.clocks = None;
        self.clock_history.clear();
        if self.trainer.is_none() {
            self.time_before_trainer = self.time;
        }
        self.time = None;
        self.paused_for_trainer = false;
        self.engine_score = None;
        self.search.lines.clear();
        self.search.iterations.clear();
        self.search.thinking = false;
        self.evals.clear();
        self.overlay = Overlay::None;
        self.editor = None;
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
        self.mode = Mode::HumanVsEngine { human };
        self.flipped = human == Color::Black;
        self.cursor = board
            .board()
            .king_of(human)
            .unwrap_or(if human == Color::White {
                Square::E2
            } else {
                Square::E7
            });
        match resumed {
            Some((game, path)) => {
                self.game = *game;
                self.save_path = Some(path);
                self.saved = true;
            }
            None => {
                self.game = Game::new(board.clone());
                self.set_trainer_headers(&name, human);
                self.save_path = self.new_save_path().map(|p| {
                    let stem = p
                        .file_stem()
                        .map(|f| f.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let mut path = p.with_file_name(format!("trainer-{stem}.pgn"));
                    let mut n = 2;
                    while path.exists() || path.with_extension("history").exists() {
                        path = p.with_file_name(format!("trainer-{stem}-{n}.pgn"));
                        n += 1;
                    }
                    path
                });
                self.saved = false;
            }
        }
        let history_path = self.save_path.as_ref().map(|p| p.with_extension("history"));
        self.trainer = Some(Box::new(TrainerGame {
            name: name.clone(),
            human,
            start: start_probe,
            feedback: Vec::new(),
            history_path,
        }));
        self.rebuild_feedback();
        let ply = self.game.moves().len();
        let current = self.game.current().clone();
        self.note_eval(ply, &current, tr::probe_score(probe));
        if current.turn() != human {
            self.engine_score = Some(tr::probe_score(probe));
        }
        self.started_at = Some(now);
        let you = color_name(human);
        let goal = match start_probe.wdl {
            Wdl::Win => format!("win it: {} with best play", tr::describe(start_probe)),
            Wdl::Draw => "hold the draw".to_string(),
            Wdl::Loss => format!("resist as long as you can ({})", tr::describe(start_probe)),
        };
        self.info(format!(
            "Endgame trainer, {name}: you play {you}; {goal}. The tables defend perfectly. {} = hint, {} = take back.",
            self.keys_hint(Action::Hint),
            self.keys_hint(Action::Takeback)
        ));
        self.save();
        self.next_turn(now);
    }

    fn set_trainer_headers(&mut self, name: &str, human: Color) {
        let table = "Kibitz tablebase".to_string();
        let (white, black) = match human {
            Color::White => ("You".to_string(), table),
            Color::Black => (table, "You".to_string()),
        };
        let event = format!("Kibitz endgame trainer: {name}");
        super::start::set_seven_tags(&mut self.game, &event, white, black);
        let g = &mut self.game;
        g.set_header(
            "KibitzMode",
            format!("trainer-{}", color_name(human).to_lowercase()),
        );
        g.set_header("KibitzTrainer", name);
    }

    /// The verdicts on every move of the trainee in the game so far (a
    /// resumed game gets them back), and the eval bar's values.
    pub(super) fn rebuild_feedback(&mut self) {
        let Some(t) = self.tables.clone() else {
            return;
        };
        let Some(human) = self.trainer.as_ref().map(|t| t.human) else {
            return;
        };
        let mut feedback = Vec::new();
        let mut board = self.game.start().clone();
        if let Some(p) = tr::probe(&t, &board) {
            self.note_eval(0, &board, tr::probe_score(p));
        }
        let moves = self.game.moves().to_vec();
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
        if let Some(tg) = &mut self.trainer {
            tg.feedback = feedback;
        }
    }

    /// The table's reply: one of the best moves (longest resistance, or
    /// the fastest win), shown after a short pause.
    pub(super) fn trainer_reply(&mut self, now: Instant) {
        let Some(t) = self.tables.clone() else {
            return;
        };
        let board = self.board().clone();
        match tr::best_moves(&t, &board) {
            Some(best) if !best.is_empty() => {
                let pick = tr::pick_reply(&t, &board, &best, &mut self.trainer_rng);
                self.queued = Some((pick, now + REPLY_DELAY));
            }
            _ => self.error("The tables do not cover this position: the trainer stops here."),
        }
    }

    /// After a move of the trainer game: the verdict on the trainee's
    /// move, the eval bar, and the end-of-game summary.
    pub(super) fn trainer_after_move(&mut self, before: &Board, m: Move) {
        let Some(t) = self.tables.clone() else {
            return;
        };
        let Some(human) = self.trainer.as_ref().map(|t| t.human) else {
            return;
        };
        let ply = self.game.moves().len();
        let after_board = self.game.current().clone();
        if let Some(a) = tr::probe(&t, &after_board) {
            self.note_eval(ply, &after_board, tr::probe_score(a));
            if after_board.turn() != human {
                // What the tables' side stands to get (draw claims).
                self.engine_score = Some(tr::probe_score(a));
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
            Verdict::Best => self.info(text),
            _ => self.error(text),
        }
        if let Some(trainer) = &mut self.trainer {
            trainer.feedback.push(fb);
        }
    }

    /// The hint: the table's best move and line.
    pub(super) fn trainer_hint(&mut self) {
        let Some(t) = self.tables.clone() else {
            return;
        };
        let board = self.board().clone();
        let Some(best) = tr::best_moves(&t, &board).filter(|b| !b.is_empty()) else {
            self.error("The tables do not cover this position.");
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
        self.info(format!(
            "Hint: {} ({after}){also}   line: {}",
            board.san(mv),
            san_line(&board, &line, 8)
        ));
        self.hint = Some(Hint {
            mv,
            line,
            score: Some(tr::probe_score(value)),
            ply: self.game.moves().len(),
        });
    }

    /// The trainer's summary at the end of a game.
    pub(super) fn trainer_summary(&self) -> Option<String> {
        let t = self.trainer.as_ref()?;
        let (best, moves) = t.score();
        let target = match t.start.wdl {
            Wdl::Win => format!("best play: {}", tr::describe(t.start)),
            Wdl::Draw => "best play: a draw".to_string(),
            Wdl::Loss => format!("best defence: {}", tr::describe(t.start)),
        };
        Some(format!(
            "{moves} move{} of yours, {best} of them best ({target}).",
            if moves == 1 { "" } else { "s" }
        ))
    }

    /// The move-history copy of a trainer game.
    pub(super) fn trainer_history_effect(&self) -> Option<Effect> {
        let t = self.trainer.as_ref()?;
        let path = t.history_path.clone()?;
        Some(Effect::Save {
            path,
            contents: crate::game::history::write_history(self.game.start(), self.game.moves()),
        })
    }

    /// The draw offer in a trainer game: the tables accept a drawn
    /// position and decline the rest.
    pub(super) fn trainer_draw_offer(&mut self, now: Instant) {
        let Some(t) = self.tables.clone() else {
            return;
        };
        let human = self.trainer.as_ref().map_or(Color::White, |t| t.human);
        let board = self.board().clone();
        let Some(p) = t.probe(&board) else {
            self.error("The tables do not cover this position.");
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
            self.info(format!("The tables decline: {you}."));
        } else {
            self.finish(
                Ending {
                    result: GameResult::Draw,
                    termination: Termination::Agreement,
                },
                now,
            );
            self.info("The tables accept the draw.");
        }
    }
}
