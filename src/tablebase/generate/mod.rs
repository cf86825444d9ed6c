//! Retrograde generation of one table.
//!
//! A table without pawns is made whole; a table with pawns one pawn
//! configuration (a *slice* of its index, see [`super::slices`]) at a
//! time, the most advanced first ([`sliced`]). Either way a *window* of
//! positions is worked on: every position has one byte ([`Cells`]) and a
//! few bits ([`Done`]): with the done bit set the byte is the position's
//! value code; without it, what the moves leaving the window allow.
//!
//! Positions go 64 to a *word*, the 64 squares of one man (see
//! [`words`]): levels step whole words along moves and un-moves.
//!
//! 1. **Initialisation** (parallel over index ranges): every index is
//!    decoded; unused ones (overlapping men) and illegal ones (the side not
//!    to move in check) get [`ILLEGAL`]. For a legal position the legal
//!    moves are generated; moves that leave the window (captures and
//!    promotions to the smaller tables, pawn pushes to the finished
//!    slices) are looked up. Checkmates get "mated in 0"; a position whose
//!    moves all leave the window gets its value at once. Otherwise the
//!    best move leaving it decides: a win in `e` is written as a win in `e`
//!    (a quicker one may replace it), a draw makes the position
//!    [`NOT_LOST`] (it can still be won), else its byte keeps the longest
//!    loss among them.
//! 2. **Levels** `d = 1, 2, ...` find the positions valued `d - 1` plies
//!    (eight bytes a load; a level with none is skipped) and un-move them,
//!    a word at a time, into a bit set of predecessors (pawns never move
//!    back: that would leave the slice). If they are lost, the
//!    predecessors not yet won as quickly win in `d`. If they are won,
//!    they become *good* (no move escapes to them), and each predecessor
//!    whose every move now leads to a good position (checked a word at a
//!    time along its moves) is lost in `max(d, its longest loss leaving
//!    the window)`. A loss later than `d` is written at once and found by
//!    its own level.
//!
//! **Memory.** 1.5 bytes a position of the window and nothing per level.
//!
//! **Symmetry.** Without pawns the White king stays in the triangle
//! a1-d1-d4; positions with it on the diagonal are kept in both forms, and
//! identical pieces in both orders, while the levels run (so that a step
//! never has to choose a form); at the end the forms the file does not use
//! become [`ILLEGAL`]. With pawns the mirror is taken by the slice.
//!
//! **En passant.** Tables store positions without en-passant rights. A
//! double pawn push next to an enemy pawn leads to a position that *has*
//! them, whose value is the better of the table value (its slice is
//! finished) and the en-passant captures (smaller tables).
//!
//! **Threads.** A level's first pass splits the positions it starts from
//! among the threads, which set bits of predecessors anywhere (atomic
//! or); its second pass splits the words reached, and each thread writes
//! only its own words' bytes and bits, reading the good set that the
//! first pass finished.

use super::index::{Layout, Raw};
use super::material::{code_color, code_is_pawn};
use super::table::{
    ILLEGAL, MAX_DIST, SideStats, TableSet, TableStats, UNKNOWN, better, code_of, dist_of, is_loss,
    is_win, side, via_move,
};
use shakmaty::{Bitboard, Color};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

mod init;
mod moves;
mod sliced;
mod stats;
mod words;

pub(crate) use super::cells::Cells;
use super::cells::{Done, bytes_equal, bytes_equal64, gather_high_bits, max_byte64, spread_bytes};
pub(crate) use moves::is_legal;
use moves::*;
use sliced::Finished;
use words::{Geometry, Outer, inverse, transform};

/// Bytes of a position not done (see [`Done`]) that are not counters:
/// it can no longer be lost (a move leaving the window draws, or it is a
/// draw already), though it may still be won; a draw at the end.
const NOT_LOST: u8 = 0xFF;
/// Positions per chunk of [`Gen::marks`] (a power of two; windows are
/// whole chunks).
const MARK_SHIFT: usize = 12;
/// Chunks scanned per job (32,768 positions).
const SCAN_CHUNKS: usize = 8;

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

/// Runs `f(w)` for every `w < words` on `threads` threads (a chunk of
/// [`CHUNK_WORDS`] at a time).
fn for_words(threads: usize, words: usize, f: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    parallel(threads, || {
        loop {
            let start = next.fetch_add(CHUNK_WORDS, Relaxed);
            if start >= words {
                break;
            }
            for w in start..(start + CHUNK_WORDS).min(words) {
                f(w);
            }
        }
    });
}

/// A chunk's flag, cleared (by the one thread that owns the chunk in this
/// pass: a plain load and store).
#[inline(always)]
fn take_flag(flag: &AtomicBool) -> bool {
    let set = flag.load(Relaxed);
    if set {
        flag.store(false, Relaxed);
    }
    set
}

/// The codes written so far (a level may write losses beyond itself).
#[derive(Default)]
struct Top {
    max: AtomicU32,
    seen: [AtomicU64; 4],
    /// A level found a win past [`MAX_DIST`].
    overflow: AtomicBool,
}

impl Top {
    /// Notes a value code written (never [`ILLEGAL`]: code 1 is a loss in
    /// [`MAX_DIST`] here).
    #[inline]
    fn see(&self, code: u8) {
        if code == UNKNOWN {
            return;
        }
        // Read first: the words are shared by every thread.
        let d = dist_of(code);
        if d > self.max.load(Relaxed) {
            self.max.fetch_max(d, Relaxed);
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
        (self.seen.iter().any(|w| w.load(Relaxed) != 0)).then(|| self.max.load(Relaxed))
    }
}

/// A window of a table being generated: indices `base..base + len` of
/// each side to move (window position `i < len` is White to move at
/// `base + i`, else Black to move at `base + i - len`). Window word `w`
/// holds positions `64w..64w + 64`.
struct Gen<'a> {
    layout: &'a Layout,
    set: &'a TableSet,
    geo: Geometry<'a>,
    len: usize,
    /// A byte per position: its value code once done; before, what its
    /// moves leaving the window allow: [`NOT_LOST`], else the longest loss
    /// among them (0 if it has none).
    cells: Cells,
    done: Done,
    /// Positions no move escapes to: illegal ones and those won for their
    /// side to move in fewer plies than the level being made.
    good: Done,
    /// What a level's first pass reaches, for its second pass (which
    /// clears it), and per chunk of [`MARK_SHIFT`] positions whether
    /// anything there was reached.
    hits: Done,
    hit_chunks: Vec<AtomicBool>,
    /// The positions a level's second pass valued at that level, for the
    /// next level's first pass (which clears them), and per chunk whether
    /// it has any. Values written ahead of their level (by the
    /// initialisation, or losses longer than the level) are found by
    /// [`Gen::marks`] instead.
    fresh: Done,
    fresh_chunks: Vec<AtomicBool>,
    /// The finished slices pawn pushes lead to (tables with pawns).
    pushed: Option<&'a Finished>,
    /// Does one thread work on the window (plain loads and stores)?
    alone: bool,
    /// The outer men of each word of a half (decoded once instead of at
    /// every step: a tenth of the time went into decoding); empty for a
    /// window of more than [`OUTER_CACHE_WORDS`] words a half.
    outers: Vec<Outer>,
    /// The codes written in each chunk of `1 << MARK_SHIFT` positions (a
    /// code replaced since keeps its mark): a level scans only the chunks
    /// that may hold its positions, and the last levels find few.
    marks: Vec<[AtomicU64; 4]>,
}

/// Words a half of a window may have for [`Gen::outers`] to be kept (32
/// bytes a word: a quarter of a byte a position, 32 MB at most).
const OUTER_CACHE_WORDS: usize = 1 << 20;

/// Positions of a window word (64).
const WORD: usize = 64;
/// Window words per chunk of [`Gen::marks`].
const CHUNK_WORDS: usize = 1 << (MARK_SHIFT - 6);

impl<'a> Gen<'a> {
    fn new(
        layout: &'a Layout,
        set: &'a TableSet,
        base: usize,
        len: usize,
        pushed: Option<&'a Finished>,
        threads: usize,
    ) -> Gen<'a> {
        debug_assert!(base.is_multiple_of(WORD) && len.is_multiple_of(WORD));
        let chunks = (2 * len).div_ceil(1 << MARK_SHIFT);
        let geo = Geometry::new(layout, base);
        let words = len / WORD;
        let outers = if words <= OUTER_CACHE_WORDS {
            (0..words).map(|w| geo.outer(geo.base_word + w)).collect()
        } else {
            Vec::new()
        };
        Gen {
            layout,
            set,
            geo,
            outers,
            len,
            cells: Cells::new(2 * len, UNKNOWN),
            done: Done::new(2 * len),
            good: Done::new(2 * len),
            hits: Done::new(2 * len),
            hit_chunks: (0..chunks).map(|_| AtomicBool::new(false)).collect(),
            fresh: Done::new(2 * len),
            fresh_chunks: (0..chunks).map(|_| AtomicBool::new(false)).collect(),
            pushed,
            alone: threads <= 1,
            marks: (0..chunks).map(|_| Default::default()).collect(),
        }
    }

    /// The outer men of table word `tw` (a word of the window).
    #[inline(always)]
    fn outer(&self, tw: usize) -> Outer {
        match self.outers.get(tw - self.geo.base_word) {
            Some(o) => *o,
            None => self.geo.outer(tw),
        }
    }

    /// Notes that chunk `c` holds `code` now.
    #[inline(always)]
    fn mark(&self, c: usize, code: u8) {
        let m = &self.marks[c][(code >> 6) as usize];
        let bit = 1u64 << (code & 63);
        if m.load(Relaxed) & bit == 0 {
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

    /// Window words per side to move.
    #[inline(always)]
    fn half(&self) -> usize {
        self.len / WORD
    }

    /// The side to move of window word `w` and its word within its half.
    #[inline(always)]
    fn word_side(&self, w: usize) -> (Color, usize) {
        let half = self.half();
        if w < half {
            (Color::White, w)
        } else {
            (Color::Black, w - half)
        }
    }

    /// The positions of window word `w` whose byte is `b`.
    #[inline(always)]
    fn byte_bits(&self, w: usize, b: u8) -> u64 {
        bytes_equal64(self.cells.words8(w), b)
    }

    /// Writes `code` to positions `bits` of window word `w` (a word only
    /// this thread writes now).
    #[inline(always)]
    fn write(&self, w: usize, bits: u64, code: u8) {
        let fill = u64::from_ne_bytes([code; 8]);
        for k in 0..8 {
            let mask = spread_bytes(bits >> (8 * k));
            if mask != 0 {
                let old = self.cells.word(8 * w + k);
                self.cells
                    .store_word(8 * w + k, (old & !mask) | (fill & mask));
            }
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

    /// Level `d`: the positions valued `d - 1` plies give their
    /// predecessors a value. First pass: they un-move, 64 positions a
    /// step, into [`Gen::hits`]. Second pass: the positions reached are
    /// won in `d` (odd `d`), or (even `d`) lost in `d` if no move
    /// escapes to a position not yet won ([`Gen::good`]). Returns how
    /// many positions the level started from.
    fn level(&self, d: u32, threads: usize, top: &Top) -> u64 {
        let target = code_of(d - 1);
        let wins = d % 2 == 1;
        let words = 2 * self.half();
        let chunks = self.marks.len();
        let next = AtomicUsize::new(0);
        let counts = parallel(threads, || {
            let mut found = 0u64;
            loop {
                let start = next.fetch_add(SCAN_CHUNKS, Relaxed);
                if start >= chunks {
                    break;
                }
                for c in start..(start + SCAN_CHUNKS).min(chunks) {
                    let fresh = take_flag(&self.fresh_chunks[c]);
                    let marked = self.marked(c, target);
                    if !fresh && !marked {
                        continue;
                    }
                    for w in c * CHUNK_WORDS..((c + 1) * CHUNK_WORDS).min(words) {
                        let mut f = if fresh { self.fresh.take_word(w) } else { 0 };
                        if marked {
                            let mut bits = self.byte_bits(w, target) & self.done.word(w);
                            if wins {
                                // A loss is never good; illegal positions
                                // are (and share code 1 with MAX_DIST).
                                bits &= !self.good.word(w);
                            }
                            f |= bits;
                        }
                        if f == 0 {
                            continue;
                        }
                        found += u64::from(f.count_ones());
                        if !wins {
                            // Won in `d - 1`: good from now on.
                            self.good.or_word(w, f, self.alone);
                        }
                        self.push(w, f);
                    }
                }
            }
            found
        });
        let next = AtomicUsize::new(0);
        parallel(threads, || {
            loop {
                let c = next.fetch_add(1, Relaxed);
                if c >= chunks {
                    break;
                }
                if !take_flag(&self.hit_chunks[c]) {
                    continue;
                }
                for w in c * CHUNK_WORDS..((c + 1) * CHUNK_WORDS).min(words) {
                    let h = self.hits.take_word(w);
                    if h == 0 {
                    } else if wins {
                        self.win(w, h, d, top);
                    } else {
                        self.lose(w, h, d, top);
                    }
                }
            }
        });
        counts.into_iter().sum()
    }

    /// Notes that positions `bits` of window word `w` were valued at this
    /// level (by the thread that owns the word in the second pass).
    #[inline(always)]
    fn freshen(&self, w: usize, bits: u64) {
        self.fresh.or_word(w, bits, true);
        let c = &self.fresh_chunks[w / CHUNK_WORDS];
        if !c.load(Relaxed) {
            c.store(true, Relaxed);
        }
    }

    /// Notes that positions `bits` of window word `w` were reached.
    #[inline(always)]
    fn hit(&self, w: usize, bits: u64) {
        self.hits.or_word(w, bits, self.alone);
        let c = &self.hit_chunks[w / CHUNK_WORDS];
        if !c.load(Relaxed) {
            c.store(true, Relaxed);
        }
    }

    /// The predecessors of positions `f` of window word `w` (un-moves of
    /// the side not to move there) into [`Gen::hits`].
    #[inline]
    fn push(&self, w: usize, f: u64) {
        let (stm, local) = self.word_side(w);
        let mover = !stm;
        let tw = self.geo.base_word + local;
        let o = self.outer(tw);
        let pred = side(mover) * self.half();
        if self.geo.inner_is(mover, &o.r) {
            self.hit(pred + local, self.geo.inner_fill(&o, f));
        }
        let base = self.geo.base_word;
        self.geo.steps(tw, &o, mover, |w2, keep, t| {
            let b = transform(f & keep, t);
            if b != 0 {
                self.hit(pred + w2 - base, b);
            }
        });
    }

    /// Positions `h` of window word `w` precede a position lost in
    /// `d - 1`: those not done are won in `d`, those won provisionally
    /// later are won in `d`.
    #[inline]
    fn win(&self, w: usize, h: u64, d: u32, top: &Top) {
        let done = self.done.word(w);
        let mut new = h & !done;
        // Done but not yet good: illegal and earlier wins are good, so
        // these are losses and wins by a move leaving the window, which
        // a quicker win replaces (no other done value changes).
        let mut later = h & done & !self.good.word(w);
        while later != 0 {
            let b = later.trailing_zeros() as usize;
            later &= later - 1;
            let v = self.cells.get(WORD * w + b);
            if is_win(v) && dist_of(v) > d {
                new |= 1 << b;
            }
        }
        if new == 0 {
            return;
        }
        let code = code_of(d);
        if d > MAX_DIST {
            top.overflow.store(true, Relaxed);
            return;
        }
        self.write(w, new, code);
        self.done.store_word(w, done | new);
        self.freshen(w, new);
        top.see(code);
    }

    /// Positions `h` of window word `w` precede a position won in `d - 1`:
    /// those whose every move now leads to a good position are lost, in
    /// `d` or in their longest loss leaving the window.
    #[inline]
    fn lose(&self, w: usize, h: u64, d: u32, top: &Top) {
        let done = self.done.word(w);
        let open = h & !done;
        if open == 0 {
            return;
        }
        let candidates = open & !self.byte_bits(w, NOT_LOST);
        if candidates == 0 {
            return;
        }
        let lost = candidates & !self.escapes(w, candidates);
        let mut lost_now = lost;
        let mut rest = lost;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let i = WORD * w + b;
            let ext = self.cells.get(i);
            if is_loss(ext) && dist_of(ext) > d {
                // Found by the scan of its own level.
                let code = code_of(dist_of(ext));
                self.write(w, 1 << b, code);
                self.mark(w / CHUNK_WORDS, code);
                top.see(code);
                lost_now &= !(1 << b);
            }
        }
        if lost_now != 0 {
            let code = code_of(d);
            self.write(w, lost_now, code);
            self.freshen(w, lost_now);
            top.see(code);
        }
        self.done.store_word(w, done | lost);
    }

    /// The positions among `candidates` (window word `w`) with a move to
    /// a position not good for the opponent (a subset may be returned
    /// once every candidate has one).
    #[inline]
    fn escapes(&self, w: usize, candidates: u64) -> u64 {
        let (stm, local) = self.word_side(w);
        let tw = self.geo.base_word + local;
        let o = self.outer(tw);
        let other = side(!stm) * self.half();
        let mut esc = 0;
        if self.geo.inner_is(stm, &o.r) {
            let open = !self.good.word(other + local) & !o.occ;
            esc |= self.geo.inner_fill(&o, open);
            if candidates & !esc == 0 {
                return esc;
            }
        }
        let base = self.geo.base_word;
        self.geo.steps(tw, &o, stm, |w2, keep, t| {
            if candidates & !esc != 0 {
                let open = !self.good.word(other + w2 - base);
                esc |= transform(open, inverse(t)) & keep;
            }
        });
        esc
    }

    /// Runs the levels until no value changes; then what is not won or
    /// lost is drawn. `level` hears of each level's end (the positions it
    /// started from).
    fn run(
        &self,
        threads: usize,
        top: &Top,
        level: &mut dyn FnMut(u32, u64),
    ) -> Result<(), String> {
        let too_long = || {
            format!(
                "{}: mates longer than {MAX_DIST} plies (127 moves) cannot be stored in a byte",
                self.layout.material
            )
        };
        let mut d: u32 = 1;
        loop {
            if top.dist().is_none_or(|t| t + 1 < d) {
                break;
            }
            let found = if top.has(code_of(d - 1)) {
                self.level(d, threads, top)
            } else {
                0
            };
            if top.overflow.load(Relaxed) {
                return Err(too_long());
            }
            level(d, found);
            d += 1;
        }
        self.finish(threads);
        Ok(())
    }

    /// Draws what is not done; the second forms of positions (White king
    /// on the diagonal, identical pieces out of order) become unused, as
    /// the file has them.
    fn finish(&self, threads: usize) {
        let half = self.half();
        for_words(threads, 2 * half, |w| {
            let done = self.done.word(w);
            for k in 0..8 {
                let keep = spread_bytes(done >> (8 * k));
                let cw = 8 * w + k;
                self.cells.store_word(cw, self.cells.word(cw) & keep);
            }
            let tw = self.geo.base_word + w % half;
            let o = self.outer(tw);
            if !o.valid {
                return;
            }
            let unused = self.geo.second_forms(tw, &o).unwrap_or_else(|| {
                (0..WORD).fold(0, |bits, b| {
                    let idx = tw * WORD + b;
                    let r = self.layout.decode(idx);
                    let second = !Layout::overlaps(&r) && !self.layout.is_canonical(idx, &r);
                    bits | u64::from(second) << b
                })
            });
            if unused != 0 {
                self.write(w, unused, ILLEGAL);
                // Good like every unused position: code 1 with the good
                // bit is unused, without it mated in MAX_DIST.
                self.good.or_word(w, unused, true);
            }
        });
    }
}

/// Generates a table from the smaller tables in `set` (which must hold
/// every table a capture or promotion leads to) on `threads` threads.
/// Returns its values, `[White to move | Black to move]` ([`ILLEGAL`] at
/// unused indices; a table with pawns compressed as its file stores
/// them, a large one in the file `spill` while it exists), and its
/// statistics.
pub(crate) fn generate(
    layout: &Layout,
    set: &TableSet,
    threads: usize,
    spill: Option<&std::path::Path>,
    mut level: impl FnMut(LevelInfo) + Send,
) -> Result<(super::values::Values, TableStats), String> {
    let threads = threads.max(1);
    if layout.pawns {
        return sliced::generate(layout, set, threads, spill, &mut level);
    }
    let g = Gen::new(layout, set, 0, layout.size, None, threads);
    let top = Top::default();
    g.init(threads, &top);
    let mut resolved = 0;
    g.run(threads, &top, &mut |ply, found| {
        resolved += found;
        level(LevelInfo { ply, resolved });
    })?;
    if top.has(code_of(MAX_DIST)) {
        // Its code is ILLEGAL's, which a whole table's blocks fill in
        // (only pawn tables, packed slice by slice, keep it; no pawnless
        // table of up to five men comes near).
        return Err(format!(
            "{}: mated in {MAX_DIST} plies needs a table with pawns",
            layout.material
        ));
    }
    let stats = g.stats(threads);
    Ok((super::values::Values::Made(g.cells), stats))
}
