//! Lessons on the trainer's screen: the lessons page of the menu, the
//! plan in the hint, a position passed and kept, the way on to the next,
//! and the panel at 80x24.

use super::*;
use crate::tablebase::Material;
use crate::train::lessons::{Goal, Lesson};
use crate::ui::app::{REPLY_DELAY, TrainerStart};
use crate::ui::screens::chess::trainer::{self as tr, Tables};
use std::sync::{Arc, OnceLock};

/// KPvK (with the tables its promotions need), made once for this file.
fn tables() -> Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let dir = temp_dir("lesson-tables");
            let m: Material = "KPvK".parse().unwrap();
            let tb = tr::prepare_tables(Some(dir), &[m], &mut |_, _| {}).unwrap();
            Tables(Arc::new(tb))
        })
        .clone()
}

/// An app with a data folder of its own, the tables loaded.
fn lesson_app(tag: &str) -> (App, PathBuf) {
    let data = temp_dir(tag);
    let config = Config {
        engine_pace: crate::ui::pace::Pace::Fast,
        ..Config::default()
    };
    let mut a = App::new(config, theme::builtin(), Some(data.clone()));
    a.update(Msg::Resize(120, 40), Instant::now());
    a.ui.trainer.tables = Some(tables());
    a.ui.trainer.rng = crate::util::Rng::new(3);
    (a, data)
}

fn run(a: &App) -> crate::ui::screens::chess::game::LessonRun {
    a.task::<TrainerGame>()
        .and_then(|t| t.lesson)
        .expect("a lesson")
}

fn status(a: &App) -> String {
    a.ui.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

/// Carries out the lesson-progress effects as the runtime does.
fn record(a: &mut App) -> usize {
    let mut n = 0;
    for e in a.take_effects() {
        if let Effect::RecordLesson { path, lesson, step } = e {
            crate::train::lessons::progress::Progress::record(&path, lesson, step).unwrap();
            n += 1;
        }
    }
    n
}

/// Plays the hint's move, then lets the tables answer; returns the time.
fn hint_and_reply(a: &mut App, now: Instant) -> Instant {
    shift(a, 'H', now);
    let m = a
        .chess()
        .hint
        .clone()
        .unwrap_or_else(|| panic!("a hint: {} {}", a.board().fen(), status(a)))
        .mv;
    let san = a.board().san(m);
    type_str(a, &san, now);
    let later = now + REPLY_DELAY;
    if a.chess().engine_thinking() {
        a.update(Msg::Tick, later);
    }
    later
}

#[test]
fn the_lessons_page_opens_a_lesson_and_its_hint_says_the_plan() {
    let t = Instant::now();
    let (mut a, _) = lesson_app("lesson-menu");
    shift(&mut a, 'T', t);
    shift(&mut a, 'L', t);
    let Overlay::Trainer(menu) = &a.ui.overlay else {
        panic!("the trainer menu")
    };
    assert!(menu.lessons, "L shows the lessons");
    let page = render(&a, 80, 24);
    for words in ["Lessons", "Lucena position", "Philidor position", "0/4"] {
        assert!(page.contains(words), "{words}: {page}");
    }
    // The first lesson (king and pawn) at its first position.
    key(&mut a, KeyCode::Enter, t);
    let r = run(&a);
    assert_eq!((r.lesson.id, r.step, r.passed), ("kpk", 0, false));
    assert!(a.board().fen().starts_with("8/8/8/4k3/8/2K5/3P4/8 w"));
    assert!(status(&a).contains("position 1 of 4"), "{}", status(&a));
    // The panel says what the position is about, the goal and the intro.
    let screen = render(&a, 80, 24);
    for words in ["Lesson 1/4: King and pawn", "key square", "Goal:"] {
        assert!(screen.contains(words), "{words}: {screen}");
    }
    // The hint says the plan, in words, from the table.
    shift(&mut a, 'H', t);
    let plan = a
        .task::<TrainerGame>()
        .unwrap()
        .plan
        .clone()
        .expect("a plan");
    assert!(
        plan.contains("key square") && plan.contains("Kc4"),
        "{plan}"
    );
    assert!(status(&a).contains("Hint: Kc4"), "{}", status(&a));
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Plan: Your king"), "{screen}");
    // A move clears it.
    type_str(&mut a, "Kc4", t);
    assert!(a.task::<TrainerGame>().unwrap().plan.is_none());
}

#[test]
fn a_lesson_position_is_passed_kept_and_the_next_one_follows() {
    let mut t = Instant::now();
    let (mut a, data) = lesson_app("lesson-pass");
    let kpk = Lesson::find("kpk").unwrap();
    a.begin_trainer(
        TrainerStart::Lesson {
            lesson: kpk,
            step: 0,
        },
        t,
    );
    assert_eq!(kpk.steps[0].goal, Goal::Convert);
    // Best play promotes the pawn: the goal is reached there.
    for _ in 0..40 {
        if run(&a).passed {
            break;
        }
        t = hint_and_reply(&mut a, t);
    }
    assert!(run(&a).passed, "{}", status(&a));
    assert!(
        Material::of_board(a.board().board()).to_string() == "KQvK",
        "passed on promotion: {}",
        a.board().fen()
    );
    assert!(
        status(&a).contains("Passed position 1 of 4"),
        "{}",
        status(&a)
    );
    assert!(status(&a).contains("n = position 2 of 4"), "{}", status(&a));
    assert_eq!(record(&mut a), 1, "the pass is saved");
    let saved = crate::train::lessons::progress::Progress::load(
        &crate::train::lessons::progress::path(&data),
    )
    .unwrap();
    assert!(saved.is_passed(kpk, 0));
    // n: the next position.
    key(&mut a, KeyCode::Char('n'), t);
    let r = run(&a);
    assert_eq!((r.step, r.passed), (1, false));
    assert!(a.board().fen().starts_with("4k3/8/8/3K4/3P4/8/8/8 w"));
    // n before passing starts the position again.
    type_str(&mut a, "Ke6", t);
    key(&mut a, KeyCode::Char('n'), t);
    assert_eq!(run(&a).step, 1);
    assert!(a.chess().game.moves().is_empty(), "from the start again");
}

#[test]
fn a_draw_held_for_its_moves_passes_and_a_lost_one_does_not() {
    let mut t = Instant::now();
    let (mut a, _) = lesson_app("lesson-hold");
    let kpk = Lesson::find("kpk").unwrap();
    let Goal::Hold(n) = kpk.steps[2].goal else {
        panic!("a defence")
    };
    a.begin_trainer(
        TrainerStart::Lesson {
            lesson: kpk,
            step: 2,
        },
        t,
    );
    assert_eq!(a.task::<TrainerGame>().unwrap().human, Color::Black);
    // The wrong king move loses: not passed, however long it goes on.
    type_str(&mut a, "Ke7", t);
    assert!(!run(&a).passed);
    key(&mut a, KeyCode::Char('u'), t);
    assert!(a.chess().game.moves().is_empty(), "taken back");
    // Best defence: passed after n moves, or sooner when the tables
    // claim the draw by repetition.
    for _ in 0..n {
        if run(&a).passed {
            break;
        }
        assert!(!a.chess().is_over());
        t = hint_and_reply(&mut a, t);
    }
    assert!(run(&a).passed, "{}", status(&a));
    assert!(
        status(&a).contains("Passed position 3 of 4"),
        "{}",
        status(&a)
    );
    let screen = render(&a, 80, 24);
    assert!(screen.contains("passed"), "{screen}");
}

#[test]
fn a_resumed_lesson_game_is_still_the_lesson() {
    let t = Instant::now();
    let (mut a, _) = lesson_app("lesson-resume");
    let kpk = Lesson::find("kpk").unwrap();
    a.begin_trainer(
        TrainerStart::Lesson {
            lesson: kpk,
            step: 3,
        },
        t,
    );
    assert_eq!(
        a.chess().game.header("KibitzLesson"),
        Some("kpk 4"),
        "the game names its lesson"
    );
    let game = Box::new(a.chess().game.clone());
    let (mut b, _) = lesson_app("lesson-resume-2");
    b.begin_trainer(TrainerStart::Resume(game, PathBuf::from("x.pgn")), t);
    let r = run(&b);
    assert_eq!((r.lesson.id, r.step), ("kpk", 3));
}
