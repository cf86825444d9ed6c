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
    let key = match p.want(&start) {
        Some(OpeningsRequest::Moves { key, .. }) => key,
        other => panic!("{other:?}"),
    };
    assert!(p.want(&start).is_none(), "asked once");
    p.on_report(OpeningsReport::Moves {
        key: key ^ 1,
        rows: vec![row("e4", 1)],
        total: Stats::default(),
    });
    assert!(p.rows_for(&start).is_none(), "not the position asked");
    p.on_report(OpeningsReport::Moves {
        key,
        rows: vec![row("e4", 3), row("d4", 2)],
        total: Stats::default(),
    });
    assert_eq!(p.selected_move(&start).map(|r| r.san.as_str()), Some("e4"));
    p.step(&start, -1);
    assert_eq!(p.selected_move(&start).map(|r| r.san.as_str()), Some("d4"));
    p.step(&start, 1);
    assert_eq!(p.selected, 0);
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
