//! How long an engine seat takes over a move while a clock runs.
//!
//! An engine answers in milliseconds at a low level, so with a clock it
//! would play a whole game while a person makes six moves, with nearly all
//! its time left. A player of any level spends time: a share of what is
//! left plus most of the increment, quickly in the opening, with some
//! variance from move to move, faster when short of time. In Bughouse a
//! player also watches the partner: when the partner is short of time the
//! team needs tempo (pieces, and no sitting opponent), and a partner's
//! "sit" holds the move as long as the clock allows.
//!
//! The engine still thinks as it always does; its move is only held until
//! the time a player would have taken ([`think_time`]). [`Pace::Fast`]
//! plays every move as soon as it is found.

use crate::util::Rng;
use std::time::Duration;

/// Whether engine seats take a player's time over their moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// As a player of the engine's level would, when a clock runs.
    #[default]
    Human,
    /// Every move at once.
    Fast,
}

impl Pace {
    /// `human` / `fast` (the config file's words).
    pub fn parse(s: &str) -> Option<Pace> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" | "player" | "paced" => Some(Pace::Human),
            "fast" | "instant" => Some(Pace::Fast),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Pace::Human => "human",
            Pace::Fast => "fast",
        }
    }
}

/// The partner's board, as a Bughouse player glances at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartnerClocks {
    /// The partner's time left.
    pub left: Duration,
    /// The time left of the partner's opponent.
    pub opponent: Duration,
}

/// What a player knows when its turn begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Its own time left.
    pub left: Duration,
    /// The opponent's time left on this board.
    pub opponent: Duration,
    pub increment: Duration,
    /// Its own moves made so far on this board.
    pub moves_made: usize,
    /// The engine's strength level (1-8); `None` for full strength, fixed
    /// limits or another program.
    pub level: Option<u8>,
    /// Bughouse: the partner's board.
    pub partner: Option<PartnerClocks>,
}

/// Below this a player moves as fast as it can.
const PANIC: Duration = Duration::from_secs(5);

/// How long a player in `turn` takes over its move (the engine's move is
/// held until then). Random within a range, from `rng`.
pub fn think_time(turn: &Turn, rng: &mut Rng) -> Duration {
    let left = turn.left.as_secs_f64();
    let inc = turn.increment.as_secs_f64();
    if turn.left <= PANIC {
        // Scrambling: a blitz premove speed, most of the increment.
        return Duration::from_secs_f64((0.1 + inc * 0.5).min(left / 4.0));
    }
    // A share of what is left: as if 40 moves were still to come at the
    // start, never fewer than 15.
    let to_go = (40usize.saturating_sub(turn.moves_made)).max(15) as f64;
    let mut t = left / to_go + inc * 0.8;
    // The opening is known: played quickly.
    t *= match turn.moves_made {
        0..=3 => 0.35,
        4..=7 => 0.7,
        _ => 1.0,
    };
    // Weaker players think less (and still make the moves they make).
    t *= match turn.level {
        Some(1..=2) => 0.7,
        Some(3..=5) => 0.85,
        _ => 1.0,
    };
    if let Some(p) = turn.partner {
        // A partner short of time needs our tempo (pieces now, and an
        // opponent who cannot wait for them): hurry.
        if p.left < Duration::from_secs(20) || p.left + Duration::from_secs(15) < p.opponent {
            t *= 0.5;
        }
    }
    // Up on time against this opponent: a player uses some of it.
    if turn.left > turn.opponent + Duration::from_secs(20) {
        t *= 1.2;
    }
    // Some moves are obvious, some are not: a factor from 1/2 to 2.
    t *= (std::f64::consts::LN_2 * (2.0 * rng.unit() - 1.0)).exp();
    // Never the whole clock, never instantly.
    let t = t.min(left / 6.0).max(0.3_f64.min(left / 20.0));
    Duration::from_secs_f64(t)
}

pub use crate::engine::partner::may_sit;

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(left: u64, moves_made: usize) -> Turn {
        Turn {
            left: Duration::from_secs(left),
            opponent: Duration::from_secs(left),
            increment: Duration::ZERO,
            moves_made,
            level: Some(2),
            partner: None,
        }
    }

    #[test]
    fn a_player_spends_its_clock_over_a_game() {
        // A level-2 player at 2+0, 40 moves (its opponent uses the same).
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let mut left = Duration::from_secs(120);
            let mut spent = Vec::new();
            for m in 0..40 {
                let mut t = turn(left.as_secs(), m);
                t.left = left;
                t.opponent = left;
                let think = think_time(&t, &mut rng);
                assert!(
                    think <= left / 4,
                    "never most of the clock: {think:?} of {left:?}"
                );
                assert!(think > Duration::ZERO);
                left = left.saturating_sub(think);
                spent.push(think);
            }
            let used = Duration::from_secs(120) - left;
            // It uses a good part of its time, and does not flag.
            assert!(used > Duration::from_secs(45), "seed {seed}: used {used:?}");
            assert!(left > Duration::from_secs(3), "seed {seed}: left {left:?}");
            // Openings quicker than the middlegame.
            let opening: Duration = spent[..4].iter().sum();
            let middle: Duration = spent[10..14].iter().sum();
            assert!(opening < middle, "seed {seed}: {opening:?} vs {middle:?}");
        }
    }

    #[test]
    fn slow_clock_is_never_instant_and_increment_counts() {
        let mut rng = Rng::new(7);
        let mut t = turn(900, 20);
        t.increment = Duration::from_secs(10);
        for _ in 0..50 {
            let think = think_time(&t, &mut rng);
            assert!(think >= Duration::from_secs(5), "{think:?}");
            assert!(think <= Duration::from_secs(150), "{think:?}");
        }
    }

    #[test]
    fn short_of_time_moves_fast() {
        let mut rng = Rng::new(3);
        let t = turn(4, 30);
        assert!(think_time(&t, &mut rng) <= Duration::from_secs(1));
    }

    #[test]
    fn a_partner_short_of_time_makes_us_hurry() {
        // Same random draws, partner fine vs partner short.
        let mut calm = turn(100, 20);
        calm.partner = Some(PartnerClocks {
            left: Duration::from_secs(90),
            opponent: Duration::from_secs(90),
        });
        let mut hurried = calm;
        hurried.partner = Some(PartnerClocks {
            left: Duration::from_secs(12),
            opponent: Duration::from_secs(60),
        });
        let a = think_time(&calm, &mut Rng::new(5));
        let b = think_time(&hurried, &mut Rng::new(5));
        assert!(b < a, "{b:?} vs {a:?}");
    }

    #[test]
    fn sitting_needs_time_to_spare() {
        let s = Duration::from_secs;
        assert!(may_sit(s(60), s(40)));
        assert!(!may_sit(s(40), s(60)), "down on time: no sitting");
        assert!(!may_sit(s(8), s(2)), "short of time: no sitting");
    }

    #[test]
    fn pace_words() {
        assert_eq!(Pace::parse("Fast"), Some(Pace::Fast));
        assert_eq!(Pace::parse("human"), Some(Pace::Human));
        assert_eq!(Pace::parse("slowly"), None);
    }
}
