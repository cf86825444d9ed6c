use super::*;
use crate::game::pgn_read::read_games;
use crate::train::puzzle::{read_csv, write_csv};

/// The games of a PGN text, as `make_all` takes them.
fn games(pgn: &str) -> Vec<SourceGame> {
    read_games(pgn)
        .into_iter()
        .map(|g| {
            let g = g.expect("the test PGN reads");
            SourceGame {
                start: g.start().clone(),
                moves: g.moves().to_vec(),
                url: g.header("Site").unwrap_or("").to_string(),
            }
        })
        .collect()
}

/// Node-limited searches: the same puzzles on every machine.
fn settings() -> MakeSettings {
    MakeSettings::nodes(300_000)
}

fn make(pgn: &str) -> Made {
    make_all(
        &games(pgn),
        &settings(),
        2,
        &AtomicBool::new(false),
        &|_, _| {},
    )
}

const SCHOLAR: &str = r#"[Event "Scholar"]
[Site "https://lichess.org/abcdefgh"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0
"#;

/// White blunders the queen to a knight, material level before.
const HANGS_THE_QUEEN: &str = r#"[Event "Hang"]
[Site "Somewhere"]
[White "A"]
[Black "B"]
[Result "0-1"]
[SetUp "1"]
[FEN "3q1rk1/5ppp/8/3n4/8/2N5/3Q1PPP/5RK1 w - - 0 1"]

1. Qe3 Nxe3 2. fxe3 0-1
"#;

#[test]
fn the_scholars_mate_is_a_mate_in_one_puzzle() {
    let made = make(SCHOLAR);
    assert!(!made.stopped);
    assert_eq!(made.games_done, 1);
    assert_eq!(made.puzzles.len(), 1, "{:?}", made.puzzles);
    let p = &made.puzzles[0];
    // The puzzle starts before Black's mistake 3... Nf6.
    assert_eq!(
        p.fen,
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    );
    assert_eq!(p.moves, ["g8f6", "h5f7"]);
    // The tagger's themes, sorted as lichess writes them.
    assert_eq!(p.themes, ["attackingF2F7", "mate", "mateIn1", "oneMove"]);
    assert_eq!(p.game_url, "https://lichess.org/abcdefgh");
    assert!(p.opening_tags.is_empty());
    assert_eq!(p.id, puzzle_id(&p.fen, &p.moves));
    assert!((400..=3000).contains(&p.rating));
}

#[test]
fn a_hung_queen_is_taken_and_the_line_ends_there() {
    let made = make(HANGS_THE_QUEEN);
    assert_eq!(made.puzzles.len(), 1, "{:?}", made.puzzles);
    let p = &made.puzzles[0];
    assert_eq!(p.fen, "3q1rk1/5ppp/8/3n4/8/2N5/3Q1PPP/5RK1 w - - 0 1");
    // After 2. fxe3 Black is a queen up with many good moves: the
    // solution is the capture alone.
    assert_eq!(p.moves, ["d2e3", "d5e3"]);
    // The queen is defended by a pawn (not hanging in lichess' sense).
    assert_eq!(p.themes, ["oneMove"]);
    assert_eq!(p.game_url, "", "Site is not an address");
}

#[test]
fn made_puzzles_read_back() {
    let both = format!("{SCHOLAR}\n{HANGS_THE_QUEEN}");
    let made = make(&both);
    assert_eq!(made.games_done, 2);
    assert_eq!(made.puzzles.len(), 2);
    let text = write_csv(&made.puzzles);
    let read = read_csv(&text);
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    assert_eq!(read.puzzles, made.puzzles);
    // In the order of the games.
    assert_eq!(made.puzzles[0].moves[0], "g8f6");
    assert_eq!(made.stats.made, 2);
    assert!(made.stats.candidates >= 2);
}

#[test]
fn a_stopped_run_says_so() {
    let made = make_all(
        &games(SCHOLAR),
        &settings(),
        1,
        &AtomicBool::new(true),
        &|_, _| {},
    );
    assert!(made.stopped);
    assert_eq!(made.games_done, 0);
    assert!(made.puzzles.is_empty());
}

#[test]
fn only_move_rule() {
    let cp = Score;
    // A clear win and nothing else.
    assert!(only_move(cp(600), Some(cp(0))));
    // Two ways to win.
    assert!(!only_move(cp(600), Some(cp(450))));
    // Not winning enough.
    assert!(!only_move(cp(250), Some(cp(-300))));
    // The only legal move.
    assert!(only_move(cp(600), None));
    // A mate the second move lacks...
    assert!(only_move(Score::mate_in(3), Some(cp(100))));
    // ... unless that one wins big too: a deeper search may find its mate.
    assert!(!only_move(Score::mate_in(3), Some(cp(900))));
    assert!(!only_move(Score::mate_in(3), Some(cp(300))));
    // Two mates: ambiguous, unless both mate at once.
    assert!(!only_move(Score::mate_in(3), Some(Score::mate_in(5))));
    assert!(only_move(Score::mate_in(1), Some(Score::mate_in(1))));
    assert!(!only_move(Score::mate_in(1), Some(Score::mate_in(3))));
}

#[test]
fn gains_count_after_the_recapture() {
    let pos = |fen: &str| {
        crate::engine::Board::from_fen(fen)
            .expect("fen")
            .into_chess()
    };
    // Black took a queen with the knight on e3; f2xe3 takes the knight
    // back: a queen for a knight, from level material.
    let after = pos("3q1rk1/5ppp/8/8/8/2N1n3/5PPP/5RK1 w - - 0 2");
    assert_eq!(opponent_best_capture(&after), 300);
    let before = pos("3q1rk1/5ppp/8/3n4/8/2N5/3Q1PPP/5RK1 w - - 0 1");
    let m0 = material(&before, Color::Black);
    assert_eq!(m0, 0);
    assert!(realised(&after, Color::Black, m0));
    // A pawn is not enough.
    let pawn = pos("3q1rk1/5ppp/8/3n4/8/2N5/3Q2PP/5RK1 w - - 0 1");
    assert_eq!(material(&pawn, Color::Black), 100);
    assert!(!realised(&pawn, Color::Black, m0));
}

#[test]
fn ids_and_difficulty() {
    let moves = vec!["g8f6".to_string(), "h5f7".to_string()];
    let a = puzzle_id("fen", &moves);
    assert_eq!(a, puzzle_id("fen", &moves));
    assert_eq!(a.len(), 8);
    assert!(a.bytes().all(|b| b.is_ascii_alphanumeric()));
    assert_ne!(a, puzzle_id("fen2", &moves));
    assert_ne!(a, puzzle_id("fen", &moves[..1]));
    assert_eq!(difficulty(1, 1), 600);
    assert_eq!(difficulty(2, 8), 1360);
    assert!(difficulty(3, 12) > difficulty(2, 12));
    assert!(difficulty(2, 12) > difficulty(2, 4));
    assert_eq!(difficulty(20, 60), 3000);
}
