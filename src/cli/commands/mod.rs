//! The subcommands' definitions (clap) and their dispatch, in the three
//! groups of the help: the terminal screens, the engine's command-line
//! tools, and the long batch runs. `main.rs` holds the top of the command
//! line and puts the groups together.

pub mod batch;
pub mod engine;
pub mod screen;
