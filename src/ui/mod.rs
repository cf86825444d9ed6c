//! The terminal user interface (ratatui + crossterm).
//!
//! Data flows one way: terminal events, engine messages and clock ticks
//! become messages for [`app::App`]; the app changes its state; the view
//! draws the state. Drawing never changes state and never waits on the
//! engine, which runs on its own thread.

pub mod config;
pub mod input;
pub mod theme;
