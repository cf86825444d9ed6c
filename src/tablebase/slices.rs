//! The pawn configurations of a table with pawns: one *slice* of its
//! index each.
//!
//! A pawn only moves forward, and a capture or a promotion leaves the
//! table, so inside a table the pawns change squares only by pushes, each
//! of which leads to a configuration nearer promotion. A table with pawns
//! is therefore made one configuration at a time, the most advanced first:
//! a slice (the kings and the other pieces on every square, the pawns
//! fixed) needs only itself and the finished slices its pushes lead to.
//! That bounds the memory by a slice (16.7 million positions per side for
//! KRPvKR against 403 million for the whole table) and keeps each level's
//! work in a small part of memory.
//!
//! The left-right mirror is taken by the pawns: a configuration is stored
//! in the form whose pawn key is smaller. A configuration that is its own
//! mirror image (two pawns on mirrored squares) stores both images of its
//! positions, which then need no canonical form.
//!
//! **Order.** Slices are numbered by *group* (the pawns' files, a set and
//! its mirror image together: pushes never leave a group), then by
//! progress (the ranks the pawns have advanced) downward: every push
//! leads to a lower number. Groups are independent and can be made in
//! parallel.

use super::material::{code_color, code_is_pawn};
use shakmaty::Color;

/// Most pawns in a table (five pieces: the kings and three pawns).
const MAX_PAWNS: usize = 3;

/// The pawn configurations of one table.
#[derive(Debug)]
pub(crate) struct Slices {
    /// Piece codes of the pawns, in slot order.
    codes: Vec<u8>,
    /// The pawn slots (indices into a position's pieces).
    pub slots: Vec<usize>,
    /// Pawn squares of each slice, in the order of `slots`.
    squares: Vec<[u8; MAX_PAWNS]>,
    /// Is the slice its own mirror image (both images stored)?
    symmetric: Vec<bool>,
    /// For every pawn key: `slice << 1 | mirror` (`u32::MAX` if the
    /// squares overlap or identical pawns are out of order).
    lookup: Vec<u32>,
    /// The group of each slice (slices of a group are consecutive).
    group: Vec<u32>,
    /// The last slice whose pushes lead to each slice (`None`: none do).
    last_use: Vec<Option<u32>>,
}

/// A pawn's digit: its square on ranks 2-7.
#[inline(always)]
fn digit(sq: u8) -> usize {
    sq as usize - 8
}

impl Slices {
    /// The configurations of the pawns `codes` (slot order: codes
    /// ascending) sitting at `slots` among a position's pieces.
    pub fn new(codes: &[u8], slots: &[usize]) -> Slices {
        debug_assert!(codes.len() <= MAX_PAWNS && codes.iter().all(|&c| code_is_pawn(c)));
        let m = codes.len();
        let keys = 48usize.pow(m as u32);
        let squares_of = |key: usize| {
            let mut sq = [0u8; MAX_PAWNS];
            let mut k = key;
            for i in (0..m).rev() {
                sq[i] = (k % 48) as u8 + 8;
                k /= 48;
            }
            sq
        };
        let key_of = |sq: &[u8; MAX_PAWNS]| sq[..m].iter().fold(0, |k, &s| k * 48 + digit(s));
        // Identical pawns sorted by square.
        let sorted = |mut sq: [u8; MAX_PAWNS]| {
            for _ in 0..m {
                for i in 1..m {
                    if codes[i] == codes[i - 1] && sq[i] < sq[i - 1] {
                        sq.swap(i, i - 1);
                    }
                }
            }
            sq
        };
        let valid = |sq: &[u8; MAX_PAWNS]| {
            (0..m).all(|i| (0..i).all(|j| sq[i] != sq[j]))
                && (1..m).all(|i| codes[i] != codes[i - 1] || sq[i] > sq[i - 1])
        };
        let mirror = |sq: &[u8; MAX_PAWNS]| {
            let mut out = *sq;
            for s in &mut out[..m] {
                *s ^= 7;
            }
            sorted(out)
        };
        // Canonical configurations with their sort key.
        let file_set = |sq: &[u8; MAX_PAWNS]| {
            let mut f: Vec<(u8, u8)> = (0..m).map(|i| (codes[i], sq[i] & 7)).collect();
            f.sort_unstable();
            f
        };
        let progress = |sq: &[u8; MAX_PAWNS]| -> i32 {
            (0..m)
                .map(|i| match code_color(codes[i]) {
                    Color::White => i32::from(sq[i] >> 3),
                    Color::Black => 7 - i32::from(sq[i] >> 3),
                })
                .sum()
        };
        let mut canonical = Vec::new();
        for key in 0..keys {
            let sq = squares_of(key);
            if valid(&sq) && key <= key_of(&mirror(&sq)) {
                let g = file_set(&sq).min(file_set(&mirror(&sq)));
                canonical.push((g, -progress(&sq), key));
            }
        }
        canonical.sort_unstable();
        let mut lookup = vec![u32::MAX; keys];
        let mut squares = Vec::with_capacity(canonical.len());
        let mut symmetric = Vec::with_capacity(canonical.len());
        let mut group = Vec::with_capacity(canonical.len());
        let mut g = 0u32;
        for (s, (files, _, key)) in canonical.iter().enumerate() {
            if s > 0 && *files != canonical[s - 1].0 {
                g += 1;
            }
            let sq = squares_of(*key);
            let mkey = key_of(&mirror(&sq));
            lookup[*key] = (s as u32) << 1;
            if mkey != *key {
                lookup[mkey] = (s as u32) << 1 | 1;
            }
            squares.push(sq);
            symmetric.push(mkey == *key);
            group.push(g);
        }
        let mut out = Slices {
            codes: codes.to_vec(),
            slots: slots.to_vec(),
            squares,
            symmetric,
            lookup,
            group,
            last_use: Vec::new(),
        };
        out.last_use = vec![None; out.len()];
        for s in 0..out.len() {
            for t in out.pushes_from(s) {
                debug_assert!(t < s && out.group[t] == out.group[s]);
                out.last_use[t] = Some(out.last_use[t].map_or(s as u32, |u| u.max(s as u32)));
            }
        }
        out
    }

    /// Number of slices.
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// The pawns' squares of slice `s`, in the order of [`Slices::slots`].
    #[inline(always)]
    pub fn squares(&self, s: usize) -> &[u8] {
        &self.squares[s][..self.codes.len()]
    }

    #[inline(always)]
    pub fn is_symmetric(&self, s: usize) -> bool {
        self.symmetric[s]
    }

    pub fn group(&self, s: usize) -> u32 {
        self.group[s]
    }

    /// The last slice that reads slice `s` (its pushes lead there).
    pub fn last_use(&self, s: usize) -> Option<usize> {
        self.last_use[s].map(|u| u as usize)
    }

    /// The slice of the pawns on `squares` (slot order, identical pawns
    /// sorted) and whether the position must be mirrored to be in it;
    /// `None` if they overlap or stand on the first or last rank.
    #[inline(always)]
    pub fn find(&self, squares: impl Iterator<Item = u8>) -> Option<(usize, bool)> {
        let mut key = 0;
        for s in squares {
            if !(8..56).contains(&s) {
                return None;
            }
            key = key * 48 + digit(s);
        }
        let e = *self.lookup.get(key)?;
        (e != u32::MAX).then_some(((e >> 1) as usize, e & 1 == 1))
    }

    /// The slices pushes of slice `s`'s pawns lead to (whatever stands
    /// on the squares in front: the kings and pieces vary in a slice).
    pub fn pushes_from(&self, s: usize) -> Vec<usize> {
        let m = self.codes.len();
        let sq = self.squares[s];
        let mut out = Vec::new();
        for i in 0..m {
            let (step, second): (i8, u8) = match code_color(self.codes[i]) {
                Color::White => (8, 1),
                Color::Black => (-8, 6),
            };
            let free = |t: u8| (0..m).all(|j| sq[j] != t);
            let mut to = sq[i];
            for n in 1..=2 {
                if n == 2 && sq[i] >> 3 != second {
                    break;
                }
                to = (to as i8 + step) as u8;
                if !(8..56).contains(&to) || !free(to) {
                    break;
                }
                let mut next = sq;
                next[i] = to;
                // Identical pawns back in order.
                let mut order: Vec<(u8, u8)> = (0..m).map(|j| (self.codes[j], next[j])).collect();
                order.sort_unstable();
                if let Some((t, _)) = self.find(order.iter().map(|p| p.1)) {
                    out.push(t);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slices(name: &str) -> Slices {
        let m: super::super::material::Material = name.parse().unwrap();
        let codes = m.codes();
        let slots: Vec<usize> = (0..codes.len())
            .filter(|&i| code_is_pawn(codes[i]))
            .collect();
        let pawns: Vec<u8> = slots.iter().map(|&i| codes[i]).collect();
        Slices::new(&pawns, &slots)
    }

    #[test]
    fn one_pawn_has_a_slice_per_square_of_files_a_to_d() {
        let s = slices("KRPvKR");
        assert_eq!(s.len(), 24);
        // Four groups (files), each from the seventh rank down.
        assert_eq!((0..24).map(|k| s.group(k)).max(), Some(3));
        assert_eq!(s.squares(0), [48]); // a7
        assert_eq!(s.squares(5), [8]); // a2
        // a2 pushes to a3 and a4; a3 is read last by a2.
        assert_eq!(s.pushes_from(5), [3, 4]);
        assert_eq!(s.last_use(4), Some(5));
        assert_eq!(s.last_use(0), Some(1));
        assert_eq!(s.last_use(5), None);
        // h5 is a5 mirrored.
        assert_eq!(s.find([39].into_iter()), Some((2, true)));
        assert_eq!(s.find([56].into_iter()), None);
    }

    #[test]
    fn mirrored_pairs_share_a_slice_and_pushes_lead_back_in_the_order() {
        let s = slices("KPPvK");
        // Pairs of distinct squares, a pair and its mirror image together.
        let symmetric = (0..s.len()).filter(|&k| s.is_symmetric(k)).count();
        assert_eq!(symmetric, 24);
        assert_eq!(s.len(), (48 * 47 / 2 + 24) / 2);
        for k in 0..s.len() {
            for t in s.pushes_from(k) {
                assert!(t < k && s.group(t) == s.group(k));
            }
        }
        let two = slices("KPvKP");
        assert_eq!(two.len(), 48 * 47 / 2);
        assert!((0..two.len()).all(|k| !two.is_symmetric(k)));
    }
}
