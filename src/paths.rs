//! Where Kibitz keeps the user's files: the one place that knows the
//! platform's data and config folders (from `directories`). At the bottom
//! of the layers, so the tablebases, the UI and the CLI all ask here.

use std::path::PathBuf;

/// The platform's folders for Kibitz (`~/.local/share/kibitz`,
/// `~/.config/kibitz` on Linux), or `None` when there is no home folder.
pub fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "kibitz")
}

/// Saved games, autosaves, tablebases.
pub fn data_dir() -> Option<PathBuf> {
    project_dirs().map(|d| d.data_dir().to_path_buf())
}

/// `config.toml` and user themes.
pub fn config_dir() -> Option<PathBuf> {
    project_dirs().map(|d| d.config_dir().to_path_buf())
}
