//! Drops (Crazyhouse and Bughouse): which are legal, all of them, and the
//! ones that give check.

use shakmaty::{Move, Position, Role, Square, attacks};

/// Is dropping `role` on `to` legal (not in check)?
#[inline]
pub fn drop_is_legal<P: Position>(pos: &P, role: Role, to: Square) -> bool {
    let Some(pockets) = pos.pockets() else {
        return false;
    };
    *pockets.get(pos.turn()).get(role) > 0
        && role != Role::King
        && crate::engine::variant::drop_targets(pos, role).contains(to)
}

/// Every drop of the side to move when it is not in check (in check, the
/// evasions come from shakmaty): each piece in hand on every empty square,
/// pawns not on the first or last rank. Nothing without pockets.
#[inline]
pub fn drops<P: Position>(pos: &P, mut f: impl FnMut(Move)) {
    let Some(pockets) = pos.pockets() else {
        return;
    };
    let hand = pockets.get(pos.turn());
    for role in [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ] {
        if *hand.get(role) > 0 {
            for to in crate::engine::variant::drop_targets(pos, role) {
                f(Move::Put { role, to });
            }
        }
    }
}

/// The drops that give check (not in check).
#[inline]
pub fn checking_drops<P: Position>(pos: &P, mut f: impl FnMut(Move)) {
    let Some(pockets) = pos.pockets() else {
        return;
    };
    let board = pos.board();
    let turn = pos.turn();
    let Some(king) = board.king_of(!turn) else {
        return;
    };
    let hand = pockets.get(turn);
    let occupied = board.occupied();
    let bishop = attacks::bishop_attacks(king, occupied);
    let rook = attacks::rook_attacks(king, occupied);
    for role in [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ] {
        if *hand.get(role) == 0 {
            continue;
        }
        let from = match role {
            Role::Pawn => attacks::pawn_attacks(!turn, king),
            Role::Knight => attacks::knight_attacks(king),
            Role::Bishop => bishop,
            Role::Rook => rook,
            _ => bishop | rook,
        };
        for to in from & crate::engine::variant::drop_targets(pos, role) {
            f(Move::Put { role, to });
        }
    }
}

#[cfg(test)]
mod drop_tests {
    use super::*;
    use crate::engine::board::Board;
    use crate::engine::movegen::*;
    use crate::engine::variant::{Bug, Variant, Zh};
    use crate::util::Rng;

    fn key(m: &Move) -> String {
        format!("{m:?}")
    }

    /// Staged generation (tactical + quiet + drops) is exactly the legal
    /// moves of Crazyhouse and Bughouse positions, and the checking drops
    /// are exactly the drops that give check.
    fn staged_equals_legal<V: Variant>() {
        let mut rng = Rng::new(11);
        let mut checked = 0;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
            "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
            "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
            "4k3/1Q~6/8/8/4b3/8/Kpp5/8[Nn] b - - 0 1",
        ] {
            for _ in 0..10 {
                let mut board = Board::<V>::from_variant_fen(fen).unwrap();
                for _ in 0..40 {
                    let pos = board.pos();
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    if !pos.is_check() {
                        let ctx = GenContext::new(pos).unwrap();
                        let mut got = Vec::new();
                        tactical(pos, &ctx, true, |m| got.push(key(&m)));
                        quiet(pos, &ctx, |m| got.push(key(&m)));
                        drops(pos, |m| got.push(key(&m)));
                        got.sort();
                        let mut want: Vec<String> = legal.iter().map(key).collect();
                        want.sort();
                        assert_eq!(got, want, "staged generation in {}", board.fen());
                        let mut checks = Vec::new();
                        checking_drops(pos, |m| checks.push(key(&m)));
                        checks.sort();
                        let mut want_checks: Vec<String> = legal
                            .iter()
                            .filter(|m| matches!(m, Move::Put { .. }) && board.play(**m).in_check())
                            .map(key)
                            .collect();
                        want_checks.sort();
                        assert_eq!(checks, want_checks, "checking drops in {}", board.fen());
                        for m in &legal {
                            assert!(is_legal(pos, false, *m), "{m:?} in {}", board.fen());
                        }
                        checked += 1;
                    }
                    board = board.play(legal[rng.below(legal.len())]);
                }
            }
        }
        assert!(checked > 500, "checked {checked}");
    }

    #[test]
    fn crazyhouse_staged_generation() {
        staged_equals_legal::<Zh>();
    }

    #[test]
    fn bughouse_staged_generation() {
        staged_equals_legal::<Bug>();
    }

    #[test]
    fn drops_from_other_positions_are_checked() {
        let b = Board::<Zh>::from_variant_fen("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").unwrap();
        let pos = b.pos();
        assert!(is_legal(
            pos,
            false,
            Move::Put {
                role: Role::Knight,
                to: Square::E4
            }
        ));
        assert!(!is_legal(
            pos,
            false,
            Move::Put {
                role: Role::Bishop,
                to: Square::E4
            }
        ));
        assert!(!is_legal(
            pos,
            false,
            Move::Put {
                role: Role::Knight,
                to: Square::E1
            }
        ));
        let b = Board::<Zh>::from_variant_fen("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1").unwrap();
        assert!(!is_legal(
            b.pos(),
            false,
            Move::Put {
                role: Role::Pawn,
                to: Square::A8
            }
        ));
        assert!(!is_legal(
            b.pos(),
            false,
            Move::Put {
                role: Role::Pawn,
                to: Square::A1
            }
        ));
        assert!(is_legal(
            b.pos(),
            false,
            Move::Put {
                role: Role::Pawn,
                to: Square::A2
            }
        ));
    }
}
