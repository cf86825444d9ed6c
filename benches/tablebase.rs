//! Tablebase benchmarks: `cargo bench --bench tablebase`.
//!
//! - `tb_generate/all_4_pieces`: all 35 tables up to four pieces from
//!   nothing (target: under 10 s on two cores). Slow: 10 samples.
//! - `tb_generate/KBNvK`: one big table from its (loaded) children.
//! - `tb_probe/*`: one probe (target: under 1 µs), and the moves of a
//!   position.

use criterion::{BatchSize, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use kibitz::engine::Board;
use kibitz::tablebase::{Material, Tablebases};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-tb-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn generate(c: &mut Criterion) {
    let mut g = c.benchmark_group("tb_generate");
    g.sampling_mode(SamplingMode::Flat);
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(1));
    g.measurement_time(Duration::from_secs(1));
    let dir = temp_dir("all");
    g.bench_function("all_4_pieces", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_dir_all(&dir);
                Tablebases::new(&dir)
            },
            |mut tb| tb.ensure_all(4, &mut |_| {}).map(|()| tb),
            BatchSize::PerIteration,
        )
    });
    // One table, its children already loaded.
    let kbnk: Material = "KBNvK".parse().unwrap_or(Material::KVK);
    let mut base = Tablebases::new(&dir);
    for m in kbnk.children() {
        let _ = base.ensure(&m, &mut |_| {});
    }
    let path = base.path_of(&kbnk);
    g.bench_function("KBNvK", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_file(&path);
                let mut tb = Tablebases::new(&dir);
                tb.load_available();
                tb
            },
            |mut tb| tb.ensure(&kbnk, &mut |_| {}).map(|()| tb),
            BatchSize::PerIteration,
        )
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn probe(c: &mut Criterion) {
    let dir = temp_dir("probe");
    let mut tb = Tablebases::new(&dir);
    let names: Vec<Material> = ["KQvK", "KPvK", "KRvKN"]
        .iter()
        .filter_map(|n| n.parse().ok())
        .collect();
    if let Err(e) = tb.ensure_many(&names, &mut |_| {}) {
        eprintln!("cannot generate the tables: {e}");
        return;
    }
    // Many positions, so that the branch predictor and the caches see a
    // realistic mix: every king and piece placement of a few tables.
    let mut boards = Vec::new();
    for (i, fen) in [
        "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1",
        "8/8/8/1k6/8/8/K5P1/8 w - - 0 1",
        "8/2R5/8/8/7k/3K4/8/4n3 w - - 0 1",
        "8/8/8/8/3k4/8/1n6/KR6 b - - 0 1",
    ]
    .iter()
    .enumerate()
    {
        let Ok(start) = Board::from_fen(fen) else {
            continue;
        };
        // Walk a few plies of legal moves to spread the positions.
        let mut frontier = vec![start];
        for _ in 0..3 {
            let mut next = Vec::new();
            for b in &frontier {
                for m in shakmaty::Position::legal_moves(b.chess()) {
                    let child = b.play(m);
                    if tb.probe(&child).is_some() {
                        next.push(child);
                    }
                }
            }
            frontier = next;
        }
        boards.extend(frontier.into_iter().step_by(3 + i));
    }
    let mut g = c.benchmark_group("tb_probe");
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function(format!("probe x{}", boards.len()), |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for board in &boards {
                if let Some(p) = tb.probe(black_box(board)) {
                    sum += p.dtm;
                }
            }
            sum
        })
    });
    g.throughput(Throughput::Elements(1));
    let kqk = Board::from_fen("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1").ok();
    if let Some(kqk) = kqk {
        g.bench_function("probe one", |b| b.iter(|| tb.probe(black_box(&kqk))));
        g.bench_function("best_moves KQvK", |b| {
            b.iter(|| tb.best_moves(black_box(&kqk)))
        });
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, probe, generate);
criterion_main!(benches);
