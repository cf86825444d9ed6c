//! Position <-> index for one table.
//!
//! Squares are `0..64` (a1 = 0, h8 = 63). A table's positions have the
//! White king, the Black king and up to three more pieces ("slots", in
//! ascending piece code; identical pieces are sorted by square).
//!
//! Without pawns the board has 8 symmetries: the White king is brought into
//! the triangle a1-d1-d4 (10 squares). With the king on the a1-h8 diagonal
//! two symmetries qualify; the smaller index wins.
//! `index = (((king * 64 + black_king) * 64 + s0) * 64 + s1) * 64 + s2`
//! over the slots there are.
//!
//! With pawns only the left-right mirror applies, and the pawns take it:
//! the index is `slice * slice_size + offset`, the slice the pawns'
//! configuration in its mirror form ([`Slices`], in the order tables with
//! pawns are made), the offset the kings and the other pieces on all 64
//! squares (`(white_king * 64 + black_king) * 64 + s...`). A slice that is
//! its own mirror image keeps both images. The size is rounded up to whole
//! file blocks; the indices past the last slice are unused (format 2 put
//! the White king on files a-d and the pawns in the last digits).
//!
//! Indices that are not the canonical form of their position (or whose
//! pieces overlap) are never used.

use super::material::{Material, NONE, code_is_pawn};
use super::slices::Slices;
use super::values::BLOCK_VALUES;
use shakmaty::Color;
use std::sync::Arc;

/// `t` bit 0: mirror files; bit 1: mirror ranks; bit 2: then transpose.
pub(crate) const TRANSPOSE: u8 = 4;

pub(crate) static SQ_T: [[u8; 64]; 8] = make_transforms();

const fn make_transforms() -> [[u8; 64]; 8] {
    let mut out = [[0u8; 64]; 8];
    let mut t = 0;
    while t < 8 {
        let mut sq = 0;
        while sq < 64 {
            let mut f = sq & 7;
            let mut r = sq >> 3;
            if t & 1 != 0 {
                f = 7 - f;
            }
            if t & 2 != 0 {
                r = 7 - r;
            }
            if t & 4 != 0 {
                let x = f;
                f = r;
                r = x;
            }
            out[t][sq] = (r * 8 + f) as u8;
            sq += 1;
        }
        t += 1;
    }
    out
}

/// For each White king square: the transform that brings it into a1-d1-d4.
static KING_T: [u8; 64] = make_king_t();

const fn make_king_t() -> [u8; 64] {
    let mut out = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut t = 0;
        let mut f = sq & 7;
        let mut r = sq >> 3;
        if f > 3 {
            t |= 1;
            f = 7 - f;
        }
        if r > 3 {
            t |= 2;
            r = 7 - r;
        }
        if r > f {
            t |= 4;
        }
        out[sq] = t;
        sq += 1;
    }
    out
}

/// Triangle square -> 0..10 (255 elsewhere), and back.
static TRI: [u8; 64] = make_tri().0;
static TRI_SQ: [u8; 10] = make_tri().1;

const fn make_tri() -> ([u8; 64], [u8; 10]) {
    let mut idx = [255u8; 64];
    let mut sqs = [0u8; 10];
    let mut n = 0;
    let mut sq = 0;
    while sq < 64 {
        let f = sq & 7;
        let r = sq >> 3;
        if f <= 3 && r <= f {
            idx[sq] = n as u8;
            sqs[n] = sq as u8;
            n += 1;
        }
        sq += 1;
    }
    (idx, sqs)
}

#[inline]
pub(crate) const fn on_diagonal(sq: u8) -> bool {
    sq & 7 == sq >> 3
}

#[inline]
const fn on_antidiagonal(sq: u8) -> bool {
    (sq & 7) + (sq >> 3) == 7
}

/// One man of a position: a king, or the piece in slot `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Man {
    King(Color),
    Slot(usize),
}

/// Most non-king pieces of a table.
pub(crate) const SLOTS: usize = 3;

/// A table's position: kings and up to three pieces `(code, square)`;
/// unused slots hold `(NONE, 0)`. (Sixteen bytes, aligned: copies are one
/// vector move.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Raw {
    pub wk: u8,
    pub bk: u8,
    pub n: u8,
    pub pc: [(u8, u8); SLOTS],
}

impl Raw {
    #[inline]
    pub fn pieces(&self) -> &[(u8, u8)] {
        &self.pc[..self.n as usize]
    }

    #[inline(always)]
    pub fn transformed(&self, t: u8) -> Raw {
        let m = &SQ_T[t as usize];
        let mut r = *self;
        r.wk = m[self.wk as usize];
        r.bk = m[self.bk as usize];
        for p in &mut r.pc[..self.n as usize] {
            p.1 = m[p.1 as usize];
        }
        r
    }

    /// Colours exchanged and the board turned upside down.
    #[inline]
    pub fn color_flipped(&self) -> Raw {
        let mut r = *self;
        r.wk = self.bk ^ 56;
        r.bk = self.wk ^ 56;
        for p in &mut r.pc[..self.n as usize] {
            *p = (super::material::flip_code(p.0), p.1 ^ 56);
        }
        r
    }

    /// Is the board the same after transposing on the a1-h8 or the a8-h1
    /// diagonal (the only symmetries that can fix a position)?
    #[inline]
    pub fn is_symmetric(&self) -> bool {
        let all =
            |f: fn(u8) -> bool| f(self.wk) && f(self.bk) && self.pieces().iter().all(|p| f(p.1));
        if on_diagonal(self.wk) {
            all(on_diagonal) || self.same_as(&self.transformed(TRANSPOSE))
        } else if on_antidiagonal(self.wk) {
            all(on_antidiagonal) || self.same_as(&self.transformed(TRANSPOSE | 3))
        } else {
            false
        }
    }

    /// The same board (pieces in any order)?
    fn same_as(&self, o: &Raw) -> bool {
        if self.wk != o.wk || self.bk != o.bk || self.n != o.n {
            return false;
        }
        match self.n {
            0 => true,
            1 => self.pc[0] == o.pc[0],
            _ => Layout::sorted(*self).pc == Layout::sorted(*o).pc,
        }
    }
}

/// The shape of one table's index.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub material: Material,
    /// Piece codes of the slots (ascending), `NONE` past `n`.
    pub slots: [u8; SLOTS],
    pub n: u8,
    pub pawns: bool,
    /// Squares per slot's digit: 64, or 1 for a pawn (its square is the
    /// slice's) and past `n`.
    mult: [usize; SLOTS],
    /// Positions per side to move.
    pub size: usize,
    /// Index steps per square of the black king and of each slot.
    pub stride_bk: usize,
    pub stride: [usize; SLOTS],
    /// Two (or more) pieces of the same kind, not pawns (sorted by
    /// square)?
    pub identical: bool,
    /// With pawns: the pawn configurations, one slice of the index each
    /// (see [`Slices`]), and the positions per slice.
    pub slices: Option<Arc<Slices>>,
    pub slice_size: usize,
}

impl Layout {
    /// `material` must be normalized with at most three non-king pieces.
    pub fn new(material: Material) -> Layout {
        let codes = material.codes();
        debug_assert!(codes.len() <= SLOTS);
        let mut slots = [NONE; SLOTS];
        let mut mult = [1; SLOTS];
        for (i, &c) in codes.iter().enumerate().take(SLOTS) {
            slots[i] = c;
            mult[i] = if code_is_pawn(c) { 1 } else { 64 };
        }
        let pawns = material.has_pawns();
        let n = codes.len().min(SLOTS);
        let digits = mult[0] * mult[1] * mult[2];
        let (slices, slice_size, size) = if pawns {
            let pawn_slots: Vec<usize> = (0..n).filter(|&i| code_is_pawn(slots[i])).collect();
            let pawn_codes: Vec<u8> = pawn_slots.iter().map(|&i| slots[i]).collect();
            let slices = Slices::new(&pawn_codes, &pawn_slots);
            let slice_size = 64 * 64 * digits;
            // Whole blocks of the file per side to move: each half of a
            // table made slice by slice is compressed on its own.
            let size = (slices.len() * slice_size).next_multiple_of(BLOCK_VALUES);
            (Some(Arc::new(slices)), slice_size, size)
        } else {
            (None, 0, 10 * 64 * digits)
        };
        Layout {
            material,
            slots,
            n: n as u8,
            pawns,
            mult,
            size,
            stride_bk: digits,
            stride: [mult[1] * mult[2], mult[2], 1],
            identical: (1..n).any(|i| slots[i] == slots[i - 1] && !code_is_pawn(slots[i])),
            slices,
            slice_size,
        }
    }

    /// The slot whose square is the last digit of the index (the last
    /// piece that is not a pawn); `None`: the Black king's.
    #[inline]
    pub fn inner_slot(&self) -> Option<usize> {
        (0..self.n as usize)
            .rev()
            .find(|&s| self.stride[s] == 1 && !code_is_pawn(self.slots[s]))
    }

    /// Index steps per White king square.
    #[inline(always)]
    pub fn stride_kk(&self) -> usize {
        64 * self.stride_bk
    }

    /// Is the White king of index `idx` on the a1-h8 diagonal (no pawns)?
    #[inline(always)]
    pub fn king_on_diagonal(&self, idx: usize) -> bool {
        !self.pawns && on_diagonal(TRI_SQ[idx / self.stride_kk()])
    }

    /// The symmetry that brings a White king on `sq` into its region (no
    /// pawns).
    #[inline(always)]
    pub fn king_transform(&self, sq: u8) -> u8 {
        KING_T[sq as usize]
    }

    /// The raw (not minimised) index of the position transposed on the
    /// a1-h8 diagonal (White king on that diagonal, no pawns).
    #[inline]
    pub fn transposed_raw_index(&self, r: &Raw) -> usize {
        let c = Self::sorted(r.transformed(TRANSPOSE));
        self.raw_index(TRI[c.wk as usize] as usize, &c)
    }

    /// The word (`index / 64`) of a table without pawns' position whose
    /// White king is in the triangle, pieces in any order (the last digit
    /// dropped).
    #[inline]
    pub fn word_of(&self, r: &Raw) -> usize {
        debug_assert!(!self.pawns && TRI[r.wk as usize] < 10);
        self.raw_index(TRI[r.wk as usize] as usize, r) >> 6
    }

    /// The index of a position in the table's form (pawns: within its
    /// slice), pieces in slot order.
    #[inline]
    pub fn raw_index_of(&self, r: &Raw) -> usize {
        if self.pawns {
            self.raw_index(r.wk as usize, r)
        } else {
            self.raw_index(TRI[r.wk as usize] as usize, r)
        }
    }

    /// The word (`offset / 64`) within its slice of a position with pawns
    /// in its slice's form.
    #[inline]
    pub fn slice_word(&self, r: &Raw) -> usize {
        debug_assert!(self.pawns);
        self.raw_index(r.wk as usize, r) >> 6
    }

    /// Do two men of `r` stand on one square?
    #[inline]
    pub fn overlaps(r: &Raw) -> bool {
        let mut occ: u64 = 1 << r.wk;
        if r.wk == r.bk {
            return true;
        }
        occ |= 1 << r.bk;
        for p in r.pieces() {
            if occ & (1 << p.1) != 0 {
                return true;
            }
            occ |= 1 << p.1;
        }
        false
    }

    /// How many positions of the board the one at `idx` stands for (its
    /// images under the symmetries the index uses).
    pub fn weight(&self, idx: usize) -> u64 {
        match &self.slices {
            Some(s) if s.is_symmetric(idx / self.slice_size) => 1,
            Some(_) => 2,
            None if self.king_on_diagonal(idx) && self.decode(idx).is_symmetric() => 4,
            None => 8,
        }
    }

    /// Index of a position already in canonical form, pieces in slot
    /// order (with pawns: within its slice).
    #[inline(always)]
    fn raw_index(&self, kk: usize, r: &Raw) -> usize {
        let mut i = kk * 64 + r.bk as usize;
        for s in 0..self.n as usize {
            if self.mult[s] == 64 {
                i = i * 64 + r.pc[s].1 as usize;
            }
        }
        i
    }

    /// Pieces into slot order (codes ascending, then squares).
    #[inline(always)]
    pub(crate) fn sorted(mut r: Raw) -> Raw {
        if r.n >= 2 && r.pc[1] < r.pc[0] {
            r.pc.swap(0, 1);
        }
        if r.n == 3 && r.pc[2] < r.pc[1] {
            r.pc.swap(1, 2);
            if r.pc[1] < r.pc[0] {
                r.pc.swap(0, 1);
            }
        }
        r
    }

    /// The index of a position of this table's material (White = the
    /// table's White). Pieces in any order. With pawns off the board's
    /// ranks 2-7 (never a table position) the index is past the table.
    #[inline]
    pub fn index(&self, r: &Raw) -> usize {
        if let Some(slices) = &self.slices {
            let c = Self::sorted(*r);
            let Some((s, mirror)) = slices.find(slices.slots.iter().map(|&i| c.pc[i].1)) else {
                return usize::MAX / 4;
            };
            let c = if mirror {
                Self::sorted(c.transformed(1))
            } else {
                c
            };
            s * self.slice_size + self.raw_index(c.wk as usize, &c)
        } else {
            let t = KING_T[r.wk as usize];
            let c = Self::sorted(if t == 0 { *r } else { r.transformed(t) });
            let i = self.raw_index(TRI[c.wk as usize] as usize, &c);
            if on_diagonal(c.wk) {
                let c2 = Self::sorted(c.transformed(TRANSPOSE));
                i.min(self.raw_index(TRI[c2.wk as usize] as usize, &c2))
            } else {
                i
            }
        }
    }

    /// The position stored at `index` (which may be unused: pieces may
    /// overlap, the form may not be canonical, the index may lie past the
    /// last slice).
    #[inline]
    pub fn decode(&self, index: usize) -> Raw {
        let mut pc = [
            (self.slots[0], 0u8),
            (self.slots[1], 0u8),
            (self.slots[2], 0u8),
        ];
        let mut rest = index;
        let mut slice = 0;
        if let Some(slices) = &self.slices {
            slice = index / self.slice_size;
            rest = index % self.slice_size;
            if slice < slices.len() {
                for (&i, &sq) in slices.slots.iter().zip(slices.squares(slice)) {
                    pc[i].1 = sq;
                }
            }
        }
        for s in (0..self.n as usize).rev() {
            if self.mult[s] == 64 {
                pc[s].1 = (rest & 63) as u8;
                rest >>= 6;
            }
        }
        let bk = (rest & 63) as u8;
        let kk = rest >> 6;
        let wk = if self.pawns {
            // Past the last slice: both kings on one square (unused).
            if self.slices.as_ref().is_some_and(|s| slice >= s.len()) {
                bk
            } else {
                kk as u8
            }
        } else {
            TRI_SQ[kk]
        };
        Raw {
            wk,
            bk,
            n: self.n,
            pc,
        }
    }

    /// Decoded, with no two pieces on one square and in canonical form.
    #[inline]
    pub fn is_canonical(&self, index: usize, r: &Raw) -> bool {
        let mut occ: u64 = (1 << r.wk) | (1 << r.bk);
        if r.wk == r.bk {
            return false;
        }
        for p in r.pieces() {
            if occ & (1 << p.1) != 0 {
                return false;
            }
            occ |= 1 << p.1;
        }
        // Decoding puts the White king in its region (the pawns in their
        // form, with pawns); only the order of identical pieces and the
        // diagonal can make the form non-canonical.
        if self.identical
            && (1..self.n as usize).any(|i| r.pc[i].0 == r.pc[i - 1].0 && r.pc[i].1 < r.pc[i - 1].1)
        {
            return false;
        }
        self.pawns || !on_diagonal(r.wk) || index <= self.transposed_raw_index(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_are_symmetries() {
        for t in 0..8 {
            let mut seen = [false; 64];
            for sq in 0..64 {
                seen[SQ_T[t][sq] as usize] = true;
            }
            assert!(seen.iter().all(|&s| s));
        }
        for sq in 0..64u8 {
            let t = KING_T[sq as usize];
            assert!(TRI[SQ_T[t as usize][sq as usize] as usize] < 10);
        }
    }

    #[test]
    fn canonical_indices_round_trip() {
        for name in ["KQvK", "KBBvK", "KRvKN", "KPvKP", "KNPvK", "KPPvK"] {
            let l = Layout::new(name.parse().unwrap());
            let mut canonical = 0u64;
            for i in (0..l.size).step_by(7) {
                let r = l.decode(i);
                if l.is_canonical(i, &r) {
                    canonical += 1;
                    // Every symmetric image has the same index (a pawn
                    // slice that is its own mirror image keeps both).
                    for t in 0..8u8 {
                        if l.pawns && t != 1 {
                            continue;
                        }
                        let image = r.transformed(t);
                        let j = l.index(&image);
                        if l.weight(i) == 1 {
                            assert_eq!(Layout::sorted(l.decode(j)), Layout::sorted(image));
                        } else {
                            assert_eq!(j, i, "{name} {r:?} t={t}");
                        }
                    }
                }
            }
            assert!(canonical > 0);
        }
    }

    #[test]
    fn pawn_slices_cover_the_table_in_order() {
        // KPPvK: 576 pawn pairs (24 their own mirror image), the two kings
        // on every square; the index ends on a whole block.
        let l = Layout::new("KPPvK".parse().unwrap());
        assert_eq!(l.slice_size, 64 * 64);
        assert_eq!(l.size, (576 * 4096usize).next_multiple_of(BLOCK_VALUES));
        assert!(!l.is_canonical(l.size - 1, &l.decode(l.size - 1)));
        let l = Layout::new("KRPvKR".parse().unwrap());
        assert_eq!(l.size, 24 << 24);
        // A pawn on the a-file's seventh rank is the first slice; White's
        // king on h1 mirrors to a1 with the pawn from h7.
        let r = Raw {
            wk: 7,
            bk: 63,
            n: 3,
            pc: [(1, 20), (4, 55), (6, 30)],
        };
        let i = l.index(&r);
        assert_eq!(i / l.slice_size, 0);
        assert_eq!(l.decode(i), Layout::sorted(r.transformed(1)));
    }

    #[test]
    fn five_piece_indices_round_trip() {
        // A sample of each table's indices: every canonical one decodes to
        // a position whose symmetric images all index back to it.
        for name in ["KRPvKR", "KBNvKN", "KRRvKN", "KPPvKP", "KQvKRB", "KNNNvK"] {
            let l = Layout::new(name.parse().unwrap());
            assert_eq!(l.n, 3);
            let mut canonical = 0u64;
            for i in (0..l.size).step_by(997) {
                let r = l.decode(i);
                if l.is_canonical(i, &r) {
                    canonical += 1;
                    for t in 0..8u8 {
                        if l.pawns && t > 1 {
                            continue;
                        }
                        let image = r.transformed(t);
                        assert_eq!(l.index(&image), i, "{name} {r:?} t={t}");
                        // Pieces in any order.
                        let mut shuffled = image;
                        shuffled.pc.swap(0, 2);
                        assert_eq!(l.index(&shuffled), i, "{name} {r:?} t={t}");
                    }
                }
            }
            assert!(canonical > l.size as u64 / 997 / 10, "{name}");
        }
        let sizes: Vec<usize> = ["KRPvKR", "KBNvKN"]
            .iter()
            .map(|n| Layout::new(n.parse().unwrap()).size)
            .collect();
        assert_eq!(sizes, [32 * 64 * 64 * 48 * 64, 10 * 64 * 64 * 64 * 64]);
    }
}
