//! Solving one puzzle, move by move, as on lichess: the opponent's first
//! move is played for the solver, each solver move is checked against the
//! solution, the opponent's replies follow from the file, and a wrong move
//! fails the puzzle (the solver may still find the way, but the rating
//! counts it lost). Hints come in three steps: the piece to move, the
//! square it goes to, then the answer itself.
//!
//! This is the logic only (no clock, no screen): the TUI's puzzle and
//! Retry screens drive it.

use super::puzzle::{Puzzle, PuzzleError};
use shakmaty::{Chess, Color, Move, Position, Role, Square};

/// How a solver's move compares with the solution.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The solution's move.
    Expected,
    /// Another move that mates where the solution mates: accepted (lichess
    /// accepts any mate on the last move).
    AlsoMates,
    /// Not the solution.
    Other,
}

/// What the next hint shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The piece to move (its square).
    Piece(Square, Role),
    /// The piece and where it goes.
    Move(Square, Square),
    /// The move, played for the solver.
    Answer(Move),
}

/// A puzzle being solved.
#[derive(Clone, Debug)]
pub struct Run {
    pub puzzle: Puzzle,
    start: Chess,
    line: Vec<Move>,
    /// Index in the line of the next move to be played (0: the opponent's
    /// first move has not been played yet).
    next: usize,
    /// Wrong moves tried.
    pub mistakes: u32,
    /// Hints taken on the current solver move (0 to 3).
    pub hint_step: u8,
    /// Hints taken in all.
    pub hints: u32,
    /// The answer was shown (played for the solver) at least once.
    pub answer_shown: bool,
}

impl Run {
    pub fn new(puzzle: Puzzle) -> Result<Run, PuzzleError> {
        let (start, line) = puzzle.line()?;
        Ok(Run {
            puzzle,
            start,
            line,
            next: 0,
            mistakes: 0,
            hint_step: 0,
            hints: 0,
            answer_shown: false,
        })
    }

    /// The position before the opponent's first move.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The whole line: the opponent's first move, then the solution.
    pub fn line(&self) -> &[Move] {
        &self.line
    }

    /// Moves of the line played so far.
    pub fn played(&self) -> usize {
        self.next
    }

    /// The solver's colour (who moves after the opponent's first move).
    pub fn solver(&self) -> Color {
        !self.start.turn()
    }

    /// The position now (after the moves played so far).
    pub fn position(&self) -> Chess {
        let mut p = self.start.clone();
        for &m in &self.line[..self.next] {
            p.play_unchecked(m);
        }
        p
    }

    /// The move the solver should play now, if it is the solver's turn.
    pub fn expected(&self) -> Option<Move> {
        (self.next % 2 == 1).then(|| self.line.get(self.next).copied())?
    }

    /// The opponent's move due now (the first move, or a reply), if it is
    /// the opponent's turn.
    pub fn reply(&self) -> Option<Move> {
        self.next
            .is_multiple_of(2)
            .then(|| self.line.get(self.next).copied())?
    }

    /// Every move of the solution was played.
    pub fn is_solved(&self) -> bool {
        self.next >= self.line.len()
    }

    /// Solved with no wrong move, no hint and no answer shown: what the
    /// rating counts as a win.
    pub fn is_clean(&self) -> bool {
        self.mistakes == 0 && self.hints == 0 && !self.answer_shown
    }

    /// How `m` compares with the solution in the current position.
    pub fn check(&self, m: Move) -> Check {
        let Some(expected) = self.expected() else {
            return Check::Other;
        };
        if m == expected {
            return Check::Expected;
        }
        let pos = self.position();
        let mates = |mv: Move| {
            let mut p = pos.clone();
            p.play_unchecked(mv);
            p.is_checkmate()
        };
        if pos.is_legal(m) && mates(expected) && mates(m) {
            Check::AlsoMates
        } else {
            Check::Other
        }
    }

    /// Plays the solver's move `m` if it is right (the solution's, or a
    /// mate where the solution mates) and returns how it compared; a wrong
    /// move is counted and not played.
    pub fn try_move(&mut self, m: Move) -> Check {
        let c = self.check(m);
        match c {
            Check::Expected | Check::AlsoMates => {
                self.next = if c == Check::AlsoMates {
                    // A mate ends the puzzle whatever the file says next.
                    self.line.truncate(self.next);
                    self.line.push(m);
                    self.line.len()
                } else {
                    self.next + 1
                };
                self.hint_step = 0;
            }
            Check::Other => self.mistakes += 1,
        }
        c
    }

    /// Accepts `m`, a legal move other than the solution's, as the solver's
    /// (judged good enough elsewhere, e.g. by an engine): it ends the line.
    pub fn accept(&mut self, m: Move) {
        if self.expected().is_some() {
            self.line.truncate(self.next);
            self.line.push(m);
            self.next = self.line.len();
            self.hint_step = 0;
        }
    }

    /// Plays the opponent's move due now; `None` if it is not the
    /// opponent's turn or the line is over.
    pub fn play_reply(&mut self) -> Option<Move> {
        let m = self.reply()?;
        self.next += 1;
        Some(m)
    }

    /// The next hint for the current solver move (piece, then square, then
    /// the answer, which is then played for the solver and counted).
    pub fn hint(&mut self) -> Option<Hint> {
        let m = self.expected()?;
        let from = m.from()?;
        self.hints += 1;
        self.hint_step += 1;
        Some(match self.hint_step {
            1 => Hint::Piece(from, m.role()),
            2 => Hint::Move(from, m.to()),
            _ => {
                self.answer_shown = true;
                self.hint_step = 0;
                self.next += 1;
                Hint::Answer(m)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(fen: &str, moves: &str) -> Run {
        let p = Puzzle::new("t", fen, moves.split(' ').map(String::from).collect());
        Run::new(p).expect("valid puzzle")
    }

    #[test]
    fn a_two_move_solution_is_played_through() {
        // Lichess 0009B: after 1...Bxf4? the solver wins with Qe8+ and Qxe6.
        let mut r = run(
            "r2qr1k1/b1p2ppp/pp4n1/P1P1p3/4P1n1/B2P2Pb/3NBP1P/RN1QR1K1 b - - 1 16",
            "b6c5 e2g4 h3g4 d1g4",
        );
        assert_eq!(r.solver(), Color::White);
        assert_eq!(r.expected(), None, "the opponent moves first");
        assert!(r.play_reply().is_some());
        let e2g4 = r.expected().expect("solver to move");
        let wrong = r
            .position()
            .legal_moves()
            .into_iter()
            .find(|&m| m != e2g4)
            .expect("another move");
        assert_eq!(r.try_move(wrong), Check::Other);
        assert_eq!(r.mistakes, 1);
        assert_eq!(r.played(), 1, "a wrong move is not played");
        assert_eq!(r.try_move(e2g4), Check::Expected);
        assert!(r.play_reply().is_some());
        assert!(!r.is_solved());
        let last = r.expected().expect("solver to move");
        assert_eq!(r.try_move(last), Check::Expected);
        assert!(r.is_solved());
        assert!(!r.is_clean());
    }

    #[test]
    fn another_mate_is_accepted_when_the_solution_mates() {
        // Rooks on a7 and b7 against the king on g8: Rb8# (the file's)
        // and Ra8# both mate.
        let mut r = run("7k/RR6/8/8/8/8/8/6K1 b - - 0 1", "h8g8 b7b8");
        r.play_reply();
        let pos = r.position();
        let other = pos
            .legal_moves()
            .into_iter()
            .find(|&m| {
                let mut p = pos.clone();
                p.play_unchecked(m);
                p.is_checkmate() && m != r.expected().expect("solver move")
            })
            .expect("a second mate (Ra8#)");
        assert_eq!(r.try_move(other), Check::AlsoMates);
        assert!(r.is_solved());
        assert!(r.is_clean());
    }

    #[test]
    fn hints_go_piece_square_answer() {
        let mut r = run("7k/RR6/8/8/8/8/8/6K1 b - - 0 1", "h8g8 b7b8");
        r.play_reply();
        assert_eq!(r.hint(), Some(Hint::Piece(Square::B7, Role::Rook)));
        assert_eq!(r.hint(), Some(Hint::Move(Square::B7, Square::B8)));
        assert!(matches!(r.hint(), Some(Hint::Answer(_))));
        assert!(r.is_solved());
        assert!(!r.is_clean());
        assert_eq!(r.hint(), None);
    }
}
