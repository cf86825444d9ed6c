//! `kibitz tree`: the recorded search as JSON (a contract other tools read)
//! and DOT, checked against `kibitz analyse` and against the rules of
//! alpha-beta.

mod common;

use common::{board, kibitz, last_line, stderr_of, stdout_of};
use serde_json::Value;
use shakmaty::Position;

/// What `kibitz analyse --depth N` reports: (score as in the JSON, bestmove).
fn analyse(fen: &str, depth: u32) -> (i64, String) {
    // One thread: the tree records a single search, and only that repeats.
    let d = depth.to_string();
    let o = kibitz(&["analyse", "--fen", fen, "--depth", &d, "--threads", "1"]);
    let out = stdout_of(&o);
    let best = last_line(&out)
        .strip_prefix("bestmove ")
        .expect("bestmove line")
        .to_string();
    let info = out
        .lines()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score").unwrap();
    let v: i64 = words[at + 2].parse().unwrap();
    let score = match words[at + 1] {
        "cp" => v,
        // mate n (moves) -> +-(32000 - plies)
        _ if v > 0 => 32000 - (2 * v - 1),
        _ => -(32000 + 2 * v),
    };
    (score, best)
}

fn tree_json(args: &[&str]) -> Value {
    let mut all = vec!["tree", "--format", "json"];
    all.extend_from_slice(args);
    let o = kibitz(&all);
    assert!(o.status.success(), "{}", stderr_of(&o));
    serde_json::from_str(&stdout_of(&o)).expect("valid JSON")
}

/// Walks every node: (node, its position).
fn walk(v: &Value, fen: &str, f: &mut dyn FnMut(&Value, &shakmaty::Chess)) {
    fn go(n: &Value, pos: &shakmaty::Chess, f: &mut dyn FnMut(&Value, &shakmaty::Chess)) {
        f(n, pos);
        for c in n["children"].as_array().unwrap() {
            let child = match c["move"].as_str() {
                Some(u) => {
                    let m = u
                        .parse::<shakmaty::uci::UciMove>()
                        .unwrap()
                        .to_move(pos)
                        .expect("children's moves are legal in their parent");
                    pos.clone().play(m).unwrap()
                }
                None if c["san"] == "--" => {
                    pos.clone().swap_turn().expect("a null move is possible")
                }
                None => pos.clone(),
            };
            go(c, &child, f);
        }
    }
    let b = board(fen);
    go(&v["root"], b.chess(), f);
}

const FENS: &[(&str, u32)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 3),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
];

#[test]
fn json_contract_and_agreement_with_analyse() {
    for &(fen, depth) in FENS {
        let t = tree_json(&["--fen", fen, "--depth", &depth.to_string()]);
        for key in [
            "fen",
            "depth",
            "score",
            "bestmove",
            "pv",
            "nodes",
            "truncated",
            "root",
        ] {
            assert!(t.get(key).is_some(), "{fen}: missing '{key}'");
        }
        assert_eq!(t["fen"], fen);
        assert_eq!(t["depth"], depth);
        assert_eq!(t["truncated"], false);
        let (score, best) = analyse(fen, depth);
        assert_eq!(t["score"].as_i64(), Some(score), "{fen}: score as analyse");
        assert_eq!(
            t["bestmove"].as_str(),
            Some(best.as_str()),
            "{fen}: bestmove"
        );
        assert_eq!(t["root"]["move"], Value::Null);
        assert_eq!(t["root"]["score"].as_i64(), Some(score));

        // The tree's own PV: from the root, the best child while it is on
        // the PV.
        let mut pv = Vec::new();
        let mut node = &t["root"];
        while let Some(b) = node["best"].as_u64() {
            let child = &node["children"][b as usize];
            if child["on_pv"] != true {
                break;
            }
            pv.push(child["move"].as_str().unwrap().to_string());
            node = child;
        }
        let want: Vec<String> = t["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert_eq!(pv, want, "{fen}: PV in the tree");

        let mut count = 0;
        walk(&t, fen, &mut |n, pos| {
            count += 1;
            let (a, b, s) = (
                n["alpha"].as_i64().unwrap(),
                n["beta"].as_i64().unwrap(),
                n["score"].as_i64().unwrap(),
            );
            assert!(a < b, "{fen}: window [{a}, {b}]");
            assert!(["exact", "lower", "upper"].contains(&n["bound"].as_str().unwrap()));
            assert!(["pv", "cut", "all", "qs", "terminal"].contains(&n["kind"].as_str().unwrap()));
            let children = n["children"].as_array().unwrap();
            if let Some(c) = n["cutoff"].as_u64() {
                assert!((c as usize) < children.len(), "{fen}: cutoff index");
                // A cutoff is a lower bound; exact when it is the mate in one
                // that mate-distance pruning allows at most.
                assert!(
                    n["bound"] == "lower" || (n["bound"] == "exact" && s.abs() >= 31000),
                    "{fen}: a cutoff is a lower bound"
                );
                // Mate-distance pruning may narrow beta; never below the score.
                assert!(s >= b || s.abs() >= 31000, "{fen}: cut below beta");
            }
            // Pruned moves are legal and were not searched.
            let searched: Vec<&str> = children.iter().filter_map(|c| c["move"].as_str()).collect();
            for p in n["pruned"].as_array().unwrap() {
                let p = p.as_str().unwrap();
                assert!(
                    !searched.contains(&p),
                    "{fen}: {p} both searched and pruned"
                );
                let m = p.parse::<shakmaty::uci::UciMove>().unwrap();
                assert!(m.to_move(pos).is_ok(), "{fen}: pruned {p} is legal");
            }
            assert!(n["events"].is_array());
        });
        assert_eq!(
            t["nodes"].as_u64(),
            Some(count),
            "{fen}: nodes = NODE objects"
        );
    }
}

#[test]
fn minimax_switch_same_answer_more_nodes() {
    let fen = FENS[2].0;
    let ab = tree_json(&[
        "--fen",
        fen,
        "--depth",
        "3",
        "--no",
        "quiescence",
        "--no",
        "pruning",
        "--no",
        "null-move",
        "--no",
        "lmr",
        "--no",
        "tt",
    ]);
    let mm = tree_json(&[
        "--fen",
        fen,
        "--depth",
        "3",
        "--no",
        "quiescence",
        "--no",
        "alpha-beta",
    ]);
    assert_eq!(ab["score"], mm["score"]);
    assert!(mm["nodes"].as_u64() > ab["nodes"].as_u64());
    let mut cutoffs = 0;
    walk(&mm, fen, &mut |n, _| {
        if n["cutoff"].is_u64() {
            cutoffs += 1
        }
    });
    assert_eq!(cutoffs, 0, "plain minimax cuts nothing off");
}

#[test]
fn node_cap_and_dot() {
    let t = tree_json(&["--depth", "4", "--max-nodes", "100"]);
    assert_eq!(t["truncated"], true);
    // The cap holds, but the root of a new aspiration pass is always
    // recorded (the tree must end with the pass that counts).
    let recorded = t["nodes_recorded"].as_u64().unwrap_or(0);
    assert!((100..=104).contains(&recorded), "{recorded}");
    let o = kibitz(&["tree", "--depth", "2", "--format", "dot"]);
    let dot = stdout_of(&o);
    assert!(dot.starts_with("digraph search {"), "{dot}");
    assert!(dot.trim_end().ends_with('}'));
    assert!(dot.contains("n0 -> n1"));
    let bad = kibitz(&["tree", "--no", "magic"]);
    assert!(!bad.status.success());
    assert!(stderr_of(&bad).contains("unknown feature 'magic'"));
    let bad = kibitz(&["tree", "--fen", "8/8/8 w - - 0 1", "--format", "json"]);
    assert!(!bad.status.success());
    assert!(stderr_of(&bad).contains("FEN"), "{}", stderr_of(&bad));
}

/// Checks that a node's bound agrees with the window it shows (all in the
/// node's own view, as the JSON gives them): exact only strictly inside
/// the window, unless the node is a terminal position or a tablebase
/// answer (which the kind says); at least (lower) from beta up; at most
/// (upper) from alpha down. A node entered with a null window is never
/// labelled PV. Returns the number of nodes checked.
fn check_bounds_agree_with_windows(tree: &Value, what: &str) -> usize {
    fn go(n: &Value, what: &str, count: &mut usize) {
        *count += 1;
        let (a, b, s) = (
            n["alpha"].as_i64().unwrap(),
            n["beta"].as_i64().unwrap(),
            n["score"].as_i64().unwrap(),
        );
        let kind = n["kind"].as_str().unwrap();
        let at = || format!("{what}: {} {n:.0}", n["san"]);
        match n["bound"].as_str().unwrap() {
            "exact" => assert!(
                (a < s && s < b) || kind == "terminal" || kind == "tb",
                "exact outside the window [{a}, {b}] (score {s}, kind {kind}) at {}",
                at()
            ),
            "lower" => assert!(
                s >= b || kind == "tb",
                "lower bound {s} below beta {b} at {}",
                at()
            ),
            "upper" => assert!(
                s <= a || kind == "tb",
                "upper bound {s} above alpha {a} at {}",
                at()
            ),
            other => panic!("unknown bound {other}"),
        }
        if b - a <= 1 {
            assert_ne!(kind, "pv", "null window [{a}, {b}] labelled PV at {}", at());
        }
        for c in n["children"].as_array().unwrap() {
            go(c, what, count);
        }
    }
    let mut count = 0;
    go(&tree["root"], what, &mut count);
    for pass in tree["earlier_passes"].as_array().unwrap() {
        go(pass, what, &mut count);
    }
    count
}

/// After Qxf7# is found at the root, mate-distance pruning ends every
/// other root move at once. They are bounds (nothing beats the mate found),
/// not exact PV scores; the mate itself is an exact terminal node.
#[test]
fn mate_distance_cuts_are_bounds_not_pv() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    let v = tree_json(&["--fen", fen, "--depth", "3"]);
    let root = &v["root"];
    let root_alpha_after_mate = 31999; // mate in 1, root's view
    let children = root["children"].as_array().unwrap();
    assert!(children.len() > 30, "every root move is recorded");
    for c in children {
        let uci = c["move"].as_str().unwrap();
        let mates = c["san"].as_str().unwrap().ends_with('#');
        if mates {
            assert_eq!(c["bound"], "exact", "{uci}");
            assert_eq!(c["kind"], "terminal", "{uci}: checkmate says so");
            continue;
        }
        assert_ne!(c["bound"], "exact", "{uci} does not mate: not exact");
        assert_ne!(c["kind"], "pv", "{uci} does not mate: not a PV node");
    }
    let a3 = children
        .iter()
        .find(|c| c["move"] == "a2a3")
        .expect("a3 is recorded");
    // Its own view (Black to move): at least "mated now", which is beta.
    let (alpha, beta, score) = (
        a3["alpha"].as_i64().unwrap(),
        a3["beta"].as_i64().unwrap(),
        a3["score"].as_i64().unwrap(),
    );
    assert_eq!(a3["bound"], "lower", "{a3:.0}");
    assert!(score >= beta && beta - alpha == 1, "{a3:.0}");
    // The root's view: an upper bound, at most the mate already found.
    assert!(-score - 1 <= root_alpha_after_mate, "{a3:.0}");
    check_bounds_agree_with_windows(&v, fen);
}

/// In tactical positions (mates, mate-distance cuts, TT entries, draws)
/// every recorded node's bound agrees with its window.
#[test]
fn recorded_bounds_agree_with_windows() {
    let mut fens: Vec<String> = Vec::new();
    if let Some(path) = common::shared_file("epd/wacnew.epd") {
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines().take(6) {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            fens.push(format!("{} 0 1", fields.join(" ")));
        }
    }
    fens.extend(
        [
            // Scholar's mate available, mate-distance cuts everywhere.
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
            // Back-rank mate in two, with a defence by interposition.
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
            // Kiwipete: many captures, checks and transpositions.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // Stalemate traps in a queen ending.
            "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
        ]
        .map(String::from),
    );
    let mut nodes = 0;
    for fen in &fens {
        let v = tree_json(&["--fen", fen, "--depth", "4"]);
        nodes += check_bounds_agree_with_windows(&v, fen);
    }
    assert!(nodes > 1000, "{nodes} nodes checked");
}
