//! Phase 1 of generation: one legal position's moves counted, and the
//! best value among those that leave the table.

use crate::tablebase::index::Raw;
use crate::tablebase::material::{code, code_color, code_is_pawn};
use crate::tablebase::table::{TableSet, UNKNOWN, better, code_of, via_move};
use shakmaty::{Bitboard, Color, Role, attacks};

use super::*;

/// The result of initialising one position.
pub(super) enum Init {
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
pub(super) fn init_position(
    set: &TableSet,
    r: &Raw,
    occ: Bitboard,
    stm: Color,
    in_check: bool,
) -> Init {
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
        for_each_move(&r, stm, |mv| {
            match mv {
                Mv::Internal(_) => internal += 1,
                Mv::DoublePush(..) => special = true,
                Mv::External(c) => add_ext(&c),
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
