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
//! faster.
//!
//! **Strength by Elo** ([`Strength::elo`], the UCI options
//! `UCI_LimitStrength` and `UCI_Elo`): an Elo is a position on a measured
//! curve (`CURVE`) between the levels' settings, which are mixed in
//! proportion; above level 7 the evaluation is full strength's and only
//! the depth is capped. At full strength none of this costs anything: the search's
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

/// The settings of one limited strength (a level, or one move's draw of
/// an Elo between two levels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
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

    /// A one-line description for menus and help (short enough for the
    /// new-game dialog at 80 columns; the README's table has the rest).
    pub fn describe(self) -> String {
        let Some(s) = self.spec() else {
            return "full strength".to_string();
        };
        let elo = match Strength::level_elo(self) {
            Some(e) => format!("about {e} Elo"),
            None => format!("below {} Elo", Strength::ELO_MIN),
        };
        let mut parts = vec![format!("depth {}", s.depth)];
        if s.blind_pct > 0 {
            parts.push(format!("overlooks {}% of moves", s.blind_pct));
        } else if s.noise_cp > 0 {
            parts.push(format!("error up to {} cp", s.noise_cp));
        }
        format!("{elo}; {}", parts.join(", "))
    }
}

/// The Elo scale: points (position, Elo) where a position is a level with
/// a fraction (6.5 is halfway from level 6's settings to level 7's; 8 is
/// full strength) and the Elo is what games measured there on Stockfish
/// 15.1's `UCI_Elo` scale at 10+0.1 (the Stockfish setting played plus
/// the difference the score gives; see the README, "Strength by Elo").
/// Between points the position is interpolated. Levels 1 and 2 lie below
/// Stockfish's lowest setting (1350) and are not on the scale.
const CURVE: [(f64, u32); 8] = [
    (3.0, 1000),
    (4.0, 1350),
    (5.0, 1650),
    (6.0, 1950),
    (6.5, 2000),
    (7.0, 2200),
    (7.25, 2490),
    (8.0, 2570),
];

/// Above level 7, toward full strength: the depth cap goes from the first
/// number to the second. The network searching 10 plies measured about
/// as strong as level 7 (the calibrated hand-made evaluation, 14 plies),
/// so the scale has no step where the evaluation changes.
const TOP_DEPTH: (Depth, Depth) = (10, 26);

/// The position on [`CURVE`] of a player rated `elo` (within the curve).
fn position_of(elo: u32) -> f64 {
    let i = (0..CURVE.len() - 1)
        .rev()
        .find(|&i| CURVE[i].1 <= elo)
        .unwrap_or(0);
    let ((p, a), (q, b)) = (CURVE[i], CURVE[i + 1]);
    p + (q - p) * f64::from(elo.saturating_sub(a)) / f64::from(b - a)
}

/// How strongly the engine plays: at full strength, or limited to a level
/// (1-7) or to an Elo rating between two of them (`UCI_LimitStrength` and
/// `UCI_Elo`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strength {
    /// Only the given limits apply.
    Full,
    /// `t` (0 to 1) of the way from the settings `lo` to `hi`; `hi` is
    /// `None` above level 7, toward full strength (there the network
    /// evaluates, the depth cap runs through `TOP_DEPTH` and the time
    /// cap is divided by `1 - t`). Each move draws its own whole numbers:
    /// depth 6.3 is depth 6 seven moves in ten, depth 7 the other three.
    Limited { lo: Spec, hi: Option<Spec>, t: f64 },
}

impl Strength {
    /// The lowest and highest Elo [`Strength::elo`] takes (at the highest
    /// it plays at full strength).
    pub const ELO_MIN: u32 = CURVE[0].1;
    pub const ELO_MAX: u32 = CURVE[CURVE.len() - 1].1;

    /// The Elo a level plays at on this scale (`None`: levels 1 and 2,
    /// below it).
    pub fn level_elo(level: Level) -> Option<u32> {
        let p = f64::from(level.get());
        CURVE.iter().find(|c| c.0 == p).map(|c| c.1)
    }

    pub fn level(level: Level) -> Strength {
        match level.spec() {
            Some(s) => Strength::Limited {
                lo: s,
                hi: Some(s),
                t: 0.0,
            },
            None => Strength::Full,
        }
    }

    /// The strength of a player rated `elo` (clamped to
    /// [`Strength::ELO_MIN`]..=[`Strength::ELO_MAX`]): the settings of the
    /// two calibrated levels around it, mixed in proportion.
    pub fn elo(elo: u32) -> Strength {
        let elo = elo.clamp(Self::ELO_MIN, Self::ELO_MAX);
        if elo >= Self::ELO_MAX {
            return Strength::Full;
        }
        let p = position_of(elo);
        let i = (p.floor() as usize).clamp(1, SPECS.len());
        Strength::Limited {
            lo: SPECS[i - 1],
            hi: SPECS.get(i).copied(),
            t: p - i as f64,
        }
    }

    pub fn is_full(&self) -> bool {
        matches!(self, Strength::Full)
    }

    /// Whether it evaluates as full strength does (the tuned weights and
    /// the network): above level 7, where the depth cap does the
    /// weakening. Levels 1-7 and the Elos between them keep the weights
    /// they were calibrated with.
    pub fn full_eval(&self) -> bool {
        match self {
            Strength::Full => true,
            Strength::Limited { hi, t, .. } => hi.is_none() && *t > 0.0,
        }
    }

    /// This move's settings (`None`: full strength).
    pub fn draw(&self, rng: &mut Rng) -> Option<Spec> {
        let &Strength::Limited { lo, hi, t } = self else {
            return None;
        };
        let mut round = |x: f64| {
            let f = x.floor();
            f as i64 + i64::from(rng.unit() < x - f)
        };
        let Some(hi) = hi else {
            if t == 0.0 {
                return Some(lo);
            }
            // Toward full strength: its evaluation (see
            // [`Strength::full_eval`]), a depth cap from TOP_DEPTH up, and
            // a time cap that grows without bound.
            let (d0, d1) = TOP_DEPTH;
            return Some(Spec {
                depth: round(f64::from(d0) + f64::from(d1 - d0) * t) as Depth,
                movetime_ms: (lo.movetime_ms as f64 / (1.0 - t).max(1e-3)) as u64,
                ..lo
            });
        };
        let mix = |a: f64, b: f64| a + (b - a) * t;
        // "Every capture" mixes as a dozen capture plies.
        let plies = |q: Option<u8>| q.map_or(12.0, f64::from);
        let qsearch_plies = match (lo.qsearch_plies, hi.qsearch_plies) {
            (None, None) => None,
            (a, b) => Some(round(mix(plies(a), plies(b))) as u8),
        };
        Some(Spec {
            depth: round(mix(f64::from(lo.depth), f64::from(hi.depth))) as Depth,
            movetime_ms: mix(lo.movetime_ms as f64, hi.movetime_ms as f64) as u64,
            qsearch_plies,
            blind_pct: round(mix(f64::from(lo.blind_pct), f64::from(hi.blind_pct))) as u32,
            salient_blind_pct: round(mix(
                f64::from(lo.salient_blind_pct),
                f64::from(hi.salient_blind_pct),
            )) as u32,
            miss_pct: round(mix(f64::from(lo.miss_pct), f64::from(hi.miss_pct))) as u8,
            lines: round(mix(lo.lines as f64, hi.lines as f64)) as usize,
            noise_cp: round(mix(f64::from(lo.noise_cp), f64::from(hi.noise_cp))) as i32,
        })
    }

    /// A one-line description ("between level 5 and level 6").
    pub fn describe(&self) -> String {
        match self {
            Strength::Full => "full strength".into(),
            Strength::Limited { lo, hi, t } => {
                let name = |s: &Spec| {
                    SPECS
                        .iter()
                        .position(|x| x == s)
                        .map_or("a custom setting".to_string(), |i| {
                            format!("level {}", i + 1)
                        })
                };
                match hi {
                    _ if *t == 0.0 => name(lo),
                    Some(hi) => format!(
                        "{:.0}% of the way from {} to {}",
                        t * 100.0,
                        name(lo),
                        name(hi)
                    ),
                    None => format!(
                        "{:.0}% of the way from {} to full strength",
                        t * 100.0,
                        name(lo)
                    ),
                }
            }
        }
    }
}

impl Spec {
    /// Limits and MultiPV count for a search with these settings from
    /// `board`: depth, time and quiescence capped, and the root restricted
    /// to the moves the level "sees" (a random share of the others is
    /// overlooked; captures, checks and moves of threatened pieces less
    /// often).
    pub fn adjust<V: Variant>(
        self,
        board: &Board<V>,
        limits: &Limits,
        multipv: usize,
        rng: &mut Rng,
    ) -> (Limits, usize) {
        let s = self;
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

    /// The move these settings play, given the search result (`None`: no
    /// move): the best of the lines searched, each with its random error.
    pub fn choose(self, result: &SearchResult, rng: &mut Rng) -> Option<Move> {
        let s = self;
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
