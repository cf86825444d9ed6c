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
        .filter_map(go_in)
        .find_map(|(s, r)| (s == Slot::Opponent).then_some(r))
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
    let path = a.chess().file.path().map(PathBuf::from).unwrap();
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
    assert_eq!(b.chess().opponent.spec, EngineSpec::BuiltIn { level: 5 });
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
    assert!(a.ui.look.ascii);
    a.start_game(setup(WHITE, None, None), t);
    type_str(&mut a, "e4", t);
    a.take_effects();
    a.update(
        said(
            &a,
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
            game: crate::ui::app::Unfinished::Chess(Box::new(g)),
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
    let on_disk =
        std::fs::read_to_string(a.chess().file.path().map(PathBuf::from).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !on_disk.contains("e4"),
        "the file still holds the taken-back moves:\n{on_disk}"
    );
}

#[test]
fn two_apps_started_in_one_second_keep_both_games() {
    // The bug of issue 30: two terminals on one home, both games saved as
    // `<stamp>.pgn`, the second overwriting the first.
    let t = Instant::now();
    let dir = temp_dir("two-apps");
    let humans = || Setup {
        mode: Mode::HumanVsHuman,
        engine: EngineSpec::BuiltIn { level: 1 },
        time: None,
        start: Board::startpos(),
    };
    let mut a = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    let mut b = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    a.start_game(humans(), t);
    b.start_game(humans(), t);
    let (pa, pb) = (
        a.chess().file.path().map(PathBuf::from).unwrap(),
        b.chess().file.path().map(PathBuf::from).unwrap(),
    );
    assert_ne!(pa, pb, "two games, two names");
    for m in ["d4", "d5", "c4"] {
        type_str(&mut a, m, t);
    }
    for m in ["e4", "c5", "Nf3"] {
        type_str(&mut b, m, t);
    }
    run_saves(&mut a);
    run_saves(&mut b);
    let read = |p: &PathBuf| {
        let g = crate::game::pgn_read::read_game(&std::fs::read_to_string(p).unwrap()).unwrap();
        crate::game::notation::numbered_line(g.start().chess(), g.moves())
    };
    assert_eq!(read(&pa), "1.d4 d5 2.c4");
    assert_eq!(read(&pb), "1.e4 c5 2.Nf3");
    // A new game before any move leaves no empty file behind.
    let files = |empty: bool| {
        std::fs::read_dir(dir.join("games"))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .filter(|e| e.metadata().is_ok_and(|m| (m.len() == 0) == empty))
            .count()
    };
    a.start_game(humans(), t);
    let pc = a.chess().file.path().map(PathBuf::from).unwrap();
    assert!(pc.exists(), "the name is reserved at once");
    assert_eq!(files(true), 1, "a's new game");
    for _ in 0..3 {
        a.start_game(humans(), t);
    }
    assert_eq!(files(true), 1, "a game left without a move leaves no file");
    assert_eq!(files(false), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_games_folder_is_said_and_s_saves_the_game_elsewhere() {
    let t = Instant::now();
    let dir = temp_dir("unwritable");
    // A file where the games folder should be (root ignores read-only
    // modes, so this is the fault every user can have).
    std::fs::write(dir.join("games"), "not a folder").unwrap();
    let problem = crate::ui::startup::data_dir_problem(Some(&dir)).expect("said");
    assert!(
        problem.contains("Games are kept in memory only"),
        "{problem}"
    );
    assert!(
        problem.contains("S saves a game to a file you name"),
        "{problem}"
    );
    assert!(crate::ui::startup::data_dir_problem(None).is_some_and(|p| p.contains("HOME")));
    let ok = temp_dir("writable");
    assert_eq!(crate::ui::startup::data_dir_problem(Some(&ok)), None);

    let mut a = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    a.update(Msg::Resize(100, 32), t);
    a.start_game(
        Setup {
            mode: Mode::HumanVsHuman,
            engine: EngineSpec::BuiltIn { level: 1 },
            time: None,
            start: Board::startpos(),
        },
        t,
    );
    type_str(&mut a, "e4", t);
    type_str(&mut a, "e5", t);
    // S: the prompt holds the game's file, which the user replaces.
    command(&mut a, Action::SaveAs, t);
    let Overlay::SaveAs { input } = &a.ui.overlay else {
        panic!("no prompt: {:?}", a.ui.overlay);
    };
    assert!(
        input.ends_with(".pgn") && input.contains("games"),
        "{input}"
    );
    assert!(render(&a, 100, 32).contains("Save the game"));
    a.take_effects();
    let elsewhere = ok.join("mine.pgn");
    a.update(
        Msg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
        t,
    );
    for c in elsewhere.display().to_string().chars() {
        key(&mut a, KeyCode::Char(c), t);
    }
    key(&mut a, KeyCode::Enter, t);
    assert!(matches!(a.ui.overlay, Overlay::None));
    let effects = a.take_effects();
    let saved = effects.iter().find_map(|e| match e {
        Effect::SaveAs { path, contents } => Some((path.clone(), contents.clone())),
        _ => None,
    });
    let (path, contents) = saved.expect("saved as");
    assert_eq!(path, elsewhere);
    assert!(contents.contains("1. e4 e5"), "{contents}");
    // Later moves go there too.
    type_str(&mut a, "Nf3", t);
    let later = a.take_effects().into_iter().find_map(|e| match e {
        Effect::Save { path, .. } => Some(path),
        _ => None,
    });
    assert_eq!(later, Some(elsewhere));
    // Esc leaves the prompt without saving.
    command(&mut a, Action::SaveAs, t);
    key(&mut a, KeyCode::Esc, t);
    assert!(matches!(a.ui.overlay, Overlay::None));
    assert!(
        !a.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::SaveAs { .. }))
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&ok);
}
