//! Crazyhouse and Bughouse game records and the four-engine arbiter:
//! real lichess Crazyhouse files, BPGN written by `kibitz bughouse` and
//! read back, and the arbiter's games end by the rules.

mod common;

use common::{kibitz, shared_file, stderr_of, stdout_of};
use kibitz::bughouse::bpgn::{read_bpgn, write_bpgn};
use kibitz::bughouse::{BoardId, BugTermination};
use kibitz::game::variant_pgn::read_variant_pgn;
use kibitz::game::{GameResult, write_variant_pgn};

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
    for g in &games {
        let end = g.ending.expect("the game has an end");
        assert!(
            matches!(
                end.how,
                BugTermination::Checkmate | BugTermination::Time | BugTermination::MoveLimit
            ),
            "{end:?}"
        );
        // Every move carries its clock, and both boards were played.
        assert!(g.moves().iter().all(|m| m.remaining.is_some()));
        for b in BoardId::BOTH {
            assert!(g.moves().iter().any(|m| m.board == b));
        }
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
