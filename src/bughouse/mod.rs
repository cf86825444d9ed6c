//! A Bughouse game as data: two boards, four seats, the moves of both
//! boards in the order they were made (with the mover's clock), the pieces
//! passed between the boards, the partners' messages and how the game
//! ended. BPGN reading and writing live in [`bpgn`].
//!
//! Teams: team 1 is board A's White and board B's Black, team 2 board A's
//! Black and board B's White. A piece captured on one board goes to the
//! partner's hand on the other board, with the colour of the captured piece
//! (the colour the partner plays there); a promoted piece goes back as a
//! pawn. The whole game ends when one board ends: a mate (a check no drop
//! could block, see [`crate::variant::rules`]), a flag, a resignation, an
//! agreed draw, or a forfeit (illegal move, engine failure).

pub mod bpgn;

use crate::game::notation::{MoveInputError, parse_variant_move};
use crate::variant::VariantKind;
use crate::variant::fen::write_fen;
use crate::variant::rules::{self, BoardStatus};
use shakmaty::variant::Crazyhouse;
use shakmaty::{Color, Move, Piece, Position};
use std::fmt;
use std::time::Duration;

/// One of the two boards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardId {
    A,
    B,
}

impl BoardId {
    pub const BOTH: [BoardId; 2] = [BoardId::A, BoardId::B];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> BoardId {
        match self {
            BoardId::A => BoardId::B,
            BoardId::B => BoardId::A,
        }
    }

    pub fn letter(self) -> char {
        match self {
            BoardId::A => 'A',
            BoardId::B => 'B',
        }
    }
}

/// A player's place: a board and a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seat {
    pub board: BoardId,
    pub color: Color,
}

/// The two teams: team 1 = A White + B Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Team {
    One,
    Two,
}

impl Team {
    pub fn other(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }

    /// The team's two seats (board A first).
    pub fn seats(self) -> [Seat; 2] {
        match self {
            Team::One => [
                Seat::new(BoardId::A, Color::White),
                Seat::new(BoardId::B, Color::Black),
            ],
            Team::Two => [
                Seat::new(BoardId::A, Color::Black),
                Seat::new(BoardId::B, Color::White),
            ],
        }
    }
}

impl Seat {
    pub const ALL: [Seat; 4] = [
        Seat::new(BoardId::A, Color::White),
        Seat::new(BoardId::A, Color::Black),
        Seat::new(BoardId::B, Color::White),
        Seat::new(BoardId::B, Color::Black),
    ];

    pub const fn new(board: BoardId, color: Color) -> Seat {
        Seat { board, color }
    }

    pub fn team(self) -> Team {
        match (self.board, self.color) {
            (BoardId::A, Color::White) | (BoardId::B, Color::Black) => Team::One,
            _ => Team::Two,
        }
    }

    /// The partner sits at the other board with the other colour.
    pub fn partner(self) -> Seat {
        Seat::new(self.board.other(), !self.color)
    }

    /// The opponent at the same board.
    pub fn opponent(self) -> Seat {
        Seat::new(self.board, !self.color)
    }

    /// The short name BPGN uses: `WA`, `BA`, `WB`, `BB`.
    pub fn code(self) -> String {
        let c = if self.color == Color::White { 'W' } else { 'B' };
        format!("{c}{}", self.board.letter())
    }

    /// The header key of the player's name: `WhiteA`, `BlackB`...
    pub fn tag(self) -> String {
        let c = if self.color == Color::White {
            "White"
        } else {
            "Black"
        };
        format!("{c}{}", self.board.letter())
    }

    /// Parses `WA`/`A-white`/`white-a`/`whitea` (any case).
    pub fn parse(s: &str) -> Option<Seat> {
        let s = s.trim().to_ascii_lowercase().replace(['-', '_', ' '], "");
        let (board, color) = match s.as_str() {
            "wa" | "awhite" | "whitea" | "aw" => (BoardId::A, Color::White),
            "ba" | "ablack" | "blacka" | "ab" => (BoardId::A, Color::Black),
            "wb" | "bwhite" | "whiteb" | "bw" => (BoardId::B, Color::White),
            "bb" | "bblack" | "blackb" => (BoardId::B, Color::Black),
            _ => return None,
        };
        Some(Seat::new(board, color))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = if self.color == Color::White {
            "White"
        } else {
            "Black"
        };
        write!(f, "{c} on board {}", self.board.letter())
    }
}

/// A move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BugMove {
    pub board: BoardId,
    pub color: Color,
    pub mv: Move,
    /// SAN as written (`N@f7+`, `P@e4`).
    pub san: String,
    /// The mover's clock after the move, when known.
    pub remaining: Option<Duration>,
    /// The piece that went to the other board.
    pub sent: Option<Piece>,
}

impl BugMove {
    pub fn seat(&self) -> Seat {
        Seat::new(self.board, self.color)
    }
}

/// A message between partners, after `after_moves` moves of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chat {
    pub after_moves: usize,
    pub from: Seat,
    pub text: String,
}

/// How the game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BugTermination {
    Checkmate,
    Time,
    Resignation,
    /// A draw both teams agreed to.
    Agreement,
    /// The arbiter's move limit (both boards played too long).
    MoveLimit,
    IllegalMove,
    /// An engine crashed or stopped answering.
    Abandoned,
}

/// The result, from team 1's view (A White + B Black) as BPGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BugResult {
    TeamOneWins,
    TeamTwoWins,
    Draw,
}

impl BugResult {
    pub fn pgn(self) -> &'static str {
        match self {
            BugResult::TeamOneWins => "1-0",
            BugResult::TeamTwoWins => "0-1",
            BugResult::Draw => "1/2-1/2",
        }
    }

    pub fn win_for(team: Team) -> BugResult {
        match team {
            Team::One => BugResult::TeamOneWins,
            Team::Two => BugResult::TeamTwoWins,
        }
    }

    /// Points for `team`.
    pub fn points(self, team: Team) -> f64 {
        match (self, team) {
            (BugResult::Draw, _) => 0.5,
            (BugResult::TeamOneWins, Team::One) | (BugResult::TeamTwoWins, Team::Two) => 1.0,
            _ => 0.0,
        }
    }
}

/// The end of the game: the result, the board where it happened, how, and
/// who lost there (none for a draw).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BugEnding {
    pub result: BugResult,
    pub board: BoardId,
    pub how: BugTermination,
    pub loser: Option<Seat>,
}

impl BugEnding {
    /// A loss for `loser`'s team.
    pub fn lost(loser: Seat, how: BugTermination) -> BugEnding {
        BugEnding {
            result: BugResult::win_for(loser.team().other()),
            board: loser.board,
            how,
            loser: Some(loser),
        }
    }

    /// The BPGN closing comment: `WA checkmated`, `BB forfeits on time`...
    pub fn describe(&self) -> String {
        let who = self.loser.map(|s| s.code()).unwrap_or_default();
        match self.how {
            BugTermination::Checkmate => format!("{who} checkmated"),
            BugTermination::Time => format!("{who} forfeits on time"),
            BugTermination::Resignation => format!("{who} resigns"),
            BugTermination::Agreement => "game drawn by agreement".into(),
            BugTermination::MoveLimit => "game drawn by the move limit".into(),
            BugTermination::IllegalMove => format!("{who} forfeits by an illegal move"),
            BugTermination::Abandoned => format!("{who} forfeits: engine failure"),
        }
    }

    /// Reads [`BugEnding::describe`]'s text back (with the result).
    pub fn parse(text: &str, result: BugResult) -> Option<BugEnding> {
        let t = text.trim();
        let draw = |how| BugEnding {
            result,
            board: BoardId::A,
            how,
            loser: None,
        };
        if t.contains("agreement") {
            return Some(draw(BugTermination::Agreement));
        }
        if t.contains("move limit") {
            return Some(draw(BugTermination::MoveLimit));
        }
        let (code, rest) = t.split_once(' ')?;
        let seat = Seat::parse(code)?;
        let how = if rest.starts_with("checkmated") {
            BugTermination::Checkmate
        } else if rest.contains("on time") {
            BugTermination::Time
        } else if rest.starts_with("resigns") {
            BugTermination::Resignation
        } else if rest.contains("illegal") {
            BugTermination::IllegalMove
        } else if rest.contains("failure") || rest.contains("disconnect") {
            BugTermination::Abandoned
        } else {
            return None;
        };
        Some(BugEnding {
            result,
            board: seat.board,
            how,
            loser: Some(seat),
        })
    }
}

/// Why a move could not be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BugError {
    #[error("the game is over")]
    Over,
    #[error("board {0}: {1}")]
    Move(char, MoveInputError),
    #[error("board {0}: {1} is not legal here")]
    Illegal(char, String),
}

/// A Bughouse game.
#[derive(Clone, Debug)]
pub struct BughouseGame {
    /// Tags in order (the player names as `WhiteA`...; `TimeControl`).
    pub headers: Vec<(String, String)>,
    start: [Crazyhouse; 2],
    boards: [Crazyhouse; 2],
    moves: Vec<BugMove>,
    pub chat: Vec<Chat>,
    pub ending: Option<BugEnding>,
    /// The closing comment as a file wrote it (`dave forfeits by
    /// disconnection`), when it was read from one: shown and written
    /// again as it was.
    pub closing: Option<String>,
}

impl Default for BughouseGame {
    fn default() -> Self {
        BughouseGame::new()
    }
}

impl BughouseGame {
    /// Both boards at the initial position with empty hands.
    pub fn new() -> BughouseGame {
        BughouseGame::from_boards([Crazyhouse::default(), Crazyhouse::default()])
    }

    pub fn from_boards(start: [Crazyhouse; 2]) -> BughouseGame {
        BughouseGame {
            headers: Vec::new(),
            boards: start.clone(),
            start,
            moves: Vec::new(),
            chat: Vec::new(),
            ending: None,
            closing: None,
        }
    }

    pub fn set_header(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.headers.iter_mut().find(|(k, _)| k == key) {
            Some(h) => h.1 = value,
            None => self.headers.push((key.to_string(), value)),
        }
    }

    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The player at `seat` (its `WhiteA`... tag).
    pub fn player(&self, seat: Seat) -> &str {
        self.header(&seat.tag()).unwrap_or("?")
    }

    pub fn start(&self, board: BoardId) -> &Crazyhouse {
        &self.start[board.index()]
    }

    pub fn board(&self, board: BoardId) -> &Crazyhouse {
        &self.boards[board.index()]
    }

    pub fn moves(&self) -> &[BugMove] {
        &self.moves
    }

    /// Whose move it is on `board`.
    pub fn to_move(&self, board: BoardId) -> Seat {
        Seat::new(board, self.board(board).turn())
    }

    /// The status of `board` by the Bughouse rules.
    pub fn status(&self, board: BoardId) -> BoardStatus {
        rules::status(self.board(board), VariantKind::Bughouse)
    }

    /// Both boards as `FEN A | FEN B`.
    pub fn fen(&self) -> String {
        format!(
            "{} | {}",
            write_fen(self.board(BoardId::A)),
            write_fen(self.board(BoardId::B))
        )
    }

    /// Plays a legal move on `board` (checked) with the mover's remaining
    /// time. The captured piece goes to the partner's hand at once; a mate
    /// ends the game. Returns the piece sent to the other board.
    pub fn push(
        &mut self,
        board: BoardId,
        mv: Move,
        remaining: Option<Duration>,
    ) -> Result<Option<Piece>, BugError> {
        if self.ending.is_some() {
            return Err(BugError::Over);
        }
        let pos = self.board(board);
        if !pos.is_legal(mv) {
            return Err(BugError::Illegal(
                board.letter(),
                mv.to_uci(shakmaty::CastlingMode::Standard).to_string(),
            ));
        }
        let color = pos.turn();
        let san = rules::san(pos, mv, VariantKind::Bughouse);
        let (after, sent) = rules::play_bughouse(pos, mv);
        self.boards[board.index()] = after;
        if let Some(piece) = sent {
            let other = board.other().index();
            if let Some(p) = rules::add_to_pocket(&self.boards[other], piece) {
                self.boards[other] = p;
            }
        }
        self.moves.push(BugMove {
            board,
            color,
            mv,
            san,
            remaining,
            sent,
        });
        if let BoardStatus::Checkmate { winner } = self.status(board) {
            self.ending = Some(BugEnding::lost(
                Seat::new(board, !winner),
                BugTermination::Checkmate,
            ));
        }
        Ok(sent)
    }

    /// [`BughouseGame::push`] of a typed move (SAN or UCI, drops included).
    pub fn push_text(
        &mut self,
        board: BoardId,
        text: &str,
        remaining: Option<Duration>,
    ) -> Result<Option<Piece>, BugError> {
        if self.ending.is_some() {
            return Err(BugError::Over);
        }
        let mv = parse_variant_move(self.board(board), text)
            .map_err(|e| BugError::Move(board.letter(), e))?;
        self.push(board, mv, remaining)
    }

    /// A message from `from` to its partner.
    pub fn say(&mut self, from: Seat, text: impl Into<String>) {
        self.chat.push(Chat {
            after_moves: self.moves.len(),
            from,
            text: text.into(),
        });
    }

    /// Ends the game (if it is not over yet).
    pub fn finish(&mut self, ending: BugEnding) {
        if self.ending.is_none() {
            self.ending = Some(ending);
        }
    }

    /// `seat` ran out of time.
    pub fn flag(&mut self, seat: Seat) {
        self.finish(BugEnding::lost(seat, BugTermination::Time));
    }

    /// `seat` resigns (for the team).
    pub fn resign(&mut self, seat: Seat) {
        self.finish(BugEnding::lost(seat, BugTermination::Resignation));
    }

    /// The last clock reading of `seat` (its last move's remaining time).
    pub fn last_clock(&self, seat: Seat) -> Option<Duration> {
        self.moves
            .iter()
            .rev()
            .find(|m| m.seat() == seat)
            .and_then(|m| m.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Role;

    #[test]
    fn seats_and_teams() {
        let wa = Seat::new(BoardId::A, Color::White);
        assert_eq!(wa.team(), Team::One);
        assert_eq!(wa.partner(), Seat::new(BoardId::B, Color::Black));
        assert_eq!(wa.partner().team(), Team::One);
        assert_eq!(wa.opponent().team(), Team::Two);
        assert_eq!(Seat::parse("A-white"), Some(wa));
        assert_eq!(Seat::parse("bb"), Some(Seat::new(BoardId::B, Color::Black)));
        assert_eq!(wa.code(), "WA");
        assert_eq!(wa.tag(), "WhiteA");
        for s in Seat::ALL {
            assert_eq!(Seat::parse(&s.code()), Some(s));
            assert_eq!(s.partner().partner(), s);
        }
    }

    #[test]
    fn a_capture_reaches_the_partner_with_the_right_colour() {
        let mut g = BughouseGame::new();
        for m in ["e4", "d5", "exd5"] {
            g.push_text(BoardId::A, m, None).unwrap();
        }
        // White A took a black pawn: Black B (White A's partner) gets it.
        let hand_b = g.board(BoardId::B).pockets().unwrap();
        assert_eq!(hand_b.black.pawn, 1);
        assert_eq!(hand_b.white.pawn, 0);
        assert_eq!(g.board(BoardId::A).pockets().unwrap().white.pawn, 0);
        assert_eq!(
            g.moves().last().map(|m| m.sent),
            Some(Some(Color::Black.pawn()))
        );
        // Black B can drop it once it is Black's turn there.
        g.push_text(BoardId::B, "e4", None).unwrap();
        g.push_text(BoardId::B, "P@d5", None).unwrap();
        assert_eq!(g.moves().last().map(|m| m.san.as_str()), Some("P@d5"));
        assert!(g.push_text(BoardId::B, "N@f3", None).is_err());
    }

    #[test]
    fn a_captured_promoted_queen_arrives_as_a_pawn() {
        let [a, b] = crate::variant::fen::parse_bughouse(
            "4k3/8/8/8/8/8/1q~6/K7[] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        )
        .unwrap();
        let mut g = BughouseGame::from_boards([a, b]);
        g.push_text(BoardId::A, "Kxb2", None).unwrap();
        let hand = g.board(BoardId::B).pockets().unwrap();
        assert_eq!((hand.black.pawn, hand.black.queen), (1, 0));
    }

    #[test]
    fn mate_ends_the_game_but_a_blockable_check_does_not() {
        // Scholar's mate on board A: no drop can block Qxf7 (next to the king).
        let mut g = BughouseGame::new();
        for m in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
            g.push_text(BoardId::A, m, None).unwrap();
        }
        let end = g.ending.unwrap();
        assert_eq!(end.result, BugResult::TeamOneWins);
        assert_eq!(end.how, BugTermination::Checkmate);
        assert_eq!(end.loser, Some(Seat::new(BoardId::A, Color::Black)));
        assert_eq!(end.describe(), "BA checkmated");
        assert!(g.push_text(BoardId::B, "e4", None).is_err());
        // Fool's mate: the queen checks from h4; a drop on g3 could block.
        let mut g = BughouseGame::new();
        for m in ["f3", "e5", "g4", "Qh4+"] {
            g.push_text(BoardId::A, m, None).unwrap();
        }
        assert_eq!(g.ending, None);
        assert_eq!(
            g.status(BoardId::A),
            BoardStatus::MustWait { in_check: true }
        );
        // A piece from the partner saves White A.
        for m in ["e4", "d5", "exd5"] {
            g.push_text(BoardId::B, m, None).unwrap();
        }
        // Board B's White captured a black pawn: it goes to Black A. White A
        // still waits; a capture by Black B would help.
        assert_eq!(g.board(BoardId::A).pockets().unwrap().black.pawn, 1);
        g.push_text(BoardId::B, "Qxd5", None).unwrap();
        assert_eq!(g.board(BoardId::A).pockets().unwrap().white.pawn, 1);
        assert_eq!(g.status(BoardId::A), BoardStatus::Playing);
        g.push_text(BoardId::A, "P@g3", None).unwrap();
        let _ = Role::Pawn;
    }

    #[test]
    fn endings_read_back() {
        for e in [
            BugEnding::lost(
                Seat::new(BoardId::A, Color::White),
                BugTermination::Checkmate,
            ),
            BugEnding::lost(Seat::new(BoardId::B, Color::Black), BugTermination::Time),
            BugEnding::lost(
                Seat::new(BoardId::B, Color::White),
                BugTermination::Resignation,
            ),
            BugEnding::lost(
                Seat::new(BoardId::A, Color::Black),
                BugTermination::IllegalMove,
            ),
            BugEnding::lost(
                Seat::new(BoardId::A, Color::Black),
                BugTermination::Abandoned,
            ),
        ] {
            assert_eq!(
                BugEnding::parse(&e.describe(), e.result),
                Some(e),
                "{}",
                e.describe()
            );
        }
    }
}
