use super::*;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, EnPassantMode};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn uci_of(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// Parses and returns the move in UCI (castling as king two squares).
fn ok(p: &Chess, text: &str) -> String {
    match parse_move(p, text) {
        Ok(m) => uci_of(m),
        Err(e) => panic!("'{text}' should parse: {e}"),
    }
}

fn err(p: &Chess, text: &str) -> MoveInputError {
    match parse_move(p, text) {
        Ok(m) => panic!("'{text}' should fail, got {}", uci_of(m)),
        Err(e) => e,
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn plain_and_lenient_san() {
    let p = Chess::default();
    for (text, want) in [
        ("e4", "e2e4"),
        ("E4", "e2e4"),
        ("Nf3", "g1f3"),
        ("nf3", "g1f3"),
        ("NF3", "g1f3"),
        ("Ngf3", "g1f3"),
        ("Ng1f3", "g1f3"),
        ("Ng1-f3", "g1f3"),
        ("Nf3+", "g1f3"),
        ("Nf3!?", "g1f3"),
        ("e4??", "e2e4"),
        ("1. e4", "e2e4"),
        ("1.e4", "e2e4"),
        ("  d4  ", "d2d4"),
        ("Pe4", "e2e4"),
        ("b4", "b2b4"),
        ("b3", "b2b3"),
    ] {
        assert_eq!(ok(&p, text), want, "{text}");
    }
    // Black to move, with a move number ellipsis.
    let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(ok(&p, "1... e5"), "e7e5");
    assert_eq!(ok(&p, "nc6"), "b8c6");
}

#[test]
fn captures_with_and_without_x() {
    // 1.e4 d5 2.Nc3 Nf6: exd5, ed5, Nxd5 and Nd5 (capture without x).
    let p = pos("rnbqkb1r/ppp1pppp/5n2/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3");
    assert_eq!(ok(&p, "exd5"), "e4d5");
    assert_eq!(ok(&p, "ed5"), "e4d5");
    assert_eq!(ok(&p, "e4xd5"), "e4d5");
    assert_eq!(ok(&p, "Nxd5"), "c3d5");
    assert_eq!(ok(&p, "Nd5"), "c3d5");
    assert_eq!(ok(&p, "nd5"), "c3d5");
    assert_eq!(ok(&p, "qh5"), "d1h5");
    assert_eq!(
        err(&p, "Nxe4"),
        MoveInputError::OwnPiece {
            to: Square::E4,
            role: Role::Pawn
        }
    );
    assert_eq!(
        err(&p, "Nxb5").to_string(),
        "there is nothing to capture on b5"
    );
    // Queen takes on d7 (lowercase).
    let p = pos("rnbqkbnr/pppBpppp/8/8/8/4P3/PPPP1PPP/RNBQK1NR b KQkq - 0 3");
    assert_eq!(ok(&p, "qxd7"), "d8d7");
    assert_eq!(ok(&p, "Nxd7"), "b8d7");
    assert_eq!(ok(&p, "kxd7"), "e8d7");
    assert_eq!(ok(&p, "Kd7"), "e8d7");
}

#[test]
fn promotions() {
    // White pawn on e7, black rook on d8.
    let p = pos("3r4/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
    for (text, want) in [
        ("e8=Q", "e7e8q"),
        ("e8Q", "e7e8q"),
        ("e8=q", "e7e8q"),
        ("e8q", "e7e8q"),
        ("e8", "e7e8q"),
        ("e8=N+", "e7e8n"),
        ("e8n", "e7e8n"),
        ("e8=R", "e7e8r"),
        ("e8b", "e7e8b"),
        ("e8=B", "e7e8b"),
        ("exd8", "e7d8q"),
        ("ed8", "e7d8q"),
        ("exd8=N", "e7d8n"),
        ("e7e8", "e7e8q"),
        ("e7e8q", "e7e8q"),
        ("e7e8n", "e7e8n"),
        ("E7E8N", "e7e8n"),
        ("e7d8r", "e7d8r"),
    ] {
        assert_eq!(ok(&p, text), want, "{text}");
    }
    assert_eq!(
        err(&p, "e8=K").to_string(),
        "e8=K is not possible: a pawn promotes to a queen, rook, bishop or knight"
    );
    assert_eq!(
        err(&p, "e7e8k").to_string(),
        "e7e8=K is not possible: a pawn promotes to a queen, rook, bishop or knight"
    );
    assert_eq!(
        err(&p, "Kf2=Q").to_string(),
        "Kf2=Q is not possible: only pawns promote"
    );
    let p = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(
        err(&p, "e4=Q").to_string(),
        "e4=Q is not possible: pawns promote only on the last rank"
    );
    // Black promotes on the first rank.
    let p = pos("4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
    assert_eq!(ok(&p, "a1"), "a2a1q");
    assert_eq!(ok(&p, "a1=N"), "a2a1n");
}

#[test]
fn en_passant() {
    // 1.e4 Nc6 2.e5 f5: exf6 e.p.
    let p = pos("r1bqkbnr/ppppp1pp/2n5/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    for text in ["exf6", "ef6", "exf6 e.p.", "exf6ep", "e5f6", "exf6+"] {
        assert_eq!(ok(&p, text), "e5f6", "{text}");
    }
    assert!(parse_move(&p, "exf6").unwrap().is_en_passant());
    // A move later the chance is gone.
    let p = pos("r1bqkbnr/ppppp1pp/2n5/4Pp2/8/7N/PPPP1PPP/RNBQKB1R w KQkq - 2 4");
    assert_eq!(
        err(&p, "exf6").to_string(),
        "there is nothing to capture on f6"
    );
    // En passant that would expose the king along the rank.
    let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert_eq!(
        err(&p, "exd6").to_string(),
        "exd6 would leave your king in check"
    );
}

#[test]
fn castling_both_ways() {
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    for text in ["O-O", "0-0", "o-o", "OO", "O-O+", "e1g1", "e1h1", "Kg1"] {
        assert_eq!(ok(&p, text), "e1g1", "{text}");
    }
    for text in ["O-O-O", "0-0-0", "o-o-o", "e1c1", "e1a1", "Kc1"] {
        assert_eq!(ok(&p, text), "e1c1", "{text}");
    }
    assert!(parse_move(&p, "e1h1").unwrap().is_castle());
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
    assert_eq!(ok(&p, "O-O"), "e8g8");
    assert_eq!(ok(&p, "e8a8"), "e8c8");
    assert_eq!(ok(&p, "0-0-0"), "e8c8");
}

#[test]
fn castling_refused_with_reason() {
    let block = |fen: &str, text: &str| match parse_move(&pos(fen), text) {
        Err(MoveInputError::CannotCastle { why, .. }) => why,
        other => panic!("{text} in {fen}: {other:?}"),
    };
    assert_eq!(block(START, "O-O"), CastlingBlock::PiecesInTheWay);
    assert_eq!(
        parse_move(&Chess::default(), "O-O")
            .unwrap_err()
            .to_string(),
        "you cannot castle kingside: there are pieces between your king and rook"
    );
    assert_eq!(
        block("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "O-O"),
        CastlingBlock::NoRights
    );
    assert_eq!(
        block("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "e1g1"),
        CastlingBlock::NoRights
    );
    // Rook on e8 checks the king.
    assert_eq!(
        block("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O-O"),
        CastlingBlock::InCheck
    );
    // Bishop on c4 covers f1; rook on c8 covers c1.
    assert_eq!(
        block("2r3k1/8/8/1b6/8/8/8/R3K2R w KQ - 0 1", "O-O"),
        CastlingBlock::PassesThroughAttack(Square::F1)
    );
    assert_eq!(
        block("2r3k1/8/8/1b6/8/8/8/R3K2R w KQ - 0 1", "O-O-O"),
        CastlingBlock::LandsInCheck(Square::C1)
    );
    assert_eq!(
        parse_move(&pos("2r3k1/8/8/1b6/8/8/8/R3K2R w KQ - 0 1"), "O-O")
            .unwrap_err()
            .to_string(),
        "you cannot castle kingside: your king would pass through f1, which is attacked"
    );
}

#[test]
fn b_pawn_or_bishop() {
    // Pawn b2 and bishop d2 can both take the knight on c3.
    let both = pos("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1");
    // Exact SAN: lower case b is the pawn, upper case B the bishop.
    assert_eq!(ok(&both, "bxc3"), "b2c3");
    assert_eq!(ok(&both, "bxc3+"), "b2c3");
    assert_eq!(ok(&both, "Bxc3"), "d2c3");
    assert_eq!(ok(&both, "b2c3"), "b2c3");
    // Without the x it is not SAN for either, so the candidates are named.
    let e = err(&both, "bc3");
    assert_eq!(
        e,
        MoveInputError::Ambiguous {
            input: "bc3".into(),
            candidates: vec!["Bxc3".into(), "bxc3".into()]
        }
    );
    assert_eq!(e.to_string(), "bc3 is ambiguous: Bxc3 or bxc3");
    // Only the pawn.
    let pawn = pos("4k3/8/8/8/8/2n5/1P6/4K3 w - - 0 1");
    assert_eq!(ok(&pawn, "bxc3"), "b2c3");
    assert_eq!(ok(&pawn, "bc3"), "b2c3");
    // Only the bishop (no pawn on b2).
    let bishop = pos("4k3/8/8/8/8/2n5/3B4/4K3 w - - 0 1");
    assert_eq!(ok(&bishop, "bxc3"), "d2c3");
    assert_eq!(ok(&bishop, "bc3"), "d2c3");
    // Empty c3: the b-pawn cannot go there, the bishop can.
    let quiet = pos("4k3/8/8/8/8/8/1P1B4/4K3 w - - 0 1");
    assert_eq!(ok(&quiet, "bc3"), "d2c3");
    // `bb4` is the bishop (a b-pawn push is written b4).
    assert_eq!(ok(&quiet, "bb4"), "d2b4");
    assert_eq!(ok(&quiet, "b4"), "b2b4");
    assert_eq!(err(&quiet, "bb3").to_string(), "no bishop can move to b3");
    assert_eq!(ok(&quiet, "be3"), "d2e3");
}

#[test]
fn ambiguous_knight() {
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let e = err(&p, "Nd2");
    assert_eq!(e.to_string(), "Nd2 is ambiguous: Nbd2 or Nfd2");
    assert_eq!(err(&p, "nd2").to_string(), "Nd2 is ambiguous: Nbd2 or Nfd2");
    assert_eq!(ok(&p, "Nbd2"), "b1d2");
    assert_eq!(ok(&p, "Nfd2"), "f3d2");
    assert_eq!(ok(&p, "N1d2"), "b1d2");
    assert_eq!(ok(&p, "N3d2"), "f3d2");
    assert_eq!(ok(&p, "f3d2"), "f3d2");
    // Three queens.
    let p = pos("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
    assert_eq!(
        err(&p, "Qb2").to_string(),
        "Qb2 is ambiguous: Q1b2, Qa3b2 or Qcb2"
    );
    assert_eq!(
        err(&p, "Qab2").to_string(),
        "Qab2 is ambiguous: Q1b2 or Qa3b2"
    );
    assert_eq!(ok(&p, "Qa1b2"), "a1b2");
}

#[test]
fn pinned_piece() {
    // Knight on e2 pinned by the rook on e7.
    let p = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    let e = err(&p, "Nf4");
    assert_eq!(
        e,
        MoveInputError::Pinned {
            san: "Nf4".into(),
            role: Role::Knight,
            from: Square::E2
        }
    );
    assert_eq!(
        e.to_string(),
        "Nf4 would leave your king in check: your knight on e2 is pinned"
    );
    assert!(matches!(err(&p, "e2c3"), MoveInputError::Pinned { .. }));
    // A pinned bishop may move along the pin line.
    let p = pos("4k3/8/8/7b/8/8/4B3/3K4 w - - 0 1");
    assert_eq!(ok(&p, "Bxh5"), "e2h5");
    assert_eq!(ok(&p, "Bg4"), "e2g4");
    assert!(matches!(err(&p, "Bd3"), MoveInputError::Pinned { .. }));
}

#[test]
fn in_check() {
    // White king on e1 checked by the rook on a1; knight on c3.
    let p = pos("4k3/8/8/8/8/2N5/8/r3K3 w - - 0 1");
    assert_eq!(
        err(&p, "Ne4").to_string(),
        "you are in check, and Ne4 does not get you out of it"
    );
    assert_eq!(ok(&p, "Nd1"), "c3d1");
    assert_eq!(ok(&p, "Nb1"), "c3b1");
    assert_eq!(ok(&p, "Ke2"), "e1e2");
    assert_eq!(
        err(&p, "Kd1").to_string(),
        "Kd1 would put your king in check"
    );
    assert_eq!(
        err(&p, "O-O").to_string(),
        "you cannot castle kingside: your king or that rook has moved (or the rook is gone)"
    );
    let p = pos("4k3/8/8/8/8/8/8/r3K2R w K - 0 1");
    assert_eq!(
        err(&p, "O-O").to_string(),
        "you cannot castle kingside: you are in check"
    );
    // Walking into a pawn's attack.
    let p = pos("4k3/8/8/8/8/3p4/8/4K3 w - - 0 1");
    assert!(matches!(
        err(&p, "Ke2"),
        MoveInputError::KingIntoCheck { .. }
    ));
    assert_eq!(ok(&p, "Kd2"), "e1d2");
}

#[test]
fn pieces_that_cannot_get_there() {
    let p = Chess::default();
    assert_eq!(err(&p, "Nf4").to_string(), "no knight can move to f4");
    assert_eq!(
        err(&p, "Nxf4").to_string(),
        "there is nothing to capture on f4"
    );
    assert_eq!(
        err(&p, "Nbd4").to_string(),
        "no knight on the b-file can move to d4"
    );
    assert_eq!(err(&p, "Nd1c3").to_string(), "you have no knight on d1");
    assert_eq!(
        err(&p, "Qh5").to_string(),
        "the queen on d1 cannot get to h5: e2 is in the way"
    );
    assert_eq!(
        err(&p, "Ra3").to_string(),
        "the rook on a1 cannot get to a3: a2 is in the way"
    );
    assert_eq!(
        err(&p, "Ke2").to_string(),
        "e2 is occupied by your own pawn"
    );
    assert_eq!(
        err(&p, "Kf3").to_string(),
        "the king on e1 cannot move to f3"
    );
    assert_eq!(err(&p, "e5").to_string(), "no pawn can move to e5");
    assert_eq!(
        err(&p, "exd3").to_string(),
        "there is nothing to capture on d3"
    );
    assert_eq!(
        err(&p, "ed3").to_string(),
        "there is nothing to capture on d3"
    );
    assert_eq!(
        err(&p, "Bb5").to_string(),
        "the bishop on f1 cannot get to b5: e2 is in the way"
    );
    assert_eq!(
        err(&p, "Bd3").to_string(),
        "the bishop on f1 cannot get to d3: e2 is in the way"
    );
    // No such piece at all.
    let p = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(err(&p, "Qd4").to_string(), "no queen can move to d4");
    assert_eq!(err(&p, "Nf3").to_string(), "no knight can move to f3");
    // Pawn double step through a piece; a pawn going backwards.
    let p = pos("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    assert_eq!(
        err(&p, "e4").to_string(),
        "the pawn on e2 cannot get to e4: e3 is in the way"
    );
    assert_eq!(
        err(&p, "e3").to_string(),
        "e3 is not possible: pawns capture diagonally, and the square ahead is taken"
    );
    assert_eq!(err(&p, "e1").to_string(), "e1 is occupied by your own king");
    let p = pos("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(err(&p, "e3").to_string(), "no pawn can move to e3");
    assert_eq!(err(&p, "e6").to_string(), "no pawn can move to e6");
    assert_eq!(
        err(&p, "e4e6").to_string(),
        "the pawn on e4 cannot move to e6"
    );
}

#[test]
fn uci_moves_and_their_errors() {
    let p = Chess::default();
    assert_eq!(ok(&p, "e2e4"), "e2e4");
    assert_eq!(ok(&p, "E2E4"), "e2e4");
    assert_eq!(ok(&p, "e2-e4"), "e2e4");
    assert_eq!(ok(&p, "g1f3"), "g1f3");
    assert_eq!(ok(&p, "b1c3"), "b1c3");
    assert_eq!(err(&p, "e3e4").to_string(), "there is no piece on e3");
    assert_eq!(
        err(&p, "e7e5").to_string(),
        "the pawn on e7 is Black's, and it is White's move"
    );
    assert_eq!(
        err(&p, "g1g3").to_string(),
        "the knight on g1 cannot move to g3"
    );
    assert_eq!(
        err(&p, "e2e5").to_string(),
        "the pawn on e2 cannot move to e5"
    );
    assert_eq!(
        err(&p, "d1d3").to_string(),
        "the queen on d1 cannot get to d3: d2 is in the way"
    );
    assert_eq!(
        err(&p, "e1e2").to_string(),
        "e2 is occupied by your own pawn"
    );
    assert_eq!(
        err(&p, "e1g1").to_string(),
        "you cannot castle kingside: there are pieces between your king and rook"
    );
    assert_eq!(
        err(&p, "g1f3q").to_string(),
        "Ng1f3=Q is not possible: only pawns promote"
    );
}

#[test]
fn empty_and_garbage() {
    let p = Chess::default();
    assert_eq!(err(&p, ""), MoveInputError::Empty);
    assert_eq!(err(&p, "   \t"), MoveInputError::Empty);
    assert_eq!(
        err(&p, "xyz").to_string(),
        "'xyz' is not a move: write it like e4, Nf3, O-O or e2e4"
    );
    for text in [
        "Nf9", "hello", "e2e4e6", "--", "Z0", "0000", "O-O-O-O", "!!", "+", "e", "b", "Nx", "e8=",
        "=Q", "N@f3", "ééé", "e4\u{0}", "1.", "12...", "bxc", "4e5",
    ] {
        assert!(
            matches!(parse_move(&p, text), Err(MoveInputError::Syntax(_))),
            "{text:?}: {:?}",
            parse_move(&p, text)
        );
    }
    // Long input is shortened in the message.
    let long = "a".repeat(100);
    let msg = err(&p, &long).to_string();
    assert!(msg.len() < 80, "{msg}");
    assert!(msg.contains('…'));
}

#[test]
fn game_over() {
    // Fool's mate, and a stalemate.
    let p = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(
        err(&p, "e4").to_string(),
        "no move is possible: the game is over (checkmate)"
    );
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        err(&p, "Kh7"),
        MoveInputError::GameOver { checkmate: false }
    );
    assert!(matches!(err(&p, "junk"), MoveInputError::Syntax(_)));
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions from random games, plus a few special ones.
fn positions(rng: &mut XorShift) -> Vec<Chess> {
    let mut out: Vec<Chess> = [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ]
    .iter()
    .map(|f| pos(f))
    .collect();
    for _ in 0..40 {
        let mut p = Chess::default();
        let plies = rng.below(80);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            p.play_unchecked(m);
            out.push(p.clone());
        }
    }
    out
}

#[test]
fn every_legal_move_round_trips() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for p in positions(&mut rng) {
        for &m in p.legal_moves().iter() {
            // Exact SAN, with or without its check mark, parses back.
            let san = San::from_move(&p, m).to_string();
            let plus = shakmaty::san::SanPlus::from_move(p.clone(), m).to_string();
            for text in [&san, &plus] {
                assert_eq!(parse_move(&p, text), Ok(m), "{text} in {}", fen(&p));
            }
            let uci = UciMove::from_move(m, CastlingMode::Standard).to_string();
            assert_eq!(parse_move(&p, &uci), Ok(m), "{uci} in {}", fen(&p));
            let chess960 = UciMove::from_move(m, CastlingMode::Chess960).to_string();
            assert_eq!(parse_move(&p, &chess960), Ok(m), "{chess960}");
            // Lowercase SAN finds the move, except a bishop move written
            // `bxc3` that a b-pawn can also make: that is the pawn's SAN.
            let lower = san.to_ascii_lowercase();
            match parse_move(&p, &lower) {
                Ok(found) if found == m => {}
                Ok(found) => {
                    assert_eq!(m.role(), Role::Bishop, "{lower} in {}", fen(&p));
                    assert_eq!(found.role(), Role::Pawn, "{lower} in {}", fen(&p));
                    assert_eq!(San::from_move(&p, found).to_string(), lower);
                }
                Err(MoveInputError::Ambiguous { candidates, .. }) => {
                    assert!(lower.starts_with('b'), "{lower} in {}", fen(&p));
                    assert!(candidates.contains(&san), "{lower}: {candidates:?}");
                }
                Err(e) => panic!("{lower} in {}: {e}", fen(&p)),
            }
        }
    }
}

fn fen(p: &Chess) -> String {
    Fen::from_position(p, EnPassantMode::Legal).to_string()
}

#[test]
fn random_text_never_panics() {
    const ALPHABET: &[u8] = b"abcdefghNBRQKPnbrqkpxX12345678=+#!?-O0o .:e";
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let positions = positions(&mut rng);
    let mut accepted = 0;
    for (n, p) in positions.iter().enumerate() {
        let legal = p.legal_moves();
        for _ in 0..60 {
            let len = rng.below(9);
            let text: String = (0..len)
                .map(|_| match rng.below(10) {
                    0 => char::from(32 + rng.below(95) as u8),
                    1 if n % 7 == 0 => ['é', '♘', '\u{0}', '\n', '½'][rng.below(5)],
                    _ => char::from(ALPHABET[rng.below(ALPHABET.len())]),
                })
                .collect();
            match parse_move(p, &text) {
                Ok(m) => {
                    accepted += 1;
                    assert!(legal.contains(&m), "{text:?} gave an illegal move");
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    }
    assert!(accepted > 0);
}

#[test]
fn lines_are_numbered_as_prose_quotes_them() {
    let p = Chess::default();
    let moves: Vec<Move> = ["e2e4", "e7e5", "g1f3"]
        .iter()
        .scan(p.clone(), |pos, u| {
            let m = u.parse::<UciMove>().unwrap().to_move(pos).unwrap();
            pos.play_unchecked(m);
            Some(m)
        })
        .collect();
    assert_eq!(numbered_line(&p, &moves), "1.e4 e5 2.Nf3");
    let mut after = p.clone();
    after.play_unchecked(moves[0]);
    assert_eq!(numbered_line(&after, &moves[1..]), "1...e5 2.Nf3");
    // An illegal move ends the line.
    assert_eq!(numbered_line(&p, &[moves[0], moves[0]]), "1.e4");
    assert_eq!(numbered_line(&p, &[]), "");
    // Check and mate signs are kept.
    let fools = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    let mate = "d8h4".parse::<UciMove>().unwrap().to_move(&fools).unwrap();
    assert_eq!(numbered_line(&fools, &[mate]), "2...Qh4#");
}
