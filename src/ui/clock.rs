//! Chess clocks with an injected time source: every method takes `now`, so
//! tests drive time by hand and the UI passes `Instant::now()`. One pair
//! per board: the play screen's, a Crazyhouse game's and each Bughouse
//! board's. They remember both times before every move, so a takeback
//! gives the time back.

use shakmaty::Color;
use std::time::{Duration, Instant};

/// Base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    pub base: Duration,
    pub increment: Duration,
}

#[derive(Clone, Debug)]
pub struct Clocks {
    pub control: Control,
    remaining: [Duration; 2],
    /// Whose clock runs, since when.
    running: Option<(Color, Instant)>,
    /// Both times (White, Black) before each move, for takebacks.
    history: Vec<[Duration; 2]>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clocks {
    pub fn new(control: Control) -> Clocks {
        Clocks {
            control,
            remaining: [control.base; 2],
            running: None,
            history: Vec::new(),
        }
    }

    /// Clocks resumed with the given remaining times (from a saved game).
    pub fn with_remaining(control: Control, white: Duration, black: Duration) -> Clocks {
        Clocks {
            control,
            remaining: [white, black],
            running: None,
            history: Vec::new(),
        }
    }

    /// Clocks taken up from a saved game, stopped: `comments` are its
    /// moves' comments in order (`white_first`: White made the first move),
    /// where a `[%clk]` is the mover's time after the move. The times
    /// before each move are remembered for takebacks.
    pub fn from_record<'a>(
        control: Control,
        white_first: bool,
        comments: impl IntoIterator<Item = Option<&'a str>>,
    ) -> Clocks {
        let mut c = Clocks::new(control);
        for (i, comment) in comments.into_iter().enumerate() {
            c.history.push(c.remaining);
            let side = usize::from((i % 2 == 0) != white_first);
            if let Some(t) = comment.and_then(parse_pgn_clock) {
                c.remaining[side] = t;
            }
        }
        c
    }

    /// Remembers both times as they stand before a move (see
    /// [`Clocks::back_to`]).
    pub fn remember(&mut self, now: Instant) {
        let times = [
            self.remaining(Color::White, now),
            self.remaining(Color::Black, now),
        ];
        self.history.push(times);
    }

    /// The times before move `moves` (counted from 0) were remembered:
    /// the clocks stand as they were then, stopped, and what came after is
    /// forgotten. False (nothing changed) if they were not remembered.
    pub fn back_to(&mut self, moves: usize) -> bool {
        let Some(&[w, b]) = self.history.get(moves) else {
            return false;
        };
        self.set_remaining(w, b);
        self.history.truncate(moves);
        true
    }

    /// The moves whose times are remembered.
    pub fn remembered(&self) -> usize {
        self.history.len()
    }

    /// Starts `color`'s clock (stopping nothing: call [`Clocks::press`] to
    /// hand over after a move).
    pub fn start(&mut self, color: Color, now: Instant) {
        self.pause(now);
        self.running = Some((color, now));
    }

    /// Stops the running clock without an increment (pause, game end).
    pub fn pause(&mut self, now: Instant) {
        if let Some((c, since)) = self.running.take() {
            let r = &mut self.remaining[idx(c)];
            *r = r.saturating_sub(now.saturating_duration_since(since));
        }
    }

    /// `color` completed a move: its clock stops, gains the increment, and
    /// the opponent's clock starts.
    pub fn press(&mut self, color: Color, now: Instant) {
        self.pause(now);
        let r = &mut self.remaining[idx(color)];
        if !r.is_zero() {
            *r += self.control.increment;
        }
        self.running = Some((!color, now));
    }

    /// Undo support: set both remaining times (clocks stopped).
    pub fn set_remaining(&mut self, white: Duration, black: Duration) {
        self.running = None;
        self.remaining = [white, black];
    }

    pub fn remaining(&self, color: Color, now: Instant) -> Duration {
        let r = self.remaining[idx(color)];
        match self.running {
            Some((c, since)) if c == color => {
                r.saturating_sub(now.saturating_duration_since(since))
            }
            _ => r,
        }
    }

    /// `color`'s time as it stood when the running turn began (its time
    /// now, when its clock is stopped).
    pub fn at_turn_start(&self, color: Color) -> Duration {
        self.remaining[idx(color)]
    }

    /// Since when the running clock runs.
    pub fn running_since(&self) -> Option<Instant> {
        self.running.map(|(_, since)| since)
    }

    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// The side whose flag has fallen, if any.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        self.running
            .map(|(c, _)| c)
            .filter(|&c| self.remaining(c, now).is_zero())
    }
}

/// `5:03`, `1:02:03`, and tenths under 20 seconds (`0:07.4`).
pub fn format_clock(d: Duration) -> String {
    let total_ms = d.as_millis() as u64;
    let secs = total_ms / 1000;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if secs < 20 {
        format!("{m}:{s:02}.{}", total_ms % 1000 / 100)
    } else {
        format!("{m}:{s:02}")
    }
}

/// The PGN `[%clk h:mm:ss]` form (whole seconds).
pub fn pgn_clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Parses the time out of a comment containing `[%clk h:mm:ss(.f)]`.
pub fn parse_pgn_clock(comment: &str) -> Option<Duration> {
    crate::game::review::parse_clk_comment(comment)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(base: u64, inc: u64) -> Control {
        Control {
            base: Duration::from_secs(base),
            increment: Duration::from_secs(inc),
        }
    }

    #[test]
    fn clocks_run_press_and_flag() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut c = Clocks::new(tc(60, 2));
        c.start(Color::White, t0);
        assert_eq!(c.remaining(Color::White, t0 + s(10)), s(50));
        assert_eq!(c.remaining(Color::Black, t0 + s(10)), s(60));
        c.press(Color::White, t0 + s(10));
        assert_eq!(c.remaining(Color::White, t0 + s(30)), s(52));
        assert_eq!(c.remaining(Color::Black, t0 + s(30)), s(40));
        assert_eq!(c.running(), Some(Color::Black));
        assert_eq!(c.flagged(t0 + s(69)), None);
        assert_eq!(c.flagged(t0 + s(71)), Some(Color::Black));
        assert_eq!(c.remaining(Color::Black, t0 + s(500)), Duration::ZERO);
        c.pause(t0 + s(20));
        assert_eq!(c.running(), None);
        assert_eq!(c.remaining(Color::Black, t0 + s(999)), s(50));
    }

    #[test]
    fn a_takeback_gives_the_time_back() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut c = Clocks::new(tc(60, 0));
        c.start(Color::White, t0);
        c.remember(t0 + s(5));
        c.press(Color::White, t0 + s(5));
        c.remember(t0 + s(12));
        c.press(Color::Black, t0 + s(12));
        assert_eq!(c.remembered(), 2);
        assert!(c.back_to(1), "as they stood when Black moved");
        assert_eq!(c.running(), None);
        assert_eq!(c.remaining(Color::White, t0 + s(99)), s(55));
        assert_eq!(c.remaining(Color::Black, t0 + s(99)), s(53));
        assert_eq!(c.remembered(), 1);
        assert!(!c.back_to(3), "never remembered");
        assert!(c.back_to(0));
        assert_eq!(c.remaining(Color::White, t0), s(55));
    }

    #[test]
    fn no_increment_after_flag() {
        let t0 = Instant::now();
        let mut c = Clocks::new(tc(1, 5));
        c.start(Color::White, t0);
        c.press(Color::White, t0 + Duration::from_secs(3));
        assert_eq!(c.remaining(Color::White, t0), Duration::ZERO);
    }

    #[test]
    fn formats() {
        assert_eq!(format_clock(Duration::from_secs(303)), "5:03");
        assert_eq!(format_clock(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(format_clock(Duration::from_millis(7_450)), "0:07.4");
        assert_eq!(pgn_clock(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(
            parse_pgn_clock("good move [%clk 0:04:58.5] yes"),
            Some(Duration::from_millis(298_500))
        );
        assert_eq!(parse_pgn_clock("[%clk x]"), None);
        assert_eq!(parse_pgn_clock("[%clk 99999999999999999:00:00]"), None);
        assert_eq!(parse_pgn_clock("[%clk -1:00:00]"), None);
        assert_eq!(parse_pgn_clock("nothing"), None);
    }
}
