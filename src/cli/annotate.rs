//! `kibitz annotate`: marks the mistakes in the games of a PGN file, and
//! names their openings.

use anyhow::{Context, Result, bail};
use kibitz::engine::Limits;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Judgements per side: [White, Black] x [inaccuracies, mistakes, blunders].
type Tally = [[usize; 3]; 2];

fn tally_text(t: &Tally) -> String {
    let side = |c: &[usize; 3]| format!("{}/{}/{}", c[0], c[1], c[2]);
    format!("?!/?/?? White {}, Black {}", side(&t[0]), side(&t[1]))
}

/// Annotates the games of `file` (one, or all) and writes them to `out` or stdout.
pub fn run(
    file: &std::path::Path,
    movetime: u64,
    depth: Option<i32>,
    game: Option<usize>,
    out: Option<PathBuf>,
) -> Result<()> {
    use kibitz::game::library::{Library, Status};
    use kibitz::game::review::{self, Judgement, Reviewer};
    use shakmaty::Color;
    use std::io::{IsTerminal, Write};

    let limits = match depth {
        Some(d) if !(1..=100).contains(&d) => bail!("--depth must be 1 to 100"),
        Some(d) => Limits::depth(d),
        None if movetime == 0 => bail!("--movetime must be at least 1"),
        None => Limits::movetime(movetime),
    };
    let mut lib = Library::open(file, &mut |_| {})
        .with_context(|| format!("cannot read {}", file.display()))?;
    let n = lib.entries.len();
    if n == 0 {
        bail!("no games in {}", file.display());
    }
    let which: Vec<usize> = match game {
        Some(g) if g == 0 || g > n => {
            bail!("--game {g}: {} has games 1 to {n}", file.display())
        }
        Some(g) => vec![g - 1],
        None => (0..n).collect(),
    };
    let name = file.display().to_string();
    let live = std::io::stderr().is_terminal();
    let mut reviewer = Reviewer::new(limits);
    let stop = AtomicBool::new(false);
    let mut text = String::new();
    let (mut annotated, mut skipped) = (0usize, 0usize);
    for &i in &which {
        let number = i + 1;
        let mut parsed = match lib.load(i) {
            Ok(p) => p,
            Err(e) => {
                match &lib.entries[i].status {
                    Status::Bad { line, reason } => {
                        eprintln!("{name}: game {number}, line {line}: {reason} (skipped)")
                    }
                    _ => eprintln!("{name}: game {number}: {e} (skipped)"),
                }
                skipped += 1;
                continue;
            }
        };
        for w in &parsed.warnings {
            eprintln!("{name}: game {number}: warning: {w}");
        }
        let players = lib.entries[i].players();
        let label = format!("game {number}/{n} ({players})");
        let start = parsed.game.start().clone();
        let moves = parsed.game.moves().to_vec();
        let first_turn = start.turn();
        let mut tally: Tally = [[0; 3]; 2];
        let began = Instant::now();
        let reviews = reviewer.review(&start, &moves, &stop, &mut |done, total, r| {
            if let Some(j) = r.and_then(|r| r.judgement) {
                // Who moved: the first mover on even plies.
                let white = (r.map_or(0, |r| r.ply) % 2 == 0) == (first_turn == Color::White);
                let kind = match j {
                    Judgement::Inaccuracy => 0,
                    Judgement::Mistake => 1,
                    Judgement::Blunder => 2,
                };
                tally[usize::from(!white)][kind] += 1;
            }
            if live {
                eprint!("\r{label}: move {done}/{total}\x1b[K");
            }
        });
        review::annotate_tree(&mut parsed.tree, &reviews);
        // `[ECO]` and `[Opening]` when the file has neither, and a comment
        // at the move that left the book.
        kibitz::game::openings::annotate_opening(&mut parsed.game, &mut parsed.tree);
        annotated += 1;
        let summary = format!(
            "{label}: {} moves in {:.1} s, {}",
            moves.len(),
            began.elapsed().as_secs_f64(),
            tally_text(&tally)
        );
        if live {
            eprintln!("\r{summary}\x1b[K");
        } else {
            eprintln!("{summary}");
        }
        let pgn = kibitz::game::write_pgn_tree(&parsed.game, &parsed.tree);
        if out.is_some() {
            text.push_str(&pgn);
        } else {
            // Game by game, so a long file shows results as they come. A
            // closed pipe (`| head`) ends the work without a message.
            let mut stdout = std::io::stdout().lock();
            if stdout
                .write_all(pgn.as_bytes())
                .and_then(|_| stdout.flush())
                .is_err()
            {
                return Ok(());
            }
        }
    }
    if annotated == 0 {
        bail!("no game in {name} could be annotated");
    }
    if let Some(path) = &out {
        kibitz::util::write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let target = out
        .as_ref()
        .map_or(String::new(), |p| format!(", written to {}", p.display()));
    eprintln!("{annotated} game(s) annotated, {skipped} skipped{target}");
    Ok(())
}
