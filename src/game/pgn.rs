//! PGN export.

use super::Game;
use super::movetree::{MoveTree, NodeId};
use crate::engine::{Board, Variant};
use shakmaty::{Color, Position};

/// Escapes a tag value (backslash and double quote).
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Removes `}` from comments (it would end the comment early).
pub(crate) fn comment_text(c: &str) -> String {
    c.replace('}', ")")
}

/// The text that PGN and BPGN ([`crate::bughouse::bpgn`]) share: tags as
/// `[Key "value"]`, one a line, a blank line, then the movetext in lines
/// of at most 80 columns and a blank line.
pub(crate) struct PgnWriter<'a> {
    /// The game's headers, in their order.
    headers: &'a [(String, String)],
    out: String,
}

impl<'a> PgnWriter<'a> {
    pub(crate) fn new(headers: &'a [(String, String)]) -> PgnWriter<'a> {
        PgnWriter {
            headers,
            out: String::new(),
        }
    }

    fn header(&self, key: &str) -> Option<&'a str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// `[Key "value"]`, the value escaped.
    pub(crate) fn tag(&mut self, key: &str, value: &str) {
        self.out
            .push_str(&format!("[{key} \"{}\"]\n", escape(value)));
    }

    /// These tags from the headers; a missing one as `?` (the `Date` as
    /// `????.??.??`).
    pub(crate) fn roster(&mut self, keys: &[&str]) {
        for &key in keys {
            let v = self.header(key).unwrap_or(match key {
                "Date" => "????.??.??",
                _ => "?",
            });
            self.tag(key, v);
        }
    }

    /// `[SetUp "1"]` and `[FEN "fen"]`: the game does not start from the
    /// initial position.
    pub(crate) fn setup(&mut self, fen: &str) {
        self.tag("SetUp", "1");
        self.tag("FEN", fen);
    }

    /// The headers the writer does not write itself (`managed` says which
    /// it does), in their order.
    pub(crate) fn other_tags(&mut self, managed: impl Fn(&str) -> bool) {
        for (k, v) in self.headers {
            if !managed(k) {
                self.tag(k, v);
            }
        }
    }

    /// Ends the tags and writes the movetext `tokens` in lines of at most
    /// 80 columns (a token longer than that gets a line of its own), then
    /// a blank line.
    pub(crate) fn finish(mut self, tokens: Vec<String>) -> String {
        let out = &mut self.out;
        out.push('\n');
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        self.out
    }
}

/// The seven-tag roster but `Result`, which comes from the game's ending.
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// Writes a game as PGN: the seven-tag roster (with `?` for missing values),
/// `SetUp`/`FEN` when the game does not start from the initial position, the
/// other headers, then SAN movetext wrapped at 80 columns.
/// How the game ended is recorded: a `Termination` tag when there is none,
/// and the exact reason ("checkmate", "threefold repetition") as a last
/// comment, which the reader takes back.
pub fn write_pgn(game: &Game) -> String {
    let tree = MoveTree::from_line(game.start().clone(), game.moves(), game.comments());
    write(game, &tree, true)
}

/// [`write_pgn`] with the moves from `tree`: variations in parentheses,
/// NAGs as `$n`, every comment. The headers and result come from `game`;
/// nothing is added to them (a game read from a file is written as it came).
pub fn write_pgn_tree(game: &Game, tree: &MoveTree) -> String {
    write(game, tree, false)
}

fn write(game: &Game, tree: &MoveTree, ours: bool) -> String {
    let result = game.ending.map_or("*", |e| e.result.pgn());
    let managed = ["Result", "SetUp", "FEN"];
    let w = write_tags(game, &tree.start, None, &managed, ours);
    let mut tokens: Vec<String> = Vec::new();
    for c in &tree.node(0).comments {
        tokens.push(format!("{{{}}}", comment_text(c)));
    }
    write_line(tree, 0, true, &mut tokens);
    if let Some(e) = game.ending
        && ours
    {
        tokens.push(format!("{{{}}}", e.termination.describe()));
    }
    tokens.push(result.to_string());
    w.finish(tokens)
}

/// The tags of a game: the roster, `Result`, `[Variant "variant"]`,
/// `SetUp`/`FEN` when `start` is not the variant's initial position, the
/// other headers but the `managed` ones and, with `termination`, a
/// `Termination` tag when the game has ended and the headers have none.
fn write_tags<'a, V: Variant>(
    game: &'a Game<V>,
    start: &Board<V>,
    variant: Option<&str>,
    managed: &[&str],
    termination: bool,
) -> PgnWriter<'a> {
    let mut w = PgnWriter::new(&game.headers);
    w.roster(&ROSTER);
    w.tag("Result", game.ending.map_or("*", |e| e.result.pgn()));
    if let Some(v) = variant {
        w.tag("Variant", v);
    }
    if start.fen() != Board::<V>::start_position().fen() {
        w.setup(&start.fen());
    }
    w.other_tags(|k| ROSTER.contains(&k) || managed.contains(&k));
    if let Some(e) = game.ending
        && game.header("Termination").is_none()
        && termination
    {
        w.tag("Termination", e.termination.pgn_tag());
    }
    w
}

/// Writes a game of any variant as PGN, main line only: the seven-tag
/// roster, `[Variant "Crazyhouse"]` (or "Bughouse") outside standard
/// chess, `SetUp`/`FEN` for another start, the other headers, SAN moves
/// (drops as `N@f3`, `P@e4`) with their comments, how the game ended.
pub fn write_variant_pgn<V: Variant>(game: &Game<V>) -> String {
    let result = game.ending.map_or("*", |e| e.result.pgn());
    let variant = match V::KIND {
        crate::variant::VariantKind::Chess => None,
        crate::variant::VariantKind::Crazyhouse => Some("Crazyhouse"),
        crate::variant::VariantKind::Bughouse => Some("Bughouse"),
    };
    let managed = ["Result", "SetUp", "FEN", "Variant"];
    let start = game.start();
    let w = write_tags(game, start, variant, &managed, true);
    let mut tokens = Vec::new();
    let mut board = start.clone();
    let mut numbered = true;
    for (m, comment) in game.moves().iter().zip(game.comments()) {
        let san = board.san(*m);
        let number = board.pos().fullmoves();
        match board.turn() {
            Color::White => tokens.push(format!("{number}. {san}")),
            Color::Black if numbered => tokens.push(format!("{number}... {san}")),
            Color::Black => tokens.push(san),
        }
        numbered = comment.is_some();
        if let Some(c) = comment {
            tokens.push(format!("{{{}}}", comment_text(c)));
        }
        board = board.play(*m);
    }
    if let Some(e) = game.ending {
        tokens.push(format!("{{{}}}", e.termination.describe()));
    }
    tokens.push(result.to_string());
    w.finish(tokens)
}
/// The line that continues from `from`: its main moves, each followed by
/// its comments and the variations that replace it.
/// `numbered`: the first Black move needs its number (at the start of the
/// game or after the move that a variation replaces).
fn write_line(tree: &MoveTree, from: NodeId, mut numbered: bool, tokens: &mut Vec<String>) {
    let mut cur = from;
    // A Black move needs its number after a comment, a variation or at the
    // start of a line.
    while let Some(&main) = tree.node(cur).children.first() {
        write_move(tree, main, numbered, tokens);
        let alternatives = &tree.node(cur).children[1..];
        numbered = !tree.node(main).comments.is_empty() || !alternatives.is_empty();
        for &v in alternatives {
            tokens.push("(".to_string());
            write_move(tree, v, true, tokens);
            write_line(tree, v, !tree.node(v).comments.is_empty(), tokens);
            tokens.push(")".to_string());
        }
        cur = main;
    }
}

fn write_move(tree: &MoveTree, id: NodeId, numbered: bool, tokens: &mut Vec<String>) {
    let n = tree.node(id);
    let (number, color) = tree.move_number(id);
    // The number and the move in one token: a line break never parts them.
    match color {
        Color::White => tokens.push(format!("{number}. {}", n.san)),
        Color::Black if numbered => tokens.push(format!("{number}... {}", n.san)),
        Color::Black => tokens.push(n.san.clone()),
    }
    for &g in &n.nags {
        tokens.push(format!("${g}"));
    }
    for c in &n.comments {
        tokens.push(format!("{{{}}}", comment_text(c)));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Ending, GameResult, Termination};
    use super::*;
    use crate::engine::Board;

    #[test]
    fn writes_headers_and_movetext() {
        let mut g = Game::new(Board::startpos());
        g.set_header("Event", "Test \"quoted\"");
        g.set_header("White", "Kibitz");
        g.set_header("TimeControl", "10+0.1");
        for u in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = g.current().parse_uci(u).unwrap();
            g.push(m, None);
        }
        g.ending = Some(Ending {
            result: GameResult::BlackWins,
            termination: Termination::Checkmate,
        });
        let pgn = write_pgn(&g);
        assert!(pgn.contains("[Event \"Test \\\"quoted\\\"\"]"));
        assert!(pgn.contains("[Date \"????.??.??\"]"));
        assert!(pgn.contains("[Result \"0-1\"]"));
        assert!(pgn.contains("[TimeControl \"10+0.1\"]"));
        assert!(pgn.contains("[Termination \"normal\"]"));
        assert!(!pgn.contains("SetUp"));
        assert!(pgn.contains("1. f3 e5 2. g4 Qh4# {checkmate} 0-1"), "{pgn}");
    }

    #[test]
    fn black_to_move_start_uses_ellipsis() {
        let b = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 12").unwrap();
        let mut g = Game::new(b);
        let m = g.current().parse_uci("e8d7").unwrap();
        g.push(m, Some("only move}".into()));
        let pgn = write_pgn(&g);
        assert!(pgn.contains("[SetUp \"1\"]"));
        assert!(pgn.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]"));
        assert!(pgn.contains("12... Kd7 {only move)} *"), "{pgn}");
    }
}
