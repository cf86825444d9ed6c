//! The replay screen: opening files, the game list, stepping, variations,
//! move numbers, autoplay, mouse, drawing (review and analysis: replay_review).

use super::*;
use crate::game::library::Library;
use crate::ui::screens::chess::replay::TokKind;

pub(super) const OPERA: &str = "[Event \"Paris\"]\n[White \"Morphy\"]\n[Black \"Allies\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Nf3 d6 3. d4 Bg4 (3... exd4 4. Nxd4 (4. Qxd4 Nc6) Nf6) 4. dxe5 Bxf3 5. Qxf3 dxe5 \
6. Bc4 Nf6 7. Qb3 {[%clk 0:01:00] Two threats} Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 \
11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n\n";
pub(super) const BAD: &str =
    "[Event \"Broken\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";

/// Presses the review key and returns the review request's id and moves.
pub(super) fn start_review(a: &mut App, now: Instant) -> (u64, Vec<shakmaty::Move>) {
    key(a, KeyCode::Char('r'), now);
    a.take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Review(r) => Some((r.id, r.moves)),
            _ => None,
        })
        .expect("the review runs in the background")
}

/// An app replaying `text` as the runtime would deliver it.
pub(super) fn replaying(text: &str, game: Option<usize>, now: Instant) -> App {
    let mut a = app();
    a.update(Msg::Resize(160, 50), now);
    open_text(&mut a, text, game, now);
    a
}

/// Opens `text` as the file `test.pgn`, as the runtime would answer.
pub(super) fn open_text(a: &mut App, text: &str, game: Option<usize>, now: Instant) {
    a.open_file(PathBuf::from("test.pgn"), game);
    let id = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::OpenFile { id, .. } => Some(id),
            _ => None,
        })
        .expect("opening a file asks the runtime to read it");
    assert!(a.ui.opening.is_some(), "progress is shown while indexing");
    a.update(Msg::Indexing { id, share: 0.5 }, now);
    assert_eq!(a.ui.opening.as_ref().map(|o| o.share), Some(0.5));
    let lib = Library::from_text("test.pgn".into(), text.to_string(), &mut |_| {});
    a.update(
        Msg::Opened {
            id,
            path: PathBuf::from("test.pgn"),
            result: Ok(FileRead::Chess(Box::new(lib))),
        },
        now,
    );
    assert!(a.ui.opening.is_none());
}

/// The analysis search `id` ends with `score` (side to move's view).
pub(super) fn analysis_done(a: &mut App, id: u64, score: Score, now: Instant) {
    a.update(
        said(
            a,
            Slot::Assistant,
            EngineEvent::Done {
                id,
                purpose: Purpose::Analysis,
                best: None,
                score: Some(score),
                pv: Vec::new(),
            },
        ),
        now,
    );
}

pub(super) fn cursor_san(a: &App) -> String {
    let r = a.task::<Replay>().expect("replaying");
    r.tree().node(r.cursor).san.clone()
}

#[test]
fn stepping_jumping_and_variations() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    assert!(a.task::<Replay>().is_some());
    assert!(matches!(a.ui.overlay, Overlay::None), "one game: no list");
    assert_eq!(a.chess().game.moves().len(), 0);
    assert_eq!(a.chess().game.header("White"), Some("Morphy"));
    key(&mut a, KeyCode::Right, now);
    key(&mut a, KeyCode::Right, now);
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5"]);
    key(&mut a, KeyCode::Left, now);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    key(&mut a, KeyCode::End, now);
    assert_eq!(a.chess().game.moves().len(), 33);
    assert_eq!(
        a.chess().game.ending.map(|e| e.result),
        Some(GameResult::WhiteWins),
        "the end of the game as recorded"
    );
    key(&mut a, KeyCode::Home, now);
    assert_eq!(a.chess().game.moves().len(), 0);
    // Move numbers: digits open the box.
    type_str(&mut a, "3b", now);
    assert_eq!(cursor_san(&a), "Bg4");
    assert_eq!(a.chess().game.moves().len(), 6);
    // The alternatives to 3...Bg4.
    key(&mut a, KeyCode::Down, now);
    assert_eq!(cursor_san(&a), "exd4");
    assert_eq!(
        a.chess().game.moves().len(),
        6,
        "same move number, other move"
    );
    key(&mut a, KeyCode::Right, now);
    assert_eq!(cursor_san(&a), "Nxd4");
    key(&mut a, KeyCode::Down, now);
    assert_eq!(cursor_san(&a), "Qxd4", "a variation inside the variation");
    key(&mut a, KeyCode::Right, now);
    assert_eq!(cursor_san(&a), "Nc6");
    key(&mut a, KeyCode::End, now);
    assert_eq!(cursor_san(&a), "Nc6", "End: the end of this line");
    key(&mut a, KeyCode::Up, now);
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("No alternatives"))
    );
    type_str(&mut a, "16", now);
    assert_eq!(
        cursor_san(&a),
        "Qb8+",
        "a number jumps along the line to the main line"
    );
    type_str(&mut a, "40", now);
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("no move 40")),
        "{:?}",
        a.ui.status
    );
    assert_eq!(cursor_san(&a), "Qb8+", "a bad number changes nothing");
    // The clock recorded after 7. Qb3.
    type_str(&mut a, "7", now);
    assert_eq!(
        a.task::<Replay>()
            .unwrap()
            .clock_text(Color::White)
            .as_deref(),
        Some("1:00")
    );
    // Nothing is ever saved while replaying.
    assert!(
        !a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Save { .. })),
        "a replayed game is not saved"
    );
}

#[test]
fn play_keys_are_refused_and_change_nothing() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    type_str(&mut a, "5", now);
    let before = uci_moves(&a);
    key(&mut a, KeyCode::Char('u'), now);
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("Not while replaying"))
    );
    shift(&mut a, 'R', now);
    assert!(matches!(a.ui.overlay, Overlay::None), "no resign dialog");
    shift(&mut a, 'V', now);
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("not a replay command"))
    );
    assert_eq!(uci_moves(&a), before);
    // Clicking the board moves nothing.
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, 160, 50))
        .unwrap()
        .board;
    let r = geo.rect_of(Square::E1, false);
    a.update(
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: r.x + 1,
            row: r.y,
            modifiers: KeyModifiers::NONE,
        }),
        now,
    );
    assert_eq!(a.chess().pick.selected, None);
    assert_eq!(uci_moves(&a), before);
}

#[test]
fn autoplay_steps_with_the_delay_and_stops_at_the_end() {
    let t0 = Instant::now();
    let mut a = replaying(OPERA, None, t0);
    type_str(&mut a, "16b", t0);
    key(&mut a, KeyCode::Char(' '), t0);
    let delay = a.task::<Replay>().unwrap().delay();
    assert_eq!(delay, Duration::from_secs(1));
    a.update(Msg::Tick, t0 + delay / 2);
    assert_eq!(cursor_san(&a), "Nxb8", "not yet");
    a.update(Msg::Tick, t0 + delay);
    assert_eq!(cursor_san(&a), "Rd8#");
    a.update(Msg::Tick, t0 + delay * 3);
    assert!(
        a.task::<Replay>().unwrap().autoplay.is_none(),
        "stops at the end"
    );
    // Faster and slower.
    key(&mut a, KeyCode::Home, t0);
    key(&mut a, KeyCode::Char(' '), t0);
    key(&mut a, KeyCode::Char('+'), t0);
    assert_eq!(
        a.task::<Replay>().unwrap().delay(),
        Duration::from_millis(500)
    );
    a.update(Msg::Tick, t0 + Duration::from_millis(500));
    assert_eq!(a.chess().game.moves().len(), 1);
    key(&mut a, KeyCode::Char('-'), t0);
    key(&mut a, KeyCode::Char('-'), t0);
    assert_eq!(
        a.task::<Replay>().unwrap().delay(),
        Duration::from_millis(1500)
    );
    // A step by hand stops autoplay.
    key(&mut a, KeyCode::Right, t0);
    assert!(a.task::<Replay>().unwrap().autoplay.is_none());
}

#[test]
fn game_list_with_a_bad_game() {
    let now = Instant::now();
    let text = format!("{OPERA}{BAD}{OPERA}");
    let mut a = replaying(&text, None, now);
    assert!(
        matches!(a.ui.overlay, Overlay::Games { selected: 0 }),
        "many games: the list first"
    );
    let screen = render(&a, 160, 50);
    assert!(screen.contains("Games in test.pgn (3 games"), "{screen}");
    key(&mut a, KeyCode::Down, now);
    key(&mut a, KeyCode::Enter, now);
    let status = a.ui.status.clone().expect("an error");
    assert!(
        status.text.contains("Game 2 cannot be read: line 13") && status.text.contains("Ke3"),
        "{}",
        status.text
    );
    assert_eq!(
        a.chess().game.moves().len(),
        0,
        "an empty board, nothing broken"
    );
    let screen = render(&a, 160, 50);
    assert!(screen.contains("Replay · game 2/3"), "{screen}");
    shift(&mut a, 'L', now);
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("✗ line 13"),
        "the list names the line: {screen}"
    );
    key(&mut a, KeyCode::End, now);
    key(&mut a, KeyCode::Enter, now);
    assert_eq!(a.task::<Replay>().unwrap().index, 2);
    key(&mut a, KeyCode::End, now);
    assert_eq!(a.chess().game.moves().len(), 33);
    // `--game N` shows that game at once.
    let b = replaying(&text, Some(2), now);
    assert!(matches!(b.ui.overlay, Overlay::None));
    assert_eq!(b.task::<Replay>().unwrap().index, 2);
    let c = replaying(&text, Some(7), now);
    assert!(
        c.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("there is no game 8")),
        "{:?}",
        c.ui.status
    );
}

#[test]
fn a_file_that_cannot_be_read_is_an_error() {
    let now = Instant::now();
    let mut a = app();
    a.open_file(PathBuf::from("missing.pgn"), None);
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
            path: PathBuf::from("missing.pgn"),
            result: Err("No such file or directory".into()),
        },
        now,
    );
    assert!(a.task::<Replay>().is_none());
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("Cannot open missing.pgn"))
    );
    // Esc while a file is being opened gives up on it.
    a.open_file(PathBuf::from("x.pgn"), None);
    key(&mut a, KeyCode::Esc, now);
    assert!(a.ui.opening.is_none());
}

#[test]
fn clicking_a_move_goes_there() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    let area = ratatui::layout::Rect::new(0, 0, 160, 50);
    let l = view::layout(area).unwrap();
    let parts = view::replay_panel(l.panel);
    let moves = parts.moves.expect("room for moves");
    let r = a.task::<Replay>().unwrap();
    let (rows, first, inner) = view::replay_rows(r, moves, 0);
    let (row, placed) = rows
        .iter()
        .enumerate()
        .skip(first)
        .find_map(|(i, row)| {
            row.iter()
                .find(|p| p.tok.text == "(3...exd4")
                .map(|p| (i, p))
        })
        .expect("the variation is listed");
    let TokKind::Move(id) = placed.tok.kind else {
        panic!("a move")
    };
    a.update(
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: inner.x + placed.x + 2,
            row: inner.y + (row - first) as u16,
            modifiers: KeyModifiers::NONE,
        }),
        now,
    );
    assert_eq!(a.task::<Replay>().unwrap().cursor, id);
    assert_eq!(cursor_san(&a), "exd4");
    // The wheel steps.
    a.update(
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: 0,
            row: 0,
            modifiers: KeyModifiers::NONE,
        }),
        now,
    );
    assert_eq!(cursor_san(&a), "Nxd4");
}

#[test]
fn replay_screen_draws_at_every_size() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    type_str(&mut a, "3b", now);
    key(&mut a, KeyCode::Down, now);
    let screen = render(&a, 160, 50);
    for want in [
        "Replay · game 1/1 · test.pgn",
        "Morphy",
        "3... exd4 (6/33)  variation",
        "(3...exd4",
        "(4.Qxd4",
        "Space autoplay",
        "r review",
    ] {
        assert!(screen.contains(want), "missing {want:?}:\n{screen}");
    }
    type_str(&mut a, "7", now);
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("Two threats"),
        "the comment under the list: {screen}"
    );
    assert!(screen.contains("1:00"), "the recorded clock: {screen}");
    key(&mut a, KeyCode::Char('?'), now);
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("Replay keys") && screen.contains("Next move"),
        "{screen}"
    );
    key(&mut a, KeyCode::Esc, now);
    for (w, h) in [(58, 12), (80, 24), (100, 30), (200, 60), (30, 10)] {
        a.update(Msg::Resize(w, h), now);
        let _ = render(&a, w, h);
    }
}

/// Enter on a path that is not there, a folder, or a filter that matches
/// nothing says which, and the picker stays open to try again.
#[test]
fn the_file_picker_says_why_nothing_opened() {
    let now = Instant::now();
    let mut a = app();
    a.ui.dirs.samples = Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games"));
    let nope = std::env::temp_dir().join("kibitz-no-such-game.pgn");
    let folder = std::env::temp_dir();
    let cases = [
        (
            nope.display().to_string(),
            format!("There is no file {}.", nope.display()),
        ),
        (
            folder.display().to_string(),
            format!("{} is a folder", folder.display()),
        ),
        (
            "zzz".to_string(),
            "No file listed matches 'zzz'".to_string(),
        ),
    ];
    for (typed, said) in cases {
        command(&mut a, Action::Open, now);
        for c in typed.chars() {
            key(&mut a, KeyCode::Char(c), now);
        }
        key(&mut a, KeyCode::Enter, now);
        assert!(
            matches!(a.ui.overlay, Overlay::Files(_)),
            "{typed}: still open"
        );
        let status =
            a.ui.status
                .as_ref()
                .map(|s| s.text.clone())
                .unwrap_or_default();
        assert!(status.contains(&said), "{typed}: {status}");
        // In sight below the picker, at 80x24 too.
        let screen = render(&a, 80, 24);
        assert!(screen.contains(&said[..said.len().min(30)]), "{screen}");
        key(&mut a, KeyCode::Esc, now);
    }
}

#[test]
fn the_file_picker_opens_the_chosen_file() {
    let now = Instant::now();
    let mut a = app();
    a.ui.dirs.samples = Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games"));
    command(&mut a, Action::Open, now);
    assert!(
        matches!(a.ui.overlay, Overlay::Files(_)),
        "{:?}",
        a.ui.status
    );
    let screen = render(&a, 160, 50);
    assert!(screen.contains("kasparov-deep-blue-1997.pgn"), "{screen}");
    for c in "deep".chars() {
        key(&mut a, KeyCode::Char(c), now);
    }
    key(&mut a, KeyCode::Enter, now);
    let path = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::OpenFile { path, .. } => Some(path),
            _ => None,
        })
        .expect("the file is opened");
    assert!(path.ends_with("kasparov-deep-blue-1997.pgn"));
    assert!(matches!(a.ui.overlay, Overlay::None));
}

#[test]
fn random_keys_clicks_and_sizes_never_panic_while_replaying() {
    use crate::util::Rng;
    let mut rng = Rng::new(
        std::env::var("SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(4242),
    );
    let keys: Vec<KeyCode> = "hjklgGLrEcCfwatu:0123456789b+-= ?iz"
        .chars()
        .map(KeyCode::Char)
        .chain([
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Backspace,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::PageUp,
            KeyCode::PageDown,
        ])
        .collect();
    let texts = [
        format!("{OPERA}{BAD}{OPERA}"),
        OPERA.to_string(),
        BAD.to_string(),
        "[FEN \"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kd2 (1. Kf2 Kf4) Kd4 *"
            .into(),
        "e4 e5 Nf3 Nc6".into(),
    ];
    for round in 0..40 {
        let t0 = Instant::now();
        let mut now = t0;
        let mut a = replaying(&texts[round % texts.len()], None, now);
        for _ in 0..300 {
            now += Duration::from_millis(rng.below(400) as u64);
            a.take_effects();
            match rng.below(10) {
                0..=6 => {
                    let k = keys[rng.below(keys.len())];
                    let m = match k {
                        KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
                        _ => KeyModifiers::NONE,
                    };
                    a.update(Msg::Key(KeyEvent::new(k, m)), now);
                }
                7 => {
                    let kind = match rng.below(3) {
                        0 => MouseEventKind::Down(MouseButton::Left),
                        1 => MouseEventKind::ScrollUp,
                        _ => MouseEventKind::ScrollDown,
                    };
                    a.update(
                        Msg::Mouse(MouseEvent {
                            kind,
                            column: rng.below(200) as u16,
                            row: rng.below(60) as u16,
                            modifiers: KeyModifiers::NONE,
                        }),
                        now,
                    );
                }
                8 => {
                    let (w, h) = (20 + rng.below(180) as u16, 5 + rng.below(60) as u16);
                    a.update(Msg::Resize(w, h), now);
                }
                _ => a.update(Msg::Tick, now),
            }
            if a.task::<Replay>().is_none() {
                break; // `n` (new game) or quitting leaves the replay
            }
            let (w, h) = a.ui.size;
            let _ = render(&a, w, h);
        }
    }
}

#[test]
fn own_moves_become_variations() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    // Typed after `:`.
    key(&mut a, KeyCode::Char(':'), now);
    type_str(&mut a, "d4", now);
    assert_eq!(cursor_san(&a), "d4");
    let r = a.task::<Replay>().unwrap();
    assert_eq!(
        r.tree().node(0).children.len(),
        2,
        "a variation beside 1. e4"
    );
    assert!(!r.tree().on_main_line(r.cursor));
    assert_eq!(r.evals.len(), r.tree().nodes.len());
    // The main move typed again is followed, not added.
    key(&mut a, KeyCode::Home, now);
    key(&mut a, KeyCode::Char(':'), now);
    type_str(&mut a, "e2e4", now);
    assert_eq!(a.task::<Replay>().unwrap().tree().node(0).children.len(), 2);
    assert!(
        a.task::<Replay>()
            .unwrap()
            .tree()
            .on_main_line(a.task::<Replay>().unwrap().cursor)
    );
    // A bad move is explained and changes nothing.
    key(&mut a, KeyCode::Char(':'), now);
    type_str(&mut a, "Ke3", now);
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("cannot")),
        "{:?}",
        a.ui.status
    );
    assert_eq!(cursor_san(&a), "e4");
    // Clicked on the board: the piece, then its square.
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, 160, 50))
        .unwrap()
        .board;
    let click = |a: &mut App, sq: Square| {
        let r = geo.rect_of(sq, a.ui.look.flipped);
        a.update(
            Msg::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: r.x + 1,
                row: r.y,
                modifiers: KeyModifiers::NONE,
            }),
            now,
        );
    };
    click(&mut a, Square::C7);
    assert_eq!(a.chess().pick.selected, Some(Square::C7));
    click(&mut a, Square::C5);
    assert_eq!(cursor_san(&a), "c5");
    assert_eq!(uci_moves(&a), ["e2e4", "c7c5"]);
    // The copied PGN has the new variations.
    shift(&mut a, 'Y', now);
    let text = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Copy { text, .. } => Some(text),
            _ => None,
        })
        .expect("copy");
    assert!(
        text.contains("( 1. d4 )") || text.contains("(1. d4)"),
        "{text}"
    );
    assert!(text.contains("c5"), "{text}");
}

#[test]
fn own_moves_at_the_end_are_not_the_game() {
    let now = Instant::now();
    let text = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n";
    let mut a = replaying(text, None, now);
    key(&mut a, KeyCode::End, now);
    assert_eq!(
        a.chess().game.ending.map(|e| e.result),
        Some(GameResult::WhiteWins)
    );
    // Black resigned here; try playing on.
    key(&mut a, KeyCode::Char(':'), now);
    type_str(&mut a, "Nc6", now);
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.starts_with("You try")),
        "{:?}",
        a.ui.status
    );
    assert_eq!(cursor_san(&a), "Nc6");
    assert!(
        a.chess().game.ending.is_none(),
        "the file's result is not this line's"
    );
    let r = a.task::<Replay>().unwrap();
    assert!(r.is_own(r.cursor));
    assert_eq!(
        r.main_nodes().len(),
        4,
        "the game's own line: start + 3 moves"
    );
    // The review covers the file's moves only.
    a.take_effects();
    key(&mut a, KeyCode::Char('r'), now);
    let moves = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Review(r) => Some(r.moves),
            _ => None,
        })
        .unwrap();
    assert_eq!(moves.len(), 3);
}

/// The games list at 80x24 keeps each game's opening on its row (the year
/// for the date, surnames for long names) and says the chosen game whole
/// under the rows; at 160x50 the full columns (issue 50: at 80 columns the
/// opening column was gone and a long name could not be read anywhere).
#[test]
fn the_games_list_shows_the_opening_at_80_columns_and_the_chosen_game_whole() {
    let now = Instant::now();
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/classics.pgn"),
    )
    .expect("the sample");
    let a = replaying(&text, None, now);
    assert!(matches!(a.ui.overlay, Overlay::Games { selected: 0 }));
    let screen = render(&a, 80, 24);
    let row = screen
        .lines()
        .find(|l| l.contains("   1 "))
        .unwrap_or_else(|| panic!("no row for game 1\n{screen}"));
    assert!(
        row.contains("Anderssen")
            && row.contains("Kieseritzky")
            && row.contains("1851  C33 King's Gambit"),
        "{row}"
    );
    assert!(
        screen.contains(
            "│Adolf Anderssen – Lionel Kieseritzky 1-0 · London, London ENG, 1851.06.21 │"
        ) && screen.contains("│· 23 moves · C33 King's Gambit Accepted, Bishop's Gambit "),
        "{screen}"
    );
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("Adolf Anderssen          Lionel Kieseritzky       1-0     1851.06.21    23  London · C33"),
        "{screen}"
    );
}

/// A long opening name is read whole at 80x24: its family on the top
/// border of the moves, the rest on the box's first row when the bottom
/// border is too short for it (issue 50: "Maróczy Variat…" could not be
/// read anywhere); the moves go on below it, and a click on one still
/// finds it.
#[test]
fn a_long_opening_name_is_whole_at_80_columns() {
    let now = Instant::now();
    let pgn = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
               1. e4 c5 2. Nf3 Nc6 3. d4 cxd4 4. Nxd4 g6 5. c4 Bg7 6. Be3 Nf6 7. Nc3 Ng4 *\n";
    let mut a = replaying(pgn, None, now);
    a.update(Msg::Resize(80, 24), now);
    key(&mut a, KeyCode::End, now);
    let name = a.chess().opening.text().expect("an opening");
    assert!(
        name.chars().count() > 56,
        "a name too long for two borders: {name}"
    );
    let screen = render(&a, 80, 24);
    let (family, rest) = name.split_once(": ").expect("a family and a variation");
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.contains(&format!("┌ {family} ─")))
        .unwrap_or_else(|| panic!("{family} on the top border\n{screen}"));
    // The rest on the rows under it, inside the box's left border.
    let x = lines[top].chars().position(|c| c == '┌').unwrap_or(0);
    let inside: Vec<String> = lines[top + 1..top + 3]
        .iter()
        .map(|l| {
            l.chars()
                .skip(x)
                .collect::<String>()
                .trim_start_matches('│')
                .split('│')
                .next()
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .collect();
    assert_eq!(inside.join(" "), rest, "{screen}");
    assert!(screen.contains("1.e4 c5 2.Nf3"), "{screen}");
    // Clicking the first move goes there (the rows start under the name).
    let y = screen
        .lines()
        .position(|l| l.contains("1.e4 c5 2.Nf3"))
        .expect("the first row of moves") as u16;
    let x = screen
        .lines()
        .nth(usize::from(y))
        .unwrap()
        .find("1.e4")
        .unwrap();
    let x = screen.lines().nth(usize::from(y)).unwrap()[..x]
        .chars()
        .count() as u16;
    a.update(
        Msg::Mouse(crossterm::event::MouseEvent {
            kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
            column: x + 2,
            row: y,
            modifiers: KeyModifiers::NONE,
        }),
        now,
    );
    assert_eq!(cursor_san(&a), "e4");
}
