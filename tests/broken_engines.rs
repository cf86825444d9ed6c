//! Engines that misbehave (issue 30, part 3): `kibitz fake-engine MODE`
//! crashes, hangs, prints garbage or plays illegal moves, over UCI and
//! XBoard, against the engine thread of the play screen, the chess match
//! and the four-engine Bughouse match. Each time the game ends as a
//! forfeit of the failing engine, the record keeps what was played, and no
//! engine process is left behind (no zombie, none running).
//!
//! Every case runs on its own thread (most of the time is spent waiting
//! for timeouts). `--nocapture` prints the measured times.
#![cfg(target_os = "linux")]

use kibitz::bughouse::{BugTermination, Seat};
use kibitz::engine::{Board, Limits};
use kibitz::game::Termination;
use kibitz::matchplay::bughouse::{BugMatchConfig, BugPlayer, run_bughouse_match};
use kibitz::matchplay::{MatchConfig, MoveLimits, Played, PlayerConfig, TimeControl, run_match};
use kibitz::ui::player::{EngineEvent, EngineHandle, EngineSpec, Purpose, Request};
use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

const UCI: &str = "uci";
const XBOARD: &str = "xboard";

/// A folder of its own for one case (pid files, match files).
fn case_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-broken-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// The command line of a fake engine; its processes' ids go to `pids`.
fn fake(mode: &str, protocol: &str, after: u32, pids: &Path) -> String {
    let prefix = if protocol == XBOARD { "xboard:" } else { "" };
    format!(
        "{prefix}'{}' fake-engine {mode} --protocol {protocol} --after {after} --pid-file '{}'",
        env!("CARGO_BIN_EXE_kibitz"),
        pids.display()
    )
}

/// The ids of the processes that wrote to `pids`.
fn pids_in(pids: &Path) -> Vec<u32> {
    std::fs::read_to_string(pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Is the process gone (not running, not a zombie)? A zombie of ours would
/// still be in /proc; a process reparented to init after we lost it would
/// still run.
fn gone(pid: u32) -> bool {
    !Path::new(&format!("/proc/{pid}")).exists()
}

/// Waits up to `within` for every process in `pids` to be gone; how long
/// it took, or the ids left.
fn all_gone(pids: &[u32], within: Duration) -> Result<Duration, Vec<u32>> {
    let start = Instant::now();
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|&p| !gone(p)).collect();
        if left.is_empty() {
            return Ok(start.elapsed());
        }
        if start.elapsed() > within {
            return Err(left);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// What the play screen's engine thread said about a move request.
#[derive(Debug, PartialEq)]
enum Outcome {
    Moved,
    Illegal,
    Failed,
}

/// One case on the play screen's engine thread: a move asked for (a second,
/// as the screen asks an external engine without a clock); what came back,
/// when, and how long the process took to go after the handle was dropped.
fn play_screen_case(mode: &str, protocol: &str) -> (Outcome, Duration, Duration, Duration) {
    let dir = case_dir(&format!("screen-{mode}-{protocol}"));
    let pids = dir.join("pids");
    // hang-isready: a UCI engine's handshake ends with an isready, which
    // is answered; the new game's is not (XBoard: the new game's ping).
    let after = if mode == "hang-isready" && protocol == UCI {
        2
    } else {
        1
    };
    let command = fake(mode, protocol, after, &pids);
    let (tx, rx) = channel();
    let start = Instant::now();
    let mut h = EngineHandle::spawn(&EngineSpec::External { command }, move |e| {
        let _ = tx.send(e);
    })
    .detach_on_drop();
    h.new_game();
    h.go(Request {
        id: 1,
        purpose: Purpose::Move,
        multipv: 1,
        start: Board::startpos(),
        moves: Vec::new(),
        limits: Limits {
            movetime: Some(Duration::from_secs(1)),
            ..Limits::default()
        },
    });
    let outcome = loop {
        let e = rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("{mode}/{protocol}: no answer in 30 s"));
        match e {
            EngineEvent::Done { id: 1, best, .. } => {
                let m = best.unwrap_or_else(|| panic!("{mode}/{protocol}: no move"));
                assert!(Board::startpos().is_legal(m), "{mode}/{protocol}");
                break Outcome::Moved;
            }
            EngineEvent::IllegalMove { id: 1, .. } => break Outcome::Illegal,
            EngineEvent::Failed { message } => {
                assert!(!message.is_empty());
                break Outcome::Failed;
            }
            _ => {}
        }
    };
    let answered = start.elapsed();
    // The screen drops the engine (a new game, the end): it must not wait.
    let dropping = Instant::now();
    drop(h);
    let dropped = dropping.elapsed();
    let ids = pids_in(&pids);
    assert!(!ids.is_empty(), "{mode}/{protocol}: the fake did not start");
    let reaped = all_gone(&ids, Duration::from_secs(5))
        .unwrap_or_else(|left| panic!("{mode}/{protocol}: processes left: {left:?}"));
    let _ = std::fs::remove_dir_all(&dir);
    (outcome, answered, dropped, reaped)
}

#[test]
fn the_play_screen_engine_forfeits_and_is_reaped_whatever_it_does() {
    let cases: &'static [_] = &[
        ("good", Outcome::Moved),
        ("slow-exit", Outcome::Moved),
        ("crash", Outcome::Failed),
        ("hang-isready", Outcome::Failed),
        ("hang-go", Outcome::Failed),
        ("garbage", Outcome::Failed),
        ("silent", Outcome::Failed),
        ("illegal", Outcome::Illegal),
        ("nonsense", Outcome::Illegal),
        ("drop", Outcome::Illegal),
        ("wrong-board", Outcome::Illegal),
    ];
    let runs: Vec<_> = cases
        .iter()
        .flat_map(|c| [(c, UCI), (c, XBOARD)])
        .map(|((mode, want), protocol)| {
            let t = std::thread::spawn(move || play_screen_case(mode, protocol));
            (mode, want, protocol, t)
        })
        .collect();
    for (mode, want, protocol, t) in runs {
        let (got, answered, dropped, reaped) = t.join().expect("case panicked");
        eprintln!(
            "play screen {mode:>12} {protocol:>6}: {got:?} after {answered:.2?}, \
             handle dropped in {dropped:.2?}, process gone {reaped:.2?} later"
        );
        assert_eq!(&got, want, "{mode}/{protocol}");
        // The screen never waits on an engine.
        assert!(
            dropped < Duration::from_millis(100),
            "{mode}/{protocol}: {dropped:?}"
        );
    }
}

/// A match player running `command` with a clock of one second a game.
fn one_second_player(command: &str, name: Option<&str>) -> PlayerConfig {
    PlayerConfig {
        cmd: kibitz::uci::client::split_command(command),
        name: name.map(String::from),
        options: Vec::new(),
        limits: MoveLimits {
            tc: Some(TimeControl {
                base: Duration::from_secs(1),
                inc: Duration::ZERO,
            }),
            ..MoveLimits::default()
        },
    }
}

/// A chess match of the fake in `mode` (misbehaving at its second move)
/// against a good fake, two games at 1 s a game: the fake's points, the
/// games' terminations and plies, the PGN file.
fn match_case(mode: &str, protocol: &str) -> (f64, Vec<(Termination, usize)>, String) {
    let dir = case_dir(&format!("match-{mode}-{protocol}"));
    let pids = dir.join("pids");
    let pgn = dir.join("games.pgn");
    let player = |command: String| one_second_player(&command, None);
    let cfg = MatchConfig {
        players: [
            player(fake(mode, protocol, 2, &pids)),
            player(fake("good", protocol, 1, &pids)),
        ],
        games: 2,
        openings: Vec::new(),
        pgn_out: Some(pgn.clone()),
        concurrency: 1,
        event: "broken engines".into(),
        variant: kibitz::variant::VariantKind::Chess,
        played: Default::default(),
    };
    let mut games = Vec::new();
    let wdl = run_match(&cfg, |rec, _| {
        games.push((rec.ending.termination, rec.plies));
        true
    })
    .unwrap_or_else(|e| panic!("{mode}/{protocol}: {e}"));
    let points = f64::from(wdl.wins) + f64::from(wdl.draws) / 2.0;
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let ids = pids_in(&pids);
    all_gone(&ids, Duration::from_secs(5))
        .unwrap_or_else(|left| panic!("{mode}/{protocol}: processes left: {left:?}"));
    let _ = std::fs::remove_dir_all(&dir);
    (points, games, text)
}

#[test]
fn a_match_goes_on_past_a_broken_engine() {
    let cases: &'static [_] = &[
        ("crash", Termination::Abandoned),
        // A hung engine's clock runs out.
        ("hang-go", Termination::TimeForfeit),
        ("garbage", Termination::TimeForfeit),
        ("illegal", Termination::IllegalMove),
        ("nonsense", Termination::IllegalMove),
        ("drop", Termination::IllegalMove),
        ("wrong-board", Termination::IllegalMove),
    ];
    let runs: Vec<_> = cases
        .iter()
        .flat_map(|c| [(c, UCI), (c, XBOARD)])
        .map(|((mode, want), protocol)| {
            let t = std::thread::spawn(move || match_case(mode, protocol));
            (mode, want, protocol, t)
        })
        .collect();
    for (mode, want, protocol, t) in runs {
        let (points, games, pgn) = t.join().expect("case panicked");
        eprintln!("match {mode:>12} {protocol:>6}: {points} of 2, games {games:?}");
        assert_eq!(games.len(), 2, "{mode}/{protocol}");
        assert_eq!(points, 0.0, "{mode}/{protocol}: {games:?}");
        for (termination, plies) in &games {
            assert_eq!(termination, want, "{mode}/{protocol}: {games:?}");
            // The moves before the failure are kept.
            assert!(*plies >= 1, "{mode}/{protocol}: {games:?}");
        }
        assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
        assert!(pgn.contains("[Termination "), "{pgn}");
    }
}

/// `kibitz match --resume`: the rounds the match's file holds are not
/// played again and count in the totals; the others are played with the
/// colours their numbers give, and appended.
#[test]
fn a_resumed_match_plays_only_the_missing_rounds() {
    let dir = case_dir("resume");
    let pids = dir.join("pids");
    let pgn = dir.join("games.pgn");
    let player = |name: &str| one_second_player(&fake("good", UCI, 1, &pids), Some(name));
    // Rounds 1 and 3 were played: the first engine won one, drew one.
    let before = "[Event \"resume\"]\n[Round \"1\"]\n[White \"one\"]\n[Black \"two\"]\n\
                  [Result \"1-0\"]\n\n1-0\n\n\
                  [Event \"resume\"]\n[Round \"3\"]\n[White \"one\"]\n[Black \"two\"]\n\
                  [Result \"1/2-1/2\"]\n\n1/2-1/2\n\n";
    std::fs::write(&pgn, before).unwrap();
    let mut cfg = MatchConfig {
        players: [player("one"), player("two")],
        games: 4,
        openings: Vec::new(),
        pgn_out: Some(pgn.clone()),
        concurrency: 1,
        event: "resume".into(),
        variant: kibitz::variant::VariantKind::Chess,
        played: Default::default(),
    };
    cfg.played = Played::from_pgn(before, "resume", ["one", "two"], cfg.games).unwrap();
    let mut seen = Vec::new();
    let wdl = run_match(&cfg, |rec, wdl| {
        seen.push((rec.index, rec.players.clone(), wdl.games()));
        true
    })
    .unwrap();
    let names = |w: &str, b: &str| vec![w.to_string(), b.to_string()];
    assert_eq!(
        seen,
        [(1, names("two", "one"), 3), (3, names("two", "one"), 4)]
    );
    assert_eq!(wdl.games(), 4);
    assert!(wdl.wins >= 1 && wdl.draws >= 1, "{wdl:?}");
    // The file now holds the whole match, and resuming again plays nothing.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let all = Played::from_pgn(&text, "resume", ["one", "two"], 4).unwrap();
    assert_eq!(all.rounds.len(), 4);
    assert_eq!(all.wdl, wdl);
    all_gone(&pids_in(&pids), Duration::from_secs(5))
        .unwrap_or_else(|left| panic!("processes left: {left:?}"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_exits_slowly_is_killed_after_its_match() {
    let (points, games, pgn) = match_case("slow-exit", UCI);
    assert_eq!(games.len(), 2);
    assert!((0.0..=2.0).contains(&points));
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
    let (_, games, _) = match_case("slow-exit", XBOARD);
    assert_eq!(games.len(), 2);
}

#[test]
fn a_match_with_a_silent_engine_does_not_start_and_leaves_nothing() {
    for protocol in [UCI, XBOARD] {
        let dir = case_dir(&format!("match-silent-{protocol}"));
        let pids = dir.join("pids");
        let player = |command: String| PlayerConfig {
            cmd: kibitz::uci::client::split_command(&command),
            name: None,
            options: Vec::new(),
            limits: MoveLimits {
                movetime: Some(Duration::from_millis(50)),
                ..MoveLimits::default()
            },
        };
        let cfg = MatchConfig {
            players: [
                player(fake("silent", protocol, 1, &pids)),
                player(fake("good", protocol, 1, &pids)),
            ],
            games: 2,
            openings: Vec::new(),
            pgn_out: None,
            concurrency: 1,
            event: "silent".into(),
            variant: kibitz::variant::VariantKind::Chess,
            played: Default::default(),
        };
        let r = run_match(&cfg, |_, _| true);
        match protocol {
            // No `uciok`: the match cannot start.
            UCI => assert!(r.is_err(), "{r:?}"),
            // An XBoard engine that says nothing is taken for protocol
            // version 1; it forfeits every game by its clock... or by
            // never moving.
            _ => {
                let wdl = r.unwrap_or_else(|e| panic!("{e}"));
                assert_eq!((wdl.wins, wdl.draws, wdl.losses), (0, 0, 2));
            }
        }
        all_gone(&pids_in(&pids), Duration::from_secs(5))
            .unwrap_or_else(|left| panic!("{protocol}: processes left: {left:?}"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A Bughouse match, the fake in `mode` on board A of the first team (bad
/// from its second move), three good fakes: per game the ending and the
/// name of the loser's seat; the BPGN file.
fn bughouse_case(mode: &str, protocol: &str) -> (Vec<(BugTermination, String)>, String) {
    let dir = case_dir(&format!("bug-{mode}-{protocol}"));
    let pids = dir.join("pids");
    let bpgn = dir.join("games.bpgn");
    // The good ones take 0.1 s a move, so that the other board does not
    // reach the move limit before a hung engine's clock runs out.
    let player = |mode: &str| BugPlayer {
        cmd: kibitz::uci::client::split_command(&format!(
            "{} --think 100",
            fake(mode, protocol, 2, &pids)
        )),
        name: None,
        options: Vec::new(),
        limits: MoveLimits::default(),
    };
    let cfg = BugMatchConfig {
        teams: [
            [player(mode), player("good")],
            [player("good"), player("good")],
        ],
        games: 2,
        tc: TimeControl {
            base: Duration::from_secs(3),
            inc: Duration::ZERO,
        },
        bpgn_out: Some(bpgn.clone()),
        event: "broken engines".into(),
        max_plies: 200,
    };
    let mut games = Vec::new();
    run_bughouse_match(&cfg, |rec, _| {
        let loser = rec.ending.loser.map(|s: Seat| {
            let i = s.board.index() * 2 + usize::from(s.color == shakmaty::Color::Black);
            rec.players[i].clone()
        });
        games.push((rec.ending.how, loser.unwrap_or_default()));
    })
    .unwrap_or_else(|e| panic!("{mode}/{protocol}: {e}"));
    let text = std::fs::read_to_string(&bpgn).unwrap_or_default();
    all_gone(&pids_in(&pids), Duration::from_secs(5))
        .unwrap_or_else(|left| panic!("{mode}/{protocol}: processes left: {left:?}"));
    let _ = std::fs::remove_dir_all(&dir);
    (games, text)
}

#[test]
fn a_broken_bughouse_engine_loses_for_its_team_and_the_others_are_shut_down() {
    let cases: &'static [_] = &[
        ("crash", BugTermination::Abandoned),
        ("hang-go", BugTermination::Time),
        ("garbage", BugTermination::Time),
        ("illegal", BugTermination::IllegalMove),
        ("nonsense", BugTermination::IllegalMove),
        // A piece it does not hold, and a move of the partner's board.
        ("drop", BugTermination::IllegalMove),
        ("wrong-board", BugTermination::IllegalMove),
    ];
    let runs: Vec<_> = cases
        .iter()
        .flat_map(|c| [(c, UCI), (c, XBOARD)])
        .map(|((mode, want), protocol)| {
            let t = std::thread::spawn(move || bughouse_case(mode, protocol));
            (mode, want, protocol, t)
        })
        .collect();
    for (mode, want, protocol, t) in runs {
        let (games, bpgn) = t.join().expect("case panicked");
        eprintln!("bughouse {mode:>12} {protocol:>6}: {games:?}");
        assert_eq!(games.len(), 2, "{mode}/{protocol}");
        for (how, loser) in &games {
            assert_eq!(how, want, "{mode}/{protocol}: {games:?}");
            assert_eq!(loser, &format!("Fake {mode}"), "{mode}/{protocol}");
        }
        assert_eq!(bpgn.matches("[Event ").count(), 2, "{bpgn}");
    }
}

#[test]
fn a_bughouse_engine_that_exits_slowly_is_killed_after_the_match() {
    for protocol in [UCI, XBOARD] {
        // The four engines play; at the end the slow one is killed (the
        // ids left would fail the case).
        let (games, bpgn) = bughouse_case("slow-exit", protocol);
        assert_eq!(games.len(), 2, "{protocol}");
        assert_eq!(bpgn.matches("[Event ").count(), 2, "{bpgn}");
    }
}
