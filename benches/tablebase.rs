//! Tablebase benchmarks: `cargo bench --bench tablebase`.
//!
//! - `tb_generate/all_4_pieces`: all 35 tables up to four pieces from
//!   nothing (target: under 10 s on two cores). Slow: 10 samples.
//! - `tb_generate/KBNvK`: one big table from its (loaded) children.
//! - `tb_probe/*`: one probe (target: under 1 µs), and the moves of a
//!   position; a Syzygy WDL probe (tables in memory) when the shared data
//!   directory has them.
//! - `tb_load/all_35`: `load_available` of every table (90 MB), what the
//!   UCI engine does in the background at startup. The tables are
//!   generated first (about 15 s) unless `KIBITZ_TB_BENCH_DIR` names a
//!   directory that has them.
//! - `tb_search/*`: fixed-depth searches of 5-piece rook and minor-piece
//!   endings whose captures lead into the tables, with and without them;
//!   the throughput is the search's nodes per second.

use criterion::{BatchSize, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use kibitz::engine::{Board, Engine, EngineOptions, GamePosition, Limits, NoObserver};
use kibitz::tablebase::syzygy::SyzygyTables;
use kibitz::tablebase::{Material, Tablebases};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
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
    // Syzygy WDL (after a zeroing move), as the search probes it.
    let syzygy_dir = kibitz::util::shared_data_dir().map(|d| d.join("syzygy"));
    if let Some(sz) = syzygy_dir
        .and_then(|d| d.to_str().map(str::to_string))
        .and_then(|d| SyzygyTables::open(&d).ok())
        .filter(|s| s.wdl_tables() > 0)
    {
        let chess: Vec<shakmaty::Chess> = boards.iter().map(|b| b.chess().clone()).collect();
        g.throughput(Throughput::Elements(chess.len() as u64));
        g.bench_function(format!("syzygy wdl x{}", chess.len()), |b| {
            b.iter(|| {
                let mut sum = 0i32;
                for pos in &chess {
                    if let Some(w) = sz.probe_wdl_after_zeroing(black_box(pos)) {
                        sum += w.signum();
                    }
                }
                sum
            })
        });
    } else {
        eprintln!("no Syzygy tables in the shared data directory: syzygy probe skipped");
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn load(c: &mut Criterion) {
    let (dir, temporary) = match std::env::var_os("KIBITZ_TB_BENCH_DIR") {
        Some(d) => (PathBuf::from(d), false),
        None => (temp_dir("load"), true),
    };
    let mut tb = Tablebases::new(&dir);
    if let Err(e) = tb.ensure_all(4, &mut |_| {}) {
        eprintln!("cannot generate the tables: {e}");
        return;
    }
    drop(tb);
    let mut g = c.benchmark_group("tb_load");
    g.sampling_mode(SamplingMode::Flat);
    g.sample_size(10);
    g.bench_function("all_35", |b| {
        b.iter(|| {
            let mut tb = Tablebases::new(&dir);
            tb.load_available()
        })
    });
    g.finish();
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn search(c: &mut Criterion) {
    let dir = temp_dir("search");
    let mut tb = Tablebases::new(&dir);
    let names: Vec<Material> = ["KRvKR", "KRvKP", "KRPvK", "KBNvK", "KBvKP", "KNvKP"]
        .iter()
        .filter_map(|n| n.parse().ok())
        .collect();
    if let Err(e) = tb.ensure_many(&names, &mut |_| {}) {
        eprintln!("cannot generate the tables: {e}");
        return;
    }
    let tb = Arc::new(tb);
    let mut g = c.benchmark_group("tb_search");
    g.sample_size(10);
    for (name, fen, depth) in [
        ("KRvKRP d14", "8/5k2/8/4p3/8/2R5/4K3/7r w - - 0 1", 14),
        ("KBNvKP d12", "7k/8/8/8/4p3/3B1N2/8/4K3 w - - 0 1", 12),
    ] {
        let Ok(board) = Board::from_fen(fen) else {
            continue;
        };
        let pos = GamePosition::new(board);
        for (label, tables) in [("without tables", None), ("with tables", Some(tb.clone()))] {
            let run = |tables: &Option<Arc<Tablebases>>| {
                let mut e = Engine::new(EngineOptions {
                    hash_mb: 4,
                    ..EngineOptions::default()
                });
                e.set_tablebases(tables.clone());
                let stop = AtomicBool::new(false);
                e.search(&pos, &Limits::depth(depth), &stop, &mut NoObserver)
                    .result
                    .stats
            };
            let stats = run(&tables);
            eprintln!(
                "{name} {label}: {} nodes, {} tablebase hits",
                stats.nodes, stats.tb_hits
            );
            g.throughput(Throughput::Elements(stats.nodes));
            g.bench_function(format!("{name} {label}"), |b| {
                b.iter(|| run(black_box(&tables)).nodes)
            });
        }
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, probe, search, load, generate);
criterion_main!(benches);
