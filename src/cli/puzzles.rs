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
    /// Kibitz's engine plays the solver's side of every puzzle of a
    /// Lichess-format CSV file: one line per puzzle (`ID solved` or `ID
    /// failed: played X, expected Y`), last `solved N/M`. Where the
    /// expected move mates, any mating move is accepted.
    Solve {
        /// The puzzle file (lichess' CSV).
        file: PathBuf,
        /// Search time per solver move, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Make puzzles from the games of a PGN file, written as a
    /// Lichess-format CSV: positions where, after the opponent's mistake,
    /// one move wins clearly and the others do not, each solver move of the
    /// solution the only good one. Progress on standard error; Ctrl-C
    /// writes the puzzles found so far and fails.
    Make {
        /// The PGN file.
        file: PathBuf,
        /// Where to write the puzzles (atomically).
        #[arg(short = 'o', long)]
        out: PathBuf,
        /// Milliseconds per verifying search (a quarter to screen each
        /// position). Default 300.
        #[arg(long, conflicts_with = "nodes")]
        movetime: Option<u64>,
        /// Nodes per verifying search instead: the same puzzles on every
        /// machine.
        #[arg(long)]
        nodes: Option<u64>,
        /// Games searched at the same time (default: the number of cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// A reference engine judges a puzzle file: at each solver move
    /// MultiPV 2, ambiguous when the second move is also good by the rule
    /// `make` uses. With --failures: is each move `solve` failed with also
    /// winning?
    #[command(hide = true)]
    Check {
        file: PathBuf,
        /// The reference engine's command line (UCI).
        #[arg(long, default_value = "/usr/games/stockfish")]
        engine: String,
        #[arg(long, conflicts_with = "movetime")]
        depth: Option<u32>,
        #[arg(long)]
        movetime: Option<u64>,
        /// The output of `kibitz puzzles solve` for FILE.
        #[arg(long)]
        failures: Option<PathBuf>,
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

        PuzzlesCmd::Solve {
            file,
            movetime,
            threads,
        } => super::puzzle_solve::run(&file, movetime, threads),
        PuzzlesCmd::Make {
            file,
            out,
            movetime,
            nodes,
            threads,
        } => super::puzzle_make::run(&file, &out, movetime, nodes, threads),
        PuzzlesCmd::Check {
            file,
            engine,
            depth,
            movetime,
            failures,
        } => super::puzzle_check::run(&file, &engine, depth, movetime, failures.as_deref()),
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
