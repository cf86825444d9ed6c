//! `kibitz bench`: the fixed search whose node count is the engine's signature.

use anyhow::{Result, bail};
use kibitz::engine::bench;

/// Searches the bench positions to `depth` and prints the node count and speed.
pub fn run(depth: i32) -> Result<()> {
    if !(1..=30).contains(&depth) {
        bail!("bench depth must be between 1 and 30");
    }
    let n = bench::POSITIONS.len();
    let result = bench::run(depth, |i, line| {
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
