//! The tapered score pair: a middlegame and an endgame value in one
//! integer. Below both the board (which keeps its piece-square sum up to
//! date move by move) and the evaluation, so neither imports the other.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame and an endgame value packed into one integer, so that both
/// are summed with a single add.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct S(i32);

impl S {
    pub const ZERO: S = S(0);

    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> S {
        S((eg << 16) + mg)
    }

    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    #[inline(always)]
    pub const fn eg(self) -> i32 {
        ((self.0 + 0x8000) >> 16) as i16 as i32
    }
}

impl fmt::Debug for S {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0.wrapping_add(o.0))
    }
}
impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0.wrapping_sub(o.0))
    }
}
impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(self.0.wrapping_neg())
    }
}
impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0.wrapping_mul(k))
    }
}
impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}
impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}
