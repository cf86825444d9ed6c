//! `kibitz puzzles`: puzzle files on the command line.

use anyhow::{Context, Result};
use kibitz::train::puzzle::read_csv;
use kibitz::train::themes;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The `puzzles` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum PuzzlesCmd {
    /// Tag each puzzle of a Lichess-format CSV with its themes, found from
    /// the position and the solution alone (the file's `Themes` column is
    /// not read): prints `ID tag tag ...` a line. Bad lines are reported on
    /// standard error with their line number and skipped.
    Themes {
        /// The puzzle file (lichess' CSV: PuzzleId,FEN,Moves,...).
        file: PathBuf,
        /// Instead of the tags, print how well they agree with the file's
        /// `Themes` column: precision, recall and support per tag.
        #[arg(long)]
        compare: bool,
        /// With --compare: leave out puzzles whose `Themes` column has no
        /// length tag (oneMove, short, long, veryLong), i.e. was not made
        /// by lichess' tagger.
        #[arg(long, requires = "compare")]
        tagged_only: bool,
    },
    /// Add the puzzles of a Lichess-format CSV file (PuzzleId,FEN,Moves,
    /// Rating,...) to your store; puzzles already there are skipped, bad
    /// lines listed with their numbers.
    Import {
        file: PathBuf,
        /// Where the puzzles come from: lichess, made or mistake.
        #[arg(long, default_value = "lichess")]
        source: String,
        /// The store's folder instead of the data folder's.
        #[arg(long)]
        store: Option<PathBuf>,
    },
    /// Your puzzle rating, attempts, puzzles due for repetition, and
    /// solved/tried per theme.
    Stats {
        /// The store's folder instead of the data folder's.
        #[arg(long)]
        store: Option<PathBuf>,
    },
}

/// Runs a `puzzles` subcommand.
pub fn run(cmd: PuzzlesCmd) -> Result<()> {
    match cmd {
        PuzzlesCmd::Themes {
            file,
            compare,
            tagged_only,
        } => themes(&file, compare, tagged_only),
        PuzzlesCmd::Import {
            file,
            source,
            store,
        } => super::puzzle_store::import(&file, &source, store),
        PuzzlesCmd::Stats { store } => super::puzzle_store::stats(store),
    }
}

/// `kibitz puzzles themes FILE [--compare [--tagged-only]]`.
fn themes(file: &Path, compare: bool, tagged_only: bool) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let read = read_csv(&text);
    for (line, err) in &read.errors {
        eprintln!("{}:{line}: {err}", file.display());
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if compare {
        let (kept, left_out): (Vec<_>, Vec<_>) = read
            .puzzles
            .into_iter()
            .partition(|p| !tagged_only || themes::has_lichess_tags(p));
        write!(out, "{}", themes::table(&themes::compare(&kept)))?;
        let untagged = kept.iter().filter(|p| !themes::has_lichess_tags(p)).count();
        writeln!(out, "{} puzzles compared", kept.len())?;
        if untagged > 0 {
            writeln!(
                out,
                "{untagged} of them have no length tag in their Themes column \
                 (not tagged by lichess; --tagged-only leaves them out)"
            )?;
        }
        if !left_out.is_empty() {
            writeln!(
                out,
                "{} puzzles without lichess tags left out",
                left_out.len()
            )?;
        }
    } else {
        for p in &read.puzzles {
            // Every puzzle read has a legal line (`read_csv` checks it).
            let Ok((start, line)) = p.line() else {
                continue;
            };
            let tags = themes::tag(&start, &line);
            if tags.is_empty() {
                writeln!(out, "{}", p.id)?;
            } else {
                writeln!(out, "{} {}", p.id, tags.join(" "))?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
