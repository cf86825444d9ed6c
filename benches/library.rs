//! Game-file benchmarks (`cargo bench --bench library`): opening a large
//! PGN file. A file of at least 10,000 games is built in memory from the
//! real games in `games/*.pgn` (and the shared reference PGNs when present),
//! repeated with distinct `Round` tags. Measured: indexing it
//! ([`index_pgn`]: tags, move counts and line numbers, no move checked;
//! the target is that a 10,000-game file opens at once), the whole
//! [`Library::from_text`] (format detection included), and reading one game
//! in the middle fully ([`Library::load`]: moves, variations, comments).
//! Also the opening table ([`OpeningTable::parse`]: the one-off read of the
//! embedded lichess table on first use; target: a few milliseconds) and
//! naming a game's opening from its moves ([`name_line`], done once per
//! game as the list is checked and whenever the position changes).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use kibitz::game::library::{Library, Status, index_pgn};
use kibitz::game::openings::{OpeningTable, name_line};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// At least this many games in the file.
const GAMES: usize = 10_000;

fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The text of every game that reads, from the sample and reference files.
fn real_games() -> Vec<String> {
    let mut files = pgn_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games"));
    if let Some(shared) = kibitz::util::shared_data_dir() {
        files.extend(pgn_files(&shared.join("pgn")));
    }
    let mut games = Vec::new();
    for path in files {
        let Ok(mut lib) = Library::open(&path, &mut |_| {}) else {
            continue;
        };
        lib.check_all(&mut |_| {});
        for e in &lib.entries {
            if e.status == Status::Ok
                && let Some(text) = lib.text.get(e.span.clone())
            {
                games.push(text.trim_start_matches('\u{feff}').trim().to_string());
            }
        }
    }
    games
}

/// `game` with its `Round` tag set to `round`.
fn with_round(game: &str, round: usize) -> String {
    let tag = format!("[Round \"{round}\"]");
    let mut out = String::with_capacity(game.len() + 16);
    let mut replaced = false;
    for line in game.lines() {
        if !replaced && line.trim_start().starts_with("[Round ") {
            out.push_str(&tag);
            replaced = true;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if !replaced {
        out.insert_str(0, &format!("{tag}\n"));
    }
    out.push('\n');
    out
}

/// (the PGN text, the number of games in it, the number of real games
/// repeated).
fn big_pgn() -> (String, usize, usize) {
    let games = real_games();
    assert!(!games.is_empty(), "no sample games found");
    let mut text = String::new();
    for i in 0..GAMES {
        text.push_str(&with_round(&games[i % games.len()], i + 1));
    }
    (text, GAMES, games.len())
}

fn library(c: &mut Criterion) {
    let (text, n, distinct) = big_pgn();
    let entries = index_pgn(&text, &mut |_| {});
    assert_eq!(entries.len(), n, "every game indexed");
    let mid = n / 2;
    let mut lib = Library::from_text("big.pgn".into(), text.clone(), &mut |_| {});
    let game = lib.load(mid).expect("the middle game reads");
    eprintln!(
        "library bench: {n} games ({distinct} real ones repeated), {:.2} MB; game {} has {} moves",
        text.len() as f64 / 1e6,
        mid + 1,
        game.game.moves().len()
    );

    let mut g = c.benchmark_group("library");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("index_pgn 10k games", |b| {
        b.iter(|| index_pgn(black_box(&text), &mut |_| {}))
    });
    g.bench_function("from_text 10k games", |b| {
        b.iter_batched(
            || text.clone(),
            |t| Library::from_text("big.pgn".into(), t, &mut |_| {}),
            BatchSize::LargeInput,
        )
    });
    g.finish();

    let mut g = c.benchmark_group("library");
    g.bench_function("load middle game", |b| b.iter(|| lib.load(black_box(mid))));
    g.finish();
}

/// Reading the opening table, and naming a 40-move game with it.
fn openings(c: &mut Criterion) {
    let mut g = c.benchmark_group("openings");
    g.sample_size(20);
    g.bench_function("parse table", |b| b.iter(OpeningTable::parse));
    g.finish();
    let (text, _, _) = big_pgn();
    let mut lib = Library::from_text("big.pgn".into(), text, &mut |_| {});
    // The longest game among the first hundred.
    let game = (0..100)
        .filter_map(|i| lib.load(i).ok())
        .max_by_key(|p| p.game.moves().len())
        .expect("games read");
    let start = game.game.start().chess().clone();
    let moves = game.game.moves().to_vec();
    eprintln!(
        "openings bench: naming a game of {} plies: {:?}",
        moves.len(),
        name_line(&start, &moves).map(|(ply, o)| (ply, o.to_string()))
    );
    c.bench_function("openings name_line", |b| {
        b.iter(|| name_line(black_box(&start), black_box(&moves)))
    });
}

criterion_group!(benches, library, openings);
criterion_main!(benches);
