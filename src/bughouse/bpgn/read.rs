//! Reading BPGN: each game's tokens replayed on both boards in the
//! recorded order, with its tags, clocks, partners' messages and ending.
use super::BpgnError;
use super::scan::{Problem, Token, sections, tokens};
use crate::bughouse::{BoardId, BugEnding, BugResult, BughouseGame, Chat, Seat};
use crate::variant::fen::parse_bughouse;
use shakmaty::{Color, Position};
use std::time::Duration;

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
                        how: crate::bughouse::BugTermination::Agreement,
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
