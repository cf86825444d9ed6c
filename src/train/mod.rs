//! Learning from games: puzzles (the Lichess puzzle file, puzzles made from
//! any PGN, the user's own mistakes), solving them, their themes, and the
//! user's puzzle rating and progress.
//!
//! Above [`crate::game`] (reviews, tactics, opening names) and
//! [`crate::engine`]; below [`crate::ui`].

pub mod glicko;
pub mod lessons;
pub mod make;
pub mod puzzle;
pub mod repertoire;
pub mod session;
pub mod solve;
pub mod store;
pub mod themes;
