//! Seams a new user hit (issue 49): a resumed game lost under a replay,
//! a refused move that swallowed command keys, the puzzle screen's way
//! out, and a game not saved without a word on screen.

use super::replay::open_text;
use super::*;

fn status_text(a: &App) -> String {
    a.ui.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

/// A game of `moves` (UCI), as a saved file holds it.
fn game_of(moves: &[&str]) -> crate::game::Game {
    let mut g = crate::game::Game::new(Board::startpos());
    let mut b = Board::startpos();
    for m in moves {
        let mv = b.parse_uci(m).unwrap();
        g.push(mv, None);
        b = b.play(mv);
    }
    g
}

const SAMPLE: &str = "[White \"A\"]\n[Black \"B\"]\n\n1. d4 d5 2. c4 *\n";

// Seam 2: a resumed game comes back after a replay opened over it.
#[test]
fn a_resumed_game_comes_back_after_a_replay() {
    let t = Instant::now();
    let dir = temp_dir("resumed-under-replay");
    let path = dir.join("2026-01-01_120000.pgn");
    let g = game_of(&["e2e4", "e7e5", "g1f3"]);
    std::fs::write(&path, crate::game::pgn::write_pgn(&g)).unwrap();
    let mut a = app();
    a.resume(g, path.clone(), t);
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5", "g1f3"]);
    open_text(&mut a, SAMPLE, None, t);
    assert!(a.task::<Replay>().is_some(), "the replay is on top");
    assert!(
        status_text(&a).contains("Your game waits beneath the replay"),
        "{}",
        status_text(&a)
    );
    key(&mut a, KeyCode::Esc, t);
    assert_eq!(a.depth(), 1, "back to the game");
    assert!(a.task::<Replay>().is_none());
    assert_eq!(
        uci_moves(&a),
        ["e2e4", "e7e5", "g1f3"],
        "the resumed game, not a new one; status: {}",
        status_text(&a)
    );
    assert_eq!(a.chess().file.path(), Some(path.as_path()));
    let _ = std::fs::remove_dir_all(&dir);
}

// Seam 4: after a refused move, command keys are commands again.
#[test]
fn a_refused_move_does_not_swallow_command_keys() {
    let t = Instant::now();
    for (k, check) in [
        ('?', "help"),
        ('F', "flip"),
        ('q', "quit"),
        ('e', "a new move"),
    ] {
        let mut a = app();
        a.start_game(setup(WHITE, None, None), t);
        type_str(&mut a, "O-O", t);
        assert!(a.chess().pick.typing.refused, "O-O is refused");
        let flipped = a.ui.look.flipped;
        if k.is_ascii_uppercase() {
            shift(&mut a, k, t);
        } else {
            key(&mut a, KeyCode::Char(k), t);
        }
        match check {
            "help" => assert!(
                matches!(a.ui.overlay, Overlay::Help { .. }),
                "? opens the help"
            ),
            "flip" => assert_ne!(a.ui.look.flipped, flipped, "F flips the board"),
            "quit" => assert!(a.ui.quit, "q quits"),
            _ => assert_eq!(a.chess().pick.typing.text, "e", "a move is typed afresh"),
        }
        if check != "a new move" {
            assert!(
                !a.chess().move_box_shown(),
                "'{k}': the refused text is gone, nothing typed: {:?}",
                a.chess().pick.typing.text
            );
        }
    }
}

// Seam 3: `nf3` is a move; `n` over a game in progress asks before the
// game is left.
#[test]
fn lower_case_nf3_is_a_move_and_n_asks_before_leaving_a_game() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).expect("the engine is asked");
    reply(&mut a, &req, "e7e5", t);
    type_str(&mut a, "nf3", t);
    assert_eq!(
        uci_moves(&a),
        ["e2e4", "e7e5", "g1f3"],
        "nf3 is a move; status: {}",
        status_text(&a)
    );
    assert!(matches!(a.ui.overlay, Overlay::None));
    let req = take_go(&mut a, Slot::Opponent).expect("the engine is asked");
    reply(&mut a, &req, "b8c6", t);
    // `n` then Enter: the dialog asks first, naming the game it leaves.
    key(&mut a, KeyCode::Char('n'), t);
    key(&mut a, KeyCode::Enter, t);
    let Overlay::NewGame(d) = &a.ui.overlay else {
        panic!("the dialog stays open: {:?}", a.ui.status);
    };
    let warning = d.error.clone().unwrap_or_default();
    assert!(
        warning.contains("leaves your game after 2 moves") && warning.contains("Enter again"),
        "{warning}"
    );
    // Whole on screen, even at 80 x 24.
    for (w, h) in [(120, 40), (80, 24)] {
        let shown = render(&a, w, h);
        // The dialog's text: each row between its two borders.
        let flat = shown
            .lines()
            .filter_map(|l| l.split('│').nth(1))
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            flat.contains("Enter again starts a new game, Esc goes back")
                && flat.contains("(2... Nc6)"),
            "{shown}"
        );
    }
    assert_eq!(a.chess().game.moves().len(), 4, "the game is still there");
    // Esc goes back to it.
    key(&mut a, KeyCode::Esc, t);
    assert_eq!(a.chess().game.moves().len(), 4);
    // Enter twice starts the new game.
    key(&mut a, KeyCode::Char('n'), t);
    key(&mut a, KeyCode::Enter, t);
    key(&mut a, KeyCode::Enter, t);
    assert!(matches!(a.ui.overlay, Overlay::None));
    assert!(a.chess().game.moves().is_empty(), "a new game");
    // Before the first move nothing is lost: one Enter starts it.
    key(&mut a, KeyCode::Char('n'), t);
    key(&mut a, KeyCode::Enter, t);
    assert!(matches!(a.ui.overlay, Overlay::None), "no question");
    // A Crazyhouse game opens over a game in progress, which waits: no
    // question either.
    type_str(&mut a, "d4", t);
    assert_eq!(a.chess().game.moves().len(), 1);
    key(&mut a, KeyCode::Char('n'), t);
    let Overlay::NewGame(d) = &mut a.ui.overlay else {
        panic!("the dialog")
    };
    d.variant = 1;
    key(&mut a, KeyCode::Enter, t);
    assert!(matches!(a.ui.overlay, Overlay::None), "no question");
    assert_eq!(a.depth(), 2, "the Crazyhouse game is over the chess game");
    key(&mut a, KeyCode::Esc, t);
    assert_eq!(a.depth(), 1);
    assert_eq!(uci_moves(&a), ["d2d4"], "which waited");
}

// Seam 3 in Crazyhouse: `nf3` is a move there too.
#[test]
fn lower_case_nf3_is_a_move_in_crazyhouse() {
    use super::house_live::{answer, crazyhouse, go_for, jobs, live_moves};
    let t = Instant::now();
    let mut a = crazyhouse(t);
    type_str(&mut a, "e4", t);
    let (id, _) = go_for(&jobs(&mut a), 1).expect("the engine is asked");
    answer(&mut a, 1, id, "e7e5", t);
    type_str(&mut a, "nf3", t);
    assert_eq!(live_moves(&a), 3, "status: {}", status_text(&a));
    assert!(matches!(a.ui.overlay, Overlay::None));
}

// Seam 5: `kibitz puzzles` shows the puzzles alone: q quits at once.
#[test]
fn the_puzzles_started_alone_quit_with_q() {
    let t = Instant::now();
    let mut a = app();
    assert!(a.start_puzzles(None, t), "a puzzle is shown");
    assert_eq!(a.depth(), 1, "no game beneath the puzzles");
    assert!(a.task::<Drill>().is_some());
    assert!(render(&a, 120, 40).contains("q quit"), "the footer says so");
    key(&mut a, KeyCode::Char('q'), t);
    assert!(a.ui.quit, "q leaves the puzzles, and so Kibitz");
    // Opened over a game, they go back to it.
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    a.open_puzzles(None, t);
    assert_eq!(a.depth(), 2);
    assert!(render(&a, 120, 40).contains("q back"));
    key(&mut a, KeyCode::Char('q'), t);
    assert!(!a.ui.quit);
    assert_eq!(uci_moves(&a), ["e2e4"], "back to the game");
}

// Seam 5: a theme no puzzle has is named, with the one meant.
#[test]
fn a_puzzle_theme_nobody_has_names_the_one_meant() {
    let mut a = app();
    assert!(a.ui.check_puzzle_theme("fork").is_ok());
    let e = a.ui.check_puzzle_theme("forks").unwrap_err();
    assert!(
        e.contains("'forks'") && e.contains("did you mean fork?"),
        "{e}"
    );
    assert!(e.contains("Themes with puzzles: "), "{e}");
}

// Seam 6: a game not being saved says so for as long as it is true.
#[test]
fn a_game_not_saved_keeps_a_mark_on_screen() {
    let t = Instant::now();
    let top_row = |a: &App| {
        render(a, 120, 40)
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    // No data folder: nothing is saved, before and after the first move.
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    assert!(top_row(&a).contains("not saved"), "{}", top_row(&a));
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    reply(&mut a, &req, "e7e5", t);
    assert!(top_row(&a).contains("not saved"), "{}", top_row(&a));
    // A data folder whose saves fail: marked from the failure until a
    // save works again.
    let dir = temp_dir("unsaved-mark");
    let mut a = App::new(
        Config {
            engine_pace: crate::ui::pace::Pace::Fast,
            ..Config::default()
        },
        theme::builtin(),
        Some(dir.clone()),
    );
    a.update(Msg::Resize(120, 40), t);
    a.start_game(setup(WHITE, None, None), t);
    let path = a
        .chess()
        .file
        .path()
        .map(PathBuf::from)
        .expect("a file for the game");
    assert!(!top_row(&a).contains("not saved"), "{}", top_row(&a));
    type_str(&mut a, "e4", t);
    a.update(
        Msg::Autosaved {
            path: path.clone(),
            ok: false,
        },
        t,
    );
    assert!(top_row(&a).contains("not saved"));
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    reply(&mut a, &req, "e7e5", t);
    assert!(top_row(&a).contains("not saved"), "still, after moves");
    a.update(Msg::Autosaved { path, ok: true }, t);
    assert!(!top_row(&a).contains("not saved"), "{}", top_row(&a));
    let _ = std::fs::remove_dir_all(&dir);
}
