//! A drill on the chess screen: a puzzle to solve, or a position from one
//! of your games to retry (find a better move than the one you played).
//! Its logic is in `ui::screens::chess::drill`, its panel in `ui::view::drill`.

pub(crate) mod draw;
pub mod puzzles;
mod screen;

use crate::game::review::Judgement;
use crate::train::puzzle::Puzzle;
use crate::train::session::Run;
use crate::ui::state::*;

/// What kind of drill, and where its positions come from.
#[derive(Clone, Debug)]
pub enum DrillKind {
    /// Puzzles from the store, near the user's rating.
    Puzzles {
        /// Only puzzles with this theme (lichess's name); `None`: any.
        theme: Option<String>,
        /// Puzzles finished in this sitting, and solved clean.
        done: u32,
        solved: u32,
    },
    /// The positions before the marked mistakes of one side of a game.
    Retry {
        side: Color,
        items: Vec<RetryItem>,
        /// The item on the board.
        index: usize,
        /// Items found first time (no wrong move, no hint).
        found: u32,
    },
}

/// One mistake of a reviewed game, as a position to retry.
#[derive(Clone, Debug)]
pub struct RetryItem {
    /// The position before the opponent's move that led to the mistake,
    /// that move and the engine's best answer (a puzzle of one move).
    pub puzzle: Puzzle,
    /// The move played in the game, in SAN with its number ("18...Bxh6").
    pub played: String,
    pub played_move: Move,
    pub judgement: Judgement,
    /// The position's value with the best move, and after the move played
    /// (White's view).
    pub best_score: Score,
    pub played_score: Score,
    /// Why the move played was a mistake, in words (from the review).
    pub reason: Option<String>,
    /// The engine's best line from the position, numbered SAN ("11...Kd8
    /// 12.Bxf6+ gxf6"), shown once the position is done.
    pub best_line: String,
    /// The game left the opening book around here (from the review).
    pub book: Option<String>,
}

/// Where the drill's current position stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrillState {
    /// The user is to find the move (or the reply is on its way).
    Solving,
    /// A move other than the solution's is being judged by the engine
    /// (Retry accepts any move almost as good as the best).
    Checking { id: u64, mv: Move },
    /// Solved (clean or not).
    Solved,
    /// The user gave up: the answer was shown.
    Shown,
}

/// A drill in progress.
#[derive(Clone, Debug)]
pub struct Drill {
    pub kind: DrillKind,
    pub run: Run,
    pub state: DrillState,
    /// The squares a hint lights (the piece, then its target).
    pub hint: Option<(Square, Option<Square>)>,
    /// The result went into the store (once per position).
    pub recorded: bool,
    /// The rating change the store reported for this position.
    pub rating_note: Option<String>,
    /// A line about the last move tried (right, wrong, why).
    pub verdict: Option<(bool, String)>,
    /// A solver's move already judged right (an accepted alternative, the
    /// answer shown): played without another check.
    pub pass: Option<Move>,
}

impl Drill {
    pub fn new(kind: DrillKind, run: Run) -> Drill {
        Drill {
            kind,
            run,
            state: DrillState::Solving,
            hint: None,
            recorded: false,
            rating_note: None,
            verdict: None,
            pass: None,
        }
    }

    /// The position is finished (solved or shown): the next one may come.
    pub fn finished(&self) -> bool {
        matches!(self.state, DrillState::Solved | DrillState::Shown)
    }

    pub fn is_retry(&self) -> bool {
        matches!(self.kind, DrillKind::Retry { .. })
    }

    /// The Retry item on the board.
    pub fn retry_item(&self) -> Option<&RetryItem> {
        match &self.kind {
            DrillKind::Retry { items, index, .. } => items.get(*index),
            DrillKind::Puzzles { .. } => None,
        }
    }
}
