//! Cutting a BPGN text into games and each game into tokens (tags,
//! comments, words) with their lines, before anything is read from them.

/// A problem at a line, before the game's number is known.
pub(super) struct Problem {
    pub(super) line: usize,
    pub(super) reason: String,
}

/// A token of the movetext with the line it starts on.
#[derive(Debug)]
pub(super) enum Token<'a> {
    Tag(&'a str, String),
    Comment(&'a str),
    Word(&'a str),
}

/// The tokens of `text` (whose first line is `first_line`), and the
/// problem that stopped the scan, if one did.
pub(super) fn tokens(text: &str, first_line: usize) -> (Vec<(usize, Token<'_>)>, Option<Problem>) {
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

/// The games of a text, roughly: each part with its first line number.
pub(super) fn sections(text: &str) -> Vec<(usize, &str)> {
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
