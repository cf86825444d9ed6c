//! The lessons against the tables: every position has the value its goal
//! says (won for a win, drawn for a hold), and the plan said in the
//! positions the lessons name is the one a coach would say there.

use super::plan::advice;
use super::progress::Progress;
use super::*;
use crate::tablebase::{Tablebases, Wdl};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::path::PathBuf;
use std::sync::OnceLock;

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-lessons-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The four-piece lessons' tables, made once for this file's tests.
fn tables() -> &'static Tablebases {
    static TB: OnceLock<Tablebases> = OnceLock::new();
    TB.get_or_init(|| {
        let mut tb = Tablebases::open(Some(temp_dir("tables"))).unwrap();
        let materials: Vec<Material> = LESSONS
            .iter()
            .filter(|l| !l.five_pieces())
            .map(|l| l.material())
            .collect();
        tb.ensure_many(&materials, &mut |_| {}).unwrap();
        tb
    })
}

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn lesson(id: &str) -> &'static Lesson {
    Lesson::find(id).unwrap()
}

/// The plan the lesson's hint says in its position `step`.
fn plan_at(tb: &Tablebases, id: &str, step: usize) -> String {
    let l = lesson(id);
    advice(tb, &pos(l.steps[step].fen), l.plans)
        .unwrap_or_else(|| panic!("{id} {step}: no plan said"))
}

fn assert_says(said: &str, words: &[&str]) {
    for w in words {
        assert!(said.contains(w), "{said:?} should say {w:?}");
    }
}

/// Every position of `lesson`: legal, of the lesson's material, and of
/// the value its goal asks for.
fn check_values(tb: &Tablebases, l: &Lesson) {
    assert!(!l.steps.is_empty() && !l.intro.is_empty(), "{}", l.id);
    for (i, step) in l.steps.iter().enumerate() {
        let p = pos(step.fen);
        assert_eq!(
            Material::of_board(p.board()).normalized().0,
            l.material().normalized().0,
            "{} {i}",
            l.id
        );
        let v = tb
            .probe_chess(&p)
            .unwrap_or_else(|| panic!("{} {i}: no value", l.id));
        let want = match step.goal {
            Goal::Convert | Goal::Mate => Wdl::Win,
            Goal::Hold(_) => Wdl::Draw,
        };
        assert_eq!(v.wdl, want, "{} position {i}: {}", l.id, step.fen);
    }
}

#[test]
fn the_catalogue_is_sound() {
    let mut ids = std::collections::HashSet::new();
    for l in LESSONS {
        assert!(ids.insert(l.id), "duplicate id {}", l.id);
        assert_eq!(
            l.material
                .parse::<Material>()
                .map(|m| m.to_string())
                .ok()
                .as_deref(),
            Some(l.material)
        );
        assert!(!l.plans.is_empty());
        for s in l.steps {
            pos(s.fen);
        }
    }
    for id in [
        "lucena", "philidor", "kqkr", "krkb", "krkn", "kpk", "kbnk", "kqkp",
    ] {
        assert!(Lesson::find(id).is_some(), "{id}");
    }
    assert_eq!(Lesson::find(" Lucena").map(|l| l.id), Some("lucena"));
    assert!(Lesson::find("lucena2").is_none());
    assert!(lesson("philidor").five_pieces() && !lesson("kpk").five_pieces());
}

#[test]
fn four_piece_lesson_positions_have_the_value_their_goal_says() {
    let tb = tables();
    for l in LESSONS.iter().filter(|l| !l.five_pieces()) {
        check_values(tb, l);
    }
}

#[test]
fn king_and_pawn_plans_name_key_squares_opposition_and_the_spare_move() {
    let tb = tables();
    assert_says(
        &plan_at(tb, "kpk", 0),
        &["key square", "c4, d4 or e4", "Here Kc4."],
    );
    assert_says(&plan_at(tb, "kpk", 1), &["c6, d6 or e6", "Here Ke6."]);
    // The defender: only Kd7 holds, by taking the opposition.
    assert_says(
        &plan_at(tb, "kpk", 2),
        &["Take the opposition (Kd7)", "White to move must give way"],
    );
    assert_says(
        &plan_at(tb, "kpk", 3),
        &["Take the opposition (Ke3)", "Black to move must give way"],
    );
    // A spare pawn move hands the move over.
    let p = pos("8/8/3k4/8/3K4/8/3P4/8 w - - 0 1");
    let said = advice(tb, &p, &[super::plan::Plan::OnlyMove]).unwrap();
    assert_says(&said, &["Only d3, Kc4 or Ke4 keep the win"]);
    // With the king off the key squares and the kings in opposition, the
    // defender must stay on the pawn's file.
    let p = pos("8/8/4k3/8/8/4K3/4P3/8 b - - 0 1");
    let said = advice(tb, &p, &[super::plan::Plan::FrontOfPawn]).unwrap();
    assert_says(&said, &["must not leave the pawn's file", "(Ke5)"]);
}

#[test]
fn queen_against_pawn_plans_check_bring_the_king_or_find_stalemate() {
    let tb = tables();
    assert_says(
        &plan_at(tb, "kqkp", 0),
        &["Check (Qe4+)", "in front of its pawn"],
    );
    // The king in front of its pawn: a free move for White's king.
    let p = pos("7K/8/8/8/8/4Q3/8/3k4 w - - 0 1");
    assert!(tb.probe_chess(&p).is_some());
    let p = pos("7K/8/8/8/8/4Q3/3p4/3k4 w - - 0 1");
    assert_says(
        &advice(tb, &p, lesson("kqkp").plans).unwrap(),
        &[
            "stands in front of its pawn",
            "bring your king closer (Kg7)",
        ],
    );
    assert_says(
        &plan_at(tb, "kqkp", 1),
        &[
            "Stay beside your pawn, toward the corner (Kb2)",
            "stalemated",
        ],
    );
    assert_says(
        &plan_at(tb, "kqkp", 2),
        &["Toward the corner (Kc1, heading for a1)", "stalemate"],
    );
}

#[test]
fn bishop_and_knight_plans_show_the_corner_and_the_knights_route() {
    let tb = tables();
    assert_says(&plan_at(tb, "kbnk", 0), &["a8"]);
    let w = plan_at(tb, "kbnk", 2);
    assert_says(&w, &["The knight's route in the best line: Nf7-", "to a8"]);
    // The same pieces with a dark-squared bishop mate in h8 or a1.
    let p = pos("3k4/8/3K4/8/8/8/8/4B1N1 w - - 0 1");
    let said = advice(tb, &p, &[super::plan::Plan::RightCorner]).unwrap();
    assert_says(&said, &["dark squares"]);
    assert!(said.contains("a1") || said.contains("h8"), "{said}");
}

#[test]
fn queen_against_rook_plans_fork_and_zugzwang() {
    let tb = tables();
    assert_says(
        &plan_at(tb, "kqkr", 0),
        &["Qd1+ checks and attacks the rook", "the rook falls"],
    );
    // Philidor's position: Black to move would be mated in 7.
    assert_says(
        &plan_at(tb, "kqkr", 1),
        &["Zugzwang: with Black to move this would be mate in 7"],
    );
    // From the middle: the king comes first.
    assert_says(&plan_at(tb, "kqkr", 2), &["Bring your king closer (Kd2"]);
}

#[test]
fn rook_against_minor_piece_plans_find_the_corner_and_keep_the_knight_close() {
    let tb = tables();
    assert_says(
        &plan_at(tb, "krkb", 0),
        &["Head for h8", "other colour than your bishop"],
    );
    assert_says(&plan_at(tb, "krkb", 1), &["Head for h8"]);
    assert_says(&plan_at(tb, "krkb", 2), &["Only Bg4 or Bh5 keep the draw"]);
    assert_says(
        &plan_at(tb, "krkn", 1),
        &["Keep the knight close to your king (Nf3)"],
    );
}

/// The five-piece lessons need KRPvKR and its four sub-tables of five
/// pieces: minutes to make. Run with
/// `KIBITZ_TB_DIR=<dir> cargo test --release -- --ignored lessons`
/// (the tables are made there if missing, and kept).
#[test]
#[ignore = "needs KRPvKR and its sub-tables (minutes to generate)"]
fn lucena_and_philidor_plans_are_what_the_table_shows() {
    let dir = std::env::var_os("KIBITZ_TB_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/lesson-tables"));
    let mut tb = Tablebases::open(Some(dir)).unwrap();
    tb.ensure_many(&[lesson("lucena").material()], &mut |_| {})
        .unwrap();
    for id in ["lucena", "philidor"] {
        check_values(&tb, lesson(id));
    }
    assert_says(
        &plan_at(&tb, "lucena", 0),
        &["Step out with your king (Ke7)"],
    );
    assert_says(&plan_at(&tb, "lucena", 1), &["Build a bridge: Rf4"]);
    assert_says(
        &plan_at(&tb, "lucena", 2),
        &["Check the king one more file away from the pawn (Rf1+)"],
    );
    assert_says(
        &plan_at(&tb, "philidor", 0),
        &[
            "Keep your rook on your third rank (the sixth)",
            "every move that leaves it throws the draw away",
        ],
    );
    assert_says(
        &plan_at(&tb, "philidor", 1),
        &["checks from behind", "(Rb1)"],
    );
    assert_says(
        &plan_at(&tb, "philidor", 2),
        &["Your rook belongs on your third rank (the sixth): Rb6"],
    );
}

#[test]
fn progress_is_merged_kept_and_survives_a_bad_file() {
    let dir = temp_dir("progress");
    let path = super::progress::path(&dir);
    let kpk = lesson("kpk");
    assert_eq!(Progress::load(&path).unwrap(), Progress::default());
    let p = Progress::record(&path, "kpk", 1).unwrap();
    assert_eq!(p.passed(kpk), 1);
    assert_eq!(p.next_step(kpk), 0);
    // Another copy of Kibitz recorded a pass meanwhile: both are kept.
    let mut other = Progress::load(&path).unwrap();
    other.pass("kpk", 0);
    other.save(&path).unwrap();
    let p = Progress::record(&path, "kpk", 2).unwrap();
    assert_eq!(p.passed(kpk), 3);
    assert_eq!(p.next_step(kpk), 3);
    assert_eq!(p.next_lesson().map(|l| l.id), Some("kpk"));
    let p = Progress::record(&path, "kpk", 3).unwrap();
    assert!(p.done(kpk));
    assert_eq!(p.next_step(kpk), 0, "all passed: from the start");
    assert_eq!(p.next_lesson().map(|l| l.id), Some(LESSONS[1].id));
    assert_eq!(Progress::load(&path).unwrap(), p);
    // A damaged file is set aside, not overwritten, and progress goes on.
    std::fs::write(&path, b"{\"lessons\": {\"kpk\": ").unwrap();
    assert!(matches!(
        Progress::load(&path),
        Err(super::progress::ProgressError::Corrupt { .. })
    ));
    let p = Progress::record(&path, "krkn", 0).unwrap();
    assert_eq!(p.passed(lesson("krkn")), 1);
    assert_eq!(p.passed(kpk), 0);
    let aside: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(
        std::fs::read(aside[0].path()).unwrap(),
        b"{\"lessons\": {\"kpk\": "
    );
}
