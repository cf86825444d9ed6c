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

use super::index::{Layout, Raw, TRANSPOSE, on_diagonal};
use super::material::{NONE, code, code_color, code_is_pawn};
use super::table::{
    ILLEGAL, TableSet, TableStats, UNKNOWN, better, code_of, dist_of, is_loss, is_win, side,
    via_move,
};
use shakmaty::{Bitboard, Color, Role, Square, attacks};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

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

#[inline(always)]
fn sq(s: u8) -> Square {
    Square::new(u32::from(s & 63))
}

#[inline(always)]
fn bb(s: u8) -> Bitboard {
    Bitboard::from_square(sq(s))
}

/// Attacks of the piece with code `c` on `s`.
#[inline(always)]
fn piece_attacks(c: u8, s: u8, occ: Bitboard) -> Bitboard {
    let q = sq(s);
    match c % 5 {
        0 => attacks::queen_attacks(q, occ),
        1 => attacks::rook_attacks(q, occ),
        2 => attacks::bishop_attacks(q, occ),
        3 => attacks::knight_attacks(q),
        _ => attacks::pawn_attacks(code_color(c), q),
    }
}

#[inline(always)]
fn occupancy(r: &Raw) -> Bitboard {
    let mut occ = bb(r.wk) | bb(r.bk);
    for p in r.pieces() {
        occ |= bb(p.1);
    }
    occ
}

#[inline(always)]
fn king_of(r: &Raw, c: Color) -> u8 {
    match c {
        Color::White => r.wk,
        Color::Black => r.bk,
    }
}

/// Is `target` attacked by `by`'s pieces (piece slot `skip` ignored: it was
/// just captured)?
#[inline(always)]
fn attacked(r: &Raw, target: u8, by: Color, occ: Bitboard, skip: usize) -> bool {
    let t = sq(target);
    if attacks::king_attacks(sq(king_of(r, by))).contains(t) {
        return true;
    }
    for (i, p) in r.pieces().iter().enumerate() {
        if i != skip && code_color(p.0) == by && piece_attacks(p.0, p.1, occ).contains(t) {
            return true;
        }
    }
    false
}

/// A legal move's result.
pub(crate) enum Mv {
    /// Same material, no en passant possible: a position of this table.
    Internal(Raw),
    /// A capture or promotion: a position of a smaller table.
    External(Raw),
    /// A double push next to an enemy pawn: the resulting position (without
    /// en-passant rights) and the square the pawn passed.
    DoublePush(Raw, u8),
}

/// Removes piece slot `j` (a capture).
#[inline(always)]
fn without(mut r: Raw, j: usize) -> Raw {
    let n = r.n as usize;
    for k in j..n - 1 {
        r.pc[k] = r.pc[k + 1];
    }
    r.n -= 1;
    r.pc[n - 1] = (NONE, 0);
    r
}

/// The squares of `stm`'s men (its king `own_k` included) and of the other
/// side's men (their king excluded).
#[inline(always)]
fn sides(r: &Raw, stm: Color, own_k: u8) -> (Bitboard, Bitboard) {
    let mut own = bb(own_k);
    let mut theirs = Bitboard::EMPTY;
    for p in r.pieces() {
        if code_color(p.0) == stm {
            own |= bb(p.1);
        } else {
            theirs |= bb(p.1);
        }
    }
    (own, theirs)
}

/// Calls `f` for every legal move of `stm`.
#[inline(always)]
pub(crate) fn for_each_move(r: &Raw, stm: Color, mut f: impl FnMut(Mv)) {
    let occ = occupancy(r);
    let own_k = king_of(r, stm);
    let opp_k = king_of(r, !stm);
    let (own, theirs) = sides(r, stm, own_k);
    let victim = |to: u8| -> usize {
        r.pieces()
            .iter()
            .position(|p| p.1 == to)
            .unwrap_or(usize::MAX)
    };

    // King moves.
    let targets =
        attacks::king_attacks(sq(own_k)) & !own & !attacks::king_attacks(sq(opp_k)) & !bb(opp_k);
    for to in targets {
        let to = to as u8;
        let j = victim(to);
        let occ2 = (occ ^ bb(own_k)) | bb(to);
        if attacked(r, to, !stm, occ2, j) {
            continue;
        }
        let mut c = *r;
        match stm {
            Color::White => c.wk = to,
            Color::Black => c.bk = to,
        }
        if j == usize::MAX {
            f(Mv::Internal(c));
        } else {
            f(Mv::External(without(c, j)));
        }
    }

    // Other pieces.
    for i in 0..r.n as usize {
        let (pc, from) = r.pc[i];
        if code_color(pc) != stm {
            continue;
        }
        let legal = |to: u8, j: usize| -> bool {
            let occ2 = (occ ^ bb(from)) | bb(to);
            !attacked(r, own_k, !stm, occ2, j)
        };
        if code_is_pawn(pc) {
            let (step, last, second): (i8, u8, u8) = match stm {
                Color::White => (8, 7, 1),
                Color::Black => (-8, 0, 6),
            };
            let promos = |to: u8, j: usize, f: &mut dyn FnMut(Mv)| {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    let mut c = *r;
                    c.pc[i] = (code(stm, role), to);
                    f(Mv::External(if j == usize::MAX {
                        c
                    } else {
                        without(c, j)
                    }));
                }
            };
            let to = (from as i8 + step) as u8;
            if !occ.contains(sq(to)) {
                if legal(to, usize::MAX) {
                    if to >> 3 == last {
                        promos(to, usize::MAX, &mut f);
                    } else {
                        let mut c = *r;
                        c.pc[i].1 = to;
                        f(Mv::Internal(c));
                    }
                }
                let to2 = (to as i8 + step) as u8;
                if from >> 3 == second && !occ.contains(sq(to2)) && legal(to2, usize::MAX) {
                    let mut c = *r;
                    c.pc[i].1 = to2;
                    // An enemy pawn beside the square reached?
                    let beside = r.pieces().iter().any(|p| {
                        code_color(p.0) != stm
                            && code_is_pawn(p.0)
                            && p.1 >> 3 == to2 >> 3
                            && (p.1 & 7).abs_diff(to2 & 7) == 1
                    });
                    f(if beside {
                        Mv::DoublePush(c, to)
                    } else {
                        Mv::Internal(c)
                    });
                }
            }
            for to in attacks::pawn_attacks(stm, sq(from)) & theirs {
                let to = to as u8;
                let j = victim(to);
                if !legal(to, j) {
                    continue;
                }
                if to >> 3 == last {
                    promos(to, j, &mut f);
                } else {
                    let mut c = *r;
                    c.pc[i].1 = to;
                    f(Mv::External(without(c, j)));
                }
            }
        } else {
            let targets = piece_attacks(pc, from, occ) & !own & !bb(opp_k);
            for to in targets {
                let to = to as u8;
                let j = victim(to);
                if !legal(to, j) {
                    continue;
                }
                let mut c = *r;
                c.pc[i].1 = to;
                if j == usize::MAX {
                    f(Mv::Internal(c));
                } else {
                    f(Mv::External(without(c, j)));
                }
            }
        }
    }
}

/// Which piece an un-move moved: the king of the mover or piece slot
/// `UN_SLOT + i`.
const UN_KING: usize = 0;
const UN_SLOT: usize = 1;

/// The position `r` with piece `moved` (see [`for_each_unmove`]) of
/// `mover` on `from`.
#[inline(always)]
fn unmoved(r: &Raw, mover: Color, moved: usize, from: u8) -> Raw {
    let mut c = *r;
    if moved == UN_KING {
        match mover {
            Color::White => c.wk = from,
            Color::Black => c.bk = from,
        }
    } else {
        c.pc[moved - UN_SLOT].1 = from;
    }
    c
}

/// Calls `f(piece, from, from - to)` for every un-move of `mover` in `r`:
/// the positions from which `mover` reaches `r` by a move that keeps the
/// material (see [`unmoved`]; they may be illegal: callers check).
#[inline(always)]
fn for_each_unmove(
    r: &Raw,
    mover: Color,
    (king, pieces): (bool, bool),
    mut f: impl FnMut(usize, u8, isize),
) {
    let occ = occupancy(r);
    let k = king_of(r, mover);
    if king {
        for from in attacks::king_attacks(sq(k)) & !occ {
            f(UN_KING, from as u8, from as isize - k as isize);
        }
    }
    if !pieces {
        return;
    }
    for i in 0..r.n as usize {
        let (pc, at) = r.pc[i];
        if code_color(pc) != mover {
            continue;
        }
        if code_is_pawn(pc) {
            let rank = at >> 3;
            let (back, single_ok, double_rank): (i8, bool, u8) = match mover {
                Color::White => (-8, rank >= 2, 3),
                Color::Black => (8, rank <= 5, 4),
            };
            let from = (at as i8 + back) as u8;
            if single_ok && !occ.contains(sq(from)) {
                f(UN_SLOT + i, from, isize::from(back));
                let from2 = (from as i8 + back) as u8;
                if rank == double_rank && !occ.contains(sq(from2)) {
                    f(UN_SLOT + i, from2, 2 * isize::from(back));
                }
            }
        } else {
            for from in piece_attacks(pc, at, occ) & !occ {
                f(UN_SLOT + i, from as u8, from as isize - at as isize);
            }
        }
    }
}

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

/// What initialisation finds in one range of indices.
#[derive(Default)]
struct InitOut {
    frontier: Lists,
    pending: Lists,
    specials: Vec<u32>,
}

/// The result of initialising one position.
enum Init {
    Illegal,
    /// En passant possible after a double push: evaluated forward.
    Special,
    /// Final at once (all moves leave the table, or none exists):
    /// a code (0 = draw).
    Final(u8),
    /// `internal` moves stay in the table; `ext` is the best of the others.
    Open {
        internal: u32,
        ext: Option<u8>,
    },
}

/// Looks at one legal position (decoded, canonical) for one side to move:
/// moves and external values.
#[inline]
fn init_position(set: &TableSet, r: &Raw, occ: Bitboard, stm: Color, in_check: bool) -> Init {
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
    let mut internal: u32 = 0;
    let mut ext: Option<u8> = None;
    let mut special = false;
    let mut add_ext = |c: &Raw| {
        let v = via_move(set.probe_raw(c, !stm).unwrap_or(UNKNOWN));
        ext = Some(ext.map_or(v, |e| better(e, v)));
    };
    if in_check || pinned {
        // Careful path: test every move.
        for_each_move(&r, stm, |mv| match mv {
            Mv::Internal(_) => internal += 1,
            Mv::DoublePush(..) => special = true,
            Mv::External(c) => add_ext(&c),
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
        internal += (kt & !theirs).count() as u32;
        for to in kt & theirs {
            let to = to as u8;
            let mut c = r;
            match stm {
                Color::White => c.wk = to,
                Color::Black => c.bk = to,
            }
            add_ext(&without(c, victim(to)));
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
                let promote = |to: u8, j: usize, add: &mut dyn FnMut(&Raw)| {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        let mut c = r;
                        c.pc[i] = (code(stm, role), to);
                        add(&if j == usize::MAX { c } else { without(c, j) });
                    }
                };
                let to = (from as i8 + step) as u8;
                if !occ.contains(sq(to)) {
                    if to >> 3 == last {
                        promote(to, usize::MAX, &mut add_ext);
                    } else {
                        internal += 1;
                        let to2 = (to as i8 + step) as u8;
                        if from >> 3 == second && !occ.contains(sq(to2)) {
                            let beside = r.pieces().iter().any(|p| {
                                code_color(p.0) != stm
                                    && code_is_pawn(p.0)
                                    && p.1 >> 3 == to2 >> 3
                                    && (p.1 & 7).abs_diff(to2 & 7) == 1
                            });
                            if beside {
                                special = true;
                            } else {
                                internal += 1;
                            }
                        }
                    }
                }
                for to in attacks::pawn_attacks(stm, sq(from)) & theirs {
                    let to = to as u8;
                    let j = victim(to);
                    if to >> 3 == last {
                        promote(to, j, &mut add_ext);
                    } else {
                        let mut c = r;
                        c.pc[i].1 = to;
                        add_ext(&without(c, j));
                    }
                }
            } else {
                let t = piece_attacks(pc, from, occ) & !own & !bb(opp_k);
                internal += (t & !occ).count() as u32;
                for to in t & theirs {
                    let to = to as u8;
                    let mut c = r;
                    c.pc[i].1 = to;
                    add_ext(&without(c, victim(to)));
                }
            }
        }
    }
    if special {
        return Init::Special;
    }
    if internal == 0 {
        return Init::Final(match ext {
            None if in_check => code_of(0),
            None => UNKNOWN,
            Some(v) => v,
        });
    }
    Init::Open { internal, ext }
}

/// Which un-moves [`propagate`] handles: all, or the White king's apart
/// (the others keep the White king's digit, so threads can own digits).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    All,
    NoWhiteKing,
    WhiteKing,
}

/// Mutable cells and `ext` bytes of both sides to move, for the indices
/// `lo..lo + halves[0].len()`.
struct CellView<'a> {
    halves: [&'a mut [u8]; 2],
    ext: [&'a mut [u8]; 2],
    lo: usize,
}

impl CellView<'_> {
    /// The cells and `ext` bytes of one side to move, and the index of the
    /// first.
    #[inline(always)]
    fn half(&mut self, side: usize) -> (&mut [u8], &mut [u8], usize) {
        (&mut *self.halves[side], &mut *self.ext[side], self.lo)
    }
}

/// Processes the predecessors of position `i` (found at distance `d - 1`)
/// that `part` selects.
#[inline]
fn propagate(
    layout: &Layout,
    cells: &mut CellView,
    i: usize,
    d: u32,
    frontier: &mut Lists,
    part: Part,
) {
    let size = layout.size;
    let (stm, idx) = if i < size {
        (Color::White, i)
    } else {
        (Color::Black, i - size)
    };
    let r = layout.decode(idx);
    let mover = !stm;
    let ms = side(mover);
    let base = ms * size;
    let lost = d % 2 == 1; // r was lost (even distance d - 1)
    let sym = !layout.pawns;
    let q_stab: u8 = if sym && r.is_symmetric() { 2 } else { 1 };
    // The index of a predecessor mostly follows from the moved piece's
    // digit: the White king stays put (or moves where no symmetry is
    // needed). With the White king on the diagonal the canonical index
    // is the smaller of the position's and its transposition's (also
    // followed digit by digit unless two identical pieces swap order).
    let diag = !layout.pawns && on_diagonal(r.wk);
    let t_idx = (diag && !layout.identical).then(|| layout.transposed_raw_index(&r));
    let stride_kk = layout.stride_kk();
    let q_kk = idx / stride_kk;
    let transforms = &super::index::SQ_T;
    let transpose = &transforms[TRANSPOSE as usize];
    let mut rest = [usize::MAX; 8];
    let black_moves = mover == Color::Black;
    // (king, pieces)
    let which = match part {
        Part::All => (true, true),
        Part::NoWhiteKing => (black_moves, true),
        Part::WhiteKing => (!black_moves, false),
    };
    let (half, ext, lo) = cells.half(ms);
    for_each_unmove(&r, mover, which, |moved, from, delta| {
        let mut p_stab = 1;
        let general = |p_stab: &mut u8| {
            let p = unmoved(&r, mover, moved, from);
            if sym && !lost && p.is_symmetric() {
                *p_stab = 2;
            }
            layout.index(&p)
        };
        let p_idx = if moved == UN_KING && !black_moves {
            // The White king moved: the other pieces follow the
            // symmetry its square needs (one per transform and Q).
            let t = layout.king_transform(from);
            let kf = transforms[t as usize][from as usize];
            let mut rest_of = |t: u8| {
                let b = &mut rest[t as usize];
                if *b == usize::MAX {
                    *b = layout.rest_index(&r, t);
                }
                *b
            };
            match layout.king_digit(kf) {
                Some(k) if t == 0 => idx + k * stride_kk - q_kk * stride_kk,
                Some(k) => rest_of(t) + k * stride_kk,
                None => {
                    // Onto the diagonal (no pawns): the smaller of the two
                    // forms, equal when the position is symmetric.
                    let k = layout.tri_digit(kf) * stride_kk;
                    let (a, b) = (rest_of(t) + k, rest_of(t ^ TRANSPOSE) + k);
                    if a == b {
                        p_stab = 2;
                    }
                    a.min(b)
                }
            }
        } else {
            let (stride, at) = if moved == UN_KING {
                (layout.stride_bk, r.bk)
            } else {
                (layout.stride[moved - UN_SLOT], r.pc[moved - UN_SLOT].1)
            };
            let order_kept = !layout.identical
                || moved == UN_KING
                || layout.order_kept(&r, moved - UN_SLOT, from);
            let direct = idx.wrapping_add_signed(delta * stride as isize);
            if !order_kept {
                general(&mut p_stab)
            } else if !diag {
                direct
            } else if let Some(ti) = t_idx {
                let dt = transpose[from as usize] as isize - transpose[at as usize] as isize;
                let other = ti.wrapping_add_signed(dt * stride as isize);
                if other == direct {
                    p_stab = 2;
                }
                direct.min(other)
            } else {
                general(&mut p_stab)
            }
        };
        debug_assert_eq!(p_idx, layout.index(&unmoved(&r, mover, moved, from)));
        debug_assert!(
            lost || !sym || p_stab == 1 + u8::from(unmoved(&r, mover, moved, from).is_symmetric())
        );
        let pi = base + p_idx;
        let cell = &mut half[p_idx - lo];
        if *cell >= SPECIAL {
            return; // known, or evaluated forward
        }
        let e = &mut ext[p_idx - lo];
        if lost {
            *cell = DONE;
            *e = code_of(d);
            frontier.push(d, pi as u32);
        } else {
            let w = 2 * p_stab / q_stab;
            *cell -= w;
            if *cell == 0 {
                if is_win(*e) {
                    return; // its winning capture is pending
                }
                let dist = if is_loss(*e) { d.max(dist_of(*e)) } else { d };
                *cell = DONE;
                *e = code_of(dist);
                frontier.push(dist, pi as u32);
            }
        }
    });
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
        // Positions with en passant, forward.
        horizon = 0;
        let mut found = Vec::new();
        specials.retain(|&i| match g.forward(i as usize, d, &mut horizon) {
            None => true,
            Some(UNKNOWN) => false,
            Some(v) => {
                found.push((i, v));
                false
            }
        });
        for (i, v) in found {
            g.cells[i as usize] = DONE;
            g.ext[i as usize] = v;
            frontier.push(dist_of(v), i);
        }
        // Wins by a capture or promotion, if nothing quicker was found.
        for i in pending.take(d) {
            if g.cells[i as usize] < DONE {
                g.cells[i as usize] = DONE;
                g.ext[i as usize] = code_of(d);
                frontier.push(d, i);
            }
        }
        // Predecessors of the positions found at d - 1, in index order
        // (neighbours in memory).
        let mut work = frontier.take(d - 1);
        radix_sort(&mut work, &mut scratch);
        let after_take = frontier.len();
        let (white, black) = g.cells.split_at_mut(layout.size);
        let (ext_white, ext_black) = g.ext.split_at_mut(layout.size);
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
            let work_ref = &work;
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
                        let a = work_ref.partition_point(|&i| i < from);
                        let b = work_ref.partition_point(|&i| i < to);
                        for &i in &work_ref[a..b] {
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
                propagate(
                    layout,
                    &mut view,
                    i as usize,
                    d,
                    &mut frontier,
                    Part::WhiteKing,
                );
            }
        } else {
            let mut view = CellView {
                halves: [white, black],
                ext: [ext_white, ext_black],
                lo: 0,
            };
            for &i in &work {
                propagate(layout, &mut view, i as usize, d, &mut frontier, Part::All);
            }
        }
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

/// Is the table position `(r, stm)` legal (the side not to move is not in
/// check)? `r` must be decoded from a canonical index.
pub(crate) fn is_legal(r: &Raw, stm: Color) -> bool {
    !attacked(r, king_of(r, !stm), stm, occupancy(r), usize::MAX)
}
