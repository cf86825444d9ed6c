//! The attack facts the reasons need beyond `game::tactics`: a fork as
//! the reasons word it (the forking piece must not simply be lost, two
//! targets must be more than pawns: stricter than lichess' `fork` theme
//! in `tactics`), and whether a move took away a defender.

use crate::game::tactics::{attackers as defenders, value};
use shakmaty::{Chess, Move, Position, Role, Square};

/// The pieces a fork hits, king first, then the most valuable.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Fork {
    pub targets: Vec<Role>,
}

impl Fork {
    /// "king and queen", "queen and two rooks".
    pub fn words(&self) -> String {
        let mut names: Vec<String> = Vec::new();
        let mut roles = self.targets.clone();
        roles.dedup();
        for role in roles {
            let n = self.targets.iter().filter(|&&r| r == role).count();
            let name = crate::game::notation::role_name(role);
            names.push(match n {
                1 => name.to_string(),
                2 => format!("two {name}s"),
                n => format!("{n} {name}s"),
            });
        }
        super::material::and_list(&names)
    }
}

/// Does `m`, played in `pos`, fork? The moved piece must attack two or
/// more enemy pieces that are the king, or worth more than it, or
/// undefended, and two of them must be more than pawns (a queen taking a
/// pawn and eyeing another is no fork worth the word); and it must not be
/// simply lost: either nothing attacks it, or it is defended and every
/// attacker is worth at least as much. Castling never forks.
pub(super) fn fork(pos: &Chess, m: Move) -> Option<Fork> {
    if m.is_castle() || !pos.is_legal(m) {
        return None;
    }
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let board = after.board();
    let sq = m.to();
    let role = board.role_at(sq)?;
    let own = value(role);
    let attackers = defenders(board, sq, !us);
    if attackers.any() {
        let cheapest = attackers
            .into_iter()
            .filter_map(|s| board.role_at(s))
            .map(value)
            .min()
            .unwrap_or(i32::MAX);
        if defenders(board, sq, us).is_empty() || cheapest < own {
            return None;
        }
    }
    let mut targets: Vec<Role> = (board.attacks_from(sq) & board.by_color(!us))
        .into_iter()
        .filter_map(|t| {
            let r = board.role_at(t)?;
            let hit = r == Role::King || value(r) > own || defenders(board, t, !us).is_empty();
            hit.then_some(r)
        })
        .collect();
    if targets.iter().filter(|&&r| r != Role::Pawn).count() < 2 {
        return None;
    }
    targets.sort_by_key(|&r| std::cmp::Reverse(value(r)));
    Some(Fork { targets })
}

/// Did `played` (from `before`) leave the piece on `sq` undefended? True
/// when, after the move, no piece defends `sq`, and either the moved piece
/// went there or it defended `sq` before the move.
pub(super) fn left_undefended(before: &Chess, played: Move, sq: Square) -> bool {
    let us = before.turn();
    let mut after = before.clone();
    after.play_unchecked(played);
    let board = after.board();
    if board.color_at(sq) != Some(us) || defenders(board, sq, us).any() {
        return false;
    }
    if played.to() == sq {
        return true;
    }
    played
        .from()
        .is_some_and(|from| defenders(before.board(), sq, us).contains(from))
}
