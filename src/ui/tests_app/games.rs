//! Game flow: engine replies, clocks, endings, takebacks, hints, draws, engine failures.

use super::*;

#[test]
fn typed_moves_and_engine_replies() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    let fx = a.take_effects();
    assert!(fx.iter().any(is_start));
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Engine {
            table: APP_TABLE,
            job: EngineJob::NewGame { seat: ASSISTANT }
        }
    )));
    assert!(!fx.iter().any(|e| go_in(e).is_some()), "human moves first");

    type_str(&mut a, "e4", t);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    let req = take_go(&mut a, Slot::Opponent).expect("engine asked to move");
    assert_eq!(req.purpose, Purpose::Move);
    assert_eq!(req.moves.len(), 1);
    assert!(!a.chess().human_to_move(&a.ui));
    // Typing while the engine thinks changes nothing.
    type_str(&mut a, "d4", t);
    assert_eq!(uci_moves(&a), ["e2e4"]);

    reply(&mut a, &req, "e7e5", t);
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5"]);
    assert!(a.chess().human_to_move(&a.ui));
    type_str(&mut a, ":nf3", t); // lower case, in the move box opened by ':'
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5", "g1f3"]);
}
#[test]
fn stale_engine_answers_are_ignored() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    // Takeback while the engine thinks cancels its search.
    key(&mut a, KeyCode::Char('u'), t);
    assert!(a.chess().game.moves().is_empty());
    reply(&mut a, &req, "e7e5", t);
    assert!(
        a.chess().game.moves().is_empty(),
        "the cancelled answer must not be played"
    );
}
#[test]
fn takeback_against_the_engine_takes_two_moves() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, Some("5+0")), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    reply(&mut a, &req, "e7e5", t + Duration::from_secs(3));
    type_str(&mut a, "Nf3", t + Duration::from_secs(10));
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    reply(&mut a, &req, "b8c6", t + Duration::from_secs(12));
    assert_eq!(a.chess().game.moves().len(), 4);
    key(&mut a, KeyCode::Char('u'), t + Duration::from_secs(13));
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5"]);
    assert!(a.chess().human_to_move(&a.ui));
    // Clocks go back to where they were before Nf3.
    let w = a
        .chess()
        .clocks
        .as_ref()
        .unwrap()
        .remaining(Color::White, t + Duration::from_secs(13));
    assert!(w > Duration::from_secs(290), "{w:?}");
}
#[test]
fn clocks_run_and_flag_fall_ends_the_game() {
    let t = Instant::now();
    let s = Duration::from_secs;
    let mut a = app();
    a.start_game(setup(WHITE, None, Some("1+0")), t);
    type_str(&mut a, "e4", t + s(5)); // first move is free
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    assert!(req.limits.clock.is_some(), "the engine plays on its clock");
    reply(&mut a, &req, "e7e5", t + s(7));
    let c = a.chess().clocks.as_ref().unwrap();
    assert_eq!(c.remaining(Color::White, t + s(7)), s(60));
    assert_eq!(c.remaining(Color::Black, t + s(7)), s(58));
    assert_eq!(c.remaining(Color::White, t + s(37)), s(30));
    a.update(Msg::Tick, t + s(66));
    assert!(!a.chess().is_over());
    a.update(Msg::Tick, t + s(68));
    let e = a.chess().game.ending.expect("flag fell");
    assert_eq!(e.termination, Termination::TimeForfeit);
    assert_eq!(e.result, GameResult::BlackWins);
    // The saved PGN says so.
    let pgn = crate::game::write_pgn(&a.chess().game);
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("time forfeit"),
        "{pgn}"
    );
    assert!(pgn.contains("[TimeControl \"60+0\"]"), "{pgn}");
    assert!(pgn.contains("[%clk 0:00:58]"), "{pgn}");
}
#[test]
fn checkmate_and_threefold_claim_between_two_players() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    for m in ["f3", "e5", "g4", "Qh4#"] {
        type_str(&mut a, m, t);
    }
    let e = a.chess().game.ending.unwrap();
    assert_eq!(
        (e.result, e.termination),
        (GameResult::BlackWins, Termination::Checkmate)
    );
    let mut b = app();
    b.start_game(setup(Mode::HumanVsHuman, None, None), t);
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        type_str(&mut b, m, t);
    }
    assert!(!b.chess().is_over(), "threefold must be claimed");
    assert!(b.chess().claimable_draw().is_some());
    shift(&mut b, 'D', t);
    let e = b.chess().game.ending.unwrap();
    assert_eq!(
        (e.result, e.termination),
        (GameResult::Draw, Termination::ThreefoldRepetition)
    );
}
#[test]
fn resign_and_draw_offers() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    command(&mut a, Action::Resign, t);
    assert!(matches!(a.ui.overlay, Overlay::ConfirmResign));
    key(&mut a, KeyCode::Char('x'), t);
    assert!(!a.chess().is_over());
    command(&mut a, Action::Resign, t);
    key(&mut a, KeyCode::Char('y'), t);
    assert_eq!(
        a.chess().game.ending.map(|e| (e.result, e.termination)),
        Some((GameResult::BlackWins, Termination::Resignation))
    );

    // The engine declines in the opening (it reported +0.20 for itself),
    // and accepts there only when it is lost.
    let mut b = app();
    b.start_game(setup(WHITE, None, None), t);
    type_str(&mut b, "e4", t);
    let req = take_go(&mut b, Slot::Opponent).unwrap();
    reply(&mut b, &req, "e7e5", t); // reports +0.20 for itself
    shift(&mut b, 'D', t);
    assert!(!b.chess().is_over());
    let answer =
        b.ui.status
            .as_ref()
            .map(|s| s.text.clone())
            .unwrap_or_default();
    assert!(
        answer.contains("declines the draw: it is too early (move 2)"),
        "{answer}"
    );
    type_str(&mut b, "Nf3", t);
    let req = take_go(&mut b, Slot::Opponent).unwrap();
    b.update(
        said(
            &b,
            Slot::Opponent,
            EngineEvent::Done {
                id: req.id,
                purpose: Purpose::Move,
                best: Board::startpos()
                    .play(req.moves[0])
                    .play(req.moves[1])
                    .play(req.moves[2])
                    .parse_uci("b8c6")
                    .ok(),
                score: Some(Score(-400)),
                pv: vec![],
            },
        ),
        t,
    );
    shift(&mut b, 'D', t);
    assert_eq!(
        b.chess().game.ending.map(|e| (e.result, e.termination)),
        Some((GameResult::Draw, Termination::Agreement))
    );
}
#[test]
fn hint_shows_the_assistants_move() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    a.take_effects();
    shift(&mut a, 'H', t);
    let req = take_go(&mut a, Slot::Assistant).expect("hint request");
    assert_eq!(req.purpose, Purpose::Hint);
    let m = Board::startpos().parse_uci("d2d4").unwrap();
    a.update(
        said(
            &a,
            Slot::Assistant,
            EngineEvent::Done {
                id: req.id,
                purpose: Purpose::Hint,
                best: Some(m),
                score: Some(Score(30)),
                pv: vec![m],
            },
        ),
        t,
    );
    assert_eq!(a.chess().hint.as_ref().map(|h| h.mv), Some(m));
    assert!(a.ui.status.as_ref().unwrap().text.contains("d4"));
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Hint: d4"), "{screen}");
}
#[test]
fn new_game_dialog_validates_the_fen() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    // 'n' acts at once (knight moves are typed with a capital N).
    key(&mut a, KeyCode::Char('n'), t);
    assert!(matches!(a.ui.overlay, Overlay::NewGame(_)));
    for _ in 0..5 {
        key(&mut a, KeyCode::Down, t);
    }
    type_str(&mut a, "8/8/8/8/8/8/8/8 w - - 0 1", t);
    match &a.ui.overlay {
        Overlay::NewGame(d) => {
            let e = d.error.clone().expect("error shown");
            assert!(e.starts_with("Start FEN"), "{e}");
        }
        _ => panic!("dialog must stay open"),
    }
    for _ in 0.."8/8/8/8/8/8/8/8 w - - 0 1".len() {
        key(&mut a, KeyCode::Backspace, t);
    }
    type_str(&mut a, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", t);
    assert!(matches!(a.ui.overlay, Overlay::None));
    assert_eq!(a.board().fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
}
#[test]
fn engine_vs_engine_pause() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::EngineVsEngine, None, None), t);
    let req = take_go(&mut a, Slot::Opponent).expect("white engine moves");
    key(&mut a, KeyCode::Char('p'), t);
    assert!(a.chess().paused);
    reply(&mut a, &req, "e2e4", t);
    assert!(a.chess().game.moves().is_empty(), "no moves while paused");
    key(&mut a, KeyCode::Char('p'), t);
    let req = take_go(&mut a, Slot::Opponent).expect("resumed");
    reply(&mut a, &req, "e2e4", t);
    assert_eq!(uci_moves(&a), ["e2e4"]);

    // The reply comes at once, but moves are shown at a watchable pace.
    let ms = Duration::from_millis;
    let req = take_go(&mut a, Slot::Opponent).expect("black engine moves");
    reply(&mut a, &req, "e7e5", t + ms(10));
    assert_eq!(uci_moves(&a), ["e2e4"], "held back");
    assert!(
        take_go(&mut a, Slot::Opponent).is_none(),
        "no search meanwhile"
    );
    a.update(Msg::Tick, t + ms(500));
    assert_eq!(uci_moves(&a), ["e2e4"]);
    a.update(Msg::Tick, t + ms(800));
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5"]);
    assert!(
        take_go(&mut a, Slot::Opponent).is_some(),
        "white's turn again"
    );
}
#[test]
fn dialogs_cannot_change_a_finished_game() {
    let t = Instant::now();
    let s = Duration::from_secs;
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, Some("1+0")), t);
    type_str(&mut a, "e4", t);
    command(&mut a, Action::Resign, t + s(1));
    assert!(matches!(a.ui.overlay, Overlay::ConfirmResign));
    a.update(Msg::Tick, t + s(62)); // Black's flag falls meanwhile
    assert!(matches!(a.ui.overlay, Overlay::None), "the dialog closes");
    key(&mut a, KeyCode::Char('y'), t + s(63));
    let e = a.chess().game.ending.unwrap();
    assert_eq!(
        (e.result, e.termination),
        (GameResult::WhiteWins, Termination::TimeForfeit)
    );
}
#[test]
fn a_move_after_the_flag_fell_loses_on_time() {
    let t = Instant::now();
    let s = Duration::from_secs;
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, Some("1+0")), t);
    type_str(&mut a, "e4", t);
    type_str(&mut a, "e5", t + s(5));
    // White's minute ran out before the move arrived (no tick in between).
    type_str(&mut a, "Nf3", t + s(70));
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5"]);
    let e = a.chess().game.ending.unwrap();
    assert_eq!(
        (e.result, e.termination),
        (GameResult::BlackWins, Termination::TimeForfeit)
    );
}
#[test]
fn a_dead_engine_ends_the_game_and_the_next_game_starts_a_new_one() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    a.take_effects();
    // The engine dies while it is the human's turn.
    a.update(
        said(
            &a,
            Slot::Opponent,
            EngineEvent::Failed {
                message: "no such file".into(),
            },
        ),
        t,
    );
    let e = a.chess().game.ending.expect("the game cannot go on");
    assert_eq!(
        (e.result, e.termination),
        (GameResult::WhiteWins, Termination::Abandoned)
    );
    let said = &a.ui.status.as_ref().unwrap().text;
    assert!(said.contains("no such file"), "{said}");
    // Which side lost, why, and the way on.
    assert!(said.contains("(Black) failed and forfeits"), "{said}");
    assert!(said.contains("starts a new game"), "{said}");
    a.start_game(setup(WHITE, None, None), t);
    assert!(
        a.take_effects().iter().any(is_start),
        "a fresh engine for the next game"
    );
}
#[test]
fn an_illegal_engine_move_loses() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    a.update(
        said(
            &a,
            Slot::Opponent,
            EngineEvent::IllegalMove {
                id: req.id,
                text: "e2e4".into(),
            },
        ),
        t,
    );
    let e = a.chess().game.ending.unwrap();
    assert_eq!(
        (e.result, e.termination),
        (GameResult::WhiteWins, Termination::IllegalMove)
    );
    assert!(crate::game::write_pgn(&a.chess().game).contains("[Termination \"rules infraction\"]"));
    let said = &a.ui.status.as_ref().unwrap().text;
    assert!(
        said.contains("(Black) played an illegal move (e2e4)"),
        "{said}"
    );
}
#[test]
fn a_hint_belongs_to_its_position() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    a.take_effects();
    shift(&mut a, 'H', t);
    let req = take_go(&mut a, Slot::Assistant).unwrap();
    type_str(&mut a, "e4", t); // moving on before the hint arrives
    assert!(
        a.take_effects().iter().any(|e| is_stop(e, Slot::Assistant)),
        "the hint search is stopped"
    );
    let d4 = Board::startpos().parse_uci("d2d4").unwrap();
    a.update(
        said(
            &a,
            Slot::Assistant,
            EngineEvent::Done {
                id: req.id,
                purpose: Purpose::Hint,
                best: Some(d4),
                score: None,
                pv: vec![d4],
            },
        ),
        t,
    );
    assert!(a.chess().hint.is_none(), "a late hint is dropped");

    // Asking for a hint does not rename the opponent in the engine panel.
    let mut b = app();
    b.update(
        said(
            &b,
            Slot::Opponent,
            EngineEvent::Ready {
                name: "Stockfish 15".into(),
            },
        ),
        t,
    );
    b.start_game(setup(WHITE, None, None), t);
    shift(&mut b, 'H', t);
    type_str(&mut b, "e4", t);
    assert_eq!(b.chess().search.engine, "Stockfish 15");
}
#[test]
fn takeback_while_paused_costs_no_time() {
    let t = Instant::now();
    let s = Duration::from_secs;
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, Some("5+0")), t);
    type_str(&mut a, "e4", t);
    type_str(&mut a, "e5", t + s(10));
    type_str(&mut a, "Nf3", t + s(20));
    key(&mut a, KeyCode::Char('p'), t + s(30));
    assert!(a.chess().paused);
    key(&mut a, KeyCode::Char('u'), t + s(31));
    key(&mut a, KeyCode::Char('p'), t + s(300));
    assert!(!a.chess().paused);
    let w = a
        .chess()
        .clocks
        .as_ref()
        .unwrap()
        .remaining(Color::White, t + s(300));
    assert!(w >= s(289), "White keeps the time it had before Nf3: {w:?}");
}
#[test]
fn castling_is_shown_on_the_kings_square_and_huge_multipv_is_ignored() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
            None,
        ),
        t,
    );
    assert!(a.chess().destinations(Square::E1).contains(&Square::G1));
    assert!(!a.chess().destinations(Square::E1).contains(&Square::H1));
    type_str(&mut a, "O-O", t);
    let castle = *a.chess().game.moves().last().unwrap();
    assert_eq!(crate::ui::app::shown_to(castle), Square::G1);

    let mut b = app();
    b.start_game(setup(WHITE, None, None), t);
    type_str(&mut b, "e4", t);
    let req = take_go(&mut b, Slot::Opponent).unwrap();
    let line = crate::ui::player::SearchLine {
        multipv: 50_000_000,
        ..Default::default()
    };
    b.update(
        said(&b, Slot::Opponent, EngineEvent::Info { id: req.id, line }),
        t,
    );
    assert!(b.chess().search.lines.len() <= 8);
}
#[test]
fn takeback_after_an_engine_failure_restarts_the_engine() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    reply(&mut a, &req, "e7e5", t);
    type_str(&mut a, "d4", t);
    a.take_effects();
    a.update(
        said(
            &a,
            Slot::Opponent,
            EngineEvent::Failed {
                message: "crashed".into(),
            },
        ),
        t,
    );
    assert!(a.chess().is_over());
    key(&mut a, KeyCode::Char('u'), t); // takes back d4: the game is on again
    assert!(!a.chess().is_over(), "takeback revived an abandoned game");
    type_str(&mut a, "d4", t);
    let fx = a.take_effects();
    let go = fx.iter().any(|e| is_go(e, Slot::Opponent));
    let start = fx.iter().any(is_start);
    assert!(
        !go || start,
        "a search is sent to the dead engine and never answered"
    );
}

/// With a clock, the engine takes a player's time: its move, found at once,
/// is held (its clock running) until a player of its level would have
/// moved, then played by the clock's tick. Without a clock it plays at once.
#[test]
fn engine_moves_take_a_players_time_with_a_clock() {
    let t = Instant::now();
    let mut a = App::new(Config::default(), theme::builtin(), None);
    a.update(Msg::Resize(120, 40), t);
    a.start_game(setup(WHITE, None, Some("2+0")), t);
    for (i, m) in ["e4", "d4", "Nf3", "c4", "g3", "Bg2"].iter().enumerate() {
        let now = t + Duration::from_secs(20 * i as u64);
        type_str(&mut a, m, now);
        let req = take_go(&mut a, Slot::Opponent).expect("engine asked");
        let answer = ["e7e6", "d7d5", "g8f6", "c7c6", "f8e7", "e8g8"][i];
        reply(&mut a, &req, answer, now);
        assert_eq!(a.chess().game.moves().len(), 2 * i + 1, "held, not played");
        let (_, due) = a
            .chess()
            .opponent
            .queued
            .expect("a paced move with a clock");
        assert!(due > now, "never instantly");
        assert!(
            due <= now + Duration::from_secs(20),
            "at most a sixth of 2:00"
        );
        assert!(
            a.chess().engine_thinking(),
            "the engine is still on the move"
        );
        a.update(Msg::Tick, due);
        assert_eq!(a.chess().game.moves().len(), 2 * i + 2, "played when due");
    }
    // Fast mode: at once.
    let config = Config {
        engine_pace: crate::ui::pace::Pace::Fast,
        ..Config::default()
    };
    let mut a = App::new(config, theme::builtin(), None);
    a.update(Msg::Resize(120, 40), t);
    a.start_game(setup(WHITE, None, Some("2+0")), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).expect("engine asked");
    reply(&mut a, &req, "e7e5", t);
    assert_eq!(a.chess().game.moves().len(), 2);
}
#[test]
fn full_strength_searches_say_how_many_threads_they_use() {
    let t = Instant::now();
    for (threads, name) in [(2, "Kibitz (hint, 2 threads)"), (1, "Kibitz (hint)")] {
        let mut a = App::new(
            Config {
                engine_pace: crate::ui::pace::Pace::Fast,
                engine_threads: threads,
                ..Config::default()
            },
            theme::builtin(),
            None,
        );
        a.update(Msg::Resize(120, 40), t);
        a.start_game(setup(WHITE, None, None), t);
        a.take_effects();
        shift(&mut a, 'H', t);
        take_go(&mut a, Slot::Assistant).expect("hint request");
        assert_eq!(a.chess().search.engine, name);
        let screen = render(&a, 120, 40);
        assert_eq!(screen.contains("2 threads"), threads == 2, "{screen}");
    }
}
