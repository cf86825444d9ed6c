//! BPGN (Bughouse Portable Game Notation), as bughouse databases write it
//! (the BPGN standard 1.0-1.2 kept by bughousedb.com, and the games of the
//! FICS bughouse database):
//!
//! ```text
//! [Event "Kibitz bughouse"]
//! [Site "Kibitz"]
//! [Date "2026.11.24"]
//! [WhiteA "Kibitz"] [BlackA "Fairy-Stockfish"]
//! [WhiteB "Fairy-Stockfish"] [BlackB "Kibitz"]
//! [TimeControl "120+0"]
//! [Result "1-0"]
//!
//! 1A. e4 {119.8} 1a. Nc6 {119.5} 1B. d4 {118.2} 1b. d5 {117.9}
//! 2A. Nf3 {118.1} {C:BB: need N} ... {BA checkmated} 1-0
//! ```
//!
//! - Tags: the players as `WhiteA`, `BlackA`, `WhiteB`, `BlackB` (Elo as
//!   `WhiteAElo`...), `TimeControl` in seconds (`base+increment`), and any
//!   others; `[FEN "fenA | fenB"]` (with `[SetUp "1"]`) for another start
//!   (the "BFEN" extension).
//! - Moves of both boards in the order they were made: the move number of
//!   that board, the board letter in upper case for White's move and lower
//!   case for Black's (`12A.`, `12a.`, `12B.`, `12b.`), then SAN with drops
//!   (`N@f7+`, `P@e4`).
//! - After a move, the mover's remaining time in seconds in braces
//!   (`{179}`, or with milliseconds `{179.453}`, BPGN 1.2).
//! - Partners' messages as comments `{C:WA: need N}` (the 1.1 commentary:
//!   who spoke, then the text). Other comments are kept only as the
//!   termination when they close the game (`{WA checkmated} 0-1`, as FICS
//!   writes it; also `forfeits on time`, `resigns`).
//! - The result from team 1's view: `1-0` means White A and Black B won.
//!
//! The FICS bughouse database writes the same with its own habits, all
//! read: CRLF line ends, two tags on a line (`[WhiteA "alice"][WhiteAElo
//! "2100"]`), a `{C:This is game number 1234 at www.freechess.org}` comment
//! before the moves (not kept), clocks glued to the moves
//! (`1A. e4{179.900}`), the closing comment with the player's name
//! (`{bob resigns} 1-0`, `{dave forfeits by disconnection} 0-1`: the seat
//! is found by the name, and the text is kept as
//! [`BughouseGame::closing`]), and games with no moves at all. Names in
//! Latin-1 are the caller's to decode ([`crate::util::decode_text`]).
//!
//! Reading replays both boards move by move in the recorded order, so a
//! move that is not legal, or a drop of a piece that never arrived, is
//! reported with the game's number and its line ([`read_bpgn_games`]:
//! each game on its own, a bad game spoils only itself).

use super::{BoardId, BugEnding, BugResult, BughouseGame, Chat, Seat};
use crate::game::pgn::{PgnWriter, comment_text};
use crate::variant::fen::parse_bughouse;
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

/// Why a game of a BPGN text could not be read: the game's number in the
/// text (from 1), the line, and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game} (line {line}): {reason}")]
pub struct BpgnError {
    pub game: usize,
    pub line: usize,
    pub reason: String,
}

impl BpgnError {
    /// `line L: reason`, for a list that numbers the games itself.
    pub fn at_line(&self) -> String {
        format!("line {}: {}", self.line, self.reason)
    }
}

/// A problem at a line, before the game's number is known.
struct Problem {
    line: usize,
    reason: String,
}

/// A token of the movetext with the line it starts on.
#[derive(Debug)]
enum Token<'a> {
    Tag(&'a str, String),
    Comment(&'a str),
    Word(&'a str),
}

/// The tokens of `text` (whose first line is `first_line`), and the
/// problem that stopped the scan, if one did.
fn tokens(text: &str, first_line: usize) -> (Vec<(usize, Token<'_>)>, Option<Problem>) {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut line = first_line;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'{' {
            let start = line;
            let Some(end) = text[i..].find('}').map(|e| i + e) else {
                let reason = "a comment '{' is never closed".into();
                return (out, Some(Problem { line, reason }));
            };
            line += text[i..end].matches('\n').count();
            out.push((start, Token::Comment(text[i + 1..end].trim())));
            i = end + 1;
        } else if c == b'[' {
            // [Key "value"]: the value may hold ']' (a FEN with pockets).
            let bad = |reason: String| Some(Problem { line, reason });
            let rest = &text[i + 1..];
            let key_len = rest
                .find(|ch: char| ch.is_whitespace() || ch == '"' || ch == ']')
                .unwrap_or(rest.len());
            let key = rest[..key_len].trim();
            let after_key = rest[key_len..].trim_start();
            let Some(quoted) = after_key.strip_prefix('"') else {
                return (
                    out,
                    bad(format!("the value of tag {key} must be in double quotes")),
                );
            };
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            let mut close = None;
            while let Some((k, ch)) = chars.next() {
                match ch {
                    '\\' => {
                        if let Some((_, next)) = chars.next() {
                            value.push(next);
                        }
                    }
                    '"' => {
                        close = Some(k);
                        break;
                    }
                    '\n' => break,
                    _ => value.push(ch),
                }
            }
            let Some(close) = close else {
                return (out, bad(format!("the value of tag {key} is never closed")));
            };
            let tail = &quoted[close + 1..];
            // The tag ends at its ']', before the line does.
            let Some(end) = tail.find(']').filter(|&e| !tail[..e].contains('\n')) else {
                return (out, bad(format!("tag {key} is never closed with ']'")));
            };
            if !tail[..end].trim().is_empty() {
                return (out, bad(format!("tag {key} has text after its value")));
            }
            out.push((line, Token::Tag(key, value)));
            // Position after the ']'.
            let consumed =
                (quoted.as_ptr() as usize - text.as_ptr() as usize) + close + 1 + end + 1;
            i = consumed;
        } else if c == b';' {
            // A comment to the end of the line.
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else {
            let start = i;
            while i < bytes.len()
                && !bytes[i].is_ascii_whitespace()
                && !matches!(bytes[i], b'{' | b'[')
            {
                i += 1;
            }
            out.push((line, Token::Word(&text[start..i])));
        }
    }
    (out, None)
}

/// `12A.` -> (12, board A, White); `3b.` -> (3, board B, Black).
fn move_number(w: &str) -> Option<(u32, BoardId, Color)> {
    let w = w.trim_end_matches('.');
    // The last character, which may be more than one byte in a bad file.
    let (last, _) = w.char_indices().last()?;
    let (digits, letter) = w.split_at(last);
    let n: u32 = digits.parse().ok()?;
    let (board, color) = match letter {
        "A" => (BoardId::A, Color::White),
        "a" => (BoardId::A, Color::Black),
        "B" => (BoardId::B, Color::White),
        "b" => (BoardId::B, Color::Black),
        _ => return None,
    };
    Some((n, board, color))
}

fn result_of(w: &str) -> Option<Option<BugResult>> {
    match w {
        "1-0" => Some(Some(BugResult::TeamOneWins)),
        "0-1" => Some(Some(BugResult::TeamTwoWins)),
        "1/2-1/2" => Some(Some(BugResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// Reads every game of a BPGN text; the first game that cannot be read
/// is the error.
pub fn read_bpgn(text: &str) -> Result<Vec<BughouseGame>, BpgnError> {
    read_bpgn_games(text).into_iter().collect()
}

/// Reads every game of a BPGN text, each on its own: a game that cannot be
/// read is its error (with its number and line), and the games after it
/// are read all the same.
///
/// The text is cut into games first, at a line starting with a tag after
/// the moves of a game (or after a blank line that follows tags), so a
/// comment left open or a broken tag spoils its own game only.
pub fn read_bpgn_games(text: &str) -> Vec<Result<BughouseGame, BpgnError>> {
    let text = text.trim_start_matches('\u{feff}');
    let mut out = Vec::new();
    for (first_line, section) in sections(text) {
        let (toks, problem) = tokens(section, first_line);
        let mut reader = Reader::default();
        for (line, tok) in toks {
            reader.token(line, tok, &mut out);
        }
        match problem {
            Some(p) => {
                reader.fail(p.line, p.reason);
                reader.finish(&mut out);
            }
            None => reader.finish(&mut out),
        }
    }
    out
}

/// The games of a text, roughly: each part with its first line number.
fn sections(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut start_line = 1;
    let mut offset = 0;
    // What the current part has had: tags, moves, a blank line after tags.
    let (mut tags, mut moves, mut gap) = (false, false, false);
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            if moves || (tags && gap) {
                out.push((start_line, &text[start..offset]));
                start = offset;
                start_line = n + 1;
                moves = false;
            }
            tags = true;
            gap = false;
        } else if t.is_empty() {
            gap = tags;
        } else {
            moves = true;
        }
        offset += line.len();
    }
    if !text[start..].trim().is_empty() {
        out.push((start_line, &text[start..]));
    }
    out
}

/// The game being read, token by token.
#[derive(Default)]
struct Reader {
    game: Option<BughouseGame>,
    headers: Vec<(String, String)>,
    /// The line the game's first token is on.
    first_line: Option<usize>,
    /// The word after a move number is its SAN.
    pending: Option<(usize, BoardId, Color)>,
    /// The last comment that is not a clock or a message (the termination).
    last_note: Option<String>,
    /// The game cannot be read: the rest of it is skipped (up to the next
    /// tag, which starts the next game).
    failed: Option<Problem>,
}

impl Reader {
    fn fail(&mut self, line: usize, reason: String) {
        if self.failed.is_none() {
            self.failed = Some(Problem { line, reason });
        }
    }

    /// The game's number: the games before it, plus one.
    fn finish(&mut self, out: &mut Vec<Result<BughouseGame, BpgnError>>) {
        let game = out.len() + 1;
        let started = self.game.is_some() || !self.headers.is_empty();
        match self.failed.take() {
            Some(p) => out.push(Err(BpgnError {
                game,
                line: p.line,
                reason: p.reason,
            })),
            None if started => {
                // Tags and nothing else: a game without moves.
                let line = self.first_line.unwrap_or(1);
                match self.game.take().map(Ok).unwrap_or_else(|| self.start(line)) {
                    Ok(g) => out.push(Ok(g)),
                    Err(p) => out.push(Err(BpgnError {
                        game,
                        line: p.line,
                        reason: p.reason,
                    })),
                }
            }
            None => {}
        }
        *self = Reader::default();
    }

    /// The game from the tags read so far.
    fn start(&mut self, line: usize) -> Result<BughouseGame, Problem> {
        let mut g = match self.headers.iter().find(|(k, _)| k == "FEN") {
            Some((_, fen)) => {
                let boards = parse_bughouse(fen).map_err(|e| Problem {
                    line,
                    reason: format!("FEN tag: {e}"),
                })?;
                BughouseGame::from_boards(boards)
            }
            None => BughouseGame::new(),
        };
        g.headers = std::mem::take(&mut self.headers);
        Ok(g)
    }

    /// The game being read, started at the first thing after its tags.
    fn game(&mut self, line: usize) -> Option<&mut BughouseGame> {
        self.first_line.get_or_insert(line);
        if self.game.is_none() {
            match self.start(line) {
                Ok(g) => self.game = Some(g),
                Err(p) => {
                    self.fail(p.line, p.reason);
                    return None;
                }
            }
        }
        self.game.as_mut()
    }

    fn token(
        &mut self,
        line: usize,
        tok: Token<'_>,
        out: &mut Vec<Result<BughouseGame, BpgnError>>,
    ) {
        // A tag after moves (or after a game that could not be read) starts
        // the next game.
        if matches!(tok, Token::Tag(..)) && (self.game.is_some() || self.failed.is_some()) {
            self.finish(out);
        }
        if self.failed.is_some() {
            return;
        }
        match tok {
            Token::Tag(k, v) => {
                self.first_line.get_or_insert(line);
                self.headers.push((k.to_string(), v));
            }
            Token::Comment(c) => self.comment(line, c),
            Token::Word(w) => {
                if let Err(reason) = self.word(line, w, out) {
                    self.fail(line, reason);
                }
            }
        }
    }

    fn comment(&mut self, line: usize, c: &str) {
        // A comment outside any game (after its result) is not kept.
        if self.game.is_none() && self.headers.is_empty() {
            return;
        }
        let Some(g) = self.game(line) else { return };
        if let Some(chat) = c.strip_prefix("C:") {
            // A message between partners (`C:BB: need N`); other commentary
            // (FICS' `C:This is game number 1234 at www.freechess.org`) is
            // not kept.
            if let Some((who, text)) = chat.split_once(':')
                && let Some(seat) = Seat::parse(who)
            {
                g.chat.push(Chat {
                    after_moves: g.moves().len(),
                    from: seat,
                    text: text.trim().to_string(),
                });
            }
        } else if let Ok(secs) = c.parse::<f64>()
            && (0.0..1e7).contains(&secs)
            && let Some(m) = g.moves.last_mut()
        {
            m.remaining = Some(Duration::from_millis((secs * 1000.0).round() as u64));
        } else {
            self.last_note = Some(c.to_string());
        }
    }

    fn word(
        &mut self,
        line: usize,
        w: &str,
        out: &mut Vec<Result<BughouseGame, BpgnError>>,
    ) -> Result<(), String> {
        if let Some(res) = result_of(w) {
            let note = self.last_note.take();
            let Some(g) = self.game(line) else {
                return Ok(());
            };
            if let Some(result) = res {
                let ending = note
                    .as_deref()
                    .and_then(|n| BugEnding::parse(&seat_codes(g, n), result))
                    .unwrap_or(BugEnding {
                        result,
                        board: BoardId::A,
                        how: super::BugTermination::Agreement,
                        loser: None,
                    });
                // A mate found while replaying already ended it.
                if g.ending.is_none() {
                    g.ending = Some(ending);
                } else if let Some(e) = g.ending.as_mut() {
                    e.result = result;
                }
                g.closing = note;
            }
            self.finish(out);
            return Ok(());
        }
        if let Some((_, board, color)) = move_number(w) {
            if self.game(line).is_some() {
                self.pending = Some((line, board, color));
            }
            return Ok(());
        }
        let pending = self.pending.take();
        let Some(g) = self.game(line) else {
            return Ok(());
        };
        let Some((_, board, color)) = pending else {
            return Err(format!(
                "'{w}' is not a move number (like 1A. or 1a.), a move after one, or a result"
            ));
        };
        let side = g.board(board).turn();
        if side != color {
            return Err(format!(
                "{w}: marked as {}'s move on board {}, but it is {}'s turn there",
                color_word(color),
                board.letter(),
                color_word(side)
            ));
        }
        g.push_text(board, w, None)
            .map(|_| ())
            .map_err(|e| format!("move {w}: {e}"))
    }
}

/// A closing comment with a player's name at its start written with the
/// seat's code: `bob resigns` -> `BA resigns` when bob is Black on A.
fn seat_codes(g: &BughouseGame, note: &str) -> String {
    let (first, rest) = note.split_once(' ').unwrap_or((note, ""));
    let name = first.trim_end_matches("'s");
    for board in BoardId::BOTH {
        for color in [Color::White, Color::Black] {
            let seat = Seat::new(board, color);
            if g.header(&seat.tag())
                .is_some_and(|p| p.eq_ignore_ascii_case(name))
            {
                return format!("{} {rest}", seat.code());
            }
        }
    }
    note.to_string()
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::super::BugTermination;
    use super::*;

    fn sample() -> BughouseGame {
        let mut g = BughouseGame::new();
        g.set_header("Event", "Test \"match\"");
        g.set_header("WhiteA", "Ann");
        g.set_header("BlackA", "Bob");
        g.set_header("WhiteB", "Cid");
        g.set_header("BlackB", "Dee");
        g.set_header("TimeControl", "120+0");
        let s = Duration::from_millis;
        for (board, m, t) in [
            (BoardId::A, "e4", 119_800),
            (BoardId::B, "d4", 119_500),
            (BoardId::A, "d5", 118_250),
            (BoardId::A, "exd5", 117_000),
            (BoardId::B, "e5", 116_001),
            (BoardId::B, "dxe5", 115_000),
            (BoardId::A, "Qxd5", 114_000),
            (BoardId::B, "P@d4", 113_000),
        ] {
            g.push_text(board, m, Some(s(t))).unwrap();
        }
        g.say(Seat::new(BoardId::B, Color::Black), "need N");
        g.push_text(BoardId::A, "Nc3", Some(s(110_000))).unwrap();
        g.flag(Seat::new(BoardId::B, Color::White));
        g
    }

    #[test]
    fn round_trip() {
        let g = sample();
        let text = write_bpgn(&g);
        assert!(text.contains("[WhiteA \"Ann\"]"), "{text}");
        assert!(
            text.contains("1A. e4 {119.8} 1B. d4 {119.5} 1a. d5 {118.25}"),
            "{text}"
        );
        assert!(
            text.contains("2a. P@d4 {113}") || text.contains("2b. P@d4 {113}"),
            "{text}"
        );
        assert!(text.contains("{C:BB: need N}"), "{text}");
        assert!(text.contains("{WB forfeits on time} 1-0"), "{text}");
        let back = read_bpgn(&text).unwrap();
        assert_eq!(back.len(), 1);
        let b = &back[0];
        assert_eq!(b.moves(), g.moves());
        for (k, v) in &g.headers {
            assert_eq!(b.header(k), Some(v.as_str()), "{k}");
        }
        assert_eq!(b.header("Result"), Some("1-0"));
        assert_eq!(b.chat, g.chat);
        assert_eq!(b.ending, g.ending);
        assert_eq!(b.fen(), g.fen());
        // Written again, identical.
        assert_eq!(write_bpgn(b), text);
    }

    #[test]
    fn other_starts_and_several_games() {
        let [a, b] =
            parse_bughouse("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[q] b - - 0 1")
                .unwrap();
        let mut g = BughouseGame::from_boards([a, b]);
        g.push_text(BoardId::B, "Q@e2+", None).unwrap();
        g.push_text(BoardId::A, "Q@e7+", None).unwrap();
        g.resign(Seat::new(BoardId::A, Color::Black));
        let text = format!("{}{}", write_bpgn(&g), write_bpgn(&sample()));
        assert!(text.contains("[FEN \"4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1 | "));
        assert!(text.contains("1b. Q@e2+"), "{text}");
        let games = read_bpgn(&text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].fen(), g.fen());
        assert_eq!(
            games[0].ending.map(|e| e.how),
            Some(BugTermination::Resignation)
        );
        assert_eq!(games[1].moves().len(), sample().moves().len());
    }

    #[test]
    fn a_b_pawn_capture_reads_back_when_a_bishop_could_also_take() {
        // Board A after 1.e4 d5 2.Bb5+ c6 3.Nc3 Bd7 4.Bxc6: both the b7
        // pawn and the d7 bishop can take on c6. SAN writes the pawn's
        // capture as bxc6; a four-engine match once could not read it back.
        let mut g = BughouseGame::new();
        for m in ["e4", "d5", "Bb5+", "c6", "Nc3", "Bd7", "Bxc6", "bxc6"] {
            g.push_text(BoardId::A, m, None).unwrap();
        }
        let text = write_bpgn(&g);
        assert!(text.contains("4a. bxc6"), "{text}");
        let back = read_bpgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back[0].moves(), g.moves());
        assert_eq!(back[0].fen(), g.fen());
        // The bishop's capture reads back as the bishop's.
        let mut h = BughouseGame::new();
        for m in ["e4", "d5", "Bb5+", "c6", "Nc3", "Bd7", "Bxc6", "Bxc6"] {
            h.push_text(BoardId::A, m, None).unwrap();
        }
        let back = read_bpgn(&write_bpgn(&h)).unwrap();
        assert_eq!(back[0].fen(), h.fen());
        assert_ne!(back[0].fen(), g.fen());
    }

    /// Random Bughouse games (captures and drops preferred, so pockets
    /// fill and SAN needs its disambiguations) are written and read back
    /// move for move: whatever SAN the writer produces, the reader finds
    /// the same move.
    #[test]
    fn random_games_round_trip() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut rand = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut moves_checked = 0;
        for _ in 0..60 {
            let mut g = BughouseGame::new();
            for _ in 0..160 {
                if g.ending.is_some() {
                    break;
                }
                let board = if rand(2) == 0 { BoardId::A } else { BoardId::B };
                let legal = g.board(board).legal_moves();
                if legal.is_empty() {
                    continue;
                }
                let lively: Vec<_> = legal
                    .iter()
                    .filter(|m| m.is_capture() || m.from().is_none())
                    .collect();
                let m = if !lively.is_empty() && rand(3) > 0 {
                    *lively[rand(lively.len())]
                } else {
                    legal[rand(legal.len())]
                };
                g.push(board, m, None).unwrap();
                moves_checked += 1;
            }
            let text = write_bpgn(&g);
            let back = read_bpgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.len(), 1);
            assert_eq!(back[0].moves(), g.moves(), "{text}");
            assert_eq!(back[0].fen(), g.fen(), "{text}");
        }
        assert!(moves_checked > 5_000, "{moves_checked}");
    }

    #[test]
    fn bad_files_say_where() {
        let err = |t: &str| read_bpgn(t).unwrap_err().to_string();
        // A drop of a piece that never arrived.
        let e = err("[Event \"x\"]\n\n1A. e4 {1} 1a. N@f6 {1} *\n");
        assert!(
            e.starts_with("game 1 (line 3):") && e.contains("no knight in hand"),
            "{e}"
        );
        // The wrong side.
        let e = err("[Event \"x\"]\n\n1a. e5 *\n");
        assert!(e.contains("White's turn"), "{e}");
        // An illegal move.
        let e = err("[Event \"x\"]\n\n1A. e5 *\n");
        assert!(e.contains("move e5"), "{e}");
        assert!(err("[Event \"x\"]\n\n1A. e4 {180 *\n").contains("never closed"));
        assert!(err("[Event x]\n\n*").contains("double quotes"));
        assert!(err("[Event \"x\"]\n\nhello *").contains("not a move number"));
        // A word ending in a character of more than one byte (found by
        // `kibitz fuzz bpgn`: it panicked).
        assert!(err("[Event \"x\"]\n\n1A. e4 HC\u{fe} *").contains("not a move number"));
    }

    /// A game that cannot be read spoils only itself: an illegal move, a
    /// comment left open, a broken tag, a bad FEN tag, each in the middle
    /// of good games.
    #[test]
    fn a_bad_game_does_not_lose_the_others() {
        let good = "[WhiteA \"a\"]\n\n1A. e4 {1} 1a. e5 {2} *\n\n";
        for (bad, line, why) in [
            ("[WhiteA \"b\"]\n\n1A. e4 1a. e4 *\n\n", 7, "move e4"),
            (
                "[WhiteA \"b\"]\n\n1A. e4 {1 1a. e5 *\n\n",
                7,
                "never closed",
            ),
            ("[WhiteA \"b\"\n\n1A. e4 *\n\n", 5, "never closed with ']'"),
            ("[WhiteA b]\n\n1A. e4 *\n\n", 5, "double quotes"),
            ("[FEN \"x | y\"]\n\n1A. e4 *\n\n", 7, "board A: the pieces"),
        ] {
            let text = format!("{good}{bad}{good}");
            let games = read_bpgn_games(&text);
            assert_eq!(games.len(), 3, "{bad}: {games:?}");
            assert!(games[0].is_ok() && games[2].is_ok(), "{bad}: {games:?}");
            let e = games[1].as_ref().unwrap_err();
            assert_eq!((e.game, e.line), (2, line), "{bad}: {e}");
            assert!(e.reason.contains(why), "{bad}: {e}");
            assert_eq!(games[2].as_ref().unwrap().moves().len(), 2);
        }
    }

    /// FICS writes the closing comment with the player's name, and games
    /// with no moves at all; tags may share a line, and lines end in CRLF.
    #[test]
    fn fics_closings_and_games_without_moves() {
        let text = "[WhiteA \"al\"][BlackA \"bo\"]\r\n[WhiteB \"cy\"][BlackB \"di\"]\r\n\r\n\
                    {C:This is game number 7 at www.freechess.org}\r\n\
                    {di forfeits by disconnection} 0-1\r\n\r\n\
                    [WhiteA \"al\"][BlackA \"bo\"]\r\n\r\n\
                    1A. e4{179.900} 1a. e5{179.000} {AL resigns} 0-1\r\n\r\n\
                    [WhiteA \"al\"]\r\n\r\n{Game drawn by mutual agreement} 1/2-1/2\r\n";
        let games = read_bpgn(text).unwrap();
        assert_eq!(games.len(), 3);
        let end = games[0].ending.unwrap();
        assert!(games[0].moves().is_empty());
        assert_eq!(games[0].header("BlackB"), Some("di"));
        assert_eq!(
            (end.result, end.how, end.loser),
            (
                BugResult::TeamTwoWins,
                BugTermination::Abandoned,
                Some(Seat::new(BoardId::B, Color::Black))
            )
        );
        assert!(games[0].chat.is_empty(), "FICS' commentary is no message");
        let end = games[1].ending.unwrap();
        assert_eq!(end.how, BugTermination::Resignation);
        assert_eq!(end.loser, Some(Seat::new(BoardId::A, Color::White)));
        assert_eq!(
            games[1].moves()[1].remaining,
            Some(Duration::from_secs(179))
        );
        assert_eq!(
            games[2].ending.map(|e| e.how),
            Some(BugTermination::Agreement)
        );
        // The closing comment is written again as the file had it.
        assert!(write_bpgn(&games[0]).contains("{di forfeits by disconnection} 0-1"));
    }
}
