//! Move-history files and plain move lists.
//!
//! The move-history format an earlier version of this product wrote (and
//! the endgame trainer writes): the first line is a FEN, then one line per
//! move pair in UCI notation:
//!
//! ```text
//! 8/8/8/3k4/8/8/8/4K2Q w - - 0 1
//! 1. e1d2 d5c4
//! 2. d2e3 c4c5
//! ```
//!
//! A plain move list is just moves, SAN or UCI, with or without numbers,
//! from the initial position (`1. e4 e5 2. Nf3` or `e2e4 e7e5 g1f3`).

use crate::engine::Board;
use crate::game::notation::parse_move;
use shakmaty::{Color, Move, Position};

/// A problem in a move file, with the line (from 1) it is on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct HistoryError {
    pub line: usize,
    pub reason: String,
}

/// A start position and the moves played from it.
#[derive(Clone, Debug)]
pub struct MoveList {
    pub start: Board,
    pub moves: Vec<Move>,
}

/// Does the text look like a move-history file (a FEN on its first line)?
pub fn is_history(text: &str) -> bool {
    first_line(text).is_some_and(|(_, l)| looks_like_fen(l))
}

fn first_line(text: &str) -> Option<(usize, &str)> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .find(|(_, l)| !l.is_empty())
}

/// Board part with seven slashes and a side to move.
fn looks_like_fen(line: &str) -> bool {
    let mut parts = line.split_whitespace();
    let board = parts.next().unwrap_or("");
    board.matches('/').count() == 7 && matches!(parts.next(), Some("w" | "b"))
}

/// Reads a move-history file: a FEN line, then numbered UCI move pairs.
pub fn read_history(text: &str) -> Result<MoveList, HistoryError> {
    let Some((fen_line, fen)) = first_line(text) else {
        return Err(HistoryError {
            line: 1,
            reason: "the file is empty".into(),
        });
    };
    let start = Board::from_fen(fen).map_err(|e| HistoryError {
        line: fen_line,
        reason: format!("bad FEN: {e}"),
    })?;
    let mut list = MoveList {
        start: start.clone(),
        moves: Vec::new(),
    };
    let mut board = start;
    for (i, line) in text.lines().enumerate().skip(fen_line) {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        for token in line.split_whitespace() {
            if is_move_number(token) || is_result(token) {
                continue;
            }
            let m = board.parse_uci(token).map_err(|e| HistoryError {
                line: line_no,
                reason: e,
            })?;
            board = board.play(m);
            list.moves.push(m);
        }
    }
    Ok(list)
}

/// Reads a plain list of moves (SAN or UCI, numbers allowed) from the
/// initial position.
pub fn read_move_list(text: &str) -> Result<MoveList, HistoryError> {
    let mut board = Board::startpos();
    let mut list = MoveList {
        start: board.clone(),
        moves: Vec::new(),
    };
    for (i, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        for token in line.split_whitespace() {
            // "12.e4" and "12...e5" carry the move after the dots.
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
            let token = token.trim_start_matches('.');
            if token.is_empty() || is_result(token) {
                continue;
            }
            let m = parse_move(board.chess(), token).map_err(|e| HistoryError {
                line: i + 1,
                reason: e.to_string(),
            })?;
            board = board.play(m);
            list.moves.push(m);
        }
    }
    if list.moves.is_empty() {
        return Err(HistoryError {
            line: 1,
            reason: "no moves found".into(),
        });
    }
    Ok(list)
}

fn is_move_number(t: &str) -> bool {
    let digits = t.trim_end_matches('.');
    t.ends_with('.') && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*")
}

/// Writes the move-history format: the start FEN, then `N. white black`
/// lines of UCI moves. A game that starts with Black to move opens with a
/// line holding Black's move alone (the format has no placeholder).
pub fn write_history(start: &Board, moves: &[Move]) -> String {
    let mut out = start.fen();
    out.push('\n');
    let mut b = start.clone();
    let mut number = b.chess().fullmoves().get();
    let mut line = String::new();
    for &m in moves {
        if b.turn() == Color::White || line.is_empty() {
            if !line.is_empty() {
                out.push_str(&line);
                out.push('\n');
            }
            line = format!("{number}.");
        }
        line.push(' ');
        line.push_str(&Board::uci(m));
        if b.turn() == Color::Black {
            number += 1;
        }
        b = b.play(m);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_files_read_and_write() {
        let text = "8/8/8/2k5/8/8/8/4K2Q w - - 0 1\n1. e1d2 c5c4\n2. d2e3 c4c5\n";
        assert!(is_history(text));
        let l = read_history(text).unwrap();
        assert_eq!(l.moves.len(), 4);
        assert_eq!(write_history(&l.start, &l.moves), text);
        // Black to move first: its move opens the first line.
        let b = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7").unwrap();
        let m = b.parse_uci("e8d7").unwrap();
        assert_eq!(write_history(&b, &[m]), format!("{}\n7. e8d7\n", b.fen()));
    }

    #[test]
    fn history_errors_name_the_line() {
        let e = read_history("8/8/8/2k5/8/8/8/4K2Q w - - 0 1\n1. e1d2 c5c4\n2. e1e2 c4c5\n")
            .unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.reason.contains("e1e2"), "{e}");
        let e = read_history("8/8/8/8/8/8/8/8 w - - 0 1\n1. e2e4\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.reason.contains("bad FEN"), "{e}");
        assert!(read_history("").is_err());
    }

    #[test]
    fn plain_move_lists() {
        let l = read_move_list("1. e4 e5 2.Nf3 Nc6 3. Bb5 *").unwrap();
        assert_eq!(l.moves.len(), 5);
        let l = read_move_list("e2e4 e7e5\ng1f3").unwrap();
        assert_eq!(l.moves.len(), 3);
        let e = read_move_list("e4 e5\nNf6").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(!is_history("1. e4 e5"));
    }
}
