//! Targets for positions, moves and game files.

use super::{Target, seeds_of, text};
use crate::engine::Board;
use crate::engine::variant::{Bug, Zh};
use crate::game::library::Library;
use crate::ui::screens::house::file::{self as house_file, Kind};
use crate::variant::fen;

pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "fen",
            about: "FENs: chess, Crazyhouse pockets ([..], /.., legacy), Bughouse A|B",
            run: fen_target,
            seeds: || {
                seeds_of(&[
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pn] w KQkq - 4 4",
                    "4k3/8/8/8/8/8/8/4K3/QRbn w - - 0 1",
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 | 4k3/1Q~6/8/8/8/8/8/4K3[pp] b - - 0 1",
                ])
            },
            tokens: &[
                b"/8", b"[", b"]", b"[]", b" w ", b" b ", b" KQkq ", b" - ", b"~", b"|", b"K",
                b"k", b"Q", b"q", b"P", b"p", b"N", b"e3", b" 0 1", b"3+3",
            ],
        },
        Target {
            name: "move",
            about: "typed moves (SAN, UCI, drops P@e4) as the move box and move lists read them",
            run: move_target,
            seeds: || {
                seeds_of(&[
                    "e4",
                    "Nf3",
                    "e2e4",
                    "O-O",
                    "exd8=Q+",
                    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pn] w KQkq - 4 4\nP@e6",
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nNc3",
                ])
            },
            tokens: &[
                b"@", b"x", b"=", b"+", b"#", b"O-O", b"0-0-0", b"e4", b"Nf3", b"N@", b"P@e",
                b"a7a8q", b"e1g1", b"Qh5",
            ],
        },
        Target {
            name: "pgn",
            about: "PGN files as the replay screen opens them (index, then each game)",
            run: pgn_target,
            seeds: || {
                seeds_of(&[
                    "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 {c} Nc6 (2... g6) 3. Bc4 Nf6 4. Qxf7# 1-0\n",
                ])
            },
            tokens: PGN_TOKENS,
        },
        Target {
            name: "bpgn",
            about: "Bughouse BPGN files (the Bughouse screen's reader)",
            run: bpgn_target,
            seeds: || {
                seeds_of(&[
                    "[Event \"x\"]\n[WhiteA \"a\"]\n[BlackA \"b\"]\n[WhiteB \"c\"]\n[BlackB \"d\"]\n[Result \"*\"]\n\n1A. e4 1a. d5 1B. d4 1b. Nf6 2A. exd5 2B. c4 2b. P@e4 *\n",
                ])
            },
            tokens: &[
                b"1A.",
                b"1a.",
                b"2B.",
                b"3b.",
                b"P@",
                b"{",
                b"}",
                b"[Event \"",
                b"[FEN \"",
                b"\"]\n",
                b"[Result \"1-0\"]",
                b"*",
                b"[TimeControl \"180+0\"]",
            ],
        },
        Target {
            name: "zhpgn",
            about: "Crazyhouse PGN files (the Crazyhouse screen's reader)",
            run: zhpgn_target,
            seeds: || {
                seeds_of(&[
                    "[Event \"x\"]\n[Variant \"crazyhouse\"]\n[Result \"*\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 P@e6 *\n",
                ])
            },
            tokens: PGN_TOKENS,
        },
        Target {
            name: "history",
            about: "move-history files (first line a FEN, then 1. e2e4 e7e5) and plain move lists",
            run: history_target,
            seeds: || {
                seeds_of(&[
                    "4k3/8/8/8/8/8/8/4K2Q w - - 0 1\n1. Qh1h7 Ke8d8\n",
                    "1. e4 e5 2. Nf3 Nc6\n",
                ])
            },
            tokens: &[
                b"1.",
                b"2...",
                b"e2e4",
                b"e7e5",
                b"Nf3",
                b"\n",
                b" w - - 0 1\n",
                b"O-O",
                b"e7e8q",
            ],
        },
    ]
}

const PGN_TOKENS: &[&[u8]] = &[
    b"[",
    b"]",
    b"{",
    b"}",
    b"(",
    b")",
    b";",
    b"$1",
    b"%",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"*",
    b"1.",
    b"1...",
    b"e4",
    b"Nf3",
    b"O-O",
    b"=Q",
    b"P@e4",
    b"[Event \"",
    b"[FEN \"",
    b"[SetUp \"1\"]",
    b"[Variant \"crazyhouse\"]",
    b"\"]\n",
    b"\n\n",
    b"[%clk 0:01:00]",
];

fn fen_target(data: &[u8]) -> bool {
    let t = String::from_utf8_lossy(data);
    let t = t.trim();
    let mut ok = false;
    // The play screen's start position (chess), and the variants'.
    if let Ok(b) = Board::from_fen(t) {
        ok = true;
        let again = Board::from_fen(&b.fen());
        assert!(
            again.is_ok(),
            "the written FEN {} does not read back",
            b.fen()
        );
    }
    if let Ok(b) = Board::<Zh>::from_variant_fen(t) {
        ok = true;
        let again = Board::<Zh>::from_variant_fen(&b.fen());
        assert!(
            again.is_ok(),
            "the written FEN {} does not read back",
            b.fen()
        );
    }
    ok |= Board::<Bug>::from_variant_fen(t).is_ok();
    ok |= fen::parse_chess(t).is_ok();
    ok |= fen::parse_crazyhouse(t, false).is_ok();
    if let Ok([a, b]) = fen::parse_bughouse(t) {
        ok = true;
        let written = fen::write_bughouse(&a, &b);
        assert!(
            fen::parse_bughouse(&written).is_ok(),
            "the written FENs {written} do not read back"
        );
    }
    ok
}

fn move_target(data: &[u8]) -> bool {
    let t = String::from_utf8_lossy(data);
    // "FEN\nmove": the move in that position; else the start positions.
    let (fen_line, mv) = match t.split_once('\n') {
        Some((f, m)) => (Some(f), m),
        None => (None, t.as_ref()),
    };
    let chess = fen_line
        .and_then(|f| Board::from_fen(f).ok())
        .unwrap_or_else(Board::startpos);
    let zh = fen_line
        .and_then(|f| Board::<Zh>::from_variant_fen(f).ok())
        .or_else(|| {
            Board::<Zh>::from_variant_fen(
                "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[QRBNPqrbnp] w KQkq - 4 4",
            )
            .ok()
        });
    let mut ok = false;
    // The move box: as typed, and each prefix as the user types it.
    let _ = crate::game::notation::looks_like_move_prefix(mv);
    let _ = crate::game::notation::could_begin_move(chess.chess(), mv);
    if let Ok(m) = crate::game::notation::parse_move(chess.chess(), mv) {
        ok = true;
        let _ = chess.play(m);
    }
    if let Ok(m) = chess.parse_uci(mv.trim()) {
        ok = true;
        let _ = chess.play(m);
    }
    if let Some(zh) = zh {
        if let Ok(m) = crate::game::notation::parse_variant_move(zh.pos(), mv) {
            ok = true;
            let _ = zh.play(m);
        }
        if let Ok(m) = zh.parse_uci(mv.trim()) {
            ok = true;
            let _ = zh.play(m);
        }
    }
    ok
}

fn pgn_target(data: &[u8]) -> bool {
    // As `Library::open` reads a file.
    let t = String::from_utf8_lossy(data).into_owned();
    let _ = crate::game::pgn_read::read_games_full(&t);
    let mut lib = Library::from_text("fuzz.pgn".into(), t, &mut |_| {});
    let mut ok = false;
    for i in 0..lib.entries.len().min(16) {
        ok |= lib.load(i).is_ok();
    }
    ok
}

fn house(data: &[u8], kind: Kind) -> bool {
    house_file::parse(&text(data), kind).is_ok_and(|games| games.iter().any(Result::is_ok))
}

fn bpgn_target(data: &[u8]) -> bool {
    let _ = crate::bughouse::bpgn::read_bpgn(&text(data));
    house(data, Kind::Bughouse)
}

fn zhpgn_target(data: &[u8]) -> bool {
    house(data, Kind::Crazyhouse)
}

fn history_target(data: &[u8]) -> bool {
    let t = String::from_utf8_lossy(data).into_owned();
    let _ = crate::game::history::is_history(&t);
    let a = crate::game::history::read_history(&t).is_ok();
    let b = crate::game::history::read_move_list(&t).is_ok();
    let mut lib = Library::from_text("fuzz.history".into(), t, &mut |_| {});
    let c = !lib.entries.is_empty() && lib.load(0).is_ok();
    a || b || c
}
