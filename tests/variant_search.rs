//! The engine in Crazyhouse and Bughouse: mates by drops found as the
//! shortest mate, legal principal variations with drops, and the Bughouse
//! rule that a check a drop could block is not mate.

mod common;

use kibitz::engine::{
    Board, Bug, Engine, GamePosition, Limits, NoObserver, Score, SearchReport, Variant, Zh,
};
use shakmaty::{Move, Position};
use std::sync::atomic::AtomicBool;

/// A Crazyhouse position where the side to move mates in `moves` moves and
/// not fewer. Found in Fairy-Stockfish 11.1 self-play (`UCI_Variant
/// crazyhouse`; its `go depth 14` shows `score mate N`); `drop_only`: a
/// second search restricted (`searchmoves`) to the board moves finds no
/// mate that short, so only a drop mates in N.
struct ZhMate {
    fen: &'static str,
    moves: usize,
    drop_only: bool,
}

const ZH_MATES: &[ZhMate] = &[
    // Hand-made: the smothered mate N@f7#, and a back-rank mate by a rook
    // from the hand.
    ZhMate {
        fen: "6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1",
        moves: 1,
        drop_only: true,
    },
    ZhMate {
        fen: "6k1/5ppp/8/8/8/8/5PPP/6K1[R] w - - 0 1",
        moves: 1,
        drop_only: true,
    },
    ZhMate {
        fen: "r1b4r/ppn1Pp1p/2p1pp1k/4PB1N/3P4/4P1P1/PP3RKP/R1BQ4[QBNPn] w - - 2 22",
        moves: 1,
        drop_only: true,
    },
    ZhMate {
        fen: "rn2kb1r/pp2pppp/2p5/3p4/6bN/PP2P2N/3P1PPP/R1BNK2R[Qqbp] b KQkq - 0 12",
        moves: 1,
        drop_only: true,
    },
    ZhMate {
        fen: "3r1b1N/2pnkBpp/p1Qppp2/7p/1Q1P4/2N1P2P/PPP2PP1/R1B1KB1R[RN] w KQ - 2 18",
        moves: 1,
        drop_only: true,
    },
    ZhMate {
        fen: "1rbk3r/1pp1np2/qp1P1Np1/1N5p/P2Q4/2P3PB/1PP1PP1P/R4RK1[BNbp] w - - 0 20",
        moves: 1,
        drop_only: false,
    },
    ZhMate {
        fen: "r3kbnr/ppq2ppp/2p5/4pn2/2P1P1b1/3Bq1P1/PP1N2P1/1RB2K1R[NPPP] b kq - 5 18",
        moves: 1,
        drop_only: false,
    },
    ZhMate {
        fen: "r1b1k1r1/1p1pPppp/p3nB1n/2P1p3/8/P1NQPN2/1PP1BPPP/R1B2RK1[Q] w - - 1 14",
        moves: 2,
        drop_only: true,
    },
    ZhMate {
        fen: "r3kbnr/ppq2ppp/2p5/4pn2/2P1P1b1/3B2P1/PP1N1KP1/1RB4R[NPPPq] b kq - 3 17",
        moves: 2,
        drop_only: true,
    },
    ZhMate {
        fen: "r4k1r/1pN2pbp/pq1p4/b2N1Pp1/P2NQ3/3bP3/1PPP1PPP/R1B1K2R[NP] w KQ - 1 21",
        moves: 2,
        drop_only: true,
    },
    ZhMate {
        fen: "r4b1r/pQNn3p/1n1pp1p1/k1p1P3/7N/4P2P/PPPP1P1P/R1BQK2R[BPb] w KQ - 0 17",
        moves: 2,
        drop_only: false,
    },
    ZhMate {
        fen: "rn2kb1r/pp2pppp/2p5/3p4/6bN/PPN1P2N/2qP1PPP/R1B1K2R[qbp] b KQkq - 0 11",
        moves: 2,
        drop_only: false,
    },
    ZhMate {
        fen: "2r2knr/1pPB1ppp/3P4/p2pp3/1Q3B2/2N1P3/PPP2PPP/R3K1NR[QBBN] w KQ - 1 14",
        moves: 3,
        drop_only: true,
    },
    ZhMate {
        fen: "rn1k3r/pp2bpNp/2pp1n2/4p3/Pq6/3PPP2/B1PP1P1P/RNB1KB1q[rp] b Q - 1 15",
        moves: 3,
        drop_only: true,
    },
    ZhMate {
        fen: "r1b1k2r/pp3ppp/2n1p3/3p4/Pb1q2n1/1Q1P3N/1PPN1pPP/R1BK1R2[bpp] b kq - 1 14",
        moves: 3,
        drop_only: true,
    },
    ZhMate {
        fen: "r1b1k1r1/1pnpPppp/p4q1n/2P1p1B1/8/P1NQPN2/1PP1BPPP/R1B2RK1[] w - - 3 13",
        moves: 3,
        drop_only: false,
    },
    ZhMate {
        fen: "r3kbnr/ppp2ppp/5q2/3pp3/3nP3/1B5b/PPPPQPPP/RNB2RK1[N] b kq - 0 8",
        moves: 3,
        drop_only: false,
    },
];

fn search<V: Variant>(fen: &str, depth: i32) -> (Board<V>, SearchReport) {
    let board = Board::<V>::from_variant_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let report = Engine::default().search(
        &GamePosition::new(board.clone()),
        &Limits::depth(depth),
        &AtomicBool::new(false),
        &mut NoObserver,
    );
    (board, report)
}

#[test]
fn crazyhouse_mates_by_drops_are_found_as_the_shortest_mate() {
    assert!(ZH_MATES.len() >= 10);
    assert!(ZH_MATES.iter().filter(|m| m.drop_only).count() >= 5);
    let mut problems = Vec::new();
    for m in ZH_MATES {
        let plies = 2 * m.moves - 1;
        let (board, report) = search::<Zh>(m.fen, 2 * m.moves as i32 + 6);
        let pv: Vec<String> = report.result.pv.iter().map(|&x| Board::uci(x)).collect();
        let mut err = Vec::new();
        if report.result.score != Score::mate_in(plies) {
            err.push(format!(
                "score {} instead of mate in {}",
                report.result.score, m.moves
            ));
        }
        // The PV is legal and ends in checkmate after the mating move.
        let mut pos = board.pos().clone();
        for &mv in &report.result.pv {
            if !pos.is_legal(mv) {
                err.push(format!("illegal PV move {}", Board::uci(mv)));
                break;
            }
            pos.play_unchecked(mv);
        }
        if report.result.pv.len() == plies && !pos.is_checkmate() {
            err.push("the PV does not end in checkmate".into());
        }
        if m.drop_only && !matches!(report.best_move, Some(Move::Put { .. })) {
            err.push("only a drop mates this fast, but the best move is no drop".into());
        }
        eprintln!("mate in {}: {} pv {}", m.moves, m.fen, pv.join(" "));
        if !err.is_empty() {
            problems.push(format!(
                "{}: {} (pv {})",
                m.fen,
                err.join("; "),
                pv.join(" ")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn drops_appear_in_san_and_uci() {
    let (board, report) = search::<Zh>("6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1", 3);
    let best = report.best_move.unwrap();
    assert_eq!(Board::uci(best), "N@f7");
    assert_eq!(board.san(best), "N@f7#");
}

#[test]
fn bughouse_blockable_check_without_moves_is_not_mate() {
    // White is in check along the e-file, the d- and f-files are covered,
    // White holds nothing and its pawn is blocked: in Crazyhouse that is
    // mate; in Bughouse White waits for a piece from the partner.
    let fen = "3rrr1k/8/8/8/8/p7/P7/4K3[] w - - 0 1";
    let zh = Board::<Zh>::from_variant_fen(fen).unwrap();
    assert!(zh.legal_moves().is_empty() && zh.in_check());
    let (_, report) = search::<Zh>(fen, 3);
    assert_eq!(report.result.score, -Score::mate_in(0));
    let (_, report) = search::<Bug>(fen, 3);
    assert_eq!(report.best_move, None);
    assert!(!report.result.score.is_mate(), "{}", report.result.score);
    assert!(report.result.score.0 < -500, "waiting in check is bad");
    // A contact check by a protected queen is mate in Bughouse too.
    let (_, report) = search::<Bug>("4r2k/8/8/8/8/8/4q3/4K3[] w - - 0 1", 3);
    assert_eq!(report.best_move, None);
    assert_eq!(report.result.score, -Score::mate_in(0));
}

#[test]
fn bughouse_search_prefers_a_mate_to_a_capture_feeding_the_partner() {
    // N@f7# mates at once; Rxa3 would send a queen to the partner.
    let (_, report) = search::<Bug>("6rk/6pp/8/8/8/q7/5PPP/R5K1[N] w - - 0 1", 4);
    assert_eq!(report.best_move.map(Board::uci).as_deref(), Some("N@f7"));
    assert_eq!(report.result.score, Score::mate_in(1));
}
