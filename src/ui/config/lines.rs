//! The lines of `config.toml`: blanking the lines TOML cannot read (so the
//! lines around them still count), the setting a line is about, and the
//! line each key of a readable file is on.
use std::collections::HashMap;

use super::ConfigProblem;
use crate::ui::keymap::{Action, ReplayAction};

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
pub(super) struct Readable {
    /// `None` when no line could be blamed and nothing of the file is used.
    pub(super) text: Option<String>,
    pub(super) problems: Vec<ConfigProblem>,
    /// The settings the blanked lines were about, with their lines.
    pub(super) lost: Vec<(usize, String)>,
}

pub(super) fn blank_bad_lines(text: &str) -> Readable {
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
pub(super) struct KeyLines {
    pub(super) top: HashMap<String, usize>,
    pub(super) nested: HashMap<(String, String), usize>,
}

impl KeyLines {
    pub(super) fn new(text: &str) -> KeyLines {
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

/// The settings `config.toml` may set, every one optional.
pub(super) const SETTINGS: &[&str] = &[
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
