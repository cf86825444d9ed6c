//! Engine-vs-engine matches over UCI or XBoard (`xboard:CMD`).
//!
//! Each opening is played twice with colours reversed. Games end only by the
//! rules (mate, stalemate, threefold repetition, 50-move rule, insufficient
//! material) or by forfeit (time, illegal move, a crashed or silent engine).
//! Several games can run at once, each worker with its own pair of engine
//! processes.

pub mod bughouse;
mod runner;
pub mod stats;

pub use runner::{GameRecord, MatchEnding};

use crate::engine::variant::Variant;
use crate::engine::{Board, Bug, Std, Zh};
use crate::game::{Ending, Game, GameResult, Termination, write_variant_pgn};
use crate::uci::client::{GoResult, UciError};
use crate::uci::driver::EngineClient;
use crate::variant::VariantKind;
use runner::{Engines, Round};
use shakmaty::{Color, Position};
use stats::Wdl;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A base + increment clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub inc: Duration,
}

impl TimeControl {
    /// Parses `10+0.1` or `60` (seconds).
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let (base, inc) = match s.split_once('+') {
            Some((b, i)) => (b, i),
            None => (s, "0"),
        };
        let secs = |v: &str| -> Result<Duration, String> {
            let f: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("bad time control '{s}': '{v}' is not a number of seconds"))?;
            if !(0.0..=86_400.0).contains(&f) {
                return Err(format!("bad time control '{s}': {f} s is out of range"));
            }
            Ok(Duration::from_secs_f64(f))
        };
        let tc = TimeControl {
            base: secs(base)?,
            inc: secs(inc)?,
        };
        if tc.base.is_zero() {
            return Err(format!(
                "bad time control '{s}': the base time must be positive"
            ));
        }
        Ok(tc)
    }

    /// PGN form, e.g. `10+0.1`.
    pub fn pgn(&self) -> String {
        let f = |d: Duration| {
            let s = d.as_secs_f64();
            if s.fract() == 0.0 {
                format!("{}", s as u64)
            } else {
                format!("{s}")
            }
        };
        format!("{}+{}", f(self.base), f(self.inc))
    }
}

/// How long one player may think per move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    pub tc: Option<TimeControl>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl MoveLimits {
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc {}", tc.pgn()));
        }
        if let Some(mt) = self.movetime {
            parts.push(format!("{} ms/move", mt.as_millis()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if parts.is_empty() {
            "no limit".into()
        } else {
            parts.join(", ")
        }
    }

    pub fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none()
    }
}

/// One side of the match.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// Program and arguments.
    pub cmd: Vec<String>,
    /// Name for the PGN (default: the engine's `id name`).
    pub name: Option<String>,
    pub options: Vec<(String, String)>,
    pub limits: MoveLimits,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub players: [PlayerConfig; 2],
    pub games: usize,
    /// Start positions (FEN); empty = the initial position.
    pub openings: Vec<String>,
    pub pgn_out: Option<PathBuf>,
    pub concurrency: usize,
    pub event: String,
    /// Standard chess or Crazyhouse (the engines get `UCI_Variant`).
    pub variant: VariantKind,
    /// Games of this match played before (`--resume`): not played again,
    /// and counted in the totals.
    pub played: Played,
}

/// The games of a match that its file already holds: their numbers
/// (0-based) and the first engine's score in them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    pub rounds: std::collections::BTreeSet<usize>,
    pub wdl: Wdl,
}

impl Played {
    /// The games of the match between `names` (engine 1, engine 2) that
    /// `pgn`, its file, holds: games with the match's `event`, those two
    /// players and a result, numbered below `games` by their `Round`
    /// tag. Engine 1 has White in even games (rounds 1, 3, ...); a game
    /// that says otherwise, or a round found twice, means the file is
    /// another match's, and that is an error.
    pub fn from_pgn(
        pgn: &str,
        event: &str,
        names: [&str; 2],
        games: usize,
    ) -> Result<Played, String> {
        let mut played = Played::default();
        for tags in pgn_tag_sets(pgn) {
            let tag = |name: &str| {
                tags.iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.as_str())
            };
            let (Some(white), Some(black)) = (tag("White"), tag("Black")) else {
                continue;
            };
            let points = match tag("Result") {
                Some("1-0") => 1.0,
                Some("0-1") => 0.0,
                Some("1/2-1/2") => 0.5,
                _ => continue,
            };
            if tag("Event") != Some(event) || !([white, black] == names || [black, white] == names)
            {
                continue;
            }
            let Some(index) = tag("Round")
                .and_then(|r| r.parse::<usize>().ok())
                .and_then(|r| r.checked_sub(1))
            else {
                continue;
            };
            if index >= games {
                continue;
            }
            let first_white = index.is_multiple_of(2);
            if names[0] != names[1] && (white == names[0]) != first_white {
                return Err(format!(
                    "round {} has {white} with White, but in this match {} has White in \
                     odd rounds: the file holds another match",
                    index + 1,
                    names[0]
                ));
            }
            if !played.rounds.insert(index) {
                return Err(format!(
                    "round {} is in the file twice: it holds more than one match",
                    index + 1
                ));
            }
            played
                .wdl
                .add(if first_white { points } else { 1.0 - points });
        }
        Ok(played)
    }
}

/// The tag pairs of each game of a PGN text, in order (a game's tags
/// start at its `Event` tag, or at the first tag after movetext).
fn pgn_tag_sets(pgn: &str) -> Vec<Vec<(String, String)>> {
    let mut games: Vec<Vec<(String, String)>> = Vec::new();
    let mut in_tags = false;
    for line in pgn.lines() {
        let line = line.trim();
        let tag = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .and_then(|l| l.split_once(' '))
            .and_then(|(k, v)| {
                let v = v.trim().strip_prefix('"')?.strip_suffix('"')?;
                Some((k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\")))
            });
        match tag {
            Some(t) => {
                if !in_tags || t.0 == "Event" {
                    games.push(Vec::new());
                }
                in_tags = true;
                if let Some(g) = games.last_mut() {
                    g.push(t);
                }
            }
            None if !line.is_empty() => in_tags = false,
            None => {}
        }
    }
    games
}

impl MatchEnding for Ending {
    /// The first engine had White in its first-seat games.
    fn points(&self, first_seats: bool) -> f64 {
        let c = if first_seats {
            Color::White
        } else {
            Color::Black
        };
        self.result.points(c)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(transparent)]
    Uci(#[from] UciError),
    #[error("cannot read openings file {path}: {err}")]
    Openings { path: String, err: std::io::Error },
    #[error("openings file {0} has no usable positions")]
    NoOpenings(String),
    #[error("cannot write PGN file {path}: {err}")]
    Pgn { path: String, err: std::io::Error },
}

/// Reads an EPD (or FEN-per-line) file: the first four fields of each line
/// are the position. Bad lines are reported and skipped.
pub fn load_openings(path: &Path) -> Result<(Vec<String>, Vec<String>), MatchError> {
    let text = std::fs::read_to_string(path).map_err(|err| MatchError::Openings {
        path: path.display().to_string(),
        err,
    })?;
    let mut fens = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            problems.push(format!("line {}: too few fields", i + 1));
            continue;
        }
        // EPD: four fields, then opcodes; a full FEN has two counters.
        let counters = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].parse::<u32>().is_ok();
        let fen = if counters {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..4].join(" "))
        };
        match Board::from_fen(&fen) {
            Ok(b) if !b.chess().legal_moves().is_empty() => fens.push(fen),
            Ok(_) => problems.push(format!("line {}: game already over", i + 1)),
            Err(e) => problems.push(format!("line {}: {e}", i + 1)),
        }
    }
    if fens.is_empty() {
        return Err(MatchError::NoOpenings(path.display().to_string()));
    }
    Ok((fens, problems))
}

/// A chess opening as a Crazyhouse position: the pieces missing from the
/// board went to the hand of the side that took them (a missing white
/// piece is in Black's hand). A missing piece beyond the initial set (after
/// a promotion) is counted as a pawn.
pub fn crazyhouse_opening(fen: &str) -> Result<String, String> {
    let board = Board::from_fen(fen).map_err(|e| e.to_string())?;
    let b = board.board();
    let initial = [8u32, 2, 2, 2, 1];
    let roles = [
        shakmaty::Role::Pawn,
        shakmaty::Role::Knight,
        shakmaty::Role::Bishop,
        shakmaty::Role::Rook,
        shakmaty::Role::Queen,
    ];
    let mut hand = String::new();
    for color in [Color::White, Color::Black] {
        // Pieces of `color` missing from the board were taken by the other side.
        let taker = !color;
        let mut extra_pawns = 0u32;
        let mut pieces = String::new();
        for (role, &n) in roles.iter().zip(&initial) {
            let on_board = (b.by_role(*role) & b.by_color(color)).count() as u32;
            if on_board < n {
                for _ in 0..n - on_board {
                    pieces.push(role.of(taker).char());
                }
            } else if *role != shakmaty::Role::Pawn {
                extra_pawns += on_board - n;
            }
        }
        // A promoted piece on the board stands for a pawn that left.
        let pawns_missing = pieces
            .chars()
            .filter(|c| c.eq_ignore_ascii_case(&'p'))
            .count() as u32;
        let keep = pawns_missing.saturating_sub(extra_pawns);
        let mut dropped = 0;
        for c in pieces.chars() {
            if c.eq_ignore_ascii_case(&'p') && dropped < pawns_missing - keep {
                dropped += 1;
                continue;
            }
            hand.push(c);
        }
    }
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err("empty FEN".into());
    }
    let placement = format!("{}[{hand}]", fields[0]);
    fields[0] = &placement;
    let zh = fields.join(" ");
    // Written back by shakmaty: the pocket in its usual order.
    Ok(Board::<Zh>::from_variant_fen(&zh)
        .map_err(|e| e.to_string())?
        .fen())
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn pgn_date() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}.{m:02}.{d:02}")
}

struct Worker<'a> {
    cfg: &'a MatchConfig,
    engines: [Option<EngineClient>; 2],
}

const HANDSHAKE: Duration = Duration::from_secs(10);

impl Worker<'_> {
    fn engine(&mut self, p: usize) -> Result<&mut EngineClient, UciError> {
        if self.engines[p].is_none() {
            let pc = &self.cfg.players[p];
            let mut c = EngineClient::spawn(&pc.cmd, HANDSHAKE)?;
            for (k, v) in &pc.options {
                c.set_option(k, v)?;
            }
            c.sync(HANDSHAKE)?;
            if let Some(n) = &pc.name {
                c.set_name(n);
            }
            if self.cfg.variant != VariantKind::Chess {
                c.set_option("UCI_Variant", self.cfg.variant.name())?;
                c.sync(HANDSHAKE)?;
            }
            self.engines[p] = Some(c);
        }
        match self.engines[p].as_mut() {
            Some(c) => Ok(c),
            None => Err(UciError::EmptyCommand),
        }
    }

    fn name(&mut self, p: usize) -> String {
        match self.engine(p) {
            Ok(c) => c.name().to_string(),
            Err(_) => self.cfg.players[p]
                .name
                .clone()
                .unwrap_or_else(|| self.cfg.players[p].cmd.join(" ")),
        }
    }

    fn play_in<V: Variant>(&mut self, round: Round) -> GameRecord<Ending> {
        let cfg = self.cfg;
        let (index, first_white) = (round.index, round.first_seats);
        let opening = if cfg.openings.is_empty() {
            None
        } else {
            Some(cfg.openings[round.pair % cfg.openings.len()].clone())
        };
        let start = opening
            .as_deref()
            .and_then(|f| Board::<V>::from_variant_fen(f).ok())
            .unwrap_or_else(Board::start_position);
        // Player index by colour.
        let by_color = |c: Color| -> usize {
            match (c, first_white) {
                (Color::White, true) | (Color::Black, false) => 0,
                _ => 1,
            }
        };
        let mut game = Game::new(start);
        game.set_header("Event", cfg.event.clone());
        game.set_header("Site", "Kibitz");
        game.set_header("Date", pgn_date());
        game.set_header("Round", (index + 1).to_string());
        let white = self.name(by_color(Color::White));
        let black = self.name(by_color(Color::Black));
        game.set_header("White", white.clone());
        game.set_header("Black", black.clone());
        let (lw, lb) = (
            &cfg.players[by_color(Color::White)].limits,
            &cfg.players[by_color(Color::Black)].limits,
        );
        match (lw.tc, lb.tc) {
            (Some(a), Some(b)) if a == b => game.set_header("TimeControl", a.pgn()),
            _ => {
                game.set_header("WhiteLimits", lw.describe());
                game.set_header("BlackLimits", lb.describe());
            }
        }

        for p in 0..2 {
            let ok = self.engine(p).and_then(|c| c.new_game(HANDSHAKE));
            if ok.is_err() {
                self.engines[p] = None;
            }
        }

        let mut clocks = [Duration::ZERO; 2]; // by colour: [black, white]
        for c in [Color::White, Color::Black] {
            if let Some(tc) = cfg.players[by_color(c)].limits.tc {
                clocks[c as usize] = tc.base;
            }
        }
        let start_fen = opening;
        let ending = loop {
            if let Some(e) = game.rule_ending(true) {
                break e;
            }
            let turn = game.current().turn();
            let p = by_color(turn);
            let limits = cfg.players[p].limits.clone();
            let moves: Vec<String> = game.moves().iter().map(|&m| Board::uci(m)).collect();
            let mut params = String::new();
            let mut timeout = Duration::from_secs(300);
            if limits.tc.is_some() {
                let wtc = cfg.players[by_color(Color::White)].limits.tc;
                let btc = cfg.players[by_color(Color::Black)].limits.tc;
                params.push_str(&format!(
                    "wtime {} btime {} winc {} binc {}",
                    clocks[Color::White as usize].as_millis(),
                    clocks[Color::Black as usize].as_millis(),
                    wtc.map_or(0, |t| t.inc.as_millis()),
                    btc.map_or(0, |t| t.inc.as_millis()),
                ));
                timeout = clocks[turn as usize] + Duration::from_secs(2);
            }
            if let Some(mt) = limits.movetime {
                params.push_str(&format!(" movetime {}", mt.as_millis()));
                timeout = timeout.min(mt + Duration::from_secs(10));
            }
            if let Some(d) = limits.depth {
                params.push_str(&format!(" depth {d}"));
            }
            if let Some(n) = limits.nodes {
                params.push_str(&format!(" nodes {n}"));
            }
            if limits.is_empty() {
                params.push_str(" movetime 1000");
                // A hung engine forfeits after the move's time and a grace.
                timeout = Duration::from_secs(11);
            }
            let answer: Result<GoResult, UciError> = self.engine(p).and_then(|c| {
                c.position(start_fen.as_deref(), &moves)?;
                c.go(params.trim(), timeout, |_| {})
            });
            let loser_ends = |termination: Termination| Ending {
                result: GameResult::win_for(!turn),
                termination,
            };
            let answer = match answer {
                Ok(a) => a,
                Err(UciError::Timeout { .. }) if limits.tc.is_some() => {
                    self.engines[p] = None;
                    break self.flag(&game, turn);
                }
                Err(_) => {
                    self.engines[p] = None;
                    break loser_ends(Termination::Abandoned);
                }
            };
            if let Some(tc) = limits.tc {
                let left = &mut clocks[turn as usize];
                if answer.elapsed > *left {
                    *left = Duration::ZERO;
                    break self.flag(&game, turn);
                }
                *left = *left - answer.elapsed + tc.inc;
            }
            let Ok(m) = game.current().parse_uci(&answer.bestmove) else {
                break loser_ends(Termination::IllegalMove);
            };
            let comment = answer.last_score().and_then(|i| {
                let s = i.score?;
                // Scores in PGN comments are from White's side.
                let white = if turn == Color::White { s } else { -s };
                Some(format!(
                    "{}/{} {:.2}s",
                    white,
                    i.depth.unwrap_or(0),
                    answer.elapsed.as_secs_f64()
                ))
            });
            game.push(m, comment);
        };
        game.ending = Some(ending);
        GameRecord {
            index,
            first_seats: first_white,
            ending,
            players: vec![white, black],
            plies: game.moves().len(),
            text: write_variant_pgn(&game),
        }
    }

    /// `turn` ran out of time: a loss, or a draw when the opponent cannot mate.
    fn flag<V: Variant>(&self, game: &Game<V>, turn: Color) -> Ending {
        let opponent_can_win = !game.current().pos().has_insufficient_material(!turn);
        Ending {
            result: if opponent_can_win {
                GameResult::win_for(!turn)
            } else {
                GameResult::Draw
            },
            termination: Termination::TimeForfeit,
        }
    }
}

impl Engines for Worker<'_> {
    type Ending = Ending;
    type Error = MatchError;

    fn play(&mut self, round: Round) -> Result<GameRecord<Ending>, MatchError> {
        Ok(match self.cfg.variant {
            VariantKind::Chess => self.play_in::<Std>(round),
            VariantKind::Crazyhouse => self.play_in::<Zh>(round),
            VariantKind::Bughouse => self.play_in::<Bug>(round),
        })
    }

    fn quit(self) {
        for c in self.engines.into_iter().flatten() {
            c.quit();
        }
    }

    fn file_error(path: String, err: std::io::Error) -> MatchError {
        MatchError::Pgn { path, err }
    }
}

/// Plays the match. `on_game` sees each finished game (in the order they
/// finish) and the running totals, and says whether to go on: when it
/// returns `false` no new game starts (games already under way are
/// finished and reported).
pub fn run_match(
    cfg: &MatchConfig,
    on_game: impl FnMut(&GameRecord<Ending>, &Wdl) -> bool,
) -> Result<Wdl, MatchError> {
    // Fail early (with a clear message) if an engine does not start.
    for p in &cfg.players {
        EngineClient::spawn(&p.cmd, HANDSHAKE)?.quit();
    }
    let rounds: Vec<usize> = (0..cfg.games)
        .filter(|i| !cfg.played.rounds.contains(i))
        .collect();
    let workers = cfg.concurrency.clamp(1, rounds.len().max(1));
    let workers = (0..workers)
        .map(|_| Worker {
            cfg,
            engines: [None, None],
        })
        .collect();
    runner::play_games(
        &rounds,
        cfg.played.wdl,
        workers,
        cfg.pgn_out.as_deref(),
        on_game,
    )
}

/// The players' names as the games will show them: `--name`, else what
/// the engine calls itself.
pub fn player_names(cfg: &MatchConfig) -> Result<[String; 2], MatchError> {
    let name = |p: &PlayerConfig| -> Result<String, MatchError> {
        if let Some(n) = &p.name {
            return Ok(n.clone());
        }
        let c = EngineClient::spawn(&p.cmd, HANDSHAKE)?;
        let n = c.name().to_string();
        c.quit();
        Ok(n)
    };
    Ok([name(&cfg.players[0])?, name(&cfg.players[1])?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.inc, Duration::from_millis(100));
        assert_eq!(tc.pgn(), "10+0.1");
        assert_eq!(TimeControl::parse("60").unwrap().pgn(), "60+0");
        assert!(TimeControl::parse("abc").is_err());
        assert!(TimeControl::parse("0+1").is_err());
        assert!(TimeControl::parse("-5+1").is_err());
    }

    #[test]
    fn chess_openings_become_crazyhouse_positions() {
        // 1. e4 d5 2. exd5: White has taken a pawn.
        let zh = crazyhouse_opening("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2")
            .unwrap();
        assert_eq!(
            zh,
            "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[P] b KQkq - 0 2"
        );
        // Traded knights: each side holds the other's knight.
        let zh = crazyhouse_opening("r1bqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKB1R w KQkq - 0 4")
            .unwrap();
        assert!(zh.contains("[Nn]"), "{zh}");
        assert!(crazyhouse_opening("not a fen").is_err());
    }

    /// A match file's games: (event, round, white, black, result).
    fn pgn_of(games: &[(&str, usize, &str, &str, &str)]) -> String {
        games
            .iter()
            .map(|(event, round, white, black, result)| {
                format!(
                    "[Event \"{event}\"]\n[Site \"Kibitz\"]\n[Round \"{round}\"]\n\
                     [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n\
                     1. e4 e5 {result}\n\n"
                )
            })
            .collect()
    }

    #[test]
    fn a_match_file_tells_which_games_were_played_and_the_score() {
        let text = pgn_of(&[
            ("m", 1, "A", "B", "1-0"),
            ("m", 2, "B", "A", "1-0"),
            ("other", 4, "A", "B", "0-1"),
            ("m", 4, "B", "A", "1/2-1/2"),
            ("m", 5, "A", "C", "1-0"),
            ("m", 3, "A", "B", "*"),
            ("m", 9, "A", "B", "1-0"),
        ]);
        let p = Played::from_pgn(&text, "m", ["A", "B"], 8).unwrap();
        // Round 1: A won with White; 2: A lost with Black; 4: a draw.
        // Other events and players, an unfinished game and a round past
        // the match's games do not count.
        assert_eq!(p.rounds.iter().copied().collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (1, 1, 1));
        // Engine 2's view of the same games.
        let q = Played::from_pgn(&text, "m", ["B", "A"], 8);
        assert!(q.unwrap_err().contains("another match"));
        // The same round twice.
        let twice = pgn_of(&[("m", 1, "A", "B", "1-0"), ("m", 1, "A", "B", "0-1")]);
        assert!(
            Played::from_pgn(&twice, "m", ["A", "B"], 8)
                .unwrap_err()
                .contains("twice")
        );
        // Engines of one name: the round says who had White.
        let same = pgn_of(&[("m", 1, "K", "K", "1-0"), ("m", 2, "K", "K", "1-0")]);
        let p = Played::from_pgn(&same, "m", ["K", "K"], 8).unwrap();
        assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (1, 0, 1));
        assert_eq!(
            Played::from_pgn("", "m", ["A", "B"], 8),
            Ok(Played::default())
        );
    }

    #[test]
    fn dates_look_right() {
        let d = pgn_date();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }

    #[test]
    fn openings_file_parsing() {
        let dir = std::env::temp_dir().join(format!("kibitz-epd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("o.epd");
        std::fs::write(
            &f,
            "\u{feff}rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
             # comment\n\
             garbage line here\n\
             rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n",
        )
        .unwrap();
        let (fens, problems) = load_openings(&f).unwrap();
        assert_eq!(fens.len(), 2);
        assert_eq!(
            fens[0],
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(problems.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
