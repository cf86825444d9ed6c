use super::*;

#[test]
fn fen_errors_say_what_is_wrong() {
    let err = |f: &str| Board::from_fen(f).map(|_| ()).unwrap_err().to_string();
    assert!(err("").contains("empty FEN"));
    assert!(err("8/8/8/8/8/8/8/8 w - - 0 1").contains("the board is empty"));
    assert!(err("4k3/8/8/8/8/8/8/4K2R w Q - 0 1").contains("castling rights"));
    assert!(err("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1").contains("not to move is in check"));
    assert!(err("4k3/8/8/8/8/8/8/4K2R x - - 0 1").contains("'w' or 'b'"));
    assert!(err("4k3/8/8/8/8/8/8/4K2Rp w - - 0 1").contains("8 ranks"));
    assert!(err("4k2P/8/8/8/8/8/8/4K3 w - - 0 1").contains("first or eighth rank"));
    assert!(Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").is_ok());
}

fn walk<V: Variant>(board: &Board<V>, depth: u32, seen: &mut u64) {
    let expect = board
        .pos()
        .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
        .0
        ^ board.extra().key();
    assert_eq!(
        board.hash(),
        expect,
        "incremental key wrong at {}",
        board.fen()
    );
    assert_eq!(
        board.psqt(),
        psqt_sum::<V>(board.board()),
        "incremental psqt"
    );
    *seen += 1;
    if depth == 0 {
        return;
    }
    let info = board.check_info();
    for m in board.pos().legal_moves() {
        let child = board.play(m);
        assert_eq!(
            board.gives_check(m, &info),
            child.in_check(),
            "gives_check of {m:?} at {}",
            board.fen()
        );
        let packed = Move16::new(m);
        assert_eq!(board.decode(packed), Some(m), "move16 round trip");
        walk(&child, depth - 1, seen);
    }
}

#[test]
fn incremental_key_matches_full_recompute() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        let b = Board::from_fen(fen).unwrap();
        let mut seen = 0;
        walk(&b, 3, &mut seen);
        assert!(seen > 1000);
    }
}

/// `gives_check` (checked in `walk` against playing the move) where its
/// shortcuts could go wrong: promotions checking along the line the pawn
/// leaves, discovered checks, en passant uncovering a line, castling
/// into check.
#[test]
fn gives_check_on_lines_the_move_opens() {
    for fen in [
        "8/1P6/8/8/8/8/1k6/6K1 w - - 0 1",
        "1k6/8/8/1P6/8/8/8/1Q4K1 w - - 0 1",
        "8/8/8/2k5/3Pp3/8/8/6KB b - d3 0 1",
        "8/8/8/K2Pp2k/8/8/8/8 w - e6 0 1",
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        "4k3/8/4N3/8/8/8/8/4R1K1 w - - 0 1",
        "5k2/2P5/8/8/B7/8/8/6K1 w - - 0 1",
        "8/RP2k3/8/8/8/8/8/6K1 w - - 0 1",
    ] {
        let b = Board::from_fen(fen).unwrap();
        let mut seen = 0;
        walk(&b, 2, &mut seen);
        assert!(seen > 5, "{fen}: {seen}");
    }
}

/// Crazyhouse and Bughouse boards: the key covers pockets, promoted
/// pieces and (Bughouse) what was sent to the partner, and stays equal
/// to a full recomputation through drops, captures and promotions.
#[test]
fn incremental_key_with_pockets() {
    for fen in [
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        "4k3/1Q~6/8/8/4b3/8/Kpp5/8[Nn] b - - 0 1",
        "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
    ] {
        let zh = Board::<Zh>::from_variant_fen(fen).unwrap();
        let mut seen = 0;
        walk(&zh, 2, &mut seen);
        assert!(seen > 300, "{fen}: {seen}");
        let bug = Board::<Bug>::from_variant_fen(fen).unwrap();
        let mut seen = 0;
        walk(&bug, 2, &mut seen);
        assert!(seen > 300, "{fen}: {seen}");
    }
}

#[test]
fn bughouse_capture_goes_to_the_partner() {
    // White takes the knight: Crazyhouse puts it in White's hand,
    // Bughouse sends it away.
    let fen = "4k3/8/8/3n4/4P3/8/8/4K3[] w - - 0 1";
    let zh = Board::<Zh>::from_variant_fen(fen).unwrap();
    let m = zh.parse_uci("e4d5").unwrap();
    assert_eq!(zh.play(m).pocket(Color::White).knight, 1);
    let bug = Board::<Bug>::from_variant_fen(fen).unwrap();
    let after = bug.play(m);
    assert_eq!(after.pocket(Color::White).knight, 0);
    assert_eq!(after.extra().count(Color::White, Role::Knight), 1);
    // A promoted queen goes back as a pawn.
    let fen = "4k3/8/8/8/8/8/1q~6/K7[] w - - 0 1";
    let zh = Board::<Zh>::from_variant_fen(fen).unwrap();
    let m = zh.parse_uci("a1b2").unwrap();
    let after = zh.play(m);
    assert_eq!(after.pocket(Color::White).pawn, 1);
    assert_eq!(after.pocket(Color::White).queen, 0);
    let bug = Board::<Bug>::from_variant_fen(fen).unwrap();
    assert_eq!(bug.play(m).extra().count(Color::White, Role::Pawn), 1);
}

#[test]
fn drops_in_uci_and_san() {
    let b = Board::<Zh>::from_variant_fen(
        "rnbqkb1r/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKB1R[Pnp] w KQkq - 0 4",
    )
    .unwrap();
    let m = b.parse_uci("P@e4").unwrap();
    assert_eq!(
        m,
        Move::Put {
            role: Role::Pawn,
            to: Square::E4
        }
    );
    assert_eq!(b.parse_uci("p@e4"), Ok(m), "lower case drops");
    assert_eq!(Board::uci(m), "P@e4");
    assert_eq!(b.san(m), "P@e4");
    assert!(b.parse_uci("N@e4").is_err(), "White has no knight in hand");
    assert!(
        b.parse_uci("P@e8").is_err(),
        "no pawn drops on the back rank"
    );
    let code = Move16::new(m);
    assert_eq!(b.decode(code), Some(m));
}

#[test]
fn polyglot_start_key() {
    assert_eq!(Board::startpos().hash(), 0x463b96181691fc9c);
    // Polyglot's documented keys after 1.e4 and 1.e4 d5 2.e5 f5 (ep file counts).
    let b = Board::startpos();
    let e4 = b.play(b.parse_uci("e2e4").unwrap());
    assert_eq!(e4.hash(), 0x823c9b50fd114196);
    let mut x = e4;
    for m in ["d7d5", "e4e5", "f7f5"] {
        x = x.play(x.parse_uci(m).unwrap());
    }
    assert_eq!(x.hash(), 0x22a48b5a8e47ff78);
}

#[test]
fn null_move_flips_turn_and_key() {
    let b =
        Board::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2").unwrap();
    let n = b.null_move().unwrap();
    assert_eq!(n.turn(), Color::Black);
    assert_eq!(
        n.hash(),
        n.chess()
            .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
            .0
    );
    let back = n.null_move().unwrap();
    assert_eq!(back.hash(), b.hash());
}

#[test]
fn fen_errors_are_explained() {
    assert!(matches!(Board::from_fen(""), Err(FenError::Syntax(_))));
    assert!(matches!(
        Board::from_fen("not a fen"),
        Err(FenError::Syntax(_))
    ));
    // Two white kings.
    assert!(matches!(
        Board::from_fen("8/8/8/8/8/8/8/KK5k w - - 0 1"),
        Err(FenError::Illegal(_))
    ));
    // Side not to move is in check.
    assert!(Board::from_fen("k7/8/8/8/8/8/8/K6r w - - 0 1").is_ok());
    assert!(matches!(
        Board::from_fen("k6R/8/8/8/8/8/8/K7 w - - 0 1"),
        Err(FenError::Illegal(_))
    ));
}
