//! `kibitz repertoire` on the command line: deviations as JSON lines,
//! import and export, and a bad repertoire named.

use std::process::Command;

const REP: &str = "[Event \"Rep\"]\n\n1. d4 d5 (1... Nf6 2. c4 e6 (2... g6 3. Nc3) 3. Nc3 Bb4 4. e3) 2. c4 e6 3. Nc3 Nf6 4. Bg5 *\n";
const GAMES: &str = "[White \"Me\"]\n[Black \"X\"]\n\n1. d4 d5 2. Nf3 Nf6 *\n\n\
[White \"Me\"]\n[Black \"Y\"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 d5 4. Bg5 Be7 *\n\n\
[White \"Me\"]\n[Black \"Z\"]\n\n1. d4 e5 2. dxe5 *\n";

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-rep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn kibitz(home: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_DATA_HOME")
        .output()
        .unwrap()
}

#[test]
fn deviations_name_the_half_move_and_who_left() {
    let d = dir("dev");
    std::fs::write(d.join("rep.pgn"), REP).unwrap();
    std::fs::write(d.join("games.pgn"), GAMES).unwrap();
    let rep = d.join("rep.pgn");
    let games = d.join("games.pgn");
    let out = kibitz(
        &d,
        &[
            "repertoire",
            "deviations",
            rep.to_str().unwrap(),
            games.to_str().unwrap(),
            "--side",
            "white",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Game 2 transposes into the 1...d5 line: inside.
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(
        lines[0],
        serde_json::json!({"game": 1, "ply": 3, "played": "Nf3", "expected": ["c4"], "by": "you"})
    );
    assert_eq!(
        lines[1],
        serde_json::json!({"game": 3, "ply": 2, "played": "e5", "expected": ["d5", "Nf6"], "by": "opponent"})
    );
    // As Black's repertoire, the same file: the first move is the
    // opponent's (1.d4 prepared for), so game 1 leaves by 2.Nf3 still, now
    // the opponent's doing.
    let out = kibitz(
        &d,
        &[
            "repertoire",
            "deviations",
            rep.to_str().unwrap(),
            games.to_str().unwrap(),
            "--side",
            "black",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("2.Nf3: your opponent left your repertoire (you expected 2.c4)"),
        "{text}"
    );
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn a_repertoire_is_imported_exported_and_a_bad_one_named() {
    let d = dir("io");
    std::fs::write(d.join("rep.pgn"), REP).unwrap();
    let out = kibitz(
        &d,
        &[
            "repertoire",
            "import",
            d.join("rep.pgn").to_str().unwrap(),
            "--side",
            "white",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = kibitz(&d, &["repertoire", "export", "--side", "white"]);
    let pgn = String::from_utf8_lossy(&out.stdout);
    assert!(pgn.contains("1. d4 d5 ( 1... Nf6 2. c4 e6"), "{pgn}");
    std::fs::write(d.join("bad.pgn"), "1. d4 d5 2. c4 (2. Kd3) *\n").unwrap();
    let out = kibitz(
        &d,
        &[
            "repertoire",
            "import",
            d.join("bad.pgn").to_str().unwrap(),
            "--side",
            "white",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Kd3"));
    // The stored repertoire is unchanged.
    let out = kibitz(&d, &["repertoire", "export", "--side", "white"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), pgn);
    std::fs::remove_dir_all(d).unwrap();
}
