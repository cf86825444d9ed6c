//! Watching the engine think: the search panel, the eval bar and graph,
//! analysis mode and the evaluation breakdown.

use super::*;
use crate::engine::{Bound, SearchStats, eval};
use crate::ui::app::AnalysisMode;
use crate::ui::player::{Progress, SearchLine};

fn info(a: &mut App, slot: Slot, req: &Request, depth: u32, cp: i32, pv: &[&str], now: Instant) {
    let mut b = req.start.clone();
    for &m in &req.moves {
        b = b.play(m);
    }
    let mut moves = Vec::new();
    for u in pv {
        let m = b.parse_uci(u).unwrap();
        b = b.play(m);
        moves.push(m);
    }
    a.update(
        said(
            a,
            slot,
            EngineEvent::Info {
                id: req.id,
                line: SearchLine {
                    depth,
                    seldepth: depth + 2,
                    multipv: 1,
                    score: Some(Score(cp)),
                    bound: Some(Bound::Exact),
                    nodes: 1000 * u64::from(depth),
                    nps: 1_000_000,
                    time: Duration::from_millis(u64::from(depth)),
                    pv: moves,
                    hashfull: Some(10),
                    stats: Some(SearchStats {
                        nodes: 1000,
                        tt_probes: 100,
                        tt_hits: 40,
                        beta_cutoffs: 50,
                        first_move_cutoffs: 45,
                        ..SearchStats::default()
                    }),
                },
            },
        ),
        now,
    );
}

#[test]
fn search_panel_rows_progress_and_white_view() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    // The engine (Black) thinks Black is worse by 0.35.
    info(&mut a, Slot::Opponent, &req, 1, -35, &["e7e5"], t);
    info(&mut a, Slot::Opponent, &req, 2, -20, &["e7e5", "g1f3"], t);
    let e5 = Board::startpos()
        .play(req.moves[0])
        .parse_uci("e7e5")
        .unwrap();
    a.update(
        said(
            &a,
            Slot::Opponent,
            EngineEvent::Progress {
                id: req.id,
                progress: Progress {
                    depth: 3,
                    mv: e5,
                    number: 4,
                    count: 20,
                },
            },
        ),
        t,
    );
    let s = render(&a, 160, 50);
    assert!(s.contains("thinking: depth 3, move 4 of 20: e5"), "{s}");
    assert!(
        s.contains("1st%") && s.contains("tt%"),
        "stats columns: {s}"
    );
    assert!(
        s.contains("90%") && s.contains("40%"),
        "1st-move and TT rates: {s}"
    );
    // White's view by default: Black's -0.20 is +0.20 for White.
    assert!(s.contains("+0.20") && s.contains("+0.35"), "{s}");
    assert!(s.contains("1... e5 2. Nf3"), "PV in SAN: {s}");
    key(&mut a, KeyCode::Char('w'), t);
    assert!(!a.ui.look.white_view);
    let s = render(&a, 160, 50);
    assert!(s.contains("-0.20") && s.contains("-0.35"), "{s}");
    // The eval is remembered for the position after 1. e4, White's view.
    assert_eq!(a.chess().evals.get(1).copied().flatten(), Some(Score(20)));
    assert_eq!(a.chess().current_eval(), Some(Score(20)));
}

#[test]
fn eval_bar_and_graph_follow_the_game() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    // Black is lost: +9 for White.
    info(&mut a, Slot::Opponent, &req, 5, -900, &["e7e5"], t);
    let e5 = Board::startpos()
        .play(req.moves[0])
        .parse_uci("e7e5")
        .unwrap();
    a.update(
        said(
            &a,
            Slot::Opponent,
            EngineEvent::Done {
                id: req.id,
                purpose: Purpose::Move,
                best: Some(e5),
                score: Some(Score(-900)),
                pv: vec![e5],
            },
        ),
        t,
    );
    assert_eq!(a.chess().evals.get(1).copied().flatten(), Some(Score(900)));
    let area = ratatui::layout::Rect::new(0, 0, 160, 50);
    let l = view::layout(area).unwrap();
    let bar = l.eval_bar.expect("room for the eval bar");
    let mut buf = ratatui::buffer::Buffer::empty(area);
    crate::ui::app::draw_to(&mut buf, area, &a, t);
    // Mostly White's colour from the bottom (White's side) up.
    let white_cells = (bar.y..bar.y + bar.height)
        .filter(|&y| buf[(bar.x, y)].bg == ratatui::style::Color::Rgb(236, 236, 236))
        .count();
    assert!(
        white_cells as u16 >= bar.height * 8 / 10,
        "{white_cells} of {}",
        bar.height
    );
    // Its number with its sign, as the panel writes it (the sign in the
    // gap beside the bar).
    let mid = bar.y + bar.height / 2;
    let label: String = (bar.x - 1..bar.x + bar.width)
        .map(|x| buf[(x, mid)].symbol().to_string())
        .collect();
    assert_eq!(label, "+9.0");
    let s = render(&a, 160, 50);
    assert!(s.contains("Evaluation (White's view)"), "{s}");
    // Taking the moves back forgets their evaluations.
    key(&mut a, KeyCode::Char('u'), t);
    assert!(a.chess().evals.len() <= 1);
}

/// The best lines of a MultiPV analysis: the depth said once, in words,
/// over them (not "d7" beside a line, which reads like a move), and a line
/// still at a shallower depth saying so.
#[test]
fn best_lines_say_their_depth_in_words() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    command(&mut a, Action::Analyse, t);
    let req = take_go(&mut a, Slot::Assistant).expect("analysis starts");
    let e4 = Board::startpos().parse_uci("e2e4").unwrap();
    let d4 = Board::startpos().parse_uci("d2d4").unwrap();
    for (multipv, depth, mv) in [(1, 7, e4), (2, 6, d4)] {
        let line = SearchLine {
            depth,
            multipv,
            score: Some(Score(30)),
            bound: Some(Bound::Exact),
            pv: vec![mv],
            ..SearchLine::default()
        };
        a.update(
            said(&a, Slot::Assistant, EngineEvent::Info { id: req.id, line }),
            t,
        );
    }
    for (w, h) in [(80, 24), (160, 50)] {
        let s = render(&a, w, h);
        assert!(s.contains("best lines, depth 7"), "{s}");
        assert!(s.contains(" 1.  +0.30  1. e4"), "{s}");
        assert!(s.contains(" 2.  +0.30 (depth 6)  1. d4"), "{s}");
        assert!(!s.contains(" d7 ") && !s.contains(" d6 "), "{s}");
    }
}

#[test]
fn analysis_mode_follows_the_position() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    a.take_effects();
    command(&mut a, Action::Analyse, t);
    assert_eq!(a.chess().analysis.mode, Some(AnalysisMode { lines: 3 }));
    let req = take_go(&mut a, Slot::Assistant).expect("analysis starts");
    assert_eq!(req.purpose, Purpose::Analysis);
    assert_eq!(req.multipv, 3);
    assert!(req.limits.infinite);
    assert!(req.moves.is_empty());
    key(&mut a, KeyCode::Char('+'), t);
    let fx = a.take_effects();
    assert!(fx.iter().any(|e| is_stop(e, Slot::Assistant)));
    let req = fx
        .iter()
        .filter_map(go_in)
        .find_map(|(s, r)| (s == Slot::Assistant).then_some(r))
        .expect("restarted with four lines");
    assert_eq!(req.multipv, 4);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Assistant).expect("analysis of the new position");
    assert_eq!(req.moves.len(), 1);
    // A hint while analysing is the analysis' best move.
    info(&mut a, Slot::Assistant, &req, 10, 25, &["c7c5"], t);
    shift(&mut a, 'H', t);
    assert!(
        a.ui.status.as_ref().unwrap().text.contains("Hint: c5"),
        "{:?}",
        a.ui.status
    );
    command(&mut a, Action::Analyse, t);
    assert_eq!(a.chess().analysis.mode, None);
    assert!(a.take_effects().iter().any(|e| is_stop(e, Slot::Assistant)));

    // Against the engine, analysis waits while the engine thinks.
    let mut b = app();
    b.start_game(setup(WHITE, None, None), t);
    command(&mut b, Action::Analyse, t);
    b.take_effects();
    type_str(&mut b, "e4", t);
    let fx = b.take_effects();
    assert!(fx.iter().any(|e| is_go(e, Slot::Opponent)));
    assert!(!fx.iter().any(|e| is_go(e, Slot::Assistant)));
}

#[test]
fn eval_breakdown_shows_the_engines_numbers() {
    let t = Instant::now();
    let mut a = app();
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    a.start_game(setup(Mode::HumanVsHuman, Some(fen), None), t);
    key(&mut a, KeyCode::Char('i'), t);
    assert!(matches!(a.ui.overlay, Overlay::Eval { .. }));
    let s = render(&a, 160, 50);
    assert!(
        s.contains("Full evaluation") && s.contains("Simple evaluation"),
        "{s}"
    );
    let board = Board::from_fen(fen).unwrap();
    let full = eval::trace(board.chess(), crate::engine::EvalKind::Full);
    let simple = eval::trace(board.chess(), crate::engine::EvalKind::Simple);
    assert!(
        s.contains(&format!("total: {:+} for White", full.white)),
        "{s}"
    );
    assert!(
        s.contains(&format!("total: {:+} for White", simple.white)),
        "{s}"
    );
    // The per-term totals shown are the engine's, and add up.
    let sum: i32 = full.terms.iter().map(|t| t.net()).sum();
    assert_eq!(sum, full.white);
    // Narrow terminal: one table, Tab switches.
    let s = render(&a, 90, 40);
    assert!(s.contains("Full evaluation") && !s.contains("Simple evaluation"));
    key(&mut a, KeyCode::Tab, t);
    let s = render(&a, 90, 40);
    assert!(s.contains("Simple evaluation"));
    key(&mut a, KeyCode::Esc, t);
    assert!(matches!(a.ui.overlay, Overlay::None));
}

/// Against a built-in level 1-7 the full table explains that level's own
/// weights (the ones it was calibrated with); at level 8 the tuned ones.
#[test]
fn eval_breakdown_follows_the_opponents_weights() {
    let t = Instant::now();
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let board = Board::from_fen(fen).unwrap();
    let tuned = eval::trace(board.chess(), crate::engine::EvalKind::Full);
    let levels = eval::trace_with(
        board.chess(),
        crate::engine::EvalKind::Full,
        eval::WeightSet::Levels,
    );
    assert_ne!(tuned.white, levels.white, "the two sets must differ here");
    for (level, want, title) in [
        (3, levels.white, "Full evaluation (level 3's weights"),
        (8, tuned.white, "Full evaluation (tuned"),
    ] {
        let mut a = app();
        let mut s = setup(WHITE, Some(fen), None);
        s.engine = EngineSpec::BuiltIn { level };
        a.start_game(s, t);
        a.take_effects();
        key(&mut a, KeyCode::Char('i'), t);
        let s = render(&a, 160, 50);
        assert!(s.contains(title), "level {level}: {s}");
        assert!(
            s.contains(&format!("total: {:+} for White", want)),
            "level {level}: {s}"
        );
    }
}

#[test]
fn the_explorer_opens_on_the_board_position_and_closes() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    type_str(&mut a, "e4", t);
    a.take_effects();
    key(&mut a, KeyCode::Char('x'), t);
    let req = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Explorer(r) => Some(r),
            _ => None,
        })
        .expect("a recording is asked for");
    let crate::ui::screens::explorer::AnyRequest::Chess(
        crate::ui::screens::explorer::Request::Record {
            id,
            pos,
            depth,
            features,
            cap,
        },
    ) = req
    else {
        panic!("{req:?}");
    };
    assert_eq!(depth, 3);
    assert_eq!(
        pos.moves().len(),
        1,
        "the game's position, with its history"
    );
    let s = render(&a, 120, 40);
    assert!(s.contains("Recording the search to depth 3"), "{s}");
    let recording = crate::engine::tree::record(&pos, depth, features, Default::default(), cap);
    a.update(
        Msg::TreeRecorded {
            id,
            recording: crate::ui::screens::explorer::AnyRecording::Chess(Box::new(recording)),
        },
        t,
    );
    let s = render(&a, 120, 40);
    assert!(
        s.contains("Search tree") && s.contains("Black to move"),
        "{s}"
    );
    assert!(s.contains("★ PV"), "{s}");
    // Moves typed now go to the explorer, not the game.
    type_str(&mut a, "e5", t);
    assert_eq!(a.chess().game.moves().len(), 1);
    for (w, h) in [(40, 10), (60, 16), (80, 24), (200, 60)] {
        let _ = render(&a, w, h);
    }
    key(&mut a, KeyCode::Char('q'), t);
    assert!(a.explorer().is_none());
    assert!(!a.ui.quit, "closing the explorer goes back to the game");
    assert!(a.take_effects().iter().any(|e| matches!(
        e,
        Effect::Explorer(crate::ui::screens::explorer::AnyRequest::Chess(
            crate::ui::screens::explorer::Request::Cancel
        ))
    )));

    // Opened by `kibitz tree`, closing it quits.
    let mut b = app();
    let ex = crate::ui::screens::explorer::Explorer::new(
        crate::engine::GamePosition::default(),
        2,
        Default::default(),
        1000,
    );
    b.start_explorer(ex, true, t);
    key(&mut b, KeyCode::Esc, t);
    assert!(b.ui.quit);
}

#[test]
fn an_analysis_that_ends_by_itself_is_not_restarted() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    a.take_effects();
    command(&mut a, Action::Analyse, t);
    let mut req = take_go(&mut a, Slot::Assistant).expect("analysis starts");
    // The analysis search ends by itself (max depth, or nothing to search).
    let mut restarts = 0;
    for _ in 0..5 {
        a.update(
            said(
                &a,
                Slot::Assistant,
                EngineEvent::Done {
                    id: req.id,
                    purpose: Purpose::Analysis,
                    best: None,
                    score: Some(Score(0)),
                    pv: vec![],
                },
            ),
            t,
        );
        if let Some(r) = take_go(&mut a, Slot::Assistant) {
            restarts += 1;
            req = r;
        }
    }
    assert_eq!(
        restarts, 0,
        "each Done of the analysis starts the same search again"
    );
}

#[test]
fn no_analysis_of_a_mated_position() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    for m in ["f3", "e5", "g4"] {
        type_str(&mut a, m, t);
    }
    command(&mut a, Action::Analyse, t);
    a.take_effects();
    type_str(&mut a, "Qh4", t);
    assert!(a.chess().is_over(), "{:?}", a.ui.status);
    assert!(
        take_go(&mut a, Slot::Assistant).is_none(),
        "analysis of a mated position is asked for"
    );
}

#[test]
fn clicks_do_not_reach_the_game_under_the_explorer() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    a.take_effects();
    key(&mut a, KeyCode::Char('x'), t);
    assert!(a.explorer().is_some());
    let g = view::layout(ratatui::layout::Rect::new(0, 0, a.ui.size.0, a.ui.size.1))
        .unwrap()
        .board;
    let click = |a: &mut App, sq: Square| {
        let r = g.rect_of(sq, a.ui.look.flipped);
        for kind in [
            MouseEventKind::Down(MouseButton::Left),
            MouseEventKind::Up(MouseButton::Left),
        ] {
            a.update(
                Msg::Mouse(MouseEvent {
                    kind,
                    column: r.x + 1,
                    row: r.y + 1,
                    modifiers: KeyModifiers::NONE,
                }),
                t,
            );
        }
    };
    click(&mut a, Square::E2);
    click(&mut a, Square::E4);
    assert!(
        a.chess().game.moves().is_empty(),
        "a move was played under the explorer: {:?}",
        uci_moves(&a)
    );
}

#[test]
fn the_game_pauses_while_the_explorer_is_open() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, Some("1+0")), t);
    type_str(&mut a, "e4", t);
    a.take_effects();
    key(&mut a, KeyCode::Char('x'), t);
    assert!(a.explorer().is_some());
    a.update(Msg::Tick, t + Duration::from_secs(70));
    assert!(
        !a.chess().is_over(),
        "Black lost on time while reading the tree: {:?}",
        a.chess().game.ending
    );
    key(&mut a, KeyCode::Char('q'), t + Duration::from_secs(70));
    assert!(!a.chess().paused, "closing the explorer resumes the game");
    let black = a
        .chess()
        .clocks
        .as_ref()
        .unwrap()
        .remaining(Color::Black, t + Duration::from_secs(71));
    assert!(black >= Duration::from_secs(58), "{black:?}");
}

#[test]
fn every_screen_draws_at_every_size() {
    use crate::ui::screens::explorer::Mode as XMode;
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    info(&mut a, Slot::Opponent, &req, 1, -35, &["e7e5"], t);
    info(
        &mut a,
        Slot::Opponent,
        &req,
        2,
        -31990,
        &["e7e5", "g1f3"],
        t,
    );
    let sizes: Vec<(u16, u16)> = (1..=220)
        .step_by(9)
        .flat_map(|w| (1..=70).step_by(5).map(move |h| (w, h)))
        .collect();
    for &(w, h) in &sizes {
        let _ = render(&a, w, h);
    }
    a.ui.overlay = Overlay::Eval { simple: false };
    for &(w, h) in &sizes {
        let _ = render(&a, w, h);
    }
    a.ui.overlay = Overlay::None;
    // Explorer with a recording.
    key(&mut a, KeyCode::Char('x'), t);
    let Some(Effect::Explorer(crate::ui::screens::explorer::AnyRequest::Chess(
        crate::ui::screens::explorer::Request::Record {
            id,
            pos,
            depth,
            features,
            cap,
        },
    ))) = a
        .take_effects()
        .into_iter()
        .find(|e| matches!(e, Effect::Explorer(_)))
    else {
        panic!()
    };
    let rec = crate::engine::tree::record(&pos, depth, features, Default::default(), cap);
    a.update(
        Msg::TreeRecorded {
            id,
            recording: crate::ui::screens::explorer::AnyRecording::Chess(Box::new(rec)),
        },
        t,
    );
    for mode in [XMode::Browse, XMode::Step, XMode::Compare] {
        a.explorer_mut().unwrap().mode = mode;
        for &(w, h) in &sizes {
            let _ = render(&a, w, h);
        }
    }
    // Step mode at every step near the end on a medium size.
    let n = a.explorer().unwrap().tree().unwrap().steps.len();
    a.explorer_mut().unwrap().mode = XMode::Step;
    for s in 0..n {
        a.explorer_mut().unwrap().step = s;
        if s % 7 == 0 {
            let _ = render(&a, 61, 17);
        }
    }
}
