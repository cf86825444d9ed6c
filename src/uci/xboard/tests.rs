//! Unit tests of the XBoard client: engine commands, `feature` and
//! thinking lines, positions and holdings, a fake engine's conversation,
//! and Sjeng itself when it is installed.

use super::position::{board_only, line_to_uci, normalize_move, snapshot, step};
use super::protocol::{GoParams, thinking_line};
use super::*;
use crate::engine::{Board, Score};
use crate::uci::client::Poll;
use crate::variant::VariantKind;
use std::time::Duration;

#[test]
fn engine_commands() {
    assert_eq!(
        EngineCommand::parse("xboard:/usr/games/sjeng").unwrap(),
        EngineCommand::Xboard(vec!["/usr/games/sjeng".into()])
    );
    assert_eq!(
        EngineCommand::parse("xboard: fairy-stockfish --x").unwrap(),
        EngineCommand::Xboard(vec!["fairy-stockfish".into(), "--x".into()])
    );
    assert_eq!(
        EngineCommand::parse("stockfish").unwrap(),
        EngineCommand::Uci(vec!["stockfish".into()])
    );
    assert_eq!(
        EngineCommand::parse("uci:stockfish").unwrap(),
        EngineCommand::Uci(vec!["stockfish".into()])
    );
    let e = EngineCommand::parse("xboard:").unwrap_err();
    assert!(e.contains("needs the engine's command"), "{e}");
    assert!(EngineCommand::parse("  ").is_err());
    assert!(is_xboard_command(" XBoard:sjeng"));
    assert!(!is_xboard_command("sjeng"));
}

#[test]
fn features_are_read() {
    let mut f = Features::default();
    let (_, done) = f.read("feature ping=1 setboard=1 playother=0 san=0 usermove=0 time=1");
    assert_eq!(done, None);
    assert!(f.ping && f.setboard && !f.usermove);
    f.read("feature myname=\"Sjeng 11.2\"");
    f.read("feature variants=\"normal,bughouse,crazyhouse,suicide\"");
    let (_, done) = f.read("feature colors=1 ics=0 name=0 pause=0 done=1");
    assert_eq!(done, Some(true));
    assert_eq!(f.myname.as_deref(), Some("Sjeng 11.2"));
    assert!(f.variants.unwrap().contains(&"bughouse".to_string()));
}

#[test]
fn lines_are_understood() {
    assert_eq!(
        partner_text("tellics ptell Ok, Knight is good"),
        Some("Ok, Knight is good")
    );
    assert_eq!(partner_text("ptell ---p"), Some("---p"));
    assert_eq!(partner_text("tellics whisper hi"), None);
    assert_eq!(normalize_move("p@e4"), "P@e4");
    assert_eq!(normalize_move("e7e8q"), "e7e8q");
    let i = thinking_line(" 5     -61    74   329321  B@a3 !").unwrap();
    assert_eq!(i.depth, Some(5));
    assert_eq!(i.score, Some(Score(-61)));
    assert_eq!(i.time_ms, Some(740));
    assert_eq!(i.nodes, Some(329321));
    assert!(thinking_line("Time for move : 650").is_none());
    let m = thinking_line("9 999997 10 100 Qxf7").unwrap();
    assert_eq!(m.score, Some(Score::mate_in(3)));
    assert_eq!(
        GoParams::parse("wtime 60000 btime 50000 winc 2000 binc 2000 depth 9"),
        GoParams {
            wtime: Some(60000),
            btime: Some(50000),
            winc: 2000,
            binc: 2000,
            depth: Some(9),
            ..GoParams::default()
        }
    );
}

#[cfg(unix)]
#[test]
fn a_fake_engine_plays_and_talks() {
    use super::fake::fake_xboard;
    let (command, log) = fake_xboard("client", "");
    let cmd = EngineCommand::parse(&command).unwrap();
    let mut c = XboardClient::spawn(cmd.words(), Duration::from_secs(10)).unwrap();
    assert_eq!(c.name, "FakeX");
    c.set_option("UCI_Variant", "crazyhouse").unwrap();
    c.new_game(Duration::from_secs(10)).unwrap();
    c.position(None, &[]).unwrap();
    let mut said = Vec::new();
    let r = c
        .go_polling(
            "wtime 60000 btime 50000 winc 0 binc 0",
            Duration::from_secs(10),
            Poll::default,
            |i| said.push(i.clone()),
        )
        .unwrap();
    assert_eq!(r.bestmove, "e2e4");
    assert_eq!(r.infos[0].pv, ["e2e4"]);
    assert_eq!(said[1].string.as_deref(), Some("ptell need n"));
    c.position(None, &["e2e4".into(), "e7e5".into()]).unwrap();
    let r = c
        .go_polling(
            "movetime 100",
            Duration::from_secs(10),
            Poll::default,
            |_| {},
        )
        .unwrap();
    assert_eq!(r.bestmove, "P@d4");
    c.quit();
    let heard = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_dir_all(log.parent().unwrap());
    let want = "xboard\nprotover 2\naccepted ping\naccepted setboard\naccepted usermove\n\
        accepted myname\naccepted variants\nnew\nvariant crazyhouse\nforce\neasy\npost\nping 1\n\
        holding [] []\nlevel 0 1:00 0\ntime 6000\notim 5000\ngo\nforce\n\
        usermove e7e5\nholding [] []\nst 1\ngo\n";
    assert!(heard.starts_with(want), "{heard}");
}

/// Sjeng itself, when it is installed: a crazyhouse move in a second.
#[test]
fn sjeng_plays_a_crazyhouse_move() {
    let sjeng = "/usr/games/sjeng";
    if !std::path::Path::new(sjeng).exists() {
        eprintln!("skipped: {sjeng} is not installed");
        return;
    }
    // Sjeng writes its learning files in its working folder.
    let mut c = XboardClient::spawn(&[sjeng.to_string()], Duration::from_secs(10)).unwrap();
    assert!(c.name.starts_with("Sjeng"), "{}", c.name);
    c.set_option("UCI_Variant", "crazyhouse").unwrap();
    c.new_game(Duration::from_secs(10)).unwrap();
    // Black's queen is attacked and it holds a pawn: any legal move.
    let fen = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR[Pp] b KQkq - 1 3";
    c.position(Some(fen), &[]).unwrap();
    let r = c
        .go_polling(
            "movetime 300",
            Duration::from_secs(10),
            Poll::default,
            |_| {},
        )
        .unwrap();
    let b = Board::<crate::engine::Zh>::from_variant_fen(fen).unwrap();
    assert!(b.parse_uci(&r.bestmove).is_ok(), "{}", r.bestmove);
    c.quit();
}

#[test]
fn positions_holdings_and_steps() {
    let zh = VariantKind::Crazyhouse;
    let s = snapshot(zh, None, &["e2e4".into(), "d7d5".into(), "e4d5".into()]).unwrap();
    assert_eq!(s.holding.as_deref(), Some("holding [P] []"));
    assert!(!s.white_to_move);
    assert!(snapshot(zh, None, &[]).unwrap().is_start);
    assert!(snapshot(zh, None, &["e2e5".into()]).is_err());
    // A drop found from the boards alone, whatever the hands.
    let before = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR[Pp] b KQkq - 1 3";
    let after = "rnb1kbnr/ppp1pppp/8/3qp3/8/2N5/PPPP1PPP/R1BQKBNR[P] w KQkq - 0 4";
    assert_eq!(step(zh, before, after).as_deref(), Some("P@e5"));
    let after = "rnb1kbnr/ppp1pppp/8/8/8/2N5/qPPP1PPP/R1BQKBNR[Ppp] w KQkq - 0 4";
    assert_eq!(step(zh, before, after).as_deref(), Some("d5a2"));
    assert_eq!(step(zh, before, before), None);
    assert_eq!(
        board_only("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQ~KBNR[Pn] b KQkq - 0 2"),
        "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
    );
    // Sjeng's SAN line, hash moves in angle brackets.
    let start = snapshot(zh, None, &[]).unwrap().fen;
    assert_eq!(
        line_to_uci(zh, &start, &["e4".into(), "<Nf6>".into(), "zz".into()]),
        ["e2e4", "g8f6"]
    );
}
