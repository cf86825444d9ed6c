//! The running engine: [`XboardClient`] starts it and agrees on its
//! features, passes the variant and options on, keeps the engine's game in
//! step with the positions asked for (sending only what it lacks, and the
//! hands before every search), and runs a search on the XBoard clock
//! commands until it moves.

use super::position::{Snapshot, board_only, play_fen, same_position, snapshot, step};
use super::protocol::{Features, GoParams, Heard, heard, partner_text, ptell_info, ptell_line};
use crate::uci::client::{EngineInfo, GoResult, Poll, UciError, start_process};
use crate::variant::VariantKind;
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// The game as the engine has it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Known {
    /// The start FEN (`None`: the variant's start position).
    start: Option<String>,
    moves: Vec<String>,
    /// The position now, with the hands as they were last sent (in
    /// Bughouse they change between moves, so the moves alone may not
    /// replay).
    fen: String,
}

/// How the engine's clock was last set.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Timing {
    /// As `new` left it.
    Default,
    /// `level 0 BASE INC` (the increment in ms).
    Clock { inc_ms: u128 },
    /// `st N` (seconds).
    Fixed(u64),
}

pub struct XboardClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// `myname`, or the program's file name.
    pub name: String,
    pub features: Features,
    variant: VariantKind,
    known: Option<Known>,
    /// The position of the next search.
    root: Option<Snapshot>,
    timing: Timing,
    depth: Option<u32>,
    pings: u32,
    /// The conversation, when `KIBITZ_XBOARD_LOG` names a file.
    log: Option<std::fs::File>,
}

/// The depth `sd` is put back to after a depth-limited search (Sjeng's own
/// limit).
const FREE_DEPTH: u32 = 40;

impl XboardClient {
    /// Starts `cmd[0]` with arguments `cmd[1..]`: `xboard`, `protover 2`,
    /// and its features until `done=1` (an engine that sends no feature in
    /// two seconds is taken as protocol version 1).
    pub fn spawn(cmd: &[String], timeout: Duration) -> Result<XboardClient, UciError> {
        let (child, stdin, lines) = start_process(cmd, "xboard-reader")?;
        let program = cmd.first().cloned().unwrap_or_default();
        let name = std::path::Path::new(&program)
            .file_name()
            .map_or(program.clone(), |n| n.to_string_lossy().into_owned());
        let mut client = XboardClient {
            child,
            stdin,
            lines,
            name,
            features: Features {
                colors: true,
                ..Features::default()
            },
            variant: VariantKind::Chess,
            known: None,
            root: None,
            timing: Timing::Default,
            depth: None,
            pings: 0,
            log: std::env::var_os("KIBITZ_XBOARD_LOG").and_then(|p| {
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .ok()
            }),
        };
        client.send("xboard")?;
        client.send("protover 2")?;
        let start = Instant::now();
        let mut deadline = start + timeout.min(Duration::from_secs(2));
        let mut heard_features = false;
        loop {
            let line = match client.recv_until(deadline, "feature done=1") {
                Ok(l) => l,
                // Protocol version 1: no features.
                Err(UciError::Timeout { .. }) if !heard_features => break,
                Err(e) => return Err(e),
            };
            let line = line.trim();
            if !line.starts_with("feature") {
                continue;
            }
            heard_features = true;
            let (pairs, done) = client.features.read(line);
            for (k, v) in pairs.iter().filter(|(k, _)| k != "done") {
                client.send(&format!("{} {k}", feature_answer(k, v)))?;
            }
            match done {
                Some(true) => break,
                Some(false) => deadline = start + timeout,
                None => {}
            }
        }
        if let Some(n) = &client.features.myname {
            client.name = n.clone();
        }
        Ok(client)
    }

    fn note(&mut self, dir: &str, line: &str) {
        if let Some(f) = &mut self.log {
            let _ = writeln!(f, "{} {dir} {line}", self.name);
        }
    }

    pub fn send(&mut self, line: &str) -> Result<(), UciError> {
        self.note(">", line);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|err| UciError::Write {
                name: self.name.clone(),
                err,
            })
    }

    fn recv_until(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, UciError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => {
                self.note("<", &l);
                Ok(l)
            }
            Err(RecvTimeoutError::Timeout) => Err(UciError::Timeout {
                name: self.name.clone(),
                waiting_for: waiting_for.to_string(),
                timeout: left,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(UciError::XboardClosed(self.name.clone())),
        }
    }

    /// The variant of the games to come (`UCI_Variant`, as a UCI engine
    /// would get it); other options go as `option NAME=VALUE`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        if name.eq_ignore_ascii_case("UCI_Variant") {
            let kind = match value.to_ascii_lowercase().as_str() {
                "crazyhouse" => VariantKind::Crazyhouse,
                "bughouse" => VariantKind::Bughouse,
                _ => VariantKind::Chess,
            };
            if let (Some(list), true) = (&self.features.variants, kind != VariantKind::Chess)
                && !list.iter().any(|v| v == kind.name())
            {
                return Err(UciError::Refused {
                    name: self.name.clone(),
                    sent: format!("variant {}", kind.name()),
                    said: format!("it plays only {}", list.join(", ")),
                });
            }
            if kind != self.variant {
                self.variant = kind;
                self.known = None;
            }
            return Ok(());
        }
        if value.is_empty() {
            self.send(&format!("option {name}"))
        } else {
            self.send(&format!("option {name}={value}"))
        }
    }

    /// `ping N` and wait for `pong N` (nothing for an engine without ping).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), UciError> {
        if !self.features.ping {
            return Ok(());
        }
        self.pings += 1;
        let n = self.pings;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + timeout;
        let want = format!("pong {n}");
        loop {
            if self.recv_until(deadline, &want)?.trim() == want {
                return Ok(());
            }
        }
    }

    /// A new game in the variant set: `new`, `variant`, `force` (it moves
    /// only when told), no pondering, thinking output on.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), UciError> {
        self.send("new")?;
        if self.variant != VariantKind::Chess {
            self.send(&format!("variant {}", self.variant.name()))?;
        }
        self.send("force")?;
        self.send("easy")?;
        self.send("post")?;
        self.known = snapshot(self.variant, None, &[]).ok().map(|s| Known {
            start: None,
            moves: Vec::new(),
            fen: s.fen,
        });
        self.timing = Timing::Default;
        self.depth = None;
        self.sync(timeout)
    }

    /// The position of the next search: a start (`None`: the variant's)
    /// and the moves since (UCI), or a FEN alone. Only what the engine
    /// does not have yet is sent; the pieces in hand always are.
    pub fn position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), UciError> {
        let start = fen.map(str::to_string);
        let target =
            snapshot(self.variant, start.as_deref(), moves).map_err(|e| UciError::Refused {
                name: self.name.clone(),
                sent: "position".into(),
                said: e,
            })?;
        let mut extra: Option<Vec<String>> = None;
        if let Some(k) = &self.known {
            if k.start == start && moves.starts_with(&k.moves) {
                extra = Some(moves[k.moves.len()..].to_vec());
            } else if moves.is_empty() && start.is_some() {
                // A FEN alone: the same position, or one move on.
                if same_position(&k.fen, &target.fen) {
                    extra = Some(Vec::new());
                } else if let Some(m) = step(self.variant, &k.fen, &target.fen) {
                    extra = Some(vec![m]);
                }
            }
        }
        match extra {
            Some(new_moves) => {
                for m in new_moves {
                    self.send_move(&m)?;
                    if let Some(k) = &mut self.known {
                        k.moves.push(m);
                    }
                }
                if let Some(k) = &mut self.known {
                    k.fen = target.fen.clone();
                }
            }
            None => {
                self.new_game(Duration::from_secs(10))?;
                let start = if target.is_start && moves.is_empty() {
                    None
                } else {
                    start
                };
                if let Some(f) = &start {
                    let first =
                        snapshot(self.variant, Some(f), &[]).map_err(|e| UciError::Refused {
                            name: self.name.clone(),
                            sent: "setboard".into(),
                            said: e,
                        })?;
                    if !first.is_start {
                        if !self.features.setboard {
                            return Err(UciError::Refused {
                                name: self.name.clone(),
                                sent: "setboard".into(),
                                said: "it does not take positions (feature setboard=0)".into(),
                            });
                        }
                        self.send(&format!("setboard {}", board_only(f)))?;
                    }
                }
                for m in moves {
                    self.send_move(m)?;
                }
                self.known = Some(Known {
                    start,
                    moves: moves.to_vec(),
                    fen: target.fen.clone(),
                });
            }
        }
        if let Some(h) = &target.holding {
            // Sjeng, in Bughouse, reads a hand as if it played the colour
            // of its last `go` (after `new`, Black), and gives the other
            // side every piece it lacks (it might get one any moment). So
            // that colour is set first with the protocol's old commands
            // ("white": White to move, the engine plays Black), then the
            // side to move put back.
            let colors = self.variant == VariantKind::Bughouse && self.features.colors;
            let (other, own) = if target.white_to_move {
                ("black", "white")
            } else {
                ("white", "black")
            };
            if colors {
                self.send(other)?;
            }
            self.send(h)?;
            if colors {
                self.send(own)?;
            }
        }
        self.root = Some(target);
        Ok(())
    }

    fn send_move(&mut self, m: &str) -> Result<(), UciError> {
        if self.features.usermove {
            self.send(&format!("usermove {m}"))
        } else {
            self.send(m)
        }
    }

    /// The variant of the games it plays.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// A message from the partner, as a FICS interface passes it on.
    pub fn ptell(&mut self, text: &str) -> Result<(), UciError> {
        self.send(&ptell_line(text))
    }

    /// Reads what the engine said between searches: its messages for the
    /// partner go to `on_info` (as `info string ptell TEXT`).
    pub fn drain(&mut self, mut on_info: impl FnMut(&EngineInfo)) -> Result<(), UciError> {
        loop {
            match self.lines.try_recv() {
                Ok(line) => {
                    self.note("<", &line);
                    if let Some(text) = partner_text(&line) {
                        on_info(&ptell_info(text));
                    }
                }
                Err(TryRecvError::Empty) => return Ok(()),
                Err(TryRecvError::Disconnected) => {
                    return Err(UciError::XboardClosed(self.name.clone()));
                }
            }
        }
    }

    /// Like [`crate::uci::client::UciClient::go_polling`]: `params` as a UCI
    /// `go` has them (`wtime`, `btime`, `winc`, `binc`, `movetime`, `depth`,
    /// `infinite`; `nodes` has no XBoard command and is ignored), `poll`
    /// asked every 10 ms for lines to send and whether to stop (then `?`).
    /// The answer's `bestmove` is the engine's move in UCI form, `0000`
    /// when it resigned or claimed the game over instead.
    pub fn go_polling(
        &mut self,
        params: &str,
        timeout: Duration,
        mut poll: impl FnMut() -> Poll,
        mut on_info: impl FnMut(&EngineInfo),
    ) -> Result<GoResult, UciError> {
        self.drain(&mut on_info)?;
        let p = GoParams::parse(params);
        let white = self.root.as_ref().is_none_or(|r| r.white_to_move);
        match (p.depth, self.depth) {
            (Some(d), old) if old != Some(d) => {
                self.send(&format!("sd {d}"))?;
                self.depth = Some(d);
            }
            (None, Some(_)) => {
                self.send(&format!("sd {FREE_DEPTH}"))?;
                self.depth = None;
            }
            _ => {}
        }
        let start = Instant::now();
        let mut move_now: Option<Instant> = None;
        let (mine, theirs, inc) = if white {
            (p.wtime, p.btime, p.winc)
        } else {
            (p.btime, p.wtime, p.binc)
        };
        if let Some(mine) = mine {
            let inc_ms = u128::from(inc);
            if self.timing != (Timing::Clock { inc_ms }) {
                let secs = (mine / 1000).max(1);
                let inc_text = if inc % 1000 == 0 {
                    format!("{}", inc / 1000)
                } else {
                    format!("{}", inc as f64 / 1000.0)
                };
                self.send(&format!(
                    "level 0 {}:{:02} {inc_text}",
                    secs / 60,
                    secs % 60
                ))?;
                self.timing = Timing::Clock { inc_ms };
            }
            self.send(&format!("time {}", mine / 10))?;
            self.send(&format!("otim {}", theirs.unwrap_or(mine) / 10))?;
        }
        if let Some(ms) = p.movetime {
            if mine.is_none() {
                let secs = ms.div_ceil(1000).max(1);
                if self.timing != Timing::Fixed(secs) {
                    self.send(&format!("st {secs}"))?;
                    self.timing = Timing::Fixed(secs);
                }
            }
            // `st` counts whole seconds: the rest is ours to enforce.
            move_now = Some(start + Duration::from_millis(ms));
        }
        let analysing = p.infinite && mine.is_none() && p.movetime.is_none();
        self.send(if analysing { "analyze" } else { "go" })?;
        let mut deadline = start + timeout;
        let mut stop_sent = false;
        let mut infos: Vec<EngineInfo> = Vec::new();
        loop {
            if !stop_sent {
                let polled = poll();
                for line in &polled.send {
                    self.send(line)?;
                }
                let due = move_now.is_some_and(|t| Instant::now() >= t);
                if polled.stop || due {
                    // Sjeng moves at any line; `?` is the protocol's word.
                    self.send(if analysing { "exit" } else { "?" })?;
                    stop_sent = true;
                    deadline = deadline.min(Instant::now() + Duration::from_secs(2));
                    if analysing {
                        return Ok(self.analysis_answer(infos, start));
                    }
                }
            }
            let slice = deadline.min(Instant::now() + Duration::from_millis(10));
            let line = match self.recv_until(slice, "move") {
                Ok(l) => l,
                Err(UciError::Timeout { .. }) if Instant::now() < deadline => continue,
                Err(UciError::Timeout { .. }) => {
                    // It may move later: the game it has is no longer known.
                    self.known = None;
                    return Err(UciError::Timeout {
                        name: self.name.clone(),
                        waiting_for: "move".to_string(),
                        timeout: deadline.saturating_duration_since(start),
                    });
                }
                Err(e) => return Err(e),
            };
            match self.read_line(&line) {
                Heard::Move(m) => {
                    // No pondering, and no move of its own after ours.
                    self.send("force")?;
                    let after = self
                        .root
                        .as_ref()
                        .and_then(|r| play_fen(self.variant, &r.fen, &m));
                    match (&mut self.known, after) {
                        (Some(k), Some(fen)) => {
                            k.moves.push(m.clone());
                            k.fen = fen;
                        }
                        // Not a legal move: the caller judges it; the
                        // engine's game is set up again next time.
                        _ => self.known = None,
                    }
                    return Ok(GoResult {
                        bestmove: m,
                        ponder: None,
                        infos,
                        elapsed: start.elapsed(),
                    });
                }
                Heard::GaveUp => {
                    self.send("force")?;
                    return Ok(GoResult {
                        bestmove: "0000".into(),
                        ponder: None,
                        infos,
                        elapsed: start.elapsed(),
                    });
                }
                Heard::Info(info) => {
                    on_info(&info);
                    infos.push(info);
                }
                Heard::Illegal(said) => {
                    self.known = None;
                    return Err(UciError::Refused {
                        name: self.name.clone(),
                        sent: "a move".into(),
                        said,
                    });
                }
                Heard::Nothing => {}
            }
        }
    }

    /// Analysis stopped: its best line's first move.
    fn analysis_answer(&mut self, infos: Vec<EngineInfo>, start: Instant) -> GoResult {
        let bestmove = infos
            .iter()
            .rev()
            .find_map(|i| i.pv.first().cloned())
            .unwrap_or_else(|| "0000".into());
        GoResult {
            bestmove,
            ponder: None,
            infos,
            elapsed: start.elapsed(),
        }
    }

    /// What one line of the engine's says.
    fn read_line(&self, line: &str) -> Heard {
        heard(
            self.variant,
            self.root.as_ref().map(|r| r.fen.as_str()),
            line,
        )
    }

    /// Sends `quit` and waits briefly; kills the process if it lingers.
    pub fn quit(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = self.send("quit");
        crate::uci::client::reap(&mut self.child);
    }
}

impl Drop for XboardClient {
    fn drop(&mut self) {
        if crate::uci::client::waited(&mut self.child, false).is_none() {
            self.shutdown();
        }
    }
}

/// The answer to an engine's `feature k=v`: `accepted` for what this client
/// honours or can do without (the protocol's meaning), `rejected` for the
/// rest, which the engine then does without. Moves are sent in coordinates,
/// so `san=0` is accepted and `san=1` rejected; clocks are always sent and
/// an engine is kept between games, so `time=0` and `reuse=0` are rejected.
fn feature_answer(k: &str, v: &str) -> &'static str {
    let honoured = match k {
        "san" => v == "0",
        // Clocks are always sent, and one engine process plays on.
        "time" | "reuse" => v == "1",
        "ping" | "setboard" | "usermove" | "colors" | "variants" | "myname" | "sigint"
        | "sigterm" | "draw" | "analyze" | "name" | "ics" | "playother" | "pause" | "debug"
        | "nps" | "memory" | "smp" => true,
        _ => false,
    };
    if honoured { "accepted" } else { "rejected" }
}

#[cfg(test)]
mod feature_tests {
    use super::feature_answer;

    #[test]
    fn features_are_accepted_only_when_honoured() {
        assert_eq!(feature_answer("san", "0"), "accepted");
        assert_eq!(feature_answer("san", "1"), "rejected");
        assert_eq!(feature_answer("usermove", "1"), "accepted");
        assert_eq!(feature_answer("egt", "syzygy"), "rejected");
        assert_eq!(
            feature_answer("option", "\"Hash -spin 64 1 1024\""),
            "rejected"
        );
        assert_eq!(feature_answer("highlight", "1"), "rejected");
        assert_eq!(feature_answer("time", "0"), "rejected");
    }
}
