//! The XBoard (CECP) lines themselves: the engine's `feature` lines, a UCI
//! `go`'s parameters (read for the XBoard clock commands), what a line of
//! the engine's means during a search (a move, giving up, thinking output,
//! an illegal-move complaint), and the partner's messages (`ptell`) both
//! ways.

use super::position::{holding_line, line_to_uci, normalize_move, play_fen};
use crate::engine::Score;
use crate::uci::client::EngineInfo;
use crate::variant::VariantKind;

/// What the engine said it can do (`feature` lines).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub ping: bool,
    pub setboard: bool,
    pub usermove: bool,
    /// It takes `white` and `black` (the protocol's default).
    pub colors: bool,
    /// `variants="..."`, when it sent them.
    pub variants: Option<Vec<String>>,
    pub myname: Option<String>,
}

impl Features {
    /// Reads the `key=value` pairs of one `feature` line (values may be
    /// quoted); returns whether it said `done=1`, `done=0`, or neither.
    pub(super) fn read(&mut self, line: &str) -> (Vec<(String, String)>, Option<bool>) {
        let mut pairs = Vec::new();
        let mut rest = line.strip_prefix("feature").unwrap_or("").trim_start();
        while let Some((key, after)) = rest.split_once('=') {
            let key = key.trim().to_string();
            let (value, next) = if let Some(q) = after.strip_prefix('"') {
                match q.split_once('"') {
                    Some((v, n)) => (v.to_string(), n),
                    None => (q.to_string(), ""),
                }
            } else {
                match after.split_once(char::is_whitespace) {
                    Some((v, n)) => (v.to_string(), n),
                    None => (after.to_string(), ""),
                }
            };
            pairs.push((key, value));
            rest = next.trim_start();
        }
        let mut done = None;
        for (k, v) in &pairs {
            let on = v == "1";
            match k.as_str() {
                "ping" => self.ping = on,
                "setboard" => self.setboard = on,
                "usermove" => self.usermove = on,
                "colors" => self.colors = on,
                "variants" => {
                    self.variants = Some(v.split(',').map(|s| s.trim().to_string()).collect())
                }
                "myname" => self.myname = Some(v.clone()),
                "done" => done = Some(on),
                _ => {}
            }
        }
        (pairs, done)
    }
}

/// A go command's parameters, as a UCI `go` would have them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct GoParams {
    pub(super) wtime: Option<u64>,
    pub(super) btime: Option<u64>,
    pub(super) winc: u64,
    pub(super) binc: u64,
    pub(super) movetime: Option<u64>,
    pub(super) depth: Option<u32>,
    pub(super) infinite: bool,
}

impl GoParams {
    pub(super) fn parse(params: &str) -> GoParams {
        let t: Vec<&str> = params.split_whitespace().collect();
        let mut p = GoParams::default();
        let num = |i: usize| t.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        for (i, w) in t.iter().enumerate() {
            match *w {
                "wtime" => p.wtime = num(i),
                "btime" => p.btime = num(i),
                "winc" => p.winc = num(i).unwrap_or(0),
                "binc" => p.binc = num(i).unwrap_or(0),
                "movetime" => p.movetime = num(i),
                "depth" => p.depth = num(i).map(|d| d.min(99) as u32),
                "infinite" => p.infinite = true,
                _ => {}
            }
        }
        p
    }
}

/// What a line of the engine's meant during a search.
pub(super) enum Heard {
    Move(String),
    /// It resigned, or claimed the game over instead of moving.
    GaveUp,
    Info(EngineInfo),
    Illegal(String),
    Nothing,
}

/// What one line of the engine's says during a search from `root` (a FEN
/// of `kind`): thinking lines get their moves in UCI form.
pub(super) fn heard(kind: VariantKind, root: Option<&str>, line: &str) -> Heard {
    let l = line.trim();
    if let Some(text) = partner_text(l) {
        return Heard::Info(ptell_info(text));
    }
    if let Some(m) = l
        .strip_prefix("move ")
        .or_else(|| l.strip_prefix("My move is: "))
        .or_else(|| l.strip_prefix("my move is: "))
    {
        return Heard::Move(normalize_move(m.trim()));
    }
    if l == "resign"
        || l == "tellics resign"
        || ["1-0", "0-1", "1/2-1/2"].iter().any(|r| {
            l.strip_prefix(r)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
    {
        return Heard::GaveUp;
    }
    if l.starts_with("Illegal move") {
        return Heard::Illegal(l.to_string());
    }
    if let Some(mut info) = thinking_line(l) {
        if let Some(root) = root {
            info.pv = line_to_uci(kind, root, &info.pv);
        }
        return Heard::Info(info);
    }
    Heard::Nothing
}

/// Reads one line an XBoard engine sent as the client would, for the fuzz
/// harness: as a `feature` line, and as a line during a search from `fen`
/// (a move in it is played on `fen`, as a search's answer is). Whether the
/// line meant anything.
pub(crate) fn read_engine_line(kind: VariantKind, fen: &str, line: &str) -> bool {
    let (pairs, _) = Features::default().read(line);
    let meant = match heard(kind, Some(fen), line) {
        Heard::Move(m) => play_fen(kind, fen, &m).is_some(),
        Heard::Info(_) | Heard::GaveUp | Heard::Illegal(_) => true,
        Heard::Nothing => false,
    };
    let _ = holding_line(kind, fen);
    meant || !pairs.is_empty()
}

/// The text of a message for the partner: `tellics ptell TEXT` (Sjeng, as
/// it would tell the chess server) or `ptell TEXT`.
pub fn partner_text(line: &str) -> Option<&str> {
    let l = line.trim();
    let rest = l
        .strip_prefix("tellics ptell ")
        .or_else(|| l.strip_prefix("ptell "))?;
    let rest = rest.trim();
    (!rest.is_empty()).then_some(rest)
}

/// A partner's message for an XBoard engine.
pub fn ptell_line(text: &str) -> String {
    format!("ptell {}", text.trim())
}

pub(super) fn ptell_info(text: &str) -> EngineInfo {
    EngineInfo {
        string: Some(format!("ptell {text}")),
        ..EngineInfo::default()
    }
}

/// A thinking line: `depth score time(cs) nodes pv...` (the moves are
/// still as the engine wrote them).
pub(super) fn thinking_line(l: &str) -> Option<EngineInfo> {
    let mut t = l.split_whitespace();
    let depth: u32 = t.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i64 = t.next()?.parse().ok()?;
    let cs: u64 = t.next()?.parse().ok()?;
    let nodes: u64 = t.next()?.parse().ok()?;
    let pv: Vec<String> = t.map(str::to_string).collect();
    let a = score.abs();
    let score = if a >= 900_000 {
        // Sjeng: a mate is 1,000,000 less the plies to it.
        let plies = (1_000_000 - a.min(1_000_000)).max(1) as usize;
        if score > 0 {
            Score::mate_in(plies)
        } else {
            Score::mated_in(plies)
        }
    } else if a >= 100_000 {
        // The protocol's convention: 100000 + moves to mate.
        let moves = (a - 100_000).max(1) as usize;
        if score > 0 {
            Score::mate_in(2 * moves - 1)
        } else {
            Score::mated_in(2 * moves)
        }
    } else {
        Score(score.clamp(
            i64::from(-Score::MATE_BOUND + 1),
            i64::from(Score::MATE_BOUND - 1),
        ) as i32)
    };
    Some(EngineInfo {
        depth: Some(depth),
        score: Some(score),
        bound: Some(crate::engine::Bound::Exact),
        nodes: Some(nodes),
        time_ms: Some(cs * 10),
        pv,
        ..EngineInfo::default()
    })
}
