use super::*;
use crate::engine::Limits;
use crate::game::review::{MoveReview, Reviewer};
use shakmaty::{Role, Square};
use std::sync::atomic::AtomicBool;

/// The depth every crafted position is searched to: deep enough for the
/// mates in 2 and the fork lines, and fixed so the lines are always the
/// same (one thread, a fresh engine each time).
const DEPTH: i32 = 8;

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

fn moves(fen: &str, sans: &[&str]) -> Vec<Move> {
    let mut b = board(fen);
    sans.iter()
        .map(|s| {
            let m = crate::game::notation::parse_move(b.chess(), s).unwrap();
            b = b.play(m);
            m
        })
        .collect()
}

/// Reviews `played` (SAN) from `fen` at [`DEPTH`].
fn review(fen: &str, played: &str) -> MoveReview {
    let m = moves(fen, &[played])[0];
    let stop = AtomicBool::new(false);
    let mut r =
        Reviewer::new(Limits::depth(DEPTH)).review(&board(fen), &[m], &stop, &mut |_, _, _| {});
    assert_eq!(r.len(), 1);
    r.remove(0)
}

/// The reason the review gives `played`, which must be judged.
fn reason_of(fen: &str, played: &str) -> String {
    let r = review(fen, played);
    assert!(r.judgement.is_some(), "{played} should be judged: {r:?}");
    r.reason.unwrap_or_default()
}

#[test]
fn allowing_mate_in_one() {
    // 1.e4 e5 2.Bc4 Nc6 3.Qh5 and now 3...Nf6??.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3";
    assert_eq!(reason_of(fen, "Nf6"), "allows 4.Qxf7# mate");
}

#[test]
fn allowing_a_longer_mate_quotes_it() {
    // The queen leaves the back rank's guard.
    let fen = "2r3k1/4qppp/8/8/8/8/3Q1PPP/3R2K1 b - - 0 23";
    assert_eq!(
        reason_of(fen, "Qb7"),
        "allows mate in 2: 24.Qd8+ Rxd8 25.Rxd8#"
    );
}

#[test]
fn missing_mate() {
    let fen = "2r3k1/5ppp/q7/8/8/8/3Q1PPP/3R2K1 w - - 0 17";
    assert_eq!(
        reason_of(fen, "h3"),
        "misses mate in 2: 17.Qd8+ Rxd8 18.Rxd8#"
    );
}

#[test]
fn a_defender_moved_away() {
    // The queen on d8 guards the knight on d4; the bishop on b2 waits.
    let fen = "r2q2k1/pp3pp1/7p/8/3n4/1P5Q/PB3PPP/4R1K1 b - - 0 20";
    assert_eq!(
        reason_of(fen, "Qg5"),
        "leaves the knight on d4 undefended: 21.Bxd4"
    );
}

#[test]
fn allowing_a_fork() {
    let fen = "6k1/pp3p1p/2q3p1/8/4N3/8/PP3PPP/4R1K1 b - - 0 20";
    assert_eq!(
        reason_of(fen, "Qd7"),
        "allows 21.Nf6+, a fork of king and queen"
    );
}

#[test]
fn a_capture_that_loses_the_piece() {
    let fen = "1k3b2/ppp2p2/2n4P/6P1/8/2N5/PPP2P2/6K1 b - - 0 18";
    assert_eq!(
        reason_of(fen, "Bxh6"),
        "after 18...Bxh6?? 19.gxh6 the bishop is lost for a pawn"
    );
}

#[test]
fn a_reply_to_white_is_not_numbered_again() {
    // 69.Qxd4?? Rxd4: the rook behind the pawn takes the queen.
    let fen = "3r2k1/8/8/8/3p4/8/5PK1/3Q4 w - - 0 69";
    let line = moves(fen, &["Qxd4", "Rxd4"]);
    let b = board(fen);
    let e = Evidence {
        before: &b,
        played: line[0],
        best_line: &[],
        refutation: &line[1..],
        score_before: Score(-100),
        score_after: Score(-900),
        judgement: Some(Judgement::Blunder),
    };
    assert_eq!(
        reason(&e),
        "after 69.Qxd4?? Rxd4 the queen is lost for a pawn"
    );
}

#[test]
fn losing_the_exchange() {
    // The rook goes where the bishop takes it and a pawn takes back.
    let fen = "3r2k1/ppp2ppp/5n2/8/5B2/2N5/PPP2PPP/6K1 b - - 0 20";
    assert_eq!(reason_of(fen, "Rd6"), "loses the exchange: 21.Bxd6 cxd6");
}

#[test]
fn losing_a_pawn() {
    // 3...g5 in the Italian: the e5 pawn falls.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    assert_eq!(reason_of(fen, "g5"), "loses a pawn: 4.d4 Bh6 5.dxe5");
}

#[test]
fn letting_a_pawn_promote() {
    // 40.Rxd2 wins the pawn; the rook goes elsewhere instead.
    let fen = "3R4/8/8/8/8/5k2/3p4/K7 w - - 0 40";
    assert_eq!(reason_of(fen, "Ra8"), "lets the pawn promote: 40...d1=Q+");
}

#[test]
fn missing_a_fork() {
    let fen = "r5k1/ppp2ppp/3p4/4n3/8/6P1/PP1Q1P1P/R5K1 b - - 0 17";
    assert_eq!(
        reason_of(fen, "h6"),
        "misses 17...Nf3+, a fork of king and queen"
    );
}

#[test]
fn missing_a_win_of_material() {
    let fen = "6k1/pp2qpp1/7p/8/4N3/8/PP3PPP/3R2K1 b - - 0 17";
    assert_eq!(reason_of(fen, "a6"), "misses 17...Qxe4, winning the knight");
}

#[test]
fn stalemate_instead_of_mate() {
    let fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 60";
    assert_eq!(
        reason_of(fen, "Qf7"),
        "stalemates the king: the game is drawn"
    );
}

#[test]
fn otherwise_the_scores_speak() {
    // 3...Ke7 in the Spanish: nothing hangs, it is just worse.
    let fen = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    assert_eq!(
        reason_of(fen, "Ke7"),
        "3...Nd4 was better (+0.10); after 3...Ke7 4.d4 the position is +1.26"
    );
}

#[test]
fn lines_that_do_not_fit_the_position_fall_back_to_scores() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    let b = board(fen);
    let ke7 = moves(fen, &["Ke7"])[0];
    let nf6 = moves(fen, &["Nf6"])[0];
    // A "refutation" that is not legal after the move says nothing.
    let e = Evidence {
        before: &b,
        played: ke7,
        best_line: &[nf6],
        refutation: &[ke7],
        score_before: Score(10),
        score_after: Score(118),
        judgement: Some(Judgement::Inaccuracy),
    };
    assert_eq!(
        reason(&e),
        "3...Nf6 was better (+0.10); after 3...Ke7 the position is +1.18"
    );
    // A move that is not legal here is not named.
    let e4 = moves(crate::engine::Board::startpos().fen().as_str(), &["e4"])[0];
    let e = Evidence {
        played: e4,
        best_line: &[],
        ..e
    };
    assert_eq!(reason(&e), "after the move the position is +1.18");
    // A mate score without a line still says mate.
    let e = Evidence {
        played: ke7,
        refutation: &[],
        score_after: Score::mate_in(5),
        ..e
    };
    assert_eq!(reason(&e), "allows mate in 3");
}

#[test]
fn material_settles_when_the_captures_stop() {
    // 1...Bxh6 2.gxh6 then two quiet plies: the bishop for a pawn.
    let fen = "1k3b2/ppp2p2/2n4P/6P1/8/2N5/PPP2P2/6K1 b - - 0 18";
    let line = moves(fen, &["Bxh6", "gxh6", "Kc8", "Kg2", "Nd4"]);
    let o = material::outcome(board(fen).chess(), &line);
    assert_eq!(o.plies, 2);
    assert_eq!(o.net, -2);
    assert_eq!(o.lost, vec![Role::Bishop]);
    assert_eq!(o.won, vec![Role::Pawn]);
    // A line cut right after 1...Bxh6: the exchange is finished for it.
    let o = material::outcome(board(fen).chess(), &line[..1]);
    assert_eq!(
        (o.net, o.lost.clone(), o.won.clone()),
        (-2, vec![Role::Bishop], vec![Role::Pawn])
    );
    // Nothing taken.
    let o = material::outcome(board(fen).chess(), &line[2..3]);
    assert_eq!(o, material::Outcome::default());
}

#[test]
fn static_exchange() {
    // The pawn on h6 guarded by g5: a bishop taking it loses 2.
    let b = board("1k3b2/ppp2p2/2n4P/6P1/8/2N5/PPP2P2/6K1 b - - 0 18");
    let sq = Square::H6;
    assert_eq!(material::see(b.board(), sq, Color::Black), 0, "better not");
    // An undefended knight is simply won.
    let b = board("6k1/pp2qpp1/7p/8/4N3/8/PP3PPP/3R2K1 b - - 0 17");
    assert_eq!(material::see(b.board(), Square::E4, Color::Black), 3);
    // The king does not take a guarded piece.
    let b = board("8/8/8/8/4k3/3P4/2P5/K7 b - - 0 1");
    assert_eq!(material::see(b.board(), Square::D3, Color::Black), 0);
    let b = board("8/8/8/8/4k3/3P4/8/K7 b - - 0 1");
    assert_eq!(material::see(b.board(), Square::D3, Color::Black), 1);
}

#[test]
fn trades_in_words() {
    let one = |_: Role| 1;
    let two = |_: Role| 2;
    let t = |given: &[Role], got: &[Role]| {
        material::trade(given, got, &one, &two).map(|t| (passive(&t), active("loses", &t)))
    };
    use Role::*;
    assert_eq!(
        t(&[Rook], &[Knight]),
        Some(("the exchange is lost".into(), "loses the exchange".into()))
    );
    assert_eq!(
        t(&[Queen, Knight], &[Rook, Bishop]),
        Some((
            "the queen is lost for a rook".into(),
            "loses the queen for a rook".into()
        ))
    );
    assert_eq!(
        t(&[Pawn, Pawn], &[]),
        Some(("two pawns are lost".into(), "loses two pawns".into()))
    );
    assert_eq!(
        t(&[Rook, Pawn], &[Bishop]),
        Some((
            "the exchange and a pawn are lost".into(),
            "loses the exchange and a pawn".into()
        ))
    );
    assert_eq!(
        t(&[Rook, Rook], &[Knight]),
        Some((
            "two rooks are lost for a knight".into(),
            "loses two rooks for a knight".into()
        ))
    );
    assert_eq!(
        t(&[Rook], &[Knight, Pawn]),
        Some((
            "the exchange is lost for a pawn".into(),
            "loses the exchange for a pawn".into()
        ))
    );
    assert_eq!(t(&[Bishop], &[Knight]), None, "an even trade says nothing");
    // "a knight" when the side had two.
    let t2 = material::trade(&[Knight], &[Pawn], &two, &two).unwrap();
    assert_eq!(active("loses", &t2), "loses a knight for a pawn");
}

#[test]
fn forks_need_real_targets() {
    // Nf6+ hits king and queen.
    let fen = "6k1/pp1q1p1p/6p1/8/4N3/8/PP3PPP/4R1K1 w - - 0 21";
    let nf6 = moves(fen, &["Nf6+"])[0];
    let f = attacks::fork(board(fen).chess(), nf6).unwrap();
    assert_eq!(f.words(), "king and queen");
    // With a pawn on g7 the knight is simply taken: no fork.
    let fen = "6k1/pp1q1ppp/8/8/4N3/8/PP3PPP/4R1K1 w - - 0 21";
    let nf6 = moves(fen, &["Nf6+"])[0];
    assert_eq!(attacks::fork(board(fen).chess(), nf6), None);
    // Two defended pawns are no targets.
    let fen = "6k1/4p3/3p1p2/8/8/2N5/8/6K1 w - - 0 1";
    let ne4 = moves(fen, &["Ne4"])[0];
    assert_eq!(attacks::fork(board(fen).chess(), ne4), None);
}

#[test]
fn undefended_means_no_defender_left() {
    let fen = "r2q2k1/pp3pp1/7p/8/3n4/1P5Q/PB3PPP/4R1K1 b - - 0 20";
    let b = board(fen);
    let qg5 = moves(fen, &["Qg5"])[0];
    let qd6 = moves(fen, &["Qd6"])[0];
    assert!(attacks::left_undefended(b.chess(), qg5, Square::D4));
    assert!(!attacks::left_undefended(b.chess(), qd6, Square::D4));
    // A piece that was never defended by the moved one is not "left".
    let a6 = moves(fen, &["a6"])[0];
    assert!(!attacks::left_undefended(b.chess(), a6, Square::B7));
}

/// The ways a reason begins; anything else would be a sentence made up
/// outside the cases.
const OPENINGS: [&str; 7] = [
    "allows ",
    "misses ",
    "leaves ",
    "loses ",
    "after ",
    "lets ",
    "stalemates ",
];

/// Reviews a game of a PGN in `games/` at [`DEPTH`] and checks that every
/// judged move has a reason of a known form, and that the first move it
/// quotes is numbered as the move itself or the reply ("18...Bxh6",
/// "19.gxh6"). Returns the reasons.
fn check_game(file: &str, index: usize) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed = crate::game::pgn_read::read_games_full(&text)
        .into_iter()
        .nth(index)
        .unwrap()
        .unwrap();
    let start = parsed.game.start().clone();
    let line = parsed.game.moves().to_vec();
    let stop = AtomicBool::new(false);
    let reviews =
        Reviewer::new(Limits::depth(DEPTH)).review(&start, &line, &stop, &mut |_, _, _| {});
    assert_eq!(reviews.len(), line.len());
    let mut out = Vec::new();
    let mut b = start.clone();
    for (r, &m) in reviews.iter().zip(&line) {
        match (&r.judgement, &r.reason) {
            (None, None) => {}
            (Some(_), Some(reason)) => {
                assert!(!reason.is_empty());
                let known = reason.contains(" was better (")
                    || reason.contains(" the position is ")
                    || OPENINGS.iter().any(|o| reason.starts_with(o));
                assert!(known, "ply {}: {reason}", r.ply);
                let n = b.chess().fullmoves().get();
                let first = reason
                    .split_whitespace()
                    .filter_map(|w| w.split_once('.'))
                    .find_map(|(d, _)| d.parse::<u32>().ok());
                if let Some(first) = first.filter(|_| !reason.starts_with("stalemates")) {
                    assert!(first == n || first == n + 1, "ply {}: {reason}", r.ply);
                }
                out.push(reason.clone());
            }
            other => panic!("ply {}: judgement and reason disagree: {other:?}", r.ply),
        }
        b = b.play(m);
    }
    out
}

#[test]
fn every_judged_move_of_real_games_has_a_reason() {
    // The Immortal Game: sacrifices everywhere, judged by a shallow search.
    let immortal = check_game("classics.pgn", 0);
    assert!(immortal.len() >= 5, "{immortal:#?}");
    assert!(
        immortal.iter().any(|r| r.starts_with("allows mate in")),
        "{immortal:#?}"
    );
    assert!(
        immortal.iter().any(|r| r.starts_with("loses ")),
        "{immortal:#?}"
    );
    // Kasparov - Deep Blue 1997, game 6: a short, decisive game.
    let game6 = check_game("kasparov-deep-blue-1997.pgn", 5);
    assert!(!game6.is_empty());
}
