//! State-machine tests (keys, mouse, engine messages, injected time) and
//! render tests on ratatui's `TestBackend`.

use super::app::{App, Effect, Mode, Msg, Overlay, Setup, Slot};
use super::config::{Config, PieceStyle, TimeControl};
use super::player::{EngineEvent, EngineSpec, Purpose, Request};
use super::{theme, view};
use crate::engine::{Board, Score};
use crate::game::{GameResult, Termination};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::{Color, Role, Square};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn app() -> App {
    let mut a = App::new(Config::default(), theme::builtin(), None);
    a.update(Msg::Resize(120, 40), Instant::now());
    a
}

fn setup(mode: Mode, fen: Option<&str>, time: Option<&str>) -> Setup {
    Setup {
        mode,
        engine: EngineSpec::BuiltIn { level: 3 },
        time: time.map(|t| t.parse::<TimeControl>().unwrap()),
        start: fen.map_or_else(Board::startpos, |f| Board::from_fen(f).unwrap()),
    }
}

const WHITE: Mode = Mode::HumanVsEngine {
    human: Color::White,
};

fn key(a: &mut App, code: KeyCode, now: Instant) {
    a.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)), now);
}

fn shift(a: &mut App, c: char, now: Instant) {
    a.update(
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::SHIFT)),
        now,
    );
}

fn type_str(a: &mut App, s: &str, now: Instant) {
    for c in s.chars() {
        let m = if c.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        a.update(Msg::Key(KeyEvent::new(KeyCode::Char(c), m)), now);
    }
    key(a, KeyCode::Enter, now);
}

/// A command on a letter that can begin a move (`R` could begin a rook
/// move): the letter opens the move box, Enter right after runs it.
fn command_letter(a: &mut App, c: char, now: Instant) {
    shift(a, c, now);
    assert_eq!(a.input, c.to_string(), "the letter opens the move box");
    key(a, KeyCode::Enter, now);
}

fn uci_moves(a: &App) -> Vec<String> {
    a.game.moves().iter().map(|&m| Board::uci(m)).collect()
}

/// The latest engine request in the effects (clears them).
fn take_go(a: &mut App, slot: Slot) -> Option<Request> {
    a.take_effects().into_iter().rev().find_map(|e| match e {
        Effect::Go(s, r) if s == slot => Some(*r),
        _ => None,
    })
}

fn reply(a: &mut App, req: &Request, uci: &str, now: Instant) {
    let board = {
        let mut b = req.start.clone();
        for &m in &req.moves {
            b = b.play(m);
        }
        b
    };
    let m = board.parse_uci(uci).unwrap();
    a.update(
        Msg::Engine(
            Slot::Opponent,
            EngineEvent::Done {
                id: req.id,
                purpose: req.purpose,
                best: Some(m),
                score: Some(Score(20)),
                pv: vec![m],
            },
        ),
        now,
    );
}

#[test]
fn typed_moves_and_engine_replies() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    let fx = a.take_effects();
    assert!(fx.iter().any(|e| matches!(e, Effect::StartEngine(_))));
    assert!(fx.iter().any(|e| matches!(e, Effect::NewGame)));
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Go(..))),
        "human moves first"
    );

    type_str(&mut a, "e4", t);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    let req = take_go(&mut a, Slot::Opponent).expect("engine asked to move");
    assert_eq!(req.purpose, Purpose::Move);
    assert_eq!(req.moves.len(), 1);
    assert!(!a.human_to_move());
    // Typing while the engine thinks changes nothing.
    type_str(&mut a, "d4", t);
    assert_eq!(uci_moves(&a), ["e2e4"]);

    reply(&mut a, &req, "e7e5", t);
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5"]);
    assert!(a.human_to_move());
    type_str(&mut a, "nf3", t); // lowercase tolerated
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
    assert!(a.game.moves().is_empty());
    reply(&mut a, &req, "e7e5", t);
    assert!(
        a.game.moves().is_empty(),
        "the cancelled answer must not be played"
    );
}

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
    let st = a.status.clone().expect("an explanation");
    assert_eq!(st.kind, super::app::StatusKind::Error);
    assert_eq!(a.input, "e5", "the text stays for correction");
    key(&mut a, KeyCode::Esc, t);
    assert!(a.input.is_empty());

    a.start_game(
        setup(WHITE, Some("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"), None),
        t,
    );
    type_str(&mut a, "Nd2", t);
    assert!(a.game.moves().is_empty());
    let text = a.status.clone().unwrap().text;
    assert!(text.contains("Nbd2") && text.contains("Nfd2"), "{text}");
}

#[test]
fn cursor_selection_and_enter_move() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    assert_eq!(a.cursor, Square::E2);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(a.selected, Some(Square::E2));
    let mut dests = a.destinations(Square::E2);
    dests.sort();
    assert_eq!(dests, [Square::E3, Square::E4]);
    key(&mut a, KeyCode::Up, t);
    key(&mut a, KeyCode::Up, t);
    assert_eq!(a.cursor, Square::E4);
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
    assert!(b.flipped);
    let c = b.cursor;
    key(&mut b, KeyCode::Up, t);
    assert_eq!(b.cursor.rank() as u32 + 1, c.rank() as u32);
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
        let r = geo.rect_of(sq, a.flipped);
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
    a.cursor = Square::E7;
    key(&mut a, KeyCode::Enter, t);
    key(&mut a, KeyCode::Up, t);
    key(&mut a, KeyCode::Enter, t);
    assert!(matches!(a.overlay, Overlay::Promotion { .. }));
    assert!(a.game.moves().is_empty());
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
    b.cursor = Square::E7;
    key(&mut b, KeyCode::Enter, t);
    key(&mut b, KeyCode::Up, t);
    key(&mut b, KeyCode::Enter, t);
    key(&mut b, KeyCode::Enter, t);
    assert_eq!(uci_moves(&b), ["e7e8q"]);
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
    assert_eq!(a.game.moves().len(), 4);
    key(&mut a, KeyCode::Char('u'), t + Duration::from_secs(13));
    assert_eq!(uci_moves(&a), ["e2e4", "e7e5"]);
    assert!(a.human_to_move());
    // Clocks go back to where they were before Nf3.
    let w = a
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
    let c = a.clocks.as_ref().unwrap();
    assert_eq!(c.remaining(Color::White, t + s(7)), s(60));
    assert_eq!(c.remaining(Color::Black, t + s(7)), s(58));
    assert_eq!(c.remaining(Color::White, t + s(37)), s(30));
    a.update(Msg::Tick, t + s(66));
    assert!(!a.is_over());
    a.update(Msg::Tick, t + s(68));
    let e = a.game.ending.expect("flag fell");
    assert_eq!(e.termination, Termination::TimeForfeit);
    assert_eq!(e.result, GameResult::BlackWins);
    // The saved PGN says so.
    let pgn = crate::game::write_pgn(&a.game);
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
    let e = a.game.ending.unwrap();
    assert_eq!(
        (e.result, e.termination),
        (GameResult::BlackWins, Termination::Checkmate)
    );
    let mut b = app();
    b.start_game(setup(Mode::HumanVsHuman, None, None), t);
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        type_str(&mut b, m, t);
    }
    assert!(!b.is_over(), "threefold must be claimed");
    assert!(b.claimable_draw().is_some());
    shift(&mut b, 'D', t);
    let e = b.game.ending.unwrap();
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
    command_letter(&mut a, 'R', t);
    assert!(matches!(a.overlay, Overlay::ConfirmResign));
    key(&mut a, KeyCode::Char('x'), t);
    assert!(!a.is_over());
    command_letter(&mut a, 'R', t);
    key(&mut a, KeyCode::Char('y'), t);
    assert_eq!(
        a.game.ending.map(|e| (e.result, e.termination)),
        Some((GameResult::BlackWins, Termination::Resignation))
    );

    // The engine declines while it thinks it is better, accepts when worse.
    let mut b = app();
    b.start_game(setup(WHITE, None, None), t);
    type_str(&mut b, "e4", t);
    let req = take_go(&mut b, Slot::Opponent).unwrap();
    reply(&mut b, &req, "e7e5", t); // reports +0.20 for itself
    shift(&mut b, 'D', t);
    assert!(!b.is_over());
    type_str(&mut b, "Nf3", t);
    let req = take_go(&mut b, Slot::Opponent).unwrap();
    b.update(
        Msg::Engine(
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
                score: Some(Score(-150)),
                pv: vec![],
            },
        ),
        t,
    );
    shift(&mut b, 'D', t);
    assert_eq!(
        b.game.ending.map(|e| (e.result, e.termination)),
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
        Msg::Engine(
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
    assert_eq!(a.hint.as_ref().map(|h| h.mv), Some(m));
    assert!(a.status.as_ref().unwrap().text.contains("d4"));
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Hint: d4"), "{screen}");
}

#[test]
fn new_game_dialog_validates_the_fen() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    // 'n' can start a knight move, so it opens the move box; Enter = command.
    key(&mut a, KeyCode::Char('n'), t);
    key(&mut a, KeyCode::Enter, t);
    assert!(matches!(a.overlay, Overlay::NewGame(_)));
    for _ in 0..5 {
        key(&mut a, KeyCode::Down, t);
    }
    type_str(&mut a, "8/8/8/8/8/8/8/8 w - - 0 1", t);
    match &a.overlay {
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
    assert!(matches!(a.overlay, Overlay::None));
    assert_eq!(a.board().fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
}

#[test]
fn engine_vs_engine_pause() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::EngineVsEngine, None, None), t);
    let req = take_go(&mut a, Slot::Opponent).expect("white engine moves");
    key(&mut a, KeyCode::Char('p'), t);
    assert!(a.paused);
    reply(&mut a, &req, "e2e4", t);
    assert!(a.game.moves().is_empty(), "no moves while paused");
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

fn render(a: &App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| view::draw(f, a, Instant::now())).unwrap();
    let buf = term.backend().buffer().clone();
    let mut s = String::new();
    for y in 0..h {
        for x in 0..w {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

/// The symbol drawn in the middle of a square.
fn square_symbol(a: &App, w: u16, h: u16, sq: Square) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| view::draw(f, a, Instant::now())).unwrap();
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, w, h))
        .unwrap()
        .board;
    let r = geo.rect_of(sq, a.flipped);
    term.backend().buffer()[(r.x + r.width / 2, r.y + r.height / 2)]
        .symbol()
        .to_string()
}

/// The pixels of a square (two per cell, drawn with half blocks) that have
/// colour `colour`, as (x, y) inside the square, row by row.
fn piece_pixels(
    a: &App,
    w: u16,
    h: u16,
    sq: Square,
    colour: ratatui::style::Color,
) -> Vec<(u16, u16)> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| view::draw(f, a, Instant::now())).unwrap();
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, w, h))
        .unwrap()
        .board;
    let r = geo.rect_of(sq, a.flipped);
    let buf = term.backend().buffer();
    let mut out = Vec::new();
    for py in 0..r.height * 2 {
        for px in 0..r.width {
            let cell = &buf[(r.x + px, r.y + py / 2)];
            let c = match (cell.symbol(), py % 2) {
                ("▀", 0) => cell.fg,
                _ => cell.bg,
            };
            if c == colour {
                out.push((px, py));
            }
        }
    }
    out
}

#[test]
fn render_pieces_on_their_squares() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/8/8/8/8/R3K2q w - - 0 1"),
            None,
        ),
        t,
    );
    for (w, h) in [(120, 40), (100, 30), (70, 14), (200, 60)] {
        a.update(Msg::Resize(w, h), t);
        let geo = view::layout(ratatui::layout::Rect::new(0, 0, w, h))
            .unwrap()
            .board;
        for flipped in [false, true] {
            a.flipped = flipped;
            let theme = a.theme().clone();
            let expect = [
                (Square::A1, Role::Rook, theme.white_piece),
                (Square::E8, Role::King, theme.black_piece),
                (Square::H1, Role::Queen, theme.black_piece),
            ];
            if let Some((large, sw, sh)) = view::sprite_fit(geo.sq_w, geo.sq_h) {
                for (sq, role, colour) in expect {
                    let drawn = piece_pixels(&a, w, h, sq, colour);
                    let art = view::sprite(role, large);
                    let want: Vec<(u16, u16)> = (0..sh)
                        .flat_map(|y| (0..sw).map(move |x| (x, y)))
                        .filter(|&(x, y)| art[y as usize].as_bytes()[x as usize] == b'#')
                        .collect();
                    let ox = (geo.sq_w - sw) / 2;
                    let oy = ((geo.sq_h - sh / 2) / 2) * 2;
                    let want: Vec<(u16, u16)> =
                        want.into_iter().map(|(x, y)| (x + ox, y + oy)).collect();
                    assert_eq!(
                        drawn, want,
                        "{role:?} on {sq} at {w}x{h}, flipped {flipped}"
                    );
                }
                assert!(piece_pixels(&a, w, h, Square::D4, theme.white_piece).is_empty());
            } else {
                assert_eq!(square_symbol(&a, w, h, Square::A1), "♜");
                assert_eq!(square_symbol(&a, w, h, Square::E8), "♚");
                assert_eq!(square_symbol(&a, w, h, Square::H1), "♛");
                assert_eq!(square_symbol(&a, w, h, Square::D4), " ");
            }
        }
    }
    a.flipped = false;
    a.ascii = true;
    assert_eq!(square_symbol(&a, 120, 40, Square::A1), "R");
    assert_eq!(square_symbol(&a, 120, 40, Square::H1), "q");
    assert_eq!(square_symbol(&a, 120, 40, Square::E8), "k");
    // Coordinates: the left edge shows ranks 8..1 top-down, or 1..8 flipped.
    let s = render(&a, 120, 40);
    let ranks: String = s
        .lines()
        .filter_map(|l| l.chars().next())
        .filter(|c| c.is_ascii_digit())
        .collect();
    assert_eq!(ranks, "87654321");
    a.flipped = true;
    let s = render(&a, 120, 40);
    let ranks: String = s
        .lines()
        .filter_map(|l| l.chars().next())
        .filter(|c| c.is_ascii_digit())
        .collect();
    assert_eq!(ranks, "12345678");
}

#[test]
fn large_board_draws_pieces_with_outlines() {
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), Instant::now());
    let theme = a.theme().clone();
    let outline = theme.white_outline.expect("classic outlines white pieces");
    // The white king on e1: outline pixels surround it, and none touch the
    // black king on e8, which has no outline in this theme.
    assert!(!piece_pixels(&a, 200, 60, Square::E1, outline).is_empty());
    assert!(piece_pixels(&a, 200, 60, Square::E8, outline).is_empty());
    // ASCII mode never draws pixels, even with room for them.
    a.ascii = true;
    assert_eq!(square_symbol(&a, 200, 60, Square::E1), "K");
}

#[test]
fn tiny_terminal_message_and_resizing_never_panic() {
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), Instant::now());
    let s = render(&a, 40, 10);
    assert!(s.contains("Terminal too small"), "{s}");
    assert!(s.contains("58 x 12"), "{s}");
    for w in [1u16, 2, 10, 57, 58, 59, 80, 133, 250] {
        for h in [1u16, 3, 11, 12, 13, 24, 41, 70] {
            a.update(Msg::Resize(w, h), Instant::now());
            let _ = render(&a, w, h);
        }
    }
}

#[test]
fn help_overlay_lists_the_keys() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    key(&mut a, KeyCode::Char('?'), t);
    assert!(matches!(a.overlay, Overlay::Help));
    let s = render(&a, 120, 40);
    for word in ["Flip", "Takeback", "Hint", "Quit"] {
        assert!(
            s.to_lowercase().contains(&word.to_lowercase()),
            "{word} missing:\n{s}"
        );
    }
    key(&mut a, KeyCode::Char('x'), t);
    assert!(matches!(a.overlay, Overlay::None));
}

#[test]
fn theme_cycles_and_is_remembered() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    a.take_effects();
    let first = a.theme().name.clone();
    key(&mut a, KeyCode::Char('t'), t);
    assert_ne!(a.theme().name, first);
    assert!(
        a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::SaveState))
    );
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Carries out Save effects like the runtime does.
fn run_saves(a: &mut App) -> usize {
    let mut n = 0;
    for e in a.take_effects() {
        if let Effect::Save { path, contents } = e {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            crate::util::write_atomic(&path, contents.as_bytes()).unwrap();
            n += 1;
        }
    }
    n
}

#[test]
fn autosave_after_every_move_and_resume() {
    let t = Instant::now();
    let dir = temp_dir("autosave");
    let mut a = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    a.start_game(
        Setup {
            mode: Mode::HumanVsEngine {
                human: Color::Black,
            },
            engine: EngineSpec::BuiltIn { level: 5 },
            time: Some("3+2".parse().unwrap()),
            start: Board::startpos(),
        },
        t,
    );
    let effects = a.take_effects();
    let req = effects
        .iter()
        .rev()
        .find_map(|e| match e {
            Effect::Go(Slot::Opponent, r) => Some((**r).clone()),
            _ => None,
        })
        .unwrap();
    a.effects = effects;
    assert_eq!(run_saves(&mut a), 0, "no file for a game without moves");
    reply(&mut a, &req, "d2d4", t + Duration::from_secs(1));
    assert_eq!(run_saves(&mut a), 1, "saved after the engine's move");
    type_str(&mut a, "d5", t + Duration::from_secs(4));
    let req = take_go(&mut a, Slot::Opponent);
    let mut effects = a.take_effects();
    let _ = &mut effects;
    // (take_go consumed the effects; save again to disk explicitly)
    let path = a.save_path.clone().unwrap();
    std::fs::write(&path, crate::game::write_pgn(&a.game)).unwrap();
    assert!(req.is_some());

    let (found, game) = super::find_unfinished(&dir.join("games"))
        .0
        .expect("unfinished game found");
    assert_eq!(found, path);
    assert_eq!(game.moves().len(), 2);
    let mut b = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    b.resume(game, found, t);
    assert_eq!(
        b.mode,
        Mode::HumanVsEngine {
            human: Color::Black
        }
    );
    assert_eq!(b.spec, EngineSpec::BuiltIn { level: 5 });
    assert_eq!(uci_moves(&b), ["d2d4", "d7d5"]);
    // Clock times come back from the [%clk] comments.
    let c = b.clocks.as_ref().unwrap();
    assert_eq!(c.remaining(Color::White, t), Duration::from_secs(180));
    assert_eq!(c.remaining(Color::Black, t), Duration::from_secs(179));
    // White (the engine) is to move, so the engine is asked.
    assert!(take_go(&mut b, Slot::Opponent).is_some());
    // A finished game is not offered for resuming.
    command_letter(&mut b, 'R', t);
    key(&mut b, KeyCode::Char('y'), t);
    run_saves(&mut b);
    assert!(super::find_unfinished(&dir.join("games")).0.is_none());
    // An unreadable newest file gives a warning, not a crash or a silence.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(dir.join("games").join("zz.pgn"), "1. e4 e5 2. Ke3?? Qxe1 *").unwrap();
    let (none, warning) = super::find_unfinished(&dir.join("games"));
    assert!(none.is_none());
    assert!(warning.is_some_and(|w| w.contains("zz.pgn")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ascii_config_and_unknown_engine_failure() {
    let t = Instant::now();
    let cfg = Config {
        piece_style: PieceStyle::Ascii,
        ..Config::default()
    };
    let mut a = App::new(cfg, theme::builtin(), None);
    assert!(a.ascii);
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    a.take_effects();
    a.update(
        Msg::Engine(
            Slot::Opponent,
            EngineEvent::Failed {
                message: "engine crashed".into(),
            },
        ),
        t,
    );
    assert_eq!(
        a.game.ending.map(|e| e.termination),
        Some(Termination::Abandoned)
    );
    assert!(a.status.unwrap().text.contains("engine crashed"));
}

#[test]
fn vim_keys_move_the_cursor_unless_they_begin_a_typed_move() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    assert_eq!(a.cursor, Square::E2);
    key(&mut a, KeyCode::Char('l'), t);
    assert_eq!(a.cursor, Square::F2);
    key(&mut a, KeyCode::Char('k'), t); // no king move: only the cursor
    assert_eq!(a.cursor, Square::F3);
    key(&mut a, KeyCode::Char('j'), t);
    key(&mut a, KeyCode::Char('h'), t);
    key(&mut a, KeyCode::Char('h'), t);
    assert_eq!(a.cursor, Square::D2);
    assert!(a.input.is_empty());
    // 'h' then '3' is the move h3: the last 'h' no longer moves the cursor.
    type_str(&mut a, "h3", t);
    assert_eq!(uci_moves(&a), ["h2h3"]);
    assert_eq!(a.cursor, Square::D2);

    // A lowercase king move that starts with the cursor letter k.
    let mut b = app();
    b.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
            None,
        ),
        t,
    );
    type_str(&mut b, "kd2", t);
    assert_eq!(uci_moves(&b), ["e1d2"]);
    // Upper-case file letters are commands, not moves: D offers a draw.
    let mut c = app();
    c.start_game(setup(WHITE, None, None), t);
    shift(&mut c, 'D', t);
    assert!(c.input.is_empty());
}

#[test]
fn dialogs_cannot_change_a_finished_game() {
    let t = Instant::now();
    let s = Duration::from_secs;
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, Some("1+0")), t);
    type_str(&mut a, "e4", t);
    command_letter(&mut a, 'R', t + s(1));
    assert!(matches!(a.overlay, Overlay::ConfirmResign));
    a.update(Msg::Tick, t + s(62)); // Black's flag falls meanwhile
    assert!(matches!(a.overlay, Overlay::None), "the dialog closes");
    key(&mut a, KeyCode::Char('y'), t + s(63));
    let e = a.game.ending.unwrap();
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
    let e = a.game.ending.unwrap();
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
        Msg::Engine(
            Slot::Opponent,
            EngineEvent::Failed {
                message: "no such file".into(),
            },
        ),
        t,
    );
    let e = a.game.ending.expect("the game cannot go on");
    assert_eq!(
        (e.result, e.termination),
        (GameResult::WhiteWins, Termination::Abandoned)
    );
    assert!(a.status.as_ref().unwrap().text.contains("no such file"));
    a.start_game(setup(WHITE, None, None), t);
    assert!(
        a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::StartEngine(_))),
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
        Msg::Engine(
            Slot::Opponent,
            EngineEvent::IllegalMove {
                id: req.id,
                text: "e2e4".into(),
            },
        ),
        t,
    );
    let e = a.game.ending.unwrap();
    assert_eq!(
        (e.result, e.termination),
        (GameResult::WhiteWins, Termination::IllegalMove)
    );
    assert!(crate::game::write_pgn(&a.game).contains("[Termination \"rules infraction\"]"));
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
        a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Stop(Slot::Assistant))),
        "the hint search is stopped"
    );
    let d4 = Board::startpos().parse_uci("d2d4").unwrap();
    a.update(
        Msg::Engine(
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
    assert!(a.hint.is_none(), "a late hint is dropped");

    // Asking for a hint does not rename the opponent in the engine panel.
    let mut b = app();
    b.update(
        Msg::Engine(
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
    assert_eq!(b.search.engine, "Stockfish 15");
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
    assert!(a.paused);
    key(&mut a, KeyCode::Char('u'), t + s(31));
    key(&mut a, KeyCode::Char('p'), t + s(300));
    assert!(!a.paused);
    let w = a
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
    assert!(a.destinations(Square::E1).contains(&Square::G1));
    assert!(!a.destinations(Square::E1).contains(&Square::H1));
    type_str(&mut a, "O-O", t);
    let castle = *a.game.moves().last().unwrap();
    assert_eq!(super::app::shown_to(castle), Square::G1);

    let mut b = app();
    b.start_game(setup(WHITE, None, None), t);
    type_str(&mut b, "e4", t);
    let req = take_go(&mut b, Slot::Opponent).unwrap();
    let line = super::player::SearchLine {
        multipv: 50_000_000,
        ..Default::default()
    };
    b.update(
        Msg::Engine(Slot::Opponent, EngineEvent::Info { id: req.id, line }),
        t,
    );
    assert!(b.search.lines.len() <= 8);
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
        let r = geo.rect_of(sq, a.flipped);
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
    assert_eq!(a.selected, Some(Square::E2));
    mouse(&mut a, Square::E2, MouseEventKind::Down(MouseButton::Left));
    mouse(&mut a, Square::E4, MouseEventKind::Up(MouseButton::Left));
    assert_eq!(uci_moves(&a), ["e2e4"]);
    // A second click on a selected piece (press and release) deselects it.
    mouse(&mut a, Square::E7, MouseEventKind::Down(MouseButton::Left));
    mouse(&mut a, Square::E7, MouseEventKind::Up(MouseButton::Left));
    mouse(&mut a, Square::E7, MouseEventKind::Down(MouseButton::Left));
    mouse(&mut a, Square::E7, MouseEventKind::Up(MouseButton::Left));
    assert_eq!(a.selected, None);
}

#[test]
fn resume_prompt_keys() {
    let t = Instant::now();
    let prompt = |a: &mut App| {
        let mut g = crate::game::Game::new(Board::startpos());
        let m = Board::startpos().parse_uci("e2e4").unwrap();
        g.push(m, None);
        a.overlay = Overlay::Resume {
            path: PathBuf::from("/nonexistent/x.pgn"),
            game: Box::new(g),
            summary: "You vs Kibitz level 4, 1 moves".into(),
        };
    };
    let mut a = app();
    prompt(&mut a);
    key(&mut a, KeyCode::Char('x'), t);
    assert!(
        matches!(a.overlay, Overlay::Resume { .. }),
        "stray keys wait"
    );
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    let mut b = app();
    b.launch_setup = Some(setup(
        Mode::HumanVsEngine {
            human: Color::Black,
        },
        None,
        None,
    ));
    prompt(&mut b);
    key(&mut b, KeyCode::Char('n'), t);
    assert!(b.game.moves().is_empty(), "n starts a new game");
    assert_eq!(
        b.mode,
        Mode::HumanVsEngine {
            human: Color::Black
        },
        "as the command line asked"
    );
    let mut c = app();
    prompt(&mut c);
    key(&mut c, KeyCode::Char('q'), t);
    assert!(c.quit);
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
        a.game.moves().is_empty(),
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
    let flipped = a.flipped;
    type_str(&mut a, "fxe5", t);
    assert!(
        a.game.moves().is_empty(),
        "typing the illegal fxe5 played {:?} (flipped {} -> {})",
        uci_moves(&a),
        flipped,
        a.flipped
    );
}

#[test]
fn a_lowercase_queen_move_never_quits() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "qh5", t); // queen on d1 is boxed in
    assert!(!a.quit, "typing the illegal move qh5 quit the app");
}

#[test]
fn a_lowercase_knight_move_never_starts_a_new_game() {
    // The only knight (c3) is pinned by Bb4: "ne4" opens the new-game dialog
    // and Enter starts a new game, abandoning this one.
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
    type_str(&mut a, "e1d1", t); // any move so the game has moves
    type_str(&mut a, "e8d8", t);
    type_str(&mut a, "d1e1", t);
    type_str(&mut a, "d8e8", t);
    assert_eq!(a.game.moves().len(), 4);
    type_str(&mut a, "ne4", t);
    assert_eq!(
        a.game.moves().len(),
        4,
        "the game was replaced by a new one"
    );
    assert!(matches!(a.overlay, Overlay::None));
}

#[test]
fn random_keys_mouse_engine_replies_and_sizes_never_panic() {
    use crate::util::Rng;
    let mut rng = Rng::new(
        std::env::var("SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(12345),
    );
    let keys: Vec<KeyCode> = "abcdefghjklnpqrtuxyNBRQKOHDCo0123456789=-+ ?"
        .chars()
        .map(KeyCode::Char)
        .chain([
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Backspace,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Tab,
            KeyCode::PageUp,
            KeyCode::PageDown,
        ])
        .collect();
    let modes = [
        WHITE,
        Mode::HumanVsEngine {
            human: Color::Black,
        },
        Mode::HumanVsHuman,
        Mode::EngineVsEngine,
    ];
    let fens = [
        None,
        Some("8/PPP1k3/8/8/8/8/3K1ppp/8 w - - 0 1"),
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        Some("7k/8/8/8/8/8/8/K5R1 w - - 99 80"),
    ];
    for game in 0..80 {
        let t0 = Instant::now();
        let mut now = t0;
        let mut a = app();
        let mode = modes[game % 4];
        let time = if game % 3 == 0 { Some("0.1+0") } else { None };
        a.start_game(setup(mode, fens[(game / 4) % 4], time), now);
        let mut req: Option<Request> = None;
        for _ in 0..400 {
            now += Duration::from_millis(rng.below(300) as u64);
            for e in a.take_effects() {
                if let Effect::Go(Slot::Opponent, r) = e {
                    req = Some(*r);
                }
            }
            match rng.below(10) {
                0..=5 => {
                    let k = keys[rng.below(keys.len())];
                    let m = match k {
                        KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
                        _ => KeyModifiers::NONE,
                    };
                    if k == KeyCode::Char('q') {
                        continue;
                    }
                    a.update(Msg::Key(KeyEvent::new(k, m)), now);
                }
                6 => {
                    if let Some(r) = req.take() {
                        let mut b = r.start.clone();
                        for &m in &r.moves {
                            b = b.play(m);
                        }
                        let legal = shakmaty::Position::legal_moves(b.chess());
                        if !legal.is_empty() {
                            let m = legal[rng.below(legal.len())];
                            reply(&mut a, &r, &Board::uci(m), now);
                        }
                    }
                }
                7 => {
                    let w = 20 + rng.below(200) as u16;
                    let h = 5 + rng.below(80) as u16;
                    a.update(Msg::Resize(w, h), now);
                    let _ = render(&a, w, h);
                }
                8 => {
                    let (w, h) = a.size;
                    let col = rng.below(w as usize + 5) as u16;
                    let row = rng.below(h as usize + 5) as u16;
                    let kind = match rng.below(4) {
                        0 => MouseEventKind::Down(MouseButton::Left),
                        1 => MouseEventKind::Up(MouseButton::Left),
                        2 => MouseEventKind::ScrollUp,
                        _ => MouseEventKind::Down(MouseButton::Right),
                    };
                    a.update(
                        Msg::Mouse(MouseEvent {
                            kind,
                            column: col,
                            row,
                            modifiers: KeyModifiers::NONE,
                        }),
                        now,
                    );
                }
                _ => a.update(Msg::Tick, now),
            }
            if a.quit {
                break;
            }
        }
        let _ = render(&a, 120, 40);
    }
}

#[test]
fn taking_back_to_the_start_is_saved() {
    let t = Instant::now();
    let dir = temp_dir("takeback-start");
    let mut a = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    reply(&mut a, &req, "e7e5", t);
    run_saves(&mut a);
    key(&mut a, KeyCode::Char('u'), t);
    assert!(a.game.moves().is_empty());
    run_saves(&mut a);
    let on_disk = std::fs::read_to_string(a.save_path.clone().unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !on_disk.contains("e4"),
        "the file still holds the taken-back moves:\n{on_disk}"
    );
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
        Msg::Engine(
            Slot::Opponent,
            EngineEvent::Failed {
                message: "crashed".into(),
            },
        ),
        t,
    );
    assert!(a.is_over());
    key(&mut a, KeyCode::Char('u'), t); // takes back d4: the game is on again
    assert!(!a.is_over(), "takeback revived an abandoned game");
    type_str(&mut a, "d4", t);
    let fx = a.take_effects();
    let go = fx
        .iter()
        .any(|e| matches!(e, Effect::Go(Slot::Opponent, _)));
    let start = fx.iter().any(|e| matches!(e, Effect::StartEngine(_)));
    assert!(
        !go || start,
        "a search is sent to the dead engine and never answered"
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
        let r = geo.rect_of(sq, a.flipped);
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
    assert_eq!(uci_moves(&a), ["e1d1", "e6e5"], "input {:?}", a.input);
}
