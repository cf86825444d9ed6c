//! The terminal user interface (ratatui + crossterm).

pub mod clock;
pub mod config;
pub mod input;
pub mod player;
pub mod theme;
