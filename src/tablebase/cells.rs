//! The values of a table being made: one byte per position, eight to an
//! atomic word (threads share the window; each writes only the words of
//! the positions it owns in a pass), and bit sets of positions, 64 to a
//! word. A level scans eight bytes a load.

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

    /// Word `w` (positions `8w..8w + 8`, the first in the low byte).
    #[inline(always)]
    pub(crate) fn word(&self, w: usize) -> u64 {
        self.words[w].load(Relaxed)
    }

    /// Words `8w..8w + 8` (the 64 positions `64w..64w + 64`).
    #[inline(always)]
    pub(crate) fn words8(&self, w: usize) -> [u64; 8] {
        let s = &self.words[8 * w..8 * w + 8];
        std::array::from_fn(|k| s[k].load(Relaxed))
    }

    /// Stores a whole word (its positions written by no one else now).
    #[inline(always)]
    pub(crate) fn store_word(&self, w: usize, v: u64) {
        self.words[w].store(v, Relaxed);
    }

    /// Copies positions `start..start + out.len()` into `out`.
    pub(crate) fn copy_to(&self, start: usize, out: &mut [u8]) {
        // Byte by byte up to a whole word, then eight at a time.
        let len = out.len();
        let head = ((8 - start % 8) % 8).min(out.len());
        let (first, rest) = out.split_at_mut(head);
        for (k, o) in first.iter_mut().enumerate() {
            *o = self.get(start + k);
        }
        let from = (start + head) / 8;
        let mut words = rest.chunks_exact_mut(8);
        for (k, o) in (&mut words).enumerate() {
            o.copy_from_slice(&self.word(from + k).to_le_bytes());
        }
        let tail = words.into_remainder();
        let at = start + len - tail.len();
        for (k, o) in tail.iter_mut().enumerate() {
            *o = self.get(at + k);
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

/// One bit per position (which positions are done, good, reached...).
pub(crate) struct Done {
    words: Vec<AtomicU64>,
}

impl Done {
    pub(crate) fn new(len: usize) -> Done {
        Done {
            words: (0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Stores the bits of positions `64w..64w + 64` (no one else writes
    /// them now).
    #[inline(always)]
    pub(crate) fn store_word(&self, w: usize, bits: u64) {
        self.words[w].store(bits, Relaxed);
    }

    /// The bits of positions `64w..64w + 64`.
    #[inline(always)]
    pub(crate) fn word(&self, w: usize) -> u64 {
        self.words[w].load(Relaxed)
    }

    /// Sets `bits` of positions `64w..64w + 64` (`alone`: no other thread
    /// writes these bits now).
    #[inline(always)]
    pub(crate) fn or_word(&self, w: usize, bits: u64, alone: bool) {
        let word = &self.words[w];
        if alone {
            word.store(word.load(Relaxed) | bits, Relaxed);
        } else {
            word.fetch_or(bits, Relaxed);
        }
    }

    /// The bits of positions `64w..64w + 64`, cleared (no other thread
    /// writes them now: a plain load and store, not a locked swap, which
    /// cost a tenth of a level's time).
    #[inline(always)]
    pub(crate) fn take_word(&self, w: usize) -> u64 {
        let word = &self.words[w];
        let bits = word.load(Relaxed);
        if bits != 0 {
            word.store(0, Relaxed);
        }
        bits
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

/// The high bits of the eight bytes of `m` (as [`bytes_equal`] sets
/// them), gathered into the low eight bits.
#[inline(always)]
pub(crate) fn gather_high_bits(m: u64) -> u64 {
    ((m >> 7) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// A byte of `0xFF` for each of the low eight bits of `bits`.
#[inline(always)]
pub(crate) fn spread_bytes(bits: u64) -> u64 {
    (SPREAD[(bits & 0xFF) as usize] >> 7) * 0xFF
}

/// The positions among 64 (eight words, as [`Cells::words8`] reads
/// them) whose byte is `b`, one bit each. Four SSE2 compares on x86-64
/// (a tenth of a generation went into doing it eight bytes at a time).
#[inline(always)]
pub(crate) fn bytes_equal64(words: [u64; 8], b: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set_epi64x, _mm_set1_epi8};
        // SAFETY: SSE2 is part of every x86-64 processor (the target's
        // baseline); the intrinsics read only their register arguments.
        unsafe {
            let needle = _mm_set1_epi8(b as i8);
            let mut bits = 0u64;
            for k in 0..4 {
                let v = _mm_set_epi64x(words[2 * k + 1] as i64, words[2 * k] as i64);
                let m = _mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)) as u32 & 0xFFFF;
                bits |= u64::from(m) << (16 * k);
            }
            bits
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (0..8).fold(0, |bits, k| {
            bits | gather_high_bits(bytes_equal(words[k], b)) << (8 * k)
        })
    }
}

/// The largest of the 64 bytes of `words`.
#[inline(always)]
pub(crate) fn max_byte64(words: [u64; 8]) -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cvtsi128_si32, _mm_max_epu8, _mm_set_epi64x, _mm_srli_si128};
        // SAFETY: as in `bytes_equal64` (SSE2, registers only).
        unsafe {
            let v = |k: usize| _mm_set_epi64x(words[2 * k + 1] as i64, words[2 * k] as i64);
            let mut m = _mm_max_epu8(_mm_max_epu8(v(0), v(1)), _mm_max_epu8(v(2), v(3)));
            m = _mm_max_epu8(m, _mm_srli_si128::<8>(m));
            m = _mm_max_epu8(m, _mm_srli_si128::<4>(m));
            m = _mm_max_epu8(m, _mm_srli_si128::<2>(m));
            m = _mm_max_epu8(m, _mm_srli_si128::<1>(m));
            _mm_cvtsi128_si32(m) as u8
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .fold(0, |a, b| a.max(b))
    }
}

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
    fn sixty_four_bytes_compare_like_one_at_a_time() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            let words: [u64; 8] = std::array::from_fn(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Few distinct bytes, so that matches are common.
                seed & 0x0303_0303_0303_0303
            });
            for b in [0u8, 1, 2, 3, 0xFF] {
                let want = (0..64).fold(0u64, |a, i| {
                    a | u64::from((words[i / 8] >> (8 * (i % 8))) as u8 == b) << i
                });
                assert_eq!(bytes_equal64(words, b), want, "{b}");
            }
        }
    }

    #[test]
    fn the_largest_of_sixty_four_bytes_is_found_wherever_it_is() {
        for at in 0..64 {
            for big in [1u8, 0x7F, 0x80, 0xFF] {
                let mut bytes = [0u8; 64];
                for (i, b) in bytes.iter_mut().enumerate() {
                    *b = (i as u8 * 7) % big.max(1) / 2;
                }
                bytes[at] = big;
                let words: [u64; 8] = std::array::from_fn(|k| {
                    u64::from_le_bytes(bytes[8 * k..8 * k + 8].try_into().unwrap())
                });
                assert_eq!(max_byte64(words), big, "{at} {big}");
            }
        }
        assert_eq!(max_byte64([0; 8]), 0);
    }

    #[test]
    fn high_bits_gather_and_spread_back() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..1000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = seed & 0x8080_8080_8080_8080;
            let want = (0..8).fold(0, |a, k| a | (m >> (8 * k + 7) & 1) << k);
            assert_eq!(gather_high_bits(m), want);
            assert_eq!(spread_bytes(want), (m >> 7) * 0xFF);
        }
    }

    #[test]
    fn done_words_set_take_and_clear() {
        let d = Done::new(200);
        d.or_word(2, 0b101, false);
        d.or_word(2, 0b1000, true);
        assert_eq!(d.word(2), 0b1101);
        assert_eq!(d.take_word(2), 0b1101);
        assert_eq!(d.word(2), 0);
        assert_eq!(d.take_word(3), 0);
    }

    #[test]
    fn stored_words_hold_eight_positions_low_byte_first() {
        let c = Cells::new(20, 3);
        c.store_word(1, u64::from_le_bytes([9, 8, 7, 6, 5, 4, 3, 2]));
        assert_eq!(c.to_vec()[7..11], [3, 9, 8, 7]);
        assert_eq!(c.get(15), 2);
        assert_eq!(c.len(), 20);
    }

    #[test]
    fn copies_from_any_position_of_any_length_read_like_single_values() {
        let c = Cells::new(61, 0);
        for w in 0..8 {
            c.store_word(
                w,
                u64::from_le_bytes(std::array::from_fn(|k| (8 * w + k) as u8)),
            );
        }
        for start in 0..20 {
            for len in 0..=(61 - start).min(30) {
                let mut out = vec![0u8; len];
                c.copy_to(start, &mut out);
                let want: Vec<u8> = (start..start + len).map(|i| c.get(i)).collect();
                assert_eq!(out, want, "{start} {len}");
            }
        }
    }
}
