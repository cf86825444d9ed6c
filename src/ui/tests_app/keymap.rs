//! Every default key acts with one press, on every screen (play, trainer,
//! replay, explorer), and typing moves never collides with them.

use super::replay::{OPERA, replaying};
use super::trainer::{start_at, trainer_app};
use super::*;
use crate::ui::keymap::{ReplayAction, key_event};

fn press(a: &mut App, name: &str, now: Instant) {
    let ev = key_event(name).unwrap_or_else(|| panic!("'{name}' is a key"));
    a.update(Msg::Key(ev), now);
}

/// Presses every key bound to each action on a fresh app from `fresh`, and
/// checks that the action ran at once.
fn every_action_acts_at_once(screen: &str, actions: &[Action], fresh: &dyn Fn() -> App) {
    let t = Instant::now();
    let mut checked = 0;
    for &act in actions {
        let keys = fresh().ui.keys.keys_for(act);
        assert!(!keys.is_empty(), "{act:?} has a key");
        for name in keys {
            let mut a = fresh();
            a.ui.last_action = None;
            press(&mut a, &name, t);
            assert_eq!(
                a.ui.last_action,
                Some(act),
                "{screen}: '{name}' runs {act:?} with one press (status {:?})",
                a.ui.status
            );
            assert_eq!(
                a.chess().move_box_shown(),
                act == Action::TypeMove,
                "{screen}: '{name}' opens the move box only if that is its job"
            );
            checked += 1;
        }
    }
    assert!(checked >= actions.len());
}

#[test]
fn every_play_key_acts_at_once_on_your_move() {
    every_action_acts_at_once("play", Action::ALL, &|| {
        let mut a = app();
        a.start_game(setup(WHITE, None, None), Instant::now());
        assert!(a.chess().human_to_move(&a.ui));
        a
    });
}

#[test]
fn every_play_key_acts_at_once_in_the_trainer() {
    every_action_acts_at_once("trainer", Action::ALL, &|| {
        let mut a = trainer_app();
        start_at(&mut a, "8/8/8/4k3/8/8/3QK3/8 w - - 0 1", Instant::now());
        a
    });
}

/// The play screen's commands that also work while replaying (the others
/// are refused there with a reason).
const IN_REPLAY: [Action; 12] = [
    Action::Help,
    Action::NewGame,
    Action::Flip,
    Action::CycleTheme,
    Action::CopyFen,
    Action::CopyPgn,
    Action::WhiteView,
    Action::EvalBreakdown,
    Action::Explore,
    Action::Analyse,
    Action::Trainer,
    Action::Quit,
];

#[test]
fn every_replay_key_acts_at_once() {
    let t = Instant::now();
    for &act in ReplayAction::ALL {
        let keys = replaying(OPERA, Some(0), t)
            .ui
            .config
            .replay_keys
            .keys_for(act);
        assert!(!keys.is_empty(), "{act:?} has a key");
        for name in keys {
            let mut a = replaying(OPERA, Some(0), t);
            // Somewhere in the middle, so every step has somewhere to go.
            for _ in 0..6 {
                key(&mut a, KeyCode::Right, t);
            }
            a.ui.last_replay_action = None;
            press(&mut a, &name, t);
            assert_eq!(
                a.ui.last_replay_action,
                Some(act),
                "replay: '{name}' runs {act:?} with one press"
            );
        }
    }
    // The play screen's commands that apply to the position shown.
    every_action_acts_at_once("replay", &IN_REPLAY, &|| {
        replaying(OPERA, Some(0), Instant::now())
    });
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn typing_every_kind_of_move_still_plays_it() {
    let t = Instant::now();
    let cases: [(&str, &str, &str); 9] = [
        ("pawn", START, "e4"),
        ("pawn, UCI", START, "e2e4"),
        ("piece", START, "Nf3"),
        (
            "capture",
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "exd5",
        ),
        (
            "piece capture",
            "rnbqkbnr/ppp1pppp/8/8/3p4/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 3",
            "Nxd4",
        ),
        ("castling", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O"),
        ("castling, zeros", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "0-0"),
        (
            "castling, lower case",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "o-o",
        ),
        ("promotion", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e8=Q"),
    ];
    for (kind, fen, mv) in cases {
        let mut a = app();
        a.start_game(setup(Mode::HumanVsHuman, Some(fen), None), t);
        let before = a.chess().game.moves().len();
        type_str(&mut a, mv, t);
        assert_eq!(
            a.chess().game.moves().len(),
            before + 1,
            "{kind}: typing {mv} plays it (status {:?})",
            a.ui.status
        );
        assert!(
            !a.ui.quit && matches!(a.ui.overlay, Overlay::None),
            "{kind}"
        );
    }
}

/// The keys (in backticks) of the first column of the README table whose
/// header row begins with `| {header} |`.
fn readme_keys(header: &str) -> std::collections::BTreeSet<String> {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find(&format!("\n| {header} |"))
        .unwrap_or_else(|| panic!("a README table headed '{header}'"));
    let mut keys = std::collections::BTreeSet::new();
    for line in readme[start + 1..].lines().skip(2) {
        if !line.starts_with('|') {
            break;
        }
        let first = line.split('|').nth(1).unwrap_or("");
        for (i, part) in first.split('`').enumerate() {
            if i % 2 == 1 {
                keys.insert(part.to_string());
            }
        }
    }
    keys
}

fn bound<A: crate::ui::keymap::Bindable>(
    map: &crate::ui::keymap::Bindings<A>,
    actions: &[A],
) -> std::collections::BTreeSet<String> {
    actions.iter().flat_map(|&a| map.keys_for(a)).collect()
}

#[test]
fn the_readme_key_tables_match_the_bindings() {
    let config = Config::default();
    // Play screen: every bound key, plus Ctrl+c (always quits).
    let mut play = bound(&config.keys, Action::ALL);
    play.insert("Ctrl+c".into());
    assert_eq!(readme_keys("key"), play, "README: the play screen's keys");
    // Replay screen: its own keys and the play keys that work there.
    let mut replay = bound(&config.replay_keys, ReplayAction::ALL);
    replay.extend(bound(&config.keys, &IN_REPLAY));
    assert_eq!(
        readme_keys("replay key"),
        replay,
        "README: the replay screen's keys"
    );
    // The explorer: each mode's table is its footer.
    use crate::ui::screens::explorer::{BROWSE_KEYS, COMPARE_KEYS, KeyRow, STEP_KEYS};
    fn name(k: KeyCode) -> String {
        match k {
            KeyCode::Char(' ') => "Space".into(),
            KeyCode::Char(c) => c.to_string(),
            other => format!("{other:?}"),
        }
    }
    for (header, rows) in [
        ("browse", BROWSE_KEYS),
        ("step", STEP_KEYS),
        ("compare", COMPARE_KEYS),
    ] {
        let keys: std::collections::BTreeSet<String> = rows
            .iter()
            .flat_map(|r: &KeyRow| r.0.iter().map(|&k| name(k)))
            .collect();
        assert_eq!(
            readme_keys(header),
            keys,
            "README: the explorer's {header} keys"
        );
    }
}
