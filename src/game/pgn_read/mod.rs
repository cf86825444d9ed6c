//! PGN import: games read with `pgn-reader` into [`Game`](super::Game).
//!
//! Each game is read on its own: a bad game gives an error naming the game
//! (and the move), and reading goes on with the next one. Tags are kept in
//! order as headers (`SetUp`/`FEN` become the start position instead), the
//! main line is kept with its comments, variations and NAGs are dropped.
//!
//! pgn-reader silently skips tokens it cannot read as a move, so each game's
//! text is scanned once more for such tokens: `Nf9`, a move cut off at the
//! end of a truncated file, or binary junk are errors, not missing moves.

use super::Game;
use super::movetree::MoveTree;
use pgn_reader::Reader;
use shakmaty::{Chess, Color, Position};
use std::io::{Cursor, Seek};

mod scan;
#[cfg(test)]
mod tests;
mod visitor;

pub use scan::main_line_move_offset;
use scan::unreadable_token;
use visitor::GameVisitor;
pub use visitor::resolve_san;

/// Why a game could not be read. `game` counts from 1 in the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("no game found in the PGN text")]
    NoGame,
    #[error("game {game}: bad FEN tag \"{fen}\": {reason}")]
    BadFen {
        game: usize,
        fen: String,
        reason: String,
    },
    #[error("game {game}: the SetUp tag is \"1\" but there is no FEN tag")]
    MissingFen { game: usize },
    #[error("game {game}: variant \"{variant}\" is not supported (only standard chess)")]
    UnsupportedVariant { game: usize, variant: String },
    /// A move that is illegal, ambiguous or not a move at all; `number` and
    /// `white` locate it (`14.` or `14...`).
    #[error("game {game}, move {number}{} {san}: {reason}", dots(.white))]
    BadMove {
        game: usize,
        number: u32,
        white: bool,
        san: String,
        reason: String,
        /// Main-line moves before it (to find it in the text).
        ply: usize,
    },
    /// Broken structure: unterminated comment or tag, missing result.
    #[error("game {game}: {reason}")]
    Malformed { game: usize, reason: String },
}

impl PgnError {
    /// The line (from 1) of `text`, one game's text, the error points at:
    /// the bad move, the FEN tag, or the game's first line.
    pub fn line_in(&self, text: &str) -> usize {
        let at = match self {
            PgnError::BadMove { ply, .. } => main_line_move_offset(text.as_bytes(), *ply),
            PgnError::BadFen { .. } | PgnError::MissingFen { .. } => {
                text.find("[FEN").or_else(|| text.find("[SetUp"))
            }
            PgnError::UnsupportedVariant { .. } => text.find("[Variant"),
            _ => None,
        };
        let bytes = text.as_bytes();
        at.map_or(1, |at| {
            bytes[..at.min(bytes.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1
        })
    }

    /// The game (counting from 1) the error is about.
    pub fn game(&self) -> Option<usize> {
        match self {
            PgnError::NoGame => None,
            PgnError::BadFen { game, .. }
            | PgnError::MissingFen { game }
            | PgnError::UnsupportedVariant { game, .. }
            | PgnError::BadMove { game, .. }
            | PgnError::Malformed { game, .. } => Some(*game),
        }
    }
}

fn dots(white: &bool) -> &'static str {
    if *white { "." } else { "..." }
}

/// A game read with everything in it: the main line as a [`Game`], the
/// whole tree with variations, NAGs and comments, and what had to be left
/// out (a broken variation is cut, the game is kept).
#[derive(Clone, Debug)]
pub struct ParsedGame {
    pub game: Game,
    pub tree: MoveTree,
    pub warnings: Vec<String>,
}

/// All games in a PGN text, each parsed independently (one bad game does not stop the others).
pub fn read_games(text: &str) -> Vec<Result<Game, PgnError>> {
    read_games_full(text)
        .into_iter()
        .map(|r| r.map(|p| p.game))
        .collect()
}

/// [`read_games`] with variations, NAGs and all comments kept.
pub fn read_games_full(text: &str) -> Vec<Result<ParsedGame, PgnError>> {
    let bytes = text.as_bytes();
    let mut reader = Reader::build(Cursor::new(bytes))
        .set_supported_tag_line_length(MAX_TAG_LINE)
        .finish();
    let mut visitor = GameVisitor { games: 0 };
    // Each game's outcome and where its text starts.
    let mut read: Vec<(Result<ParsedGame, Failure>, usize)> = Vec::new();
    let mut last_start = None;
    loop {
        // `has_more` also finishes skipping a game the visitor gave up on,
        // so the position is then the start of the next game.
        if !matches!(reader.has_more(), Ok(true)) {
            break;
        }
        let Ok(start) = reader.stream_position() else {
            break;
        };
        let start = start as usize;
        if last_start.is_some_and(|s| start <= s) {
            break; // No progress: never loop forever on odd input.
        }
        last_start = Some(start);
        match reader.read_game(&mut visitor) {
            Ok(Some(outcome)) => read.push((outcome, start)),
            Ok(None) => break,
            Err(e) => {
                // Unterminated tag or comment: this game is lost; skip what
                // is left of it so its remains are not taken for a game.
                let game = visitor.games;
                let reason = format!("{e} (is the text cut off?)");
                read.push((
                    Err(Failure::new(PgnError::Malformed { game, reason })),
                    start,
                ));
                if reader.skip_game().is_err() {
                    break;
                }
            }
        }
    }
    let starts: Vec<usize> = read.iter().map(|(_, start)| *start).collect();
    let mut out = Vec::with_capacity(read.len());
    for (i, (outcome, start)) in read.into_iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(bytes.len());
        let span = bytes.get(start..end).unwrap_or_default();
        let game_number = i + 1;
        out.push(match outcome {
            Ok(parsed) => match unreadable_token(span) {
                Some((ply, token)) => {
                    let start = Start::of(parsed.game.start().chess());
                    Err(not_a_move(game_number, start, ply, &token))
                }
                None => Ok(parsed),
            },
            // A skipped token before the failing move explains it better
            // (the moves after a skipped one are off by a ply).
            Err(failure) => match (failure.at, unreadable_token(span)) {
                (Some((ply, start)), Some((skip_ply, token))) if skip_ply <= ply => {
                    Err(not_a_move(game_number, start, skip_ply, &token))
                }
                _ => Err(failure.error),
            },
        });
    }
    out
}

/// The first game; error when there is none.
pub fn read_game(text: &str) -> Result<Game, PgnError> {
    read_games(text)
        .into_iter()
        .next()
        .unwrap_or(Err(PgnError::NoGame))
}

/// Longest tag line read in one piece (pgn-reader's default is 255 bytes; a
/// longer line would be cut and its rest read as another game).
const MAX_TAG_LINE: usize = 4096;

/// A game that could not be read, and where (ply and start position) when
/// the problem is in the moves.
struct Failure {
    at: Option<(usize, Start)>,
    error: PgnError,
}

impl Failure {
    fn new(error: PgnError) -> Failure {
        Failure { at: None, error }
    }
}

/// Where a game's move numbering starts.
#[derive(Clone, Copy)]
struct Start {
    fullmoves: u32,
    turn: Color,
}

impl Start {
    fn of(pos: &Chess) -> Start {
        Start {
            fullmoves: pos.fullmoves().get(),
            turn: pos.turn(),
        }
    }
}

/// Move number and side for the `ply`-th move (from 0) after `start`.
fn move_label(start: Start, ply: usize) -> (u32, bool) {
    let offset = ply + usize::from(start.turn == Color::Black);
    let number = u32::try_from(offset / 2)
        .unwrap_or(u32::MAX)
        .saturating_add(start.fullmoves);
    (number, offset.is_multiple_of(2))
}

fn bad_move(game: usize, start: Start, ply: usize, san: String, reason: String) -> PgnError {
    let (number, white) = move_label(start, ply);
    PgnError::BadMove {
        game,
        number,
        white,
        san,
        reason,
        ply,
    }
}

fn not_a_move(game: usize, start: Start, ply: usize, token: &str) -> PgnError {
    bad_move(game, start, ply, shown(token), "not a move".to_string())
}

/// Text from the file, safe and short enough for a message.
fn shown(text: &str) -> String {
    shown_up_to(text, 24)
}

fn shown_up_to(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}
