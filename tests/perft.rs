//! Move generation: perft node counts against well-known values and the
//! shared perft suites, `divide`, and the `kibitz perft` command line.

mod common;

use common::{kibitz, last_line, shared_file, stderr_of, stdout_of};
use kibitz::engine::Board;
use kibitz::engine::perft::{divide, perft};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::path::Path;

/// Only depths whose expected count is at most this are checked (speed).
const MAX_NODES: u64 = 1_000_000;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The chessprogramming.org "Perft Results" positions with their published
/// counts (depth 1 first), including counts above [`MAX_NODES`] that are
/// skipped.
const STANDARD: &[(&str, &str, &[u64])] = &[
    (
        "start position",
        START,
        &[20, 400, 8_902, 197_281, 4_865_609],
    ),
    ("Kiwipete", KIWIPETE, &[48, 2_039, 97_862, 4_085_603]),
    (
        "position 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2_812, 43_238, 674_624, 11_030_083],
    ),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9_467, 422_333, 15_833_292],
    ),
    (
        "position 4 mirrored",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        &[6, 264, 9_467, 422_333, 15_833_292],
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1_486, 62_379, 2_103_487],
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594],
    ),
];

#[test]
fn standard_positions() {
    let mut checked = 0;
    for &(name, fen, counts) in STANDARD {
        let pos = Board::from_fen(fen)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .into_chess();
        assert_eq!(perft(&pos, 0), 1, "{name}: perft 0");
        for (i, &expected) in counts.iter().enumerate() {
            if expected > MAX_NODES {
                continue;
            }
            let depth = i as u32 + 1;
            assert_eq!(perft(&pos, depth), expected, "{name} ({fen}) depth {depth}");
            checked += 1;
        }
    }
    eprintln!("standard positions: {checked} (position, depth) pairs checked");
    assert_eq!(checked, 26);
}

#[test]
fn divide_sums_to_perft() {
    for &(name, fen, counts) in STANDARD {
        let pos = Board::from_fen(fen).unwrap().into_chess();
        for depth in 1..=3u32 {
            let d = divide(&pos, depth);
            assert_eq!(d.len() as u64, counts[0], "{name}: one entry per root move");
            let sum: u64 = d.iter().map(|&(_, n)| n).sum();
            assert_eq!(sum, counts[depth as usize - 1], "{name}: divide {depth}");
            assert_eq!(sum, perft(&pos, depth), "{name}: divide {depth} vs perft");
            // Each entry is the perft of the child.
            for &(m, n) in d.iter().take(5) {
                let child = Board::from_chess(pos.clone()).play(m).into_chess();
                assert_eq!(perft(&child, depth - 1), n, "{name}: child entry");
            }
        }
    }
}

/// One `id`/`epd`/`perft` record of a perft suite file.
struct Record {
    id: String,
    epd: String,
    counts: Vec<(u32, u64)>,
}

fn parse_suite(text: &str) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(id) = line.strip_prefix("id ") {
            out.push(Record {
                id: id.trim().to_string(),
                epd: String::new(),
                counts: Vec::new(),
            });
        } else if let Some(epd) = line.strip_prefix("epd ") {
            if let Some(r) = out.last_mut() {
                r.epd = epd.trim().to_string();
            }
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok());
            let nodes = it.next().and_then(|n| n.parse().ok());
            if let (Some(d), Some(n), Some(r)) = (depth, nodes, out.last_mut()) {
                r.counts.push((d, n));
            }
        }
    }
    out
}

/// The position of a suite record. The engine's own FEN parser first; the
/// suites also hold Chess960-style castling rights (X-FEN) and deliberately
/// impossible checks, which the engine rejects by design, so those fall back
/// to shakmaty with Chess960 castling and impossible checks allowed.
/// Returns the position and whether the fallback was needed.
fn suite_position(r: &Record) -> (Chess, bool) {
    let fen = format!("{} 0 1", r.epd);
    if let Ok(b) = Board::from_fen(&fen) {
        return (b.into_chess(), false);
    }
    let parsed: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("{}: unparsable EPD {}: {e}", r.id, r.epd));
    let pos = match parsed.into_position::<Chess>(CastlingMode::Chess960) {
        Ok(p) => p,
        Err(e) => e
            .ignore_impossible_check()
            .unwrap_or_else(|e| panic!("{}: invalid position {}: {e}", r.id, r.epd)),
    };
    (pos, true)
}

/// Checks the records selected by `pick`; returns (positions, depths, fallbacks).
fn check_suite(path: &Path, pick: impl Fn(usize) -> bool) -> (usize, usize, usize) {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let records = parse_suite(&text);
    assert!(!records.is_empty(), "{}: no records", path.display());
    let (mut positions, mut depths, mut fallbacks) = (0, 0, 0);
    let mut failures = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if !pick(i) {
            continue;
        }
        assert!(!r.epd.is_empty(), "{}: record without epd", r.id);
        let (pos, fallback) = suite_position(r);
        fallbacks += fallback as usize;
        let mut any = false;
        for &(depth, expected) in &r.counts {
            if expected > MAX_NODES {
                continue;
            }
            let got = perft(&pos, depth);
            if got != expected {
                failures.push(format!(
                    "{} ({}) depth {depth}: expected {expected}, got {got}",
                    r.id, r.epd
                ));
            }
            depths += 1;
            any = true;
        }
        positions += any as usize;
    }
    assert!(
        failures.is_empty(),
        "{} perft mismatches in {}:\n{}",
        failures.len(),
        path.display(),
        failures.join("\n")
    );
    (positions, depths, fallbacks)
}

const RANDOM_CHUNKS: usize = 4;

fn random_chunk(chunk: usize) {
    let Some(path) = shared_file("perft/random.perft") else {
        return;
    };
    // Interleaved so every chunk gets a similar mix of positions.
    let (positions, depths, _) = check_suite(&path, |i| i % RANDOM_CHUNKS == chunk);
    eprintln!(
        "random.perft chunk {}/{RANDOM_CHUNKS}: {positions} positions, {depths} depths checked",
        chunk + 1
    );
    // The suite has 6,838 positions with counts to depth 6; about four
    // depths per position are within the limit.
    assert!(positions >= 1500, "only {positions} positions checked");
    assert!(
        depths >= 4 * positions - positions / 2,
        "only {depths} depths"
    );
}

#[test]
fn random_suite_chunk_1() {
    random_chunk(0);
}

#[test]
fn random_suite_chunk_2() {
    random_chunk(1);
}

#[test]
fn random_suite_chunk_3() {
    random_chunk(2);
}

#[test]
fn random_suite_chunk_4() {
    random_chunk(3);
}

#[test]
fn tricky_suite() {
    let Some(path) = shared_file("perft/tricky.perft") else {
        return;
    };
    let (positions, depths, fallbacks) = check_suite(&path, |_| true);
    eprintln!(
        "tricky.perft: {positions} positions, {depths} depths checked \
         ({fallbacks} parsed with the Chess960/impossible-check fallback)"
    );
    assert!(positions >= 15, "only {positions} positions checked");
    assert!(depths >= 50, "only {depths} depths checked");
}

#[test]
fn cli_perft_start_position() {
    let o = kibitz(&["perft", "4"]);
    let out = stdout_of(&o);
    assert!(
        o.status.success(),
        "kibitz perft 4 failed: {}",
        stderr_of(&o)
    );
    assert_eq!(last_line(&out), "nodes 197281", "output:\n{out}");
}

#[test]
fn cli_perft_divide_kiwipete() {
    let o = kibitz(&["perft", "3", "--fen", KIWIPETE, "--divide"]);
    let out = stdout_of(&o);
    assert!(o.status.success(), "stderr: {}", stderr_of(&o));
    assert_eq!(last_line(&out), "nodes 97862", "output:\n{out}");
    // One `move: count` line per root move, summing to the total.
    let entries: Vec<(String, u64)> = out
        .lines()
        .filter_map(|l| {
            let (m, n) = l.split_once(": ")?;
            Some((m.to_string(), n.trim().parse().ok()?))
        })
        .collect();
    assert_eq!(entries.len(), 48, "output:\n{out}");
    assert_eq!(entries.iter().map(|e| e.1).sum::<u64>(), 97862);
    assert!(entries.iter().any(|(m, _)| m == "e1g1"), "castling as e1g1");
}

#[test]
fn cli_perft_rejects_bad_fen() {
    for fen in [
        "not a fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "8/8/8/8/8/8/8/KK5k w - - 0 1",
    ] {
        let o = kibitz(&["perft", "2", "--fen", fen]);
        let err = stderr_of(&o);
        assert!(!o.status.success(), "accepted bad FEN {fen:?}");
        assert!(
            err.to_lowercase().contains("error") && err.trim().len() > 10,
            "no clear error for {fen:?}: {err:?}"
        );
        assert!(
            !stdout_of(&o).contains("nodes"),
            "printed a count for {fen:?}"
        );
    }
}

// ---- Crazyhouse and Bughouse ----

use kibitz::engine::perft::perft_in;
use kibitz::engine::{Bug, Variant, Zh};

/// Crazyhouse perft counts are cheap with bulk counting: every depth of the
/// shared suite up to this many leaves is checked.
const MAX_ZH_NODES: u64 = 20_000_000;

fn variant_board<V: Variant>(fen: &str) -> Board<V> {
    Board::<V>::from_variant_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn crazyhouse_suite() {
    let Some(path) = shared_file("perft/crazyhouse.perft") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let records = parse_suite(&text);
    let mut checked = 0;
    for r in &records {
        let board = variant_board::<Zh>(&format!("{} 0 1", r.epd));
        for &(depth, expected) in &r.counts {
            if expected > MAX_ZH_NODES {
                continue;
            }
            assert_eq!(
                perft_in::<Zh>(board.pos(), depth),
                expected,
                "{} ({}) depth {depth}",
                r.id,
                r.epd
            );
            checked += 1;
        }
    }
    eprintln!(
        "crazyhouse.perft: {} positions, {checked} depths checked",
        records.len()
    );
    assert!(records.len() >= 5 && checked >= 18, "only {checked} depths");
}

/// Counts from Fairy-Stockfish 11.1 (`UCI_Variant bughouse`, `go perft`):
/// in one board of bughouse a capture leaves the board for the partner.
const BUGHOUSE: &[(&str, &[u64])] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1",
        &[52, 2_658, 87_470, 2_867_427],
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNPqrbnp] w KQkq - 0 1",
        &[180, 31_181, 4_634_832],
    ),
    // Our own positions, counted by Fairy-Stockfish the same way: an
    // Italian game with pawns in hand, a check that drops can block,
    // Kiwipete with knights in hand (more material than a chess set), and
    // a promoted queen that would return to a Crazyhouse hand as a pawn.
    (
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[Pp] w KQkq - 4 5",
        &[62, 3_740, 185_250],
    ),
    ("4k3/4r3/8/8/8/8/8/4K3[NPp] w - - 0 1", &[14, 848, 59_224]),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Nn] w KQkq - 0 1",
        &[80, 5_852, 390_853],
    ),
    (
        "4k3/1Q~6/8/8/4b3/8/Kpp5/8[Nn] b - - 0 1",
        &[78, 5_607, 178_122],
    ),
];

#[test]
fn bughouse_one_board_counts() {
    for &(fen, counts) in BUGHOUSE {
        let board = variant_board::<Bug>(fen);
        for (i, &expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(
                perft_in::<Bug>(board.pos(), depth),
                expected,
                "{fen} depth {depth}"
            );
        }
    }
}

#[test]
fn crazyhouse_agrees_with_bughouse_until_a_capture_is_recaptured_from_hand() {
    // Same first two plies (nothing captured can be dropped yet), then the
    // captured pieces enter the hand in Crazyhouse only (Fairy-Stockfish:
    // 180,635 for Crazyhouse at depth 3).
    let fen = "4k3/1Q~6/8/8/4b3/8/Kpp5/8[Nn] b - - 0 1";
    let zh = variant_board::<Zh>(fen);
    assert_eq!(perft_in::<Zh>(zh.pos(), 2), 5_607);
    assert_eq!(perft_in::<Zh>(zh.pos(), 3), 180_635);
    // And Crazyhouse refuses what only Bughouse can reach.
    assert!(
        Board::<Zh>::from_variant_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Nn] w KQkq - 0 1"
        )
        .is_err()
    );
}

#[test]
fn cli_perft_variants() {
    let o = kibitz(&[
        "perft",
        "3",
        "--variant",
        "bughouse",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1",
    ]);
    assert!(o.status.success(), "stderr: {}", stderr_of(&o));
    assert_eq!(last_line(&stdout_of(&o)), "nodes 87470");
    let o = kibitz(&[
        "perft",
        "2",
        "--variant",
        "crazyhouse",
        "--fen",
        "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -",
        "--divide",
    ]);
    let out = stdout_of(&o);
    assert!(o.status.success(), "stderr: {}", stderr_of(&o));
    assert_eq!(last_line(&out), "nodes 75353");
    assert!(
        out.lines().any(|l| l.starts_with("Q@")),
        "drops in UCI: {out}"
    );
    let o = kibitz(&["perft", "2", "--variant", "atomic"]);
    assert!(!o.status.success());
    assert!(stderr_of(&o).contains("unknown variant"));
}
