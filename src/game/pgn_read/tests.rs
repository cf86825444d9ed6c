use super::*;
use crate::engine::Board;
use crate::game::notation::parse_move;
use crate::game::write_pgn;
use crate::game::{Ending, Game, GameResult, Termination};
use shakmaty::Position;

fn play(game: &mut Game, sans: &[&str], comments: &[Option<&str>]) {
    for (i, san) in sans.iter().enumerate() {
        let m = parse_move(game.current().chess(), san).unwrap();
        let c = comments.get(i).copied().flatten().map(str::to_string);
        game.push(m, c);
    }
}

fn assert_same(a: &Game, b: &Game) {
    assert_eq!(a.moves(), b.moves());
    assert_eq!(a.comments(), b.comments());
    assert_eq!(a.start().fen(), b.start().fen());
    assert_eq!(a.ending, b.ending);
    // Every header survives, in order (the reader adds the roster).
    let mut it = b.headers.iter();
    for h in &a.headers {
        assert!(it.any(|x| x == h), "header {h:?} lost: {:?}", b.headers);
    }
    assert_eq!(write_pgn(a), write_pgn(b));
}

#[test]
fn round_trip_from_the_start() {
    let mut g = Game::new(Board::startpos());
    g.set_header("Event", "Club \"night\" \\ blitz");
    g.set_header("White", "Kibitz");
    g.set_header("Black", "Human");
    g.set_header("TimeControl", "300+2");
    g.set_header("Opening", "Ruy López");
    play(
        &mut g,
        &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"],
        &[
            Some("best by test"),
            None,
            None,
            Some("eval +0.3, depth 12"),
            None,
            None,
            None,
            Some("a comment with a } brace"),
            None,
        ],
    );
    g.ending = Some(Ending {
        result: GameResult::WhiteWins,
        termination: Termination::TimeForfeit,
    });
    let pgn = write_pgn(&g);
    let back = read_game(&pgn).unwrap();
    // write_pgn turns `}` into `)`.
    assert_eq!(
        back.comments()[7].as_deref(),
        Some("a comment with a ) brace")
    );
    let mut fixed = Game::new(Board::startpos());
    fixed.headers = g.headers.clone();
    for (i, &m) in g.moves().iter().enumerate() {
        let c = g.comments()[i].as_ref().map(|c| c.replace('}', ")"));
        fixed.push(m, c);
    }
    fixed.ending = g.ending;
    assert_same(&fixed, &back);
    assert_eq!(back.header("Event"), Some("Club \"night\" \\ blitz"));
    assert_eq!(back.header("Result"), Some("1-0"));
    assert_eq!(back.header("Termination"), Some("time forfeit"));

    // Every ending survives, including those the Termination tag cannot tell apart.
    for (result, termination) in [
        (GameResult::BlackWins, Termination::Resignation),
        (GameResult::Draw, Termination::Agreement),
        (GameResult::Draw, Termination::ThreefoldRepetition),
        (GameResult::Draw, Termination::FiftyMoveRule),
        (GameResult::WhiteWins, Termination::IllegalMove),
        (GameResult::BlackWins, Termination::Abandoned),
        (GameResult::Draw, Termination::TimeForfeit),
    ] {
        let mut h = fixed.clone();
        h.ending = Some(Ending {
            result,
            termination,
        });
        assert_same(&h, &read_game(&write_pgn(&h)).unwrap());
    }
    // Unfinished.
    let mut h = fixed.clone();
    h.ending = None;
    let back = read_game(&write_pgn(&h)).unwrap();
    assert_same(&h, &back);
    assert_eq!(back.ending, None);
}

#[test]
fn round_trip_from_a_fen() {
    // Black to move at move 40; ends in checkmate.
    let start = Board::from_fen("6k1/5ppp/8/8/8/8/1r3PPP/6K1 b - - 3 40").unwrap();
    let mut g = Game::new(start);
    g.set_header("Event", "Endgame drill");
    g.set_header("Annotator", "Kibitz");
    play(
        &mut g,
        &["Ra2", "h3", "Ra1+", "Kh2"],
        &[None, Some("oops"), None, None],
    );
    g.ending = None;
    let pgn = write_pgn(&g);
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains("40... Ra2"), "{pgn}");
    let back = read_game(&pgn).unwrap();
    assert_same(&g, &back);
    assert_eq!(back.header("FEN"), None);
    assert_eq!(back.header("SetUp"), None);

    let start = Board::from_fen("6k1/5ppp/8/8/8/8/1r3PPP/7K b - - 0 1").unwrap();
    let mut g = Game::new(start);
    play(&mut g, &["Rb1#"], &[Some("back rank")]);
    g.ending = g.rule_ending(true);
    assert_eq!(
        g.ending.map(|e| e.termination),
        Some(Termination::Checkmate)
    );
    let pgn = write_pgn(&g);
    assert!(pgn.contains("Rb1# {back rank} {checkmate} 0-1"), "{pgn}");
    assert_same(&g, &read_game(&pgn).unwrap());

    // Stalemate with no moves at all.
    let mut g = Game::new(Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap());
    g.ending = g.rule_ending(true);
    assert_same(&g, &read_game(&write_pgn(&g)).unwrap());
}

const CLASSICS: &str = include_str!("../../../games/classics.pgn");
const OPERA: &str = include_str!("../../../games/morphy-opera-1858.pgn");

#[test]
fn reads_the_bundled_games() {
    let games = read_games(CLASSICS);
    assert_eq!(games.len(), 2);
    let mut plies = Vec::new();
    for g in &games {
        let g = g.as_ref().unwrap();
        plies.push(g.moves().len());
        assert_eq!(g.header("Result"), Some("1-0"));
        assert_eq!(
            g.ending,
            Some(Ending {
                result: GameResult::WhiteWins,
                termination: Termination::Checkmate
            })
        );
    }
    // The Immortal (23. Be7#) and the Evergreen (24. Bxe7#).
    assert_eq!(plies, [45, 47]);
    let immortal = games[0].as_ref().unwrap();
    assert_eq!(immortal.header("White"), Some("Adolf Anderssen"));
    assert_eq!(immortal.headers[0], ("Event".into(), "London".into()));
    assert!(immortal.current().chess().is_checkmate());

    let opera = read_games(OPERA);
    assert_eq!(opera.len(), 1);
    let opera = read_game(OPERA).unwrap();
    assert_eq!(opera.moves().len(), 33);
    assert!(opera.current().chess().is_checkmate());
    assert_eq!(opera.ending.map(|e| e.result), Some(GameResult::WhiteWins));
}

#[test]
fn one_bad_game_does_not_stop_the_others() {
    let text = "[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
                [Event \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 Nxe4 *\n\n\
                [Event \"C\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";
    let games = read_games(text);
    assert_eq!(games.len(), 3);
    let a = games[0].as_ref().unwrap();
    assert_eq!(a.header("Event"), Some("A"));
    assert_eq!(
        a.ending.map(|e| e.termination),
        Some(Termination::Checkmate)
    );
    let e = games[1].as_ref().unwrap_err();
    assert_eq!(e.game(), Some(2));
    assert!(
        matches!(e, PgnError::BadMove { game: 2, number: 4, white: false, san, .. } if san == "Nxe4"),
        "{e:?}"
    );
    let msg = e.to_string();
    assert!(msg.starts_with("game 2, move 4... Nxe4: illegal"), "{msg}");
    assert!(msg.contains("no knight can capture on e4"), "{msg}");
    let c = games[2].as_ref().unwrap();
    assert_eq!(c.header("Event"), Some("C"));
    assert_eq!(
        c.ending,
        Some(Ending {
            result: GameResult::Draw,
            termination: Termination::Agreement
        })
    );
}

fn err(text: &str) -> PgnError {
    match read_game(text) {
        Ok(g) => panic!("{text:?} read as {}", write_pgn(&g)),
        Err(e) => e,
    }
}

#[test]
fn errors_name_the_game_move_and_reason() {
    assert_eq!(err(""), PgnError::NoGame);
    assert_eq!(err("  \n\n "), PgnError::NoGame);
    assert_eq!(
        err("1. e4 e5 2. Nf9 Nc6 *").to_string(),
        "game 1, move 2. Nf9: not a move"
    );
    assert_eq!(
        err("1. e4 e5 2. Nf3x Nc6 *").to_string(),
        "game 1, move 2. Nf3x: not a move"
    );
    assert_eq!(
        err("hello world").to_string(),
        "game 1, move 1. hello: not a move"
    );
    assert_eq!(
        err("1. e4 e5 2. Ke3 *").to_string(),
        "game 1, move 2. Ke3: illegal: the king on e1 cannot move to e3"
    );
    let ambiguous = "[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n1. Nd2 *";
    assert_eq!(
        err(ambiguous).to_string(),
        "game 1, move 1. Nd2: ambiguous (Nbd2 or Nfd2)"
    );
    assert_eq!(
        err("1. e4 -- *").to_string(),
        "game 1, move 1... --: null moves are not supported"
    );
    let e = err("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*");
    assert!(matches!(e, PgnError::BadFen { game: 1, .. }), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("game 1: bad FEN tag \"8/8/8/8/8/8/8/8 w - - 0 1\": "),
        "{e}"
    );
    assert!(matches!(
        err("[FEN \"garbage\"]\n\n*"),
        PgnError::BadFen { .. }
    ));
    assert_eq!(
        err("[SetUp \"1\"]\n\n1. e4 *"),
        PgnError::MissingFen { game: 1 }
    );
    assert!(matches!(
        err("[Variant \"Atomic\"]\n\n1. e4 *"),
        PgnError::UnsupportedVariant { game: 1, .. }
    ));
    // Cut off: in a comment, in a tag, after a move, in a move.
    assert!(
        err("[Event \"x\"]\n\n1. e4 { unfinished")
            .to_string()
            .contains("unterminated comment")
    );
    assert!(
        err("[Event \"x\"]\n[Site \"Lon")
            .to_string()
            .contains("unterminated tag")
    );
    assert!(
        err("[Event \"x\"]\n\n1. e4 e5 2. Nf3")
            .to_string()
            .contains("without a result")
    );
    assert_eq!(
        err("[Event \"x\"]\n\n1. e4 e5 2. N").to_string(),
        "game 1, move 2. N: not a move"
    );
    // Two games without the blank line between them.
    assert!(
        err("1. e4 e5 1-0 1. d4 *")
            .to_string()
            .contains("a move after the result 1-0"),
        "{}",
        err("1. e4 e5 1-0 1. d4 *")
    );
    // Move numbers from a FEN's move counter.
    let late = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 31. e5 *";
    assert_eq!(
        err(late).to_string(),
        "game 1, move 31. e5: illegal: no pawn can move to e5"
    );
}

#[test]
fn lenient_and_odd_but_valid_text() {
    // Bare movetext without a result: an unfinished game.
    let g = read_game("1. e4 e5 2. Nf3").unwrap();
    assert_eq!(g.moves().len(), 3);
    assert_eq!(g.ending, None);
    // Variations, NAGs, `;` and `%` comments, several comments per move.
    let text = "[Event \"x\"]\n%escaped line\n\n1. e4! {first} {second} (1. d4 d5 (1... Nf6) 2. c4) \
                1... e5 $1 ; rest of line\n2. Nf3?! {a\n  wrapped   comment} Nc6 1/2-1/2\n";
    let g = read_game(text).unwrap();
    assert_eq!(g.moves().len(), 4);
    assert_eq!(g.comments()[0].as_deref(), Some("first second"));
    assert_eq!(g.comments()[2].as_deref(), Some("a wrapped comment"));
    assert_eq!(g.comments()[1], None);
    // Missing capture mark and promotion piece, 0-0 castling.
    let g = read_game("1. e4 d5 2. ed5 Qxd5 3. Nc3 Qa5 4. Nf3 Nf6 5. Be2 Bg4 6. 0-0 *").unwrap();
    assert_eq!(g.moves().len(), 11);
    let g = read_game("[FEN \"8/4P1k1/8/8/8/8/6K1/8 w - - 0 1\"]\n\n1. e8 *").unwrap();
    assert_eq!(g.moves()[0].promotion(), Some(shakmaty::Role::Queen));
    // A comment longer than pgn-reader's buffer stays one comment.
    let long = "word ".repeat(200);
    let g = read_game(&format!("1. e4 {{{long}}} *")).unwrap();
    assert_eq!(g.comments()[0].as_deref(), Some(long.trim()));
    // CRLF line ends and a BOM.
    let crlf = CLASSICS.replace('\n', "\r\n");
    let games = read_games(&format!("\u{feff}{crlf}"));
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(Result::is_ok));
    // A decisive result on a board that is not over: resignation.
    let g = read_game("1. e4 e5 0-1").unwrap();
    assert_eq!(
        g.ending,
        Some(Ending {
            result: GameResult::BlackWins,
            termination: Termination::Resignation
        })
    );
    // The Termination tag decides when it can.
    let g = read_game("[Termination \"time forfeit\"]\n\n1. e4 e5 1-0").unwrap();
    assert_eq!(
        g.ending.map(|e| e.termination),
        Some(Termination::TimeForfeit)
    );
    let g = read_game("[Termination \"rules infraction\"]\n\n1. e4 e5 1-0").unwrap();
    assert_eq!(
        g.ending.map(|e| e.termination),
        Some(Termination::IllegalMove)
    );
    // A long tag line.
    let g = read_game(&format!("[Annotator \"{}\"]\n\n1. e4 *", "x".repeat(1000))).unwrap();
    assert_eq!(g.header("Annotator").map(str::len), Some(1000));
    assert_eq!(g.moves().len(), 1);
}

#[test]
fn scanner_agrees_with_pgn_reader() {
    // Valid text: nothing skipped.
    let second = CLASSICS.find("\n[Event \"Berlin").unwrap();
    for text in [
        &CLASSICS[..second],
        &CLASSICS[second..],
        OPERA,
        "[White \"hello\\\" \"][Black \"world\"]1.f3! e5$71 2.g4 ?? (-- {}) O-O O-O-O#!?0-1",
        "1-0 0-1 1/2-1/2 1–0 0–1 ½–½",
        "[One \"1\"] [Two \"2\"]\n%[Three \"%\"]\n[Three \"3\"]\n\n\n[Four \"4\"]*",
        "1. e4 (1. d4 {x) y} 1... d5 (1... Nf6 2. c4)) 1... e5 *",
        "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.0-0 Be7 *",
    ] {
        assert_eq!(unreadable_token(text.as_bytes()), None, "{text}");
    }
    assert_eq!(
        unreadable_token(b"[A \"b\"]\n\n1. e4 e5 2. Nf3 xyz *"),
        Some((3, "xyz".to_string()))
    );
    assert_eq!(
        unreadable_token(b"1. e4 (1. Qz9) Nz9 *"),
        Some((1, "Nz9".to_string()))
    );
}

#[test]
fn truncation_is_never_a_silent_success() {
    // Cut the file at every byte: a game is either read in full or an error.
    let full: Vec<usize> = read_games(CLASSICS)
        .iter()
        .map(|g| g.as_ref().unwrap().moves().len())
        .collect();
    for cut in 0..CLASSICS.len() {
        if !CLASSICS.is_char_boundary(cut) {
            continue;
        }
        for (i, g) in read_games(&CLASSICS[..cut]).iter().enumerate() {
            if let Ok(g) = g {
                assert_eq!(
                    g.moves().len(),
                    full[i],
                    "cut at {cut}: {:?}",
                    &CLASSICS[..cut]
                );
            }
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut x: u64 = 0x853c_49e6_748f_ea9b;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    const PIECES: [&str; 16] = [
        "[Event \"x\"]\n",
        "[FEN \"",
        "\"]\n",
        "1. ",
        "e4 ",
        "Nf3 ",
        "O-O ",
        "{c} ",
        "(",
        ")",
        "1-0",
        "*",
        "\n\n",
        "exd5 ",
        "e8=Q ",
        "$1 ",
    ];
    for round in 0..3000 {
        let len = (next() % 200) as usize;
        let text: String = if round % 3 == 0 {
            // Raw bytes, made into a string lossily.
            let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            // Pieces of PGN mixed with junk.
            let mut s = String::new();
            for _ in 0..len / 4 {
                match next() % 4 {
                    0 => s.push(char::from((next() % 128) as u8)),
                    _ => s.push_str(PIECES[(next() % PIECES.len() as u64) as usize]),
                }
            }
            s
        };
        for g in read_games(&text) {
            match g {
                Ok(g) => assert_eq!(g.comments().len(), g.moves().len()),
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    }
    // Mutations of a real file.
    let bytes = CLASSICS.as_bytes();
    for _ in 0..500 {
        let mut b = bytes.to_vec();
        for _ in 0..1 + next() % 8 {
            let i = (next() as usize) % b.len();
            b[i] = next() as u8;
        }
        let _ = read_games(&String::from_utf8_lossy(&b));
    }
}
