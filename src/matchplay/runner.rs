//! What the chess and the Bughouse match share: the game record, the
//! order of seats, and the loop that hands out games, appends each
//! finished one to the match's file and keeps the score.

use super::stats::Wdl;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// A finished game of a match.
#[derive(Clone, Debug)]
pub struct GameRecord<E> {
    /// 0-based game number.
    pub index: usize,
    /// The first player had the first seats: engine 1 had White; in
    /// Bughouse the first team had team 1's seats (White on board A, Black
    /// on board B).
    pub first_seats: bool,
    /// How it ended: [`crate::game::Ending`], or
    /// [`crate::bughouse::BugEnding`] for Bughouse.
    pub ending: E,
    /// The players' names by seat: White, Black; in Bughouse WhiteA,
    /// BlackA, WhiteB, BlackB.
    pub players: Vec<String>,
    /// Half-moves played (on both boards in Bughouse).
    pub plies: usize,
    /// The game as the match's file gets it: PGN, or BPGN.
    pub text: String,
}

/// The end of a match game, as far as the score goes.
pub trait MatchEnding {
    /// Points (1, 0.5 or 0) for the first player, who had the first seats
    /// (`first_seats`) or the others.
    fn points(&self, first_seats: bool) -> f64;
}

impl<E: MatchEnding> GameRecord<E> {
    /// Points for the first player.
    pub fn first_points(&self) -> f64 {
        self.ending.points(self.first_seats)
    }
}

/// Which game of the match is to be played, and how the players sit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Round {
    /// 0-based game number.
    pub index: usize,
    /// The first player has the first seats: in even games.
    pub first_seats: bool,
    /// Games `2k` and `2k + 1` are pair `k`: the same start position with
    /// the seats swapped.
    pub pair: usize,
}

impl Round {
    pub(crate) fn new(index: usize) -> Round {
        Round {
            index,
            first_seats: index.is_multiple_of(2),
            pair: index / 2,
        }
    }
}

/// Engines that play a match's games one after another: a worker of the
/// match, on a thread of its own (several play at once in a chess match
/// with `concurrency`; a Bughouse match has one, its four engines).
pub(crate) trait Engines: Send {
    type Ending: MatchEnding + Send;
    type Error: Send;
    /// Plays one game. An error ends the match.
    fn play(&mut self, round: Round) -> Result<GameRecord<Self::Ending>, Self::Error>;
    /// Ends the engines.
    fn quit(self);
    /// The error for a match file that cannot be opened or written.
    fn file_error(path: String, err: std::io::Error) -> Self::Error;
}

/// The match's file, appended to.
struct MatchFile<'a> {
    path: &'a Path,
    file: std::fs::File,
}

impl<'a> MatchFile<'a> {
    fn open(path: &'a Path) -> std::io::Result<MatchFile<'a>> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(MatchFile { path, file })
    }

    fn append<T: Engines>(&mut self, text: &str) -> Result<(), T::Error> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|err| T::file_error(self.path.display().to_string(), err))
    }
}

/// Plays the games `rounds` (0-based numbers, in order) on `workers` (one
/// thread each, each taking the next game when it is free). A finished
/// game is appended to the file `out` and then shown to `on_game` with the
/// running totals for the first player (counted from `before`: the games
/// of the match played earlier), in the order the games finish. When `on_game` returns `false`
/// no new game starts (games already under way are finished and
/// reported); when a game or the file fails, the match ends with that
/// error.
pub(crate) fn play_games<T: Engines>(
    rounds: &[usize],
    before: Wdl,
    workers: Vec<T>,
    out: Option<&Path>,
    mut on_game: impl FnMut(&GameRecord<T::Ending>, &Wdl) -> bool,
) -> Result<Wdl, T::Error> {
    let file = match out {
        Some(path) => Some(
            MatchFile::open(path).map_err(|err| T::file_error(path.display().to_string(), err))?,
        ),
        None => None,
    };
    // Written and sent under one lock: the file and the reports have the
    // games in the same order.
    let file = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let (tx, rx) = channel::<Result<GameRecord<T::Ending>, T::Error>>();
    let games = rounds.len();
    let mut wdl = before;
    std::thread::scope(|s| {
        for mut engines in workers {
            let (tx, next, file) = (tx.clone(), &next, &file);
            s.spawn(move || {
                while let Some(&index) = rounds.get(next.fetch_add(1, Ordering::SeqCst)) {
                    let played = engines.play(Round::new(index));
                    let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
                    let played = match (played, file.as_mut()) {
                        (Ok(rec), Some(f)) => f.append::<T>(&rec.text).map(|_| rec),
                        (played, _) => played,
                    };
                    let failed = played.is_err();
                    if tx.send(played).is_err() || failed {
                        break;
                    }
                }
                engines.quit();
            });
        }
        drop(tx);
        for played in rx {
            let rec = match played {
                Ok(rec) => rec,
                Err(e) => {
                    // No game is handed out any more.
                    next.fetch_max(games, Ordering::SeqCst);
                    return Err(e);
                }
            };
            wdl.add(rec.first_points());
            if !on_game(&rec, &wdl) {
                next.fetch_max(games, Ordering::SeqCst);
            }
        }
        Ok(wdl)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_swap_every_game_and_pairs_share_a_start() {
        let rounds: Vec<Round> = (0..4).map(Round::new).collect();
        assert_eq!(
            rounds.iter().map(|r| r.first_seats).collect::<Vec<_>>(),
            [true, false, true, false]
        );
        assert_eq!(
            rounds.iter().map(|r| r.pair).collect::<Vec<_>>(),
            [0, 0, 1, 1]
        );
    }
}
