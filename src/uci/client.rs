//! Driving an external UCI engine: start the process, handshake, send
//! positions and `go`, collect `info` lines and the `bestmove`.
//!
//! A reader thread turns the engine's stdout into a channel of lines, so
//! every wait has a timeout and a hung or crashed engine is reported instead
//! of blocking forever.

pub use super::error::UciError;
pub use super::process::end_all_engines;
pub(crate) use super::process::{reap, start_process, waited};
use crate::engine::{Bound, Score};
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What an `info` line said (fields absent from the line are `None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInfo {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    /// Side to move's view, mates as [`Score::mate_in`]-style values.
    pub score: Option<Score>,
    pub bound: Option<Bound>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub hashfull: Option<u32>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<u32>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// Parses an `info ...` line. Unknown tokens are skipped.
pub fn parse_info(line: &str) -> Option<EngineInfo> {
    let mut t = line.split_whitespace();
    if t.next() != Some("info") {
        return None;
    }
    let tokens: Vec<&str> = t.collect();
    let mut info = EngineInfo::default();
    let mut i = 0;
    let num = |i: usize| tokens.get(i + 1).and_then(|v| v.parse::<i64>().ok());
    while i < tokens.len() {
        match tokens[i] {
            "depth" => info.depth = num(i).map(|v| v.max(0) as u32),
            "seldepth" => info.seldepth = num(i).map(|v| v.max(0) as u32),
            "multipv" => info.multipv = num(i).map(|v| v.max(0) as u32),
            "nodes" => info.nodes = num(i).map(|v| v.max(0) as u64),
            "nps" => info.nps = num(i).map(|v| v.max(0) as u64),
            "time" => info.time_ms = num(i).map(|v| v.max(0) as u64),
            "hashfull" => info.hashfull = num(i).map(|v| v.max(0) as u32),
            "currmove" => info.currmove = tokens.get(i + 1).map(|s| s.to_string()),
            "currmovenumber" => info.currmovenumber = num(i).and_then(|n| u32::try_from(n).ok()),
            "score" => {
                let kind = tokens.get(i + 1).copied();
                let v = tokens.get(i + 2).and_then(|v| v.parse::<i32>().ok());
                info.score = match (kind, v) {
                    (Some("cp"), Some(v)) => Some(Score(
                        v.clamp(-Score::MATE_BOUND + 1, Score::MATE_BOUND - 1),
                    )),
                    (Some("mate"), Some(m)) if m > 0 => Some(Score::mate_in((2 * m - 1) as usize)),
                    (Some("mate"), Some(m)) => Some(Score::mated_in((-2 * m) as usize)),
                    _ => None,
                };
                i += 2;
                match tokens.get(i + 1).copied() {
                    Some("lowerbound") => {
                        info.bound = Some(Bound::Lower);
                        i += 1;
                    }
                    Some("upperbound") => {
                        info.bound = Some(Bound::Upper);
                        i += 1;
                    }
                    _ => info.bound = Some(Bound::Exact),
                }
                i += 1;
                continue;
            }
            "pv" => {
                info.pv = tokens[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "string" => {
                info.string = Some(tokens[i + 1..].join(" "));
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    Some(info)
}

/// Reads a `bestmove MOVE [ponder MOVE]` line: the move (`0000` when
/// missing) and the ponder move.
pub fn parse_bestmove(line: &str) -> Option<(String, Option<String>)> {
    let rest = line.strip_prefix("bestmove")?;
    let mut t = rest.split_whitespace();
    let bestmove = t.next().unwrap_or("0000").to_string();
    let ponder = match (t.next(), t.next()) {
        (Some("ponder"), Some(p)) => Some(p.to_string()),
        _ => None,
    };
    Some((bestmove, ponder))
}

/// What a polling `go` should do now (see [`UciClient::go_polling`]).
#[derive(Clone, Debug, Default)]
pub struct Poll {
    pub stop: bool,
    /// Lines for the engine (sent before `stop`).
    pub send: Vec<String>,
}

/// The answer to a `go`.
#[derive(Clone, Debug)]
pub struct GoResult {
    pub bestmove: String,
    pub ponder: Option<String>,
    /// Every `info` line the engine sent during this search, in order.
    pub infos: Vec<EngineInfo>,
    pub elapsed: Duration,
}

impl GoResult {
    /// The last info line that carried a score (from the main line).
    pub fn last_score(&self) -> Option<&EngineInfo> {
        self.infos
            .iter()
            .rev()
            .find(|i| i.score.is_some() && i.multipv.unwrap_or(1) == 1)
    }
}

pub struct UciClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine's `id name`, or the command when it sent none.
    pub name: String,
    /// The `option ...` lines from the handshake.
    pub options: Vec<String>,
}

impl UciClient {
    /// Starts `cmd[0]` with arguments `cmd[1..]` and performs the `uci`
    /// handshake.
    pub fn spawn(cmd: &[String], timeout: Duration) -> Result<UciClient, UciError> {
        let (child, stdin, rx) = start_process(cmd, "uci-reader")?;
        let program = cmd.first().cloned().unwrap_or_default();
        let mut client = UciClient {
            child,
            stdin,
            lines: rx,
            name: program.clone(),
            options: Vec::new(),
        };
        client.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = client.recv_until(deadline, "uciok")?;
            if let Some(n) = line.strip_prefix("id name ") {
                client.name = n.trim().to_string();
            } else if line.starts_with("option ") {
                client.options.push(line);
            } else if line.trim() == "uciok" {
                break;
            }
        }
        Ok(client)
    }

    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|err| UciError::Write {
                name: self.name.clone(),
                err,
            })
    }

    fn recv_until(&self, deadline: Instant, waiting_for: &str) -> Result<String, UciError> {
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(UciError::Timeout {
                name: self.name.clone(),
                waiting_for: waiting_for.to_string(),
                timeout: left,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(UciError::Closed(self.name.clone())),
        }
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        if value.is_empty() {
            self.send(&format!("setoption name {name}"))
        } else {
            self.send(&format!("setoption name {name} value {value}"))
        }
    }

    /// `isready` and wait for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            if self.recv_until(deadline, "readyok")?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    pub fn new_game(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("ucinewgame")?;
        self.sync(timeout)
    }

    /// `position startpos|fen ... moves ...`.
    pub fn position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), UciError> {
        let mut cmd = match fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        self.send(&cmd)
    }

    /// Sends `go <params>` and waits for `bestmove` until `timeout`. Each
    /// `info` line is also passed to `on_info` as it arrives.
    pub fn go(
        &mut self,
        params: &str,
        timeout: Duration,
        on_info: impl FnMut(&EngineInfo),
    ) -> Result<GoResult, UciError> {
        self.go_stoppable(params, timeout, &AtomicBool::new(false), on_info)
    }

    /// Like [`UciClient::go`], but sends `stop` as soon as `stop` is set
    /// (checked every 10 ms) and then waits up to 2 s more for `bestmove`.
    pub fn go_stoppable(
        &mut self,
        params: &str,
        timeout: Duration,
        stop: &AtomicBool,
        on_info: impl FnMut(&EngineInfo),
    ) -> Result<GoResult, UciError> {
        self.go_polling(
            params,
            timeout,
            || Poll {
                stop: stop.load(Ordering::Relaxed),
                send: Vec::new(),
            },
            on_info,
        )
    }

    /// Like [`UciClient::go`], asking `poll` every 10 ms what to do: lines
    /// to send the engine while it thinks (news for it), and whether to
    /// stop it (then `bestmove` is awaited up to 2 s more).
    pub fn go_polling(
        &mut self,
        params: &str,
        timeout: Duration,
        mut poll: impl FnMut() -> Poll,
        mut on_info: impl FnMut(&EngineInfo),
    ) -> Result<GoResult, UciError> {
        let start = Instant::now();
        self.send(format!("go {params}").trim())?;
        let mut deadline = start + timeout;
        let mut stop_sent = false;
        let mut infos = Vec::new();
        loop {
            if !stop_sent {
                let p = poll();
                for line in &p.send {
                    self.send(line)?;
                }
                if p.stop {
                    self.send("stop")?;
                    stop_sent = true;
                    deadline = deadline.min(Instant::now() + Duration::from_secs(2));
                }
            }
            let slice = deadline.min(Instant::now() + Duration::from_millis(10));
            let line = match self.recv_until(slice, "bestmove") {
                Ok(l) => l,
                Err(UciError::Timeout { .. }) if Instant::now() < deadline => continue,
                Err(UciError::Timeout { .. }) => {
                    return Err(UciError::Timeout {
                        name: self.name.clone(),
                        waiting_for: "bestmove".to_string(),
                        timeout: deadline.saturating_duration_since(start),
                    });
                }
                Err(e) => return Err(e),
            };
            if let Some(info) = parse_info(&line) {
                on_info(&info);
                infos.push(info);
            } else if let Some((bestmove, ponder)) = parse_bestmove(&line) {
                let elapsed = start.elapsed();
                return Ok(GoResult {
                    bestmove,
                    ponder,
                    infos,
                    elapsed,
                });
            }
        }
    }

    /// Asks the engine to stop searching (the `bestmove` still has to be read
    /// by the pending `go`).
    pub fn stop(&mut self) -> Result<(), UciError> {
        self.send("stop")
    }

    /// Sends `quit` and waits briefly; kills the process if it lingers.
    pub fn quit(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = self.send("quit");
        reap(&mut self.child);
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        if waited(&mut self.child, false).is_none() {
            self.shutdown();
        }
    }
}

/// Splits an engine command line into program and arguments (whitespace,
/// with single or double quotes grouping).
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has = false;
    for c in cmd.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                has = true;
            }
            (None, c) if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if has || !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_info_lines() {
        let i = parse_info(
            "info depth 12 seldepth 18 multipv 1 score cp -35 nodes 123456 nps 900000 hashfull 12 time 137 pv e2e4 e7e5 g1f3",
        )
        .unwrap();
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.seldepth, Some(18));
        assert_eq!(i.score, Some(Score(-35)));
        assert_eq!(i.bound, Some(Bound::Exact));
        assert_eq!(i.nodes, Some(123456));
        assert_eq!(i.time_ms, Some(137));
        assert_eq!(i.pv, vec!["e2e4", "e7e5", "g1f3"]);
        let m = parse_info("info depth 5 score mate 3 lowerbound pv a1a8").unwrap();
        assert_eq!(m.score, Some(Score::mate_in(5)));
        assert_eq!(m.bound, Some(Bound::Lower));
        assert_eq!(m.pv, vec!["a1a8"]);
        let m = parse_info("info score mate -2").unwrap();
        assert_eq!(m.score, Some(Score::mated_in(4)));
        let s = parse_info("info string hello world").unwrap();
        assert_eq!(s.string.as_deref(), Some("hello world"));
        assert!(parse_info("bestmove e2e4").is_none());
        // Garbage values are skipped, not fatal.
        let g = parse_info("info depth x nodes 5").unwrap();
        assert_eq!(g.depth, None);
        assert_eq!(g.nodes, Some(5));
    }

    #[test]
    fn splits_commands() {
        assert_eq!(split_command("stockfish"), vec!["stockfish"]);
        assert_eq!(
            split_command("  /usr/bin/engine  --flag 'two words' \"x y\" "),
            vec!["/usr/bin/engine", "--flag", "two words", "x y"]
        );
        assert!(split_command("   ").is_empty());
    }
}
