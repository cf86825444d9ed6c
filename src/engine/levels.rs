//! Playing strength levels 1-8.
//!
//! | level | depth | time per move | weakness |
//! |-------|-------|---------------|----------|
//! | 1 | 1 ply | 50 ms | picks almost at random among moves within 4 pawns of the best; 15% plain random moves |
//! | 2 | 2 | 100 ms | noise up to 2.5 pawns; 8% random moves |
//! | 3 | 3 | 200 ms | noise up to 1.5 pawns; 3% random moves |
//! | 4 | 4 | 300 ms | noise up to 0.9 pawns |
//! | 5 | 6 | 500 ms | noise up to 0.5 pawns |
//! | 6 | 8 | 800 ms | noise up to 0.25 pawns |
//! | 7 | 12 | 1.5 s | noise up to 0.1 pawns |
//! | 8 | - | - | full strength: only the given limits apply |
//!
//! "Noise" works like Stockfish's skill level: the engine searches several
//! lines (MultiPV) and plays the line whose score plus a random amount (up to
//! the noise) is highest, so weaker levels overlook more and more. Time and
//! depth are caps: a faster clock still makes the engine move faster.

use super::board::Board;
use super::iterative::SearchResult;
use super::score::Depth;
use super::time::Limits;
use super::variant::Variant;
use crate::util::Rng;
use shakmaty::{Move, Position};
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

struct Spec {
    depth: Depth,
    movetime_ms: u64,
    lines: usize,
    noise_cp: i32,
    random_pct: u32,
}

const SPECS: [Spec; 7] = [
    Spec {
        depth: 1,
        movetime_ms: 50,
        lines: 8,
        noise_cp: 400,
        random_pct: 15,
    },
    Spec {
        depth: 2,
        movetime_ms: 100,
        lines: 8,
        noise_cp: 250,
        random_pct: 8,
    },
    Spec {
        depth: 3,
        movetime_ms: 200,
        lines: 6,
        noise_cp: 150,
        random_pct: 3,
    },
    Spec {
        depth: 4,
        movetime_ms: 300,
        lines: 5,
        noise_cp: 90,
        random_pct: 0,
    },
    Spec {
        depth: 6,
        movetime_ms: 500,
        lines: 4,
        noise_cp: 50,
        random_pct: 0,
    },
    Spec {
        depth: 8,
        movetime_ms: 800,
        lines: 3,
        noise_cp: 25,
        random_pct: 0,
    },
    Spec {
        depth: 12,
        movetime_ms: 1500,
        lines: 2,
        noise_cp: 10,
        random_pct: 0,
    },
];

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);

    pub fn new(n: u8) -> Option<Level> {
        (1..=8).contains(&n).then_some(Level(n))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    fn spec(self) -> Option<&'static Spec> {
        SPECS.get(self.0 as usize - 1)
    }

    /// A one-line description for menus and help.
    pub fn describe(self) -> String {
        match self.spec() {
            None => "full strength".to_string(),
            Some(s) => format!(
                "depth {}, {} ms per move, random error up to {} cp{}",
                s.depth,
                s.movetime_ms,
                s.noise_cp,
                if s.random_pct > 0 {
                    format!(", {}% random moves", s.random_pct)
                } else {
                    String::new()
                }
            ),
        }
    }

    /// Limits and MultiPV count for a search at this level.
    pub fn adjust(self, limits: &Limits, multipv: usize) -> (Limits, usize) {
        let Some(s) = self.spec() else {
            return (limits.clone(), multipv);
        };
        let mut l = limits.clone();
        l.depth = Some(l.depth.map_or(s.depth, |d| d.min(s.depth)));
        let cap = Duration::from_millis(s.movetime_ms);
        l.movetime = Some(l.movetime.map_or(cap, |t| t.min(cap)));
        l.infinite = false;
        (l, multipv.max(s.lines))
    }

    /// The move this level plays, given the search result (`None`: no move).
    pub fn choose<V: Variant>(
        self,
        board: &Board<V>,
        result: &SearchResult,
        rng: &mut Rng,
    ) -> Option<Move> {
        let Some(s) = self.spec() else {
            return result.best_move;
        };
        if s.random_pct > 0 && rng.below(100) < s.random_pct as usize {
            let legal = board.pos().legal_moves();
            if !legal.is_empty() {
                return Some(legal[rng.below(legal.len())]);
            }
        }
        result
            .lines
            .iter()
            .filter_map(|l| {
                let m = *l.pv.first()?;
                let noise = rng.below(s.noise_cp as usize + 1) as i32;
                Some((l.score.0.saturating_add(noise), m))
            })
            .max_by_key(|&(v, _)| v)
            .map(|(_, m)| m)
            .or(result.best_move)
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::MAX
    }
}
