//! A second reading of one game's text, token by token, the way
//! pgn-reader walks it: finds what pgn-reader skips without a word and
//! where each main-line move is written.

use pgn_reader::SanPlus;

/// A main-line token of a game's text: a move pgn-reader reads, or one it
/// skips without telling the visitor. `ply` counts the moves before it,
/// `at` is its byte offset in the text.
pub(super) enum Token<'a> {
    Move {
        ply: usize,
        at: usize,
    },
    Unreadable {
        ply: usize,
        at: usize,
        text: &'a [u8],
    },
}

/// The first main-line token of one game's text that pgn-reader skipped
/// without telling the visitor (it reads what it can as SAN and drops the
/// rest), with the number of main-line moves before it.
pub(super) fn unreadable_token(span: &[u8]) -> Option<(usize, String)> {
    main_line_tokens(span, &mut |t| match t {
        Token::Unreadable { ply, text, .. } => {
            Some((ply, String::from_utf8_lossy(text).into_owned()))
        }
        Token::Move { .. } => None,
    })
}

/// Where (byte offset) the main-line move after `ply` moves is written.
pub fn main_line_move_offset(span: &[u8], ply: usize) -> Option<usize> {
    main_line_tokens(span, &mut |t| match t {
        Token::Move { ply: p, at } | Token::Unreadable { ply: p, at, .. } if p == ply => Some(at),
        _ => None,
    })
}

/// Walks one game's text the way `pgn_reader::Reader` does (tags, comments,
/// `;` and `%` lines, variations, NAGs, move numbers, results), calling `f`
/// for each main-line token until it returns something.
pub(super) fn main_line_tokens<R>(
    span: &[u8],
    f: &mut dyn FnMut(Token<'_>) -> Option<R>,
) -> Option<R> {
    let mut s = Scan { b: span, i: 0 };
    if s.rest().starts_with(b"\xef\xbb\xbf") {
        s.i += 3;
    }
    s.skip_whitespace(true);
    while s.peek() == Some(b'[') {
        s.skip_tag();
    }
    let mut plies = 0;
    let mut depth = 0usize;
    while let Some(c) = s.peek() {
        match c {
            b'{' => s.skip_past(b'}'),
            b';' => s.skip_to(b'\n'),
            b'\n' => {
                s.i += 1;
                if s.peek() == Some(b'%') {
                    s.skip_to(b'\n');
                }
            }
            b'(' => {
                s.i += 1;
                depth += 1;
            }
            b')' => {
                s.i += 1;
                depth = depth.saturating_sub(1);
            }
            _ if depth > 0 => s.i += 1,
            b'$' => {
                s.i += 1;
                s.skip_token();
            }
            b'!' | b'?' | b'*' | b' ' | b'\t' | b'\r' | b'.' => s.i += 1,
            b'0' => {
                s.i += 1;
                let at = s.i - 1;
                if s.eat_dash() && !s.eat(b"1") && s.eat(b"0") {
                    // 0-0 or 0-0-0, read as castling.
                    let _ = s.eat_dash() && s.eat(b"0");
                    let _ = s.eat(b"+") || s.eat(b"#");
                    if let Some(r) = f(Token::Move { ply: plies, at }) {
                        return Some(r);
                    }
                    plies += 1;
                }
            }
            b'1' => {
                s.i += 1;
                if s.eat_dash() {
                    s.eat(b"0");
                } else if !(s.eat(b"/2") && s.eat_dash() && s.eat(b"1/2")) {
                    s.skip_move_number();
                }
            }
            0xc2 => {
                s.i += 1;
                let _ = s.eat(b"\xbd") && s.eat_dash() && s.eat("½".as_bytes());
            }
            b'2'..=b'9' => {
                s.i += 1;
                s.skip_move_number();
            }
            _ => {
                let start = s.i;
                match SanPlus::from_ascii_prefix(s.rest()) {
                    Ok((_, n)) if s.b.get(start + n).is_none_or(|&b| is_token_end(b)) => {
                        if let Some(r) = f(Token::Move {
                            ply: plies,
                            at: start,
                        }) {
                            return Some(r);
                        }
                        s.i += n;
                        plies += 1;
                    }
                    _ => {
                        s.i += 1;
                        s.skip_token();
                        if let Some(r) = f(Token::Unreadable {
                            ply: plies,
                            at: start,
                            text: &span[start..s.i],
                        }) {
                            return Some(r);
                        }
                    }
                }
            }
        }
    }
    None
}

/// pgn-reader's token delimiters.
pub(super) fn is_token_end(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

pub(super) struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn rest(&self) -> &[u8] {
        self.b.get(self.i..).unwrap_or_default()
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, bytes: &[u8]) -> bool {
        if self.rest().starts_with(bytes) {
            self.i += bytes.len();
            true
        } else {
            false
        }
    }

    fn eat_dash(&mut self) -> bool {
        self.eat(b"-") || self.eat("–".as_bytes()) || self.eat("—".as_bytes())
    }

    /// Moves to the next `needle` (or the end).
    fn skip_to(&mut self, needle: u8) {
        self.i += self
            .rest()
            .iter()
            .position(|&b| b == needle)
            .unwrap_or(self.rest().len());
    }

    /// Moves past the next `needle` (or to the end).
    fn skip_past(&mut self, needle: u8) {
        self.skip_to(needle);
        if self.peek().is_some() {
            self.i += 1;
        }
    }

    fn skip_token(&mut self) {
        while self.peek().is_some_and(|b| !is_token_end(b)) {
            self.i += 1;
        }
    }

    /// After a move number's first digit: the other digits, dots and spaces.
    fn skip_move_number(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        while matches!(self.peek(), Some(b'.' | b' ')) {
            self.i += 1;
        }
    }

    /// Spaces, line breaks and `%` escape lines.
    fn skip_whitespace(&mut self, mut new_line: bool) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' => {
                    new_line = true;
                    self.i += 1;
                }
                b'%' if new_line => self.skip_past(b'\n'),
                _ => return,
            }
        }
    }

    /// One `[Name "value"]` tag, as pgn-reader reads it.
    fn skip_tag(&mut self) {
        self.i += 1; // '['
        let rest = self.rest();
        match rest.iter().position(|&b| matches!(b, b'"' | b'\n' | b']')) {
            Some(q) if rest[q] == b'"' => {
                let mut j = q + 1;
                loop {
                    match rest.get(j) {
                        Some(b'"') => {
                            j += 1;
                            break;
                        }
                        Some(b'\n') | None => break,
                        Some(b'\\') => j += 2,
                        Some(_) => j += 1,
                    }
                }
                self.i += j.min(rest.len());
            }
            Some(end) => self.i += end + 1,
            None => self.i = self.b.len(),
        }
        // The closing bracket and the rest of the line.
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return self.skip_whitespace(false);
                }
                b'\n' => {
                    self.i += 1;
                    return self.skip_whitespace(true);
                }
                _ => return,
            }
        }
    }
}
