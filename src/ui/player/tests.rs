use super::*;
use std::sync::mpsc::channel;

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
