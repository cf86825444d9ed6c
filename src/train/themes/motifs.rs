//! The tactical themes: they look at a few consecutive moves of the line
//! (the solver's move, the opponent's reply before it, the solver's move
//! before that) with the motifs of [`crate::game::tactics`].
//!
//! Move indices follow [`Line`]: the solver plays 1, 3, 5...; `i - 1` is
//! the opponent's move just before solver move `i`, `i - 2` the solver's
//! previous move.

use super::Line;
use crate::game::tactics::{self, attackers, is_defended, is_in_bad_spot, is_slider, value};
use shakmaty::{Position, Role, attacks};

/// The solver's moves from the second on (those with a previous solver
/// move and an opponent's reply in between).
fn later_solver_moves(l: &Line) -> impl Iterator<Item = usize> + use<> {
    l.solver_moves().skip(1)
}

/// A fork by any solver move but the last (the last one ends the puzzle:
/// nothing is left to win), by a piece other than the king (see
/// [`tactics::fork`]).
pub(super) fn fork(l: &Line) -> bool {
    l.solver_moves()
        .filter(|&i| i + 1 < l.len())
        .any(|i| l.moved(i) != Role::King && tactics::fork(l.after(i), l.to(i)).is_some())
}

/// The solver's first move takes an undefended piece other than a pawn
/// that the opponent's move left there: not a recapture of equal or more
/// value on the square the opponent just took on, not an answer to a check
/// (unless it takes a piece), and not a bait (two moves later the solver
/// has not lost material back).
pub(super) fn hanging_piece(l: &Line) -> bool {
    let to = l.to(1);
    let faced = l.after(0);
    let captured = faced.board().piece_at(to);
    if faced.is_check() && captured.is_none_or(|p| p.role == Role::Pawn) {
        return false;
    }
    let Some(captured) = captured else {
        return false;
    };
    if captured.role == Role::Pawn || is_defended(faced.board(), to) {
        return false;
    }
    let recapture = l.to(0) == to
        && l.before(0)
            .board()
            .role_at(to)
            .is_some_and(|r| value(r) >= value(captured.role));
    if recapture {
        return false;
    }
    if l.len() < 4 {
        return true;
    }
    tactics::material_diff(l.after(3).board(), l.pov)
        >= tactics::material_diff(l.after(1).board(), l.pov)
}

/// A solver's later move takes a piece (not a pawn) that was trapped
/// before the opponent's last move: in a bad spot with nowhere safe to go
/// (see [`tactics::is_trapped`]). When the opponent moved the piece in
/// between and it was taken on its new square, the old square counts.
pub(super) fn trapped_piece(l: &Line) -> bool {
    later_solver_moves(l).any(|i| {
        let Some(captured) = l.on_target(i) else {
            return false;
        };
        if captured.role == Role::Pawn {
            return false;
        }
        let sq = if l.to(i - 1) == l.to(i) {
            l.from(i - 1)
        } else {
            l.to(i)
        };
        tactics::is_trapped(l.after(i - 2), sq)
    })
}

/// A discovered check on any solver move (not a double check), or a solver's capture along a
/// line that the solver's previous move opened (that move's piece left a
/// square between the capturing piece and its target). Lichess stops at
/// the first capture that is a recapture on the square the opponent just
/// moved to.
pub(super) fn discovered_attack(l: &Line) -> bool {
    // Lichess' discovered check: the moved piece is not among the checkers
    // (so a double check, where it is, does not count).
    if l.solver_moves().any(|i| {
        let checkers = l.after(i).checkers();
        checkers.any() && !checkers.contains(l.to(i))
    }) {
        return true;
    }
    for i in later_solver_moves(l) {
        if !l.is_capture(i) {
            continue;
        }
        if l.to(i - 1) == l.to(i) {
            return false;
        }
        let prev = i - 2;
        if attacks::between(l.from(i), l.to(i)).contains(l.from(prev))
            && l.to(i) != l.to(prev)
            && l.from(i) != l.to(prev)
            && !l.mv(prev).is_castle()
        {
            return true;
        }
    }
    false
}

/// Check from two pieces at once on any solver move.
pub(super) fn double_check(l: &Line) -> bool {
    l.solver_moves()
        .any(|i| tactics::is_double_check(l.after(i)))
}

/// An exchange on one square where the solver's last capture comes from
/// behind the opponent's recapturing piece (through the square it left).
pub(super) fn x_ray(l: &Line) -> bool {
    later_solver_moves(l).any(|i| {
        l.is_capture(i)
            && l.to(i - 1) == l.to(i)
            && l.moved(i - 1) != Role::King
            && l.to(i - 2) == l.to(i - 1)
            && attacks::between(l.from(i), l.to(i)).contains(l.from(i - 1))
    })
}

/// A solver's slider takes a piece behind the one the opponent just moved
/// off the line: the moved piece was worth more than the taken one (a king
/// most of all) and the taken one stood in a bad spot. A mating capture is
/// not a skewer.
pub(super) fn skewer(l: &Line) -> bool {
    later_solver_moves(l).any(|i| {
        let Some(captured) = l.on_target(i) else {
            return false;
        };
        if !is_slider(l.moved(i)) || l.after(i).is_checkmate() {
            return false;
        }
        let op = i - 1;
        l.to(op) != l.to(i)
            && attacks::between(l.from(i), l.to(i)).contains(l.from(op))
            && value(l.moved(op)) > value(captured.role)
            && is_in_bad_spot(l.after(op).board(), l.to(i))
    })
}

/// A solver's capture of an undefended piece whose defender (a slider,
/// the first found) was cut off by a piece moved in between it and the
/// captured one: by the opponent's move just before, or by the solver's
/// previous move.
pub(super) fn interference(l: &Line) -> bool {
    later_solver_moves(l).any(|i| {
        let sq = l.to(i);
        let Some(captured) = l.on_target(i) else {
            return false;
        };
        if is_defended(l.after(i - 1).board(), sq) {
            return false;
        }
        // The opponent's own piece blocks its defender's line.
        let cut_off_by = |board: &shakmaty::Board, blocker: shakmaty::Square| {
            attackers(board, sq, captured.color)
                .first()
                .is_some_and(|d| {
                    board.role_at(d).is_some_and(is_slider)
                        && attacks::between(sq, d).contains(blocker)
                })
        };
        cut_off_by(l.after(i - 2).board(), l.to(i - 1))
            || (sq != l.to(i - 1) && cut_off_by(l.before(i - 2).board(), l.to(i - 2)))
    })
}

/// A solver's capture that was available a move earlier, when the
/// opponent had just captured on that square, and was delayed by an
/// in-between solver move elsewhere (the opponent's piece did not flee).
pub(super) fn intermezzo(l: &Line) -> bool {
    for i in later_solver_moves(l) {
        if !l.is_capture(i) {
            continue;
        }
        let sq = l.to(i);
        if attackers(l.after(i - 2).board(), sq, !l.pov).contains(l.from(i - 1)) {
            continue;
        }
        if l.to(i - 2) == sq {
            continue;
        }
        let m = l.mv(i);
        let earlier = l.after(i - 3);
        return l.to(i - 3) == sq
            && l.is_capture(i - 3)
            && earlier.legal_moves().iter().any(|e| {
                e.from() == m.from() && e.to() == m.to() && e.promotion() == m.promotion()
            });
    }
    false
}

/// After a solver move, an opponent's piece is pinned to its king and the
/// pin matters (see [`tactics::pin_effect`]): it cannot take what it
/// attacks, or cannot escape an attack.
pub(super) fn pin(l: &Line) -> bool {
    l.solver_moves().any(|i| {
        let board = l.after(i).board();
        tactics::pins(board, !l.pov)
            .iter()
            .any(|p| tactics::pin_effect(board, p).is_some())
    })
}

/// A solver's slider moves (without capturing) through or onto the square
/// the solver's previous move vacated, that move having gone to a square
/// where it could be lost or where nothing was taken: the first move
/// cleared the way. Checks and king replies in between rule it out.
pub(super) fn clearance(l: &Line) -> bool {
    later_solver_moves(l).any(|i| {
        if l.on_target(i).is_some() || !is_slider(l.moved(i)) {
            return false;
        }
        let prev = i - 2;
        let cleared =
            l.from(prev) == l.to(i) || attacks::between(l.from(i), l.to(i)).contains(l.from(prev));
        l.mv(prev).promotion().is_none()
            && l.to(prev) != l.from(i)
            && l.to(prev) != l.to(i)
            && !l.after(i - 1).is_check()
            && (!l.after(i).is_check() || l.moved(i - 1) != Role::King)
            && cleared
            && (l.on_target(prev).is_none() || is_in_bad_spot(l.after(prev).board(), l.to(prev)))
    })
}

/// A solver's capture (not by the king, of a piece worth no more than the
/// capturer, undefended, not a recapture), or the mate, after the
/// solver's previous move took the piece that defended that square.
pub(super) fn capturing_defender(l: &Line) -> bool {
    later_solver_moves(l).any(|i| {
        let sq = l.to(i);
        let wins = l.on_target(i).is_some_and(|c| {
            l.moved(i) != Role::King
                && value(c.role) <= value(l.moved(i))
                && !is_defended(l.after(i - 1).board(), sq)
                && l.to(i - 1) != sq
        });
        if !(l.after(i).is_checkmate() || wins) {
            return false;
        }
        let prev = i - 2;
        if l.after(prev).is_check() || l.to(prev) == l.from(i) {
            return false;
        }
        let init = l.before(prev);
        let taken = l.to(prev);
        !init.is_check()
            && init
                .board()
                .piece_at(taken)
                .is_some_and(|d| attackers(init.board(), sq, d.color).contains(taken))
    })
}

/// python-chess' number for a piece type (pawn 1 ... king 6): lichess'
/// deflection compares a piece value with it, kept so the tags agree.
fn type_number(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight => 2,
        Role::Bishop => 3,
        Role::Rook => 4,
        Role::Queen => 5,
        Role::King => 6,
    }
}

/// The solver's previous move (or check) lured an opponent's piece away
/// from guarding a square, and the solver now takes on that square (a
/// piece worth no more than the capturer) or promotes there.
pub(super) fn deflection(l: &Line) -> bool {
    later_solver_moves(l).any(|i| {
        let captured = l.on_target(i);
        let promotes = l.mv(i).promotion().is_some();
        if captured.is_none() && !promotes {
            return false;
        }
        if captured.is_some_and(|c| value(c.role) > value(l.moved(i))) {
            return false;
        }
        let sq = l.to(i);
        let (op, prev) = (i - 1, i - 2);
        let prev_took = l.before(prev).board().role_at(l.to(prev));
        let guarded = l.after(prev).board().attacks_from(l.from(op));
        prev_took.is_none_or(|r| value(r) < type_number(l.moved(prev)))
            && sq != l.to(op)
            && sq != l.to(prev)
            && (l.to(op) == l.to(prev) || l.after(prev).is_check())
            && (guarded.contains(sq)
                || (promotes && sq.file() == l.from(op).file() && guarded.contains(l.from(i))))
            && !l.after(op).board().attacks_from(l.to(op)).contains(sq)
    })
}

/// The solver offers a piece, the opponent's king, queen or rook takes it,
/// and the solver's next move attacks that square: with check when the
/// king was lured, or followed by a capture there two moves later.
pub(super) fn attraction(l: &Line) -> bool {
    l.solver_moves().any(|i| {
        let reply = i + 1;
        let next = i + 2;
        if next >= l.len() || l.to(reply) != l.to(i) {
            return false;
        }
        let lured = l.moved(reply);
        if !matches!(lured, Role::King | Role::Queen | Role::Rook) {
            return false;
        }
        let sq = l.to(reply);
        if !attackers(l.after(next).board(), sq, l.pov).contains(l.to(next)) {
            return false;
        }
        lured == Role::King || (i + 4 < l.len() && l.to(i + 4) == sq)
    })
}
