//! The opening explorer beside the board: for the position shown, every
//! move played from it in "My games" and the added PGN collections, with
//! its games, results, average rating and the opening it leads to.
//!
//! The index lives on a thread of its own ([`service`]): the screen asks
//! for a position ([`OpeningsRequest`]) and draws the answer when it comes
//! ([`OpeningsReport`]), so a key press never waits on the disk or on a
//! collection being indexed. The state here is shared by every chess
//! screen (play, replay, trainer): opened on one, it is open on all.

pub mod draw;
pub mod player;
pub mod service;

pub use player::{PlayerBox, PlayerStatus, PlayerView};

use crate::db::Stats;
use crate::db::build::PlayerFilter;
use crate::db::repertoire::{self, Repertoire};
use shakmaty::{Chess, Color, Move, Position};
use std::path::Path;

/// Work for the explorer's thread.
#[derive(Clone, Debug)]
pub enum OpeningsRequest {
    /// Bring the collections up to date (new games indexed) and open them.
    Load,
    /// The moves from a position, in every game or one player's.
    Moves { query: Query, pos: Box<Chess> },
}

/// What a lookup is for: the position (its index key) and the player
/// whose games are searched, if one. An answer is shown only while both
/// still hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    pub key: u64,
    pub player: Option<PlayerFilter>,
}

/// What the explorer's thread says.
#[derive(Clone, Debug)]
pub enum OpeningsReport {
    Progress {
        what: String,
        share: f64,
    },
    Loaded {
        /// Each collection's name and games.
        collections: Vec<(String, u64)>,
        /// Collections that could not be opened, and why.
        errors: Vec<String>,
    },
    Moves {
        query: Query,
        rows: Vec<Row>,
        total: Stats,
    },
    /// One player's games being read, read, or not.
    Player {
        filter: PlayerFilter,
        status: PlayerStatus,
    },
}

/// One move of the explorer's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub mv: Move,
    pub san: String,
    pub stats: Stats,
    /// The opening the move leads to, if the table names it.
    pub opening: Option<String>,
}

/// Where the collections stand.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum LoadState {
    #[default]
    NotLoaded,
    Loading {
        what: String,
        share: f64,
    },
    Loaded {
        collections: Vec<(String, u64)>,
        errors: Vec<String>,
    },
}

/// The explorer panel's state, shared by the chess screens.
#[derive(Clone, Debug, Default)]
pub struct OpeningsPanel {
    pub shown: bool,
    pub selected: usize,
    pub load: LoadState,
    /// The last answer, and what it is for.
    pub answer: Option<(Query, Vec<Row>, Stats)>,
    /// What was asked last.
    pub asked: Option<Query>,
    /// The player whose games the explorer shows (none: every game).
    pub player: Option<PlayerView>,
    /// The player's name being typed (`/`).
    pub player_box: Option<PlayerBox>,
    /// Your repertoires (White's, Black's), read when the panel is first
    /// shown.
    pub repertoires: Option<Repertoires>,
    /// Your repertoire positions due for drilling (counted once, again
    /// after a drill or a change).
    pub due: Option<usize>,
}

/// The user's repertoires as the explorer marks them.
#[derive(Clone, Debug)]
pub struct Repertoires {
    pub white: Repertoire,
    pub black: Repertoire,
    /// A repertoire file that could not be read: it is not written over
    /// (the reason is shown).
    pub broken: Vec<(Color, String)>,
}

impl Repertoires {
    /// Both of the user's repertoires from the data folder.
    pub fn load(data: Option<&Path>) -> Repertoires {
        let mut broken = Vec::new();
        let mut side = |c: Color| match data.map(|d| repertoire::load(d, c)) {
            Some(Ok(r)) => r,
            Some(Err(e)) => {
                broken.push((c, e.to_string()));
                Repertoire::new(c)
            }
            None => Repertoire::new(c),
        };
        let white = side(Color::White);
        let black = side(Color::Black);
        Repertoires {
            white,
            black,
            broken,
        }
    }

    pub fn side(&self, c: Color) -> &Repertoire {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    fn side_mut(&mut self, c: Color) -> &mut Repertoire {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// Whose repertoire a move from `pos` goes in: the one whose lines
    /// pass through `pos` (the side to move's first), else the side to
    /// move's (your own move, a new line).
    pub fn owner(&self, pos: &Chess) -> Color {
        let us = pos.turn();
        if self.side(us).contains(pos) || !self.side(!us).contains(pos) {
            us
        } else {
            !us
        }
    }

    /// Where a game (`moves` from `start`) left your repertoire: for your
    /// side in it when it is known (the player named "You"), else for the
    /// repertoire the game stayed in longest, if it was in it for a move
    /// of each side at least (a collection's game that never entered your
    /// lines says nothing).
    pub fn check(
        &self,
        yours: Option<Color>,
        start: &Chess,
        moves: &[Move],
    ) -> Option<(Color, repertoire::Deviation)> {
        let dev = |c: Color| {
            let r = self.side(c);
            (!r.is_empty())
                .then(|| r.deviation(start, moves))
                .flatten()
                .map(|d| (c, d))
        };
        match yours {
            Some(c) => dev(c),
            None => [dev(Color::White), dev(Color::Black)]
                .into_iter()
                .flatten()
                .filter(|(_, d)| d.ply > 2)
                .max_by_key(|(_, d)| d.ply),
        }
    }

    /// Your side in a game with these tags (the player named "You").
    pub fn your_side(white: Option<&str>, black: Option<&str>) -> Option<Color> {
        match (white, black) {
            (Some("You"), _) => Some(Color::White),
            (_, Some("You")) => Some(Color::Black),
            _ => None,
        }
    }

    /// Whether `m` from `pos` is in either repertoire.
    pub fn has(&self, pos: &Chess, m: Move) -> bool {
        self.white.moves(pos).contains(&m) || self.black.moves(pos).contains(&m)
    }

    /// Adds (or with `add` false, takes out) `m` from `pos`; the side whose
    /// repertoire changed, or why nothing did.
    pub fn mark(&mut self, pos: &Chess, m: Move, add: bool) -> Result<Color, String> {
        let side = if add {
            self.owner(pos)
        } else if self.white.moves(pos).contains(&m) {
            Color::White
        } else if self.black.moves(pos).contains(&m) {
            Color::Black
        } else {
            return Err("That move is not in your repertoire.".into());
        };
        if let Some((_, why)) = self.broken.iter().find(|(c, _)| *c == side) {
            return Err(format!(
                "Your repertoire file cannot be read, so it is left alone: {why}"
            ));
        }
        let r = self.side_mut(side);
        let changed = if add { r.add(pos, m) } else { r.remove(pos, m) };
        if changed {
            Ok(side)
        } else {
            Err("That move is in your repertoire already.".into())
        }
    }
}

impl OpeningsPanel {
    /// Your repertoires, read from the data folder the first time.
    pub fn repertoires(&mut self, data: Option<&Path>) -> &Repertoires {
        self.repertoires
            .get_or_insert_with(|| Repertoires::load(data))
    }

    /// Shows or hides the panel; the first showing (and each after that,
    /// to pick up games saved since) asks for the collections.
    pub fn toggle(&mut self) -> Option<OpeningsRequest> {
        self.shown = !self.shown;
        if !self.shown {
            return None;
        }
        self.asked = None;
        if self.load == LoadState::NotLoaded {
            self.load = LoadState::Loading {
                what: "opening your collections".into(),
                share: 0.0,
            };
        }
        Some(OpeningsRequest::Load)
    }

    /// The request that keeps the panel on `pos` (none when it is hidden
    /// or already asked).
    pub fn want(&mut self, pos: &Chess) -> Option<OpeningsRequest> {
        if !self.shown {
            return None;
        }
        let query = self.query(pos);
        if self.asked.as_ref() == Some(&query) {
            return None;
        }
        self.asked = Some(query.clone());
        if self.answer.as_ref().is_some_and(|a| a.0 != query) {
            self.selected = 0;
        }
        Some(OpeningsRequest::Moves {
            query,
            pos: Box::new(pos.clone()),
        })
    }

    /// The lookup that answers `pos` as the panel stands.
    fn query(&self, pos: &Chess) -> Query {
        Query {
            key: crate::db::index_key(pos),
            player: self.player.as_ref().map(|p| p.filter.clone()),
        }
    }

    pub fn on_report(&mut self, report: OpeningsReport) {
        match report {
            OpeningsReport::Progress { what, share } => {
                if !matches!(self.load, LoadState::Loaded { .. }) {
                    self.load = LoadState::Loading { what, share };
                }
            }
            OpeningsReport::Loaded {
                collections,
                errors,
            } => {
                self.load = LoadState::Loaded {
                    collections,
                    errors,
                };
            }
            OpeningsReport::Moves { query, rows, total } => {
                if self.asked.as_ref() == Some(&query) {
                    if self.answer.as_ref().is_none_or(|a| a.0 != query) {
                        self.selected = 0;
                    }
                    self.selected = self.selected.min(rows.len().saturating_sub(1));
                    self.answer = Some((query, rows, total));
                }
            }
            OpeningsReport::Player { filter, status } => {
                if let Some(p) = &mut self.player
                    && p.filter == filter
                {
                    p.status = status;
                }
            }
        }
    }

    /// The rows for `pos`, once they came.
    pub fn rows_for(&self, pos: &Chess) -> Option<&[Row]> {
        let query = self.query(pos);
        self.answer
            .as_ref()
            .filter(|a| a.0 == query)
            .map(|a| a.1.as_slice())
    }

    /// The selected move from `pos`, if the answer for it is in.
    pub fn selected_move(&self, pos: &Chess) -> Option<&Row> {
        self.rows_for(pos)?.get(self.selected)
    }

    /// Moves the selection by `delta` rows.
    pub fn step(&mut self, pos: &Chess, delta: isize) {
        let n = self.rows_for(pos).map_or(0, <[Row]>::len);
        if n == 0 {
            self.selected = 0;
            return;
        }
        self.selected = (self.selected as isize + delta).rem_euclid(n as isize) as usize;
    }
}

#[cfg(test)]
mod tests;
