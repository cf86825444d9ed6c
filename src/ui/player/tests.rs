use super::*;
use crate::engine::Zh;
use crate::uci::client::split_command;
use std::sync::mpsc::channel;

/// A UCI engine in a shell script (Unix only), for the external engine's side of the
/// thread: it writes every line it hears to its log, lists the option of
/// Kibitz's Bughouse extension, answers `go infinite` only when stopped
/// (after a `ptell`, a root move and a line) and any other `go` at once.
/// Returns its command line and its log.
#[cfg(unix)]
pub(crate) fn fake_engine(name: &str) -> (String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("kibitz-fake-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("engine.sh");
    let log = dir.join("log");
    std::fs::write(
        &script,
        r#"log="$1"
: > "$log"
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$log"
  case "$line" in
    uci) printf 'id name Fake\noption name BughousePartner type check default false\nuciok\n' ;;
    isready) echo readyok ;;
    "go infinite")
      echo "info string ptell need N"
      echo "info depth 1 currmove e2e4 currmovenumber 1"
      echo "info depth 1 score cp 12 nodes 5 pv e2e4 e7e5" ;;
    go*)
      echo "info depth 1 score cp 12 nodes 5 pv e2e4 e7e5"
      echo "bestmove e2e4" ;;
    stop) echo "bestmove e2e4" ;;
    quit) exit 0 ;;
  esac
done
"#,
    )
    .unwrap();
    let command = format!("sh {} {}", script.display(), log.display());
    (command, log)
}

/// Removes the fake engine's files.
#[cfg(unix)]
pub(crate) fn remove_fake(log: &std::path::Path) {
    if let Some(dir) = log.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The lines the fake engine heard.
#[cfg(unix)]
pub(crate) fn heard(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn builtin_engine_answers_and_reports_progress() {
    let (tx, rx) = channel();
    let mut h = EngineHandle::spawn(&EngineSpec::BuiltIn { level: 8 }, move |e| {
        let _ = tx.send(e);
    });
    h.go(Request {
        multipv: 1,
        id: 7,
        purpose: Purpose::Move,
        // Mate in one: Qh5xf7#.
        start: Board::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        )
        .unwrap(),
        moves: vec![],
        limits: Limits::depth(4),
    });
    let mut infos = 0;
    loop {
        match rx.recv_timeout(Duration::from_secs(30)).unwrap() {
            EngineEvent::Ready { .. } | EngineEvent::Progress { .. } => {}
            EngineEvent::Info { id, .. } => {
                assert_eq!(id, 7);
                infos += 1;
            }
            EngineEvent::Done {
                id, best, score, ..
            } => {
                assert_eq!(id, 7);
                assert_eq!(best.map(Board::uci), Some("h5f7".to_string()));
                assert_eq!(score, Some(Score::mate_in(1)));
                break;
            }
            EngineEvent::Failed { message } => panic!("{message}"),
            EngineEvent::IllegalMove { text, .. } => panic!("illegal move {text}"),
        }
    }
    assert!(infos >= 1);
}

#[test]
fn stop_ends_an_infinite_search() {
    let (tx, rx) = channel();
    let mut h = EngineHandle::spawn(&EngineSpec::BuiltIn { level: 8 }, move |e| {
        let _ = tx.send(e);
    });
    h.go(Request {
        multipv: 1,
        id: 1,
        purpose: Purpose::Hint,
        start: Board::startpos(),
        moves: vec![],
        limits: Limits {
            infinite: true,
            ..Limits::default()
        },
    });
    std::thread::sleep(Duration::from_millis(100));
    h.stop();
    loop {
        match rx.recv_timeout(Duration::from_secs(5)).unwrap() {
            EngineEvent::Done { id, best, .. } => {
                assert_eq!(id, 1);
                assert!(best.is_some());
                break;
            }
            EngineEvent::Failed { message } => panic!("{message}"),
            _ => {}
        }
    }
}

#[test]
fn missing_external_engine_fails_cleanly() {
    let (tx, rx) = channel();
    let _h = EngineHandle::spawn(
        &EngineSpec::External {
            command: "/nonexistent/engine-xyz".into(),
        },
        move |e| {
            let _ = tx.send(e);
        },
    );
    match rx.recv_timeout(Duration::from_secs(10)).unwrap() {
        EngineEvent::Failed { message } => assert!(message.contains("engine-xyz"), "{message}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn go_params_from_limits() {
    let l = Limits {
        clock: Some(crate::engine::Clock {
            wtime: Some(Duration::from_secs(60)),
            btime: Some(Duration::from_secs(50)),
            winc: Duration::from_secs(2),
            binc: Duration::from_secs(2),
            movestogo: None,
        }),
        depth: Some(9),
        ..Limits::default()
    };
    assert_eq!(
        go_params(&l),
        "wtime 60000 btime 50000 winc 2000 binc 2000 depth 9"
    );
    assert_eq!(go_params(&Limits::default()), "infinite");
    assert_eq!(
        EngineSpec::External {
            command: "/usr/games/stockfish --x".into()
        }
        .describe(),
        "stockfish"
    );
}

#[test]
fn builtin_engine_plays_crazyhouse() {
    let (tx, rx) = channel();
    let mut h = EngineHandle::<Zh>::start(Backend::BuiltIn(None), move |r| {
        let _ = tx.send(r);
    })
    .unwrap();
    h.go(Request {
        id: 3,
        purpose: Purpose::Move,
        multipv: 1,
        // The smothered mate N@f7#.
        start: Board::from_variant_fen("6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1").unwrap(),
        moves: vec![],
        limits: Limits::depth(3),
    });
    loop {
        match rx.recv_timeout(Duration::from_secs(30)).unwrap() {
            Report::Event(EngineEvent::Done { id, best, .. }) => {
                assert_eq!(id, 3);
                assert_eq!(best.map(Board::uci).as_deref(), Some("N@f7"));
                break;
            }
            Report::Event(EngineEvent::Failed { message }) => panic!("{message}"),
            _ => {}
        }
    }
}

#[test]
#[cfg(unix)]
fn external_engine_reports_in_order() {
    let (command, log) = fake_engine("chess");
    let (tx, rx) = channel();
    let mut h = EngineHandle::spawn(&EngineSpec::External { command }, move |e| {
        let _ = tx.send(e);
    });
    h.go(Request {
        id: 5,
        purpose: Purpose::Move,
        multipv: 1,
        start: Board::startpos(),
        moves: vec![],
        limits: Limits::movetime(100),
    });
    let mut events = Vec::new();
    loop {
        let e = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        let done = matches!(e, EngineEvent::Done { .. });
        events.push(e);
        if done {
            break;
        }
    }
    let e4 = Board::startpos().parse_uci("e2e4").unwrap();
    let e5 = Board::startpos().play(e4).parse_uci("e7e5").unwrap();
    match &events[..] {
        [
            EngineEvent::Ready { name },
            EngineEvent::Info { id: 5, line },
            EngineEvent::Done {
                id: 5,
                purpose: Purpose::Move,
                best,
                score,
                pv,
            },
        ] => {
            assert_eq!(name, "Fake");
            assert_eq!((line.depth, line.score), (1, Some(Score(12))));
            assert_eq!(line.pv, [e4, e5]);
            assert_eq!(*best, Some(e4));
            assert_eq!(*score, Some(Score(12)));
            assert_eq!(*pv, [e4, e5]);
        }
        other => panic!("{other:?}"),
    }
    drop(h);
    let heard = heard(&log);
    assert_eq!(
        heard,
        [
            "uci",
            "isready",
            "position startpos",
            "go movetime 100",
            "quit"
        ]
    );
    remove_fake(&log);
}

#[test]
#[cfg(unix)]
fn external_bughouse_engine_hears_the_news() {
    let (command, log) = fake_engine("bughouse");
    let (tx, rx) = channel();
    let program = UciProgram {
        command: split_command(&command),
        setup: None,
    };
    let mut h = EngineHandle::<crate::engine::Bug>::start(Backend::Uci(program), move |r| {
        let _ = tx.send(r);
    })
    .unwrap();
    let start = Board::<crate::engine::Bug>::start_position();
    let partner = start.play(start.parse_uci("e2e4").unwrap());
    h.go_with(
        Request {
            id: 1,
            purpose: Purpose::Analysis,
            multipv: 1,
            start: start.clone(),
            moves: vec![],
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
        },
        GoOptions {
            partner: Some(partner.clone()),
            partner_clock: Some([Duration::from_secs(19), Duration::from_secs(86)]),
            timeout: None,
        },
    );
    let next = || rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(matches!(next(), Report::Event(EngineEvent::Ready { .. })));
    assert!(matches!(next(), Report::Ptell(t) if t == "need N"));
    assert!(matches!(
        next(),
        Report::Event(EngineEvent::Progress { id: 1, progress }) if progress.count == 20
    ));
    assert!(matches!(
        next(),
        Report::Event(EngineEvent::Info { id: 1, .. })
    ));
    h.tell(Tell::Update(partner.clone()));
    h.tell(Tell::Ptell("sit".into()));
    std::thread::sleep(Duration::from_millis(100));
    h.stop();
    assert!(matches!(
        next(),
        Report::Event(EngineEvent::Done {
            id: 1,
            best: Some(_),
            ..
        })
    ));
    drop(h);
    let partner_fen = partner.fen();
    assert_eq!(
        heard(&log),
        [
            "uci".to_string(),
            "setoption name UCI_Variant value bughouse".into(),
            "isready".into(),
            "position startpos".into(),
            format!("bughouse partner fen {partner_fen}"),
            "bughouse partner clock wtime 19000 btime 86000".into(),
            "go infinite".into(),
            format!("bughouse update fen {partner_fen}"),
            "bughouse ptell sit".into(),
            "stop".into(),
            "quit".into(),
        ]
    );
    remove_fake(&log);
}
