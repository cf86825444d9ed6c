//! Unit tests: generated values agree with a one-ply search over the
//! tables themselves (every position, or a sample of big tables).

use super::*;
use shakmaty::Position;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-tb-unit-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Every `step`-th legal position: the stored value equals the best move
/// value over its legal moves (or mate/stalemate).
fn self_consistent(tb: &Tablebases, m: &Material, step: usize) -> u64 {
    self_consistent_where(tb, m, step, |_| true)
}

/// [`self_consistent`] for the sampled positions that `filter` accepts.
fn self_consistent_where(
    tb: &Tablebases,
    m: &Material,
    step: usize,
    filter: impl Fn(&Chess) -> bool,
) -> u64 {
    let t = tb.table(m).expect("loaded");
    let layout = &t.layout;
    let mut checked = 0;
    for stm in [Color::White, Color::Black] {
        for idx in (0..layout.size).step_by(step) {
            let r = layout.decode(idx);
            if !layout.is_canonical(idx, &r) || !generate::is_legal(&r, stm) {
                continue;
            }
            let Some(pos) = verify::chess_of(&r, stm) else {
                continue;
            };
            if !filter(&pos) {
                continue;
            }
            let stored = t.at(stm, idx).expect("a readable table");
            let expect = tb.search_code(&pos);
            assert_eq!(
                stored,
                expect,
                "{m}: {} stored {:?} search {:?}",
                shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal),
                Probe::from_code(stored),
                Probe::from_code(expect)
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn small_tables_are_self_consistent() {
    let dir = temp_dir("consistent");
    let mut tb = Tablebases::new(&dir);
    // One at a time: each runs alone, on every thread. (KPvKP, the table
    // with en passant, needs 14 others: see the ignored integration test.)
    for name in ["KQvK", "KRvK", "KPvK", "KNvK", "KBvK", "KRvKN", "KBBvK"] {
        let m: Material = name.parse().unwrap();
        tb.ensure(&m, &mut |_| {}).unwrap();
        let step = if m.pieces() == 3 { 3 } else { 101 };
        assert!(self_consistent(&tb, &m, step) > 1000, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_table_read_block_by_block_answers_like_one_in_memory() {
    // A five-piece table is read from its file a block at a time; a
    // four-piece one opened that way must answer every probe the same.
    let dir = temp_dir("lazy");
    let m: Material = "KRvKN".parse().unwrap();
    let mut whole = Tablebases::new(&dir);
    whole.ensure(&m, &mut |_| {}).unwrap();
    let mut lazy = Tablebases::new(&dir);
    for c in m.children() {
        lazy.load(&c).unwrap();
    }
    let t = file::open(&whole.path_of(&m), &m, file::Keep::InFile).unwrap();
    assert!(t.values.is_lazy());
    lazy.insert(t);
    assert!(self_consistent(&lazy, &m, 97) > 10_000);
    let (a, b) = (whole.table(&m).unwrap(), lazy.table(&m).unwrap());
    for stm in [Color::White, Color::Black] {
        for idx in (0..a.layout.size).step_by(13) {
            // (Unused indices: marked in memory, filled in the file.)
            if a.at(stm, idx) != Some(table::ILLEGAL) {
                assert_eq!(a.at(stm, idx), b.at(stm, idx), "{idx}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn threads_do_not_change_the_tables() {
    let one = temp_dir("threads1");
    let two = temp_dir("threads2");
    for name in ["KPvK", "KRvKN", "KBBvK"] {
        let m: Material = name.parse().unwrap();
        let mut a = Tablebases::new(&one);
        a.set_threads(1);
        a.ensure(&m, &mut |_| {}).unwrap();
        let mut b = Tablebases::new(&two);
        b.set_threads(2);
        // Children first, so that the table itself runs alone on both
        // threads.
        for c in m.children() {
            b.ensure(&c, &mut |_| {}).unwrap();
        }
        b.ensure(&m, &mut |_| {}).unwrap();
        let fa = std::fs::read(a.path_of(&m)).unwrap();
        let fb = std::fs::read(b.path_of(&m)).unwrap();
        assert!(fa == fb, "{name}");
    }
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&two);
}

/// A folder for five-piece tables: `$KIBITZ_TB5_DIR` (kept, its tables
/// reused), else a temp folder removed when the value is dropped.
struct FiveDir {
    dir: PathBuf,
    temp: bool,
}

impl FiveDir {
    fn new(tag: &str) -> FiveDir {
        match std::env::var_os("KIBITZ_TB5_DIR") {
            Some(d) => FiveDir {
                dir: PathBuf::from(d),
                temp: false,
            },
            None => FiveDir {
                dir: temp_dir(tag),
                temp: true,
            },
        }
    }
}

impl Drop for FiveDir {
    fn drop(&mut self) {
        if self.temp {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The shared data folder (`KIBITZ_SHARED_DATA`, else `../shared/data`).
fn shared_data() -> Option<PathBuf> {
    let p = std::env::var_os("KIBITZ_SHARED_DATA").map_or_else(
        || Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")).to_path_buf(),
        PathBuf::from,
    );
    p.is_dir().then_some(p)
}

/// Stockfish's mate score (in moves, signed) for each FEN, searching for a
/// mate in at most `within[i]` moves for up to `ms` milliseconds; `None`
/// where it reports no mate.
fn stockfish_mates(engine: &Path, fens: &[String], within: &[i32], ms: u32) -> Vec<Option<i32>> {
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(engine)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start stockfish");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut out = Vec::new();
    writeln!(input, "uci\nsetoption name Threads value 1").unwrap();
    for (fen, n) in fens.iter().zip(within) {
        writeln!(
            input,
            "ucinewgame\nposition fen {fen}\ngo mate {n} movetime {ms}"
        )
        .unwrap();
        input.flush().unwrap();
        let mut mate = None;
        loop {
            line.clear();
            if output.read_line(&mut line).unwrap() == 0 {
                panic!("stockfish quit");
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"bestmove") {
                break;
            }
            if let Some(k) = words.windows(2).position(|w| w == ["score", "mate"]) {
                mate = words.get(k + 2).and_then(|n| n.parse().ok());
            } else if words.contains(&"score") {
                mate = None;
            }
        }
        out.push(mate);
    }
    let _ = writeln!(input, "quit");
    let _ = child.wait();
    out
}

/// Five-piece tables: KRPvKR (with KQRvKR, KRRvKR, KRBvKR and KRNvKR,
/// which its promotions lead to) and KBNvKB. Set `KIBITZ_TB5_DIR` to keep
/// (and reuse) the tables; `KIBITZ_SHARED_DATA` for the Gaviota `dm`
/// suite if `../shared/data` is elsewhere.
#[test]
#[ignore = "generates six 5-piece tables: about 4 minutes on two cores, 2.1 GB of memory"]
fn five_piece_tables_are_consistent_and_match_references() {
    let dir = FiveDir::new("five");
    let mut tb = Tablebases::new(&dir.dir);
    let krpkr: Material = "KRPvKR".parse().unwrap();
    let kbnkb: Material = "KBNvKB".parse().unwrap();
    tb.ensure_many(&[krpkr, kbnkb], &mut |_| {}).unwrap();
    let mut five: Vec<Material> = krpkr.children();
    five.extend([krpkr, kbnkb]);
    five.retain(|m| m.pieces() == 5);
    assert_eq!(five.len(), 6);
    let engine = std::env::var_os("STOCKFISH")
        .map_or_else(|| PathBuf::from("/usr/games/stockfish"), PathBuf::from);
    for m in &five {
        let t = tb.table(m).unwrap();
        let st = t.stats();
        eprintln!("{m}: {st:?}");
        // Each position of a sample equals the best of its moves.
        let step = (t.layout.size / 20_000) | 1;
        let checked = self_consistent(&tb, m, step);
        eprintln!("{m}: {checked} positions self-consistent");
        assert!(checked > 5_000, "{m}");
        // Short wins against Stockfish, asked for a mate in at most the
        // table's number of moves: it must never find a quicker one (the
        // table's is the shortest), and it finds one that long (the mate
        // exists).
        if !engine.is_file() {
            eprintln!("no Stockfish at {}: skipped", engine.display());
            continue;
        }
        let layout = &t.layout;
        let mut fens = Vec::new();
        let mut want = Vec::new();
        'sample: for stm in [Color::White, Color::Black] {
            for idx in (0..layout.size).step_by(7919) {
                let v = t.at(stm, idx).expect("a readable table");
                let r = layout.decode(idx);
                if !table::is_win(v)
                    || table::dist_of(v) > 15
                    || !layout.is_canonical(idx, &r)
                    || !generate::is_legal(&r, stm)
                {
                    continue;
                }
                let Some(pos) = verify::chess_of(&r, stm) else {
                    continue;
                };
                fens.push(
                    shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                        .to_string(),
                );
                want.push(table::dist_of(v).div_ceil(2) as i32);
                if fens.len() == 12 {
                    break 'sample;
                }
            }
        }
        let mut got = stockfish_mates(&engine, &fens, &want, 5_000);
        // A busy machine may stop it early: once more, longer.
        for k in 0..fens.len() {
            if got[k] != Some(want[k]) {
                got[k] = stockfish_mates(&engine, &fens[k..=k], &want[k..=k], 30_000)[0];
            }
        }
        let same = got
            .iter()
            .zip(&want)
            .filter(|(g, w)| **g == Some(**w))
            .count();
        for ((fen, g), w) in fens.iter().zip(&got).zip(&want) {
            if let Some(g) = g {
                assert!(
                    *g >= *w,
                    "{m} {fen}: Stockfish mates in {g}, the table in {w}"
                );
            }
        }
        eprintln!(
            "{m}: Stockfish agrees on {same} of {} short mates",
            fens.len()
        );
        assert!(same + 1 >= fens.len(), "{m}: {got:?} {want:?}");
    }
    // Published values: the Gaviota `dm` suite's positions of these tables
    // (KBNvKB: mate in 39 moves, and mate in 2).
    if let Some(data) = shared_data() {
        let text = std::fs::read_to_string(data.join("epd/endgame-dm-5.epd")).unwrap();
        let mut checked = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && l.contains(" dm "))
        {
            let f: Vec<&str> = line.split_whitespace().collect();
            let fen = format!("{} {} {} {} 0 1", f[0], f[1], f[2], f[3]);
            let dm: i32 = f[5].trim_end_matches(';').parse().unwrap();
            let pos: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            let Some(p) = tb.probe_chess(&pos) else {
                continue;
            };
            let plies = if dm > 0 { 2 * dm - 1 } else { 2 * dm };
            assert_eq!(p.dtm, plies, "{fen} (dm {dm})");
            checked += 1;
        }
        eprintln!("{checked} dm values of endgame-dm-5.epd agree");
        assert!(checked >= 2, "{checked}");
    }
}

/// KPPvKP holds the longest five-man mate: 127 moves, Black to move
/// mated in 254 plies, one distance past the byte (code 1, which unused
/// entries hold while generating). `KIBITZ_TB5_DIR=<dir>` reuses tables.
#[test]
#[ignore = "generates KPPvKP and the 109 tables it needs: about 30 minutes on two cores"]
fn the_longest_five_man_mate_is_stored() {
    let dir = FiveDir::new("kppkp");
    let mut tb = Tablebases::new(&dir.dir);
    let m: Material = "KPPvKP".parse().unwrap();
    tb.ensure(&m, &mut |_| {}).unwrap();
    let pos = |fen: &str| -> Chess {
        fen.parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap()
    };
    // The Gaviota suite's "dm 127", and Black to move a move before it.
    let win = pos("8/8/8/8/1p2P3/4P3/1k6/3K4 w - - 0 1");
    let loss = pos("8/8/8/1p6/4P3/4P3/1k6/3K4 b - - 0 1");
    assert_eq!(tb.probe_chess(&win).map(|p| p.dtm), Some(253));
    assert_eq!(tb.probe_chess(&loss).map(|p| p.dtm), Some(-254));
    // Every move of the loss leads to a win for White, the longest in 253.
    let mut longest = 0;
    for mv in loss.legal_moves() {
        let mut after = loss.clone();
        after.play_unchecked(mv);
        let dtm = tb.probe_chess(&after).unwrap().dtm;
        assert!((1..=253).contains(&dtm), "{mv}: {dtm}");
        longest = longest.max(dtm);
    }
    assert_eq!(longest, 253);
    let st = tb.table(&m).unwrap().stats;
    assert_eq!(st.sides[0].longest_win, 253);
    assert_eq!(st.sides[1].longest_loss, 254);
    // The longest values equal their best move's, like the rest.
    let long = self_consistent_where(&tb, &m, 1, |p| {
        tb.probe_chess(p).is_some_and(|v| v.dtm.abs() >= 250)
    });
    eprintln!("{long} positions valued 250 plies or more are right");
    assert!(long >= 2, "{long}");
}

/// Three strong pieces on one side: positions with more moves than a
/// generation counter holds (64 or more) are evaluated forward.
#[test]
#[ignore = "generates KQQNvK (5 pieces): about 2 minutes, 1 GB of memory"]
fn positions_with_too_many_moves_for_a_counter_are_right() {
    let dir = FiveDir::new("many-moves");
    let mut tb = Tablebases::new(&dir.dir);
    let m: Material = "KQQNvK".parse().unwrap();
    tb.ensure(&m, &mut |_| {}).unwrap();
    let t = tb.table(&m).unwrap();
    let layout = &t.layout;
    // Such positions (about one in 10,000) equal the best of their moves,
    // like a sample of the others.
    let many = self_consistent_where(&tb, &m, 7, |pos| pos.legal_moves().len() >= 64);
    eprintln!("{many} positions with 64 moves or more are right");
    assert!(many > 500, "{many}");
    let checked = self_consistent(&tb, &m, (layout.size / 50_000) | 1);
    assert!(checked > 20_000, "{checked}");
    let st = t.stats();
    eprintln!("{m}: {st:?}");
    assert_eq!(st.sides[0].wins, st.sides[0].positions);
}

#[test]
fn the_self_check_passes_a_made_table_and_finds_one_wrong_value() {
    let dir = temp_dir("self-check");
    let mut tb = Tablebases::new(&dir);
    let m: Material = "KRvKB".parse().unwrap();
    tb.ensure(&m, &mut |_| {}).unwrap();
    let rep = tb.verify_self(&m, 1).unwrap();
    assert_eq!(rep.material, m);
    assert!(rep.checked > 1_000_000, "{}", rep.checked);
    assert_eq!(rep.mismatches, 0, "{:?}", rep.examples);
    // One value made a ply longer is caught, and only it.
    let t = tb.table(&m).unwrap();
    let size = t.layout.size;
    let wrong = (0..2 * size)
        .find(|&i| {
            let (stm, idx) = if i < size {
                (Color::White, i)
            } else {
                (Color::Black, i - size)
            };
            let r = t.layout.decode(idx);
            t.layout.is_canonical(idx, &r)
                && generate::is_legal(&r, stm)
                && t.values.get(i).is_some_and(table::is_win)
        })
        .unwrap();
    let rep = tb.check_self(&m, 1, |i| {
        let v = t.values.get(i)?;
        Some(if i == wrong { v + 2 } else { v })
    });
    assert_eq!(rep.mismatches, 1, "{:?}", rep.examples);
    assert!(rep.examples[0].fen.contains(" w ") || rep.examples[0].fen.contains(" b "));
    // A table whose children are missing cannot be checked.
    let lone = Tablebases::new(&dir);
    assert!(lone.verify_self(&m, 1).is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn version_two_files_are_read_without_pawns_only() {
    // Version 2 indexed tables with pawns differently; its other tables
    // are version 3's.
    let dir = temp_dir("v2");
    let mut tb = Tablebases::new(&dir);
    for name in ["KQvK", "KPvK"] {
        let m: Material = name.parse().unwrap();
        tb.ensure(&m, &mut |_| {}).unwrap();
        let path = tb.path_of(&m);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
        // The header's checksum follows its index (12 bytes a block).
        let name_len = bytes[13] as usize;
        let blocks_at = 14 + name_len + 8 + 80 + 4;
        let blocks = u32::from_le_bytes(bytes[blocks_at..blocks_at + 4].try_into().unwrap());
        let end = blocks_at + 4 + 12 * blocks as usize;
        let sum = file::checksum(&[&bytes[..end]]);
        bytes[end..end + 8].copy_from_slice(&sum.to_le_bytes());
        let read = file::decode(&bytes, &path, &m);
        match name {
            "KQvK" => assert!(read.is_ok(), "{name}: {:?}", read.err()),
            _ => assert!(
                matches!(read, Err(FileError::Version { found: 2, .. })),
                "{name}"
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_word_of_probes_reads_what_single_probes_read() {
    // Generation reads the 64 positions that differ only in one man's
    // square at once where the smaller table's index allows: colours
    // flipped, the board turned, pawns mirrored, the White king on the
    // diagonal (two forms), the man not the index's last digit.
    let dir = temp_dir("word");
    let mut tb = Tablebases::new(&dir);
    for name in ["KQvK", "KPvK", "KRvKN", "KNvKP"] {
        tb.ensure(&name.parse().unwrap(), &mut |_| {}).unwrap();
    }
    const W: Color = Color::White;
    const B: Color = Color::Black;
    let (w, b) = (W, B);
    // The pieces, and the man that moves.
    type Case = (&'static [(Color, Role)], index::Man);
    let cases: [Case; 11] = [
        (&[(W, Role::Pawn)], index::Man::King(W)),
        (&[(B, Role::Pawn)], index::Man::King(W)),
        (&[(B, Role::Pawn)], index::Man::King(B)),
        (&[(W, Role::Queen)], index::Man::Slot(0)),
        (&[(B, Role::Queen)], index::Man::Slot(0)),
        (&[(W, Role::Queen)], index::Man::King(B)),
        (&[(W, Role::Rook), (B, Role::Knight)], index::Man::Slot(1)),
        (&[(W, Role::Rook), (B, Role::Knight)], index::Man::Slot(0)),
        (&[(B, Role::Rook), (W, Role::Knight)], index::Man::Slot(0)),
        (&[(W, Role::Pawn)], index::Man::King(B)),
        (&[(B, Role::Pawn), (W, Role::Knight)], index::Man::Slot(1)),
    ];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m) as u8
    };
    let (mut words, mut compared) = (0, 0);
    for (pieces, man) in cases {
        for _ in 0..400 {
            let mut pc = [(material::NONE, 0u8); index::SLOTS];
            for (k, &(c, role)) in pieces.iter().enumerate() {
                let sq = if role == Role::Pawn {
                    8 + next(48)
                } else {
                    next(64)
                };
                pc[k] = (code(c, role), sq);
            }
            let r = Raw {
                wk: next(64),
                bk: next(64),
                n: pieces.len() as u8,
                pc,
            };
            for stm in [w, b] {
                let Some(word) = tb.set.probe_word(&r, man, stm) else {
                    continue;
                };
                words += 1;
                for sq in 0..64u8 {
                    let mut c = r;
                    match man {
                        index::Man::Slot(i) => c.pc[i].1 = sq,
                        index::Man::King(Color::White) => c.wk = sq,
                        index::Man::King(Color::Black) => c.bk = sq,
                    }
                    if Layout::overlaps(&c) || !generate::is_legal(&c, stm) {
                        continue;
                    }
                    assert_eq!(
                        Some(word[sq as usize]),
                        tb.set.probe_raw(&c, stm),
                        "{c:?} {stm:?}"
                    );
                    compared += 1;
                }
            }
        }
    }
    // Every case is read at once (not so a White king in a table without
    // pawns, whose square decides the symmetry: not tried here).
    assert_eq!(words, 2 * 400 * cases.len(), "words read at once");
    assert!(compared > 150_000, "{compared}");
    let _ = std::fs::remove_dir_all(&dir);
}
