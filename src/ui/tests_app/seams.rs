//! Seams users ran into: a refused move left in the move box, takebacks
//! after the end, keys acting on the "too small" screen, cut-off messages,
//! a help that did not fit, resume counts, stale search lines and footers.

use super::*;

fn status_text(a: &App) -> String {
    a.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
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
    assert!(a.game.moves().is_empty());
    let st = a.status.clone().expect("the refusal is explained");
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
    assert!(!a.move_box_shown());
    // Backspace still corrects a refused move instead.
    type_str(&mut a, "Kd9", t);
    assert_eq!(a.game.moves().len(), 1);
    key(&mut a, KeyCode::Backspace, t);
    key(&mut a, KeyCode::Char('7'), t);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["e2e3", "e8d7"], "{}", status_text(&a));
}

