//! Writing a game as BPGN: the tags, then the moves of both boards in the
//! order they were made, with clocks, partners' messages and the closing
//! comment.
use crate::bughouse::{BoardId, BughouseGame};
use crate::game::pgn::{PgnWriter, comment_text};
use shakmaty::{Color, Position};
use std::time::Duration;

/// Seconds as BPGN writes them: up to milliseconds, no trailing zeros.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

const ROSTER: [&str; 3] = ["Event", "Site", "Date"];
const PLAYERS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];

/// Writes a game as BPGN.
pub fn write_bpgn(game: &BughouseGame) -> String {
    let mut w = PgnWriter::new(&game.headers);
    w.roster(&ROSTER);
    w.roster(&PLAYERS);
    let result = game.ending.map_or("*", |e| e.result.pgn());
    w.tag("Result", result);
    let standard = [BoardId::A, BoardId::B]
        .iter()
        .all(|&b| game.start(b) == &shakmaty::variant::Crazyhouse::default());
    if !standard {
        w.setup(&format!(
            "{} | {}",
            crate::variant::fen::write_fen(game.start(BoardId::A)),
            crate::variant::fen::write_fen(game.start(BoardId::B))
        ));
    }
    w.other_tags(|k| {
        ROSTER.contains(&k) || PLAYERS.contains(&k) || matches!(k, "Result" | "SetUp" | "FEN")
    });

    let mut tokens: Vec<String> = Vec::new();
    let mut numbers = [
        game.start(BoardId::A).fullmoves().get(),
        game.start(BoardId::B).fullmoves().get(),
    ];
    let chat_at = |i: usize, tokens: &mut Vec<String>| {
        for c in game.chat.iter().filter(|c| c.after_moves == i) {
            tokens.push(format!(
                "{{C:{}: {}}}",
                c.from.code(),
                comment_text(&c.text)
            ));
        }
    };
    chat_at(0, &mut tokens);
    for (i, m) in game.moves().iter().enumerate() {
        let b = m.board.index();
        let letter = match m.color {
            Color::White => m.board.letter(),
            Color::Black => m.board.letter().to_ascii_lowercase(),
        };
        tokens.push(format!("{}{letter}. {}", numbers[b], m.san));
        if m.color == Color::Black {
            numbers[b] += 1;
        }
        if let Some(t) = m.remaining {
            tokens.push(format!("{{{}}}", seconds(t)));
        }
        chat_at(i + 1, &mut tokens);
    }
    if let Some(e) = game.ending {
        let text = game.closing.clone().unwrap_or_else(|| e.describe());
        tokens.push(format!("{{{}}}", comment_text(&text)));
    }
    tokens.push(result.to_string());
    w.finish(tokens)
}
