//! Explaining an illegal move: which rule it breaks (castling through
//! check, a pinned piece, a king left in check, a pawn that cannot go
//! there...).

use shakmaty::san::San;
use shakmaty::{Bitboard, CastlingSide, Chess, Move, Position, Rank, Role, Square, attacks};

use super::*;

pub(super) fn castling_block(pos: &Chess, side: CastlingSide) -> CastlingBlock {
    let us = pos.turn();
    let board = pos.board();
    let castles = pos.castles();
    if !castles.has(us, side) {
        return CastlingBlock::NoRights;
    }
    if pos.is_check() {
        return CastlingBlock::InCheck;
    }
    if (castles.path(us, side) & board.occupied()).any() {
        return CastlingBlock::PiecesInTheWay;
    }
    let Some(king) = board.king_of(us) else {
        return CastlingBlock::Other;
    };
    let king_to = side.king_to(us);
    let occupied = board.occupied().without(king);
    for sq in attacks::between(king, king_to) {
        if board.attacks_to(sq, !us, occupied).any() {
            return CastlingBlock::PassesThroughAttack(sq);
        }
    }
    if board.attacks_to(king_to, !us, occupied).any() {
        return CastlingBlock::LandsInCheck(king_to);
    }
    CastlingBlock::Other
}

/// Moves of our pieces of `role` to `to` that follow the rules of movement
/// but may leave our king in check (castling excluded; all promotions).
pub(super) fn pseudo_moves(pos: &Chess, role: Role, to: Square) -> Vec<Move> {
    fn add_pawn_move(
        out: &mut Vec<Move>,
        from: Square,
        to: Square,
        capture: Option<Role>,
        last: bool,
    ) {
        let promotions: &[Option<Role>] = if last {
            &[
                Some(Role::Queen),
                Some(Role::Rook),
                Some(Role::Bishop),
                Some(Role::Knight),
            ]
        } else {
            &[None]
        };
        for &promotion in promotions {
            out.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion,
            });
        }
    }

    let board = pos.board();
    let us = pos.turn();
    let mut out = Vec::new();
    let target = board.piece_at(to);
    if target.is_some_and(|p| p.color == us) {
        return out;
    }
    let capture = target.map(|p| p.role);
    let ours = board.by_piece(role.of(us));
    if role == Role::Pawn {
        let last = to.rank() == us.fold_wb(Rank::Eighth, Rank::First);
        let forward = us.fold_wb(1, -1);
        if target.is_none()
            && let Some(r1) = to.rank().offset(-forward)
        {
            let s1 = Square::from_coords(to.file(), r1);
            if ours.contains(s1) {
                add_pawn_move(&mut out, s1, to, None, last);
            } else if board.piece_at(s1).is_none()
                && to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth)
                && let Some(r2) = r1.offset(-forward)
            {
                let s2 = Square::from_coords(to.file(), r2);
                if ours.contains(s2) {
                    add_pawn_move(&mut out, s2, to, None, last);
                }
            }
        }
        for from in attacks::pawn_attacks(!us, to) & ours {
            if capture.is_some() {
                add_pawn_move(&mut out, from, to, capture, last);
            } else if pos.maybe_ep_square() == Some(to) {
                out.push(Move::EnPassant { from, to });
            }
        }
    } else {
        for from in ours {
            if attacks::attacks(from, role.of(us), board.occupied()).contains(to) {
                out.push(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
        }
    }
    out
}

/// Why no legal move fits the intent, with a score: 3 when the piece could
/// go there but the king would be in check, 2 for a specific rule, 1 for
/// "nothing can get there".
pub(super) fn explain(pos: &Chess, i: &Intent) -> (u8, MoveInputError) {
    if let Some(&m) = pseudo_moves(pos, i.role, i.to)
        .iter()
        .find(|m| i.matches(m))
    {
        return (3, king_safety(pos, m));
    }
    let board = pos.board();
    let us = pos.turn();
    let impossible = |reason| MoveInputError::Impossible {
        input: i.text(),
        reason,
    };
    if let Some(p) = i.promotion {
        if i.role != Role::Pawn {
            return (2, impossible("only pawns promote"));
        }
        if matches!(p, Role::King | Role::Pawn) {
            return (
                2,
                impossible("a pawn promotes to a queen, rook, bishop or knight"),
            );
        }
        if i.to.rank() != us.fold_wb(Rank::Eighth, Rank::First) {
            return (2, impossible("pawns promote only on the last rank"));
        }
    }
    let target = board.piece_at(i.to);
    if let Some(p) = target
        && p.color == us
    {
        return (
            2,
            MoveInputError::OwnPiece {
                to: i.to,
                role: p.role,
            },
        );
    }
    let ep = i.role == Role::Pawn && pos.maybe_ep_square() == Some(i.to);
    if i.capture && target.is_none() && !ep {
        return (2, MoveInputError::NothingToCapture(i.to));
    }
    let mut froms = board.by_piece(i.role.of(us));
    if let Some(f) = i.file {
        froms &= Bitboard::from_file(f);
    }
    if let Some(r) = i.rank {
        froms &= Bitboard::from_rank(r);
    }
    let cannot_reach = |from| MoveInputError::CannotReach {
        role: i.role,
        from,
        to: i.to,
    };
    let no_piece = MoveInputError::NoPieceCanReach {
        role: i.role,
        which: i.which(),
        to: i.to,
        capture: i.is_capture_shaped(),
    };
    if froms.is_empty() {
        return match i.origin() {
            Some(square) => (
                1,
                MoveInputError::NoPieceOn {
                    role: i.role,
                    square,
                },
            ),
            None => (1, no_piece),
        };
    }
    if i.role == Role::Pawn {
        if let Some(e) = explain_pawn(pos, i, froms) {
            return (2, e);
        }
    } else {
        let piece = i.role.of(us);
        for from in froms {
            if attacks::attacks(from, piece, Bitboard::EMPTY).contains(i.to)
                && let Some(at) = (attacks::between(from, i.to) & board.occupied()).first()
            {
                return (
                    2,
                    MoveInputError::Blocked {
                        role: i.role,
                        from,
                        to: i.to,
                        at,
                    },
                );
            }
        }
    }
    match i.origin() {
        Some(from) => (1, cannot_reach(from)),
        None if i.role == Role::King => match froms.single_square() {
            Some(from) => (1, cannot_reach(from)),
            None => (1, no_piece),
        },
        None => (1, no_piece),
    }
}

/// Pawn rules: no capture straight ahead, a double step needs a free path,
/// a diagonal step needs something to capture.
pub(super) fn explain_pawn(pos: &Chess, i: &Intent, froms: Bitboard) -> Option<MoveInputError> {
    let board = pos.board();
    let us = pos.turn();
    let to = i.to;
    let target = board.piece_at(to);
    if i.is_pawn_push() {
        let forward = us.fold_wb(1, -1);
        let r1 = to.rank().offset(-forward)?;
        let s1 = Square::from_coords(to.file(), r1);
        let s2 = (to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth))
            .then(|| r1.offset(-forward))
            .flatten()
            .map(|r| Square::from_coords(to.file(), r))
            .filter(|s| froms.contains(*s));
        if froms.contains(s1) || (s2.is_some() && board.piece_at(s1).is_none()) {
            if target.is_some() {
                return Some(MoveInputError::Impossible {
                    input: i.text(),
                    reason: "pawns capture diagonally, and the square ahead is taken",
                });
            }
        } else if let Some(from) = s2
            && board.piece_at(s1).is_some()
        {
            return Some(MoveInputError::Blocked {
                role: Role::Pawn,
                from,
                to,
                at: s1,
            });
        }
    } else if (attacks::pawn_attacks(!us, to) & froms).any() && target.is_none() {
        return Some(MoveInputError::NothingToCapture(to));
    }
    None
}

/// The move follows the rules of movement, so it is illegal only because
/// of our king: say how.
pub(super) fn king_safety(pos: &Chess, m: Move) -> MoveInputError {
    let san = San::from_move(pos, m).to_string();
    if m.role() == Role::King {
        return MoveInputError::KingIntoCheck { san };
    }
    if pos.is_check() {
        return MoveInputError::DoesNotAnswerCheck { san };
    }
    let board = pos.board();
    if let Some(from) = m.from()
        && let Some(king) = board.king_of(pos.turn())
        && board
            .attacks_to(king, !pos.turn(), board.occupied().without(from))
            .any()
    {
        return MoveInputError::Pinned {
            san,
            role: m.role(),
            from,
        };
    }
    MoveInputError::LeavesKingInCheck { san }
}
