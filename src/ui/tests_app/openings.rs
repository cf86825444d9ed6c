//! Opening names on the screens: the play screen and the replay screen
//! name the opening over the move list as moves are played and stepped
//! (at 80 x 24 too, without pushing anything out), the game list names
//! each game's, the review says where the game left the book, and the
//! annotated export carries the tags and the book comment.

use super::replay::{OPERA, replaying};
use super::*;
use crate::game::library::Library;
use crate::game::openings::name_line;

const BERLIN: &str = "C65 Ruy Lopez: Berlin Defense";

/// 6... h6 leaves the book; no ECO or Opening tag.
const BOOK: &str = "[Event \"Book\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 h6 7. c3 d6 *\n\n";

/// The row (from 0) of the first line of `screen` containing `text`.
fn row_of(screen: &str, text: &str) -> Option<usize> {
    screen.lines().position(|l| l.contains(text))
}

/// The opening of the game on the chess screen, by the table.
fn expected(a: &App) -> Option<String> {
    let g = &a.chess().game;
    name_line(g.start().chess(), g.moves()).map(|(_, o)| o.to_string())
}

#[test]
fn the_play_screen_names_the_opening_over_the_moves() {
    let t = Instant::now();
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    a.update(Msg::Resize(80, 24), t);
    let before = render(&a, 80, 24);
    let title_row = row_of(&before, " Moves ").expect("the move list's title");
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6"] {
        type_str(&mut a, m, t);
        // Named as soon as the move is played (drawing only reads it).
        assert_eq!(a.chess().opening.text(), expected(&a), "after {m}");
    }
    let s = render(&a, 80, 24);
    // Where "Moves" was, in full at 80 columns; the rest stays in place.
    assert_eq!(row_of(&s, &format!(" {BERLIN} ")), Some(title_row), "{s}");
    assert!(!s.contains(" Moves "), "{s}");
    assert!(s.contains("1. e4") && s.contains("3. Bb5"), "{s}");
    assert_eq!(row_of(&s, " Game "), row_of(&before, " Game "));
    assert_eq!(row_of(&s, "White"), row_of(&before, "White"));
    // A move out of the book keeps the last name; a takeback goes back.
    type_str(&mut a, "h4", t);
    assert!(render(&a, 80, 24).contains(BERLIN));
    command(&mut a, Action::Takeback, t);
    command(&mut a, Action::Takeback, t);
    let s = render(&a, 80, 24);
    assert_eq!(a.chess().game.moves().len(), 5);
    let name = expected(&a).expect("1. e4 e5 2. Nf3 Nc6 3. Bb5 is named");
    assert_ne!(name, BERLIN);
    assert!(s.contains(&name[..name.len().min(29)]), "{name}: {s}");
    // A position no line reaches has no name: "Moves" again.
    a.start_game(
        setup(
            Mode::HumanVsHuman,
            Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
            None,
        ),
        t,
    );
    type_str(&mut a, "e4", t);
    assert_eq!(a.chess().opening.found(), None);
    assert!(render(&a, 80, 24).contains(" Moves "));
}

#[test]
fn the_replay_screen_names_the_opening_as_it_steps() {
    let now = Instant::now();
    let mut a = replaying(OPERA, None, now);
    a.update(Msg::Resize(80, 24), now);
    let s = render(&a, 80, 24);
    assert!(s.contains("Moves (↑↓ variations)"), "{s}");
    for _ in 0..4 {
        key(&mut a, KeyCode::Right, now);
    }
    // 2... d6: the Philidor, with the hint that there are variations.
    let name = expected(&a).expect("the Philidor is named");
    assert!(name.contains("Philidor"), "{name}");
    let s = render(&a, 80, 24);
    assert!(s.contains(&format!(" {name} (↑↓) ")), "{name}: {s}");
    // A variation is named by its own moves: 3... exd4 4. Nxd4.
    type_str(&mut a, "3b", now);
    key(&mut a, KeyCode::Down, now);
    key(&mut a, KeyCode::Right, now);
    assert_eq!(a.chess().opening.text(), expected(&a));
    // At the end the last named position of the game is kept.
    key(&mut a, KeyCode::End, now);
    let s = render(&a, 160, 50);
    let name = expected(&a).expect("named");
    assert!(s.contains(&name), "{name}: {s}");
    // Back to the start: no name.
    key(&mut a, KeyCode::Home, now);
    assert_eq!(a.chess().opening.found(), None);
}

#[test]
fn the_game_list_names_each_games_opening() {
    let now = Instant::now();
    let berlin = "[Event \"B\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"*\"]\n\n\
        1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. h4 *\n\n";
    let tagged = "[Event \"T\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"*\"]\n\
        [ECO \"C60\"]\n[Opening \"Spanish Game\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 *\n\n";
    let text = format!("{berlin}{OPERA}{tagged}");
    let mut a = replaying(&text, None, now);
    assert!(matches!(a.ui.overlay, Overlay::Games { .. }));
    // The background check reads every game and names it.
    let mut lib = Library::from_text("test.pgn".into(), text.clone(), &mut |_| {});
    let statuses: Vec<_> = (0..3)
        .map(|i| {
            let _ = lib.load(i);
            let e = &lib.entries[i];
            (i, e.status.clone(), e.opening)
        })
        .collect();
    let id = a.task::<Replay>().unwrap().file_id;
    a.update(
        Msg::Checked {
            id,
            statuses,
            left_repertoire: Vec::new(),
            done: true,
        },
        now,
    );
    let s = render(&a, 120, 40);
    assert!(s.contains(&format!("B · {BERLIN}")), "{s}");
    assert!(s.contains("Philidor"), "{s}");
    // A file's own names come first.
    assert!(s.contains("T · C60 Spanish Game"), "{s}");
}

#[test]
fn the_review_and_the_export_say_where_the_book_ends() {
    let now = Instant::now();
    let mut a = replaying(BOOK, None, now);
    let exit = "Last book move: 6.Re1; 6...h6 leaves the book.";
    a.take_effects();
    key(&mut a, KeyCode::Char('r'), now);
    let id = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Review(r) => Some(r.id),
            _ => None,
        })
        .expect("the review runs");
    a.update(
        Msg::Reviewed {
            id,
            done: 15,
            total: 15,
            review: None,
            finished: true,
        },
        now,
    );
    let status = a.ui.status.clone().expect("the review's summary");
    assert!(
        status.text.starts_with("Review done.") && status.text.contains(exit),
        "{}",
        status.text
    );
    // The move that left the book says so under the move list.
    type_str(&mut a, "6b", now);
    let s = render(&a, 160, 50);
    assert!(s.contains(exit), "{s}");
    type_str(&mut a, "6", now);
    assert!(!render(&a, 160, 50).contains(exit));
    // The export names the opening and marks the move.
    a.ui.dirs.data = None;
    shift(&mut a, 'E', now);
    let text = a
        .take_effects()
        .into_iter()
        .find_map(|e| match e {
            Effect::Copy { text, .. } => Some(text),
            _ => None,
        })
        .expect("export");
    let g = crate::game::pgn_read::read_games_full(&text);
    let g = g[0].as_ref().expect("the export reads back");
    let (_, o) = name_line(g.game.start().chess(), g.game.moves()).unwrap();
    assert_eq!(g.game.header("ECO"), Some(o.eco), "{text}");
    assert_eq!(g.game.header("Opening"), Some(o.name), "{text}");
    assert!(text.contains(&format!("{{{exit}}}")), "{text}");
    // Opened again, the comment is in the move list and in the note once
    // (as the file's comment, not again as the book's note).
    let mut b = replaying(&text, None, now);
    type_str(&mut b, "6b", now);
    let s = render(&b, 160, 50);
    assert_eq!(s.matches("leaves the book.").count(), 2, "{s}");
}
