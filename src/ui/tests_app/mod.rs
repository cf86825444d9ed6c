//! State-machine tests (keys, mouse, engine messages, injected time) and
//! render tests on ratatui's `TestBackend`.

mod analysis;
mod broken_engine;
mod drill;
mod games;
mod house;
mod house_live;
mod house_resume;
mod house_tools;
mod house_view;
mod input;
mod keymap;
mod lessons;
mod new_game;
mod new_user;
mod opening_explorer;
mod openings;
mod render;
mod replay;
mod replay_review;
mod saving;
mod screens;
mod seams;
mod trainer;

use super::config::{Config, PieceStyle, TimeControl};
use super::keymap::Action;
use super::{theme, view};
use crate::engine::{Board, Score};
use crate::game::{GameResult, Termination};
use crate::ui::app::{App, Effect, FileRead, Mode, Msg, Overlay, Setup};
use crate::ui::engines::{APP_TABLE, ASSISTANT, EngineJob};
use crate::ui::player::{EngineEvent, EngineSpec, Purpose, Request};
use crate::ui::screens::chess::drill::Drill;
use crate::ui::screens::chess::game::TrainerGame;
use crate::ui::screens::chess::replay::Replay;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::{Color, Role, Square};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// An app whose engines answer at once (the pacing has its own tests).
fn app() -> App {
    let config = Config {
        engine_pace: crate::ui::pace::Pace::Fast,
        ..Config::default()
    };
    let mut a = App::new(config, theme::builtin(), None);
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
/// Presses the first key bound to `act`, and checks that it ran at once.
fn command(a: &mut App, act: Action, now: Instant) {
    let name = a.ui.keys.keys_for(act).first().cloned().expect("a key");
    let ev = crate::ui::keymap::key_event(&name).expect("a key name");
    a.ui.last_action = None;
    a.update(Msg::Key(ev), now);
    assert_eq!(a.ui.last_action, Some(act), "'{name}' runs {act:?} at once");
    assert!(
        !a.chess().move_box_shown(),
        "'{name}' does not open the move box"
    );
}
fn uci_moves(a: &App) -> Vec<String> {
    a.chess()
        .game
        .moves()
        .iter()
        .map(|&m| Board::uci(m))
        .collect()
}
/// Which engine a chess test talks to: the top chess game's opponent, or
/// the app's assistant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Opponent,
    Assistant,
}

fn slot_of(table: u64, seat: usize) -> Slot {
    if table == APP_TABLE && seat == ASSISTANT {
        Slot::Assistant
    } else {
        Slot::Opponent
    }
}

/// A chess search among the effects: the engine asked, and the request.
fn go_in(e: &Effect) -> Option<(Slot, Request)> {
    match e {
        Effect::Engine {
            table,
            job: EngineJob::Go { seat, go },
        } => Some((slot_of(*table, *seat), go.request().ok()?)),
        _ => None,
    }
}

fn is_go(e: &Effect, slot: Slot) -> bool {
    go_in(e).is_some_and(|(s, _)| s == slot)
}

fn is_stop(e: &Effect, slot: Slot) -> bool {
    matches!(e, Effect::Engine { table, job: EngineJob::Stop { seat } } if slot_of(*table, *seat) == slot)
}

/// A game's engine starts (not the app's assistant).
fn is_start(e: &Effect) -> bool {
    matches!(e, Effect::Engine { table, job: EngineJob::Start { .. } } if *table != APP_TABLE)
}

/// The latest engine request in the effects (clears them).
fn take_go(a: &mut App, slot: Slot) -> Option<Request> {
    a.take_effects()
        .iter()
        .rev()
        .filter_map(go_in)
        .find_map(|(s, r)| (s == slot).then_some(r))
}

/// What the engine of `slot` says to the top chess game: the opponent at
/// the seat of its search (or of the side it plays), the assistant at the
/// app's table.
fn assistant_said(e: EngineEvent) -> Msg {
    Msg::Engine {
        table: APP_TABLE,
        seat: ASSISTANT,
        report: crate::ui::player::Report::Event(e),
    }
}

fn said(a: &App, slot: Slot, e: EngineEvent) -> Msg {
    let g = a.chess();
    let (table, seat) = match slot {
        Slot::Assistant => (APP_TABLE, ASSISTANT),
        Slot::Opponent => {
            let seat = g
                .pending
                .iter()
                .find(|p| p.0 != ASSISTANT)
                .map(|p| p.0)
                .or_else(|| g.mode.engine_seats().first().copied())
                .unwrap_or(1);
            (g.opponent.table, seat)
        }
    };
    Msg::Engine {
        table,
        seat,
        report: crate::ui::player::Report::Event(e),
    }
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
        said(
            a,
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
fn render(a: &App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| crate::ui::app::draw(f, a, Instant::now()))
        .unwrap();
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
    term.draw(|f| crate::ui::app::draw(f, a, Instant::now()))
        .unwrap();
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, w, h))
        .unwrap()
        .board;
    let r = geo.rect_of(sq, a.ui.look.flipped);
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
    term.draw(|f| crate::ui::app::draw(f, a, Instant::now()))
        .unwrap();
    let geo = view::layout(ratatui::layout::Rect::new(0, 0, w, h))
        .unwrap()
        .board;
    let r = geo.rect_of(sq, a.ui.look.flipped);
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
