//! One round of each mode: start, kill, check.

use crate::common;
use crate::harness::*;
use kibitz::util::Rng;
use std::path::{Path, PathBuf};
use std::time::Duration;

// (a) The play screen, headless.

pub fn headless_round(rng: &mut Rng, round: usize, t: &mut Tally) {
    let dir = fresh("play", round);
    let data = dir.to_string_lossy().into_owned();
    // Level 1 plays at once (many games, many saves); 5 ms a move gives
    // the kill moments inside a search.
    let engine: [&str; 2] = if round.is_multiple_of(2) {
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
        // An empty file is a name reserved for a game killed before its
        // first move: no game, and the next start removes it (below).
        if text.is_empty() {
            continue;
        }
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
    // The next start (the resume offer) sweeps what a killed Kibitz left:
    // temp files and empty reservations; none may stay.
    let (offer, warning) = kibitz::ui::find_unfinished(&games);
    let left = temp_files(&games)
        + std::fs::read_dir(&games)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.metadata().is_ok_and(|m| m.is_file() && m.len() == 0))
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .count();
    if left > 0 {
        t.problems.push(format!(
            "round {round}: {left} temp files or empty reservations left after the next start"
        ));
    }
    t.leftovers += left;
    if let Some(w) = warning {
        t.problems
            .push(format!("round {round}: resume warning: {w}"));
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
pub const GAMES: &str = "[Event \"Kill test\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
[Event \"Kill test\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n\
1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 Nbd7 7. Rc1 c6 8. Bd3 dxc4 9. Bxc4 Nd5 *\n\n\
[Event \"Kill test\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"0-1\"]\n\n\
1. f3 e5 2. g4 Qh4# 0-1\n\n";

pub fn annotate_round(rng: &mut Rng, round: usize, t: &mut Tally) {
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

pub const TABLES: [&str; 3] = ["KNvK", "KRvK", "KRvKN"];

/// `tb stats` of every table in `dir` (positions, wins, draws, losses,
/// longest mates): equal for equal tables.
pub fn table_stats(dir: &Path) -> Vec<String> {
    TABLES
        .iter()
        .map(|name| {
            let o = common::kibitz(&["tb", "stats", name, "--dir", dir.to_str().unwrap_or("")]);
            format!("{}{}", common::stdout_of(&o), common::stderr_of(&o))
        })
        .collect()
}

pub fn generate(dir: &Path) -> std::process::Output {
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

pub fn tables_round(rng: &mut Rng, round: usize, reference: &[String], t: &mut Tally) -> PathBuf {
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
        t.problems.push(format!(
            "round {round}: the tables differ from a clean run's"
        ));
    }
    t.rounds += 1;
    dir
}

/// A table cut in half (as a writer that is not atomic would leave it)
/// is found by the next run and made again.
pub fn planted_half_table(dir: &Path, reference: &[String], t: &mut Tally) {
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
pub fn verify_syzygy(dir: &Path, names: &[&str], t: &mut Tally) {
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
        t.problems
            .push(format!("tb verify: {text}{}", common::stderr_of(&o)));
    }
}

// ----------------------------------------------------------------------
// (d) Four engines, Bughouse.

pub fn bughouse_round(rng: &mut Rng, round: usize, t: &mut Tally) {
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
        t.problems.push(format!(
            "round {round}: {bad} of {} games do not read",
            games.len()
        ));
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
