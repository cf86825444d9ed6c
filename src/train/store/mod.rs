//! The puzzle store: every puzzle the user has (from the Lichess file,
//! made from games, the user's own mistakes), the user's puzzle rating,
//! the history of attempts and the spaced repetition of failed puzzles,
//! kept in the data folder (`puzzles/puzzles.jsonl`).
//!
//! The file is a journal of events, one JSON line each, synced to disk
//! before [`Store::import`] or [`Store::record`] returns, so a crash loses
//! at most the attempt being written; [`journal`] explains the format and
//! how a damaged file is read. Pure Rust: no database library, no C
//! compiler needed to build.
//!
//! The rating is Glicko-2 with lichess' settings ([`glicko`]), each puzzle
//! one game against the puzzle's own rating. Like lichess, only the first
//! attempt at a puzzle is rated: a replay of a puzzle one has seen (a due
//! repeat, above all) tests memory, not strength. The user's own mistakes
//! are never rated: they were chosen because they were failed, so rating
//! them would pull the rating down by selection, and they have no rating
//! of their own to play against.
//!
//! [`glicko`]: crate::train::glicko

pub(crate) mod journal;
pub mod schedule;
mod types;

use crate::train::glicko::{self, Game, Settings};
use crate::train::puzzle::Puzzle;
use crate::util::Rng;
use journal::{AddRecord, Event, Journal, TryRecord};
use schedule::{DAY, Repeat};
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

pub use crate::train::glicko::Rating;
pub use types::{Attempt, Filter, ImportSummary, Outcome, Source, StoreError, ThemeStats};

/// A puzzle and what the user has done with it.
struct Entry {
    puzzle: Puzzle,
    source: Source,
    attempts: u32,
    solved_first: bool,
    repeat: Option<Repeat>,
}

/// How many of the unseen puzzles nearest the rating [`Store::next`]
/// chooses among: enough for variety, few enough to stay near.
const NEAREST: usize = 10;

/// The puzzles, the rating, the history. See the module documentation.
pub struct Store {
    entries: Vec<Entry>,
    by_id: HashMap<String, usize>,
    /// Entry indices by puzzle rating, for choosing near the user's.
    by_rating: Vec<usize>,
    /// Puzzles in the schedule, by due time.
    due: BTreeSet<(u64, usize)>,
    rating: Rating,
    /// When the rating last moved: the deviation grows from then.
    rated_at: Option<u64>,
    history: Vec<Attempt>,
    /// The full rating after each attempt of `history` (for rewriting).
    ratings: Vec<Rating>,
    warnings: Vec<String>,
    journal: Option<Journal>,
}

impl fmt::Debug for Store {
    /// A summary: the puzzles and history would flood any debug output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("puzzles", &self.entries.len())
            .field("attempts", &self.history.len())
            .field("rating", &self.rating)
            .field("file", &self.journal.as_ref().map(|j| &j.path))
            .finish_non_exhaustive()
    }
}

/// The rating and deviation a puzzle plays with: its Lichess rating, or
/// 1500 with the largest deviation when it has none.
fn strength(p: &Puzzle) -> (f64, f64) {
    if p.rating == 0 {
        (1500.0, Settings::LICHESS.max_deviation)
    } else {
        let s = Settings::LICHESS;
        (
            f64::from(p.rating),
            f64::from(p.rating_deviation).clamp(s.min_deviation, s.max_deviation),
        )
    }
}

/// "lines 3, 7, 9 and 12 more".
fn line_list(lines: &[usize]) -> String {
    const SHOWN: usize = 8;
    let mut s: Vec<String> = lines.iter().take(SHOWN).map(|n| n.to_string()).collect();
    if lines.len() > SHOWN {
        s.push(format!("and {} more", lines.len() - SHOWN));
    }
    let word = if lines.len() == 1 { "line" } else { "lines" };
    format!("{word} {}", s.join(", "))
}

impl Store {
    /// The store's usual folder: `puzzles/` in the data folder.
    pub fn default_dir() -> Option<PathBuf> {
        crate::paths::data_dir().map(|d| d.join("puzzles"))
    }

    /// An empty store kept in memory only (tests, tools).
    pub fn in_memory() -> Store {
        Store {
            entries: Vec::new(),
            by_id: HashMap::new(),
            by_rating: Vec::new(),
            due: BTreeSet::new(),
            rating: Rating::NEW,
            rated_at: None,
            history: Vec::new(),
            ratings: Vec::new(),
            warnings: Vec::new(),
            journal: None,
        }
    }

    /// Opens the store in `dir` (created if missing). A damaged file is
    /// read as far as it goes: what had to be skipped is in
    /// [`Store::warnings`], and the file is repaired so that new records
    /// follow clean ones (see [`journal`]). Fails only when the folder
    /// cannot be read or written, or the file is from a newer Kibitz.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| StoreError::Io { path, source }
        };
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let path = dir.join(journal::FILE);
        let mut store = Store::in_memory();
        if !path.exists() {
            journal::write_whole(&path, &journal::line(&Event::Header(journal::FORMAT)))?;
        }
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        let scan = journal::scan(&bytes);
        let mut bad = scan.bad;
        // A cut last line is dropped without a copy only after lines that
        // read: a file with none is not a journal and is kept aside whole.
        let mut torn = scan.torn;
        if scan.events.is_empty()
            && let Some((n, _)) = torn.take()
        {
            bad.push((n, "not a record".into()));
        }
        for (n, event) in scan.events {
            if let Event::Header(v) = event
                && v > journal::FORMAT
            {
                return Err(StoreError::Newer { path, found: v });
            }
            if let Err(why) = store.replay(event) {
                bad.push((n, why));
            }
        }
        store.reindex();
        let name = journal::FILE;
        let j = if !bad.is_empty() {
            bad.sort_by_key(|(n, _)| *n);
            let kept = journal::keep_aside(&path)?;
            let lines: Vec<usize> = bad.iter().map(|(n, _)| *n).collect();
            let torn = torn.map_or(String::new(), |(n, _)| {
                format!("; line {n}, the last, was cut short")
            });
            store.warnings.push(format!(
                "{name}: {} could not be read and {} skipped (line {}: {}){torn}. The file as it was is kept as {}; the store was rewritten without them.",
                line_list(&lines),
                if lines.len() == 1 { "was" } else { "were" },
                bad[0].0,
                bad[0].1,
                kept.display(),
            ));
            journal::write_whole(&path, &store.contents())?;
            Journal::open(&path)?
        } else {
            let mut j = Journal::open(&path)?;
            if let Some((n, start)) = torn {
                store.warnings.push(format!(
                    "{name}: line {n}, the last, was cut short (Kibitz stopped while writing it) and was dropped; every earlier record is kept."
                ));
                j.truncate(start)?;
            } else if scan.unterminated {
                j.append("\n")?;
            }
            j
        };
        store.journal = Some(j);
        Ok(store)
    }

    /// The whole store as a journal: what a repair writes.
    fn contents(&self) -> String {
        let mut s = journal::line(&Event::Header(journal::FORMAT));
        for e in &self.entries {
            s.push_str(&journal::line(&Event::Add(AddRecord::new(
                &e.puzzle, e.source,
            ))));
        }
        for (a, r) in self.history.iter().zip(&self.ratings) {
            s.push_str(&journal::line(&Event::Try(TryRecord {
                id: a.id.clone(),
                ok: a.solved,
                at: a.at,
                r: r.rating,
                d: r.deviation,
                v: r.volatility,
            })));
        }
        s
    }

    /// Writes this store, whole, as a new store in `dir` (which must not
    /// hold one yet): a copy, or a store built in memory made lasting.
    pub fn save_as(&self, dir: &Path) -> Result<(), StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = dir.join(journal::FILE);
        if path.exists() {
            return Err(StoreError::Io {
                path,
                source: std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "a store is already there",
                ),
            });
        }
        journal::write_whole(&path, &self.contents())
    }

    /// Applies one event read from the file; `Err` says why it cannot be.
    fn replay(&mut self, event: Event) -> Result<(), String> {
        match event {
            Event::Header(_) => Ok(()),
            Event::Add(rec) => {
                let (p, src) = rec.into_puzzle();
                if p.id.is_empty() || p.moves.len() < 2 {
                    return Err("a puzzle without an id or moves".into());
                }
                if self.by_id.contains_key(&p.id) {
                    return Err(format!("puzzle {:?} a second time", p.id));
                }
                self.add(p, src);
                Ok(())
            }
            Event::Try(rec) => {
                let Some(&i) = self.by_id.get(&rec.id) else {
                    return Err(format!("an attempt at {:?}, a puzzle not stored", rec.id));
                };
                let after = rec.rating();
                if !after.is_valid() {
                    return Err(format!("a rating that is not a number: {after:?}"));
                }
                self.apply(i, rec.ok, rec.at, after);
                Ok(())
            }
        }
    }

    /// Adds a puzzle in memory (not to the index by rating: see
    /// [`Store::reindex`]).
    fn add(&mut self, puzzle: Puzzle, source: Source) {
        let i = self.entries.len();
        let repeat = (source == Source::Mistake).then_some(Repeat::NOW);
        if let Some(r) = repeat {
            self.due.insert((r.due, i));
        }
        self.by_id.insert(puzzle.id.clone(), i);
        self.entries.push(Entry {
            puzzle,
            source,
            attempts: 0,
            solved_first: false,
            repeat,
        });
    }

    /// Sorts the index by rating after puzzles were added.
    fn reindex(&mut self) {
        let entries = &self.entries;
        self.by_rating = (0..entries.len()).collect();
        self.by_rating.sort_by(|&a, &b| {
            strength(&entries[a].puzzle)
                .0
                .total_cmp(&strength(&entries[b].puzzle).0)
        });
    }

    /// Whether an attempt at entry `i` now would move the rating.
    fn rated(&self, i: usize) -> bool {
        let e = &self.entries[i];
        e.attempts == 0 && e.source != Source::Mistake
    }

    /// Applies an attempt in memory; `after` is the rating after it.
    fn apply(&mut self, i: usize, solved: bool, at: u64, after: Rating) {
        if self.rated(i) {
            self.rating = after;
            self.rated_at = Some(at);
        }
        let e = &mut self.entries[i];
        if e.attempts == 0 {
            e.solved_first = solved;
        }
        e.attempts += 1;
        if let Some(r) = e.repeat {
            self.due.remove(&(r.due, i));
        }
        e.repeat = schedule::after(e.repeat, solved, at);
        if let Some(r) = e.repeat {
            self.due.insert((r.due, i));
        }
        self.history.push(Attempt {
            id: e.puzzle.id.clone(),
            solved,
            at,
            rating_after: self.rating.rating,
        });
        self.ratings.push(self.rating);
    }

    /// What the last open had to skip or repair, in words; empty when the
    /// file read whole.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Adds puzzles that are not stored yet (by id) and writes them to
    /// disk in one append. Each is checked first: an id, and moves that
    /// play from its position.
    pub fn import(
        &mut self,
        puzzles: Vec<Puzzle>,
        source: Source,
    ) -> Result<ImportSummary, StoreError> {
        let mut sum = ImportSummary::default();
        let mut new = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for p in puzzles {
            if self.by_id.contains_key(&p.id) || !seen.insert(p.id.clone()) {
                sum.already += 1;
                continue;
            }
            if p.id.trim().is_empty() || p.id.contains(char::is_whitespace) {
                sum.invalid
                    .push((p.id.clone(), "no id, or spaces in it".to_string()));
                continue;
            }
            match p.line() {
                Ok(_) => new.push(p),
                Err(why) => sum.invalid.push((p.id.clone(), why.to_string())),
            }
        }
        if let Some(j) = &mut self.journal
            && !new.is_empty()
        {
            let mut text = String::with_capacity(new.len() * 300);
            for p in &new {
                text.push_str(&journal::line(&Event::Add(AddRecord::new(p, source))));
            }
            j.append(&text)?;
        }
        sum.added = new.len();
        for p in new {
            self.add(p, source);
        }
        self.reindex();
        Ok(sum)
    }

    pub fn puzzle(&self, id: &str) -> Option<&Puzzle> {
        self.by_id.get(id).map(|&i| &self.entries[i].puzzle)
    }

    pub fn source(&self, id: &str) -> Option<Source> {
        self.by_id.get(id).map(|&i| self.entries[i].source)
    }

    /// How many puzzles are stored.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records an attempt at `at` (Unix seconds), on disk before it
    /// returns: the rating moves if this is the first attempt at a rated
    /// puzzle (the deviation first widened by the days since the last
    /// rated one), and the puzzle's repetition is scheduled.
    pub fn record(&mut self, id: &str, solved: bool, at: u64) -> Result<Outcome, StoreError> {
        let &i = self
            .by_id
            .get(id)
            .ok_or_else(|| StoreError::Unknown(id.to_string()))?;
        let before = self.rating;
        let after = if self.rated(i) {
            let s = Settings::LICHESS;
            let idle = self
                .rated_at
                .map_or(0.0, |t| at.saturating_sub(t) as f64 / DAY as f64);
            let (rating, deviation) = strength(&self.entries[i].puzzle);
            let game = Game {
                rating,
                deviation,
                score: if solved { 1.0 } else { 0.0 },
            };
            glicko::rate(glicko::age(before, idle, &s), &[game], &s)
        } else {
            before
        };
        if let Some(j) = &mut self.journal {
            j.append(&journal::line(&Event::Try(TryRecord {
                id: id.to_string(),
                ok: solved,
                at,
                r: after.rating,
                d: after.deviation,
                v: after.volatility,
            })))?;
        }
        self.apply(i, solved, at, after);
        Ok(Outcome {
            before,
            after: self.rating,
            next_due: self.entries[i].repeat.map(|r| r.due),
        })
    }

    /// The user's puzzle rating.
    pub fn rating(&self) -> Rating {
        self.rating
    }

    /// Every attempt, oldest first.
    pub fn history(&self) -> &[Attempt] {
        &self.history
    }

    /// The next puzzle to play at `at`: the longest overdue repeat first,
    /// else one of the [`NEAREST`] unseen puzzles nearest the user's
    /// rating, chosen by `seed`; never the puzzle just played. `None` when
    /// the filter leaves nothing due or unseen.
    pub fn next(&self, filter: &Filter, at: u64, seed: u64) -> Option<&Puzzle> {
        let last = self.history.last().map(|a| a.id.as_str());
        let ok = |i: usize| {
            let e = &self.entries[i];
            filter.accepts(e) && Some(e.puzzle.id.as_str()) != last
        };
        if let Some(&(_, i)) = self.due.range(..=(at, usize::MAX)).find(|&&(_, i)| ok(i)) {
            return Some(&self.entries[i].puzzle);
        }
        let unseen = |i: usize| {
            let e = &self.entries[i];
            e.attempts == 0 && e.repeat.is_none() && ok(i)
        };
        let target = self.rating.rating;
        let r = |i: usize| strength(&self.entries[i].puzzle).0;
        let split = self.by_rating.partition_point(|&i| r(i) < target);
        let (mut down, mut up) = (split, split);
        let mut near = Vec::with_capacity(NEAREST);
        while near.len() < NEAREST {
            let below = down.checked_sub(1).map(|d| self.by_rating[d]);
            let above = self.by_rating.get(up).copied();
            let i = match (below, above) {
                (None, None) => break,
                (Some(b), Some(a)) if target - r(b) <= r(a) - target => {
                    down -= 1;
                    b
                }
                (Some(b), None) => {
                    down -= 1;
                    b
                }
                (_, Some(a)) => {
                    up += 1;
                    a
                }
            };
            if unseen(i) {
                near.push(i);
            }
        }
        if near.is_empty() {
            return None;
        }
        let pick = near[Rng::new(seed).below(near.len())];
        Some(&self.entries[pick].puzzle)
    }

    /// How many puzzles are due for repetition at `at`.
    pub fn due(&self, at: u64) -> usize {
        self.due.range(..=(at, usize::MAX)).count()
    }

    /// When a puzzle is due for repetition, if it is in the schedule.
    pub fn due_at(&self, id: &str) -> Option<u64> {
        let &i = self.by_id.get(id)?;
        self.entries[i].repeat.map(|r| r.due)
    }

    /// Every theme and how many puzzles have it, the most common first
    /// (then by name): for a filter menu.
    pub fn themes(&self) -> Vec<(String, usize)> {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for e in &self.entries {
            for t in &e.puzzle.themes {
                *count.entry(t.as_str()).or_default() += 1;
            }
        }
        let mut out: Vec<(String, usize)> =
            count.into_iter().map(|(t, n)| (t.to_string(), n)).collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out
    }

    /// Per theme: puzzles, puzzles tried, puzzles solved at the first try.
    /// The most tried first (then the most common, then by name).
    pub fn theme_stats(&self) -> Vec<ThemeStats> {
        let mut by: HashMap<&str, ThemeStats> = HashMap::new();
        for e in &self.entries {
            for t in &e.puzzle.themes {
                let s = by.entry(t.as_str()).or_default();
                s.puzzles += 1;
                s.attempted += usize::from(e.attempts > 0);
                s.solved += usize::from(e.attempts > 0 && e.solved_first);
            }
        }
        let mut out: Vec<ThemeStats> = by
            .into_iter()
            .map(|(t, s)| ThemeStats {
                theme: t.to_string(),
                ..s
            })
            .collect();
        out.sort_by(|a, b| {
            (b.attempted, b.puzzles)
                .cmp(&(a.attempted, a.puzzles))
                .then_with(|| a.theme.cmp(&b.theme))
        });
        out
    }

    /// Puzzles per source, in [`Source::ALL`]'s order.
    pub fn sources(&self) -> [(Source, usize); 3] {
        Source::ALL.map(|s| (s, self.entries.iter().filter(|e| e.source == s).count()))
    }
}

#[cfg(test)]
mod tests;
