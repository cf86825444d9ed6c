//! The application state and its one entry point, [`App::update`].
//!
//! Everything the app wants done outside itself (start a search, save a
//! file, copy to the clipboard) is queued as an [`Effect`] for the runtime in
//! `ui::run`; tests drive `update` with key, mouse and engine messages and
//! an injected clock, then look at the state and the effects.

use super::clock::{Clocks, Control, format_clock, parse_pgn_clock, pgn_clock};
use super::config::{Action, Config, KeyMap, PieceStyle, TimeControl};
pub use super::input::{color_name, role_name};
use super::input::{could_begin_move, looks_like_move_prefix, parse_move};
use super::player::{EngineEvent, EngineSpec, Purpose, Request, SearchLine};
use super::theme::Theme;
use super::view::{self, BoardGeometry};
use crate::engine::{Board, Clock, Limits, Score};
use crate::game::{Ending, Game, GameResult, Termination};
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use shakmaty::{Color, Move, Position, Role, Square};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Which engine a request goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The opponent (built-in at a level, custom, or external).
    Opponent,
    /// The built-in engine at full strength, for hints.
    Assistant,
}

/// Work for the runtime.
#[derive(Clone, Debug)]
pub enum Effect {
    /// (Re)start the opponent engine.
    StartEngine(EngineSpec),
    /// Tell the engines a new game begins (clear hash tables).
    NewGame,
    /// The hint engine failed: start a new one.
    RestartAssistant,
    Go(Slot, Box<Request>),
    Stop(Slot),
    /// Write `contents` to `path` atomically.
    Save {
        path: PathBuf,
        contents: String,
    },
    /// Put text on the system clipboard (OSC 52) and save a copy to `path`.
    Copy {
        what: &'static str,
        text: String,
        path: Option<PathBuf>,
    },
    /// Remember the theme and board orientation.
    SaveState,
    Quit,
}

/// Messages the app reacts to.
#[derive(Clone, Debug)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Time passes (clocks, flag fall).
    Tick,
    Engine(Slot, EngineEvent),
    /// The runtime failed to do something (save, copy).
    Error(String),
    /// The runtime finished something worth telling the user.
    Note(String),
}

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

/// The new-game dialog.
#[derive(Clone, Debug)]
pub struct NewGameDialog {
    pub field: usize,
    /// 0 White, 1 Black, 2 Random, 3 engine vs engine, 4 two players.
    pub side: usize,
    /// 0..=7 levels 1-8, 8 custom limits, 9 external engine (if any).
    pub opponent: usize,
    pub limits: String,
    /// Index into [`time_choices`]; the last one is "custom".
    pub time: usize,
    pub custom_time: String,
    pub fen: String,
    pub error: Option<String>,
}

pub const SIDES: [&str; 5] = [
    "White",
    "Black",
    "Random",
    "Engine vs engine",
    "Two players",
];
pub const DIALOG_FIELDS: [&str; 6] = [
    "Play as",
    "Opponent",
    "Custom limits",
    "Time control",
    "Custom time",
    "Start FEN",
];

/// Choices of the time-control field: "none", the presets, "custom".
pub fn time_choices() -> Vec<String> {
    let mut v = vec!["none".to_string()];
    v.extend(
        super::config::TimeControl::presets()
            .iter()
            .map(|(n, _)| n.to_string()),
    );
    v.push("custom".to_string());
    v
}

#[derive(Clone, Debug)]
pub enum Overlay {
    None,
    Help,
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
}

pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// What the engine panel shows.
#[derive(Clone, Debug, Default)]
pub struct SearchView {
    pub engine: String,
    pub thinking: bool,
    /// The position the lines are about.
    pub board: Option<Board>,
    pub lines: Vec<SearchLine>,
    pub started: Option<Instant>,
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
    /// Cursor letters (`h`, `k`) typed just now that may still become a
    /// move, and where the cursor was before them.
    pending_letters: String,
    pending_cursor: Square,
    pub status: Option<Status>,
    pub overlay: Overlay,
    pub search: SearchView,
    /// The opponent engine's name, as it reported it.
    pub opponent_name: String,
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
            pending_cursor: Square::E2,
            status: None,
            overlay: Overlay::None,
            search: SearchView::default(),
            opponent_name: String::new(),
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
        !self.is_over()
            && !self.paused
            && matches!(self.overlay, Overlay::None | Overlay::Help)
            && self.mode.is_human(self.board().turn())
    }

    /// Keys may go to the move box: a live game with a human player and no
    /// dialog open (moves typed during the engine's turn wait in the box).
    fn typing_allowed(&self) -> bool {
        !self.is_over()
            && self.mode != Mode::EngineVsEngine
            && matches!(self.overlay, Overlay::None)
    }

    fn engine_to_move(&self) -> bool {
        !self.is_over() && !self.paused && !self.mode.is_human(self.board().turn())
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
    // Starting and resuming games.

    /// The default setup: human White against the configured opponent.
    pub fn default_setup(&self) -> Setup {
        Setup {
            mode: Mode::HumanVsEngine {
                human: Color::White,
            },
            engine: self.spec.clone(),
            time: self.time,
            start: Board::startpos(),
        }
    }

    pub fn start_game(&mut self, setup: Setup, now: Instant) {
        self.stop_all();
        if setup.engine != self.spec || self.opponent_name.is_empty() || self.engine_dead {
            self.effects.push(Effect::StartEngine(setup.engine.clone()));
            self.engine_dead = false;
        }
        self.effects.push(Effect::NewGame);
        self.spec = setup.engine;
        self.mode = setup.mode;
        self.time = setup.time;
        self.game = Game::new(setup.start);
        self.clock_history.clear();
        self.clocks = setup.time.map(|t| {
            Clocks::new(Control {
                base: t.base,
                increment: t.increment,
            })
        });
        self.paused = false;
        self.queued = None;
        self.last_move_at = None;
        self.pending_letters.clear();
        self.hint = None;
        self.selected = None;
        self.input.clear();
        self.scroll = 0;
        self.engine_score = None;
        self.search.lines.clear();
        self.search.thinking = false;
        self.overlay = Overlay::None;
        self.set_headers(now);
        self.save_path = self.new_save_path();
        self.saved = false;
        if let Mode::HumanVsEngine { human } = self.mode {
            self.flipped = human == Color::Black;
            self.cursor = if human == Color::White {
                Square::E2
            } else {
                Square::E7
            };
        }
        self.started_at = Some(now);
        let who = match self.mode {
            Mode::HumanVsEngine { human } => format!(
                "You play {} against {}.",
                color_name(human),
                self.spec.describe()
            ),
            Mode::EngineVsEngine => format!("{} plays itself. p pauses.", self.spec.describe()),
            Mode::HumanVsHuman => "Two players on one keyboard.".to_string(),
        };
        self.info(format!("New game. {who}"));
        self.save();
        self.next_turn(now);
    }

    fn set_headers(&mut self, now: Instant) {
        let _ = now;
        let engine = self.spec.describe();
        let (white, black) = match self.mode {
            Mode::HumanVsEngine {
                human: Color::White,
            } => ("You".to_string(), engine.clone()),
            Mode::HumanVsEngine {
                human: Color::Black,
            } => (engine.clone(), "You".to_string()),
            Mode::EngineVsEngine => (engine.clone(), engine.clone()),
            Mode::HumanVsHuman => ("White".to_string(), "Black".to_string()),
        };
        let g = &mut self.game;
        g.set_header("Event", "Kibitz game");
        g.set_header("Site", "Kibitz terminal");
        g.set_header("Date", crate::util::today());
        g.set_header("Round", "-");
        g.set_header("White", white);
        g.set_header("Black", black);
        g.set_header(
            "TimeControl",
            self.time.map_or("-".to_string(), |t| t.pgn_tag()),
        );
        g.set_header("KibitzMode", self.mode.tag());
        g.set_header("KibitzOpponent", spec_tag(&self.spec));
        if let EngineSpec::BuiltIn { level } = self.spec {
            g.set_header("KibitzLevel", level.to_string());
        }
    }

    fn new_save_path(&self) -> Option<PathBuf> {
        if !self.config.autosave {
            return None;
        }
        let dir = self.data_dir.as_ref()?.join("games");
        let stamp = crate::util::timestamp();
        let mut path = dir.join(format!("{stamp}.pgn"));
        let mut n = 2;
        while path.exists() {
            path = dir.join(format!("{stamp}-{n}.pgn"));
            n += 1;
        }
        Some(path)
    }

    /// Resumes a saved, unfinished game.
    pub fn resume(&mut self, game: Game, path: PathBuf, now: Instant) {
        self.stop_all();
        let mode = game
            .header("KibitzMode")
            .and_then(Mode::from_tag)
            .unwrap_or(Mode::HumanVsEngine {
                human: Color::White,
            });
        let mut spec = game
            .header("KibitzOpponent")
            .and_then(parse_spec_tag)
            .unwrap_or_else(|| self.spec.clone());
        // A saved file names a command to run: only run the one configured
        // here, never a program named by a file.
        if let EngineSpec::External { command } = &spec
            && self.external_command().as_deref() != Some(command.as_str())
        {
            spec = self.spec.clone();
        }
        let time = game
            .header("TimeControl")
            .and_then(TimeControl::from_pgn_tag);
        self.effects.push(Effect::StartEngine(spec.clone()));
        self.engine_dead = false;
        self.effects.push(Effect::NewGame);
        self.spec = spec;
        self.mode = mode;
        self.time = time;
        // Clocks: the last [%clk] of each side.
        self.clock_history.clear();
        self.clocks = time.map(|t| {
            let control = Control {
                base: t.base,
                increment: t.increment,
            };
            let mut rem = [t.base, t.base];
            let mut board = game.start().clone();
            for (i, &m) in game.moves().iter().enumerate() {
                self.clock_history.push((rem[0], rem[1]));
                let side = board.turn();
                if let Some(Some(c)) = game.comments().get(i)
                    && let Some(d) = parse_pgn_clock(c)
                {
                    rem[side as usize ^ 1] = d;
                }
                board = board.play(m);
            }
            Clocks::with_remaining(control, rem[0], rem[1])
        });
        self.game = game;
        self.queued = None;
        self.save_path = Some(path);
        self.saved = true;
        self.overlay = Overlay::None;
        self.hint = None;
        self.selected = None;
        if let Mode::HumanVsEngine { human } = self.mode {
            self.flipped = human == Color::Black;
        }
        self.info(format!(
            "Resumed the game after {} moves.",
            self.game.moves().len()
        ));
        self.next_turn(now);
    }

    // ------------------------------------------------------------------
    // Turn flow.

    /// After a move or a (re)start: end the game if the rules say so, else
    /// start the right clock and, if it is the engine's turn, ask it.
    fn next_turn(&mut self, now: Instant) {
        if self.is_over() {
            return;
        }
        if let Some(ending) = self.game.rule_ending(self.mode == Mode::EngineVsEngine) {
            self.finish(ending, now);
            return;
        }
        if self.paused {
            return;
        }
        let turn = self.board().turn();
        if let Some(c) = &mut self.clocks
            && c.running() != Some(turn)
            && !self.game.moves().is_empty()
        {
            c.start(turn, now);
        }
        if self.engine_to_move() && !self.engine_thinking() {
            // The engine claims a draw it is entitled to when it is not better.
            if let Some(claim) = self.claimable_draw()
                && self.engine_score.is_none_or(|s| s.0 <= 0)
            {
                self.finish(claim, now);
                return;
            }
            self.request_move(now);
        } else if self.human_to_move()
            && let Some(claim) = self.claimable_draw()
        {
            self.info(format!(
                "{}: you may claim a draw ({}).",
                capitalise(claim.termination.describe()),
                self.keys_hint(Action::OfferDraw)
            ));
        }
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

    fn request_move(&mut self, now: Instant) {
        if self.engine_dead {
            self.effects.push(Effect::StartEngine(self.spec.clone()));
            self.engine_dead = false;
        }
        let mut limits = self.spec.move_limits();
        if let Some(c) = &self.clocks {
            limits.clock = Some(Clock {
                wtime: Some(c.remaining(Color::White, now)),
                btime: Some(c.remaining(Color::Black, now)),
                winc: c.control.increment,
                binc: c.control.increment,
                movestogo: None,
            });
        } else if matches!(self.spec, EngineSpec::External { .. })
            && limits.depth.is_none()
            && limits.movetime.is_none()
            && limits.nodes.is_none()
        {
            // An external engine without a clock: a second per move.
            limits.movetime = Some(Duration::from_secs(1));
        } else if matches!(self.spec, EngineSpec::BuiltIn { level: 8 })
            && limits.depth.is_none()
            && limits.movetime.is_none()
        {
            // Full strength without a clock: two seconds per move.
            limits.movetime = Some(Duration::from_secs(2));
        }
        let id = self.next_id;
        self.next_id += 1;
        self.pending.push((Slot::Opponent, id, Purpose::Move));
        self.search = SearchView {
            engine: self.opponent_name.clone(),
            thinking: true,
            board: Some(self.board().clone()),
            lines: Vec::new(),
            started: Some(now),
        };
        self.effects.push(Effect::Go(
            Slot::Opponent,
            Box::new(Request {
                id,
                purpose: Purpose::Move,
                start: self.game.start().clone(),
                moves: self.game.moves().to_vec(),
                limits,
            }),
        ));
    }

    fn request_hint(&mut self, now: Instant) {
        if !self.human_to_move() {
            self.error("A hint is for your own move.");
            return;
        }
        if self.pending.iter().any(|p| p.2 == Purpose::Hint) {
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.pending.push((Slot::Assistant, id, Purpose::Hint));
        self.search = SearchView {
            engine: "Kibitz (hint)".to_string(),
            thinking: true,
            board: Some(self.board().clone()),
            lines: Vec::new(),
            started: Some(now),
        };
        self.info("Thinking about a hint...");
        self.effects.push(Effect::Go(
            Slot::Assistant,
            Box::new(Request {
                id,
                purpose: Purpose::Hint,
                start: self.game.start().clone(),
                moves: self.game.moves().to_vec(),
                limits: Limits {
                    movetime: Some(self.hint_time),
                    ..Limits::default()
                },
            }),
        ));
    }

    /// Drops the hint on the board and any hint search still running (after
    /// a move or a takeback it would be about another position).
    fn forget_hint(&mut self) {
        self.hint = None;
        let before = self.pending.len();
        self.pending.retain(|p| p.2 != Purpose::Hint);
        if self.pending.len() != before {
            self.effects.push(Effect::Stop(Slot::Assistant));
            self.search.thinking = !self.pending.is_empty();
        }
    }

    /// Stops and forgets every outstanding search.
    fn stop_all(&mut self) {
        for (slot, _, _) in self.pending.drain(..) {
            self.effects.push(Effect::Stop(slot));
        }
        self.search.thinking = false;
    }

    /// Plays a legal move for whoever is to move (unless the mover's flag
    /// fell before the move arrived).
    fn play(&mut self, m: Move, now: Instant) {
        let mover = self.board().turn();
        if let Some(flagged) = self.clocks.as_ref().and_then(|c| c.flagged(now)) {
            self.flag_fall(flagged, now);
            return;
        }
        self.forget_hint();
        let mut comment = None;
        if let Some(c) = &mut self.clocks {
            self.clock_history.push((
                c.remaining(Color::White, now),
                c.remaining(Color::Black, now),
            ));
            if self.game.moves().is_empty() && c.running().is_none() {
                // The first move does not cost time.
            } else {
                c.press(mover, now);
            }
            if c.running().is_none() || self.game.moves().is_empty() {
                c.start(!mover, now);
            }
            comment = Some(format!("[%clk {}]", pgn_clock(c.remaining(mover, now))));
        }
        self.game.push(m, comment);
        self.pending_letters.clear();
        self.last_move_at = Some(now);
        self.selected = None;
        self.drag = None;
        self.input.clear();
        self.scroll = 0;
        self.save();
        self.next_turn(now);
    }

    fn finish(&mut self, ending: Ending, now: Instant) {
        if self.is_over() {
            return;
        }
        if matches!(
            self.overlay,
            Overlay::ConfirmResign | Overlay::DrawOffer | Overlay::Promotion { .. }
        ) {
            self.overlay = Overlay::None;
        }
        self.stop_all();
        self.queued = None;
        if let Some(c) = &mut self.clocks {
            c.pause(now);
        }
        self.game.ending = Some(ending);
        self.selected = None;
        self.hint = None;
        self.info(format!("Game over: {}.", describe_ending(ending)));
        self.save();
    }

    fn save(&mut self) {
        // A game without moves gets no file (nor a resume prompt); once it
        // has one, the file follows every change, takebacks included.
        if self.game.moves().is_empty() && !self.saved {
            return;
        }
        if let Some(path) = &self.save_path {
            self.saved = true;
            self.effects.push(Effect::Save {
                path: path.clone(),
                contents: crate::game::write_pgn(&self.game),
            });
        }
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
        }
    }

    fn on_tick(&mut self, now: Instant) {
        if self.is_over() || self.paused {
            return;
        }
        if let Some((m, due)) = self.queued
            && now >= due
        {
            self.queued = None;
            if self.board().is_legal(m) {
                self.play(m, now);
            }
        }
        if let Some(flagged) = self.clocks.as_ref().and_then(|c| c.flagged(now)) {
            self.flag_fall(flagged, now);
        }
    }

    fn flag_fall(&mut self, flagged: Color, now: Instant) {
        // A flag fall is a draw when the opponent cannot possibly mate.
        let result = if self.board().chess().has_insufficient_material(!flagged) {
            GameResult::Draw
        } else {
            GameResult::win_for(!flagged)
        };
        self.finish(
            Ending {
                result,
                termination: Termination::TimeForfeit,
            },
            now,
        );
    }

    fn on_engine(&mut self, slot: Slot, e: EngineEvent, now: Instant) {
        match e {
            EngineEvent::Ready { name } => {
                if slot == Slot::Opponent {
                    self.opponent_name = name.clone();
                    if !self.pending.iter().any(|p| p.2 == Purpose::Hint) {
                        self.search.engine = name;
                    }
                }
            }
            EngineEvent::Failed { message } => {
                self.pending.retain(|p| p.0 != slot);
                self.search.thinking = !self.pending.is_empty();
                if slot == Slot::Assistant {
                    self.effects.push(Effect::RestartAssistant);
                    self.error(format!("Hint engine problem: {message}"));
                    return;
                }
                // The opponent is gone: the game cannot go on. The next
                // request (a new game, or after a takeback) starts a new one.
                self.opponent_name.clear();
                self.engine_dead = true;
                if !self.is_over() && self.mode != Mode::HumanVsHuman {
                    let loser = match self.mode {
                        Mode::HumanVsEngine { human } => !human,
                        _ => self.board().turn(),
                    };
                    self.finish(
                        Ending {
                            result: GameResult::win_for(!loser),
                            termination: Termination::Abandoned,
                        },
                        now,
                    );
                }
                self.error(format!("Engine problem: {message}"));
            }
            EngineEvent::IllegalMove { id, text } => {
                if !self.pending.iter().any(|p| p.1 == id) {
                    return;
                }
                self.pending.retain(|p| p.1 != id);
                self.search.thinking = !self.pending.is_empty();
                self.illegal_engine_move(&text, now);
            }
            EngineEvent::Info { id, line } => {
                // Lines of other requests, and MultiPV beyond what the panel
                // shows (an external engine could claim any number).
                if !self.pending.iter().any(|p| p.1 == id) || line.multipv > 8 {
                    return;
                }
                if line.multipv <= 1
                    && slot == Slot::Opponent
                    && let Some(s) = line.score
                {
                    self.engine_score = Some(s);
                }
                let idx = line.multipv.max(1) as usize - 1;
                if self.search.lines.len() <= idx {
                    self.search.lines.resize(idx + 1, SearchLine::default());
                }
                self.search.lines[idx] = line;
            }
            EngineEvent::Done {
                id,
                purpose,
                best,
                score,
                pv,
            } => {
                let Some(pos) = self.pending.iter().position(|p| p.1 == id) else {
                    return; // a cancelled request
                };
                self.pending.remove(pos);
                self.search.thinking = !self.pending.is_empty();
                match purpose {
                    Purpose::Hint => {
                        if let Some(mv) = best {
                            let board = self.board().clone();
                            let line_san = san_line(&board, &pv, 6);
                            self.hint = Some(Hint {
                                mv,
                                line: pv,
                                score,
                                ply: self.game.moves().len(),
                            });
                            let s = score
                                .map(|s| format!(" ({})", score_text(s)))
                                .unwrap_or_default();
                            self.info(format!("Hint: {}{s}   line: {line_san}", board.san(mv)));
                        }
                    }
                    Purpose::Move => {
                        if let Some(s) = score {
                            self.engine_score = Some(s);
                        }
                        if self.is_over() || self.paused {
                            return;
                        }
                        match best {
                            Some(m) if self.board().is_legal(m) => {
                                // Watching two engines without a clock: give
                                // each move time to be seen.
                                let due = self.last_move_at.map(|t| t + self.config.watch_delay);
                                match due {
                                    Some(due)
                                        if self.mode == Mode::EngineVsEngine
                                            && self.clocks.is_none()
                                            && now < due =>
                                    {
                                        self.queued = Some((m, due));
                                    }
                                    _ => self.play(m, now),
                                }
                            }
                            Some(m) => self.illegal_engine_move(&Board::uci(m), now),
                            None => {}
                        }
                    }
                }
            }
        }
    }

    /// The engine to move answered with an illegal move: it loses.
    fn illegal_engine_move(&mut self, text: &str, now: Instant) {
        let offender = self.board().turn();
        self.finish(
            Ending {
                result: GameResult::win_for(!offender),
                termination: Termination::IllegalMove,
            },
            now,
        );
        self.error(format!(
            "{} played an illegal move ({text}) and loses the game.",
            self.opponent_name
        ));
    }

    // ------------------------------------------------------------------
    // Keys.

    pub fn keys_hint(&self, a: Action) -> String {
        self.keys.keys_for(a).first().cloned().unwrap_or_default()
    }

    fn on_key(&mut self, k: KeyEvent, now: Instant) {
        // Ctrl+C always quits.
        if k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c') {
            self.do_quit();
            return;
        }
        match &self.overlay {
            Overlay::None => {}
            Overlay::Help => {
                self.overlay = Overlay::None;
                return;
            }
            Overlay::NewGame(_) => return self.dialog_key(k, now),
            Overlay::Promotion { .. } => return self.promotion_key(k, now),
            Overlay::ConfirmResign => {
                if matches!(k.code, KeyCode::Char('y') | KeyCode::Char('Y')) && !self.is_over() {
                    let loser = match self.mode {
                        Mode::HumanVsEngine { human } => human,
                        _ => self.board().turn(),
                    };
                    self.overlay = Overlay::None;
                    self.finish(
                        Ending {
                            result: GameResult::win_for(!loser),
                            termination: Termination::Resignation,
                        },
                        now,
                    );
                } else {
                    self.overlay = Overlay::None;
                    self.info("Play on.");
                }
                return;
            }
            Overlay::DrawOffer => {
                self.overlay = Overlay::None;
                if matches!(k.code, KeyCode::Char('y') | KeyCode::Char('Y')) && !self.is_over() {
                    self.finish(
                        Ending {
                            result: GameResult::Draw,
                            termination: Termination::Agreement,
                        },
                        now,
                    );
                } else {
                    self.info("Draw declined.");
                }
                return;
            }
            Overlay::Resume { .. } => {
                let resume = match k.code {
                    KeyCode::Char('y' | 'Y') | KeyCode::Enter => true,
                    KeyCode::Char('n' | 'N') => false,
                    KeyCode::Char('q') | KeyCode::Esc => return self.do_quit(),
                    _ => return,
                };
                let overlay = std::mem::replace(&mut self.overlay, Overlay::None);
                if let Overlay::Resume { path, game, .. } = overlay {
                    if resume {
                        self.resume(*game, path, now);
                    } else {
                        let setup = self
                            .launch_setup
                            .clone()
                            .unwrap_or_else(|| self.default_setup());
                        self.start_game(setup, now);
                        self.info(
                            "Started a new game; the unfinished one stays in your games folder.",
                        );
                    }
                }
                return;
            }
        }

        // Typing a move.
        if !self.input.is_empty() {
            match k.code {
                KeyCode::Enter => return self.submit_input(now),
                KeyCode::Esc => {
                    self.input.clear();
                    self.status = None;
                    return;
                }
                KeyCode::Backspace => {
                    self.input.pop();
                    return;
                }
                KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
                    if self.input.len() < 12 {
                        self.input.push(c);
                    }
                    return;
                }
                _ => {}
            }
        }

        let action = self.keys.action(&k);
        let plain_char = match k.code {
            KeyCode::Char(c)
                if !k
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                Some(c)
            }
            _ => None,
        };
        let cursor_key = matches!(
            action,
            Some(Action::Up | Action::Down | Action::Left | Action::Right)
        );
        if let Some(c) = plain_char
            && self.typing_allowed()
        {
            // Moves can be typed, and many command keys are letters that
            // begin moves. The rules, in order:
            // 1. h/j/k/l move the cursor at once. If they could begin a
            //    move (h3, kd2) they are remembered, and a next key that
            //    continues the move takes the cursor back and opens the
            //    move box with the whole text.
            // 2. Any other letter that can begin a move opens the move box
            //    (so an illegal move is explained, never mistaken for a
            //    command). Enter right after a lone command letter runs
            //    the command (see `submit_input`).
            let board = self.board().clone();
            let pending = std::mem::take(&mut self.pending_letters);
            let typed = format!("{pending}{c}");
            let legal = |t: &str| could_begin_move(board.chess(), t);
            if !pending.is_empty() {
                let continues = if cursor_key || action.is_some() {
                    legal(&typed)
                } else {
                    looks_like_move_prefix(&typed)
                };
                if continues && !cursor_key {
                    self.cursor = self.pending_cursor;
                    self.input = typed;
                    return;
                }
                if continues {
                    self.pending_letters = typed;
                    if let Some(a) = action {
                        self.move_cursor(a);
                    }
                    return;
                }
            }
            if cursor_key {
                if looks_like_move_prefix(&c.to_string()) {
                    self.pending_letters = c.to_string();
                    self.pending_cursor = self.cursor;
                }
                if let Some(a) = action {
                    self.move_cursor(a);
                }
                return;
            }
            if looks_like_move_prefix(&c.to_string()) {
                self.input.push(c);
                if let Some(a) = action {
                    let what = a.description();
                    let mut chars = what.chars();
                    let what = chars
                        .next()
                        .map(|c| c.to_lowercase().chain(chars).collect::<String>())
                        .unwrap_or_default();
                    self.info(format!(
                        "Type the rest of the move, or press Enter to {what}."
                    ));
                }
                return;
            }
        }
        self.pending_letters.clear();
        match (action, plain_char) {
            (Some(a), _) => self.run_action(a, now),
            (None, Some(c)) if !c.is_whitespace() => {
                self.error(format!(
                    "'{c}' is not a move or a command here ({} shows the keys).",
                    self.keys_hint(Action::Help)
                ));
            }
            _ => {}
        }
    }

    fn submit_input(&mut self, now: Instant) {
        let text = std::mem::take(&mut self.input);
        // A lone command letter followed by Enter: the command.
        if text.chars().count() == 1
            && let Some(c) = text.chars().next()
            && let Some(a) = self
                .keys
                .action(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
        {
            let board = self.board().clone();
            if parse_move(board.chess(), &text).is_err() {
                self.status = None;
                self.run_action(a, now);
                return;
            }
        }
        if !self.human_to_move() {
            self.error("Not your move yet: press Enter again when it is.");
            self.input = text;
            return;
        }
        let board = self.board().clone();
        match parse_move(board.chess(), &text) {
            Ok(m) => {
                self.status = None;
                self.play(m, now);
            }
            Err(e) => {
                self.error(e.to_string());
                // Keep the text so it can be corrected.
                self.input = text;
            }
        }
    }

    fn run_action(&mut self, a: Action, now: Instant) {
        match a {
            Action::Quit => self.do_quit(),
            Action::Help => self.overlay = Overlay::Help,
            Action::NewGame => self.open_new_game_dialog(),
            Action::Flip => {
                self.flipped = !self.flipped;
                self.effects.push(Effect::SaveState);
            }
            Action::CycleTheme => {
                if !self.themes.is_empty() {
                    self.theme = (self.theme + 1) % self.themes.len();
                    let name = self.theme().name.clone();
                    self.info(format!("Theme: {name}"));
                    self.effects.push(Effect::SaveState);
                }
            }
            Action::Takeback => self.takeback(now),
            Action::Hint => self.request_hint(now),
            Action::Resign => {
                if self.is_over() {
                    self.error("The game is over.");
                } else if self.mode == Mode::EngineVsEngine {
                    self.error("Nobody to resign for: the engine plays both sides.");
                } else {
                    self.overlay = Overlay::ConfirmResign;
                }
            }
            Action::OfferDraw => self.offer_draw(now),
            Action::Pause => self.toggle_pause(now),
            Action::CopyFen => {
                let fen = self.board().fen();
                self.effects.push(Effect::Copy {
                    what: "FEN",
                    text: fen,
                    path: self.data_dir.as_ref().map(|d| d.join("position.fen")),
                });
            }
            Action::CopyPgn => {
                let pgn = crate::game::write_pgn(&self.game);
                self.effects.push(Effect::Copy {
                    what: "PGN",
                    text: pgn,
                    path: self.data_dir.as_ref().map(|d| d.join("game.pgn")),
                });
            }
            Action::Up | Action::Down | Action::Left | Action::Right => self.move_cursor(a),
            Action::Select => self.select(self.cursor, now),
            Action::Cancel => {
                self.selected = None;
                self.status = None;
            }
            Action::ScrollUp => self.scroll = (self.scroll + 5).min(self.max_scroll()),
            Action::ScrollDown => self.scroll = self.scroll.saturating_sub(5),
        }
    }

    /// The move list scrolls up at most this many rows.
    fn max_scroll(&self) -> usize {
        self.game.moves().len().div_ceil(2)
    }

    fn do_quit(&mut self) {
        self.stop_all();
        self.save();
        self.quit = true;
        self.effects.push(Effect::Quit);
    }

    fn move_cursor(&mut self, a: Action) {
        let (df, dr): (i32, i32) = match a {
            Action::Up => (0, 1),
            Action::Down => (0, -1),
            Action::Left => (-1, 0),
            Action::Right => (1, 0),
            _ => (0, 0),
        };
        let (df, dr) = if self.flipped { (-df, -dr) } else { (df, dr) };
        let f = (self.cursor.file() as i32 + df).clamp(0, 7);
        let r = (self.cursor.rank() as i32 + dr).clamp(0, 7);
        self.cursor =
            Square::from_coords(shakmaty::File::new(f as u32), shakmaty::Rank::new(r as u32));
    }

    /// Click or Enter on a square: select a piece, or move the selected one.
    fn select(&mut self, sq: Square, now: Instant) {
        self.cursor = sq;
        if !self.human_to_move() {
            if self.is_over() {
                self.error("The game is over: n starts a new one, u takes back.");
            } else {
                self.error("Wait for your turn.");
            }
            return;
        }
        let board = self.board().clone();
        let turn = board.turn();
        if let Some(from) = self.selected {
            if from == sq {
                self.selected = None;
                return;
            }
            if self.destinations(from).contains(&sq) {
                self.move_from_to(from, sq, now);
                return;
            }
        }
        match board.board().piece_at(sq) {
            Some(p) if p.color == turn => {
                if self.destinations(sq).is_empty() {
                    self.error(format!(
                        "The {} on {sq} has no legal move.",
                        role_name(p.role)
                    ));
                    self.selected = None;
                } else {
                    self.selected = Some(sq);
                    self.status = None;
                }
            }
            _ => {
                if let Some(from) = self.selected {
                    self.error(format!("{}{} is not a legal move.", from, sq));
                }
                self.selected = None;
            }
        }
    }

    fn move_from_to(&mut self, from: Square, to: Square, now: Instant) {
        let legal = self.board().chess().legal_moves();
        let candidates: Vec<Move> = legal
            .iter()
            .filter(|m| m.from() == Some(from))
            .filter(|m| shown_to(**m) == to || m.to() == to)
            .cloned()
            .collect();
        if candidates.iter().any(|m| m.is_promotion()) {
            self.overlay = Overlay::Promotion {
                from,
                to,
                choice: 0,
            };
            self.info("Promote to: Enter = queen, or choose with arrows / q r b n.");
            return;
        }
        if let Some(&m) = candidates.first() {
            self.status = None;
            self.play(m, now);
        }
    }

    fn promotion_key(&mut self, k: KeyEvent, now: Instant) {
        let Overlay::Promotion { from, to, choice } = self.overlay.clone() else {
            return;
        };
        if self.is_over() || self.paused || !self.mode.is_human(self.board().turn()) {
            self.overlay = Overlay::None;
            return;
        }
        let pick = |role: Role| PROMOTIONS.iter().position(|&r| r == role);
        let chosen = match k.code {
            KeyCode::Esc => {
                self.overlay = Overlay::None;
                self.selected = None;
                self.status = None;
                return;
            }
            KeyCode::Left | KeyCode::Up => {
                self.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: (choice + 3) % 4,
                };
                return;
            }
            KeyCode::Right | KeyCode::Down => {
                self.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: (choice + 1) % 4,
                };
                return;
            }
            KeyCode::Enter | KeyCode::Char(' ') => Some(choice),
            KeyCode::Char(c) => match c.to_ascii_lowercase() {
                'q' => pick(Role::Queen),
                'r' => pick(Role::Rook),
                'b' => pick(Role::Bishop),
                'n' | 'k' => pick(Role::Knight),
                _ => None,
            },
            _ => None,
        };
        if let Some(i) = chosen {
            self.overlay = Overlay::None;
            let role = PROMOTIONS[i];
            let m = self
                .board()
                .chess()
                .legal_moves()
                .iter()
                .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role))
                .cloned();
            if let Some(m) = m {
                self.status = None;
                self.play(m, now);
            }
        }
    }

    fn takeback(&mut self, now: Instant) {
        if self.mode == Mode::EngineVsEngine {
            self.error("Takeback is for games you play.");
            return;
        }
        if self.game.moves().is_empty() {
            self.error("There is no move to take back.");
            return;
        }
        self.stop_all();
        let n = match self.mode {
            Mode::HumanVsEngine { human } => {
                // Back to the human's last turn: one move if the engine has
                // not answered yet, else the engine's reply and the move.
                let len = self.game.moves().len();
                match (1..=len).find(|&k| self.turn_at(len - k) == human) {
                    Some(k) => k,
                    None => {
                        self.error("None of your moves to take back.");
                        return;
                    }
                }
            }
            _ => 1,
        };
        for _ in 0..n {
            self.game.pop();
            if let Some((w, b)) = self.clock_history.pop()
                && let Some(c) = &mut self.clocks
            {
                c.set_remaining(w, b);
            }
        }
        if let Some(c) = &mut self.clocks
            && !self.game.moves().is_empty()
            && !self.paused
        {
            c.start(self.game.current().turn(), now);
        }
        self.forget_hint();
        self.selected = None;
        self.engine_score = None;
        self.search.lines.clear();
        self.info(format!(
            "Took back {n} move{}.",
            if n == 1 { "" } else { "s" }
        ));
        self.save();
        self.next_turn(now);
    }

    /// The side to move after `ply` half-moves of this game.
    fn turn_at(&self, ply: usize) -> Color {
        let start = self.game.start().turn();
        if ply.is_multiple_of(2) { start } else { !start }
    }

    fn offer_draw(&mut self, now: Instant) {
        if self.is_over() {
            self.error("The game is over.");
            return;
        }
        if let Some(claim) = self.claimable_draw() {
            self.finish(claim, now);
            return;
        }
        match self.mode {
            Mode::EngineVsEngine => self.error("The engine plays both sides."),
            Mode::HumanVsHuman => {
                self.overlay = Overlay::DrawOffer;
            }
            Mode::HumanVsEngine { .. } => {
                let moves = self.game.moves().len() / 2;
                let verdict = self.engine_score;
                let accept = match verdict {
                    Some(s) => s.0 <= -30 || (s.0.abs() <= 15 && moves >= 30),
                    None => false,
                };
                if accept {
                    self.finish(
                        Ending {
                            result: GameResult::Draw,
                            termination: Termination::Agreement,
                        },
                        now,
                    );
                    self.info("The engine accepts the draw.");
                } else {
                    let why = match verdict {
                        Some(s) => format!("it thinks it stands {}", score_text(s)),
                        None => "it has not evaluated the position yet".to_string(),
                    };
                    self.info(format!("The engine declines the draw: {why}."));
                }
            }
        }
    }

    fn toggle_pause(&mut self, now: Instant) {
        if self.is_over() {
            return;
        }
        self.paused = !self.paused;
        if self.paused {
            self.stop_all();
            if let Some(c) = &mut self.clocks {
                c.pause(now);
            }
            self.info("Paused. p resumes.");
        } else {
            if let Some(c) = &mut self.clocks
                && !self.game.moves().is_empty()
            {
                c.start(self.game.current().turn(), now);
            }
            self.info("Resumed.");
            self.next_turn(now);
        }
    }

    // ------------------------------------------------------------------
    // Mouse.

    fn geometry(&self) -> Option<BoardGeometry> {
        view::layout(ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1)).map(|l| l.board)
    }

    fn on_mouse(&mut self, m: MouseEvent, now: Instant) {
        self.pending_letters.clear();
        if !matches!(self.overlay, Overlay::None) {
            return;
        }
        match m.kind {
            MouseEventKind::ScrollUp => self.scroll = (self.scroll + 1).min(self.max_scroll()),
            MouseEventKind::ScrollDown => self.scroll = self.scroll.saturating_sub(1),
            _ => {}
        }
        let Some(geo) = self.geometry() else { return };
        let sq = geo.square_at(m.column, m.row, self.flipped);
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if let Some(sq) = sq {
                    if self.selected == Some(sq) {
                        // Pressing on the selected piece: a drag, or a click
                        // that deselects it (decided on release).
                        self.drag = Some((sq, true));
                    } else {
                        self.select(sq, now);
                        // Pressing on an own piece may start a drag.
                        self.drag = (self.selected == Some(sq)).then_some((sq, false));
                    }
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                if let Some((from, was_selected)) = self.drag.take() {
                    match sq {
                        Some(to) if to == from => {
                            // A click on the selected piece deselects it.
                            self.selected = self.selected.filter(|_| !was_selected);
                        }
                        Some(to) if self.selected == Some(from) => self.select(to, now),
                        _ => {}
                    }
                }
            }
            MouseEventKind::Down(MouseButton::Right) => {
                self.selected = None;
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------------
    // New-game dialog.

    pub fn open_new_game_dialog(&mut self) {
        let side = match self.mode {
            Mode::HumanVsEngine {
                human: Color::White,
            } => 0,
            Mode::HumanVsEngine {
                human: Color::Black,
            } => 1,
            Mode::EngineVsEngine => 3,
            Mode::HumanVsHuman => 4,
        };
        let (opponent, limits) = match &self.spec {
            EngineSpec::BuiltIn { level } => ((*level as usize).clamp(1, 8) - 1, String::new()),
            EngineSpec::Custom {
                depth,
                movetime_ms,
                nodes,
            } => {
                let mut s = Vec::new();
                if let Some(d) = depth {
                    s.push(format!("depth {d}"));
                }
                if let Some(t) = movetime_ms {
                    s.push(format!("movetime {t}"));
                }
                if let Some(n) = nodes {
                    s.push(format!("nodes {n}"));
                }
                (8, s.join(" "))
            }
            EngineSpec::External { .. } => (9, String::new()),
        };
        let choices = time_choices();
        let time = match self.time {
            None => 0,
            Some(t) => choices
                .iter()
                .position(|c| c == &t.to_string())
                .unwrap_or(choices.len() - 1),
        };
        self.overlay = Overlay::NewGame(Box::new(NewGameDialog {
            field: 0,
            side,
            opponent,
            limits: if limits.is_empty() {
                "depth 8".to_string()
            } else {
                limits
            },
            time,
            custom_time: self.time.map_or("10+5".to_string(), |t| t.to_string()),
            fen: String::new(),
            error: None,
        }));
    }

    /// The external engine offered in the dialog, if any.
    pub fn external_command(&self) -> Option<String> {
        match &self.spec {
            EngineSpec::External { command } => Some(command.clone()),
            _ => self
                .config
                .engine
                .as_ref()
                .map(|p| p.to_string_lossy().into_owned()),
        }
    }

    pub fn opponent_choices(&self) -> usize {
        if self.external_command().is_some() {
            10
        } else {
            9
        }
    }

    fn dialog_key(&mut self, k: KeyEvent, now: Instant) {
        let n_opp = self.opponent_choices();
        let n_time = time_choices().len();
        let Overlay::NewGame(d) = &mut self.overlay else {
            return;
        };
        let text_field = matches!(d.field, 2 | 4 | 5);
        match k.code {
            KeyCode::Esc => {
                self.overlay = Overlay::None;
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
            KeyCode::Enter => {
                let d = d.clone();
                match self.setup_from_dialog(&d) {
                    Ok(setup) => {
                        self.start_game(setup, now);
                    }
                    Err(e) => {
                        if let Overlay::NewGame(dd) = &mut self.overlay {
                            dd.error = Some(e);
                        }
                    }
                }
                return;
            }
            _ => {}
        }
        if let Overlay::NewGame(d) = &mut self.overlay {
            d.error = None;
        }
    }

    /// Validates the dialog; the error names the field and the reason.
    pub fn setup_from_dialog(&self, d: &NewGameDialog) -> Result<Setup, String> {
        let mode = match d.side {
            0 => Mode::HumanVsEngine {
                human: Color::White,
            },
            1 => Mode::HumanVsEngine {
                human: Color::Black,
            },
            2 => Mode::HumanVsEngine {
                human: if crate::util::Rng::from_entropy().below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                },
            },
            3 => Mode::EngineVsEngine,
            _ => Mode::HumanVsHuman,
        };
        let engine = match d.opponent {
            0..=7 => EngineSpec::BuiltIn {
                level: d.opponent as u8 + 1,
            },
            8 => parse_limits(&d.limits).map_err(|e| format!("Custom limits: {e}"))?,
            _ => EngineSpec::External {
                command: self
                    .external_command()
                    .ok_or("no external engine configured")?,
            },
        };
        let choices = time_choices();
        let time = match choices.get(d.time).map(String::as_str) {
            Some("none") | None => None,
            Some("custom") => Some(
                d.custom_time
                    .trim()
                    .parse::<TimeControl>()
                    .map_err(|e| format!("Custom time: {e}"))?,
            ),
            Some(name) => TimeControl::presets()
                .iter()
                .find(|(n, _)| n == &name)
                .map(|(_, t)| *t),
        };
        let fen = d.fen.trim();
        let start = if fen.is_empty() {
            Board::startpos()
        } else {
            Board::from_fen(fen).map_err(|e| format!("Start FEN: {e}"))?
        };
        if start.chess().legal_moves().is_empty() {
            return Err("Start FEN: the position is already over (no legal moves).".to_string());
        }
        Ok(Setup {
            mode,
            engine,
            time,
            start,
        })
    }

    /// Clock text for `color`, if there is a clock.
    pub fn clock_text(&self, color: Color, now: Instant) -> Option<String> {
        self.clocks
            .as_ref()
            .map(|c| format_clock(c.remaining(color, now)))
    }

    pub fn started(&self) -> Option<Instant> {
        self.started_at
    }
}

fn text_of(d: &mut NewGameDialog) -> &mut String {
    match d.field {
        2 => &mut d.limits,
        4 => &mut d.custom_time,
        _ => &mut d.fen,
    }
}

/// Parses `depth 8`, `movetime 500`, `nodes 20000` (any combination).
pub fn parse_limits(s: &str) -> Result<EngineSpec, String> {
    let mut depth = None;
    let mut movetime_ms = None;
    let mut nodes = None;
    let words: Vec<&str> = s.split_whitespace().collect();
    if words.is_empty() {
        return Err("give at least one of: depth N, movetime MS, nodes N".to_string());
    }
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let value = words
            .get(i + 1)
            .ok_or_else(|| format!("'{key}' needs a number after it"))?;
        let n: u64 = value
            .parse()
            .map_err(|_| format!("'{value}' is not a whole number"))?;
        if n == 0 {
            return Err(format!("{key} must be positive"));
        }
        match key {
            "depth" | "d" if n <= 64 => depth = Some(n as i32),
            "depth" | "d" => return Err("depth must be at most 64".to_string()),
            "movetime" | "ms" | "time" => movetime_ms = Some(n),
            "nodes" | "n" => nodes = Some(n),
            other => {
                return Err(format!(
                    "unknown limit '{other}' (use depth, movetime or nodes)"
                ));
            }
        }
        i += 2;
    }
    Ok(EngineSpec::Custom {
        depth,
        movetime_ms,
        nodes,
    })
}

fn spec_tag(spec: &EngineSpec) -> String {
    match spec {
        EngineSpec::BuiltIn { level } => format!("level {level}"),
        EngineSpec::Custom {
            depth,
            movetime_ms,
            nodes,
        } => {
            let mut s = vec!["custom".to_string()];
            if let Some(d) = depth {
                s.push(format!("depth {d}"));
            }
            if let Some(t) = movetime_ms {
                s.push(format!("movetime {t}"));
            }
            if let Some(n) = nodes {
                s.push(format!("nodes {n}"));
            }
            s.join(" ")
        }
        EngineSpec::External { command } => format!("uci {command}"),
    }
}

fn parse_spec_tag(s: &str) -> Option<EngineSpec> {
    if let Some(l) = s.strip_prefix("level ") {
        let level: u8 = l.trim().parse().ok()?;
        return (1..=8)
            .contains(&level)
            .then_some(EngineSpec::BuiltIn { level });
    }
    if let Some(rest) = s.strip_prefix("custom") {
        return parse_limits(rest).ok();
    }
    s.strip_prefix("uci ").map(|c| EngineSpec::External {
        command: c.to_string(),
    })
}

/// Where a move visibly goes: the king's square (g or c file) for castling,
/// which shakmaty encodes as "king takes rook".
pub fn shown_to(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                shakmaty::File::G
            } else {
                shakmaty::File::C
            };
            Square::from_coords(file, king.rank())
        }
        _ => m.to(),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// "Black wins by checkmate", "draw by stalemate".
pub fn describe_ending(e: Ending) -> String {
    let who = match e.result {
        GameResult::WhiteWins => "White wins",
        GameResult::BlackWins => "Black wins",
        GameResult::Draw => "draw",
    };
    let why = match e.termination {
        Termination::Agreement => "agreement",
        Termination::Abandoned => "engine failure",
        t => t.describe(),
    };
    let mut s = format!("{who} by {why}");
    if e.termination == Termination::TimeForfeit && e.result == GameResult::Draw {
        s.push_str(" (the opponent cannot mate)");
    }
    capitalise(&s)
}

/// `+0.35`, `-1.20`, `#3`, `#-2` (side to move's view).
pub fn score_text(s: Score) -> String {
    match s.mate_moves() {
        Some(n) => format!("#{n}"),
        None => format!("{:+.2}", s.0 as f64 / 100.0),
    }
}

/// The first `max` moves of a line in SAN with move numbers.
pub fn san_line(board: &Board, moves: &[Move], max: usize) -> String {
    let mut b = board.clone();
    let mut out = Vec::new();
    for (i, &m) in moves.iter().take(max).enumerate() {
        if !b.is_legal(m) {
            break;
        }
        let n = b.chess().fullmoves().get();
        if b.turn() == Color::White {
            out.push(format!("{n}. {}", b.san(m)));
        } else if i == 0 {
            out.push(format!("{n}... {}", b.san(m)));
        } else {
            out.push(b.san(m));
        }
        b = b.play(m);
    }
    out.join(" ")
}
