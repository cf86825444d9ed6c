//! Polyglot opening books (`.bin`).
//!
//! A book is a sorted array of 16-byte big-endian entries: position key
//! (Polyglot's Zobrist hashing, which our [`Board::hash`] reproduces), move,
//! weight and a learning field. A position's moves are found by binary
//! search; one is chosen at random in proportion to its weight.

use super::board::Board;
use crate::util::Rng;
use shakmaty::{Move, Position, Role, Square};
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("cannot read book {path}: {err}")]
    Io { path: String, err: std::io::Error },
    #[error("{path} is not a Polyglot book: its size ({size} bytes) is not a multiple of 16")]
    Corrupt { path: String, size: usize },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    pub key: u64,
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<BookEntry>,
}

/// A book move with its weight, legal in the probed position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
}

impl Book {
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|err| BookError::Io {
            path: path.display().to_string(),
            err,
        })?;
        Book::from_bytes(&bytes).map_err(|size| BookError::Corrupt {
            path: path.display().to_string(),
            size,
        })
    }

    /// Parses a book; `Err(size)` when the data cannot be a book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, usize> {
        if !bytes.len().is_multiple_of(16) {
            return Err(bytes.len());
        }
        let mut entries: Vec<BookEntry> = bytes
            .chunks_exact(16)
            .map(|c| BookEntry {
                key: u64::from_be_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]),
                raw_move: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
                learn: u32::from_be_bytes([c[12], c[13], c[14], c[15]]),
            })
            .collect();
        if !entries.windows(2).all(|w| w[0].key <= w[1].key) {
            entries.sort_by_key(|e| e.key);
        }
        Ok(Book { entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries stored for `key`.
    pub fn entries(&self, key: u64) -> &[BookEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The legal book moves for this position, best weight first.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let legal = board.chess().legal_moves();
        let mut out: Vec<BookMove> = self
            .entries(board.hash())
            .iter()
            .filter_map(|e| {
                let (from, to, promo) = decode(e.raw_move);
                legal
                    .iter()
                    .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == promo)
                    .map(|&mv| BookMove {
                        mv,
                        weight: e.weight,
                    })
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.weight));
        out
    }

    /// A book move chosen at random in proportion to the weights (or
    /// uniformly when all weights are zero).
    pub fn pick(&self, board: &Board, rng: &mut Rng) -> Option<Move> {
        let moves = self.moves(board);
        if moves.is_empty() {
            return None;
        }
        let total: u64 = moves.iter().map(|m| m.weight as u64).sum();
        if total == 0 {
            return Some(moves[rng.below(moves.len())].mv);
        }
        let mut x = (rng.next_u64() % total) as i64;
        for m in &moves {
            x -= m.weight as i64;
            if x < 0 {
                return Some(m.mv);
            }
        }
        moves.last().map(|m| m.mv)
    }
}

/// Polyglot move bits: to file (0-2), to rank (3-5), from file (6-8), from
/// rank (9-11), promotion (12-14: none, N, B, R, Q). Castling is written as
/// the king taking its own rook, as shakmaty's `Move::Castle` does.
fn decode(raw: u16) -> (Square, Square, Option<Role>) {
    let to = Square::new((raw & 0x3f) as u32);
    let from = Square::new(((raw >> 6) & 0x3f) as u32);
    let promo = match (raw >> 12) & 7 {
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => None,
    };
    (from, to, promo)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, raw: u16, weight: u16) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&key.to_be_bytes());
        b[8..10].copy_from_slice(&raw.to_be_bytes());
        b[10..12].copy_from_slice(&weight.to_be_bytes());
        b
    }

    fn raw(from: Square, to: Square) -> u16 {
        (to as u16) | (from as u16) << 6
    }

    #[test]
    fn handmade_book() {
        let start = Board::startpos();
        let key = start.hash();
        assert_eq!(key, 0x463b96181691fc9c);
        let mut bytes = Vec::new();
        bytes.extend(entry(key, raw(Square::E2, Square::E4), 3));
        bytes.extend(entry(key, raw(Square::D2, Square::D4), 1));
        // An illegal move stored for the position is ignored.
        bytes.extend(entry(key, raw(Square::E2, Square::E5), 100));
        bytes.extend(entry(key + 1, raw(Square::G1, Square::F3), 9));
        let book = Book::from_bytes(&bytes).unwrap();
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 2);
        assert_eq!(Board::uci(moves[0].mv), "e2e4");
        let mut rng = Rng::new(3);
        let mut e4 = 0;
        for _ in 0..400 {
            if Board::uci(book.pick(&start, &mut rng).unwrap()) == "e2e4" {
                e4 += 1;
            }
        }
        assert!(
            (250..350).contains(&e4),
            "weights 3:1 -> about 300 of 400, got {e4}"
        );
        assert!(Book::from_bytes(&bytes[..20]).is_err());
    }

    #[test]
    fn castling_is_king_takes_rook() {
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let bytes = entry(b.hash(), raw(Square::E1, Square::H1), 1);
        let book = Book::from_bytes(&bytes).unwrap();
        let moves = book.moves(&b);
        assert_eq!(moves.len(), 1);
        assert_eq!(Board::uci(moves[0].mv), "e1g1");
    }
}
