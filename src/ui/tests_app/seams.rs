//! Seams users ran into: a refused move left in the move box, takebacks
//! after the end, keys acting on the "too small" screen, cut-off messages,
//! a help that did not fit, resume counts, stale search lines and footers.

use super::house_live::{ENGINE, bughouse, crazyhouse, go_for, jobs, live_moves, shift_or_key};
use super::*;
use crate::ui::screens::house::live::{LiveSetup, Player};
use crate::variant::VariantKind;

fn status_text(a: &App) -> String {
    a.ui.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

/// The screen's text with every run of white space made one space.
fn flat(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text without any white space (a long word may be cut at the edge).
fn solid(text: &str) -> String {
    text.split_whitespace().collect()
}

/// The last row drawn (the key hints).
fn last_row(screen: &str) -> String {
    screen.lines().last().unwrap_or_default().to_string()
}

// 2. A refused move goes from the box: the next move is typed afresh.
#[test]
fn a_refused_move_does_not_stick_to_the_next_one() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/8/8/8/4K3/7R w - - 0 1"),
            None,
        ),
        t,
    );
    type_str(&mut a, "O-O", t);
    assert!(a.chess().game.moves().is_empty());
    let st = a.ui.status.clone().expect("the refusal is explained");
    assert_eq!(st.kind, crate::ui::app::StatusKind::Error);
    assert!(
        st.text.contains("O-O"),
        "names what was refused: {}",
        st.text
    );
    let screen = render(&a, 120, 40);
    assert!(screen.contains("O-O"), "{screen}");
    type_str(&mut a, "Ke3", t);
    assert_eq!(uci_moves(&a), ["e2e3"], "status: {}", status_text(&a));
    assert!(!a.chess().move_box_shown());
    // Backspace still corrects a refused move instead.
    type_str(&mut a, "Kd9", t);
    assert_eq!(a.chess().game.moves().len(), 1);
    key(&mut a, KeyCode::Backspace, t);
    key(&mut a, KeyCode::Char('7'), t);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["e2e3", "e8d7"], "{}", status_text(&a));
}

// 3. Takeback never rewrites a result.
#[test]
fn takeback_after_a_loss_on_time_keeps_the_result() {
    let t = Instant::now();
    let s = Duration::from_secs;
    let mut a = app();
    a.start_game(setup(WHITE, None, Some("1+0")), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    reply(&mut a, &req, "e7e5", t + s(1));
    a.update(Msg::Tick, t + s(62));
    let ending = a.chess().game.ending.expect("White's flag fell");
    assert_eq!(ending.termination, Termination::TimeForfeit);
    a.take_effects();
    command(&mut a, Action::Takeback, t + s(63));
    assert_eq!(a.chess().game.ending, Some(ending), "the result stands");
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5"]);
    let text = status_text(&a);
    assert!(
        text.contains("The game is over") && text.contains("time forfeit"),
        "{text}"
    );
    assert!(!text.contains("Took back"), "{text}");
    let c = a.chess().clocks.as_ref().unwrap();
    assert_eq!(c.remaining(Color::White, t + s(70)), Duration::ZERO);
    assert!(
        !a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Save { .. })),
        "the saved game is not rewritten"
    );
    assert!(crate::game::write_pgn(&a.chess().game).contains("[Result \"0-1\"]"));
    // Clicking the board says the same, without offering a takeback.
    key(&mut a, KeyCode::Enter, t + s(64));
    let text = status_text(&a);
    assert!(text.contains("The game is over"), "{text}");
    assert!(!text.contains("takes back"), "{text}");
    // A typed move is answered the same way.
    key(&mut a, KeyCode::Char('d'), t + s(64));
    assert!(status_text(&a).contains("The game is over"));

    // Crazyhouse likewise.
    let mut z = crazyhouse(t);
    type_str(&mut z, "e4", t);
    let (id, _) = go_for(&jobs(&mut z), 1).unwrap();
    super::house_live::answer(&mut z, 1, id, "e7e5", t);
    z.update(Msg::Tick, t + s(61));
    let over = |a: &App| a.live().and_then(|l| l.ending.clone());
    let ending = over(&z).expect("White lost on time");
    shift_or_key(&mut z, Action::Takeback, t + s(62));
    assert_eq!(over(&z), Some(ending));
    assert_eq!(live_moves(&z), 2);
    assert!(status_text(&z).contains("The game is over"));
}

// 4. Keys do nothing blind on the "too small" screen but quit.
#[test]
fn keys_do_not_act_while_the_terminal_is_too_small() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    a.update(Msg::Resize(40, 12), t);
    assert!(render(&a, 40, 12).contains("Terminal too small"));
    type_str(&mut a, "e4", t);
    key(&mut a, KeyCode::Char('n'), t);
    key(&mut a, KeyCode::Char('?'), t);
    a.update(
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: 5,
            row: 5,
            modifiers: KeyModifiers::NONE,
        }),
        t,
    );
    assert!(
        a.chess().game.moves().is_empty(),
        "played blind: {:?}",
        uci_moves(&a)
    );
    assert!(matches!(a.ui.overlay, Overlay::None));
    assert!(!a.chess().move_box_shown() && a.chess().pick.selected.is_none());
    a.update(Msg::Resize(120, 40), t);
    type_str(&mut a, "e4", t);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    a.update(Msg::Resize(40, 12), t);
    key(&mut a, KeyCode::Char('q'), t);
    assert!(a.ui.quit, "q still quits");

    // The Crazyhouse and Bughouse screens.
    let mut z = crazyhouse(t);
    z.update(Msg::Resize(20, 8), t);
    assert!(render(&z, 20, 8).contains("too small"));
    type_str(&mut z, "e4", t);
    assert_eq!(live_moves(&z), 0);
    let mut b = bughouse(t);
    b.update(Msg::Resize(50, 20), t);
    assert!(render(&b, 50, 20).contains("too small"));
    type_str(&mut b, "e4", t);
    assert_eq!(live_moves(&b), 0);
    b.update(Msg::Resize(160, 50), t);
    type_str(&mut b, "e4", t);
    assert_eq!(live_moves(&b), 1);
}

// 5. A long message wraps: all of it stays on screen.
#[test]
fn long_messages_wrap_instead_of_being_cut() {
    let t = Instant::now();
    let msg = "Cannot resume /home/someone/.local/share/kibitz/games/2026-01-01_120000.pgn: \
               the file is damaged (line 14: the moves end without a result); \
               a new game started. Unknown key 'colour_theme' in config.toml";
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    a.update(Msg::Error(msg.into()), t);
    for (w, h) in [(80, 24), (58, 12), (120, 40)] {
        a.update(Msg::Resize(w, h), t);
        let screen = render(&a, w, h);
        assert!(solid(&screen).contains(&solid(msg)), "{w}x{h}:\n{screen}");
        assert!(
            last_row(&screen).contains("help"),
            "the keys stay: {screen}"
        );
    }
    // The Crazyhouse screen too.
    let mut z = crazyhouse(t);
    z.update(Msg::Error(msg.into()), t);
    let screen = render(&z, 120, 40);
    assert!(solid(&screen).contains(&solid(msg)), "{screen}");
}

// 7. Help scrolls, wraps to the width and says how to close.
#[test]
fn help_scrolls_wraps_and_says_how_to_close() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    a.update(Msg::Resize(80, 24), t);
    key(&mut a, KeyCode::Char('?'), t);
    assert!(matches!(a.ui.overlay, Overlay::Help { scroll: 0 }));
    let screen = render(&a, 80, 24);
    assert!(screen.contains("lines 1-"), "{screen}");
    assert!(screen.contains("Esc or ? closes"), "{screen}");
    key(&mut a, KeyCode::PageDown, t);
    let Overlay::Help { scroll } = a.ui.overlay else {
        panic!("PageDown closed the help");
    };
    assert!(scroll > 0);
    key(&mut a, KeyCode::Up, t);
    assert!(matches!(a.ui.overlay, Overlay::Help { scroll: s } if s == scroll - 1));
    key(&mut a, KeyCode::End, t);
    let screen = flat(&render(&a, 80, 24));
    assert!(screen.contains("any spelling (nf3)."), "{screen}");
    assert!(
        screen.contains("so does any key that does not scroll it"),
        "{screen}"
    );
    let Overlay::Help { scroll: end } = a.ui.overlay else {
        panic!("End closed the help");
    };
    key(&mut a, KeyCode::Down, t);
    assert!(
        matches!(a.ui.overlay, Overlay::Help { scroll } if scroll == end),
        "stops at the end"
    );
    key(&mut a, KeyCode::Home, t);
    assert!(matches!(a.ui.overlay, Overlay::Help { scroll: 0 }));
    key(&mut a, KeyCode::Char('x'), t);
    assert!(matches!(a.ui.overlay, Overlay::None), "other keys close it");
    key(&mut a, KeyCode::Char('?'), t);
    key(&mut a, KeyCode::Esc, t);
    assert!(matches!(a.ui.overlay, Overlay::None));
    // Wide: the long lines are whole.
    key(&mut a, KeyCode::Char('?'), t);
    a.update(Msg::Resize(140, 50), t);
    let screen = flat(&render(&a, 140, 50));
    for d in Action::ALL.iter().map(|a| a.description()) {
        assert!(screen.contains(d), "{d} cut:\n{screen}");
    }
}

// 8. The resume prompt and the status count the same moves.
#[test]
fn resume_prompt_and_status_count_full_moves() {
    let t = Instant::now();
    let mut g = crate::game::Game::new(Board::startpos());
    let mut b = Board::startpos();
    for m in [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
    ] {
        let mv = b.parse_uci(m).unwrap();
        g.push(mv, None);
        b = b.play(mv);
    }
    let path = PathBuf::from("/nonexistent/2026-01-01_120000.pgn");
    let summary = crate::ui::text::resume_summary(&g, &path);
    assert!(summary.contains("5 moves (5... Be7)"), "{summary}");
    let mut a = app();
    a.resume(g, path, t);
    let text = status_text(&a);
    assert!(
        text.contains("after 5 moves (5... Be7)"),
        "prompt: {summary}; status: {text}"
    );
}

// 8. The Crazyhouse prompt counts full moves too.
#[test]
fn the_crazyhouse_resume_prompt_counts_full_moves() {
    let t = Instant::now();
    let dir = temp_dir("seams-zh-resume");
    let mut a = crazyhouse(t);
    type_str(&mut a, "e4", t);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    super::house_live::answer(&mut a, 1, id, "e7e5", t);
    type_str(&mut a, "Nf3", t);
    let text = a.live().map(|l| l.save_text()).unwrap();
    std::fs::write(dir.join("2026-01-01_000000.pgn"), text).unwrap();
    let (_, summary) =
        crate::ui::screens::house::file::find_unfinished(&dir, VariantKind::Crazyhouse)
            .expect("offered");
    assert!(summary.contains(", 2 moves,"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

// 8. The Crazyhouse/Bughouse resume prompt is not drawn over a chess board.
#[test]
fn the_house_resume_prompt_is_not_over_the_chess_screen() {
    let t = Instant::now();
    // An unfinished Crazyhouse game in the data folder's games.
    let data = temp_dir("seams-zh-prompt");
    std::fs::create_dir_all(data.join("games")).unwrap();
    let mut z = crazyhouse(t);
    type_str(&mut z, "e4", t);
    let text = z.live().map(|l| l.save_text()).unwrap();
    std::fs::write(data.join("games").join("2026-01-01_000000.pgn"), text).unwrap();
    let mut a = App::new(Config::default(), theme::builtin(), Some(data.clone()));
    a.update(Msg::Resize(120, 40), t);
    let setup = LiveSetup {
        kind: VariantKind::Crazyhouse,
        players: vec![[Player::Human, ENGINE]],
        time: None,
        start: None,
    };
    a.offer_or_start_live(setup, false, t);
    assert!(matches!(a.ui.overlay, Overlay::Resume { .. }));
    let screen = render(&a, 120, 40);
    assert!(screen.contains("An unfinished game was found"), "{screen}");
    assert!(screen.contains("1 move"), "{screen}");
    assert!(!screen.contains("Engine:"), "the chess panel: {screen}");
    assert!(!screen.contains("takeback"), "the chess keys: {screen}");
    // Resuming takes up that game on the same screen.
    key(&mut a, KeyCode::Enter, t);
    assert!(a.live().is_some());
    let _ = std::fs::remove_dir_all(&data);
}

// 9. A takeback clears the search panel of the position taken back.
#[test]
fn takeback_clears_the_search_of_the_position_taken_back() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    let board = Board::startpos().play(Board::startpos().parse_uci("e2e4").unwrap());
    let e5 = board.parse_uci("e7e5").unwrap();
    let nf3 = board.play(e5).parse_uci("g1f3").unwrap();
    let line = crate::ui::player::SearchLine {
        depth: 6,
        multipv: 1,
        score: Some(Score(-20)),
        pv: vec![e5, nf3],
        ..Default::default()
    };
    a.update(
        said(&a, Slot::Opponent, EngineEvent::Info { id: req.id, line }),
        t,
    );
    reply(&mut a, &req, "e7e5", t);
    let screen = render(&a, 120, 40);
    assert!(screen.contains("1... e5"), "{screen}");
    command(&mut a, Action::Takeback, t);
    assert!(a.chess().game.moves().is_empty());
    let screen = render(&a, 120, 40);
    assert!(!screen.contains("1... e5"), "the line taken back: {screen}");
    assert!(screen.contains("no search yet"), "{screen}");
    assert!(
        screen.contains("no search yet  (scores: White's view)"),
        "{screen}"
    );
    // A narrow panel says whose view in fewer words, never cut off.
    let screen = render(&a, 80, 24);
    assert!(screen.contains("no search yet  (White's view)"), "{screen}");
}

// 9. A finished game's keys offer nothing that does nothing.
#[test]
fn finished_games_offer_no_pause_takeback_or_hint() {
    let t = Instant::now();
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let mut a = app();
    a.start_game(setup(Mode::EngineVsEngine, None, None), t);
    assert!(last_row(&render(&a, 120, 40)).contains("pause"));
    a.start_game(setup(Mode::EngineVsEngine, Some(mated), None), t);
    assert!(a.chess().is_over());
    let row = last_row(&render(&a, 120, 40));
    assert!(!row.contains("pause"), "{row}");
    a.start_game(setup(WHITE, Some(mated), None), t);
    assert!(a.chess().is_over());
    let row = last_row(&render(&a, 120, 40));
    for gone in ["takeback", "hint", "draw", "resign"] {
        assert!(!row.contains(gone), "{gone}: {row}");
    }
    assert!(row.contains("new") && row.contains("quit"), "{row}");
}

// 9. A move typed on a finished Bughouse game is answered.
#[test]
fn a_move_typed_on_a_finished_bughouse_game_is_answered() {
    let t = Instant::now();
    let mut a = bughouse(t);
    shift_or_key(&mut a, Action::Resign, t);
    key(&mut a, KeyCode::Char('y'), t);
    assert!(a.live().is_some_and(|l| l.is_over()));
    key(&mut a, KeyCode::Char('e'), t);
    let text = status_text(&a);
    assert!(
        text.contains("The game is over") && text.contains("resigned"),
        "{text}"
    );
    let row = last_row(&render(&a, 160, 50));
    assert!(!row.contains("resign") && !row.contains("hint"), "{row}");
}
