//! `kibitz fake-engine MODE`: an engine that misbehaves on purpose, for the
//! tests and measurements of what Kibitz does when an external engine
//! fails (issue 30). It speaks UCI or XBoard (`--protocol`), plays legal
//! moves (chosen from the position, so games vary) until its `--after`-th
//! search, then misbehaves the way `MODE` says, at that search and every
//! later one. `--pid-file` gets its process id (appended, one line per
//! process), so a test can tell whether every process was reaped.

use anyhow::{Result, bail};
use kibitz::engine::variant::{ForVariant, dispatch};
use kibitz::engine::{Board, Variant};
use kibitz::variant::VariantKind;
use shakmaty::{Color, Role, Square};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

/// How the engine misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// It does not: a well-behaved engine (for comparison).
    Good,
    /// It exits in the middle of a search (after an `info` line).
    Crash,
    /// It never answers `isready` (XBoard: `ping`), from the `--after`-th on.
    HangIsready,
    /// It never sends its move and ignores `stop` (and everything else).
    HangGo,
    /// It prints random bytes and lines, then never a move.
    Garbage,
    /// A move that looks like one but is illegal here (a piece onto its own).
    Illegal,
    /// A move that is not even one on a board (`e9e5`).
    Nonsense,
    /// A drop of a piece it does not hold (in chess, any drop).
    Drop,
    /// A move for the wrong board: legal on the partner's board (Bughouse,
    /// when it knows it) or for the other side.
    WrongBoard,
    /// It plays well but ignores `quit` (it must be killed).
    SlowExit,
    /// It never answers the handshake (nor anything else).
    Silent,
}

impl Mode {
    pub const ALL: [Mode; 11] = [
        Mode::Good,
        Mode::Crash,
        Mode::HangIsready,
        Mode::HangGo,
        Mode::Garbage,
        Mode::Illegal,
        Mode::Nonsense,
        Mode::Drop,
        Mode::WrongBoard,
        Mode::SlowExit,
        Mode::Silent,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Good => "good",
            Mode::Crash => "crash",
            Mode::HangIsready => "hang-isready",
            Mode::HangGo => "hang-go",
            Mode::Garbage => "garbage",
            Mode::Illegal => "illegal",
            Mode::Nonsense => "nonsense",
            Mode::Drop => "drop",
            Mode::WrongBoard => "wrong-board",
            Mode::SlowExit => "slow-exit",
            Mode::Silent => "silent",
        }
    }

    pub fn parse(text: &str) -> Result<Mode> {
        match Mode::ALL.into_iter().find(|m| m.name() == text) {
            Some(m) => Ok(m),
            None => bail!(
                "unknown fake-engine mode '{text}' (one of: {})",
                Mode::ALL.map(Mode::name).join(", ")
            ),
        }
    }
}

/// Runs the fake engine on stdin/stdout until `quit` (or forever, as its
/// mode says).
pub fn run(
    mode: &str,
    protocol: &str,
    after: u32,
    think: Duration,
    pid_file: Option<PathBuf>,
) -> Result<()> {
    let mode = Mode::parse(mode)?;
    let xboard = match protocol {
        "uci" => false,
        "xboard" => true,
        _ => bail!("--protocol is uci or xboard, not '{protocol}'"),
    };
    if let Some(p) = pid_file {
        // One line per process: a test that restarts it sees them all.
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&p)?;
        writeln!(f, "{}", std::process::id())?;
    }
    let mut fake = Fake {
        mode,
        after: after.max(1),
        think,
        searches: 0,
        syncs: 0,
        game: Game::default(),
        out: std::io::stdout(),
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().split(b'\n') {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line).trim().to_string();
        if mode == Mode::Silent {
            continue;
        }
        if xboard {
            fake.xboard(&line);
        } else {
            fake.uci(&line);
        }
    }
    Ok(())
}

/// Never returns, never reads, never writes: a process that is stuck.
fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// The position the engine was given.
#[derive(Default)]
struct Game {
    kind: VariantKind,
    /// The current position (`None`: the variant's start).
    fen: Option<String>,
    /// The partner's board (Kibitz's Bughouse extension).
    partner: Option<String>,
}

struct Fake {
    mode: Mode,
    after: u32,
    /// How long a good answer takes.
    think: Duration,
    searches: u32,
    syncs: u32,
    game: Game,
    out: std::io::Stdout,
}

impl Fake {
    fn say(&mut self, text: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{text}").and_then(|_| out.flush());
    }

    /// Counts a search; true when this one goes wrong.
    fn misbehaves(&mut self) -> bool {
        self.searches += 1;
        self.searches >= self.after
    }

    /// `isready` or `ping`: hangs when that is the mode.
    fn sync(&mut self) {
        self.syncs += 1;
        if self.mode == Mode::HangIsready && self.syncs >= self.after {
            hang();
        }
    }

    fn quit(&self) {
        if self.mode == Mode::SlowExit {
            hang();
        }
        std::process::exit(0);
    }

    /// The answer to a search: a move, or the misbehaviour (which may never
    /// return). `None`: no legal move.
    fn search(&mut self) -> Option<String> {
        let wrong = self.misbehaves();
        let pick = match (wrong, self.mode) {
            (true, Mode::Crash) => {
                self.say("info depth 1 score cp 0 nodes 1");
                std::process::exit(3);
            }
            (true, Mode::HangGo) => hang(),
            (true, Mode::Garbage) => {
                self.garbage();
                hang()
            }
            (true, Mode::Illegal) => Pick::Illegal,
            (true, Mode::Nonsense) => return Some("e9e5".into()),
            (true, Mode::Drop) => Pick::Drop,
            (true, Mode::WrongBoard) => Pick::WrongBoard,
            _ => Pick::Legal,
        };
        std::thread::sleep(self.think);
        let g = &self.game;
        dispatch(
            g.kind,
            Choose {
                fen: g.fen.as_deref(),
                partner: g.partner.as_deref(),
                pick,
            },
        )
    }

    /// Random bytes: lines that are not UTF-8, a line of a megabyte, lines
    /// that look almost like protocol (but never a move).
    fn garbage(&mut self) {
        let mut rng = kibitz::util::Rng::new(u64::from(std::process::id()));
        let mut out = self.out.lock();
        let mut bytes = Vec::new();
        for i in 0..200 {
            let len = rng.below(200);
            bytes.clear();
            bytes.extend((0..len).map(|_| (rng.below(256) as u8).max(1)));
            bytes.retain(|&b| b != b'\n');
            // Nothing that starts like an answer.
            bytes.insert(0, b'#');
            let _ = out.write_all(&bytes).and_then(|_| out.write_all(b"\n"));
            if i % 50 == 0 {
                let _ = out.write_all(b"info depth banana score cp pv zz99 ?? \n");
                let _ = out.write_all(b"feature done=\"\n");
            }
        }
        let long = vec![b'x'; 1 << 20];
        let _ = out.write_all(&long).and_then(|_| out.write_all(b"\n"));
        let _ = out.flush();
    }

    /// One UCI command.
    fn uci(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        match words.next().unwrap_or("") {
            "uci" => {
                let name = format!("id name Fake {}", self.mode.name());
                self.say(&name);
                self.say("id author Kibitz tests");
                self.say("option name UCI_Variant type combo default chess var chess var crazyhouse var bughouse");
                self.say("option name BughousePartner type check default false");
                self.say("uciok");
            }
            "isready" => {
                self.sync();
                self.say("readyok");
            }
            "setoption" => {
                let rest: Vec<&str> = words.collect();
                if rest
                    .get(1)
                    .is_some_and(|n| n.eq_ignore_ascii_case("UCI_Variant"))
                    && let Some(v) = rest.get(3)
                {
                    self.game.kind = v.parse().unwrap_or_default();
                }
            }
            "ucinewgame" => self.game.fen = None,
            "position" => {
                let rest: Vec<&str> = words.collect();
                let (fen, moves) = match rest.iter().position(|w| *w == "moves") {
                    Some(i) => (&rest[..i], &rest[i + 1..]),
                    None => (&rest[..], &[][..]),
                };
                let start = match fen.first() {
                    Some(&"fen") => Some(fen[1..].join(" ")),
                    _ => None,
                };
                let moves: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
                self.game.fen = dispatch(self.game.kind, Replay(start.as_deref(), &moves));
            }
            "bughouse" => {
                let rest: Vec<&str> = words.collect();
                if rest.first() == Some(&"partner") && rest.get(1) == Some(&"fen") {
                    self.game.partner = Some(rest[2..].join(" "));
                }
            }
            "go" => {
                let best = self.search().unwrap_or_else(|| "0000".into());
                self.say(&format!("info depth 1 score cp 0 nodes 1 pv {best}"));
                self.say(&format!("bestmove {best}"));
            }
            "quit" => self.quit(),
            _ => {}
        }
    }

    /// One XBoard command (the engine is always in `force` mode but at `go`).
    fn xboard(&mut self, line: &str) {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "protover" => {
                let name = format!(
                    "feature ping=1 setboard=1 usermove=1 myname=\"Fake {}\"",
                    self.mode.name()
                );
                self.say(&name);
                self.say("feature variants=\"normal,crazyhouse,bughouse\" done=1");
            }
            "ping" => {
                self.sync();
                self.say(&format!("pong {rest}"));
            }
            "new" => self.game.fen = None,
            "variant" => {
                self.game.kind = rest.trim().parse().unwrap_or_default();
                self.game.fen = None;
            }
            "setboard" => self.game.fen = Some(rest.trim().to_string()),
            "holding" => {
                if let Some(fen) = &self
                    .game
                    .fen
                    .clone()
                    .or_else(|| dispatch(self.game.kind, Replay(None, &[])))
                {
                    self.game.fen = Some(with_holding(fen, rest));
                }
            }
            "usermove" => self.play(rest.trim()),
            "go" => match self.search() {
                Some(m) => {
                    self.say(&format!(" 1 0 0 1 {m}"));
                    self.say(&format!("move {m}"));
                    self.play(&m);
                }
                None => self.say("resign"),
            },
            "quit" => self.quit(),
            _ => {}
        }
    }

    /// A move played in the engine's game (a legal one; others are ignored,
    /// as the client judges the engine's moves itself).
    fn play(&mut self, m: &str) {
        let moves = [m.to_string()];
        if let Some(fen) = dispatch(self.game.kind, Replay(self.game.fen.as_deref(), &moves)) {
            self.game.fen = Some(fen);
        }
    }
}

/// `fen` with the hands of an XBoard `holding [WHITE] [black]` line.
fn with_holding(fen: &str, holding: &str) -> String {
    // The texts in brackets: White's hand, then Black's.
    let hands: Vec<&str> = holding
        .split('[')
        .skip(1)
        .map(|s| s.split(']').next().unwrap_or(""))
        .collect();
    let white = hands.first().unwrap_or(&"").to_ascii_uppercase();
    let black = hands.get(1).unwrap_or(&"").to_ascii_lowercase();
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(first) = fields.first_mut() {
        let placement = first.split('[').next().unwrap_or_default().to_string();
        *first = format!("{placement}[{white}{black}]");
    }
    fields.join(" ")
}

/// The FEN after `moves` from `start` (`None`: the start position), as far
/// as the moves are legal; `None` for a bad FEN.
struct Replay<'a>(Option<&'a str>, &'a [String]);

impl ForVariant for Replay<'_> {
    type Out = Option<String>;
    fn run<V: Variant>(self) -> Option<String> {
        let mut b = match self.0 {
            Some(f) => Board::<V>::from_variant_fen(f).ok()?,
            None => Board::<V>::start_position(),
        };
        for m in self.1 {
            match b.parse_uci(m) {
                Ok(mv) => b = b.play(mv),
                Err(_) => break,
            }
        }
        Some(b.fen())
    }
}

/// What kind of move to answer with.
#[derive(Clone, Copy)]
enum Pick {
    Legal,
    Illegal,
    Drop,
    WrongBoard,
}

struct Choose<'a> {
    fen: Option<&'a str>,
    partner: Option<&'a str>,
    pick: Pick,
}

impl ForVariant for Choose<'_> {
    type Out = Option<String>;
    fn run<V: Variant>(self) -> Option<String> {
        let b = match self.fen {
            Some(f) => Board::<V>::from_variant_fen(f).ok()?,
            None => Board::<V>::start_position(),
        };
        let legal = b.legal_moves();
        match self.pick {
            Pick::Legal => {
                // A move that depends on the position, so games vary.
                let fen = b.fen();
                let h = fen.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
                    (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3)
                });
                let m = legal.get((h % legal.len().max(1) as u64) as usize)?;
                Some(Board::uci(*m))
            }
            Pick::Illegal => {
                // A piece of the side to move onto another square it cannot
                // reach (its own piece's, say).
                let own = b.board().by_color(b.turn());
                own.into_iter()
                    .flat_map(|from| Square::ALL.into_iter().map(move |to| (from, to)))
                    .filter(|(from, to)| from != to)
                    .map(|(from, to)| format!("{from}{to}"))
                    .find(|t| b.parse_uci(t).is_err())
            }
            Pick::Drop => {
                let pocket = b.pocket(b.turn());
                let role = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                    .into_iter()
                    .find(|&r| pocket[r] == 0)?;
                let to = Square::ALL
                    .into_iter()
                    .find(|&s| b.board().piece_at(s).is_none())?;
                Some(format!("{}@{to}", role.upper_char()))
            }
            Pick::WrongBoard => {
                let ours = |t: &String| b.parse_uci(t).is_ok();
                // Legal on the partner's board, not here.
                if let Some(p) = self
                    .partner
                    .and_then(|f| Board::<V>::from_variant_fen(f).ok())
                {
                    let there = p
                        .legal_moves()
                        .into_iter()
                        .map(Board::uci)
                        .find(|t| !ours(t));
                    if there.is_some() {
                        return there;
                    }
                }
                // Else a move of the other side.
                let fen = b.fen();
                let mut fields: Vec<&str> = fen.split_whitespace().collect();
                if fields.len() < 4 {
                    return None;
                }
                fields[1] = if b.turn() == Color::White { "b" } else { "w" };
                fields[3] = "-";
                let other = Board::<V>::from_variant_fen(&fields.join(" ")).ok()?;
                other
                    .legal_moves()
                    .into_iter()
                    .map(Board::uci)
                    .find(|t| !ours(t))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_round_trip_and_bad_ones_are_refused() {
        for m in Mode::ALL {
            assert_eq!(Mode::parse(m.name()).unwrap(), m);
        }
        assert!(Mode::parse("nice").is_err());
    }

    #[test]
    fn the_wrong_moves_are_wrong_and_the_right_ones_right() {
        use kibitz::engine::Std;
        let start = Board::<Std>::start_position();
        let choose = |pick| {
            Choose {
                fen: None,
                partner: None,
                pick,
            }
            .run::<Std>()
            .unwrap()
        };
        assert!(start.parse_uci(&choose(Pick::Legal)).is_ok());
        for pick in [Pick::Illegal, Pick::Drop, Pick::WrongBoard] {
            let text = choose(pick);
            assert!(start.parse_uci(&text).is_err(), "{text}");
        }
        assert_eq!(choose(Pick::Illegal), "a1b1");
        assert_eq!(choose(Pick::Drop), "Q@a3");
    }

    #[test]
    fn holdings_replace_the_pockets() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1";
        assert_eq!(
            with_holding(fen, "[QN] [b]"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QNb] w KQkq - 0 1"
        );
        assert_eq!(
            with_holding(fen, "[] []"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
        );
    }
}
