//! Scores, depths and bounds.
//!
//! A [`Score`] is always seen from the side to move (negamax convention):
//! positive means the side to move is better. Mate scores count plies from
//! the root: `Score::MATE - n` means "the side to move mates in n plies".
//!
//! A [`Line`] (a score with its principal variation) lives here too: both
//! the search (`iterative.rs`) and the tablebase layer below it (`tb.rs`)
//! produce lines, so the type sits below both.

use shakmaty::Move;
use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// Search depth in plies (may be negative inside the search).
pub type Depth = i32;
/// Distance from the root in plies.
pub type Ply = usize;

/// The deepest ply the search ever reaches (extensions included).
pub const MAX_PLY: Ply = 128;

/// A centipawn or mate score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    pub const ZERO: Score = Score(0);
    pub const DRAW: Score = Score(0);
    /// Mate at the root (a score no real position reaches).
    pub const MATE: Score = Score(32000);
    /// Larger than any score: the initial alpha-beta window.
    pub const INFINITE: Score = Score(32001);
    /// Any score at least this large (in absolute value) is a mate score.
    pub const MATE_BOUND: i32 = 32000 - 1024;
    /// A win proven by a win/draw/loss tablebase (Syzygy) at the root: just
    /// below the mate range, above any evaluation. The table knows the
    /// position is won but not in how many moves, so it is not a mate.
    pub const TB_WIN: Score = Score(Score::MATE_BOUND - 1);
    /// Any score at least this large (in absolute value) is a proven result:
    /// a tablebase win (`TB_WIN - ply`) or a mate.
    pub const TB_WIN_BOUND: i32 = Score::TB_WIN.0 - MAX_PLY as i32;

    /// The side to move mates in `ply` plies.
    #[inline]
    pub const fn mate_in(ply: Ply) -> Score {
        Score(Score::MATE.0 - ply as i32)
    }

    /// The side to move is mated in `ply` plies.
    #[inline]
    pub const fn mated_in(ply: Ply) -> Score {
        Score(-Score::MATE.0 + ply as i32)
    }

    /// A tablebase win found `ply` plies from the root.
    #[inline]
    pub const fn tb_win_in(ply: Ply) -> Score {
        Score(Score::TB_WIN.0 - ply as i32)
    }

    /// A tablebase loss found `ply` plies from the root.
    #[inline]
    pub const fn tb_loss_in(ply: Ply) -> Score {
        Score(-Score::TB_WIN.0 + ply as i32)
    }

    /// A proven win: a mate or a tablebase win.
    #[inline]
    pub const fn is_proven_win(self) -> bool {
        self.0 >= Self::TB_WIN_BOUND
    }

    /// A proven loss: mated or a tablebase loss.
    #[inline]
    pub const fn is_proven_loss(self) -> bool {
        self.0 <= -Self::TB_WIN_BOUND
    }

    /// A tablebase win or loss that is not a mate score.
    #[inline]
    pub const fn is_tb_result(self) -> bool {
        (self.is_proven_win() || self.is_proven_loss()) && !self.is_mate()
    }

    #[inline]
    pub const fn is_mate(self) -> bool {
        self.0 >= Self::MATE_BOUND || self.0 <= -Self::MATE_BOUND
    }

    #[inline]
    pub const fn is_win(self) -> bool {
        self.0 >= Self::MATE_BOUND
    }

    #[inline]
    pub const fn is_loss(self) -> bool {
        self.0 <= -Self::MATE_BOUND
    }

    /// Plies to mate: positive when the side to move mates, negative when it
    /// is mated, `None` for a normal score.
    pub const fn mate_plies(self) -> Option<i32> {
        if self.is_win() {
            Some(Score::MATE.0 - self.0)
        } else if self.is_loss() {
            Some(-(Score::MATE.0 + self.0))
        } else {
            None
        }
    }

    /// Moves to mate as UCI reports them (`mate 3`, `mate -2`).
    pub const fn mate_moves(self) -> Option<i32> {
        match self.mate_plies() {
            Some(p) if p > 0 => Some((p + 1) / 2),
            Some(p) => Some(p / 2),
            None => None,
        }
    }

    /// Converts a score relative to the current node into the form stored in
    /// the transposition table (mate and tablebase-win distances relative to
    /// this node).
    #[inline]
    pub fn to_tt(self, ply: Ply) -> i16 {
        let v = if self.is_proven_win() {
            self.0 + ply as i32
        } else if self.is_proven_loss() {
            self.0 - ply as i32
        } else {
            self.0
        };
        v as i16
    }

    /// Inverse of [`Score::to_tt`].
    #[inline]
    pub fn from_tt(v: i16, ply: Ply) -> Score {
        let v = v as i32;
        if v >= Self::TB_WIN_BOUND {
            Score(v - ply as i32)
        } else if v <= -Self::TB_WIN_BOUND {
            Score(v + ply as i32)
        } else {
            Score(v)
        }
    }

    /// UCI representation: `cp 23` or `mate -4`.
    pub fn uci(self) -> String {
        match self.mate_moves() {
            Some(m) => format!("mate {m}"),
            None => format!("cp {}", self.0),
        }
    }
}

impl fmt::Display for Score {
    /// Human form: `+0.35`, `-1.20`, `#3`, `#-2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(m) => write!(f, "#{m}"),
            None => write!(f, "{:+.2}", self.0 as f64 / 100.0),
        }
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Add<i32> for Score {
    type Output = Score;
    #[inline]
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

impl Sub<i32> for Score {
    type Output = Score;
    #[inline]
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

impl Sub<Score> for Score {
    type Output = i32;
    #[inline]
    fn sub(self, rhs: Score) -> i32 {
        self.0 - rhs.0
    }
}

impl AddAssign<i32> for Score {
    #[inline]
    fn add_assign(&mut self, rhs: i32) {
        self.0 += rhs;
    }
}

impl SubAssign<i32> for Score {
    #[inline]
    fn sub_assign(&mut self, rhs: i32) {
        self.0 -= rhs;
    }
}

/// One line of a finished search (one per MultiPV line), or of a root the
/// tablebases decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: Score,
    pub pv: Vec<Move>,
}

/// What a stored or returned score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Bound {
    /// No information (empty TT slot).
    None = 0,
    /// The true score is at most this (fail low, an ALL node).
    Upper = 1,
    /// The true score is at least this (fail high, a CUT node).
    Lower = 2,
    /// The exact score (a PV node).
    Exact = 3,
}

impl Bound {
    #[inline]
    pub const fn from_bits(b: u8) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Bound::None => "none",
            Bound::Upper => "upper",
            Bound::Lower => "lower",
            Bound::Exact => "exact",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_in_moves() {
        assert_eq!(Score::mate_in(1).mate_moves(), Some(1));
        assert_eq!(Score::mate_in(3).mate_moves(), Some(2));
        assert_eq!(Score::mate_in(5).mate_moves(), Some(3));
        assert_eq!(Score::mated_in(0).mate_moves(), Some(0));
        assert_eq!(Score::mated_in(2).mate_moves(), Some(-1));
        assert_eq!(Score::mated_in(4).mate_moves(), Some(-2));
        assert_eq!(Score(250).mate_moves(), None);
        assert_eq!(Score::mate_in(3).uci(), "mate 2");
        assert_eq!(Score(-35).uci(), "cp -35");
        assert_eq!(Score::mate_in(3).to_string(), "#2");
        assert_eq!(Score(35).to_string(), "+0.35");
    }

    #[test]
    fn tt_round_trip_adjusts_mates_by_ply() {
        // A mate in 5 plies found at ply 3 is a mate in 2 plies from that node.
        let at_node = Score::mate_in(5);
        let stored = at_node.to_tt(3);
        assert_eq!(stored as i32, Score::mate_in(2).0);
        // Probed again at ply 7, it is a mate in 9 plies from the root.
        assert_eq!(Score::from_tt(stored, 7), Score::mate_in(9));
        let loss = Score::mated_in(6);
        assert_eq!(Score::from_tt(loss.to_tt(2), 2), loss);
        assert_eq!(Score::from_tt(Score(123).to_tt(9), 1), Score(123));
        // Tablebase wins move with the ply like mates, and are no mates.
        let tb = Score::tb_win_in(7);
        assert!(tb.is_proven_win() && tb.is_tb_result() && !tb.is_mate());
        assert_eq!(Score::from_tt(tb.to_tt(7), 9), Score::tb_win_in(9));
        let tl = Score::tb_loss_in(4);
        assert!(tl.is_proven_loss() && !tl.is_loss());
        assert_eq!(Score::from_tt(tl.to_tt(4), 2), Score::tb_loss_in(2));
        assert!(Score::mate_in(90).0 > Score::tb_win_in(0).0);
        assert!(!Score(3000).is_tb_result());
    }
}
