//! The screens, one folder each: its state, its keys and its drawing
//! together (the stack they live on and what they share are in `state/`
//! and `app/`; the drawing toolkit they use is `view/`).

pub mod chess;
pub mod editor;
pub mod explorer;
pub mod house;
