//! Retrograde generation of one table.
//!
//! 1. **Initialisation** (parallel over index ranges): every index is
//!    decoded; unused ones (overlapping or non-canonical) and illegal ones
//!    (the side not to move in check) get [`ILLEGAL`]. For a legal position
//!    the legal moves are generated: moves that change the material
//!    (captures, promotions) are looked up in the smaller tables and the
//!    best of them kept (`ext`); the others ("internal") are only counted.
//!    Checkmates get "mated in 0"; positions whose moves all leave the
//!    table are final at once.
//! 2. **Levels** `d = 1, 2, ...`: the positions that got their value at
//!    distance `d - 1` are un-moved (pieces of the side that just moved go
//!    back to empty squares; no uncaptures, no unpromotions). If such a
//!    position is lost, every predecessor wins in `d`. If it is won, every
//!    predecessor's counter of unresolved moves drops; at zero the
//!    predecessor is lost in `max(d, its best external loss)` unless a
//!    capture or promotion wins for it. Wins through an external move are
//!    set at their level if nothing quicker was found.
//!
//! **Symmetry.** Indices hold one position per symmetry class. A move from
//! `p` into the class of `q` matches `|Stab q| / |Stab p|` un-moves from `q`
//! into the class of `p` (orbit counting), so counters start at twice the
//! number of moves and each un-move subtracts `2 |Stab p| / |Stab q|`
//! (1, 2 or 4). Symmetric positions exist only without pawns (all pieces
//! fixed by a diagonal reflection).
//!
//! **En passant.** Tables store positions without en-passant rights. A
//! double pawn push next to an enemy pawn leads to a position that *has*
//! them, whose value is the better of the table value and the en-passant
//! captures. Positions with such a push (only in KPvKP) are evaluated
//! forward at the start of each level instead of by counting.
//!
//! **Threads.** Initialisation splits the indices into chunks. A level
//! splits by the White king's digit of the index (its square in the
//! symmetry region): every un-move except the White king's keeps that
//! digit, so each thread owns the cells of its digits and needs no
//! locks; the White king's un-moves follow on one thread. The updates of
//! one level commute, so the result does not depend on the order.
//!
//! **Memory.** One byte per position (counter or [`DONE`]), one for the
//! best external move and then the final value, and the lists of positions
//! found per level (four bytes each).

use super::index::{Layout, Raw};
use super::material::{code_color, code_is_pawn};
use super::table::{
    ILLEGAL, TableSet, TableStats, UNKNOWN, better, code_of, dist_of, is_loss, is_win, side,
    via_move,
};
use shakmaty::Color;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

mod init;
mod moves;
mod propagate;

use init::*;
pub(crate) use moves::is_legal;
use moves::*;
use propagate::*;

/// A generation cell is one byte: [`DONE`] once the value is known (the
/// value is then in the position's `ext` byte), else the counter of
/// unresolved moves (below [`SPECIAL`]), or [`SPECIAL`] for a position
/// evaluated forward (en passant, or more than 62 moves: only with three
/// pieces on one side, e.g. KQQNvK).
const DONE: u8 = 0x80;
const SPECIAL: u8 = 0x7F;
/// Longest distance a table may hold: its code (254) still leaves room
/// for [`via_move`] (255).
const GEN_MAX_DIST: u32 = 252;
/// Levels with fewer positions run on one thread (small in unit tests, so
/// that they exercise the threaded path on small tables).
const PARALLEL_MIN: usize = if cfg!(test) { 64 } else { 1 << 14 };

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

/// The value code of a position from its cell and `ext` byte (0 while
/// unknown).
#[inline(always)]
fn known(cell: u8, ext: u8) -> u8 {
    if cell & DONE != 0 { ext } else { UNKNOWN }
}

/// Lists of positions by distance.
#[derive(Default)]
struct Lists(Vec<Vec<u32>>);

impl Lists {
    #[inline]
    fn push(&mut self, d: u32, i: u32) {
        let d = d as usize;
        if self.0.len() <= d {
            self.0.resize_with(d + 1, Vec::new);
        }
        self.0[d].push(i);
    }

    fn merge(&mut self, from: Lists) {
        if self.0.len() < from.0.len() {
            self.0.resize_with(from.0.len(), Vec::new);
        }
        for (d, v) in from.0.into_iter().enumerate() {
            if self.0[d].is_empty() {
                self.0[d] = v;
            } else {
                self.0[d].extend_from_slice(&v);
            }
        }
    }

    fn take(&mut self, d: u32) -> Vec<u32> {
        self.0
            .get_mut(d as usize)
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Anything at distance `from` or more?
    fn busy(&self, from: u32) -> bool {
        self.0.iter().skip(from as usize).any(|v| !v.is_empty())
    }

    fn len(&self) -> u64 {
        self.0.iter().map(|v| v.len() as u64).sum()
    }
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

/// The arrays of a table being generated.
struct Gen<'a> {
    layout: &'a Layout,
    set: &'a TableSet,
    /// One byte per position: see [`DONE`].
    cells: Vec<u8>,
    ext: Vec<u8>,
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

    /// Initialises every position (`threads` at once).
    fn init(&mut self, threads: usize) -> InitOut {
        const CHUNK: usize = 1 << 13;
        let (layout, set, size) = (self.layout, self.set, self.layout.size);
        // Both sides to move of an index together (one decoding).
        let (cw, cb) = self.cells.split_at_mut(size);
        let (ew, eb) = self.ext.split_at_mut(size);
        let jobs: Vec<_> = cw
            .chunks_mut(CHUNK)
            .zip(cb.chunks_mut(CHUNK))
            .zip(ew.chunks_mut(CHUNK).zip(eb.chunks_mut(CHUNK)))
            .enumerate()
            .map(|(k, ((c0, c1), (e0, e1)))| (k * CHUNK, [c0, c1], [e0, e1]))
            .collect();
        let jobs = std::sync::Mutex::new(jobs.into_iter());
        let parts = parallel(threads, || {
            let mut out = InitOut::default();
            loop {
                let job = match jobs.lock() {
                    Ok(mut it) => it.next(),
                    Err(_) => None,
                };
                let Some((start, cells, ext)) = job else {
                    break;
                };
                for k in 0..cells[0].len() {
                    let idx = start + k;
                    let r = layout.decode(idx);
                    if !layout.is_canonical(idx, &r) {
                        for s in 0..2 {
                            cells[s][k] = DONE;
                            ext[s][k] = ILLEGAL;
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
                        let i = (s * size + idx) as u32;
                        let cell = &mut cells[s][k];
                        // Legal: the side not to move is not in check.
                        let result = if checked[1 - s] {
                            Init::Illegal
                        } else {
                            init_position(set, &r, occ, stm, checked[s])
                        };
                        // Two per move, one more if an external move
                        // draws (the position can then never be lost).
                        let count = |internal: u32, e: Option<u8>| {
                            2 * internal + u32::from(e == Some(UNKNOWN))
                        };
                        match result {
                            Init::Illegal => {
                                *cell = DONE;
                                ext[s][k] = ILLEGAL;
                            }
                            Init::Final(UNKNOWN) => {}
                            Init::Final(v) => {
                                *cell = DONE;
                                ext[s][k] = v;
                                out.frontier.push(dist_of(v), i);
                            }
                            Init::Open { internal, ext: e }
                                if count(internal, e) < u32::from(SPECIAL) =>
                            {
                                *cell = count(internal, e) as u8;
                                if let Some(e) = e
                                    && e != UNKNOWN
                                {
                                    ext[s][k] = e;
                                    if is_win(e) {
                                        out.pending.push(dist_of(e), i);
                                    }
                                }
                            }
                            // Too many moves for a counter (three pieces
                            // on one side): evaluated forward.
                            Init::Special | Init::Open { .. } => {
                                *cell = SPECIAL;
                                out.specials.push(i);
                            }
                        }
                    }
                }
            }
            out
        });
        let mut out = InitOut::default();
        for p in parts {
            out.frontier.merge(p.frontier);
            out.pending.merge(p.pending);
            out.specials.extend(p.specials);
        }
        out
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
                    let j = child_base + self.layout.index(&c);
                    let v = known(self.cells[j], self.ext[j]);
                    (v != UNKNOWN).then(|| via_move(v))
                }
                Mv::External(c) => Some(via_move(self.set.probe_raw(&c, !stm).unwrap_or(UNKNOWN))),
                Mv::DoublePush(q, passed) => {
                    let j = child_base + self.layout.index(&q);
                    let qv = known(self.cells[j], self.ext[j]);
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
        });
        match best {
            Some(b) if is_win(b) && dist_of(b) <= d + 1 => Some(b),
            _ if all_known => Some(best.unwrap_or(UNKNOWN)),
            _ => None,
        }
    }
}

/// Generates a table from the smaller tables in `set` (which must hold
/// every table a capture or promotion leads to). Initialisation uses
/// `threads` threads, the levels one. Returns the value codes,
/// `[White to move | Black to move]`, with [`ILLEGAL`] at unused indices.
pub(crate) fn generate(
    layout: &Layout,
    set: &TableSet,
    threads: usize,
    mut level: impl FnMut(LevelInfo),
) -> Result<Vec<u8>, String> {
    let total = 2 * layout.size;
    let mut g = Gen {
        layout,
        set,
        cells: vec![0; total],
        ext: vec![UNKNOWN; total],
    };
    let InitOut {
        mut frontier,
        mut pending,
        mut specials,
    } = g.init(threads.max(1));
    let threads = threads.max(1);
    let mut resolved = frontier.len();

    let mut scratch = Vec::new();
    let mut d: u32 = 1;
    // Specials may wait for the level to pass a distance they depend on.
    let mut horizon = if specials.is_empty() { 0 } else { GEN_MAX_DIST };
    loop {
        if !frontier.busy(d - 1) && !pending.busy(d) && (specials.is_empty() || d > horizon + 2) {
            break;
        }
        if d > GEN_MAX_DIST {
            return Err(format!(
                "{}: mates longer than {GEN_MAX_DIST} plies",
                layout.material
            ));
        }
        let before = frontier.len();
        horizon = g.forward_specials(&mut specials, d, &mut frontier);
        g.settle_pending(&mut pending, d, &mut frontier);
        // Predecessors of the positions found at d - 1, in index order
        // (neighbours in memory).
        let mut work = frontier.take(d - 1);
        radix_sort(&mut work, &mut scratch);
        let after_take = frontier.len();
        g.unmove(&work, d, threads, &mut frontier);
        resolved += frontier.len() - after_take + (after_take + work.len() as u64 - before);
        level(LevelInfo { ply: d, resolved });
        d += 1;
    }
    // The values: the `ext` bytes of known positions, draws elsewhere.
    let mut values = g.ext;
    for (v, &c) in values.iter_mut().zip(&g.cells) {
        *v = known(c, *v);
    }
    Ok(values)
}

impl Gen<'_> {
    /// Level `d`, first step: the special positions (with en passant)
    /// evaluated forward; those known now leave `specials` for the
    /// `frontier`. Returns the largest distance the ones left wait for.
    fn forward_specials(&mut self, specials: &mut Vec<u32>, d: u32, frontier: &mut Lists) -> u32 {
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
            self.cells[i as usize] = DONE;
            self.ext[i as usize] = v;
            frontier.push(dist_of(v), i);
        }
        horizon
    }

    /// Level `d`: wins by a capture or promotion in `d`, if nothing
    /// quicker was found.
    fn settle_pending(&mut self, pending: &mut Lists, d: u32, frontier: &mut Lists) {
        for i in pending.take(d) {
            if self.cells[i as usize] < DONE {
                self.cells[i as usize] = DONE;
                self.ext[i as usize] = code_of(d);
                frontier.push(d, i);
            }
        }
    }

    /// Level `d`: un-moves the positions of `work` (found at `d - 1`,
    /// sorted), on `threads` threads when there are enough of them.
    fn unmove(&mut self, work: &[u32], d: u32, threads: usize, frontier: &mut Lists) {
        let layout = self.layout;
        let (white, black) = self.cells.split_at_mut(layout.size);
        let (ext_white, ext_black) = self.ext.split_at_mut(layout.size);
        if threads > 1 && work.len() >= PARALLEL_MIN {
            // Threads own White king digits: every un-move but the White
            // king's stays in its digit. The White king's follow alone.
            let stride = layout.stride_kk();
            type Group<'a> = (usize, [&'a mut [u8]; 2], [&'a mut [u8]; 2]);
            let groups: Vec<Group> = white
                .chunks_mut(stride)
                .zip(black.chunks_mut(stride))
                .zip(
                    ext_white
                        .chunks_mut(stride)
                        .zip(ext_black.chunks_mut(stride)),
                )
                .enumerate()
                .map(|(kk, ((w, b), (ew, eb)))| (kk, [w, b], [ew, eb]))
                .collect();
            let groups = std::sync::Mutex::new(groups);
            let parts = parallel(threads, || {
                let mut out = Lists::default();
                loop {
                    let job = groups.lock().ok().and_then(|mut v| v.pop());
                    let Some((kk, halves, ext)) = job else {
                        break;
                    };
                    let mut view = CellView {
                        halves,
                        ext,
                        lo: kk * stride,
                    };
                    for s in 0..2 {
                        let from = (s * layout.size + kk * stride) as u32;
                        let to = from + stride as u32;
                        let a = work.partition_point(|&i| i < from);
                        let b = work.partition_point(|&i| i < to);
                        for &i in &work[a..b] {
                            propagate(
                                layout,
                                &mut view,
                                i as usize,
                                d,
                                &mut out,
                                Part::NoWhiteKing,
                            );
                        }
                    }
                }
                out
            });
            for p in parts {
                frontier.merge(p);
            }
            let mut view = CellView {
                halves: [white, black],
                ext: [ext_white, ext_black],
                lo: 0,
            };
            let first_black = work.partition_point(|&i| (i as usize) < layout.size);
            for &i in &work[first_black..] {
                propagate(layout, &mut view, i as usize, d, frontier, Part::WhiteKing);
            }
        } else {
            let mut view = CellView {
                halves: [white, black],
                ext: [ext_white, ext_black],
                lo: 0,
            };
            for &i in work {
                propagate(layout, &mut view, i as usize, d, frontier, Part::All);
            }
        }
    }
}

/// Sorts indices (LSD radix sort, 11 bits a pass).
fn radix_sort(v: &mut Vec<u32>, scratch: &mut Vec<u32>) {
    if v.len() < 256 {
        v.sort_unstable();
        return;
    }
    let max = v.iter().copied().max().unwrap_or(0);
    scratch.clear();
    scratch.resize(v.len(), 0);
    let mut shift = 0;
    while shift < 32 && (max >> shift) != 0 {
        let mut counts = [0usize; 2048];
        for &x in v.iter() {
            counts[((x >> shift) & 2047) as usize] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &x in v.iter() {
            let b = ((x >> shift) & 2047) as usize;
            scratch[counts[b]] = x;
            counts[b] += 1;
        }
        std::mem::swap(v, scratch);
        shift += 11;
    }
}

/// Counts wins, draws and losses over all positions of the board (each
/// canonical position weighted by the size of its symmetry class), from
/// freshly generated values ([`ILLEGAL`] marks what is not a position).
pub(crate) fn stats(layout: &Layout, values: &[u8], threads: usize) -> TableStats {
    let size = layout.size;
    let next = AtomicUsize::new(0);
    let per_side = |k: usize| {
        let mut s = super::table::SideStats::default();
        let order = layout.group_order();
        for (idx, &v) in values[k * size..(k + 1) * size].iter().enumerate() {
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
