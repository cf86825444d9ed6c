//! Drilling your repertoire (`v`): the board shows a due position of your
//! White or Black repertoire, reached by its shortest line; you play your
//! prepared move. The opponent then answers from your repertoire, its
//! replies weighted by how often your collections play them, and a due
//! position after it is asked at once; otherwise the drill goes straight
//! on to the next due position. A wrong move is refused, the prepared one
//! is named, and the position is due again. Spaced repetition as the
//! puzzles' (see [`crate::train::repertoire`]).

pub(crate) mod draw;
mod screen;

use crate::db::collection::Collection;
use crate::train::repertoire::Progress;
use crate::ui::openings::Repertoires;
use shakmaty::Color;
use std::path::PathBuf;

/// A repertoire drill in progress.
pub struct RepertoireDrill {
    pub reps: Repertoires,
    pub progress: Progress,
    pub(super) collections: Vec<Collection>,
    /// The position asked: its repertoire's side and the position.
    pub asking: Option<(Color, shakmaty::Chess)>,
    /// A wrong move was tried here (the position is counted once).
    pub failed_here: bool,
    pub right: u32,
    pub wrong: u32,
    /// The last verdict (right?, words).
    pub verdict: Option<(bool, String)>,
    pub(super) data: Option<PathBuf>,
    pub(super) rng: crate::util::Rng,
}

impl RepertoireDrill {
    /// Positions due now in both repertoires.
    pub fn due_now(&self) -> usize {
        due_count(&self.reps, &self.progress, crate::util::unix_now())
    }
}

/// Your positions due at `at` in both repertoires.
pub fn due_count(reps: &Repertoires, progress: &Progress, at: u64) -> usize {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| progress.due_positions(reps.side(c), at).len())
        .sum()
}
