//! Around a Crazyhouse/Bughouse game in play: the new-game dialog, hints,
//! analysis and the evaluation, the screen at every size, the tree
//! explorer, copying, and board moves only a drop can make.

use super::house_live::*;
use super::*;
use crate::ui::screens::house::live::{EngineJob, Player, seat_index};
use crate::variant::VariantKind;

#[test]
fn the_new_game_dialog_offers_the_variants() {
    let t0 = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t0);
    command(&mut a, Action::NewGame, t0);
    assert!(matches!(a.ui.overlay, Overlay::NewGame(_)));
    // Up from the first field reaches the last: Variant.
    key(&mut a, KeyCode::Up, t0);
    key(&mut a, KeyCode::Right, t0);
    let screen = render(&a, 120, 40);
    assert!(
        screen.contains("Variant") && screen.contains("Crazyhouse"),
        "{screen}"
    );
    key(&mut a, KeyCode::Enter, t0);
    let l = a.live().expect("a crazyhouse game");
    assert_eq!(l.kind, VariantKind::Crazyhouse);
    assert_eq!(l.players[0][0], Player::Human);
    // A start FEN is read with the variant's rules: one chess FEN is not a
    // Bughouse position (that is two FENs joined by '|').
    command(&mut a, Action::NewGame, t0);
    if let Overlay::NewGame(d) = &mut a.ui.overlay {
        d.fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1".into();
        d.variant = 2;
    }
    key(&mut a, KeyCode::Enter, t0);
    match &a.ui.overlay {
        Overlay::NewGame(d) => assert!(d.error.as_deref().is_some_and(|e| e.contains("Start FEN"))),
        _ => panic!("the dialog stays open"),
    }
    // A Crazyhouse FEN with pockets (lichess' slash form) starts there.
    if let Overlay::NewGame(d) = &mut a.ui.overlay {
        d.fen = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR/Pp w KQkq - 0 3".into();
        d.variant = 1;
    }
    key(&mut a, KeyCode::Enter, t0);
    let l = a.live().expect("a crazyhouse game from the FEN");
    assert_eq!(
        crate::variant::fen::write_fen(l.board(0)),
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
    );
    // Bughouse: you on A, three engines.
    command(&mut a, Action::NewGame, t0);
    if let Overlay::NewGame(d) = &mut a.ui.overlay {
        d.fen.clear();
        d.variant = 2;
    }
    key(&mut a, KeyCode::Enter, t0);
    let l = a.live().expect("a bughouse game");
    assert_eq!(l.kind, VariantKind::Bughouse);
    assert_eq!(l.human_seats(), vec![0]);
    assert!(l.time.is_some(), "Bughouse always has clocks");
    // Back to chess: the engines of the variant game go.
    command(&mut a, Action::NewGame, t0);
    if let Overlay::NewGame(d) = &mut a.ui.overlay {
        d.variant = 0;
    }
    a.take_effects();
    key(&mut a, KeyCode::Enter, t0);
    assert!(a.house().is_none());
    assert!(a.take_effects().iter().any(|e| matches!(
        e,
        Effect::Engine {
            job: EngineJob::QuitAll,
            ..
        }
    )));
}

#[test]
fn a_hint_is_picked_up_ready_to_play() {
    use crate::ui::screens::house::live::ASSISTANT;
    let t0 = Instant::now();
    let mut a = crazyhouse(t0);
    jobs(&mut a);
    shift_or_key(&mut a, Action::Hint, t0);
    let j = jobs(&mut a);
    assert!(
        j.iter().any(|j| matches!(
            j,
            EngineJob::Start {
                seat: ASSISTANT,
                spec: EngineSpec::BuiltIn { level: 8 },
                ..
            }
        )),
        "{j:?}"
    );
    let (id, fen) = go_for(&j, ASSISTANT).expect("the assistant is asked");
    assert!(fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w"));
    answer(&mut a, ASSISTANT, id, "g1f3", t0);
    assert!(status(&a).contains("Hint: Nf3"), "{}", status(&a));
    let h = a.find::<crate::ui::app::HouseScreen>().unwrap();
    assert_eq!(
        (h.pick.selected, h.pick.cursor),
        (Some(Square::G1), Square::F3)
    );
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(live_moves(&a), 1);
    // A hint that comes after a move was made is dropped.
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "e7e5", t0);
    shift_or_key(&mut a, Action::Hint, t0);
    let (hid, _) = go_for(&jobs(&mut a), ASSISTANT).unwrap();
    type_str(&mut a, "d4", t0);
    answer(&mut a, ASSISTANT, hid, "b1c3", t0);
    assert!(!status(&a).contains("Hint"), "{}", status(&a));
}

#[test]
fn analysis_and_the_evaluation_of_a_crazyhouse_position() {
    use crate::ui::screens::house::live::ASSISTANT;
    let t0 = Instant::now();
    let mut a = crazyhouse(t0);
    jobs(&mut a);
    shift_or_key(&mut a, Action::Analyse, t0);
    let j = jobs(&mut a);
    let id = j
        .iter()
        .find_map(|j| match j {
            EngineJob::Go {
                seat: ASSISTANT,
                go,
            } if go.limits.infinite => Some(go.id),
            _ => None,
        })
        .expect("the assistant analyses until stopped");
    // Its lines show in SAN, drops included, White's view.
    a.update(
        info_line(
            &a,
            ASSISTANT,
            id,
            (9, 35, 123_456),
            &["e2e4", "e7e5", "g1f3"],
        ),
        t0,
    );
    let screen = render(&a, 120, 40);
    assert!(
        screen.contains("Analysis") && screen.contains("+0.35") && screen.contains("e4 e5 Nf3"),
        "{screen}"
    );
    // The hint is the analysis' best move, at once.
    shift_or_key(&mut a, Action::Hint, t0);
    assert!(status(&a).contains("Hint: e4"), "{}", status(&a));
    // A move restarts the analysis on the new position.
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(live_moves(&a), 1);
    let j = jobs(&mut a);
    assert!(
        j.iter().any(|j| matches!(j, EngineJob::Go { seat: ASSISTANT, go } if go.limits.infinite && go.id != id)),
        "{j:?}"
    );
    // The evaluation, term by term, with the drop terms.
    shift_or_key(&mut a, Action::EvalBreakdown, t0);
    let screen = render(&a, 120, 40);
    assert!(
        screen.contains("pieces in hand") && screen.contains("drop threats"),
        "{screen}"
    );
    key(&mut a, KeyCode::Esc, t0);
    assert!(matches!(a.ui.overlay, Overlay::None));
    // Off again.
    shift_or_key(&mut a, Action::Analyse, t0);
    assert!(jobs(&mut a).contains(&EngineJob::Stop { seat: ASSISTANT }));
}

#[test]
fn a_live_bughouse_game_draws_at_every_size() {
    let t0 = Instant::now();
    let mut a = bughouse(t0);
    jobs(&mut a);
    type_str(&mut a, "e4", t0);
    for (w, h) in [(160u16, 50u16), (120, 40), (80, 24), (54, 13)] {
        let screen = render(&a, w, h);
        assert!(!screen.contains("too small"), "{w}x{h}\n{screen}");
        // Your board (A) and your partner's (B), your clock.
        assert!(
            screen.contains("A ▶") || screen.contains("A  "),
            "{w}x{h}\n{screen}"
        );
        assert!(screen.contains("B "), "{w}x{h}\n{screen}");
        assert!(screen.contains("0:"), "{w}x{h}: the clocks\n{screen}");
    }
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("You") && screen.contains("m message"),
        "{screen}"
    );
    let screen = render(&a, 50, 12);
    assert!(
        screen.contains("Terminal too small") && screen.contains("at least 54 x"),
        "{screen}"
    );
    for w in [1, 20, 53, 54, 80, 200] {
        for h in [1, 6, 12, 13, 24, 60] {
            render(&a, w, h);
        }
    }
}

#[test]
fn the_tree_explorer_walks_a_crazyhouse_search_with_drops() {
    use crate::engine::{Board, EngineOptions, Features, GamePosition, Zh};
    use crate::ui::screens::explorer::{AnyRecording, AnyRequest, Request};
    let t0 = Instant::now();
    let mut a = crazyhouse(t0);
    a.update(Msg::Resize(160, 50), t0);
    jobs(&mut a);
    // 1. e4 d5 2. exd5: White holds a pawn.
    type_str(&mut a, "e4", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "d7d5", t0);
    type_str(&mut a, "exd5", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "g8f6", t0);
    a.take_effects();
    shift_or_key(&mut a, Action::Explore, t0);
    let req = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Explorer(AnyRequest::Zh(Request::Record { id, pos, .. })) => Some((id, pos)),
            _ => None,
        })
        .expect("a crazyhouse recording is asked for");
    let (id, pos) = req;
    assert!(
        pos.current().fen().contains("[P]"),
        "{}",
        pos.current().fen()
    );
    // The runtime records it (depth 2 here) and sends it back.
    let rec = crate::engine::tree::record::<Zh>(
        &GamePosition::new(Board::<Zh>::from_pos(pos.current().pos().clone())),
        2,
        Features::default(),
        EngineOptions::default(),
        100_000,
    );
    a.update(
        Msg::TreeRecorded {
            id,
            recording: AnyRecording::Zh(Box::new(rec)),
        },
        t0,
    );
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("P@"),
        "the drops are among the moves searched:\n{screen}"
    );
    // q leaves the explorer; the game is there as it was.
    key(&mut a, KeyCode::Char('q'), t0);
    assert!(a.any_explorer().is_none());
    assert_eq!(live_moves(&a), 4);
}

#[test]
fn copying_the_position_and_the_game() {
    let t0 = Instant::now();
    let mut a = bughouse(t0);
    jobs(&mut a);
    type_str(&mut a, "e4", t0);
    a.take_effects();
    shift_or_key(&mut a, Action::CopyFen, t0);
    shift_or_key(&mut a, Action::CopyPgn, t0);
    let copies: Vec<(&str, String)> = a
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Copy { what, text, .. } => Some((what, text)),
            _ => None,
        })
        .collect();
    assert_eq!(copies.len(), 2, "{copies:?}");
    assert_eq!(copies[0].0, "FEN");
    assert!(
        copies[0].1.contains(" | ") && copies[0].1.contains("4P3"),
        "{}",
        copies[0].1
    );
    assert!(
        copies[1].1.contains("[WhiteA \"You\"]") && copies[1].1.contains("1A. e4"),
        "{}",
        copies[1].1
    );
}

#[test]
fn a_bughouse_hint_survives_moves_on_the_other_board() {
    use crate::ui::screens::house::live::ASSISTANT;
    let t0 = Instant::now();
    let mut a = bughouse(t0);
    let j = jobs(&mut a);
    let wb = seat_index(1, Color::White);
    let (id_b, _) = go_for(&j, wb).unwrap();
    shift_or_key(&mut a, Action::Hint, t0);
    let (hid, _) = go_for(&jobs(&mut a), ASSISTANT).unwrap();
    // Board B moves meanwhile; your board does not change.
    answer(&mut a, wb, id_b, "e2e4", t0);
    answer(&mut a, ASSISTANT, hid, "d2d4", t0);
    assert!(status(&a).contains("Hint: d4"), "{}", status(&a));
    key(&mut a, KeyCode::Enter, t0);
    let screen = render(&a, 160, 50);
    assert!(screen.contains("1A. d4"), "{screen}");
}

#[test]
fn a_board_move_only_a_drop_can_make_asks_and_legal_squares_are_marked() {
    let t0 = Instant::now();
    let mut a = crazyhouse(t0);
    jobs(&mut a);
    // 1. e4 Nf6 2. Nc3 Nxe4 3. Nxe4 e6: White holds a knight.
    for (mine, reply) in [("e4", "g8f6"), ("Nc3", "f6e4"), ("Nxe4", "e7e6")] {
        type_str(&mut a, mine, t0);
        let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
        answer(&mut a, 1, id, reply, t0);
    }
    assert_eq!(live_moves(&a), 6);
    // No knight can go to f5, one is in hand: asked, not guessed.
    type_str(&mut a, "Nf5", t0);
    assert!(
        status(&a).contains("Drop the knight from your hand on f5?"),
        "{}",
        status(&a)
    );
    assert_eq!(live_moves(&a), 6);
    key(&mut a, KeyCode::Char('n'), t0);
    assert_eq!(live_moves(&a), 6, "n: not dropped");
    type_str(&mut a, "Nf5", t0);
    key(&mut a, KeyCode::Char('y'), t0);
    assert_eq!(live_moves(&a), 7);
    let screen = render(&a, 120, 40);
    assert!(screen.contains("4. N@f5"), "{screen}");
    // A piece taken from the pocket marks the squares it may be dropped
    // on: 1. e4 d5 2. exd5 Nf6, a pawn in White's hand.
    let mut a = crazyhouse(t0);
    jobs(&mut a);
    for (mine, reply) in [("e4", "d7d5"), ("exd5", "g8f6")] {
        type_str(&mut a, mine, t0);
        let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
        answer(&mut a, 1, id, reply, t0);
    }
    let dots = |s: &str| s.matches('●').count();
    let before = dots(&render(&a, 120, 40));
    assert_eq!(before, 0);
    key(&mut a, KeyCode::Down, t0);
    key(&mut a, KeyCode::Down, t0);
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(
        a.find::<crate::ui::app::HouseScreen>()
            .and_then(|h| h.pick.drop),
        Some(Role::Pawn)
    );
    // Every empty square off the 1st and 8th ranks, counted from the board.
    let pos = a.live().unwrap().board(0).clone();
    let legal = Square::ALL
        .into_iter()
        .filter(|&sq| crate::variant::rules::check_drop(&pos, Role::Pawn, sq).is_ok())
        .count();
    assert!(legal > 20);
    assert_eq!(dots(&render(&a, 120, 40)), legal);
}
