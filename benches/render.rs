//! Terminal UI benchmarks (`cargo bench --bench render`): drawing one full
//! frame (target: a 160 x 50 frame in well under 1 ms), the tree explorer
//! on a 200,000-node tree (well under a 16 ms frame), and recording a
//! depth-4 search tree (target: under 200 ms); the replay screen with an
//! annotated game (well under 1 ms); the Bughouse screen with two boards,
//! pockets, four clocks, the moves and messages (under 1 ms at 160 x 50).

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::engine::Board;
use kibitz::ui::app::{App, Mode, Msg, Setup};
use kibitz::ui::config::Config;
use kibitz::ui::player::EngineSpec;
use kibitz::ui::theme;
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
    assert_eq!(
        a.chess().game.moves().len(),
        20,
        "the setup moves were all played"
    );
    let now = Instant::now();
    for (w, h) in [(160u16, 50u16), (80, 24)] {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        c.bench_function(&format!("render {w}x{h}"), |b| {
            b.iter(|| {
                buf.reset();
                kibitz::ui::app::draw_to(&mut buf, area, black_box(&a), now);
            })
        });
    }
}

criterion_group!(benches, render, replay, bughouse, explorer, record_tree);
criterion_main!(benches);

/// The replay screen on the annotated Opera game (comments, nested
/// variations, the move list laid out every frame), at its last move.
fn replay(c: &mut Criterion) {
    use kibitz::game::library::Library;
    use kibitz::ui::screens::chess::replay::Replay;
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/opera-annotated.pgn"
    ))
    .expect("the sample game");
    let mut lib = Library::from_text("opera-annotated.pgn".into(), text, &mut |_| {});
    let parsed = lib.load(0).expect("the sample reads");
    let now = Instant::now();
    let mut a = App::new(Config::default(), theme::builtin(), None);
    let mut r = Replay::new(lib, None, 0, parsed);
    r.cursor = *r.tree().main_line().last().expect("moves");
    a.enter_replay(r, now);
    for (w, h) in [(160u16, 50u16), (80, 24)] {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        c.bench_function(&format!("replay {w}x{h}"), |b| {
            b.iter(|| {
                buf.reset();
                kibitz::ui::app::draw_to(&mut buf, area, black_box(&a), now);
            })
        });
    }
}

/// The Bughouse screen on the sample game, at its last move (both boards
/// with pieces in hand, the whole move list, the partners' messages).
fn bughouse(c: &mut Criterion) {
    use kibitz::ui::screens::house::HouseReplay;
    use kibitz::ui::screens::house::file::{self, Kind};
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/bughouse-sample.bpgn"
    ));
    let games = file::read(path, Kind::Bughouse).expect("the sample game");
    let now = Instant::now();
    let mut a = App::new(Config::default(), theme::builtin(), None);
    let mut h = HouseReplay::new(None, games, 0);
    h.go(usize::MAX, now);
    a.show_house(h, now);
    for (w, h) in [(160u16, 50u16), (120, 40), (80, 24)] {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        c.bench_function(&format!("bughouse {w}x{h}"), |b| {
            b.iter(|| {
                buf.reset();
                kibitz::ui::app::draw_to(&mut buf, area, black_box(&a), now);
            })
        });
    }
}

/// The tree explorer on a tree of 200,000 recorded nodes: drawing must stay
/// far below a frame (16 ms) in every mode, wherever the user is.
fn explorer(c: &mut Criterion) {
    use kibitz::engine::tree::{self, DEFAULT_NODE_CAP};
    use kibitz::engine::{EngineOptions, Features, GamePosition};
    use kibitz::ui::screens::explorer::Explorer;
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos = GamePosition::new(Board::from_fen(fen).unwrap());
    // Without the selective ideas the tree outgrows the cap quickly.
    let depth = 6;
    let features = Features {
        pruning: false,
        null_move: false,
        late_move_reductions: false,
        ..Features::default()
    };
    let rec = tree::record(
        &pos,
        depth,
        features,
        EngineOptions::default(),
        DEFAULT_NODE_CAP,
    );
    assert_eq!(rec.tree.nodes.len(), DEFAULT_NODE_CAP, "a full tree");
    let mut a = App::new(Config::default(), theme::builtin(), None);
    let mut ex = Explorer::new(pos.clone(), depth, features, DEFAULT_NODE_CAP);
    let Some(kibitz::ui::screens::explorer::Request::Record { id, .. }) = Some(ex.start(1)) else {
        unreachable!()
    };
    let _ = ex.recorded(id, rec, &mut 1);
    a.show_explorer(ex, Instant::now());
    let area = Rect::new(0, 0, 160, 50);
    let mut buf = Buffer::empty(area);
    let now = Instant::now();
    c.bench_function("explorer 200k nodes: browse the root", |b| {
        b.iter(|| {
            buf.reset();
            kibitz::ui::app::draw_to(&mut buf, area, black_box(&a), now);
        })
    });
    let steps = a.explorer().unwrap().tree().unwrap().steps.len();
    for (name, step) in [("last step", steps - 1), ("middle step", steps / 2)] {
        if let Some(ex) = a.explorer_mut() {
            ex.mode = kibitz::ui::screens::explorer::Mode::Step;
            ex.step = step;
        }
        c.bench_function(&format!("explorer 200k nodes: {name}"), |b| {
            b.iter(|| {
                buf.reset();
                kibitz::ui::app::draw_to(&mut buf, area, black_box(&a), now);
            })
        });
    }
}

fn record_tree(c: &mut Criterion) {
    use kibitz::engine::tree;
    use kibitz::engine::{EngineOptions, Features, GamePosition};
    let pos = GamePosition::default();
    let mut g = c.benchmark_group("tree");
    g.sample_size(20);
    g.bench_function("record depth 4, start position", |b| {
        b.iter(|| {
            tree::record(
                black_box(&pos),
                4,
                Features::default(),
                EngineOptions::default(),
                tree::DEFAULT_NODE_CAP,
            )
            .tree
            .nodes
            .len()
        })
    });
    g.finish();
}
