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

/// How far a game has gone, in full moves with the last one: "5 moves
/// (5...Nf6)", "1 move (1. e4)" (the resume prompt and the status after
/// resuming say the same).
pub fn game_progress(game: &crate::game::Game) -> String {
    let Some((&last, before)) = game.moves().split_last() else {
        return "no moves".to_string();
    };
    let mut b = game.start().clone();
    for &m in before {
        b = b.play(m);
    }
    let first = game.start().chess().fullmoves().get();
    let n = (b.chess().fullmoves().get() + 1).saturating_sub(first);
    let s = if n == 1 { "" } else { "s" };
    format!("{n} move{s} ({})", san_line(&b, &[last], 1))
}

/// The resume prompt's line about an unfinished game: "You vs Kibitz
/// level 3, 5 moves (5...Nf6), 2026-01-01_120000.pgn".
pub fn resume_summary(game: &crate::game::Game, path: &std::path::Path) -> String {
    format!(
        "{} vs {}, {}, {}",
        game.header("White").unwrap_or("?"),
        game.header("Black").unwrap_or("?"),
        game_progress(game),
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    )
}

/// Where [`wrap_styled`] with no indent breaks `chars`: each row is one run
/// of the text (the spaces at a break belong to no row). For drawing
/// straight into a buffer, without building strings.
pub fn wrap_ranges(chars: &[char], width: usize) -> Vec<std::ops::Range<usize>> {
    let width = width.max(1);
    let mut rows = Vec::new();
    // The row being filled: `chars[start..start + len]`.
    let (mut start, mut len) = (0, 0);
    let mut fresh = false;
    let mut i = 0;
    while i < chars.len() {
        let s0 = i;
        while i < chars.len() && chars[i] == ' ' {
            i += 1;
        }
        let w0 = i;
        while i < chars.len() && chars[i] != ' ' {
            i += 1;
        }
        let (spaces, word) = (w0 - s0, i - w0);
        let need = if fresh { 0 } else { spaces } + word;
        if len > 0 && !fresh && len + need > width && word > 0 {
            rows.push(start..start + len);
            len = 0;
            fresh = true;
        }
        if !fresh && spaces > 0 {
            if len == 0 {
                start = s0;
            }
            len += spaces;
        }
        for j in w0..i {
            if len >= width {
                rows.push(start..start + len);
                len = 0;
            }
            if len == 0 {
                start = j;
            }
            len += 1;
            fresh = false;
        }
    }
    if len > 0 || rows.is_empty() {
        rows.push(start..start + len);
    }
    rows
}

/// Wraps styled text (pieces of text with a tag: a style, or what stands
/// for one) at spaces to lines of at most `width` characters; a word longer
/// than a line is cut. Lines after the first start with `indent` spaces
/// (not when that leaves less than half the width). Pieces with the same
/// tag next to each other are joined.
pub fn wrap_styled<T: Copy + PartialEq>(
    pieces: &[(String, T)],
    width: usize,
    indent: usize,
) -> Vec<Vec<(String, T)>> {
    let width = width.max(1);
    let indent = if indent * 2 > width { 0 } else { indent };
    let chars: Vec<(char, T)> = pieces
        .iter()
        .flat_map(|(s, t)| s.chars().map(move |c| (c, *t)))
        .collect();
    let mut rows: Vec<Vec<(char, T)>> = Vec::new();
    let mut cur: Vec<(char, T)> = Vec::new();
    // A continuation line holding nothing but its indent.
    let mut fresh = false;
    let mut i = 0;
    while i < chars.len() {
        let s0 = i;
        while i < chars.len() && chars[i].0 == ' ' {
            i += 1;
        }
        let spaces = &chars[s0..i];
        let w0 = i;
        while i < chars.len() && chars[i].0 != ' ' {
            i += 1;
        }
        let word = &chars[w0..i];
        let tag = word.first().or(spaces.first()).map(|c| c.1);
        let need = if fresh { 0 } else { spaces.len() } + word.len();
        if !cur.is_empty() && !fresh && cur.len() + need > width && !word.is_empty() {
            rows.push(std::mem::take(&mut cur));
            if let Some(t) = tag {
                cur.extend(std::iter::repeat_n((' ', t), indent));
            }
            fresh = true;
        }
        if !fresh {
            cur.extend_from_slice(spaces);
        }
        for &c in word {
            if cur.len() >= width {
                rows.push(std::mem::take(&mut cur));
                cur.extend(std::iter::repeat_n((' ', c.1), indent));
            }
            cur.push(c);
            fresh = false;
        }
    }
    if !cur.is_empty() || rows.is_empty() {
        rows.push(cur);
    }
    rows.into_iter()
        .map(|row| {
            let mut out: Vec<(String, T)> = Vec::new();
            for (c, t) in row {
                match out.last_mut() {
                    Some((s, last)) if *last == t => s.push(c),
                    _ => out.push((c.to_string(), t)),
                }
            }
            out
        })
        .collect()
}

/// A player's name in `w` cells, never cut mid-word when a shorter form
/// fits: as it is; with "level 4" as "L4" ("Kibitz L4"); its first and last
/// words, for a role before a name ("Opponent: L4", "Partner: Carlsen");
/// without its last words; else its first word cut with `…`.
pub fn fit_name(name: &str, w: usize) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let width = |s: &str| s.chars().count();
    if width(name) <= w {
        return Cow::Borrowed(name);
    }
    let short = name.replace("level ", "L");
    if width(&short) <= w {
        return Cow::Owned(short);
    }
    let words: Vec<&str> = short.split(' ').filter(|s| !s.is_empty()).collect();
    if words.len() >= 3 && words[0].ends_with(':') {
        let s = format!("{} {}", words[0], words[words.len() - 1]);
        if width(&s) <= w {
            return Cow::Owned(s);
        }
    }
    for n in (1..words.len()).rev() {
        let s = words[..n].join(" ");
        if width(&s) <= w {
            return Cow::Owned(s);
        }
    }
    if w == 0 {
        return Cow::Borrowed("");
    }
    let mut s: String = short.chars().take(w - 1).collect();
    s.push('…');
    Cow::Owned(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `wrap_ranges` breaks where `wrap_styled` does, on words, runs of
    /// spaces, words longer than a row and trailing spaces.
    #[test]
    fn wrap_ranges_agrees_with_wrap_styled() {
        let texts = [
            "",
            "short",
            "White to move: type a move (e4, Nf3, O-O) or pick squares with arrows+Enter or the mouse",
            "a  b   c    d",
            "averyveryverylongwordthatislongerthanarow and then some words",
            "trailing spaces     ",
            "   leading spaces and   gaps   between words here",
        ];
        for text in texts {
            for width in [1, 3, 7, 10, 20, 80] {
                let pieces = vec![(text.to_string(), 0u8)];
                let want: Vec<String> = wrap_styled(&pieces, width, 0)
                    .into_iter()
                    .map(|row| row.into_iter().map(|(s, _)| s).collect())
                    .collect();
                let chars: Vec<char> = text.chars().collect();
                let got: Vec<String> = wrap_ranges(&chars, width)
                    .into_iter()
                    .map(|r| chars[r].iter().collect())
                    .collect();
                assert_eq!(got, want, "{text:?} at width {width}");
            }
        }
    }

    /// Names shrink by whole words, "level 2" first to "L2".
    #[test]
    fn fit_name_keeps_whole_words() {
        assert_eq!(fit_name("Kibitz level 2", 20), "Kibitz level 2");
        assert_eq!(fit_name("Kibitz level 2", 11), "Kibitz L2");
        // A role keeps what tells the players apart: the level, the surname.
        assert_eq!(fit_name("Opponent: Kibitz level 4", 14), "Opponent: L4");
        assert_eq!(fit_name("Partner: Magnus Carlsen", 17), "Partner: Carlsen");
        assert_eq!(
            fit_name("Fairy-Stockfish 11.1 LB 64", 22),
            "Fairy-Stockfish 11.1"
        );
        assert_eq!(fit_name("Fairy-Stockfish 11.1 LB 64", 8), "Fairy-S…");
        assert_eq!(fit_name("Kibitz", 0), "");
    }
}
