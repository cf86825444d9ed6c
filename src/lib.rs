//! Kibitz: a terminal chess trainer with its own engine.
//!
//! Layers, bottom up: a module uses only the modules listed before it
//! (`tests/layers.rs` checks this order).
//! - [`util`]: small shared helpers (random numbers, dates, atomic writes,
//!   the shared data folder); uses no other module.
//! - [`paths`]: where the user's files live (data and config folders);
//!   uses no other module.
//! - [`variant`]: Crazyhouse and Bughouse rules on shakmaty's Crazyhouse
//!   (FENs with pockets, the Bughouse mate rule, drops explained).
//! - [`tablebase`]: endgame tablebases made here by retrograde analysis
//!   (generate, probe, verify against Syzygy).
//! - [`engine`]: the chess engine (search, evaluation, book, tablebase
//!   probes); knows nothing about terminals or protocols.
//! - [`game`]: a game as data (moves, headers, result), PGN and other game
//!   files read and written, move notation, engine game reviews.
//! - [`db`]: opening statistics over collections of games (an index of
//!   moves by position, built from PGN, kept up to date).
//! - [`train`]: puzzles (Lichess CSV, made from PGN, your mistakes),
//!   their themes and solver, the user's puzzle rating and progress.
//! - [`bughouse`]: a Bughouse game as data (two boards, four seats) and
//!   BPGN.
//! - [`uci`]: the UCI protocol, both the engine side (`kibitz uci`) and the
//!   client side that drives external engines; XBoard (CECP) engines too
//!   (`xboard:CMD`).
//! - [`tune`]: self-play data generation and Texel tuning of the
//!   evaluation weights.
//! - [`matchplay`]: engine-vs-engine matches with Elo estimates, and the
//!   four-engine Bughouse arbiter.
//! - [`ui`]: the terminal user interface, on top of everything but
//!   [`tune`] and [`matchplay`].
//! - [`fuzz`]: the fuzz harness (`kibitz fuzz`), above every reader of
//!   outside data it tries.

// With `strip-observer` the hook calls vanish, leaving some values unused.
#![cfg_attr(feature = "strip-observer", allow(unused))]

pub mod bughouse;
pub mod db;
pub mod engine;
pub mod fuzz;
pub mod game;
pub mod matchplay;
pub mod paths;
pub mod tablebase;
pub mod train;
pub mod tune;
pub mod uci;
pub mod ui;
pub mod util;
pub mod variant;
