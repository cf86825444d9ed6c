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
//! [`BughouseGame::closing`](super::BughouseGame::closing)), and games
//! with no moves at all. Names in Latin-1 are the caller's to decode
//! ([`crate::util::decode_text`]).
//!
//! Reading replays both boards move by move in the recorded order, so a
//! move that is not legal, or a drop of a piece that never arrived, is
//! reported with the game's number and its line ([`read_bpgn_games`]:
//! each game on its own, a bad game spoils only itself).

mod read;
mod scan;
#[cfg(test)]
mod tests;
mod write;

pub use read::{read_bpgn, read_bpgn_games};
pub use write::write_bpgn;

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
