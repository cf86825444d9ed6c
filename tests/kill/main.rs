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

#[path = "../common/mod.rs"]
mod common;
mod harness;
mod modes;

use harness::*;
use kibitz::util::Rng;
use modes::*;

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

/// Without a kill: each game ends with its last shown move and result in
/// its file, and the resume offer stays away (every game is over).
#[test]
fn headless_saves_every_game_it_shows() {
    let dir = fresh("complete", 0);
    let o = common::kibitz(&[
        "headless",
        "--games",
        "3",
        "--level",
        "1",
        "--report-every",
        "1",
        "--data",
        dir.to_str().unwrap_or(""),
    ]);
    assert!(o.status.success(), "{}", common::stderr_of(&o));
    let out = common::stdout_of(&o);
    let ends: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(ends.len(), 3, "{out}");
    for end in ends {
        // game N FILE RESULT PLIES plies
        let parts: Vec<&str> = end.split_whitespace().collect();
        let (file, result, plies) = (parts[2], parts[3], parts[4]);
        let text = std::fs::read_to_string(file).expect("the game was saved");
        let game = kibitz::game::pgn_read::read_game(&text).expect("the saved game reads");
        assert_eq!(game.moves().len().to_string(), plies, "{file}");
        assert_eq!(game.ending.map(|e| e.result.pgn()), Some(result), "{file}");
        let last = out
            .lines()
            .rfind(|l| l.starts_with(&format!("shown {file} ")))
            .expect("its moves were shown");
        assert_eq!(
            last,
            format!(
                "shown {file} {plies} {}",
                san_at(&game, game.moves().len()).unwrap_or_default()
            )
        );
    }
    assert_eq!(out.lines().filter(|l| l.starts_with("report ")).count(), 5);
    assert!(kibitz::ui::find_unfinished(&dir.join("games")).0.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
