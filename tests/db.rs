//! `kibitz db` on the command line: the JSON the checks read, the
//! collections, and bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn home(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-db-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kibitz(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const GAMES: &str = "\
[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2200\"]\n\n\
1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 1-0\n\n\
[White \"B\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]\n\n\
1. c4 e6 2. d4 Nf6 3. Nf3 b6 1/2-1/2\n\n\
[White \"C\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\n\
1. c4 e6 2. d4 Nf6 3. Nc3 d5 0-1\n\n\
[White \"C\"]\n[Black \"D\"]\n[Result \"0-1\"]\n\n\
1. e4 e5 2. Qh5 Ke7 3. Qxe5# 0-1\n";

#[test]
fn moves_by_position_with_results_as_json() {
    let h = home("moves");
    let pgn = h.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let db = pgn.to_str().unwrap();
    // Both move orders reach the same position.
    for moves in [["d4", "Nf6", "c4", "e6"], ["c4", "e6", "d4", "Nf6"]] {
        let mut args = vec!["db", "moves", "--db", db, "--json", "--moves"];
        args.extend(moves);
        let v = json(&kibitz(&h, &args));
        assert_eq!(v["games"], 3);
        let m = &v["moves"];
        assert_eq!(m[0]["san"], "Nc3");
        assert_eq!(m[0]["uci"], "b1c3");
        assert_eq!(
            (
                &m[0]["games"],
                &m[0]["white"],
                &m[0]["draws"],
                &m[0]["black"]
            ),
            (&2.into(), &1.into(), &0.into(), &1.into())
        );
        assert_eq!(m[0]["rating"], 2100);
        assert_eq!(m[1]["san"], "Nf3");
        assert_eq!(m[1]["draws"], 1);
        assert_eq!(m[1]["rating"], serde_json::Value::Null);
        assert_eq!(m.as_array().unwrap().len(), 2);
    }
    // From a FEN; a game whose illegal move (2...Ke7 is legal, 3.Qxe5# is
    // mate, so the game is fine) counts from the start.
    let v = json(&kibitz(
        &h,
        &[
            "db",
            "moves",
            "--db",
            db,
            "--json",
            "--fen",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        ],
    ));
    assert_eq!(v["moves"][0]["san"], "Qh5");
    assert_eq!(v["moves"][0]["black"], 1);
    // One player's tree: A played 1.d4 as White, and met 1.c4 twice as
    // Black.
    let v = json(&kibitz(
        &h,
        &[
            "db", "moves", "--db", db, "--json", "--player", "a", "--as", "white",
        ],
    ));
    assert_eq!(v["games"], 1);
    assert_eq!(v["moves"][0]["san"], "d4");
    let v = json(&kibitz(
        &h,
        &["db", "moves", "--db", db, "--json", "--player", "A"],
    ));
    assert_eq!(v["games"], 3);
    assert_eq!(v["moves"][0]["san"], "c4");
    assert_eq!(v["moves"][0]["games"], 2);
    // Human-readable, with the opening after each move.
    let out = kibitz(&h, &["db", "moves", "--db", db]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("English Opening"), "{text}");
    std::fs::remove_dir_all(h).unwrap();
}

#[test]
fn collections_are_added_listed_and_removed() {
    let h = home("collections");
    let pgn = h.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let out = kibitz(&h, &["db", "add", pgn.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list = kibitz(&h, &["db", "list"]);
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(text.contains("My games: 0 games"), "{text}");
    assert!(text.contains("games.pgn: 4 games indexed"), "{text}");
    // Without --db: My games and the added files.
    let v = json(&kibitz(&h, &["db", "moves", "--json"]));
    assert_eq!(v["games"], 4);
    let out = kibitz(&h, &["db", "remove", pgn.to_str().unwrap()]);
    assert!(out.status.success());
    let v = json(&kibitz(&h, &["db", "moves", "--json"]));
    assert_eq!(v["games"], 0);
    assert!(pgn.exists());
    std::fs::remove_dir_all(h).unwrap();
}

#[test]
fn bad_input_is_named_and_changes_no_index() {
    let h = home("bad");
    let pgn = h.join("games.pgn");
    std::fs::write(
        &pgn,
        format!("{GAMES}\n[Event \"broken\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n"),
    )
    .unwrap();
    let db = pgn.to_str().unwrap();
    let out = kibitz(&h, &["db", "moves", "--db", db, "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("game 5 (line 27)") && err.contains("2.Ke3"),
        "{err}"
    );
    assert_eq!(json(&out)["games"], 4);
    // An illegal move asked for: exit status 2, the move named.
    let out = kibitz(&h, &["db", "moves", "--db", db, "--moves", "e4", "Ke2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1... Ke2"));
    let out = kibitz(&h, &["db", "moves", "--db", db, "--fen", "not a fen"]);
    assert_eq!(out.status.code(), Some(2));
    // A missing file: an error.
    let out = kibitz(&h, &["db", "moves", "--db", "/nonexistent/x.pgn"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/x.pgn"));
    let out = kibitz(&h, &["db", "add", "/nonexistent/x.pgn"]);
    assert!(!out.status.success());
    let list = kibitz(&h, &["db", "list"]);
    assert!(!String::from_utf8_lossy(&list.stdout).contains("x.pgn"));
    std::fs::remove_dir_all(h).unwrap();
}
