//! `kibitz puzzles import` and `kibitz puzzles stats`: the puzzle store
//! ([`kibitz::train::store`]) on the command line.

use anyhow::{Context, Result, bail};
use kibitz::train::puzzle::read_csv;
use kibitz::train::store::{Source, Store};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Opens the store in `dir`, or in the data folder's `puzzles/`; what the
/// load had to skip goes to standard error.
fn open(dir: Option<PathBuf>) -> Result<Store> {
    let dir = match dir {
        Some(d) => d,
        None => {
            Store::default_dir().context("no home folder to keep puzzles in: give --store DIR")?
        }
    };
    let store = Store::open(&dir)?;
    for w in store.warnings() {
        eprintln!("warning: {w}");
    }
    Ok(store)
}

/// Adds the puzzles of a Lichess-format CSV file; bad lines are listed on
/// standard error with their numbers.
pub fn import(file: &Path, source: &str, dir: Option<PathBuf>) -> Result<()> {
    let source: Source = source.parse().map_err(anyhow::Error::msg)?;
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let start = Instant::now();
    let csv = read_csv(&kibitz::util::decode_text(&bytes));
    for (n, why) in &csv.errors {
        eprintln!("{}:{n}: {why}", file.display());
    }
    if csv.puzzles.is_empty() {
        bail!(
            "no puzzles in {} ({} bad lines): is it a Lichess puzzle CSV?",
            file.display(),
            csv.errors.len()
        );
    }
    let mut store = open(dir)?;
    let sum = store.import(csv.puzzles, source)?;
    for (id, why) in &sum.invalid {
        eprintln!("{}: puzzle {id:?}: {why}", file.display());
    }
    let bad = csv.errors.len() + sum.invalid.len();
    println!(
        "{} added, {} already in the store, {bad} bad lines ({:.2} s); {} puzzles in all",
        sum.added,
        sum.already,
        start.elapsed().as_secs_f64(),
        store.len()
    );
    Ok(())
}

/// The rating, the attempts, what is due, and solved/tried per theme.
pub fn stats(dir: Option<PathBuf>) -> Result<()> {
    let store = open(dir)?;
    let now = kibitz::util::unix_now();
    let r = store.rating();
    println!(
        "Rating    {:.0}{} (deviation {:.0}, volatility {:.4})",
        r.rating,
        if r.provisional() { "?" } else { "" },
        r.deviation,
        r.volatility
    );
    let sources: Vec<String> = store
        .sources()
        .iter()
        .map(|(s, n)| format!("{s} {n}"))
        .collect();
    println!("Puzzles   {} ({})", store.len(), sources.join(", "));
    let h = store.history();
    let solved = h.iter().filter(|a| a.solved).count();
    println!("Attempts  {} ({solved} solved)", h.len());
    let themes = store.theme_stats();
    let tried: usize = {
        let mut ids: Vec<&str> = h.iter().map(|a| a.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
    println!("Tried     {tried} puzzles");
    println!("Due now   {} for repetition", store.due(now));
    let tried_themes: Vec<_> = themes.iter().filter(|t| t.attempted > 0).collect();
    if tried_themes.is_empty() {
        println!("\nNo puzzle tried yet.");
        return Ok(());
    }
    let width = tried_themes
        .iter()
        .map(|t| t.theme.len())
        .max()
        .unwrap_or(5)
        .max(5);
    println!("\n{:width$}  solved/tried  puzzles", "Theme");
    for t in tried_themes {
        println!(
            "{:width$}  {:>6}/{:<5}  {:>7}",
            t.theme, t.solved, t.attempted, t.puzzles
        );
    }
    println!("(solved: at the first try)");
    Ok(())
}
