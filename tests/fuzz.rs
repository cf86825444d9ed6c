//! The fuzz harness in CI: every target runs a fixed number of mutated
//! inputs from a fixed seed, and every file of the corpus (`tests/fuzz/`,
//! seeds and former crashes) is replayed, so a fixed crash stays fixed.
//! `kibitz fuzz TARGET --seconds N` runs longer.

use kibitz::fuzz::{self, Options};
use std::sync::Mutex;

/// The panic hook and the panic count are the process's: one run at a
/// time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Inputs per target: about a second each in a release build on a busy
/// 2-core machine (the engine and the store do far more per input).
fn iterations(target: &str) -> u64 {
    match target {
        "uci-engine" => 100,
        "puzzle-store" => 100,
        "xboard" => 1_000,
        "config" => 2_000,
        "tablebase" | "book" | "fen" => 30_000,
        _ => 5_000,
    }
}

#[test]
fn every_target_runs_clean() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = std::env::temp_dir().join(format!("kibitz-fuzz-ci-{}", std::process::id()));
    let mut failed = Vec::new();
    for t in fuzz::targets() {
        let opts = Options {
            iterations: Some(iterations(t.name)),
            seed: 30,
            // Crashes go to a temporary folder, named in the failure.
            out: Some(out.join(t.name)),
            ..Options::default()
        };
        let r = fuzz::run(&t, &opts);
        eprintln!(
            "fuzz {}: {} executions in {:.2} s",
            t.name,
            r.executions,
            r.elapsed.as_secs_f64()
        );
        match r.crash {
            Some(c) => failed.push(format!(
                "{}: {} (input saved to {:?})",
                t.name, c.message, c.file
            )),
            None => assert_eq!(r.executions, iterations(t.name), "{}", t.name),
        }
    }
    assert!(failed.is_empty(), "panics:\n{}", failed.join("\n"));
}

#[test]
fn the_corpus_replays_clean() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = fuzz::default_corpus_dir();
    for t in fuzz::targets() {
        match fuzz::replay_corpus(&t, &dir) {
            // Every target has seeds of its own in the corpus.
            Ok(n) => assert!(n > 0, "tests/fuzz/{} is empty", t.name),
            Err((file, message)) => panic!("{}: {} panics: {message}", t.name, file.display()),
        }
    }
}

#[test]
fn a_run_is_repeatable() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(t) = fuzz::find("fen") else {
        panic!("no fen target");
    };
    let opts = Options {
        iterations: Some(2_000),
        seed: 5,
        ..Options::default()
    };
    let a = fuzz::run(&t, &opts);
    let b = fuzz::run(&t, &opts);
    assert_eq!(a.executions, 2_000);
    // The same inputs in the same order; another seed, others.
    assert_eq!(a.fingerprint, b.fingerprint);
    assert_eq!(a.distinct, b.distinct);
    let c = fuzz::run(&t, &Options { seed: 6, ..opts });
    assert_ne!(a.fingerprint, c.fingerprint);
}

/// The watchdog: with a limit no input can meet, the first input running
/// when it looks is a hang, saved, and the run ends with status 3.
#[test]
fn a_hang_is_saved_and_fails_the_run() {
    let out = std::env::temp_dir().join(format!("kibitz-fuzz-hang-{}", std::process::id()));
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args([
            "fuzz",
            "uci-engine",
            "--iterations",
            "100000",
            "--hang-after",
            "0.000001",
        ])
        .arg("--out")
        .arg(&out)
        .output();
    let run = match run {
        Ok(r) => r,
        Err(e) => panic!("cannot run kibitz: {e}"),
    };
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("HANG"), "{stderr}");
    let saved: Vec<_> = std::fs::read_dir(&out)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let _ = std::fs::remove_dir_all(&out);
}
