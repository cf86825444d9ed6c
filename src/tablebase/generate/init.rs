//! Phase 1 of generation: the best value among one legal position's
//! moves that leave the window (captures, promotions, pawn pushes).

use crate::tablebase::index::Raw;
use crate::tablebase::material::{code, code_color, code_is_pawn};
use crate::tablebase::table::{TableSet, UNKNOWN, better, via_move};
use shakmaty::{Bitboard, Color, Role, attacks};

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
