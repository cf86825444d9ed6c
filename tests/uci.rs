//! UCI sessions with the `kibitz uci` binary, driven over stdin/stdout.
//! Every read has a timeout: a hung engine fails the test, it never blocks it.

mod common;

use common::is_legal_uci;
use kibitz::engine::GamePosition;
use shakmaty::Chess;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

/// A running `kibitz uci` process.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Everything sent and received, for failure messages.
    log: Vec<String>,
}

impl Session {
    /// An engine that finds none of our own tablebases (whatever the data
    /// directory of this machine holds).
    fn start() -> Session {
        Session::start_with_tables(Path::new("/nonexistent/kibitz-tablebases"))
    }

    /// An engine whose own tablebases are those of `dir`.
    fn start_with_tables(dir: &Path) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
            .arg("uci")
            .env("KIBITZ_TB_DIR", dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start kibitz uci");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            rx,
            log: Vec::new(),
        }
    }

    fn send(&mut self, cmd: &str) {
        self.log.push(format!("> {cmd}"));
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        writeln!(stdin, "{cmd}")
            .and_then(|_| stdin.flush())
            .unwrap_or_else(|e| panic!("cannot send {cmd:?}: {e}\n{}", self.transcript()));
    }

    fn transcript(&self) -> String {
        let n = self.log.len();
        self.log[n.saturating_sub(60)..].join("\n")
    }

    /// The next line, or `None` when nothing arrives within `timeout`.
    fn try_line(&mut self, timeout: Duration) -> Option<String> {
        match self.rx.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("engine closed its output\n{}", self.transcript())
            }
        }
    }

    /// Reads lines until one satisfies `pred`; returns all lines read, the
    /// matching one last. Panics after `timeout`.
    fn until(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.try_line(left) {
                Some(l) => {
                    let done = pred(&l);
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                None => panic!(
                    "timed out after {timeout:?} waiting for a line\n{}",
                    self.transcript()
                ),
            }
        }
    }

    fn until_prefix(&mut self, prefix: &str) -> Vec<String> {
        self.until(TIMEOUT, |l| l.starts_with(prefix))
    }

    /// Sends `isready` and returns the lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(TIMEOUT, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a command that must be answered with an `info string error`.
    fn expect_error(&mut self, cmd: &str) -> String {
        self.send(cmd);
        self.send("isready");
        let lines = self.until(TIMEOUT, |l| l == "readyok");
        lines
            .iter()
            .find(|l| l.starts_with("info string error"))
            .cloned()
            .unwrap_or_else(|| panic!("no 'info string error' for {cmd:?}\n{}", self.transcript()))
    }

    /// Waits for `bestmove` and returns (info lines, the move).
    fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let mut lines = self.until(timeout, |l| l.starts_with("bestmove"));
        let last = lines.pop().unwrap_or_default();
        let mv = last.split_whitespace().nth(1).unwrap_or("").to_string();
        (lines, mv)
    }

    fn close_stdin(&mut self) {
        self.log.push("> <EOF>".into());
        self.stdin = None;
    }

    /// Waits for the process to exit.
    fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return None,
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.wait_exit(Duration::from_secs(5));
        assert!(
            status.is_some_and(|s| s.success()),
            "quit: exit status {status:?}\n{}",
            self.transcript()
        );
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Never leave an engine behind when a test fails.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn position_after(fen: Option<&str>, moves: &[&str]) -> Chess {
    GamePosition::from_uci(fen, moves)
        .expect("test position")
        .current()
        .chess()
        .clone()
}

/// The value following `key` in an info line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut it = line.split_whitespace();
    while let Some(t) = it.next() {
        if t == key {
            return it.next();
        }
    }
    None
}

#[test]
fn handshake_lists_options() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until(TIMEOUT, |l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("id name ") && l.len() > 8),
        "no id name\n{}",
        s.transcript()
    );
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "OwnBook",
        "BookFile",
        "Eval",
        "EvalFile",
        "Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "OwnTablebases",
        "SyzygyPath",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "option {name} missing\n{}",
            s.transcript()
        );
    }
    assert_eq!(s.sync(), Vec::<String>::new(), "isready -> readyok only");
    s.quit();
}

#[test]
fn depth_search_reports_info_and_legal_bestmove() {
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    s.send("ucinewgame");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go depth 6");
    let (info, mv) = s.bestmove(Duration::from_secs(60));
    let pos = position_after(None, &["e2e4", "e7e5"]);
    assert!(is_legal_uci(&pos, &mv), "bestmove {mv} is illegal");
    let depth_lines: Vec<&String> = info
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
        .collect();
    assert!(!depth_lines.is_empty(), "no info lines\n{}", s.transcript());
    for l in &depth_lines {
        for key in ["score", "nodes", "nps", "time", "pv"] {
            assert!(field(l, key).is_some(), "'{key}' missing in {l}");
        }
        let score = field(l, "score").unwrap();
        assert!(score == "cp" || score == "mate", "bad score in {l}");
        assert!(field(l, "nodes").unwrap().parse::<u64>().is_ok(), "{l}");
        assert!(field(l, "nps").unwrap().parse::<u64>().is_ok(), "{l}");
        assert!(field(l, "time").unwrap().parse::<u64>().is_ok(), "{l}");
        // The PV is a legal line from the position.
        let pv: Vec<&str> = l.split(" pv ").nth(1).unwrap().split_whitespace().collect();
        let mut all = vec!["e2e4", "e7e5"];
        all.extend(&pv);
        assert!(
            GamePosition::from_uci(None, &all).is_ok(),
            "illegal PV in {l}"
        );
    }
    let depths: Vec<u32> = depth_lines
        .iter()
        .filter_map(|l| field(l, "depth")?.parse().ok())
        .collect();
    assert_eq!(depths.last(), Some(&6), "last iteration should be depth 6");
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    // The final PV starts with the best move.
    let last = depth_lines.last().unwrap();
    assert_eq!(
        last.split(" pv ").nth(1).unwrap().split_whitespace().next(),
        Some(mv.as_str())
    );
    s.quit();
}

#[test]
fn uci_elo_limits_the_strength() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until_prefix("uciok");
    let elo = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Elo "))
        .cloned()
        .unwrap_or_default();
    let (min, max): (u32, u32) = (
        field(&elo, "min").and_then(|v| v.parse().ok()).unwrap_or(0),
        field(&elo, "max").and_then(|v| v.parse().ok()).unwrap_or(0),
    );
    assert!(min <= 1400 && max >= 2500, "{elo}");
    let err = s.expect_error(&format!("setoption name UCI_Elo value {}", min - 1));
    assert!(err.contains("between"), "{err}");
    // The Elo waits for UCI_LimitStrength.
    s.send("setoption name UCI_Elo value 1700");
    assert_eq!(s.sync(), Vec::<String>::new());
    s.send("setoption name UCI_LimitStrength value true");
    let said = s.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string playing at") && l.contains("level 5 to level 6")),
        "{said:?}"
    );
    // Between level 5 (depth 4) and level 6 (depth 7): a capped depth and
    // the few lines a level chooses among.
    s.send("position startpos moves e2e4");
    s.send("go depth 20");
    let (info, mv) = s.bestmove(TIMEOUT);
    assert!(is_legal_uci(&position_after(None, &["e2e4"]), &mv));
    let deepest = info
        .iter()
        .filter_map(|l| field(l, "depth")?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    assert!(
        (4..=7).contains(&deepest),
        "depth {deepest}\n{}",
        s.transcript()
    );
    assert!(
        info.iter().any(|l| field(l, "multipv") == Some("2")),
        "{}",
        s.transcript()
    );
    // Off again: full strength, the depth asked for.
    s.send("setoption name UCI_LimitStrength value false");
    let said = s.sync();
    assert!(
        said.iter()
            .any(|l| l == "info string playing at full strength"),
        "{said:?}"
    );
    s.send("go depth 9");
    let (info, _) = s.bestmove(TIMEOUT);
    assert!(info.iter().any(|l| field(l, "depth") == Some("9")));
    s.quit();
}

#[test]
fn threads_option_searches_with_helpers() {
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    let err = s.expect_error("setoption name Threads value 0");
    assert!(err.contains("between 1 and"), "{err}");
    s.send("setoption name Threads value 2");
    assert_eq!(s.sync(), Vec::<String>::new(), "Threads 2 is accepted");
    s.send("position startpos moves d2d4");
    s.send("go depth 9");
    let (info, mv) = s.bestmove(Duration::from_secs(60));
    let pos = position_after(None, &["d2d4"]);
    assert!(is_legal_uci(&pos, &mv), "bestmove {mv} is illegal");
    assert!(
        info.iter().any(|l| field(l, "depth") == Some("9")),
        "no depth 9 line\n{}",
        s.transcript()
    );
    s.quit();
}

#[test]
fn movetime_is_respected() {
    let mut s = Session::start();
    s.send("position startpos");
    s.sync();
    let t = Instant::now();
    s.send("go movetime 200");
    let (_, mv) = s.bestmove(Duration::from_secs(10));
    let el = t.elapsed();
    eprintln!("go movetime 200 answered in {el:?}");
    assert!(is_legal_uci(&Chess::default(), &mv), "bestmove {mv}");
    assert!(el < Duration::from_secs(2), "movetime 200 took {el:?}");
    assert!(
        el >= Duration::from_millis(40),
        "movetime 200 answered suspiciously fast ({el:?})"
    );
    s.quit();
}

#[test]
fn clock_search_answers_inside_the_clock() {
    let mut s = Session::start();
    s.send("position startpos moves d2d4");
    s.sync();
    let t = Instant::now();
    s.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let (_, mv) = s.bestmove(Duration::from_secs(10));
    let el = t.elapsed();
    eprintln!("go wtime 1000 btime 1000 answered in {el:?}");
    assert!(is_legal_uci(&position_after(None, &["d2d4"]), &mv), "{mv}");
    assert!(
        el < Duration::from_millis(500),
        "used {el:?} of a 1 s clock"
    );
    s.quit();
}

#[test]
fn infinite_search_stops_on_stop() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    s.sync();
    s.send("go infinite");
    // Nothing may say bestmove before stop, even after the search has gone
    // deep enough to have nothing to do.
    let until = Instant::now() + Duration::from_millis(700);
    while let Some(l) = s.try_line(until.saturating_duration_since(Instant::now())) {
        assert!(
            !l.starts_with("bestmove"),
            "bestmove before stop\n{}",
            s.transcript()
        );
    }
    let t = Instant::now();
    s.send("stop");
    let (_, mv) = s.bestmove(Duration::from_secs(10));
    let latency = t.elapsed();
    eprintln!("stop -> bestmove latency: {latency:?} (spec: 50 ms)");
    assert!(is_legal_uci(&position_after(None, &["e2e4"]), &mv), "{mv}");
    assert!(
        latency < Duration::from_millis(500),
        "stop took {latency:?}"
    );
    // The session goes on normally.
    s.send("go depth 3");
    let (_, mv) = s.bestmove(Duration::from_secs(20));
    assert!(is_legal_uci(&position_after(None, &["e2e4"]), &mv), "{mv}");
    s.quit();
}

#[test]
fn infinite_search_of_a_mate_waits_for_stop() {
    // Mate in 1: the search is over at once, but bestmove must still wait.
    let mut s = Session::start();
    s.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    s.send("go infinite");
    let until = Instant::now() + Duration::from_millis(300);
    while let Some(l) = s.try_line(until.saturating_duration_since(Instant::now())) {
        assert!(!l.starts_with("bestmove"), "bestmove before stop");
    }
    s.send("stop");
    let (_, mv) = s.bestmove(Duration::from_secs(5));
    assert_eq!(mv, "d1d8");
    s.quit();
}

#[test]
fn malformed_input_is_answered_not_fatal() {
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    s.send("position startpos moves e2e4");
    s.sync();
    let e4_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

    s.expect_error("frobnicate the engine");
    s.expect_error("position fen garbage");
    s.expect_error("position");
    s.expect_error("position startpos moves e2e5");
    s.expect_error("position startpos moves e2e4 e7e5 g1g1");
    s.expect_error("go depth x");
    s.expect_error("go depth");
    s.expect_error("go sideways 3");
    s.expect_error("setoption name Hash value abc");
    s.expect_error("setoption name Hash value 0");
    s.expect_error("setoption name MultiPV value -3");
    s.expect_error("setoption name NoSuchOption value 1");
    s.expect_error("setoption name Eval value quantum");
    s.expect_error("setoption name OwnBook value maybe");
    s.expect_error("setoption Hash 16");

    // Empty and blank lines are ignored silently (the UCI way).
    s.send("");
    s.send("   ");
    s.send("\t");
    let before = s.sync();
    assert!(before.is_empty(), "blank lines produced output: {before:?}");

    // Every rejected `position` kept the last good one.
    s.send("d");
    let lines = s.until_prefix("Fen:");
    let fen = lines.last().unwrap().trim_start_matches("Fen:").trim();
    assert_eq!(fen, e4_fen, "position changed by rejected commands");

    // Still alive and searching.
    s.send("go depth 4");
    let (_, mv) = s.bestmove(Duration::from_secs(20));
    assert!(is_legal_uci(&position_after(None, &["e2e4"]), &mv), "{mv}");
    assert!(s.sync().iter().all(|l| !l.starts_with("bestmove")));
    s.quit();
}

#[test]
fn go_while_searching_is_rejected() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.send("go depth 2");
    let lines = s.until_prefix("info string error");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
    s.send("setoption name Hash value 8");
    s.until_prefix("info string error");
    s.send("stop");
    let (_, mv) = s.bestmove(Duration::from_secs(5));
    assert!(is_legal_uci(&Chess::default(), &mv));
    // Exactly one bestmove for the one search.
    let extra = s.sync();
    assert!(
        extra.iter().all(|l| !l.starts_with("bestmove")),
        "second bestmove: {extra:?}"
    );
    s.quit();
}

#[test]
fn multipv_reports_three_lines() {
    let mut s = Session::start();
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    s.send("go depth 5");
    let (info, mv) = s.bestmove(Duration::from_secs(60));
    assert!(is_legal_uci(&Chess::default(), &mv));
    let at5: Vec<&String> = info
        .iter()
        .filter(|l| field(l, "depth") == Some("5") && l.contains(" pv "))
        .collect();
    for k in ["1", "2", "3"] {
        assert!(
            at5.iter().any(|l| field(l, "multipv") == Some(k)),
            "no multipv {k} at depth 5\n{}",
            s.transcript()
        );
    }
    assert!(!info.iter().any(|l| field(l, "multipv") == Some("4")));
    // Three different first moves, and the bestmove is line 1's.
    let firsts: Vec<&str> = at5
        .iter()
        .filter_map(|l| l.split(" pv ").nth(1)?.split_whitespace().next())
        .collect();
    let mut distinct = firsts.clone();
    distinct.sort();
    distinct.dedup();
    assert!(
        distinct.len() >= 3,
        "multipv lines not distinct: {firsts:?}"
    );
    let line1 = at5
        .iter()
        .rev()
        .find(|l| field(l, "multipv") == Some("1"))
        .unwrap();
    assert_eq!(
        line1
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next(),
        Some(mv.as_str())
    );
    s.quit();
}

#[test]
fn simple_eval_and_diagnostic_commands() {
    let mut s = Session::start();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    s.send(&format!("position fen {fen}"));
    s.send("d");
    let lines = s.until_prefix("Fen:");
    assert_eq!(lines.last().unwrap().trim_start_matches("Fen:").trim(), fen);
    assert!(
        lines.iter().any(|l| l.contains("+---+")),
        "no board diagram: {lines:?}"
    );

    // The default: the full evaluation's table, then the network's
    // correction and the total the engine uses.
    s.send("eval");
    let full = s.until(TIMEOUT, |l| l.starts_with("network:"));
    assert!(full.iter().any(|l| l.contains("full")), "{full:?}");
    s.send("setoption name Eval value full");
    s.send("eval");
    let full = s.until(TIMEOUT, |l| l.starts_with("total (side to move)"));
    assert!(full.iter().any(|l| l.contains("full")), "{full:?}");
    assert!(s.sync().is_empty(), "no network line with Eval full");

    s.send("setoption name Eval value simple");
    let out = s.sync();
    assert!(out.is_empty(), "setoption Eval simple: {out:?}");
    s.send("eval");
    let simple = s.until(TIMEOUT, |l| l.starts_with("total (side to move)"));
    assert!(
        simple.iter().any(|l| l.contains("simple")),
        "eval does not say it is the simple evaluation: {simple:?}"
    );
    // A number at the end of the total line.
    let total = simple.last().unwrap();
    assert!(
        total.rsplit(':').next().is_some_and(|v| v
            .trim()
            .trim_start_matches('+')
            .parse::<i32>()
            .is_ok()),
        "{total}"
    );

    s.send("go depth 5");
    let (_, mv) = s.bestmove(Duration::from_secs(30));
    let pos = kibitz::engine::Board::from_fen(fen).unwrap().into_chess();
    assert!(is_legal_uci(&pos, &mv), "{mv}");

    // The network: a file of our own whose only weights say "a white
    // queen on d1 is worth more", so its correction shows.
    use kibitz::engine::eval::nnue::{HIDDEN, Network};
    let dir = std::env::temp_dir().join(format!("kibitz-uci-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut net = Network::zero(true);
    net.ft_weights[4 * 64 + 3] = [200; HIDDEN]; // own queen on d1
    net.out_weights[..HIDDEN].fill(60);
    let path = dir.join("test.nnue");
    std::fs::write(&path, net.to_bytes()).unwrap();
    std::fs::write(dir.join("bad.nnue"), b"this is not a network file").unwrap();
    s.send("setoption name Eval value nnue");
    s.send(&format!("setoption name EvalFile value {}", path.display()));
    assert_eq!(s.sync(), Vec::<String>::new(), "setoption Eval/EvalFile");
    s.send("position startpos");
    s.send("eval");
    let out = s.until(TIMEOUT, |l| l.starts_with("network:"));
    let net_line = out.last().unwrap();
    let value = |l: &str, key: &str| -> i32 {
        let v = l.split(key).nth(1).unwrap_or("");
        v.trim()
            .trim_start_matches('+')
            .split(|c: char| !c.is_ascii_digit() && c != '-')
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no number after {key} in {l}"))
    };
    assert!(value(net_line, "network:") > 50, "{net_line}");
    s.send(&format!(
        "setoption name EvalFile value {}",
        dir.join("bad.nnue").display()
    ));
    let err = s.sync();
    assert!(
        err.iter()
            .any(|l| l.contains("bad.nnue") && l.contains("not a Kibitz network")),
        "{err:?}"
    );
    s.expect_error("setoption name EvalFile value /no/such/file.nnue");
    // The good network is still the one in use, and it plays.
    s.send("eval");
    let again = s.until(TIMEOUT, |l| l.starts_with("network:"));
    assert_eq!(again.last(), Some(net_line));
    s.send("go depth 5");
    let (_, mv) = s.bestmove(Duration::from_secs(30));
    assert!(is_legal_uci(&Chess::default(), &mv), "{mv}");
    let _ = std::fs::remove_dir_all(&dir);
    s.quit();
}

#[test]
fn go_mate_finds_mate_in_two() {
    // WAC.001: 1.Qg6! (quiet) and mate next move; verified with Stockfish
    // and by exhaustive search.
    let mut s = Session::start();
    s.send("position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    s.send("go mate 2");
    let (info, mv) = s.bestmove(Duration::from_secs(60));
    let last = info
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .unwrap_or_else(|| panic!("no info\n{}", s.transcript()));
    assert!(last.contains("score mate 2 "), "expected mate 2: {last}");
    assert_eq!(mv, "g3g6");
    s.quit();
}

#[test]
fn go_mate_reports_mate_scores() {
    // WAC.004: 1.Qxh7+ Kxh7 2.hxg6# (Stockfish and exhaustive search
    // agree); then the defender's view of a mate against it.
    let mut s = Session::start();
    let fen = "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("go mate 2");
    let (info, mv) = s.bestmove(Duration::from_secs(60));
    let last = info
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .unwrap_or_else(|| panic!("no info\n{}", s.transcript()));
    assert!(last.contains("score mate 2 "), "expected mate 2: {last}");
    assert_eq!(mv, "h6h7");
    // After 1.Qxh7+ Black is mated in 1 whatever it does. (The pause avoids
    // the bestmove/`go` race that `go_right_after_bestmove_is_accepted`
    // tests on its own.)
    std::thread::sleep(Duration::from_millis(50));
    s.send(&format!("position fen {fen} moves h6h7"));
    s.send("go depth 4");
    let (info, mv) = s.bestmove(Duration::from_secs(60));
    let last = info
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .unwrap_or_else(|| panic!("no info\n{}", s.transcript()));
    assert!(last.contains("score mate -1 "), "expected mate -1: {last}");
    let pos = position_after(Some(fen), &["h6h7"]);
    assert!(is_legal_uci(&pos, &mv), "{mv}");
    s.quit();
}

#[test]
fn go_right_after_bestmove_is_accepted() {
    // Once `bestmove` is out the search is over: a GUI may send the next
    // `position` + `go` at once, and the engine must answer it. Many quick
    // searches back to back, each started the moment the last one answered.
    let mut s = Session::start();
    let fen = "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1";
    let mut rejected = 0;
    let rounds = 300;
    for i in 0..rounds {
        if i % 2 == 0 {
            s.send(&format!("position fen {fen}"));
        } else {
            s.send(&format!("position fen {fen} moves h6h7"));
        }
        s.send("go depth 1");
        let lines = s.until(TIMEOUT, |l| {
            l.starts_with("bestmove") || l.starts_with("info string error")
        });
        if lines
            .last()
            .is_some_and(|l| l.starts_with("info string error"))
        {
            rejected += 1;
            // Resynchronise: wait until the engine is idle again.
            std::thread::sleep(Duration::from_millis(20));
            s.sync();
        }
    }
    assert_eq!(
        rejected,
        0,
        "{rejected} of {rounds} 'go' commands sent right after 'bestmove' were \
         rejected (\"already searching\") and never answered\n{}",
        s.transcript()
    );
    s.quit();
}

#[test]
fn go_perft_counts() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go perft 3");
    let lines = s.until_prefix("nodes ");
    assert_eq!(lines.last().unwrap(), "nodes 8902");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 20);
    s.quit();
}

#[test]
fn quit_during_search_exits_cleanly() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.until_prefix("info depth");
    let t = Instant::now();
    s.send("quit");
    let status = s.wait_exit(Duration::from_secs(5));
    eprintln!("quit during search: exited after {:?}", t.elapsed());
    assert!(
        status.is_some_and(|st| st.success()),
        "exit status {status:?}\n{}",
        s.transcript()
    );
}

#[test]
fn eof_ends_the_session() {
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    s.close_stdin();
    let status = s.wait_exit(Duration::from_secs(5));
    assert!(status.is_some_and(|st| st.success()), "{status:?}");

    // Also while searching.
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.until_prefix("info depth");
    s.close_stdin();
    let status = s.wait_exit(Duration::from_secs(5));
    assert!(status.is_some_and(|st| st.success()), "{status:?}");
}

/// The last `info depth` line with a score.
fn last_info(info: &[String]) -> &str {
    info.iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .map_or("", String::as_str)
}

#[test]
fn own_tablebases_are_loaded_in_the_background() {
    let dir = std::env::temp_dir().join(format!("kibitz-uci-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut tb = kibitz::tablebase::Tablebases::new(&dir);
    tb.ensure(&"KQvK".parse().unwrap(), &mut |_| {}).unwrap();
    let fen = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
    let best = tb.best_moves(&common::board(fen)).unwrap();

    let mut s = Session::start_with_tables(&dir);
    s.send("uci");
    s.until_prefix("uciok");
    assert!(s.sync().is_empty(), "output before the first search");
    s.send(&format!("position fen {fen}"));
    // The first searches may come before the tables are loaded; once they
    // are, the engine says so (once) and plays the tables' move.
    let mut announced = 0;
    let give_up = Instant::now() + Duration::from_secs(60);
    let (info, mv) = loop {
        assert!(
            Instant::now() < give_up,
            "the tables were never loaded\n{}",
            s.transcript()
        );
        s.send("go depth 3");
        let (info, mv) = s.bestmove(TIMEOUT);
        announced += info
            .iter()
            .filter(|l| l.starts_with("info string own tablebases: 1 tables"))
            .count();
        if announced > 0 {
            break (info, mv);
        }
    };
    assert_eq!(announced, 1);
    let last = last_info(&info);
    // 19 plies: mate in 10 moves, on the tables' line.
    assert!(last.contains(" score mate 10 "), "{last}");
    assert!(field(last, "tbhits").is_some_and(|n| n != "0"), "{last}");
    let pv: Vec<&str> = last
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(pv.len(), 19, "{last}");
    assert_eq!(mv, kibitz::engine::Board::uci(best[0].0));
    assert_eq!(pv[0], mv);

    // Switched off: a plain search again (no mate seen at depth 3).
    s.send("setoption name OwnTablebases value false");
    s.send("go depth 3");
    let (info, _) = s.bestmove(TIMEOUT);
    let last = last_info(&info);
    assert!(last.contains(" score cp "), "{last}");
    assert_eq!(field(last, "tbhits"), Some("0"), "{last}");
    s.expect_error("setoption name OwnTablebases value perhaps");
    s.send("setoption name OwnTablebases value true");
    s.send("go depth 3");
    let (info, _) = s.bestmove(TIMEOUT);
    assert!(last_info(&info).contains(" score mate 10 "));
    assert!(
        !info.iter().any(|l| l.starts_with("info string own")),
        "announced twice"
    );
    s.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn syzygy_path_keeps_the_win() {
    let Some(data) = common::shared_data("Syzygy tables") else {
        return;
    };
    let dir = data.join("syzygy");
    if !dir.is_dir() {
        eprintln!("skipping: {} is missing", dir.display());
        return;
    }
    let syzygy = kibitz::tablebase::syzygy::SyzygyTables::open(dir.to_str().unwrap()).unwrap();
    let mut s = Session::start();
    s.send("setoption name OwnTablebases value false");
    s.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let out = s.sync();
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string Syzygy:") && l.contains("up to 4 pieces")),
        "{out:?}"
    );
    // KQvKR (White wins) and KRvKP-like races: every bestmove keeps the
    // win under the 50-move rule, as the tables' DTZ say.
    for fen in [
        "8/8/8/2k5/8/6r1/8/K6Q w - - 0 1",
        "8/8/8/8/8/2k5/1r6/K2Q4 w - - 40 80",
        "8/1k6/8/8/8/8/3K1p2/6R1 w - - 0 1",
    ] {
        s.send(&format!("position fen {fen}"));
        s.send("go depth 6");
        let (info, mv) = s.bestmove(Duration::from_secs(60));
        let pos = position_after(Some(fen), &[]);
        assert!(is_legal_uci(&pos, &mv), "{mv}");
        let m = mv
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let ranks = syzygy.rank_root_moves(&pos, &[]).unwrap();
        let best = ranks[0].wdl;
        assert_eq!(best, shakmaty_syzygy::Wdl::Win, "{fen}");
        let played = ranks.iter().find(|r| r.mv == m).unwrap();
        assert_eq!(played.wdl, best, "{fen}: {mv} gives the win away");
        let last = last_info(&info);
        assert!(field(last, "tbhits").is_some_and(|n| n != "0"), "{last}");
        // A tablebase win: no mate in sight, a score above any evaluation.
        let cp: i32 = field(last, "cp").map_or(i32::MAX, |v| v.parse().unwrap());
        assert!(last.contains(" score mate ") || cp > 20_000, "{last}");
    }
    s.quit();
}

#[test]
fn bad_syzygy_path_is_an_error_and_the_engine_goes_on() {
    let mut s = Session::start();
    let err = s.expect_error("setoption name SyzygyPath value /nonexistent/kibitz/syzygy");
    assert!(
        err.contains("SyzygyPath") && err.contains("/nonexistent/kibitz/syzygy"),
        "{err}"
    );
    s.send("position fen 8/8/8/2k5/8/6r1/8/K6Q w - - 0 1");
    s.send("go depth 4");
    let (info, mv) = s.bestmove(TIMEOUT);
    assert!(
        is_legal_uci(
            &position_after(Some("8/8/8/2k5/8/6r1/8/K6Q w - - 0 1"), &[]),
            &mv
        ),
        "{mv}"
    );
    assert_eq!(field(last_info(&info), "tbhits"), Some("0"));
    // Empty switches it off without a word.
    s.send("setoption name SyzygyPath value <empty>");
    assert!(s.sync().is_empty());
    s.quit();
}

// ---- Crazyhouse and Bughouse over UCI ----

use kibitz::engine::{Board, Bug, Zh};

/// The FEN line of `d`.
fn fen_of(s: &mut Session) -> String {
    s.send("d");
    let lines = s.until(TIMEOUT, |l| l.starts_with("Fen: "));
    lines
        .last()
        .map(|l| l.trim_start_matches("Fen: ").to_string())
        .unwrap_or_default()
}

#[test]
fn uci_variant_is_offered_and_checked() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until_prefix("uciok");
    assert!(
        lines.iter().any(|l| l
            == "option name UCI_Variant type combo default chess var chess var crazyhouse var bughouse"),
        "{}",
        s.transcript()
    );
    let e = s.expect_error("setoption name UCI_Variant value atomic");
    assert!(e.contains("chess, crazyhouse or bughouse"), "{e}");
    s.quit();
}

/// `position fen` in Crazyhouse and Bughouse reads the pocket in every
/// form other programs write: brackets, lichess' slash (`/Pn`, `/` for
/// empty hands), Fairy-Stockfish's slash and brackets (`/[Pn]`), and
/// promoted pieces marked `~`; a bad FEN is refused with the field named.
#[test]
fn position_fen_reads_every_pocket_form() {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    s.send("setoption name UCI_Variant value crazyhouse");
    s.send("ucinewgame");
    for form in [
        format!("{START}/[] b KQkq - 0 1"),
        format!("{START}/ b KQkq - 0 1"),
        format!("{START}[] b KQkq - 0 1"),
        format!("{START} b KQkq - 0 1"),
    ] {
        s.send(&format!("position fen {form}"));
        assert_eq!(
            fen_of(&mut s),
            format!("{START}[] b KQkq - 0 1"),
            "{form}\n{}",
            s.transcript()
        );
    }
    // The knight in hand mates, in each form.
    for form in [
        "6rk/6pp/8/8/8/8/5PPP/6K1/[N] w - - 0 1",
        "6rk/6pp/8/8/8/8/5PPP/6K1/N w - - 0 1",
    ] {
        s.send(&format!("position fen {form}"));
        assert_eq!(fen_of(&mut s), "6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1");
        s.send("go depth 4");
        let (_, mv) = s.bestmove(TIMEOUT);
        assert_eq!(mv, "N@f7", "{form}\n{}", s.transcript());
    }
    // A promoted queen: taken, it goes to the hand as a pawn.
    s.send("position fen 4k3/8/8/8/8/8/r7/Q~3K3/ b - - 0 1 moves a2a1");
    let fen = fen_of(&mut s);
    assert!(fen.contains("[p]"), "{fen}\n{}", s.transcript());
    // A bad field is named, and the position stays as it was.
    let e = s.expect_error(&format!("position fen {START}/[] x KQkq - 0 1"));
    assert!(e.contains("side to move") && e.contains("'x'"), "{e}");
    let e = s.expect_error(&format!("position fen {START}/[Z] w KQkq - 0 1"));
    assert!(e.contains("pocket") && e.contains("'Z'"), "{e}");
    assert_eq!(fen_of(&mut s), "4k3/8/8/8/8/8/8/r3K3[p] w - - 0 2");
    // Bughouse too (more material than one set is fine there).
    s.send("setoption name UCI_Variant value bughouse");
    s.send(&format!("position fen {START}/[QQ] w KQkq - 0 1"));
    assert_eq!(fen_of(&mut s), format!("{START}[QQ] w KQkq - 0 1"));
    s.quit();
}

#[test]
fn crazyhouse_session_with_drops() {
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    s.send("setoption name UCI_Variant value crazyhouse");
    s.send("ucinewgame");
    s.send("position startpos moves e2e4 d7d5 e4d5 d8d5");
    assert_eq!(
        fen_of(&mut s),
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
    );
    s.send("go depth 6");
    let (_, mv) = s.bestmove(TIMEOUT);
    let board = Board::<Zh>::from_variant_fen(
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3",
    )
    .unwrap();
    assert!(board.parse_uci(&mv).is_ok(), "illegal bestmove {mv}");
    // A drop in the moves (upper and lower case), then a mate by a drop.
    s.send("position startpos moves e2e4 d7d5 e4d5 d8d5 P@e4 d5e4");
    assert!(fen_of(&mut s).contains("[pp]"), "{}", s.transcript());
    s.send("position startpos moves e2e4 d7d5 e4d5 d8d5 p@e4 d5e4");
    assert!(fen_of(&mut s).contains("[pp]"), "{}", s.transcript());
    s.send("position fen 6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1");
    s.send("go depth 4");
    let (info, mv) = s.bestmove(TIMEOUT);
    assert_eq!(mv, "N@f7", "{}", s.transcript());
    assert!(
        last_info(&info).contains("score mate 1"),
        "{}",
        s.transcript()
    );
    s.send("position fen 2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1");
    s.send("go perft 2");
    let lines = s.until_prefix("nodes");
    assert_eq!(lines.last().map(String::as_str), Some("nodes 75353"));
    s.quit();
}

#[test]
fn bughouse_session() {
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    s.send("setoption name UCI_Variant value bughouse");
    // More material than one chess set: fine in bughouse.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNPqrbnp] w KQkq - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("go perft 2");
    let lines = s.until_prefix("nodes");
    assert_eq!(lines.last().map(String::as_str), Some("nodes 31181"));
    s.send("go depth 5");
    let (_, mv) = s.bestmove(TIMEOUT);
    let board = Board::<Bug>::from_variant_fen(fen).unwrap();
    assert!(board.parse_uci(&mv).is_ok(), "illegal bestmove {mv}");
    // Captures leave the board: no pawn enters White's hand.
    s.send("position startpos moves e2e4 d7d5 e4d5");
    assert!(fen_of(&mut s).contains("[]"), "{}", s.transcript());
    // No legal move but a blockable check: no move, and no mate score.
    s.send("position fen 3rrr1k/8/8/8/8/p7/P7/4K3[] w - - 0 1");
    s.send("go depth 3");
    let (info, mv) = s.bestmove(TIMEOUT);
    assert_eq!(mv, "0000");
    assert!(
        !info.iter().any(|l| l.contains("score mate")),
        "{}",
        s.transcript()
    );
    s.quit();
}

#[test]
fn malformed_drops_and_pockets_are_errors() {
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    s.send("setoption name UCI_Variant value crazyhouse");
    s.send("position startpos moves e2e4");
    let before = fen_of(&mut s);
    for (cmd, words) in [
        // Black has no pawn in hand.
        ("position startpos moves e2e4 P@e5", "P@e5"),
        ("position startpos moves e2e4 d7d5 e4d5 q@d4", "q@d4"),
        // Pawns never on the first or last rank.
        ("position startpos moves e2e4 d7d5 e4d5 d8d5 P@e8", "P@e8"),
        ("position startpos moves e2e4 Q@z9", "Q@z9"),
        ("position startpos moves e2e4 @", "@"),
        ("position fen 4k3/8/8/8/8/8/8/4K3[Kk] w - - 0 1", "king"),
        ("position fen 4k3/8/8/8/8/8/8/4K3[X] w - - 0 1", "pocket"),
        ("position fen 4k3/8/8/8/8/8/8/4K3[QQQ] w - - 0 1", "pieces"),
    ] {
        let e = s.expect_error(cmd);
        assert!(
            e.to_lowercase().contains(&words.to_lowercase()),
            "{cmd}: {e}"
        );
        assert_eq!(
            fen_of(&mut s),
            before,
            "a bad position changed the position"
        );
    }
    // Drops do not exist in standard chess.
    s.send("setoption name UCI_Variant value chess");
    let e = s.expect_error("position startpos moves e2e4 d7d5 e4d5 d8d5 P@e4");
    assert!(e.contains("P@e4"), "{e}");
    s.quit();
}

#[test]
fn bughouse_partner_commands_and_sitting() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until_prefix("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name BughousePartner"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name BughousePace"))
    );
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name BughousePartner value true");
    // Nothing in hand, but a knight would mate (N@f7#) and White leads on
    // the clock by 30 s: Kibitz asks its partner for a knight (`+++n`, FICS for "it mates") and sits.
    s.send("bughouse partner fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] b KQkq - 0 1");
    s.send("position fen 6rk/6pp/8/8/8/8/5PPP/6K1[] w - - 0 1");
    s.send("go wtime 60000 btime 30000");
    let lines = s.until(TIMEOUT, |l| l.starts_with("info string sitting"));
    assert!(
        lines.iter().any(|l| l == "info string ptell +++n"),
        "{}",
        s.transcript()
    );
    // The knight arrives: the search starts again and mates.
    s.send("bughouse update fen 6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1");
    let (_, mv) = s.bestmove(TIMEOUT);
    assert_eq!(mv, "N@f7", "{}", s.transcript());
    // Without partner awareness it does not wait for anything.
    s.send("setoption name BughousePartner value false");
    s.send("position fen 6rk/6pp/8/8/8/8/5PPP/6K1[] w - - 0 1");
    let t = Instant::now();
    s.send("go wtime 60000 btime 30000 depth 6");
    let (info, mv) = s.bestmove(TIMEOUT);
    assert!(mv != "0000" && !info.iter().any(|l| l.contains("ptell")));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    // Messages and bad commands.
    s.send("bughouse ptell need q");
    assert!(s.sync().iter().all(|l| !l.contains("error")));
    let e = s.expect_error("bughouse partner fen not a fen");
    assert!(e.contains("bughouse partner ignored"), "{e}");
    let e = s.expect_error("bughouse dance");
    assert!(e.contains("expected"), "{e}");
    let e = s.expect_error("setoption name BughousePace value slow");
    assert!(e.contains("instant or human"), "{e}");
    s.quit();
}

/// Any piece would mate White after its move (its king has no square):
/// Kibitz asks its partner to sit, unless the partner is behind on its
/// clock (issue 50: asked to sit with 19 s against 86 s), when it asks for
/// no trades instead.
#[test]
fn bughouse_never_asks_a_partner_behind_on_time_to_sit() {
    let exposed = "position fen 7k/8/8/8/b6P/7b/r7/4K3[] w - - 0 1";
    let partner = "bughouse partner fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] b KQkq - 0 1";
    // The partner plays Black on the other board: its clock is btime.
    for (clock, sit) in [
        ("bughouse partner clock wtime 19000 btime 86000", true),
        ("bughouse partner clock wtime 86000 btime 19000", false),
    ] {
        let mut s = Session::start();
        s.send("uci");
        s.until_prefix("uciok");
        s.send("setoption name UCI_Variant value bughouse");
        s.send("setoption name BughousePartner value true");
        s.send(partner);
        s.send(clock);
        s.send(exposed);
        s.send("go wtime 60000 btime 60000 depth 4");
        let (info, _) = s.bestmove(TIMEOUT);
        let ptells: Vec<&str> = info
            .iter()
            .filter_map(|l| l.strip_prefix("info string ptell "))
            .collect();
        if sit {
            assert_eq!(ptells, ["sit"], "{}", s.transcript());
        } else {
            assert_eq!(ptells, ["-trades"], "{}", s.transcript());
        }
        s.quit();
    }
    let mut s = Session::start();
    let e = s.expect_error("bughouse partner clock wtime 1 btime soon");
    assert!(e.contains("not milliseconds"), "{e}");
    s.quit();
}

#[test]
fn bughouse_human_pace_is_not_instant() {
    let mut s = Session::start();
    s.send("uci");
    s.until_prefix("uciok");
    s.send("setoption name UCI_Variant value bughouse");
    s.send("setoption name BughousePace value human");
    s.send("setoption name BughousePartner value false");
    s.send("position startpos");
    let t = Instant::now();
    s.send("go wtime 120000 btime 120000 depth 1");
    let (_, mv) = s.bestmove(TIMEOUT);
    assert!(mv != "0000");
    // Depth 1 takes a millisecond; a human takes its time (at least 0.7 s).
    assert!(
        t.elapsed() >= Duration::from_millis(700),
        "{:?}",
        t.elapsed()
    );
    s.quit();
}
