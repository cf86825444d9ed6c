//! PGN export.

use super::Game;
use shakmaty::{Color, Position};

/// Escapes a tag value (backslash and double quote).
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Removes `}` from comments (it would end the comment early).
fn comment_text(c: &str) -> String {
    c.replace('}', ")")
}

/// Writes a game as PGN: the seven-tag roster (with `?` for missing values),
/// `SetUp`/`FEN` when the game does not start from the initial position, the
/// other headers, then SAN movetext wrapped at 80 columns.
pub fn write_pgn(game: &Game) -> String {
    let mut out = String::new();
    let result = game.ending.map_or("*", |e| e.result.pgn());
    let roster = ["Event", "Site", "Date", "Round", "White", "Black"];
    for key in roster {
        let v = game.header(key).unwrap_or(match key {
            "Date" => "????.??.??",
            _ => "?",
        });
        out.push_str(&format!("[{key} \"{}\"]\n", escape(v)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    let start = game.start();
    let standard_start = start.fen() == crate::engine::Board::startpos().fen();
    if !standard_start {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", start.fen()));
    }
    for (k, v) in &game.headers {
        if roster.contains(&k.as_str()) || matches!(k.as_str(), "Result" | "SetUp" | "FEN") {
            continue;
        }
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    if let Some(e) = game.ending
        && game.header("Termination").is_none()
    {
        out.push_str(&format!("[Termination \"{}\"]\n", e.termination.pgn_tag()));
    }
    out.push('\n');

    // Movetext.
    let mut tokens: Vec<String> = Vec::new();
    let mut board = start.clone();
    let mut number = start.chess().fullmoves().get();
    let mut first = true;
    for (i, &m) in game.moves().iter().enumerate() {
        let white = board.turn() == Color::White;
        if white {
            tokens.push(format!("{number}."));
        } else if first {
            tokens.push(format!("{number}..."));
        }
        tokens.push(board.san(m));
        if let Some(Some(c)) = game.comments().get(i) {
            tokens.push(format!("{{{}}}", comment_text(c)));
        }
        board = board.play(m);
        if !white {
            number = number.saturating_add(1);
        }
        first = false;
    }
    if let Some(e) = game.ending {
        tokens.push(format!("{{{}}}", e.termination.describe()));
    }
    tokens.push(result.to_string());

    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Ending, GameResult, Termination};
    use super::*;
    use crate::engine::Board;

    #[test]
    fn writes_headers_and_movetext() {
        let mut g = Game::new(Board::startpos());
        g.set_header("Event", "Test \"quoted\"");
        g.set_header("White", "Kibitz");
        g.set_header("TimeControl", "10+0.1");
        for u in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = g.current().parse_uci(u).unwrap();
            g.push(m, None);
        }
        g.ending = Some(Ending {
            result: GameResult::BlackWins,
            termination: Termination::Checkmate,
        });
        let pgn = write_pgn(&g);
        assert!(pgn.contains("[Event \"Test \\\"quoted\\\"\"]"));
        assert!(pgn.contains("[Date \"????.??.??\"]"));
        assert!(pgn.contains("[Result \"0-1\"]"));
        assert!(pgn.contains("[TimeControl \"10+0.1\"]"));
        assert!(pgn.contains("[Termination \"normal\"]"));
        assert!(!pgn.contains("SetUp"));
        assert!(pgn.contains("1. f3 e5 2. g4 Qh4# {checkmate} 0-1"), "{pgn}");
    }

    #[test]
    fn black_to_move_start_uses_ellipsis() {
        let b = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 12").unwrap();
        let mut g = Game::new(b);
        let m = g.current().parse_uci("e8d7").unwrap();
        g.push(m, Some("only move}".into()));
        let pgn = write_pgn(&g);
        assert!(pgn.contains("[SetUp \"1\"]"));
        assert!(pgn.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]"));
        assert!(pgn.contains("12... Kd7 {only move)} *"), "{pgn}");
    }
}
