//! Match statistics: score, Elo difference and its 95% confidence interval.

/// Wins, draws and losses from the first engine's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Elo difference implied by an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game (0..1).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            self.points() / n as f64
        }
    }

    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half-width of the 95% confidence interval of the Elo difference,
    /// from the per-game score variance (trinomial model). Infinite when
    /// every game had the same result.
    pub fn elo_error(&self) -> f64 {
        let n = self.games() as f64;
        if n < 2.0 {
            return f64::INFINITY;
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let stderr = (var / n).sqrt();
        if stderr == 0.0 {
            return f64::INFINITY;
        }
        let lo = elo_from_score(s - 1.96 * stderr);
        let hi = elo_from_score(s + 1.96 * stderr);
        (hi - lo) / 2.0
    }

    /// Likelihood of superiority (probability that the first engine is
    /// stronger), ignoring draws.
    pub fn los(&self) -> f64 {
        let w = self.wins as f64;
        let l = self.losses as f64;
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// "Elo +35.2 +/- 40.1", with the cases a plain formula gets wrong
    /// spelled out.
    pub fn elo_text(&self) -> String {
        let e = self.elo();
        let err = self.elo_error();
        if self.games() == 0 {
            "no games".into()
        } else if self.losses == 0 && self.draws == 0 {
            // One-sided 95% bound: the win probability p with p^n = 0.05.
            let p = 0.05f64.powf(1.0 / self.games() as f64);
            format!(
                "all {} games won: above {:+.0} (95% lower bound)",
                self.games(),
                elo_from_score(p)
            )
        } else if self.wins == 0 && self.draws == 0 {
            let p = 0.05f64.powf(1.0 / self.games() as f64);
            format!(
                "all {} games lost: below {:+.0} (95% upper bound)",
                self.games(),
                elo_from_score(1.0 - p)
            )
        } else if err.is_finite() {
            format!("{e:+.1} +/- {err:.1} (95% confidence)")
        } else {
            format!("{e:+.1} (error unknown)")
        }
    }
}

/// Abramowitz-Stegun approximation of the error function (|error| < 1.5e-7).
fn erf(x: f64) -> f64 {
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_numbers() {
        assert!(elo_from_score(0.5).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.1);
        assert!((elo_from_score(0.25) + 190.85).abs() < 0.1);
        let even = Wdl {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert!(even.elo().abs() < 1e-9);
        assert!((even.los() - 0.5).abs() < 1e-9);
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!((w.score() - 0.7).abs() < 1e-12);
        assert!((w.elo() - 147.2).abs() < 0.1);
        // About +/- 70 Elo for 100 games at 70%.
        let e = w.elo_error();
        assert!(e > 55.0 && e < 85.0, "{e}");
        assert!(w.los() > 0.999);
        assert!(
            Wdl {
                wins: 5,
                draws: 0,
                losses: 0
            }
            .elo_text()
            .contains("above")
        );
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
    }
}
