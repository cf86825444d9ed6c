//! Phase 2 of generation: the predecessors of a position resolved at one
//! level, found by un-moves, get their counters lowered or their value.

use crate::tablebase::index::{Layout, TRANSPOSE, on_diagonal};
use crate::tablebase::table::{code_of, dist_of, is_loss, is_win, side};
use shakmaty::Color;

use super::*;

/// Which un-moves [`propagate`] handles: all, or the White king's apart
/// (the others keep the White king's digit, so threads can own digits).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    All,
    NoWhiteKing,
    WhiteKing,
}

/// Mutable cells and `ext` bytes of both sides to move, for the indices
/// `lo..lo + halves[0].len()`.
pub(super) struct CellView<'a> {
    pub(super) halves: [&'a mut [u8]; 2],
    pub(super) ext: [&'a mut [u8]; 2],
    pub(super) lo: usize,
}

impl CellView<'_> {
    /// The cells and `ext` bytes of one side to move, and the index of the
    /// first.
    #[inline(always)]
    fn half(&mut self, side: usize) -> (&mut [u8], &mut [u8], usize) {
        (&mut *self.halves[side], &mut *self.ext[side], self.lo)
    }
}

/// Processes the predecessors of position `i` (found at distance `d - 1`)
/// that `part` selects.
#[inline]
pub(super) fn propagate(
    layout: &Layout,
    cells: &mut CellView,
    i: usize,
    d: u32,
    frontier: &mut Lists,
    part: Part,
) {
    let size = layout.size;
    let (stm, idx) = if i < size {
        (Color::White, i)
    } else {
        (Color::Black, i - size)
    };
    let r = layout.decode(idx);
    let mover = !stm;
    let ms = side(mover);
    let base = ms * size;
    let lost = d % 2 == 1; // r was lost (even distance d - 1)
    let sym = !layout.pawns;
    let q_stab: u8 = if sym && r.is_symmetric() { 2 } else { 1 };
    // The index of a predecessor mostly follows from the moved piece's
    // digit: the White king stays put (or moves where no symmetry is
    // needed). With the White king on the diagonal the canonical index
    // is the smaller of the position's and its transposition's (also
    // followed digit by digit unless two identical pieces swap order).
    let diag = !layout.pawns && on_diagonal(r.wk);
    let t_idx = (diag && !layout.identical).then(|| layout.transposed_raw_index(&r));
    let stride_kk = layout.stride_kk();
    let q_kk = idx / stride_kk;
    let transforms = &crate::tablebase::index::SQ_T;
    let transpose = &transforms[TRANSPOSE as usize];
    let mut rest = [usize::MAX; 8];
    let black_moves = mover == Color::Black;
    // (king, pieces)
    let which = match part {
        Part::All => (true, true),
        Part::NoWhiteKing => (black_moves, true),
        Part::WhiteKing => (!black_moves, false),
    };
    let (half, ext, lo) = cells.half(ms);
    for_each_unmove(&r, mover, which, |moved, from, delta| {
        let mut p_stab = 1;
        let general = |p_stab: &mut u8| {
            let p = unmoved(&r, mover, moved, from);
            if sym && !lost && p.is_symmetric() {
                *p_stab = 2;
            }
            layout.index(&p)
        };
        let p_idx = if moved == UN_KING && !black_moves {
            // The White king moved: the other pieces follow the
            // symmetry its square needs (one per transform and Q).
            let t = layout.king_transform(from);
            let kf = transforms[t as usize][from as usize];
            let mut rest_of = |t: u8| {
                let b = &mut rest[t as usize];
                if *b == usize::MAX {
                    *b = layout.rest_index(&r, t);
                }
                *b
            };
            match layout.king_digit(kf) {
                Some(k) if t == 0 => idx + k * stride_kk - q_kk * stride_kk,
                Some(k) => rest_of(t) + k * stride_kk,
                None => {
                    // Onto the diagonal (no pawns): the smaller of the two
                    // forms, equal when the position is symmetric.
                    let k = layout.tri_digit(kf) * stride_kk;
                    let (a, b) = (rest_of(t) + k, rest_of(t ^ TRANSPOSE) + k);
                    if a == b {
                        p_stab = 2;
                    }
                    a.min(b)
                }
            }
        } else {
            let (stride, at) = if moved == UN_KING {
                (layout.stride_bk, r.bk)
            } else {
                (layout.stride[moved - UN_SLOT], r.pc[moved - UN_SLOT].1)
            };
            let order_kept = !layout.identical
                || moved == UN_KING
                || layout.order_kept(&r, moved - UN_SLOT, from);
            let direct = idx.wrapping_add_signed(delta * stride as isize);
            if !order_kept {
                general(&mut p_stab)
            } else if !diag {
                direct
            } else if let Some(ti) = t_idx {
                let dt = transpose[from as usize] as isize - transpose[at as usize] as isize;
                let other = ti.wrapping_add_signed(dt * stride as isize);
                if other == direct {
                    p_stab = 2;
                }
                direct.min(other)
            } else {
                general(&mut p_stab)
            }
        };
        debug_assert_eq!(p_idx, layout.index(&unmoved(&r, mover, moved, from)));
        debug_assert!(
            lost || !sym || p_stab == 1 + u8::from(unmoved(&r, mover, moved, from).is_symmetric())
        );
        let pi = base + p_idx;
        let cell = &mut half[p_idx - lo];
        if *cell >= SPECIAL {
            return; // known, or evaluated forward
        }
        let e = &mut ext[p_idx - lo];
        if lost {
            *cell = DONE;
            *e = code_of(d);
            frontier.push(d, pi as u32);
        } else {
            let w = 2 * p_stab / q_stab;
            *cell -= w;
            if *cell == 0 {
                if is_win(*e) {
                    return; // its winning capture is pending
                }
                let dist = if is_loss(*e) { d.max(dist_of(*e)) } else { d };
                *cell = DONE;
                *e = code_of(dist);
                frontier.push(dist, pi as u32);
            }
        }
    });
}
