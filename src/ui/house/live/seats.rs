//! Who sits where: people and engines at the seats, the new-game setup
//! and the seat numbering.

use super::*;

/// Who sits at a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Engine(EngineSpec),
}

/// A new game's settings.
#[derive(Clone, Debug)]
pub struct LiveSetup {
    /// Crazyhouse or Bughouse.
    pub kind: VariantKind,
    /// Per board (A, then B in Bughouse): White's and Black's player.
    pub players: Vec<[Player; 2]>,
    pub time: Option<TimeControl>,
    /// The start position of each board (A, then B), when not the initial
    /// one (`--fen`).
    pub start: Option<Vec<Crazyhouse>>,
}

/// The start of a game from `--fen`: a Crazyhouse FEN (pockets in any
/// form, none meaning empty hands), or for Bughouse board A's and board
/// B's FENs joined by `|`. A position where the game would already be
/// over is refused; errors name the board and the field.
pub fn parse_start(kind: VariantKind, fen: &str) -> Result<Vec<Crazyhouse>, String> {
    use crate::variant::fen::{parse_bughouse, parse_crazyhouse};
    let over = |pos: &Crazyhouse| match rules::status(pos, kind) {
        BoardStatus::Checkmate { .. } => Some("it is checkmate"),
        BoardStatus::Stalemate => Some("it is stalemate"),
        BoardStatus::Playing | BoardStatus::MustWait { .. } => None,
    };
    match kind {
        VariantKind::Bughouse => {
            if !fen.contains('|') {
                return Err("Bughouse starts from two FENs, board A's and board B's, \
                            joined by ' | '"
                    .into());
            }
            let boards = parse_bughouse(fen).map_err(|e| e.to_string())?;
            for (pos, letter) in boards.iter().zip(['A', 'B']) {
                if let Some(why) = over(pos) {
                    return Err(format!(
                        "board {letter}: {why}; the game would already be over"
                    ));
                }
            }
            Ok(boards.to_vec())
        }
        _ => {
            if fen.contains('|') {
                return Err(
                    "Crazyhouse starts from one FEN (two joined by '|' are for Bughouse)".into(),
                );
            }
            let pos = parse_crazyhouse(fen, false).map_err(|e| e.to_string())?;
            if let Some(why) = over(&pos) {
                return Err(format!("{why}; the game would already be over"));
            }
            Ok(vec![pos])
        }
    }
}

/// Who plays: the person's side (`None`: engines only; `Some(None)` is
/// not used), and the engines.
pub struct Seating {
    /// The variant: Crazyhouse or Bughouse.
    pub kind: VariantKind,
    /// `None`: engines on every seat (watch); else the person's seat.
    pub person: Option<(usize, Color)>,
    /// Two people at one keyboard (Crazyhouse only).
    pub two_people: bool,
    /// The opponent (Crazyhouse) or both opponents (Bughouse).
    pub opponents: [EngineSpec; 2],
    /// The partner (Bughouse).
    pub partner: EngineSpec,
    pub time: Option<TimeControl>,
}

impl Seating {
    /// The game's setup, or why it cannot be played.
    pub fn setup(self) -> Result<LiveSetup, String> {
        let engine = |s: &EngineSpec| Player::Engine(s.clone());
        if self.kind == VariantKind::Crazyhouse {
            let players = if self.two_people {
                [Player::Human, Player::Human]
            } else {
                match self.person {
                    Some((_, Color::White)) => [Player::Human, engine(&self.opponents[0])],
                    Some((_, Color::Black)) => [engine(&self.opponents[0]), Player::Human],
                    None => [engine(&self.opponents[0]), engine(&self.opponents[1])],
                }
            };
            return Ok(LiveSetup {
                kind: self.kind,
                players: vec![players],
                time: self.time,
                start: None,
            });
        }
        if self.two_people {
            return Err(
                "Bughouse here is one person with three engines, or four engines watched".into(),
            );
        }
        let mut players = vec![
            [engine(&self.opponents[0]), engine(&self.opponents[0])],
            [engine(&self.opponents[1]), engine(&self.opponents[1])],
        ];
        if let Some((b, c)) = self.person {
            let ci = |c: Color| usize::from(c == Color::Black);
            players[b][ci(c)] = Player::Human;
            players[1 - b][ci(!c)] = engine(&self.partner);
            players[b][ci(!c)] = engine(&self.opponents[0]);
            players[1 - b][ci(c)] = engine(&self.opponents[1]);
        }
        Ok(LiveSetup {
            kind: self.kind,
            players,
            // Bughouse needs clocks: 2+0 unless said.
            time: Some(self.time.unwrap_or(TimeControl::new(120, 0))),
            start: None,
        })
    }
}

/// The tag that keeps who sat where, for resuming: `human, level 4` (White,
/// Black) or four entries in the order WA, BA, WB, BB.
pub const SEATS_TAG: &str = "KibitzSeats";

/// The seat number of the hint engine (Kibitz at full strength, started
/// at the first hint).
pub const ASSISTANT: usize = 4;

/// Seats are numbered board * 2 + colour (White 0, Black 1).
pub fn seat_index(board: usize, color: Color) -> usize {
    board * 2 + usize::from(color == Color::Black)
}

pub fn seat_of(index: usize) -> (usize, Color) {
    (
        index / 2,
        if index.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        },
    )
}
