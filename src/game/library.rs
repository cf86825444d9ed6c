//! Opening game files for replay: PGN (any number of games), the
//! move-history format, and plain move lists.
//!
//! A PGN file is indexed first, quickly (tags and where each game starts;
//! no move is checked), so a file of 10,000 games opens at once; a game is
//! parsed when it is shown, or by [`Library::check_all`]. A bad game keeps
//! its place in the list with the reason and the line it is on; the other
//! games still open.

use super::history::{self, MoveList};
use super::movetree::MoveTree;
use super::openings::{Opening, name_line};
use super::pgn_read::{self, ParsedGame};
use super::{Game, GameResult};
use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use std::io::{Cursor, Seek};
use std::ops::{ControlFlow, Range};
use std::path::Path;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Pgn,
    /// A FEN line, then numbered UCI move pairs.
    History,
    /// Moves only (SAN or UCI) from the initial position.
    MoveList,
}

/// Whether a game could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Unchecked,
    Ok,
    /// Why not, and the line of the file it is on.
    Bad {
        line: usize,
        reason: String,
    },
}

/// One game of a file, as the index knows it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// From 1.
    pub number: usize,
    /// Bytes of the file that hold the game.
    pub span: Range<usize>,
    /// Line (from 1) where the game starts.
    pub line: usize,
    pub tags: Vec<(String, String)>,
    /// Main-line moves written (counted, not checked).
    pub plies: usize,
    pub status: Status,
    /// The opening its main line is in, as the opening table names it
    /// (known once the game was read).
    pub opening: Option<&'static Opening>,
}

impl Entry {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// "Kasparov - Deep Blue" or "?".
    pub fn players(&self) -> String {
        format!(
            "{} - {}",
            self.tag("White").unwrap_or("?"),
            self.tag("Black").unwrap_or("?")
        )
    }
}

/// The tags the game list shows.
const LISTED_TAGS: [&str; 9] = [
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "ECO", "Opening",
];

#[derive(Clone, Debug)]
pub struct Library {
    /// File name for titles.
    pub name: String,
    pub text: String,
    pub format: Format,
    pub entries: Vec<Entry>,
}

impl Library {
    /// Reads and indexes a file; `progress` gets the share done (0..1)
    /// while a large PGN is indexed.
    pub fn open(path: &Path, progress: &mut dyn FnMut(f64)) -> std::io::Result<Library> {
        let bytes = std::fs::read(path)?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Ok(Library::from_text(name, text, progress))
    }

    pub fn from_text(name: String, text: String, progress: &mut dyn FnMut(f64)) -> Library {
        let format = detect(&text);
        let entries = match format {
            Format::Pgn => index_pgn(&text, progress),
            Format::History | Format::MoveList => vec![Entry {
                number: 1,
                span: 0..text.len(),
                line: 1,
                tags: Vec::new(),
                plies: 0,
                status: Status::Unchecked,
                opening: None,
            }],
        };
        Library {
            name,
            text,
            format,
            entries,
        }
    }

    /// Reads game `i` (from 0) fully, and records in its entry whether it
    /// could be read.
    pub fn load(&mut self, i: usize) -> Result<ParsedGame, String> {
        let Some(entry) = self.entries.get(i) else {
            return Err(format!("there is no game {}", i + 1));
        };
        let span = entry.span.clone();
        let base = entry.line;
        let text = self.text.get(span).unwrap_or_default();
        let result = match self.format {
            Format::Pgn => match pgn_read::read_games_full(text).into_iter().next() {
                Some(Ok(g)) => Ok(g),
                Some(Err(e)) => {
                    // Errors count games inside the span: always game 1.
                    let line = base + e.line_in(text) - 1;
                    let reason = e.to_string();
                    let reason = reason
                        .strip_prefix("game 1, ")
                        .or_else(|| reason.strip_prefix("game 1: "))
                        .unwrap_or(&reason)
                        .to_string();
                    Err((line, reason))
                }
                None => Err((base, "no game here".to_string())),
            },
            Format::History => history::read_history(text)
                .map(|l| from_list(l, &self.name))
                .map_err(|e| (e.line, e.reason)),
            Format::MoveList => history::read_move_list(text)
                .map(|l| from_list(l, &self.name))
                .map_err(|e| (e.line, e.reason)),
        };
        let entry = &mut self.entries[i];
        match result {
            Ok(g) => {
                entry.status = Status::Ok;
                if entry.tags.is_empty() {
                    entry.tags = g.game.headers.clone();
                }
                entry.plies = g.game.moves().len();
                entry.opening = name_line(g.game.start().chess(), g.game.moves()).map(|(_, o)| o);
                Ok(g)
            }
            Err((line, reason)) => {
                entry.status = Status::Bad {
                    line,
                    reason: reason.clone(),
                };
                Err(format!("line {line}: {reason}"))
            }
        }
    }

    /// Reads every game once, to mark the bad ones in the list.
    pub fn check_all(&mut self, progress: &mut dyn FnMut(f64)) {
        let n = self.entries.len();
        for i in 0..n {
            if self.entries[i].status == Status::Unchecked {
                let _ = self.load(i);
            }
            if i % 64 == 0 {
                progress(i as f64 / n.max(1) as f64);
            }
        }
        progress(1.0);
    }
}

/// A game from a move list (history or plain), with a name for headers.
fn from_list(l: MoveList, name: &str) -> ParsedGame {
    let mut game = Game::new(l.start.clone());
    game.set_header("Event", name);
    for &m in &l.moves {
        game.push(m, None);
    }
    let tree = MoveTree::from_line(l.start, &l.moves, &[]);
    game.ending = game.rule_ending(false);
    ParsedGame {
        game,
        tree,
        warnings: Vec::new(),
    }
}

/// PGN, a move-history file or a plain move list?
pub fn detect(text: &str) -> Format {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if history::is_history(text) {
        Format::History
    } else if t.starts_with('[') || t.starts_with('{') || t.is_empty() {
        Format::Pgn
    } else if history::read_move_list(text).is_ok() {
        Format::MoveList
    } else {
        Format::Pgn
    }
}

/// Tags and a move count per game, and where each game is; no move is
/// checked. `progress` gets the share of the text done.
pub fn index_pgn(text: &str, progress: &mut dyn FnMut(f64)) -> Vec<Entry> {
    let bytes = text.as_bytes();
    let mut reader = Reader::build(Cursor::new(bytes))
        .set_supported_tag_line_length(4096)
        .finish();
    let mut visitor = IndexVisitor;
    // (start offset, tags, moves) per game.
    let mut found: Vec<(usize, Tags, usize)> = Vec::new();
    let mut last_start = None;
    let mut since_report = 0usize;
    loop {
        if !matches!(reader.has_more(), Ok(true)) {
            break;
        }
        let Ok(start) = reader.stream_position() else {
            break;
        };
        let start = start as usize;
        if last_start.is_some_and(|s| start <= s) {
            break;
        }
        last_start = Some(start);
        match reader.read_game(&mut visitor) {
            Ok(Some((tags, plies))) => found.push((start, tags, plies)),
            Ok(None) => break,
            Err(_) => {
                // Broken syntax: keep the game (checking it will say why)
                // and go on after it.
                found.push((start, Vec::new(), 0));
                if reader.skip_game().is_err() {
                    break;
                }
            }
        }
        since_report += 1;
        if since_report >= 256 {
            since_report = 0;
            progress(start as f64 / bytes.len().max(1) as f64);
        }
    }
    // An unclosed `{` or `(` swallows the games after it: the reader sees
    // one long game. Where a tag line follows a blank line inside a game,
    // the next game begins; index from there again.
    let mut i = 0;
    while i < found.len() {
        let start = found[i].0;
        let end = found.get(i + 1).map_or(bytes.len(), |f| f.0);
        if let Some(rel) = runaway_end(&text[start..end]) {
            let cut = start + rel;
            let rest = index_pgn(&text[cut..end], &mut |_| {});
            let more: Vec<(usize, Tags, usize)> = rest
                .into_iter()
                .map(|e| (cut + e.span.start, e.tags, e.plies))
                .collect();
            found.splice(i + 1..i + 1, more);
        }
        i += 1;
    }
    // Line numbers, counted once over the text.
    let mut entries = Vec::with_capacity(found.len());
    let mut line = 1;
    let mut counted = 0;
    for i in 0..found.len() {
        let start = found[i].0;
        let end = found.get(i + 1).map_or(bytes.len(), |f| f.0);
        // The game starts at its first non-blank byte.
        let first = bytes[start..end]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(start, |p| start + p);
        line += bytes[counted..first]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        counted = first;
        let (_, tags, plies) = std::mem::take(&mut found[i]);
        entries.push(Entry {
            number: i + 1,
            span: start..end,
            line,
            tags,
            plies,
            status: Status::Unchecked,
            opening: None,
        });
    }
    progress(1.0);
    entries
}

type Tags = Vec<(String, String)>;

/// Where, in the text of one game, another game's tags begin: a line like
/// `[Event "..."]` after a blank line, past the game's own tags.
fn runaway_end(game: &str) -> Option<usize> {
    // The movetext begins at the first line that is not a tag.
    let mut offset = 0;
    let mut body = None;
    for line in game.split_inclusive('\n') {
        let t = line.trim();
        if !t.is_empty() && !t.starts_with('[') {
            body = Some(offset);
            break;
        }
        offset += line.len();
    }
    let mut from = body?;
    while let Some(p) = game[from..].find("\n[") {
        let at = from + p + 1;
        let before = game[..at - 1].trim_end_matches([' ', '\t', '\r']);
        let after_blank = before.ends_with('\n');
        let rest = &game[at + 1..];
        let name_len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        if after_blank && name_len > 0 && rest[name_len..].trim_start().starts_with('"') {
            return Some(at);
        }
        from = at;
    }
    None
}

struct IndexVisitor;

impl Visitor for IndexVisitor {
    type Tags = Vec<(String, String)>;

    type Movetext = (Vec<(String, String)>, usize);
    type Output = (Vec<(String, String)>, usize);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if let Some(&listed) = LISTED_TAGS.iter().find(|t| t.as_bytes() == name) {
            tags.push((listed.to_string(), value.decode_utf8_lossy().into_owned()));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue((tags, 0))
    }

    fn san(&mut self, movetext: &mut Self::Movetext, _san: SanPlus) -> ControlFlow<Self::Output> {
        movetext.1 += 1;
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
    ) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        movetext
    }
}

/// "1-0", "0-1", "½-½" or "*" for the list.
pub fn result_text(r: Option<GameResult>) -> &'static str {
    match r {
        Some(GameResult::WhiteWins) => "1-0",
        Some(GameResult::BlackWins) => "0-1",
        Some(GameResult::Draw) => "½-½",
        None => "*",
    }
}

#[cfg(test)]
mod tests;
