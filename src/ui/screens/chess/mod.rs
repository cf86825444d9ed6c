//! The chess screens: [`ChessScreen<T>`] is a board with a game on it
//! ([`ChessGame`], the game component) and a [`Task`] that says what the
//! screen is for: playing (`Play`), replaying a file (`Replay`), the
//! endgame trainer's game (`TrainerGame`) or a puzzle or Retry position
//! (`Drill`). Its logic runs on [`Chess`], the screen together with what
//! every screen shares.
//!
//! Files: `game.rs` (the game component's state), `task.rs` (the Task
//! hooks, and Play's), `flow.rs` (turns, engine answers, clocks, the end of
//! a game), `keys.rs` (keys and mouse), `start.rs` (new and resumed games),
//! `draw/` (the drawing); one folder a task, its state, screen logic and
//! panel together: `replay/`, `drill/`, `trainer/`.

pub(crate) use crate::ui::prelude::*;
use crate::ui::state::screen::{Screen, screen_any};
use drill::Drill;
use replay::Replay;

pub mod draw;
pub mod drill;
mod flow;
pub mod game;
mod keys;
mod openings;
pub mod repdrill;
pub mod replay;
mod start;
mod task;
pub mod trainer;

pub use task::{Play, Task};

/// A chess screen: the game component and the task it is shown for.
pub struct ChessScreen<T: Task = Play> {
    pub game: ChessGame,
    pub task: T,
}

impl ChessScreen<Play> {
    /// A game to play, not yet started.
    pub fn play(spec: EngineSpec, time: Option<TimeControl>) -> ChessScreen<Play> {
        ChessScreen {
            game: ChessGame::new(spec, time),
            task: Play,
        }
    }
}

impl<T: Task> ChessScreen<T> {
    /// The screen at work with the shared part of the app.
    pub fn at<'a>(&'a mut self, ui: &'a mut Shared) -> Chess<'a, T> {
        Chess {
            ui,
            s: &mut self.game,
            task: &mut self.task,
        }
    }
}

/// A chess screen at work: its game, its task and the shared part of the app.
pub struct Chess<'a, T: Task = Play> {
    pub ui: &'a mut Shared,
    pub s: &'a mut ChessGame,
    pub task: &'a mut T,
}

impl<T: Task> Chess<'_, T> {
    pub fn board(&self) -> &Board {
        self.s.board()
    }

    pub fn is_over(&self) -> bool {
        self.s.is_over()
    }

    pub fn human_to_move(&self) -> bool {
        T::PLAYS && self.s.human_to_move(self.ui)
    }

    pub fn move_box_shown(&self) -> bool {
        self.s.move_box_shown()
    }

    /// Empties and closes the move box.
    pub(super) fn close_move_box(&mut self) {
        self.s.pick.typing.close();
    }

    fn typing_allowed(&self) -> bool {
        T::PLAYS
            && self.ui.trainer.preparing.is_none()
            && !self.is_over()
            && self.s.mode != Mode::EngineVsEngine
            && matches!(self.ui.overlay, Overlay::None)
    }

    fn engine_to_move(&self) -> bool {
        T::PLAYS && !self.is_over() && !self.s.paused && !self.s.mode.is_human(self.board().turn())
    }

    pub fn engine_thinking(&self) -> bool {
        self.s.engine_thinking()
    }

    pub fn destinations(&self, from: Square) -> Vec<Square> {
        self.s.destinations(from)
    }

    fn mode_is_live(&self) -> bool {
        self.s.mode_is_live()
    }

    /// Records what a search found a position worth (side to move's view).
    fn note_eval(&mut self, ply: usize, board: &Board, score: Score) {
        if ply > self.s.game.moves().len() {
            return;
        }
        let white = match board.turn() {
            Color::White => score,
            Color::Black => -score,
        };
        T::eval_noted(self, ply, board, white);
        if self.s.evals.len() <= ply {
            self.s.evals.resize(ply + 1, None);
        }
        self.s.evals[ply] = Some(white);
    }

    /// Opens the tree explorer on the position on the board.
    pub fn open_explorer(&mut self, depth: crate::engine::Depth) {
        self.open_explorer_at(depth, None);
    }

    /// [`Chess::open_explorer`] with a longer search's verdict on the
    /// position, which the explorer records deeper to show.
    pub(super) fn open_explorer_at(
        &mut self,
        depth: crate::engine::Depth,
        verdict: Option<crate::ui::screens::explorer::Verdict>,
    ) {
        let mut pos = crate::engine::GamePosition::new(self.s.game.start().clone());
        for &m in self.s.game.moves() {
            pos.push(m);
        }
        if !crate::engine::has_legal_moves(pos.current()) {
            self.ui
                .error("The game is over here: there is no search to explore.");
            return;
        }
        let mut ex = crate::ui::screens::explorer::Explorer::new(
            pos,
            depth,
            crate::engine::Features::default(),
            crate::engine::tree::DEFAULT_NODE_CAP,
        );
        ex.verdict = verdict;
        crate::ui::screens::explorer::open(self.ui, ex, false);
    }

    /// Messages for this screen: engine answers, then the task's own.
    fn message(&mut self, msg: Msg, now: Instant) -> Option<Msg> {
        match msg {
            // Its own engines', and the app's assistant's (for the screen
            // on top: a screen beneath asks it nothing).
            Msg::Engine {
                table,
                seat,
                report,
            } if table == APP_TABLE || table == self.s.opponent.table => {
                self.on_engine(seat, report, now)
            }
            other => return T::message(self, other, now),
        }
        None
    }

    /// Another screen opens over this game: a live game pauses.
    fn covered(&mut self, now: Instant) {
        self.s.pick.selected = None;
        self.s.pick.clear();
        if T::PLAYS
            && self.s.started_at.is_some()
            && !self.is_over()
            && !self.s.paused
            && self.mode_is_live()
        {
            let status = self.ui.status.take();
            self.toggle_pause(now);
            self.s.paused_under = true;
            self.ui.status = status;
        }
        T::covered(self);
        // The analysis stops; it starts again when the screen is back.
        let analysis = self.s.analysis.mode.take();
        self.sync_analysis(now);
        self.s.analysis.mode = analysis;
    }

    /// Back on top: a game paused for the screen above goes on (a game
    /// never started, beneath a file the app opened on, starts now).
    fn uncovered(&mut self, now: Instant) {
        if self.s.started_at.is_none() {
            let setup = self.ui.launch_setup.clone().unwrap_or_else(|| Setup {
                mode: Mode::HumanVsEngine {
                    human: Color::White,
                },
                engine: self.s.opponent.spec.clone(),
                time: self.s.time,
                start: Board::startpos(),
            });
            self.start_game(setup, now);
            return;
        }
        if std::mem::take(&mut self.s.paused_under) && self.s.paused {
            let status = self.ui.status.take();
            self.toggle_pause(now);
            self.ui.status = status;
        }
    }
}

impl<T: Task> Screen for ChessScreen<T> {
    fn key(&mut self, ui: &mut Shared, k: KeyEvent, now: Instant) {
        self.at(ui).on_key(k, now);
    }

    fn mouse(&mut self, ui: &mut Shared, m: MouseEvent, now: Instant) {
        self.at(ui).on_mouse(m, now);
    }

    fn tick(&mut self, ui: &mut Shared, now: Instant) {
        T::tick(&mut self.at(ui), now);
    }

    fn message(&mut self, ui: &mut Shared, msg: Msg, now: Instant) -> Option<Msg> {
        self.at(ui).message(msg, now)
    }

    fn sync(&mut self, ui: &mut Shared, now: Instant) {
        self.at(ui).sync_analysis(now);
        self.at(ui).sync_openings();
        self.game.opening.follow(&self.game.game);
    }

    fn draw(&self, ui: &Shared, buf: &mut Buffer, area: Rect, now: Instant) {
        draw::draw_chess(buf, area, ui, &self.game, self.task.view(), now);
    }

    fn covered(&mut self, ui: &mut Shared, now: Instant) {
        self.at(ui).covered(now);
    }

    fn uncovered(&mut self, ui: &mut Shared, now: Instant) {
        self.at(ui).uncovered(now);
    }

    fn leave(&mut self, ui: &mut Shared) {
        let mut c = self.at(ui);
        c.stop_all();
        T::leave(&mut c);
        c.save();
        c.s.opponent.quit(c.ui);
        // A game left before its first move leaves no empty file behind;
        // a game with moves is no longer claimed by this Kibitz.
        self.game.file.leave();
    }

    fn unsaved(&self, ui: &Shared) -> bool {
        let g = &self.game;
        T::KEPT && g.started_at.is_some() && ui.unsaved(g.file.path())
    }

    fn game_in_progress(&self) -> Option<String> {
        T::game_in_progress(&self.game, &self.task)
    }

    fn continue_typing(&mut self, ui: &mut Shared, text: &str) -> bool {
        let c = self.at(ui);
        if !c.typing_allowed() || !could_begin_move(c.board().chess(), text) {
            return false;
        }
        c.s.pick.typing.take(text);
        true
    }

    screen_any!();
}

/// The chess game on `s`, if it is a chess screen (of any task).
pub fn game_of(s: &dyn Screen) -> Option<&ChessGame> {
    let a = s.as_any();
    None.or_else(|| a.downcast_ref::<ChessScreen<Play>>().map(|c| &c.game))
        .or_else(|| a.downcast_ref::<ChessScreen<Replay>>().map(|c| &c.game))
        .or_else(|| {
            a.downcast_ref::<ChessScreen<TrainerGame>>()
                .map(|c| &c.game)
        })
        .or_else(|| a.downcast_ref::<ChessScreen<Drill>>().map(|c| &c.game))
        .or_else(|| {
            a.downcast_ref::<ChessScreen<repdrill::RepertoireDrill>>()
                .map(|c| &c.game)
        })
}

/// [`game_of`], to change.
pub fn game_of_mut(s: &mut dyn Screen) -> Option<&mut ChessGame> {
    let a = s.as_any_mut();
    if a.is::<ChessScreen<Play>>() {
        return a.downcast_mut::<ChessScreen<Play>>().map(|c| &mut c.game);
    }
    if a.is::<ChessScreen<Replay>>() {
        return a.downcast_mut::<ChessScreen<Replay>>().map(|c| &mut c.game);
    }
    if a.is::<ChessScreen<TrainerGame>>() {
        return a
            .downcast_mut::<ChessScreen<TrainerGame>>()
            .map(|c| &mut c.game);
    }
    if a.is::<ChessScreen<Drill>>() {
        return a.downcast_mut::<ChessScreen<Drill>>().map(|c| &mut c.game);
    }
    a.downcast_mut::<ChessScreen<repdrill::RepertoireDrill>>()
        .map(|c| &mut c.game)
}
