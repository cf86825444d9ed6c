use super::*;
use crate::engine::tree::{DEFAULT_NODE_CAP, Entry, record};
use crate::engine::{Board, EngineOptions};

const ITALIAN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

fn key(ex: &mut Explorer, code: KeyCode, id: &mut u64) -> Option<Request> {
    ex.key(KeyEvent::new(code, KeyModifiers::NONE), id)
}

/// An explorer with its recording done (as the runtime would do it).
fn explorer(fen: &str, depth: Depth) -> (Explorer, u64) {
    let pos = GamePosition::new(Board::from_fen(fen).unwrap());
    let mut ex = Explorer::new(pos.clone(), depth, Features::default(), DEFAULT_NODE_CAP);
    let mut id = 1;
    let Request::Record {
        id: rid,
        depth: d,
        features,
        cap,
        ..
    } = ex.start(id)
    else {
        panic!("a recording is asked for");
    };
    assert_eq!(d, depth);
    let rec = record(&pos, d, features, EngineOptions::default(), cap);
    assert!(ex.recorded(rid, rec, &mut id).is_none());
    id += 1;
    (ex, id)
}

#[test]
fn browsing_down_and_up_the_tree() {
    let (mut ex, mut id) = explorer(ITALIAN, 4);
    let t = ex.tree().unwrap().clone();
    let root = t.root().unwrap();
    assert_eq!(ex.node, root);
    // The best move is selected at the start.
    assert_eq!(ex.selected, t.node(root).best.unwrap());
    key(&mut ex, KeyCode::Home, &mut id);
    assert_eq!(ex.node, root);
    for _ in 0..3 {
        key(&mut ex, KeyCode::PageUp, &mut id);
    }
    key(&mut ex, KeyCode::Up, &mut id);
    assert_eq!(ex.selected, 0, "the list stops at the top");
    key(&mut ex, KeyCode::Down, &mut id);
    assert_eq!(ex.selected, 1);
    key(&mut ex, KeyCode::Up, &mut id);
    let first = ex.selected_child().unwrap();
    key(&mut ex, KeyCode::Enter, &mut id);
    assert_eq!(ex.node, first);
    assert_eq!(t.node(first).parent, Some(root));
    key(&mut ex, KeyCode::Left, &mut id);
    assert_eq!(ex.node, root);
    assert_eq!(
        ex.selected_child(),
        Some(first),
        "back on the child we came from"
    );
    key(&mut ex, KeyCode::Left, &mut id);
    assert_eq!(ex.note.as_deref(), Some("At the root."));
}

#[test]
fn the_pv_is_one_key_away() {
    let (mut ex, mut id) = explorer(ITALIAN, 4);
    let t = ex.tree().unwrap().clone();
    let pv = t.pv_nodes();
    assert!(pv.len() >= 4);
    // 'p' walks the PV one move at a time, 'P' jumps to its end.
    key(&mut ex, KeyCode::Char('p'), &mut id);
    assert_eq!(ex.selected_child(), Some(pv[1]));
    key(&mut ex, KeyCode::Char('p'), &mut id);
    assert_eq!(ex.selected_child(), Some(pv[2]));
    key(&mut ex, KeyCode::Char('P'), &mut id);
    assert_eq!(ex.selected_child(), pv.last().copied());
    // The moves along the way are the engine's PV.
    let moves: Vec<Move> = pv.iter().filter_map(|&n| t.node(n).mv).collect();
    assert_eq!(moves, ex.recording.as_ref().unwrap().report.result.pv);
}

#[test]
fn stepping_through_the_search() {
    let (mut ex, mut id) = explorer(ITALIAN, 3);
    let t = ex.tree().unwrap().clone();
    key(&mut ex, KeyCode::Char('s'), &mut id);
    assert_eq!(ex.mode, Mode::Step);
    let root = t.root().unwrap();
    assert_eq!(ex.step, t.node(root).first_step as usize);
    assert!(ex.describe_step(ex.step).starts_with("Enter the root"));
    key(&mut ex, KeyCode::Right, &mut id);
    key(&mut ex, KeyCode::Right, &mut id);
    assert_eq!(ex.step, t.node(root).first_step as usize + 2);
    key(&mut ex, KeyCode::Left, &mut id);
    assert_eq!(ex.step, t.node(root).first_step as usize + 1);
    key(&mut ex, KeyCode::End, &mut id);
    assert_eq!(ex.step, t.steps.len() - 1);
    assert!(
        ex.describe_step(ex.step).starts_with("Leave with"),
        "{}",
        ex.describe_step(ex.step)
    );
    // Every event has words.
    for i in 0..t.steps.len() {
        assert!(!ex.describe_step(i).is_empty());
    }
    // A cutoff says how many moves were never searched.
    let cut = t
        .steps
        .iter()
        .position(|s| {
            matches!(s.kind, StepKind::Cutoff { .. })
                && t.node(s.node).kind != crate::engine::NodeKind::Quiescence
        })
        .expect("a main-search cutoff");
    assert!(ex.describe_step(cut).contains("never searched"));
    // Down/up skip to the same node's next event.
    ex.step = t.node(root).first_step as usize;
    key(&mut ex, KeyCode::Down, &mut id);
    assert_eq!(t.steps[ex.step].node, root);
    // Enter goes back to browsing at the step's node.
    key(&mut ex, KeyCode::Enter, &mut id);
    assert_eq!(ex.mode, Mode::Browse);
}

#[test]
fn depth_changes_and_compare_ask_for_work() {
    let (mut ex, mut id) = explorer(ITALIAN, 3);
    match key(&mut ex, KeyCode::Char('+'), &mut id) {
        Some(Request::Record { depth, .. }) => assert_eq!(depth, 4),
        other => panic!("{other:?}"),
    }
    assert!(ex.recording.is_none(), "waiting for the new recording");
    let (mut ex, mut id) = explorer(ITALIAN, 1);
    assert!(key(&mut ex, KeyCode::Char('-'), &mut id).is_none());
    assert!(ex.note.as_deref().unwrap().contains("Depth stays 1"));
    let req = key(&mut ex, KeyCode::Char('c'), &mut id);
    let Some(Request::Compare {
        id: cid,
        rows,
        depth,
        ..
    }) = req
    else {
        panic!("compare asked for");
    };
    assert_eq!(depth, 1);
    assert_eq!(ex.mode, Mode::Compare);
    assert_eq!(rows.len(), ex.compare.len());
    assert!(
        !rows[rows.len() - 1].1.alpha_beta,
        "the last row is plain minimax"
    );
    // Results for an older job are ignored; the current one fills in.
    let r = CompareResult {
        nodes: 10,
        time: Duration::from_millis(1),
        score: Score(5),
        best: None,
        stopped: false,
    };
    ex.compared(cid + 100, 0, r.clone());
    assert!(ex.compare[0].result.is_none());
    ex.compared(cid, 0, r.clone());
    assert_eq!(ex.compare[0].result, Some(r));
    assert!(matches!(
        key(&mut ex, KeyCode::Esc, &mut id),
        Some(Request::Cancel)
    ));
    assert_eq!(ex.mode, Mode::Browse);
    assert!(matches!(
        key(&mut ex, KeyCode::Char('q'), &mut id),
        Some(Request::Close)
    ));
}

#[test]
fn comparison_minimax_agrees_with_bare_alpha_beta() {
    let (mut ex, mut id) = explorer(ITALIAN, 3);
    let Some(Request::Compare {
        pos, depth, rows, ..
    }) = key(&mut ex, KeyCode::Char('c'), &mut id)
    else {
        panic!();
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut results = vec![None; rows.len()];
    run_compare(&pos, depth, &rows, &stop, |row, r| results[row] = Some(r));
    let n = rows.len();
    let (bare, minimax) = (
        results[n - 2].clone().unwrap(),
        results[n - 1].clone().unwrap(),
    );
    assert_eq!(ex.compare[n - 1].reference, n - 2);
    assert_eq!(bare.score, minimax.score);
    assert!(minimax.nodes > 10 * bare.nodes);
    assert!(
        results
            .iter()
            .all(|r| r.as_ref().is_some_and(|r| !r.stopped))
    );
}

#[test]
fn null_move_nodes_have_names() {
    let (ex, _) = explorer(ITALIAN, 6);
    let t = ex.tree().unwrap();
    let null = t
        .nodes
        .iter()
        .position(|n| n.entry == Entry::NullMove)
        .expect("a null-move node at depth 6") as NodeId;
    assert_eq!(node_name(t, null), "a null move");
}

#[test]
fn the_cutoff_is_numbered_as_the_search_tried_the_moves() {
    let pos = GamePosition::new(Board::from_fen(ITALIAN).unwrap());
    let rec = record(
        &pos,
        6,
        Features::default(),
        EngineOptions::default(),
        DEFAULT_NODE_CAP,
    );
    let t = &rec.tree;
    let (mut total, mut bad, mut ex) = (0, 0, None);
    for s in &t.steps {
        if let StepKind::Cutoff { index, .. } = s.kind {
            let n = t.node(s.node);
            if n.kind == crate::engine::NodeKind::Quiescence {
                continue;
            }
            if let Some(k) = n.cutoff_move {
                total += 1;
                if k != index {
                    bad += 1;
                    let kinds: Vec<_> = n.children.iter().map(|&c| t.node(c).entry).collect();
                    ex.get_or_insert((s.node, k, index, kinds));
                }
            }
        }
    }
    assert_eq!(
        bad, 0,
        "{bad} of {total} cutoffs: children index != search index, e.g. {ex:?}"
    );
}

#[test]
fn a_truncated_tree_still_ends_with_the_pass_that_counts() {
    // Find a position/depth where the final iteration has several passes.
    let fens = [
        ITALIAN,
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
        "r2q1rk1/pp1bbppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 0 9",
        "2r3k1/pp3ppp/8/3p4/3P4/8/PP3PPP/2R3K1 w - - 0 1",
    ];
    for fen in fens {
        for depth in 4..=7 {
            let pos = GamePosition::new(Board::from_fen(fen).unwrap());
            let full = record(
                &pos,
                depth,
                Features::default(),
                EngineOptions::default(),
                DEFAULT_NODE_CAP,
            );
            if full.tree.passes.len() < 2 || full.tree.truncated {
                continue;
            }
            let cap = full.tree.passes[full.tree.passes.len() - 1] as usize; // nodes before the last pass
            let cut = record(
                &pos,
                depth,
                Features::default(),
                EngineOptions::default(),
                cap,
            );
            let root = cut.tree.root().unwrap();
            let n = cut.tree.node(root);
            assert_eq!(
                cut.tree.passes.len(),
                full.tree.passes.len(),
                "the final pass's root was not recorded: the tree shows a failed aspiration pass ({:?} {}) while the report says {}",
                n.bound,
                n.score.0,
                cut.report.result.score.0
            );
            assert_eq!(n.score, cut.report.result.score);
            return;
        }
    }
    panic!("no aspiration re-search found");
}

/// What a key can change: mode, place in the tree, step, depth, note.
fn snapshot(ex: &Explorer) -> String {
    format!(
        "{:?} {:?} {} {} {} {:?}",
        ex.mode, ex.node, ex.selected, ex.step, ex.depth, ex.note
    )
}

#[test]
fn every_key_in_the_footer_acts_with_one_press() {
    // Each mode's table is its footer, so every key shown is checked here.
    for (mode, rows) in [
        (Mode::Browse, BROWSE_KEYS),
        (Mode::Step, STEP_KEYS),
        (Mode::Compare, COMPARE_KEYS),
    ] {
        for (keys, label, what) in rows {
            for &code in *keys {
                let (mut ex, mut id) = explorer(ITALIAN, 4);
                // Somewhere in the middle: one level down, the second move
                // selected; in step mode a few events in.
                key(&mut ex, KeyCode::Enter, &mut id);
                key(&mut ex, KeyCode::PageUp, &mut id);
                key(&mut ex, KeyCode::Down, &mut id);
                assert!(ex.children().len() > 2 && ex.selected == 1);
                match mode {
                    Mode::Browse => {}
                    Mode::Step => {
                        key(&mut ex, KeyCode::Char('s'), &mut id);
                        for _ in 0..5 {
                            key(&mut ex, KeyCode::Right, &mut id);
                        }
                    }
                    Mode::Compare => {
                        key(&mut ex, KeyCode::Char('c'), &mut id);
                    }
                }
                assert_eq!(ex.mode, mode);
                let before = snapshot(&ex);
                let req = key(&mut ex, code, &mut id);
                assert!(
                    req.is_some() || snapshot(&ex) != before,
                    "{mode:?}: {code:?} ({label} {what}) did nothing"
                );
            }
        }
    }
    let text: String = footer_spans(BROWSE_KEYS, Default::default())
        .iter()
        .map(|s| s.content.to_string())
        .collect();
    assert!(
        text.starts_with("? help  ") && text.contains("p next PV move"),
        "{text}"
    );
}

/// A node evaluated lazily says so, and its stand pat says it is the
/// prediction (not the static evaluation) and which side of it.
#[test]
fn lazy_evaluation_has_its_own_words() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    // Depth 4: both sides of the prediction occur (see the same choice in
    // `engine/tree/tests.rs`).
    let (ex, _) = explorer(kiwipete, 4);
    let t = ex.tree().unwrap().clone();
    let words = |cut: bool| -> Vec<String> {
        t.steps
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                let lazy = t.node(s.node).notes.iter().any(|n| {
                    matches!(n, tree::Note::Prune(crate::engine::Prune::Lazy { cut: c, .. }) if *c == cut)
                });
                lazy && matches!(s.kind, StepKind::StandPat(_) | StepKind::Note(_))
            })
            .map(|(i, _)| ex.describe_step(i))
            .collect()
    };
    let cut = words(true);
    assert!(
        cut.iter()
            .any(|w| w.starts_with("Lazy evaluation: predicted")
                && w.ends_with("cp above beta: not evaluated"))
    );
    assert!(
        cut.iter()
            .any(|w| w.starts_with("Stand pat on the prediction minus the margin"))
    );
    let low = words(false);
    assert!(
        low.iter()
            .any(|w| w.ends_with("cp below alpha: not evaluated"))
    );
    assert!(
        low.iter()
            .any(|w| w.starts_with("Stand pat on the prediction plus the margin"))
    );
    assert!(
        low.iter()
            .chain(&cut)
            .all(|w| !w.contains("static evaluation")),
        "{low:?}"
    );
}

/// An explorer of `fen` at `depth` with `verdict`, its recordings done as
/// the runtime does them until it asks for no more: the depths recorded.
fn chase(fen: &str, depth: Depth, verdict: Verdict) -> (Explorer, Vec<Depth>) {
    let pos = GamePosition::new(Board::from_fen(fen).unwrap());
    let mut ex = Explorer::new(pos, depth, Features::default(), DEFAULT_NODE_CAP);
    ex.verdict = Some(verdict);
    let mut id = 1;
    let mut next = Some(ex.start(id));
    let mut depths = Vec::new();
    while let Some(Request::Record {
        id: rid,
        pos,
        depth,
        features,
        cap,
    }) = next
    {
        depths.push(depth);
        let rec = record(&pos, depth, features, EngineOptions::default(), cap);
        next = ex.recorded(rid, rec, &mut id);
    }
    (ex, depths)
}

fn italian_move(uci: &str) -> Move {
    Board::from_fen(ITALIAN).unwrap().parse_uci(uci).unwrap()
}

#[test]
fn opened_with_a_verdict_it_records_deeper_until_it_agrees() {
    // Depths 1 and 2 prefer d3; from depth 3 the search plays Nc3, as a
    // review searching depth 9 did.
    let nc3 = italian_move("b1c3");
    let (ex, depths) = chase(
        ITALIAN,
        1,
        Verdict::new("the review", nc3, crate::engine::Score(25), 9),
    );
    assert_eq!(depths, [1, 2, 3]);
    let t = ex.tree().unwrap();
    assert_eq!(ex.selected_child().map(|c| t.node(c).mv), Some(Some(nc3)));
    let words = ex.verdict_words().unwrap();
    assert!(
        words.starts_with("Depth 3 agrees with the review: Nc3 +0.")
            && words.ends_with("(+0.25 at depth 9)."),
        "{words}"
    );
}

#[test]
fn a_verdict_the_tree_never_reaches_is_explained_and_stays_selected() {
    // A review that liked a3 at depth 4: the tree goes to depth 4, keeps
    // Nc3, selects a3 and says what it scores here, and why they differ.
    let a3 = italian_move("a2a3");
    let (ex, depths) = chase(
        ITALIAN,
        2,
        Verdict::new("the review", a3, crate::engine::Score(30), 4),
    );
    assert_eq!(depths, [2, 3, 4]);
    let t = ex.tree().unwrap();
    assert_eq!(ex.selected_child().map(|c| t.node(c).mv), Some(Some(a3)));
    let words = ex.verdict_words().unwrap();
    assert!(
        words.starts_with("Depth 4 prefers Nc3 +0.")
            && words.contains("the review's a3 (+0.30 at depth 4): a3 scores at most +0.")
            && words.contains("earlier positions"),
        "{words}"
    );
    // Shallower than the review's depth, the words say a deeper tree may
    // find it; the depth the user picks is the user's (no chase).
    let (mut ex, _) = chase(
        ITALIAN,
        2,
        Verdict::new("the review", a3, crate::engine::Score(30), 4),
    );
    let mut id = 10;
    let Some(Request::Record { id: rid, pos, .. }) = key(&mut ex, KeyCode::Char('-'), &mut id)
    else {
        panic!("a shallower recording")
    };
    let rec = record(
        &pos,
        3,
        Features::default(),
        EngineOptions::default(),
        DEFAULT_NODE_CAP,
    );
    assert!(
        ex.recorded(rid, rec, &mut id).is_none(),
        "no chase after +/-"
    );
    let words = ex.verdict_words().unwrap();
    assert!(
        words.contains("its point lies deeper than this tree (+ records deeper)"),
        "{words}"
    );
}
