//! A table in memory, value codes, and lookups across tables.

use super::index::{Layout, Man, Raw, SQ_T, TRANSPOSE, on_diagonal};
use super::material::{KEY_KVK, KEYS, Material, NONE, NORMALIZE, key_of};
use super::values::Values;
use shakmaty::Color;
use std::sync::Arc;

/// Value codes, one byte per position:
/// - [`UNKNOWN`] (0): a draw once generation has finished;
/// - [`ILLEGAL`] (1): unused index while generating (files store anything
///   there);
/// - `2 + d`: mate in `d` plies, `d` up to 253. Odd `d`: the side to move
///   mates; even `d`: it is mated (0 = already mated). The parity says
///   who wins.
/// - [`MAX_DIST`] (mated in 127 moves, the longest five-man mate: KPPvKP)
///   is the one distance past the byte, and takes code 1 too: an unused
///   index is never probed, and the generator, which has both, tells them
///   apart by its bit sets.
pub(crate) const UNKNOWN: u8 = 0;
pub(crate) const ILLEGAL: u8 = 1;
/// The longest distance a code holds, in plies.
pub(crate) const MAX_DIST: u32 = 254;
/// The code of [`MAX_DIST`] (see [`UNKNOWN`]).
pub(crate) const LOSS_MAX: u8 = 1;

#[inline]
pub(crate) const fn code_of(dist: u32) -> u8 {
    if dist == MAX_DIST {
        LOSS_MAX
    } else {
        (dist + 2) as u8
    }
}

#[inline]
pub(crate) const fn dist_of(code: u8) -> u32 {
    if code == LOSS_MAX {
        MAX_DIST
    } else {
        code as u32 - 2
    }
}

#[inline]
pub(crate) const fn is_win(code: u8) -> bool {
    code >= 2 && code & 1 == 1
}

#[inline]
pub(crate) const fn is_loss(code: u8) -> bool {
    code == LOSS_MAX || (code >= 2 && code & 1 == 0)
}

/// The value of a move for the mover, from the value of the position it
/// leads to: negated, one ply further from mate. A move to a position
/// mated in [`MAX_DIST`] would win in 255 plies, which no table of up to
/// five men has: it counts as a draw (and the generator refuses a table
/// whose levels reach 255).
#[inline]
pub(crate) const fn via_move(child: u8) -> u8 {
    match child {
        UNKNOWN | LOSS_MAX => UNKNOWN,
        255 => LOSS_MAX,
        c => c + 1,
    }
}

/// Orders codes from the side to move's view: quick wins, slow wins,
/// draws, slow losses, quick losses.
#[inline]
pub(crate) const fn rank(code: u8) -> i32 {
    if is_win(code) {
        1000 - dist_of(code) as i32
    } else if is_loss(code) {
        -1000 + dist_of(code) as i32
    } else {
        0
    }
}

/// The better of two codes for the side to move.
#[inline]
pub(crate) const fn better(a: u8, b: u8) -> u8 {
    if rank(b) > rank(a) { b } else { a }
}

/// Gaviota-convention DTM of a code: positive = the side to move mates in
/// that many plies, negative = it is mated, 0 = draw or mated now.
#[inline]
pub(crate) const fn dtm_of(code: u8) -> i32 {
    if is_win(code) {
        dist_of(code) as i32
    } else if is_loss(code) {
        -(dist_of(code) as i32)
    } else {
        0
    }
}

/// 0 = White, 1 = Black (shakmaty numbers them the other way round).
#[inline]
pub(crate) const fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Counts of one side to move, over all positions of the board (symmetric
/// images counted separately).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Legal positions (the side not to move is not in check).
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Longest win of the side to move, in plies (0 if none).
    pub longest_win: u32,
    /// Longest loss of the side to move, in plies.
    pub longest_loss: u32,
}

/// Statistics of a table: `[White to move, Black to move]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    pub sides: [SideStats; 2],
}

impl TableStats {
    /// Adds the counts of another part of the same table.
    pub(crate) fn add(&mut self, other: &TableStats) {
        for (x, y) in self.sides.iter_mut().zip(&other.sides) {
            x.positions += y.positions;
            x.wins += y.wins;
            x.draws += y.draws;
            x.losses += y.losses;
            x.longest_win = x.longest_win.max(y.longest_win);
            x.longest_loss = x.longest_loss.max(y.longest_loss);
        }
    }

    /// The longest mate in the table, in plies.
    pub fn longest_mate(&self) -> u32 {
        self.sides
            .iter()
            .map(|s| s.longest_win.max(s.longest_loss))
            .max()
            .unwrap_or(0)
    }
}

/// One generated (or loaded) table.
pub struct Table {
    pub(crate) layout: Layout,
    /// `[side to move][index]`, White to move first.
    pub(crate) values: super::values::Values,
    pub(crate) stats: TableStats,
}

impl Table {
    pub fn material(&self) -> Material {
        self.layout.material
    }

    pub fn stats(&self) -> &TableStats {
        &self.stats
    }

    /// Positions per side to move in the index (used or not).
    pub fn index_size(&self) -> usize {
        self.layout.size
    }

    /// Every value in a vector (a table just made).
    pub(crate) fn values_vec(&self) -> Vec<u8> {
        let mut out = vec![0; self.values.len()];
        // Memory or made: always readable.
        let _ = self.values.copy_to(0, &mut out);
        out
    }

    /// The value of a position (`None` only if its block of the file
    /// cannot be read).
    #[inline]
    pub(crate) fn get(&self, r: &Raw, stm: Color) -> Option<u8> {
        self.values
            .get(side(stm) * self.layout.size + self.layout.index(r))
    }

    #[cfg(test)]
    /// The value at index `idx` for `stm` (`None` as for [`Table::get`]).
    #[inline]
    pub(crate) fn at(&self, stm: Color, idx: usize) -> Option<u8> {
        self.values.get(side(stm) * self.layout.size + idx)
    }
}

/// The key of the table of `r`'s material, and whether `r` must be
/// colour-flipped to fit it.
#[inline(always)]
fn normalized_key(r: &Raw) -> (u16, bool) {
    let key = match r.n {
        0 => KEY_KVK,
        1 => key_of(r.pc[0].0, NONE, NONE),
        2 => key_of(r.pc[0].0, r.pc[1].0, NONE),
        _ => key_of(r.pc[0].0, r.pc[1].0, r.pc[2].0),
    };
    NORMALIZE[key as usize]
}

/// Tables by material key.
#[derive(Clone)]
pub(crate) struct TableSet {
    pub tables: Vec<Option<Arc<Table>>>,
}

impl TableSet {
    pub fn new() -> TableSet {
        TableSet {
            tables: (0..KEYS).map(|_| None).collect(),
        }
    }

    pub fn get(&self, m: &Material) -> Option<&Table> {
        let key = m.normalized().0.key()?;
        self.tables[key as usize].as_deref()
    }

    /// The value code of a position of any material with at most three
    /// non-king pieces: `None` if its table is not loaded. Bare kings are
    /// a draw.
    #[inline]
    pub fn probe_raw(&self, r: &Raw, stm: Color) -> Option<u8> {
        let (norm, flip) = normalized_key(r);
        if norm == KEY_KVK {
            return Some(UNKNOWN);
        }
        let t = self.tables[norm as usize].as_ref()?;
        if flip {
            t.get(&r.color_flipped(), !stm)
        } else {
            t.get(r, stm)
        }
    }

    /// The values of the 64 positions that differ from `r` only in where
    /// one man stands (`man`), by that man's square. The symmetry that brings `r`
    /// into its table's form does not depend on that square (but for the
    /// transposition with the White king on the diagonal, chosen per
    /// square), and the square is one digit of the table's index: the 64
    /// values lie at a fixed stride, one word of the table when the man is
    /// the last digit. `None` where the square would decide more (pieces of
    /// one kind, the White king of a table without pawns) or the table is
    /// not loaded: probe one by one. A square where the man overlaps
    /// another gives any value.
    pub(crate) fn probe_word(&self, r: &Raw, man: Man, stm: Color) -> Option<[u8; 64]> {
        let (norm, flip) = normalized_key(r);
        if norm == KEY_KVK {
            return Some([UNKNOWN; 64]);
        }
        let t = self.tables[norm as usize].as_ref()?;
        let l = &t.layout;
        if l.identical {
            return None;
        }
        // The colour flip turns the board upside down (a vertical flip;
        // flips commute, and a transposition comes last in every
        // symmetry, so symmetries compose by exclusive or).
        let (c, stm, mut tr) = if flip {
            (r.color_flipped(), !stm, 2u8)
        } else {
            (*r, stm, 0u8)
        };
        // The man: a piece (the only one of its code) or a king, which
        // the flip makes White.
        let (code, white_king) = match man {
            Man::Slot(i) => (Some(c.pc[i].0), false),
            Man::King(k) => (None, (k == Color::White) != flip),
        };
        let at_a1 = |mut c: Raw| {
            match code {
                Some(code) => {
                    for p in c.pc.iter_mut().filter(|p| p.0 == code) {
                        p.1 = 0;
                    }
                }
                None if white_king => c.wk = 0,
                None => c.bk = 0,
            }
            c
        };
        let stride = |c: &Raw| match code {
            Some(code) => c
                .pieces()
                .iter()
                .position(|p| p.0 == code)
                .map(|j| l.stride[j]),
            None if white_king => Some(l.stride_kk()),
            None => Some(l.stride_bk),
        };
        let side = side(stm) * l.size;
        if let Some(slices) = l.slices.as_deref() {
            let c = Layout::sorted(c);
            let (s, mirror) = slices.find(slices.slots.iter().map(|&j| c.pc[j].1))?;
            let c = if mirror {
                tr ^= 1;
                Layout::sorted(c.transformed(1))
            } else {
                c
            };
            let m = &SQ_T[tr as usize];
            let step = stride(&c)?;
            let base = side + s * l.slice_size + l.raw_index_of(&at_a1(c));
            return t.gather(base, step, |b| m[b] as usize);
        }
        if white_king {
            return None;
        }
        let kt = l.king_transform(c.wk);
        let c = Layout::sorted(if kt == 0 { c } else { c.transformed(kt) });
        tr ^= kt;
        let m2 = &SQ_T[tr as usize];
        let step = stride(&c)?;
        let c = at_a1(c);
        let base = side + l.raw_index_of(&c);
        if !on_diagonal(c.wk) {
            return t.gather(base, step, |b| m2[b] as usize);
        }
        // Both forms of each position: the file keeps the one with the
        // smaller index. The man on a1 stays there.
        let base2 = side + l.raw_index_of(&Layout::sorted(c.transformed(TRANSPOSE)));
        let tp = &SQ_T[TRANSPOSE as usize];
        let mut out = [0u8; 64];
        for (b, o) in out.iter_mut().enumerate() {
            let s1 = m2[b] as usize;
            let i = (base + step * s1).min(base2 + step * tp[s1] as usize);
            *o = t.values.get(i)?;
        }
        Some(out)
    }
}

impl Table {
    /// The 64 values at `base + stride * at(b)` for each square `b`: one
    /// word read when the stride is 1, else one by one.
    #[inline]
    fn gather(&self, base: usize, stride: usize, at: impl Fn(usize) -> usize) -> Option<[u8; 64]> {
        let mut out = [0u8; 64];
        if stride == 1 {
            let w = self.values.word(base)?;
            for (b, o) in out.iter_mut().enumerate() {
                *o = w[at(b)];
            }
        } else if base + stride * 63 < self.values.len() {
            // In range: values in memory read without a check each (the
            // match once, not per value).
            match &self.values {
                Values::Memory(v) => {
                    for (b, o) in out.iter_mut().enumerate() {
                        *o = v[base + stride * at(b)];
                    }
                }
                Values::Made(c) => {
                    for (b, o) in out.iter_mut().enumerate() {
                        *o = c.get(base + stride * at(b));
                    }
                }
                v => {
                    for (b, o) in out.iter_mut().enumerate() {
                        *o = v.get(base + stride * at(b))?;
                    }
                }
            }
        } else {
            return None;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_distance_up_to_mated_in_127_moves_has_its_own_code() {
        let mut seen = std::collections::HashSet::new();
        for d in 0..=MAX_DIST {
            let c = code_of(d);
            assert_eq!(dist_of(c), d);
            assert!(seen.insert(c), "{d}");
            assert_eq!(is_win(c), d % 2 == 1, "{d}");
            assert_eq!(is_loss(c), d % 2 == 0, "{d}");
            assert_ne!(c, UNKNOWN);
            assert_eq!(rank(c) > 0, is_win(c));
            if d >= 2 {
                // Longer is worse for the winner, better for the loser.
                assert_eq!(rank(c) < rank(code_of(d - 2)), is_win(c), "{d}");
            }
            if is_win(c) {
                // A move into a position lost in `d - 1` wins in `d`.
                assert_eq!(via_move(code_of(d - 1)), c);
            }
        }
        // Mated in 254 plies is the slowest loss; a win in 253 leads to it.
        assert_eq!(code_of(MAX_DIST), ILLEGAL);
        assert_eq!(via_move(code_of(253)), code_of(MAX_DIST));
        assert_eq!(better(code_of(MAX_DIST), code_of(252)), code_of(MAX_DIST));
        assert_eq!(dtm_of(code_of(MAX_DIST)), -254);
        assert_eq!(via_move(UNKNOWN), UNKNOWN);
    }
}
