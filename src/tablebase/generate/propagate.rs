//! Phase 2 of generation: the predecessors of a position, found by
//! un-moves, with their indices followed digit by digit where the
//! symmetry allows (without pawns, the White king's un-moves and identical
//! pieces that swap order need the general index; with pawns only the
//! latter).

use crate::tablebase::index::{Layout, Raw, TRANSPOSE, on_diagonal};
use shakmaty::Color;

use super::*;

/// Calls `f(index, stab)` with the index (of `mover`'s half) of every
/// position from which `mover` reaches `r` (index `idx` of the other
/// half, a table without pawns) by a move that keeps the material, and,
/// if `stab` is asked for, the order of its stabiliser (2 for a position
/// symmetric on the diagonal, else 1; always 1 if not asked). The
/// positions may be illegal or unused (the caller sees [`ILLEGAL`] there).
#[inline]
pub(super) fn for_each_predecessor(
    layout: &Layout,
    r: &Raw,
    idx: usize,
    mover: Color,
    stab: bool,
    mut f: impl FnMut(usize, u8),
) {
    debug_assert!(!layout.pawns);
    let sym = stab;
    let r = *r;
    // The index of a predecessor mostly follows from the moved piece's
    // digit: the White king stays put (or moves where no symmetry is
    // needed). With the White king on the diagonal the canonical index
    // is the smaller of the position's and its transposition's (also
    // followed digit by digit unless two identical pieces swap order).
    let diag = on_diagonal(r.wk);
    let t_idx = (diag && !layout.identical).then(|| layout.transposed_raw_index(&r));
    let stride_kk = layout.stride_kk();
    let q_kk = idx / stride_kk;
    let transforms = &crate::tablebase::index::SQ_T;
    let transpose = &transforms[TRANSPOSE as usize];
    let mut rest = [usize::MAX; 8];
    let black_moves = mover == Color::Black;
    for_each_unmove(&r, mover, |moved, from, delta| {
        let mut p_stab = 1;
        let general = |p_stab: &mut u8| {
            let p = unmoved(&r, mover, moved, from);
            if sym && p.is_symmetric() {
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
                    if sym && a == b {
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
                if sym && other == direct {
                    p_stab = 2;
                }
                direct.min(other)
            } else {
                general(&mut p_stab)
            }
        };
        debug_assert_eq!(p_idx, layout.index(&unmoved(&r, mover, moved, from)));
        debug_assert!(
            !sym || p_stab == 1 + u8::from(unmoved(&r, mover, moved, from).is_symmetric())
        );
        f(p_idx, p_stab);
    });
}

/// Calls `f(index)` with the index (of `mover`'s half) of every position
/// from which `mover` reaches `r` (index `idx` of the other half, a table
/// with pawns) by a king or piece move: in the same slice, each un-move
/// changes one digit (identical pieces that swap order need the general
/// index). The positions may be illegal or unused.
#[inline]
pub(super) fn for_each_predecessor_in_slice(
    layout: &Layout,
    r: &Raw,
    idx: usize,
    mover: Color,
    mut f: impl FnMut(usize),
) {
    let stride_k = match mover {
        Color::White => layout.stride_kk(),
        Color::Black => layout.stride_bk,
    };
    for_each_unmove(r, mover, |moved, from, delta| {
        let p = if moved == UN_KING {
            idx.wrapping_add_signed(delta * stride_k as isize)
        } else if !layout.identical || layout.order_kept(r, moved - UN_SLOT, from) {
            let stride = layout.stride[moved - UN_SLOT];
            idx.wrapping_add_signed(delta * stride as isize)
        } else {
            layout.index(&unmoved(r, mover, moved, from))
        };
        debug_assert_eq!(p, layout.index(&unmoved(r, mover, moved, from)));
        f(p);
    });
}
