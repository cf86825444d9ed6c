//! The board component alone: the cursor, picking and moving, promotions,
//! drags, the pocket and drops, on chess and Crazyhouse positions.

use super::*;
use crossterm::event::{KeyCode, KeyEvent};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, uci::UciMove};

fn chess(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn zh(fen: &str) -> Crazyhouse {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn uci(m: &Intent) -> String {
    match m {
        Intent::Play(m) => UciMove::from_standard(*m).to_string(),
        other => format!("{other:?}"),
    }
}

#[test]
fn the_cursor_stays_on_the_board_and_turns_with_it() {
    let mut b = BoardInput::at(Square::A1);
    b.move_cursor(Action::Left, false, 0);
    b.move_cursor(Action::Down, false, 0);
    assert_eq!(b.cursor, Square::A1);
    b.move_cursor(Action::Up, false, 0);
    b.move_cursor(Action::Right, false, 0);
    assert_eq!(b.cursor, Square::B2);
    // Black at the bottom: up goes down the ranks.
    b.move_cursor(Action::Up, true, 0);
    assert_eq!(b.cursor, Square::B1);
}

#[test]
fn pick_then_move_put_back_and_errors() {
    let pos = Chess::default();
    let mut b = BoardInput::default();
    assert_eq!(b.choose(Square::G1, &pos), Intent::Picked);
    assert_eq!(b.destinations(&pos).len(), 2);
    assert_eq!(uci(&b.choose(Square::F3, &pos)), "g1f3");
    assert_eq!(b.selected, None);
    // Put back by choosing it again.
    b.choose(Square::G1, &pos);
    assert_eq!(b.choose(Square::G1, &pos), Intent::Picked);
    assert_eq!(b.selected, None);
    // A piece without a move, an illegal target, an empty square.
    assert!(
        matches!(b.choose(Square::C1, &pos), Intent::Error(e) if e.contains("bishop on c1 has no legal move"))
    );
    b.choose(Square::G1, &pos);
    assert!(
        matches!(b.choose(Square::G4, &pos), Intent::Error(e) if e == "g1g4 is not a legal move.")
    );
    assert_eq!(b.choose(Square::E4, &pos), Intent::Nothing);
    // Another own piece picked instead.
    b.choose(Square::G1, &pos);
    assert_eq!(b.choose(Square::B1, &pos), Intent::Picked);
    assert_eq!(b.selected, Some(Square::B1));
}

#[test]
fn castling_by_the_king_to_its_square_and_promotion_asked() {
    let pos = chess("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mut b = BoardInput::default();
    b.choose(Square::E1, &pos);
    assert_eq!(uci(&b.choose(Square::G1, &pos)), "e1g1");
    b.choose(Square::B7, &pos);
    assert_eq!(
        b.choose(Square::A8, &pos),
        Intent::Promote {
            from: Square::B7,
            to: Square::A8
        }
    );
}

#[test]
fn a_drag_moves_and_a_click_on_the_picked_piece_puts_it_back() {
    let pos = Chess::default();
    let mut b = BoardInput::default();
    assert_eq!(b.press(Square::E2, &pos), Intent::Picked);
    assert_eq!(uci(&b.release(Some(Square::E4), &pos)), "e2e4");
    // Press and release on the same, already picked-up piece: put back.
    b.press(Square::D2, &pos);
    b.release(Some(Square::D2), &pos);
    assert_eq!(b.selected, Some(Square::D2), "first click picks it up");
    b.press(Square::D2, &pos);
    b.release(Some(Square::D2), &pos);
    assert_eq!(b.selected, None, "second click puts it back");
    b.press(Square::D2, &pos);
    b.right_click();
    assert_eq!(b.selected, None);
}

#[test]
fn the_pocket_row_and_drops() {
    let pos = zh("rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3");
    let mut b = BoardInput::at(Square::E1);
    b.move_cursor(Action::Down, false, pos.pocket(Color::White).len());
    assert!(b.in_pocket, "below the first rank: the pocket");
    assert!(matches!(b.choose_at_cursor(&pos), Intent::Info(t) if t.contains("Drop a pawn")));
    assert_eq!(b.drop, Some(Role::Pawn));
    assert_eq!(uci(&b.choose(Square::E4, &pos)), "P@e4");
    // A drop where none may go is refused, and the piece goes back.
    b.take_from_pocket(Role::Pawn, 0);
    assert!(matches!(b.choose(Square::E8, &pos), Intent::Error(_)));
    assert_eq!(b.drop, None);
    // Chess has no pocket: the cursor stays on the board.
    let mut c = BoardInput::at(Square::E1);
    c.move_cursor(Action::Down, false, 0);
    assert!(!c.in_pocket);
}

fn press(b: &mut BoardInput, code: KeyCode) -> BoxKey {
    b.typing
        .key(KeyEvent::new(code, crossterm::event::KeyModifiers::NONE))
}

#[test]
fn typed_moves_cursor_letters_and_a_refused_text() {
    use crate::ui::board::BoxKey;
    let pos = Chess::default();
    let could = |t: &str| crate::ui::input::could_begin_move(&pos, t);
    let mut b = BoardInput::at(Square::E2);
    // `h` is a cursor key and a file: the cursor moves at once...
    assert!(b.typed_letter('h', Some(Action::Left), &could, false, 0));
    assert_eq!(b.cursor, Square::D2);
    assert!(!b.typing.shown());
    // ...and goes back when `3` makes it a move.
    assert!(b.typed_letter('3', None, &could, false, 0));
    assert_eq!(b.cursor, Square::E2);
    assert_eq!(b.typing.text, "h3");
    assert_eq!(press(&mut b, KeyCode::Enter), BoxKey::Submit("h3".into()));
    assert!(!b.typing.shown());
    // A letter that cannot begin a move is a command.
    assert!(!b.typed_letter('q', None, &could, false, 0));
    // A refused text: Backspace corrects it, any other key puts it away.
    b.typing.refuse("Ke9".into());
    assert_eq!(press(&mut b, KeyCode::Backspace), BoxKey::Taken);
    assert_eq!(b.typing.text, "Ke");
    b.typing.refuse("Ke9".into());
    assert_eq!(press(&mut b, KeyCode::Char('?')), BoxKey::Pass);
    assert!(!b.typing.shown());
    b.typing.refuse("Ke9".into());
    assert_eq!(press(&mut b, KeyCode::Down), BoxKey::Pass);
    b.typing.refuse("Ke9".into());
    assert_eq!(press(&mut b, KeyCode::Enter), BoxKey::Taken);
    assert!(!b.typing.shown());
}
