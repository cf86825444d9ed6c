use super::*;
use crate::db::corpus::{CorpusOptions, write_corpus};
use crate::db::{index_key, move_rank};
use shakmaty::san::San;
use std::collections::HashMap;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kbx-build-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn index(text: &str, opts: &BuildOptions, name: &str) -> (Indexed, Run, PathBuf) {
    let d = dir(name);
    let out = d.join("i.kbr");
    let built = index_pgn(&mut text.as_bytes(), &out, opts, &|| false, &mut |_| {}).unwrap();
    (built, Run::open(&out).unwrap(), d)
}

fn after(moves: &str) -> Chess {
    let mut pos = Chess::default();
    for san in moves.split_whitespace() {
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    pos
}

/// (SAN, white, draws, black) from a position.
fn moves(run: &mut Run, pos: &Chess) -> Vec<(String, u64, u64, u64)> {
    let mut v: Vec<_> = run
        .lookup(index_key(pos))
        .unwrap()
        .into_iter()
        .map(|(rank, s)| {
            let m = crate::db::move_of_rank(pos, rank).unwrap();
            (
                San::from_move(pos, m).to_string(),
                s.white,
                s.draws,
                s.black,
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn transpositions_meet_and_a_repeated_move_counts_once() {
    let pgn = "[Result \"1-0\"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 1-0\n\n\
               [Result \"0-1\"]\n\n1. c4 e6 2. d4 Nf6 3. Nf3 0-1\n\n\
               [Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n";
    let (built, mut run, d) = index(pgn, &BuildOptions::default(), "transpose");
    assert_eq!((built.games, built.indexed), (3, 3));
    assert_eq!(
        moves(&mut run, &after("d4 Nf6 c4 e6")),
        vec![("Nc3".into(), 1, 0, 0), ("Nf3".into(), 0, 0, 1)]
    );
    // The third game passed the start position three times (with Nf3
    // twice): one game.
    let start = moves(&mut run, &Chess::default());
    assert!(start.contains(&("Nf3".into(), 0, 1, 0)), "{start:?}");
    assert!(start.contains(&("d4".into(), 1, 0, 0)));
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn broken_games_are_reported_by_number_and_line_and_the_rest_indexed() {
    let pgn = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
               [Event \"b\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Ke3 Nc6 0-1\n\n\
               [Event \"c\"]\n[FEN \"8/8/8/8/8/8/8/k6K w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kg2 *\n\n\
               [Event \"d\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n\n\
               [Event \"e\"]\n[FEN \"8/8/8/8/8/8/8/k6K w - - 0 1\"]\n[SetUp \"1\"]\n[Result \"1/2-1/2\"]\n\n1. Kh2 Kb1 1/2-1/2\n";
    let (built, mut run, d) = index(pgn, &BuildOptions::default(), "broken");
    assert_eq!(
        (built.games, built.indexed, built.other_variants),
        (5, 3, 1)
    );
    assert_eq!(built.bad.len(), 1, "{:?}", built.bad);
    assert_eq!(built.bad[0].number, 2);
    assert_eq!(built.bad[0].line, 6);
    assert!(
        built.bad[0].reason.contains("2.Ke3"),
        "{}",
        built.bad[0].reason
    );
    assert_eq!(
        moves(&mut run, &Chess::default()),
        vec![("e4".into(), 1, 0, 0)]
    );
    // A game from a set-up position counts from there.
    let fen: shakmaty::fen::Fen = "8/8/8/8/8/8/8/k6K w - - 0 1".parse().unwrap();
    let bare: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    assert_eq!(
        moves(&mut run, &bare),
        vec![("Kg2".into(), 0, 0, 0), ("Kh2".into(), 0, 1, 0)]
    );
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn moves_past_the_last_indexed_ply_are_checked_not_counted() {
    let opts = BuildOptions {
        max_plies: 2,
        ..BuildOptions::default()
    };
    let pgn = "1. e4 e5 2. Nf3 Nc6 1-0\n\n1. e4 e5 2. Nf3 Nc6 3. Ke3 1-0\n";
    let (built, mut run, d) = index(pgn, &opts, "plies");
    assert_eq!((built.indexed, built.bad.len()), (1, 1));
    assert_eq!(moves(&mut run, &after("e4")), vec![("e5".into(), 1, 0, 0)]);
    assert!(moves(&mut run, &after("e4 e5")).is_empty());
    std::fs::remove_dir_all(d).unwrap();
}

/// Many chunks, both threads, spilled runs merged: the same counts as a
/// plain count of the games read one by one by the game reader.
#[test]
fn a_large_file_in_chunks_and_spills_counts_as_the_game_reader_does() {
    let mut text = Vec::new();
    let corpus = CorpusOptions {
        games: 12_000,
        seed: 11,
        players: 200,
    };
    write_corpus(&mut text, &corpus).unwrap();
    assert!(text.len() > 2 * CHUNK, "{} bytes", text.len());
    let opts = BuildOptions {
        max_plies: 12,
        threads: 2,
        spill_records: 20_000,
        player: None,
    };
    let text = String::from_utf8(text).unwrap();
    let (built, mut run, d) = index(&text, &opts, "large");
    assert_eq!((built.games, built.indexed), (12_000, 12_000));
    let mut want: HashMap<(u64, u8), [u64; 4]> = HashMap::new();
    let mut probes = Vec::new();
    for g in crate::game::pgn_read::read_games(&text) {
        let g = g.unwrap();
        let slot = match g.header("Result") {
            Some("1-0") => 0,
            Some("1/2-1/2") => 1,
            Some("0-1") => 2,
            _ => 3,
        };
        let mut pos = g.start().chess().clone();
        let mut seen = Vec::new();
        for m in g.moves().iter().take(opts.max_plies) {
            let k = (index_key(&pos), move_rank(&pos, m).unwrap());
            if !seen.contains(&k) {
                seen.push(k);
                want.entry(k).or_default()[slot] += 1;
            }
            if probes.len() < 3000 {
                probes.push(pos.clone());
            }
            pos.play_unchecked(*m);
        }
    }
    for pos in &probes {
        let key = index_key(pos);
        let got = run.lookup(key).unwrap();
        let mut expected: Vec<(u8, [u64; 4])> = want
            .iter()
            .filter(|((k, _), _)| *k == key)
            .map(|((_, r), c)| (*r, *c))
            .collect();
        expected.sort();
        let got: Vec<(u8, [u64; 4])> = got
            .into_iter()
            .map(|(r, s)| (r, [s.white, s.draws, s.black, s.unknown]))
            .collect();
        assert_eq!(got, expected);
    }
    assert_eq!(run.info().entries as usize, want.len());
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn a_stop_request_ends_indexing_and_leaves_no_run() {
    let d = dir("stop");
    let out = d.join("i.kbr");
    let text = "1. e4 e5 *\n".repeat(100);
    let r = index_pgn(
        &mut text.as_bytes(),
        &out,
        &BuildOptions::default(),
        &|| true,
        &mut |_| {},
    );
    assert!(matches!(r, Err(BuildError::Cancelled)));
    assert!(!out.exists());
    let left: Vec<_> = std::fs::read_dir(&d).unwrap().flatten().collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn game_boundaries_are_blank_lines_before_a_tag() {
    assert_eq!(game_boundary(b"1. e4 *\n\n[Event \"x\"]"), Some(9));
    assert_eq!(game_boundary(b"1. e4 *\r\n\r\n[Event \"x\"]"), Some(11));
    assert_eq!(game_boundary(b"[A \"1\"]\n[B \"2\"]\n1. e4"), None);
}
