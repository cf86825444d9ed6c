//! Time controls: base time and increment, as `config.toml` and the
//! command line write them (`5+3`) and as the PGN `TimeControl` tag does
//! (`300+3`).
use std::time::Duration;

/// Base time and increment, written in chess notation: minutes+seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    pub const fn new(base_secs: u64, inc_secs: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(base_secs),
            increment: Duration::from_secs(inc_secs),
        }
    }

    /// The PGN `TimeControl` tag: seconds, `180+2`.
    pub fn pgn_tag(&self) -> String {
        format!("{}+{}", fmt_secs(self.base), fmt_secs(self.increment))
    }

    /// Parses the PGN tag form (`180+2`, `300`).
    pub fn from_pgn_tag(s: &str) -> Option<TimeControl> {
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let b: f64 = b.trim().parse().ok()?;
        let i: f64 = i.trim().parse().ok()?;
        (b.is_finite() && i.is_finite() && b > 0.0 && i >= 0.0 && b < 1e7 && i < 1e5).then(|| {
            TimeControl {
                base: Duration::from_secs_f64(b),
                increment: Duration::from_secs_f64(i),
            }
        })
    }

    pub fn presets() -> &'static [(&'static str, TimeControl)] {
        const P: [(&str, TimeControl); 8] = [
            ("1+0", TimeControl::new(60, 0)),
            ("3+0", TimeControl::new(180, 0)),
            ("3+2", TimeControl::new(180, 2)),
            ("5+0", TimeControl::new(300, 0)),
            ("5+3", TimeControl::new(300, 3)),
            ("10+5", TimeControl::new(600, 5)),
            ("15+10", TimeControl::new(900, 10)),
            ("30+0", TimeControl::new(1800, 0)),
        ];
        &P
    }
}

fn fmt_secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", d.as_secs_f64())
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let base = self.base.as_secs_f64() / 60.0;
        let base = if (base - base.round()).abs() < 1e-9 {
            format!("{}", base.round() as u64)
        } else {
            format!("{base}")
        };
        write!(f, "{base}+{}", fmt_secs(self.increment))
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `3+2` (3 minutes + 2 seconds), `0.5+0`, `90s+5`, `10` (no increment).
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let t = s.trim();
        let (b, i) = t.split_once('+').unwrap_or((t, "0"));
        let base = if let Some(secs) = b.trim().strip_suffix('s') {
            secs.trim().parse::<f64>().ok()
        } else {
            b.trim().parse::<f64>().ok().map(|m| m * 60.0)
        }
        .ok_or_else(|| format!("'{s}' is not a time control: write minutes+seconds, e.g. 5+3"))?;
        let inc: f64 = i
            .trim()
            .trim_end_matches('s')
            .parse()
            .map_err(|_| format!("'{s}': the increment '{i}' is not a number of seconds"))?;
        if !(base.is_finite() && base > 0.0 && base <= 86_400.0) {
            return Err(format!(
                "'{s}': the base time must be more than 0 and at most 24 hours"
            ));
        }
        if !(inc.is_finite() && (0.0..=600.0).contains(&inc)) {
            return Err(format!("'{s}': the increment must be 0 to 600 seconds"));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(inc),
        })
    }
}
