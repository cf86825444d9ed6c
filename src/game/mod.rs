//! A game as data: start position, moves, headers, result and how it ended.
//! Matches, autosave and replay all read and write this one type.

pub mod explain;
pub mod history;
pub mod judgement;
pub mod library;
pub mod movetree;
pub mod notation;
pub mod openings;
pub(crate) mod pgn;
pub mod pgn_read;
pub mod review;
pub mod tactics;
pub mod variant_pgn;

pub use pgn::{write_pgn, write_pgn_tree, write_variant_pgn};

use crate::engine::{Board, GamePosition, Std, Variant};
use shakmaty::{Color, Move, Position};

/// The result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// 1, 0.5 or 0 for `color`.
    pub fn points(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    ThreefoldRepetition,
    FivefoldRepetition,
    FiftyMoveRule,
    SeventyFiveMoveRule,
    TimeForfeit,
    Resignation,
    Agreement,
    /// An engine sent an illegal move.
    IllegalMove,
    /// An engine crashed, hung or quit.
    Abandoned,
}

impl Termination {
    /// A sentence for the screen and the PGN comment.
    pub fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::FiftyMoveRule => "50-move rule",
            Termination::SeventyFiveMoveRule => "75-move rule",
            Termination::TimeForfeit => "time forfeit",
            Termination::Resignation => "resignation",
            Termination::Agreement => "draw by agreement",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "engine failure",
        }
    }

    /// The PGN `Termination` tag value (from the PGN standard's list).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "rules infraction",
            Termination::Abandoned => "abandoned",
            _ => "normal",
        }
    }
}

/// A finished game's result and reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub result: GameResult,
    pub termination: Termination,
}

#[derive(Clone, Debug)]
pub struct Game<V: Variant = Std> {
    /// Seven-tag roster first, then any others, in order of insertion.
    pub headers: Vec<(String, String)>,
    position: GamePosition<V>,
    /// Optional comment after each move (same length as the moves).
    comments: Vec<Option<String>>,
    pub ending: Option<Ending>,
}

impl<V: Variant> Game<V> {
    pub fn new(start: Board<V>) -> Game<V> {
        Game {
            headers: Vec::new(),
            position: GamePosition::new(start),
            comments: Vec::new(),
            ending: None,
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

    pub fn position(&self) -> &GamePosition<V> {
        &self.position
    }

    pub fn current(&self) -> &Board<V> {
        self.position.current()
    }

    pub fn start(&self) -> &Board<V> {
        self.position.start()
    }

    pub fn moves(&self) -> &[Move] {
        self.position.moves()
    }

    pub fn comments(&self) -> &[Option<String>] {
        &self.comments
    }

    /// Plays a move (which must be legal) with an optional comment.
    pub fn push(&mut self, m: Move, comment: Option<String>) {
        self.position.push(m);
        self.comments.push(comment);
    }

    /// Takes back the last move with its comment; the game is no longer over.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.position.pop()?;
        self.comments.pop();
        self.ending = None;
        Some(m)
    }

    /// Replaces the comment of the last move.
    pub fn set_last_comment(&mut self, comment: Option<String>) {
        if let Some(c) = self.comments.last_mut() {
            *c = comment;
        }
    }

    /// The rules' verdict on the current position, if the game is over.
    /// `claim_draws`: end at threefold repetition and the 50-move rule (as
    /// engine matches do) rather than only at fivefold and 75 moves.
    pub fn rule_ending(&self, claim_draws: bool) -> Option<Ending> {
        let board = self.current();
        let pos = board.pos();
        let draw = |termination| {
            Some(Ending {
                result: GameResult::Draw,
                termination,
            })
        };
        if pos.legal_moves().is_empty() {
            if V::BUGHOUSE {
                // One board of Bughouse knows nothing of the other board:
                // the arbiter decides (a blockable check is not mate).
                return None;
            }
            return if pos.is_check() {
                Some(Ending {
                    result: GameResult::win_for(!pos.turn()),
                    termination: Termination::Checkmate,
                })
            } else {
                draw(Termination::Stalemate)
            };
        }
        if pos.is_insufficient_material() {
            return draw(Termination::InsufficientMaterial);
        }
        let reps = self.position.repetitions();
        if reps >= 5 {
            return draw(Termination::FivefoldRepetition);
        }
        if board.halfmoves() >= 150 {
            return draw(Termination::SeventyFiveMoveRule);
        }
        if claim_draws {
            if reps >= 3 {
                return draw(Termination::ThreefoldRepetition);
            }
            if board.halfmoves() >= 100 {
                return draw(Termination::FiftyMoveRule);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut Game, uci: &[&str]) {
        for u in uci {
            let m = game.current().parse_uci(u).unwrap();
            game.push(m, None);
        }
    }

    #[test]
    fn endings_by_rule() {
        let mut g = Game::new(Board::startpos());
        play(&mut g, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(
            g.rule_ending(true),
            Some(Ending {
                result: GameResult::BlackWins,
                termination: Termination::Checkmate
            })
        );

        let mut g = Game::new(Board::startpos());
        play(
            &mut g,
            &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"],
        );
        assert_eq!(g.rule_ending(true), None);
        play(&mut g, &["f6g8"]);
        assert_eq!(
            g.rule_ending(true).map(|e| e.termination),
            Some(Termination::ThreefoldRepetition)
        );
        assert_eq!(g.rule_ending(false), None);

        let g = Game::new(Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap());
        assert_eq!(
            g.rule_ending(true).map(|e| e.termination),
            Some(Termination::Stalemate)
        );
        let g = Game::new(Board::from_fen("7k/8/6K1/8/8/8/8/6B1 b - - 0 1").unwrap());
        assert_eq!(
            g.rule_ending(true).map(|e| e.termination),
            Some(Termination::InsufficientMaterial)
        );
        let g = Game::new(Board::from_fen("7k/8/6K1/8/8/8/8/6R1 b - - 100 80").unwrap());
        assert_eq!(
            g.rule_ending(true).map(|e| e.termination),
            Some(Termination::FiftyMoveRule)
        );
        assert_eq!(g.rule_ending(false), None);
    }
}
