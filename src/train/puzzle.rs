//! A puzzle in the Lichess puzzle database's CSV form:
//! `PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags`
//! (and lichess' newer `DailyDate`, read and ignored). `FEN` is the position
//! before the opponent's move, the first move of `Moves`; the solver's
//! moves and the opponent's replies follow, in UCI.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};
use std::fmt;

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub id: String,
    /// The position before the opponent's move.
    pub fen: String,
    /// UCI moves: the opponent's, then the solution (solver, reply, solver...).
    pub moves: Vec<String>,
    pub rating: u32,
    pub rating_deviation: u32,
    pub popularity: i32,
    pub nb_plays: u32,
    pub themes: Vec<String>,
    pub game_url: String,
    pub opening_tags: Vec<String>,
}

/// Why a puzzle line cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    #[error("expected at least 3 fields (PuzzleId,FEN,Moves), found {0}")]
    Fields(usize),
    #[error("bad FEN {fen:?}: {why}")]
    Fen { fen: String, why: String },
    #[error("{0:?} is not a UCI move")]
    Uci(String),
    #[error("move {ply} ({uci}) is illegal in the puzzle")]
    Illegal { ply: usize, uci: String },
    #[error("a puzzle needs the opponent's move and at least one solution move")]
    TooShort,
    #[error("the solution must end with the solver's move")]
    EndsWithReply,
    #[error("bad number {0:?} in field {1}")]
    Number(String, &'static str),
}

/// The CSV header lichess writes (without the newer `DailyDate`).
pub const CSV_HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

impl Puzzle {
    /// A puzzle with only what solving needs; the counters are zero.
    pub fn new(id: impl Into<String>, fen: impl Into<String>, moves: Vec<String>) -> Puzzle {
        Puzzle {
            id: id.into(),
            fen: fen.into(),
            moves,
            rating: 1500,
            rating_deviation: 500,
            popularity: 0,
            nb_plays: 0,
            themes: Vec::new(),
            game_url: String::new(),
            opening_tags: Vec::new(),
        }
    }

    /// The position before the opponent's move and every move of
    /// [`Puzzle::moves`], checked legal in turn. The solution must end
    /// with the solver's move (an even number of moves in all).
    pub fn line(&self) -> Result<(Chess, Vec<Move>), PuzzleError> {
        let bad_fen = |why: String| PuzzleError::Fen {
            fen: self.fen.clone(),
            why,
        };
        let fen: Fen = self.fen.parse().map_err(|e| bad_fen(format!("{e}")))?;
        let start: Chess = fen
            .into_position(CastlingMode::Standard)
            .map_err(|e| bad_fen(format!("{e}")))?;
        if self.moves.len() < 2 {
            return Err(PuzzleError::TooShort);
        }
        if !self.moves.len().is_multiple_of(2) {
            return Err(PuzzleError::EndsWithReply);
        }
        let mut pos = start.clone();
        let mut out = Vec::with_capacity(self.moves.len());
        for (ply, uci) in self.moves.iter().enumerate() {
            let u: UciMove = uci.parse().map_err(|_| PuzzleError::Uci(uci.clone()))?;
            let m = u.to_move(&pos).map_err(|_| PuzzleError::Illegal {
                ply,
                uci: uci.clone(),
            })?;
            pos.play_unchecked(m);
            out.push(m);
        }
        Ok((start, out))
    }

    /// The position the solver faces: after the opponent's move.
    pub fn position(&self) -> Result<Chess, PuzzleError> {
        let (mut pos, moves) = self.line()?;
        pos.play_unchecked(moves[0]);
        Ok(pos)
    }

    /// Parses one CSV line (not the header). Fields past `Moves` may be
    /// missing or empty.
    pub fn from_csv_line(line: &str) -> Result<Puzzle, PuzzleError> {
        let f: Vec<&str> = line.trim_end_matches(['\r', '\n']).split(',').collect();
        if f.len() < 3 {
            return Err(PuzzleError::Fields(f.len()));
        }
        let get = |i: usize| f.get(i).copied().unwrap_or("").trim();
        let num = |i: usize, name: &'static str| -> Result<i64, PuzzleError> {
            let s = get(i);
            if s.is_empty() {
                return Ok(0);
            }
            s.parse::<i64>()
                .map_err(|_| PuzzleError::Number(s.to_string(), name))
        };
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        // A stray carriage return inside the FEN (found by `kibitz fuzz
        // puzzle-csv`) read as part of a field, but the line written back
        // had a space there and no longer read.
        if get(1).contains(char::is_control) {
            return Err(PuzzleError::Fen {
                fen: get(1).to_string(),
                why: "it holds a control character".into(),
            });
        }
        let p = Puzzle {
            id: get(0).to_string(),
            fen: get(1).to_string(),
            moves: words(get(2)),
            rating: num(3, "Rating")?.clamp(0, u32::MAX as i64) as u32,
            rating_deviation: num(4, "RatingDeviation")?.clamp(0, u32::MAX as i64) as u32,
            popularity: num(5, "Popularity")?.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
            nb_plays: num(6, "NbPlays")?.clamp(0, u32::MAX as i64) as u32,
            themes: words(get(7)),
            game_url: get(8).to_string(),
            opening_tags: words(get(9)),
        };
        p.line()?;
        Ok(p)
    }

    /// The puzzle as a CSV line (no newline), fields as lichess writes them.
    pub fn to_csv_line(&self) -> String {
        // Commas cannot appear in any field lichess writes; drop strays so
        // the line stays one record.
        let clean = |s: &str| s.replace([',', '\n', '\r'], " ");
        format!(
            "{},{},{},{},{},{},{},{},{},{}",
            clean(&self.id),
            clean(&self.fen),
            clean(&self.moves.join(" ")),
            self.rating,
            self.rating_deviation,
            self.popularity,
            self.nb_plays,
            clean(&self.themes.join(" ")),
            clean(&self.game_url),
            clean(&self.opening_tags.join(" ")),
        )
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_csv_line())
    }
}

/// A Lichess-format CSV file read: the puzzles, and each bad line (1-based
/// line number, what is wrong). A header line, blank lines and `#`
/// comments are skipped.
#[derive(Debug, Default)]
pub struct CsvRead {
    pub puzzles: Vec<Puzzle>,
    pub errors: Vec<(usize, PuzzleError)>,
}

/// Reads a Lichess-format puzzle CSV.
pub fn read_csv(text: &str) -> CsvRead {
    let mut out = CsvRead::default();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || (i == 0 && t.starts_with("PuzzleId,")) {
            continue;
        }
        match Puzzle::from_csv_line(t) {
            Ok(p) => out.puzzles.push(p),
            Err(e) => out.errors.push((i + 1, e)),
        }
    }
    out
}

/// Writes puzzles as a Lichess-format CSV, header first.
pub fn write_csv(puzzles: &[Puzzle]) -> String {
    let mut s = String::with_capacity(64 + puzzles.len() * 160);
    s.push_str(CSV_HEADER);
    s.push('\n');
    for p in puzzles {
        s.push_str(&p.to_csv_line());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "001KR,6Qk/p1p3pp/4N3/1p6/2q1r1n1/2B5/PP4PP/3R1R1K b - - 0 28,h8g8 f1f8,588,81,100,177,mate mateIn1 middlegame oneMove,https://lichess.org/TaT1Zl7z/black#56,,";

    #[test]
    fn reads_a_lichess_line_and_writes_it_back() {
        let p = Puzzle::from_csv_line(LINE).expect("valid");
        assert_eq!(p.id, "001KR");
        assert_eq!(p.moves, ["h8g8", "f1f8"]);
        assert_eq!(p.rating, 588);
        assert_eq!(p.themes, ["mate", "mateIn1", "middlegame", "oneMove"]);
        let again = Puzzle::from_csv_line(&p.to_csv_line()).expect("round trip");
        assert_eq!(again, p);
        let pos = p.position().expect("legal");
        assert_eq!(pos.turn(), shakmaty::Color::White);
        // A carriage return inside the FEN is refused (written back it
        // became a space, and the line did not read).
        let cr = LINE.replace(" 0 28", " 0\r\"x 28");
        assert!(matches!(
            Puzzle::from_csv_line(&cr),
            Err(PuzzleError::Fen { .. })
        ));
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let text = format!(
            "{CSV_HEADER}\n{LINE}\nX,not a fen,e2e4 e7e5\nY,{},e2e5 e7e5\nZ,{},e2e4\n",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        );
        let r = read_csv(&text);
        assert_eq!(r.puzzles.len(), 1);
        let lines: Vec<usize> = r.errors.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, [3, 4, 5]);
        assert!(matches!(r.errors[0].1, PuzzleError::Fen { .. }));
        assert!(matches!(r.errors[1].1, PuzzleError::Illegal { ply: 0, .. }));
        assert!(matches!(r.errors[2].1, PuzzleError::TooShort));
    }
}
