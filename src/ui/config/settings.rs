//! Taking the settings of a readable `config.toml` into a [`Config`] one
//! by one: every value and key binding (`[keys]`, `[replay_keys]`) is taken
//! or refused on its own with a problem naming it, and an unknown setting
//! gets a "did you mean" for the nearest known one.
use std::path::PathBuf;
use std::time::Duration;

use super::lines::{KeyLines, SETTINGS};
use super::{Config, ConfigProblem, PieceStyle};
use crate::ui::keymap::BindingProblem;
use crate::util::nearest;

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
pub(super) struct Reader<'a> {
    pub(super) lines: &'a KeyLines,
    pub(super) problems: Vec<ConfigProblem>,
    pub(super) fell_back: Vec<(usize, String)>,
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

/// Takes one top-level setting of the file into `c`, or says why not.
pub(super) fn read_setting(
    c: &mut Config,
    r: &mut Reader,
    table: &toml::Table,
    key: &str,
    v: &toml::Value,
) {
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
