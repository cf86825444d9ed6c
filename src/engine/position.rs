//! The game a search starts from: the root position together with the
//! moves (and position keys) that led to it, for repetition detection and
//! takeback.

use super::board::Board;
use super::variant::{Std, Variant};
use shakmaty::Move;

/// A position to search together with the game that led to it (for
/// repetition detection).
#[derive(Clone, Debug)]
pub struct GamePosition<V: Variant = Std> {
    start: Board<V>,
    moves: Vec<Move>,
    current: Board<V>,
    /// Keys of all positions before `current`, oldest first.
    history: Vec<u64>,
}

impl Default for GamePosition<Std> {
    fn default() -> Self {
        GamePosition::new(Board::startpos())
    }
}

impl GamePosition<Std> {
    /// From a FEN (or the start position) and UCI moves, as UCI `position`
    /// sends them. Errors name the offending move.
    pub fn from_uci(fen: Option<&str>, moves: &[&str]) -> Result<GamePosition, String> {
        GamePosition::from_uci_moves(fen, moves)
    }
}

impl<V: Variant> GamePosition<V> {
    /// The variant's start position, no moves.
    pub fn initial() -> GamePosition<V> {
        GamePosition::new(Board::start_position())
    }

    pub fn new(start: Board<V>) -> GamePosition<V> {
        GamePosition {
            current: start.clone(),
            start,
            moves: Vec::new(),
            history: Vec::new(),
        }
    }

    /// From a FEN of this variant (or its start position) and UCI moves.
    /// Errors name the offending move.
    pub fn from_uci_moves(fen: Option<&str>, moves: &[&str]) -> Result<GamePosition<V>, String> {
        let start = match fen {
            Some(f) => Board::from_variant_fen(f).map_err(|e| e.to_string())?,
            None => Board::start_position(),
        };
        let mut g = GamePosition::new(start);
        for (i, s) in moves.iter().enumerate() {
            let m = g
                .current
                .parse_uci(s)
                .map_err(|e| format!("move {} ({s}): {e}", i + 1))?;
            g.push(m);
        }
        Ok(g)
    }

    /// Plays a legal move.
    pub fn push(&mut self, m: Move) {
        self.history.push(self.current.hash());
        self.current = self.current.play(m);
        self.moves.push(m);
    }

    /// Takes back the last move (`None` at the start position).
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.history.pop();
        let mut b = self.start.clone();
        for &mv in &self.moves {
            b = b.play(mv);
        }
        self.current = b;
        Some(m)
    }

    pub fn current(&self) -> &Board<V> {
        &self.current
    }

    pub fn start(&self) -> &Board<V> {
        &self.start
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of the game's positions, the current one last.
    pub fn keys(&self) -> Vec<u64> {
        let mut k = self.history.clone();
        k.push(self.current.hash());
        k
    }

    /// How often the current position occurred in the game (1 = first time).
    pub fn repetitions(&self) -> usize {
        let key = self.current.hash();
        let back = self.current.halfmoves() as usize;
        1 + self
            .history
            .iter()
            .rev()
            .take(back)
            .filter(|&&k| k == key)
            .count()
    }
}
