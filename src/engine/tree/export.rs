//! Writing a recorded search tree as JSON (a contract other tools read) or
//! as Graphviz DOT (for slides).
//!
//! JSON: `{"fen", "depth", "score", "bestmove", "pv": [uci...], "nodes",
//! "truncated", "root": NODE}`, NODE = `{"move", "san", "alpha", "beta",
//! "score", "bound", "kind", "cutoff", "pruned", "events", "children"}`.
//! Scores are centipawns from the point of view of the side to move at that
//! node (negamax); mates are +-(32000 - plies to mate from that node); an
//! open window edge is +-32001. Beyond the contract each node also has
//! `depth`, `best` (index of the child that set the score) and `on_pv`;
//! the top level has `earlier_passes` (root searches of the final iteration
//! whose aspiration window failed, in order) and `nodes_recorded` (all
//! passes; `nodes` counts the final pass, the NODE objects under `root`).

use super::{Entry, NodeId, Note, SearchTree};
use crate::engine::board::Board;
use crate::engine::score::{Ply, Score};
use crate::engine::variant::Variant;
use crate::engine::{Bound, Features, SearchReport};
use serde_json::{Value, json};
use std::fmt::Write;

/// A score seen from a node `ply` plies below the root, where mate
/// distances count from that node, not from the root.
pub fn node_relative(s: Score, ply: Ply) -> i32 {
    let p = ply as i32;
    if s.0.abs() >= Score::INFINITE.0 {
        s.0.signum() * Score::INFINITE.0
    } else if s.is_win() {
        // A window edge can lie beyond any mate from this node: infinite.
        (s.0 + p).min(Score::INFINITE.0)
    } else if s.is_loss() {
        (s.0 - p).max(-Score::INFINITE.0)
    } else {
        s.0
    }
}

fn bound_name(b: Bound) -> &'static str {
    match b {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        // `None` only on nodes of a stopped search.
        Bound::Upper | Bound::None => "upper",
    }
}

/// The switched-off features, as `--no` names.
pub fn disabled_features(f: Features) -> Vec<&'static str> {
    let mut v = Vec::new();
    for (on, name) in [
        (f.alpha_beta, "alpha-beta"),
        (f.move_ordering, "ordering"),
        (f.transposition_table, "tt"),
        (f.null_move, "null-move"),
        (f.late_move_reductions, "lmr"),
        (f.pruning, "pruning"),
        (f.quiescence, "quiescence"),
        (f.aspiration, "aspiration"),
    ] {
        if !on {
            v.push(name);
        }
    }
    v
}

/// The labels of a node's events (`tt-hit`, `null-move -3`, `lmr -2`...).
pub fn event_labels<V: Variant>(tree: &SearchTree<V>, id: NodeId) -> Vec<String> {
    let n = tree.node(id);
    let mut v = Vec::new();
    match n.entry {
        Entry::NullMove => v.push("null-move search".to_string()),
        Entry::Verification => v.push("null-move verification".to_string()),
        _ => {}
    }
    if let Some(sp) = n.stand_pat {
        v.push(format!("stand-pat {}", node_relative(sp, n.ply)));
    }
    for note in &n.notes {
        let label = match note {
            // Move-specific decisions name the move.
            Note::Prune(p) if p.mv().is_some() => {
                let m = p.mv().map(Board::uci).unwrap_or_default();
                format!("{} {m}", p.label())
            }
            Note::Research { mv, .. } => format!("{} {}", note.label(), Board::uci(*mv)),
            _ => note.label(),
        };
        v.push(label);
    }
    v
}

/// A node as JSON; `board` is its position, `parent` its parent's, `pv`
/// the nodes of the principal variation.
fn node_json<V: Variant>(
    tree: &SearchTree<V>,
    id: NodeId,
    board: &Board<V>,
    parent: Option<&Board<V>>,
    pv: &[NodeId],
) -> Value {
    let n = tree.node(id);
    let (mv, san) = match (n.entry, n.mv, parent) {
        (Entry::Move, Some(m), Some(p)) => (json!(Board::uci(m)), json!(p.san(m))),
        (Entry::NullMove, _, _) => (Value::Null, json!("--")),
        _ => (Value::Null, Value::Null),
    };
    let children: Vec<Value> = n
        .children
        .iter()
        .map(|&c| node_json(tree, c, &child_position(tree, c, board), Some(board), pv))
        .collect();
    let pruned: Vec<String> = tree
        .unsearched_at(id, board)
        .iter()
        .map(|&m| Board::uci(m))
        .collect();
    json!({
        "move": mv,
        "san": san,
        "alpha": node_relative(n.alpha, n.ply),
        "beta": node_relative(n.beta, n.ply),
        "score": node_relative(n.score, n.ply),
        "bound": bound_name(n.bound),
        "kind": tree.node_type(id).name(),
        "depth": n.depth,
        "cutoff": n.cutoff,
        "best": n.best,
        "on_pv": n.entry == Entry::Root || pv.contains(&id),
        "pruned": pruned,
        "events": event_labels(tree, id),
        "children": children,
    })
}

/// The position a child node stands in, from its parent's position.
pub fn child_position<V: Variant>(
    tree: &SearchTree<V>,
    child: NodeId,
    parent: &Board<V>,
) -> Board<V> {
    let n = tree.node(child);
    match (n.entry, n.mv) {
        (Entry::Move, Some(m)) => parent.play(m),
        (Entry::NullMove, _) => parent.null_move().unwrap_or_else(|| parent.clone()),
        _ => parent.clone(),
    }
}

/// The whole tree as the JSON contract says.
pub fn to_json<V: Variant>(tree: &SearchTree<V>, report: &SearchReport) -> Value {
    let pv = tree.pv_nodes();
    let root = tree
        .root()
        .map(|r| node_json(tree, r, &tree.root_board, None, &pv));
    // Aspiration re-searches of the root in the final iteration: the
    // earlier passes, whose windows failed, come before the root.
    let earlier: Vec<Value> = tree
        .passes
        .iter()
        .rev()
        .skip(1)
        .rev()
        .map(|&p| node_json(tree, p, &tree.root_board, None, &pv))
        .collect();
    json!({
        "fen": tree.root_board.fen(),
        "depth": tree.depth,
        "score": report.result.score.0,
        "bestmove": report.best_move.map(Board::uci),
        "pv": report.result.pv.iter().map(|&m| Board::uci(m)).collect::<Vec<_>>(),
        "nodes": tree.root().map_or(0, |r| tree.subtree_size(r)),
        "truncated": tree.truncated,
        "nodes_recorded": tree.nodes.len(),
        "earlier_passes": earlier,
        "root": root,
    })
}

/// Graphviz DOT: one box per node (move, score and bound, window), PV nodes
/// bold, cut nodes red, all nodes grey, quiescence dashed; pruned moves as a
/// greyed note under their node.
pub fn to_dot<V: Variant>(tree: &SearchTree<V>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph search {{");
    let _ = writeln!(
        out,
        "  graph [rankdir=TB, fontname=\"Helvetica\", label=\"{} depth {}{}\", labelloc=t];",
        tree.root_board.fen(),
        tree.depth,
        if tree.truncated { " (truncated)" } else { "" }
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded\", fontname=\"Helvetica\", fontsize=10];"
    );
    let pv: Vec<NodeId> = tree.pv_nodes();
    let Some(root) = tree.root() else {
        out.push_str("}\n");
        return out;
    };
    let mut stack = vec![(root, tree.root_board.clone(), "root".to_string())];
    while let Some((id, board, name)) = stack.pop() {
        let n = tree.node(id);
        let window = format!(
            "[{}, {}]",
            show(node_relative(n.alpha, n.ply)),
            show(node_relative(n.beta, n.ply))
        );
        let ty = tree.node_type(id);
        let (color, style) = match ty.name() {
            "pv" => ("darkgreen", "rounded,bold"),
            "cut" => ("firebrick", "rounded"),
            "all" => ("gray40", "rounded"),
            _ => ("steelblue", "rounded,dashed"),
        };
        let on_pv = id == root || pv.contains(&id);
        let _ = writeln!(
            out,
            "  n{id} [label=\"{}\\n{} {}\\n{window}\", color={color}, style=\"{style}{}\"];",
            escape(&name),
            show(node_relative(n.score, n.ply)),
            bound_name(n.bound),
            if on_pv {
                ",filled\", fillcolor=\"#e8f5e9"
            } else {
                ""
            }
        );
        let pruned = tree.unsearched_at(id, &board);
        if !pruned.is_empty() && n.kind != crate::engine::NodeKind::Quiescence {
            let list: Vec<String> = pruned.iter().map(|&m| board.san(m)).collect();
            let _ = writeln!(
                out,
                "  p{id} [label=\"not searched: {}\", shape=plaintext, fontcolor=gray60];",
                escape(&wrap(&list.join(" "), 40))
            );
            let _ = writeln!(
                out,
                "  n{id} -> p{id} [style=dotted, color=gray70, arrowhead=none];"
            );
        }
        for (i, &c) in n.children.iter().enumerate() {
            let cut = n.cutoff == Some(i);
            let _ = writeln!(
                out,
                "  n{id} -> n{c} [label=\"{}\"{}];",
                i + 1,
                if cut {
                    ", color=firebrick, penwidth=2"
                } else {
                    ""
                }
            );
            let child = tree.node(c);
            let label = match (child.entry, child.mv) {
                (Entry::Move, Some(m)) => board.san(m),
                (Entry::NullMove, _) => "(null)".to_string(),
                _ => "(verify)".to_string(),
            };
            stack.push((c, child_position(tree, c, &board), label));
        }
    }
    out.push_str("}\n");
    out
}

fn show(v: i32) -> String {
    if v >= Score::INFINITE.0 {
        "+inf".into()
    } else if v <= -Score::INFINITE.0 {
        "-inf".into()
    } else if v.abs() >= Score::MATE_BOUND {
        let plies = Score::MATE.0 - v.abs();
        format!("{}M{}", if v > 0 { "+" } else { "-" }, (plies + 1) / 2)
    } else {
        format!("{v:+}")
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn wrap(s: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for w in s.split(' ') {
        if line > 0 && line + w.len() > width {
            out.push_str("\\n");
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(w);
        line += w.len();
    }
    out
}
