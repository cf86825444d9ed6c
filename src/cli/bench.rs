//! `kibitz bench`: the fixed search whose node count is the engine's signature.

use anyhow::{Result, bail};
use kibitz::engine::bench;
use kibitz::engine::eval::EvalKind;

/// Searches the bench positions to `depth` with the evaluation `eval` and
/// prints the node count and speed.
pub fn run(depth: i32, eval: EvalKind) -> Result<()> {
    if !(1..=30).contains(&depth) {
        bail!("bench depth must be between 1 and 30");
    }
    let n = bench::POSITIONS.len();
    let result = bench::run(depth, eval, |i, line| {
        println!(
            "{:>2}/{n} {:>10} nodes {:>6} ms  {:<6} {}",
            i + 1,
            line.nodes,
            line.elapsed.as_millis(),
            line.best_move,
            line.fen
        );
    });
    println!("===========================");
    println!("Total time (ms) : {}", result.elapsed.as_millis());
    println!("Nodes searched  : {}", result.nodes);
    println!("Nodes/second    : {}", result.nps());
    println!("Bench: {} nodes {} nps", result.nodes, result.nps());
    Ok(())
}

/// `kibitz bench --honesty`: the full search against bare alpha-beta at
/// depths 1-4 (see [`bench::honesty`]).
pub fn honesty(files: &[std::path::PathBuf], count: usize) -> Result<()> {
    use kibitz::engine::Board;
    let mut files = files.to_vec();
    if files.is_empty()
        && let Some(d) = kibitz::util::shared_data_dir()
    {
        for f in ["openings/noob_3moves_5k.epd", "openings/uho_4060_v2_5k.epd"] {
            let p = d.join(f);
            if p.is_file() {
                files.push(p);
            }
        }
    }
    let mut boards: Vec<Board> = Vec::new();
    if files.is_empty() {
        println!(
            "(no position files: the {} bench positions)",
            bench::POSITIONS.len()
        );
        boards = bench::POSITIONS
            .iter()
            .filter_map(|f| Board::from_fen(f).ok())
            .collect();
    } else {
        let per_file = count.div_ceil(files.len());
        for f in &files {
            let text =
                std::fs::read_to_string(f).map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
            let mut taken = 0;
            for (n, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                if taken == per_file {
                    break;
                }
                // EPD lines may lack the move counters.
                let fields: Vec<&str> = line.split_whitespace().collect();
                let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
                    fields[..6].join(" ")
                } else if fields.len() >= 4 {
                    format!("{} 0 1", fields[..4].join(" "))
                } else {
                    bail!("{} line {}: not a FEN or EPD position", f.display(), n + 1);
                };
                match Board::from_fen(&fen) {
                    Ok(b) => {
                        boards.push(b);
                        taken += 1;
                    }
                    Err(e) => bail!("{} line {}: {e}", f.display(), n + 1),
                }
            }
        }
        println!(
            "{} positions from {}",
            boards.len(),
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let t0 = std::time::Instant::now();
    let rows = bench::honesty(&boards, 1..=4, |done, total| {
        if done % 50 == 0 || done == total {
            eprintln!("{done}/{total}");
        }
    });
    println!("depth  positions  within 50 cp  best move differs  mean |diff| cp");
    for r in &rows {
        println!(
            "{:>5}  {:>9}  {:>6} {:>5.1}%  {:>10} {:>5.1}%  {:>14.1}",
            r.depth,
            r.positions,
            r.within_50,
            100.0 * r.share_within(),
            r.best_differs,
            100.0 * r.share_differs(),
            r.mean_abs_cp
        );
    }
    let (w, n): (usize, usize) = rows
        .iter()
        .filter(|r| r.depth >= 2)
        .fold((0, 0), |(w, n), r| (w + r.within_50, n + r.positions));
    println!(
        "Honesty (depths 2-4 within 50 cp): {:.1}%  ({} s)",
        100.0 * w as f64 / n.max(1) as f64,
        t0.elapsed().as_secs()
    );
    Ok(())
}
