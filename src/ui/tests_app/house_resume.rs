//! Crazyhouse and Bughouse games saved and taken up again: the seats, the
//! clocks and the moves come back, and the app offers the newest unfinished
//! game of the variant.

use super::house_live::*;
use super::*;
use crate::ui::screens::house::live::{LiveSetup, Player};
use crate::variant::VariantKind;

#[test]
fn saved_games_resume_with_their_seats_and_clocks() {
    use crate::ui::screens::house::live::Live;
    let t0 = Instant::now();
    // Crazyhouse: 1. e4 (after 5 s) d5 2. exd5 (after 3 s more).
    let mut a = crazyhouse(t0);
    jobs(&mut a);
    type_str(&mut a, "e4", t0 + Duration::from_secs(5));
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "d7d5", t0 + Duration::from_secs(6));
    type_str(&mut a, "exd5", t0 + Duration::from_secs(9));
    let text = a.live().map(|l| l.save_text()).unwrap();
    assert!(text.contains("[KibitzSeats \"human, level 3\"]"), "{text}");
    let t1 = t0 + Duration::from_secs(100);
    let l = Live::resume(&text, VariantKind::Crazyhouse, t1).unwrap();
    assert_eq!(l.moves_played(), 3);
    assert_eq!(
        l.remaining(0, Color::White, t1),
        Some(Duration::from_secs(52))
    );
    assert_eq!(
        l.remaining(0, Color::Black, t1),
        Some(Duration::from_secs(59))
    );
    assert_eq!(l.players[0], [Player::Human, ENGINE]);
    // Black (the engine) is to move: it starts and is asked at once.
    assert!(go_for(&l.jobs, 1).is_some(), "{:?}", l.jobs);
    // Bughouse: the four seats and each seat's last clock.
    let mut a = bughouse(t0);
    let j = jobs(&mut a);
    let (id, _) = go_for(&j, 2).unwrap();
    answer(&mut a, 2, id, "e2e4", t0 + Duration::from_secs(2));
    type_str(&mut a, "d4", t0 + Duration::from_secs(4));
    let text = a.live().map(|l| l.save_text()).unwrap();
    let l = Live::resume(&text, VariantKind::Bughouse, t1).unwrap();
    assert_eq!(l.moves_played(), 2);
    assert_eq!(
        l.remaining(1, Color::White, t1),
        Some(Duration::from_secs(58))
    );
    assert_eq!(
        l.remaining(0, Color::White, t1),
        Some(Duration::from_secs(56))
    );
    assert_eq!(l.human_seats(), vec![0]);
    // Files that are not ours, or are over, are not resumed.
    assert!(
        Live::resume(
            "[Variant \"Crazyhouse\"]\n\n1. e4 *\n",
            VariantKind::Crazyhouse,
            t1
        )
        .is_err()
    );
    let over = text
        .replace("[Result \"*\"]", "[Result \"1-0\"]")
        .replace(" *", " {BA resigns} 1-0");
    assert!(Live::resume(&over, VariantKind::Bughouse, t1).is_err());
}

#[test]
fn the_app_offers_the_unfinished_game_and_resumes_it() {
    let t0 = Instant::now();
    let dir = std::env::temp_dir().join(format!("kibitz-house-resume-{}", std::process::id()));
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let mut a = crazyhouse(t0);
    type_str(&mut a, "e4", t0);
    let text = a.live().map(|l| l.save_text()).unwrap();
    std::fs::write(games.join("2026-01-01_000000.pgn"), &text).unwrap();
    let mut b = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    b.update(Msg::Resize(120, 40), t0);
    let setup = LiveSetup {
        kind: VariantKind::Crazyhouse,
        players: vec![[Player::Human, ENGINE]],
        time: Some(TimeControl::new(60, 0)),
        start: None,
    };
    b.offer_or_start_live(setup.clone(), false, t0);
    assert!(matches!(b.ui.overlay, Overlay::Resume { .. }));
    let screen = render(&b, 120, 40);
    assert!(screen.contains("An unfinished game was found"), "{screen}");
    key(&mut b, KeyCode::Char('y'), t0);
    assert_eq!(live_moves(&b), 1);
    assert!(
        go_for(&jobs(&mut b), 1).is_some(),
        "the engine is asked again"
    );
    // --new: no offer.
    let mut c = App::new(Config::default(), theme::builtin(), Some(dir.clone()));
    c.offer_or_start_live(setup, true, t0);
    assert!(matches!(c.ui.overlay, Overlay::None));
    assert_eq!(live_moves(&c), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
