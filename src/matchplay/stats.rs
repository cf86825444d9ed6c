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
    /// Counts a game that gave the first engine `points` (1, 0.5 or 0).
    pub fn add(&mut self, points: f64) {
        match points {
            1.0 => self.wins += 1,
            0.0 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

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

/// Expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test: H0 "the first engine is `elo0`
/// stronger" against H1 "it is `elo1` stronger", with false-positive rate
/// `alpha` and false-negative rate `beta`. The log-likelihood ratio is the
/// generalised SPRT's normal approximation over the trinomial (win, draw,
/// loss) results, as fishtest and cutechess use it; the match stops as soon
/// as it leaves the bounds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a running SPRT stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    /// H0 accepted: the gain is not `elo1` (at most `elo0`).
    H0,
    /// H1 accepted: the gain is at least `elo1`.
    H1,
}

impl Sprt {
    /// `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (alpha and beta default to 0.05).
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() != 2 && parts.len() != 4 {
            return Err(format!(
                "'{s}': give ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (e.g. 0,10)"
            ));
        }
        let num = |t: &str| {
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("'{t}' in '{s}' is not a number"))
        };
        let elo0 = num(parts[0])?;
        let elo1 = num(parts[1])?;
        let (alpha, beta) = if parts.len() == 4 {
            (num(parts[2])?, num(parts[3])?)
        } else {
            (0.05, 0.05)
        };
        if elo1 <= elo0 {
            return Err(format!("'{s}': ELO1 must be above ELO0"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("'{s}': {name} must be between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `wdl`.
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let n = wdl.games() as f64;
        if n < 2.0 {
            return 0.0;
        }
        let s = wdl.score();
        let var = (wdl.wins as f64 * (1.0 - s).powi(2)
            + wdl.draws as f64 * (0.5 - s).powi(2)
            + wdl.losses as f64 * s.powi(2))
            / n;
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, wdl: &Wdl) -> SprtVerdict {
        let llr = self.llr(wdl);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::H1
        } else if llr <= lo {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
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

    #[test]
    fn sprt_llr_and_verdicts() {
        let sprt = Sprt::parse("0,10").expect("valid");
        assert_eq!((sprt.alpha, sprt.beta), (0.05, 0.05));
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
        // 70% over 100 games: LLR = n (s1 - s0)(2s - s0 - s1) / 2var = 1.734.
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!((sprt.llr(&w) - 1.734).abs() < 0.01, "{}", sprt.llr(&w));
        assert_eq!(sprt.verdict(&w), SprtVerdict::Continue);
        let w2 = Wdl {
            wins: 120,
            draws: 40,
            losses: 40,
        };
        assert_eq!(sprt.verdict(&w2), SprtVerdict::H1);
        // The mirror image is evidence against: H0.
        let l2 = Wdl {
            wins: 40,
            draws: 40,
            losses: 120,
        };
        assert!(sprt.llr(&l2) < lo);
        assert_eq!(sprt.verdict(&l2), SprtVerdict::H0);
        // Even results lean to H0 (the gain is not 10 Elo), slowly.
        let even = Wdl {
            wins: 500,
            draws: 0,
            losses: 500,
        };
        assert!(sprt.llr(&even) < 0.0 && sprt.llr(&even) > lo);
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0").is_err());
        assert!(Sprt::parse("0,x").is_err());
        assert!(Sprt::parse("0,5,0.6,0.05").is_err());
        assert_eq!(
            Sprt::parse("-5, 5, 0.1, 0.2").expect("valid"),
            Sprt {
                elo0: -5.0,
                elo1: 5.0,
                alpha: 0.1,
                beta: 0.2
            }
        );
    }
}
