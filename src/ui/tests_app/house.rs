//! The Crazyhouse/Bughouse screen: opening BPGN and Crazyhouse PGN files,
//! stepping both boards in time order, autoplay in real time, the games
//! list, going back, and drawing at 160x50, 120x40, 80x24 and too small.

use super::*;
use crate::ui::screens::house::file::{Kind, parse};

const BPGN: &str = r#"[WhiteA "Ann"]
[BlackA "Bob"]
[WhiteB "Cid"]
[BlackB "Dee"]
[TimeControl "60+0"]
[Result "1-0"]

1A. e4 {59} 1B. d4 {58} 1a. d5 {57} 2A. exd5 {56} 1b. P@e5 {54} {C:BB: need N}
2B. dxe5 {57} 2a. Qxd5 {54} {BA resigns} 1-0

[WhiteA "Eve"]
[BlackA "Fay"]
[WhiteB "Gil"]
[BlackB "Hal"]
[TimeControl "60+0"]
[Result "*"]

1A. e4 {59} *
"#;

const ZH: &str = "[Variant \"Crazyhouse\"]\n[White \"Wes\"]\n[Black \"Bea\"]\n[Result \"1-0\"]\n\n\
    1. e4 d5 2. exd5 Qxd5 3. P@e4 1-0\n";

/// An app showing `text` (of `kind`) as the runtime would deliver it.
fn housing(text: &str, kind: Kind, game: Option<usize>, now: Instant) -> App {
    let mut a = app();
    a.update(Msg::Resize(160, 50), now);
    let path = PathBuf::from(if kind == Kind::Bughouse {
        "t.bpgn"
    } else {
        "t.pgn"
    });
    a.open_file(path.clone(), game);
    let id = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::OpenFile { id, .. } => Some(id),
            _ => None,
        })
        .expect("opening a file asks the runtime to read it");
    a.update(
        Msg::Opened {
            id,
            path,
            result: parse(text, kind).map(FileRead::House),
        },
        now,
    );
    assert!(a.ui.opening.is_none());
    a
}

fn cursor(a: &App) -> usize {
    a.house().map_or(usize::MAX, |h| h.cursor)
}

#[test]
fn a_bughouse_file_opens_on_its_games_list_and_steps_both_boards() {
    let t0 = Instant::now();
    let mut a = housing(BPGN, Kind::Bughouse, None, t0);
    let h = a.house().expect("the bughouse screen is open");
    assert_eq!(h.games.len(), 2);
    assert_eq!(h.list, Some(0), "a file of many games shows its list");
    key(&mut a, KeyCode::Down, t0);
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(a.house().map(|h| (h.index, h.list)), Some((1, None)));
    // Back to the first game through the list.
    shift(&mut a, 'L', t0);
    assert_eq!(a.house().and_then(|h| h.list), Some(1));
    key(&mut a, KeyCode::Up, t0);
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(a.house().map(|h| h.index), Some(0));
    // Right steps through the moves of both boards in time order.
    for n in 1..=4 {
        key(&mut a, KeyCode::Right, t0);
        assert_eq!(cursor(&a), n);
    }
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("2A. exd5: White on A takes a pawn; it goes to Black on B"),
        "{screen}"
    );
    // The pawn arrived in Black's pocket on board B, highlighted.
    let h = a.house().unwrap();
    assert_eq!(h.arrived.map(|x| (x.0, x.1.role)), Some((1, Role::Pawn)));
    key(&mut a, KeyCode::Left, t0);
    assert_eq!(cursor(&a), 3);
    key(&mut a, KeyCode::End, t0);
    assert_eq!(cursor(&a), 7);
    let screen = render(&a, 160, 50);
    assert!(screen.contains("Black on board A resigns: team 1 (White A + Black B) wins"));
    assert!(screen.contains("need N"), "the partner's message is shown");
    key(&mut a, KeyCode::Home, t0);
    assert_eq!(cursor(&a), 0);
    // Tab makes board B the large one; F flips.
    key(&mut a, KeyCode::Tab, t0);
    assert_eq!(a.house().map(|h| h.main), Some(1));
    shift(&mut a, 'F', t0);
    assert!(a.house().is_some_and(|h| h.flipped));
    // A play key is refused with the reason; the screen stays.
    shift(&mut a, 'H', t0);
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("Not while replaying"))
    );
    assert!(a.house().is_some());
}

#[test]
fn autoplay_follows_the_clocks_and_esc_goes_back() {
    let t0 = Instant::now();
    let mut a = housing(BPGN, Kind::Bughouse, Some(0), t0);
    assert_eq!(a.house().and_then(|h| h.list), None, "game 1 asked for");
    key(&mut a, KeyCode::Char(' '), t0);
    assert!(a.house().is_some_and(|h| h.autoplay.is_some()));
    // 1A. e4 {59} came after one second of the game.
    a.update(Msg::Tick, t0 + Duration::from_millis(999));
    assert_eq!(cursor(&a), 0);
    a.update(Msg::Tick, t0 + Duration::from_millis(1000));
    assert_eq!(cursor(&a), 1);
    // Faster: x2.
    key(&mut a, KeyCode::Char('+'), t0 + Duration::from_millis(1000));
    assert!(a.ui.status.as_ref().is_some_and(|s| s.text.contains("x2")));
    // Esc stops autoplay first, then leaves the screen for a new game
    // (the app started on the file).
    key(&mut a, KeyCode::Esc, t0);
    assert!(a.house().is_some_and(|h| h.autoplay.is_none()));
    key(&mut a, KeyCode::Esc, t0);
    assert!(a.house().is_none());
    assert!(
        a.chess().started().is_some(),
        "a game is on the board again"
    );
}

#[test]
fn a_live_game_waits_beneath_the_replay() {
    let t0 = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, Some("5+0")), t0);
    type_str(&mut a, "e4", t0);
    assert!(!a.chess().paused);
    a.open_file(PathBuf::from("t.bpgn"), Some(0));
    let id = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::OpenFile { id, .. } => Some(id),
            _ => None,
        })
        .unwrap();
    a.update(
        Msg::Opened {
            id,
            path: PathBuf::from("t.bpgn"),
            result: parse(BPGN, Kind::Bughouse).map(FileRead::House),
        },
        t0,
    );
    assert!(a.chess().paused, "the clocks stop while the file is shown");
    key(&mut a, KeyCode::Esc, t0);
    assert!(a.house().is_none());
    assert!(!a.chess().paused, "and run again after");
    assert_eq!(a.chess().game.moves().len(), 1, "the game is as it was");
    // A file that cannot be read is an error; nothing else changes.
    a.open_file(PathBuf::from("t.bpgn"), None);
    let id = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::OpenFile { id, .. } => Some(id),
            _ => None,
        })
        .unwrap();
    a.update(
        Msg::Opened {
            id,
            path: PathBuf::from("t.bpgn"),
            result: parse("1A. e5 {1} *", Kind::Bughouse).map(FileRead::House),
        },
        t0,
    );
    assert!(a.house().is_none());
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("Cannot open"))
    );
    assert_eq!(a.chess().game.moves().len(), 1);
}

#[test]
fn crazyhouse_replays_with_pockets() {
    let t0 = Instant::now();
    let mut a = housing(ZH, Kind::Crazyhouse, None, t0);
    assert_eq!(a.house().and_then(|h| h.list), None, "one game: no list");
    for _ in 0..4 {
        key(&mut a, KeyCode::Right, t0);
    }
    a.ui.look.ascii = true;
    let line_of = |screen: &str, name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_default()
            .to_string()
    };
    let screen = render(&a, 120, 40);
    // Both hands hold a pawn after 2. exd5 Qxd5: White's P, Black's p,
    // beside each player's name.
    assert!(line_of(&screen, "Wes").contains(" P "), "{screen}");
    assert!(line_of(&screen, "Bea").contains(" p "), "{screen}");
    assert!(screen.contains("Crazyhouse moves"));
    assert!(screen.contains("2... Qxd5"));
    key(&mut a, KeyCode::Right, t0);
    let screen = render(&a, 120, 40);
    assert!(screen.contains("3. P@e4: White drops"), "{screen}");
    assert!(
        !line_of(&screen, "Wes").contains(" P "),
        "dropped: no longer in hand"
    );
    assert!(line_of(&screen, "Bea").contains(" p "));
    // Tab does nothing with one board.
    key(&mut a, KeyCode::Tab, t0);
    assert_eq!(a.house().map(|h| h.main), Some(0));
}

#[test]
fn both_boards_at_every_size_and_a_clear_message_when_too_small() {
    let t0 = Instant::now();
    let mut a = housing(BPGN, Kind::Bughouse, Some(0), t0);
    key(&mut a, KeyCode::End, t0);
    for (w, h) in [(160, 50), (120, 40), (80, 24), (54, 13)] {
        let screen = render(&a, w, h);
        // Both boards: rank numbers 1-8 twice, each player's name.
        for name in ["Ann", "Bob", "Cid", "Dee"] {
            assert!(screen.contains(name) || w < 80, "{w}x{h}: {name}\n{screen}");
        }
        let eights = screen.lines().filter(|l| l.contains('8')).count();
        assert!(eights >= 2, "{w}x{h}: two boards\n{screen}");
        assert!(!screen.contains("too small"), "{w}x{h}\n{screen}");
    }
    let screen = render(&a, 160, 50);
    assert!(screen.contains("Bughouse moves") && screen.contains("Partners"));
    assert!(screen.contains("2a. Qxd5"));
    let screen = render(&a, 53, 13);
    assert!(
        screen.contains("Terminal too small") && screen.contains("54 x 13"),
        "{screen}"
    );
    // Nothing panics at any size.
    for w in [1, 10, 30, 53, 54, 60, 79, 100, 200] {
        for h in [1, 5, 12, 13, 20, 30, 60] {
            render(&a, w, h);
        }
    }
}

/// The FICS sample (CRLF, glued tags and clocks, a Latin-1 name, a game
/// without moves, a bad game in the middle) opened from its file: the good
/// games replay with their clocks, the bad one is listed with its line.
#[test]
fn the_fics_sample_opens_with_its_clocks_and_its_bad_game_listed() {
    let t0 = Instant::now();
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/fics-bughouse-sample.bpgn"
    ));
    let mut a = app();
    a.update(Msg::Resize(160, 50), t0);
    a.open_file(path.clone(), None);
    let id = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::OpenFile { id, .. } => Some(id),
            _ => None,
        })
        .unwrap();
    let result = crate::ui::screens::house::file::read(&path, Kind::Bughouse);
    let result = result.map(FileRead::House);
    a.update(Msg::Opened { id, path, result }, t0);
    let h = a.house().expect("the file opens");
    assert_eq!(h.games.len(), 4);
    assert_eq!(
        h.games.iter().map(Result::is_ok).collect::<Vec<_>>(),
        [true, true, false, true]
    );
    let status =
        a.ui.status
            .as_ref()
            .map(|s| s.text.clone())
            .unwrap_or_default();
    assert!(status.contains("Game 3 cannot be read"), "{status}");
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("3. cannot be read: line 47: move Ke3"),
        "{screen}"
    );
    // Game 1: the clocks follow the file's readings move by move.
    key(&mut a, KeyCode::Enter, t0);
    let clock = |a: &App, b: usize, c: Color| a.house().and_then(|h| h.clock(None, b, c, t0));
    assert_eq!(clock(&a, 0, Color::White), Some(Duration::from_secs(180)));
    assert!(!render(&a, 160, 50).contains("2:59"));
    key(&mut a, KeyCode::Right, t0);
    assert_eq!(
        clock(&a, 0, Color::White),
        Some(Duration::from_millis(179_900))
    );
    assert!(render(&a, 160, 50).contains("2:59"), "1A. e4{{179.900}}");
    for _ in 0..6 {
        key(&mut a, KeyCode::Right, t0);
    }
    // 2B. Bf4{178.5}; Black on B still at 1b. d5{178.900}.
    assert_eq!(
        clock(&a, 1, Color::White),
        Some(Duration::from_millis(178_500))
    );
    assert_eq!(
        clock(&a, 1, Color::Black),
        Some(Duration::from_millis(178_900))
    );
    key(&mut a, KeyCode::End, t0);
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("bob resigns: team 1 (White A + Black B) wins"),
        "{screen}"
    );
    // Game 2: no moves, a Latin-1 name.
    shift(&mut a, 'L', t0);
    key(&mut a, KeyCode::Down, t0);
    key(&mut a, KeyCode::Enter, t0);
    let screen = render(&a, 160, 50);
    assert!(screen.contains("Müller"), "{screen}");
    key(&mut a, KeyCode::End, t0);
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("Müller forfeits by disconnection: team 2 (Black A + White B) wins"),
        "{screen}"
    );
    // Game 3 says why it cannot be shown.
    shift(&mut a, 'L', t0);
    key(&mut a, KeyCode::Down, t0);
    key(&mut a, KeyCode::Enter, t0);
    let status =
        a.ui.status
            .as_ref()
            .map(|s| s.text.clone())
            .unwrap_or_default();
    assert!(
        status.contains("Game 3 cannot be read: line 47: move Ke3"),
        "{status}"
    );
}
