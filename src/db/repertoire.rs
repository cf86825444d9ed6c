//! A repertoire: the moves you prepared for one side, and the replies you
//! expect, kept by position (a transposition into a prepared line is in
//! the repertoire). Read from and written to PGN with variations, so that
//! any chess program's repertoire file can be brought in and taken out.

use crate::engine::Board;
use crate::game::movetree::MoveTree;
use crate::game::pgn_read::read_games_full;
use crate::game::{Game, write_pgn_tree};
use shakmaty::{Chess, Color, Move, Position};
use std::collections::{HashMap, HashSet};

use super::position_key;

/// Why a repertoire file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RepertoireError {
    #[error("{0}")]
    Bad(String),
}

/// Who left the repertoire.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum By {
    You,
    Opponent,
}

/// Where a game left the repertoire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// The half-move (from 1, counted from the game's start).
    pub ply: usize,
    /// The move played, in SAN, and numbered ("7.Bc4", "7...Qe7").
    pub played: String,
    pub numbered: String,
    /// The repertoire's moves there, in SAN.
    pub expected: Vec<String>,
    pub by: By,
}

impl Deviation {
    /// "7.Bc4 leaves your repertoire: you prepared 7.d4" or "7...Qe7: your
    /// opponent left your repertoire (you expected 7...d6)".
    pub fn words(&self) -> String {
        let number = self
            .numbered
            .strip_suffix(self.played.as_str())
            .unwrap_or("");
        let expected: Vec<String> = self
            .expected
            .iter()
            .map(|e| format!("{number}{e}"))
            .collect();
        let list = match expected.len() {
            0 => String::new(),
            1 => expected[0].clone(),
            _ => format!(
                "{} or {}",
                expected[..expected.len() - 1].join(", "),
                expected[expected.len() - 1]
            ),
        };
        match self.by {
            By::You => format!(
                "{} leaves your repertoire: you prepared {list}",
                self.numbered
            ),
            By::Opponent => format!(
                "{}: your opponent left your repertoire (you expected {list})",
                self.numbered
            ),
        }
    }
}

/// The moves prepared for one side.
#[derive(Clone, Debug)]
pub struct Repertoire {
    pub side: Color,
    /// Moves from each position, in the order they were added.
    moves: HashMap<u64, Vec<Move>>,
    /// Every position of the repertoire's lines.
    reached: HashSet<u64>,
    /// Where its lines start (the initial position, or set-up positions).
    starts: Vec<Chess>,
}

fn numbered(pos: &Chess, m: Move) -> String {
    let san = shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string();
    let n = pos.fullmoves().get();
    if pos.turn() == Color::White {
        format!("{n}.{san}")
    } else {
        format!("{n}...{san}")
    }
}

fn san(pos: &Chess, m: Move) -> String {
    shakmaty::san::SanPlus::from_move(pos.clone(), m).to_string()
}

impl Repertoire {
    pub fn new(side: Color) -> Repertoire {
        Repertoire {
            side,
            moves: HashMap::new(),
            reached: HashSet::new(),
            starts: Vec::new(),
        }
    }

    /// Every line of every game of `text`, variations included. An
    /// illegal or unreadable move anywhere, variations too, is an error
    /// that names it.
    pub fn from_pgn(text: &str, side: Color) -> Result<Repertoire, RepertoireError> {
        let mut r = Repertoire::new(side);
        r.merge_pgn(text)?;
        Ok(r)
    }

    /// Adds the lines of `text` (see [`Repertoire::from_pgn`]); nothing is
    /// added when any of it is bad.
    pub fn merge_pgn(&mut self, text: &str) -> Result<usize, RepertoireError> {
        let mut trees = Vec::new();
        for g in read_games_full(text) {
            let g = g.map_err(|e| RepertoireError::Bad(e.to_string()))?;
            if let Some(w) = g.warnings.iter().find(|w| w.contains("variation was cut")) {
                return Err(RepertoireError::Bad(format!(
                    "game {}: {w}",
                    trees.len() + 1
                )));
            }
            trees.push(g.tree);
        }
        let mut added = 0;
        for tree in &trees {
            let start = tree.start.chess().clone();
            let mut stack = vec![(0usize, start.clone())];
            self.add_start(&start);
            while let Some((id, pos)) = stack.pop() {
                let mut next = Vec::new();
                for &c in &tree.node(id).children {
                    if let Some(m) = tree.node(c).mv {
                        added += usize::from(self.add(&pos, m));
                        let mut after = pos.clone();
                        after.play_unchecked(m);
                        next.push((c, after));
                    }
                }
                stack.extend(next.into_iter().rev());
            }
        }
        Ok(added)
    }

    fn add_start(&mut self, start: &Chess) {
        let key = position_key(start);
        self.reached.insert(key);
        if !self.starts.iter().any(|s| position_key(s) == key) {
            self.starts.push(start.clone());
        }
    }

    /// Adds `m` (legal in `pos`) to the moves prepared from `pos`; false
    /// when it was there already. A position no line reached yet starts a
    /// line of its own.
    pub fn add(&mut self, pos: &Chess, m: Move) -> bool {
        let key = position_key(pos);
        if !self.reached.contains(&key) {
            self.add_start(pos);
        }
        let list = self.moves.entry(key).or_default();
        if list.contains(&m) {
            return false;
        }
        list.push(m);
        let mut after = pos.clone();
        after.play_unchecked(m);
        self.reached.insert(position_key(&after));
        true
    }

    /// Takes `m` out of the moves from `pos` (the lines after it go with
    /// it, unless another line reaches them); false if it was not there.
    pub fn remove(&mut self, pos: &Chess, m: Move) -> bool {
        let key = position_key(pos);
        let Some(list) = self.moves.get_mut(&key) else {
            return false;
        };
        let Some(i) = list.iter().position(|x| *x == m) else {
            return false;
        };
        list.remove(i);
        self.prune();
        true
    }

    /// Keeps only what the starts still reach.
    fn prune(&mut self) {
        let mut reached = HashSet::new();
        let mut stack: Vec<Chess> = self.starts.clone();
        while let Some(pos) = stack.pop() {
            let key = position_key(&pos);
            if !reached.insert(key) {
                continue;
            }
            for &m in self.moves.get(&key).into_iter().flatten() {
                let mut after = pos.clone();
                after.play_unchecked(m);
                stack.push(after);
            }
        }
        self.moves
            .retain(|k, v| reached.contains(k) && !v.is_empty());
        self.reached = reached;
        // A set-up start left with no move is forgotten.
        let moves = &self.moves;
        self.starts
            .retain(|s| *s == Chess::default() || moves.contains_key(&position_key(s)));
    }

    /// The moves prepared from `pos`.
    pub fn moves(&self, pos: &Chess) -> &[Move] {
        self.moves
            .get(&position_key(pos))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether a line of the repertoire passes through `pos`.
    pub fn contains(&self, pos: &Chess) -> bool {
        self.reached.contains(&position_key(pos))
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Positions where you are to move and have a move prepared.
    pub fn your_positions(&self) -> Vec<Chess> {
        self.walk()
            .into_iter()
            .filter(|p| p.turn() == self.side && !self.moves(p).is_empty())
            .collect()
    }

    /// Every position of the lines, each once, from the starts.
    pub fn walk(&self) -> Vec<Chess> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        let mut stack: Vec<Chess> = self.starts.iter().rev().cloned().collect();
        while let Some(pos) = stack.pop() {
            if !seen.insert(position_key(&pos)) {
                continue;
            }
            for &m in self.moves(&pos).iter().rev() {
                let mut after = pos.clone();
                after.play_unchecked(m);
                stack.push(after);
            }
            out.push(pos);
        }
        out
    }

    /// The shortest line of the repertoire to `target`: its start and
    /// the moves from there.
    pub fn line_to(&self, target: &Chess) -> Option<(Chess, Vec<Move>)> {
        let goal = position_key(target);
        for start in &self.starts {
            let mut seen = HashSet::from([position_key(start)]);
            let mut queue = std::collections::VecDeque::from([(start.clone(), Vec::new())]);
            while let Some((pos, path)) = queue.pop_front() {
                if position_key(&pos) == goal {
                    return Some((start.clone(), path));
                }
                for &m in self.moves(&pos) {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    if seen.insert(position_key(&after)) {
                        let mut p: Vec<Move> = path.clone();
                        p.push(m);
                        queue.push_back((after, p));
                    }
                }
            }
        }
        None
    }

    /// Where the game `moves` from `start` first leaves the repertoire:
    /// a move not prepared from a position of the repertoire that does
    /// not transpose into another. None when the game stays inside until
    /// the repertoire (or the game) ends, or never enters it.
    pub fn deviation(&self, start: &Chess, moves: &[Move]) -> Option<Deviation> {
        let mut pos = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            if !self.contains(&pos) {
                return None;
            }
            let prepared = self.moves(&pos);
            if prepared.is_empty() {
                return None;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            if !prepared.contains(&m) && !self.contains(&after) {
                return Some(Deviation {
                    ply: i + 1,
                    played: san(&pos, m),
                    numbered: numbered(&pos, m),
                    expected: prepared.iter().map(|&e| san(&pos, e)).collect(),
                    by: if pos.turn() == self.side {
                        By::You
                    } else {
                        By::Opponent
                    },
                });
            }
            pos = after;
        }
        None
    }

    /// The repertoire as PGN: a game a start, the first move added the
    /// main line and the others variations; a position reached twice is
    /// followed only the first time.
    pub fn to_pgn(&self) -> String {
        let side = if self.side == Color::White {
            "White"
        } else {
            "Black"
        };
        let mut out = String::new();
        let mut seen = HashSet::new();
        for start in &self.starts {
            let board = Board::from_chess(start.clone());
            let mut tree = MoveTree::new(board.clone());
            let mut stack = vec![(0usize, board)];
            seen.insert(position_key(start));
            while let Some((id, b)) = stack.pop() {
                let mut children = Vec::new();
                for &m in self.moves(b.chess()) {
                    let c = tree.add(id, &b, m);
                    let after = b.play(m);
                    if seen.insert(position_key(after.chess())) {
                        children.push((c, after));
                    }
                }
                stack.extend(children.into_iter().rev());
            }
            if tree.nodes.len() <= 1 {
                continue;
            }
            let mut game = Game::new(tree.start.clone());
            game.set_header("Event", format!("Repertoire ({side})"));
            game.set_header("White", if side == "White" { "Me" } else { "?" });
            game.set_header("Black", if side == "Black" { "Me" } else { "?" });
            out.push_str(&write_pgn_tree(&game, &tree));
            out.push('\n');
        }
        out
    }
}

/// Where the user's repertoire for `side` is kept: `repertoire/white.pgn`
/// or `repertoire/black.pgn` in the data folder, PGN that any chess
/// program reads.
pub fn path(data: &std::path::Path, side: Color) -> std::path::PathBuf {
    let name = if side == Color::White {
        "white.pgn"
    } else {
        "black.pgn"
    };
    data.join("repertoire").join(name)
}

/// The user's repertoire for `side` (empty when there is none yet).
pub fn load(data: &std::path::Path, side: Color) -> Result<Repertoire, RepertoireError> {
    let p = path(data, side);
    match std::fs::read(&p) {
        Ok(bytes) => Repertoire::from_pgn(&crate::util::decode_text(&bytes), side)
            .map_err(|e| RepertoireError::Bad(format!("{}: {e}", p.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Repertoire::new(side)),
        Err(e) => Err(RepertoireError::Bad(format!(
            "cannot read {}: {e}",
            p.display()
        ))),
    }
}

/// Writes the repertoire where [`load`] finds it (atomically).
pub fn save(data: &std::path::Path, r: &Repertoire) -> std::io::Result<()> {
    let p = path(data, r.side);
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::util::write_atomic(&p, r.to_pgn().as_bytes())
}

#[cfg(test)]
mod tests;
