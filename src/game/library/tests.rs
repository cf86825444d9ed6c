use super::*;

fn lib(text: &str) -> Library {
    Library::from_text("test.pgn".into(), text.to_string(), &mut |_| {})
}

const THREE: &str = "[Event \"A\"]\n[White \"W1\"]\n[Black \"B1\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[Event \"B\"]\n[White \"W2\"]\n[Black \"B2\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3\nNf6 3. Nxe5 Ke7 4. Qe2 Nf9 *\n\n\
[Event \"C\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n[Result \"*\"]\n\n1. e4 *\n\n\
[Event \"D\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";

#[test]
fn index_then_read_each_game() {
    let mut l = lib(THREE);
    assert_eq!(l.format, Format::Pgn);
    assert_eq!(l.entries.len(), 4);
    assert_eq!(l.entries[0].players(), "W1 - B1");
    assert_eq!(l.entries[0].plies, 7);
    assert_eq!(l.entries[1].line, 8);
    assert_eq!(l.entries[3].tag("Event"), Some("D"));
    // Good games read; bad ones say why and where, and stay listed.
    assert!(l.load(0).is_ok());
    let e = l.load(1).unwrap_err();
    assert!(e.contains("Nf9"), "{e}");
    match &l.entries[1].status {
        Status::Bad { line, reason } => {
            assert_eq!(*line, 14, "the line of Nf9");
            assert!(reason.starts_with("move 4..."), "{reason}");
        }
        s => panic!("{s:?}"),
    }
    let e = l.load(2).unwrap_err();
    assert!(e.contains("FEN"), "{e}");
    assert!(
        matches!(l.entries[2].status, Status::Bad { line: 18, .. }),
        "the FEN tag's line"
    );
    let g = l.load(3).unwrap();
    assert_eq!(g.game.moves().len(), 4);
    assert!(l.load(9).is_err());
}

#[test]
fn broken_syntax_keeps_the_other_games() {
    let text = "[Event \"A\"]\n[Result \"*\"]\n\n1. e4 {an unterminated comment\n\n[Event \"B\"]\n[Result \"*\"]\n\n1. d4 d5 *\n";
    let mut l = lib(text);
    l.check_all(&mut |_| {});
    assert!(
        l.entries
            .iter()
            .any(|e| matches!(e.status, Status::Bad { .. }))
    );
    // Whatever pgn-reader made of the broken game, nothing panicked and a
    // good game is still there when it was split off.
    let text = "[Event \"A\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n[Event \"B\"]\n[Result \"1-0\"]\n\n1. d4 d5 2. c4\n";
    let mut l = lib(text);
    l.check_all(&mut |_| {});
    assert_eq!(l.entries[0].status, Status::Ok);
    assert!(
        matches!(l.entries[1].status, Status::Bad { .. }),
        "missing result: cut off"
    );
}

#[test]
fn variations_nags_and_comments_are_kept() {
    let mut l = lib(include_str!("../../../games/opera-annotated.pgn"));
    let g = l.load(0).unwrap();
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    assert_eq!(g.game.moves().len(), 33);
    assert!(g.tree.move_count() > 33, "variations");
    let main = g.tree.main_line();
    assert_eq!(main.len(), 33);
    // 3... Bg4 $6 has a variation and a comment.
    let bg4 = main[5];
    assert_eq!(g.tree.node(bg4).san, "Bg4");
    assert_eq!(g.tree.node(bg4).nags, vec![6]);
    assert!(!g.tree.node(bg4).comments.is_empty());
    let before = g.tree.node(bg4).parent.unwrap();
    assert_eq!(
        g.tree.node(before).children.len(),
        2,
        "3... exd4 as a variation"
    );
    // 16. Qb8+ $3.
    assert_eq!(g.tree.node(main[30]).nags, vec![3]);
    assert!(
        !g.tree.node(0).comments.is_empty(),
        "the comment before the first move"
    );
}

#[test]
fn pgn_round_trip_with_variations() {
    for sample in [
        include_str!("../../../games/opera-annotated.pgn"),
        include_str!("../../../games/reti-study-fen.pgn"),
    ] {
        let a = pgn_read::read_games_full(sample).remove(0).unwrap();
        let text = crate::game::write_pgn_tree(&a.game, &a.tree);
        let b = pgn_read::read_games_full(&text).remove(0).unwrap();
        assert!(a.tree.same_as(&b.tree), "{text}");
        let tags = |g: &Game| -> Vec<(String, String)> {
            g.headers
                .iter()
                .filter(|(k, _)| k != "Termination")
                .cloned()
                .collect()
        };
        assert_eq!(tags(&a.game), tags(&b.game));
        assert_eq!(a.game.ending, b.game.ending);
    }
}

#[test]
fn bad_variations_are_cut_not_fatal() {
    let text = "[Event \"X\"]\n[Result \"*\"]\n\n1. e4 (1. d4 Ke7 2. Nf9 e5) e5 2. Nf3 *\n";
    let g = pgn_read::read_games_full(text).remove(0).unwrap();
    assert_eq!(g.game.moves().len(), 3);
    assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
    assert!(g.warnings[0].contains("Ke7"), "{:?}", g.warnings);
}

#[test]
fn move_history_and_move_list_files() {
    let mut l = lib(include_str!("../../../games/kq-vs-k.history"));
    assert_eq!(l.format, Format::History);
    let g = l.load(0).unwrap();
    assert!(g.game.ending.is_some(), "the sample ends in mate");
    assert_eq!(g.game.start().fen(), "8/8/8/2k5/8/8/8/4K2Q w - - 0 1");
    let mut l = lib("1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6\n");
    assert_eq!(l.format, Format::MoveList);
    assert_eq!(l.load(0).unwrap().game.moves().len(), 6);
    let mut l = lib("8/8/8/2k5/8/8/8/4K2Q w - - 0 1\n1. e1e2 c5c4\n2. e2e9\n");
    let e = l.load(0).unwrap_err();
    assert!(e.starts_with("line 3:"), "{e}");
}

#[test]
fn the_sample_games_all_read() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // Bughouse games (BPGN) are read by `bughouse::bpgn` (tests/bughouse.rs);
        // the puzzle file (CSV) by `train::puzzle`.
        if path.extension().is_some_and(|e| e == "bpgn" || e == "csv") {
            continue;
        }
        // Crazyhouse games are read by `game::variant_pgn`.
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if text.contains("[Variant \"Crazyhouse\"]") {
            for g in crate::game::variant_pgn::read_variant_pgn(&text) {
                assert!(g.is_ok(), "{}: {:?}", path.display(), g.err());
                seen += 1;
            }
            continue;
        }
        let mut l = Library::open(&path, &mut |_| {}).unwrap();
        l.check_all(&mut |_| {});
        for e in &l.entries {
            assert_eq!(
                e.status,
                Status::Ok,
                "{}: game {}",
                path.display(),
                e.number
            );
            seen += 1;
        }
    }
    assert!(seen >= 12, "{seen} sample games");
}

#[test]
fn deep_blue_games_match_the_reference() {
    let Some(dir) = crate::util::shared_data_dir() else {
        eprintln!("skipping: shared reference data not found");
        return;
    };
    let ours = pgn_read::read_games(include_str!("../../../games/kasparov-deep-blue-1997.pgn"));
    let theirs = pgn_read::read_games(
        &std::fs::read_to_string(dir.join("pgn/kasparov-deep-blue-1997.pgn")).unwrap(),
    );
    assert_eq!(ours.len(), 6);
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs) {
        let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
        assert_eq!(a.moves(), b.moves());
        assert_eq!(a.ending.map(|e| e.result), b.ending.map(|e| e.result));
    }
}

#[test]
fn odd_files_from_other_programs() {
    let Some(dir) = crate::util::shared_data_dir() else {
        eprintln!("skipping: shared reference data not found");
        return;
    };
    let dir = dir.join("pgn");
    let mut ok = 0;
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // Bughouse games (BPGN) are read by `bughouse::bpgn` (tests/bughouse.rs);
        // the puzzle file (CSV) by `train::puzzle`.
        if path.extension().is_some_and(|e| e == "bpgn" || e == "csv") {
            continue;
        }
        let mut l = Library::open(&path, &mut |_| {}).unwrap();
        l.check_all(&mut |_| {});
        for e in &l.entries {
            match &e.status {
                Status::Ok => ok += 1,
                Status::Bad { line, reason } => {
                    assert!(*line >= 1 && !reason.is_empty());
                    bad.push(format!(
                        "{} game {}: line {line}: {reason}",
                        path.display(),
                        e.number
                    ));
                }
                Status::Unchecked => panic!("unchecked"),
            }
        }
    }
    assert!(ok >= 10, "{ok} good games; bad: {bad:#?}");
    // Other variants are refused by name, not by a cryptic move error.
    let mut l = Library::open(&dir.join("antichess-programfox.pgn"), &mut |_| {}).unwrap();
    let e = l.load(0).unwrap_err();
    assert!(e.contains("not supported"), "{e}");
    // Chess960 games read, castling included, and their export reads back.
    let mut l = Library::open(&dir.join("cutechess-fischerrandom.pgn"), &mut |_| {}).unwrap();
    assert_eq!(l.entries.len(), 4);
    for i in 0..4 {
        let g = l
            .load(i)
            .unwrap_or_else(|e| panic!("Chess960 game {}: {e}", i + 1));
        assert!(g.game.moves().len() >= 60, "{}", g.game.moves().len());
        let castles = g
            .game
            .moves()
            .iter()
            .filter(|m| matches!(m, shakmaty::Move::Castle { .. }))
            .count();
        if i == 0 {
            assert!(castles > 0, "game 1 has castling");
        }
        let text = crate::game::write_pgn_tree(&g.game, &g.tree);
        let again = crate::game::pgn_read::read_games_full(&text);
        let back = again[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.game.moves(), g.game.moves());
    }
    // A BOM and empty lines inside a game do not matter.
    for name in ["utf8-bom.pgn", "chessbase-empty-line.pgn", "uci-moves.pgn"] {
        let mut l = Library::open(&dir.join(name), &mut |_| {}).unwrap();
        assert!(l.load(0).is_ok(), "{name}: {:?}", l.load(0).err());
    }
}

#[test]
fn a_comment_opening_a_variation_belongs_to_its_first_move() {
    let mut l = lib("1. e4 e5 2. Nf3 ({Also good is} 2. Bc4 Nf6 ({or} 2... Bc5)) Nc6 *\n");
    let g = l.load(0).unwrap();
    let main = g.tree.main_line();
    let e5 = main[1];
    assert!(
        g.tree.node(e5).comments.is_empty(),
        "not on the move before"
    );
    let bc4 = g.tree.node(e5).children[1];
    assert_eq!(g.tree.node(bc4).san, "Bc4");
    assert_eq!(g.tree.node(bc4).comments, ["Also good is"]);
    let nf6 = g.tree.node(bc4).children[0];
    let bc5 = g.tree.node(bc4).children[1];
    assert!(g.tree.node(nf6).comments.is_empty());
    assert_eq!(g.tree.node(bc5).comments, ["or"]);
    // Written back: numbers only where needed, and the same tree again.
    let text = crate::game::write_pgn_tree(&g.game, &g.tree);
    assert!(
        text.contains("2. Nf3 ( 2. Bc4 {Also good is} 2... Nf6 ( 2... Bc5 {or} ) ) 2... Nc6"),
        "{text}"
    );
    assert!(
        !text.contains("[Termination"),
        "nothing added to a game from elsewhere"
    );
    let mut again = lib(&text);
    assert!(again.load(0).unwrap().tree.same_as(&g.tree));
}

#[test]
fn an_unclosed_comment_does_not_hide_the_next_games() {
    let text = "[Event \"A\"]\n[White \"a\"]\n\n1. e4 {never closed e5 *\n\n\
[Event \"B\"]\n[White \"b\"]\n\n1. d4 d5 *\n\n[Event \"C\"]\n\n1. c4 *\n";
    let mut l = lib(text);
    assert_eq!(l.entries.len(), 3, "{:?}", l.entries);
    assert_eq!(l.entries[1].tag("Event"), Some("B"));
    assert_eq!(l.entries[1].line, 6);
    assert_eq!(l.load(1).unwrap().game.moves().len(), 2);
    assert_eq!(l.load(2).unwrap().game.moves().len(), 1);
    // Comments and clock commands in ordinary games are no game starts.
    let ok = "[Event \"X\"]\n\n1. e4 {[%clk 0:01:00]\n\n[%eval 0.2]} e5 *\n";
    assert_eq!(lib(ok).entries.len(), 1);
}
