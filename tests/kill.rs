//! `kill -9` at random moments: nothing shown is lost, nothing half
//! written is read (issue 30, part 1).
//!
//! Each round starts `kibitz` on a fresh folder, kills it with SIGKILL at a
//! random moment (some rounds right after it printed a move it showed,
//! when the save of the next move is near), and checks what it left:
//! - (a) `kibitz headless` (the play screen's own loop, engines on both
//!   sides): every move a frame showed is in the saved game, every saved
//!   file reads, temporary files are not taken for games, and the resume
//!   offer (`ui::find_unfinished`) names the newest unfinished game;
//! - (b) `kibitz annotate -o`: the input is untouched, the output absent
//!   or complete;
//! - (c) `kibitz tb generate`: every table left is valid, a rerun finishes
//!   the set, and the tables equal a clean run's (a planted half-written
//!   table is found and regenerated);
//! - (d) `kibitz bughouse --bpgn` (four engine processes): every game
//!   written reads, none printed is missing, and no engine outlives it.
//!
//! The CI tests run a few rounds per mode; the ignored one runs
//! `KIBITZ_KILL_ROUNDS` (default 100) per mode and prints the table:
//! `KIBITZ_KILL_ROUNDS=100 cargo test --release --test kill -- --ignored --nocapture`.

mod common;

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
struct Tally {
    rounds: usize,
    /// Moves (a), games (b, d) or tables (c) shown or reported before the
    /// kill and not found afterwards.
    lost: usize,
    /// Files that do not read (or tables that are not valid).
    unparsable: usize,
    /// (a) rounds whose newest game was unfinished, and those of them
    /// where the resume offer named it.
    resume_expected: usize,
    resume_offered: usize,
    /// Temporary files left by the kill (never read as results).
    leftovers: usize,
    /// Shown moves (a), finished games (d) seen before the kills.
    seen: usize,
    /// Processes left running after the kill (d: engines).
    orphans: usize,
    problems: Vec<String>,
}

impl Tally {
    fn row(&self, mode: &str, seed: u64) -> String {
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

    fn assert_clean(&self, mode: &str, seed: u64) {
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
fn fresh(mode: &str, round: usize) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "kibitz-kill-{}-{mode}-{round}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

/// Starts `kibitz ARGS` in a process group of its own (so that its
/// children can be found after it dies), its output read line by line on
/// a thread.
fn start(args: &[&str]) -> (Child, Receiver<String>) {
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
enum When {
    /// After this long.
    After(Duration),
    /// Right after the n-th line that starts with the prefix (or after the
    /// time, whichever comes first).
    AfterLine(&'static str, usize, Duration),
}

impl When {
    fn random(rng: &mut Rng, prefix: &'static str, max_ms: u64) -> When {
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
fn kill_at(mut child: Child, rx: Receiver<String>, when: When) -> (Vec<String>, u32) {
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
fn orphans(pgrp: u32, patience: Duration) -> usize {
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
fn temp_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count()
    })
}

/// The SAN of the `ply`-th move (from 1) of a game.
fn san_at(game: &kibitz::game::Game, ply: usize) -> Option<String> {
    let moves = game.moves();
    let m = *moves.get(ply.checked_sub(1)?)?;
    let mut b: Board = game.start().clone();
    for &x in &moves[..ply - 1] {
        b = b.play(x);
    }
    Some(b.san(m))
}

// ----------------------------------------------------------------------
// (a) The play screen, headless.

fn headless_round(rng: &mut Rng, round: usize, t: &mut Tally) {
    let dir = fresh("play", round);
    let data = dir.to_string_lossy().into_owned();
    // Level 1 plays at once (many games, many saves); 5 ms a move gives
    // the kill moments inside a search.
    let engine: [&str; 2] = if round % 2 == 0 {
        ["--level", "1"]
    } else {
        ["--movetime", "5"]
    };
    let (child, rx) = start(&[
        "headless", "--games", "1000", engine[0], engine[1], "--data", &data,
    ]);
    let (lines, _) = kill_at(child, rx, When::random(rng, "shown ", 1500));
    let games = dir.join("games");
    // Every shown move, by file: (plies, SAN).
    let mut shown: Vec<(String, usize, String)> = Vec::new();
    for l in &lines {
        let parts: Vec<&str> = l.split_whitespace().collect();
        if let ["shown", file, plies, san] = parts.as_slice()
            && let Ok(n) = plies.parse::<usize>()
        {
            shown.push((file.to_string(), n, san.to_string()));
        }
    }
    t.seen += shown.len();
    let mut read: std::collections::HashMap<String, Option<kibitz::game::Game>> =
        std::collections::HashMap::new();
    for (file, n, san) in &shown {
        let game = read.entry(file.clone()).or_insert_with(|| {
            std::fs::read_to_string(file)
                .ok()
                .and_then(|text| kibitz::game::pgn_read::read_game(&text).ok())
        });
        match game.as_ref().and_then(|g| san_at(g, *n)) {
            Some(s) if &s == san => {}
            found => {
                t.lost += 1;
                t.problems.push(format!(
                    "round {round}: {file} move {n} was shown as {san}, saved: {found:?}"
                ));
            }
        }
    }
    // Every game file reads; the newest, if unfinished, is offered.
    let mut newest: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in std::fs::read_dir(&games).into_iter().flatten().flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "pgn") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        if kibitz::game::pgn_read::read_game(&text).is_err() {
            t.unparsable += 1;
            t.problems
                .push(format!("round {round}: {} does not read", p.display()));
        }
        if let Ok(m) = e.metadata().and_then(|m| m.modified())
            && newest.as_ref().is_none_or(|(t, _)| m > *t)
        {
            newest = Some((m, p));
        }
    }
    t.leftovers += temp_files(&games);
    let (offer, warning) = kibitz::ui::find_unfinished(&games);
    if let Some(w) = warning {
        t.problems.push(format!("round {round}: resume warning: {w}"));
    }
    if let Some((_, p)) = &newest {
        let g = std::fs::read_to_string(p)
            .ok()
            .and_then(|text| kibitz::game::pgn_read::read_game(&text).ok());
        if g.is_some_and(|g| g.ending.is_none() && !g.moves().is_empty()) {
            t.resume_expected += 1;
            match &offer {
                Some((path, _)) if path == p => t.resume_offered += 1,
                other => t.problems.push(format!(
                    "round {round}: {} is unfinished but the offer is {:?}",
                    p.display(),
                    other.as_ref().map(|o| &o.0)
                )),
            }
        } else if let Some((path, _)) = &offer {
            t.problems.push(format!(
                "round {round}: {} offered though the newest game is over",
                path.display()
            ));
        }
    }
    t.rounds += 1;
    if t.problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

// ----------------------------------------------------------------------
// (b) A review written to a file.

/// Three short games to annotate.
const GAMES: &str = "[Event \"Kill test\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
[Event \"Kill test\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n\
1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 Nbd7 7. Rc1 c6 8. Bd3 dxc4 9. Bxc4 Nd5 *\n\n\
[Event \"Kill test\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"0-1\"]\n\n\
1. f3 e5 2. g4 Qh4# 0-1\n\n";

fn annotate_round(rng: &mut Rng, round: usize, t: &mut Tally) {
    let dir = fresh("annotate", round);
    let input = dir.join("in.pgn");
    let out = dir.join("out.pgn");
    std::fs::write(&input, GAMES).expect("write the input");
    let args = [
        "annotate",
        input.to_str().unwrap_or_default(),
        "--movetime",
        "15",
        "-o",
        out.to_str().unwrap_or_default(),
    ];
    let (child, rx) = start(&args);
    let _ = kill_at(child, rx, When::random(rng, "", 1200));
    if std::fs::read_to_string(&input).ok().as_deref() != Some(GAMES) {
        t.problems.push(format!("round {round}: the input changed"));
    }
    if let Ok(text) = std::fs::read_to_string(&out) {
        let games = kibitz::game::pgn_read::read_games_full(&text);
        let ok = games.iter().filter(|g| g.is_ok()).count();
        t.seen += ok;
        if ok != games.len() || games.len() != 3 {
            t.unparsable += 1;
            t.problems.push(format!(
                "round {round}: the output has {} games, {ok} readable",
                games.len()
            ));
        }
    }
    t.leftovers += temp_files(&dir);
    t.rounds += 1;
    if t.problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

// ----------------------------------------------------------------------
// (c) Tablebase generation.

const TABLES: [&str; 3] = ["KNvK", "KRvK", "KRvKN"];

/// `tb stats` of every table in `dir` (positions, wins, draws, losses,
/// longest mates): equal for equal tables.
fn table_stats(dir: &Path) -> Vec<String> {
    TABLES
        .iter()
        .map(|name| {
            let o = common::kibitz(&["tb", "stats", name, "--dir", dir.to_str().unwrap_or("")]);
            format!("{}{}", common::stdout_of(&o), common::stderr_of(&o))
        })
        .collect()
}

fn generate(dir: &Path) -> std::process::Output {
    common::kibitz(&[
        "tb",
        "generate",
        "KRvKN",
        "--dir",
        dir.to_str().unwrap_or(""),
        "--threads",
        "1",
    ])
}

fn tables_round(rng: &mut Rng, round: usize, reference: &[String], t: &mut Tally) -> PathBuf {
    let dir = fresh("tables", round);
    let d = dir.to_string_lossy().into_owned();
    let (child, rx) = start(&["tb", "generate", "KRvKN", "--dir", &d, "--threads", "1"]);
    let (lines, _) = kill_at(child, rx, When::random(rng, "", 1500));
    t.seen += lines.iter().filter(|l| l.contains("generated in")).count();
    t.leftovers += temp_files(&dir);
    // The rerun: a table left by the kill is either valid (kept) or
    // found out and made again; never read half-written.
    let rerun = generate(&dir);
    let text = common::stdout_of(&rerun) + &common::stderr_of(&rerun);
    if !rerun.status.success() {
        t.problems
            .push(format!("round {round}: the rerun failed: {text}"));
    }
    t.unparsable += text.matches("regenerating").count();
    if table_stats(&dir) != reference {
        t.lost += 1;
        t.problems
            .push(format!("round {round}: the tables differ from a clean run's"));
    }
    t.rounds += 1;
    dir
}

/// A table cut in half (as a writer that is not atomic would leave it)
/// is found by the next run and made again.
fn planted_half_table(dir: &Path, reference: &[String], t: &mut Tally) {
    let path = dir.join("KRvKN.kbtb");
    let Ok(bytes) = std::fs::read(&path) else {
        t.problems.push("no KRvKN table to cut".into());
        return;
    };
    std::fs::write(&path, &bytes[..bytes.len() / 2]).expect("cut the table");
    let rerun = generate(dir);
    let text = common::stdout_of(&rerun) + &common::stderr_of(&rerun);
    if !text.contains("corrupt") || !text.contains("KRvKN: generated") {
        t.problems
            .push(format!("a half table was not found and remade: {text}"));
    }
    if table_stats(dir) != reference {
        t.problems
            .push("the remade table differs from a clean run's".into());
    }
}

/// The tables against Syzygy's (shared data), when present.
fn verify_syzygy(dir: &Path, names: &[&str], t: &mut Tally) {
    let Some(syzygy) = common::shared_data("kill: verify against syzygy") else {
        return;
    };
    let syzygy = syzygy.join("syzygy");
    let mut args = vec![
        "tb",
        "verify",
        "--syzygy",
        syzygy.to_str().unwrap_or(""),
        "--dir",
        dir.to_str().unwrap_or(""),
    ];
    args.extend_from_slice(names);
    let o = common::kibitz(&args);
    let text = common::stdout_of(&o);
    if !o.status.success() || !common::last_line(&text).contains(" 0 mismatches") {
        t.problems.push(format!(
            "tb verify: {text}{}",
            common::stderr_of(&o)
        ));
    }
}

// ----------------------------------------------------------------------
// (d) Four engines, Bughouse.

fn bughouse_round(rng: &mut Rng, round: usize, t: &mut Tally) {
    let dir = fresh("bughouse", round);
    let file = dir.join("games.bpgn");
    let team = "kibitz[depth=2],kibitz[depth=2]";
    let (child, rx) = start(&[
        "bughouse",
        "--team",
        team,
        "--team",
        team,
        "--games",
        "1000",
        "--tc",
        "0.2+0",
        "--bpgn",
        file.to_str().unwrap_or(""),
    ]);
    let (lines, pid) = kill_at(child, rx, When::random(rng, "Game ", 2000));
    let printed = lines.iter().filter(|l| l.starts_with("Game ")).count();
    t.seen += printed;
    t.orphans += orphans(pid, Duration::from_secs(5));
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let games = kibitz::bughouse::bpgn::read_bpgn_games(&text);
    let bad = games.iter().filter(|g| g.is_err()).count();
    if bad > 0 {
        t.unparsable += bad;
        t.problems
            .push(format!("round {round}: {bad} of {} games do not read", games.len()));
    }
    // A game is written before it is printed: at most one more.
    if games.len() < printed || games.len() > printed + 1 {
        t.lost += printed.saturating_sub(games.len());
        t.problems.push(format!(
            "round {round}: {printed} games printed, {} in the file",
            games.len()
        ));
    }
    t.rounds += 1;
    if t.problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

// ----------------------------------------------------------------------

fn seeded() -> (Rng, u64) {
    let seed = std::env::var("KIBITZ_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| Rng::from_entropy().next_u64());
    (Rng::new(seed), seed)
}

fn play_mode(rounds: usize) {
    let (mut rng, seed) = seeded();
    let mut t = Tally::default();
    for round in 0..rounds {
        headless_round(&mut rng, round, &mut t);
    }
    t.assert_clean("(a) play, headless", seed);
}

fn annotate_mode(rounds: usize) {
    let (mut rng, seed) = seeded();
    let mut t = Tally::default();
    for round in 0..rounds {
        annotate_round(&mut rng, round, &mut t);
    }
    t.assert_clean("(b) annotate -o", seed);
}

fn tables_mode(rounds: usize, syzygy: &[&str]) {
    let (mut rng, seed) = seeded();
    let mut t = Tally::default();
    let clean = fresh("tables", usize::MAX);
    let o = generate(&clean);
    assert!(o.status.success(), "{}", common::stderr_of(&o));
    let reference = table_stats(&clean);
    let _ = std::fs::remove_dir_all(&clean);
    let mut last = None;
    for round in 0..rounds {
        let dir = tables_round(&mut rng, round, &reference, &mut t);
        if let Some(old) = last.replace(dir) {
            let _ = std::fs::remove_dir_all(old);
        }
    }
    if let Some(dir) = last {
        planted_half_table(&dir, &reference, &mut t);
        verify_syzygy(&dir, syzygy, &mut t);
        if t.problems.is_empty() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    t.assert_clean("(c) tb generate", seed);
}

fn bughouse_mode(rounds: usize) {
    let (mut rng, seed) = seeded();
    let mut t = Tally::default();
    for round in 0..rounds {
        bughouse_round(&mut rng, round, &mut t);
    }
    t.assert_clean("(d) bughouse --bpgn", seed);
}

const CI_ROUNDS: usize = 5;

#[test]
fn killed_play_loses_no_shown_move() {
    play_mode(CI_ROUNDS);
}

#[test]
fn killed_annotate_leaves_input_and_no_half_output() {
    annotate_mode(CI_ROUNDS);
}

#[test]
fn killed_table_generation_is_finished_by_a_rerun() {
    tables_mode(CI_ROUNDS, &["KNvK", "KRvK"]);
}

#[test]
fn killed_bughouse_match_keeps_its_games_and_leaves_no_engine() {
    bughouse_mode(CI_ROUNDS);
}

/// The long run: `KIBITZ_KILL_ROUNDS` (default 100) rounds per mode.
#[test]
#[ignore]
fn kill_rounds_long() {
    let rounds = std::env::var("KIBITZ_KILL_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    play_mode(rounds);
    annotate_mode(rounds);
    tables_mode(rounds, &TABLES);
    bughouse_mode(rounds);
}
