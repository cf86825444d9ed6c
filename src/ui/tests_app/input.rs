//! Move input: typed SAN/UCI, the cursor, the mouse, promotion, command letters.

use super::*;

#[test]
fn illegal_and_ambiguous_input_change_nothing() {
    let t = Instant::now();
    let mut a = app();
    // Knights on b1 and f1... use a position where Nd2 is ambiguous.
    a.start_game(
        setup(
            WHITE,
            Some("r1bqkbnr/pppppppp/2n5/8/8/8/PPP2PPP/RN2KBNR w KQkq - 0 1"),
            None,
        ),
        t,
    );
    let before = a.board().fen();
    type_str(&mut a, "e5", t);
    assert_eq!(a.board().fen(), before);
    let st = a.ui.status.clone().expect("an explanation");
    assert_eq!(st.kind, crate::ui::app::StatusKind::Error);
    assert_eq!(
        a.chess().pick.typing.text,
        "e5",
        "the text stays for correction"
    );
    key(&mut a, KeyCode::Esc, t);
    assert!(a.chess().pick.typing.text.is_empty());

    a.start_game(
        setup(WHITE, Some("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), None),
        t,
    );
    type_str(&mut a, "Nd2", t);
    assert!(a.chess().game.moves().is_empty());
    let text = a.ui.status.clone().unwrap().text;
    assert!(text.contains("Nbd2") && text.contains("Nfd2"), "{text}");
}
#[test]
fn cursor_selection_and_enter_move() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    assert_eq!(a.chess().pick.cursor, Square::E2);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(a.chess().pick.selected, Some(Square::E2));
    let mut dests = a.chess().destinations(Square::E2);
    dests.sort();
    assert_eq!(dests, [Square::E3, Square::E4]);
    key(&mut a, KeyCode::Up, t);
    key(&mut a, KeyCode::Up, t);
    assert_eq!(a.chess().pick.cursor, Square::E4);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    // Flipped, up moves towards rank 1.
    let mut b = app();
    b.start_game(
        setup(
            Mode::HumanVsEngine {
                human: Color::Black,
            },
            None,
            None,
        ),
        t,
    );
    assert!(b.ui.look.flipped);
    let c = b.chess().pick.cursor;
    key(&mut b, KeyCode::Up, t);
    assert_eq!(b.chess().pick.cursor.rank() as u32 + 1, c.rank() as u32);
}
#[test]
fn mouse_click_and_drag() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, 120, 40))
        .unwrap()
        .board;
    let click = |a: &mut App, sq: Square, kind: MouseEventKind| {
        let r = geo.rect_of(sq, a.ui.look.flipped);
        a.update(
            Msg::Mouse(MouseEvent {
                kind,
                column: r.x + r.width / 2,
                row: r.y + r.height / 2,
                modifiers: KeyModifiers::NONE,
            }),
            t,
        );
    };
    // Click, click.
    click(&mut a, Square::E2, MouseEventKind::Down(MouseButton::Left));
    click(&mut a, Square::E2, MouseEventKind::Up(MouseButton::Left));
    click(&mut a, Square::E4, MouseEventKind::Down(MouseButton::Left));
    assert_eq!(uci_moves(&a), ["e2e4"]);
    // Drag and drop.
    click(&mut a, Square::G8, MouseEventKind::Down(MouseButton::Left));
    click(&mut a, Square::F6, MouseEventKind::Up(MouseButton::Left));
    assert_eq!(uci_moves(&a), ["e2e4", "g8f6"]);
    // Geometry round trip on every square, both orientations.
    for flipped in [false, true] {
        for sq in Square::ALL {
            let r = geo.rect_of(sq, flipped);
            assert_eq!(geo.square_at(r.x, r.y, flipped), Some(sq));
            assert_eq!(
                geo.square_at(r.x + r.width - 1, r.y + r.height - 1, flipped),
                Some(sq)
            );
        }
    }
}
#[test]
fn promotion_asks_for_the_piece() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"),
            None,
        ),
        t,
    );
    a.chess_mut().s.pick.cursor = Square::E7;
    key(&mut a, KeyCode::Enter, t);
    key(&mut a, KeyCode::Up, t);
    key(&mut a, KeyCode::Enter, t);
    assert!(matches!(a.ui.overlay, Overlay::Promotion { .. }));
    assert!(a.chess().game.moves().is_empty());
    key(&mut a, KeyCode::Char('n'), t);
    assert_eq!(uci_moves(&a), ["e7e8n"]);
    // Default (Enter) is a queen; typed promotion without a piece too.
    let mut b = app();
    b.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"),
            None,
        ),
        t,
    );
    b.chess_mut().s.pick.cursor = Square::E7;
    key(&mut b, KeyCode::Enter, t);
    key(&mut b, KeyCode::Up, t);
    key(&mut b, KeyCode::Enter, t);
    key(&mut b, KeyCode::Enter, t);
    assert_eq!(uci_moves(&b), ["e7e8q"]);
}
#[test]
fn vim_keys_move_the_cursor_unless_they_begin_a_typed_move() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    assert_eq!(a.chess().pick.cursor, Square::E2);
    key(&mut a, KeyCode::Char('l'), t);
    assert_eq!(a.chess().pick.cursor, Square::F2);
    key(&mut a, KeyCode::Char('k'), t); // no king move: only the cursor
    assert_eq!(a.chess().pick.cursor, Square::F3);
    key(&mut a, KeyCode::Char('j'), t);
    key(&mut a, KeyCode::Char('h'), t);
    key(&mut a, KeyCode::Char('h'), t);
    assert_eq!(a.chess().pick.cursor, Square::D2);
    assert!(a.chess().pick.typing.text.is_empty());
    // 'h' then '3' is the move h3: the last 'h' no longer moves the cursor.
    type_str(&mut a, "h3", t);
    assert_eq!(uci_moves(&a), ["h2h3"]);
    assert_eq!(a.chess().pick.cursor, Square::D2);

    // A lower-case king move, in the move box (':'): 'k' alone is the cursor.
    let mut b = app();
    b.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
            None,
        ),
        t,
    );
    type_str(&mut b, ":kd2", t);
    assert_eq!(uci_moves(&b), ["e1d2"]);
    // Upper-case file letters are commands, not moves: D offers a draw.
    let mut c = app();
    c.start_game(setup(WHITE, None, None), t);
    shift(&mut c, 'D', t);
    assert!(c.chess().pick.typing.text.is_empty());
}
#[test]
fn dragging_an_already_selected_piece_moves_it() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, 120, 40))
        .unwrap()
        .board;
    let mouse = |a: &mut App, sq: Square, kind: MouseEventKind| {
        let r = geo.rect_of(sq, a.ui.look.flipped);
        a.update(
            Msg::Mouse(MouseEvent {
                kind,
                column: r.x + 1,
                row: r.y,
                modifiers: KeyModifiers::NONE,
            }),
            t,
        );
    };
    mouse(&mut a, Square::E2, MouseEventKind::Down(MouseButton::Left));
    mouse(&mut a, Square::E2, MouseEventKind::Up(MouseButton::Left));
    assert_eq!(a.chess().pick.selected, Some(Square::E2));
    mouse(&mut a, Square::E2, MouseEventKind::Down(MouseButton::Left));
    mouse(&mut a, Square::E4, MouseEventKind::Up(MouseButton::Left));
    assert_eq!(uci_moves(&a), ["e2e4"]);
    // A second click on a selected piece (press and release) deselects it.
    mouse(&mut a, Square::E7, MouseEventKind::Down(MouseButton::Left));
    mouse(&mut a, Square::E7, MouseEventKind::Up(MouseButton::Left));
    mouse(&mut a, Square::E7, MouseEventKind::Down(MouseButton::Left));
    mouse(&mut a, Square::E7, MouseEventKind::Up(MouseButton::Left));
    assert_eq!(a.chess().pick.selected, None);
}
#[test]
fn an_illegal_move_after_a_cursor_letter_is_explained_not_replaced() {
    // h4 pawn cannot capture on g5 (empty), but g4-g5 is legal.
    let t = Instant::now();
    let mut a = app();
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/8/6PP/8/8/4K3 w - - 0 1"),
            None,
        ),
        t,
    );
    type_str(&mut a, "hxg5", t);
    assert!(
        a.chess().game.moves().is_empty(),
        "typing the illegal hxg5 played {:?}",
        uci_moves(&a)
    );
}
#[test]
fn an_illegal_move_after_a_command_letter_is_explained_not_replaced() {
    // f4 is blocked and cannot capture; e4-e5 is legal. "fxe5" flips the
    // board and then plays e5.
    let t = Instant::now();
    let mut a = app();
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/5p2/4PP2/8/8/4K3 w - - 0 1"),
            None,
        ),
        t,
    );
    let flipped = a.ui.look.flipped;
    type_str(&mut a, "fxe5", t);
    assert!(
        a.chess().game.moves().is_empty(),
        "typing the illegal fxe5 played {:?} (flipped {} -> {})",
        uci_moves(&a),
        flipped,
        a.ui.look.flipped
    );
}
#[test]
fn q_quits_at_once_and_a_lowercase_queen_move_goes_in_the_move_box() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, ":qh5", t); // the queen on d1 is boxed in
    assert!(!a.ui.quit, "typing qh5 in the move box quit the app");
    assert_eq!(
        a.chess().pick.typing.text,
        "qh5",
        "the illegal move stays to be corrected"
    );
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.kind == crate::ui::app::StatusKind::Error)
    );
    key(&mut a, KeyCode::Esc, t);
    assert!(!a.chess().move_box_shown());
    key(&mut a, KeyCode::Char('q'), t);
    assert!(a.ui.quit, "q quits with one press");
}
#[test]
fn lowercase_piece_letters_are_commands_and_capitals_are_pieces() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/8/1b6/2N5/8/4K3 w - - 0 1"),
            None,
        ),
        t,
    );
    for m in ["e1d1", "e8d8", "d1e1", "d8e8"] {
        type_str(&mut a, m, t);
    }
    assert_eq!(a.chess().game.moves().len(), 4);
    // The knight on c3 is pinned: "Ne4" is explained, not played.
    type_str(&mut a, "Ne4", t);
    assert_eq!(a.chess().game.moves().len(), 4);
    assert_eq!(a.chess().pick.typing.text, "Ne4");
    key(&mut a, KeyCode::Esc, t);
    // A lower-case n opens the new-game dialog at once.
    key(&mut a, KeyCode::Char('n'), t);
    assert!(matches!(a.ui.overlay, Overlay::NewGame(_)));
    key(&mut a, KeyCode::Esc, t);
    assert!(matches!(a.ui.overlay, Overlay::None));
    assert_eq!(
        a.chess().game.moves().len(),
        4,
        "the game is still the same"
    );
}
#[test]
fn a_cursor_letter_is_forgotten_after_a_mouse_move() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/4p3/8/8/8/8/4K3 w - - 0 1"),
            None,
        ),
        t,
    );
    // White presses k (cursor up; Ke2 is legal), then moves Kd1 with the mouse.
    key(&mut a, KeyCode::Char('k'), t);
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, 120, 40))
        .unwrap()
        .board;
    for sq in [Square::E1, Square::D1] {
        let r = geo.rect_of(sq, a.ui.look.flipped);
        for kind in [
            MouseEventKind::Down(MouseButton::Left),
            MouseEventKind::Up(MouseButton::Left),
        ] {
            a.update(
                Msg::Mouse(MouseEvent {
                    kind,
                    column: r.x + 1,
                    row: r.y,
                    modifiers: KeyModifiers::NONE,
                }),
                t,
            );
        }
    }
    assert_eq!(uci_moves(&a), ["e1d1"]);
    // Black types "e5": the stale 'k' from White's turn makes it "ke5".
    type_str(&mut a, "e5", t);
    assert_eq!(
        uci_moves(&a),
        ["e1d1", "e6e5"],
        "input {:?}",
        a.chess().pick.typing.text
    );
}
