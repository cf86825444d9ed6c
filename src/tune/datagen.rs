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
use std::collections::BTreeMap;
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
///
/// The output depends only on the configuration, not on the number of
/// threads or on which thread finished first: game `i` draws its random
/// node counts from a generator seeded by `cfg.seed` and `i`, each game
/// starts from a cleared engine, and the games are written in order.
pub fn run(
    cfg: &DatagenConfig,
    out: &mut (impl Write + Send),
    mut progress: impl FnMut(usize, usize) + Send,
) -> std::io::Result<(usize, usize)> {
    let next = AtomicUsize::new(0);
    let shared = Mutex::new(Writer {
        out,
        progress: &mut progress,
        next: 0,
        pending: BTreeMap::new(),
        positions: 0,
        error: None,
    });
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
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
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= cfg.games {
                        break;
                    }
                    let mut rng = Rng::new(game_seed(cfg.seed, i));
                    let fen = cfg.openings.get(i % cfg.openings.len().max(1));
                    let fen = fen.map(|s| s.as_str());
                    let lines = match cfg.variant {
                        VariantKind::Crazyhouse => {
                            play_game::<Zh>(&mut engine, fen, cfg.nodes, &mut rng)
                        }
                        _ => play_game::<Std>(&mut engine, fen, cfg.nodes, &mut rng),
                    };
                    let Ok(mut w) = shared.lock() else { break };
                    if !w.finish(i, lines) {
                        // Stop the other threads too: nothing more can be written.
                        next.store(cfg.games, Ordering::SeqCst);
                        break;
                    }
                }
            });
        }
    });
    let w = shared
        .into_inner()
        .map_err(|_| std::io::Error::other("worker panicked"))?;
    if let Some(e) = w.error {
        return Err(e);
    }
    w.out.flush()?;
    Ok((w.next, w.positions))
}

/// The seed of game `i`'s random generator.
fn game_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Writes finished games in the order they were started.
struct Writer<'a, W, P> {
    out: &'a mut W,
    progress: &'a mut P,
    /// The next game to write (= the games written so far).
    next: usize,
    /// Games finished before an earlier one.
    pending: BTreeMap<usize, Vec<String>>,
    positions: usize,
    error: Option<std::io::Error>,
}

impl<W: Write, P: FnMut(usize, usize)> Writer<'_, W, P> {
    /// Records game `i`; writes every game now in order. False once a
    /// write has failed.
    fn finish(&mut self, i: usize, lines: Vec<String>) -> bool {
        if self.error.is_some() {
            return false;
        }
        self.pending.insert(i, lines);
        while let Some(lines) = self.pending.remove(&self.next) {
            for l in &lines {
                if let Err(e) = writeln!(self.out, "{l}") {
                    self.error = Some(e);
                    return false;
                }
            }
            self.next += 1;
            self.positions += lines.len();
            (self.progress)(self.next, self.positions);
        }
        true
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn generate(variant: VariantKind, threads: usize, seed: u64) -> (String, usize, usize) {
        let openings = match variant {
            VariantKind::Crazyhouse => vec![
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1".to_string(),
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] b KQkq - 1 2".to_string(),
            ],
            _ => vec![
                "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1".to_string(),
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2".to_string(),
            ],
        };
        let cfg = DatagenConfig {
            openings,
            games: 5,
            nodes: 300,
            threads,
            seed,
            variant,
            eval: crate::engine::EvalKind::default(),
            network: None,
        };
        let mut out = Vec::new();
        let mut calls = Vec::new();
        let (g, p) = run(&cfg, &mut out, |g, p| calls.push((g, p))).expect("in-memory write");
        // Progress counts every game once, in order.
        assert_eq!(
            calls.iter().map(|c| c.0).collect::<Vec<_>>(),
            vec![1, 2, 3, 4, 5]
        );
        (String::from_utf8(out).expect("utf-8"), g, p)
    }

    #[test]
    fn output_does_not_depend_on_threads() {
        for variant in [VariantKind::Chess, VariantKind::Crazyhouse] {
            let (one, g1, p1) = generate(variant, 1, 7);
            let (two, g2, p2) = generate(variant, 2, 7);
            assert_eq!((g1, g2), (5, 5));
            assert!(p1 > 20, "{variant:?}: only {p1} positions");
            assert_eq!(p1, one.lines().count());
            assert_eq!(p2, p1);
            assert_eq!(one, two, "{variant:?}: two threads wrote other data");
            // Every line is `FEN | result | score`.
            for l in one.lines() {
                let parts: Vec<&str> = l.split(" | ").collect();
                assert_eq!(parts.len(), 3, "{l}");
                assert!(["1.0", "0.5", "0.0"].contains(&parts[1]), "{l}");
                assert!(parts[2].parse::<i32>().is_ok(), "{l}");
            }
            // Another seed plays other games.
            let (other, _, _) = generate(variant, 1, 8);
            assert_ne!(one, other, "{variant:?}: the seed changed nothing");
        }
    }

    #[test]
    fn a_failed_write_is_an_error() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let cfg = DatagenConfig {
            openings: vec![],
            games: 3,
            nodes: 200,
            threads: 2,
            seed: 1,
            variant: VariantKind::Chess,
            eval: crate::engine::EvalKind::default(),
            network: None,
        };
        let err = run(&cfg, &mut Full, |_, _| {}).expect_err("the write fails");
        assert!(err.to_string().contains("disk full"), "{err}");
    }
}
