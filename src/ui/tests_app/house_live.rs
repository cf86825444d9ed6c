//! Playing Crazyhouse and Bughouse: moves typed, picked with the keyboard
//! (the cursor goes into the pocket) and the mouse, illegal drops
//! explained, fake engines answering through messages, pieces arriving
//! while an engine thinks, partner messages, flags on either board, the
//! record saved after every move, takebacks.

use super::*;
use crate::ui::player::{Report, SearchLine};
use crate::ui::screens::house::live::{EngineJob, LiveSetup, Player, seat_index};
use crate::variant::VariantKind;

pub(super) const ENGINE: Player = Player::Engine(EngineSpec::BuiltIn { level: 3 });

pub(super) fn jobs(a: &mut App) -> Vec<EngineJob> {
    a.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Engine { job, .. } => Some(job),
            _ => None,
        })
        .collect()
}

/// The request id of the `Go` for `seat` among `jobs`.
pub(super) fn go_for(jobs: &[EngineJob], seat: usize) -> Option<(u64, String)> {
    jobs.iter().find_map(|j| match j {
        EngineJob::Go { seat: s, go } if *s == seat => Some((go.id, go.fen.clone())),
        _ => None,
    })
}

/// The engine at `seat` answers request `id` with `uci`: its move on the
/// seat's board, or (as the engine thread reports a move that is not legal
/// there) an illegal move.
pub(super) fn answer(a: &mut App, seat: usize, id: u64, uci: &str, now: Instant) {
    let pos = searched(a, seat);
    let report = match moves(&pos, &[uci]).first() {
        Some(&m) => crate::ui::player::EngineEvent::Done {
            id,
            purpose: crate::ui::player::Purpose::Move,
            best: Some(m),
            score: None,
            pv: vec![m],
        },
        None => crate::ui::player::EngineEvent::IllegalMove {
            id,
            text: uci.into(),
        },
    };
    a.update(news(a, seat, Report::Event(report)), now);
}

/// The engine at `seat` of `live` answers request `id` with `uci`.
pub(super) fn best_of(
    live: &crate::ui::screens::house::live::Live,
    seat: usize,
    id: u64,
    uci: &str,
) -> Report {
    let best = moves(live.board(seat / 2), &[uci]).first().copied();
    Report::Event(crate::ui::player::EngineEvent::Done {
        id,
        purpose: crate::ui::player::Purpose::Move,
        best,
        score: None,
        pv: best.into_iter().collect(),
    })
}

/// What the engine at `seat` of the live game on top says.
pub(super) fn news(a: &App, seat: usize, report: Report) -> Msg {
    Msg::Engine {
        table: table(a),
        seat,
        report,
    }
}

/// The board the engine at `seat` searches (the assistant: the analysed
/// board, else A).
fn searched(a: &App, seat: usize) -> shakmaty::variant::Crazyhouse {
    let l = a.live().expect("a live game");
    let b = if seat == crate::ui::engines::ASSISTANT {
        l.assistant.analysis.as_ref().map_or(0, |x| x.board)
    } else {
        seat / 2
    };
    l.board(b).clone()
}

/// UCI moves played out from `pos`, up to the first that is not legal.
fn moves(pos: &shakmaty::variant::Crazyhouse, ucis: &[&str]) -> Vec<shakmaty::Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for u in ucis {
        let Some(m) = u
            .parse::<shakmaty::uci::UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
        else {
            break;
        };
        shakmaty::Position::play_unchecked(&mut pos, m);
        out.push(m);
    }
    out
}

/// A line of the search of the engine at `seat` for request `id`: depth,
/// score (side to move's view), nodes, and the line in UCI.
pub(super) fn info_line(a: &App, seat: usize, id: u64, at: (u32, i32, u64), pv: &[&str]) -> Msg {
    let (depth, score, nodes) = at;
    let line = SearchLine {
        depth,
        multipv: 1,
        score: Some(crate::engine::Score(score)),
        nodes,
        pv: moves(&searched(a, seat), pv),
        ..SearchLine::default()
    };
    news(
        a,
        seat,
        Report::Event(crate::ui::player::EngineEvent::Info { id, line }),
    )
}

/// The table of the live game on top (its engines' news carries it).
pub(super) fn table(a: &App) -> u64 {
    a.find::<crate::ui::app::HouseScreen>()
        .map_or(0, |h| h.table())
}

pub(super) fn live_moves(a: &App) -> usize {
    a.live().map_or(0, |l| l.moves_played())
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
            start: None,
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
    a.update(info_line(&a, 1, id, (7, -20, 4321), &["d7d5", "e4d5"]), t0);
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
    assert!(
        a.find::<crate::ui::app::HouseScreen>()
            .is_some_and(|h| h.pick.in_pocket)
    );
    key(&mut a, KeyCode::Enter, t0);
    assert_eq!(
        a.find::<crate::ui::app::HouseScreen>()
            .and_then(|h| h.pick.drop),
        Some(Role::Pawn)
    );
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
    let l = h.layout(area, true).unwrap();
    let place = l.boards[0];
    let pocket = h.pocket(0, Color::White);
    assert_eq!(pocket, vec![(Role::Queen, 1)]);
    let cells = h.pocket_cells(a.live(), &l, 0, Color::White, t0);
    let (_, q) = cells[0];
    click(&mut a, q.x, q.y, t0);
    assert_eq!(
        a.find::<crate::ui::app::HouseScreen>()
            .and_then(|h| h.pick.drop),
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
    assert!(a.live().is_some_and(|l| !l.is_over()));
    a.update(Msg::Tick, t0 + Duration::from_secs(61));
    let l = a.live().unwrap();
    assert!(
        l.ending
            .as_deref()
            .is_some_and(|e| e == "You (White) lost on time: you lose (Black wins)"),
        "{:?}",
        l.ending
    );
    assert!(jobs(&mut a).contains(&EngineJob::QuitAll));
    // An engine that plays nonsense loses.
    let mut a = crazyhouse(t0);
    type_str(&mut a, "e4", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "e2e4", t0);
    let l = a.live().unwrap();
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
            start: None,
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
        status(&a)
            .contains("You (White, A) took a pawn: it goes to Partner (Kibitz level 3, Black, B)"),
        "{}",
        status(&a)
    );
    // Your partner drops it.
    answer(&mut a, bb, id_bb, "P@d4", t0);
    let screen = render(&a, 160, 50);
    assert!(screen.contains("1b. P@d4"), "{screen}");
    // Messages: `m` then `n` asks your partner for a knight, in the FICS
    // words (`++n`), which stand in the Partners box until met or withdrawn.
    key(&mut a, KeyCode::Char('m'), t0);
    key(&mut a, KeyCode::Char('n'), t0);
    let j = jobs(&mut a);
    assert!(
        j.contains(&EngineJob::Ptell {
            seat: bb,
            text: "++n".into()
        }),
        "{j:?}"
    );
    assert!(
        status(&a).contains("++n (needs a knight)"),
        "{}",
        status(&a)
    );
    // `m` then `'` types your own words.
    key(&mut a, KeyCode::Char('m'), t0);
    key(&mut a, KeyCode::Char('\''), t0);
    for c in "--q".chars() {
        key(&mut a, KeyCode::Char(c), t0);
    }
    assert!(
        status(&a).contains("To your partner: --q"),
        "{}",
        status(&a)
    );
    key(&mut a, KeyCode::Enter, t0);
    let j = jobs(&mut a);
    assert!(
        j.contains(&EngineJob::Ptell {
            seat: bb,
            text: "--q".into()
        }),
        "{j:?}"
    );
    // The partner's engine asks you to sit: a standing request, shown in the
    // Partners box (not a status line that the next message replaces).
    a.update(news(&a, bb, Report::Ptell("sit".into())), t0);
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("Partners") && screen.contains("│Partner asks: sit"),
        "{screen}"
    );
    // Yours stand too (in shorthand in a narrow box, in words in a wide
    // one: a knight, not "needs a knight" after "asks").
    assert!(screen.contains("│You ask: ++n --q"), "{screen}");
    let wide = render(&a, 200, 50);
    assert!(wide.contains("You ask: a knight"), "{wide}");
    assert!(!wide.contains("ask: needs"), "{wide}");
    // "go" withdraws the sit; a free text is news.
    a.update(news(&a, bb, Report::Ptell("go".into())), t0);
    let screen = render(&a, 160, 50);
    assert!(!screen.contains("│Partner asks: sit"), "{screen}");
    a.update(news(&a, bb, Report::Ptell("good luck".into())), t0);
    assert!(status(&a).contains("good luck"), "{}", status(&a));
    // A message that is its own words is not said twice.
    key(&mut a, KeyCode::Char('m'), t0);
    key(&mut a, KeyCode::Char('\''), t0);
    for c in "sit".chars() {
        key(&mut a, KeyCode::Char(c), t0);
    }
    key(&mut a, KeyCode::Enter, t0);
    assert!(
        status(&a).contains("To your partner: sit (don't move)")
            && !status(&a).contains("sit (sit"),
        "{}",
        status(&a)
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
    let l = a.live().unwrap();
    assert!(
        l.ending
            .as_deref()
            .is_some_and(|e| e
                == "Opponent (Kibitz level 3, White, B) lost on time: you win (team 1 (White A + Black B) wins)"),
        "{:?}",
        l.ending
    );
    type_str(&mut a, "d4", t0);
    assert_eq!(live_moves(&a), 1, "no moves after the end");
    let screen = render(&a, 160, 50);
    assert!(
        screen.contains("Opponent (Kibitz level 3, White, B) lost on time: you win"),
        "{screen}"
    );
    // Resigning takes two presses; a failed engine loses for its team.
    let mut a = bughouse(t0);
    jobs(&mut a);
    a.update(
        news(
            &a,
            1,
            Report::Event(crate::ui::player::EngineEvent::Failed {
                message: "it crashed".into(),
            }),
        ),
        t0,
    );
    let l = a.live().unwrap();
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
        matches!(a.ui.overlay, Overlay::ConfirmResign),
        "asked first"
    );
    // Any other key plays on.
    key(&mut a, KeyCode::Char('n'), t0);
    assert!(matches!(a.ui.overlay, Overlay::None));
    assert!(a.live().is_some_and(|l| !l.is_over()));
    shift_or_key(&mut a, Action::Resign, t0);
    key(&mut a, KeyCode::Char('y'), t0);
    let l = a.live().unwrap();
    assert!(
        l.ending.as_deref().is_some_and(
            |e| e == "You (White, A) resigned: you lose (team 2 (Black A + White B) wins)"
        ),
        "{:?}",
        l.ending
    );
}

/// The `Go` job for `seat` in `live`'s queue (taken out with the rest).
fn live_go(live: &mut crate::ui::screens::house::live::Live, seat: usize) -> Option<u64> {
    let jobs = std::mem::take(&mut live.jobs);
    go_for(&jobs, seat).map(|(id, _)| id)
}

/// With a clock, engine seats take a player's time: a move found at once is
/// held (the seat still "thinking") and played by the tick when due. In
/// Bughouse a partner's "sit" holds it while the seat is up on time, and
/// "go" (or "fast") releases it.
#[test]
fn engine_seats_pace_themselves_and_sit_when_asked() {
    use crate::ui::pace::Pace;
    use crate::ui::screens::house::live::Live;
    let t0 = Instant::now();
    let setup = LiveSetup {
        kind: VariantKind::Bughouse,
        // You on A-white; your partner B-black; the opponents A-black and B-white.
        players: vec![[Player::Human, ENGINE], [ENGINE, ENGINE]],
        time: Some(TimeControl::new(120, 0)),
        start: None,
    };
    let names = vec![
        ["You".to_string(), "Opp A".to_string()],
        ["Opp B".to_string(), "Partner".to_string()],
    ];
    let mut live = Live::new(setup, names, t0);
    live.pace = Pace::Human;
    let b_white = seat_index(1, Color::White);
    let b_black = seat_index(1, Color::Black);
    let id = live_go(&mut live, b_white).expect("B-white asked at once");
    live.engine_news(b_white, best_of(&live, b_white, id, "e2e4"), t0);
    assert_eq!(
        live.moves_played(),
        0,
        "held: a player does not move in 0 s"
    );
    assert!(live.thinking(b_white));
    // It is played within a sixth of the clock.
    live.tick(t0 + Duration::from_secs(20));
    assert_eq!(live.moves_played(), 1);
    // You ask your partner (B-black) to sit: its move waits while it is
    // up on time... B-black has 2:00, B-white 1:40 after 20 s.
    let you = seat_index(0, Color::White);
    live.say(you, "sit");
    let t1 = t0 + Duration::from_secs(20);
    let id = live_go(&mut live, b_black).expect("B-black asked");
    live.engine_news(b_black, best_of(&live, b_black, id, "e7e5"), t1);
    live.tick(t1 + Duration::from_secs(15));
    assert_eq!(live.moves_played(), 1, "sitting");
    assert!(live.thinking(b_black));
    // ... and moves on "go".
    live.say(you, "go");
    live.tick(t1 + Duration::from_secs(16));
    assert_eq!(live.moves_played(), 2, "went on 'go'");
}

/// Through the app: a held engine move is played by the screen's tick, and
/// the next engine is asked at once (the jobs reach the runtime).
#[test]
fn the_screen_plays_held_moves_and_asks_the_next_engine() {
    let t0 = Instant::now();
    let mut a = App::new(Config::default(), theme::builtin(), None);
    a.update(Msg::Resize(160, 50), t0);
    a.start_live(
        LiveSetup {
            kind: VariantKind::Crazyhouse,
            players: vec![[ENGINE, ENGINE]],
            time: Some(TimeControl::new(60, 0)),
            start: None,
        },
        t0,
    );
    let (id, _) = go_for(&jobs(&mut a), 0).expect("White asked");
    answer(&mut a, 0, id, "e2e4", t0);
    assert_eq!(live_moves(&a), 0, "held");
    a.update(Msg::Tick, t0 + Duration::from_secs(10));
    assert_eq!(live_moves(&a), 1, "played when due");
    assert!(go_for(&jobs(&mut a), 1).is_some(), "Black is asked next");
}

/// Fast pace: engine moves are played as they come.
#[test]
fn fast_pace_plays_engine_moves_at_once() {
    use crate::ui::screens::house::live::Live;
    let t0 = Instant::now();
    let setup = LiveSetup {
        kind: VariantKind::Crazyhouse,
        players: vec![[ENGINE, Player::Human]],
        time: Some(TimeControl::new(60, 0)),
        start: None,
    };
    let mut live = Live::new(setup, vec![["E".into(), "You".into()]], t0);
    let id = live_go(&mut live, 0).expect("White asked");
    live.engine_news(0, best_of(&live, 0, id, "e2e4"), t0);
    assert_eq!(live.moves_played(), 1);
}

/// `--fen` with `--variant crazyhouse` or `bughouse`: the FEN is read with
/// the variant's rules (pockets in every form, none meaning empty hands;
/// Bughouse takes two FENs joined by `|`), the game starts there, engines
/// are asked from there, and the record keeps the start.
#[test]
fn command_line_fen_starts_crazyhouse_and_bughouse_games_there() {
    use crate::ui::startup::{Options, live_setup};
    let t0 = Instant::now();
    let a = app();
    let opts = |variant: &str, fen: &str| Options {
        variant: Some(variant.into()),
        fen: Some(fen.into()),
        ..Options::default()
    };
    let start = |variant: &str, fen: &str| {
        live_setup(&opts(variant, fen), &a.default_setup(), &a)
            .map(|l| l.expect("a variant game"))
            .map_err(|e| e.to_string())
    };
    // After 1.e4 d5 2.exd5 Qxd5 each side holds a pawn: every pocket form.
    const BOARD: &str = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR";
    let want = format!("{BOARD}[Pp] w KQkq - 0 3");
    for form in ["[Pp]", "/[Pp]", "/Pp"] {
        let l = start("crazyhouse", &format!("{BOARD}{form} w KQkq - 0 3")).unwrap();
        let boards = l.start.expect("a start position");
        assert_eq!(boards.len(), 1);
        assert_eq!(crate::variant::fen::write_fen(&boards[0]), want, "{form}");
    }
    // No pocket at all: empty hands.
    let l = start(
        "crazyhouse",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    )
    .unwrap();
    let s = l.start.as_deref().unwrap();
    assert!(crate::variant::fen::write_fen(&s[0]).contains("RNBQKBNR[] b"));
    // The game starts there: Black (the engine) is asked from that position.
    let mut a2 = app();
    let mut l = start("crazyhouse", &format!("{BOARD}/Pp b KQkq - 0 3")).unwrap();
    l.players = vec![[Player::Human, ENGINE]];
    a2.start_live(l, t0);
    let j = jobs(&mut a2);
    let (_, fen) = go_for(&j, 1).expect("the engine (Black) is to move");
    assert_eq!(fen, format!("{BOARD}[Pp] b KQkq - 0 3"));
    let live = a2.live().unwrap();
    let text = live.save_text();
    assert!(
        text.contains(&format!("[FEN \"{BOARD}[Pp] b KQkq - 0 3\"]")),
        "{text}"
    );
    // Bughouse: board A's and board B's FENs.
    let l = start(
        "bughouse",
        &format!("{BOARD}[Pp] w KQkq - 0 3 | 4k3/8/8/8/8/8/8/4K3/QQ b - - 0 1"),
    )
    .unwrap();
    let mut a3 = app();
    a3.start_live(l, t0);
    let live = a3.live().unwrap();
    assert_eq!(
        crate::variant::fen::write_fen(live.board(1)),
        "4k3/8/8/8/8/8/8/4K3[QQ] b - - 0 1"
    );
    assert!(
        live.save_text()
            .contains(" | 4k3/8/8/8/8/8/8/4K3[QQ] b - - 0 1\"]")
    );
    // Bad FENs: the field or the board is named, nothing starts.
    for (variant, fen, says) in [
        (
            "crazyhouse",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] x KQkq - 0 1",
            "--fen: malformed FEN: the side to move must be 'w' or 'b' (got 'x')",
        ),
        (
            "crazyhouse",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Z] w KQkq - 0 1",
            "pocket",
        ),
        (
            "crazyhouse",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "for Bughouse",
        ),
        (
            "crazyhouse",
            "6rk/5Npp/8/8/8/8/5PPP/6K1[] b - - 0 1",
            "checkmate",
        ),
        ("bughouse", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "two FENs"),
        (
            "bughouse",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
            "illegal position: board B: the castling rights",
        ),
    ] {
        let e = start(variant, fen).map(|_| ()).unwrap_err();
        assert!(e.contains(says), "{fen}: {e}");
        assert!(e.starts_with("--fen: "), "{e}");
    }
}

/// A team's messages are its own (issue 50): the opponents' requests to
/// each other reach their engines and the record, not your Partners box;
/// your partner's do.
#[test]
fn you_hear_your_team_not_the_opponents() {
    let t0 = Instant::now();
    let mut a = bughouse(t0);
    jobs(&mut a);
    // Black on A (your opponent) asks White on B, its partner, for a queen.
    let black_a = seat_index(0, Color::Black);
    a.update(news(&a, black_a, Report::Ptell("++q".into())), t0);
    let j = jobs(&mut a);
    assert!(
        j.contains(&EngineJob::Ptell {
            seat: seat_index(1, Color::White),
            text: "++q".into()
        }),
        "its partner's engine hears it: {j:?}"
    );
    let screen = render(&a, 160, 50);
    assert!(
        !screen.contains("a queen") && !screen.contains("++q"),
        "{screen}"
    );
    // Your partner (Black on B) asks you for a knight: shown.
    a.update(
        news(&a, seat_index(1, Color::Black), Report::Ptell("++n".into())),
        t0,
    );
    let screen = render(&a, 200, 50);
    assert!(screen.contains("Partner asks: a knight"), "{screen}");
}
