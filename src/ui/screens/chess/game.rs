//! The chess screens' game component: a game on the board with its
//! clocks, opponent, analysis and move list, the same whatever the screen
//! is for (its logic is in the files beside it, its drawing in `draw/`).

use crate::game::openings::Opening;
use crate::ui::screens::chess::drill::Drill;
use crate::ui::state::*;

/// A chess game on the board, and everything shown around it.
pub struct ChessGame {
    pub game: Game,
    pub mode: Mode,
    /// The other side: the engine that plays it, and its move held until
    /// it is due.
    pub opponent: Opponent,
    pub time: Option<TimeControl>,
    pub clocks: Option<Clocks>,
    pub paused: bool,
    /// Paused because another screen opened over this one (it goes on when
    /// this screen is on top again).
    pub(crate) paused_under: bool,
    /// The board's cursor, the piece picked up, a drag (the board
    /// component every board of the app uses).
    pub pick: crate::ui::board::BoardInput,
    pub search: SearchView,
    /// What the engines said each position is worth, White's view, by
    /// half-move (0 = the start position): the eval bar and graph.
    pub evals: Vec<Option<Score>>,
    /// Analysis mode: the assistant analyses every position shown.
    pub analysis: Analysis,
    pub hint: Option<Hint>,
    /// Outstanding requests: (seat, id, purpose). The seat is the
    /// opponent's (see [`Opponent::table`]) or the app's assistant's
    /// ([`ASSISTANT`]).
    pub(crate) pending: Vec<(usize, u64, Purpose)>,
    /// Where the game is saved (a game of the play screen or the trainer).
    pub file: GameFile,
    /// Move-list scroll: lines up from the bottom.
    pub scroll: usize,
    /// Time per move for hints.
    pub hint_time: Duration,
    pub(crate) started_at: Option<Instant>,
    pub(crate) last_move_at: Option<Instant>,
    /// The opening of the game on the board (worked out when the moves
    /// change, so drawing only reads it).
    pub opening: OpeningName,
}

impl ChessGame {
    /// An empty board with the start position, not yet started.
    pub fn new(spec: EngineSpec, time: Option<TimeControl>) -> ChessGame {
        ChessGame {
            game: Game::new(Board::startpos()),
            mode: Mode::HumanVsEngine {
                human: Color::White,
            },
            opponent: Opponent::new(spec),
            time,
            clocks: None,
            paused: false,
            paused_under: false,
            pick: crate::ui::board::BoardInput::default(),
            search: SearchView::default(),
            evals: Vec::new(),
            analysis: Analysis::default(),
            hint: None,
            pending: Vec::new(),
            file: GameFile::default(),
            scroll: 0,
            hint_time: Duration::from_millis(1500),
            started_at: None,
            last_move_at: None,
            opening: OpeningName::default(),
        }
    }

    pub fn board(&self) -> &Board {
        self.game.current()
    }

    pub fn is_over(&self) -> bool {
        self.game.ending.is_some()
    }

    /// The human may move now (`ui` for the overlay: a dialog blocks), if
    /// the board takes moves at all (see `Task::PLAYS`).
    pub fn human_to_move(&self, ui: &Shared) -> bool {
        ui.trainer.preparing.is_none()
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
        self.pick.typing.shown()
    }

    pub fn engine_thinking(&self) -> bool {
        self.opponent.queued.is_some()
            || self
                .pending
                .iter()
                .any(|p| p.0 != ASSISTANT && p.2 == Purpose::Move)
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

    /// Clock text for `color`, if there is a clock (a replay shows the
    /// file's clock comments instead).
    pub fn clock_text(&self, color: Color, now: Instant) -> Option<String> {
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
    pub(crate) fn mode_is_live(&self) -> bool {
        self.mode != Mode::HumanVsHuman || self.clocks.is_some()
    }
}

/// The other side of the board as the game sees it: the engine that plays
/// it (what it is, its table, what it last said, whether it still runs),
/// and its next move held until it is due (an engine's move paced like a
/// player's, the trainer's or a drill's reply shown after a pause).
///
/// A game against engines is a table of the engine runtime
/// ([`crate::ui::engines`]), as a Crazyhouse or Bughouse game is: an
/// engine sits at the seat of each colour it plays (both when two engines
/// play), and the table's engines go with the game.
#[derive(Clone, Debug)]
pub struct Opponent {
    pub spec: EngineSpec,
    /// The game's table (0 until its engines start).
    pub table: u64,
    /// Its name, as it reported it (empty until it did).
    pub name: String,
    /// The last score it reported, its own point of view (draw offers and
    /// claims are judged by it).
    pub(crate) score: Option<Score>,
    /// It failed; the next request starts it again.
    pub(crate) dead: bool,
    /// A move that arrived early, played when it is due.
    pub(crate) queued: Option<(Move, Instant)>,
}

impl Opponent {
    pub fn new(spec: EngineSpec) -> Opponent {
        Opponent {
            spec,
            table: 0,
            name: String::new(),
            score: None,
            dead: false,
            queued: None,
        }
    }

    /// The same engine for a new game: what it is and its name, nothing
    /// of the last game (the new game starts engines of its own).
    pub fn same_engine(&self) -> Opponent {
        Opponent {
            name: self.name.clone(),
            ..Opponent::new(self.spec.clone())
        }
    }

    /// Starts the game's engines at a new table, one at the seat of each
    /// colour an engine plays in `mode` (the last table's engines go).
    pub fn seat_engines(&mut self, ui: &mut Shared, mode: Mode) {
        self.quit(ui);
        self.table = ui.new_id();
        self.restart(ui, mode);
    }

    /// Starts the engines again at the game's table (after a failure).
    pub fn restart(&mut self, ui: &mut Shared, mode: Mode) {
        self.dead = false;
        let players = [mode.players(&self.spec)];
        for job in crate::ui::seats::start_engines(&players, crate::variant::VariantKind::Chess) {
            self.job(ui, job);
        }
    }

    /// The table's engines go (the game is left or replaced).
    pub fn quit(&mut self, ui: &mut Shared) {
        if self.table != 0 {
            self.job(ui, EngineJob::QuitAll);
            self.table = 0;
        }
    }

    /// Work for the game's engines.
    pub fn job(&self, ui: &mut Shared, job: EngineJob) {
        ui.effects.push(Effect::Engine {
            table: self.table,
            job,
        });
    }

    /// Holds `m` until `due` (the move is shown then).
    pub fn hold(&mut self, m: Move, due: Instant) {
        self.queued = Some((m, due));
    }

    /// The held move, once it is due.
    pub fn take_due(&mut self, now: Instant) -> Option<Move> {
        match self.queued {
            Some((m, due)) if now >= due => {
                self.queued = None;
                Some(m)
            }
            _ => None,
        }
    }

    /// Forgets the move it was about to play and what it said about the
    /// position (a takeback, a new position).
    pub fn forget(&mut self) {
        self.queued = None;
        self.score = None;
    }
}

/// What the drawing needs to know of a task.
#[derive(Clone, Copy)]
pub enum TaskView<'a> {
    Play,
    Replay(&'a crate::ui::screens::chess::replay::Replay),
    Trainer(&'a TrainerGame),
    Drill(&'a Drill),
    Repertoire(&'a crate::ui::screens::chess::repdrill::RepertoireDrill),
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
    /// The lesson this game is a position of.
    pub lesson: Option<LessonRun>,
    /// The plan the last hint said, in words (until the next move).
    pub plan: Option<String>,
}

/// A lesson's position being played.
#[derive(Clone, Copy, Debug)]
pub struct LessonRun {
    pub lesson: &'static crate::train::lessons::Lesson,
    /// Index of the position in the lesson.
    pub step: usize,
    /// Its goal reached.
    pub passed: bool,
}

impl LessonRun {
    pub fn position(&self) -> &'static crate::train::lessons::Step {
        &self.lesson.steps[self.step.min(self.lesson.steps.len() - 1)]
    }
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

/// The opening a game is in: the last named position along its moves
/// ([`crate::game::openings::name_line`]). Worked out again only when the
/// game's start or moves changed since the last time: [`OpeningName::follow`]
/// runs after every event, and drawing reads [`OpeningName::found`].
#[derive(Clone, Debug, Default)]
pub struct OpeningName {
    /// The line the name is for: its start (hash) and moves.
    start: Option<u64>,
    moves: Vec<Move>,
    found: Option<(usize, &'static Opening)>,
}

impl OpeningName {
    /// Follows the game: names its opening again if its moves changed.
    pub fn follow(&mut self, game: &Game) {
        let start = game.start().hash();
        if self.start == Some(start) && self.moves == game.moves() {
            return;
        }
        self.start = Some(start);
        self.moves.clear();
        self.moves.extend_from_slice(game.moves());
        self.found = crate::game::openings::name_line(game.start().chess(), game.moves());
    }

    /// The opening and how many moves in its position was reached.
    pub fn found(&self) -> Option<(usize, &'static Opening)> {
        self.found
    }

    /// The opening's name with its ECO code: "C65 Ruy Lopez: Berlin Defense".
    pub fn text(&self) -> Option<String> {
        self.found.map(|(_, o)| o.to_string())
    }
}
