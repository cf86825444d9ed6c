//! Autosave, resume and configuration.

use super::*;

#[test]
fn autosave_after_every_move_and_resume() {
    let t = Instant::now();
    let dir = temp_dir("autosave");
    let config = Config {
        engine_pace: crate::ui::pace::Pace::Fast,
        ..Config::default()
    };
    let mut a = App::new(config, theme::builtin(), Some(dir.clone()));
    a.start_game(
        Setup {
            mode: Mode::HumanVsEngine {
                human: Color::Black,
            },
            engine: EngineSpec::BuiltIn { level: 5 },
            time: Some("3+2".parse().unwrap()),
            start: Board::startpos(),
        },
        t,
    );
    let effects = a.take_effects();
    let req = effects
        .iter()
        .rev()
        .find_map(|e| match e {
            Effect::Go(Slot::Opponent, r) => Some((**r).clone()),
            _ => None,
        })
        .unwrap();
    a.ui.effects = effects;
    assert_eq!(run_saves(&mut a), 0, "no file for a game without moves");
    reply(&mut a, &req, "d2d4", t + Duration::from_secs(1));
    assert_eq!(run_saves(&mut a), 1, "saved after the engine's move");
    type_str(&mut a, "d5", t + Duration::from_secs(4));
    let req = take_go(&mut a, Slot::Opponent);
    let mut effects = a.take_effects();
    let _ = &mut effects;
    // (take_go consumed the effects; save again to disk explicitly)
    let path = a.chess().save_path.clone().unwrap();
    std::fs::write(&path, crate::game::write_pgn(&a.chess().game)).unwrap();
    assert!(req.is_some());

    let (found, game) = crate::ui::find_unfinished(&dir.join("games"))
        .0
        .expect("unfinished game found");
    assert_eq!(found, path);
    assert_eq!(game.moves().len(), 2);
    let mut b = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    b.resume(game, found, t);
    assert_eq!(
        b.chess().mode,
        Mode::HumanVsEngine {
            human: Color::Black
        }
    );
    assert_eq!(b.chess().spec, EngineSpec::BuiltIn { level: 5 });
    assert_eq!(uci_moves(&b), ["d2d4", "d7d5"]);
    // Clock times come back from the [%clk] comments.
    let c = b.chess().clocks.as_ref().unwrap();
    assert_eq!(c.remaining(Color::White, t), Duration::from_secs(180));
    assert_eq!(c.remaining(Color::Black, t), Duration::from_secs(179));
    // White (the engine) is to move, so the engine is asked.
    assert!(take_go(&mut b, Slot::Opponent).is_some());
    // A finished game is not offered for resuming.
    command(&mut b, Action::Resign, t);
    key(&mut b, KeyCode::Char('y'), t);
    run_saves(&mut b);
    assert!(crate::ui::find_unfinished(&dir.join("games")).0.is_none());
    // An unreadable newest file gives a warning, not a crash or a silence.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(dir.join("games").join("zz.pgn"), "1. e4 e5 2. Ke3?? Qxe1 *").unwrap();
    let (none, warning) = crate::ui::find_unfinished(&dir.join("games"));
    assert!(none.is_none());
    assert!(warning.is_some_and(|w| w.contains("zz.pgn")));
    let _ = std::fs::remove_dir_all(&dir);
}
#[test]
fn ascii_config_and_unknown_engine_failure() {
    let t = Instant::now();
    let cfg = Config {
        piece_style: PieceStyle::Ascii,
        ..Config::default()
    };
    let mut a = App::new(cfg, theme::builtin(), None);
    assert!(a.ui.ascii);
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    a.take_effects();
    a.update(
        Msg::Engine(
            Slot::Opponent,
            EngineEvent::Failed {
                message: "engine crashed".into(),
            },
        ),
        t,
    );
    assert_eq!(
        a.chess().game.ending.map(|e| e.termination),
        Some(Termination::Abandoned)
    );
    assert!(a.ui.status.unwrap().text.contains("engine crashed"));
}
#[test]
fn resume_prompt_keys() {
    let t = Instant::now();
    let prompt = |a: &mut App| {
        let mut g = crate::game::Game::new(Board::startpos());
        let m = Board::startpos().parse_uci("e2e4").unwrap();
        g.push(m, None);
        a.ui.overlay = Overlay::Resume {
            path: PathBuf::from("/nonexistent/x.pgn"),
            game: Box::new(g),
            summary: "You vs Kibitz level 4, 1 moves".into(),
        };
    };
    let mut a = app();
    prompt(&mut a);
    key(&mut a, KeyCode::Char('x'), t);
    assert!(
        matches!(a.ui.overlay, Overlay::Resume { .. }),
        "stray keys wait"
    );
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    let mut b = app();
    b.ui.launch_setup = Some(setup(
        Mode::HumanVsEngine {
            human: Color::Black,
        },
        None,
        None,
    ));
    prompt(&mut b);
    key(&mut b, KeyCode::Char('n'), t);
    assert!(b.chess().game.moves().is_empty(), "n starts a new game");
    assert_eq!(
        b.chess().mode,
        Mode::HumanVsEngine {
            human: Color::Black
        },
        "as the command line asked"
    );
    let mut c = app();
    prompt(&mut c);
    key(&mut c, KeyCode::Char('q'), t);
    assert!(c.ui.quit);
}
#[test]
fn taking_back_to_the_start_is_saved() {
    let t = Instant::now();
    let dir = temp_dir("takeback-start");
    let mut a = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    let req = take_go(&mut a, Slot::Opponent).unwrap();
    reply(&mut a, &req, "e7e5", t);
    run_saves(&mut a);
    key(&mut a, KeyCode::Char('u'), t);
    assert!(a.chess().game.moves().is_empty());
    run_saves(&mut a);
    let on_disk = std::fs::read_to_string(a.chess().save_path.clone().unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !on_disk.contains("e4"),
        "the file still holds the taken-back moves:\n{on_disk}"
    );
}
