//! Playing Crazyhouse and Bughouse: moves typed, picked with the keyboard
//! (the cursor goes into the pocket) and the mouse, illegal drops
//! explained, fake engines answering through messages, pieces arriving
//! while an engine thinks, partner messages, flags on either board, the
//! record saved after every move, takebacks.

use super::*;
use crate::ui::house::live::{EngineJob, EngineNews, LiveSetup, Player, seat_index};
use crate::variant::VariantKind;

pub(super) const ENGINE: Player = Player::Engine(EngineSpec::BuiltIn { level: 3 });

pub(super) fn jobs(a: &mut App) -> Vec<EngineJob> {
    a.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::HouseEngine(j) => Some(j),
            _ => None,
        })
        .collect()
}

/// The request id of the `Go` for `seat` among `jobs`.
pub(super) fn go_for(jobs: &[EngineJob], seat: usize) -> Option<(u64, String)> {
    jobs.iter().find_map(|j| match j {
        EngineJob::Go {
            seat: s, id, fen, ..
        } if *s == seat => Some((*id, fen.clone())),
        _ => None,
    })
}

pub(super) fn answer(a: &mut App, seat: usize, id: u64, uci: &str, now: Instant) {
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

pub(super) fn live_moves(a: &App) -> usize {
    a.house()
        .as_ref()
        .and_then(|h| h.live.as_ref())
        .map_or(0, |l| l.moves_played())
}

pub(super) fn status(a: &App) -> String {
    a.ui.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

pub(super) fn crazyhouse(now: Instant) -> App {
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
    assert!(a.house().is_some_and(|h| h.pick.in_pocket));
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(a.house().and_then(|h| h.pick.drop), Some(Role::Pawn));
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
    let h = a.house().unwrap();
    let l = h.layout(area).unwrap();
    let place = l.boards[0];
    let pocket = h.pocket(0, Color::White);
    assert_eq!(pocket, vec![(Role::Queen, 1)]);
    let cells = h.pocket_cells(&l, 0, Color::White, t0);
    let (_, q) = cells[0];
    click(&mut a, q.x, q.y, t0);
    assert_eq!(a.house().and_then(|h| h.pick.drop), Some(Role::Queen));
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

pub(super) fn click(a: &mut App, col: u16, row: u16, now: Instant) {
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
        a.house()
            .as_ref()
            .and_then(|h| h.live.as_ref())
            .is_some_and(|l| !l.is_over())
    );
    a.update(Msg::Tick, t0 + Duration::from_secs(61));
    let l = a.house().and_then(|h| h.live.as_ref()).unwrap();
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
    let l = a.house().and_then(|h| h.live.as_ref()).unwrap();
    assert!(
        l.ending
            .as_deref()
            .is_some_and(|e| e.contains("illegal move")),
        "{:?}",
        l.ending
    );
}

/// Presses the first key bound to `act`.
pub(super) fn shift_or_key(a: &mut App, act: Action, now: Instant) {
    let name = a.ui.keys.keys_for(act).first().cloned().expect("a key");
    let ev = crate::ui::keymap::key_event(&name).expect("a key name");
    a.update(Msg::Key(ev), now);
}

pub(super) fn bughouse(now: Instant) -> App {
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
    let l = a.house().and_then(|h| h.live.as_ref()).unwrap();
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
    let l = a.house().and_then(|h| h.live.as_ref()).unwrap();
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
        a.house()
            .as_ref()
            .and_then(|h| h.live.as_ref())
            .is_some_and(|l| !l.is_over())
    );
    shift_or_key(&mut a, Action::Resign, t0);
    let l = a.house().and_then(|h| h.live.as_ref()).unwrap();
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
        .house()
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
        .house()
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
        .house()
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
    assert!(matches!(b.ui.overlay, Overlay::ResumeHouse { .. }));
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
    assert!(matches!(c.ui.overlay, Overlay::None));
    assert_eq!(live_moves(&c), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
