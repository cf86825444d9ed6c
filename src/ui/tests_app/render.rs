//! Render tests on ratatui's `TestBackend`: pieces on their squares, sizes, themes, overlays; random input never panics.

use super::*;

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
            a.ui.look.flipped = flipped;
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
    a.ui.look.flipped = false;
    a.ui.look.ascii = true;
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
    a.ui.look.flipped = true;
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
    a.ui.look.ascii = true;
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
    assert!(matches!(a.ui.overlay, Overlay::Help { .. }));
    let s = render(&a, 120, 40);
    for word in ["Flip", "Take back", "Hint", "Quit", "Endgame trainer"] {
        assert!(
            s.to_lowercase().contains(&word.to_lowercase()),
            "{word} missing:\n{s}"
        );
    }
    key(&mut a, KeyCode::Char('x'), t);
    assert!(matches!(a.ui.overlay, Overlay::None));
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
                if let Some((Slot::Opponent, r)) = go_in(&e) {
                    req = Some(r);
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
                    let (w, h) = a.ui.size;
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
            if a.ui.quit {
                break;
            }
        }
        let _ = render(&a, 120, 40);
    }
}

#[test]
fn plain_mode_draws_every_screen_in_ascii() {
    // A locale that is not UTF-8: nothing but ASCII reaches the terminal,
    // on the play screen and over its overlays.
    let t = Instant::now();
    let mut a = app();
    a.ui.look.plain = true;
    a.ui.look.ascii = true;
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    for overlay in [None, Some(Action::Help), Some(Action::EvalBreakdown)] {
        if let Some(o) = overlay {
            command(&mut a, o, t);
        }
        let text = render(&a, 100, 32);
        let odd: String = text.chars().filter(|c| !c.is_ascii()).collect();
        assert!(odd.is_empty(), "{overlay:?}: {odd:?}\n{text}");
        assert!(text.contains("+-"), "frames drawn with + and -\n{text}");
        a.ui.overlay = Overlay::None;
    }
    // Without plain mode the same screen has its figurines and frames.
    a.ui.look.plain = false;
    a.ui.look.ascii = false;
    assert!(!render(&a, 100, 32).is_ascii());
}

#[test]
fn a_resize_storm_down_to_one_cell_never_panics() {
    // Hundreds of sizes in a row, as a window being dragged (or a tiling
    // manager) sends them, from 1x1 up, on every kind of screen and
    // overlay; each is drawn at once.
    let t = Instant::now();
    let mut rng = crate::util::Rng::new(30);
    let mut screens: Vec<(&str, App)> = Vec::new();
    let mut play = app();
    play.start_game(setup(WHITE, None, Some("5+0")), t);
    type_str(&mut play, "e4", t);
    screens.push(("play", play));
    let mut help = app();
    help.start_game(setup(WHITE, None, None), t);
    command(&mut help, Action::Help, t);
    screens.push(("help", help));
    let mut dialog = app();
    dialog.start_game(setup(WHITE, None, None), t);
    command(&mut dialog, Action::NewGame, t);
    screens.push(("new game dialog", dialog));
    let mut save = app();
    save.start_game(setup(WHITE, None, None), t);
    command(&mut save, Action::SaveAs, t);
    screens.push(("save as", save));
    screens.push(("crazyhouse", super::house_live::crazyhouse(t)));
    let mut explorer = app();
    explorer.start_game(setup(WHITE, None, None), t);
    command(&mut explorer, Action::Explore, t);
    screens.push(("explorer", explorer));
    let mut trainer = app();
    trainer.open_trainer_menu(t);
    screens.push(("trainer menu", trainer));
    for (name, a) in &mut screens {
        let mut sizes: Vec<(u16, u16)> = (1..=12)
            .flat_map(|w| (1..=6).map(move |h| (w, h)))
            .collect();
        for _ in 0..300 {
            sizes.push((1 + rng.below(260) as u16, 1 + rng.below(90) as u16));
        }
        for (w, h) in sizes {
            a.update(Msg::Resize(w, h), t);
            let area = ratatui::layout::Rect::new(0, 0, w, h);
            let mut buf = ratatui::buffer::Buffer::empty(area);
            let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crate::ui::app::draw_to(&mut buf, area, a, t)
            }));
            assert!(drawn.is_ok(), "{name} at {w}x{h}");
        }
        // And it still works at a usual size.
        a.update(Msg::Resize(100, 32), t);
        assert!(!render(a, 100, 32).trim().is_empty(), "{name}");
    }
}

/// Every footer keeps its help and quit keys (and a replay's way back) at
/// any width; the other keys go from the end (issue 50: at 80 columns the
/// replay lost `? help` and `q quit`, the Bughouse game `q quit`).
#[test]
fn every_footer_keeps_help_and_quit() {
    let t = Instant::now();
    let mut game = app();
    game.start_game(setup(WHITE, None, None), t);
    let replay = super::replay::replaying(super::replay::OPERA, None, t);
    let house = super::house_live::bughouse(t);
    let mut house_replay = app();
    let games = crate::ui::screens::house::file::read(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/bughouse-sample.bpgn"),
        crate::ui::screens::house::file::Kind::Bughouse,
    )
    .expect("the sample");
    house_replay.show_house(
        crate::ui::screens::house::HouseReplay::new(None, games, 0),
        t,
    );
    let screens = [
        ("game", &game, false),
        ("replay", &replay, true),
        ("bughouse", &house, false),
        ("bughouse file", &house_replay, true),
    ];
    // A game being played keeps its new-game key too.
    for a in [&game, &house] {
        for (w, h) in [(80, 24), (160, 50)] {
            let screen = render(a, w, h);
            let footer = screen.lines().last().unwrap_or_default();
            assert!(footer.contains("n new"), "{w}x{h}: {footer}");
        }
    }
    for (name, a, back) in screens {
        for (w, h) in [(80, 24), (100, 30), (120, 40), (160, 50)] {
            let screen = render(a, w, h);
            let footer = screen.lines().last().unwrap_or_default();
            assert!(
                footer.contains("? help") && footer.contains("q quit"),
                "{name} at {w}x{h}: {footer}"
            );
            if back {
                assert!(footer.contains("Esc back"), "{name} at {w}x{h}: {footer}");
            }
            // Whole words: nothing cut at the edge.
            assert!(!footer.trim_end().ends_with("Esc b"), "{name}: {footer}");
        }
    }
}

/// The explorer at 80x24 and 160x50: a row per move searched (at 80
/// columns without the window, which the details show), its verdict line
/// whole, and the help and back keys in the footer (issue 50: at 80x24
/// every row wrapped onto two lines and the footer was cut).
#[test]
fn the_explorer_fits_a_row_per_move_at_80_columns() {
    use crate::engine::tree::{DEFAULT_NODE_CAP, record};
    use crate::ui::screens::explorer::{Explorer, Request, Verdict};
    let t = Instant::now();
    let board =
        Board::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
            .unwrap();
    let nc3 = board.parse_uci("b1c3").unwrap();
    let pos = crate::engine::GamePosition::new(board);
    let mut ex = Explorer::new(pos.clone(), 4, Default::default(), DEFAULT_NODE_CAP);
    ex.verdict = Some(Verdict::new(
        "the review",
        nc3,
        crate::engine::Score(25),
        12,
    ));
    let Request::Record { id, features, .. } = ex.start(1) else {
        panic!("a recording")
    };
    let rec = record(&pos, 4, features, Default::default(), DEFAULT_NODE_CAP);
    assert!(
        ex.recorded(id, rec, &mut 1).is_none(),
        "it agrees at depth 4"
    );
    let mut a = app();
    a.show_explorer(ex, t);
    for (w, h) in [(80, 24), (160, 50)] {
        let screen = render(&a, w, h);
        let rows: Vec<&str> = screen.lines().collect();
        let first = rows
            .iter()
            .find(|l| l.contains("  1. Nc3"))
            .unwrap_or_else(|| panic!("{w}x{h}: no row for Nc3\n{screen}"));
        assert!(
            first.contains("exact PV") || first.contains("exact  PV"),
            "{w}x{h}: {first}"
        );
        let second = rows
            .iter()
            .find(|l| l.contains("  2. "))
            .expect("a second move");
        assert!(
            second.contains("upper") || second.contains("lower"),
            "{w}x{h}: {second}"
        );
        let joined = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            joined.contains("Depth 4 agrees with the review: Nc3 +0.")
                && joined.contains("(+0.25 at depth 12)."),
            "{w}x{h}:\n{screen}"
        );
        let footer = rows.last().copied().unwrap_or_default();
        assert!(
            footer.contains("? help") && footer.contains("q back"),
            "{w}x{h}: {footer}"
        );
    }
}
