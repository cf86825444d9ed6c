use super::*;
use crate::engine::observer::CountingObserver;

const POSITIONS: &[(&str, Depth)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 3),
    (
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
        4,
    ),
    // Deep enough for aspiration windows, null moves and LMR.
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        6,
    ),
];

fn rec(fen: &str, depth: Depth) -> Recording {
    let pos = GamePosition::new(Board::from_fen(fen).unwrap());
    record(
        &pos,
        depth,
        Features::default(),
        EngineOptions::default(),
        DEFAULT_NODE_CAP,
    )
}

#[test]
fn the_tree_agrees_with_the_engine() {
    for &(fen, depth) in POSITIONS {
        let r = rec(fen, depth);
        let t = &r.tree;
        assert!(!t.truncated, "{fen}");
        assert_eq!(t.depth, depth, "{fen}: the final iteration is recorded");
        let root = t.node(t.root().unwrap());
        assert_eq!(root.score, r.report.result.score, "{fen}: root score");
        assert_eq!(
            root.best.map(|b| t.node(root.children[b]).mv),
            Some(r.report.best_move),
            "{fen}: best move"
        );
        assert_eq!(
            t.pv_moves(),
            r.report.result.pv,
            "{fen}: principal variation"
        );
    }
}

#[test]
fn cutoffs_are_at_or_above_beta() {
    let mut seen = 0;
    for &(fen, depth) in POSITIONS {
        let r = rec(fen, depth);
        for (i, n) in r.tree.nodes.iter().enumerate() {
            if let Some(c) = n.cutoff {
                seen += 1;
                let beta = n.search_window.1;
                assert!(
                    n.score >= beta,
                    "{fen}: node {i} cut at {:?} < beta {beta:?}",
                    n.score
                );
                assert!(beta <= n.beta, "the window only narrows");
                let child = r.tree.node(n.children[c]);
                assert!(child.mv.is_some(), "the cutting child is a move");
                // A lower bound; exact when mate-distance pruning narrowed
                // beta to the mate found (nothing better is possible).
                let exact_mate = n.bound == Bound::Exact && n.score < n.beta && n.score >= beta;
                assert!(n.bound == Bound::Lower || exact_mate, "{fen}: node {i}");
            }
        }
    }
    assert!(seen > 100, "only {seen} cutoffs seen");
}

#[test]
fn node_counts_match_the_search_and_events_nest() {
    for &(fen, depth) in POSITIONS {
        let pos = GamePosition::new(Board::from_fen(fen).unwrap());
        // The engine's own count for the final iteration: total nodes minus
        // the nodes of the iterations before it.
        let r = rec(fen, depth);
        let t = &r.tree;
        let mut counter = CountingObserver::default();
        let stop = AtomicBool::new(false);
        Engine::default().search(&pos, &Limits::depth(depth - 1), &stop, &mut counter);
        let before = counter.enters;
        assert_eq!(
            t.nodes_entered,
            r.report.result.stats.nodes - before,
            "{fen}: nodes of the final iteration"
        );
        assert_eq!(t.nodes.len() as u64, t.nodes_entered, "{fen}: all recorded");

        // Steps: every node entered once and left once, properly nested,
        // each child inside its parent.
        let mut stack: Vec<NodeId> = Vec::new();
        let mut entered = vec![0u32; t.nodes.len()];
        let mut left = vec![0u32; t.nodes.len()];
        for s in &t.steps {
            match s.kind {
                StepKind::Enter => {
                    assert_eq!(t.node(s.node).parent, stack.last().copied(), "{fen}");
                    entered[s.node as usize] += 1;
                    stack.push(s.node);
                }
                StepKind::Leave { score, bound } => {
                    assert_eq!(stack.pop(), Some(s.node), "{fen}: leave matches enter");
                    assert_eq!((score, bound), (t.node(s.node).score, t.node(s.node).bound));
                    left[s.node as usize] += 1;
                }
                _ => assert_eq!(stack.last(), Some(&s.node), "{fen}: event of the open node"),
            }
        }
        assert!(stack.is_empty(), "{fen}");
        assert!(entered.iter().all(|&e| e == 1), "{fen}");
        assert!(left.iter().all(|&l| l == 1), "{fen}");
    }
}

#[test]
fn the_root_searches_every_legal_move_at_depth_one() {
    let r = rec(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        1,
    );
    let t = &r.tree;
    let root = t.node(t.root().unwrap());
    let mut moves: Vec<String> = root
        .children
        .iter()
        .filter_map(|&c| t.node(c).mv.map(Board::uci))
        .collect();
    assert!(moves.len() >= 48, "re-searched moves appear again");
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 48);
    assert!(t.unsearched(t.root().unwrap()).is_empty());
    // Children are positions one move deeper.
    for &c in &root.children {
        assert_eq!(t.node(c).ply, 1);
        assert_eq!(t.node(c).parent, t.root());
    }
}

#[test]
fn a_cut_node_lists_the_moves_it_never_searched() {
    let r = rec(POSITIONS[0].0, 4);
    let t = &r.tree;
    let (id, n) = t
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| {
            n.cutoff.is_some() && n.kind != NodeKind::Quiescence && n.unrecorded_children == 0
        })
        .expect("a cut node");
    let id = id as NodeId;
    let skipped = t.unsearched(id);
    let legal = t.board_at(id).chess().legal_moves().len();
    let searched: Vec<Move> = n.children.iter().filter_map(|&c| t.node(c).mv).collect();
    assert!(!skipped.is_empty());
    assert!(skipped.iter().all(|m| !searched.contains(m)));
    let mut distinct = searched.clone();
    distinct.sort_by_key(|m| Board::uci(*m));
    distinct.dedup();
    assert_eq!(distinct.len() + skipped.len(), legal);
    assert_eq!(t.node_type(id), NodeType::Cut);
}

#[test]
fn the_node_cap_truncates_but_keeps_the_tree_whole() {
    let pos = GamePosition::new(Board::from_fen(POSITIONS[1].0).unwrap());
    let r = record(&pos, 4, Features::default(), EngineOptions::default(), 500);
    let full = rec(POSITIONS[1].0, 4);
    let t = &r.tree;
    assert!(t.truncated);
    assert_eq!(t.nodes.len(), 500);
    assert!(t.nodes_entered > 500);
    // The search itself is unchanged, and the recorded nodes are complete.
    assert_eq!(r.report.result.score, full.report.result.score);
    assert_eq!(r.report.best_move, full.report.best_move);
    let root = t.node(t.root().unwrap());
    assert_eq!(root.score, r.report.result.score);
    for n in &t.nodes {
        assert_ne!(n.last_step, 0, "every recorded node was left");
    }
}

#[test]
fn lazy_evaluation_is_recorded_and_ends_nodes_it_cuts() {
    // A middlegame with exchanges: quiescence meets captures that leave a
    // side far ahead. Depth 4: which nodes meet lazy evaluation depends on
    // the network (with stage 3's, depth 3 has no stand-pat below alpha).
    let r = rec(POSITIONS[1].0, 4);
    let t = &r.tree;
    let lazy = |cut: bool| {
        t.nodes.iter().filter(move |n| {
            n.notes
                .iter()
                .any(|x| matches!(x, Note::Prune(Prune::Lazy { cut: c, .. }) if *c == cut))
        })
    };
    assert!(lazy(true).count() > 0, "lazy cuts");
    assert!(lazy(false).count() > 0, "lazy stand-pats below alpha");
    for n in lazy(true) {
        // Stood pat on the prediction minus the margin, at or above beta,
        // and searched nothing.
        let Some(Note::Prune(Prune::Lazy {
            predicted, margin, ..
        })) = n
            .notes
            .iter()
            .find(|x| matches!(x, Note::Prune(Prune::Lazy { .. })))
        else {
            unreachable!()
        };
        assert_eq!(n.kind, NodeKind::Quiescence);
        assert_eq!(n.stand_pat, Some(*predicted - *margin));
        assert!(n.stand_pat.unwrap() >= n.beta);
        assert!(n.children.is_empty());
    }
}

#[test]
fn null_moves_and_reductions_are_recorded() {
    let r = rec(POSITIONS[5].0, 6);
    let t = &r.tree;
    let has = |f: &dyn Fn(&Note) -> bool| t.nodes.iter().any(|n| n.notes.iter().any(f));
    assert!(
        t.nodes.iter().any(|n| n.entry == Entry::NullMove),
        "null-move nodes"
    );
    assert!(has(&|n| matches!(
        n,
        Note::Prune(Prune::NullMoveTry { .. })
    )));
    assert!(has(&|n| matches!(n, Note::Prune(Prune::Lmr { .. }))));
    assert!(has(&|n| matches!(n, Note::TtHit { .. })));
    // The board of a null-move node has the other side to move.
    let (id, _) = t
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.entry == Entry::NullMove)
        .unwrap();
    let parent = t.node(id as NodeId).parent.unwrap();
    assert_ne!(t.board_at(id as NodeId).turn(), t.board_at(parent).turn());
}

/// The kind of a pruning decision (a `match` without a wildcard: a new
/// kind must be named here, and so in the test below).
fn prune_kind(p: &Prune) -> &'static str {
    match p {
        Prune::Draw => "draw",
        Prune::NoLegalMoves => "no legal moves",
        Prune::MateDistance => "mate distance",
        Prune::MateDistanceWindow { .. } => "mate distance window",
        Prune::ReverseFutility { .. } => "reverse futility",
        Prune::Lazy { cut: true, .. } => "lazy cut",
        Prune::Lazy { cut: false, .. } => "lazy below alpha",
        Prune::LazyReverseFutility { .. } => "lazy reverse futility",
        Prune::NullMoveTry { .. } => "null move try",
        Prune::NullMoveCutoff { .. } => "null move cutoff",
        Prune::NullMoveVerified { .. } => "null move verified",
        Prune::Iir => "iir",
        Prune::QuietsPruned { futility: true } => "futility",
        Prune::QuietsPruned { futility: false } => "late move pruning",
        Prune::See { .. } => "see",
        Prune::Delta { .. } => "delta",
        Prune::Lmr { .. } => "lmr",
        Prune::Extension { .. } => "extension",
        Prune::Singular { plies, .. } if *plies > 0 => "singular extension",
        Prune::Singular { .. } => "singular reduction",
        Prune::MultiCut { .. } => "multi-cut",
    }
}

/// Every kind of decision the search makes to skip, shorten or end
/// something reaches the recorded tree, so the explorer (and the search
/// panel's counts) can show it: a pruning added without telling the
/// observer would be missing here.
#[test]
fn every_kind_of_pruning_decision_reaches_the_tree() {
    let cases: &[(&str, Depth)] = &[
        // Middlegames: null moves, reductions, futility, SEE, lazy eval.
        (POSITIONS[5].0, 8),
        (POSITIONS[1].0, 6),
        (POSITIONS[4].0, 7),
        // Few pieces: draws, null-move verification.
        ("8/8/4k3/8/2R5/8/4K3/8 w - - 0 1", 9),
        // Multi-cut: at nodes of depth 8 or more.
        ("6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 3 54", 11),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for &(fen, depth) in cases {
        let r = rec(fen, depth);
        assert!(!r.tree.truncated, "{fen}");
        for n in &r.tree.nodes {
            for note in &n.notes {
                if let Note::Prune(p) = note {
                    seen.insert(prune_kind(p));
                }
            }
        }
    }
    let all = [
        "draw",
        "no legal moves",
        "mate distance",
        "mate distance window",
        "reverse futility",
        "lazy cut",
        "lazy below alpha",
        "lazy reverse futility",
        "null move try",
        "null move cutoff",
        "null move verified",
        "iir",
        "futility",
        "late move pruning",
        "see",
        "delta",
        "lmr",
        "extension",
        "singular extension",
        "singular reduction",
        "multi-cut",
    ];
    let missing: Vec<&str> = all.into_iter().filter(|k| !seen.contains(k)).collect();
    assert!(missing.is_empty(), "never recorded: {missing:?}");
}
