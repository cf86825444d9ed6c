//! A game with its variations: every position is a node, its first child is
//! the main continuation and the others are alternatives (PGN's `( ... )`).
//! Moves carry their numeric annotation glyphs (NAGs) and comments.
//!
//! [`Game`](super::Game) is the main line alone; replay and annotated export
//! use this tree.

use crate::engine::Board;
use shakmaty::{Color, Move, Position};

/// Index of a node in [`MoveTree::nodes`]; 0 is the start position.
pub type NodeId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    pub parent: Option<NodeId>,
    /// The move that led here (`None` at the start position).
    pub mv: Option<Move>,
    /// SAN with check marks, as the position gives it.
    pub san: String,
    /// Numeric annotation glyphs: 1 = !, 2 = ?, 3 = !!, 4 = ??, 5 = !?, 6 = ?!...
    pub nags: Vec<u8>,
    /// Comments after the move (at the start node: before the first move).
    pub comments: Vec<String>,
    /// `children[0]` continues this line; the rest are variations.
    pub children: Vec<NodeId>,
}

#[derive(Clone, Debug)]
pub struct MoveTree {
    pub start: Board,
    pub nodes: Vec<MoveNode>,
}

impl MoveTree {
    pub fn new(start: Board) -> MoveTree {
        MoveTree {
            start,
            nodes: vec![MoveNode {
                parent: None,
                mv: None,
                san: String::new(),
                nags: Vec::new(),
                comments: Vec::new(),
                children: Vec::new(),
            }],
        }
    }

    /// A tree of one line: `moves` from `start` (with a comment per move).
    pub fn from_line(start: Board, moves: &[Move], comments: &[Option<String>]) -> MoveTree {
        let mut t = MoveTree::new(start);
        let mut cur = 0;
        let mut b = t.start.clone();
        for (i, &m) in moves.iter().enumerate() {
            cur = t.add(cur, &b, m);
            if let Some(Some(c)) = comments.get(i) {
                t.nodes[cur].comments.push(c.clone());
            }
            b = b.play(m);
        }
        t
    }

    pub fn node(&self, id: NodeId) -> &MoveNode {
        &self.nodes[id]
    }

    /// Adds `mv` (legal in `board`, the position at `parent`) below
    /// `parent`, or returns the child that already has it.
    pub fn add(&mut self, parent: NodeId, board: &Board, mv: Move) -> NodeId {
        self.add_with_san(parent, mv, board.san(mv))
    }

    /// [`MoveTree::add`] with the SAN already known.
    pub fn add_with_san(&mut self, parent: NodeId, mv: Move, san: String) -> NodeId {
        if let Some(&c) = self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].mv == Some(mv))
        {
            return c;
        }
        let id = self.nodes.len();
        self.nodes.push(MoveNode {
            parent: Some(parent),
            mv: Some(mv),
            san,
            nags: Vec::new(),
            comments: Vec::new(),
            children: Vec::new(),
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// The main line: the first child from the start, node by node (the
    /// start node not included).
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut cur = 0;
        while let Some(&next) = self.nodes[cur].children.first() {
            out.push(next);
            cur = next;
        }
        out
    }

    /// Nodes from the start (excluded) to `id` (included).
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut cur = id;
        while let Some(p) = self.nodes[cur].parent {
            out.push(cur);
            cur = p;
        }
        out.reverse();
        out
    }

    /// The moves from the start to `id`.
    pub fn moves_to(&self, id: NodeId) -> Vec<Move> {
        self.path(id)
            .iter()
            .filter_map(|&n| self.nodes[n].mv)
            .collect()
    }

    /// The position at a node.
    pub fn board_at(&self, id: NodeId) -> Board {
        let mut b = self.start.clone();
        for m in self.moves_to(id) {
            b = b.play(m);
        }
        b
    }

    /// Half-moves from the start to `id`.
    pub fn ply(&self, id: NodeId) -> usize {
        let mut n = 0;
        let mut cur = id;
        while let Some(p) = self.nodes[cur].parent {
            n += 1;
            cur = p;
        }
        n
    }

    /// Is `id` on the main line (or the start)?
    pub fn on_main_line(&self, id: NodeId) -> bool {
        let mut cur = id;
        while let Some(p) = self.nodes[cur].parent {
            if self.nodes[p].children.first() != Some(&cur) {
                return false;
            }
            cur = p;
        }
        true
    }

    /// Move number and side of the move that leads to `id`: (12, Black).
    pub fn move_number(&self, id: NodeId) -> (u32, Color) {
        let ply = self.ply(id).saturating_sub(1);
        let start = self.start.chess();
        let offset = ply + usize::from(start.turn() == Color::Black);
        let number = u32::try_from(offset / 2)
            .unwrap_or(u32::MAX)
            .saturating_add(start.fullmoves().get());
        let color = if offset.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        (number, color)
    }

    /// Same start, moves, NAGs and comments (the start compared by FEN).
    pub fn same_as(&self, other: &MoveTree) -> bool {
        self.start.fen() == other.start.fen() && self.nodes == other.nodes
    }

    /// Number of nodes with a move.
    pub fn move_count(&self) -> usize {
        self.nodes.len() - 1
    }
}

/// How a NAG is shown: `!`, `?`, `!!`, `??`, `!?`, `?!`, the usual
/// position signs, or `$n`.
pub fn nag_text(nag: u8) -> String {
    match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        7 => "□",
        10 => "=",
        13 => "∞",
        14 => "⩲",
        15 => "⩱",
        16 => "±",
        17 => "∓",
        18 => "+-",
        19 => "-+",
        22 | 23 => "⨀",
        32 | 33 => "⟳",
        36 | 37 => "→",
        40 | 41 => "↑",
        132 | 133 => "⇆",
        138 | 139 => "⊕",
        140 => "∆",
        146 => "N",
        _ => return format!("${nag}"),
    }
    .to_string()
}

/// Moves with their numbers for display: "12. Nf3", "12... Nf6".
pub fn numbered(tree: &MoveTree, id: NodeId, always: bool) -> String {
    let n = tree.node(id);
    let (number, color) = tree.move_number(id);
    let nags: String = n.nags.iter().map(|&g| nag_text(g)).collect();
    match color {
        Color::White => format!("{number}. {}{nags}", n.san),
        Color::Black if always => format!("{number}... {}{nags}", n.san),
        Color::Black => format!("{}{nags}", n.san),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_variations_and_numbers() {
        let mut t = MoveTree::new(Board::startpos());
        let b0 = Board::startpos();
        let e4 = b0.parse_uci("e2e4").unwrap();
        let d4 = b0.parse_uci("d2d4").unwrap();
        let a = t.add(0, &b0, e4);
        let b1 = b0.play(e4);
        let e5 = b1.parse_uci("e7e5").unwrap();
        let c = t.add(a, &b1, e5);
        let v = t.add(0, &b0, d4);
        assert_eq!(t.add(0, &b0, e4), a, "an existing move is found again");
        assert_eq!(t.main_line(), vec![a, c]);
        assert!(t.on_main_line(c));
        assert!(!t.on_main_line(v));
        assert_eq!(t.node(c).san, "e5");
        assert_eq!(t.move_number(c), (1, Color::Black));
        assert_eq!(numbered(&t, c, true), "1... e5");
        assert_eq!(t.ply(c), 2);
        assert_eq!(t.board_at(c).fen(), b1.play(e5).fen());
        assert_eq!(nag_text(5), "!?");
        assert_eq!(nag_text(200), "$200");
    }
}
