//! The themes about kinds of moves (promotion, castling, quiet moves),
//! material (sacrifice, endgames) and where the attack goes (exposed king,
//! king- or queenside attack).

use super::Line;
use crate::game::tactics::{self, attacked_pieces};
use shakmaty::{Color, File, Position, Rank, Role, Square};

/// The rank `sq` is on counted from `color`'s side (1 to 8).
fn relative_rank(sq: Square, color: Color) -> u32 {
    let r = u32::from(sq.rank()) + 1;
    match color {
        Color::White => r,
        Color::Black => 9 - r,
    }
}

/// A promotion, or a pawn move to its sixth rank or beyond.
fn is_advanced_pawn_move(l: &Line, i: usize) -> bool {
    l.mv(i).promotion().is_some()
        || (l.moved(i) == Role::Pawn && relative_rank(l.to(i), l.before(i).turn()) >= 6)
}

/// A solver's pawn reaches its seventh or eighth rank.
pub(super) fn advanced_pawn(l: &Line) -> bool {
    l.solver_moves()
        .any(|i| is_advanced_pawn_move(l, i) && relative_rank(l.to(i), l.pov) >= 7)
}

/// A solver's move before the last that neither checks, answers a check,
/// takes, attacks a piece, pushes a far-advanced pawn nor moves the king:
/// a quiet move that still wins.
pub(super) fn quiet_move(l: &Line) -> bool {
    l.solver_moves().filter(|&i| i + 1 < l.len()).any(|i| {
        !l.after(i).is_check()
            && !l.before(i).is_check()
            && !l.is_capture(i)
            && attacked_pieces(l.after(i).board(), l.to(i)).is_empty()
            && !is_advanced_pawn_move(l, i)
            && l.moved(i) != Role::King
    })
}

/// The last move is a quiet defence (no check, capture, attack or
/// advanced pawn push) chosen among at least three moves.
pub(super) fn defensive_move(l: &Line) -> bool {
    let last = l.len() - 1;
    l.before(last).legal_moves().len() >= 3
        && !l.after(last).is_check()
        && !l.is_capture(last)
        && attacked_pieces(l.after(last).board(), l.to(last)).is_empty()
        && !is_advanced_pawn_move(l, last)
}

/// The solver's first move that neither checks nor takes answers a check,
/// with at least three moves to choose from.
pub(super) fn check_escape(l: &Line) -> bool {
    for i in l.solver_moves() {
        if l.after(i).is_check() || l.is_capture(i) || l.before(i).legal_moves().len() < 3 {
            return false;
        }
        if l.before(i).is_check() {
            return true;
        }
    }
    false
}

/// The solver gives up two points of material or more (counted after one
/// of its later moves, from the position it faced), without an opponent's
/// promotion explaining the loss.
pub(super) fn sacrifice(l: &Line) -> bool {
    let diff = |i: usize| tactics::material_diff(l.after(i).board(), l.pov);
    let initial = diff(0);
    if l.solver_moves().skip(1).any(|i| diff(i) - initial <= -2) {
        return !(2..l.len())
            .step_by(2)
            .any(|i| l.mv(i).promotion().is_some());
    }
    false
}

/// The opponent's king stands on its first three ranks without a pawn of
/// its own beside it or in front of it, and the solver checks it on a
/// move other than the first and the last.
pub(super) fn exposed_king(l: &Line) -> bool {
    let mut board = l.after(0).board().clone();
    if l.pov == Color::Black {
        board.mirror();
    }
    // Now the solver is White and the opponent's king is Black's.
    let Some(king) = board.king_of(Color::Black) else {
        return false;
    };
    if u32::from(king.rank()) < 5 {
        return false;
    }
    let shield = board.pawns() & board.black();
    let around = [(-1, 0), (1, 0), (-1, -1), (0, -1), (1, -1)];
    let guarded = around.into_iter().any(|(df, dr)| {
        let sq = king
            .file()
            .offset(df)
            .zip(king.rank().offset(dr))
            .map(|(f, r)| Square::from_coords(f, r));
        sq.is_some_and(|s| shield.contains(s))
    });
    if guarded {
        return false;
    }
    let solver: Vec<usize> = l.solver_moves().collect();
    solver.len() > 2
        && solver[1..solver.len() - 1]
            .iter()
            .any(|&i| l.after(i).is_check())
}

/// A solver's capture on f2 or f7 next to the opponent's king still on e1
/// or e8 (lichess looks at the first such capture only).
pub(super) fn attacking_f2_f7(l: &Line) -> bool {
    for i in l.solver_moves() {
        let sq = l.to(i);
        if l.on_target(i).is_some() && (sq == Square::F2 || sq == Square::F7) {
            let king = if sq == Square::F7 {
                Square::E8
            } else {
                Square::E1
            };
            return l.after(i).board().piece_at(king)
                == Some(shakmaty::Piece {
                    color: !l.pov,
                    role: Role::King,
                });
        }
    }
    false
}

/// A checking attack on a king castled (or standing) on one wing in a
/// middlegame: the opponent's king on its back rank on `king_files`, at
/// least `min_pieces` pieces on the board, some solver move checks, and
/// the solver's moves score: +1 a check, +1 a capture within three squares
/// of the wing's corner, -1 a move five or more squares from it; two
/// points make the theme.
fn side_attack(l: &Line, corner_file: File, king_files: &[File], min_pieces: usize) -> bool {
    let back = if l.pov == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    };
    let init = l.after(0).board();
    let Some(king) = init.king_of(!l.pov) else {
        return false;
    };
    if king.rank() != back
        || !king_files.contains(&king.file())
        || init.occupied().count() < min_pieces
        || !l.solver_moves().any(|i| l.after(i).is_check())
    {
        return false;
    }
    let corner = Square::from_coords(corner_file, back);
    let mut score = 0;
    for i in l.solver_moves() {
        let distance = corner.distance(l.to(i));
        if l.after(i).is_check() {
            score += 1;
        }
        if l.is_capture(i) && distance <= 3 {
            score += 1;
        } else if distance >= 5 {
            score -= 1;
        }
    }
    score >= 2
}

/// An attack on the king on the g- or h-file (see [`side_attack`]).
pub(super) fn kingside_attack(l: &Line) -> bool {
    side_attack(l, File::H, &[File::G, File::H], 20)
}

/// An attack on the king on the a-, b- or c-file (see [`side_attack`]).
pub(super) fn queenside_attack(l: &Line) -> bool {
    side_attack(l, File::A, &[File::A, File::B, File::C], 18)
}

/// A solver's en passant capture.
pub(super) fn en_passant(l: &Line) -> bool {
    l.solver_moves().any(|i| l.mv(i).is_en_passant())
}

/// A solver's castling move.
pub(super) fn castling(l: &Line) -> bool {
    l.solver_moves().any(|i| l.mv(i).is_castle())
}

/// A solver's promotion.
pub(super) fn promotion(l: &Line) -> bool {
    l.solver_moves().any(|i| l.mv(i).promotion().is_some())
}

/// A solver's promotion to something other than a queen (up to the mate,
/// which counts only when a knight gives it by promoting).
pub(super) fn under_promotion(l: &Line) -> bool {
    for i in l.solver_moves() {
        let promo = l.mv(i).promotion();
        if l.after(i).is_checkmate() {
            return promo == Some(Role::Knight);
        }
        if promo.is_some_and(|r| r != Role::Queen) {
            return true;
        }
    }
    false
}

/// Before and after the solver's first move, only kings, pawns and pieces
/// of `role` are on the board, and some piece of `role` is (for pawns:
/// only kings and pawns).
pub(super) fn piece_endgame(l: &Line, role: Role) -> bool {
    [l.after(0), l.after(1)].into_iter().all(|pos| {
        let b = pos.board();
        b.by_role(role).any()
            && (b.occupied() & !b.kings() & !b.pawns() & !b.by_role(role)).is_empty()
    })
}

/// Before and after the solver's first move: one queen on the board, some
/// rook, and nothing else but kings and pawns.
pub(super) fn queen_rook_endgame(l: &Line) -> bool {
    [l.after(0), l.after(1)].into_iter().all(|pos| {
        let b = pos.board();
        b.queens().count() == 1 && b.rooks().any() && (b.knights() | b.bishops()).is_empty()
    })
}
