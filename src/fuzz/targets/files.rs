//! Targets for the user's and the data folder's files: settings, themes,
//! opening books, endgame tables, puzzles.

use super::{Target, seeds_of, text};
use crate::engine::Board;
use crate::engine::book::Book;
use crate::train::store::{Filter, Store};
use std::path::{Path, PathBuf};

pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "config",
            about: "config.toml (ui::config check and parse)",
            run: config_target,
            seeds: || vec![crate::ui::config::Config::example().as_bytes().to_vec()],
            tokens: TOML_TOKENS,
        },
        Target {
            name: "theme",
            about: "colour theme TOML files",
            run: theme_target,
            seeds: || {
                seeds_of(&[
                    include_str!("../../../themes/classic.toml"),
                    include_str!("../../../themes/plain.toml"),
                ])
            },
            tokens: TOML_TOKENS,
        },
        Target {
            name: "book",
            about: "Polyglot opening books (engine::book)",
            run: book_target,
            seeds: || vec![book_seed()],
            tokens: &[b"\0\0\0\0\0\0\0\0", b"\xff\xff", b"\x03\x1c"],
        },
        Target {
            name: "tablebase",
            about: "Kibitz endgame table files (tablebase::file)",
            run: tablebase_target,
            seeds: || vec![include_bytes!("../../../tests/fuzz/tablebase/KBvK.kbtb").to_vec()],
            tokens: &[
                b"KIBITZTB",
                b"\x01\0\0\0",
                b"KQvKR",
                b"KBvK",
                b"\xff",
                b"\x7f",
                b"\x80",
            ],
        },
        Target {
            name: "puzzle-csv",
            about: "Lichess puzzle CSV (train::puzzle)",
            run: puzzle_csv_target,
            seeds: || seeds_of(&[PUZZLE_CSV]),
            tokens: &[
                b",",
                b"\"",
                b"\n",
                b"h8g8",
                b" b - - 0 28",
                b"mateIn1",
                b"PuzzleId,",
            ],
        },
        Target {
            name: "puzzle-store",
            about: "the puzzle store's journal file (train::store, opened from a folder)",
            run: store_target,
            seeds: || vec![store_seed()],
            tokens: &[
                b"{\"add\":{",
                b"{\"try\":{",
                b"{\"kibitz_puzzles\":1}",
                b"\"id\":",
                b"\"fen\":",
                b"\"moves\":[",
                b"\"at\":",
                b"\"r\":",
                b"1e308",
                b"-1",
                b"null",
                b"true",
                b"\"src\":\"made\"",
                b"\n",
            ],
        },
    ]
}

const TOML_TOKENS: &[&[u8]] = &[
    b"[",
    b"]",
    b"[[",
    b"]]",
    b"=",
    b"\"",
    b"'''",
    b"\"\"\"",
    b"#",
    b"\n",
    b"true",
    b"-inf",
    b"nan",
    b"1e400",
    b"0x",
    b"{",
    b"}",
    b"[keys]",
    b"[colours]",
    b"level = ",
    b"\"#ff00ff\"",
    b"\"rgb(",
    b"time_control = ",
    b"\"5+3\"",
];

const PUZZLE_CSV: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
001KR,6Qk/p1p3pp/4N3/1p6/2q1r1n1/2B5/PP4PP/3R1R1K b - - 0 28,h8g8 f1f8,588,81,100,177,mate mateIn1 middlegame oneMove,https://lichess.org/TaT1Zl7z/black#56,\n\
002Q2,7k/p4R1p/3p3r/2pN1n2/2PbBBb1/3P2P1/P3r3/5R1K w - - 1 28,f4h6 f5g3,911,78,100,428,cornerMate mate mateIn1 middlegame oneMove,https://lichess.org/yqAJ1jMv#55,\n";

fn config_target(data: &[u8]) -> bool {
    let t = String::from_utf8_lossy(data);
    let report = crate::ui::config::Config::check(&t);
    let _ = report.message();
    crate::ui::config::Config::parse(&t).is_ok()
}

fn theme_target(data: &[u8]) -> bool {
    crate::ui::theme::Theme::parse(&String::from_utf8_lossy(data)).is_ok()
}

/// One entry for the start position: 1. e4 (Polyglot's move bits).
fn book_seed() -> Vec<u8> {
    let mut v = Board::startpos().hash().to_be_bytes().to_vec();
    let e2e4: u16 = 4 | (3 << 3) | (4 << 6) | (1 << 9);
    v.extend_from_slice(&e2e4.to_be_bytes());
    v.extend_from_slice(&10u16.to_be_bytes());
    v.extend_from_slice(&0u32.to_be_bytes());
    v
}

fn book_target(data: &[u8]) -> bool {
    let mut after = Board::startpos();
    for m in ["e2e4", "e7e5", "g1f3"] {
        if let Ok(m) = after.parse_uci(m) {
            after = after.play(m);
        }
    }
    let boards = [Board::startpos(), after];
    let mut rng = crate::util::Rng::new(1);
    let mut ok = false;
    // As read, and cut to whole entries; then every entry's key made the
    // start position's, so the move bits of every entry are decoded.
    let whole = &data[..data.len() - data.len() % 16];
    let mut keyed = whole.to_vec();
    for c in keyed.chunks_exact_mut(16) {
        c[..8].copy_from_slice(&boards[0].hash().to_be_bytes());
    }
    for bytes in [data, whole, &keyed] {
        if let Ok(book) = Book::from_bytes(bytes) {
            for b in &boards {
                ok |= !book.moves(b).is_empty();
                let _ = book.pick(b, &mut rng);
            }
        }
    }
    ok
}

fn tablebase_target(data: &[u8]) -> bool {
    use crate::tablebase::file;
    use crate::tablebase::material::Material;
    // The table named in the header (a file is opened by its name).
    let name = data
        .get(14..)
        .and_then(|rest| rest.get(..*data.get(13)? as usize))
        .and_then(|n| std::str::from_utf8(n).ok())
        .and_then(|n| n.parse::<Material>().ok())
        .filter(|m| m.pieces() <= 4);
    let Some(material) = name.or_else(|| "KBvK".parse().ok()) else {
        return false;
    };
    let path = Path::new("fuzz.kbtb");
    let mut ok = file::decode(data, path, &material).is_ok();
    // The checksum stops almost every mutation: the same bytes with the
    // length and checksum made right reach the values' decoder.
    if let Some(fixed) = with_checksum(data) {
        ok |= file::decode(&fixed, path, &material).is_ok();
    }
    ok
}

/// `data` with the checksums of its blocks and of its header set to
/// match (`None` if the header is too short to hold them), so that
/// mutations reach the block decoder.
fn with_checksum(data: &[u8]) -> Option<Vec<u8>> {
    use crate::tablebase::file::checksum;
    let name_len = *data.get(13)? as usize;
    let fixed = 14 + name_len + 8 + 80 + 4;
    let blocks = u32::from_le_bytes(data.get(fixed..fixed + 4)?.try_into().ok()?) as usize;
    let index = fixed + 4;
    let head_end = index.checked_add(blocks.checked_mul(12)?)?;
    if blocks > 1 << 16 || data.len() < head_end + 8 {
        return None;
    }
    let mut d = data.to_vec();
    let mut at = head_end + 8;
    for k in 0..blocks {
        let e = index + 12 * k;
        let len = u32::from_le_bytes(d[e..e + 4].try_into().ok()?) as usize;
        let end = at.saturating_add(len).min(d.len());
        let sum = checksum(&[&d[at..end]]);
        d[e + 4..e + 12].copy_from_slice(&sum.to_le_bytes());
        at = end;
    }
    let sum = checksum(&[&d[..head_end]]);
    d[head_end..head_end + 8].copy_from_slice(&sum.to_le_bytes());
    Some(d)
}

fn puzzle_csv_target(data: &[u8]) -> bool {
    let read = crate::train::puzzle::read_csv(&text(data));
    let mut ok = false;
    for p in read.puzzles.iter().take(32) {
        if p.line().is_ok() {
            ok = true;
            // A puzzle written back reads the same.
            let again = crate::train::puzzle::Puzzle::from_csv_line(&p.to_csv_line());
            if let Err(e) = again {
                panic!(
                    "a puzzle written back does not read ({e}): {}",
                    p.to_csv_line()
                );
            }
        }
    }
    ok
}

/// This process's folder for store files.
fn store_dir() -> PathBuf {
    std::env::temp_dir().join(format!("kibitz-fuzz-store-{}", std::process::id()))
}

/// A journal as the store writes it: two puzzles and an attempt.
fn store_seed() -> Vec<u8> {
    let dir = store_dir().join("seed");
    let _ = std::fs::remove_dir_all(&dir);
    let Ok(mut store) = Store::open(&dir) else {
        return Vec::new();
    };
    let puzzles = crate::train::puzzle::read_csv(PUZZLE_CSV).puzzles;
    let _ = store.import(puzzles, crate::train::store::Source::Lichess);
    let _ = store.record("001KR", true, 1_700_000_000);
    let bytes = std::fs::read(dir.join(crate::train::store::journal::FILE)).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

fn store_target(data: &[u8]) -> bool {
    let _ = crate::train::store::journal::scan(data);
    let dir = store_dir().join("run");
    let _ = std::fs::remove_dir_all(&dir);
    if std::fs::create_dir_all(&dir).is_err()
        || std::fs::write(dir.join(crate::train::store::journal::FILE), data).is_err()
    {
        return false;
    }
    let Ok(mut store) = Store::open(&dir) else {
        return false;
    };
    let at = 1_700_000_000;
    let _ = store.themes();
    let _ = store.theme_stats();
    let _ = store.due(at);
    let id = store.next(&Filter::default(), at, 1).map(|p| {
        let _ = p.line();
        p.id.clone()
    });
    if let Some(id) = id {
        let _ = store.record(&id, false, at);
    }
    store.warnings().is_empty() && !store.is_empty()
}
