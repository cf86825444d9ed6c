//! Polyglot opening books: keys, lookups, the engine's book moves, bad
//! files, and the UCI options OwnBook/BookFile.

mod common;

use common::{board, is_legal_uci, shared_file};
use kibitz::engine::book::{Book, BookError};
use kibitz::engine::{Board, Engine, GamePosition, Limits, MoveSource, NoObserver};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

fn performance_book() -> Option<PathBuf> {
    shared_file("polyglot/performance.bin")
}

/// A file in the system temp directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> TempFile {
        let p = std::env::temp_dir().join(format!("kibitz-test-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).expect("cannot write temp file");
        TempFile(p)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn polyglot_keys() {
    // Documented keys from the Polyglot book format specification.
    assert_eq!(Board::startpos().hash(), 0x463b96181691fc9c);
    let cases: &[(&[&str], u64)] = &[
        (&["e2e4"], 0x823c9b50fd114196),
        (&["e2e4", "d7d5"], 0x0756b94461c50fb0),
        (&["e2e4", "d7d5", "e4e5"], 0x662fafb965db29d4),
        (&["e2e4", "d7d5", "e4e5", "f7f5"], 0x22a48b5a8e47ff78),
        (
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"],
            0x652a607ca3f242c1,
        ),
        (
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"],
            0x00fdd303c946bdd9,
        ),
        (
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"],
            0x3c8123ea7b067637,
        ),
        (
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"],
            0x5c3f9b829b279560,
        ),
    ];
    for (moves, key) in cases {
        let g = GamePosition::from_uci(None, moves).unwrap();
        assert_eq!(g.current().hash(), *key, "after {moves:?}");
        // The same position set up from its FEN has the same key.
        assert_eq!(board(&g.current().fen()).hash(), *key, "FEN of {moves:?}");
    }
}

#[test]
fn performance_book_start_position() {
    let Some(path) = performance_book() else {
        return;
    };
    let book = Book::open(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(book.len() > 1000, "only {} entries", book.len());
    let start = Board::startpos();
    let moves = book.moves(&start);
    let names: Vec<String> = moves.iter().map(|m| Board::uci(m.mv)).collect();
    eprintln!("book moves in the start position: {names:?}");
    assert!(!moves.is_empty());
    assert!(
        names.iter().any(|m| m == "e2e4" || m == "d2d4"),
        "{names:?}"
    );
    for m in &moves {
        assert!(
            start.is_legal(m.mv),
            "illegal book move {}",
            Board::uci(m.mv)
        );
    }
    // Best weight first.
    assert!(moves.windows(2).all(|w| w[0].weight >= w[1].weight));
    // No duplicates.
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
    // Every stored entry for the position decodes to a legal move.
    assert_eq!(book.entries(start.hash()).len(), moves.len());
}

#[test]
fn performance_book_follows_a_line() {
    let Some(path) = performance_book() else {
        return;
    };
    let book = Book::open(&path).unwrap();
    // Main lines: each position along them is in the book, all moves legal.
    for line in [
        &["e2e4", "e7e5", "g1f3", "b8c6"][..],
        &["d2d4", "g8f6", "c2c4", "e7e6"][..],
        &["e2e4", "c7c5", "g1f3"][..],
    ] {
        let mut g = GamePosition::default();
        for mv in line {
            let b = g.current().clone();
            let moves = book.moves(&b);
            assert!(!moves.is_empty(), "no book move at {}", b.fen());
            assert!(moves.iter().all(|m| b.is_legal(m.mv)));
            g.push(b.parse_uci(mv).unwrap());
        }
    }
    // Castling is stored king-takes-rook and comes out as e1g1: the Ruy
    // Lopez main line reaches 5.O-O.
    let g = GamePosition::from_uci(
        None,
        &[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
        ],
    )
    .unwrap();
    let names: Vec<String> = book
        .moves(g.current())
        .iter()
        .map(|m| Board::uci(m.mv))
        .collect();
    eprintln!("book moves after 4...Nf6: {names:?}");
    assert!(names.iter().any(|m| m == "e1g1"), "{names:?}");
}

#[test]
fn no_book_moves_far_from_theory() {
    let Some(path) = performance_book() else {
        return;
    };
    let book = Book::open(&path).unwrap();
    for fen in [
        "8/8/4k3/8/8/3B4/8/4K3 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 3 54",
    ] {
        let b = board(fen);
        assert!(book.moves(&b).is_empty(), "book move in {fen}");
        assert!(book.entries(b.hash()).is_empty(), "entry in {fen}");
    }
}

#[test]
fn engine_plays_from_the_book() {
    let Some(path) = performance_book() else {
        return;
    };
    let book = Book::open(&path).unwrap();
    let mut engine = Engine::default();
    engine.seed(7);
    engine.set_own_book(true);
    engine
        .set_book_file(Some(path.clone()))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(engine.book().is_some());
    let stop = AtomicBool::new(false);
    let start = GamePosition::default();
    let allowed: Vec<_> = book.moves(start.current()).iter().map(|m| m.mv).collect();
    for _ in 0..10 {
        let r = engine.search(&start, &Limits::depth(8), &stop, &mut NoObserver);
        assert_eq!(r.source, MoveSource::Book);
        let m = r.best_move.expect("book move");
        assert!(allowed.contains(&m), "{} is not a book move", Board::uci(m));
        assert_eq!(r.result.pv, vec![m]);
    }
    // Out of the book it searches.
    let end = GamePosition::new(board("8/8/4k3/8/8/3B4/8/4K3 w - - 0 1"));
    let r = engine.search(&end, &Limits::depth(3), &stop, &mut NoObserver);
    assert_eq!(r.source, MoveSource::Search);
    // With OwnBook off it searches even in the start position.
    engine.set_own_book(false);
    let r = engine.search(&start, &Limits::depth(3), &stop, &mut NoObserver);
    assert_eq!(r.source, MoveSource::Search);
    assert!(r.result.stats.nodes > 0);
    // Unloading the book.
    engine.set_own_book(true);
    engine.set_book_file(None).unwrap();
    assert!(engine.book().is_none());
    let r = engine.search(&start, &Limits::depth(3), &stop, &mut NoObserver);
    assert_eq!(r.source, MoveSource::Search);
}

#[test]
fn bad_book_files_are_errors() {
    // 17 bytes: not a whole number of 16-byte entries.
    let corrupt = TempFile::new("corrupt.bin", &[0x5a; 17]);
    match Book::open(&corrupt.0) {
        Err(e @ BookError::Corrupt { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("17"), "{msg}");
        }
        other => panic!("corrupt book accepted: {other:?}"),
    }
    let missing = std::env::temp_dir().join("kibitz-test-no-such-book.bin");
    assert!(matches!(Book::open(&missing), Err(BookError::Io { .. })));

    // The engine keeps working and keeps no book.
    let mut engine = Engine::default();
    engine.set_own_book(true);
    assert!(engine.set_book_file(Some(corrupt.0.clone())).is_err());
    assert!(engine.set_book_file(Some(missing)).is_err());
    assert!(engine.book().is_none());
    let r = engine.search(
        &GamePosition::default(),
        &Limits::depth(3),
        &AtomicBool::new(false),
        &mut NoObserver,
    );
    assert_eq!(r.source, MoveSource::Search);
    assert!(r.best_move.is_some());

    // An empty file is a valid, empty book.
    let empty = TempFile::new("empty.bin", &[]);
    let book = Book::open(&empty.0).expect("empty book");
    assert!(book.is_empty());
    assert!(book.moves(&Board::startpos()).is_empty());
}

/// Runs a UCI script, reading until `bestmove`; returns all output lines.
fn uci_script(cmds: &[String]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start kibitz uci");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    for c in cmds {
        writeln!(stdin, "{c}").unwrap();
    }
    stdin.flush().unwrap();
    let mut lines = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(l) => {
                let done = l.starts_with("bestmove");
                lines.push(l);
                if done {
                    break;
                }
            }
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("no bestmove; output so far:\n{}", lines.join("\n"));
            }
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    lines
}

#[test]
fn uci_book_options() {
    let Some(path) = performance_book() else {
        return;
    };
    let book = Book::open(&path).unwrap();
    let lines = uci_script(&[
        "setoption name OwnBook value true".into(),
        format!("setoption name BookFile value {}", path.display()),
        "position startpos moves e2e4".into(),
        "go depth 10".into(),
    ]);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "info string book move"),
        "{lines:?}"
    );
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let g = GamePosition::from_uci(None, &["e2e4"]).unwrap();
    let names: Vec<String> = book
        .moves(g.current())
        .iter()
        .map(|m| Board::uci(m.mv))
        .collect();
    assert!(names.iter().any(|n| n == mv), "{mv} not in {names:?}");
    assert!(is_legal_uci(g.current().chess(), mv));
}

#[test]
fn uci_bad_book_file() {
    let corrupt = TempFile::new("uci-corrupt.bin", &[1; 17]);
    let lines = uci_script(&[
        "setoption name OwnBook value true".into(),
        "setoption name BookFile value /nonexistent/kibitz/book.bin".into(),
        format!("setoption name BookFile value {}", corrupt.0.display()),
        "position startpos".into(),
        "go depth 3".into(),
    ]);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(errors[0].contains("nonexistent"), "{}", errors[0]);
    // Still plays (by search).
    assert!(!lines.iter().any(|l| l == "info string book move"));
    let mv = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(is_legal_uci(&shakmaty::Chess::default(), mv), "{mv}");
}
