//! Choices made in the app and remembered between runs (`state.toml` in
//! the data directory, written by Kibitz).
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Choices remembered between runs (`state.toml` in the data directory).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub theme: Option<String>,
    #[serde(default)]
    pub flipped: bool,
}

impl State {
    pub fn load(path: &Path) -> State {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|t| toml::from_str(&t).ok())
            .unwrap_or_default()
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = toml::to_string(self).map_err(std::io::Error::other)?;
        crate::util::write_atomic(path, text.as_bytes())
    }
}
