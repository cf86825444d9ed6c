//! Unit tests of BPGN writing and reading.
use super::super::{BoardId, BugResult, BugTermination, BughouseGame, Seat};
use super::*;
use crate::variant::fen::parse_bughouse;
use shakmaty::{Color, Position};
use std::time::Duration;

fn sample() -> BughouseGame {
    let mut g = BughouseGame::new();
    g.set_header("Event", "Test \"match\"");
    g.set_header("WhiteA", "Ann");
    g.set_header("BlackA", "Bob");
    g.set_header("WhiteB", "Cid");
    g.set_header("BlackB", "Dee");
    g.set_header("TimeControl", "120+0");
    let s = Duration::from_millis;
    for (board, m, t) in [
        (BoardId::A, "e4", 119_800),
        (BoardId::B, "d4", 119_500),
        (BoardId::A, "d5", 118_250),
        (BoardId::A, "exd5", 117_000),
        (BoardId::B, "e5", 116_001),
        (BoardId::B, "dxe5", 115_000),
        (BoardId::A, "Qxd5", 114_000),
        (BoardId::B, "P@d4", 113_000),
    ] {
        g.push_text(board, m, Some(s(t))).unwrap();
    }
    g.say(Seat::new(BoardId::B, Color::Black), "need N");
    g.push_text(BoardId::A, "Nc3", Some(s(110_000))).unwrap();
    g.flag(Seat::new(BoardId::B, Color::White));
    g
}

#[test]
fn round_trip() {
    let g = sample();
    let text = write_bpgn(&g);
    assert!(text.contains("[WhiteA \"Ann\"]"), "{text}");
    assert!(
        text.contains("1A. e4 {119.8} 1B. d4 {119.5} 1a. d5 {118.25}"),
        "{text}"
    );
    assert!(
        text.contains("2a. P@d4 {113}") || text.contains("2b. P@d4 {113}"),
        "{text}"
    );
    assert!(text.contains("{C:BB: need N}"), "{text}");
    assert!(text.contains("{WB forfeits on time} 1-0"), "{text}");
    let back = read_bpgn(&text).unwrap();
    assert_eq!(back.len(), 1);
    let b = &back[0];
    assert_eq!(b.moves(), g.moves());
    for (k, v) in &g.headers {
        assert_eq!(b.header(k), Some(v.as_str()), "{k}");
    }
    assert_eq!(b.header("Result"), Some("1-0"));
    assert_eq!(b.chat, g.chat);
    assert_eq!(b.ending, g.ending);
    assert_eq!(b.fen(), g.fen());
    // Written again, identical.
    assert_eq!(write_bpgn(b), text);
}

#[test]
fn other_starts_and_several_games() {
    let [a, b] =
        parse_bughouse("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[q] b - - 0 1")
            .unwrap();
    let mut g = BughouseGame::from_boards([a, b]);
    g.push_text(BoardId::B, "Q@e2+", None).unwrap();
    g.push_text(BoardId::A, "Q@e7+", None).unwrap();
    g.resign(Seat::new(BoardId::A, Color::Black));
    let text = format!("{}{}", write_bpgn(&g), write_bpgn(&sample()));
    assert!(text.contains("[FEN \"4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1 | "));
    assert!(text.contains("1b. Q@e2+"), "{text}");
    let games = read_bpgn(&text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].fen(), g.fen());
    assert_eq!(
        games[0].ending.map(|e| e.how),
        Some(BugTermination::Resignation)
    );
    assert_eq!(games[1].moves().len(), sample().moves().len());
}

#[test]
fn a_b_pawn_capture_reads_back_when_a_bishop_could_also_take() {
    // Board A after 1.e4 d5 2.Bb5+ c6 3.Nc3 Bd7 4.Bxc6: both the b7
    // pawn and the d7 bishop can take on c6. SAN writes the pawn's
    // capture as bxc6; a four-engine match once could not read it back.
    let mut g = BughouseGame::new();
    for m in ["e4", "d5", "Bb5+", "c6", "Nc3", "Bd7", "Bxc6", "bxc6"] {
        g.push_text(BoardId::A, m, None).unwrap();
    }
    let text = write_bpgn(&g);
    assert!(text.contains("4a. bxc6"), "{text}");
    let back = read_bpgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back[0].moves(), g.moves());
    assert_eq!(back[0].fen(), g.fen());
    // The bishop's capture reads back as the bishop's.
    let mut h = BughouseGame::new();
    for m in ["e4", "d5", "Bb5+", "c6", "Nc3", "Bd7", "Bxc6", "Bxc6"] {
        h.push_text(BoardId::A, m, None).unwrap();
    }
    let back = read_bpgn(&write_bpgn(&h)).unwrap();
    assert_eq!(back[0].fen(), h.fen());
    assert_ne!(back[0].fen(), g.fen());
}

/// Random Bughouse games (captures and drops preferred, so pockets
/// fill and SAN needs its disambiguations) are written and read back
/// move for move: whatever SAN the writer produces, the reader finds
/// the same move.
#[test]
fn random_games_round_trip() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut rand = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut moves_checked = 0;
    for _ in 0..60 {
        let mut g = BughouseGame::new();
        for _ in 0..160 {
            if g.ending.is_some() {
                break;
            }
            let board = if rand(2) == 0 { BoardId::A } else { BoardId::B };
            let legal = g.board(board).legal_moves();
            if legal.is_empty() {
                continue;
            }
            let lively: Vec<_> = legal
                .iter()
                .filter(|m| m.is_capture() || m.from().is_none())
                .collect();
            let m = if !lively.is_empty() && rand(3) > 0 {
                *lively[rand(lively.len())]
            } else {
                legal[rand(legal.len())]
            };
            g.push(board, m, None).unwrap();
            moves_checked += 1;
        }
        let text = write_bpgn(&g);
        let back = read_bpgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves(), g.moves(), "{text}");
        assert_eq!(back[0].fen(), g.fen(), "{text}");
    }
    assert!(moves_checked > 5_000, "{moves_checked}");
}

#[test]
fn bad_files_say_where() {
    let err = |t: &str| read_bpgn(t).unwrap_err().to_string();
    // A drop of a piece that never arrived.
    let e = err("[Event \"x\"]\n\n1A. e4 {1} 1a. N@f6 {1} *\n");
    assert!(
        e.starts_with("game 1 (line 3):") && e.contains("no knight in hand"),
        "{e}"
    );
    // The wrong side.
    let e = err("[Event \"x\"]\n\n1a. e5 *\n");
    assert!(e.contains("White's turn"), "{e}");
    // An illegal move.
    let e = err("[Event \"x\"]\n\n1A. e5 *\n");
    assert!(e.contains("move e5"), "{e}");
    assert!(err("[Event \"x\"]\n\n1A. e4 {180 *\n").contains("never closed"));
    assert!(err("[Event x]\n\n*").contains("double quotes"));
    assert!(err("[Event \"x\"]\n\nhello *").contains("not a move number"));
    // A word ending in a character of more than one byte (found by
    // `kibitz fuzz bpgn`: it panicked).
    assert!(err("[Event \"x\"]\n\n1A. e4 HC\u{fe} *").contains("not a move number"));
}

/// A game that cannot be read spoils only itself: an illegal move, a
/// comment left open, a broken tag, a bad FEN tag, each in the middle
/// of good games.
#[test]
fn a_bad_game_does_not_lose_the_others() {
    let good = "[WhiteA \"a\"]\n\n1A. e4 {1} 1a. e5 {2} *\n\n";
    for (bad, line, why) in [
        ("[WhiteA \"b\"]\n\n1A. e4 1a. e4 *\n\n", 7, "move e4"),
        (
            "[WhiteA \"b\"]\n\n1A. e4 {1 1a. e5 *\n\n",
            7,
            "never closed",
        ),
        ("[WhiteA \"b\"\n\n1A. e4 *\n\n", 5, "never closed with ']'"),
        ("[WhiteA b]\n\n1A. e4 *\n\n", 5, "double quotes"),
        ("[FEN \"x | y\"]\n\n1A. e4 *\n\n", 7, "board A: the pieces"),
    ] {
        let text = format!("{good}{bad}{good}");
        let games = read_bpgn_games(&text);
        assert_eq!(games.len(), 3, "{bad}: {games:?}");
        assert!(games[0].is_ok() && games[2].is_ok(), "{bad}: {games:?}");
        let e = games[1].as_ref().unwrap_err();
        assert_eq!((e.game, e.line), (2, line), "{bad}: {e}");
        assert!(e.reason.contains(why), "{bad}: {e}");
        assert_eq!(games[2].as_ref().unwrap().moves().len(), 2);
    }
}

/// FICS writes the closing comment with the player's name, and games
/// with no moves at all; tags may share a line, and lines end in CRLF.
#[test]
fn fics_closings_and_games_without_moves() {
    let text = "[WhiteA \"al\"][BlackA \"bo\"]\r\n[WhiteB \"cy\"][BlackB \"di\"]\r\n\r\n\
                {C:This is game number 7 at www.freechess.org}\r\n\
                {di forfeits by disconnection} 0-1\r\n\r\n\
                [WhiteA \"al\"][BlackA \"bo\"]\r\n\r\n\
                1A. e4{179.900} 1a. e5{179.000} {AL resigns} 0-1\r\n\r\n\
                [WhiteA \"al\"]\r\n\r\n{Game drawn by mutual agreement} 1/2-1/2\r\n";
    let games = read_bpgn(text).unwrap();
    assert_eq!(games.len(), 3);
    let end = games[0].ending.unwrap();
    assert!(games[0].moves().is_empty());
    assert_eq!(games[0].header("BlackB"), Some("di"));
    assert_eq!(
        (end.result, end.how, end.loser),
        (
            BugResult::TeamTwoWins,
            BugTermination::Abandoned,
            Some(Seat::new(BoardId::B, Color::Black))
        )
    );
    assert!(games[0].chat.is_empty(), "FICS' commentary is no message");
    let end = games[1].ending.unwrap();
    assert_eq!(end.how, BugTermination::Resignation);
    assert_eq!(end.loser, Some(Seat::new(BoardId::A, Color::White)));
    assert_eq!(
        games[1].moves()[1].remaining,
        Some(Duration::from_secs(179))
    );
    assert_eq!(
        games[2].ending.map(|e| e.how),
        Some(BugTermination::Agreement)
    );
    // The closing comment is written again as the file had it.
    assert!(write_bpgn(&games[0]).contains("{di forfeits by disconnection} 0-1"));
}
