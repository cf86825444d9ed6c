//! The values of a table being made: one byte per position, eight to an
//! atomic word, so that every thread may read and write any position (no
//! locks, no ownership of index ranges) and a level scans eight positions
//! a load.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

pub(crate) struct Cells {
    words: Vec<AtomicU64>,
    len: usize,
}

impl Cells {
    /// `len` positions, each `fill`.
    pub(crate) fn new(len: usize, fill: u8) -> Cells {
        let word = u64::from_ne_bytes([fill; 8]);
        Cells {
            words: (0..len.div_ceil(8)).map(|_| AtomicU64::new(word)).collect(),
            len,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> u8 {
        (self.words[i >> 3].load(Relaxed) >> ((i & 7) * 8)) as u8
    }

    /// Sets position `i` to what `f` makes of its value, unless `f` says
    /// `None`; returns the value written. Other positions of the word may
    /// change meanwhile (then `f` is asked again).
    #[inline(always)]
    pub(crate) fn update(&self, i: usize, f: impl Fn(u8) -> Option<u8>) -> Option<u8> {
        let shift = (i & 7) * 8;
        let word = &self.words[i >> 3];
        let mut old = word.load(Relaxed);
        loop {
            let new = f((old >> shift) as u8)?;
            let next = (old & !(0xFF << shift)) | (u64::from(new) << shift);
            match word.compare_exchange_weak(old, next, Relaxed, Relaxed) {
                Ok(_) => return Some(new),
                Err(now) => old = now,
            }
        }
    }

    /// [`Cells::update`] for a caller alone with these cells now (one
    /// thread): a plain load and store, no compare-and-swap.
    #[inline(always)]
    pub(crate) fn update_alone(&self, i: usize, f: impl Fn(u8) -> Option<u8>) -> Option<u8> {
        let shift = (i & 7) * 8;
        let word = &self.words[i >> 3];
        let old = word.load(Relaxed);
        let new = f((old >> shift) as u8)?;
        word.store(
            (old & !(0xFF << shift)) | (u64::from(new) << shift),
            Relaxed,
        );
        Some(new)
    }

    #[inline(always)]
    pub(crate) fn set(&self, i: usize, v: u8) {
        self.update(i, |_| Some(v));
    }

    /// Word `w` (positions `8w..8w + 8`, the first in the low byte).
    #[inline(always)]
    pub(crate) fn word(&self, w: usize) -> u64 {
        self.words[w].load(Relaxed)
    }

    /// Stores a whole word (its positions written by no one else now).
    #[inline(always)]
    pub(crate) fn store_word(&self, w: usize, v: u64) {
        self.words[w].store(v, Relaxed);
    }

    pub(crate) fn words(&self) -> usize {
        self.words.len()
    }

    /// Copies positions `start..start + out.len()` into `out`.
    pub(crate) fn copy_to(&self, start: usize, out: &mut [u8]) {
        for (k, o) in out.iter_mut().enumerate() {
            *o = self.get(start + k);
        }
    }

    /// Every value, in a plain vector.
    #[cfg(test)]
    pub(crate) fn to_vec(&self) -> Vec<u8> {
        let mut out = vec![0; self.len];
        self.copy_to(0, &mut out);
        out
    }
}

/// One bit per position: whether its byte in [`Cells`] is a value (set)
/// or a counter of moves not yet resolved (clear).
pub(crate) struct Done {
    words: Vec<AtomicU64>,
}

impl Done {
    pub(crate) fn new(len: usize) -> Done {
        Done {
            words: (0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> bool {
        self.words[i >> 6].load(Relaxed) >> (i & 63) & 1 == 1
    }

    #[inline(always)]
    pub(crate) fn set(&self, i: usize) {
        self.words[i >> 6].fetch_or(1 << (i & 63), Relaxed);
    }

    /// [`Done::set`] for a caller alone with these bits now.
    #[inline(always)]
    pub(crate) fn set_alone(&self, i: usize) {
        let w = &self.words[i >> 6];
        w.store(w.load(Relaxed) | 1 << (i & 63), Relaxed);
    }

    /// Stores the bits of positions `64w..64w + 64` (no one else writes
    /// them now).
    #[inline(always)]
    pub(crate) fn store_word(&self, w: usize, bits: u64) {
        self.words[w].store(bits, Relaxed);
    }

    /// The bits of [`Cells`] word `w` (positions `8w..8w + 8`) spread to
    /// the high bit of each byte, as [`bytes_equal`] marks them.
    #[inline(always)]
    pub(crate) fn byte_mask(&self, w: usize) -> u64 {
        let bits = (self.words[w >> 3].load(Relaxed) >> ((w & 7) * 8)) & 0xFF;
        SPREAD[bits as usize]
    }
}

/// Bit `k` of the index to bit `8k + 7`.
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 == 1 {
                t[b] |= 0x80 << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// The positions of `word` whose byte is `b`: bit `8k + 7` set for each
/// (the SWAR zero-byte test on `word ^ b * 0x0101..`).
#[inline(always)]
pub(crate) fn bytes_equal(word: u64, b: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let x = word ^ (LO * u64::from(b));
    // Exact (no false positives): high bit of each byte that is zero.
    !(((x & !HI) + !HI) | x) & HI
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_equal_finds_exactly_the_equal_bytes() {
        let w = u64::from_le_bytes([5, 0, 5, 0x85, 6, 5, 255, 4]);
        let m = bytes_equal(w, 5);
        let found: Vec<usize> = (0..8).filter(|k| m >> (8 * k + 7) & 1 == 1).collect();
        assert_eq!(found, [0, 2, 5]);
        assert_eq!(bytes_equal(w, 7), 0);
        assert_eq!(bytes_equal(u64::MAX, 255).count_ones(), 8);
    }

    #[test]
    fn done_bits_line_up_with_the_bytes_of_a_word() {
        let d = Done::new(200);
        d.set(8 * 5 + 2);
        d.set(8 * 5 + 7);
        d.set(130);
        assert!(d.get(130) && !d.get(129));
        assert_eq!(d.byte_mask(5), (0x80 << 16) | (0x80 << 56));
        assert_eq!(d.byte_mask(16), 0x80 << 16);
        assert_eq!(d.byte_mask(4), 0);
    }

    #[test]
    fn updates_keep_the_other_bytes_of_a_word() {
        let c = Cells::new(20, 3);
        c.set(9, 7);
        assert_eq!(c.update(9, |v| (v == 7).then_some(8)), Some(8));
        assert_eq!(c.update(9, |v| (v == 7).then_some(9)), None);
        assert_eq!(c.to_vec()[8..11], [3, 8, 3]);
        assert_eq!(c.len(), 20);
    }
}
