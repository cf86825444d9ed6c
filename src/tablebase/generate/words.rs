//! The moves of a window's positions, 64 at a time.
//!
//! The last digit of a table's index is one man's square (the last piece
//! that is not a pawn, else the Black king): the *inner* man. So the 64
//! positions of a *word* (`index / 64`) share everything but the inner
//! man's square, and a set of them is a bitboard of its squares. A step of
//! another (*outer*) man from `x` to `y` takes a word to one other word,
//! all 64 positions at once, except those whose inner man stands on `y`
//! or in between (`keep`). A step of the inner man stays in the word: a
//! fill of the bitboard. Without pawns a White king stepping out of the
//! triangle a1-d1-d4 turns the board (`t`, see [`SQ_T`]); the bitboard
//! turns with it.
//!
//! Generation keeps every position of the index (also the second form of
//! a position with the White king on the diagonal, and identical pieces
//! in either order): steps then need no sorting and no choice of form.
//! Both forms of a position are worked alike and end with one value. A
//! step onto the diagonal reaches both forms (see [`Geometry::steps`]).
//!
//! Moves of kings and pieces are reversible, so the same steps serve
//! un-moves (a set of positions to its predecessors) and moves (from a
//! position to what its moves reach).

pub(super) use crate::tablebase::index::Man;
#[cfg(test)]
use crate::tablebase::index::SQ_T;
use crate::tablebase::index::{Layout, Raw, TRANSPOSE, on_diagonal};
use crate::tablebase::material::{code_color, code_is_pawn};
use shakmaty::{Bitboard, Color, Square, attacks};

/// The code [`Geometry`] gives a king among piece codes.
pub(super) const KING: u8 = 255;

/// Turns a bitboard by the board symmetry `t` (as [`SQ_T`] turns squares).
#[inline(always)]
pub(super) fn transform(b: u64, t: u8) -> u64 {
    let mut b = Bitboard(b);
    if t & 1 != 0 {
        b = b.flip_horizontal();
    }
    if t & 2 != 0 {
        b = b.flip_vertical();
    }
    if t & TRANSPOSE != 0 {
        b = b.flip_diagonal();
    }
    b.0
}

/// The symmetry undoing `t` (flips first, then the transposition: undone
/// by transposing first, which swaps the roles of the two flips).
#[inline(always)]
pub(super) const fn inverse(t: u8) -> u8 {
    if t & TRANSPOSE == 0 {
        t
    } else {
        TRANSPOSE | (t & 1) << 1 | (t & 2) >> 1
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The a1-h8 diagonal, and the squares above it (rank past file).
const DIAGONAL: u64 = 0x8040_2010_0804_0201;
const ABOVE_DIAGONAL: u64 = {
    let mut b = 0u64;
    let mut sq = 0;
    while sq < 64 {
        if sq >> 3 > sq & 7 {
            b |= 1 << sq;
        }
        sq += 1;
    }
    b
};
const FILE_H: u64 = FILE_A << 7;
const FILE_AB: u64 = FILE_A | FILE_A << 1;
const FILE_GH: u64 = FILE_H | FILE_H >> 1;

/// Every square a king on one of `b` attacks.
#[inline(always)]
pub(super) fn king_fill(b: u64) -> u64 {
    let side = ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H);
    let row = b | side;
    side | row << 8 | row >> 8
}

/// Every square a knight on one of `b` attacks.
#[inline(always)]
pub(super) fn knight_fill(b: u64) -> u64 {
    let one = ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H);
    let two = ((b << 2) & !FILE_AB) | ((b >> 2) & !FILE_GH);
    one << 16 | one >> 16 | two << 8 | two >> 8
}

/// Squares a slider on one of `b` attacks along one direction (`shift`,
/// with `wrap` the squares a step may not land on), stopped by `occ`.
#[inline(always)]
fn ray_fill(b: u64, empty: u64, shift: i32, wrap: u64) -> u64 {
    let step = |x: u64| {
        if shift > 0 { x << shift } else { x >> -shift }
    };
    // Kogge-Stone occluded fill.
    let mut pro = empty & !wrap;
    let mut g = b;
    g |= pro & step(g);
    pro &= step(pro);
    g |= pro & step(step(g));
    pro &= step(step(pro));
    g |= pro & step(step(step(step(g))));
    step(g) & !wrap
}

const ROOK_DIRS: [(i32, u64); 4] = [(8, 0), (-8, 0), (1, FILE_A), (-1, FILE_H)];
const BISHOP_DIRS: [(i32, u64); 4] = [(9, FILE_A), (7, FILE_H), (-7, FILE_A), (-9, FILE_H)];

/// Every square the piece with code `c` (not a pawn) attacks from one of
/// `b`, `occ` blocking sliders.
#[inline(always)]
pub(super) fn piece_fill(c: u8, b: u64, occ: u64) -> u64 {
    let kind = c % 5;
    if kind == 3 {
        return knight_fill(b);
    }
    if b.count_ones() <= 6 {
        let mut out = Bitboard::EMPTY;
        for s in Bitboard(b) {
            out |= super::moves::piece_attacks(c, s as u8, Bitboard(occ));
        }
        return out.0;
    }
    let empty = !occ;
    let mut out = 0;
    if kind <= 1 {
        for (shift, wrap) in ROOK_DIRS {
            out |= ray_fill(b, empty, shift, wrap);
        }
    }
    if kind == 0 || kind == 2 {
        for (shift, wrap) in BISHOP_DIRS {
            out |= ray_fill(b, empty, shift, wrap);
        }
    }
    out
}

/// The squares a man (piece code, or [`KING`]) on `s` attacks, `occ`
/// blocking sliders.
#[inline(always)]
pub(super) fn man_attacks(code: u8, s: u8, occ: u64) -> u64 {
    if code == KING {
        attacks::king_attacks(Square::new(u32::from(s))).0
    } else {
        super::moves::piece_attacks(code, s, Bitboard(occ)).0
    }
}

/// The steps of one window: which man is inner, and where words are.
pub(super) struct Geometry<'a> {
    layout: &'a Layout,
    pub inner: Man,
    /// The table word of the window's first position.
    pub base_word: usize,
}

/// One word's men apart from the inner one.
#[derive(Clone, Copy)]
pub(super) struct Outer {
    /// Decoded with the inner man on a1.
    pub r: Raw,
    /// Squares of the outer men.
    pub occ: u64,
    /// Is this word in use (no two outer men on one square)?
    pub valid: bool,
}

impl<'a> Geometry<'a> {
    pub fn new(layout: &'a Layout, base: usize) -> Geometry<'a> {
        let inner = layout
            .inner_slot()
            .map_or(Man::King(Color::Black), Man::Slot);
        debug_assert!(inner != Man::King(Color::Black) || layout.stride_bk == 1);
        Geometry {
            layout,
            inner,
            base_word: base / 64,
        }
    }

    /// The outer men of table word `w`.
    #[inline(always)]
    pub fn outer(&self, w: usize) -> Outer {
        let r = self.layout.decode(w * 64);
        let mut occ = 0u64;
        let mut valid = true;
        let mut put = |s: u8| {
            valid &= occ >> s & 1 == 0;
            occ |= 1 << s;
        };
        put(r.wk);
        if self.inner != Man::King(Color::Black) {
            put(r.bk);
        }
        for (i, p) in r.pieces().iter().enumerate() {
            if self.inner != Man::Slot(i) {
                put(p.1);
            }
        }
        Outer { r, occ, valid }
    }

    /// Puts the inner man of `r` (decoded from a word) on `sq`.
    #[inline(always)]
    pub fn place_inner(&self, r: &mut Raw, sq: u8) {
        match self.inner {
            Man::King(_) => r.bk = sq,
            Man::Slot(i) => r.pc[i].1 = sq,
        }
    }

    /// The squares the inner man attacks from one of `b` (its steps inside
    /// the word), with the outer men of `o` in place.
    #[inline(always)]
    pub fn inner_fill(&self, o: &Outer, b: u64) -> u64 {
        let reach = match self.inner {
            Man::King(_) => king_fill(b),
            Man::Slot(i) => piece_fill(o.r.pc[i].0, b, o.occ),
        };
        reach & !o.occ
    }

    /// Is the inner man `mover`'s?
    #[inline(always)]
    pub fn inner_is(&self, mover: Color, r: &Raw) -> bool {
        match self.inner {
            Man::King(c) => c == mover,
            Man::Slot(i) => code_color(r.pc[i].0) == mover,
        }
    }

    /// Calls `f(word, keep, t)` for every step of `mover`'s outer men
    /// (kings and pieces, not pawns) from table word `w` (outer men `o`):
    /// position `b` of `w` (inner man on square `b`, if `keep` has it)
    /// reaches position `t(b)` of table word `word`. A step that puts the
    /// White king on the diagonal (no pawns) is given in both forms.
    #[inline(always)]
    pub fn steps(&self, w: usize, o: &Outer, mover: Color, mut f: impl FnMut(usize, u64, u8)) {
        let r = &o.r;
        let layout = self.layout;
        // King.
        let (k, kstride) = match mover {
            Color::White => (r.wk, layout.stride_kk()),
            Color::Black => (r.bk, layout.stride_bk),
        };
        if self.inner != Man::King(mover) {
            let dests = attacks::king_attacks(Square::new(u32::from(k))).0 & !o.occ;
            if mover == Color::White && !layout.pawns {
                for to in Bitboard(dests) {
                    self.white_king_step(r, to as u8, &mut f);
                }
            } else {
                let ws = (kstride / 64) as isize;
                for to in Bitboard(dests) {
                    let tw = w.wrapping_add_signed((to as isize - k as isize) * ws);
                    f(tw, !(1u64 << to as u8), 0);
                }
            }
        }
        // Pieces.
        for (i, &(c, at)) in r.pieces().iter().enumerate() {
            if code_color(c) != mover || code_is_pawn(c) || self.inner == Man::Slot(i) {
                continue;
            }
            let ws = (layout.stride[i] / 64) as isize;
            let dests = super::moves::piece_attacks(c, at, Bitboard(o.occ)).0 & !o.occ;
            let from = Square::new(u32::from(at));
            for to in Bitboard(dests) {
                let keep = !(attacks::between(from, to).0 | 1u64 << to as u8);
                let tw = w.wrapping_add_signed((to as isize - at as isize) * ws);
                f(tw, keep, 0);
            }
        }
    }

    /// The men of `o` by colour and kind: `(code or king, square)` of
    /// each outer man of `c` (the king as code 255).
    #[inline(always)]
    pub fn outer_men(&self, o: &Outer, c: Color) -> impl Iterator<Item = (u8, u8)> {
        let king = match c {
            Color::White => Some(o.r.wk),
            Color::Black => (self.inner != Man::King(Color::Black)).then_some(o.r.bk),
        };
        let inner = self.inner;
        king.map(|k| (KING, k)).into_iter().chain(
            o.r.pieces()
                .iter()
                .enumerate()
                .filter(move |&(i, p)| code_color(p.0) == c && inner != Man::Slot(i))
                .map(|(_, &p)| p),
        )
    }

    /// Is `target` attacked by `by`'s outer men of `o` but those on
    /// `gone` (taken), the outer men standing on `occ` (the inner man
    /// left out: it moved, or was taken)?
    #[inline]
    pub fn outer_attack(&self, o: &Outer, by: Color, target: u8, occ: u64, gone: u64) -> bool {
        self.outer_men(o, by)
            .any(|(code, s)| gone >> s & 1 == 0 && man_attacks(code, s, occ) >> target & 1 == 1)
    }

    /// The positions of word `o` (the inner man on each square, where it
    /// stays) in which `c`'s king stands attacked after a move that left
    /// the outer men on `occ` and took the enemy's on `gone`: its king
    /// on `king` (`None`: the inner man is `c`'s king).
    #[inline]
    pub fn king_hit(&self, o: &Outer, c: Color, king: Option<u8>, occ: u64, gone: u64) -> u64 {
        let enemies = self
            .outer_men(o, !c)
            .filter(move |&(_, s)| gone >> s & 1 == 0);
        let Some(k) = king else {
            // Every square an enemy attacks.
            return enemies.fold(0, |bits, (code, s)| bits | man_attacks(code, s, occ));
        };
        let mut bits = 0;
        let (inner_code, inner_color) = self.inner_man(o);
        if inner_color != c {
            bits |= man_attacks(inner_code, k, occ);
        }
        for (code, s) in enemies {
            if man_attacks(code, s, occ) >> k & 1 == 1 {
                // Unless the inner man stands in between.
                bits |= !attacks::between(Square::new(u32::from(s)), Square::new(u32::from(k))).0;
            }
        }
        bits
    }

    /// The inner man's code ([`KING`] for the Black king) and colour.
    #[inline(always)]
    pub fn inner_man(&self, o: &Outer) -> (u8, Color) {
        match self.inner {
            Man::King(c) => (KING, c),
            Man::Slot(i) => (o.r.pc[i].0, code_color(o.r.pc[i].0)),
        }
    }

    /// The positions of word `o` whose `c` king is attacked.
    #[inline]
    fn king_attacked(&self, o: &Outer, c: Color) -> u64 {
        let attacks_of = |code: u8, s: u8| man_attacks(code, s, o.occ);
        let (inner_code, inner_color) = self.inner_man(o);
        if self.inner == Man::King(c) {
            // Every square an enemy man attacks.
            return self
                .outer_men(o, !c)
                .fold(0, |bits, (code, s)| bits | attacks_of(code, s));
        }
        let k = match c {
            Color::White => o.r.wk,
            Color::Black => o.r.bk,
        };
        let mut bits = 0;
        if inner_color != c {
            // The inner man attacks the king from where the king would
            // attack it (no pawn is inner).
            bits |= attacks_of(inner_code, k);
        }
        for (code, s) in self.outer_men(o, !c) {
            if attacks_of(code, s) >> k & 1 == 1 {
                // Unless the inner man stands in between.
                let between =
                    attacks::between(Square::new(u32::from(s)), Square::new(u32::from(k))).0;
                bits |= !between;
            }
        }
        bits
    }

    /// The unused or illegal positions of word `o` for each side to move
    /// (White, Black): men on one square, or the side not to move in
    /// check.
    #[inline]
    pub fn illegal(&self, o: &Outer) -> [u64; 2] {
        if !o.valid {
            return [!0, !0];
        }
        [
            o.occ | self.king_attacked(o, Color::Black),
            o.occ | self.king_attacked(o, Color::White),
        ]
    }

    /// A superset of the positions of word `o` where `stm` may capture
    /// (not the king) or promote, or (`pushes`) push a pawn.
    #[inline]
    pub fn may_leave(&self, o: &Outer, stm: Color, pushes: bool) -> u64 {
        let seventh = match stm {
            Color::White => 6,
            Color::Black => 1,
        };
        if o.r
            .pieces()
            .iter()
            .any(|p| code_is_pawn(p.0) && code_color(p.0) == stm && (pushes || p.1 >> 3 == seventh))
        {
            return !0;
        }
        let attacks_of = |code: u8, s: u8| man_attacks(code, s, o.occ);
        let (inner_code, inner_color) = self.inner_man(o);
        // Enemy men that may be taken (not the king), outer.
        let victims = self
            .outer_men(o, !stm)
            .filter(|&(code, _)| code != KING)
            .fold(0u64, |b, (_, s)| b | 1 << s);
        let mut bits = 0;
        if inner_color == stm {
            // The inner man takes an outer one.
            for v in Bitboard(victims) {
                bits |= attacks_of(inner_code, v as u8);
            }
        } else if inner_code != KING {
            // An outer man takes the inner one.
            for (code, s) in self.outer_men(o, stm) {
                bits |= attacks_of(code, s);
            }
        }
        for (code, s) in self.outer_men(o, stm) {
            let reach = attacks_of(code, s) & victims;
            for v in Bitboard(reach) {
                let between = attacks::between(Square::new(u32::from(s)), v).0;
                bits |= !between;
            }
        }
        bits
    }

    /// The word of the transposed position, if the White king of `o` is on
    /// the diagonal (no pawns).
    #[inline]
    fn transposed_word(&self, o: &Outer) -> Option<usize> {
        (!self.layout.pawns && on_diagonal(o.r.wk))
            .then(|| self.layout.word_of(&o.r.transformed(TRANSPOSE)))
    }

    /// The positions of table word `tw` (outer men `o`) that are not in
    /// the file's form: identical pieces out of order, or (no pawns, White
    /// king on the diagonal) the larger index of a position's two forms.
    /// `None`: to be decided one by one (both at once).
    #[inline]
    pub fn second_forms(&self, tw: usize, o: &Outer) -> Option<u64> {
        let layout = self.layout;
        let mut bits = 0u64;
        if layout.identical {
            if self.transposed_word(o).is_some() {
                return None;
            }
            for s in 1..layout.n as usize {
                if layout.slots[s] != layout.slots[s - 1] || code_is_pawn(layout.slots[s]) {
                    continue;
                }
                let before = o.r.pc[s - 1].1;
                if self.inner == Man::Slot(s) {
                    bits |= (1u64 << before) - 1;
                } else if o.r.pc[s].1 < before {
                    bits = !0;
                }
            }
            return Some(bits);
        }
        Some(match self.transposed_word(o) {
            None => 0,
            Some(t) if t > tw => 0,
            Some(t) if t < tw => !0,
            // The inner man decides: its square above the diagonal.
            Some(_) => ABOVE_DIAGONAL,
        })
    }

    /// The positions of table word `tw` that are their own transposition
    /// (no pawns; `None`: to be decided one by one).
    #[inline]
    pub fn symmetric(&self, tw: usize, o: &Outer) -> Option<u64> {
        match self.transposed_word(o) {
            None => Some(0),
            Some(_) if self.layout.identical => None,
            Some(t) if t == tw => Some(DIAGONAL),
            Some(_) => Some(0),
        }
    }

    /// The White king (no pawns) steps to `to`: the board turns to bring it
    /// back into the triangle.
    #[inline]
    fn white_king_step(&self, r: &Raw, to: u8, f: &mut impl FnMut(usize, u64, u8)) {
        let keep = !(1u64 << to);
        let mut c = *r;
        c.wk = to;
        let t = self.layout.king_transform(to);
        let c = if t == 0 { c } else { c.transformed(t) };
        f(self.layout.word_of(&c), keep, t);
        if on_diagonal(c.wk) {
            let c2 = c.transformed(TRANSPOSE);
            f(self.layout.word_of(&c2), keep, t ^ TRANSPOSE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_transforms_turn_squares_like_the_index() {
        for t in 0..8u8 {
            for s in 0..64u8 {
                let turned = transform(1 << s, t);
                assert_eq!(turned, 1 << SQ_T[t as usize][s as usize], "t {t} sq {s}");
                assert_eq!(transform(turned, inverse(t)), 1 << s, "t {t} sq {s}");
            }
        }
    }

    #[test]
    fn fills_match_the_attacks_of_each_square() {
        let occ = 0x0000_1024_0081_4200u64;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Sparse and dense sets.
            let b = if seed & 1 == 0 {
                seed & seed >> 7 & seed >> 19
            } else {
                seed
            };
            for c in [0u8, 1, 2, 3] {
                let mut want = 0;
                for s in Bitboard(b) {
                    want |= super::super::moves::piece_attacks(c, s as u8, Bitboard(occ)).0;
                }
                assert_eq!(piece_fill(c, b, occ), want, "piece {c} from {b:#x}");
            }
            let mut kings = 0;
            for s in Bitboard(b) {
                kings |= attacks::king_attacks(s).0;
            }
            assert_eq!(king_fill(b), kings);
        }
    }

    /// Every position a king or piece move of `mover` reaches from `r`
    /// (not a capture, not a pawn), by its index in the file's form.
    fn reached_by_moves(layout: &Layout, r: &Raw, mover: Color) -> Vec<usize> {
        let occ = super::super::moves::occupancy(r);
        let mut out = Vec::new();
        let mut add = |c: Raw| out.push(layout.index(&c));
        let k = match mover {
            Color::White => r.wk,
            Color::Black => r.bk,
        };
        for to in attacks::king_attacks(Square::new(u32::from(k))) & !occ {
            let mut c = *r;
            match mover {
                Color::White => c.wk = to as u8,
                Color::Black => c.bk = to as u8,
            }
            add(c);
        }
        for (i, p) in r.pieces().iter().enumerate() {
            if code_color(p.0) != mover || code_is_pawn(p.0) {
                continue;
            }
            for to in super::super::moves::piece_attacks(p.0, p.1, occ) & !occ {
                let mut c = *r;
                c.pc[i].1 = to as u8;
                add(c);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The same through [`Geometry`]: the inner man's fill and the outer
    /// men's steps, each position brought into the file's form.
    fn reached_by_steps(layout: &Layout, idx: usize, mover: Color) -> Vec<usize> {
        let geo = Geometry::new(layout, 0);
        let (tw, b) = (idx / 64, (idx % 64) as u8);
        let o = geo.outer(tw);
        let mut out = Vec::new();
        let mut add = |i: usize| out.push(layout.index(&layout.decode(i)));
        if geo.inner_is(mover, &o.r) {
            for to in Bitboard(geo.inner_fill(&o, 1 << b)) {
                add(tw * 64 + to as usize);
            }
        }
        geo.steps(tw, &o, mover, |w2, keep, t| {
            if keep >> b & 1 == 1 {
                add(w2 * 64 + SQ_T[t as usize][b as usize] as usize);
            }
        });
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn steps_reach_what_moves_reach() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        for name in ["KQvKR", "KRRvKB", "KBNvKN", "KRPvKR", "KPvKP", "KNPvKB"] {
            let layout = Layout::new(name.parse().unwrap());
            let slice_end = layout
                .slices
                .as_ref()
                .map_or(layout.size, |s| s.len() * layout.slice_size);
            let mut checked = 0;
            while checked < 3000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let idx = (seed % slice_end as u64) as usize;
                let r = layout.decode(idx);
                if Layout::overlaps(&r) {
                    continue;
                }
                for mover in [Color::White, Color::Black] {
                    assert_eq!(
                        reached_by_steps(&layout, idx, mover),
                        reached_by_moves(&layout, &r, mover),
                        "{name} {r:?} {mover:?}"
                    );
                }
                checked += 1;
            }
        }
    }
}
