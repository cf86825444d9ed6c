use super::draw::{games_text, shares};
use super::*;

fn row(san: &str, games: u64) -> Row {
    let pos = Chess::default();
    let mv = crate::game::notation::parse_move(&pos, san).unwrap();
    let stats = Stats {
        white: games,
        ..Stats::default()
    };
    Row {
        mv,
        san: san.into(),
        stats,
        opening: None,
    }
}

#[test]
fn answers_are_kept_only_for_the_position_asked_and_the_choice_wraps() {
    let mut p = OpeningsPanel::default();
    let start = Chess::default();
    assert!(p.want(&start).is_none(), "hidden: nothing asked");
    assert!(matches!(p.toggle(), Some(OpeningsRequest::Load)));
    let query = match p.want(&start) {
        Some(OpeningsRequest::Moves { query, .. }) => query,
        other => panic!("{other:?}"),
    };
    assert!(p.want(&start).is_none(), "asked once");
    p.on_report(OpeningsReport::Moves {
        query: Query {
            key: query.key ^ 1,
            player: None,
        },
        rows: vec![row("e4", 1)],
        total: Stats::default(),
    });
    assert!(p.rows_for(&start).is_none(), "not the position asked");
    p.on_report(OpeningsReport::Moves {
        query,
        rows: vec![row("e4", 3), row("d4", 2)],
        total: Stats::default(),
    });
    assert_eq!(p.selected_move(&start).map(|r| r.san.as_str()), Some("e4"));
    p.step(&start, -1);
    assert_eq!(p.selected_move(&start).map(|r| r.san.as_str()), Some("d4"));
    p.step(&start, 1);
    assert_eq!(p.selected, 0);
}

fn press(p: &mut OpeningsPanel, code: crossterm::event::KeyCode) -> player::BoxKey {
    p.player_box_key(crossterm::event::KeyEvent::from(code))
}

#[test]
fn the_player_box_limits_the_explorer_to_one_players_games_and_old_answers_go() {
    use crossterm::event::KeyCode;
    use player::BoxKey;
    let mut p = OpeningsPanel::default();
    let start = Chess::default();
    p.toggle();
    let every = match p.want(&start) {
        Some(OpeningsRequest::Moves { query, .. }) => query,
        other => panic!("{other:?}"),
    };
    p.open_player_box();
    for c in "Morphy".chars() {
        assert_eq!(press(&mut p, KeyCode::Char(c)), BoxKey::Typing);
    }
    press(&mut p, KeyCode::Tab);
    assert_eq!(
        p.player_box.as_ref().map(|b| b.color_text()),
        Some("as White")
    );
    let filter = PlayerFilter {
        name: "Morphy".into(),
        color: Some(Color::White),
    };
    assert_eq!(
        press(&mut p, KeyCode::Enter),
        BoxKey::Chosen(Some(filter.clone()))
    );
    assert!(p.player_box.is_none());
    // The answer for every game, come late, is not shown for Morphy's.
    p.on_report(OpeningsReport::Moves {
        query: every,
        rows: vec![row("d4", 9)],
        total: Stats::default(),
    });
    assert!(p.rows_for(&start).is_none());
    let query = match p.want(&start) {
        Some(OpeningsRequest::Moves { query, .. }) => query,
        other => panic!("{other:?}"),
    };
    assert_eq!(query.player.as_ref(), Some(&filter));
    p.on_report(OpeningsReport::Player {
        filter: filter.clone(),
        status: PlayerStatus::Ready(2),
    });
    assert_eq!(
        p.player.as_ref().map(|v| &v.status),
        Some(&PlayerStatus::Ready(2))
    );
    p.on_report(OpeningsReport::Moves {
        query,
        rows: vec![row("e4", 2)],
        total: Stats::default(),
    });
    assert_eq!(p.selected_move(&start).map(|r| r.san.as_str()), Some("e4"));
    // Esc leaves the player; an empty name goes back to every game.
    p.open_player_box();
    assert_eq!(press(&mut p, KeyCode::Esc), BoxKey::Cancelled);
    assert_eq!(p.player.as_ref().map(|v| &v.filter), Some(&filter));
    p.open_player_box();
    for _ in 0.."Morphy".len() {
        press(&mut p, KeyCode::Backspace);
    }
    assert_eq!(press(&mut p, KeyCode::Enter), BoxKey::Chosen(None));
    assert!(p.player.is_none());
    assert!(matches!(
        p.want(&start),
        Some(OpeningsRequest::Moves {
            query: Query { player: None, .. },
            ..
        })
    ));
}

#[test]
fn numbers_fit_their_columns() {
    assert_eq!(games_text(987), "987");
    assert_eq!(games_text(12_345), "12,345");
    assert_eq!(games_text(123_456), "123k");
    assert_eq!(games_text(1_234_567), "1.2M");
    let s = Stats {
        white: 1,
        draws: 1,
        black: 1,
        ..Stats::default()
    };
    assert_eq!(shares(&s), Some([33, 34, 33]));
    assert_eq!(shares(&Stats::default()), None);
}
