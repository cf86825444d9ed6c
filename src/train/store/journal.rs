//! The store's file, `puzzles.jsonl`: one JSON object a line, each an
//! event, appended and synced to disk before the call that made it
//! returns.
//!
//! ```text
//! {"kibitz_puzzles":1}
//! {"add":{"src":"lichess","id":"001KR","fen":"...","moves":["h8g8","f1f8"],"rating":588,...}}
//! {"try":{"id":"001KR","ok":true,"at":1795335302,"r":1712.4,"d":310.9,"v":0.09}}
//! ```
//!
//! The first line names the format's version; a newer version is refused,
//! never rewritten. `add` is a puzzle and where it came from; `try` an
//! attempt and the user's rating after it (stored, not recomputed, so a
//! later change to the rating rules never rewrites the past).
//!
//! Why a journal: an append of one short line is the smallest write there
//! is, and a crash can only cut the last line short. Reading drops a cut
//! last line (and says so) and truncates the file back to the last whole
//! line, so every earlier record is kept and the next append starts clean.
//! Damage anywhere else (a disk error, an edit by hand) skips only the
//! lines that do not read; the file as found is then copied aside
//! (`puzzles.jsonl.damaged-<time>`) and the journal rewritten, whole, by an
//! atomic rename ([`crate::util::write_atomic`]). Nothing in the journal is
//! ever redundant (every line is a puzzle or a piece of history), so that
//! rewrite is its only compaction.

use super::{Source, StoreError};
use crate::train::glicko::Rating;
use crate::train::puzzle::Puzzle;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file's name in the store's folder.
pub const FILE: &str = "puzzles.jsonl";
/// The version this code writes and reads.
pub const FORMAT: u32 = 1;

/// One line of the journal.
#[derive(Debug, Serialize, Deserialize)]
pub enum Event {
    #[serde(rename = "kibitz_puzzles")]
    Header(u32),
    #[serde(rename = "add")]
    Add(AddRecord),
    #[serde(rename = "try")]
    Try(TryRecord),
}

/// A puzzle: [`Puzzle`]'s fields, short names.
#[derive(Debug, Serialize, Deserialize)]
pub struct AddRecord {
    pub src: Source,
    pub id: String,
    pub fen: String,
    pub moves: Vec<String>,
    #[serde(default)]
    pub rating: u32,
    #[serde(default)]
    pub rd: u32,
    #[serde(default)]
    pub pop: i32,
    #[serde(default)]
    pub plays: u32,
    #[serde(default)]
    pub themes: Vec<String>,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub open: Vec<String>,
}

impl AddRecord {
    pub fn new(p: &Puzzle, src: Source) -> AddRecord {
        AddRecord {
            src,
            id: p.id.clone(),
            fen: p.fen.clone(),
            moves: p.moves.clone(),
            rating: p.rating,
            rd: p.rating_deviation,
            pop: p.popularity,
            plays: p.nb_plays,
            themes: p.themes.clone(),
            url: p.game_url.clone(),
            open: p.opening_tags.clone(),
        }
    }

    /// The puzzle, unchecked: its moves were checked legal when it was
    /// imported, and checking 10,000 again on every start would cost more
    /// than the rest of the load.
    pub fn into_puzzle(self) -> (Puzzle, Source) {
        let p = Puzzle {
            id: self.id,
            fen: self.fen,
            moves: self.moves,
            rating: self.rating,
            rating_deviation: self.rd,
            popularity: self.pop,
            nb_plays: self.plays,
            themes: self.themes,
            game_url: self.url,
            opening_tags: self.open,
        };
        (p, self.src)
    }
}

/// An attempt and the rating after it.
#[derive(Debug, Serialize, Deserialize)]
pub struct TryRecord {
    pub id: String,
    pub ok: bool,
    pub at: u64,
    pub r: f64,
    pub d: f64,
    pub v: f64,
}

impl TryRecord {
    pub fn rating(&self) -> Rating {
        Rating {
            rating: self.r,
            deviation: self.d,
            volatility: self.v,
        }
    }
}

/// An event as its line, newline included.
pub fn line(e: &Event) -> String {
    // Serialising these plain structs cannot fail (string keys, finite
    // numbers are checked by the callers); an empty line would be skipped
    // on reading rather than break the file.
    let mut s = serde_json::to_string(e).unwrap_or_default();
    s.push('\n');
    s
}

/// What reading the file found.
#[derive(Default)]
pub struct Scan {
    /// The events that read, with their line numbers (from 1).
    pub events: Vec<(usize, Event)>,
    /// Lines that did not read, with why.
    pub bad: Vec<(usize, String)>,
    /// A last line without its newline that did not read: a write cut
    /// short. Its number and where it starts.
    pub torn: Option<(usize, u64)>,
    /// The last line reads but lacks its newline.
    pub unterminated: bool,
}

/// Reads the journal's lines. Never fails on content: a line that is not
/// UTF-8 or not an event lands in [`Scan::bad`].
pub fn scan(bytes: &[u8]) -> Scan {
    let mut out = Scan::default();
    let mut start = 0;
    let mut n = 0;
    while start < bytes.len() {
        n += 1;
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| start + i);
        let terminated = end < bytes.len();
        let raw = &bytes[start..end];
        // serde_json checks the UTF-8 itself: one pass over the line.
        let parsed = if raw.iter().all(u8::is_ascii_whitespace) {
            Ok(None)
        } else {
            serde_json::from_slice::<Event>(raw)
                .map(Some)
                // Each line is parsed alone: serde's "line 1" is noise.
                .map_err(|e| e.to_string().replace(" at line 1 column ", " at column "))
        };
        match parsed {
            Ok(Some(e)) => {
                out.events.push((n, e));
                out.unterminated = !terminated;
            }
            Ok(None) => {}
            Err(_) if !terminated => out.torn = Some((n, start as u64)),
            Err(why) => out.bad.push((n, why)),
        }
        start = end + 1;
    }
    out
}

/// The open journal, appended to.
pub struct Journal {
    pub path: PathBuf,
    file: File,
    /// A failed write could not be undone: the file may end in half a
    /// line, so nothing more is written to it.
    broken: bool,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Journal {
    /// Opens `path` for appending.
    pub fn open(path: &Path) -> Result<Journal, StoreError> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io(path))?;
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            broken: false,
        })
    }

    /// Appends whole lines and waits until they are on disk. A write that
    /// fails part way is cut back off, so the file never keeps half a
    /// line that the next append would run into.
    pub fn append(&mut self, text: &str) -> Result<(), StoreError> {
        if self.broken {
            return Err(StoreError::Broken(self.path.clone()));
        }
        let before = self.file.metadata().map_err(io(&self.path))?.len();
        let written = self
            .file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data());
        written.map_err(|e| {
            if self
                .file
                .set_len(before)
                .and_then(|()| self.file.sync_data())
                .is_err()
            {
                self.broken = true;
            }
            io(&self.path)(e)
        })
    }

    /// Cuts the file back to `len` bytes (dropping a torn last line).
    pub fn truncate(&mut self, len: u64) -> Result<(), StoreError> {
        self.file
            .set_len(len)
            .and_then(|()| self.file.sync_data())
            .map_err(io(&self.path))
    }
}

/// Creates `path` holding `text`, atomically, and makes the new name
/// durable too (the folder synced, where the system allows it).
pub fn write_whole(path: &Path, text: &str) -> Result<(), StoreError> {
    crate::util::write_atomic(path, text.as_bytes()).map_err(io(path))?;
    if let Some(dir) = path.parent() {
        // Not every system can sync a folder; the rename happened anyway.
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// Copies a damaged journal aside before it is rewritten, to a name not
/// yet taken: `puzzles.jsonl.damaged-2026-11-22_081502`.
pub fn keep_aside(path: &Path) -> Result<PathBuf, StoreError> {
    let stamp = crate::util::timestamp();
    let mut n = 1;
    let target = loop {
        let suffix = if n == 1 {
            format!("damaged-{stamp}")
        } else {
            format!("damaged-{stamp}-{n}")
        };
        let t = path.with_extension(format!("jsonl.{suffix}"));
        if !t.exists() {
            break t;
        }
        n += 1;
    };
    std::fs::copy(path, &target).map_err(io(&target))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_sorts_lines_into_good_bad_and_torn() {
        let text =
            b"{\"kibitz_puzzles\":1}\n\nnot json\n\xff\xfe\n{\"try\":{\"id\":\"a\",\"ok\":tr";
        let s = scan(text);
        assert_eq!(s.events.len(), 1);
        assert!(matches!(s.events[0], (1, Event::Header(1))));
        let bad: Vec<usize> = s.bad.iter().map(|(n, _)| *n).collect();
        assert_eq!(bad, [3, 4]);
        let torn_at = text.iter().rposition(|&b| b == b'\n').map(|i| i as u64 + 1);
        assert_eq!(s.torn, Some((5, torn_at.expect("a newline"))));
        assert!(!s.unterminated);
        let whole = scan(b"{\"kibitz_puzzles\":1}");
        assert!(whole.torn.is_none() && whole.unterminated);
    }
}
