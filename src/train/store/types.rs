//! The store's public types: where a puzzle came from, an attempt, a
//! filter, what an import or an attempt did, and the errors.

use super::{Entry, journal};
use crate::train::glicko::Rating;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// Where a puzzle came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The Lichess puzzle database (CSV).
    Lichess,
    /// Made from a game (PGN) by Kibitz.
    Made,
    /// A mistake of the user's own, from the Retry screen.
    Mistake,
}

impl Source {
    pub const ALL: [Source; 3] = [Source::Lichess, Source::Made, Source::Mistake];

    pub fn name(self) -> &'static str {
        match self {
            Source::Lichess => "lichess",
            Source::Made => "made",
            Source::Mistake => "mistake",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Source {
    type Err = String;
    fn from_str(s: &str) -> Result<Source, String> {
        Source::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown puzzle source {s:?} (lichess, made or mistake)"))
    }
}

/// One attempt at a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub id: String,
    pub solved: bool,
    /// Unix seconds.
    pub at: u64,
    /// The user's rating after the attempt (unchanged by an unrated one).
    pub rating_after: f64,
}

/// Which puzzles [`Store::next`] may choose. The default takes all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only puzzles with this theme (Lichess' names: `fork`, `mateIn2`;
    /// any capitals).
    pub theme: Option<String>,
    pub source: Option<Source>,
}

impl Filter {
    pub(super) fn accepts(&self, e: &Entry) -> bool {
        self.source.is_none_or(|s| s == e.source)
            && self
                .theme
                .as_deref()
                .is_none_or(|t| e.puzzle.themes.iter().any(|x| x.eq_ignore_ascii_case(t)))
    }
}

/// What [`Store::record`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub before: Rating,
    /// Equal to `before` when the attempt was not rated.
    pub after: Rating,
    /// When the puzzle comes back (Unix seconds); `None`: not repeated.
    pub next_due: Option<u64>,
}

/// What [`Store::import`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportSummary {
    /// New puzzles stored.
    pub added: usize,
    /// Puzzles whose id was already in the store (or twice in the batch):
    /// the stored one is kept.
    pub already: usize,
    /// Puzzles refused (id, why in words): no id, or moves that do not
    /// play.
    pub invalid: Vec<(String, String)>,
}

/// Solved and attempted puzzles of one theme.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThemeStats {
    pub theme: String,
    /// Puzzles in the store with this theme.
    pub puzzles: usize,
    /// Of those, puzzles tried at least once.
    pub attempted: usize,
    /// Of those, puzzles solved at the first try.
    pub solved: usize,
}

/// Why the store cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{} was written by a newer Kibitz (format {found}; this one reads {}): left as it is",
        path.display(),
        journal::FORMAT
    )]
    Newer { path: PathBuf, found: u32 },
    #[error("no puzzle {0:?} in the store")]
    Unknown(String),
    #[error(
        "{}: a failed write could not be undone; nothing more is written until Kibitz restarts",
        .0.display()
    )]
    Broken(PathBuf),
}
