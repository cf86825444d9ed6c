//! Tablebase generation, files and the `kibitz tb` command line.
//!
//! Tables are generated into temporary directories. The default tests use
//! the 3-piece tables and KBBvK/KBNvK (a few seconds in release builds);
//! `every_table_matches_the_references` (ignored: 3 minutes) generates
//! all 35 tables and compares every position with Syzygy and the Gaviota
//! `dm` suite.

use kibitz::engine::Board;
use kibitz::tablebase::{Event, FileError, Material, Tablebases, Wdl, verify};
use shakmaty::{Bitboard, CastlingMode, Chess, Color, FromSetup, Position, Setup, Square};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-tb-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The shared data folder, or why it cannot be used.
fn shared_data() -> Result<PathBuf, String> {
    let p = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data"));
    if p.is_dir() {
        Ok(p.to_path_buf())
    } else {
        Err(format!("{} is missing", p.display()))
    }
}

fn m(name: &str) -> Material {
    name.parse().unwrap()
}

const SMALL: [&str; 7] = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KBBvK", "KBNvK"];

/// Tables generated once for the tests of this file.
fn shared() -> &'static Mutex<Tablebases> {
    static TB: OnceLock<Mutex<Tablebases>> = OnceLock::new();
    TB.get_or_init(|| {
        let mut tb = Tablebases::new(temp_dir("shared"));
        let list: Vec<Material> = SMALL.iter().map(|n| m(n)).collect();
        tb.ensure_many(&list, &mut |_| {}).unwrap();
        Mutex::new(tb)
    })
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

#[test]
fn longest_mates_with_the_stronger_side_to_move() {
    let tb = shared().lock().unwrap();
    // Plies: 10, 16, 19, 33 and 28 moves.
    for (name, plies) in [
        ("KQvK", 19),
        ("KRvK", 31),
        ("KBBvK", 37),
        ("KBNvK", 65),
        ("KPvK", 55),
    ] {
        let st = tb.table(&m(name)).unwrap().stats();
        assert_eq!(st.sides[0].longest_win, plies, "{name}");
        assert_eq!(
            st.sides[1].longest_win, 0,
            "{name}: the lone king never wins"
        );
    }
    for name in ["KBvK", "KNvK"] {
        let st = tb.table(&m(name)).unwrap().stats();
        assert_eq!(st.sides[0].wins + st.sides[1].wins + st.sides[1].losses, 0);
    }
    // Known positions (Kryukov's longest checkmates), both colours.
    for (fen, dtm) in [
        ("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", 19),
        ("8/8/8/8/8/2k5/1R6/K7 w - - 0 1", 31),
        ("8/8/8/1k6/8/8/K5P1/8 w - - 0 1", 55),
        ("8/8/7N/8/8/8/8/K1k1B3 w - - 0 1", 65),
        ("8/8/8/8/7B/8/3k4/K2B4 w - - 0 1", 37),
        ("k7/1q6/8/8/5K2/8/8/8 b - - 0 1", 19),
    ] {
        let p = tb.probe(&board(fen)).unwrap();
        assert_eq!((p.wdl, p.dtm), (Wdl::Win, dtm), "{fen}");
    }
    // Mated, stalemated, bare kings.
    let mated = tb.probe(&board("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")).unwrap();
    assert_eq!((mated.wdl, mated.dtm), (Wdl::Loss, 0));
    let stalemate = tb.probe(&board("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")).unwrap();
    assert_eq!((stalemate.wdl, stalemate.dtm), (Wdl::Draw, 0));
    let bare = tb.probe(&board("k7/8/1K6/8/8/8/8/8 b - - 0 1")).unwrap();
    assert_eq!(bare.wdl, Wdl::Draw);
    // Not covered: five pieces, or a table not loaded.
    assert!(
        tb.probe(&board("k7/8/1K6/8/8/8/8/QQQ5 b - - 0 1"))
            .is_none()
    );
    assert!(tb.probe(&board("k7/8/1K6/8/8/8/8/QQ6 b - - 0 1")).is_none());
}

#[test]
fn queen_against_rook_takes_35_moves_at_most() {
    let mut tb = shared().lock().unwrap();
    tb.ensure(&m("KQvKR"), &mut |_| {}).unwrap();
    let st = tb.table(&m("KQvKR")).unwrap().stats();
    // 35 moves with White to move (69 plies); Black to move loses in at
    // most 70 plies.
    assert_eq!(st.sides[0].longest_win, 69);
    assert_eq!(st.sides[1].longest_loss, 70);
    // The rook side to move can win (skewers, forks) but never slowly.
    assert!(st.sides[1].wins > 0 && st.sides[1].longest_win < 69);
}

#[test]
fn kpk_counted_on_all_files_without_mirroring() {
    let tb = shared().lock().unwrap();
    // [side to move] -> (legal, White wins)
    let mut n = [(0u64, 0u64); 2];
    for wk in 0..64u32 {
        for bk in 0..64u32 {
            for p in 8..56u32 {
                if wk == bk || wk == p || bk == p {
                    continue;
                }
                for (k, turn) in [Color::White, Color::Black].into_iter().enumerate() {
                    let mut b = shakmaty::Board::empty();
                    b.set_piece_at(Square::new(wk), Color::White.king());
                    b.set_piece_at(Square::new(bk), Color::Black.king());
                    b.set_piece_at(Square::new(p), Color::White.pawn());
                    let mut setup = Setup::empty();
                    setup.board = b;
                    setup.turn = turn;
                    setup.promoted = Bitboard::EMPTY;
                    // Legal: the side not to move is not in check.
                    let pos = match Chess::from_setup(setup, CastlingMode::Standard) {
                        Ok(pos) => pos,
                        Err(e) => match e.ignore_impossible_check() {
                            Ok(pos) => pos,
                            Err(_) => continue,
                        },
                    };
                    n[k].0 += 1;
                    let probe = tb.probe_chess(&pos).unwrap();
                    let white_wins = match turn {
                        Color::White => probe.wdl == Wdl::Win,
                        Color::Black => probe.wdl == Wdl::Loss,
                    };
                    n[k].1 += u64::from(white_wins);
                    assert!(probe.wdl != Wdl::Win || turn == Color::White);
                }
            }
        }
    }
    assert_eq!(n, [(163_328, 124_960), (168_024, 97_604)]);
    // The same numbers from the table's statistics (symmetric images
    // counted).
    let st = tb.table(&m("KPvK")).unwrap().stats();
    assert_eq!(st.sides[0].positions, 163_328);
    assert_eq!(st.sides[0].wins, 124_960);
    assert_eq!(st.sides[1].positions, 168_024);
    assert_eq!(st.sides[1].losses, 97_604);
}

/// Every position of `names` against Syzygy; returns how many were
/// compared.
fn check_syzygy(tb: &Tablebases, names: &[Material], data: &Path) -> u64 {
    let dir = data.join("syzygy");
    let syzygy = verify::open_syzygy(&dir).unwrap();
    let mut checked = 0;
    for name in names {
        if !verify::syzygy_has(&dir, name) {
            continue;
        }
        let rep = tb.verify_syzygy(name, &syzygy).unwrap();
        assert_eq!(
            rep.mismatches, 0,
            "{name}: {} of {} differ, e.g. {:?}",
            rep.mismatches, rep.checked, rep.examples
        );
        assert!(rep.checked > 10_000, "{name}");
        checked += rep.checked;
    }
    checked
}

/// Every `dm` of the Gaviota suite whose table is loaded; returns how many
/// were compared, and how many positions of at most four pieces there are.
fn check_dm_suite(tb: &Tablebases, data: &Path) -> (usize, usize) {
    let text = std::fs::read_to_string(data.join("epd/endgame-dm-4.epd")).unwrap();
    let (mut checked, mut small) = (0, 0);
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pieces = line
            .split_whitespace()
            .next()
            .map_or(0, |b| b.chars().filter(char::is_ascii_alphabetic).count());
        small += usize::from(pieces <= 4);
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = format!(
            "{} {} {} {} 0 1",
            fields[0], fields[1], fields[2], fields[3]
        );
        let dm: i32 = line
            .split("dm ")
            .nth(1)
            .and_then(|s| s.trim_end_matches(';').trim().parse().ok())
            .unwrap();
        let b = board(&fen);
        let Some(p) = tb.probe(&b) else {
            continue; // more than four pieces, or a table not generated here
        };
        let plies = if dm > 0 { 2 * dm - 1 } else { 2 * dm };
        assert_eq!(p.dtm, plies, "{fen} (dm {dm})");
        checked += 1;
    }
    (checked, small)
}

#[test]
fn agrees_with_syzygy_and_gaviota_where_generated() {
    let data = match shared_data() {
        Ok(d) => d,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let tb = shared().lock().unwrap();
    let names: Vec<Material> = SMALL.iter().map(|n| m(n)).collect();
    let checked = check_syzygy(&tb, &names, &data);
    assert!(checked > 4_000_000, "{checked}");
    let (dm, _) = check_dm_suite(&tb, &data);
    assert!(dm >= 6, "{dm}");
}

#[test]
fn corrupt_and_wrong_version_files_are_regenerated() {
    let dir = temp_dir("corrupt");
    let kqk = m("KQvK");
    let mut tb = Tablebases::new(&dir);
    tb.ensure(&kqk, &mut |_| {}).unwrap();
    let path = tb.path_of(&kqk);
    let good = std::fs::read(&path).unwrap();
    let probe = tb.probe(&board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"));

    // What happens when a fresh instance needs the table.
    let reopen = |bytes: &[u8]| -> (Vec<String>, bool) {
        std::fs::write(&path, bytes).unwrap();
        let mut tb = Tablebases::new(&dir);
        let mut events = Vec::new();
        tb.ensure(&kqk, &mut |e| {
            events.push(match e {
                Event::Invalid { error, .. } => match error {
                    FileError::Corrupt { .. } => "corrupt".to_string(),
                    FileError::Version { found, .. } => format!("version {found}"),
                    FileError::NotATable { .. } => "not a table".to_string(),
                    FileError::Io { .. } => "io".to_string(),
                },
                Event::Loaded { .. } => "loaded".into(),
                Event::Generated { .. } => "generated".into(),
                _ => String::new(),
            })
        })
        .unwrap();
        events.retain(|e| !e.is_empty());
        let same = tb.probe(&board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1")) == probe;
        (events, same)
    };

    // A flipped byte anywhere: in the values, and in the header's stats.
    for at in [good.len() - 10, good.len() / 2, 40] {
        let mut bad = good.clone();
        bad[at] ^= 0x04;
        let (events, same) = reopen(&bad);
        assert_eq!(events, ["corrupt", "generated"], "byte {at}");
        assert!(same);
        assert_eq!(std::fs::read(&path).unwrap(), good, "regenerated file");
    }
    // Another format version.
    let mut other = good.clone();
    other[8..12].copy_from_slice(&1u32.to_le_bytes());
    assert_eq!(reopen(&other).0, ["version 1", "generated"]);
    // Cut short, empty, or not ours at all.
    assert_eq!(reopen(&good[..good.len() - 1]).0, ["corrupt", "generated"]);
    assert_eq!(reopen(b"").0, ["not a table", "generated"]);
    assert_eq!(
        reopen(b"KQvK tablebase, trust me").0,
        ["not a table", "generated"]
    );
    // A valid file is loaded, not regenerated.
    assert_eq!(reopen(&good).0, ["loaded"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_tables_are_generated_with_their_dependencies() {
    let dir = temp_dir("deps");
    let mut tb = Tablebases::new(&dir);
    let mut generated = Vec::new();
    tb.ensure(&m("KPvK"), &mut |e| {
        if let Event::Generated { material, .. } = e {
            generated.push(material.to_string());
        }
    })
    .unwrap();
    // Promotions lead to these.
    generated[..4].sort();
    assert_eq!(generated, ["KBvK", "KNvK", "KQvK", "KRvK", "KPvK"]);
    // Probing never generates: a fresh instance knows nothing until loaded.
    let mut fresh = Tablebases::new(&dir);
    let fen = board("8/8/8/1k6/8/8/K5P1/8 w - - 0 1");
    assert!(fresh.probe(&fen).is_none());
    assert_eq!(fresh.load_available(), 5);
    assert_eq!(fresh.probe(&fen).unwrap().dtm, 55);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn best_moves_are_sorted_and_consistent() {
    let tb = shared().lock().unwrap();
    let b = board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1");
    let moves = tb.best_moves(&b).unwrap();
    assert_eq!(moves.len(), b.chess().legal_moves().len());
    assert_eq!(moves[0].1, tb.probe(&b).unwrap());
    for w in moves.windows(2) {
        assert!(w[0].1.goodness() >= w[1].1.goodness());
    }
    // Each move's value is the child's, negated and one ply longer.
    for (mv, p) in &moves {
        let child = tb.probe(&b.play(*mv)).unwrap();
        assert_eq!(p.wdl as i32, -(child.wdl as i32));
        if p.wdl != Wdl::Draw {
            assert_eq!(p.dtm, -child.dtm + p.dtm.signum());
        }
    }
    // Losing the queen draws.
    assert!(moves.iter().any(|(_, p)| p.wdl == Wdl::Draw));
    // Under-promotions and captures leave the table.
    let kpk = board("8/4P3/8/8/8/k7/8/4K3 w - - 0 1");
    let moves = tb.best_moves(&kpk).unwrap();
    assert_eq!(Board::uci(moves[0].0), "e7e8q");
    assert!(
        moves
            .iter()
            .any(|(m, p)| Board::uci(*m) == "e7e8b" && p.wdl == Wdl::Draw)
    );
}

fn kibitz(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn probe_prints_the_json_contract() {
    let dir = temp_dir("cli");
    let d = dir.to_str().unwrap();
    let out = kibitz(&["tb", "probe", "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", "--dir", d]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["wdl"], 1);
    assert_eq!(v["dtm"], 19);
    let moves = v["moves"].as_array().unwrap();
    let legal = board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1")
        .chess()
        .legal_moves()
        .len();
    assert_eq!(moves.len(), legal);
    assert_eq!(moves[0]["wdl"], 1);
    assert_eq!(moves[0]["dtm"], 19);
    for mv in moves {
        assert!(mv["uci"].as_str().unwrap().len() >= 4);
        assert!(!mv["san"].as_str().unwrap().is_empty());
    }
    // Draws (the queen hangs) after wins; losses would come last.
    let wdl: Vec<i64> = moves.iter().map(|m| m["wdl"].as_i64().unwrap()).collect();
    assert!(wdl.windows(2).all(|w| w[0] >= w[1]));
    assert!(wdl.contains(&0));
    assert!(Path::new(d).join("KQvK.kbtb").is_file());

    // The defender: mated in 18 plies at best.
    let out = kibitz(&["tb", "probe", "8/8/8/5k2/8/8/1Q6/K7 b - - 0 1", "--dir", d]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["wdl"], -1);
    assert!(v["dtm"].as_i64().unwrap() < 0);
    assert_eq!(v["moves"][0]["dtm"], v["dtm"]);

    // Mated: no moves.
    let out = kibitz(&["tb", "probe", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "--dir", d]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["wdl"].as_i64(), v["dtm"].as_i64()), (Some(-1), Some(0)));
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0));

    // Errors: too many pieces, a bad FEN.
    let out = kibitz(&["tb", "probe", "k7/8/1K6/8/8/8/8/QQQ5 b - - 0 1", "--dir", d]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 pieces"));
    let out = kibitz(&["tb", "probe", "not a fen", "--dir", d]);
    assert!(!out.status.success());

    // stats and generate.
    let out = kibitz(&["tb", "stats", "KQvK", "--dir", d]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("144,508") && text.contains("19"),
        "{text}"
    );
    let out = kibitz(&["tb", "generate", "KRvK", "--dir", d]);
    let err = String::from_utf8_lossy(&out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{err}");
    assert!(text.contains("KRvK") && text.contains("31"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "generates all 35 tables and probes Syzygy 135 million times (3 minutes)"]
fn every_table_matches_the_references() {
    let data = match shared_data() {
        Ok(d) => d,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let dir = temp_dir("all");
    let mut tb = Tablebases::new(&dir);
    tb.ensure_all(4, &mut |_| {}).unwrap();
    let all = Material::all(4);
    assert_eq!(all.len(), 35);
    let checked = check_syzygy(&tb, &all, &data);
    eprintln!("{checked} positions agree with Syzygy");
    let (dm, small) = check_dm_suite(&tb, &data);
    eprintln!("{dm} dm values agree");
    assert_eq!(
        dm, small,
        "every position of at most four pieces is covered"
    );
    // En passant: the same pawns with and without the right.
    let ep = tb.probe(&board("8/8/8/8/pP6/8/K7/7k b - b3 0 1")).unwrap();
    let no_ep = tb.probe(&board("8/8/8/8/pP6/8/K7/7k b - - 0 1")).unwrap();
    assert_eq!((ep.dtm, no_ep.dtm), (0, -30));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_processes_generating_the_same_tables_at_once_leave_them_whole() {
    // Two Kibitz (two terminals, or a trainer and `tb generate`) making
    // the same tables in one folder: each writes its own temp file and
    // renames it into place, so a table is one writer's whole file.
    let dir = temp_dir("two-writers");
    let d = dir.to_str().expect("a UTF-8 path");
    let run = || {
        kibitz(&[
            "tb",
            "generate",
            "KRvKN",
            "KQvKR",
            "--threads",
            "1",
            "--dir",
            d,
        ])
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(run);
        let b = s.spawn(run);
        (a.join().expect("a"), b.join().expect("b"))
    });
    for o in [&a, &b] {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let mut tb = Tablebases::new(dir.clone());
    let mut invalid = Vec::new();
    tb.ensure_many(&[m("KRvKN"), m("KQvKR")], &mut |e| {
        if let Event::Invalid { material, .. } | Event::Generating { material, .. } = e {
            invalid.push(*material);
        }
    })
    .expect("the tables load");
    assert!(invalid.is_empty(), "tables to regenerate: {invalid:?}");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
