//! Phase 1 of generation: every position of a window gets its first
//! byte and bits, a word (64 positions) at a time; the best value among
//! a position's moves that leave the window (captures, promotions) is
//! found one position at a time, pawn pushes a word at a time.

use crate::tablebase::index::Raw;
use crate::tablebase::material::{code, code_color, code_is_pawn};
use crate::tablebase::table::{TableSet, UNKNOWN, better, via_move};
use shakmaty::{Bitboard, Color, Role, attacks};

use super::words::{KING, Man};
use super::*;

/// The best value among the moves of one legal position that leave the
/// window (captures, promotions, pawn pushes), if it has any.
/// `pushed(c, passed)` is the value, for its side to move, of the position
/// `c` a pawn push leads to (`passed`: the square a double push passed
/// when an enemy pawn may take en passant); `None` leaves pushes out.
#[inline]
pub(super) fn externals(
    set: &TableSet,
    r: &Raw,
    occ: Bitboard,
    stm: Color,
    in_check: bool,
    pushed: impl Fn(&Raw, Option<u8>) -> Option<u8>,
) -> Option<u8> {
    let r = *r;
    let own_k = king_of(&r, stm);
    let opp_k = king_of(&r, !stm);
    let (own, theirs) = sides(&r, stm, own_k);
    // Squares the enemy attacks, seen through our king (for king moves).
    let occ_nk = occ ^ bb(own_k);
    let mut enemy = attacks::king_attacks(sq(opp_k));
    let mut pinned = false;
    for p in r.pieces() {
        if code_color(p.0) != stm {
            enemy |= piece_attacks(p.0, p.1, occ_nk);
            if !in_check
                && p.0 % 5 <= 2
                && piece_attacks(p.0, p.1, Bitboard::EMPTY).contains(sq(own_k))
            {
                let between = attacks::between(sq(own_k), sq(p.1)) & occ;
                if between.count() == 1 && (between & own).any() {
                    pinned = true;
                }
            }
        }
    }
    // The best move leaving the window, from the child's value.
    let mut ext: Option<u8> = None;
    let add = |ext: &mut Option<u8>, child: u8| {
        let v = via_move(child);
        *ext = Some(ext.map_or(v, |e| better(e, v)));
    };
    let probe = |c: &Raw| set.probe_raw(c, !stm).unwrap_or(UNKNOWN);
    if in_check || pinned {
        // Careful path: test every move.
        for_each_move(&r, stm, |mv| {
            match mv {
                Mv::Internal => {}
                Mv::Push(c, passed) => {
                    if let Some(v) = pushed(&c, passed) {
                        add(&mut ext, v);
                    }
                }
                Mv::External(c) => add(&mut ext, probe(&c)),
            }
            true
        });
    } else {
        // Every pseudo-legal move but the king's is legal.
        let victim = |to: u8| -> usize {
            r.pieces()
                .iter()
                .position(|p| p.1 == to)
                .unwrap_or(usize::MAX)
        };
        let kt = attacks::king_attacks(sq(own_k)) & !own & !enemy;
        for to in kt & theirs {
            let to = to as u8;
            let mut c = r;
            match stm {
                Color::White => c.wk = to,
                Color::Black => c.bk = to,
            }
            add(&mut ext, probe(&without(c, victim(to))));
        }
        for i in 0..r.n as usize {
            let (pc, from) = r.pc[i];
            if code_color(pc) != stm {
                continue;
            }
            if code_is_pawn(pc) {
                let (step, last, second): (i8, u8, u8) = match stm {
                    Color::White => (8, 7, 1),
                    Color::Black => (-8, 0, 6),
                };
                let promote = |to: u8, j: usize, ext: &mut Option<u8>| {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        let mut c = r;
                        c.pc[i] = (code(stm, role), to);
                        add(ext, probe(&if j == usize::MAX { c } else { without(c, j) }));
                    }
                };
                let to = (from as i8 + step) as u8;
                if !occ.contains(sq(to)) {
                    if to >> 3 == last {
                        promote(to, usize::MAX, &mut ext);
                    } else {
                        let mut c = r;
                        c.pc[i].1 = to;
                        if let Some(v) = pushed(&c, None) {
                            add(&mut ext, v);
                        }
                        let to2 = (to as i8 + step) as u8;
                        if from >> 3 == second && !occ.contains(sq(to2)) {
                            c.pc[i].1 = to2;
                            if let Some(v) = pushed(&c, ep_target(&r, stm, to2).then_some(to)) {
                                add(&mut ext, v);
                            }
                        }
                    }
                }
                for to in attacks::pawn_attacks(stm, sq(from)) & theirs {
                    let to = to as u8;
                    let j = victim(to);
                    if to >> 3 == last {
                        promote(to, j, &mut ext);
                    } else {
                        let mut c = r;
                        c.pc[i].1 = to;
                        add(&mut ext, probe(&without(c, j)));
                    }
                }
            } else {
                let t = piece_attacks(pc, from, occ) & !own & !bb(opp_k);
                for to in t & theirs {
                    let to = to as u8;
                    let mut c = r;
                    c.pc[i].1 = to;
                    add(&mut ext, probe(&without(c, victim(to))));
                }
            }
        }
    }
    ext
}

/// The best value found so far among moves leaving the window, for each
/// position of a word.
struct Best {
    value: [u8; WORD],
    /// The positions with such a move.
    any: u64,
}

impl Best {
    /// A move of position `b` leads to a position valued `child`.
    #[inline(always)]
    fn put(&mut self, b: usize, child: u8) {
        let v = via_move(child);
        let bit = 1u64 << b;
        self.value[b] = if self.any & bit != 0 {
            better(self.value[b], v)
        } else {
            v
        };
        self.any |= bit;
    }

    /// A move of each position of `bits` leads to one position.
    #[inline]
    fn put_all(&mut self, bits: u64, child: u8) {
        for b in Bitboard(bits) {
            self.put(b as usize, child);
        }
    }
}

/// A man of `stm` that can take: the king (`None`) or piece slot `i`,
/// its code ([`KING`] for the king) and square.
type Taker = (Option<usize>, u8, u8);

/// The squares a man of `stm` (code `c`, [`KING`] for the king) on `s`
/// can take on, the outer men on `occ`.
#[inline(always)]
fn takes(c: u8, s: u8, stm: Color, occ: u64) -> u64 {
    if code_is_pawn(c) {
        attacks::pawn_attacks(stm, sq(s)).0
    } else {
        words::man_attacks(c, s, occ)
    }
}

/// One word's captures and promotions, `stm` to move: what every kind of
/// capture needs to know.
struct Captures<'a> {
    o: &'a Outer,
    stm: Color,
    /// The legal positions of the word.
    legal: u64,
    /// The inner man's slot (`None`: it is the Black king).
    inner: Option<usize>,
    /// The mover's king, unless it is the inner man.
    king: Option<u8>,
    /// The mover's pawns' last rank and step.
    last: u8,
    step: i8,
    /// The mover's outer men that can take.
    takers: [Taker; 4],
    n: usize,
}

impl<'a> Captures<'a> {
    fn new(geo: &Geometry, o: &'a Outer, stm: Color, legal: u64) -> Captures<'a> {
        let inner = match geo.inner {
            Man::Slot(i) => Some(i),
            Man::King(_) => None,
        };
        let king = (geo.inner != Man::King(stm)).then(|| king_of(&o.r, stm));
        let (last, step) = match stm {
            Color::White => (7, 8),
            Color::Black => (0, -8),
        };
        let mut takers: [Taker; 4] = [(None, 0, 0); 4];
        let mut n = 0;
        if let Some(k) = king {
            takers[0] = (None, KING, k);
            n = 1;
        }
        for (i, p) in o.r.pieces().iter().enumerate() {
            if code_color(p.0) == stm && Some(i) != inner {
                takers[n] = (Some(i), p.0, p.1);
                n += 1;
            }
        }
        Captures {
            o,
            stm,
            legal,
            inner,
            king,
            last,
            step,
            takers,
            n,
        }
    }

    fn takers(&self) -> &[Taker] {
        &self.takers[..self.n]
    }

    /// The enemy's outer men that can be taken: slot and square.
    fn victims(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.o
            .r
            .pieces()
            .iter()
            .enumerate()
            .filter(move |&(j, p)| code_color(p.0) != self.stm && Some(j) != self.inner)
            .map(|(j, p)| (j, p.1))
    }
}

/// What a man of code `c` becomes on the last rank: a pawn any piece; any
/// other man itself (one pass, the role unused).
fn promotions(c: u8) -> &'static [Role] {
    if code_is_pawn(c) {
        &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
    } else {
        &[Role::Pawn]
    }
}

impl Gen<'_> {
    /// The best value among the captures and promotions of the positions
    /// `legal` of word `o` (`stm` to move), a word at a time (pawn pushes
    /// are [`Gen::push_values`]'). A move of two outer men leads to one
    /// word of the smaller table for all 64 positions (read at once where
    /// the index allows), the inner man taking an outer one to a single
    /// position, an outer man taking the inner one to positions that differ
    /// in the taker's square. Whether the mover's king is safe after the
    /// move is a bit set too ([`Geometry::king_hit`]). Not for tables with
    /// pawns and pieces of one kind, whose pushes go one position at a time
    /// (see [`externals`]).
    fn externals_word(&self, o: &Outer, stm: Color, legal: u64) -> Best {
        let mut best = Best {
            value: [UNKNOWN; WORD],
            any: 0,
        };
        let w = Captures::new(&self.geo, o, stm, legal);
        self.outer_takes_outer(&w, &mut best);
        let (inner_code, inner_color) = self.geo.inner_man(o);
        if inner_color == stm {
            self.inner_takes_outer(&w, inner_code, &mut best);
        } else if let Some(i) = w.inner {
            self.outer_takes_inner(&w, i, &mut best);
        }
        best
    }

    /// An outer man takes an outer one, or a pawn promotes: one read of
    /// the smaller table for the word.
    fn outer_takes_outer(&self, w: &Captures, best: &mut Best) {
        let (geo, o, r, stm, legal, king) = (&self.geo, w.o, &w.o.r, w.stm, w.legal, w.king);
        let (last, step) = (w.last, w.step);
        for &(xi, xc, x) in w.takers() {
            let reach = takes(xc, x, stm, o.occ);
            let mut moves = [(0u8, usize::MAX); 4];
            let mut m = 0;
            for (j, v) in w.victims() {
                if reach >> v & 1 == 1 {
                    moves[m] = (v, j);
                    m += 1;
                }
            }
            if code_is_pawn(xc) {
                let to = (x as i8 + step) as u8;
                if to >> 3 == last && o.occ >> to & 1 == 0 {
                    moves[m] = (to, usize::MAX);
                    m += 1;
                }
            }
            for &(to, j) in &moves[..m] {
                let gone = if j == usize::MAX { 0 } else { 1u64 << to };
                let path = attacks::between(sq(x), sq(to)).0 | (1u64 << to & !gone);
                let occ = (o.occ & !(1u64 << x)) | 1u64 << to;
                let safe = !geo.king_hit(
                    o,
                    stm,
                    if xi.is_none() { Some(to) } else { king },
                    occ,
                    gone,
                );
                let mask = legal & !path & safe;
                if mask == 0 {
                    continue;
                }
                let promote = to >> 3 == last;
                for &role in promotions(xc) {
                    let mut c = *r;
                    match xi {
                        None if stm == Color::White => c.wk = to,
                        None => c.bk = to,
                        Some(i) => {
                            c.pc[i].1 = to;
                            if promote {
                                c.pc[i].0 = code(stm, role);
                            }
                        }
                    }
                    let (c, man) = match geo.inner {
                        _ if j == usize::MAX => (c, geo.inner),
                        Man::Slot(i) => (without(c, j), Man::Slot(i - usize::from(j < i))),
                        king => (without(c, j), king),
                    };
                    self.children(best, &c, man, stm, mask);
                }
            }
        }
    }

    /// The inner man (`code`) takes an outer one: one position.
    fn inner_takes_outer(&self, w: &Captures, code: u8, best: &mut Best) {
        let (geo, o, stm) = (&self.geo, w.o, w.stm);
        for (j, v) in w.victims() {
            let from = words::man_attacks(code, v, o.occ) & w.legal;
            if from == 0 {
                continue;
            }
            let gone = 1u64 << v;
            if geo.outer_attack(o, !stm, w.king.unwrap_or(v), o.occ, gone) {
                continue;
            }
            let mut c = o.r;
            geo.place_inner(&mut c, v);
            let child = self.set.probe_raw(&without(c, j), !stm);
            best.put_all(from, child.unwrap_or(UNKNOWN));
        }
    }

    /// An outer man takes the inner one (slot `i`): the positions it
    /// reaches differ only in the taker's square (a pawn's one by one).
    fn outer_takes_inner(&self, w: &Captures, i: usize, best: &mut Best) {
        let (geo, o, r, stm) = (&self.geo, w.o, &w.o.r, w.stm);
        for &(xi, xc, x) in w.takers() {
            let from = 1u64 << x;
            let occ = o.occ & !from;
            let targets = takes(xc, x, stm, o.occ) & w.legal;
            if targets == 0 {
                continue;
            }
            // Where the mover's king would stand attacked, the inner
            // man gone: the king on the square it takes on, or its
            // king in check unless the taker blocks.
            let enemies = geo.outer_men(o, !stm);
            let hit = match (xi, w.king) {
                (None, _) => enemies.fold(0, |a, (c, s)| a | words::man_attacks(c, s, occ)),
                (Some(_), Some(k)) => enemies.fold(0, |a, (c, s)| {
                    if words::man_attacks(c, s, occ) >> k & 1 == 1 {
                        a | !attacks::between(sq(s), sq(k)).0
                    } else {
                        a
                    }
                }),
                (Some(_), None) => !0,
            };
            let mask = targets & !hit;
            if mask == 0 {
                continue;
            }
            if !code_is_pawn(xc) {
                let man = match xi {
                    None => Man::King(stm),
                    Some(k) => Man::Slot(k - usize::from(i < k)),
                };
                self.children(best, &without(*r, i), man, stm, mask);
                continue;
            }
            let k = xi.unwrap_or(usize::MAX);
            for b in Bitboard(mask) {
                let b = b as u8;
                for &role in promotions(xc) {
                    let mut c = *r;
                    c.pc[k].1 = b;
                    if b >> 3 == w.last {
                        c.pc[k].0 = code(stm, role);
                    }
                    let child = self.set.probe_raw(&without(c, i), !stm);
                    best.put(b as usize, child.unwrap_or(UNKNOWN));
                }
            }
        }
    }

    /// The positions `mask` of a word, each led to by a move to `c` with
    /// `man` of `c` on its square: read at once where the table's index
    /// allows, else one by one.
    #[inline]
    fn children(&self, best: &mut Best, c: &Raw, man: Man, stm: Color, mask: u64) {
        if let Some(w) = self.set.probe_word(c, man, !stm) {
            for b in Bitboard(mask) {
                best.put(b as usize, w[b as usize]);
            }
            return;
        }
        for b in Bitboard(mask) {
            let mut c = *c;
            match man {
                Man::Slot(i) => c.pc[i].1 = b as u8,
                Man::King(Color::White) => c.wk = b as u8,
                Man::King(Color::Black) => c.bk = b as u8,
            }
            best.put(b as usize, self.set.probe_raw(&c, !stm).unwrap_or(UNKNOWN));
        }
    }

    /// Initialises every position (`threads` at once), a word of each
    /// half at a time: first the unused and illegal positions (bit sets),
    /// then the others from their moves (which have a move in the window:
    /// a step to a legal position; the moves leaving it one by one, where
    /// there may be some).
    pub(super) fn init(&self, threads: usize, top: &Top) {
        let half = self.half();
        for_words(threads, half, |lw| {
            let o = self.outer(self.geo.base_word + lw);
            for (s, illegal) in self.geo.illegal(&o).into_iter().enumerate() {
                let w = s * half + lw;
                self.write(w, illegal, ILLEGAL);
                self.done.store_word(w, illegal);
                self.good.store_word(w, illegal);
            }
        });
        for_words(threads, half, |lw| {
            let o = self.outer(self.geo.base_word + lw);
            if !o.valid {
                return;
            }
            for (s, stm) in [Color::White, Color::Black].into_iter().enumerate() {
                self.init_word(s * half + lw, &o, stm, (1 - s) * half + lw, top);
            }
        });
    }

    /// Initialises the legal positions of window word `w` (outer men `o`,
    /// `stm` to move; `other`: the word of the same positions with the
    /// other side to move).
    #[inline]
    fn init_word(&self, w: usize, o: &Outer, stm: Color, other: usize, top: &Top) {
        let illegal = self.done.word(w);
        let legal = !illegal;
        if legal == 0 {
            return;
        }
        // The side to move's king attacked: illegal with the other side to
        // move (no overlaps among legal positions). Until the levels, the
        // good positions are the illegal ones (done ones are being added).
        let checked = self.good.word(other);
        let internal = self.escapes(w, legal);
        // Pawn pushes a word at a time where the pushed slice holds the
        // same word (pieces in any order need sorting: one at a time).
        let word_pushes = self.pushed.is_some() && !self.layout.identical;
        let mut pushes = [UNKNOWN; WORD];
        let pushed_any = if word_pushes {
            self.push_values(o, w % self.half(), stm, legal, &mut pushes)
        } else {
            0
        };
        // Captures and promotions a word at a time, unless pawn pushes go
        // one position at a time (with pieces of one kind, whose pushed
        // positions need sorting): then with them.
        let word_ext =
            (word_pushes || self.pushed.is_none()).then(|| self.externals_word(o, stm, legal));
        let leave = if word_ext.is_some() {
            0
        } else {
            self.geo.may_leave(o, stm, !word_pushes) & legal
        };
        let mut bytes = [0u8; WORD];
        for (k, b) in bytes.chunks_exact_mut(8).enumerate() {
            b.copy_from_slice(&self.cells.word(8 * w + k).to_le_bytes());
        }
        // Positions with neither a move leaving the window nor one inside
        // it (mate or stalemate) are few; those with only moves inside it
        // keep their byte (UNKNOWN, from `Gen::new`): only the rest is
        // looked at one by one.
        let ext_any = leave | pushed_any | word_ext.as_ref().map_or(0, |e| e.any);
        let mut done = illegal;
        let mut seen = [0u64; 4];
        for b in Bitboard(legal & (ext_any | !internal)) {
            let bit = 1u64 << b as u8;
            let mut ext = if leave & bit != 0 {
                let mut r = o.r;
                self.geo.place_inner(&mut r, b as u8);
                let occ = Bitboard(o.occ) | Bitboard(bit);
                externals(self.set, &r, occ, stm, checked & bit != 0, |c, passed| {
                    (!word_pushes).then(|| self.pushed_value(c, stm, passed))
                })
            } else {
                word_ext
                    .as_ref()
                    .and_then(|e| (e.any & bit != 0).then(|| e.value[b as usize]))
            };
            if pushed_any & bit != 0 {
                let v = pushes[b as usize];
                ext = Some(ext.map_or(v, |e| better(e, v)));
            }
            let (code, is_done) = match (internal & bit != 0, ext) {
                // No move: mate or stalemate.
                (false, None) if checked & bit != 0 => (code_of(0), true),
                (false, None) => (NOT_LOST, false),
                // Drawn by a move leaving the window (or stalemate-like):
                // it can still be won.
                (_, Some(UNKNOWN)) => (NOT_LOST, false),
                // Every move leaves the window.
                (false, Some(v)) => (v, true),
                // A win by a move leaving the window, unless a quicker one
                // is found.
                (true, Some(e)) if is_win(e) => (e, true),
                // Every move leaving the window loses: the longest loss
                // among them (0: none).
                (true, Some(e)) => (e, false),
                (true, None) => (UNKNOWN, false),
            };
            bytes[b as usize] = code;
            if is_done {
                done |= bit;
                // Code 1 here is mated in MAX_DIST (illegal ones are not
                // in `legal`).
                if code != UNKNOWN {
                    seen[(code >> 6) as usize] |= 1 << (code & 63);
                }
            }
        }
        for (k, b) in bytes.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(b.try_into().unwrap_or_default());
            self.cells.store_word(8 * w + k, word);
        }
        self.done.store_word(w, done);
        for (i, &bits) in seen.iter().enumerate() {
            for c in Bitboard(bits) {
                let code = (64 * i + c as usize) as u8;
                self.mark(w / CHUNK_WORDS, code);
                top.see(code);
            }
        }
    }

    /// The best value of `stm`'s pawn pushes (not promotions) from the
    /// positions `legal` of window word `lw` of its half (outer men `o`)
    /// into `best`: a push leads to the same word of the pushed slice (or
    /// of its mirror image), where illegal positions say the push was. Returns
    /// the positions with a push.
    fn push_values(
        &self,
        o: &Outer,
        lw: usize,
        stm: Color,
        legal: u64,
        best: &mut [u8; WORD],
    ) -> u64 {
        let (Some(fin), Some(slices)) = (self.pushed, self.layout.slices.as_deref()) else {
            return 0;
        };
        let (step, second, last): (i8, u8, u8) = match stm {
            Color::White => (8, 1, 7),
            Color::Black => (-8, 6, 0),
        };
        let mut any = 0u64;
        for (i, &(c, from)) in o.r.pieces().iter().enumerate() {
            if !code_is_pawn(c) || code_color(c) != stm {
                continue;
            }
            let to = (from as i8 + step) as u8;
            if to >> 3 == last || o.occ >> to & 1 == 1 {
                continue;
            }
            // The single push, and the double one if the square is free.
            let to2 = (to as i8 + step) as u8;
            let double = from >> 3 == second && o.occ >> to2 & 1 == 0;
            let targets = [
                Some((to, None)),
                double.then(|| (to2, ep_target(&o.r, stm, to2).then_some(to))),
            ];
            for (dest, passed) in targets.into_iter().flatten() {
                let mut q = o.r;
                q.pc[i].1 = dest;
                let sorted = Layout::sorted(q);
                let Some((s, mirror)) = slices.find(slices.slots.iter().map(|&j| sorted.pc[j].1))
                else {
                    continue;
                };
                let (word, t) = if mirror {
                    (self.layout.slice_word(&sorted.transformed(1)), 1)
                } else {
                    (lw, 0)
                };
                let values = fin.word(self.layout, s, !stm, word);
                // The pawn's path must be free of the inner man.
                let mut bits = legal & !(1u64 << to) & !(1u64 << dest);
                while bits != 0 {
                    let b = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    let v = values[(b ^ if t == 1 { 7 } else { 0 }) as usize];
                    if v == ILLEGAL {
                        continue;
                    }
                    let v = match passed {
                        None => v,
                        Some(p) => {
                            let mut r = q;
                            self.geo.place_inner(&mut r, b);
                            ep_value(self.set, &r, stm, p, v)
                        }
                    };
                    let v = via_move(v);
                    let bit = 1u64 << b;
                    best[b as usize] = if any & bit != 0 {
                        better(best[b as usize], v)
                    } else {
                        v
                    };
                    any |= bit;
                }
            }
        }
        any
    }
}
