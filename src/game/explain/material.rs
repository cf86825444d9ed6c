//! Material along a line: what each side takes until the captures stop,
//! the exchange a line ends in the middle of, and the words for what was
//! lost for what.

use shakmaty::{Board, Chess, Color, Move, Position, Role, Square};

pub(super) use crate::game::tactics::value;

/// What a line does to the material, seen by the side that moves first.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Outcome {
    /// Plies of the line up to its last capture or promotion before the
    /// captures stopped (0: the line takes nothing).
    pub plies: usize,
    /// The first mover's material change in pawns (negative: lost).
    pub net: i32,
    /// The first mover's pieces taken.
    pub lost: Vec<Role>,
    /// The other side's pieces taken.
    pub won: Vec<Role>,
    /// A promotion before the captures stopped: its ply and who promoted.
    pub promotion: Option<(usize, Color)>,
}

/// Plays `line` from `pos` and counts material until it settles: the line
/// ends, or two plies in a row take nothing after something was taken
/// (one quiet ply between captures is a check or an in-between move and
/// the exchange goes on). When the line ends on a capture, the recaptures
/// a static exchange says are worth it are counted too: a principal
/// variation cut in the middle of an exchange would otherwise look like a
/// win of a piece. Illegal moves end the line.
pub(super) fn outcome(pos: &Chess, line: &[Move]) -> Outcome {
    let us = pos.turn();
    let mut out = Outcome::default();
    let mut pos = pos.clone();
    let mut quiet = 0;
    let mut ended_on_capture = false;
    for (i, &m) in line.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        let mover = pos.turn();
        let taken = m.capture();
        if let Some(role) = taken {
            take(&mut out, us, mover, role);
        }
        if let Some(role) = m.promotion() {
            let gain = value(role) - value(Role::Pawn);
            out.net += if mover == us { gain } else { -gain };
            out.promotion.get_or_insert((i, mover));
        }
        pos.play_unchecked(m);
        if taken.is_some() || m.is_promotion() {
            out.plies = i + 1;
            quiet = 0;
            ended_on_capture = taken.is_some();
        } else {
            ended_on_capture = false;
            if out.plies > 0 {
                quiet += 1;
                if quiet >= 2 {
                    break;
                }
            }
        }
    }
    if ended_on_capture && out.plies == line.len() {
        finish_exchange(&mut out, us, &pos, line[line.len() - 1].to());
    }
    out
}

/// Books a capture of `role` by `mover` for the side `us`.
fn take(out: &mut Outcome, us: Color, mover: Color, role: Role) {
    if mover == us {
        out.net += value(role);
        out.won.push(role);
    } else {
        out.net -= value(role);
        out.lost.push(role);
    }
}

/// Goes on capturing on `sq` (cheapest piece first) as long as the static
/// exchange says the capture gains something.
fn finish_exchange(out: &mut Outcome, us: Color, pos: &Chess, sq: Square) {
    let mut board = pos.board().clone();
    let mut side = pos.turn();
    loop {
        if see(&board, sq, side) <= 0 {
            return;
        }
        let Some(from) = cheapest_attacker(&board, sq, side, board.occupied()) else {
            return;
        };
        let (Some(victim), Some(piece)) = (board.role_at(sq), board.remove_piece_at(from)) else {
            return;
        };
        take(out, us, side, victim);
        board.set_piece_at(sq, piece);
        side = !side;
    }
}

/// The cheapest piece of `side` attacking `sq` through `occupied`.
fn cheapest_attacker(
    board: &Board,
    sq: Square,
    side: Color,
    occupied: shakmaty::Bitboard,
) -> Option<Square> {
    (board.attacks_to(sq, side, occupied) & occupied)
        .into_iter()
        .min_by_key(|&s| board.role_at(s).map_or(i32::MAX, value))
}

/// What `side` gains at best by starting captures on `sq` (0 when it had
/// better not): the classic swap list, each side free to stop, the
/// cheapest attacker first, x-rays seen as pieces leave. Pins are ignored;
/// a king does not capture into a square still attacked.
pub(super) fn see(board: &Board, sq: Square, side: Color) -> i32 {
    let Some(victim) = board.role_at(sq) else {
        return 0;
    };
    let mut occupied = board.occupied();
    let mut gains: Vec<i32> = Vec::new();
    let mut on_square = value(victim);
    let mut stm = side;
    while let Some(from) = cheapest_attacker(board, sq, stm, occupied) {
        let role = board.role_at(from).unwrap_or(Role::King);
        let rest = occupied.without(from);
        if role == Role::King && (board.attacks_to(sq, !stm, rest) & rest).any() {
            break;
        }
        gains.push(on_square);
        on_square = value(role);
        occupied = rest;
        stm = !stm;
    }
    gains.iter().rev().fold(0, |acc, &g| (g - acc).max(0))
}

/// Cancels what was traded evenly (the same piece, or a bishop for a
/// knight) and names a rook lost for a minor piece "the exchange": (1 for
/// the exchange or 0, what is left of `lost`, what is left of `won`).
fn cancel(lost: &[Role], won: &[Role]) -> (usize, Vec<Role>, Vec<Role>) {
    let mut lost = lost.to_vec();
    let mut won = won.to_vec();
    let minor = |r: Role| matches!(r, Role::Knight | Role::Bishop);
    let mut i = 0;
    while i < lost.len() {
        let same = won.iter().position(|&w| w == lost[i]);
        let other = || won.iter().position(|&w| minor(w) && minor(lost[i]));
        if let Some(j) = same.or_else(other) {
            lost.remove(i);
            won.remove(j);
        } else {
            i += 1;
        }
    }
    // "The exchange" only when it is the whole story apart from pawns: two
    // rooks for a knight are not "the exchange and a rook".
    let pieces = |v: &[Role]| v.iter().filter(|&&r| r != Role::Pawn).count();
    let exchange = pieces(&lost) == 1
        && pieces(&won) == 1
        && lost.contains(&Role::Rook)
        && won.iter().any(|&r| minor(r));
    if exchange {
        lost.retain(|&r| r != Role::Rook);
        won.retain(|&r| !minor(r));
    }
    (usize::from(exchange), lost, won)
}

/// Names pieces: "the queen" (the side had one), "a knight" (it had more),
/// "two pawns", "a rook and a pawn", most valuable first. `had` is the
/// owner's count of each kind before the line.
fn pieces(roles: &[Role], had: &dyn Fn(Role) -> usize) -> Vec<String> {
    let mut out = Vec::new();
    for role in [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ] {
        let n = roles.iter().filter(|&&r| r == role).count();
        let name = super::super::notation::role_name(role);
        out.push(match n {
            0 => continue,
            1 if role != Role::Pawn && had(role) == 1 => format!("the {name}"),
            1 => format!("a {name}"),
            n => format!("{} {name}s", number_word(n)),
        });
    }
    out
}

fn number_word(n: usize) -> String {
    match n {
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        5 => "five".into(),
        n => n.to_string(),
    }
}

/// "a, b and c".
pub(super) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What a trade gives and gets, in words: `given` "the exchange", "the
/// bishop", "two pawns"; `got` "a pawn" or empty; `plural` for the verb.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Trade {
    pub given: String,
    pub got: String,
    pub plural: bool,
}

/// The words for giving `given` for `got`, the giver's pieces counted in
/// `giver_had`, the taker's in `taker_had`. `None` when nothing is left
/// once even trades cancel.
pub(super) fn trade(
    given: &[Role],
    got: &[Role],
    giver_had: &dyn Fn(Role) -> usize,
    taker_had: &dyn Fn(Role) -> usize,
) -> Option<Trade> {
    let (exchanges, given, got) = cancel(given, got);
    let mut g = Vec::new();
    if exchanges > 0 {
        g.push("the exchange".to_string());
    }
    g.extend(pieces(&given, giver_had));
    if g.is_empty() {
        return None;
    }
    let plural = g.len() > 1 || given.len() > 1;
    Some(Trade {
        given: and_list(&g),
        got: and_list(&pieces(&got, taker_had)),
        plural,
    })
}

/// How many pieces of `role` `color` has on `board`.
pub(super) fn count(board: &Board, color: Color, role: Role) -> usize {
    (board.by_color(color) & board.by_role(role)).count()
}
