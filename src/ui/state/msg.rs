//! What goes in and out of the app: the messages it reacts to and the
//! effects it asks the runtime for.

use super::*;

/// Work for the runtime.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Work for the engines of the game at `table` (see
    /// [`crate::ui::engines`]).
    Engine {
        table: u64,
        job: crate::ui::engines::EngineJob,
    },
    /// Write `contents` to `path` atomically.
    Save {
        path: PathBuf,
        contents: String,
    },
    /// The user named a file for the game: written like `Save`, and the
    /// user is told whether it worked.
    SaveAs {
        path: PathBuf,
        contents: String,
    },
    /// Record a lesson's position as passed in the progress file (merged
    /// into what it holds, written atomically).
    RecordLesson {
        path: PathBuf,
        lesson: &'static str,
        step: usize,
    },
    /// Write a file of the user's (a repertoire) atomically; a failure is
    /// reported with `what`.
    WriteFile {
        what: &'static str,
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
    /// Work for the tree explorer of any variant (record, compare, cancel).
    Explorer(crate::ui::screens::explorer::AnyRequest),
    /// Read and index a game file (answered by `Indexing`, `Opened`, then
    /// `Checked` messages with this id).
    OpenFile {
        id: u64,
        path: PathBuf,
        /// Your repertoires, when you have one: the check marks the games
        /// that leave it.
        repertoires: Option<std::sync::Arc<crate::ui::openings::Repertoires>>,
    },
    /// Review a line of moves in the background (answered by `Reviewed`).
    Review(Box<ReviewRequest>),
    CancelReview,
    /// Work for the opening explorer's thread (answered by `Openings`).
    Openings(crate::ui::openings::OpeningsRequest),
    /// Stop reading or checking the file of this id.
    StopFile {
        id: u64,
    },
    /// Load (or generate) the tables of `materials` in `dir` for the
    /// trainer (answered by `TablesProgress` and `TablesReady`).
    PrepareTables {
        id: u64,
        dir: PathBuf,
        materials: Vec<crate::tablebase::Material>,
    },
    Quit,
}

/// A game review for the runtime to run.
#[derive(Clone, Debug)]
pub struct ReviewRequest {
    pub id: u64,
    pub start: Board,
    pub moves: Vec<Move>,
    pub limits: Limits,
}

/// Messages the app reacts to.
#[derive(Clone, Debug)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Time passes (clocks, flag fall).
    Tick,
    /// What the engine at `seat` of the game at `table` said.
    Engine {
        table: u64,
        seat: usize,
        report: crate::ui::player::Report,
    },
    /// What the opening explorer's thread found.
    Openings(crate::ui::openings::OpeningsReport),
    /// The runtime failed to do something (save, copy).
    Error(String),
    /// The runtime finished something worth telling the user.
    Note(String),
    /// An autosave of `path` was written, or failed (the screen keeps a
    /// mark while its game is not saved).
    Autosaved {
        path: PathBuf,
        ok: bool,
    },
    /// A search tree recorded for the explorer.
    TreeRecorded {
        id: u64,
        recording: crate::ui::screens::explorer::AnyRecording,
    },
    /// One row of the explorer's comparison finished.
    Compared {
        id: u64,
        row: usize,
        result: crate::ui::screens::explorer::CompareResult,
    },
    /// Share (0..1) of a game file indexed.
    Indexing {
        id: u64,
        share: f64,
    },
    /// A game file was read (or could not be, and why).
    Opened {
        id: u64,
        path: PathBuf,
        result: Result<FileRead, String>,
    },
    /// Games of the open file checked in the background: index, status
    /// and opening.
    Checked {
        id: u64,
        statuses: Vec<(
            usize,
            GameStatus,
            Option<&'static crate::game::openings::Opening>,
        )>,
        /// Games that left your repertoire: index and where ("7.Bc4 leaves
        /// your repertoire: ...").
        left_repertoire: Vec<(usize, String)>,
        done: bool,
    },
    /// Tables being prepared: what happens now, share of the current table.
    TablesProgress {
        id: u64,
        text: String,
        share: f64,
    },
    /// The trainer's tables are ready (or could not be made).
    TablesReady {
        id: u64,
        result: Result<crate::ui::screens::chess::trainer::Tables, String>,
    },
    /// The review reached another position (`review` when a move is judged).
    Reviewed {
        id: u64,
        done: usize,
        total: usize,
        review: Option<Box<MoveReview>>,
        finished: bool,
    },
}

/// A game file as it was read, by what it holds.
#[derive(Clone, Debug)]
pub enum FileRead {
    /// Chess games, indexed (checked in the background next).
    Chess(Box<Library>),
    /// Crazyhouse or Bughouse games, each shown or with the reason it
    /// cannot be.
    House(Vec<Result<crate::ui::screens::house::Show, String>>),
}
