//! The application state and its one entry point, [`App::update`].
//!
//! Everything the app wants done outside itself (start a search, save a
//! file, copy to the clipboard) is queued as an [`Effect`] for the runtime in
//! `ui::run`; tests drive `update` with key, mouse and engine messages and
//! an injected clock, then look at the state and the effects.

use super::clock::{Clocks, Control, format_clock, parse_pgn_clock, pgn_clock};
use super::config::{Config, PieceStyle, TimeControl};
pub use super::input::{color_name, role_name};
use super::input::{could_begin_move, looks_like_move_prefix, parse_move};
use super::keymap::{Action, KeyMap, begins_move};
use super::layout::{self, BoardGeometry};
use super::player::{EngineEvent, EngineSpec, Progress, Purpose, Request, SearchLine};
pub use super::text::{capitalise, describe_ending, san_line, score_text, shown_to};
use super::theme::Theme;
use crate::engine::{Board, Bound, Clock, Limits, Score};
use crate::game::library::{Library, Status as GameStatus};
use crate::game::review::MoveReview;
use crate::game::{Ending, Game, GameResult, Termination};
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use shakmaty::{Color, Move, Position, Role, Square};
use std::path::PathBuf;
use std::time::{Duration, Instant};

mod dialog;
mod flow;
mod house;
mod house_live;
mod keys;
mod msg;
mod replay;
mod review;
mod start;
mod trainer;

pub use super::player::parse_limits;
use super::player::{parse_spec_tag, spec_tag};
pub use dialog::{DIALOG_FIELDS, NewGameDialog, SIDES, VARIANTS, time_choices};
pub use msg::{Effect, Msg, ReviewRequest, Slot};
pub use trainer::{Preparing, REPLY_DELAY, TrainerGame, TrainerMenu, TrainerStart};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A human plays `human` against the engine.
    HumanVsEngine {
        human: Color,
    },
    EngineVsEngine,
    HumanVsHuman,
}

impl Mode {
    pub fn is_human(self, c: Color) -> bool {
        match self {
            Mode::HumanVsEngine { human } => human == c,
            Mode::EngineVsEngine => false,
            Mode::HumanVsHuman => true,
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Mode::HumanVsEngine {
                human: Color::White,
            } => "human-white",
            Mode::HumanVsEngine {
                human: Color::Black,
            } => "human-black",
            Mode::EngineVsEngine => "engines",
            Mode::HumanVsHuman => "humans",
        }
    }

    fn from_tag(s: &str) -> Option<Mode> {
        Some(match s {
            "human-white" => Mode::HumanVsEngine {
                human: Color::White,
            },
            "human-black" => Mode::HumanVsEngine {
                human: Color::Black,
            },
            "engines" => Mode::EngineVsEngine,
            "humans" => Mode::HumanVsHuman,
            _ => return None,
        })
    }
}

/// A new game's settings.
#[derive(Clone, Debug)]
pub struct Setup {
    pub mode: Mode,
    pub engine: EngineSpec,
    pub time: Option<TimeControl>,
    pub start: Board,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusKind {
    Info,
    Error,
}

#[derive(Clone, Debug)]
pub struct Status {
    pub text: String,
    pub kind: StatusKind,
}

#[derive(Clone, Debug)]
pub enum Overlay {
    None,
    /// The keys; `scroll` is the first line shown.
    Help {
        scroll: u16,
    },
    /// The evaluation of the position, term by term; `simple` picks the
    /// table shown when only one fits.
    Eval {
        simple: bool,
    },
    NewGame(Box<NewGameDialog>),
    Promotion {
        from: Square,
        to: Square,
        choice: usize,
    },
    ConfirmResign,
    /// Two players: the opponent of the offering side answers.
    DrawOffer,
    /// An unfinished game was found on start.
    Resume {
        path: PathBuf,
        game: Box<Game>,
        summary: String,
    },
    /// A text to read (the Crazyhouse evaluation term by term); any key
    /// closes it.
    Text {
        title: String,
        lines: Vec<String>,
    },
    /// An unfinished Crazyhouse or Bughouse game was found on start.
    ResumeHouse {
        path: PathBuf,
        summary: String,
        setup: Box<super::house::live::LiveSetup>,
    },
    /// The games of the file being replayed; `selected` is highlighted.
    Games {
        selected: usize,
    },
    /// Choosing a game file to open.
    Files(Box<super::replay::FilePicker>),
    /// The endgame trainer's menu.
    Trainer(TrainerMenu),
}

/// A game file being read.
#[derive(Clone, Debug)]
pub struct Opening {
    pub id: u64,
    pub path: PathBuf,
    /// Share indexed so far (0..1).
    pub share: f64,
    /// Game to show first (from 0), as `kibitz replay --game` asked.
    pub game: Option<usize>,
}

pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// What the search panel shows: the latest search of either engine.
#[derive(Clone, Debug, Default)]
pub struct SearchView {
    pub engine: String,
    pub thinking: bool,
    /// The position the lines are about, and its half-move number.
    pub board: Option<Board>,
    pub ply: usize,
    /// The latest line of each MultiPV rank.
    pub lines: Vec<SearchLine>,
    /// The main line of every completed iteration, in order of depth.
    pub iterations: Vec<SearchLine>,
    /// The root move being searched now.
    pub progress: Option<Progress>,
    pub started: Option<Instant>,
}

impl SearchView {
    /// A view for a new search of `board` (half-move `ply`).
    pub fn new(engine: String, board: &Board, ply: usize, now: Instant) -> SearchView {
        SearchView {
            engine,
            thinking: true,
            board: Some(board.clone()),
            ply,
            started: Some(now),
            ..SearchView::default()
        }
    }

    /// Takes in an engine's line: MultiPV rank, iteration history.
    fn add_line(&mut self, line: SearchLine) {
        let idx = line.multipv.max(1) as usize - 1;
        if line.multipv <= 1 {
            match self.iterations.last_mut() {
                Some(last) if last.depth == line.depth => *last = line.clone(),
                _ => self.iterations.push(line.clone()),
            }
            // Keep the panel's history short.
            if self.iterations.len() > 64 {
                self.iterations.remove(0);
            }
        }
        if self.lines.len() <= idx {
            self.lines.resize(idx + 1, SearchLine::default());
        }
        self.lines[idx] = line;
    }
}

/// Analysis mode settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisMode {
    /// Best lines shown (MultiPV), 1-5.
    pub lines: usize,
}

#[derive(Clone, Debug)]
pub struct Hint {
    pub mv: Move,
    pub line: Vec<Move>,
    pub score: Option<Score>,
    /// Half-move number the hint belongs to.
    pub ply: usize,
}

pub struct App {
    pub config: Config,
    pub keys: KeyMap,
    pub themes: Vec<Theme>,
    pub theme: usize,
    pub ascii: bool,
    pub flipped: bool,
    pub game: Game,
    pub mode: Mode,
    pub spec: EngineSpec,
    pub time: Option<TimeControl>,
    pub clocks: Option<Clocks>,
    /// Remaining times before each move (for takebacks).
    clock_history: Vec<(Duration, Duration)>,
    pub paused: bool,
    pub cursor: Square,
    pub selected: Option<Square>,
    /// Mouse drag in progress: from square, and whether the piece was
    /// already selected when the button went down.
    drag: Option<(Square, bool)>,
    pub input: String,
    /// The move box opened with its key (`:`), before anything is typed:
    /// inside it every letter is text (`nf3`, `n@f3`).
    pub move_box_open: bool,
    /// The text in the move box was refused: it stays on show until the
    /// next key, and a typed character starts a new move (Backspace
    /// corrects it instead).
    pub input_refused: bool,
    /// The last command a key ran (for tests and the help screen).
    pub last_action: Option<Action>,
    /// The last replay command a key ran.
    pub last_replay_action: Option<super::keymap::ReplayAction>,
    /// Cursor letters (`h`, `k`) typed just now that may still become a
    /// move, and where the cursor was before them.
    pending_letters: String,
    pending_cursor: Square,
    pub status: Option<Status>,
    pub overlay: Overlay,
    pub search: SearchView,
    /// The opponent engine's name, as it reported it.
    pub opponent_name: String,
    /// What the engines said each position is worth, White's view, by
    /// half-move (0 = the start position): the eval bar and graph.
    pub evals: Vec<Option<Score>>,
    /// Show scores from White's point of view instead of the side to move's.
    pub white_view: bool,
    /// Analysis mode: the assistant analyses every position shown.
    pub analysis: Option<AnalysisMode>,
    /// Replaying a game file (instead of playing).
    pub replay: Option<Box<super::replay::Replay>>,
    /// A game file being opened.
    pub opening: Option<Opening>,
    /// The move-number box of the replay screen (`:` or a digit).
    pub goto: Option<String>,
    /// The analysis setting before the replay screen turned it on.
    analysis_before_replay: Option<Option<AnalysisMode>>,
    /// Where the repository's sample games are (for the file picker).
    pub samples_dir: Option<PathBuf>,
    /// The search-tree explorer, when open (it covers the screen).
    pub explorer: Option<Box<super::explorer::Explorer>>,
    /// The game was paused when the explorer opened (it resumes on close).
    paused_for_explorer: bool,
    /// The explorer of a Crazyhouse/Bughouse position, when open.
    pub house_explorer: Option<super::explorer::AnyExplorer>,
    /// A Crazyhouse or Bughouse file being replayed (it covers the screen).
    pub house: Option<Box<super::house::HouseReplay>>,
    /// The game was paused when that screen opened (it resumes on close).
    paused_for_house: bool,
    /// Where a live Crazyhouse/Bughouse game is saved.
    pub house_save: Option<PathBuf>,
    /// `m` was pressed: the next key picks a partner message.
    pub house_message: bool,
    /// Resign was pressed once.
    house_resign_armed: bool,
    /// A typed board move only a drop can make (`Nf5` with a knight in
    /// hand): asking whether to drop it.
    house_confirm_drop: Option<(Role, Square)>,
    /// The position (half-move) and line count the running analysis is for.
    analysis_running: Option<(usize, usize, u64)>,
    /// An analysis that ended by itself (mate found, depth limit): not to
    /// be started again for the same position and lines.
    analysis_done: Option<(usize, usize, u64)>,
    pub hint: Option<Hint>,
    /// Outstanding requests: (slot, id, purpose).
    pending: Vec<(Slot, u64, Purpose)>,
    next_id: u64,
    /// Last score the opponent engine reported, its own point of view.
    engine_score: Option<Score>,
    pub effects: Vec<Effect>,
    pub save_path: Option<PathBuf>,
    /// The current game has a file (`save_path` was written).
    saved: bool,
    /// The opponent engine failed; the next request starts a new one.
    engine_dead: bool,
    /// What the command line asked for: new games from the resume prompt
    /// start like this.
    pub launch_setup: Option<Setup>,
    pub data_dir: Option<PathBuf>,
    pub size: (u16, u16),
    /// Move-list scroll: lines up from the bottom.
    pub scroll: usize,
    pub quit: bool,
    /// Time per move for hints.
    pub hint_time: Duration,
    started_at: Option<Instant>,
    /// Engine vs engine: a move that arrived early, played when it is due.
    queued: Option<(Move, Instant)>,
    last_move_at: Option<Instant>,
    /// The endgame trainer's game, when one is played.
    pub trainer: Option<Box<TrainerGame>>,
    /// Tables loaded for the trainer.
    pub tables: Option<crate::ui::trainer::Tables>,
    /// Where the trainer's tables live (default: the data folder's
    /// `tablebases`).
    pub tables_dir: Option<PathBuf>,
    /// Tables being prepared for the trainer.
    pub preparing: Option<Preparing>,
    /// The board editor, when open.
    pub editor: Option<Box<crate::ui::trainer::Editor>>,
    pub trainer_rng: crate::util::Rng,
    last_trainer_menu: Option<TrainerMenu>,
    /// A live game was paused for the trainer's menu or editor.
    paused_for_trainer: bool,
    /// Tables being made in the background: request id and material.
    tables_job: Option<(u64, crate::tablebase::Material)>,
    /// The time control before trainer games (for the new-game dialog).
    time_before_trainer: Option<TimeControl>,
}

impl App {
    pub fn new(config: Config, themes: Vec<Theme>, data_dir: Option<PathBuf>) -> App {
        let theme = config
            .theme
            .as_ref()
            .and_then(|t| themes.iter().position(|x| &x.name == t))
            .unwrap_or(0);
        let level = config.level.clamp(1, 8);
        let spec = match &config.engine {
            Some(p) => EngineSpec::External {
                command: p.to_string_lossy().into_owned(),
            },
            None => EngineSpec::BuiltIn { level },
        };
        App {
            keys: config.keys.clone(),
            ascii: config.piece_style == PieceStyle::Ascii,
            time: config.time_control,
            config,
            themes,
            theme,
            flipped: false,
            game: Game::new(Board::startpos()),
            mode: Mode::HumanVsEngine {
                human: Color::White,
            },
            spec,
            clocks: None,
            clock_history: Vec::new(),
            paused: false,
            cursor: Square::E2,
            selected: None,
            drag: None,
            input: String::new(),
            pending_letters: String::new(),
            move_box_open: false,
            input_refused: false,
            last_action: None,
            last_replay_action: None,
            pending_cursor: Square::E2,
            status: None,
            overlay: Overlay::None,
            search: SearchView::default(),
            opponent_name: String::new(),
            evals: Vec::new(),
            white_view: true,
            analysis: None,
            analysis_running: None,
            analysis_done: None,
            replay: None,
            opening: None,
            goto: None,
            analysis_before_replay: None,
            samples_dir: None,
            explorer: None,
            paused_for_explorer: false,
            house: None,
            house_explorer: None,
            paused_for_house: false,
            house_save: None,
            house_message: false,
            house_resign_armed: false,
            house_confirm_drop: None,
            hint: None,
            pending: Vec::new(),
            next_id: 1,
            engine_score: None,
            effects: Vec::new(),
            save_path: None,
            saved: false,
            engine_dead: false,
            launch_setup: None,
            data_dir,
            size: (80, 24),
            scroll: 0,
            quit: false,
            hint_time: Duration::from_millis(1500),
            started_at: None,
            queued: None,
            last_move_at: None,
            trainer: None,
            tables: None,
            tables_dir: None,
            preparing: None,
            editor: None,
            trainer_rng: crate::util::Rng::from_entropy(),
            last_trainer_menu: None,
            paused_for_trainer: false,
            tables_job: None,
            time_before_trainer: None,
        }
    }

    pub fn theme(&self) -> &Theme {
        &self.themes[self.theme.min(self.themes.len().saturating_sub(1))]
    }

    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    fn info(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            kind: StatusKind::Info,
        });
    }

    fn error(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            kind: StatusKind::Error,
        });
    }

    pub fn board(&self) -> &Board {
        self.game.current()
    }

    pub fn is_over(&self) -> bool {
        self.game.ending.is_some()
    }

    /// The human may move now.
    pub fn human_to_move(&self) -> bool {
        self.replay.is_none()
            && self.editor.is_none()
            && self.preparing.is_none()
            && !self.is_over()
            && !self.paused
            && matches!(
                self.overlay,
                Overlay::None | Overlay::Help { .. } | Overlay::Eval { .. }
            )
            && self.mode.is_human(self.board().turn())
    }

    /// Keys may go to the move box: a live game with a human player and no
    /// dialog open (moves typed during the engine's turn wait in the box).
    /// A move is being typed (the move box is shown).
    pub fn move_box_shown(&self) -> bool {
        !self.input.is_empty() || self.move_box_open
    }

    /// Empties and closes the move box.
    pub(super) fn close_move_box(&mut self) {
        self.input.clear();
        self.move_box_open = false;
        self.input_refused = false;
    }

    fn typing_allowed(&self) -> bool {
        self.replay.is_none()
            && self.editor.is_none()
            && self.preparing.is_none()
            && !self.is_over()
            && self.mode != Mode::EngineVsEngine
            && matches!(self.overlay, Overlay::None)
    }

    fn engine_to_move(&self) -> bool {
        self.replay.is_none()
            && self.editor.is_none()
            && !self.is_over()
            && !self.paused
            && !self.mode.is_human(self.board().turn())
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

    // ------------------------------------------------------------------
    // Messages.

    pub fn update(&mut self, msg: Msg, now: Instant) {
        match msg {
            Msg::Key(k) => {
                if k.kind != KeyEventKind::Release {
                    self.on_key(k, now);
                }
            }
            Msg::Mouse(m) => self.on_mouse(m, now),
            Msg::Resize(w, h) => self.size = (w, h),
            Msg::Tick => self.on_tick(now),
            Msg::Engine(slot, e) => self.on_engine(slot, e, now),
            Msg::Error(e) => self.error(e),
            Msg::Note(n) => self.info(n),
            Msg::TreeRecorded { id, recording } => {
                if let Some(ex) = &mut self.explorer {
                    ex.recorded(id, *recording);
                }
            }
            Msg::Compared { id, row, result } => {
                if let Some(ex) = &mut self.explorer {
                    ex.compared(id, row, result);
                } else if let Some(ex) = &mut self.house_explorer {
                    ex.compared(id, row, result);
                }
            }
            Msg::HouseTreeRecorded { id, recording } => {
                if let Some(ex) = &mut self.house_explorer {
                    ex.recorded(id, recording);
                }
            }
            Msg::Indexing { id, share } => {
                if let Some(o) = &mut self.opening
                    && o.id == id
                {
                    o.share = share;
                }
            }
            Msg::Opened { id, path, result } => self.on_opened(id, path, result, now),
            Msg::HouseOpened { id, path, result } => self.on_house_opened(id, path, result, now),
            Msg::HouseEngine { seat, news } => self.on_house_engine(seat, news, now),
            Msg::Checked { id, statuses, done } => self.on_checked(id, statuses, done),
            Msg::TablesProgress { id, text, share } => self.on_tables_progress(id, text, share),
            Msg::TablesReady { id, result } => self.on_tables_ready(id, result, now),
            Msg::Reviewed {
                id,
                done,
                total,
                review,
                finished,
            } => self.on_reviewed(id, done, total, review, finished),
        }
        self.sync_analysis(now);
    }

    /// Opens the tree explorer on the position on the board.
    pub fn open_explorer(&mut self, depth: crate::engine::Depth, standalone: bool, now: Instant) {
        let mut pos = crate::engine::GamePosition::new(self.game.start().clone());
        for &m in self.game.moves() {
            pos.push(m);
        }
        if !crate::engine::has_legal_moves(pos.current()) {
            self.error("The game is over here: there is no search to explore.");
            return;
        }
        let ex = super::explorer::Explorer::new(
            pos,
            depth,
            crate::engine::Features::default(),
            crate::engine::tree::DEFAULT_NODE_CAP,
        );
        self.start_explorer(ex, standalone, now);
    }

    /// Shows `ex` and asks for its first recording. A live game pauses
    /// meanwhile (clocks, engine, analysis) and resumes when it closes.
    pub fn start_explorer(
        &mut self,
        mut ex: super::explorer::Explorer,
        standalone: bool,
        now: Instant,
    ) {
        ex.standalone = standalone;
        if !standalone && !self.is_over() && !self.paused && self.mode_is_live() {
            self.toggle_pause(now);
            self.paused_for_explorer = true;
        }
        self.next_id += 1;
        let req = ex.start(self.next_id);
        self.effects.push(Effect::Explorer(req));
        self.explorer = Some(Box::new(ex));
    }

    /// A game that would go on by itself or against a clock (something to
    /// pause): an engine plays, or the clocks run.
    fn mode_is_live(&self) -> bool {
        self.mode != Mode::HumanVsHuman || self.clocks.is_some()
    }

    /// Records what a search found a position worth (side to move's view).
    fn note_eval(&mut self, ply: usize, board: &Board, score: Score) {
        if ply > self.game.moves().len() {
            return;
        }
        if let Some(r) = &mut self.replay
            && ply == self.game.moves().len()
            && board.hash() == self.game.current().hash()
            && let Some(slot) = r.evals.get_mut(r.cursor)
        {
            *slot = Some(match board.turn() {
                Color::White => score,
                Color::Black => -score,
            });
        }
        if self.evals.len() <= ply {
            self.evals.resize(ply + 1, None);
        }
        self.evals[ply] = Some(match board.turn() {
            Color::White => score,
            Color::Black => -score,
        });
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

    pub fn started(&self) -> Option<Instant> {
        self.started_at
    }
}
