//! The opening explorer beside the board: shown on a key, answered by its
//! thread (run here in step), its keys, Enter playing a move on the play
//! and replay screens, drawing at 80x24 and larger.

use super::replay::{OPERA, replaying};
use super::*;
use crate::ui::openings::service::Service;
use crate::ui::openings::{LoadState, OpeningsRequest};

const COLLECTION: &str = "\
[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[WhiteElo \"2100\"]\n[BlackElo \"2300\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
[White \"C\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\n1. e4 c5 2. Nf3 d6 0-1\n\n\
[White \"A\"]\n[Black \"D\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 e6 1/2-1/2\n\n";

/// A data folder whose collections hold [`COLLECTION`] (added) and one
/// saved game of ours.
fn data_with_games(name: &str) -> PathBuf {
    let d = temp_dir(name);
    std::fs::create_dir_all(d.join("games")).unwrap();
    std::fs::write(
        d.join("games").join("mine.pgn"),
        "[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nf6 1-0\n",
    )
    .unwrap();
    let pgn = d.join("collection.pgn");
    std::fs::write(&pgn, COLLECTION).unwrap();
    crate::db::collection::Store::new(&d)
        .add(&pgn, &mut |_, _| {})
        .unwrap();
    d
}

/// Carries out the explorer's requests as its thread would; returns how
/// many there were (other effects are dropped).
fn serve(a: &mut App, service: &mut Service, now: Instant) -> usize {
    let mut n = 0;
    for _ in 0..4 {
        let reqs: Vec<OpeningsRequest> = a
            .take_effects()
            .into_iter()
            .filter_map(|e| match e {
                Effect::Openings(r) => Some(r),
                _ => None,
            })
            .collect();
        if reqs.is_empty() {
            break;
        }
        for r in reqs {
            n += 1;
            let mut reports = Vec::new();
            service.handle(r, &mut |rep| reports.push(rep));
            for rep in reports {
                a.update(Msg::Openings(rep), now);
            }
        }
    }
    n
}

fn rows(a: &App) -> Vec<(String, u64)> {
    a.ui.openings
        .rows_for(a.board().chess())
        .unwrap_or_default()
        .iter()
        .map(|r| (r.san.clone(), r.stats.games()))
        .collect()
}

#[test]
fn the_explorer_follows_the_game_and_enter_plays_its_move() {
    let t = Instant::now();
    let data = data_with_games("explorer-play");
    let mut service = Service::new(Some(data.clone()));
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    a.take_effects();
    key(&mut a, KeyCode::Char('s'), t);
    assert!(a.ui.openings.shown);
    assert!(serve(&mut a, &mut service, t) >= 2, "a load and a lookup");
    assert!(matches!(a.ui.openings.load, LoadState::Loaded { .. }));
    // My games and the added file together, most played first.
    assert_eq!(rows(&a), [("e4".to_string(), 3), ("d4".to_string(), 1)]);
    let screen = render(&a, 120, 40);
    assert!(screen.contains("Openings · 4 games"), "{screen}");
    assert!(screen.contains("B00 King's Pawn Game"), "{screen}");
    // Down, Enter: 1.d4 is played; the explorer asks for the new position.
    key(&mut a, KeyCode::Down, t);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["d2d4"]);
    assert_eq!(serve(&mut a, &mut service, t), 1);
    assert_eq!(rows(&a), [("d5".to_string(), 1)]);
    // Letters still type moves with the explorer open.
    type_str(&mut a, "d5", t);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["d2d4", "d7d5"]);
    serve(&mut a, &mut service, t);
    assert_eq!(rows(&a), [("c4".to_string(), 1)]);
    // A position no game reached says so.
    type_str(&mut a, "h4", t);
    key(&mut a, KeyCode::Enter, t);
    serve(&mut a, &mut service, t);
    assert!(rows(&a).is_empty());
    assert!(render(&a, 120, 40).contains("No game in your collections"));
    // Esc hides it; the search panel is back.
    key(&mut a, KeyCode::Esc, t);
    assert!(!a.ui.openings.shown);
    assert!(!render(&a, 120, 40).contains("Openings"));
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn slash_shows_one_players_games_with_the_colour_chosen_by_tab() {
    let t = Instant::now();
    let data = data_with_games("explorer-player");
    let mut service = Service::new(Some(data.clone()));
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    key(&mut a, KeyCode::Char('s'), t);
    serve(&mut a, &mut service, t);
    assert_eq!(rows(&a), [("e4".to_string(), 3), ("d4".to_string(), 1)]);
    // "/a", Tab (as White), Enter: A's two games as White (A is Black in
    // the third).
    key(&mut a, KeyCode::Char('/'), t);
    key(&mut a, KeyCode::Char('a'), t);
    key(&mut a, KeyCode::Tab, t);
    assert!(render(&a, 120, 40).contains("Tab as White"));
    key(&mut a, KeyCode::Enter, t);
    assert!(uci_moves(&a).is_empty(), "the box took the keys");
    assert_eq!(serve(&mut a, &mut service, t), 1);
    // (A tie is in SAN order.)
    assert_eq!(rows(&a), [("d4".to_string(), 1), ("e4".to_string(), 1)]);
    let screen = render(&a, 120, 40);
    assert!(
        screen.contains("Openings · a as White · 2 games"),
        "{screen}"
    );
    // Moves played follow the player's tree.
    type_str(&mut a, "e4", t);
    serve(&mut a, &mut service, t);
    assert_eq!(rows(&a), [("e5".to_string(), 1)]);
    // Nobody by that name: said so.
    key(&mut a, KeyCode::Char('/'), t);
    type_str(&mut a, "zz", t);
    serve(&mut a, &mut service, t);
    assert!(rows(&a).is_empty());
    assert!(render(&a, 120, 40).contains("No game of azz as White"));
    // An empty name: every game again.
    key(&mut a, KeyCode::Char('/'), t);
    a.update(
        Msg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
        t,
    );
    key(&mut a, KeyCode::Enter, t);
    serve(&mut a, &mut service, t);
    assert_eq!(rows(&a), [("e5".to_string(), 2), ("c5".to_string(), 1)]);
    assert!(!render(&a, 120, 40).contains("as White"));
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn a_game_that_ends_with_the_explorer_open_joins_my_games() {
    let t = Instant::now();
    let data = data_with_games("explorer-refresh");
    let mut service = Service::new(Some(data.clone()));
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    key(&mut a, KeyCode::Char('s'), t);
    serve(&mut a, &mut service, t);
    let my_games = |a: &App| match &a.ui.openings.load {
        LoadState::Loaded { collections, .. } => collections.first().cloned(),
        _ => None,
    };
    assert_eq!(my_games(&a), Some(("My games".to_string(), 1)));
    for m in ["f3", "e5", "g4", "Qh4"] {
        type_str(&mut a, m, t);
    }
    assert!(a.chess().is_over());
    // The game is saved (as the event loop does), then the explorer loads
    // My games again.
    std::fs::write(
        data.join("games").join("zz-fool.pgn"),
        crate::game::write_pgn(&a.chess().game),
    )
    .unwrap();
    serve(&mut a, &mut service, t);
    assert_eq!(my_games(&a), Some(("My games".to_string(), 2)));
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn an_old_answer_is_not_shown_for_a_new_position() {
    let t = Instant::now();
    let data = data_with_games("explorer-stale");
    let mut service = Service::new(Some(data.clone()));
    let mut a = app();
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    key(&mut a, KeyCode::Char('s'), t);
    let asked: Vec<_> = a
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Openings(r) => Some(r),
            _ => None,
        })
        .collect();
    // The user moves before the answer comes: it is for the old position.
    type_str(&mut a, "e4", t);
    key(&mut a, KeyCode::Enter, t);
    for r in asked {
        let mut reports = Vec::new();
        service.handle(r, &mut |rep| reports.push(rep));
        for rep in reports {
            a.update(Msg::Openings(rep), t);
        }
    }
    assert!(a.ui.openings.rows_for(a.board().chess()).is_none());
    // Enter with no answer yet plays nothing.
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["e2e4"]);
    serve(&mut a, &mut service, t);
    assert_eq!(rows(&a), [("e5".to_string(), 2), ("c5".to_string(), 1)]);
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn in_a_replay_enter_tries_the_move_and_the_arrows_choose() {
    let t = Instant::now();
    let data = data_with_games("explorer-replay");
    let mut service = Service::new(Some(data.clone()));
    let mut a = replaying(OPERA, None, t);
    a.take_effects();
    key(&mut a, KeyCode::Char('s'), t);
    serve(&mut a, &mut service, t);
    assert_eq!(rows(&a)[0], ("e4".to_string(), 3));
    // → still steps the game.
    key(&mut a, KeyCode::Right, t);
    serve(&mut a, &mut service, t);
    assert_eq!(rows(&a), [("e5".to_string(), 2), ("c5".to_string(), 1)]);
    // ↓ chooses c5 (not the game's next variation), Enter tries it.
    key(&mut a, KeyCode::Down, t);
    key(&mut a, KeyCode::Enter, t);
    assert_eq!(uci_moves(&a), ["e2e4", "c7c5"]);
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn the_explorer_fits_80x24_and_larger() {
    let t = Instant::now();
    let data = data_with_games("explorer-small");
    let mut service = Service::new(Some(data.clone()));
    let mut a = app();
    a.update(Msg::Resize(80, 24), t);
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    key(&mut a, KeyCode::Char('s'), t);
    serve(&mut a, &mut service, t);
    let screen = render(&a, 80, 24);
    assert!(screen.contains("Openings · 4 games"), "{screen}");
    assert!(screen.contains("e4"), "{screen}");
    assert!(screen.contains("s openings"), "{screen}");
    for (w, h) in [(60, 20), (100, 30), (160, 50)] {
        render(&a, w, h);
    }
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn plus_and_minus_mark_the_chosen_move_in_your_repertoire() {
    let t = Instant::now();
    let data = data_with_games("explorer-mark");
    let mut service = Service::new(Some(data.clone()));
    let mut a = app();
    a.ui.dirs.data = Some(data.clone());
    a.start_game(setup(Mode::HumanVsHuman, None, None), t);
    key(&mut a, KeyCode::Char('s'), t);
    serve(&mut a, &mut service, t);
    let written = |a: &mut App| -> Vec<(PathBuf, String)> {
        a.take_effects()
            .into_iter()
            .filter_map(|e| match e {
                Effect::WriteFile { path, contents, .. } => Some((path, contents)),
                _ => None,
            })
            .collect()
    };
    // 1.e4 into White's repertoire: saved as PGN, starred in the list.
    key(&mut a, KeyCode::Char('+'), t);
    let w = written(&mut a);
    assert_eq!(w.len(), 1);
    assert!(w[0].0.ends_with("repertoire/white.pgn"), "{:?}", w[0].0);
    assert!(w[0].1.contains("1. e4 *"), "{}", w[0].1);
    assert!(render(&a, 120, 40).contains("e4★"));
    // Black's reply after 1.e4 goes in White's repertoire too (the line
    // passes there): the reply you expect.
    type_str(&mut a, "e4", t);
    key(&mut a, KeyCode::Enter, t);
    serve(&mut a, &mut service, t);
    key(&mut a, KeyCode::Char('+'), t);
    let w = written(&mut a);
    assert!(
        w[0].0.ends_with("white.pgn") && w[0].1.contains("1. e4 e5"),
        "{w:?}"
    );
    // Twice: said, nothing written.
    key(&mut a, KeyCode::Char('+'), t);
    assert!(written(&mut a).is_empty());
    assert!(
        a.ui.status
            .as_ref()
            .is_some_and(|s| s.text.contains("already"))
    );
    // Taken out again.
    key(&mut a, KeyCode::Char('-'), t);
    let w = written(&mut a);
    assert!(!w[0].1.contains("e5"), "{}", w[0].1);
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn a_replayed_game_of_yours_says_where_it_left_your_repertoire() {
    let t = Instant::now();
    let data = temp_dir("explorer-left");
    std::fs::create_dir_all(data.join("repertoire")).unwrap();
    std::fs::write(
        data.join("repertoire").join("white.pgn"),
        "1. d4 d5 (1... Nf6 2. c4) 2. c4 e6 3. Nc3 *\n",
    )
    .unwrap();
    let mut a = app();
    a.ui.dirs.data = Some(data.clone());
    a.update(Msg::Resize(160, 50), t);
    let game = "[White \"You\"]\n[Black \"Kibitz level 4\"]\n[Result \"*\"]\n\n1. d4 d5 2. Nf3 Nf6 3. e3 *\n";
    super::replay::open_text(&mut a, game, None, t);
    let exit = a
        .chess_at::<Replay>()
        .map(|c| c.task.repertoire_exit.clone())
        .unwrap();
    assert_eq!(
        exit.as_ref().map(|e| e.1.as_str()),
        Some("2.Nf3 leaves your repertoire: you prepared 2.c4")
    );
    // Its note shows on that move.
    for _ in 0..3 {
        key(&mut a, KeyCode::Right, t);
    }
    let screen = render(&a, 160, 50);
    assert!(screen.contains("2.Nf3 leaves your repertoire"), "{screen}");
    // A game of someone else's that never entered the lines: nothing.
    let other = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n";
    super::replay::open_text(&mut a, other, None, t);
    let exit = a
        .chess_at::<Replay>()
        .map(|c| c.task.repertoire_exit.clone())
        .unwrap();
    assert_eq!(exit, None);
    std::fs::remove_dir_all(data).unwrap();
}

#[test]
fn the_repertoire_drill_asks_due_positions_and_refuses_other_moves() {
    let t = Instant::now();
    let data = temp_dir("repertoire-drill");
    std::fs::create_dir_all(data.join("repertoire")).unwrap();
    std::fs::write(
        data.join("repertoire").join("white.pgn"),
        "1. d4 d5 2. c4 e6 3. Nc3 *\n",
    )
    .unwrap();
    let mut a = app();
    a.ui.dirs.data = Some(data.clone());
    a.ui.openings.due = None;
    a.start_game(setup(WHITE, None, None), t);
    // The play screen counts what is due: 3 positions never drilled.
    let screen = render(&a, 120, 40);
    assert!(screen.contains("3 repertoire moves due (v)"), "{screen}");
    key(&mut a, KeyCode::Char('v'), t);
    assert!(
        a.chess_at::<crate::ui::screens::chess::repdrill::RepertoireDrill>()
            .is_some()
    );
    assert!(render(&a, 120, 40).contains("Your White repertoire: your move."));
    // A move not prepared is refused, the prepared one named.
    type_str(&mut a, "e4", t);
    assert!(uci_moves(&a).is_empty());
    let said = a.ui.status.clone().map(|s| s.text).unwrap_or_default();
    assert!(said.contains("you prepared d4"), "{said:?}");
    // The prepared one: played; the opponent answers from the repertoire.
    type_str(&mut a, "d4", t);
    let later = t + Duration::from_secs(2);
    a.update(Msg::Tick, later);
    assert_eq!(uci_moves(&a), ["d2d4", "d7d5"]);
    type_str(&mut a, "c4", later);
    a.update(Msg::Tick, later + Duration::from_secs(2));
    type_str(&mut a, "Nc3", later + Duration::from_secs(2));
    // The line is done; the failed first move is due again: back to it.
    assert!(uci_moves(&a).is_empty(), "{:?}", uci_moves(&a));
    let progress: Vec<String> = a
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::WriteFile { path, contents, .. } if path.ends_with("progress.json") => {
                Some(contents)
            }
            _ => None,
        })
        .collect();
    assert_eq!(progress.len(), 3, "the wrong answer, then two right ones");
    let last: crate::train::repertoire::Progress = serde_json::from_str(&progress[2]).unwrap();
    let drill = a
        .chess_at::<crate::ui::screens::chess::repdrill::RepertoireDrill>()
        .unwrap();
    assert_eq!((drill.task.right, drill.task.wrong), (2, 1));
    assert_eq!(
        last.card(Color::White, &shakmaty::Chess::default())
            .unwrap()
            .streak,
        0
    );
    // q leaves, and the play screen counts again.
    key(&mut a, KeyCode::Char('q'), t);
    assert!(
        a.chess_at::<crate::ui::screens::chess::repdrill::RepertoireDrill>()
            .is_none()
    );
    std::fs::remove_dir_all(data).unwrap();
}
