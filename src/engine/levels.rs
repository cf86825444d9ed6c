//! Playing strength levels 1-8.
//!
//! Levels 1-7 are calibrated against the Lichess levels 1-7 (Fairy-Stockfish
//! at Lichess's settings; see the README for the measured scores). They
//! weaken the engine the way weaker players are weak, not by random moves:
//!
//! - **Shallow calculation**: a depth cap, and quiescence that follows only
//!   the first few captures of an exchange (a weak player does not see the
//!   recapture after the recapture).
//! - **Candidate moves overlooked** at the root: a share of its own moves
//!   never enters the level's mind. Captures, checks and moves of a
//!   threatened piece are what a player notices first, so they are
//!   overlooked less often.
//! - **Replies overlooked** below the root: a share of the opponent's
//!   answers (and of its own follow-ups) is invisible to the search, more
//!   often backward, long-range and knight moves, as for a human; the same
//!   move in the same position stays invisible for the whole search. This
//!   is how the level misses tactics: it walks into forks and hangs pieces
//!   to moves it did not see, while moves it does see are judged correctly.
//! - **A little noise** among its best few lines (MultiPV), for variety.
//!
//! | level | depth | capture plies | own moves overlooked (quiet / salient) | replies overlooked | noise | time cap |
//! |-------|-------|---------------|----------------------|------------|-------|----------|
//! | 1 | 1 | 1 | 90% / 80% | 50% | 2 pawns | 50 ms |
//! | 2 | 2 | 1 | 80% / 60% | 40% | 1.5 pawns | 100 ms |
//! | 3 | 3 | 4 | 35% / 18% | 12% | 0.7 pawns | 150 ms |
//! | 4 | 3 | 4 | 20% / 10% | 5% | 0.6 pawns | 200 ms |
//! | 5 | 4 | 6 | 10% / 5% | - | 0.4 pawns | 300 ms |
//! | 6 | 7 | all | - | - | 0.2 pawns | 500 ms |
//! | 7 | 14 | all | - | - | - | 1 s |
//! | 8 | - | all | - | - | - | full strength: only the given limits apply |
//!
//! Time and depth are caps: a faster clock still makes the engine move
//! faster. At full strength none of this costs anything: the search's
//! blind-spot test is one comparison against zero per move.

use super::board::Board;
use super::iterative::SearchResult;
use super::score::Depth;
use super::see;
use super::time::Limits;
use super::variant::Variant;
use crate::util::Rng;
use shakmaty::{Move, Position, Square};
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

#[derive(Clone, Copy, Debug)]
struct Spec {
    /// Full-width plies.
    depth: Depth,
    movetime_ms: u64,
    /// Capture plies quiescence follows after the horizon (None: all).
    qsearch_plies: Option<u8>,
    /// Per cent of its own candidate moves the level overlooks at the root.
    blind_pct: u32,
    /// The same for captures, checks and moves of threatened pieces.
    salient_blind_pct: u32,
    /// Per cent of the moves below the root (the opponent's replies and
    /// what follows) the level's search overlooks.
    miss_pct: u8,
    /// Lines searched (MultiPV) and the random error added to their scores.
    lines: usize,
    noise_cp: i32,
}

const SPECS: [Spec; 7] = [
    Spec::new(1, 50, Some(1), (90, 80), 50, 8, 200),
    Spec::new(2, 100, Some(1), (80, 60), 40, 8, 150),
    Spec::new(3, 150, Some(4), (35, 18), 12, 5, 70),
    Spec::new(3, 200, Some(4), (20, 10), 5, 4, 60),
    Spec::new(4, 300, Some(6), (10, 5), 0, 3, 40),
    Spec::new(7, 500, None, (0, 0), 0, 2, 20),
    Spec::new(14, 1000, None, (0, 0), 0, 1, 0),
];

impl Spec {
    const fn new(
        depth: Depth,
        movetime_ms: u64,
        qsearch_plies: Option<u8>,
        (blind_pct, salient_blind_pct): (u32, u32),
        miss_pct: u8,
        lines: usize,
        noise_cp: i32,
    ) -> Spec {
        Spec {
            depth,
            movetime_ms,
            qsearch_plies,
            blind_pct,
            salient_blind_pct,
            miss_pct,
            lines,
            noise_cp,
        }
    }
}

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);

    pub fn new(n: u8) -> Option<Level> {
        (1..=8).contains(&n).then_some(Level(n))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    fn spec(self) -> Option<Spec> {
        SPECS.get(self.0 as usize - 1).copied()
    }

    /// A one-line description for menus and help.
    pub fn describe(self) -> String {
        let Some(s) = self.spec() else {
            return "full strength".to_string();
        };
        let mut parts = vec![format!("depth {}", s.depth)];
        if s.blind_pct > 0 {
            parts.push(format!("overlooks {}% of moves", s.blind_pct));
        }
        if s.noise_cp > 0 {
            parts.push(format!("error up to {} cp", s.noise_cp));
        }
        parts.push(format!("{} ms", s.movetime_ms));
        parts.join(", ")
    }

    /// Limits and MultiPV count for a search at this level from `board`:
    /// depth, time and quiescence capped, and the root restricted to the
    /// moves the level "sees" (a random share of the others is overlooked;
    /// captures, checks and moves of threatened pieces less often).
    pub fn adjust<V: Variant>(
        self,
        board: &Board<V>,
        limits: &Limits,
        multipv: usize,
        rng: &mut Rng,
    ) -> (Limits, usize) {
        let Some(s) = self.spec() else {
            return (limits.clone(), multipv);
        };
        let mut l = limits.clone();
        l.depth = Some(l.depth.map_or(s.depth, |d| d.min(s.depth)));
        let cap = Duration::from_millis(s.movetime_ms);
        l.movetime = Some(l.movetime.map_or(cap, |t| t.min(cap)));
        l.movetime_is_cap = true;
        l.infinite = false;
        l.qsearch_plies = s.qsearch_plies;
        if s.miss_pct > 0 {
            l.blind_spots = Some((s.miss_pct, rng.next_u64()));
        }
        if s.blind_pct > 0 {
            let candidates: Vec<Move> = if l.searchmoves.is_empty() {
                board.pos().legal_moves().into_iter().collect()
            } else {
                l.searchmoves.clone()
            };
            let check_info = board.check_info();
            let seen: Vec<Move> = candidates
                .iter()
                .copied()
                .filter(|&m| {
                    let salient = m.is_capture()
                        || board.gives_check(m, &check_info)
                        || m.from().is_some_and(|from| threatened(board.pos(), from));
                    let pct = if salient {
                        s.salient_blind_pct
                    } else {
                        s.blind_pct
                    };
                    rng.below(100) >= pct as usize
                })
                .collect();
            // Overlooking everything (rare, at level 1): it looks again
            // at every move rather than play a random one.
            if !seen.is_empty() {
                l.searchmoves = seen;
            }
        }
        (l, multipv.max(s.lines))
    }

    /// The move this level plays, given the search result (`None`: no move).
    pub fn choose(self, result: &SearchResult, rng: &mut Rng) -> Option<Move> {
        let Some(s) = self.spec() else {
            return result.best_move;
        };
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

/// Is the piece on `from` attacked by a cheaper piece, or attacked and
/// undefended? A player notices that before anything else.
fn threatened<P: Position>(pos: &P, from: Square) -> bool {
    let b = pos.board();
    let us = pos.turn();
    let occupied = b.occupied();
    let Some(role) = b.role_at(from) else {
        return false;
    };
    let attackers = b.attacks_to(from, !us, occupied);
    if attackers.is_empty() {
        return false;
    }
    !b.attacks_to(from, us, occupied).any()
        || attackers.into_iter().any(|s| {
            b.role_at(s)
                .is_some_and(|r| see::value(r) < see::value(role))
        })
}

impl Default for Level {
    fn default() -> Self {
        Level::MAX
    }
}
