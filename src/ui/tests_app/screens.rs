//! The screen stack: screens open over the game in progress, which waits
//! (its clock stopped) and goes on when they close.

use super::trainer::trainer_app;
use super::*;
use crate::ui::app::{ChessScreen, EditorScreen, ExplorerScreen};

/// A level-3 game with a 5+3 clock after 1. e4, the engine to move.
fn game_after_e4(t: Instant) -> App {
    let mut a = trainer_app();
    a.start_game(setup(WHITE, None, Some("5+3")), t);
    type_str(&mut a, "e4", t);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    assert!(a.chess().engine_thinking());
    a
}

#[test]
fn the_trainer_opens_over_a_paused_game_and_esc_or_q_goes_back() {
    for leave in [KeyCode::Esc, KeyCode::Char('q')] {
        let t = Instant::now();
        let mut a = game_after_e4(t);
        let _ = a.take_effects();
        // T: the menu covers the game, which pauses (engine stopped, clock stopped).
        shift(&mut a, 'T', t);
        assert!(matches!(a.ui.overlay, Overlay::Trainer(_)));
        assert!(a.chess().paused, "the game waits under the trainer's menu");
        assert!(
            a.take_effects().iter().any(|e| is_stop(e, Slot::Opponent)),
            "the engine's search is stopped"
        );
        let black_clock = a.chess().clock_text(Color::Black, t);
        // Enter: a trainer game of its own on top; the game is still beneath.
        key(&mut a, KeyCode::Enter, t);
        assert_eq!(a.depth(), 2, "two screens: the game and the trainer");
        assert!(
            a.task::<TrainerGame>().is_some(),
            "the trainer's game is shown"
        );
        let beneath = a
            .find_screens::<ChessScreen>()
            .into_iter()
            .next()
            .expect("the game is kept");
        assert_eq!(beneath.game.game.moves().len(), 1, "1. e4 is still there");
        // Time passes in the trainer: the game's clock does not run.
        let later = t + Duration::from_secs(30);
        a.update(Msg::Tick, later);
        // Esc (or q) leaves the trainer: back to the game, which goes on.
        key(&mut a, leave, later);
        assert!(!a.ui.quit, "{leave:?} leaves the trainer, not the app");
        assert_eq!(a.depth(), 1);
        assert!(a.task::<TrainerGame>().is_none());
        assert_eq!(uci_moves(&a), ["e2e4"]);
        assert!(!a.chess().paused, "the game goes on");
        assert_eq!(
            a.chess().clock_text(Color::Black, later),
            black_clock,
            "no time passed on the game's clock"
        );
        assert!(
            take_go(&mut a, Slot::Opponent).is_some(),
            "the engine is asked again"
        );
    }
}

#[test]
fn the_explorer_and_the_editor_cover_the_game_and_leave_it_as_it_was() {
    let t = Instant::now();
    let mut a = game_after_e4(t);
    key(&mut a, KeyCode::Char('x'), t);
    assert!(a.top_as::<ExplorerScreen>().is_some());
    assert!(a.chess().paused);
    key(&mut a, KeyCode::Char('q'), t);
    assert!(a.top_as::<ChessScreen>().is_some(), "q leaves the explorer");
    assert!(!a.chess().paused);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    // The editor from the trainer's menu; Esc goes back to the menu, Esc
    // again to the game.
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Char('e'), t);
    assert!(a.top_as::<EditorScreen>().is_some());
    key(&mut a, KeyCode::Esc, t);
    assert!(matches!(a.ui.overlay, Overlay::Trainer(_)));
    key(&mut a, KeyCode::Esc, t);
    assert!(matches!(a.ui.overlay, Overlay::None));
    assert_eq!(a.depth(), 1);
    assert!(!a.chess().paused);
    assert_eq!(uci_moves(&a), ["e2e4"]);
}

#[test]
fn quitting_saves_every_game_on_the_stack() {
    let dir = temp_dir("stack-quit");
    let t = Instant::now();
    let mut a = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    a.ui.trainer.tables = trainer_app().ui.trainer.tables.clone();
    a.update(Msg::Resize(120, 40), t);
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "d4", t);
    shift(&mut a, 'T', t);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(a.depth(), 2);
    let _ = a.take_effects();
    a.update(
        Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        t,
    );
    let saves: Vec<String> = a
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Save { contents, .. } => Some(contents),
            _ => None,
        })
        .collect();
    assert!(
        saves.iter().any(|c| c.contains("1. d4")),
        "the game under the trainer is saved: {saves:?}"
    );
}

#[test]
fn a_replayed_file_covers_the_game_and_esc_goes_back() {
    let t = Instant::now();
    let mut a = game_after_e4(t);
    let _ = a.take_effects();
    let text = "[White \"A\"]\n[Black \"B\"]\n\n1. d4 d5 2. c4 *\n";
    super::replay::open_text(&mut a, text, Some(0), t);
    assert_eq!(a.depth(), 2, "the replay is a screen over the game");
    assert!(a.task::<Replay>().is_some());
    let beneath = a.find_screens::<ChessScreen>()[0];
    assert!(beneath.game.paused, "the game waits");
    assert_eq!(beneath.game.game.moves().len(), 1);
    // Esc: back to the game, which goes on.
    key(&mut a, KeyCode::Esc, t);
    assert_eq!(a.depth(), 1);
    assert!(a.task::<Replay>().is_none());
    assert_eq!(uci_moves(&a), ["e2e4"]);
    assert!(!a.chess().paused);
}

/// Every screen opened over a game in progress, with the engine to move
/// and its clock running, and left again: the same game comes back, its
/// clocks as they stood (time under another screen is not its time) and
/// its engine asked again.
#[test]
fn every_screen_opens_over_a_game_and_gives_it_back_intact() {
    use crate::ui::screens::house::live::{LiveSetup, Player};
    use crate::variant::VariantKind;
    type Opener = fn(&mut App, Instant);
    type Closer = fn(&mut App, Instant);
    let openers: [(&str, Opener, Closer); 6] = [
        (
            "explorer",
            |a, t| key(a, KeyCode::Char('x'), t),
            |a, t| key(a, KeyCode::Esc, t),
        ),
        (
            "replay",
            |a, t| super::replay::open_text(a, "1. d4 d5 *\n", None, t),
            |a, t| key(a, KeyCode::Esc, t),
        ),
        (
            "puzzles",
            |a, t| key(a, KeyCode::Char('z'), t),
            |a, t| key(a, KeyCode::Char('q'), t),
        ),
        (
            "trainer menu",
            |a, t| shift(a, 'T', t),
            |a, t| key(a, KeyCode::Esc, t),
        ),
        (
            "editor",
            |a, t| {
                let b = a.board().clone();
                a.open_editor(Some(&b), t)
            },
            // Esc goes back to the trainer's menu, and Esc again closes it.
            |a, t| {
                key(a, KeyCode::Esc, t);
                key(a, KeyCode::Esc, t)
            },
        ),
        (
            "crazyhouse game",
            |a, t| {
                a.start_live(
                    LiveSetup {
                        kind: VariantKind::Crazyhouse,
                        players: vec![[Player::Human, super::house_live::ENGINE]],
                        time: None,
                        start: None,
                    },
                    t,
                )
            },
            |a, t| key(a, KeyCode::Esc, t),
        ),
    ];
    for (name, open, close) in openers {
        let t = Instant::now();
        let s = Duration::from_secs;
        let mut a = game_after_e4(t);
        let _ = a.take_effects();
        let clocks = |a: &App, at: Instant| {
            (
                a.chess().clock_text(Color::White, at),
                a.chess().clock_text(Color::Black, at),
            )
        };
        // Black's clock has run 2 s when the screen opens.
        let before = clocks(&a, t + s(2));
        open(&mut a, t + s(2));
        let opened = a.depth() > 1 || !matches!(a.ui.overlay, Overlay::None);
        assert!(opened, "{name}: something opened over the game");
        // A minute passes under it.
        a.update(Msg::Tick, t + s(62));
        close(&mut a, t + s(62));
        assert_eq!(a.depth(), 1, "{name}: back to the game");
        assert!(matches!(a.ui.overlay, Overlay::None), "{name}");
        assert_eq!(uci_moves(&a), ["e2e4"], "{name}: the same game");
        assert!(!a.chess().paused, "{name}: the game goes on");
        assert_eq!(
            clocks(&a, t + s(62)),
            before,
            "{name}: the clocks stood still under it"
        );
        // The engine is asked again, and its answer is played.
        let req = take_go(&mut a, Slot::Opponent).unwrap_or_else(|| panic!("{name}: engine asked"));
        reply(&mut a, &req, "e7e5", t + s(63));
        assert_eq!(uci_moves(&a), ["e2e4", "e7e5"], "{name}");
        assert!(!a.ui.quit, "{name}");
    }
}
