//! `kibitz puzzles solve`: Kibitz's engine plays through every puzzle of a
//! Lichess-format CSV file and says which it solved.

use anyhow::{Context, Result, bail};
use kibitz::engine::Limits;
use kibitz::train::puzzle::read_csv;
use kibitz::train::solve::{Outcome, Solver};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Prints `ID solved` or `ID failed: played X, expected Y` per puzzle on
/// standard output, then `solved N/M`; bad lines go to standard error with
/// their line number.
pub fn run(file: &Path, movetime: u64, threads: usize) -> Result<()> {
    if movetime == 0 {
        bail!("--movetime must be at least 1");
    }
    if threads == 0 {
        bail!("--threads must be at least 1");
    }
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let read = read_csv(&kibitz::util::decode_text(&bytes));
    let name = file.display();
    for (line, e) in &read.errors {
        eprintln!("{name}: line {line}: {e} (skipped)");
    }
    if read.puzzles.is_empty() {
        bail!("no puzzles in {name}");
    }
    let mut solver = Solver::new(Limits::movetime(movetime), threads);
    let stop = AtomicBool::new(false);
    let mut solved = 0usize;
    let mut stdout = std::io::stdout().lock();
    for p in &read.puzzles {
        let outcome = solver.solve(p, &stop)?;
        if outcome == Outcome::Solved {
            solved += 1;
        }
        // A closed pipe (`| head`) ends the work without a message.
        if writeln!(stdout, "{}", outcome.line(&p.id))
            .and_then(|_| stdout.flush())
            .is_err()
        {
            return Ok(());
        }
    }
    let _ = writeln!(stdout, "solved {solved}/{}", read.puzzles.len());
    Ok(())
}
