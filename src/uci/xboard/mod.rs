//! Driving an XBoard (CECP v2) engine the way the UCI client drives a UCI
//! one, so the same callers can use either: `xboard` and `protover 2`
//! (features until `done=1`), `new`, `variant`, `force`, moves in
//! coordinates (`e2e4`, `e7e8q`, drops `P@e4`), `setboard` for a start
//! that is not the variant's own, `holding [WHITE] [black]` before every
//! search in the drop variants (an XBoard Bughouse engine such as Sjeng
//! learns its pieces in hand only that way), the clock as `level`, `time`
//! and `otim` (centiseconds), `st` and `sd`, then `go`; the answer is
//! `move X`. Any line sent while it thinks makes it move now (`?`).
//!
//! Messages for the partner (`tellics ptell TEXT` or `ptell TEXT`) come
//! back as `info string ptell TEXT` lines would from a UCI engine, and a
//! partner's message goes to the engine as `ptell TEXT`, as a FICS
//! interface passes it on.
//!
//! The engine keeps its own game: the client remembers what it has sent and
//! sends only the moves since; a position given as a FEN alone is reached
//! by one move from the last one when it can be, else the game is set up
//! again (`new`, `setboard`).

use super::client::{EngineInfo, GoResult, Poll, UciError, split_command, start_process};
use crate::engine::variant::{ForVariant, dispatch};
use crate::engine::{Board, Score, Variant};
use crate::variant::VariantKind;
use shakmaty::{Color, Role};
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// The prefix that marks an engine command as an XBoard engine's.
pub const XBOARD_PREFIX: &str = "xboard:";

/// An engine command as given on the command line or in a game file: a UCI
/// program (the default, or `uci:CMD`), or an XBoard one (`xboard:CMD`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineCommand {
    Uci(Vec<String>),
    Xboard(Vec<String>),
}

impl EngineCommand {
    /// Reads `CMD`, `uci:CMD` or `xboard:CMD` (words split as
    /// [`split_command`] does).
    pub fn parse(text: &str) -> Result<EngineCommand, String> {
        EngineCommand::from_words(split_command(text))
    }

    /// The same from words already split: the prefix is on the first word
    /// (`xboard:/usr/games/sjeng`, or `xboard:` alone before the program).
    pub fn from_words(words: Vec<String>) -> Result<EngineCommand, String> {
        let Some(first) = words.first() else {
            return Err("the engine command is empty".to_string());
        };
        let prefixed = |prefix: &str| -> Option<Vec<String>> {
            let head = first.get(..prefix.len())?;
            if !head.eq_ignore_ascii_case(prefix) {
                return None;
            }
            let rest = &first[prefix.len()..];
            let mut program = Vec::new();
            if !rest.is_empty() {
                program.push(rest.to_string());
            }
            program.extend(words[1..].iter().cloned());
            Some(program)
        };
        for (prefix, xboard) in [(XBOARD_PREFIX, true), ("uci:", false)] {
            if let Some(program) = prefixed(prefix) {
                if program.is_empty() {
                    return Err(format!(
                        "'{prefix}' needs the engine's command after it (e.g. {prefix}/usr/games/sjeng)"
                    ));
                }
                return Ok(if xboard {
                    EngineCommand::Xboard(program)
                } else {
                    EngineCommand::Uci(program)
                });
            }
        }
        Ok(EngineCommand::Uci(words))
    }

    /// The program and its arguments.
    pub fn words(&self) -> &[String] {
        match self {
            EngineCommand::Uci(w) | EngineCommand::Xboard(w) => w,
        }
    }

    pub fn is_xboard(&self) -> bool {
        matches!(self, EngineCommand::Xboard(_))
    }
}

/// Does the command text name an XBoard engine (`xboard:CMD`)?
pub fn is_xboard_command(text: &str) -> bool {
    text.trim_start()
        .get(..XBOARD_PREFIX.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(XBOARD_PREFIX))
}

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
    fn read(&mut self, line: &str) -> (Vec<(String, String)>, Option<bool>) {
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

/// A position worked out from a start and moves, or a FEN.
#[derive(Clone, Debug)]
struct Snapshot {
    fen: String,
    white_to_move: bool,
    /// It is the variant's start position.
    is_start: bool,
    /// `holding [..] [..]` (the drop variants).
    holding: Option<String>,
}

/// A go command's parameters, as a UCI `go` would have them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct GoParams {
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: u64,
    binc: u64,
    movetime: Option<u64>,
    depth: Option<u32>,
    infinite: bool,
}

impl GoParams {
    fn parse(params: &str) -> GoParams {
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
            for (k, _) in pairs.iter().filter(|(k, _)| k != "done") {
                // Coordinates are what we send; everything else is fine.
                let answer = if k == "san" { "rejected" } else { "accepted" };
                client.send(&format!("{answer} {k}"))?;
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

    /// Like [`super::client::UciClient::go_polling`]: `params` as a UCI
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
        super::client::reap(&mut self.child);
    }
}

/// What one line of the engine's says during a search from `root` (a FEN
/// of `kind`): thinking lines get their moves in UCI form.
fn heard(kind: VariantKind, root: Option<&str>, line: &str) -> Heard {
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

impl Drop for XboardClient {
    fn drop(&mut self) {
        if super::client::waited(&mut self.child, false).is_none() {
            self.shutdown();
        }
    }
}

/// What a line of the engine's meant during a search.
enum Heard {
    Move(String),
    /// It resigned, or claimed the game over instead of moving.
    GaveUp,
    Info(EngineInfo),
    Illegal(String),
    Nothing,
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

/// The `holding` line for a board of `kind` given as a FEN (for news while
/// the engine thinks); `None` without pockets or for a bad FEN.
pub fn holding_line(kind: VariantKind, fen: &str) -> Option<String> {
    snapshot(kind, Some(fen), &[]).ok().and_then(|s| s.holding)
}

/// A partner's message for an XBoard engine.
pub fn ptell_line(text: &str) -> String {
    format!("ptell {}", text.trim())
}

fn ptell_info(text: &str) -> EngineInfo {
    EngineInfo {
        string: Some(format!("ptell {text}")),
        ..EngineInfo::default()
    }
}

/// A move as the engine wrote it, in Kibitz's UCI form (a drop's piece in
/// capitals).
fn normalize_move(m: &str) -> String {
    let m = m.trim_end_matches(['+', '#', '!', '?']);
    match m.as_bytes() {
        [p, b'@', ..] => format!("{}{}", (*p as char).to_ascii_uppercase(), &m[1..]),
        _ => m.to_string(),
    }
}

/// A thinking line: `depth score time(cs) nodes pv...` (the moves are
/// still as the engine wrote them).
fn thinking_line(l: &str) -> Option<EngineInfo> {
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

/// The placement of a FEN without its pockets and promotion marks, for
/// `setboard` (Sjeng reads the pieces in hand from `holding` only).
fn board_only(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(first) = fields.first_mut() {
        let mut placement = first.split('[').next().unwrap_or_default().replace('~', "");
        // The other pocket form: a ninth rank.
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() == 9 {
            placement = ranks[..8].join("/");
        }
        *first = placement;
    }
    fields.join(" ")
}

/// Two FENs have the same board, side to move, castling and en passant.
fn same_position(a: &str, b: &str) -> bool {
    let key = |f: &str| -> Vec<String> {
        board_only(f)
            .split_whitespace()
            .take(4)
            .map(str::to_string)
            .collect()
    };
    key(a) == key(b)
}

/// The position after `moves` from `start` in `kind`.
fn snapshot(kind: VariantKind, start: Option<&str>, moves: &[String]) -> Result<Snapshot, String> {
    struct Go<'a>(Option<&'a str>, &'a [String]);
    impl ForVariant for Go<'_> {
        type Out = Result<Snapshot, String>;
        fn run<V: Variant>(self) -> Self::Out {
            let mut b = match self.0 {
                Some(f) => Board::<V>::from_variant_fen(f).map_err(|e| format!("{f}: {e}"))?,
                None => Board::<V>::start_position(),
            };
            let is_start = self.1.is_empty() && b.fen() == Board::<V>::start_position().fen();
            for m in self.1 {
                let mv = b.parse_uci(m)?;
                b = b.play(mv);
            }
            Ok(Snapshot {
                fen: b.fen(),
                white_to_move: b.turn() == Color::White,
                is_start,
                holding: V::DROPS.then(|| holding(&b)),
            })
        }
    }
    dispatch(kind, Go(start, moves))
}

/// The FEN after the UCI move `m` from `fen`.
fn play_fen(kind: VariantKind, fen: &str, m: &str) -> Option<String> {
    struct Go<'a>(&'a str, &'a str);
    impl ForVariant for Go<'_> {
        type Out = Option<String>;
        fn run<V: Variant>(self) -> Self::Out {
            let b = Board::<V>::from_variant_fen(self.0).ok()?;
            let m = b.parse_uci(self.1).ok()?;
            Some(b.play(m).fen())
        }
    }
    dispatch(kind, Go(fen, m))
}

/// `holding [WHITE'S] [black's]`.
fn holding<V: Variant>(b: &Board<V>) -> String {
    let hand = |c: Color| -> String {
        let p = b.pocket(c);
        let mut s = String::new();
        for role in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for _ in 0..p[role] {
                s.push(role.of(c).char());
            }
        }
        s
    };
    format!("holding [{}] [{}]", hand(Color::White), hand(Color::Black))
}

/// The one legal move from `before` to `after` (their boards, ignoring the
/// pieces in hand, which the partner may have changed; a drop is looked
/// for whatever the hand holds).
fn step(kind: VariantKind, before: &str, after: &str) -> Option<String> {
    struct Go<'a>(&'a str, &'a str);
    impl ForVariant for Go<'_> {
        type Out = Option<String>;
        fn run<V: Variant>(self) -> Self::Out {
            let b = Board::<V>::from_variant_fen(self.0).ok()?;
            let a = Board::<V>::from_variant_fen(self.1).ok()?;
            if V::DROPS && a.turn() != b.turn() {
                // A drop: one more piece of the mover's, nothing else moved.
                let (before, after) = (b.board(), a.board());
                let added = after.occupied() & !before.occupied();
                if added.count() == 1
                    && (before.occupied() & !after.occupied()).is_empty()
                    && let Some(sq) = added.first()
                    && let Some(piece) = after.piece_at(sq)
                    && piece.color == b.turn()
                    && before
                        .occupied()
                        .into_iter()
                        .all(|s| before.piece_at(s) == after.piece_at(s))
                {
                    return Some(format!("{}@{}", piece.role.upper_char(), sq));
                }
            }
            let mut found = b
                .legal_moves()
                .into_iter()
                .filter(|&m| same_position(&b.play(m).fen(), self.1));
            let m = found.next()?;
            // Two moves to the same position: not ours to guess.
            found.next().is_none().then(|| Board::uci(m))
        }
    }
    dispatch(kind, Go(before, after))
}

/// A line of moves in the engine's notation (coordinates or SAN; Sjeng
/// marks moves from its hash table `<Nf3>`) as UCI moves from `fen`, cut
/// at the first one that does not read.
fn line_to_uci(kind: VariantKind, fen: &str, moves: &[String]) -> Vec<String> {
    struct Go<'a>(&'a str, &'a [String]);
    impl ForVariant for Go<'_> {
        type Out = Vec<String>;
        fn run<V: Variant>(self) -> Self::Out {
            let Ok(mut b) = Board::<V>::from_variant_fen(self.0) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            for raw in self.1 {
                let word = raw.trim_matches(['<', '>', '!', '?']);
                let word = word.trim_end_matches(['+', '#']);
                let mv = b.parse_uci(&normalize_move(word)).ok().or_else(|| {
                    shakmaty::san::San::from_ascii(word.as_bytes())
                        .ok()
                        .and_then(|san| san.to_move(b.pos()).ok())
                });
                let Some(mv) = mv else { break };
                out.push(Board::uci(mv));
                b = b.play(mv);
            }
            out
        }
    }
    dispatch(kind, Go(fen, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_commands() {
        assert_eq!(
            EngineCommand::parse("xboard:/usr/games/sjeng").unwrap(),
            EngineCommand::Xboard(vec!["/usr/games/sjeng".into()])
        );
        assert_eq!(
            EngineCommand::parse("xboard: fairy-stockfish --x").unwrap(),
            EngineCommand::Xboard(vec!["fairy-stockfish".into(), "--x".into()])
        );
        assert_eq!(
            EngineCommand::parse("stockfish").unwrap(),
            EngineCommand::Uci(vec!["stockfish".into()])
        );
        assert_eq!(
            EngineCommand::parse("uci:stockfish").unwrap(),
            EngineCommand::Uci(vec!["stockfish".into()])
        );
        let e = EngineCommand::parse("xboard:").unwrap_err();
        assert!(e.contains("needs the engine's command"), "{e}");
        assert!(EngineCommand::parse("  ").is_err());
        assert!(is_xboard_command(" XBoard:sjeng"));
        assert!(!is_xboard_command("sjeng"));
    }

    #[test]
    fn features_are_read() {
        let mut f = Features::default();
        let (_, done) = f.read("feature ping=1 setboard=1 playother=0 san=0 usermove=0 time=1");
        assert_eq!(done, None);
        assert!(f.ping && f.setboard && !f.usermove);
        f.read("feature myname=\"Sjeng 11.2\"");
        f.read("feature variants=\"normal,bughouse,crazyhouse,suicide\"");
        let (_, done) = f.read("feature colors=1 ics=0 name=0 pause=0 done=1");
        assert_eq!(done, Some(true));
        assert_eq!(f.myname.as_deref(), Some("Sjeng 11.2"));
        assert!(f.variants.unwrap().contains(&"bughouse".to_string()));
    }

    #[test]
    fn lines_are_understood() {
        assert_eq!(
            partner_text("tellics ptell Ok, Knight is good"),
            Some("Ok, Knight is good")
        );
        assert_eq!(partner_text("ptell ---p"), Some("---p"));
        assert_eq!(partner_text("tellics whisper hi"), None);
        assert_eq!(normalize_move("p@e4"), "P@e4");
        assert_eq!(normalize_move("e7e8q"), "e7e8q");
        let i = thinking_line(" 5     -61    74   329321  B@a3 !").unwrap();
        assert_eq!(i.depth, Some(5));
        assert_eq!(i.score, Some(Score(-61)));
        assert_eq!(i.time_ms, Some(740));
        assert_eq!(i.nodes, Some(329321));
        assert!(thinking_line("Time for move : 650").is_none());
        let m = thinking_line("9 999997 10 100 Qxf7").unwrap();
        assert_eq!(m.score, Some(Score::mate_in(3)));
        assert_eq!(
            GoParams::parse("wtime 60000 btime 50000 winc 2000 binc 2000 depth 9"),
            GoParams {
                wtime: Some(60000),
                btime: Some(50000),
                winc: 2000,
                binc: 2000,
                depth: Some(9),
                ..GoParams::default()
            }
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fake_engine_plays_and_talks() {
        use super::fake::fake_xboard;
        let (command, log) = fake_xboard("client", "");
        let cmd = EngineCommand::parse(&command).unwrap();
        let mut c = XboardClient::spawn(cmd.words(), Duration::from_secs(10)).unwrap();
        assert_eq!(c.name, "FakeX");
        c.set_option("UCI_Variant", "crazyhouse").unwrap();
        c.new_game(Duration::from_secs(10)).unwrap();
        c.position(None, &[]).unwrap();
        let mut said = Vec::new();
        let r = c
            .go_polling(
                "wtime 60000 btime 50000 winc 0 binc 0",
                Duration::from_secs(10),
                Poll::default,
                |i| said.push(i.clone()),
            )
            .unwrap();
        assert_eq!(r.bestmove, "e2e4");
        assert_eq!(r.infos[0].pv, ["e2e4"]);
        assert_eq!(said[1].string.as_deref(), Some("ptell need n"));
        c.position(None, &["e2e4".into(), "e7e5".into()]).unwrap();
        let r = c
            .go_polling(
                "movetime 100",
                Duration::from_secs(10),
                Poll::default,
                |_| {},
            )
            .unwrap();
        assert_eq!(r.bestmove, "P@d4");
        c.quit();
        let heard = std::fs::read_to_string(&log).unwrap();
        let _ = std::fs::remove_dir_all(log.parent().unwrap());
        let want = "xboard\nprotover 2\naccepted ping\naccepted setboard\naccepted usermove\n\
            accepted myname\naccepted variants\nnew\nvariant crazyhouse\nforce\neasy\npost\nping 1\n\
            holding [] []\nlevel 0 1:00 0\ntime 6000\notim 5000\ngo\nforce\n\
            usermove e7e5\nholding [] []\nst 1\ngo\n";
        assert!(heard.starts_with(want), "{heard}");
    }

    /// Sjeng itself, when it is installed: a crazyhouse move in a second.
    #[test]
    fn sjeng_plays_a_crazyhouse_move() {
        let sjeng = "/usr/games/sjeng";
        if !std::path::Path::new(sjeng).exists() {
            eprintln!("skipped: {sjeng} is not installed");
            return;
        }
        // Sjeng writes its learning files in its working folder.
        let mut c = XboardClient::spawn(&[sjeng.to_string()], Duration::from_secs(10)).unwrap();
        assert!(c.name.starts_with("Sjeng"), "{}", c.name);
        c.set_option("UCI_Variant", "crazyhouse").unwrap();
        c.new_game(Duration::from_secs(10)).unwrap();
        // Black's queen is attacked and it holds a pawn: any legal move.
        let fen = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR[Pp] b KQkq - 1 3";
        c.position(Some(fen), &[]).unwrap();
        let r = c
            .go_polling(
                "movetime 300",
                Duration::from_secs(10),
                Poll::default,
                |_| {},
            )
            .unwrap();
        let b = Board::<crate::engine::Zh>::from_variant_fen(fen).unwrap();
        assert!(b.parse_uci(&r.bestmove).is_ok(), "{}", r.bestmove);
        c.quit();
    }

    #[test]
    fn positions_holdings_and_steps() {
        let zh = VariantKind::Crazyhouse;
        let s = snapshot(zh, None, &["e2e4".into(), "d7d5".into(), "e4d5".into()]).unwrap();
        assert_eq!(s.holding.as_deref(), Some("holding [P] []"));
        assert!(!s.white_to_move);
        assert!(snapshot(zh, None, &[]).unwrap().is_start);
        assert!(snapshot(zh, None, &["e2e5".into()]).is_err());
        // A drop found from the boards alone, whatever the hands.
        let before = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR[Pp] b KQkq - 1 3";
        let after = "rnb1kbnr/ppp1pppp/8/3qp3/8/2N5/PPPP1PPP/R1BQKBNR[P] w KQkq - 0 4";
        assert_eq!(step(zh, before, after).as_deref(), Some("P@e5"));
        let after = "rnb1kbnr/ppp1pppp/8/8/8/2N5/qPPP1PPP/R1BQKBNR[Ppp] w KQkq - 0 4";
        assert_eq!(step(zh, before, after).as_deref(), Some("d5a2"));
        assert_eq!(step(zh, before, before), None);
        assert_eq!(
            board_only("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQ~KBNR[Pn] b KQkq - 0 2"),
            "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
        );
        // Sjeng's SAN line, hash moves in angle brackets.
        let start = snapshot(zh, None, &[]).unwrap().fen;
        assert_eq!(
            line_to_uci(zh, &start, &["e4".into(), "<Nf6>".into(), "zz".into()]),
            ["e2e4", "g8f6"]
        );
    }
}

/// A fake XBoard engine for tests.
#[cfg(all(test, unix))]
pub(crate) mod fake {
    /// An XBoard engine in a shell script: it logs every line it hears,
    /// answers `ping`, repeats a partner's message back (`tellics ptell
    /// heard ...`), and at `go` sends a thinking line and a message for its
    /// partner, then plays `e2e4` the first time and the drop `p@d4` after
    /// (`die` as `mode`: it quits at `go` instead). Returns its command line
    /// (with the `xboard:` prefix) and its log.
    pub(crate) fn fake_xboard(name: &str, mode: &str) -> (String, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("kibitz-fakex-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("engine.sh");
        let log = dir.join("log");
        std::fs::write(
            &script,
            r#"log="$1"; mode="$2"; gos=0
: > "$log"
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$log"
  case "$line" in
    "protover 2")
      echo 'feature ping=1 setboard=1 usermove=1 myname="FakeX"'
      echo 'feature variants="normal,crazyhouse,bughouse" done=1' ;;
    ping*) echo "pong ${line#ping }" ;;
    "ptell "*) echo "tellics ptell heard ${line#ptell }" ;;
    go)
      [ "$mode" = die ] && exit 3
      gos=$((gos + 1))
      echo " 1     12      0      5  e4"
      echo "tellics ptell need n"
      if [ $gos = 1 ]; then echo "move e2e4"; else echo "move p@d4"; fi ;;
    quit) exit 0 ;;
  esac
done
"#,
        )
        .unwrap();
        let command = format!("xboard:sh {} {} {mode}", script.display(), log.display());
        (command, log)
    }
}
