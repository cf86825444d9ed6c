//! Retrograde generation of one table.
//!
//! A table without pawns is made whole; a table with pawns one pawn
//! configuration (a *slice* of its index, see [`super::slices`]) at a
//! time, the most advanced first ([`sliced`]). Either way a *window* of
//! positions is worked on: every position has one byte ([`Cells`]) and one
//! bit ([`Done`]): with the bit set the byte is the position's value code,
//! without it a counter of the moves not yet refuted (or [`NOT_LOST`]).
//!
//! 1. **Initialisation** (parallel over index ranges): every index is
//!    decoded; unused ones (overlapping or non-canonical) and illegal ones
//!    (the side not to move in check) get [`ILLEGAL`]. For a legal
//!    position the legal moves are generated; moves that leave the window
//!    (captures and promotions to the smaller tables, pawn pushes to the
//!    finished slices) are looked up. Checkmates get "mated in 0"; a
//!    position whose moves all leave the window gets its value at once.
//!    Otherwise the best move leaving it decides: a win in `e` is written
//!    as a win in `e` (a quicker one may replace it), a draw makes the
//!    position [`NOT_LOST`] (it can still be won), else it counts its moves
//!    in the window.
//! 2. **Levels** `d = 1, 2, ...` scan the window for the positions valued
//!    `d - 1` plies (eight bytes a load; a level with none is skipped)
//!    and un-move them (a king or piece of the side that just moved goes
//!    back to an empty square; pawns never move back: that would leave the
//!    slice). If such a position is lost, every predecessor not yet won as
//!    quickly wins in `d`. If it is won, every counting predecessor's
//!    counter drops; at zero it is lost in `max(d, its longest move
//!    leaving the window)` (those are looked up again then). A loss later
//!    than `d` is written at once and found by the scan of its own level.
//!
//! **Memory.** 1.125 bytes a position of the window and nothing per level.
//!
//! **Symmetry.** Without pawns, indices hold one position per symmetry
//! class. A move from `p` into the class of `q` matches
//! `|Stab q| / |Stab p|` un-moves from `q` into the class of `p` (orbit
//! counting), so counters start at twice the number of moves and each
//! un-move subtracts `2 |Stab p| / |Stab q|` (1, 2 or 4). With pawns the
//! mirror is taken by the slice, and inside a slice there is none.
//!
//! **En passant.** Tables store positions without en-passant rights. A
//! double pawn push next to an enemy pawn leads to a position that *has*
//! them, whose value is the better of the table value (its slice is
//! finished) and the en-passant captures (smaller tables).
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
    ILLEGAL, SideStats, TableSet, TableStats, UNKNOWN, better, code_of, dist_of, is_loss, is_win,
    side, via_move,
};
use shakmaty::Color;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};

mod init;
mod moves;
mod propagate;
mod sliced;

pub(crate) use super::cells::Cells;
use super::cells::{Done, bytes_equal};
use init::*;
pub(crate) use moves::is_legal;
use moves::*;
use propagate::*;
use sliced::Finished;

/// Bytes of a position not done (see [`Done`]) that are not counters:
/// it can no longer be lost (a move leaving the window draws, or it is a
/// draw already), though it may still be won; a draw at the end.
const NOT_LOST: u8 = 0xFF;
/// Longest distance a table may hold: its code (254) and the code one
/// move further (255) fit in a byte.
const GEN_MAX_DIST: u32 = 252;
/// Positions per chunk of [`Gen::marks`] (a power of two; windows are
/// whole chunks).
const MARK_SHIFT: usize = 12;
/// Chunks scanned per job (32,768 positions).
const SCAN_CHUNKS: usize = 8;
/// Counters start at twice the moves: at most this many moves are
/// counted in a byte (below [`NOT_LOST`]).
const MAX_COUNTED: u32 = 126;

/// The value, for its side to move, of the position after `mover`'s
/// double push that an enemy pawn may capture en passant: the better of
/// `q_code` (its value without en-passant rights) and the captures. `q`
/// is the position, `passed` the square the pawn passed.
fn ep_value(set: &TableSet, q: &Raw, mover: Color, passed: u8, q_code: u8) -> u8 {
    let taker = !mover;
    let pushed = (passed as i8 + if mover == Color::White { 8 } else { -8 }) as u8;
    let occ = occupancy(q);
    let mut best = q_code;
    let Some(j) = q.pieces().iter().position(|p| p.1 == pushed) else {
        return best;
    };
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
        best = better(
            best,
            via_move(set.probe_raw(&child, mover).unwrap_or(UNKNOWN)),
        );
    }
    best
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

/// The codes written so far (a level may write losses beyond itself).
#[derive(Default)]
struct Top {
    max: AtomicU8,
    seen: [AtomicU64; 4],
}

impl Top {
    #[inline]
    fn see(&self, code: u8) {
        if code < 2 {
            return;
        }
        // Read first: the words are shared by every thread.
        if code > self.max.load(Relaxed) {
            self.max.fetch_max(code, Relaxed);
        }
        let (w, bit) = ((code >> 6) as usize, 1u64 << (code & 63));
        if self.seen[w].load(Relaxed) & bit == 0 {
            self.seen[w].fetch_or(bit, Relaxed);
        }
    }

    /// Was `code` ever written?
    fn has(&self, code: u8) -> bool {
        self.seen[(code >> 6) as usize].load(Relaxed) >> (code & 63) & 1 == 1
    }

    /// The largest distance present, if any.
    fn dist(&self) -> Option<u32> {
        let c = self.max.load(Relaxed);
        (c >= 2).then(|| dist_of(c))
    }
}

/// A window of a table being generated: indices `base..base + len` of
/// each side to move, a byte per position (a value once done, a counter
/// of unresolved moves before) and a bit saying which.
struct Gen<'a> {
    layout: &'a Layout,
    set: &'a TableSet,
    base: usize,
    len: usize,
    cells: Cells,
    done: Done,
    /// Done positions won by a move leaving the window, which a quicker
    /// win in the window may still replace (no other done value changes:
    /// a level skips their bytes).
    provisional: Done,
    /// The finished slices pawn pushes lead to (tables with pawns).
    pushed: Option<&'a Finished>,
    /// Does one thread work on the window (plain loads and stores)?
    alone: bool,
    /// The codes written in each chunk of `1 << MARK_SHIFT` positions (a
    /// code replaced since keeps its mark): a level scans only the chunks
    /// that may hold its positions, and the last levels find few.
    marks: Vec<[AtomicU64; 4]>,
}

impl<'a> Gen<'a> {
    fn new(
        layout: &'a Layout,
        set: &'a TableSet,
        base: usize,
        len: usize,
        pushed: Option<&'a Finished>,
        threads: usize,
    ) -> Gen<'a> {
        Gen {
            layout,
            set,
            base,
            len,
            cells: Cells::new(2 * len, UNKNOWN),
            done: Done::new(2 * len),
            provisional: Done::new(2 * len),
            pushed,
            alone: threads <= 1,
            marks: (0..(2 * len).div_ceil(1 << MARK_SHIFT))
                .map(|_| Default::default())
                .collect(),
        }
    }

    /// Notes that position `p` holds `code` now.
    #[inline(always)]
    fn mark(&self, p: usize, code: u8) {
        let m = &self.marks[p >> MARK_SHIFT][(code >> 6) as usize];
        let bit = 1u64 << (code & 63);
        if self.alone {
            m.store(m.load(Relaxed) | bit, Relaxed);
        } else if m.load(Relaxed) & bit == 0 {
            m.fetch_or(bit, Relaxed);
        }
    }

    /// May chunk `c` hold positions valued `code`?
    #[inline(always)]
    fn marked(&self, c: usize, code: u8) -> bool {
        self.marks[c][(code >> 6) as usize].load(Relaxed) >> (code & 63) & 1 == 1
    }

    /// The values, once [`Gen::run`] is done.
    fn into_cells(self) -> Cells {
        self.cells
    }

    /// Sets done position `p` to what `f` makes of its value (see
    /// [`Cells::update`]).
    #[inline(always)]
    fn update(&self, p: usize, f: impl Fn(u8) -> Option<u8>) -> Option<u8> {
        if self.alone {
            self.cells.update_alone(p, f)
        } else {
            self.cells.update(p, f)
        }
    }

    /// Makes position `p` done with value `v`.
    #[inline(always)]
    fn finish(&self, p: usize, v: u8) {
        self.mark(p, v);
        if self.alone {
            self.cells.update_alone(p, |_| Some(v));
            self.done.set_alone(p);
        } else {
            self.cells.set(p, v);
            self.done.set(p);
        }
    }

    /// Side to move and table index of window position `i`.
    #[inline(always)]
    fn stm_of(&self, i: usize) -> (Color, usize) {
        if i < self.len {
            (Color::White, self.base + i)
        } else {
            (Color::Black, self.base + i - self.len)
        }
    }

    /// The value code, for `!mover` to move, of the position `mover`'s pawn
    /// push leads to (`passed`: the square a double push passed, if an
    /// enemy pawn may take en passant).
    #[inline]
    fn pushed_value(&self, c: &Raw, mover: Color, passed: Option<u8>) -> u8 {
        let q = self
            .pushed
            .map_or(UNKNOWN, |f| f.value(self.layout, c, !mover));
        match passed {
            None => q,
            Some(p) => ep_value(self.set, c, mover, p, q),
        }
    }

    /// Initialises every position (`threads` at once).
    fn init(&self, threads: usize, top: &Top) {
        // Whole words of both halves per job (the length is a multiple
        // of 64).
        const CHUNK: usize = 1 << 13;
        let (layout, set, len) = (self.layout, self.set, self.len);
        let next = AtomicUsize::new(0);
        parallel(threads, || {
            loop {
                let start = next.fetch_add(CHUNK, Relaxed);
                if start >= len {
                    break;
                }
                let end = (start + CHUNK).min(len);
                let mut words = [[0u64; CHUNK / 8]; 2];
                let mut done = [[0u64; CHUNK / 64]; 2];
                let mut provisional = [[0u64; CHUNK / 64]; 2];
                let mut marks = [[[0u64; 4]; CHUNK >> MARK_SHIFT]; 2];
                for local in start..end {
                    let idx = self.base + local;
                    let r = layout.decode(idx);
                    let (w, shift, bit) = ((local - start) >> 3, (local & 7) * 8, local - start);
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
                            init_position(set, &r, occ, stm, checked[s], |c, passed| {
                                self.pushed_value(c, stm, passed)
                            })
                        };
                        if let Init::Open { ext: Some(e), .. } = result
                            && is_win(e)
                        {
                            provisional[s][bit >> 6] |= 1 << (bit & 63);
                        }
                        // (byte, done)
                        let (code, is_done) = match result {
                            Init::Illegal => (ILLEGAL, true),
                            Init::Final(UNKNOWN) => (NOT_LOST, false),
                            Init::Final(v) => (v, true),
                            Init::Open {
                                ext: Some(UNKNOWN), ..
                            } => (NOT_LOST, false),
                            // A win by a move leaving the window, unless a
                            // quicker one is found.
                            Init::Open { ext: Some(e), .. } if is_win(e) => (e, true),
                            // Two per move (symmetric positions count by
                            // orbits: see `predecessors_of`).
                            Init::Open { internal, .. } => {
                                debug_assert!(internal <= MAX_COUNTED);
                                ((2 * internal) as u8, false)
                            }
                        };
                        if is_done {
                            top.see(code);
                            done[s][bit >> 6] |= 1 << (bit & 63);
                            marks[s][bit >> MARK_SHIFT][(code >> 6) as usize] |= 1 << (code & 63);
                        }
                        words[s][w] |= u64::from(code) << shift;
                    }
                }
                for s in 0..2 {
                    let first = s * len + start;
                    for (k, &word) in words[s][..(end - start).div_ceil(8)].iter().enumerate() {
                        self.cells.store_word(first / 8 + k, word);
                    }
                    for (k, &bits) in done[s][..(end - start).div_ceil(64)].iter().enumerate() {
                        self.done.store_word(first / 64 + k, bits);
                    }
                    for (k, &bits) in provisional[s][..(end - start).div_ceil(64)]
                        .iter()
                        .enumerate()
                    {
                        self.provisional.store_word(first / 64 + k, bits);
                    }
                    let chunks = (end - start).div_ceil(1 << MARK_SHIFT);
                    for (k, m) in marks[s][..chunks].iter().enumerate() {
                        for (w, &bits) in m.iter().enumerate() {
                            self.marks[(first >> MARK_SHIFT) + k][w].fetch_or(bits, Relaxed);
                        }
                    }
                }
            }
        });
    }

    /// The longest loss among the moves leaving the window of position
    /// `i`, whose moves in the window are all won for the opponent (its
    /// other moves all lose, or it would not have been counted): 0 if it
    /// has none.
    fn ext_loss(&self, i: usize) -> u32 {
        let (stm, idx) = self.stm_of(i);
        let r = self.layout.decode(idx);
        let mut longest = 0;
        for_each_move(&r, stm, |mv| {
            let v = match mv {
                Mv::Internal => return true,
                Mv::External(c) => self.set.probe_raw(&c, !stm).unwrap_or(UNKNOWN),
                Mv::Push(c, passed) => self.pushed_value(&c, stm, passed),
            };
            let v = via_move(v);
            debug_assert!(is_loss(v), "a counted position's move out does not lose");
            if is_loss(v) {
                longest = longest.max(dist_of(v));
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
        let chunks = self.marks.len();
        let next = AtomicUsize::new(0);
        let counts = parallel(threads, || {
            let mut found = 0u64;
            loop {
                let start = next.fetch_add(SCAN_CHUNKS, Relaxed);
                if start >= chunks {
                    break;
                }
                let scan = (start..(start + SCAN_CHUNKS).min(chunks))
                    .filter(|&c| self.marked(c, target))
                    .flat_map(|c| c << (MARK_SHIFT - 3)..((c + 1) << (MARK_SHIFT - 3)).min(words));
                for w in scan {
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

    /// The predecessors of window position `i`, valued `d - 1`.
    #[inline]
    fn predecessors_of(&self, i: usize, d: u32, top: &Top) {
        let (stm, idx) = self.stm_of(i);
        let r = self.layout.decode(idx);
        let mover = !stm;
        // Window position of the predecessor with table index `p`.
        let base = side(mover) * self.len;
        let first = self.base;
        let done = &self.done;
        let each = |f: &mut dyn FnMut(usize, u8)| {
            if self.layout.pawns {
                for_each_predecessor_in_slice(self.layout, &r, idx, mover, |p| {
                    f(base + p - first, 1)
                });
            } else {
                for_each_predecessor(self.layout, &r, idx, mover, d.is_multiple_of(2), |p, s| {
                    f(base + p, s)
                });
            }
        };
        if d % 2 == 1 {
            // `i` is lost: its predecessors win in `d`, unless quicker.
            let win = code_of(d);
            let mut any = false;
            each(&mut |p, _| {
                if done.get(p) {
                    if !self.provisional.get(p) {
                        // Final: a win found by a level, or illegal.
                        return;
                    }
                    // A win by a move leaving the window, slower?
                    let quicker = |v: u8| (v >= 2 && is_win(v) && dist_of(v) > d).then_some(win);
                    if self.update(p, quicker).is_some() {
                        self.mark(p, win);
                        any = true;
                    }
                } else {
                    self.finish(p, win);
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
            each(&mut |p, p_stab| {
                if done.get(p) {
                    return;
                }
                let w = 2 * p_stab / q_stab;
                let left = self.update(p, |v| {
                    debug_assert!(v == 0 || v == NOT_LOST || v >= w, "counter below zero");
                    (v > 0 && v != NOT_LOST).then(|| v.saturating_sub(w))
                });
                if left == Some(0) {
                    // Every move lost: mated in `d`, or later if a move
                    // leaving the window resists longer.
                    let code = code_of(d.max(self.ext_loss(p)));
                    self.finish(p, code);
                    top.see(code);
                }
            });
        }
    }

    /// Runs the levels until no value changes; then what is not won or
    /// lost is drawn. `level` hears of each level's end (the positions it
    /// looked at).
    fn run(
        &self,
        threads: usize,
        top: &Top,
        level: &mut dyn FnMut(u32, u64),
    ) -> Result<(), String> {
        let too_long = || {
            format!(
                "{}: mates longer than {GEN_MAX_DIST} plies",
                self.layout.material
            )
        };
        let mut d: u32 = 1;
        loop {
            if top.dist().is_some_and(|t| t > GEN_MAX_DIST) {
                return Err(too_long());
            }
            if top.dist().is_none_or(|t| t + 1 < d) {
                break;
            }
            if d > GEN_MAX_DIST + 1 {
                return Err(too_long());
            }
            let found = if top.has(code_of(d - 1)) {
                self.level(d, threads, top)
            } else {
                0
            };
            level(d, found);
            d += 1;
        }
        for w in 0..self.cells.words() {
            let (word, mask) = (self.cells.word(w), self.done.byte_mask(w));
            // Keep the bytes of done positions: spread each byte's high bit.
            let keep = (mask >> 7) * 0xFF;
            self.cells.store_word(w, word & keep);
        }
        Ok(())
    }

    /// Counts wins, draws and losses of the window's positions, each
    /// weighted by the positions of the board it stands for.
    fn stats(&self, threads: usize) -> TableStats {
        let next = AtomicUsize::new(0);
        let per_side = |k: usize| {
            let mut s = SideStats::default();
            for local in 0..self.len {
                let v = self.cells.get(k * self.len + local);
                if v == ILLEGAL {
                    continue;
                }
                let w = self.layout.weight(self.base + local);
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
}

/// Generates a table from the smaller tables in `set` (which must hold
/// every table a capture or promotion leads to) on `threads` threads.
/// Returns its values, `[White to move | Black to move]` ([`ILLEGAL`] at
/// unused indices; a table with pawns compressed as its file stores
/// them), and its statistics.
pub(crate) fn generate(
    layout: &Layout,
    set: &TableSet,
    threads: usize,
    mut level: impl FnMut(LevelInfo) + Send,
) -> Result<(super::values::Values, TableStats), String> {
    let threads = threads.max(1);
    if layout.pawns {
        return sliced::generate(layout, set, threads, &mut level);
    }
    let g = Gen::new(layout, set, 0, layout.size, None, threads);
    let top = Top::default();
    g.init(threads, &top);
    let mut resolved = 0;
    g.run(threads, &top, &mut |ply, found| {
        resolved += found;
        level(LevelInfo { ply, resolved });
    })?;
    let stats = g.stats(threads);
    Ok((super::values::Values::Made(g.cells), stats))
}
