//! `kibitz puzzles make`: puzzles from the games of a PGN file, written as
//! a Lichess-format CSV.

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kibitz::game::library::{Library, Status};
use kibitz::train::make::{MakeSettings, SourceGame, make_all};
use kibitz::train::puzzle::write_csv;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Set by Ctrl-C: the searches stop and what is done is written.
static STOP: AtomicBool = AtomicBool::new(false);

/// The games of `file` that can be read; the others are reported on
/// standard error and skipped.
pub fn read_games(file: &Path) -> Result<Vec<SourceGame>> {
    let mut lib = Library::open(file, &mut |_| {})
        .with_context(|| format!("cannot read {}", file.display()))?;
    let name = file.display().to_string();
    let mut games = Vec::new();
    for i in 0..lib.entries.len() {
        match lib.load(i) {
            Ok(parsed) => {
                let url = parsed.game.header("Site").unwrap_or("").to_string();
                games.push(SourceGame {
                    start: parsed.game.start().clone(),
                    moves: parsed.game.moves().to_vec(),
                    url,
                });
            }
            Err(e) => match &lib.entries[i].status {
                Status::Bad { line, reason } => {
                    eprintln!("{name}: game {}, line {line}: {reason} (skipped)", i + 1)
                }
                _ => eprintln!("{name}: game {}: {e} (skipped)", i + 1),
            },
        }
    }
    Ok(games)
}

/// Makes puzzles from `file` into `out` (written atomically, also when
/// Ctrl-C stops the work: then with the puzzles found so far, and the
/// command fails).
pub fn run(
    file: &Path,
    out: &Path,
    movetime: Option<u64>,
    nodes: Option<u64>,
    threads: Option<usize>,
) -> Result<()> {
    let settings = match (movetime, nodes) {
        (Some(0), _) => bail!("--movetime must be at least 1"),
        (_, Some(0)) => bail!("--nodes must be at least 1"),
        (_, Some(n)) => MakeSettings::nodes(n),
        (Some(ms), None) => MakeSettings::movetime(ms),
        (None, None) => MakeSettings::movetime(DEFAULT_MOVETIME),
    };
    let threads = match threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let games = read_games(file)?;
    if games.is_empty() {
        bail!("no games in {} could be read", file.display());
    }
    // A second Ctrl-C (or a failure to install the handler) ends the
    // process the ordinary way.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let bar = ProgressBar::with_draw_target(Some(games.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} games, {msg} [{elapsed_precise}, about {eta} left]",
    ) {
        bar.set_style(style);
    }
    bar.set_message("0 puzzles");
    let began = Instant::now();
    let made = make_all(&games, &settings, threads, &STOP, &|done, found| {
        bar.set_position(done as u64);
        bar.set_message(format!("{found} puzzles"));
    });
    bar.finish_and_clear();
    kibitz::util::write_atomic(out, write_csv(&made.puzzles).as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    let summary = format!(
        "{} puzzles from {} of {} games in {:.1} s, written to {}",
        made.puzzles.len(),
        made.games_done,
        games.len(),
        began.elapsed().as_secs_f64(),
        out.display()
    );
    let st = &made.stats;
    eprintln!(
        "{} candidates: {} made, {} already won, {} not an only move, {} gain not realised, {} other",
        st.candidates, st.made, st.already_won, st.not_only_move, st.not_realised, st.other
    );
    if made.stopped {
        bail!("stopped: {summary}");
    }
    eprintln!("{summary}");
    Ok(())
}

/// Milliseconds per verifying search when neither `--movetime` nor
/// `--nodes` is given.
pub const DEFAULT_MOVETIME: u64 = 300;
