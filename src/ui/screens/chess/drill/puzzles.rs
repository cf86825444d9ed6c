//! The puzzles' way in: the user's puzzle store (opened on first use; a
//! new store starts with the 1,000 lichess puzzles shipped in `games/`),
//! the next puzzle near the rating, and each result recorded.

use super::super::*;
use crate::train::puzzle::{Puzzle, read_csv};
use crate::train::store::{Filter, Source, Store};

/// 1,000 puzzles of the Lichess puzzle database (CC0), so the puzzle
/// screen has something to offer from the first start.
pub const STARTER_PUZZLES: &str = include_str!("../../../../../games/lichess-puzzles-1000.csv");

impl Shared {
    /// The puzzle store: the data folder's `puzzles`, or one in memory
    /// when there is no data folder or it cannot be opened (said once).
    pub fn puzzle_store(&mut self) -> &mut Store {
        if self.puzzles.is_none() {
            let opened = match self.dirs.data.as_ref().map(|d| d.join("puzzles")) {
                Some(dir) => match Store::open(&dir) {
                    Ok(s) => {
                        // Said once the puzzle is on the board (its own
                        // message would hide this one).
                        if !s.warnings().is_empty() {
                            self.puzzle_notice =
                                Some(format!("Puzzle store: {}", s.warnings().join("; ")));
                        }
                        s
                    }
                    Err(e) => {
                        self.puzzle_notice = Some(format!(
                            "The puzzle store in {} cannot be opened ({e}): progress is kept until you quit only.",
                            dir.display()
                        ));
                        Store::in_memory()
                    }
                },
                None => Store::in_memory(),
            };
            let mut store = opened;
            if store.is_empty() {
                let read = read_csv(STARTER_PUZZLES);
                if let Err(e) = store.import(read.puzzles, Source::Lichess) {
                    self.error(format!("The starter puzzles could not be stored: {e}"));
                }
            }
            self.puzzles = Some(store);
        }
        self.puzzles.get_or_insert_with(Store::in_memory)
    }

    /// A puzzle near the rating (due repeats first), with `theme` if given.
    pub fn next_puzzle(&mut self, theme: Option<&str>, _current: Option<&str>) -> Option<Puzzle> {
        let seed = self.trainer.rng.next_u64();
        let filter = Filter {
            theme: theme.map(str::to_string),
            ..Filter::default()
        };
        self.puzzle_store()
            .next(&filter, crate::util::unix_now(), seed)
            .cloned()
    }

    /// The themes of the stored puzzles, most puzzles first.
    pub fn puzzle_themes(&mut self) -> Vec<(String, usize)> {
        let mut t = self.puzzle_store().themes();
        t.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        t
    }

    /// Whether some stored puzzle has `theme`; if none has, the error
    /// names the theme meant (`forks`: fork) and the themes there are.
    pub fn check_puzzle_theme(&mut self, theme: &str) -> Result<(), String> {
        let themes = self.puzzle_themes();
        if themes.iter().any(|(t, _)| t == theme) {
            return Ok(());
        }
        let meant = crate::util::nearest(theme, themes.iter().map(|(t, _)| t.as_str()))
            .map(|t| format!(" (did you mean {t}?)"))
            .unwrap_or_default();
        let mut list: Vec<String> = themes
            .iter()
            .take(12)
            .map(|(t, n)| format!("{t} ({n})"))
            .collect();
        if themes.len() > list.len() {
            list.push(format!("and {} more", themes.len() - list.len()));
        }
        Err(format!(
            "no puzzle has the theme '{theme}'{meant}. Themes with puzzles: {}",
            list.join(", ")
        ))
    }

    /// Records a result (the puzzle is stored first if it is new, from
    /// `source`); the rating change in words, or why it was not saved.
    pub fn record_puzzle(&mut self, p: &Puzzle, source: Source, solved: bool) -> Option<String> {
        let store = self.puzzle_store();
        if store.puzzle(&p.id).is_none()
            && let Err(e) = store.import(vec![p.clone()], source)
        {
            let text = format!("Not saved: {e}");
            self.error(text.clone());
            return Some(text);
        }
        let now = crate::util::unix_now();
        let notice = self.puzzle_notice.take();
        let note = self.record_result(&p.id, solved, now);
        match notice {
            Some(n) => Some(note.map_or(n.clone(), |note| format!("{n}. {note}"))),
            None => note,
        }
    }

    /// Records a result of a stored puzzle: the rating change and when it
    /// comes back, in words, or why it was not saved.
    fn record_result(&mut self, id: &str, solved: bool, now: u64) -> Option<String> {
        match self.puzzle_store().record(id, solved, now) {
            Ok(o) => {
                let (a, b) = (o.before.rating.round(), o.after.rating.round());
                let mut words = Vec::new();
                if a != b {
                    let d = b - a;
                    let sign = if d >= 0.0 { "+" } else { "" };
                    words.push(format!("Rating {a} → {b} ({sign}{d})"));
                }
                if let Some(due) = o.next_due {
                    let days = due.saturating_sub(now).div_ceil(86_400).max(1);
                    words.push(format!(
                        "back in {days} day{}",
                        if days == 1 { "" } else { "s" }
                    ));
                }
                (!words.is_empty()).then(|| capitalise(&words.join("; ")))
            }
            Err(e) => {
                let text = format!("Not saved: {e}");
                self.error(text.clone());
                Some(text)
            }
        }
    }

    /// Opens the puzzle screen (over the current one) on a puzzle near
    /// the rating.
    pub fn open_puzzles(&mut self, theme: Option<String>, now: Instant) {
        self.show_puzzles(theme, false, now);
    }

    /// The puzzle screen, over the current one or (`alone`, as
    /// `kibitz puzzles` starts) as the only screen: leaving it quits.
    /// False when there is no puzzle to show (said in the status line).
    pub fn show_puzzles(&mut self, theme: Option<String>, alone: bool, now: Instant) -> bool {
        let Some(p) = self.next_puzzle(theme.as_deref(), None) else {
            let none = match &theme {
                Some(t) => format!("No puzzle with the theme {t}."),
                None => "No puzzles: import some with `kibitz puzzles import FILE.csv`.".into(),
            };
            let notice = self.puzzle_notice.take();
            self.error(notice.map_or(none.clone(), |n| format!("{n}. {none}")));
            return false;
        };
        let kind = DrillKind::Puzzles {
            theme,
            done: 0,
            solved: 0,
        };
        let screen = ChessScreen::drill(self, kind, p, now);
        if let Some(n) = self.puzzle_notice.take() {
            self.error(n);
        }
        let started = screen.is_some();
        match screen {
            Some(s) if alone => self.replace(Box::new(s)),
            Some(s) => self.open_instead(Box::new(s), |top| {
                top.as_any()
                    .downcast_ref::<ChessScreen<Drill>>()
                    .is_some_and(|c| !c.task.is_retry())
            }),
            None => {}
        }
        started
    }
}
