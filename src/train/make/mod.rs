//! Puzzles made from any game: positions where the side to move has
//! exactly one clearly winning move, just after the opponent's mistake
//! allowed it, with the solution followed for as long as every solver
//! move is the only good one.
//!
//! How a game is searched, and why in two passes:
//! 1. **Screening** ([`crate::game::review::Reviewer`], single PV, a
//!    quarter of the verifying limits): every position of the game once.
//!    A move after which the other side's winning chance jumps up (to
//!    about [`WIN`], by about [`MARGIN`]; or to a mate) makes a
//!    *candidate*. Searching every position with MultiPV 2 at full limits
//!    would cost several times more and find the same candidates.
//! 2. **Verifying** each candidate at full limits: the position before the
//!    opponent's move must not already be won for the solver, and from the
//!    position after it a MultiPV 2 search must show one move that wins
//!    and a second that does not ([`only_move`]), confirmed by a longer
//!    search of all the other moves. The solution is then
//!    extended: the opponent's best reply (the engine's principal
//!    variation), and again a MultiPV 2 search that must show the solver's
//!    next move as the only good one; until a mate, or until the next
//!    solver move is no longer unique: then the line ends with the
//!    previous solver move, and is kept only if the gain is realised
//!    ([`realised`]: material won that stays won).
//!
//! The thresholds are lichess' winning chances on a 0..1 scale
//! ([`crate::game::review::win_chance`]): the "only move" rule is the one
//! lichess' puzzle generator uses, at a similar margin.

mod checks;
#[cfg(test)]
mod tests;

pub use checks::{MIN_GAIN, material, opponent_best_capture, realised};

use super::puzzle::Puzzle;
use crate::engine::{
    Board, Depth, Engine, EngineOptions, GamePosition, IterationInfo, Level, Limits, NoObserver,
    Score, SearchObserver,
};
use crate::game::review::{Reviewer, win_chance};
use shakmaty::{Chess, Color, Move, Position};
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The best move must give the solver at least this winning chance
/// (0..1): about +3.8 pawns.
pub const WIN: f64 = 0.8;
/// ... and at least this much more than the second best move (on the
/// capped curve a mate or +10 is 0.975, so the second must then be
/// below about +2 pawns).
pub const MARGIN: f64 = 0.3;
/// Screening is a shallower search: its candidates may fall short of
/// [`WIN`] and [`MARGIN`] by this much (the verifying search decides).
const SCREEN_SLACK: f64 = 0.1;
/// A solution has at most this many solver moves; a longer line must
/// have realised its gain by then.
pub const MAX_SOLVER_MOVES: usize = 6;

/// The winning chance (0..1) of a score seen from the side to move.
fn chance(score: Score) -> f64 {
    win_chance(score, Color::White)
}

/// A mate for the side to move (tablebase wins are not mates).
fn mating(score: Score) -> bool {
    score.is_win()
}

/// Is the best move the only good one, given the scores (side to move's
/// view) of the best and second best moves (`None`: the only legal move)?
///
/// The best must win (a mate, or a chance of at least [`WIN`]) and the
/// second must neither mate nor come within [`MARGIN`] of it. A mate
/// counts as +10 pawns (chance 0.975), so the second best then has to be
/// below about +2: a second move that merely wins big is often a mate a
/// deeper search finds, and a puzzle with two solutions is a bad puzzle.
/// The exception: when both mate at once, lichess accepts either mating
/// move, so two mates in one are no ambiguity.
///
/// `kibitz puzzles check` judges a reference engine's answers by this
/// same rule.
pub fn only_move(best: Score, second: Option<Score>) -> bool {
    if !clearly_winning(best) {
        return false;
    }
    let Some(second) = second else {
        return true;
    };
    if best.mate_plies() == Some(1) && second.mate_plies() == Some(1) {
        return true;
    }
    !mating(second) && chance(second) <= chance(best) - MARGIN
}

/// A mate, or a winning chance of at least [`WIN`].
pub fn clearly_winning(score: Score) -> bool {
    mating(score) || chance(score) >= WIN
}

/// How puzzles are searched for.
#[derive(Clone, Debug)]
pub struct MakeSettings {
    /// Each verifying search (MultiPV 2, the solution's moves).
    pub limits: Limits,
    /// Each screening search (every position of a game, single PV).
    pub screen: Limits,
    /// The second opinion on a solver move found unique: every other
    /// move searched again, longer (a shallow second line is where a
    /// puzzle's second solution hides).
    pub confirm: Limits,
    /// Transposition table per worker, in MB.
    pub hash_mb: usize,
}

impl MakeSettings {
    /// `ms` milliseconds per verifying search, a quarter per screening one.
    pub fn movetime(ms: u64) -> MakeSettings {
        MakeSettings {
            limits: Limits::movetime(ms.max(1)),
            screen: Limits::movetime((ms / 4).max(1)),
            confirm: Limits::movetime(ms.max(1).saturating_mul(2)),
            hash_mb: 16,
        }
    }

    /// `n` nodes per verifying search, a quarter per screening one: the
    /// same puzzles on every machine (node-limited searches use one thread).
    pub fn nodes(n: u64) -> MakeSettings {
        MakeSettings {
            limits: Limits::nodes(n.max(1)),
            screen: Limits::nodes((n / 4).max(1)),
            confirm: Limits::nodes(n.max(1).saturating_mul(2)),
            hash_mb: 16,
        }
    }
}

/// What the verifying search said about a position.
struct Analysis {
    best: Move,
    score: Score,
    /// The second best move's score (`None`: only one legal move).
    second: Option<Score>,
    /// The engine's reply to `best` (its principal variation), if any.
    reply: Option<Move>,
    /// The depth from which `best` stayed the engine's choice.
    found_at: Depth,
}

/// Remembers the best move of each finished iteration of the main line.
#[derive(Default)]
struct Iterations(Vec<(Depth, Move)>);

impl SearchObserver for Iterations {
    fn iteration(&mut self, info: &IterationInfo) {
        if info.multipv == 1
            && let Some(&m) = info.pv.first()
        {
            self.0.push((info.depth, m));
        }
    }
}

impl Iterations {
    /// The first depth from which every iteration chose `best`.
    fn found_at(&self, best: Move, fallback: Depth) -> Depth {
        let mut at = fallback;
        for &(depth, m) in self.0.iter().rev() {
            if m != best {
                break;
            }
            at = depth;
        }
        at
    }
}

/// The puzzles of one game, and whether it was searched to the end (not
/// stopped).
#[derive(Clone, Debug, Default)]
pub struct GamePuzzles {
    pub puzzles: Vec<Puzzle>,
    pub complete: bool,
    pub stats: MakeStats,
}

/// A puzzle maker: one engine for screening and one for verifying, reused
/// game after game (one per thread).
pub struct Maker {
    reviewer: Reviewer,
    engine: Engine,
    limits: Limits,
    confirm: Limits,
}

/// The search was stopped.
struct Stopped;

impl Maker {
    pub fn new(settings: &MakeSettings) -> Maker {
        let options = EngineOptions {
            hash_mb: settings.hash_mb,
            move_overhead: Duration::ZERO,
            own_book: false,
            book_file: None,
            level: Level::MAX,
            threads: 1,
            ..EngineOptions::default()
        };
        Maker {
            reviewer: Reviewer::with_options(settings.screen.clone(), options.clone()),
            engine: Engine::new(options),
            limits: settings.limits.clone(),
            confirm: settings.confirm.clone(),
        }
    }

    /// The puzzles of the game `moves` played from `start`; `url` is the
    /// game's address (the PGN's `Site` when it is one) or empty. When
    /// `stop` is set, the puzzles verified so far are returned.
    pub fn game(
        &mut self,
        start: &Board,
        moves: &[Move],
        url: &str,
        stop: &AtomicBool,
    ) -> GamePuzzles {
        let reviews = self.reviewer.review(start, moves, stop, &mut |_, _, _| {});
        let mut out = GamePuzzles::default();
        if stop.load(Ordering::Relaxed) {
            return out;
        }
        self.engine.new_game();
        let mut pos = GamePosition::new(start.clone());
        for r in &reviews {
            let board = pos.current().clone();
            let played = moves[r.ply];
            pos.push(played);
            let solver = !board.turn();
            let (before, after) = (win_chance(r.before, solver), win_chance(r.after, solver));
            let mate_now = r.after.is_mate() && (r.after.is_win() == (solver == Color::White));
            let mate_before = r.before.is_mate() && (r.before.is_win() == (solver == Color::White));
            let candidate = (after >= WIN - SCREEN_SLACK
                && after - before >= MARGIN - SCREEN_SLACK)
                || (mate_now && !mate_before);
            if !candidate || r.after.mate_moves() == Some(0) {
                continue;
            }
            let mut before_pos = pos.clone();
            before_pos.pop();
            out.stats.candidates += 1;
            match self.verify(&before_pos, played, url, stop) {
                Ok(Ok(p)) => {
                    out.stats.made += 1;
                    if !out.puzzles.iter().any(|q| q.id == p.id) {
                        out.puzzles.push(p);
                    }
                }
                Ok(Err(why)) => out.stats.count(why),
                Err(Stopped) => return out,
            }
        }
        out.complete = !stop.load(Ordering::Relaxed) && reviews.len() == moves.len();
        out
    }

    /// A search of `pos` with `multipv` lines under the verifying limits.
    fn analyse(
        &mut self,
        pos: &GamePosition,
        multipv: usize,
        stop: &AtomicBool,
    ) -> Result<Option<Analysis>, Stopped> {
        self.engine.set_multipv(multipv);
        let mut seen = Iterations::default();
        let report = self.engine.search(pos, &self.limits, stop, &mut seen);
        if stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        let lines = &report.result.lines;
        let Some(first) = lines.first() else {
            return Ok(None);
        };
        let Some(&best) = first.pv.first() else {
            return Ok(None);
        };
        let board = pos.current();
        let reply = first
            .pv
            .get(1)
            .copied()
            .filter(|&m| board.play(best).is_legal(m));
        Ok(Some(Analysis {
            best,
            score: first.score,
            second: lines.get(1).map(|l| l.score),
            reply,
            found_at: seen.found_at(best, report.result.depth),
        }))
    }

    /// Is `a.best` the only good move in `pos`? The MultiPV answer must
    /// say so ([`only_move`]), and so must a second, longer search of all
    /// the other moves.
    fn only_good(
        &mut self,
        pos: &GamePosition,
        a: &Analysis,
        stop: &AtomicBool,
    ) -> Result<bool, Stopped> {
        let Some(second) = a.second else {
            return Ok(true);
        };
        if !only_move(a.score, Some(second)) {
            return Ok(false);
        }
        let others: Vec<Move> = pos
            .current()
            .legal_moves()
            .into_iter()
            .filter(|&m| m != a.best)
            .collect();
        let limits = Limits {
            searchmoves: others,
            ..self.confirm.clone()
        };
        self.engine.set_multipv(1);
        let report = self.engine.search(pos, &limits, stop, &mut NoObserver);
        if stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        Ok(only_move(a.score, Some(report.result.score.max(second))))
    }

    /// The puzzle that starts with the opponent's `played` in `before`
    /// (the game so far), or why there is none.
    fn verify(
        &mut self,
        before: &GamePosition,
        played: Move,
        url: &str,
        stop: &AtomicBool,
    ) -> Result<Result<Puzzle, Reject>, Stopped> {
        let solver = !before.current().turn();
        // Was the solver already winning before the opponent's move?
        let Some(prior) = self.analyse(before, 1, stop)? else {
            return Ok(Err(Reject::Other));
        };
        let prior_chance = 1.0 - chance(prior.score);
        if prior.score.is_loss() {
            return Ok(Err(Reject::AlreadyWon));
        }
        let mut pos = before.clone();
        pos.push(played);
        if pos.current().legal_moves().len() < 2 {
            return Ok(Err(Reject::NotOnlyMove));
        }
        let Some(first) = self.analyse(&pos, 2, stop)? else {
            return Ok(Err(Reject::Other));
        };
        if !self.only_good(&pos, &first, stop)? {
            return Ok(Err(Reject::NotOnlyMove));
        }
        // Not already won before the opponent's move, and the move made
        // the difference: the solver's chance was below WIN and rose by
        // MARGIN at least. A line that mates is a puzzle even in a won
        // position (checked at the end: a mate score whose line stops
        // short of the mate is no exception).
        let first_chance = chance(first.score);
        let made_the_difference = prior_chance < WIN && first_chance - prior_chance >= MARGIN;
        if !mating(first.score) && !made_the_difference {
            return Ok(Err(Reject::AlreadyWon));
        }
        let m0 = material(before.current().chess(), solver);
        let mut line = vec![played];
        let mut step = first;
        let found_at = step.found_at;
        loop {
            line.push(step.best);
            pos.push(step.best);
            let chess = pos.current().chess().clone();
            if chess.is_checkmate() {
                break;
            }
            if chess.legal_moves().is_empty() || pos.repetitions() >= 2 {
                return Ok(Err(Reject::Other));
            }
            if line.len() / 2 >= MAX_SOLVER_MOVES {
                if !realised(&chess, solver, m0) {
                    return Ok(Err(Reject::NotRealised));
                }
                break;
            }
            let reply = match step.reply {
                Some(m) => m,
                None => match self.analyse(&pos, 1, stop)? {
                    Some(a) => a.best,
                    None => return Ok(Err(Reject::Other)),
                },
            };
            pos.push(reply);
            let next = match self.analyse(&pos, 2, stop)? {
                Some(a) if self.only_good(&pos, &a, stop)? => Some(a),
                _ => None,
            };
            match next {
                Some(a) => {
                    line.push(reply);
                    step = a;
                }
                None => {
                    // The line ends with the previous solver move.
                    pos.pop();
                    if !realised(pos.current().chess(), solver, m0) {
                        return Ok(Err(Reject::NotRealised));
                    }
                    break;
                }
            }
        }
        if !pos.current().chess().is_checkmate() && !made_the_difference {
            return Ok(Err(Reject::AlreadyWon));
        }
        let start = before.current().chess().clone();
        Ok(build(&start, &line, found_at, url).ok_or(Reject::Other))
    }
}

/// Why a candidate did not become a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Reject {
    /// The solver was winning before the opponent's move already (or the
    /// move did not change enough).
    AlreadyWon,
    /// More than one good first move (or only one legal move).
    NotOnlyMove,
    /// The line stops being forced before any gain is realised.
    NotRealised,
    /// A stalemate, a repetition, a line that does not read back.
    Other,
}

/// Counts of what happened to the candidates of the screening.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MakeStats {
    /// Moves after which the screening saw a jump in winning chance.
    pub candidates: usize,
    pub already_won: usize,
    pub not_only_move: usize,
    pub not_realised: usize,
    pub other: usize,
    pub made: usize,
}

impl MakeStats {
    fn count(&mut self, r: Reject) {
        match r {
            Reject::AlreadyWon => self.already_won += 1,
            Reject::NotOnlyMove => self.not_only_move += 1,
            Reject::NotRealised => self.not_realised += 1,
            Reject::Other => self.other += 1,
        }
    }

    pub fn add(&mut self, o: &MakeStats) {
        self.candidates += o.candidates;
        self.already_won += o.already_won;
        self.not_only_move += o.not_only_move;
        self.not_realised += o.not_realised;
        self.other += o.other;
        self.made += o.made;
    }
}

/// The puzzle of `line` (the opponent's move, then the solution) from
/// `start`; `None` if it does not read back (a Chess960 castling right,
/// say).
fn build(start: &Chess, line: &[Move], found_at: Depth, url: &str) -> Option<Puzzle> {
    let fen = Board::from_chess(start.clone()).fen();
    let moves: Vec<String> = line.iter().map(|&m| Board::uci(m)).collect();
    let mut p = Puzzle::new(puzzle_id(&fen, &moves), fen, moves);
    p.rating = difficulty(line.len() / 2, found_at);
    // Sorted, as lichess writes them.
    p.themes = super::themes::tag(start, line)
        .into_iter()
        .map(str::to_string)
        .collect();
    p.themes.sort();
    if url.starts_with("http://") || url.starts_with("https://") {
        p.game_url = url.to_string();
    }
    p.line().ok()?;
    Some(p)
}

/// A rating estimate (lichess' scale) from the number of solver moves and
/// the search depth from which the engine kept the first move: a move
/// seen at once is easy, one the engine needs a deep search for is hard,
/// and every further move to find adds to it.
/// `600 + 80 * (depth - 1) + 200 * (moves - 1)`, between 400 and 3000:
/// a mate in one seen at depth 1 is 600; a two-move combination found at
/// depth 8 is 1360.
pub fn difficulty(solver_moves: usize, found_at: Depth) -> u32 {
    let d = i64::from(found_at.max(1));
    let n = solver_moves.max(1) as i64;
    (600 + 80 * (d - 1) + 200 * (n - 1)).clamp(400, 3000) as u32
}

/// A puzzle id from its FEN and moves: the same puzzle always gets the
/// same id (FNV-1a 64, 8 base-62 digits).
pub fn puzzle_id(fen: &str, moves: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = fen.bytes().chain(
        moves
            .iter()
            .flat_map(|m| b" ".iter().copied().chain(m.bytes())),
    );
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    (0..8)
        .map(|_| {
            let d = DIGITS[(h % 62) as usize];
            h /= 62;
            char::from(d)
        })
        .collect()
}

/// The games puzzles are made from: the start position, the moves, and
/// the game's address (or empty).
#[derive(Clone, Debug)]
pub struct SourceGame {
    pub start: Board,
    pub moves: Vec<Move>,
    pub url: String,
}

/// Puzzles made from many games.
#[derive(Clone, Debug, Default)]
pub struct Made {
    /// In the order of the games, each game's in the order of its moves;
    /// a puzzle found twice (the same position and line) only once.
    pub puzzles: Vec<Puzzle>,
    /// Games searched to the end.
    pub games_done: usize,
    /// `stop` was set before every game was done.
    pub stopped: bool,
    pub stats: MakeStats,
}

/// Makes puzzles from `games` on `threads` threads (a game per thread at a
/// time). `progress` gets (games done, puzzles found) after each game.
pub fn make_all(
    games: &[SourceGame],
    settings: &MakeSettings,
    threads: usize,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Made {
    let next = AtomicUsize::new(0);
    let found: Mutex<(Vec<Option<GamePuzzles>>, usize, usize)> =
        Mutex::new((vec![None; games.len()], 0, 0));
    let threads = threads.clamp(1, games.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut maker = Maker::new(settings);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let g = &games[i];
                    let got = maker.game(&g.start, &g.moves, &g.url, stop);
                    let Ok(mut f) = found.lock() else {
                        break;
                    };
                    if got.complete {
                        f.1 += 1;
                    }
                    f.2 += got.puzzles.len();
                    f.0[i] = Some(got);
                    progress(f.1, f.2);
                }
            });
        }
    });
    let (per_game, done, _) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut made = Made {
        games_done: done,
        stopped: stop.load(Ordering::Relaxed) && done < games.len(),
        ..Made::default()
    };
    let mut seen = HashSet::new();
    for g in per_game.into_iter().flatten() {
        made.stats.add(&g.stats);
        for p in g.puzzles {
            if seen.insert(p.id.clone()) {
                made.puzzles.push(p);
            }
        }
    }
    made
}
