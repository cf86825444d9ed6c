//! Terminal UI benchmark: drawing one full frame (`cargo bench --bench
//! render`). Target: a 160 x 50 frame in well under 1 ms, so drawing never
//! holds up keys, clocks or engine messages.

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::engine::Board;
use kibitz::ui::app::{App, Mode, Msg, Setup};
use kibitz::ui::config::Config;
use kibitz::ui::player::EngineSpec;
use kibitz::ui::{theme, view};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::hint::black_box;
use std::time::Instant;

/// A middlegame with moves in the list, a selected piece and a clock.
fn app() -> App {
    let now = Instant::now();
    let mut a = App::new(Config::default(), theme::builtin(), None);
    a.start_game(
        Setup {
            mode: Mode::HumanVsHuman,
            engine: EngineSpec::BuiltIn { level: 4 },
            time: "5+3".parse().ok(),
            start: Board::startpos(),
        },
        now,
    );
    for m in [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
        "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
    ] {
        for c in m.chars() {
            a.update(
                Msg::Key(crossterm::event::KeyEvent::new(
                    crossterm::event::KeyCode::Char(c),
                    crossterm::event::KeyModifiers::NONE,
                )),
                now,
            );
        }
        a.update(
            Msg::Key(crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Enter,
                crossterm::event::KeyModifiers::NONE,
            )),
            now,
        );
    }
    a
}

fn render(c: &mut Criterion) {
    let a = app();
    assert_eq!(a.game.moves().len(), 20, "the setup moves were all played");
    let now = Instant::now();
    for (w, h) in [(160u16, 50u16), (80, 24)] {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        c.bench_function(&format!("render {w}x{h}"), |b| {
            b.iter(|| {
                buf.reset();
                view::draw_to(&mut buf, area, black_box(&a), now);
            })
        });
    }
}

criterion_group!(benches, render);
criterion_main!(benches);
