use super::*;
use crate::game::notation::parse_move;

fn line(moves: &str) -> Vec<Move> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for s in moves.split_whitespace() {
        let m = parse_move(&pos, s).unwrap();
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

const WHITE: &str = "[Event \"Repertoire\"]\n\n1. d4 d5 (1... Nf6 2. c4 e6 (2... g6 3. Nc3) 3. Nc3 Bb4 4. e3) 2. c4 e6 3. Nc3 Nf6 4. Bg5 *\n";

#[test]
fn a_game_leaves_the_repertoire_by_you_or_by_your_opponent() {
    let r = Repertoire::from_pgn(WHITE, Color::White).unwrap();
    let start = Chess::default();
    // You: 2.Nf3 instead of 2.c4.
    let d = r.deviation(&start, &line("d4 d5 Nf3 Nf6")).unwrap();
    assert_eq!((d.ply, d.by, d.played.as_str()), (3, By::You, "Nf3"));
    assert_eq!(d.expected, ["c4"]);
    assert_eq!(d.words(), "2.Nf3 leaves your repertoire: you prepared 2.c4");
    // The opponent: 1...e5, not prepared for.
    let d = r.deviation(&start, &line("d4 e5 dxe5")).unwrap();
    assert_eq!((d.ply, d.by), (2, By::Opponent));
    assert_eq!(
        d.words(),
        "1...e5: your opponent left your repertoire (you expected 1...d5 or 1...Nf6)"
    );
    // To the end of the prepared line, then anything: inside.
    assert_eq!(
        r.deviation(&start, &line("d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3")),
        None
    );
    // A transposition into the repertoire is inside it: 3...d5 in the
    // 1...Nf6 line (where 3...Bb4 was expected) reaches the 1...d5 line.
    assert_eq!(
        r.deviation(&start, &line("d4 Nf6 c4 e6 Nc3 d5 Bg5 Be7")),
        None
    );
    let d = r
        .deviation(&start, &line("d4 Nf6 c4 e6 Nc3 d5 Nf3"))
        .unwrap();
    assert_eq!((d.ply, d.by), (7, By::You));
    assert_eq!(d.expected, ["Bg5"]);
    // Leaving and coming back later is leaving: 1...e6 is not prepared.
    assert_eq!(
        r.deviation(&start, &line("d4 e6 c4 Nf6")).map(|d| d.ply),
        Some(2)
    );
    // A game that never enters it (1.e4 from a repertoire of 1.d4): the
    // first move is yours and not prepared.
    let d = r.deviation(&start, &line("e4 e5")).unwrap();
    assert_eq!((d.ply, d.by), (1, By::You));
}

#[test]
fn a_repertoire_round_trips_through_pgn_and_moves_come_and_go() {
    let mut r = Repertoire::from_pgn(WHITE, Color::White).unwrap();
    let again = Repertoire::from_pgn(&r.to_pgn(), Color::White).unwrap();
    assert_eq!(again.walk().len(), r.walk().len());
    assert_eq!(r.your_positions().len(), 8, "{}", r.to_pgn());
    // Marking a move adds it; taking it out drops its line.
    let after_e4 = {
        let mut p = Chess::default();
        p.play_unchecked(line("e4")[0]);
        p
    };
    let e4 = line("e4")[0];
    assert!(r.add(&Chess::default(), e4));
    assert!(!r.add(&Chess::default(), e4));
    let c5 = parse_move(&after_e4, "c5").unwrap();
    assert!(r.add(&after_e4, c5));
    assert!(r.to_pgn().contains("( 1. e4 c5 )"), "{}", r.to_pgn());
    assert!(r.remove(&Chess::default(), e4));
    assert!(r.moves(&after_e4).is_empty(), "its line went with it");
    assert!(!r.contains(&after_e4));
}

#[test]
fn an_illegal_move_in_a_repertoire_is_named() {
    let e = Repertoire::from_pgn("1. d4 d5 2. c4 (2. Ke3) e6 *\n", Color::White).unwrap_err();
    assert!(e.to_string().contains("Ke3"), "{e}");
    let e = Repertoire::from_pgn("1. d4 d5 2. Kd3 *\n", Color::White).unwrap_err();
    assert!(e.to_string().contains("Kd3"), "{e}");
}
