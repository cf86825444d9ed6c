//! Self-play data for tuning: games of the engine against itself at a fixed
//! node count, from a book of opening positions, each position labelled with
//! the game's result.
//!
//! Output: one line per position, `FEN | result | score`: the game's result
//! from White's side (1.0, 0.5, 0.0) and the search's score in centipawns,
//! also from White's side (the Texel tuner blends both with `--lambda`, the network
//! trainer too). Only quiet positions are kept: not in check, the
//! engine's chosen move is not a capture or promotion, the score is not a
//! mate, and the first plies after the opening are skipped.

use crate::engine::variant::Variant;
use crate::engine::{
    Board, Engine, EngineOptions, Limits, NoObserver, Std, Zh, movepick::is_tactical,
};
use crate::game::{Game, GameResult};
use crate::util::Rng;
use crate::variant::VariantKind;
use shakmaty::Color;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct DatagenConfig {
    pub openings: Vec<String>,
    pub games: usize,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Standard chess or Crazyhouse (openings given as Crazyhouse FENs).
    pub variant: VariantKind,
    /// The evaluation the games are played and scored with (the network's
    /// later stages learn from games of the network before them).
    pub eval: crate::engine::EvalKind,
    /// The network for [`crate::engine::EvalKind::Nnue`] (the embedded one when `None`).
    pub network: Option<std::sync::Arc<crate::engine::eval::nnue::Network>>,
}

/// Plays `cfg.games` games and writes labelled positions to `out`.
/// Returns (games, positions).
pub fn run(
    cfg: &DatagenConfig,
    out: &mut (impl Write + Send),
    mut progress: impl FnMut(usize, usize) + Send,
) -> std::io::Result<(usize, usize)> {
    let next = AtomicUsize::new(0);
    let shared = Mutex::new((out, 0usize, 0usize, &mut progress));
    std::thread::scope(|s| {
        for t in 0..cfg.threads.max(1) {
            let next = &next;
            let shared = &shared;
            s.spawn(move || {
                let mut engine = Engine::new(EngineOptions {
                    hash_mb: 8,
                    eval: cfg.eval,
                    ..EngineOptions::default()
                });
                if let Some(net) = &cfg.network {
                    engine.set_network(net.clone());
                }
                let mut rng = Rng::new(cfg.seed ^ (t as u64).wrapping_mul(0x9E37_79B9));
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= cfg.games {
                        break;
                    }
                    let fen = cfg.openings.get(i % cfg.openings.len().max(1));
                    let fen = fen.map(|s| s.as_str());
                    let lines = match cfg.variant {
                        VariantKind::Crazyhouse => {
                            play_game::<Zh>(&mut engine, fen, cfg.nodes, &mut rng)
                        }
                        _ => play_game::<Std>(&mut engine, fen, cfg.nodes, &mut rng),
                    };
                    let Ok(mut g) = shared.lock() else { break };
                    for l in &lines {
                        if writeln!(g.0, "{l}").is_err() {
                            return;
                        }
                    }
                    g.1 += 1;
                    g.2 += lines.len();
                    let (games, positions) = (g.1, g.2);
                    (g.3)(games, positions);
                }
            });
        }
    });
    let g = shared
        .into_inner()
        .map_err(|_| std::io::Error::other("worker panicked"))?;
    g.0.flush()?;
    Ok((g.1, g.2))
}

/// Plays one game; returns the labelled positions.
fn play_game<V: Variant>(
    engine: &mut Engine,
    fen: Option<&str>,
    nodes: u64,
    rng: &mut Rng,
) -> Vec<String> {
    let start = fen
        .and_then(|f| Board::<V>::from_variant_fen(f).ok())
        .unwrap_or_else(Board::start_position);
    let mut game = Game::new(start);
    engine.new_game();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut candidates: Vec<(String, i32)> = Vec::new();
    let mut ply = 0;
    let mut decisive_streak = 0;
    let mut quiet_draw_streak = 0;
    let result = loop {
        if let Some(e) = game.rule_ending(true) {
            break e.result;
        }
        if ply >= 400 {
            break GameResult::Draw;
        }
        // Vary the node count a little so games differ.
        let n = nodes + rng.below(nodes as usize / 4 + 1) as u64;
        let report = engine.search(game.position(), &Limits::nodes(n), &stop, &mut NoObserver);
        let Some(m) = report.best_move else {
            break GameResult::Draw;
        };
        let score = report.result.score;
        let board = game.current();
        // White's view for adjudication.
        let white = if board.turn() == Color::White {
            score.0
        } else {
            -score.0
        };
        if ply >= 8 && !board.in_check() && !is_tactical(m) && !score.is_mate() {
            candidates.push((board.fen(), white));
        }
        // Adjudicate clear wins and dead draws to save time.
        if white.abs() >= 1000 {
            decisive_streak += 1;
            if decisive_streak >= 6 {
                break if white > 0 {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                };
            }
        } else {
            decisive_streak = 0;
        }
        if ply >= 80 && white.abs() <= 8 {
            quiet_draw_streak += 1;
            if quiet_draw_streak >= 12 {
                break GameResult::Draw;
            }
        } else {
            quiet_draw_streak = 0;
        }
        game.push(m, None);
        ply += 1;
    };
    let label = match result {
        GameResult::WhiteWins => "1.0",
        GameResult::BlackWins => "0.0",
        GameResult::Draw => "0.5",
    };
    candidates
        .into_iter()
        .map(|(f, score)| format!("{f} | {label} | {score}"))
        .collect()
}
