//! Targets for the engine protocols: what a GUI sends `kibitz uci`, and
//! what an external UCI or XBoard engine sends Kibitz.

use super::{Target, seeds_of};
use crate::engine::Board;
use crate::engine::variant::Zh;
use crate::uci::engine::UciEngine;
use crate::uci::info::Output;
use crate::variant::VariantKind;

pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "uci-engine",
            about: "commands a GUI sends `kibitz uci` (searches bounded: each go is stopped)",
            run: uci_engine_target,
            seeds: || {
                seeds_of(&[
                    "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 1\nd\neval\n",
                    "setoption name UCI_Variant value crazyhouse\nposition fen r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pn] w KQkq - 4 4 moves P@e6\ngo nodes 100\ngo perft 1\n",
                    "setoption name UCI_Variant value bughouse\nposition startpos\nbughouse partner\ngo wtime 1000 btime 1000 winc 10 binc 10 movestogo 5\nsetoption name MultiPV value 3\ngo searchmoves e2e4 d2d4 depth 2\n",
                ])
            },
            tokens: &[
                b"position ",
                b"startpos",
                b"fen ",
                b" moves ",
                b"go ",
                b"depth ",
                b"nodes ",
                b"movetime ",
                b"wtime ",
                b"btime ",
                b"winc ",
                b"movestogo ",
                b"mate ",
                b"perft ",
                b"searchmoves ",
                b"infinite",
                b"setoption name ",
                b" value ",
                b"UCI_Variant",
                b"MultiPV",
                b"Level",
                b"Eval",
                b"OwnBook",
                b"crazyhouse",
                b"bughouse",
                b"stop\n",
                b"ucinewgame\n",
                b"d\n",
                b"eval\n",
                b"e2e4",
                b"P@e4",
                b"\n",
            ],
        },
        Target {
            name: "uci-client",
            about: "lines a UCI engine sends us (info, bestmove, id, option)",
            run: uci_client_target,
            seeds: || {
                seeds_of(&[
                    "id name Fake 1.0\noption name Hash type spin default 16 min 1 max 1024\nuciok\nreadyok\ninfo depth 5 seldepth 7 multipv 1 score cp 23 lowerbound nodes 1000 nps 100000 time 10 hashfull 3 pv e2e4 e7e5 g1f3\ninfo score mate -3 pv e2e4\ninfo string hello\nbestmove e2e4 ponder e7e5\n",
                ])
            },
            tokens: &[
                b"info ",
                b"depth ",
                b"seldepth ",
                b"score ",
                b"cp ",
                b"mate ",
                b"lowerbound",
                b"upperbound",
                b"nodes ",
                b"nps ",
                b"time ",
                b"pv ",
                b"multipv ",
                b"string ",
                b"currmove ",
                b"currmovenumber ",
                b"hashfull ",
                b"bestmove ",
                b"ponder ",
                b"0000",
                b"(none)",
                b"-2147483648",
                b"2147483647",
                b"e7e8q",
                b"P@e4",
                b"\n",
            ],
        },
        Target {
            name: "xboard",
            about: "lines an XBoard engine sends us (features, moves, thinking, results)",
            run: xboard_target,
            seeds: || {
                seeds_of(&[
                    "feature ping=1 setboard=1 usermove=1 variants=\"normal,crazyhouse,bughouse\" myname=\"Sjeng 12\" done=1\n\
                     pong 1\n4 25 3 1200 e2e4 e7e5 Ng1f3\n9 100005 1 99 Qh5\n12& -999996 40 88888 e4\n\
                     move e2e4\nmove P@e4\nMy move is: e7e5\ntellics ptell I need a knight\nIllegal move: e2e5\nresign\n1-0 {White mates}\n",
                ])
            },
            tokens: &[
                b"feature ",
                b"=1",
                b"=0",
                b"=\"",
                b"done=1",
                b"variants=",
                b"myname=",
                b"move ",
                b"My move is: ",
                b"tellics ptell ",
                b"ptell ",
                b"resign",
                b"1-0",
                b"0-1",
                b"1/2-1/2",
                b"Illegal move",
                b"100005",
                b"-1000000",
                b"999999",
                b"P@",
                b"O-O",
                b"e7e8q",
                b"\n",
            ],
        },
    ]
}

/// A GUI's lines are given to the engine one by one; a `go` is stopped
/// at once, and options that would take the machine (hash size, threads,
/// files) are left out, so an input's time is bounded.
fn uci_engine_target(data: &[u8]) -> bool {
    let text = String::from_utf8_lossy(data);
    let mut uci = UciEngine::new(Output::new(Box::new(std::io::sink())));
    let mut known = 0;
    for line in text.lines().take(64) {
        let lower = line.to_ascii_lowercase();
        if lower.contains("setoption")
            && ["hash", "threads", "syzygypath", "bookfile"]
                .iter()
                .any(|w| lower.contains(w))
        {
            continue;
        }
        let mut words = lower.split_whitespace();
        let cmd = words.next().unwrap_or("");
        if cmd == "go" {
            // Perft counts every node: more than 2 plies (Crazyhouse with
            // full hands: millions of nodes at 3) is a long wait
            // asked for, not a hang.
            if let Some(d) = lower
                .split_whitespace()
                .skip_while(|w| *w != "perft")
                .nth(1)
                .and_then(|d| d.parse::<u64>().ok())
                && d > 2
            {
                continue;
            }
        }
        if [
            "uci",
            "isready",
            "ucinewgame",
            "position",
            "go",
            "stop",
            "setoption",
            "d",
            "eval",
            "bughouse",
        ]
        .contains(&cmd)
        {
            known += 1;
        }
        if !uci.handle(line) {
            break;
        }
        if cmd == "go" {
            uci.handle("stop");
        }
    }
    uci.handle("quit");
    known > 0
}

fn uci_client_target(data: &[u8]) -> bool {
    use crate::uci::client::{parse_bestmove, parse_info};
    let text = String::from_utf8_lossy(data);
    let chess = Board::startpos();
    let zh = Board::<Zh>::from_variant_fen(
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[QRBNPqrbnp] w KQkq - 4 4",
    )
    .ok();
    let mut ok = false;
    for line in text.lines() {
        if let Some(info) = parse_info(line) {
            ok = true;
            // The GUI shows the line: its moves are played out.
            let mut b = chess.clone();
            for m in &info.pv {
                match b.parse_uci(m) {
                    Ok(m) => b = b.play(m),
                    Err(_) => break,
                }
            }
        } else if let Some((best, ponder)) = parse_bestmove(line) {
            ok = true;
            for m in std::iter::once(best).chain(ponder) {
                let _ = chess.parse_uci(&m);
                if let Some(zh) = &zh {
                    let _ = zh.parse_uci(&m);
                }
            }
        }
    }
    ok
}

fn xboard_target(data: &[u8]) -> bool {
    let text = String::from_utf8_lossy(data);
    let chess = Board::startpos().fen();
    let zh = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[QRBNPqrbnp] w KQkq - 4 4";
    let mut ok = false;
    for line in text.lines() {
        ok |= crate::uci::xboard::read_engine_line(VariantKind::Chess, &chess, line);
        ok |= crate::uci::xboard::read_engine_line(VariantKind::Crazyhouse, zh, line);
        ok |= crate::uci::xboard::read_engine_line(VariantKind::Bughouse, zh, line);
    }
    ok
}
