//! The Bughouse rules on top of shakmaty's Crazyhouse, and illegal drops
//! explained.
//!
//! - A capture in Bughouse does not go to the capturer's hand: the piece
//!   goes to the partner's hand on the other board, with the captured
//!   piece's colour (the partner plays that colour there); a promoted piece
//!   goes back as a pawn.
//! - The mate rule: a check that a drop could block is not mate, even with
//!   an empty hand, because the partner may still send a piece. The player
//!   must wait (their clock runs). So is a player without a legal move who
//!   is not in check. Only a check no drop can block (by a knight or pawn,
//!   a piece next to the king, or two pieces at once) with no legal move
//!   is mate.
//! - Pawns are never dropped on the 1st or 8th rank; a pawn dropped on its
//!   2nd rank may still advance two squares.

use super::VariantKind;
use shakmaty::variant::Crazyhouse;
use shakmaty::{
    Bitboard, Color, EnPassantMode, FromSetup, Move, Piece, Position, PositionError, Role, Square,
    attacks,
};

/// Plays a legal move by the rules of `kind` (Crazyhouse or Bughouse).
/// Returns the piece that leaves for the partner's hand (Bughouse only).
#[inline]
pub fn play(pos: &Crazyhouse, m: Move, kind: VariantKind) -> (Crazyhouse, Option<Piece>) {
    if kind == VariantKind::Bughouse {
        play_bughouse(pos, m)
    } else {
        let mut p = pos.clone();
        p.play_unchecked(m);
        (p, None)
    }
}

/// A Bughouse move on one board: shakmaty plays it as Crazyhouse, then the
/// captured piece (a promoted one as a pawn) is taken back out of the
/// capturer's hand: it goes to the partner.
#[inline]
pub fn play_bughouse(pos: &Crazyhouse, m: Move) -> (Crazyhouse, Option<Piece>) {
    let captured = match m {
        Move::Normal {
            capture: Some(c),
            to,
            ..
        } => Some(if pos.promoted().contains(to) {
            Role::Pawn
        } else {
            c
        }),
        Move::EnPassant { .. } => Some(Role::Pawn),
        _ => None,
    };
    let us = pos.turn();
    let mut p = pos.clone();
    p.play_unchecked(m);
    let Some(role) = captured else {
        return (p, None);
    };
    let p = change_pocket(&p, us, role, -1).unwrap_or(p);
    (p, Some(Piece { color: !us, role }))
}

/// The position with `delta` more pieces of `role` in `color`'s hand
/// (`None` when a count would drop below zero or overflow).
pub fn change_pocket(pos: &Crazyhouse, color: Color, role: Role, delta: i32) -> Option<Crazyhouse> {
    let mut setup = pos.to_setup(EnPassantMode::Always);
    let pockets = setup.pockets.get_or_insert_with(Default::default);
    let n = pockets.get_mut(color).get_mut(role);
    *n = u8::try_from(i32::from(*n) + delta).ok()?;
    let mode = pos.castles().mode();
    Crazyhouse::from_setup(setup, mode)
        .or_else(PositionError::ignore_too_much_material)
        .ok()
}

/// A piece arrives from the partner (Bughouse).
pub fn add_to_pocket(pos: &Crazyhouse, piece: Piece) -> Option<Crazyhouse> {
    change_pocket(pos, piece.color, piece.role, 1)
}

/// Where a board stands for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BoardStatus {
    /// There is a legal move.
    Playing,
    /// Mated: `winner` won this board.
    Checkmate { winner: Color },
    /// Crazyhouse only: no legal move, not in check.
    Stalemate,
    /// Bughouse only: no legal move, but no mate either (a check a drop
    /// could block, or no move without check): waiting for a piece.
    MustWait { in_check: bool },
}

/// Can a drop (by any piece, hand or not) block the check?
pub fn check_is_blockable(pos: &Crazyhouse) -> bool {
    let checkers = pos.checkers();
    let Some(checker) = checkers.single_square() else {
        return false;
    };
    pos.board()
        .king_of(pos.turn())
        .is_some_and(|king| attacks::between(checker, king).any())
}

/// The status of the side to move under the rules of `kind`.
pub fn status(pos: &Crazyhouse, kind: VariantKind) -> BoardStatus {
    if !pos.legal_moves().is_empty() {
        return BoardStatus::Playing;
    }
    let in_check = pos.is_check();
    match kind {
        VariantKind::Bughouse if !in_check || check_is_blockable(pos) => {
            BoardStatus::MustWait { in_check }
        }
        _ if in_check => BoardStatus::Checkmate {
            winner: !pos.turn(),
        },
        _ => BoardStatus::Stalemate,
    }
}

/// The move in SAN as players write it: pawn drops as `P@e4` (shakmaty
/// writes `@e4`), `+`/`#` by the rules of `kind` (in Bughouse `#` only for
/// a mate no drop could stop).
pub fn san(pos: &Crazyhouse, m: Move, kind: VariantKind) -> String {
    let mut san = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
    if san.starts_with('@') {
        san.insert(0, 'P');
    }
    if kind == VariantKind::Bughouse && san.ends_with('#') {
        let (after, _) = play(pos, m, kind);
        if status(&after, kind) != (BoardStatus::Checkmate { winner: pos.turn() }) {
            san.pop();
            san.push('+');
        }
    }
    san
}

/// Why a drop is not legal, in plain words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DropError {
    #[error("you have no {0} in hand")]
    NotInHand(&'static str),
    #[error("a king is never dropped")]
    King,
    #[error("a pawn cannot be dropped on the 1st or 8th rank")]
    PawnOnBackRank,
    #[error("{square} is occupied by {owner} {role}")]
    Occupied {
        square: Square,
        owner: &'static str,
        role: &'static str,
    },
    #[error("you are in double check: only a king move helps")]
    DoubleCheck,
    #[error("you are in check, and {0} does not block it")]
    DoesNotBlock(String),
}

fn role_word(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Why dropping `role` on `to` is illegal here (`Ok` with the move when it
/// is legal).
pub fn check_drop(pos: &Crazyhouse, role: Role, to: Square) -> Result<Move, DropError> {
    let m = Move::Put { role, to };
    if role == Role::King {
        return Err(DropError::King);
    }
    let turn = pos.turn();
    let held = pos.pockets().map_or(0, |p| *p.get(turn).get(role));
    if held == 0 {
        return Err(DropError::NotInHand(role_word(role)));
    }
    if role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
        return Err(DropError::PawnOnBackRank);
    }
    if let Some(p) = pos.board().piece_at(to) {
        return Err(DropError::Occupied {
            square: to,
            owner: if p.color == turn {
                "your"
            } else {
                "the opponent's"
            },
            role: role_word(p.role),
        });
    }
    if pos.is_legal(m) {
        return Ok(m);
    }
    if pos.checkers().more_than_one() {
        return Err(DropError::DoubleCheck);
    }
    Err(DropError::DoesNotBlock(format!(
        "{}@{to}",
        role.upper_char()
    )))
}

/// The pieces `color` holds, queen first, with their counts.
pub fn pocket_of(pos: &Crazyhouse, color: Color) -> Vec<(Role, u8)> {
    let Some(hands) = pos.pockets() else {
        return Vec::new();
    };
    let hand = hands.get(color);
    [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .into_iter()
    .map(|r| (r, *hand.get(r)))
    .filter(|&(_, n)| n > 0)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::fen::{parse_crazyhouse, write_fen};

    fn zh(fen: &str) -> Crazyhouse {
        parse_crazyhouse(fen, false).unwrap()
    }

    fn bug(fen: &str) -> Crazyhouse {
        parse_crazyhouse(fen, true).unwrap()
    }

    #[test]
    fn captures_go_to_the_partner_in_bughouse() {
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3[] w - - 0 1";
        let m = Move::Normal {
            role: Role::Pawn,
            from: Square::E4,
            capture: Some(Role::Knight),
            to: Square::D5,
            promotion: None,
        };
        let (after, sent) = play(&zh(fen), m, VariantKind::Crazyhouse);
        assert_eq!(sent, None);
        assert!(write_fen(&after).contains("[N]"));
        let (after, sent) = play(&bug(fen), m, VariantKind::Bughouse);
        assert_eq!(sent, Some(Color::Black.knight()));
        assert!(write_fen(&after).contains("[]"));
        // A promoted queen returns as a pawn (of the captured colour).
        let pos = bug("4k3/8/8/8/8/8/1q~6/K7[] w - - 0 1");
        let m = Move::Normal {
            role: Role::King,
            from: Square::A1,
            capture: Some(Role::Queen),
            to: Square::B2,
            promotion: None,
        };
        assert_eq!(play_bughouse(&pos, m).1, Some(Color::Black.pawn()));
        // En passant sends a pawn.
        let pos = bug("4k3/8/8/3pP3/8/8/8/4K3[] w - d6 0 2");
        let m = Move::EnPassant {
            from: Square::E5,
            to: Square::D6,
        };
        assert_eq!(play_bughouse(&pos, m).1, Some(Color::Black.pawn()));
    }

    #[test]
    fn the_bughouse_mate_rule() {
        // Check along the e-file, no move, nothing in hand.
        let fen = "3rrr1k/8/8/8/8/p7/P7/4K3[] w - - 0 1";
        assert_eq!(
            status(&zh(fen), VariantKind::Crazyhouse),
            BoardStatus::Checkmate {
                winner: Color::Black
            }
        );
        assert_eq!(
            status(&bug(fen), VariantKind::Bughouse),
            BoardStatus::MustWait { in_check: true }
        );
        // A protected queen next to the king: no drop helps.
        let fen = "4r2k/8/8/8/8/8/4q3/4K3[] w - - 0 1";
        assert_eq!(
            status(&bug(fen), VariantKind::Bughouse),
            BoardStatus::Checkmate {
                winner: Color::Black
            }
        );
        // A knight check cannot be blocked either.
        let fen = "6rk/5Npp/8/8/8/8/8/6K1[] b - - 0 1";
        assert_eq!(
            status(&bug(fen), VariantKind::Bughouse),
            BoardStatus::Checkmate {
                winner: Color::White
            }
        );
        // Stalemate: a draw in Crazyhouse, waiting in Bughouse.
        let fen = "7k/5Q2/6K1/8/8/8/8/8[] b - - 0 1";
        assert_eq!(
            status(&zh(fen), VariantKind::Crazyhouse),
            BoardStatus::Stalemate
        );
        assert_eq!(
            status(&bug(fen), VariantKind::Bughouse),
            BoardStatus::MustWait { in_check: false }
        );
        // With a piece in hand the blockable check is no problem.
        let fen = "3rrr1k/8/8/8/8/p7/P7/4K3[N] w - - 0 1";
        assert_eq!(
            status(&bug(fen), VariantKind::Bughouse),
            BoardStatus::Playing
        );
    }

    #[test]
    fn san_as_players_write_it() {
        let pos = zh("6rk/6pp/8/8/8/8/5PPP/6K1[NP] w - - 0 1");
        let nf7 = Move::Put {
            role: Role::Knight,
            to: Square::F7,
        };
        assert_eq!(san(&pos, nf7, VariantKind::Crazyhouse), "N@f7#");
        let pe4 = Move::Put {
            role: Role::Pawn,
            to: Square::E4,
        };
        assert_eq!(san(&pos, pe4, VariantKind::Crazyhouse), "P@e4");
        // A rook mate along the back rank: a drop on f8 could block it, so
        // in Bughouse it is only check.
        let pos = bug("6k1/5ppp/8/8/8/8/5PPP/6K1[R] w - - 0 1");
        let re8 = Move::Put {
            role: Role::Rook,
            to: Square::E8,
        };
        assert_eq!(san(&pos, re8, VariantKind::Crazyhouse), "R@e8#");
        assert_eq!(san(&pos, re8, VariantKind::Bughouse), "R@e8+");
        // The smothered mate is mate in Bughouse too.
        let pos = bug("6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1");
        assert_eq!(san(&pos, nf7, VariantKind::Bughouse), "N@f7#");
    }

    #[test]
    fn drops_explained() {
        let pos = zh("4k3/8/8/8/8/8/4r3/4K3[NP] w - - 0 1");
        // The rook on e2 checks from next to the king: drops cannot help.
        assert!(matches!(
            check_drop(&pos, Role::Knight, Square::D4),
            Err(DropError::DoesNotBlock(_))
        ));
        let pos = zh("4k3/4r3/8/8/8/8/8/4K3[NP] w - - 0 1");
        assert!(
            check_drop(&pos, Role::Knight, Square::E4).is_ok(),
            "blocks the check"
        );
        assert_eq!(
            check_drop(&pos, Role::Knight, Square::D4)
                .unwrap_err()
                .to_string(),
            "you are in check, and N@d4 does not block it"
        );
        assert_eq!(
            check_drop(&pos, Role::Bishop, Square::E4)
                .unwrap_err()
                .to_string(),
            "you have no bishop in hand"
        );
        let pos = zh("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
        assert_eq!(
            check_drop(&pos, Role::Pawn, Square::E8)
                .unwrap_err()
                .to_string(),
            "a pawn cannot be dropped on the 1st or 8th rank"
        );
        assert_eq!(
            check_drop(&pos, Role::Pawn, Square::E1)
                .unwrap_err()
                .to_string(),
            "a pawn cannot be dropped on the 1st or 8th rank"
        );
        // A pawn dropped on its 2nd rank may still advance two squares.
        let pos = zh("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
        let m = check_drop(&pos, Role::Pawn, Square::A2).unwrap();
        let mut after = pos.clone();
        after.play_unchecked(m);
        after.play_unchecked(Move::Normal {
            role: Role::King,
            from: Square::E8,
            capture: None,
            to: Square::D8,
            promotion: None,
        });
        let double = Move::Normal {
            role: Role::Pawn,
            from: Square::A2,
            capture: None,
            to: Square::A4,
            promotion: None,
        };
        assert!(after.is_legal(double));
        let pos = zh("4k3/8/8/8/8/8/4P3/4K3[N] w - - 0 1");
        assert_eq!(
            check_drop(&pos, Role::Knight, Square::E2)
                .unwrap_err()
                .to_string(),
            "e2 is occupied by your pawn"
        );
    }
}
