//! `kibitz annotate`: the engine's review written into PGN. The games come
//! back with the same moves and tags, `[%eval]` comments, glyphs on the bad
//! moves and the better line as a variation; bad games are skipped and a
//! missing file is a clear error.

mod common;

use common::{Temp, kibitz, stderr_of, stdout_of};
use kibitz::game::movetree::MoveTree;
use kibitz::game::pgn_read::{ParsedGame, read_games_full};
use std::path::Path;

/// 3... Nf6?? allows Qxf7#.
const SCHOLAR: &str = "[Event \"Annotate test\"]\n[Site \"Here\"]\n[Date \"2024.01.02\"]\n\
[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[ECO \"C20\"]\n\n\
1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n";

fn games(text: &str) -> Vec<ParsedGame> {
    read_games_full(text)
        .into_iter()
        .map(|g| g.expect("the output reads back"))
        .collect()
}

/// Tags but `Termination`, which the PGN writer adds.
fn tags(g: &ParsedGame) -> Vec<(String, String)> {
    g.game
        .headers
        .iter()
        .filter(|(k, _)| k != "Termination")
        .cloned()
        .collect()
}

/// Comments without `[%eval]` and without the review's own (nor the
/// book's: where the game left the opening book).
/// A comment the review wrote: "Mistake (+0.20 → -1.50): a reason. Qd2
/// was best." (the reason and the best move are not always there).
fn is_verdict(c: &str) -> bool {
    ["Inaccuracy (", "Mistake (", "Blunder ("]
        .iter()
        .any(|j| c.starts_with(j) && c.contains(" → "))
}

fn plain_comments(tree: &MoveTree, id: usize) -> Vec<String> {
    tree.node(id)
        .comments
        .iter()
        .filter(|c| {
            !c.starts_with("[%eval")
                && !is_verdict(c)
                && !kibitz::game::openings::is_book_comment(c)
        })
        .cloned()
        .collect()
}

fn opera() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/opera-annotated.pgn");
    std::fs::read_to_string(p).expect("the sample game")
}

#[test]
fn a_blunder_is_marked_and_the_games_keep_their_moves_and_tags() {
    let input = format!("{SCHOLAR}{}", opera());
    let file = Temp::new("annotate-in.pgn", &input);
    let out = Temp::new("annotate-out.pgn", "");
    let o = kibitz(&["annotate", file.path(), "--depth", "6", "-o", out.path()]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert!(stdout_of(&o).is_empty(), "with -o nothing goes to stdout");
    assert!(
        stderr_of(&o).contains("2 game(s) annotated"),
        "{}",
        stderr_of(&o)
    );

    let text = std::fs::read_to_string(&out.0).expect("the output file");
    assert!(text.contains("[%eval "), "{text}");
    let before = games(&input);
    let after = games(&text);
    assert_eq!(after.len(), 2);
    for (a, b) in before.iter().zip(&after) {
        assert_eq!(a.game.moves(), b.game.moves());
        assert_eq!(a.game.start().fen(), b.game.start().fen());
        assert_eq!(tags(a), tags(b));
        assert_eq!(
            a.game.ending.map(|e| e.result),
            b.game.ending.map(|e| e.result)
        );
    }

    // 3... Nf6 ?? with the defence as a variation, named in the comment.
    let t = &after[0].tree;
    let main = t.main_line();
    let nf6 = t.node(main[5]);
    assert_eq!(nf6.san, "Nf6");
    assert!(nf6.nags.contains(&4), "{nf6:?}");
    let parent = t.node(main[4]);
    assert_eq!(parent.children.len(), 2, "one variation");
    let best = t.node(parent.children[1]);
    assert!(
        ["g6", "Qe7", "Qf6"].contains(&best.san.as_str()),
        "a move that stops Qxf7#: {}",
        best.san
    );
    let verdict = nf6
        .comments
        .iter()
        .find(|c| c.starts_with("Blunder ("))
        .unwrap_or_else(|| panic!("{:?}", nf6.comments));
    assert!(
        verdict.ends_with(&format!("{} was best.", best.san)),
        "{verdict}"
    );
    assert!(
        verdict.contains(" → #1): allows 4.Qxf7# mate. "),
        "the reason follows the scores: {verdict}"
    );
    assert!(nf6.comments.contains(&"[%eval #1]".to_string()));
    // The mate is best: no glyph, no variation.
    assert!(t.node(main[6]).nags.is_empty());
    assert_eq!(t.node(main[5]).children.len(), 1);

    // The annotated game keeps its comments, glyphs and variations.
    let (a, b) = (&before[1].tree, &after[1].tree);
    for (&x, &y) in a.main_line().iter().zip(&b.main_line()) {
        assert_eq!(plain_comments(a, x), plain_comments(b, y));
        for g in &a.node(x).nags {
            assert!(b.node(y).nags.contains(g));
        }
        let moves = |t: &MoveTree, id: usize| -> Vec<_> {
            t.node(id).children.iter().map(|&c| t.node(c).mv).collect()
        };
        let (ma, mb) = (moves(a, x), moves(b, y));
        assert_eq!(ma[..], mb[..ma.len()], "variations first, in order");
    }
    assert_eq!(plain_comments(a, 0), plain_comments(b, 0));

    // One game to stdout.
    let o = kibitz(&["annotate", file.path(), "--depth", "4", "--game", "1"]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let one = games(&stdout_of(&o));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].game.moves(), before[0].game.moves());
}

#[test]
fn openings_are_named_in_tags_and_where_the_book_ends() {
    // No ECO or Opening tag: both come from the opening table. 6... h6
    // leaves the book.
    let game = "[Event \"Book\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 \
                4. Ba4 Nf6 5. O-O Be7 6. Re1 h6 7. c3 *\n\n";
    let file = Temp::new("annotate-book.pgn", &format!("{game}{SCHOLAR}"));
    let o = kibitz(&["annotate", file.path(), "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let text = stdout_of(&o);
    let g = games(&text);
    let moves = g[0].game.moves();
    let (_, named) =
        kibitz::game::openings::name_line(g[0].game.start().chess(), &moves[..11]).unwrap();
    assert_eq!(g[0].game.header("ECO"), Some(named.eco), "{text}");
    assert_eq!(g[0].game.header("Opening"), Some(named.name), "{text}");
    assert!(named.name.starts_with("Ruy Lopez"), "{named}");
    let t = &g[0].tree;
    let h6 = t.node(t.main_line()[11]);
    assert_eq!(h6.san, "h6");
    assert!(
        h6.comments
            .contains(&"Last book move: 6.Re1; 6...h6 leaves the book.".to_string()),
        "{:?}",
        h6.comments
    );
    // A game with its own ECO tag keeps it, without an Opening tag added.
    assert_eq!(g[1].game.header("ECO"), Some("C20"));
    assert_eq!(g[1].game.header("Opening"), None);
}

#[test]
fn a_move_history_file_is_annotated() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/kq-vs-k.history");
    let o = kibitz(&["annotate", path.to_str().unwrap(), "--depth", "6"]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let text = stdout_of(&o);
    let g = games(&text);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].game.start().fen(), "8/8/8/2k5/8/8/8/4K2Q w - - 0 1");
    assert_eq!(g[0].game.moves().len(), 13);
    assert!(text.contains("[%eval "), "{text}");
    // White mates: a mate announced before the end.
    assert!(text.contains("[%eval #1]"), "{text}");
}

#[test]
fn bad_games_are_skipped_and_named() {
    let bad = "[Event \"Bad\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf9 *\n\n";
    let file = Temp::new("annotate-mixed.pgn", &format!("{SCHOLAR}{bad}"));
    let o = kibitz(&["annotate", file.path(), "--depth", "3"]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let err = stderr_of(&o);
    assert!(
        err.contains("game 2, line 15") && err.contains("Nf9"),
        "{err}"
    );
    assert_eq!(games(&stdout_of(&o)).len(), 1);

    let only_bad = Temp::new("annotate-bad.pgn", bad);
    let o = kibitz(&["annotate", only_bad.path(), "--depth", "3"]);
    assert!(!o.status.success());
    assert!(
        stderr_of(&o).contains("could be annotated"),
        "{}",
        stderr_of(&o)
    );

    let o = kibitz(&["annotate", file.path(), "--game", "3"]);
    assert!(!o.status.success());
    assert!(stderr_of(&o).contains("--game 3"), "{}", stderr_of(&o));
}

#[test]
fn a_missing_file_is_a_clear_error() {
    let missing = std::env::temp_dir().join("kibitz-annotate-no-such-file.pgn");
    let o = kibitz(&["annotate", missing.to_str().unwrap(), "--depth", "3"]);
    assert!(!o.status.success());
    assert!(stdout_of(&o).is_empty());
    let err = stderr_of(&o);
    assert!(
        err.contains("cannot read") && err.contains("kibitz-annotate-no-such-file.pgn"),
        "{err}"
    );
}
