//! Subcommands of the `kibitz` binary, one module per subcommand (or group):
//! `main.rs` only parses the command line and dispatches here.

pub mod annotate;
pub mod bench;
pub mod bughouse;
pub mod commands;
pub mod db;
pub mod fake_engine;
pub mod fuzz;
pub mod matches;
pub mod nnue;
pub mod opening;
pub mod puzzle_check;
pub mod puzzle_make;
pub mod puzzle_solve;
pub mod puzzle_store;
pub mod puzzles;
pub mod repertoire;
pub mod search;
pub mod tune;
