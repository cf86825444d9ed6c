use super::file::{Kind, parse, sniff};
use super::*;
use shakmaty::Square;
use std::path::Path;

const BPGN: &str = r#"[WhiteA "Ann"]
[BlackA "Bob"]
[WhiteB "Cid"]
[BlackB "Dee"]
[TimeControl "60+0"]
[Result "1-0"]

1A. e4 {59} 1B. d4 {58} 1a. d5 {57} 2A. exd5 {56} 1b. P@e5 {54} {C:BB: need N}
2B. dxe5 {57} 2a. Qxd5 {54} {BA resigns} 1-0
"#;

fn bughouse() -> Show {
    let games = parse(BPGN, Kind::Bughouse).unwrap();
    games.into_iter().next().unwrap().unwrap()
}

#[test]
fn files_are_told_apart() {
    assert_eq!(sniff(Path::new("x.bpgn"), ""), Kind::Bughouse);
    assert_eq!(sniff(Path::new("x.pgn"), BPGN), Kind::Bughouse);
    assert_eq!(
        sniff(Path::new("x.pgn"), "[Variant \"Crazyhouse\"]\n\n1. e4 *"),
        Kind::Crazyhouse
    );
    assert_eq!(
        sniff(Path::new("x.pgn"), "[White \"a\"]\n\n1. e4 *"),
        Kind::Chess
    );
    assert!(parse("", Kind::Bughouse).is_err());
    assert!(parse("1A. e5 {1} *", Kind::Bughouse).is_err());
}

#[test]
fn bughouse_steps_in_time_order_and_passes_pieces() {
    let s = bughouse();
    assert_eq!(s.moves.len(), 7);
    assert_eq!(s.frames.len(), 8);
    assert_eq!(s.numbered(1), "1B. d4");
    assert_eq!(s.numbered(2), "1a. d5");
    // 2A. exd5: White on A takes a pawn; it goes to Black on B.
    let m = &s.moves[3];
    assert_eq!(m.board, 0);
    assert_eq!(
        m.captured,
        Some(Piece {
            color: Color::Black,
            role: Role::Pawn
        })
    );
    assert_eq!(
        s.describe_move(3),
        "2A. exd5: White on A takes a pawn; it goes to Black on B"
    );
    let b_hand = s.frames[4].boards[1].pockets().unwrap();
    assert_eq!(b_hand.black.pawn, 1);
    // ...and Black on B drops it, said with its piece.
    assert_eq!(s.numbered(4), "1b. P@e5");
    assert_eq!(
        s.describe_move(4),
        "1b. P@e5: Black on B drops a pawn on e5"
    );
    let after = &s.frames[5].boards[1];
    assert_eq!(after.pockets().unwrap().black.pawn, 0);
    assert!(after.board().piece_at(Square::E5).is_some());
    // Clocks: each seat's latest reading; the game time follows both
    // clocks of the board that moved.
    assert_eq!(s.frames[0].clocks[0], [Some(Duration::from_secs(60)); 2]);
    assert_eq!(s.frames[3].clocks[0][1], Some(Duration::from_secs(57)));
    assert_eq!(s.frames[1].at, Some(Duration::from_secs(1)));
    assert_eq!(s.frames[2].at, Some(Duration::from_secs(2)));
    assert_eq!(s.frames[3].at, Some(Duration::from_secs(4)));
    assert_eq!(s.frames[7].at, Some(Duration::from_secs(10)));
    assert!(s.timed());
    assert_eq!(s.chat.len(), 1);
    assert_eq!(s.chat[0].after_moves, 5);
    assert_eq!(s.chat[0].from, (1, Color::Black));
    assert_eq!(s.result, "1-0");
    assert_eq!(
        s.ending.as_deref(),
        Some("Black on board A resigns: team 1 (White A + Black B) wins")
    );
}

#[test]
fn stepping_autoplay_and_the_arrival_flash() {
    let t0 = Instant::now();
    let mut r = HouseReplay::new(None, vec![Ok(bughouse())], 0);
    assert_eq!(r.cursor, 0);
    r.go(3, t0);
    assert!(r.arrived.is_none());
    // Stepping over 2A. exd5 flashes the pawn arriving on board B.
    r.go(4, t0);
    assert_eq!(
        r.arrived,
        Some((
            1,
            Piece {
                color: Color::Black,
                role: Role::Pawn
            },
            t0
        ))
    );
    r.tick(t0 + ARRIVAL_FLASH + Duration::from_millis(1));
    assert!(r.arrived.is_none());
    // Real-time autoplay waits as long as the players did (x1): from
    // 2A. exd5 (board A at 4 + 3 s) to 1b. P@e5 (board B: White used
    // 2 s, Black 6 s: 8 s).
    assert_eq!(r.pace_text(), "real time");
    assert_eq!(r.pause(), Duration::from_secs(1));
    r.faster();
    r.faster();
    assert_eq!(r.pace_text(), "real time x4");
    assert_eq!(r.pause(), Duration::from_millis(250));
    r.toggle_autoplay(t0);
    r.tick(t0 + Duration::from_millis(249));
    assert_eq!(r.cursor, 4);
    r.tick(t0 + Duration::from_millis(250));
    assert_eq!(r.cursor, 5);
    // At the end autoplay stops by itself.
    r.go(6, t0);
    r.autoplay = Some(t0);
    r.tick(t0);
    assert_eq!(r.cursor, 7);
    r.tick(t0 + Duration::from_secs(60));
    assert!(r.autoplay.is_none());
    // Past the end is the end.
    r.go(99, t0);
    assert_eq!(r.cursor, 7);
    assert!(r.at_end());
    // Partner boards stand the other way round.
    assert_eq!(r.bottom(0), Color::White);
    assert_eq!(r.bottom(1), Color::Black);
    r.flipped = true;
    assert_eq!(r.bottom(1), Color::White);
    assert_eq!(r.chat_so_far().len(), 1);
    r.go(2, t0);
    assert!(r.chat_so_far().is_empty());
}

/// Found by `kibitz fuzz`: a time control or a thinking time too large
/// for a Duration panicked. Now the game reads, without that clock.
#[test]
fn huge_times_are_not_clocks() {
    let pgn = "[Variant \"Crazyhouse\"]\n[TimeControl \"18446744073709551615+0\"]\n\n\
        1. e4 {+0.30/12 1e30s} e5 *\n";
    let games = parse(pgn, Kind::Crazyhouse).unwrap();
    let s = games[0].as_ref().unwrap();
    assert_eq!(s.moves.len(), 2);
    assert!(!s.timed());
    let bpgn = "[Event \"x\"]\n[TimeControl \"1e300+1e300\"]\n\n1A. e4 {176.2} 1a. e5 {1e25} *\n";
    let games = parse(bpgn, Kind::Bughouse).unwrap();
    assert_eq!(games[0].as_ref().unwrap().moves.len(), 2);
}

#[test]
fn crazyhouse_games_have_pockets_and_clocks() {
    let pgn = "[Variant \"Crazyhouse\"]\n[White \"W\"]\n[Black \"B\"]\n[TimeControl \"180+2\"]\n\n\
        1. e4 { [%clk 0:03:00] } d5 { [%clk 0:02:59] } 2. exd5 { [%clk 0:02:58] } Qxd5 { [%clk 0:02:57] } \
        3. P@e4 { [%clk 0:02:55] } 1-0\n";
    let games = parse(pgn, Kind::Crazyhouse).unwrap();
    let s = games[0].as_ref().unwrap();
    assert_eq!(s.boards(), 1);
    assert_eq!(s.moves.len(), 5);
    assert_eq!(s.numbered(3), "2... Qxd5");
    assert_eq!(s.numbered(4), "3. P@e4");
    assert_eq!(
        s.describe_move(2),
        "2. exd5: White takes a pawn into the hand"
    );
    let hands = s.frames[4].boards[0].pockets().unwrap();
    assert_eq!((hands.white.pawn, hands.black.pawn), (1, 1));
    assert_eq!(s.frames[5].boards[0].pockets().unwrap().white.pawn, 0);
    assert!(s.timed());
    // 180 + 2 a move: after 1. e4 {3:00} White used 2 s.
    assert_eq!(s.frames[1].at, Some(Duration::from_secs(2)));
    // Engine games give the time each move took: the clocks follow.
    let pgn = "[Variant \"Crazyhouse\"]\n[TimeControl \"30+0.3\"]\n\n\
        1. e4 {+0.30/12 1.50s} e5 {-0.20/11 2.00s} 2. Nf3 {+0.31/12 0.70s} {a remark} *\n";
    let games = parse(pgn, Kind::Crazyhouse).unwrap();
    let s = games[0].as_ref().unwrap();
    assert_eq!(
        s.frames[1].clocks[0][0],
        Some(Duration::from_millis(28_800))
    );
    assert_eq!(
        s.frames[2].clocks[0][1],
        Some(Duration::from_millis(28_300))
    );
    assert_eq!(
        s.frames[3].clocks[0][0],
        Some(Duration::from_millis(28_400))
    );
    assert_eq!(s.frames[3].at, Some(Duration::from_millis(4_200)));
    // Bad games are listed with their reason.
    let games = parse("[Variant \"Crazyhouse\"]\n\n1. e5 *\n", Kind::Crazyhouse).unwrap();
    assert!(games[0].as_ref().unwrap_err().contains("e5"));
    // Without clocks autoplay uses fixed delays.
    let games = parse("[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n", Kind::Crazyhouse).unwrap();
    let mut r = HouseReplay::new(None, games, 0);
    assert!(!r.show().unwrap().timed());
    assert_eq!(r.pace_text(), "1.0 s a move");
    r.slower();
    assert_eq!(r.pause(), Duration::from_millis(1500));
}
