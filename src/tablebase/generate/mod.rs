//! Retrograde generation of one table.
//!
//! Every position has one byte ([`Cells`]) and one bit ([`Done`]): with
//! the bit set the byte is the position's value code, without it a
//! counter of the moves not yet refuted (or [`NOT_LOST`], [`SPECIAL`]).
//!
//! 1. **Initialisation** (parallel over index ranges): every index is
//!    decoded; unused ones (overlapping or non-canonical) and illegal ones
//!    (the side not to move in check) get [`ILLEGAL`]. For a legal
//!    position the legal moves are generated; moves that change the
//!    material (captures, promotions) are looked up in the smaller tables.
//!    Checkmates get "mated in 0"; a position whose moves all leave the
//!    table gets its value at once. Otherwise the best external move
//!    decides: a win in `e` is written as a win in `e` (a quicker one may
//!    replace it), a draw makes the position [`NOT_LOST`] (it can still be
//!    won), else it counts its moves in the table.
//! 2. **Levels** `d = 1, 2, ...` scan the table for the positions valued
//!    `d - 1` plies (eight bytes a load) and un-move them (pieces of the
//!    side that just moved go back to empty squares; no uncaptures, no
//!    unpromotions). If such a position is lost, every predecessor not yet
//!    won as quickly wins in `d`. If it is won, every counting
//!    predecessor's counter drops; at zero it is lost in `max(d, its
//!    longest capture or promotion)` (those are looked up again then).
//!    A loss later than `d` is written at once and found by the scan of
//!    its own level.
//!
//! **Memory.** 1.125 bytes a position and nothing per level: format 1's
//! generator kept a counter, the best external value and lists of the
//! positions found per level (2.5 bytes a position and more; KRPvKR 3.7
//! GB). The scan costs little next to the un-moves.
//!
//! **Symmetry.** Indices hold one position per symmetry class. A move from
//! `p` into the class of `q` matches `|Stab q| / |Stab p|` un-moves from `q`
//! into the class of `p` (orbit counting), so counters start at twice the
//! number of moves and each un-move subtracts `2 |Stab p| / |Stab q|`
//! (1, 2 or 4). Symmetric positions exist only without pawns.
//!
//! **En passant.** Tables store positions without en-passant rights. A
//! double pawn push next to an enemy pawn leads to a position that *has*
//! them, whose value is the better of the table value and the en-passant
//! captures. Positions with such a push (only in KPvKP) are [`SPECIAL`]:
//! evaluated forward at the start of each level instead of counted.
//!
//! **Threads.** The words of [`Cells`] and [`Done`] are atomic: a level
//! splits the scan into ranges and any thread updates any predecessor
//! (a byte changes by compare-and-swap of its word). Updates within a
//! level do not conflict: a level writes only wins (odd `d`) or only
//! counters and losses (even `d`), a win is the same value whoever writes
//! it, and only the thread that brings a counter to zero values it.

use super::index::{Layout, Raw};
use super::material::{code_color, code_is_pawn};
use super::table::{
    ILLEGAL, TableSet, TableStats, UNKNOWN, better, code_of, dist_of, is_loss, is_win, side,
    via_move,
};
use shakmaty::Color;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering::Relaxed};

mod init;
mod moves;
mod propagate;

pub(crate) use super::cells::Cells;
use super::cells::{Done, bytes_equal};
use init::*;
pub(crate) use moves::is_legal;
use moves::*;
use propagate::*;

/// Bytes of a position not done (see [`Done`]) that are not counters:
/// it can no longer be lost (a capture or promotion draws, or it is a
/// draw already), though it may still be won; a draw at the end.
const NOT_LOST: u8 = 0xFF;
/// Not done either: evaluated forward at each level (en passant, or too
/// many moves for a counter); a draw if still unknown at the end.
const SPECIAL: u8 = 0xFE;
/// Longest distance a table may hold: its code (254) and the code one
/// move further (255) fit in a byte.
const GEN_MAX_DIST: u32 = 252;
/// Words of [`Cells`] scanned per job (32,768 positions).
const SCAN_WORDS: usize = 1 << 12;

/// The value of the position after a double push that an enemy pawn may
/// capture en passant, for its side to move (`!mover`), if known yet.
/// `q` is the position without en-passant rights, `q_code` its table value
/// (0 = not known yet); at level `d` unknown positions are at least `d`
/// plies from mate.
fn ep_child_value(
    set: &TableSet,
    q: &Raw,
    mover: Color,
    passed: u8,
    q_code: u8,
    d: u32,
    horizon: &mut u32,
) -> Option<u8> {
    let taker = !mover;
    let pushed = (passed as i8 + if mover == Color::White { 8 } else { -8 }) as u8;
    let occ = occupancy(q);
    let mut best: Option<u8> = None;
    let j = q.pieces().iter().position(|p| p.1 == pushed)?;
    for (i, p) in q.pieces().iter().enumerate() {
        if code_color(p.0) != taker
            || !code_is_pawn(p.0)
            || p.1 >> 3 != pushed >> 3
            || (p.1 & 7).abs_diff(pushed & 7) != 1
        {
            continue;
        }
        let occ2 = (occ ^ bb(p.1) ^ bb(pushed)) | bb(passed);
        let mut c = *q;
        c.pc[i].1 = passed;
        // Is the capturer's king safe? The pushed pawn is gone.
        if attacked(&c, king_of(q, taker), mover, occ2, j) {
            continue;
        }
        let child = without(c, j);
        let v = via_move(set.probe_raw(&child, mover).unwrap_or(UNKNOWN));
        if v >= 2 {
            *horizon = (*horizon).max(dist_of(v));
        }
        best = Some(best.map_or(v, |b| better(b, v)));
    }
    match (q_code, best) {
        (ILLEGAL, _) => None,
        (UNKNOWN, Some(e)) if is_win(e) && dist_of(e) <= d => Some(e),
        (UNKNOWN, _) => None,
        (q, Some(e)) => Some(better(q, e)),
        (q, None) => Some(q),
    }
}

/// Progress of one table's generation.
pub(crate) struct LevelInfo {
    pub ply: u32,
    pub resolved: u64,
}

/// Runs `work` on `threads` scoped threads.
fn parallel<T: Send>(threads: usize, work: impl Fn() -> T + Sync) -> Vec<T> {
    if threads <= 1 {
        return vec![work()];
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(&work)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// A table being generated: a byte per position (a value once done, a
/// counter of unresolved moves before) and a bit saying which.
struct Gen<'a> {
    layout: &'a Layout,
    set: &'a TableSet,
    cells: Cells,
    done: Done,
}

/// The largest code written (a level may write losses beyond itself).
#[derive(Default)]
struct Top(AtomicU8);

impl Top {
    #[inline]
    fn see(&self, code: u8) {
        if code >= 2 {
            self.0.fetch_max(code, Relaxed);
        }
    }

    /// The largest distance present, if any.
    fn dist(&self) -> Option<u32> {
        let c = self.0.load(Relaxed);
        (c >= 2).then(|| dist_of(c))
    }
}

impl Gen<'_> {
    #[inline(always)]
    fn stm_of(&self, i: usize) -> (Color, usize) {
        let size = self.layout.size;
        if i < size {
            (Color::White, i)
        } else {
            (Color::Black, i - size)
        }
    }

    /// The value of position `i` if it is final at level `d` (0 if not):
    /// losses are written only when final; a win is final once the levels
    /// reached it (a quicker one may replace it until then).
    #[inline(always)]
    fn final_at(&self, i: usize, d: u32) -> u8 {
        let v = self.cells.get(i);
        if self.done.get(i) && v >= 2 && (is_loss(v) || dist_of(v) < d) {
            v
        } else {
            UNKNOWN
        }
    }

    /// Initialises every position (`threads` at once); returns the
    /// special positions.
    fn init(&self, threads: usize, top: &Top) -> Vec<u32> {
        // Whole words of both halves per job (the size is a multiple of 64).
        const CHUNK: usize = 1 << 13;
        let (layout, set, size) = (self.layout, self.set, self.layout.size);
        let next = AtomicUsize::new(0);
        let parts = parallel(threads, || {
            let mut specials = Vec::new();
            loop {
                let start = next.fetch_add(CHUNK, Relaxed);
                if start >= size {
                    break;
                }
                let end = (start + CHUNK).min(size);
                let mut words = [[0u64; CHUNK / 8]; 2];
                let mut done = [[0u64; CHUNK / 64]; 2];
                for idx in start..end {
                    let r = layout.decode(idx);
                    let (w, shift, bit) = ((idx - start) >> 3, (idx & 7) * 8, idx - start);
                    if !layout.is_canonical(idx, &r) {
                        for s in 0..2 {
                            words[s][w] |= u64::from(ILLEGAL) << shift;
                            done[s][bit >> 6] |= 1 << (bit & 63);
                        }
                        continue;
                    }
                    let occ = occupancy(&r);
                    // Is White's / Black's king attacked?
                    let checked = [
                        attacked(&r, r.wk, Color::Black, occ, usize::MAX),
                        attacked(&r, r.bk, Color::White, occ, usize::MAX),
                    ];
                    for (s, stm) in [Color::White, Color::Black].into_iter().enumerate() {
                        // Legal: the side not to move is not in check.
                        let result = if checked[1 - s] {
                            Init::Illegal
                        } else {
                            init_position(set, &r, occ, stm, checked[s])
                        };
                        // (byte, done)
                        let (code, is_done) = match result {
                            Init::Illegal => (ILLEGAL, true),
                            Init::Final(UNKNOWN) => (NOT_LOST, false),
                            Init::Final(v) => (v, true),
                            Init::Open {
                                ext: Some(UNKNOWN), ..
                            } => (NOT_LOST, false),
                            // A win by a capture or promotion, unless a
                            // quicker one is found.
                            Init::Open { ext: Some(e), .. } if is_win(e) => (e, true),
                            // Two per move (symmetric positions count by
                            // orbits: see `predecessors_of`).
                            Init::Open { internal, .. } if 2 * internal < u32::from(SPECIAL) => {
                                ((2 * internal) as u8, false)
                            }
                            Init::Special | Init::Open { .. } => {
                                specials.push((s * size + idx) as u32);
                                (SPECIAL, false)
                            }
                        };
                        if is_done {
                            top.see(code);
                            done[s][bit >> 6] |= 1 << (bit & 63);
                        }
                        words[s][w] |= u64::from(code) << shift;
                    }
                }
                for s in 0..2 {
                    let first = s * size + start;
                    for (k, &word) in words[s][..(end - start).div_ceil(8)].iter().enumerate() {
                        self.cells.store_word(first / 8 + k, word);
                    }
                    for (k, &bits) in done[s][..(end - start).div_ceil(64)].iter().enumerate() {
                        self.done.store_word(first / 64 + k, bits);
                    }
                }
            }
            specials
        });
        parts.into_iter().flatten().collect()
    }

    /// Forward evaluation of a special position at the start of level `d`:
    /// its final code if it is known now (0 = draw). `horizon` grows to the
    /// largest distance the answer depends on (past it, waiting for more
    /// levels changes nothing).
    fn forward(&self, i: usize, d: u32, horizon: &mut u32) -> Option<u8> {
        let size = self.layout.size;
        let (stm, idx) = self.stm_of(i);
        let r = self.layout.decode(idx);
        let child_base = side(!stm) * size;
        let mut best: Option<u8> = None;
        let mut all_known = true;
        for_each_move(&r, stm, |mv| {
            let v = match mv {
                Mv::Internal(c) => {
                    let v = self.final_at(child_base + self.layout.index(&c), d);
                    (v != UNKNOWN).then(|| via_move(v))
                }
                Mv::External(c) => Some(via_move(self.set.probe_raw(&c, !stm).unwrap_or(UNKNOWN))),
                Mv::DoublePush(q, passed) => {
                    let qv = self.final_at(child_base + self.layout.index(&q), d);
                    ep_child_value(self.set, &q, stm, passed, qv, d, horizon).map(via_move)
                }
            };
            match v {
                Some(v) => {
                    if v >= 2 {
                        *horizon = (*horizon).max(dist_of(v));
                    }
                    best = Some(best.map_or(v, |b| better(b, v)));
                }
                None => all_known = false,
            }
            true
        });
        match best {
            Some(b) if is_win(b) && dist_of(b) <= d + 1 => Some(b),
            _ if all_known => Some(best.unwrap_or(UNKNOWN)),
            _ => None,
        }
    }

    /// Level `d`, first step: the special positions (with en passant)
    /// evaluated forward; those known now leave `specials`. Returns the
    /// largest distance the ones left wait for.
    fn forward_specials(&self, specials: &mut Vec<u32>, d: u32, top: &Top) -> u32 {
        let mut horizon = 0;
        let mut found = Vec::new();
        specials.retain(|&i| match self.forward(i as usize, d, &mut horizon) {
            None => true,
            Some(UNKNOWN) => false,
            Some(v) => {
                found.push((i, v));
                false
            }
        });
        for (i, v) in found {
            self.cells.set(i as usize, v);
            self.done.set(i as usize);
            top.see(v);
        }
        horizon
    }

    /// The longest loss among the captures and promotions of position
    /// `i`, whose moves in the table are all won for the opponent (its
    /// other moves all lose, or it would not have been counted): 0 if it
    /// has none.
    fn ext_loss(&self, i: usize) -> u32 {
        let (stm, idx) = self.stm_of(i);
        let r = self.layout.decode(idx);
        let mut longest = 0;
        for_each_move(&r, stm, |mv| {
            if let Mv::External(c) = mv {
                let v = via_move(self.set.probe_raw(&c, !stm).unwrap_or(UNKNOWN));
                debug_assert!(is_loss(v), "a counted position's capture does not lose");
                if is_loss(v) {
                    longest = longest.max(dist_of(v));
                }
            }
            true
        });
        longest
    }

    /// Level `d`: the positions found at `d - 1` give their predecessors
    /// a value. Returns how many positions it looked at.
    fn level(&self, d: u32, threads: usize, top: &Top) -> u64 {
        let target = code_of(d - 1);
        let words = self.cells.words();
        let next = AtomicUsize::new(0);
        let counts = parallel(threads, || {
            let mut found = 0u64;
            loop {
                let start = next.fetch_add(SCAN_WORDS, Relaxed);
                if start >= words {
                    break;
                }
                for w in start..(start + SCAN_WORDS).min(words) {
                    let mut m = bytes_equal(self.cells.word(w), target);
                    if m != 0 {
                        m &= self.done.byte_mask(w);
                    }
                    while m != 0 {
                        let i = 8 * w + (m.trailing_zeros() / 8) as usize;
                        m &= m - 1;
                        if i < self.cells.len() {
                            found += 1;
                            self.predecessors_of(i, d, top);
                        }
                    }
                }
            }
            found
        });
        counts.into_iter().sum()
    }

    /// The predecessors of position `i`, valued `d - 1`.
    #[inline]
    fn predecessors_of(&self, i: usize, d: u32, top: &Top) {
        let (stm, idx) = self.stm_of(i);
        let r = self.layout.decode(idx);
        let mover = !stm;
        let base = side(mover) * self.layout.size;
        let (cells, done) = (&self.cells, &self.done);
        if d % 2 == 1 {
            // `i` is lost: its predecessors win in `d`, unless quicker.
            let win = code_of(d);
            let mut any = false;
            for_each_predecessor(self.layout, &r, idx, mover, false, |p, _| {
                let p = base + p;
                if done.get(p) {
                    // A win by a capture or promotion, slower?
                    let quicker = |v: u8| (v >= 2 && is_win(v) && dist_of(v) > d).then_some(win);
                    any |= cells.update(p, quicker).is_some();
                } else if cells.update(p, |v| (v != SPECIAL).then_some(win)).is_some() {
                    done.set(p);
                    any = true;
                }
            });
            if any {
                top.see(win);
            }
        } else {
            // `i` is won: one move fewer to refute for each predecessor. A
            // move from `p` into the class of `i` matches
            // `|Stab i| / |Stab p|` un-moves from `i` into the class of
            // `p` (orbit counting), so counters start at twice the moves
            // and each un-move takes `2 |Stab p| / |Stab i|`.
            let q_stab = if !self.layout.pawns && r.is_symmetric() {
                2
            } else {
                1
            };
            for_each_predecessor(self.layout, &r, idx, mover, true, |p, p_stab| {
                let p = base + p;
                if done.get(p) {
                    return;
                }
                let w = 2 * p_stab / q_stab;
                let left = cells.update(p, |v| {
                    debug_assert!(v == 0 || v >= SPECIAL || v >= w, "counter below zero");
                    (v > 0 && v < SPECIAL).then(|| v.saturating_sub(w))
                });
                if left == Some(0) {
                    // Every move lost: mated in `d`, or later if a capture
                    // or promotion resists longer.
                    let code = code_of(d.max(self.ext_loss(p)));
                    cells.set(p, code);
                    done.set(p);
                    top.see(code);
                }
            });
        }
    }
}

/// Generates a table from the smaller tables in `set` (which must hold
/// every table a capture or promotion leads to) on `threads` threads.
/// Returns the value codes, `[White to move | Black to move]`, with
/// [`ILLEGAL`] at unused indices.
pub(crate) fn generate(
    layout: &Layout,
    set: &TableSet,
    threads: usize,
    mut level: impl FnMut(LevelInfo),
) -> Result<Cells, String> {
    let threads = threads.max(1);
    let g = Gen {
        layout,
        set,
        cells: Cells::new(2 * layout.size, UNKNOWN),
        done: Done::new(2 * layout.size),
    };
    let top = Top::default();
    let mut specials = g.init(threads, &top);
    let too_long = || {
        format!(
            "{}: mates longer than {GEN_MAX_DIST} plies",
            layout.material
        )
    };
    let mut resolved = 0;
    let mut d: u32 = 1;
    // Specials may wait for the level to pass a distance they depend on.
    let mut horizon = if specials.is_empty() { 0 } else { GEN_MAX_DIST };
    loop {
        if top.dist().is_some_and(|t| t > GEN_MAX_DIST) {
            return Err(too_long());
        }
        let busy = top.dist().is_some_and(|t| t + 1 >= d);
        if !busy && (specials.is_empty() || d > horizon + 2) {
            break;
        }
        if d > GEN_MAX_DIST + 1 {
            return Err(too_long());
        }
        horizon = g.forward_specials(&mut specials, d, &top);
        resolved += g.level(d, threads, &top);
        level(LevelInfo { ply: d, resolved });
        d += 1;
    }
    // What is not won or lost is drawn.
    for w in 0..g.cells.words() {
        let (word, mask) = (g.cells.word(w), g.done.byte_mask(w));
        // Keep the bytes of done positions: spread each byte's high bit.
        let keep = (mask >> 7) * 0xFF;
        g.cells.store_word(w, word & keep);
    }
    Ok(g.cells)
}

/// Counts wins, draws and losses over all positions of the board (each
/// canonical position weighted by the size of its symmetry class), from
/// freshly generated values ([`ILLEGAL`] marks what is not a position).
pub(crate) fn stats(layout: &Layout, values: &Cells, threads: usize) -> TableStats {
    let size = layout.size;
    let next = AtomicUsize::new(0);
    let per_side = |k: usize| {
        let mut s = super::table::SideStats::default();
        let order = layout.group_order();
        for idx in 0..size {
            let v = values.get(k * size + idx);
            if v == ILLEGAL {
                continue;
            }
            let w = if !layout.pawns
                && layout.king_on_diagonal(idx)
                && layout.decode(idx).is_symmetric()
            {
                order / 2
            } else {
                order
            };
            s.positions += w;
            if is_win(v) {
                s.wins += w;
                s.longest_win = s.longest_win.max(dist_of(v));
            } else if is_loss(v) {
                s.losses += w;
                s.longest_loss = s.longest_loss.max(dist_of(v));
            } else {
                s.draws += w;
            }
        }
        s
    };
    let parts = parallel(threads.clamp(1, 2), || {
        let mut out = Vec::new();
        loop {
            let k = next.fetch_add(1, Relaxed);
            if k >= 2 {
                break;
            }
            out.push((k, per_side(k)));
        }
        out
    });
    let mut st = TableStats::default();
    for (k, s) in parts.into_iter().flatten() {
        st.sides[k] = s;
    }
    st
}
