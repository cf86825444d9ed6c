//! Crazyhouse and Bughouse game records and the four-engine arbiter:
//! real lichess Crazyhouse files, BPGN written by `kibitz bughouse` and
//! read back, and the arbiter's games end by the rules.

mod common;

use common::{kibitz, shared_file, stderr_of, stdout_of};
use kibitz::bughouse::bpgn::{read_bpgn, read_bpgn_games, write_bpgn};
use kibitz::bughouse::{BoardId, BugResult, BugTermination, Seat};
use kibitz::game::variant_pgn::read_variant_pgn;
use kibitz::game::{GameResult, write_variant_pgn};
use shakmaty::Color;

#[test]
fn lichess_crazyhouse_games_are_read() {
    for (file, plies, result) in [
        (
            "pgn/saturs-jannlee-zh-lichess.pgn",
            122,
            GameResult::BlackWins,
        ),
        (
            "pgn/knightvuillaume-jannlee-zh-lichess.pgn",
            48,
            GameResult::BlackWins,
        ),
    ] {
        let Some(path) = shared_file(file) else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let games = read_variant_pgn(&text);
        assert_eq!(games.len(), 1, "{file}");
        let g = games[0].as_ref().unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(g.moves().len(), plies, "{file}");
        assert_eq!(g.ending.map(|e| e.result), Some(result), "{file}");
        // Drops were played from the hands.
        assert!(
            g.moves()
                .iter()
                .any(|m| matches!(m, shakmaty::Move::Put { .. })),
            "{file}"
        );
        // Written and read again: the same game.
        let again = read_variant_pgn(&write_variant_pgn(g));
        let again = again[0].as_ref().unwrap();
        assert_eq!(again.moves(), g.moves(), "{file}");
        assert_eq!(again.current().fen(), g.current().fen());
    }
    // The clock comments of the second file survive.
    if let Some(path) = shared_file("pgn/knightvuillaume-jannlee-zh-lichess.pgn") {
        let text = std::fs::read_to_string(&path).unwrap();
        let g = read_variant_pgn(&text).remove(0).unwrap();
        assert!(
            g.comments()[0]
                .as_deref()
                .is_some_and(|c| c.contains("[%clk 0:01:00]")),
            "{:?}",
            g.comments()[0]
        );
    }
}

#[test]
fn the_sample_bughouse_game_replays() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/bughouse-sample.bpgn"
    ))
    .unwrap();
    let games = read_bpgn(&text).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.moves().len() > 20);
    assert!(g.moves().iter().any(|m| m.sent.is_some()), "pieces passed");
    assert!(
        g.moves().iter().any(|m| m.san.contains('@')),
        "drops of passed pieces"
    );
    let end = g.ending.unwrap();
    assert_eq!(end.how, BugTermination::Checkmate);
    // Written again: the same text.
    assert_eq!(write_bpgn(g), text);
}

/// The sample written the way the FICS bughouse database writes its games:
/// CRLF line ends, two tags on a line, `{C:...}` before the moves, clocks
/// glued to the moves, a Latin-1 name, closing comments with the players'
/// names, a game without moves, and a bad game in the middle.
fn fics_sample() -> Vec<Result<kibitz::bughouse::BughouseGame, kibitz::bughouse::bpgn::BpgnError>> {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/fics-bughouse-sample.bpgn"
    ))
    .unwrap();
    // The file really is in the FICS form.
    assert!(bytes.windows(2).any(|w| w == b"\r\n"));
    assert!(std::str::from_utf8(&bytes).is_err(), "a Latin-1 byte");
    read_bpgn_games(&kibitz::util::decode_text(&bytes))
}

#[test]
fn the_fics_sample_reads_every_good_game_with_its_clocks() {
    let games = fics_sample();
    assert_eq!(games.len(), 4, "{games:?}");
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.player(Seat::new(BoardId::A, Color::White)), "alice");
    assert_eq!(g.header("WhiteAElo"), Some("2100"));
    assert_eq!(g.header("BlackBElo"), Some("1800"));
    assert_eq!(g.header("Lag"), Some("A: 0.34 B: 0.12"));
    assert_eq!(g.moves().len(), 16);
    let secs = |m: &kibitz::bughouse::BugMove| m.remaining.map(|d| d.as_millis());
    assert!(g.moves().iter().all(|m| m.remaining.is_some()));
    assert_eq!(secs(&g.moves()[0]), Some(179_900));
    // `2B. Bf4{178.5}`: the seventh move.
    assert_eq!(g.moves()[6].san, "Bf4");
    assert_eq!(secs(&g.moves()[6]), Some(178_500));
    // The pawn taken on A was dropped on B.
    assert!(
        g.moves()
            .iter()
            .any(|m| m.san == "P@e4" && m.board == BoardId::B)
    );
    let end = g.ending.unwrap();
    assert_eq!(end.result, BugResult::TeamOneWins);
    assert_eq!(end.how, BugTermination::Resignation);
    assert_eq!(end.loser, Some(Seat::new(BoardId::A, Color::Black)), "bob");
    assert_eq!(g.closing.as_deref(), Some("bob resigns"));

    // No moves, a Latin-1 name, a forfeit by disconnection.
    let g = games[1].as_ref().unwrap();
    assert!(g.moves().is_empty());
    assert_eq!(g.player(Seat::new(BoardId::B, Color::Black)), "Müller");
    let end = g.ending.unwrap();
    assert_eq!(end.result, BugResult::TeamTwoWins);
    assert_eq!(end.loser, Some(Seat::new(BoardId::B, Color::Black)));
    assert_eq!(
        g.closing.as_deref(),
        Some("Müller forfeits by disconnection")
    );

    // The game after the bad one is read.
    let g = games[3].as_ref().unwrap();
    assert_eq!(g.moves().len(), 10);
    assert_eq!(secs(&g.moves()[9]), Some(175_100));
    let end = g.ending.unwrap();
    assert_eq!(end.how, BugTermination::Time);
    assert_eq!(end.loser, Some(Seat::new(BoardId::B, Color::White)), "bob");

    // Written again and read back: the same moves, clocks and closing.
    for g in [&games[0], &games[1], &games[3]] {
        let g = g.as_ref().unwrap();
        let text = write_bpgn(g);
        let back = read_bpgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back[0].moves(), g.moves());
        assert_eq!(back[0].closing, g.closing);
        assert_eq!(back[0].ending, g.ending);
    }
}

#[test]
fn the_bad_fics_game_is_reported_by_number_and_line() {
    let games = fics_sample();
    let e = games[2].as_ref().unwrap_err();
    assert_eq!((e.game, e.line), (3, 47), "{e}");
    assert!(
        e.to_string().starts_with("game 3 (line 47): move Ke3"),
        "{e}"
    );
    // The whole-file reader stops at it.
    let text = kibitz::util::decode_text(
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/games/fics-bughouse-sample.bpgn"
        ))
        .unwrap(),
    );
    assert_eq!(read_bpgn(&text).unwrap_err(), *e);
}

/// `kibitz play --variant ... --fen` reads the FEN with the variant's rules;
/// a bad one is refused before the screen starts, the field named.
#[test]
fn play_refuses_a_bad_variant_fen_with_the_field_named() {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    for (args, says) in [
        (
            vec![
                "--variant",
                "crazyhouse",
                "--fen",
                &format!("{START}/[] w KQkq - 0 x"),
            ],
            "--fen: malformed FEN: the move number must be a number from 1 (got 'x')",
        ),
        (
            vec![
                "--variant",
                "bughouse",
                "--fen",
                &format!("{START}[] w KQkq - 0 1"),
            ],
            "--fen: Bughouse starts from two FENs",
        ),
        (
            vec!["--fen", &format!("{START}[] w KQkq - 0 1")],
            "needs --variant crazyhouse or bughouse",
        ),
    ] {
        let mut all = vec!["play", "--new"];
        all.extend(args.iter().copied());
        let o = kibitz(&all);
        let err = stderr_of(&o);
        assert!(!o.status.success(), "{all:?}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
}

#[test]
fn four_kibitz_engines_play_a_game_by_the_rules() {
    let dir = std::env::temp_dir().join(format!("kibitz-bug-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.bpgn");
    // Quick engines (depth 3) and a long clock: the game ends on the board,
    // whatever the machine's speed.
    let o = kibitz(&[
        "bughouse",
        "--team",
        "kibitz[depth=3],kibitz[depth=3]",
        "--team",
        "kibitz[depth=2;BughousePartner=false],kibitz[depth=2;BughousePartner=false]",
        "--games",
        "2",
        "--tc",
        "5+0",
        "--max-moves",
        "150",
        "--bpgn",
        out.to_str().unwrap(),
    ]);
    let stdout = stdout_of(&o);
    assert!(o.status.success(), "{stdout}\n{}", stderr_of(&o));
    assert!(stdout.contains("Finished 2 games"), "{stdout}");
    assert!(
        stdout.contains("Forfeits: 0 illegal moves, 0 engine failures"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let games = read_bpgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 2, "every game is in the file");
    // Both boards were played. Not asked of each game: on a loaded
    // machine a quick mate on one board can come before the other
    // board's first move, which is a legal game.
    for b in BoardId::BOTH {
        assert!(
            games.iter().any(|g| g.moves().iter().any(|m| m.board == b)),
            "{b:?} played"
        );
    }
    for g in &games {
        let end = g.ending.expect("the game has an end");
        assert!(
            matches!(
                end.how,
                BugTermination::Checkmate | BugTermination::Time | BugTermination::MoveLimit
            ),
            "{end:?}"
        );
        // Every move carries its clock.
        assert!(g.moves().iter().all(|m| m.remaining.is_some()));
        for tag in ["WhiteA", "BlackA", "WhiteB", "BlackB", "TimeControl"] {
            assert!(g.header(tag).is_some(), "{tag}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bughouse_command_errors() {
    let o = kibitz(&["bughouse", "--team", "kibitz,kibitz"]);
    assert!(!o.status.success());
    assert!(stderr_of(&o).contains("two --team"), "{}", stderr_of(&o));
    let o = kibitz(&["bughouse", "--team", "kibitz", "--team", "kibitz,kibitz"]);
    assert!(stderr_of(&o).contains("two engines"), "{}", stderr_of(&o));
    let o = kibitz(&[
        "bughouse",
        "--team",
        "kibitz,kibitz",
        "--team",
        "/nonexistent/engine,kibitz",
        "--games",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(stderr_of(&o).contains("nonexistent"), "{}", stderr_of(&o));
}
