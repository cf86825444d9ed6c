//! The UI's state as data: what every screen shares ([`Shared`]), the
//! chess screen's state ([`ChessGame`]), the overlays and dialogs, the
//! messages in and effects out, and what a screen is ([`Screen`]).
//!
//! Below both the logic (`ui::app`, which changes this state) and the
//! drawing (`ui::view`, which only reads it): the one imports neither.

pub(crate) use super::clock::{Clocks, format_clock};
pub(crate) use super::config::{Config, PieceStyle, TimeControl};
pub(crate) use super::engines::{APP_TABLE, ASSISTANT, EngineJob, Go};
pub(crate) use super::keymap::{Action, KeyMap};
pub(crate) use super::layout::{self, BoardGeometry};
pub(crate) use super::player::parse_limits;
pub(crate) use super::player::{EngineSpec, Progress, Purpose, Report, Request, SearchLine};
pub(crate) use super::screens::chess::trainer::{
    self as tr, Difficulty, Feedback, SideChoice, Verdict,
};
pub(crate) use super::text::shown_to;
pub(crate) use super::theme::Theme;
pub(crate) use crate::engine::{Board, Limits, Score};
pub(crate) use crate::game::library::{Library, Status as GameStatus};
pub(crate) use crate::game::review::MoveReview;
pub(crate) use crate::game::{Ending, Game, Termination};
pub(crate) use crate::tablebase::Probe;
pub(crate) use crossterm::event::{KeyEvent, MouseEvent};
pub(crate) use shakmaty::{Color, Move, Position, Role, Square};
pub(crate) use std::path::PathBuf;
pub(crate) use std::time::{Duration, Instant};

mod dialog;
mod gamefile;
mod msg;
pub mod screen;
mod shared;

pub use dialog::{DIALOG_FIELDS, NewGameDialog, SIDES, VARIANTS, external_command, time_choices};
pub use gamefile::GameFile;
pub use msg::{Effect, FileRead, Msg, ReviewRequest};
pub use screen::{Nav, Screen};
pub use shared::{Dirs, Look, Shared, TrainerState};

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
    /// The seats an engine plays (White 0, Black 1: see
    /// [`crate::ui::seats`]).
    pub fn engine_seats(self) -> Vec<usize> {
        [Color::White, Color::Black]
            .into_iter()
            .filter(|&c| !self.is_human(c))
            .map(|c| usize::from(c == Color::Black))
            .collect()
    }

    /// Who sits at White's and Black's seat, `engine` where an engine plays.
    pub fn players(self, engine: &EngineSpec) -> [crate::ui::seats::Player; 2] {
        use crate::ui::seats::Player;
        [Color::White, Color::Black].map(|c| match self.is_human(c) {
            true => Player::Human,
            false => Player::Engine(engine.clone()),
        })
    }

    pub fn is_human(self, c: Color) -> bool {
        match self {
            Mode::HumanVsEngine { human } => human == c,
            Mode::EngineVsEngine => false,
            Mode::HumanVsHuman => true,
        }
    }

    pub(crate) fn tag(self) -> &'static str {
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

    pub(crate) fn from_tag(s: &str) -> Option<Mode> {
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

impl Overlay {
    /// The file-name prompt to save the game being played (`S`), filled
    /// with the game's file (or a name in the home folder when it has none).
    pub fn save_as(current: Option<&std::path::Path>) -> Overlay {
        let input = match current {
            Some(p) => p.display().to_string(),
            None => {
                let home = std::env::var_os("HOME").is_some_and(|h| !h.is_empty());
                let dir = if home { "~/" } else { "" };
                format!("{dir}kibitz-{}.pgn", crate::util::timestamp())
            }
        };
        Overlay::SaveAs { input }
    }
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
    /// An unfinished game (chess, Crazyhouse or Bughouse) was found on
    /// start: resume it, or start a new one.
    Resume {
        path: PathBuf,
        summary: String,
        game: Unfinished,
    },
    /// The file name the game is to be saved to, being typed.
    SaveAs {
        input: String,
    },
    /// A text to read (the Crazyhouse evaluation term by term); any key
    /// closes it.
    Text {
        title: String,
        lines: Vec<String>,
    },
    /// The games of the file being replayed; `selected` is highlighted.
    Games {
        selected: usize,
    },
    /// Choosing a game file to open.
    Files(Box<super::screens::chess::replay::FilePicker>),
    /// The endgame trainer's menu.
    Trainer(TrainerMenu),
    /// The puzzle screen's themes to choose from (with their puzzles);
    /// `selected` 0 is every theme, `i` the theme `i - 1`.
    PuzzleThemes {
        themes: Vec<(String, usize)>,
        selected: usize,
    },
}

/// What an unfinished game found on start is, for the resume prompt.
#[derive(Clone, Debug)]
pub enum Unfinished {
    /// A chess game, read.
    Chess(Box<Game>),
    /// A Crazyhouse or Bughouse game (read when resumed), and the game to
    /// start instead.
    House(Box<super::screens::house::live::LiveSetup>),
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
    pub(crate) fn add_line(&mut self, line: SearchLine) {
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

/// Analysis mode: whether it is on, and the search that follows the
/// position shown.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// On, with its number of lines; None: off.
    pub mode: Option<AnalysisMode>,
    /// The position (half-move, hash) and line count the running search is
    /// for.
    pub(crate) running: Option<AnalysisKey>,
    /// A search that ended by itself (mate found, depth limit): not to be
    /// started again for the same position and lines.
    pub(crate) done: Option<AnalysisKey>,
}

/// What an analysis search is about: half-move, line count, position hash.
pub type AnalysisKey = (usize, usize, u64);

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

/// The trainer menu's choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainerMenu {
    /// Index into [`ENDINGS`].
    pub selected: usize,
    pub difficulty: usize,
    pub side: usize,
    /// The lessons shown instead of the endings.
    pub lessons: bool,
    /// Index into [`crate::train::lessons::LESSONS`].
    pub lesson: usize,
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
    /// Position `step` of a lesson.
    Lesson {
        lesson: &'static crate::train::lessons::Lesson,
        step: usize,
    },
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
