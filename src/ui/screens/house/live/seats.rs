//! Who sits where: people and engines at the seats, the new-game setup
//! and the seat numbering.

use super::*;
pub use crate::ui::seats::{Player, seat_index, seat_of};

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

/// The players' names, as the person playing reads them.
impl Live {
    /// A seat as the person playing sees it: "You (White, A)", "Partner
    /// (Kibitz level 2, Black, B)", "Opponent (Kibitz level 2, Black, A)";
    /// with no one or two people at the table, "White on A" (Bughouse) or
    /// "White".
    pub fn seat_name(&self, b: usize, c: Color) -> String {
        let side = match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        let place = if self.boards() == 2 {
            format!("{side}, {}", board_id(b).letter())
        } else {
            side.to_string()
        };
        let Some(you) = self.person() else {
            return if self.boards() == 2 {
                format!("{side} on {}", board_id(b).letter())
            } else {
                side.to_string()
            };
        };
        let seat = seat_index(b, c);
        let (yb, yc) = seat_of(you);
        if seat == you {
            return format!("You ({place})");
        }
        let role = if self.boards() == 2 && seat == seat_index(1 - yb, !yc) {
            "Partner"
        } else {
            "Opponent"
        };
        match self.player_name(b, c) {
            Some(n) => format!("{role} ({n}, {place})"),
            None => format!("{role} ({place})"),
        }
    }

    /// A seat in a few letters, for the Partners box: "You", "Partner",
    /// "Opponent A"; with no single person, "White on A".
    pub fn short_name(&self, b: usize, c: Color) -> String {
        let full = self.seat_name(b, c);
        match full.split(" (").next() {
            Some("Opponent") if self.boards() == 2 => {
                format!("Opponent {}", board_id(b).letter())
            }
            Some(short) => short.to_string(),
            None => full,
        }
    }

    /// The one person at the table, if exactly one plays.
    pub(super) fn person(&self) -> Option<usize> {
        match self.human_seats().as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// A player's name from the record ("Kibitz level 2").
    pub fn player_name(&self, b: usize, c: Color) -> Option<String> {
        let tag = match (self.boards(), b, c) {
            (2, 0, Color::White) => "WhiteA",
            (2, 0, Color::Black) => "BlackA",
            (2, _, Color::White) => "WhiteB",
            (2, _, Color::Black) => "BlackB",
            (_, _, Color::White) => "White",
            (_, _, Color::Black) => "Black",
        };
        let name = match &self.record {
            Record::Zh(g) => g.header(tag),
            Record::Bug(g) => g.header(tag),
        }?;
        (!name.is_empty() && name != "?").then(|| name.to_string())
    }

    /// Whether the person playing (the one at the table) won: `None` for a
    /// draw or with no single person.
    pub(super) fn person_won(&self, team_one_won: bool) -> Option<bool> {
        let (b, c) = seat_of(self.person()?);
        let team_one = (b == 0) == (c == Color::White);
        Some(team_one == team_one_won)
    }
}
