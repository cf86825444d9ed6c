//! Words and numbers for the screen: scores, endings, lines of moves in
//! SAN. Pure functions of the game data, used by the app (status messages)
//! and the views alike.

use crate::engine::{Board, Score};
use crate::game::{Ending, GameResult, Termination};
use shakmaty::{Color, Move, Position, Square};

/// Where a move visibly goes: the king's square (g or c file) for castling,
/// which shakmaty encodes as "king takes rook".
pub fn shown_to(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                shakmaty::File::G
            } else {
                shakmaty::File::C
            };
            Square::from_coords(file, king.rank())
        }
        _ => m.to(),
    }
}

pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// "Black wins by checkmate", "draw by stalemate".
pub fn describe_ending(e: Ending) -> String {
    let who = match e.result {
        GameResult::WhiteWins => "White wins",
        GameResult::BlackWins => "Black wins",
        GameResult::Draw => "draw",
    };
    let why = match e.termination {
        Termination::Agreement => "agreement",
        Termination::Abandoned => "engine failure",
        t => t.describe(),
    };
    let mut s = format!("{who} by {why}");
    if e.termination == Termination::TimeForfeit && e.result == GameResult::Draw {
        s.push_str(" (the opponent cannot mate)");
    }
    capitalise(&s)
}

/// `+0.35`, `-1.20`, `#3`, `#-2` (side to move's view).
pub fn score_text(s: Score) -> String {
    match s.mate_moves() {
        Some(n) => format!("#{n}"),
        None => format!("{:+.2}", s.0 as f64 / 100.0),
    }
}

/// The first `max` moves of a line in SAN with move numbers.
pub fn san_line(board: &Board, moves: &[Move], max: usize) -> String {
    let mut b = board.clone();
    let mut out = Vec::new();
    for (i, &m) in moves.iter().take(max).enumerate() {
        if !b.is_legal(m) {
            break;
        }
        let n = b.chess().fullmoves().get();
        if b.turn() == Color::White {
            out.push(format!("{n}. {}", b.san(m)));
        } else if i == 0 {
            out.push(format!("{n}... {}", b.san(m)));
        } else {
            out.push(b.san(m));
        }
        b = b.play(m);
    }
    out.join(" ")
}
