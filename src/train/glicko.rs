//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012),
//! with lichess' settings for puzzles.
//!
//! A rating is three numbers: the rating itself, its deviation (how sure we
//! are: about 95% of the time the true strength is within two deviations)
//! and the volatility (how erratic the player's results are). Glicko-2
//! rates a player from all the games of a *rating period* at once; lichess
//! instead makes every game (every puzzle) its own period, so the rating
//! moves after each one, and between games lets the deviation grow with
//! the time that passed (a player who has not played for months is less
//! certain). [`rate`] is one period, [`age`] the growth over idle days.
//!
//! Lichess' values ([`Settings::LICHESS`]): a new player is 1500, deviation
//! 500, volatility 0.09; tau 0.75; 0.21436 rating periods per day (so a
//! settled deviation of 60 grows to 110 in a year); the rating stays within
//! 400..4000, the deviation within 45..500, the volatility below 0.1, and
//! one game moves the rating by at most 700.

use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

/// Glicko-2 works on its own scale: (rating - 1500) / 173.7178.
const SCALE: f64 = 173.7178;
/// Where the Glicko scale is centred.
const CENTRE: f64 = 1500.0;
/// When the volatility iteration (step 5) has converged.
const EPSILON: f64 = 1e-6;
/// A bound on the volatility iteration, which converges in a handful of
/// steps on any real input; the bound only guards against a hang.
const MAX_ITERATIONS: usize = 1000;

/// A player's (or a puzzle's) rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A new player, as lichess starts one: 1500, deviation 500,
    /// volatility 0.09.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 500.0,
        volatility: 0.09,
    };

    /// Lichess marks a rating provisional (a `?` after it) while its
    /// deviation is 110 or more: too few games to trust it.
    pub fn provisional(&self) -> bool {
        self.deviation >= 110.0
    }

    /// Finite, with a positive deviation and volatility: what a stored
    /// rating must be before it is believed.
    pub fn is_valid(&self) -> bool {
        self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// The system's constants and the bounds lichess keeps ratings in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// How much the volatility may change in one period (Glickman suggests
    /// 0.3 to 1.2).
    pub tau: f64,
    /// Rating periods per day of inactivity, for [`age`].
    pub periods_per_day: f64,
    pub min_rating: f64,
    pub max_rating: f64,
    pub min_deviation: f64,
    pub max_deviation: f64,
    pub max_volatility: f64,
    /// The most one period moves the rating, either way.
    pub max_change: f64,
}

impl Settings {
    /// Lichess' values (lila's `Glicko` and its rating calculator).
    pub const LICHESS: Settings = Settings {
        tau: 0.75,
        periods_per_day: 0.21436,
        min_rating: 400.0,
        max_rating: 4000.0,
        min_deviation: 45.0,
        max_deviation: 500.0,
        max_volatility: 0.1,
        max_change: 700.0,
    };

    /// The paper's worked example: tau 0.5, no bounds.
    pub const PAPER: Settings = Settings {
        tau: 0.5,
        periods_per_day: 1.0,
        min_rating: f64::NEG_INFINITY,
        max_rating: f64::INFINITY,
        min_deviation: 0.0,
        max_deviation: f64::INFINITY,
        max_volatility: f64::INFINITY,
        max_change: f64::INFINITY,
    };

    fn clamp(&self, before: f64, r: Rating) -> Rating {
        let change = (r.rating - before).clamp(-self.max_change, self.max_change);
        Rating {
            rating: (before + change).clamp(self.min_rating, self.max_rating),
            deviation: r.deviation.clamp(self.min_deviation, self.max_deviation),
            volatility: r.volatility.min(self.max_volatility),
        }
    }
}

/// One game of a rating period: the opponent's rating and deviation, and
/// the score (1 win, 0.5 draw, 0 loss). A puzzle is the opponent: solved
/// is a win.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub rating: f64,
    pub deviation: f64,
    pub score: f64,
}

/// Glickman's g(phi): how much an opponent's uncertainty discounts a
/// result against them.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The expected score against an opponent, on Glicko-2's scale.
fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The chance that `player` beats (solves) an opponent of this rating and
/// deviation.
pub fn expected(player: Rating, rating: f64, deviation: f64) -> f64 {
    e(
        (player.rating - CENTRE) / SCALE,
        (rating - CENTRE) / SCALE,
        deviation / SCALE,
    )
}

/// The rating after one rating period with these games (steps 1 to 8 of
/// the paper), within the settings' bounds. Without games only the
/// deviation grows, by one period's worth. A rating or game that is not
/// finite leaves the rating as it was rather than spreading NaN.
pub fn rate(player: Rating, games: &[Game], s: &Settings) -> Rating {
    let finite = games
        .iter()
        .all(|x| x.rating.is_finite() && x.deviation.is_finite() && x.score.is_finite());
    if !player.is_valid() || !finite || s.tau.is_nan() || s.tau <= 0.0 {
        return player;
    }
    // Step 2: to Glicko-2's scale.
    let mu = (player.rating - CENTRE) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        return s.clamp(
            player.rating,
            Rating {
                deviation: (phi * phi + sigma * sigma).sqrt() * SCALE,
                ..player
            },
        );
    }
    // Steps 3 and 4: the estimated variance v of the rating from the games
    // alone, and the estimated improvement delta.
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for x in games {
        let (mu_j, phi_j) = ((x.rating - CENTRE) / SCALE, x.deviation / SCALE);
        let (gj, ej) = (g(phi_j), e(mu, mu_j, phi_j));
        v_inv += gj * gj * ej * (1.0 - ej);
        sum += gj * (x.score - ej);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    // Step 5: the new volatility.
    let sigma_new = volatility(phi, sigma, v, delta, s.tau);
    // Steps 6 and 7: the deviation grows by one period, then shrinks with
    // the games' information; the rating moves by the weighted surprise.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    let out = Rating {
        rating: mu_new * SCALE + CENTRE,
        deviation: phi_new * SCALE,
        volatility: sigma_new,
    };
    if out.is_valid() {
        s.clamp(player.rating, out)
    } else {
        player
    }
}

/// Step 5: the volatility after the period, by the Illinois algorithm on
/// f(x) = 0 with x = ln(sigma^2).
fn volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < MAX_ITERATIONS as f64 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    let mut n = 0;
    while (big_b - big_a).abs() > EPSILON && n < MAX_ITERATIONS {
        n += 1;
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let out = (big_a / 2.0).exp();
    if out.is_finite() && out > 0.0 {
        out
    } else {
        sigma
    }
}

/// The rating after `days` without games: the deviation grows by
/// `days * periods_per_day` periods' worth of volatility (lichess'
/// "preview deviation"), never past the maximum.
pub fn age(player: Rating, days: f64, s: &Settings) -> Rating {
    if !player.is_valid() || !days.is_finite() || days <= 0.0 {
        return player;
    }
    let phi = player.deviation / SCALE;
    let periods = days * s.periods_per_day;
    let deviation = (phi * phi + periods * player.volatility * player.volatility).sqrt() * SCALE;
    Rating {
        deviation: deviation.min(s.max_deviation).max(player.deviation),
        ..player
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let games = [
            Game {
                rating: 1400.0,
                deviation: 30.0,
                score: 1.0,
            },
            Game {
                rating: 1550.0,
                deviation: 100.0,
                score: 0.0,
            },
            Game {
                rating: 1700.0,
                deviation: 300.0,
                score: 0.0,
            },
        ];
        let r = rate(player, &games, &Settings::PAPER);
        assert!((r.rating - 1464.06).abs() < 0.01, "{r:?}");
        assert!((r.deviation - 151.52).abs() < 0.01, "{r:?}");
        assert!((r.volatility - 0.05999).abs() < 0.00001, "{r:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let r = rate(player, &[], &Settings::PAPER);
        assert_eq!(r.rating, 1500.0);
        assert_eq!(r.volatility, 0.06);
        // sqrt(phi^2 + sigma^2) on Glicko-2's scale.
        let phi = 200.0 / SCALE;
        let want = (phi * phi + 0.06 * 0.06).sqrt() * SCALE;
        assert!((r.deviation - want).abs() < 1e-9);
        assert!(r.deviation > 200.0);
    }

    #[test]
    fn a_new_player_moves_a_lot_and_stays_in_lichess_bounds() {
        let puzzle = |score| Game {
            rating: 1500.0,
            deviation: 80.0,
            score,
        };
        let won = rate(Rating::NEW, &[puzzle(1.0)], &Settings::LICHESS);
        let lost = rate(Rating::NEW, &[puzzle(0.0)], &Settings::LICHESS);
        assert!(won.rating > 1700.0 && won.rating < 2200.0, "{won:?}");
        assert!(lost.rating < 1300.0 && lost.rating > 800.0, "{lost:?}");
        // Symmetric around 1500 against an equal puzzle.
        assert!((won.rating - 1500.0 + lost.rating - 1500.0).abs() < 1e-6);
        assert!(won.deviation < 500.0 && won.deviation >= 45.0);
        assert!(won.volatility <= 0.1);
        // Losing at the floor stays at the floor.
        let floor = Rating {
            rating: 400.0,
            deviation: 60.0,
            volatility: 0.09,
        };
        let r = rate(floor, &[puzzle(0.0)], &Settings::LICHESS);
        assert_eq!(r.rating, 400.0);
    }

    #[test]
    fn idle_days_widen_the_deviation_like_lichess() {
        // Lichess chose 0.21436 periods a day so that 60 becomes about 110
        // in a year for a typical volatility (0.06).
        let settled = Rating {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        let year = age(settled, 365.0, &Settings::LICHESS);
        assert!((year.deviation - 110.0).abs() < 5.0, "{year:?}");
        assert_eq!(year.rating, 1800.0);
        assert_eq!(age(settled, 0.0, &Settings::LICHESS), settled);
        assert_eq!(age(settled, 1e9, &Settings::LICHESS).deviation, 500.0);
    }

    #[test]
    fn bad_numbers_leave_the_rating_alone() {
        let bad = Game {
            rating: f64::NAN,
            deviation: 50.0,
            score: 1.0,
        };
        assert_eq!(rate(Rating::NEW, &[bad], &Settings::LICHESS), Rating::NEW);
        assert!((expected(Rating::NEW, 1500.0, 80.0) - 0.5).abs() < 1e-12);
    }
}
