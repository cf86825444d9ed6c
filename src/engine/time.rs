//! Search limits and time management.
//!
//! From a clock (`wtime/btime/winc/binc/movestogo`) we derive two limits:
//! the *soft* limit decides whether to start another iteration (scaled by how
//! stable the best move is), the *hard* limit aborts a running iteration. A
//! move-overhead margin covers the time the GUI and the pipes take.

use super::score::Depth;
use shakmaty::{Color, Move};
use std::time::{Duration, Instant};

/// A chess clock as UCI `go` sends it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Duration,
    pub binc: Duration,
    pub movestogo: Option<u32>,
}

/// Search features that can be switched off (for learners: what does each
/// idea buy?). All on by default.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Features {
    pub transposition_table: bool,
    pub move_ordering: bool,
    pub null_move: bool,
    pub late_move_reductions: bool,
    /// Reverse futility, futility, late move and SEE pruning, internal
    /// iterative reduction, and lazy evaluation (at full strength).
    pub pruning: bool,
    pub quiescence: bool,
    pub aspiration: bool,
    /// Off: plain minimax. Every move is searched with the full window, so
    /// nothing is ever cut off; the selective ideas that need a window
    /// (null move, reductions, pruning, aspiration) are off with it.
    pub alpha_beta: bool,
}

impl Features {
    /// The features a search really uses: plain minimax switches off what
    /// only makes sense with an alpha-beta window.
    pub fn effective(self) -> Features {
        if self.alpha_beta {
            self
        } else {
            Features {
                null_move: false,
                late_move_reductions: false,
                pruning: false,
                aspiration: false,
                ..self
            }
        }
    }
}

impl Default for Features {
    fn default() -> Self {
        Features {
            transposition_table: true,
            move_ordering: true,
            null_move: true,
            late_move_reductions: true,
            pruning: true,
            quiescence: true,
            aspiration: true,
            alpha_beta: true,
        }
    }
}

/// What to search and for how long. Empty = until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<Depth>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Restrict the root to these moves (UCI `searchmoves`).
    pub searchmoves: Vec<Move>,
    pub features: Features,
    /// Capture plies quiescence may play (None: until quiet). Levels 1-7
    /// use it: a weak player does not follow an exchange to its end.
    pub qsearch_plies: Option<u8>,
    /// Levels 1-7: the per cent of moves below the root the search
    /// overlooks, and the seed that picks them (see `Searcher::overlooks`).
    pub blind_spots: Option<(u8, u64)>,
    /// Levels 1-7: `movetime` is a cap the search may stop before once the
    /// best move is settled (as they were calibrated), not a time to use up.
    pub movetime_is_cap: bool,
}

impl Limits {
    pub fn depth(d: Depth) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }

    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// True when nothing but `stop` ends the search.
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.clock.is_none()
            && self.mate.is_none()
    }
}

#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    pub fn new(limits: &Limits, turn: Color, overhead: Duration) -> TimeManager {
        let start = Instant::now();
        let mut soft = None;
        let mut hard = None;
        if let Some(mt) = limits.movetime {
            // A fixed time per move: what is not used is lost, so search
            // until it is up (no soft limit; the hard one ends the last
            // iteration, whose better move is kept when it was found).
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            hard = Some(t);
            if limits.movetime_is_cap {
                soft = Some(t);
            }
        }
        if let Some(clock) = limits.clock {
            let (time, inc) = match turn {
                Color::White => (clock.wtime, clock.winc),
                Color::Black => (clock.btime, clock.binc),
            };
            if let Some(time) = time {
                let (s, h) = Self::allocate(time, inc, clock.movestogo, overhead);
                soft = Some(soft.map_or(s, |x: Duration| x.min(s)));
                hard = Some(hard.map_or(h, |x: Duration| x.min(h)));
            }
        }
        if limits.infinite {
            soft = None;
            hard = None;
        }
        TimeManager { start, soft, hard }
    }

    /// Soft and hard limits for one move.
    fn allocate(
        time: Duration,
        inc: Duration,
        movestogo: Option<u32>,
        overhead: Duration,
    ) -> (Duration, Duration) {
        let time_ms = time.as_millis() as f64;
        let inc_ms = inc.as_millis() as f64;
        let overhead_ms = overhead.as_millis() as f64;
        // What we may spend at most, keeping the overhead in reserve.
        let available = (time_ms - overhead_ms).max(1.0);
        let mtg = movestogo.map_or(30.0, |m| m.clamp(1, 50) as f64);
        // A low clock is rebuilt from the increment instead of living on
        // it: below `LOW` the increment is spent less and less (none below
        // half of it), so the clock climbs back to a cushion that absorbs
        // the pauses of a busy machine, where spending the increment in
        // full would leave a few milliseconds between the engine and a
        // loss on time for the rest of a long bullet game.
        const LOW: f64 = 200.0;
        let inc_share = ((time_ms - LOW / 2.0) / (LOW / 2.0)).clamp(0.0, 1.0);
        let (soft, hard) = if mtg <= 1.0 {
            (available * 0.7, available * 0.9)
        } else {
            let base = available / mtg + inc_ms * 0.75 * inc_share;
            let soft = base.min(available * 0.35);
            let hard = (soft * 4.0).min(available * 0.6).max(soft);
            (soft, hard)
        };
        (
            Duration::from_micros((soft * 1000.0).max(500.0) as u64),
            Duration::from_micros((hard * 1000.0).max(500.0) as u64),
        )
    }

    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn start(&self) -> Instant {
        self.start
    }

    #[inline]
    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Should we start another iteration? `scale` grows the soft limit when
    /// the best move is unstable and shrinks it when it is settled.
    pub fn soft_exceeded(&self, scale: f64) -> bool {
        match self.soft {
            // An iteration usually takes longer than all previous ones
            // together, so stop once half the budget is gone.
            Some(s) => self.start.elapsed().as_secs_f64() >= s.as_secs_f64() * scale * 0.5,
            None => false,
        }
    }

    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_respects_the_clock() {
        let ms = Duration::from_millis;
        // 1 s + 10 ms: tiny but positive, hard limit far below the clock.
        let (s, h) = TimeManager::allocate(ms(1000), ms(10), None, ms(10));
        assert!(s >= ms(20) && s <= ms(60), "{s:?}");
        assert!(h >= s && h <= ms(600), "{h:?}");
        // Almost flagging: stay well under what is left.
        let (s, h) = TimeManager::allocate(ms(30), ms(10), None, ms(10));
        assert!(h < ms(20), "{s:?} {h:?}");
        // A low clock is rebuilt: well under the increment is spent, so
        // the clock grows back even with a few ms lost per move.
        for left in [20, 60, 99] {
            let (s, _) = TimeManager::allocate(ms(left), ms(10), None, ms(10));
            assert!(s <= ms(4), "{left} ms left: {s:?}");
        }
        // From 200 ms on, the increment is spent as before.
        let (s, _) = TimeManager::allocate(ms(200), ms(100), None, ms(10));
        assert!(s >= ms(60), "{s:?}");
        // Last move before the time control: use most of it.
        let (s, h) = TimeManager::allocate(ms(10_000), Duration::ZERO, Some(1), ms(50));
        assert!(s > ms(5000) && h < ms(9950));
        // Movetime is taken as is, minus overhead, and all of it is used.
        let limits = Limits::movetime(500);
        let tm = TimeManager::new(&limits, Color::White, ms(20));
        assert_eq!(tm.hard, Some(ms(480)));
        assert_eq!(tm.soft, None);
        // A level's time cap may be left early, as before.
        let capped = Limits {
            movetime_is_cap: true,
            ..Limits::movetime(500)
        };
        let tm = TimeManager::new(&capped, Color::White, ms(20));
        assert_eq!((tm.soft, tm.hard), (Some(ms(480)), Some(ms(480))));
        // With a clock as well, the clock's soft limit still applies.
        let limits = Limits {
            clock: Some(Clock {
                wtime: Some(ms(60_000)),
                ..Clock::default()
            }),
            ..Limits::movetime(5000)
        };
        let tm = TimeManager::new(&limits, Color::White, ms(20));
        assert!(tm.soft.is_some_and(|s| s < ms(4980)), "{:?}", tm.soft);
    }
}
