//! Puzzle store benchmarks (`cargo bench --bench puzzles`). Measured:
//! importing the 1,000-puzzle Lichess sample into a fresh store on disk
//! (reading the CSV with every move checked, creating the store, one
//! synced append; the goal is under a second), and opening a store of
//! 10,000 puzzles with a history of 10,000 attempts (what Kibitz does on
//! every start of the puzzle screen). Without the shared data a few
//! built-in puzzles are repeated under new ids instead of the sample.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use kibitz::train::puzzle::{Puzzle, read_csv};
use kibitz::train::store::{Source, Store};
use kibitz::util::Rng;
use std::hint::black_box;
use std::path::PathBuf;

const FALLBACK: &str = "\
001KR,6Qk/p1p3pp/4N3/1p6/2q1r1n1/2B5/PP4PP/3R1R1K b - - 0 28,h8g8 f1f8,588,81,100,177,mate mateIn1 middlegame oneMove,https://lichess.org/TaT1Zl7z/black#56,,
09IbS,8/8/R6p/7k/6p1/2r4P/6PK/3R4 w - - 0 34,d1d6 g4g3 h2g1 c3c1 d6d1 c1d1,1237,76,100,289,endgame long mate mateIn3 rookEndgame,https://lichess.org/7GiJMWyV#67,,
09ebA,r3r1k1/1ppb1pp1/p3qP1p/2p5/2P1P3/8/PBP1Q1PP/3R1RK1 w - - 1 19,f1f5 e6f5 e4f5 e8e2,1430,76,100,1228,advantage discoveredAttack middlegame short,https://lichess.org/0mWlF1tP#37,,
";

/// The sample's text, or 1,000 built-in lines under distinct ids.
fn sample_csv() -> String {
    let shared = kibitz::util::shared_data_dir()
        .and_then(|d| std::fs::read_to_string(d.join("puzzles/lichess-sample-1000.csv")).ok());
    if let Some(text) = shared {
        return text;
    }
    eprintln!("puzzles bench: no shared sample, using built-in puzzles repeated");
    let lines: Vec<&str> = FALLBACK.lines().collect();
    (0..1000)
        .map(|i| {
            let line = lines[i % lines.len()];
            let rest = line.split_once(',').map_or("", |(_, r)| r);
            format!("P{i:04},{rest}\n")
        })
        .collect()
}

/// A folder removed when dropped (after the timed part).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp(name: &str, n: usize) -> TempDir {
    let d = std::env::temp_dir().join(format!("kibitz-bench-{}-{name}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    TempDir(d)
}

/// 10,000 puzzles (the sample ten times, ids made distinct) and 10,000
/// attempts, a fifth of them failed, a few minutes apart.
fn big_store(sample: &[Puzzle]) -> Store {
    let mut s = Store::in_memory();
    let mut all = Vec::with_capacity(10_000);
    for k in 0..10_000 / sample.len() + 1 {
        for p in sample {
            let mut p = p.clone();
            p.id = format!("{}-{k}", p.id);
            all.push(p);
        }
    }
    all.truncate(10_000);
    let ids: Vec<String> = all.iter().map(|p| p.id.clone()).collect();
    s.import(all, Source::Lichess).expect("in memory");
    let mut rng = Rng::new(7);
    let mut at = 1_795_435_200;
    for _ in 0..10_000 {
        let id = &ids[rng.below(ids.len())];
        s.record(id, rng.below(5) != 0, at).expect("in memory");
        at += 180;
    }
    s
}

fn puzzles(c: &mut Criterion) {
    let text = sample_csv();
    let sample = read_csv(&text).puzzles;
    assert!(sample.len() >= 900, "{} puzzles read", sample.len());

    let big = big_store(&sample);
    let big_dir = temp("open", 0);
    big.save_as(&big_dir.0).expect("written");
    let bytes = std::fs::metadata(big_dir.0.join("puzzles.jsonl")).map_or(0, |m| m.len());
    eprintln!(
        "puzzles bench: {} puzzles to import; a store of {} puzzles and {} attempts, {:.1} MB",
        sample.len(),
        big.len(),
        big.history().len(),
        bytes as f64 / 1e6
    );

    let mut g = c.benchmark_group("puzzles");
    g.sample_size(20);
    let mut n = 0;
    g.bench_function("import sample into a fresh store", |b| {
        b.iter_batched(
            || {
                n += 1;
                temp("import", n)
            },
            |dir| {
                let puzzles = read_csv(black_box(&text)).puzzles;
                let mut s = Store::open(&dir.0).expect("a new store");
                let sum = s.import(puzzles, Source::Lichess).expect("written");
                assert_eq!(sum.added, sample.len());
                (s, dir)
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("open 10k puzzles 10k attempts", |b| {
        b.iter(|| {
            let s = Store::open(black_box(&big_dir.0)).expect("opens");
            assert_eq!(s.len(), 10_000);
            s
        })
    });
    g.finish();
}

criterion_group!(benches, puzzles);
criterion_main!(benches);
