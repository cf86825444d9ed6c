//! Move input typed by the user: the notation itself (parsing with
//! explained errors) lives in [`crate::game::notation`], below the UI.

pub use crate::game::notation::*;
