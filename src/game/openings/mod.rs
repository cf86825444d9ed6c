//! Opening names, the way lichess gives them, from lichess' own table
//! (`chess-openings`, public domain: `eco/COPYING.txt`): about 3,800 lines
//! of ECO code, name and moves, embedded in the binary.
//!
//! Names belong to **positions**, not move orders: the table is read once,
//! on first use, into a map from a position's key (pieces, side to move,
//! castling rights, and the en-passant square only when a capture there is
//! legal, as in an EPD) to its name, so a game that transposes into a
//! named position gets its name. Every position on a line of the table
//! (the shorter lines inside it too) is a *book* position; a game leaves
//! the book with the move after its last book position ([`book_exit`]).
//!
//! Games from a custom FEN are named the same way, by position: such a game
//! that reaches a position of the table (from a FEN set after a few moves of
//! a known line, say) gets its name; one that never does gets none. No
//! position before the table's lines is assumed: the start of such a game
//! is a book position only if it is on a line of the table.

mod annotate;
#[cfg(test)]
mod tests;

pub use annotate::{BOOK_COMMENT_END, annotate_opening, is_book_comment};

use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The table's files, in lichess' order (ECO volumes A to E).
const FILES: [(&str, &str); 5] = [
    ("a.tsv", include_str!("eco/a.tsv")),
    ("b.tsv", include_str!("eco/b.tsv")),
    ("c.tsv", include_str!("eco/c.tsv")),
    ("d.tsv", include_str!("eco/d.tsv")),
    ("e.tsv", include_str!("eco/e.tsv")),
];

/// One line of the table: a named position and the moves that reach it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, `C65`.
    pub eco: &'static str,
    /// `Ruy Lopez: Berlin Defense`: the family, then after a colon the
    /// variation and sub-variations separated by commas.
    pub name: &'static str,
    /// The moves from the initial position as the table has them, SAN with
    /// move numbers: `1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6`.
    pub pgn: &'static str,
    /// How many half-moves `pgn` has (0 for a line that could not be
    /// played: see [`OpeningTable::problems`]).
    pub plies: usize,
}

impl Opening {
    /// The family, the name before its colon: `Ruy Lopez`.
    pub fn family(&self) -> &'static str {
        self.name.split(':').next().unwrap_or(self.name)
    }
}

/// `C65 Ruy Lopez: Berlin Defense`.
impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.eco, self.name)
    }
}

/// Where a line left the book (see [`book_exit`]). Plies count the moves
/// of the line from 1: ply `p` is `moves[p - 1]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookExit {
    /// The last move that reached a book position (0: only the start
    /// position was one, and the first move left the book).
    pub last_book_ply: usize,
    /// The move that left the book for good: always `last_book_ply + 1`.
    pub first_out_ply: usize,
}

impl BookExit {
    /// "last book move: 6.Re1; 6...b5 leaves the book", or "1.a4 leaves
    /// the book" when there was no book move. `start` and `moves` are the
    /// line the exit was found on.
    pub fn describe(&self, start: &Chess, moves: &[Move]) -> String {
        let mut pos = start.clone();
        let mut last = None;
        for (i, &m) in moves.iter().enumerate().take(self.first_out_ply) {
            if !pos.is_legal(m) {
                break;
            }
            let text = crate::game::notation::numbered_san(&pos, m);
            if i + 1 == self.first_out_ply {
                return match last {
                    Some(book) => format!("last book move: {book}; {text} leaves the book"),
                    None => format!("{text} leaves the book"),
                };
            }
            if i + 1 == self.last_book_ply {
                last = Some(text);
            }
            pos.play_unchecked(m);
        }
        // Not the line the exit was found on.
        "the book was left".to_string()
    }
}

/// A hasher that passes a Zobrist key through: the keys are random already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What the table knows of a position: the opening named there (an index
/// into the openings), or `None` for a position only passed through.
type Positions = HashMap<u64, Option<u32>, BuildHasherDefault<KeyHasher>>;

/// A position's key: its Zobrist hash, en passant only when a capture is
/// legal (so positions equal as EPDs have the same key).
fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The opening table, read.
#[derive(Debug)]
pub struct OpeningTable {
    openings: Vec<Opening>,
    positions: Positions,
    /// The fewest pieces on any book position: a line with fewer pieces
    /// on the board can never come back to the book (captures are for good).
    min_pieces: usize,
    /// Lines that could not be read ("c.tsv line 12: ..."); none in the
    /// embedded table (a test checks).
    pub problems: Vec<String>,
    /// Pairs of lines (indices into [`OpeningTable::openings`]) that reach
    /// the same position: (the line that names it, the line it hides).
    pub duplicates: Vec<(usize, usize)>,
}

impl OpeningTable {
    /// Reads the embedded table (a few milliseconds: `cargo bench --bench
    /// library`). [`table`] does this once for the whole program.
    pub fn parse() -> OpeningTable {
        OpeningTable::from_files(&FILES)
    }

    /// Reads tables in lichess' TSV format (`eco`, `name`, `pgn` columns
    /// with a header line), given as (file name, text). Lines that cannot
    /// be read are left out and listed in [`OpeningTable::problems`].
    pub fn from_files(files: &[(&'static str, &'static str)]) -> OpeningTable {
        let mut openings = Vec::new();
        let mut problems = Vec::new();
        for &(file, text) in files {
            for (i, line) in text.lines().enumerate() {
                let line = line.trim_end_matches('\r');
                if line.trim().is_empty() || (i == 0 && line == "eco\tname\tpgn") {
                    continue;
                }
                let mut cols = line.split('\t');
                match (cols.next(), cols.next(), cols.next(), cols.next()) {
                    (Some(eco), Some(name), Some(pgn), None)
                        if !eco.is_empty() && !name.is_empty() =>
                    {
                        // `plies` is counted as the line is played.
                        openings.push(Opening {
                            eco,
                            name,
                            pgn,
                            plies: 0,
                        })
                    }
                    _ => problems.push(format!(
                        "{file} line {}: expected three columns: eco, name, pgn",
                        i + 1
                    )),
                }
            }
        }
        let (positions, min_pieces, duplicates, bad) = index(&mut openings);
        for (i, why) in bad {
            let o = &openings[i];
            problems.push(format!("{} {} ({}): {why}", o.eco, o.name, o.pgn));
        }
        OpeningTable {
            openings,
            positions,
            min_pieces,
            problems,
            duplicates,
        }
    }

    /// Every line of the table, in the files' order.
    pub fn openings(&self) -> &[Opening] {
        &self.openings
    }

    /// How many positions are in the book (named or passed through).
    pub fn book_positions(&self) -> usize {
        self.positions.len()
    }

    /// The opening named at exactly this position.
    pub fn name_position(&self, pos: &Chess) -> Option<&Opening> {
        let index = (*self.positions.get(&key(pos))?)?;
        self.openings.get(index as usize)
    }

    /// Is the position on a line of the table (named or not)?
    pub fn in_book(&self, pos: &Chess) -> bool {
        self.positions.contains_key(&key(pos))
    }

    /// The last named position along the line (the start counts, as ply
    /// 0): its ply and its opening. See [`name_line`].
    pub fn name_line(&self, start: &Chess, moves: &[Move]) -> Option<(usize, &Opening)> {
        let mut found = None;
        self.walk(start, moves, |ply, named| {
            if let Some(i) = named {
                found = Some((ply, i));
            }
        });
        let (ply, i) = found?;
        Some((ply, self.openings.get(i as usize)?))
    }

    /// Where the line left the book; see [`book_exit`].
    pub fn book_exit(&self, start: &Chess, moves: &[Move]) -> Option<BookExit> {
        let mut last = None;
        let played = self.walk(start, moves, |ply, _| last = Some(ply));
        let last_book_ply = last?;
        // The line ends in the book, or its next move is not legal.
        (last_book_ply < played).then_some(BookExit {
            last_book_ply,
            first_out_ply: last_book_ply + 1,
        })
    }

    /// Plays the line, telling `seen` each book position on it (its ply and
    /// what it is named); stops at an illegal move, or where no book
    /// position can come any more. Returns the moves played.
    fn walk(
        &self,
        start: &Chess,
        moves: &[Move],
        mut seen: impl FnMut(usize, Option<u32>),
    ) -> usize {
        let mut pos = start.clone();
        let look = |pos: &Chess| {
            if pos.board().occupied().count() < self.min_pieces {
                return Err(());
            }
            Ok(self.positions.get(&key(pos)).copied())
        };
        match look(&pos) {
            Ok(Some(named)) => seen(0, named),
            Ok(None) => {}
            Err(()) => return 0,
        }
        for (i, &m) in moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return i;
            }
            pos.play_unchecked(m);
            match look(&pos) {
                Ok(Some(named)) => seen(i + 1, named),
                Ok(None) => {}
                Err(()) => return i + 1,
            }
        }
        moves.len()
    }
}

/// The SAN moves of a table line, without the move numbers.
fn sans(pgn: &str) -> impl Iterator<Item = &str> {
    pgn.split_ascii_whitespace()
        .filter(|t| !(t.ends_with('.') && t.starts_with(|c: char| c.is_ascii_digit())))
}

/// What [`index`] finds: the positions, the fewest pieces on one, the
/// duplicate lines, and the lines that could not be played (why).
type Index = (Positions, usize, Vec<(usize, usize)>, Vec<(usize, String)>);

/// Plays every line once and keys its positions. The lines are taken in
/// the order of their moves, so a line shares the positions of the one
/// before as far as their moves agree and only the rest is played (most
/// of the table is a few long trunks).
fn index(openings: &mut [Opening]) -> Index {
    let root = Chess::default();
    // About two positions a line (8,000 for 3,800 lines): no regrowing.
    let mut positions =
        Positions::with_capacity_and_hasher(openings.len() * 5 / 2, BuildHasherDefault::default());
    positions.insert(key(&root), None);
    let mut min_pieces = root.board().occupied().count();
    let mut duplicates = Vec::new();
    let mut bad = Vec::new();
    let mut order: Vec<usize> = (0..openings.len()).collect();
    order.sort_unstable_by_key(|&i| openings[i].pgn);
    // The line being played: each move's text and the position after it.
    let mut stack: Vec<(&str, Chess, u64)> = Vec::new();
    'lines: for i in order {
        let mut depth = 0;
        for (n, tok) in sans(openings[i].pgn).enumerate() {
            if depth < stack.len() && stack[depth].0 == tok {
                depth += 1;
                continue;
            }
            stack.truncate(depth);
            let pos = stack.last().map_or(&root, |s| &s.1);
            let m = match SanPlus::from_ascii(tok.as_bytes()) {
                Ok(san) => match san.san.to_move(pos) {
                    Ok(m) => m,
                    Err(e) => {
                        bad.push((i, format!("move {} ({tok}): {e}", n + 1)));
                        stack.truncate(0);
                        continue 'lines;
                    }
                },
                Err(e) => {
                    bad.push((i, format!("move {} ({tok}): {e}", n + 1)));
                    stack.truncate(0);
                    continue 'lines;
                }
            };
            let mut next = pos.clone();
            next.play_unchecked(m);
            let k = key(&next);
            positions.entry(k).or_insert(None);
            min_pieces = min_pieces.min(next.board().occupied().count());
            stack.push((tok, next, k));
            depth += 1;
        }
        let Some(&(_, _, k)) = depth.checked_sub(1).and_then(|d| stack.get(d)) else {
            bad.push((i, "no moves".to_string()));
            continue;
        };
        openings[i].plies = depth;
        let slot = positions.entry(k).or_insert(None);
        match *slot {
            Some(j) => {
                let j = j as usize;
                let (keep, hide) = if prefer(&openings[i], i, &openings[j], j) {
                    (i, j)
                } else {
                    (j, i)
                };
                *slot = Some(keep as u32);
                duplicates.push((keep, hide));
            }
            None => *slot = Some(i as u32),
        }
    }
    (positions, min_pieces, duplicates, bad)
}

/// Of two lines reaching the same position, does `a` name it rather than
/// `b`? The shorter line (the usual move order), then the one later in
/// the files, as lichess' own map (built in file order, the later line
/// replacing the earlier) has it.
fn prefer(a: &Opening, ai: usize, b: &Opening, bi: usize) -> bool {
    (a.plies, std::cmp::Reverse(ai)) < (b.plies, std::cmp::Reverse(bi))
}

/// The embedded table, read on first use.
pub fn table() -> &'static OpeningTable {
    static TABLE: OnceLock<OpeningTable> = OnceLock::new();
    TABLE.get_or_init(OpeningTable::parse)
}

/// The opening named at exactly this position (`None` for a position the
/// table names not, even one on the way to a named position).
pub fn name_position(pos: &Chess) -> Option<&'static Opening> {
    table().name_position(pos)
}

/// The last named position along `moves` played from `start`: how many
/// moves lead to it (0: the start itself) and its opening. After 1. e4 e5
/// 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O it is still (6, "C65 Ruy Lopez: Berlin
/// Defense") if 4. O-O is not named. The line stops at an illegal move.
pub fn name_line(start: &Chess, moves: &[Move]) -> Option<(usize, &'static Opening)> {
    table().name_line(start, moves)
}

/// Where the line left the book: the move after its last book position.
/// `None` when no position of it is in the book, or when it ends in the
/// book. The start of a standard game is a book position (every line
/// begins there); a game from a custom FEN is in the book only where its
/// positions are on a line of the table.
pub fn book_exit(start: &Chess, moves: &[Move]) -> Option<BookExit> {
    table().book_exit(start, moves)
}
