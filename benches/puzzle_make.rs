//! Puzzle benchmarks (`cargo bench --bench puzzle_make`): making puzzles from
//! a few games ([`make_all`]), one thread, node-limited searches so the
//! work is the same on every machine: two short games with one tactic each
//! (a mate in one and a hung queen), and the first game of the
//! Kasparov - Deep Blue 1997 match when the shared data is there (a long
//! game between strong players: every position screened, few candidates).
//!
//! `kibitz puzzles make` itself uses time-limited searches (300 ms a
//! verifying search, 75 ms a screening one, by default), so its wall time
//! follows the number of searches more than the machine. 100 games of
//! weak engine play (the first 100 of `kibitz match --movetime 100
//! --engine "kibitz uci" --option Level=3 --engine "kibitz uci" --option
//! Level=5 --games 300 --openings noob_3moves_5k.epd --pgn weak.pgn`)
//! took 484 s with `--threads 2` on a 2-core machine shared with other
//! builds (load average about 11), 12 puzzles; 400 such games (200 more
//! of these and 200 of level 5 against level 6) took 1445 s. The goal is
//! under 10 minutes for 100 games.

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::game::pgn_read::read_games;
use kibitz::train::make::{MakeSettings, SourceGame, make_all};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

const SHORT_GAMES: &str = r#"[Event "Scholar"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "Hang"]
[Result "0-1"]
[SetUp "1"]
[FEN "3q1rk1/5ppp/8/3n4/8/2N5/3Q1PPP/5RK1 w - - 0 1"]

1. Qe3 Nxe3 2. fxe3 0-1
"#;

fn games(pgn: &str, limit: usize) -> Vec<SourceGame> {
    read_games(pgn)
        .into_iter()
        .filter_map(Result::ok)
        .take(limit)
        .map(|g| SourceGame {
            start: g.start().clone(),
            moves: g.moves().to_vec(),
            url: String::new(),
        })
        .collect()
}

fn make(c: &mut Criterion) {
    let settings = MakeSettings::nodes(200_000);
    let stop = AtomicBool::new(false);
    let mut g = c.benchmark_group("puzzles make");
    g.sample_size(10);
    let short = games(SHORT_GAMES, 2);
    assert_eq!(short.len(), 2, "the short games read");
    g.bench_function("two short games, 200k nodes", |b| {
        b.iter(|| make_all(black_box(&short), &settings, 1, &stop, &|_, _| {}))
    });
    let kasparov = kibitz::util::shared_data_dir()
        .and_then(|d| std::fs::read_to_string(d.join("pgn/kasparov-deep-blue-1997.pgn")).ok())
        .map(|text| games(&text, 1));
    match kasparov {
        Some(one) if !one.is_empty() => {
            g.bench_function("Kasparov - Deep Blue game 1, 200k nodes", |b| {
                b.iter(|| make_all(black_box(&one), &settings, 1, &stop, &|_, _| {}))
            });
        }
        _ => eprintln!("no shared data: the Kasparov - Deep Blue game is skipped"),
    }
    g.finish();
}

criterion_group!(benches, make);
criterion_main!(benches);
