//! The configuration file and remembered choices.
//!
//! `config.toml` (in the user config directory) is written by the user and
//! never by Kibitz. A mistake in it costs only the setting it is in: the
//! other settings are used, and one message lists every problem with its
//! line and the settings that fell back to their defaults.
//! Choices made in the app (theme, board orientation) go to `state.toml` in
//! the data directory instead.
//!
//! The key bindings it can change live in [`super::keymap`].
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::keymap::{KeyMap, ReplayKeyMap};

mod lines;
mod problems;
mod settings;
mod state;
#[cfg(test)]
mod tests;
mod time_control;

use lines::{KeyLines, Readable, blank_bad_lines};
pub use problems::{ConfigProblem, ConfigReport};
use settings::{Reader, read_setting};
pub use state::State;
pub use time_control::TimeControl;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceStyle {
    Unicode,
    Ascii,
}

#[derive(Clone, Debug)]
pub struct Config {
    /// Built-in engine level 1-8.
    pub level: u8,
    pub time_control: Option<TimeControl>,
    pub theme: Option<String>,
    /// External UCI engine command; when set it is the default opponent.
    pub engine: Option<PathBuf>,
    pub piece_style: PieceStyle,
    pub keys: KeyMap,
    pub replay_keys: ReplayKeyMap,
    pub autosave: bool,
    /// Engine vs engine without a clock: the least time between two moves,
    /// so the game can be followed.
    pub watch_delay: Duration,
    /// Engines take a player's time over their moves when a clock runs
    /// (`human`), or answer at once (`fast`).
    pub engine_pace: crate::ui::pace::Pace,
    /// Syzygy directories for the built-in engines (`:`-separated, as the
    /// `SyzygyPath` UCI option); `None` = none.
    pub syzygy_path: Option<String>,
    /// The built-in engines use our own tablebases (the data folder's
    /// `tablebases/`) when they are there.
    pub own_tablebases: bool,
    /// Search threads of the built-in engine at full strength (level 8,
    /// hints, analysis; by default one per core); levels 1-7 always
    /// search on one.
    pub engine_threads: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            level: 4,
            time_control: None,
            theme: None,
            engine: None,
            piece_style: PieceStyle::Unicode,
            keys: KeyMap::default(),
            replay_keys: ReplayKeyMap::default(),
            autosave: true,
            watch_delay: Duration::from_millis(800),
            engine_pace: crate::ui::pace::Pace::Human,
            syzygy_path: None,
            own_tablebases: true,
            engine_threads: crate::engine::every_core(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Every setting of the file, or an error listing every problem
    /// (what a file must pass to be used as it is).
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let report = Config::check(text);
        if report.problems.is_empty() {
            Ok(report.config)
        } else {
            let all: Vec<String> = report.problems.iter().map(|p| p.to_string()).collect();
            Err(ConfigError(all.join("; ")))
        }
    }

    /// Reads what can be read: a line TOML cannot read is left out (a
    /// broken table header with the lines under it), and each setting and
    /// key binding is taken or refused on its own, so one mistake costs
    /// only its own setting.
    pub fn check(text: &str) -> ConfigReport {
        let Readable {
            text,
            mut problems,
            lost,
        } = blank_bad_lines(text);
        let mut c = Config::default();
        let table = text
            .as_deref()
            .and_then(|t| match toml::from_str::<toml::Table>(t) {
                Ok(t) => Some(t),
                Err(e) => {
                    let reason = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
                    problems.push(ConfigProblem {
                        line: None,
                        text: reason,
                    });
                    None
                }
            });
        let ignored = table.is_none();
        let table = table.unwrap_or_default();
        let lines = KeyLines::new(text.as_deref().unwrap_or(""));
        let mut r = Reader {
            lines: &lines,
            problems,
            fell_back: Vec::new(),
        };
        for (key, v) in &table {
            read_setting(&mut c, &mut r, &table, key.as_str(), v);
        }
        let Reader {
            mut problems,
            mut fell_back,
            ..
        } = r;
        // A blanked line's setting fell back unless another line set it.
        fell_back.extend(lost.into_iter().filter(|(_, s)| {
            let mut path = s.split('.');
            let top = path.next().and_then(|k| table.get(k));
            match (top, path.next()) {
                (Some(_), None) => false,
                (Some(t), Some(entry)) => t.get(entry).is_none(),
                (None, _) => true,
            }
        }));
        problems.sort_by_key(|p| p.line.unwrap_or(0));
        fell_back.sort_by_key(|(line, _)| *line);
        let mut seen = std::collections::HashSet::new();
        let fell_back = fell_back
            .into_iter()
            .filter(|(_, s)| seen.insert(s.clone()))
            .map(|(_, s)| s)
            .collect();
        ConfigReport {
            config: c,
            problems,
            fell_back,
            ignored,
        }
    }

    /// `config.toml` as [`Config::check`] reads it; a missing file is the
    /// defaults, an unreadable one the defaults and one problem. The file
    /// is never written.
    pub fn read(path: &Path) -> ConfigReport {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                let missing = e.kind() == std::io::ErrorKind::NotFound;
                let problems = if missing {
                    Vec::new()
                } else {
                    vec![ConfigProblem {
                        line: None,
                        text: format!("cannot read it: {e}"),
                    }]
                };
                return ConfigReport {
                    config: Config::default(),
                    problems,
                    fell_back: Vec::new(),
                    ignored: !missing,
                };
            }
        };
        Config::check(&text)
    }

    /// The settings of `config.toml` and, when it has problems, one message
    /// naming the file, every problem with its line, and the settings that
    /// fell back to their defaults.
    pub fn load(path: &Path) -> (Config, Option<String>) {
        let report = Config::read(path);
        let message = report.message().map(|m| format!("{}: {m}", path.display()));
        (report.config, message)
    }

    /// A commented example `config.toml`; it parses to the defaults.
    pub fn example() -> &'static str {
        r#"# Kibitz configuration. Every key is optional.

# Built-in engine level, 1 (beginner) to 8 (full strength).
level = 4

# Clock for new games: "none" or minutes+seconds, e.g. "5+3".
time_control = "none"

# Colour theme by name ("Classic wood", "High contrast", "Colour-blind safe",
# or one of yours in the themes/ folder next to this file).
# theme = "Classic wood"

# An external UCI engine to play against instead of the built-in one.
# engine = "/usr/games/stockfish"

# Pieces: "unicode" or "ascii".
pieces = "unicode"

# Save every game (PGN) after each move.
autosave = true

# Engine vs engine without a clock: at least this long between moves (ms).
watch_delay_ms = 800

# With a clock, engines take the time a player of their level would over
# each move ("human"), or answer at once ("fast"; also `--fast`).
engine_pace = "human"

# Endgame tables for the built-in engines: our own (the data folder's
# tablebases/, made by the trainer or `kibitz tb generate`), and Syzygy
# files if you have them (directories separated by ':').
own_tablebases = true
# syzygy_path = "/path/to/syzygy"

# Search threads of the built-in engine at full strength (level 8, hints,
# analysis). By default one per core of this machine; 1 leaves the other
# cores free.
# engine_threads = 2

# Key bindings: action = "key" or ["key", "key"]. Keys: letters, "Ctrl+x",
# "F1".."F12", "Enter", "Space", "Esc", "Tab", "Up", "Down", "Left",
# "Right", "PageUp", "PageDown". Keys that begin a move (a-h, K Q R B N P,
# O o 0, @) cannot be commands. Actions: quit, help, new_game, flip, theme,
# takeback, hint, resign, draw, pause, copy_fen, copy_pgn, save_as, white_view, eval,
# explore, analyse, more_lines, fewer_lines, open, trainer, up, down, left,
# right, select, cancel, scroll_up, scroll_down, move_box.
[keys]
# flip = ["F", "F2"]

# The replay screen's keys (the play screen's flip, theme, analyse, explore,
# eval, white_view, copy_fen, copy_pgn, help, new_game and quit work there too).
# Actions: next, previous, first, last, variation_up, variation_down, autoplay,
# faster, slower, go_to, games, open, review, play_from_here, export.
[replay_keys]
# next = ["Right", "l"]
"#
    }
}
