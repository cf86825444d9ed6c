//! Engine micro-benchmarks: `cargo bench`. Speed targets live here and in
//! `kibitz bench`, never in timed tests.

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::engine::{Board, Engine, EngineOptions, EvalKind, eval, movegen, perft};
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";

fn perft_bench(c: &mut Criterion) {
    let start = Board::startpos().into_chess();
    let kiwi = Board::from_fen(KIWIPETE).unwrap().into_chess();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("kibitz start d4", |b| {
        b.iter(|| perft::perft(black_box(&start), 4))
    });
    g.bench_function("shakmaty start d4", |b| {
        b.iter(|| shakmaty::perft(black_box(&start), 4))
    });
    g.bench_function("kibitz kiwipete d3", |b| {
        b.iter(|| perft::perft(black_box(&kiwi), 3))
    });
    g.bench_function("shakmaty kiwipete d3", |b| {
        b.iter(|| shakmaty::perft(black_box(&kiwi), 3))
    });
    g.finish();
}

fn movegen_bench(c: &mut Criterion) {
    let kiwi = Board::from_fen(KIWIPETE).unwrap().into_chess();
    c.bench_function("captures kiwipete", |b| {
        b.iter(|| movegen::tactical_moves(black_box(&kiwi), false).len())
    });
    c.bench_function("legal_moves kiwipete", |b| {
        b.iter(|| shakmaty::Position::legal_moves(black_box(&kiwi)).len())
    });
}

fn eval_bench(c: &mut Criterion) {
    let b1 = Board::from_fen(MIDDLEGAME).unwrap();
    let mut full = eval::Evaluator::new(EvalKind::Full);
    let mut simple = eval::Evaluator::new(EvalKind::Simple);
    c.bench_function("eval full", |b| b.iter(|| full.evaluate(black_box(&b1))));
    c.bench_function("eval simple", |b| {
        b.iter(|| simple.evaluate(black_box(&b1)))
    });
    c.bench_function("eval trace", |b| {
        b.iter(|| eval::trace(black_box(b1.chess()), EvalKind::Full).score)
    });
}

fn search_bench(c: &mut Criterion) {
    let b1 = Board::from_fen(MIDDLEGAME).unwrap();
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("depth 9 middlegame", |b| {
        b.iter(|| {
            let mut e = Engine::new(EngineOptions::default());
            e.search_depth(black_box(&b1), 9).stats.nodes
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    perft_bench,
    movegen_bench,
    eval_bench,
    search_bench
);
criterion_main!(benches);
