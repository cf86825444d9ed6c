use super::*;
use crate::engine::Board;
use shakmaty::fen::Fen;
use shakmaty::san::San;

/// The moves of a SAN line ("1. e4 e5 2. Nf3" or "e4 e5 Nf3") from `start`.
fn line(start: &Chess, text: &str) -> Vec<Move> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for tok in sans(text) {
        let m = tok.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

fn after(start: &Chess, text: &str) -> Chess {
    let mut pos = start.clone();
    for m in line(start, text) {
        pos.play_unchecked(m);
    }
    pos
}

fn fen(text: &str) -> Chess {
    text.parse::<Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap()
}

const BERLIN: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6";

#[test]
fn every_line_of_the_table_is_named_as_itself() {
    let t = table();
    assert!(t.problems.is_empty(), "{:?}", t.problems);
    assert_eq!(t.openings().len(), 3807, "the five files' lines");
    // Lichess keeps the table free of two lines with one position (its
    // generator reports a "duplicate epd"): so each line names its own.
    assert!(t.duplicates.is_empty(), "{:?}", t.duplicates);
    let start = Chess::default();
    for o in t.openings() {
        let moves = line(&start, o.pgn);
        assert_eq!(moves.len(), o.plies, "{o}");
        let pos = after(&start, o.pgn);
        assert_eq!(t.name_position(&pos), Some(o), "{}", o.pgn);
        assert_eq!(t.name_line(&start, &moves), Some((o.plies, o)), "{}", o.pgn);
        assert!(t.in_book(&pos));
        // The end of a line is in the book: it was never left.
        assert_eq!(t.book_exit(&start, &moves), None, "{}", o.pgn);
    }
}

#[test]
fn a_line_keeps_the_last_name_it_reached() {
    let start = Chess::default();
    let moves = line(&start, BERLIN);
    let (ply, o) = name_line(&start, &moves).unwrap();
    assert_eq!(
        (ply, o.to_string()),
        (6, "C65 Ruy Lopez: Berlin Defense".into())
    );
    assert_eq!(o.family(), "Ruy Lopez");
    // 4. h4 is in no line: the name stays the Berlin's, six plies in.
    let longer = line(&start, &format!("{BERLIN} 4. h4 h5 5. a3"));
    assert_eq!(name_line(&start, &longer), Some((6, o)));
    assert_eq!(
        name_position(&after(&start, &format!("{BERLIN} 4. h4"))),
        None
    );
    // Positions on the way to a name but unnamed themselves: the last name
    // before them.
    let (ply, o) = name_line(&start, &line(&start, "1. e4 e5 2. Nf3")).unwrap();
    assert!(ply <= 3 && o.pgn.starts_with("1. e4"), "{o}");
    assert_eq!(
        name_line(&start, &[]),
        None,
        "the initial position has no name"
    );
}

#[test]
fn transpositions_and_en_passant_squares_name_the_position() {
    let start = Chess::default();
    // The Queen's Gambit Declined by the English move order.
    let qgd = after(&start, "1. d4 d5 2. c4 e6");
    let english = after(&start, "1. c4 e6 2. d4 d5");
    let named = name_position(&qgd).expect("the QGD is named");
    assert!(named.name.starts_with("Queen's Gambit Declined"), "{named}");
    assert_eq!(name_position(&english), Some(named));
    assert_eq!(
        name_line(&start, &line(&start, "1. c4 e6 2. d4 d5")),
        Some((4, named))
    );
    // After 1. e4 no pawn can take on e3: with or without the square the
    // FEN is the same position (keys are EPD-like).
    let with = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let without = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let e4 = name_position(&without).expect("1. e4 is named");
    assert_eq!(e4.pgn, "1. e4");
    assert_eq!(name_position(&with), Some(e4));
    // Castling rights count: the same pieces without them are another
    // position.
    let no_castling = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1");
    assert_eq!(name_position(&no_castling), None);
}

#[test]
fn games_from_a_fen_are_named_by_position() {
    // Set up after 1. e4 e5 2. Nf3: 2... Nc6 3. Bb5 Nf6 reach the Berlin,
    // four plies in, and the start is in the book already.
    let start = after(&Chess::default(), "1. e4 e5 2. Nf3");
    let moves = line(&start, "2... Nc6 3. Bb5 Nf6 4. h4");
    let (ply, o) = name_line(&start, &moves).unwrap();
    assert_eq!((ply, o.name), (3, "Ruy Lopez: Berlin Defense"));
    let exit = book_exit(&start, &moves).unwrap();
    assert_eq!((exit.last_book_ply, exit.first_out_ply), (3, 4));
    assert_eq!(
        exit.describe(&start, &moves),
        "last book move: 3...Nf6; 4.h4 leaves the book"
    );
    // An endgame is in no book.
    let end = fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 60");
    let moves = line(&end, "60. Kd2 Kd7");
    assert_eq!(name_line(&end, &moves), None);
    assert_eq!(book_exit(&end, &moves), None);
}

#[test]
fn book_exit_is_the_move_after_the_last_book_position() {
    let start = Chess::default();
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 h6 7. c3 d6";
    let moves = line(&start, text);
    let t = table();
    assert!(t.in_book(&after(
        &start,
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1"
    )));
    let exit = book_exit(&start, &moves).unwrap();
    assert_eq!(
        exit,
        BookExit {
            last_book_ply: 11,
            first_out_ply: 12
        }
    );
    assert_eq!(
        exit.describe(&start, &moves),
        "last book move: 6.Re1; 6...h6 leaves the book"
    );
    let moves = line(
        &start,
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O",
    );
    assert_eq!(book_exit(&start, &moves), None, "ends in the book");
    // Leaving the book and coming back by transposition: the knights go
    // out and home again, which is the position after 1. e4 e5 (named).
    // The exit is the last one.
    let text = "1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 4. Ke2 Ke7 5. h4 h5";
    let back = line(&start, text);
    let out = after(&start, "1. e4 e5 2. Nf3 Nf6 3. Ng1");
    assert!(!t.in_book(&out), "3. Ng1 is no line of the table");
    let home = after(&start, "1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8");
    assert_eq!(
        name_position(&home),
        name_position(&after(&start, "1. e4 e5"))
    );
    let exit = book_exit(&start, &back).unwrap();
    assert!(exit.last_book_ply >= 6, "{exit:?}");
    let (ply, _) = name_line(&start, &back).unwrap();
    assert!(ply >= 6 && ply <= exit.last_book_ply, "{ply} {exit:?}");
    // From a FEN whose first move already leaves: no book move to quote.
    let from = after(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6");
    let moves = line(&from, "4. h4 h5");
    let exit = book_exit(&from, &moves).unwrap();
    assert_eq!(
        exit,
        BookExit {
            last_book_ply: 0,
            first_out_ply: 1
        }
    );
    assert_eq!(exit.describe(&from, &moves), "4.h4 leaves the book");
}

#[test]
fn an_illegal_move_ends_the_line() {
    let start = Chess::default();
    let mut moves = line(&start, BERLIN);
    // 1. e4 again, from the Berlin: not legal (the pawn is on e4).
    moves.insert(2, moves[0]);
    assert_eq!(name_line(&start, &moves).map(|(p, _)| p), Some(2));
    assert_eq!(
        book_exit(&start, &moves),
        None,
        "no legal move left the book"
    );
}

#[test]
fn duplicate_and_broken_lines_are_reported() {
    const T: &str = "eco\tname\tpgn\n\
        A00\tLong Way\t1. Nf3 Nf6 2. d4\n\
        A01\tShort Way\t1. d4 Nf6 2. Nf3\n\
        A02\tOther Way\t1. Nf3 Nf6 2. d4\n\
        A03\tBroken\t1. e4 Ke5\n\
        A04\tNo columns\n";
    let t = OpeningTable::from_files(&[("t.tsv", T)]);
    assert_eq!(t.openings().len(), 4);
    assert_eq!(t.problems.len(), 2, "{:?}", t.problems);
    assert!(
        t.problems[0].starts_with("t.tsv line 6"),
        "{:?}",
        t.problems
    );
    assert!(t.problems[1].contains("move 2 (Ke5)"), "{:?}", t.problems);
    // Three lines reach one position: all are the same length, so the last
    // in the file names it (lichess' map keeps the last).
    let pos = after(&Chess::default(), "1. d4 Nf6 2. Nf3");
    assert_eq!(t.name_position(&pos).map(|o| o.name), Some("Other Way"));
    assert_eq!(t.duplicates.len(), 2);
    // A shorter line wins over a longer one, wherever it is.
    const U: &str = "eco\tname\tpgn\n\
        B00\tShort\t1. Nf3 Nf6 2. Ng1 Ng8\n\
        B01\tLong\t1. e4\n\
        B02\tRound trip\t1. Nc3 Nc6 2. Nb1 Nb8 3. Nf3 Nf6 4. Ng1 Ng8\n";
    let u = OpeningTable::from_files(&[("u.tsv", U)]);
    assert!(u.problems.is_empty(), "{:?}", u.problems);
    assert_eq!(
        u.name_position(&Chess::default()).map(|o| o.name),
        Some("Short")
    );
    assert_eq!(u.duplicates, vec![(0, 2)]);
}

#[test]
fn annotating_an_export_adds_tags_and_the_book_comment_once() {
    use crate::game::Game;
    use crate::game::movetree::MoveTree;
    let start = Chess::default();
    let moves = line(
        &start,
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 h6 7. c3",
    );
    let mut game = Game::new(Board::startpos());
    for &m in &moves {
        game.push(m, None);
    }
    let mut tree = MoveTree::from_line(Board::startpos(), &moves, &[]);
    let exit = annotate_opening(&mut game, &mut tree).unwrap();
    let (_, named) = name_line(&start, &moves).unwrap();
    assert_eq!(game.header("ECO"), Some(named.eco));
    assert_eq!(game.header("Opening"), Some(named.name));
    let main = tree.main_line();
    let out = main[exit.first_out_ply - 1];
    assert_eq!(
        tree.node(out).comments,
        vec!["Last book move: 6.Re1; 6...h6 leaves the book.".to_string()]
    );
    assert!(is_book_comment(&tree.node(out).comments[0]));
    let before = tree.clone();
    annotate_opening(&mut game, &mut tree);
    assert!(tree.same_as(&before), "a second export changes nothing");
    assert_eq!(game.headers.len(), 2);
    // A file's own classification stays, even half of one.
    let mut tagged = Game::new(Board::startpos());
    tagged.set_header("ECO", "C60");
    annotate_opening(&mut tagged, &mut tree);
    assert_eq!(tagged.header("ECO"), Some("C60"));
    assert_eq!(tagged.header("Opening"), None);
    // Comments of people are not the book's.
    assert!(!is_book_comment("The knight leaves the book."));
    assert!(is_book_comment("1.a4 leaves the book."));
}
