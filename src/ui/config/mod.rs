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
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::keymap::{Action, BindingProblem, KeyMap, ReplayAction, ReplayKeyMap};
use crate::util::nearest;
use std::collections::HashMap;

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
            engine_pace: crate::ui::pace::Pace::Human,
            syzygy_path: None,
            own_tablebases: true,
            engine_threads: 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// The settings `config.toml` may set, every one optional.
const SETTINGS: &[&str] = &[
    "level",
    "time_control",
    "theme",
    "engine",
    "pieces",
    "autosave",
    "watch_delay_ms",
    "engine_pace",
    "own_tablebases",
    "syzygy_path",
    "engine_threads",
    "keys",
    "replay_keys",
];

/// One thing wrong in `config.toml`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigProblem {
    /// The line in the file, from 1; `None` when it is not one line's
    /// fault (the file cannot be read).
    pub line: Option<usize>,
    /// What is wrong, naming the key and value, in full.
    pub text: String,
}

impl std::fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.text),
            None => f.write_str(&self.text),
        }
    }
}

/// What `config.toml` gave: every setting that could be read, the problems
/// with the rest, and the settings those problems left on their defaults.
#[derive(Clone, Debug)]
pub struct ConfigReport {
    pub config: Config,
    /// In the order of their lines.
    pub problems: Vec<ConfigProblem>,
    /// Settings the file tried to set that kept their default because of a
    /// problem: `level`, or `keys.flip` for a key binding. In the order of
    /// their lines, each once.
    pub fell_back: Vec<String>,
    /// Nothing of the file was used (it cannot be read, or TOML cannot
    /// read it and no line can be blamed): every setting is the default.
    pub ignored: bool,
}

impl ConfigReport {
    /// Every problem with its line, then what fell back to its default;
    /// `None` when the file is fine.
    pub fn message(&self) -> Option<String> {
        if self.problems.is_empty() {
            return None;
        }
        let n = self.problems.len();
        let list: Vec<String> = self.problems.iter().map(|p| p.to_string()).collect();
        let rest = if self.ignored {
            "every setting is the default".to_string()
        } else if self.fell_back.is_empty() {
            "the rest of the file is used".to_string()
        } else {
            format!(
                "fell back to defaults: {} (the rest of the file is used)",
                self.fell_back.join(", ")
            )
        };
        Some(format!(
            "{n} problem{}: {}; {rest}",
            if n == 1 { "" } else { "s" },
            list.join("; ")
        ))
    }
}

/// The line (from 1) of a byte offset.
fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Empty or only a comment.
fn is_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// A table header line: `[keys]` (or a broken one, `[keys`).
fn is_header(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('[') && !t.contains('=') && !t.contains(',')
}

/// The setting a line of the file is about, by its text alone (for a line
/// that is not TOML): `level` for `level 4`, `keys.flip` for `flip "F2"`
/// under `[keys]`; `None` when it names no setting.
fn setting_of_line(lines: &[&str], i: usize) -> Option<String> {
    let unquote = |s: &str| s.trim().trim_matches(|c| c == '"' || c == '\'').to_string();
    let line = lines[i].trim();
    let key = match line.split_once('=') {
        Some((k, _)) => unquote(k),
        None => unquote(line.split_whitespace().next()?),
    };
    let section = lines[..i]
        .iter()
        .rev()
        .find(|l| is_header(l))
        .map(|h| unquote(h.trim().trim_start_matches('[').trim_end_matches(']')));
    match section.as_deref() {
        None => SETTINGS.contains(&key.as_str()).then_some(key),
        Some(t @ "keys") => Action::ALL
            .iter()
            .any(|a| a.name() == key)
            .then(|| format!("{t}.{key}")),
        Some(t @ "replay_keys") => ReplayAction::ALL
            .iter()
            .any(|a| a.name() == key)
            .then(|| format!("{t}.{key}")),
        Some(_) => None,
    }
}

/// `text` with every line TOML cannot read blanked (a broken table header
/// with the lines under it), so that the lines around them still count.
struct Readable {
    /// `None` when no line could be blamed and nothing of the file is used.
    text: Option<String>,
    problems: Vec<ConfigProblem>,
    /// The settings the blanked lines were about, with their lines.
    lost: Vec<(usize, String)>,
}

fn blank_bad_lines(text: &str) -> Readable {
    let original: Vec<&str> = text.split('\n').collect();
    let mut lines: Vec<&str> = original.clone();
    let mut problems = Vec::new();
    let mut lost = Vec::new();
    // Each round blanks at least one line that was not blank, so this ends.
    loop {
        let current = lines.join("\n");
        let err = match toml::de::DeTable::parse(&current) {
            Ok(_) => {
                return Readable {
                    text: Some(current),
                    problems,
                    lost,
                };
            }
            Err(e) => e,
        };
        let reason = err
            .message()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        // The error's line, or the nearest line above it with something on
        // it (an unclosed array or string is found where the file ends).
        let bad = err.span().and_then(|s| {
            let at = (line_at(&current, s.start) - 1).min(lines.len() - 1);
            (0..=at).rev().find(|&i| !is_blank(lines[i]))
        });
        let Some(i) = bad else {
            problems.push(ConfigProblem {
                line: err.span().map(|s| line_at(&current, s.start)),
                text: reason,
            });
            lost.extend(
                (0..original.len()).filter_map(|i| Some((i + 1, setting_of_line(&original, i)?))),
            );
            return Readable {
                text: None,
                problems,
                lost,
            };
        };
        let mut text = format!("`{}`: {reason}", original[i].trim());
        lines[i] = "";
        if is_header(original[i]) {
            let under: Vec<usize> = (i + 1..lines.len())
                .take_while(|&j| !is_header(lines[j]))
                .filter(|&j| !is_blank(lines[j]))
                .collect();
            for &j in &under {
                lines[j] = "";
                lost.extend(setting_of_line(&original, j).map(|s| (j + 1, s)));
            }
            match (under.first(), under.last()) {
                (Some(&a), Some(&b)) if a == b => {
                    text += &format!("; line {} under it is ignored", a + 1)
                }
                (Some(&a), Some(&b)) => {
                    text += &format!("; lines {}-{} under it are ignored", a + 1, b + 1)
                }
                _ => {}
            }
        } else {
            if reason == "duplicate key" {
                text += " (the first one is used)";
            }
            lost.extend(setting_of_line(&original, i).map(|s| (i + 1, s)));
        }
        problems.push(ConfigProblem {
            line: Some(i + 1),
            text,
        });
    }
}

/// The lines of the keys of a readable file: top-level keys by name, and
/// the entries of its tables by (table, name).
#[derive(Default)]
struct KeyLines {
    top: HashMap<String, usize>,
    nested: HashMap<(String, String), usize>,
}

impl KeyLines {
    fn new(text: &str) -> KeyLines {
        let mut lines = KeyLines::default();
        let Ok(doc) = toml::de::DeTable::parse(text) else {
            return lines;
        };
        for (k, v) in doc.get_ref() {
            lines
                .top
                .insert(k.get_ref().to_string(), line_at(text, k.span().start));
            if let Some(t) = v.get_ref().as_table() {
                for (k2, _) in t {
                    lines.nested.insert(
                        (k.get_ref().to_string(), k2.get_ref().to_string()),
                        line_at(text, k2.span().start),
                    );
                }
            }
        }
        lines
    }
}

/// "a string", "a whole number": what a value is, for messages.
fn kind(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "a whole number",
        toml::Value::Float(_) => "a decimal number",
        toml::Value::Boolean(_) => "true or false",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "a list",
        toml::Value::Table(_) => "a table",
    }
}

/// Reads the settings of a readable file one by one, collecting problems.
struct Reader<'a> {
    lines: &'a KeyLines,
    problems: Vec<ConfigProblem>,
    fell_back: Vec<(usize, String)>,
}

impl Reader<'_> {
    fn line(&self, key: &str) -> Option<usize> {
        self.lines.top.get(key).copied()
    }

    /// A problem with `key` that leaves it on its default.
    fn reject(&mut self, key: &str, text: String) {
        let line = self.line(key);
        self.problems.push(ConfigProblem { line, text });
        self.fell_back
            .push((line.unwrap_or(usize::MAX), key.to_string()));
    }

    fn int(&mut self, key: &str, v: &toml::Value, range: (i64, i64), what: &str) -> Option<i64> {
        match v {
            toml::Value::Integer(n) if (range.0..=range.1).contains(n) => Some(*n),
            toml::Value::Integer(n) => {
                self.reject(key, format!("{key} = {n}: use {what}"));
                None
            }
            _ => {
                let found = kind(v);
                self.reject(
                    key,
                    format!("{key} = {v}: expected a whole number ({what}), found {found}"),
                );
                None
            }
        }
    }

    fn string<'v>(&mut self, key: &str, v: &'v toml::Value, what: &str) -> Option<&'v str> {
        let s = v.as_str();
        if s.is_none() {
            let found = kind(v);
            self.reject(key, format!("{key} = {v}: expected {what}, found {found}"));
        }
        s
    }

    fn bool(&mut self, key: &str, v: &toml::Value) -> Option<bool> {
        let b = v.as_bool();
        if b.is_none() {
            let found = kind(v);
            self.reject(
                key,
                format!("{key} = {v}: expected true or false, found {found}"),
            );
        }
        b
    }

    fn table<'v>(&mut self, key: &str, v: &'v toml::Value) -> Option<&'v toml::Table> {
        let t = v.as_table();
        if t.is_none() {
            let found = kind(v);
            self.reject(
                key,
                format!("{key} = {v}: expected a table ([{key}] with action = \"key\" lines), found {found}"),
            );
        }
        t
    }

    /// The problems of one bindings table.
    fn bindings(&mut self, key: &str, overrides: &toml::Table, problems: Vec<BindingProblem>) {
        for p in problems {
            let line = self
                .lines
                .nested
                .get(&(key.to_string(), p.entry.clone()))
                .copied()
                .or(self.line(key));
            self.problems.push(ConfigProblem { line, text: p.text });
            let lost = p
                .kept_default
                .or(p.suggestion.filter(|s| !overrides.contains_key(*s)));
            if let Some(a) = lost {
                self.fell_back
                    .push((line.unwrap_or(usize::MAX), format!("{key}.{a}")));
            }
        }
    }
}

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
# analysis). Two threads are about +100 Elo over one on a 2-core machine.
engine_threads = 1

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

/// Takes one top-level setting of the file into `c`, or says why not.
fn read_setting(c: &mut Config, r: &mut Reader, table: &toml::Table, key: &str, v: &toml::Value) {
    match key {
        "level" => {
            if let Some(l) = r.int(key, v, (1, 8), "1 to 8") {
                c.level = l as u8;
            }
        }
        "time_control" => {
            if let Some(t) = r.string(key, v, "a string such as \"5+3\" or \"none\"") {
                match t.trim() {
                    "" | "none" | "-" => c.time_control = None,
                    s => match s.parse() {
                        Ok(tc) => c.time_control = Some(tc),
                        Err(e) => r.reject(key, format!("time_control: {e}")),
                    },
                }
            }
        }
        "theme" => {
            if let Some(t) = r.string(key, v, "a theme name") {
                c.theme = Some(t.to_string()).filter(|t| !t.trim().is_empty());
            }
        }
        "engine" => {
            if let Some(e) = r.string(key, v, "the engine's command") {
                c.engine = Some(e).filter(|e| !e.trim().is_empty()).map(PathBuf::from);
            }
        }
        "pieces" => {
            if let Some(p) = r.string(key, v, "\"unicode\" or \"ascii\"") {
                match p.to_ascii_lowercase().as_str() {
                    "unicode" => c.piece_style = PieceStyle::Unicode,
                    "ascii" => c.piece_style = PieceStyle::Ascii,
                    other => r.reject(
                        key,
                        format!("pieces = \"{other}\": use \"unicode\" or \"ascii\""),
                    ),
                }
            }
        }
        "autosave" => {
            if let Some(a) = r.bool(key, v) {
                c.autosave = a;
            }
        }
        "watch_delay_ms" => {
            if let Some(ms) = r.int(key, v, (0, 60_000), "0 to 60000 (milliseconds)") {
                c.watch_delay = Duration::from_millis(ms as u64);
            }
        }
        "engine_pace" => {
            if let Some(p) = r.string(key, v, "\"human\" or \"fast\"") {
                match crate::ui::pace::Pace::parse(p) {
                    Some(p) => c.engine_pace = p,
                    None => r.reject(
                        key,
                        format!("engine_pace = \"{p}\": use \"human\" or \"fast\""),
                    ),
                }
            }
        }
        "syzygy_path" => {
            if let Some(p) = r.string(key, v, "folders separated by ':'") {
                c.syzygy_path = Some(p.to_string()).filter(|p| !p.trim().is_empty());
            }
        }
        "own_tablebases" => {
            if let Some(o) = r.bool(key, v) {
                c.own_tablebases = o;
            }
        }
        "engine_threads" => {
            let max = crate::engine::MAX_THREADS as i64;
            if let Some(t) = r.int(key, v, (1, max), &format!("1 to {max}")) {
                c.engine_threads = t as usize;
            }
        }
        "keys" => {
            if let Some(k) = r.table(key, v) {
                let problems = c.keys.apply(k);
                r.bindings(key, k, problems);
            }
        }
        "replay_keys" => {
            if let Some(k) = r.table(key, v) {
                let problems = c.replay_keys.apply(k);
                r.bindings(key, k, problems);
            }
        }
        _ => {
            let line = r.line(key);
            let text = match nearest(key, SETTINGS.iter().copied()) {
                Some(s) => {
                    if !table.contains_key(s) {
                        r.fell_back
                            .push((line.unwrap_or(usize::MAX), s.to_string()));
                    }
                    format!("{key}: unknown setting (did you mean {s}?)")
                }
                None => {
                    format!("{key}: unknown setting (settings: {})", SETTINGS.join(", "))
                }
            };
            r.problems.push(ConfigProblem { line, text });
        }
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
        assert_eq!(k.action(&ev(KeyCode::Char('v'), KeyModifiers::NONE)), None);
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

    fn lines_of(r: &ConfigReport) -> Vec<Option<usize>> {
        r.problems.iter().map(|p| p.line).collect()
    }

    #[test]
    fn a_misspelt_key_keeps_the_valid_setting() {
        let r = Config::check("level = 2\nlevle = 3\n");
        assert_eq!(r.config.level, 2);
        assert_eq!(
            r.problems,
            [ConfigProblem {
                line: Some(2),
                text: "levle: unknown setting (did you mean level?)".into()
            }]
        );
        // level was set, so nothing fell back.
        assert!(r.fell_back.is_empty(), "{:?}", r.fell_back);
        let m = r.message().unwrap();
        assert!(
            m.contains("line 2: levle: unknown setting (did you mean level?)"),
            "{m}"
        );
        // Without the valid line, level is the setting that fell back.
        let r = Config::check("levle = 3\n");
        assert_eq!(r.config.level, 4);
        assert_eq!(r.fell_back, ["level"]);
        // A name close to nothing lists the settings instead.
        let r = Config::check("colour = 1\n");
        assert!(
            r.problems[0]
                .text
                .starts_with("colour: unknown setting (settings: level,"),
            "{:?}",
            r.problems
        );
        assert!(r.fell_back.is_empty());
    }

    #[test]
    fn a_syntax_error_costs_only_its_line() {
        let r = Config::check(
            "level = 2\npieces = \"ascii\"\ntime_control \"5+3\"\nwatch_delay_ms = 500\n",
        );
        assert_eq!(r.config.level, 2);
        assert_eq!(r.config.piece_style, PieceStyle::Ascii);
        assert_eq!(r.config.watch_delay, Duration::from_millis(500));
        assert_eq!(r.config.time_control, None);
        assert_eq!(lines_of(&r), [Some(3)]);
        assert!(
            r.problems[0].text.starts_with("`time_control \"5+3\"`: "),
            "{:?}",
            r.problems
        );
        assert_eq!(r.fell_back, ["time_control"]);
        // Several broken lines, an unclosed array at the end, CRLF.
        let r = Config::check("level 3\r\nautosave = false\r\nlevel = = 5\r\nflip = [\"F2\",\r\n");
        assert!(!r.config.autosave);
        assert_eq!(r.config.level, 4);
        assert_eq!(lines_of(&r), [Some(1), Some(3), Some(4)]);
        assert_eq!(r.fell_back, ["level"]);
        // A second value for a key: the first one is used.
        let r = Config::check("level = 3\nlevel = 5\n");
        assert_eq!(r.config.level, 3);
        assert_eq!(lines_of(&r), [Some(2)]);
        assert!(r.problems[0].text.contains("the first one is used"));
        assert!(r.fell_back.is_empty());
        // A broken table header: the lines under it are left out, not
        // read as top-level settings.
        let r = Config::check(
            "level = 2\n[keys\nflip = \"F2\"\n# a comment\nhint = \"F3\"\n[replay_keys]\nnext = \"n\"\n",
        );
        assert_eq!(r.config.level, 2);
        assert_eq!(lines_of(&r), [Some(2)]);
        assert!(
            r.problems[0]
                .text
                .contains("lines 3-5 under it are ignored"),
            "{:?}",
            r.problems
        );
        assert_eq!(r.fell_back, ["keys.flip", "keys.hint"]);
        assert_eq!(r.config.replay_keys.keys_for(ReplayAction::Next), ["n"]);
        assert_eq!(r.config.keys.keys_for(Action::Flip), ["F"]);
    }

    #[test]
    fn every_problem_is_reported() {
        let r = Config::check("levle = 2\npieces = \"ascii\"\npeices = \"ascii\"\n");
        assert_eq!(r.config.piece_style, PieceStyle::Ascii);
        assert_eq!(lines_of(&r), [Some(1), Some(3)]);
        assert!(r.problems[0].text.contains("did you mean level?"));
        assert!(r.problems[1].text.contains("did you mean pieces?"));
        assert_eq!(r.fell_back, ["level"]);
        let m = r.message().unwrap();
        assert!(
            m.starts_with("2 problems: line 1: levle: ")
                && m.contains("; line 3: peices: ")
                && m.ends_with("fell back to defaults: level (the rest of the file is used)"),
            "{m}"
        );
        // The strict parse names them all too.
        let e = Config::parse("levle = 2\npeices = \"ascii\"\n")
            .unwrap_err()
            .0;
        assert!(
            e.contains("line 1: levle") && e.contains("line 2: peices"),
            "{e}"
        );
    }

    #[test]
    fn a_bad_key_binding_keeps_the_good_ones() {
        let r = Config::check(
            "[keys]\nflip = \"F2\"\nhint = \"f\"\nquit = [\"Ctrl+q\", \"F10\"]\nfilp = \"x\"\nresign = 3\n\n[replay_keys]\nnext = \"Ctrl+\"\nlast = \"F9\"\n",
        );
        let k = &r.config.keys;
        assert_eq!(k.keys_for(Action::Flip), ["F2"]);
        assert_eq!(k.keys_for(Action::Quit), ["Ctrl+q", "F10"]);
        // The refused entries keep their defaults.
        assert_eq!(k.keys_for(Action::Hint), ["H"]);
        assert_eq!(k.keys_for(Action::Resign), ["Ctrl+r"]);
        assert_eq!(r.config.replay_keys.keys_for(ReplayAction::Last), ["F9"]);
        assert_eq!(
            r.config.replay_keys.keys_for(ReplayAction::Next),
            ["Right", "l"]
        );
        assert_eq!(lines_of(&r), [Some(3), Some(5), Some(6), Some(9)]);
        let t: Vec<&str> = r.problems.iter().map(|p| p.text.as_str()).collect();
        assert!(
            t[0].starts_with("[keys] hint = \"f\": 'f' begins a move"),
            "{t:?}"
        );
        assert_eq!(t[1], "[keys] filp: no such action (did you mean flip?)");
        assert!(t[2].starts_with("[keys] resign = 3: give a key"), "{t:?}");
        assert_eq!(t[3], "[replay_keys] next = \"Ctrl+\": 'Ctrl+' is not a key");
        // flip is set, so the misspelt filp costs nothing.
        assert_eq!(
            r.fell_back,
            ["keys.hint", "keys.resign", "replay_keys.next"]
        );
        // A key taken by another action: that entry is left out.
        let r = Config::check("[keys]\nflip = \"q\"\ntheme = \"F2\"\n");
        assert_eq!(r.config.keys.keys_for(Action::Flip), ["F"]);
        assert_eq!(r.config.keys.keys_for(Action::Quit), ["q"]);
        assert_eq!(r.config.keys.keys_for(Action::CycleTheme), ["F2"]);
        assert_eq!(lines_of(&r), [Some(2)]);
        assert!(
            r.problems[0]
                .text
                .contains("'q' is bound to both quit and flip"),
            "{:?}",
            r.problems
        );
        assert_eq!(r.fell_back, ["keys.flip"]);
    }

    #[test]
    fn a_value_of_the_wrong_type_names_the_type() {
        let r = Config::check("autosave = false\nlevel = \"high\"\nown_tablebases = \"no\"\n");
        assert_eq!(r.config.level, 4);
        assert!(!r.config.autosave);
        assert!(r.config.own_tablebases);
        assert_eq!(
            r.problems,
            [
                ConfigProblem {
                    line: Some(2),
                    text: "level = \"high\": expected a whole number (1 to 8), found a string"
                        .into()
                },
                ConfigProblem {
                    line: Some(3),
                    text: "own_tablebases = \"no\": expected true or false, found a string".into()
                }
            ]
        );
        assert_eq!(r.fell_back, ["level", "own_tablebases"]);
        let r = Config::check("keys = 3\nlevel = 9\npieces = \"fancy\"\nlevel_ = 1\n");
        assert_eq!(lines_of(&r), [Some(1), Some(2), Some(3), Some(4)]);
        assert_eq!(r.problems[1].text, "level = 9: use 1 to 8");
        assert_eq!(r.fell_back, ["keys", "level", "pieces"]);
    }

    #[test]
    fn load_keeps_what_it_can_and_says_what_fell_back() {
        let dir = std::env::temp_dir().join(format!("kibitz-config-load-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("config.toml");
        let text = "level = 2\nlevle = 3\npieces = \"ascii\"\nautosave = \"yes\"\n";
        std::fs::write(&p, text).unwrap();
        let (c, msg) = Config::load(&p);
        assert_eq!(c.level, 2);
        assert_eq!(c.piece_style, PieceStyle::Ascii);
        assert!(c.autosave);
        assert_eq!(
            msg.unwrap(),
            format!(
                "{}: 2 problems: line 2: levle: unknown setting (did you mean level?); \
                 line 4: autosave = \"yes\": expected true or false, found a string; \
                 fell back to defaults: autosave (the rest of the file is used)",
                p.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&p).unwrap(), text);
        std::fs::write(&p, Config::example()).unwrap();
        assert!(Config::load(&p).1.is_none());
        // A config.toml that cannot be read (a folder): all defaults.
        let folder = dir.join("folder.toml");
        std::fs::create_dir_all(&folder).unwrap();
        let (c, msg) = Config::load(&folder);
        assert_eq!(c.level, 4);
        let msg = msg.unwrap();
        assert!(
            msg.contains(": 1 problem: cannot read it: ")
                && msg.ends_with("; every setting is the default"),
            "{msg}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn nearest_names() {
        let names = SETTINGS.iter().copied();
        assert_eq!(nearest("levle", names.clone()), Some("level"));
        assert_eq!(nearest("Level", names.clone()), Some("level"));
        assert_eq!(nearest("lvl", names.clone()), None);
        assert_eq!(
            nearest("watch_delay", names.clone()),
            Some("watch_delay_ms")
        );
        assert_eq!(
            nearest("engine_thread", names.clone()),
            Some("engine_threads")
        );
        assert_eq!(nearest("colour", names.clone()), None);
        assert_eq!(nearest("time", names), None);
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
