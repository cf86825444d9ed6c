//! Tools that improve the engine: self-play data generation, Texel tuning
//! of the evaluation weights and training of the network (`kibitz datagen`,
//! `kibitz tune`, `kibitz tune-nnue`).

pub mod datagen;
pub mod nnue;
pub mod texel;
