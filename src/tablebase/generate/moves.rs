//! Moves and un-moves of raw table positions (pieces as square bytes),
//! attacks and legality: what retrograde analysis steps along.

use crate::tablebase::index::Raw;
use crate::tablebase::material::{NONE, code, code_color, code_is_pawn};
use shakmaty::{Bitboard, Color, Role, Square, attacks};

#[inline(always)]
pub(super) fn sq(s: u8) -> Square {
    Square::new(u32::from(s & 63))
}

#[inline(always)]
pub(super) fn bb(s: u8) -> Bitboard {
    Bitboard::from_square(sq(s))
}

/// Attacks of the piece with code `c` on `s`.
#[inline(always)]
pub(super) fn piece_attacks(c: u8, s: u8, occ: Bitboard) -> Bitboard {
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
pub(super) fn occupancy(r: &Raw) -> Bitboard {
    let mut occ = bb(r.wk) | bb(r.bk);
    for p in r.pieces() {
        occ |= bb(p.1);
    }
    occ
}

#[inline(always)]
pub(super) fn king_of(r: &Raw, c: Color) -> u8 {
    match c {
        Color::White => r.wk,
        Color::Black => r.bk,
    }
}

/// Is `target` attacked by `by`'s pieces (piece slot `skip` ignored: it was
/// just captured)?
#[inline(always)]
pub(super) fn attacked(r: &Raw, target: u8, by: Color, occ: Bitboard, skip: usize) -> bool {
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
    /// A king or piece move keeping the material: a position of the same
    /// table and slice.
    Internal,
    /// A pawn push (not a promotion): a position of a finished slice
    /// (without en-passant rights), and the square a double push passed
    /// if an enemy pawn may take en passant.
    Push(Raw, Option<u8>),
    /// A capture or promotion: a position of a smaller table.
    External(Raw),
}

/// Does an enemy pawn stand beside `to2`, the square `stm`'s pawn reaches
/// by a double push (so that it may take en passant)?
#[inline(always)]
pub(super) fn ep_target(r: &Raw, stm: Color, to2: u8) -> bool {
    r.pieces().iter().any(|p| {
        code_color(p.0) != stm
            && code_is_pawn(p.0)
            && p.1 >> 3 == to2 >> 3
            && (p.1 & 7).abs_diff(to2 & 7) == 1
    })
}

/// Removes piece slot `j` (a capture).
#[inline(always)]
pub(super) fn without(mut r: Raw, j: usize) -> Raw {
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
pub(super) fn sides(r: &Raw, stm: Color, own_k: u8) -> (Bitboard, Bitboard) {
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

/// Calls `f` for every legal move of `stm` until it says `false` (then
/// returns `false`).
#[inline(always)]
pub(super) fn for_each_move(r: &Raw, stm: Color, mut f: impl FnMut(Mv) -> bool) -> bool {
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
        let go = if j == usize::MAX {
            f(Mv::Internal)
        } else {
            f(Mv::External(without(c, j)))
        };
        if !go {
            return false;
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
            let promos = |to: u8, j: usize, f: &mut dyn FnMut(Mv) -> bool| {
                [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                    .into_iter()
                    .all(|role| {
                        let mut c = *r;
                        c.pc[i] = (code(stm, role), to);
                        f(Mv::External(if j == usize::MAX {
                            c
                        } else {
                            without(c, j)
                        }))
                    })
            };
            let to = (from as i8 + step) as u8;
            if !occ.contains(sq(to)) {
                if legal(to, usize::MAX) {
                    let go = if to >> 3 == last {
                        promos(to, usize::MAX, &mut f)
                    } else {
                        let mut c = *r;
                        c.pc[i].1 = to;
                        f(Mv::Push(c, None))
                    };
                    if !go {
                        return false;
                    }
                }
                let to2 = (to as i8 + step) as u8;
                if from >> 3 == second && !occ.contains(sq(to2)) && legal(to2, usize::MAX) {
                    let mut c = *r;
                    c.pc[i].1 = to2;
                    let go = f(Mv::Push(c, ep_target(r, stm, to2).then_some(to)));
                    if !go {
                        return false;
                    }
                }
            }
            for to in attacks::pawn_attacks(stm, sq(from)) & theirs {
                let to = to as u8;
                let j = victim(to);
                if !legal(to, j) {
                    continue;
                }
                let go = if to >> 3 == last {
                    promos(to, j, &mut f)
                } else {
                    let mut c = *r;
                    c.pc[i].1 = to;
                    f(Mv::External(without(c, j)))
                };
                if !go {
                    return false;
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
                let go = if j == usize::MAX {
                    f(Mv::Internal)
                } else {
                    f(Mv::External(without(c, j)))
                };
                if !go {
                    return false;
                }
            }
        }
    }
    true
}

/// Is the table position `(r, stm)` legal (the side not to move is not in
/// check)? `r` must be decoded from a canonical index.
pub(crate) fn is_legal(r: &Raw, stm: Color) -> bool {
    !attacked(r, king_of(r, !stm), stm, occupancy(r), usize::MAX)
}
