//! Kibitz's engine as a puzzle solver: it plays the solver's side of a
//! puzzle move by move, the opponent's replies coming from the puzzle, and
//! either finds every move of the solution or fails at the first it
//! misses. This is how we measure whether the engine "sees" the tactics
//! of a puzzle file (and whether a file's puzzles are sound).
//!
//! Like lichess, a move that checkmates is accepted in place of the
//! expected move when that move checkmates too: a mate is a mate.

use super::puzzle::{Puzzle, PuzzleError};
use crate::engine::{Board, Engine, EngineOptions, GamePosition, Level, Limits, NoObserver};
use shakmaty::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How one puzzle went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every solver move was found (or a mate was found where the
    /// expected move mates).
    Solved,
    /// The engine played `played` (UCI; `None`: no move, which only an
    /// interrupted search gives) where the puzzle expects `expected`, at
    /// index `ply` of [`Puzzle::moves`].
    Failed {
        ply: usize,
        played: Option<String>,
        expected: String,
    },
    /// The search was stopped before the puzzle was done.
    Stopped,
}

impl Outcome {
    /// The result line `kibitz puzzles solve` prints for puzzle `id`:
    /// `ID solved` or `ID failed: played X, expected Y`.
    pub fn line(&self, id: &str) -> String {
        match self {
            Outcome::Solved => format!("{id} solved"),
            Outcome::Failed {
                played, expected, ..
            } => format!(
                "{id} failed: played {}, expected {expected}",
                played.as_deref().unwrap_or("nothing")
            ),
            Outcome::Stopped => format!("{id} stopped"),
        }
    }
}

/// An engine set up to solve puzzles: full strength, no book, no move
/// overhead. One per thread, reused for many puzzles.
pub struct Solver {
    engine: Engine,
    limits: Limits,
}

impl Solver {
    /// Searches each solver move under `limits` with `threads` search
    /// threads.
    pub fn new(limits: Limits, threads: usize) -> Solver {
        Solver {
            engine: Engine::new(EngineOptions {
                move_overhead: Duration::ZERO,
                own_book: false,
                book_file: None,
                level: Level::MAX,
                multipv: 1,
                threads: threads.max(1),
                ..EngineOptions::default()
            }),
            limits,
        }
    }

    /// Plays `puzzle` through: the opponent's first move, then at each
    /// solver turn a fresh search (the hash is cleared per puzzle so the
    /// order of a file does not matter) from the puzzle's start with every
    /// move so far as history, so repetitions count.
    pub fn solve(&mut self, puzzle: &Puzzle, stop: &AtomicBool) -> Result<Outcome, PuzzleError> {
        let (start, moves) = puzzle.line()?;
        self.engine.new_game();
        let mut pos = GamePosition::new(Board::from_chess(start));
        pos.push(moves[0]);
        for (ply, &expected) in moves.iter().enumerate().skip(1) {
            if ply % 2 == 0 {
                // The opponent's reply, from the file.
                pos.push(expected);
                continue;
            }
            if stop.load(Ordering::Relaxed) {
                return Ok(Outcome::Stopped);
            }
            let report = self
                .engine
                .search(&pos, &self.limits, stop, &mut NoObserver);
            if stop.load(Ordering::Relaxed) {
                return Ok(Outcome::Stopped);
            }
            let board = pos.current().chess().clone();
            let played = report.best_move.filter(|&m| board.is_legal(m));
            match played {
                Some(m) if m == expected => pos.push(m),
                Some(m) if mates(&board, m) && mates(&board, expected) => {
                    return Ok(Outcome::Solved);
                }
                _ => {
                    return Ok(Outcome::Failed {
                        ply,
                        played: played.map(Board::uci),
                        expected: Board::uci(expected),
                    });
                }
            }
        }
        Ok(Outcome::Solved)
    }
}

/// Does `m` checkmate in `pos`?
pub fn mates(pos: &shakmaty::Chess, m: Move) -> bool {
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.is_checkmate()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(fen: &str, moves: &str) -> Outcome {
        let p = Puzzle::new(
            "t",
            fen,
            moves.split_whitespace().map(str::to_string).collect(),
        );
        let mut solver = Solver::new(Limits::depth(6), 1);
        solver.solve(&p, &AtomicBool::new(false)).expect("valid")
    }

    #[test]
    fn finds_a_mate_in_one() {
        let fen = "6Qk/p1p3pp/4N3/1p6/2q1r1n1/2B5/PP4PP/3R1R1K b - - 0 28";
        assert_eq!(solve(fen, "h8g8 f1f8"), Outcome::Solved);
    }

    #[test]
    fn a_move_the_engine_does_not_play_fails() {
        // 1... h6? lets Qxg7 mate (the knight on f5 guards g7).
        let fen = "6k1/5ppp/8/5N2/8/8/6Q1/6K1 b - - 0 1";
        let out = solve(fen, "h7h6 g2g7");
        assert_eq!(out, Outcome::Solved);
        // A "solution" that is not what the engine plays fails, naming both.
        let out = solve(fen, "h7h6 g1h1");
        match &out {
            Outcome::Failed {
                ply,
                played,
                expected,
            } => {
                assert_eq!(*ply, 1);
                assert_eq!(expected, "g1h1");
                assert_eq!(played.as_deref(), Some("g2g7"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(out.line("x"), "x failed: played g2g7, expected g1h1");
    }

    #[test]
    fn a_second_mate_counts_when_the_expected_move_mates() {
        // White to move after 1... a6: Qb8# and Re8# both mate (back rank).
        let fen = "6k1/p4ppp/8/8/8/8/1Q4PP/4R1K1 b - - 0 1";
        let mut b = Board::from_fen(fen).expect("fen").into_chess();
        let a6 = "a7a6"
            .parse::<shakmaty::uci::UciMove>()
            .expect("uci")
            .to_move(&b)
            .expect("legal");
        b.play_unchecked(a6);
        let mating: Vec<String> = b
            .legal_moves()
            .into_iter()
            .filter(|&m| mates(&b, m))
            .map(Board::uci)
            .collect();
        assert!(mating.len() >= 2, "{mating:?}");
        for m in &mating {
            assert_eq!(solve(fen, &format!("a7a6 {m}")), Outcome::Solved, "{m}");
        }
    }

    #[test]
    fn a_stopped_search_is_not_a_failure() {
        let p = Puzzle::new(
            "t",
            "6Qk/p1p3pp/4N3/1p6/2q1r1n1/2B5/PP4PP/3R1R1K b - - 0 28",
            vec!["h8g8".into(), "f1f8".into()],
        );
        let mut solver = Solver::new(Limits::depth(6), 1);
        let out = solver.solve(&p, &AtomicBool::new(true)).expect("valid");
        assert_eq!(out, Outcome::Stopped);
    }
}
