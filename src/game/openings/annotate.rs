//! The opening written into an exported game: `[ECO]` and `[Opening]`
//! tags, and a comment at the move that left the book.

use super::{BookExit, table};
use crate::game::Game;
use crate::game::movetree::MoveTree;
use shakmaty::Move;

/// How a book comment ends ("Last book move: 6.Re1; 6...b5 leaves the
/// book."): how [`annotate_opening`] finds its own comment again.
pub const BOOK_COMMENT_END: &str = " leaves the book.";

/// Is this a comment [`annotate_opening`] wrote?
pub fn is_book_comment(c: &str) -> bool {
    let Some(rest) = c.strip_suffix(BOOK_COMMENT_END) else {
        return false;
    };
    let one_move = |m: &str| !m.is_empty() && !m.contains(' ');
    match rest.strip_prefix("Last book move: ") {
        Some(moves) => moves
            .split_once("; ")
            .is_some_and(|(a, b)| one_move(a) && one_move(b)),
        None => one_move(rest),
    }
}

/// Names the opening of an exported game: `game` gets `[ECO]` and
/// `[Opening]` tags from the table when it has neither (a file's own
/// classification stays as it is, even half of one), and the main line's
/// move that left the book gets the comment "Last book move: 6.Re1;
/// 6...b5 leaves the book." (an earlier such comment is replaced, so
/// exporting twice changes nothing). Returns the book exit, if any.
pub fn annotate_opening(game: &mut Game, tree: &mut MoveTree) -> Option<BookExit> {
    let main = tree.main_line();
    let moves: Vec<Move> = main.iter().filter_map(|&id| tree.node(id).mv).collect();
    let start = tree.start.chess().clone();
    let t = table();
    if game.header("ECO").is_none()
        && game.header("Opening").is_none()
        && let Some((_, o)) = t.name_line(&start, &moves)
    {
        game.set_header("ECO", o.eco);
        game.set_header("Opening", o.name);
    }
    for &id in &main {
        tree.nodes[id].comments.retain(|c| !is_book_comment(c));
    }
    let exit = t.book_exit(&start, &moves)?;
    let text = exit.describe(&start, &moves);
    let node = *main.get(exit.first_out_ply - 1)?;
    tree.nodes[node]
        .comments
        .push(format!("{}.", capitalise(&text)));
    Some(exit)
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
