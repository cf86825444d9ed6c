//! The chess screen: a board with a game on it, played live (against the
//! engine, an external engine or a person), as an endgame-trainer game, or
//! replayed from a file. Its state is [`ChessScreen`]; its logic runs on
//! [`Chess`], the screen together with what every screen shares.
//!
//! Files: `flow.rs` (turns, engine answers, clocks, the end of a game),
//! `keys.rs` (keys and mouse), `start.rs` (new and resumed games),
//! `replay.rs` and `review.rs` (a replayed file), `trainer.rs` (the
//! endgame trainer's game).

use super::screen::{Screen, screen_any};
use super::*;

mod flow;
mod keys;
mod replay;
mod review;
mod start;
mod trainer;

pub use trainer::{REPLY_DELAY, TrainerGame};

/// A chess game on the board, and everything shown around it.
pub struct ChessScreen {
    pub game: Game,
    pub mode: Mode,
    pub spec: EngineSpec,
    pub time: Option<TimeControl>,
    pub clocks: Option<Clocks>,
    /// Remaining times before each move (for takebacks).
    pub(super) clock_history: Vec<(Duration, Duration)>,
    pub paused: bool,
    /// Paused because another screen opened over this one (it goes on when
    /// this screen is on top again).
    pub(super) paused_under: bool,
    pub cursor: Square,
    pub selected: Option<Square>,
    /// Mouse drag in progress: from square, and whether the piece was
    /// already selected when the button went down.
    pub(super) drag: Option<(Square, bool)>,
    pub input: String,
    /// The move box opened with its key (`:`), before anything is typed:
    /// inside it every letter is text (`nf3`, `n@f3`).
    pub move_box_open: bool,
    /// The text in the move box was refused: it stays on show until the
    /// next key, and a typed character starts a new move (Backspace
    /// corrects it instead).
    pub input_refused: bool,
    /// Cursor letters (`h`, `k`) typed just now that may still become a
    /// move, and where the cursor was before them.
    pub(super) pending_letters: String,
    pub(super) pending_cursor: Square,
    pub search: SearchView,
    /// The opponent engine's name, as it reported it.
    pub opponent_name: String,
    /// What the engines said each position is worth, White's view, by
    /// half-move (0 = the start position): the eval bar and graph.
    pub evals: Vec<Option<Score>>,
    /// Analysis mode: the assistant analyses every position shown.
    pub analysis: Option<AnalysisMode>,
    /// Replaying a game file (instead of playing).
    pub replay: Option<Box<crate::ui::replay::Replay>>,
    /// The move-number box of the replay screen (`:` or a digit).
    pub goto: Option<String>,
    /// The analysis setting before the replay screen turned it on.
    pub(super) analysis_before_replay: Option<Option<AnalysisMode>>,
    /// The position (half-move) and line count the running analysis is for.
    pub(super) analysis_running: Option<(usize, usize, u64)>,
    /// An analysis that ended by itself (mate found, depth limit): not to
    /// be started again for the same position and lines.
    pub(super) analysis_done: Option<(usize, usize, u64)>,
    pub hint: Option<Hint>,
    /// Outstanding requests: (slot, id, purpose).
    pub(super) pending: Vec<(Slot, u64, Purpose)>,
    /// Last score the opponent engine reported, its own point of view.
    pub(super) engine_score: Option<Score>,
    pub save_path: Option<PathBuf>,
    /// The current game has a file (`save_path` was written).
    pub(super) saved: bool,
    /// The opponent engine failed; the next request starts a new one.
    pub(super) engine_dead: bool,
    /// Move-list scroll: lines up from the bottom.
    pub scroll: usize,
    /// Time per move for hints.
    pub hint_time: Duration,
    pub(super) started_at: Option<Instant>,
    /// Engine vs engine: a move that arrived early, played when it is due.
    pub(super) queued: Option<(Move, Instant)>,
    pub(super) last_move_at: Option<Instant>,
    /// The endgame trainer's game, when one is played.
    pub trainer: Option<Box<TrainerGame>>,
}

impl ChessScreen {
    /// An empty board with the start position, not yet started.
    pub fn new(spec: EngineSpec, time: Option<TimeControl>) -> ChessScreen {
        ChessScreen {
            game: Game::new(Board::startpos()),
            mode: Mode::HumanVsEngine {
                human: Color::White,
            },
            spec,
            time,
            clocks: None,
            clock_history: Vec::new(),
            paused: false,
            paused_under: false,
            cursor: Square::E2,
            selected: None,
            drag: None,
            input: String::new(),
            move_box_open: false,
            input_refused: false,
            pending_letters: String::new(),
            pending_cursor: Square::E2,
            search: SearchView::default(),
            opponent_name: String::new(),
            evals: Vec::new(),
            analysis: None,
            replay: None,
            goto: None,
            analysis_before_replay: None,
            analysis_running: None,
            analysis_done: None,
            hint: None,
            pending: Vec::new(),
            engine_score: None,
            save_path: None,
            saved: false,
            engine_dead: false,
            scroll: 0,
            hint_time: Duration::from_millis(1500),
            started_at: None,
            queued: None,
            last_move_at: None,
            trainer: None,
        }
    }

    pub fn board(&self) -> &Board {
        self.game.current()
    }

    pub fn is_over(&self) -> bool {
        self.game.ending.is_some()
    }

    /// A live game (not a replay).
    pub fn is_live(&self) -> bool {
        self.replay.is_none()
    }

    /// The human may move now (`ui` for the overlay: a dialog blocks).
    pub fn human_to_move(&self, ui: &Shared) -> bool {
        self.replay.is_none()
            && ui.trainer.preparing.is_none()
            && !self.is_over()
            && !self.paused
            && matches!(
                ui.overlay,
                Overlay::None | Overlay::Help { .. } | Overlay::Eval { .. }
            )
            && self.mode.is_human(self.board().turn())
    }

    /// A move is being typed (the move box is shown).
    pub fn move_box_shown(&self) -> bool {
        !self.input.is_empty() || self.move_box_open
    }

    pub fn engine_thinking(&self) -> bool {
        self.queued.is_some()
            || self
                .pending
                .iter()
                .any(|p| p.0 == Slot::Opponent && p.2 == Purpose::Move)
    }

    /// Legal destination squares of the piece on `from`.
    pub fn destinations(&self, from: Square) -> Vec<Square> {
        self.board()
            .chess()
            .legal_moves()
            .iter()
            .filter(|m| m.from() == Some(from))
            .map(|m| shown_to(*m))
            .collect()
    }

    /// The latest evaluation at or before the current position, White's view.
    pub fn current_eval(&self) -> Option<Score> {
        let ply = self.game.moves().len();
        self.evals.iter().take(ply + 1).rev().find_map(|e| *e)
    }

    /// Clock text for `color`, if there is a clock.
    pub fn clock_text(&self, color: Color, now: Instant) -> Option<String> {
        if let Some(r) = &self.replay {
            let (w, b) = r.clocks();
            return match color {
                Color::White => w,
                Color::Black => b,
            }
            .map(format_clock);
        }
        self.clocks
            .as_ref()
            .map(|c| format_clock(c.remaining(color, now)))
    }

    /// Threefold repetition or the 50-move rule, claimable now.
    pub fn claimable_draw(&self) -> Option<Ending> {
        match self.game.rule_ending(true) {
            Some(
                e @ Ending {
                    termination: Termination::ThreefoldRepetition | Termination::FiftyMoveRule,
                    ..
                },
            ) => Some(e),
            _ => None,
        }
    }

    pub fn started(&self) -> Option<Instant> {
        self.started_at
    }

    /// A game that would go on by itself or against a clock (something to
    /// pause): an engine plays, or the clocks run.
    fn mode_is_live(&self) -> bool {
        self.mode != Mode::HumanVsHuman || self.clocks.is_some()
    }
}

/// The chess screen at work: its state and the shared part of the app.
pub struct Chess<'a> {
    pub ui: &'a mut Shared,
    pub s: &'a mut ChessScreen,
}

impl Chess<'_> {
    pub fn board(&self) -> &Board {
        self.s.board()
    }

    pub fn is_over(&self) -> bool {
        self.s.is_over()
    }

    pub fn human_to_move(&self) -> bool {
        self.s.human_to_move(self.ui)
    }

    pub fn move_box_shown(&self) -> bool {
        self.s.move_box_shown()
    }

    /// Empties and closes the move box.
    pub(super) fn close_move_box(&mut self) {
        self.s.input.clear();
        self.s.move_box_open = false;
        self.s.input_refused = false;
    }

    fn typing_allowed(&self) -> bool {
        self.s.replay.is_none()
            && self.ui.trainer.preparing.is_none()
            && !self.is_over()
            && self.s.mode != Mode::EngineVsEngine
            && matches!(self.ui.overlay, Overlay::None)
    }

    fn engine_to_move(&self) -> bool {
        self.s.replay.is_none()
            && !self.is_over()
            && !self.s.paused
            && !self.s.mode.is_human(self.board().turn())
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
        if let Some(r) = &mut self.s.replay
            && ply == self.s.game.moves().len()
            && board.hash() == self.s.game.current().hash()
            && let Some(slot) = r.evals.get_mut(r.cursor)
        {
            *slot = Some(white);
        }
        if self.s.evals.len() <= ply {
            self.s.evals.resize(ply + 1, None);
        }
        self.s.evals[ply] = Some(white);
    }

    /// Opens the tree explorer on the position on the board.
    pub fn open_explorer(&mut self, depth: crate::engine::Depth) {
        let mut pos = crate::engine::GamePosition::new(self.s.game.start().clone());
        for &m in self.s.game.moves() {
            pos.push(m);
        }
        if !crate::engine::has_legal_moves(pos.current()) {
            self.ui
                .error("The game is over here: there is no search to explore.");
            return;
        }
        let ex = crate::ui::explorer::Explorer::new(
            pos,
            depth,
            crate::engine::Features::default(),
            crate::engine::tree::DEFAULT_NODE_CAP,
        );
        super::explorer::open(self.ui, ex, false);
    }

    /// Messages for this screen: engine answers, files read, reviews.
    fn message(&mut self, msg: Msg, now: Instant) -> Option<Msg> {
        match msg {
            Msg::Engine(slot, e) => self.on_engine(slot, e, now),
            Msg::Checked { id, statuses, done }
                if self.s.replay.as_ref().is_some_and(|r| r.file_id == id) =>
            {
                self.on_checked(id, statuses, done)
            }
            Msg::Reviewed {
                id,
                done,
                total,
                review,
                finished,
            } if self.s.replay.is_some() => self.on_reviewed(id, done, total, review, finished),
            other => return Some(other),
        }
        None
    }

    /// Another screen opens over this game: a live game pauses.
    fn covered(&mut self, now: Instant) {
        self.s.selected = None;
        self.s.drag = None;
        if self.s.replay.is_none()
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
        if let Some(r) = &mut self.s.replay {
            r.autoplay = None;
        }
        // The analysis stops; it starts again when the screen is back.
        let analysis = self.s.analysis.take();
        self.sync_analysis(now);
        self.s.analysis = analysis;
    }

    /// Back on top: a game paused for the screen above goes on (a game
    /// never started, beneath a file the app opened on, starts now).
    fn uncovered(&mut self, now: Instant) {
        if self.s.started_at.is_none() {
            let setup = self.ui.launch_setup.clone().unwrap_or_else(|| Setup {
                mode: Mode::HumanVsEngine {
                    human: Color::White,
                },
                engine: self.s.spec.clone(),
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

impl Screen for ChessScreen {
    fn key(&mut self, ui: &mut Shared, k: KeyEvent, now: Instant) {
        Chess { ui, s: self }.on_key(k, now);
    }

    fn mouse(&mut self, ui: &mut Shared, m: MouseEvent, now: Instant) {
        Chess { ui, s: self }.on_mouse(m, now);
    }

    fn tick(&mut self, ui: &mut Shared, now: Instant) {
        Chess { ui, s: self }.on_tick(now);
    }

    fn message(&mut self, ui: &mut Shared, msg: Msg, now: Instant) -> Option<Msg> {
        Chess { ui, s: self }.message(msg, now)
    }

    fn sync(&mut self, ui: &mut Shared, now: Instant) {
        Chess { ui, s: self }.sync_analysis(now);
    }

    fn draw(&self, ui: &Shared, buf: &mut Buffer, area: Rect, now: Instant) {
        crate::ui::view::draw_chess(buf, area, ui, self, now);
    }

    fn covered(&mut self, ui: &mut Shared, now: Instant) {
        Chess { ui, s: self }.covered(now);
    }

    fn uncovered(&mut self, ui: &mut Shared, now: Instant) {
        Chess { ui, s: self }.uncovered(now);
    }

    fn leave(&mut self, ui: &mut Shared) {
        let mut c = Chess { ui, s: self };
        c.stop_all();
        c.leave_replay();
        c.save();
    }

    screen_any!();
}
