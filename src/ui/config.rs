//! The configuration file and remembered choices.
//!
//! `config.toml` (in the user config directory) is written by the user and
//! never by Kibitz; a broken one gives a clear message and the defaults.
//! Choices made in the app (theme, board orientation) go to `state.toml` in
//! the data directory instead.
//!
//! The key bindings it can change live in [`super::keymap`].
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::keymap::{KeyMap, ReplayKeyMap};

/// Base time and increment, written in chess notation: minutes+seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    pub const fn new(base_secs: u64, inc_secs: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(base_secs),
            increment: Duration::from_secs(inc_secs),
        }
    }

    /// The PGN `TimeControl` tag: seconds, `180+2`.
    pub fn pgn_tag(&self) -> String {
        format!("{}+{}", fmt_secs(self.base), fmt_secs(self.increment))
    }

    /// Parses the PGN tag form (`180+2`, `300`).
    pub fn from_pgn_tag(s: &str) -> Option<TimeControl> {
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let b: f64 = b.trim().parse().ok()?;
        let i: f64 = i.trim().parse().ok()?;
        (b.is_finite() && i.is_finite() && b > 0.0 && i >= 0.0 && b < 1e7 && i < 1e5).then(|| {
            TimeControl {
                base: Duration::from_secs_f64(b),
                increment: Duration::from_secs_f64(i),
            }
        })
    }

    pub fn presets() -> &'static [(&'static str, TimeControl)] {
        const P: [(&str, TimeControl); 8] = [
            ("1+0", TimeControl::new(60, 0)),
            ("3+0", TimeControl::new(180, 0)),
            ("3+2", TimeControl::new(180, 2)),
            ("5+0", TimeControl::new(300, 0)),
            ("5+3", TimeControl::new(300, 3)),
            ("10+5", TimeControl::new(600, 5)),
            ("15+10", TimeControl::new(900, 10)),
            ("30+0", TimeControl::new(1800, 0)),
        ];
        &P
    }
}

fn fmt_secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", d.as_secs_f64())
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let base = self.base.as_secs_f64() / 60.0;
        let base = if (base - base.round()).abs() < 1e-9 {
            format!("{}", base.round() as u64)
        } else {
            format!("{base}")
        };
        write!(f, "{base}+{}", fmt_secs(self.increment))
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `3+2` (3 minutes + 2 seconds), `0.5+0`, `90s+5`, `10` (no increment).
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let t = s.trim();
        let (b, i) = t.split_once('+').unwrap_or((t, "0"));
        let base = if let Some(secs) = b.trim().strip_suffix('s') {
            secs.trim().parse::<f64>().ok()
        } else {
            b.trim().parse::<f64>().ok().map(|m| m * 60.0)
        }
        .ok_or_else(|| format!("'{s}' is not a time control: write minutes+seconds, e.g. 5+3"))?;
        let inc: f64 = i
            .trim()
            .trim_end_matches('s')
            .parse()
            .map_err(|_| format!("'{s}': the increment '{i}' is not a number of seconds"))?;
        if !(base.is_finite() && base > 0.0 && base <= 86_400.0) {
            return Err(format!(
                "'{s}': the base time must be more than 0 and at most 24 hours"
            ));
        }
        if !(inc.is_finite() && (0.0..=600.0).contains(&inc)) {
            return Err(format!("'{s}': the increment must be 0 to 600 seconds"));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(inc),
        })
    }
}

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
    /// Syzygy directories for the built-in engines (`:`-separated, as the
    /// `SyzygyPath` UCI option); `None` = none.
    pub syzygy_path: Option<String>,
    /// The built-in engines use our own tablebases (the data folder's
    /// `tablebases/`) when they are there.
    pub own_tablebases: bool,
    /// Search threads of the built-in engine at full strength (level 8,
    /// hints, analysis); levels 1-7 always search on one.
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
            syzygy_path: None,
            own_tablebases: true,
            engine_threads: 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    level: Option<i64>,
    time_control: Option<String>,
    theme: Option<String>,
    engine: Option<String>,
    pieces: Option<String>,
    autosave: Option<bool>,
    watch_delay_ms: Option<i64>,
    syzygy_path: Option<String>,
    own_tablebases: Option<bool>,
    engine_threads: Option<i64>,
    keys: Option<toml::Table>,
    replay_keys: Option<toml::Table>,
}

impl Config {
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig =
            toml::from_str(text).map_err(|e| ConfigError(super::theme::toml_message(&e, text)))?;
        let mut c = Config::default();
        if let Some(l) = raw.level {
            if !(1..=8).contains(&l) {
                return Err(ConfigError(format!("level = {l}: use 1 to 8")));
            }
            c.level = l as u8;
        }
        if let Some(t) = raw.time_control {
            c.time_control = match t.trim() {
                "" | "none" | "-" => None,
                s => Some(
                    s.parse()
                        .map_err(|e| ConfigError(format!("time_control: {e}")))?,
                ),
            };
        }
        c.theme = raw.theme.filter(|t| !t.trim().is_empty());
        c.engine = raw
            .engine
            .filter(|e| !e.trim().is_empty())
            .map(PathBuf::from);
        if let Some(p) = raw.pieces {
            c.piece_style = match p.to_ascii_lowercase().as_str() {
                "unicode" => PieceStyle::Unicode,
                "ascii" => PieceStyle::Ascii,
                other => {
                    return Err(ConfigError(format!(
                        "pieces = \"{other}\": use \"unicode\" or \"ascii\""
                    )));
                }
            };
        }
        if let Some(a) = raw.autosave {
            c.autosave = a;
        }
        if let Some(ms) = raw.watch_delay_ms {
            if !(0..=60_000).contains(&ms) {
                return Err(ConfigError(format!(
                    "watch_delay_ms = {ms}: use 0 to 60000 (milliseconds)"
                )));
            }
            c.watch_delay = Duration::from_millis(ms as u64);
        }
        c.syzygy_path = raw.syzygy_path.filter(|p| !p.trim().is_empty());
        if let Some(o) = raw.own_tablebases {
            c.own_tablebases = o;
        }
        if let Some(t) = raw.engine_threads {
            let max = crate::engine::MAX_THREADS as i64;
            if !(1..=max).contains(&t) {
                return Err(ConfigError(format!("engine_threads = {t}: use 1 to {max}")));
            }
            c.engine_threads = t as usize;
        }
        if let Some(k) = raw.keys {
            c.keys.apply(&k).map_err(ConfigError)?;
        }
        if let Some(k) = raw.replay_keys {
            c.replay_keys.apply(&k).map_err(ConfigError)?;
        }
        Ok(c)
    }

    /// Missing file: defaults. Broken file: defaults and a message naming
    /// the file, line and reason. The file is never written.
    pub fn load(path: &Path) -> (Config, Option<String>) {
        match std::fs::read_to_string(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Config::default(), None),
            Err(e) => (
                Config::default(),
                Some(format!("cannot read {}: {e}", path.display())),
            ),
            Ok(text) => match Config::parse(&text) {
                Ok(c) => (c, None),
                Err(e) => (Config::default(), Some(format!("{}: {e}", path.display()))),
            },
        }
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

# Endgame tables for the built-in engines: our own (the data folder's
# tablebases/, made by the trainer or `kibitz tb generate`), and Syzygy
# files if you have them (directories separated by ':').
own_tablebases = true
# syzygy_path = "/path/to/syzygy"

# Search threads of the built-in engine at full strength (level 8, hints,
# analysis). Two threads are about +100 Elo over one on a 2-core machine.
engine_threads = 1

# Key bindings: action = "key" or ["key", "key"]. Keys: letters, "Ctrl+x",
# "F1".."F12", "Enter", "Space", "Esc", "Tab", "Up", "Down", "Left",
# "Right", "PageUp", "PageDown". Keys that begin a move (a-h, K Q R B N P,
# O o 0, @) cannot be commands. Actions: quit, help, new_game, flip, theme,
# takeback, hint, resign, draw, pause, copy_fen, copy_pgn, white_view, eval,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::keymap::*;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }

    #[test]
    fn the_readme_example_config_parses() {
        let readme = include_str!("../../README.md");
        let start = readme
            .find("```toml\n")
            .expect("a toml block in the README")
            + 8;
        let len = readme[start..].find("```").expect("the block ends");
        let c = Config::parse(&readme[start..start + len]).unwrap();
        assert_eq!(c.level, 4);
        assert_eq!(c.time_control, Some(TimeControl::new(300, 3)));
        assert_eq!(c.watch_delay, Duration::from_millis(800));
        assert_eq!(c.syzygy_path.as_deref(), Some("/usr/share/syzygy"));
        assert!(c.own_tablebases);
        assert_eq!(c.engine_threads, 2);
        assert_eq!(
            c.keys
                .action(&KeyEvent::new(KeyCode::F(3), KeyModifiers::NONE)),
            Some(Action::Hint)
        );
    }

    #[test]
    fn defaults_and_example() {
        let c = Config::parse(Config::example()).unwrap();
        let d = Config::default();
        assert_eq!(c.level, d.level);
        assert_eq!(c.time_control, None);
        assert_eq!(c.piece_style, PieceStyle::Unicode);
        assert!(c.autosave);
        assert_eq!(c.engine_threads, d.engine_threads);
        for bad in ["engine_threads = 0", "engine_threads = 100000"] {
            let e = Config::parse(bad).unwrap_err().0;
            assert!(
                e.contains("engine_threads") && e.contains("use 1 to"),
                "{e}"
            );
        }
        let k = KeyMap::default();
        assert_eq!(
            k.action(&ev(KeyCode::Char('F'), KeyModifiers::SHIFT)),
            Some(Action::Flip)
        );
        assert_eq!(k.action(&ev(KeyCode::Char('f'), KeyModifiers::NONE)), None);
        assert_eq!(
            k.action(&ev(KeyCode::Char('H'), KeyModifiers::SHIFT)),
            Some(Action::Hint)
        );
        assert_eq!(
            k.action(&ev(KeyCode::Enter, KeyModifiers::NONE)),
            Some(Action::Select)
        );
        assert_eq!(k.action(&ev(KeyCode::Char('z'), KeyModifiers::NONE)), None);
        // Every action has a key.
        for &a in Action::ALL {
            assert!(!k.keys_for(a).is_empty(), "{a:?}");
        }
        assert_eq!(k.keys_for(Action::Help), ["?", "F1"]);
    }

    #[test]
    fn overrides_errors_and_duplicates() {
        let c =
            Config::parse("level = 7\npieces = \"ascii\"\n[keys]\nflip = [\"F2\", \"Ctrl+g\"]\n")
                .unwrap();
        assert_eq!(c.level, 7);
        assert_eq!(c.piece_style, PieceStyle::Ascii);
        assert_eq!(
            c.keys.action(&ev(KeyCode::F(2), KeyModifiers::NONE)),
            Some(Action::Flip)
        );
        assert_eq!(
            c.keys
                .action(&ev(KeyCode::Char('g'), KeyModifiers::CONTROL)),
            Some(Action::Flip)
        );
        assert_eq!(
            c.keys.action(&ev(KeyCode::Char('f'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(c.keys.keys_for(Action::Flip), ["Ctrl+g", "F2"]);
        // Keys that begin a move are refused for commands, with the reason;
        // the cursor may take them (h), and Ctrl+letter is always free.
        for (name, k) in [("flip", "f"), ("quit", "Q"), ("hint", "@"), ("open", "o")] {
            let e = Config::parse(&format!("[keys]\n{name} = \"{k}\"\n"))
                .unwrap_err()
                .0;
            assert!(e.contains("begins a move"), "{name} = {k}: {e}");
        }
        let c = Config::parse("[keys]\nleft = [\"Left\", \"a\"]\nflip = \"Ctrl+f\"\n").unwrap();
        assert_eq!(c.keys.keys_for(Action::Left), ["Left", "a"]);
        // No default binding breaks the rule.
        for &a in Action::ALL {
            for k in a.default_keys() {
                if let Some(e) = key_event(k)
                    && let KeyCode::Char(c) = e.code
                    && !e
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                {
                    assert_eq!(a.refuse(c), None, "{a:?} = {k}");
                }
            }
        }

        let e = Config::parse("[keys]\nflip = \"q\"\n").unwrap_err().0;
        assert!(e.contains("'q' is bound to both"), "{e}");
        let e = Config::parse("[keys]\nflip = \"q\"\n").unwrap_err().0;
        assert!(e.contains("'q' is bound to both"), "{e}");
        let e = Config::parse("[keys]\nfly = \"x\"\n").unwrap_err().0;
        assert!(e.contains("no such action"), "{e}");
        let e = Config::parse("[keys]\nflip = \"Ctrl+\"\n").unwrap_err().0;
        assert!(e.contains("not a key"), "{e}");
        let e = Config::parse("level = 9\n").unwrap_err().0;
        assert!(e.contains("1 to 8"), "{e}");
        let e = Config::parse("level = 3\nlevel 4\n").unwrap_err().0;
        assert!(e.contains("line 2"), "{e}");
        let e = Config::parse("colour = 1\n").unwrap_err().0;
        assert!(e.contains("colour"), "{e}");
    }

    #[test]
    fn broken_file_gives_defaults_and_is_not_touched() {
        let dir = std::env::temp_dir().join(format!("kibitz-config-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("config.toml");
        std::fs::write(&p, "level = \n").unwrap();
        let (c, err) = Config::load(&p);
        assert_eq!(c.level, 4);
        let err = err.unwrap();
        assert!(
            err.contains("config.toml") && err.contains("line 1"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "level = \n");
        let (_, none) = Config::load(&dir.join("missing.toml"));
        assert!(none.is_none());
        // State round trip.
        let s = State {
            theme: Some("High contrast".into()),
            flipped: true,
        };
        s.save(&dir.join("state.toml")).unwrap();
        assert_eq!(State::load(&dir.join("state.toml")), s);
        std::fs::write(dir.join("state.toml"), "garbage = [").unwrap();
        assert_eq!(State::load(&dir.join("state.toml")), State::default());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn time_controls() {
        let t: TimeControl = "3+2".parse().unwrap();
        assert_eq!(t, TimeControl::new(180, 2));
        assert_eq!(t.to_string(), "3+2");
        assert_eq!(t.pgn_tag(), "180+2");
        assert_eq!(TimeControl::from_pgn_tag("180+2"), Some(t));
        assert_eq!(
            "0.5+0".parse::<TimeControl>().unwrap(),
            TimeControl::new(30, 0)
        );
        assert_eq!("0.5+0".parse::<TimeControl>().unwrap().to_string(), "0.5+0");
        assert_eq!(
            "90s+5".parse::<TimeControl>().unwrap(),
            TimeControl::new(90, 5)
        );
        assert_eq!(
            "10".parse::<TimeControl>().unwrap(),
            TimeControl::new(600, 0)
        );
        assert!("x+1".parse::<TimeControl>().is_err());
        assert!("0+1".parse::<TimeControl>().is_err());
        assert!("5+-1".parse::<TimeControl>().is_err());
        assert_eq!(TimeControl::from_pgn_tag("-"), None);
        for (name, tc) in TimeControl::presets() {
            assert_eq!(&tc.to_string(), name);
        }
    }
}
