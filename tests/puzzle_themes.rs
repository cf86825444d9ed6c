//! `kibitz puzzles themes`: one `ID tag tag ...` line per puzzle, bad lines
//! reported with their number and skipped, a missing file a clear error.

mod common;

use common::{Temp, kibitz, stderr_of, stdout_of};

const FILE: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
01e0H,6k1/5ppp/1r2p3/3p4/rN2n3/P1p1P3/1P3PPP/2RR2K1 b - - 1 23,c3b2 c1c8,1,1,1,1,,,
BAD,6k1/5ppp/1r2p3/3p4/rN2n3/P1p1P3/1P3PPP/2RR2K1 b - - 1 23,c3b2 c1c9,1,1,1,1,,,
00BNd,1rr3k1/3bppbp/3p1np1/1B1N4/P2BP3/5P2/P2R2PP/R5K1 b - - 0 21,d7b5 d5e7 g8f8 e7c8,1,1,1,1,,,
";

#[test]
fn tags_each_puzzle_and_reports_bad_lines() {
    let f = Temp::new("themes-ok.csv", FILE);
    let out = kibitz(&["puzzles", "themes", f.path()]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let first: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(first[0], "01e0H");
    for t in ["mateIn1", "mate", "backRankMate", "oneMove"] {
        assert!(first.contains(&t), "{}", lines[0]);
    }
    let second: Vec<&str> = lines[1].split(' ').collect();
    assert_eq!(second[0], "00BNd");
    assert!(
        second.contains(&"fork") && second.contains(&"short"),
        "{}",
        lines[1]
    );
    assert!(!second.contains(&"mate"), "{}", lines[1]);
    let err = stderr_of(&out);
    assert!(err.contains(":3:"), "the bad line's number: {err}");
}

#[test]
fn compare_prints_a_table() {
    let f = Temp::new("themes-cmp.csv", FILE);
    let out = kibitz(&["puzzles", "themes", f.path(), "--compare"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    assert!(text.starts_with("tag"), "{text}");
    // The file has no themes: Kibitz's mate tag is a false positive.
    let mate = text
        .lines()
        .find(|l| l.starts_with("mate "))
        .expect("a mate row");
    assert_eq!(
        mate.split_whitespace().collect::<Vec<_>>(),
        ["mate", "0.0%", "-", "0", "0", "1", "0"]
    );
    assert!(text.contains("2 puzzles compared"), "{text}");
}

#[test]
fn a_missing_file_is_an_error() {
    let out = kibitz(&["puzzles", "themes", "/nonexistent/kibitz/puzzles.csv"]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("cannot read"),
        "{}",
        stderr_of(&out)
    );
}

/// `kibitz puzzles --only THEME` with a theme no puzzle has ends before the
/// screen opens, naming the theme meant.
#[test]
fn an_unknown_puzzle_theme_is_an_error_that_names_the_theme_meant() {
    let home = std::env::temp_dir().join(format!("kibitz-only-forks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).expect("a temporary home");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["puzzles", "--only", "forks"])
        .env("HOME", &home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run kibitz");
    let _ = std::fs::remove_dir_all(&home);
    assert!(!out.status.success(), "it exits with an error");
    let err = stderr_of(&out);
    assert!(
        err.contains("no puzzle has the theme 'forks'") && err.contains("did you mean fork?"),
        "{err}"
    );
}
