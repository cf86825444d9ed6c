//! `kibitz tree`: the recorded search as JSON (a contract other tools read)
//! and DOT, checked against `kibitz analyse` and against the rules of
//! alpha-beta.

mod common;

use common::{board, kibitz, last_line, stderr_of, stdout_of};
use serde_json::Value;
use shakmaty::Position;

/// What `kibitz analyse --depth N` reports: (score as in the JSON, bestmove).
fn analyse(fen: &str, depth: u32) -> (i64, String) {
    let o = kibitz(&["analyse", "--fen", fen, "--depth", &depth.to_string()]);
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
            assert!(["pv", "cut", "all", "qs"].contains(&n["kind"].as_str().unwrap()));
            let children = n["children"].as_array().unwrap();
            if let Some(c) = n["cutoff"].as_u64() {
                assert!((c as usize) < children.len(), "{fen}: cutoff index");
                assert_eq!(n["bound"], "lower", "{fen}: a cutoff is a lower bound");
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
