//! Tools that improve the engine: self-play data generation and Texel tuning
//! of the evaluation weights (`kibitz datagen`, `kibitz tune`).

pub mod datagen;
pub mod texel;
