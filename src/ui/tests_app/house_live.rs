//! Playing Crazyhouse and Bughouse: moves typed, picked with the keyboard
//! (the cursor goes into the pocket) and the mouse, illegal drops
//! explained, fake engines answering through messages, pieces arriving
//! while an engine thinks, partner messages, flags on either board, the
//! record saved after every move, takebacks.

use super::*;
use crate::ui::house::live::{EngineJob, EngineNews, LiveSetup, Player, seat_index};
use crate::variant::VariantKind;

const ENGINE: Player = Player::Engine(EngineSpec::BuiltIn { level: 3 });

fn jobs(a: &mut App) -> Vec<EngineJob> {
    a.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::HouseEngine(j) => Some(j),
            _ => None,
        })
        .collect()
}

/// The request id of the `Go` for `seat` among `jobs`.
fn go_for(jobs: &[EngineJob], seat: usize) -> Option<(u64, String)> {
    jobs.iter().find_map(|j| match j {
        EngineJob::Go {
            seat: s, id, fen, ..
        } if *s == seat => Some((*id, fen.clone())),
        _ => None,
    })
}

fn answer(a: &mut App, seat: usize, id: u64, uci: &str, now: Instant) {
    a.update(
        Msg::HouseEngine {
            seat,
            news: EngineNews::Best {
                id,
                uci: uci.into(),
            },
        },
        now,
    );
}

fn live_moves(a: &App) -> usize {
    a.house
        .as_ref()
        .and_then(|h| h.live.as_ref())
        .map_or(0, |l| l.moves_played())
}

fn status(a: &App) -> String {
    a.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

fn crazyhouse(now: Instant) -> App {
    let mut a = app();
    a.update(Msg::Resize(120, 40), now);
    a.start_live(
        LiveSetup {
            kind: VariantKind::Crazyhouse,
            players: vec![[Player::Human, ENGINE]],
            time: Some(TimeControl::new(60, 0)),
        },
        now,
    );
    a
}

#[test]
fn crazyhouse_against_an_engine_typed_keyboard_and_mouse_drops() {
    let t0 = Instant::now();
    let mut a = crazyhouse(t0);
    let j = jobs(&mut a);
    assert!(
        j.iter().any(|j| matches!(
            j,
            EngineJob::Start {
                seat: 1,
                kind: VariantKind::Crazyhouse,
                ..
            }
        )),
        "the engine for Black starts: {j:?}"
    );
    assert!(go_for(&j, 1).is_none(), "White (you) moves first");
    // 1. e4 typed: the engine is asked, with the position in FEN.
    type_str(&mut a, "e4", t0);
    let j = jobs(&mut a);
    let (id, fen) = go_for(&j, 1).expect("the engine's turn");
    assert!(
        fen.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b"),
        "{fen}"
    );
    // Its search shows as it thinks (White's view, SAN).
    a.update(
        Msg::HouseEngine {
            seat: 1,
            news: EngineNews::Info {
                id,
                depth: 7,
                score: crate::engine::Score(-20),
                nodes: 4321,
                pv: vec!["d7d5".into(), "e4d5".into()],
            },
        },
        t0,
    );
    let screen = render(&a, 120, 40);
    assert!(
        screen.contains("Search: Kibitz level 3")
            && screen.contains("+0.20")
            && screen.contains("d5 exd5"),
        "{screen}"
    );
    answer(&mut a, 1, id, "d7d5", t0);
    // 2. exd5: a pawn in hand. The engine answers Qxd5.
    type_str(&mut a, "exd5", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "d8d5", t0);
    assert_eq!(live_moves(&a), 4);
    // Illegal drops are explained and change nothing.
    type_str(&mut a, "N@f3", t0);
    assert!(status(&a).contains("no knight in hand"), "{}", status(&a));
    type_str(&mut a, "P@e8", t0);
    assert!(
        status(&a).contains("occupied") || status(&a).contains("rank"),
        "{}",
        status(&a)
    );
    assert_eq!(live_moves(&a), 4);
    // The keyboard: the cursor starts on e2; down twice enters the pocket,
    // Enter takes the pawn, up twice goes to e3, Enter drops it.
    key(&mut a, KeyCode::Down, t0);
    key(&mut a, KeyCode::Down, t0);
    assert!(a.house.as_ref().is_some_and(|h| h.pick.in_pocket));
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(a.house.as_ref().and_then(|h| h.pick.drop), Some(Role::Pawn));
    key(&mut a, KeyCode::Up, t0);
    key(&mut a, KeyCode::Up, t0);
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(live_moves(&a), 5, "{}", status(&a));
    let screen = render(&a, 120, 40);
    assert!(screen.contains("3. P@e3"), "{screen}");
    // The engine takes on e3... (Qxe3+? no: Qe4+ then a capture): make it
    // give a piece: 3... Qxa2 4. Rxa2 and the queen is in White's hand.
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "d5a2", t0);
    type_str(&mut a, "Rxa2", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "g8f6", t0);
    assert_eq!(live_moves(&a), 8);
    // The mouse: click the queen in the pocket, then d5.
    let area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let l = crate::ui::layout::house_layout(area, 1).unwrap();
    let place = l.boards[0];
    let h = a.house.as_ref().unwrap();
    let pocket = h.pocket(0, Color::White);
    assert_eq!(pocket, vec![(Role::Queen, 1)]);
    let clock = h
        .clock(0, Color::White, t0)
        .map(crate::ui::clock::format_clock);
    let cells = crate::ui::house::pocket_cells(place.bottom, &pocket, clock.as_deref());
    let (_, q) = cells[0];
    click(&mut a, q.x, q.y, t0);
    assert_eq!(
        a.house.as_ref().and_then(|h| h.pick.drop),
        Some(Role::Queen)
    );
    let r = place.board.rect_of(Square::D5, false);
    click(&mut a, r.x + 1, r.y + 1, t0);
    assert_eq!(live_moves(&a), 9, "{}", status(&a));
    let saves: Vec<String> = a
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Save { contents, .. } => Some(contents),
            _ => None,
        })
        .collect();
    let _ = saves; // no data dir in tests: nothing to save to
    let screen = render(&a, 120, 40);
    assert!(screen.contains("5. Q@d5"), "{screen}");
}

fn click(a: &mut App, col: u16, row: u16, now: Instant) {
    a.update(
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: col,
            row,
            modifiers: KeyModifiers::NONE,
        }),
        now,
    );
}

#[test]
fn crazyhouse_takeback_flags_and_bad_engine_moves() {
    let t0 = Instant::now();
    let mut a = crazyhouse(t0);
    jobs(&mut a);
    type_str(&mut a, "e4", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "e7e5", t0);
    // A stale answer (an old id) is ignored.
    answer(&mut a, 1, id, "d7d5", t0);
    assert_eq!(live_moves(&a), 2);
    // Take back: your move and the reply.
    shift_or_key(&mut a, Action::Takeback, t0);
    assert_eq!(live_moves(&a), 0, "{}", status(&a));
    // White's clock: 60 s, running; after 61 s White has lost on time.
    a.update(Msg::Tick, t0 + Duration::from_secs(30));
    assert!(
        a.house
            .as_ref()
            .and_then(|h| h.live.as_ref())
            .is_some_and(|l| !l.is_over())
    );
    a.update(Msg::Tick, t0 + Duration::from_secs(61));
    let l = a.house.as_ref().and_then(|h| h.live.as_ref()).unwrap();
    assert!(
        l.ending
            .as_deref()
            .is_some_and(|e| e.contains("White lost on time")),
        "{:?}",
        l.ending
    );
    assert!(jobs(&mut a).contains(&EngineJob::QuitAll));
    // An engine that plays nonsense loses.
    let mut a = crazyhouse(t0);
    type_str(&mut a, "e4", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "e2e4", t0);
    let l = a.house.as_ref().and_then(|h| h.live.as_ref()).unwrap();
    assert!(
        l.ending
            .as_deref()
            .is_some_and(|e| e.contains("illegal move")),
        "{:?}",
        l.ending
    );
}

/// Presses the first key bound to `act`.
fn shift_or_key(a: &mut App, act: Action, now: Instant) {
    let name = a.keys.keys_for(act).first().cloned().expect("a key");
    let ev = crate::ui::keymap::key_event(&name).expect("a key name");
    a.update(Msg::Key(ev), now);
}

fn bughouse(now: Instant) -> App {
    let mut a = app();
    a.update(Msg::Resize(160, 50), now);
    // You are White on A; your partner is Black on B.
    a.start_live(
        LiveSetup {
            kind: VariantKind::Bughouse,
            players: vec![[Player::Human, ENGINE], [ENGINE, ENGINE]],
            time: Some(TimeControl::new(60, 0)),
        },
        now,
    );
    a
}

#[test]
fn bughouse_pieces_arrive_mid_think_and_messages_go_both_ways() {
    let t0 = Instant::now();
    let mut a = bughouse(t0);
    let j = jobs(&mut a);
    // Three engines start; your partner's knows a person is its partner.
    let starts: Vec<(usize, bool)> = j
        .iter()
        .filter_map(|j| match j {
            EngineJob::Start {
                seat,
                partner_human,
                ..
            } => Some((*seat, *partner_human)),
            _ => None,
        })
        .collect();
    assert_eq!(starts, vec![(1, false), (2, false), (3, true)]);
    // Board B starts at once: White on B is asked.
    let wb = seat_index(1, Color::White);
    let bb = seat_index(1, Color::Black);
    let (id_b, _) = go_for(&j, wb).expect("White on B thinks");
    answer(&mut a, wb, id_b, "e2e4", t0);
    let (id_bb, _) = go_for(&jobs(&mut a), bb).expect("your partner thinks");
    // You play e4, Black on A answers d5, you take: the pawn goes to your
    // partner, who is thinking: its engine hears of it at once.
    type_str(&mut a, "e4", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "d7d5", t0);
    type_str(&mut a, "exd5", t0);
    let j = jobs(&mut a);
    let update = j.iter().find_map(|j| match j {
        EngineJob::Update { seat, fen } if *seat == bb => Some(fen.clone()),
        _ => None,
    });
    assert!(
        update.as_deref().is_some_and(|f| f.contains("[p]")),
        "the partner's engine gets the pawn: {j:?}"
    );
    assert!(
        status(&a).contains("White on A took a pawn: it goes to Black on B"),
        "{}",
        status(&a)
    );
    // Your partner drops it.
    answer(&mut a, bb, id_bb, "P@d4", t0);
    let screen = render(&a, 160, 50);
    assert!(screen.contains("1b. P@d4"), "{screen}");
    // Messages: `m` then `n` asks your partner for a knight.
    key(&mut a, KeyCode::Char('m'), t0);
    key(&mut a, KeyCode::Char('n'), t0);
    let j = jobs(&mut a);
    assert!(
        j.contains(&EngineJob::Ptell {
            seat: bb,
            text: "need N".into()
        }),
        "{j:?}"
    );
    // The partner's engine says something: you see it.
    a.update(
        Msg::HouseEngine {
            seat: bb,
            news: EngineNews::Ptell("sit".into()),
        },
        t0,
    );
    assert!(status(&a).contains("Black on B: sit"), "{}", status(&a));
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("Partners") && screen.contains("need N"),
        "{screen}"
    );
    // A typed move while it is not your turn is refused.
    type_str(&mut a, "Nf3", t0);
    assert!(status(&a).contains("Not your move") || live_moves(&a) == 5);
}

#[test]
fn a_flag_on_the_other_board_ends_your_game() {
    let t0 = Instant::now();
    let mut a = bughouse(t0);
    let j = jobs(&mut a);
    let wb = seat_index(1, Color::White);
    assert!(go_for(&j, wb).is_some());
    // White on B never answers: after 60 s it loses on time, and the
    // whole game is over, yours included.
    type_str(&mut a, "e4", t0 + Duration::from_secs(10));
    a.update(Msg::Tick, t0 + Duration::from_secs(61));
    let l = a.house.as_ref().and_then(|h| h.live.as_ref()).unwrap();
    assert!(
        l.ending
            .as_deref()
            .is_some_and(|e| e.contains("White on B lost on time") && e.contains("team 1")),
        "{:?}",
        l.ending
    );
    type_str(&mut a, "d4", t0);
    assert_eq!(live_moves(&a), 1, "no moves after the end");
    let screen = render(&a, 160, 50);
    assert!(screen.contains("White on B lost on time"), "{screen}");
    // Resigning takes two presses; a failed engine loses for its team.
    let mut a = bughouse(t0);
    jobs(&mut a);
    a.update(
        Msg::HouseEngine {
            seat: 1,
            news: EngineNews::Failed("it crashed".into()),
        },
        t0,
    );
    let l = a.house.as_ref().and_then(|h| h.live.as_ref()).unwrap();
    assert!(
        l.ending
            .as_deref()
            .is_some_and(|e| e.contains("engine failed")),
        "{:?}",
        l.ending
    );
    let mut a = bughouse(t0);
    shift_or_key(&mut a, Action::Resign, t0);
    assert!(
        a.house
            .as_ref()
            .and_then(|h| h.live.as_ref())
            .is_some_and(|l| !l.is_over())
    );
    shift_or_key(&mut a, Action::Resign, t0);
    let l = a.house.as_ref().and_then(|h| h.live.as_ref()).unwrap();
    assert!(
        l.ending
            .as_deref()
            .is_some_and(|e| e.contains("White on A resigned") && e.contains("team 2"))
    );
}

#[test]
fn saved_games_resume_with_their_seats_and_clocks() {
    use crate::ui::house::live::Live;
    let t0 = Instant::now();
    // Crazyhouse: 1. e4 (after 5 s) d5 2. exd5 (after 3 s more).
    let mut a = crazyhouse(t0);
    jobs(&mut a);
    type_str(&mut a, "e4", t0 + Duration::from_secs(5));
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "d7d5", t0 + Duration::from_secs(6));
    type_str(&mut a, "exd5", t0 + Duration::from_secs(9));
    let text = a
        .house
        .as_ref()
        .and_then(|h| h.live.as_ref())
        .map(|l| l.save_text())
        .unwrap();
    assert!(text.contains("[KibitzSeats \"human, level 3\"]"), "{text}");
    let t1 = t0 + Duration::from_secs(100);
    let l = Live::resume(&text, VariantKind::Crazyhouse, t1).unwrap();
    assert_eq!(l.moves_played(), 3);
    assert_eq!(
        l.remaining(0, Color::White, t1),
        Some(Duration::from_secs(52))
    );
    assert_eq!(
        l.remaining(0, Color::Black, t1),
        Some(Duration::from_secs(59))
    );
    assert_eq!(l.players[0], [Player::Human, ENGINE]);
    // Black (the engine) is to move: it starts and is asked at once.
    assert!(go_for(&l.jobs, 1).is_some(), "{:?}", l.jobs);
    // Bughouse: the four seats and each seat's last clock.
    let mut a = bughouse(t0);
    let j = jobs(&mut a);
    let (id, _) = go_for(&j, 2).unwrap();
    answer(&mut a, 2, id, "e2e4", t0 + Duration::from_secs(2));
    type_str(&mut a, "d4", t0 + Duration::from_secs(4));
    let text = a
        .house
        .as_ref()
        .and_then(|h| h.live.as_ref())
        .map(|l| l.save_text())
        .unwrap();
    let l = Live::resume(&text, VariantKind::Bughouse, t1).unwrap();
    assert_eq!(l.moves_played(), 2);
    assert_eq!(
        l.remaining(1, Color::White, t1),
        Some(Duration::from_secs(58))
    );
    assert_eq!(
        l.remaining(0, Color::White, t1),
        Some(Duration::from_secs(56))
    );
    assert_eq!(l.human_seats(), vec![0]);
    // Files that are not ours, or are over, are not resumed.
    assert!(
        Live::resume(
            "[Variant \"Crazyhouse\"]\n\n1. e4 *\n",
            VariantKind::Crazyhouse,
            t1
        )
        .is_err()
    );
    let over = text
        .replace("[Result \"*\"]", "[Result \"1-0\"]")
        .replace(" *", " {BA resigns} 1-0");
    assert!(Live::resume(&over, VariantKind::Bughouse, t1).is_err());
}

#[test]
fn the_app_offers_the_unfinished_game_and_resumes_it() {
    let t0 = Instant::now();
    let dir = std::env::temp_dir().join(format!("kibitz-house-resume-{}", std::process::id()));
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let mut a = crazyhouse(t0);
    type_str(&mut a, "e4", t0);
    let text = a
        .house
        .as_ref()
        .and_then(|h| h.live.as_ref())
        .map(|l| l.save_text())
        .unwrap();
    std::fs::write(games.join("2026-01-01_000000.pgn"), &text).unwrap();
    let mut b = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    b.update(Msg::Resize(120, 40), t0);
    let setup = LiveSetup {
        kind: VariantKind::Crazyhouse,
        players: vec![[Player::Human, ENGINE]],
        time: Some(TimeControl::new(60, 0)),
    };
    b.offer_or_start_live(setup.clone(), false, t0);
    assert!(matches!(b.overlay, Overlay::ResumeHouse { .. }));
    let screen = render(&b, 120, 40);
    assert!(screen.contains("An unfinished game was found"), "{screen}");
    key(&mut b, KeyCode::Char('y'), t0);
    assert_eq!(live_moves(&b), 1);
    assert!(
        go_for(&jobs(&mut b), 1).is_some(),
        "the engine is asked again"
    );
    // --new: no offer.
    let mut c = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    c.offer_or_start_live(setup, true, t0);
    assert!(matches!(c.overlay, Overlay::None));
    assert_eq!(live_moves(&c), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_new_game_dialog_offers_the_variants() {
    let t0 = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t0);
    command(&mut a, Action::NewGame, t0);
    assert!(matches!(a.overlay, Overlay::NewGame(_)));
    // Up from the first field reaches the last: Variant.
    key(&mut a, KeyCode::Up, t0);
    key(&mut a, KeyCode::Right, t0);
    let screen = render(&a, 120, 40);
    assert!(
        screen.contains("Variant") && screen.contains("Crazyhouse"),
        "{screen}"
    );
    key(&mut a, KeyCode::Enter, t0);
    let l = a
        .house
        .as_ref()
        .and_then(|h| h.live.as_ref())
        .expect("a crazyhouse game");
    assert_eq!(l.kind, VariantKind::Crazyhouse);
    assert_eq!(l.players[0][0], Player::Human);
    // A start FEN is refused for the variants, with the reason.
    command(&mut a, Action::NewGame, t0);
    if let Overlay::NewGame(d) = &mut a.overlay {
        d.fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1".into();
        d.variant = 2;
    }
    key(&mut a, KeyCode::Enter, t0);
    match &a.overlay {
        Overlay::NewGame(d) => assert!(d.error.as_deref().is_some_and(|e| e.contains("Start FEN"))),
        _ => panic!("the dialog stays open"),
    }
    // Bughouse: you on A, three engines.
    if let Overlay::NewGame(d) = &mut a.overlay {
        d.fen.clear();
    }
    key(&mut a, KeyCode::Enter, t0);
    let l = a
        .house
        .as_ref()
        .and_then(|h| h.live.as_ref())
        .expect("a bughouse game");
    assert_eq!(l.kind, VariantKind::Bughouse);
    assert_eq!(l.human_seats(), vec![0]);
    assert!(l.time.is_some(), "Bughouse always has clocks");
    // Back to chess: the engines of the variant game go.
    command(&mut a, Action::NewGame, t0);
    if let Overlay::NewGame(d) = &mut a.overlay {
        d.variant = 0;
    }
    a.take_effects();
    key(&mut a, KeyCode::Enter, t0);
    assert!(a.house.is_none());
    assert!(
        a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::HouseEngine(EngineJob::QuitAll)))
    );
}

#[test]
fn a_hint_is_picked_up_ready_to_play() {
    use crate::ui::house::live::ASSISTANT;
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
    let h = a.house.as_ref().unwrap();
    assert_eq!((h.pick.from, h.pick.square), (Some(Square::G1), Square::F3));
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
    use crate::ui::house::live::ASSISTANT;
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
                id,
                infinite: true,
                ..
            } => Some(*id),
            _ => None,
        })
        .expect("the assistant analyses until stopped");
    // Its lines show in SAN, drops included, White's view.
    a.update(
        Msg::HouseEngine {
            seat: ASSISTANT,
            news: EngineNews::Info {
                id,
                depth: 9,
                score: crate::engine::Score(35),
                nodes: 123_456,
                pv: vec!["e2e4".into(), "e7e5".into(), "g1f3".into()],
            },
        },
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
        j.iter().any(|j| matches!(j, EngineJob::Go { seat: ASSISTANT, infinite: true, id: n, .. } if *n != id)),
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
    assert!(matches!(a.overlay, Overlay::None));
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
    use crate::ui::explorer::{AnyRecording, AnyRequest, Request};
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
            Effect::HouseExplorer(AnyRequest::Zh(Request::Record { id, pos, .. })) => {
                Some((id, pos))
            }
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
        Msg::HouseTreeRecorded {
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
    assert!(a.house_explorer.is_none());
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
    use crate::ui::house::live::ASSISTANT;
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
    assert_eq!(a.house.as_ref().and_then(|h| h.pick.drop), Some(Role::Pawn));
    // Every empty square off the 1st and 8th ranks, counted from the board.
    let pos = a
        .house
        .as_ref()
        .and_then(|h| h.live.as_ref())
        .unwrap()
        .board(0)
        .clone();
    let legal = Square::ALL
        .into_iter()
        .filter(|&sq| crate::variant::rules::check_drop(&pos, Role::Pawn, sq).is_ok())
        .count();
    assert!(legal > 20);
    assert_eq!(dots(&render(&a, 120, 40)), legal);
}
