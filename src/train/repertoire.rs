//! Drilling a repertoire: when each of your prepared positions is next
//! due. A position never drilled is due at once; played right when due it
//! comes back after 1, 3, 7, 15, 30 and then every 60 days; played wrong
//! it is due again at once, behind the positions already waiting. Kept in
//! `repertoire/progress.json` in the data folder (written atomically).

use crate::db::position_key;
use crate::db::repertoire::Repertoire;
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Color};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const DAY: u64 = 86_400;
/// The waits in days after each right answer in a row; the last repeats.
pub const WAITS: [u64; 6] = [1, 3, 7, 15, 30, 60];

/// One position's place in the schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// Right answers in a row.
    pub streak: u8,
    /// Unix seconds.
    pub due: u64,
}

/// The schedule of both repertoires' positions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    cards: BTreeMap<String, Card>,
}

fn id(side: Color, pos: &Chess) -> String {
    let c = if side == Color::White { 'w' } else { 'b' };
    format!("{c}{:016x}", position_key(pos))
}

impl Progress {
    pub fn path(data: &Path) -> PathBuf {
        data.join("repertoire").join("progress.json")
    }

    /// The schedule in the data folder; a missing or unreadable file is an
    /// empty schedule (and the reason, for an unreadable one).
    pub fn load(data: &Path) -> (Progress, Option<String>) {
        let p = Progress::path(data);
        match std::fs::read(&p) {
            Ok(b) => match serde_json::from_slice(&b) {
                Ok(progress) => (progress, None),
                Err(e) => (
                    Progress::default(),
                    Some(format!(
                        "{} could not be read ({e}); starting afresh",
                        p.display()
                    )),
                ),
            },
            Err(_) => (Progress::default(), None),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// When the position is due (0: never drilled, due at once).
    pub fn due(&self, side: Color, pos: &Chess) -> u64 {
        self.cards.get(&id(side, pos)).map_or(0, |c| c.due)
    }

    pub fn card(&self, side: Color, pos: &Chess) -> Option<Card> {
        self.cards.get(&id(side, pos)).copied()
    }

    /// Records an answer at `at` (Unix seconds).
    pub fn record(&mut self, side: Color, pos: &Chess, right: bool, at: u64) -> Card {
        let card = self.cards.entry(id(side, pos)).or_default();
        if right {
            let wait = WAITS[usize::from(card.streak).min(WAITS.len() - 1)];
            card.streak = card.streak.saturating_add(1);
            card.due = at + wait * DAY;
        } else {
            card.streak = 0;
            card.due = at;
        }
        *card
    }

    /// Your positions of `rep` due at `at`, the longest waiting first.
    pub fn due_positions(&self, rep: &Repertoire, at: u64) -> Vec<(u64, Chess)> {
        let mut due: Vec<(u64, Chess)> = rep
            .your_positions()
            .into_iter()
            .map(|p| (self.due(rep.side, &p), p))
            .filter(|(d, _)| *d <= at)
            .collect();
        due.sort_by_key(|(d, _)| *d);
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn right_answers_wait_longer_and_a_wrong_one_starts_again() {
        let rep = Repertoire::from_pgn("1. d4 d5 2. c4 *", Color::White).unwrap();
        let mut p = Progress::default();
        let start = Chess::default();
        assert_eq!(p.due_positions(&rep, 0).len(), 2, "new: due at once");
        let mut at = 1_000;
        let mut waits = Vec::new();
        for _ in 0..7 {
            let c = p.record(Color::White, &start, true, at);
            waits.push((c.due - at) / DAY);
            at = c.due;
        }
        assert_eq!(waits, [1, 3, 7, 15, 30, 60, 60]);
        assert_eq!(p.due_positions(&rep, at - 1).len(), 1, "one still new");
        let c = p.record(Color::White, &start, false, at + 5);
        assert_eq!(
            c,
            Card {
                streak: 0,
                due: at + 5
            }
        );
        let back: Progress = serde_json::from_str(&p.to_json()).unwrap();
        assert_eq!(back, p);
        // Black's schedule is its own.
        assert_eq!(p.due(Color::Black, &start), 0);
    }
}
