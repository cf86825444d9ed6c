//! The kill test's tools: a child started and killed, what it wrote,
//! its orphans, the tally of a mode's rounds.

use kibitz::engine::Board;
use kibitz::util::Rng;
use std::io::BufRead;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// What a mode's rounds found.
#[derive(Debug, Default)]
pub struct Tally {
    pub rounds: usize,
    /// Moves (a), games (b, d) or tables (c) shown or reported before the
    /// kill and not found afterwards.
    pub lost: usize,
    /// Files that do not read (or tables that are not valid).
    pub unparsable: usize,
    /// (a) rounds whose newest game was unfinished, and those of them
    /// where the resume offer named it.
    pub resume_expected: usize,
    pub resume_offered: usize,
    /// Temporary files left by the kill (never read as results).
    pub leftovers: usize,
    /// Shown moves (a), finished games (d) seen before the kills.
    pub seen: usize,
    /// Processes left running after the kill (d: engines).
    pub orphans: usize,
    pub problems: Vec<String>,
}

impl Tally {
    pub fn row(&self, mode: &str, seed: u64) -> String {
        format!(
            "{mode}: rounds {}, seen {}, lost {}, unparsable {}, resume offered {}/{}, temp files left {}, orphans {} (seed {seed})",
            self.rounds,
            self.seen,
            self.lost,
            self.unparsable,
            self.resume_offered,
            self.resume_expected,
            self.leftovers,
            self.orphans
        )
    }

    pub fn assert_clean(&self, mode: &str, seed: u64) {
        let row = self.row(mode, seed);
        println!("{row}");
        assert!(
            self.problems.is_empty()
                && self.lost == 0
                && self.unparsable == 0
                && self.orphans == 0
                && self.resume_offered == self.resume_expected,
            "{row}\n{}",
            self.problems.join("\n")
        );
    }
}

/// A fresh, empty folder for one round.
pub fn fresh(mode: &str, round: usize) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-kill-{}-{mode}-{round}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

/// Starts `kibitz ARGS` in a process group of its own (so that its
/// children can be found after it dies), its output read line by line on
/// a thread.
pub fn start(args: &[&str]) -> (Child, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("cannot run the kibitz binary");
    let out = child.stdout.take().expect("piped output");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// When to kill.
#[derive(Clone, Copy, Debug)]
pub enum When {
    /// After this long.
    After(Duration),
    /// Right after the n-th line that starts with the prefix (or after the
    /// time, whichever comes first).
    AfterLine(&'static str, usize, Duration),
}

impl When {
    pub fn random(rng: &mut Rng, prefix: &'static str, max_ms: u64) -> When {
        let t = Duration::from_millis(20 + rng.below(max_ms as usize) as u64);
        if rng.below(2) == 0 {
            When::After(t)
        } else {
            When::AfterLine(prefix, 1 + rng.below(60), t)
        }
    }
}

/// Kills the child with SIGKILL at `when` and returns every line it wrote
/// (those still in the pipe too: they were written before it died).
pub fn kill_at(mut child: Child, rx: Receiver<String>, when: When) -> (Vec<String>, u32) {
    let begun = Instant::now();
    let (prefix, n, limit) = match when {
        When::After(t) => ("", usize::MAX, t),
        When::AfterLine(p, n, t) => (p, n, t),
    };
    let mut lines = Vec::new();
    let mut count = 0;
    loop {
        let left = limit.saturating_sub(begun.elapsed());
        if left.is_zero() {
            break;
        }
        match rx.recv_timeout(left) {
            Ok(line) => {
                let hit = !prefix.is_empty() && line.starts_with(prefix);
                lines.push(line);
                if hit {
                    count += 1;
                    if count >= n {
                        break;
                    }
                }
            }
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    let pid = child.id();
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
    // The rest of the pipe, until the reader sees its end.
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(5)) {
        lines.push(line);
    }
    (lines, pid)
}

/// Processes still in the process group `pgrp`, after waiting up to
/// `patience` for them to end; any left are killed (and counted).
pub fn orphans(pgrp: u32, patience: Duration) -> usize {
    let members = || -> Vec<i32> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                    let rest = s.rfind(')').map_or("", |i| &s[i + 1..]);
                    let mut fields = rest.split_whitespace();
                    let state = fields.next();
                    // Zombies have ended (they wait for init to reap them).
                    state != Some("Z") && fields.nth(1) == Some(&pgrp.to_string())
                })
            })
            .collect()
    };
    let begun = Instant::now();
    loop {
        let left = members();
        if left.is_empty() {
            return 0;
        }
        if begun.elapsed() > patience {
            for pid in &left {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
            return left.len();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Files in `dir` whose name says they are temporary.
pub fn temp_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count()
    })
}

/// The SAN of the `ply`-th move (from 1) of a game.
pub fn san_at(game: &kibitz::game::Game, ply: usize) -> Option<String> {
    let moves = game.moves();
    let m = *moves.get(ply.checked_sub(1)?)?;
    let mut b: Board = game.start().clone();
    for &x in &moves[..ply - 1] {
        b = b.play(x);
    }
    Some(b.san(m))
}
