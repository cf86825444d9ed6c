//! How the Crazyhouse/Bughouse screen looks: pockets drawn like the
//! board's pieces with their counts (and clicked where they are drawn), the
//! eval bar and the scores' point of view, a weak level's search, and 80x24
//! keeping the moves, the partner line and whole names.

use super::house_live::{
    ENGINE, answer, bughouse, click, crazyhouse, go_for, info_line, jobs, live_moves, news,
    shift_or_key,
};
use super::*;
use crate::ui::player::Report;
use crate::ui::screens::house::live::{ASSISTANT, EngineJob, LiveSetup, Player, seat_index};
use crate::variant::VariantKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// The app's frame at `w` x `h`.
fn frame(a: &App, w: u16, h: u16) -> Buffer {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    crate::ui::app::draw_to(&mut buf, area, a, Instant::now());
    buf
}

/// The text of `r` in `buf`, row by row.
fn text_in(buf: &Buffer, r: Rect) -> String {
    let mut s = String::new();
    for y in r.y..r.y + r.height {
        for x in r.x..r.x + r.width {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

/// A crazyhouse game against the engine in which White (you) took two
/// pawns and Black one: 1. e4 d5 2. exd5 e6 3. dxe6 fxe6.
fn two_pawns_in_hand(now: Instant) -> App {
    let mut a = crazyhouse(now);
    jobs(&mut a);
    for (mine, theirs) in [("e4", "d7d5"), ("exd5", "e7e6"), ("dxe6", "f7e6")] {
        type_str(&mut a, mine, now);
        let (id, _) = go_for(&jobs(&mut a), 1).expect("the engine is asked");
        answer(&mut a, 1, id, theirs, now);
    }
    assert_eq!(live_moves(&a), 6);
    a
}

#[test]
fn pixel_art_pockets_are_drawn_like_the_board_with_their_counts() {
    let t0 = Instant::now();
    let mut a = two_pawns_in_hand(t0);
    a.update(Msg::Resize(160, 50), t0);
    let buf = frame(&a, 160, 50);
    let h = a.house().unwrap();
    let l = h.layout(Rect::new(0, 0, 160, 50), true).unwrap();
    let place = l.boards[0];
    assert!(
        place.board.sq_w >= 9 && place.board.sq_h >= 4,
        "pixel-art squares at 160x50: {place:?}"
    );
    assert_eq!(h.pocket(0, Color::White), vec![(Role::Pawn, 2)]);
    let cells = h.pocket_cells(a.live(), &l, 0, Color::White, t0);
    let (role, r) = cells[0];
    assert_eq!(role, Role::Pawn);
    // A square of the board's size, below the board.
    assert_eq!((r.width, r.height), (place.board.sq_w, place.board.sq_h));
    assert!(r.y > place.board.y + 8 * place.board.sq_h, "{r:?}");
    // The pawn in the pocket is the pawn on b2 (a dark square, as White's
    // pocket), pixel for pixel, but for the count in the corner.
    let b2 = place.board.rect_of(Square::B2, false);
    let count_at = (r.x + r.width - 2, r.y + r.height - 1);
    for dy in 0..r.height {
        for dx in 0..r.width {
            let (x, y) = (r.x + dx, r.y + dy);
            if y == count_at.1 && x >= count_at.0 {
                continue;
            }
            let (p, q) = (&buf[(x, y)], &buf[(b2.x + dx, b2.y + dy)]);
            assert_eq!(
                (p.symbol(), p.fg, p.bg),
                (q.symbol(), q.fg, q.bg),
                "pocket pawn and b2 differ at ({dx}, {dy})"
            );
        }
    }
    let corner = text_in(&buf, Rect::new(count_at.0, count_at.1, 2, 1));
    assert_eq!(corner, "×2\n");
    // Black's single pawn: no count.
    let black = h.pocket_cells(a.live(), &l, 0, Color::Black, t0);
    assert_eq!(black.len(), 1);
    let (_, rb) = black[0];
    assert!(rb.y + rb.height <= place.board.y, "above the board: {rb:?}");
    assert!(!text_in(&buf, rb).contains('×'));
}

#[test]
fn glyph_pockets_show_counts_and_a_click_anywhere_on_a_pocket_piece_picks_it() {
    let t0 = Instant::now();
    let mut a = two_pawns_in_hand(t0);
    // 120x40: glyph squares, the pocket on the name's row.
    let screen = render(&a, 120, 40);
    assert!(screen.contains(" ♟2 "), "{screen}");
    // 160x50: pixel art; a click on the lowest row of the pocket pawn.
    a.update(Msg::Resize(160, 50), t0);
    let h = a.house().unwrap();
    let l = h.layout(Rect::new(0, 0, 160, 50), true).unwrap();
    let (_, r) = h.pocket_cells(a.live(), &l, 0, Color::White, t0)[0];
    click(&mut a, r.x + 1, r.y + r.height - 1, t0);
    assert_eq!(
        a.find::<crate::ui::app::HouseScreen>()
            .and_then(|h| h.pick.drop),
        Some(Role::Pawn)
    );
    let buf = frame(&a, 160, 50);
    assert_eq!(
        buf[(r.x, r.y)].bg,
        a.ui.theme().selected,
        "the picked piece"
    );
    // The drop is played by clicking a square.
    let sq = l.boards[0].board.rect_of(Square::D5, false);
    click(&mut a, sq.x + 1, sq.y + 1, t0);
    assert_eq!(live_moves(&a), 7);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "b8c6", t0);
    // Flipped, your pocket is above the board: clicks follow it there.
    shift_or_key(&mut a, Action::Flip, t0);
    let h = a.house().unwrap();
    let l = h.layout(Rect::new(0, 0, 160, 50), true).unwrap();
    let (_, top) = h.pocket_cells(a.live(), &l, 0, Color::White, t0)[0];
    assert!(top.y + top.height <= l.boards[0].board.y, "{top:?}");
    assert_eq!(
        a.find::<crate::ui::app::HouseScreen>()
            .and_then(|h| h.pick.drop),
        None
    );
    click(&mut a, top.x + 2, top.y + 1, t0);
    assert_eq!(
        a.find::<crate::ui::app::HouseScreen>()
            .and_then(|h| h.pick.drop),
        Some(Role::Pawn)
    );
}

#[test]
fn the_house_screens_have_the_eval_bar_and_say_whose_view_the_scores_are() {
    let t0 = Instant::now();
    let mut a = crazyhouse(t0);
    jobs(&mut a);
    // No score yet: the bar is a thin line beside the board.
    let area = Rect::new(0, 0, 120, 40);
    let bar = a
        .house()
        .and_then(|h| h.layout(area, a.live().is_some()))
        .and_then(|l| l.eval_bar)
        .expect("an eval bar in a game being played");
    let buf = frame(&a, 120, 40);
    assert_eq!(buf[(bar.x, bar.y)].symbol(), "│");
    shift_or_key(&mut a, Action::Analyse, t0);
    let id = jobs(&mut a)
        .iter()
        .find_map(|j| match j {
            EngineJob::Go {
                seat: ASSISTANT,
                go,
            } => Some(go.id),
            _ => None,
        })
        .unwrap();
    a.update(info_line(&a, ASSISTANT, id, (9, 150, 1000), &["e2e4"]), t0);
    let buf = frame(&a, 120, 40);
    let bar_text = text_in(&buf, bar);
    let mid = Rect::new(bar.x - 1, bar.y + bar.height / 2, bar.width + 1, 1);
    assert_eq!(text_in(&buf, mid), "+1.5\n", "{bar_text}");
    // White is better: White's part (the bottom, White being at the
    // bottom) is the larger.
    let white = buf[(bar.x, bar.y + bar.height - 1)].bg;
    let black = buf[(bar.x, bar.y)].bg;
    assert_ne!(white, black);
    let whites = (bar.y..bar.y + bar.height)
        .filter(|&y| buf[(bar.x, y)].bg == white)
        .count();
    assert!(whites * 2 > bar.height as usize, "{bar_text}");
    let screen = render(&a, 120, 40);
    assert!(screen.contains("scores: White's view"), "{screen}");
    // No bar when replaying a file (no scores there): the boards keep the
    // room.
    let games = crate::ui::screens::house::file::parse(
        "[Variant \"Crazyhouse\"]\n\n1. e4 d5 *\n",
        crate::ui::screens::house::file::Kind::Crazyhouse,
    );
    let replay = crate::ui::screens::house::HouseReplay::new(None, games.unwrap(), 0);
    assert!(
        replay
            .layout(area, false)
            .is_some_and(|l| l.eval_bar.is_none())
    );
}

#[test]
fn bughouse_bar_and_a_weak_levels_search_says_what_it_played() {
    let t0 = Instant::now();
    let mut a = bughouse(t0);
    jobs(&mut a);
    type_str(&mut a, "e4", t0);
    // Black on A (level 3) thinks: its search is shown, noted as its level's.
    let (id, _) = go_for(&jobs(&mut a), 1).expect("Black on A thinks");
    a.update(info_line(&a, 1, id, (5, -40, 5000), &["e7e5", "g1f3"]), t0);
    // (A wide screen, for the note on one line.)
    let screen = render(&a, 200, 50);
    assert!(
        screen.contains("level 3's search: it may play another move"),
        "{screen}"
    );
    assert!(screen.contains("scores: White's view"), "{screen}");
    let l = a
        .house()
        .and_then(|h| h.layout(Rect::new(0, 0, 160, 50), a.live().is_some()))
        .unwrap();
    let bar = l.eval_bar.expect("a bar beside your board");
    assert!(bar.x < l.boards[1].board.x, "beside the main board");
    let buf = frame(&a, 160, 50);
    assert!(text_in(&buf, bar).contains("0.4"));
    // It plays another move than its line's first: the panel says which.
    answer(&mut a, 1, id, "c7c5", t0);
    let screen = render(&a, 200, 50);
    assert!(
        screen.contains("level 3's search; it played c5"),
        "{screen}"
    );
}

#[test]
fn at_80x24_the_moves_the_partner_line_and_whole_names_stay() {
    let t0 = Instant::now();
    let mut a = app();
    a.update(Msg::Resize(80, 24), t0);
    a.start_live(
        LiveSetup {
            kind: VariantKind::Bughouse,
            players: vec![
                [Player::Human, ENGINE],
                [ENGINE, Player::Engine(EngineSpec::BuiltIn { level: 2 })],
            ],
            time: Some(TimeControl::new(60, 0)),
            start: None,
        },
        t0,
    );
    let j = jobs(&mut a);
    let wb = seat_index(1, Color::White);
    let (id_b, _) = go_for(&j, wb).unwrap();
    answer(&mut a, wb, id_b, "e2e4", t0);
    type_str(&mut a, "e4", t0);
    let (id, _) = go_for(&jobs(&mut a), 1).unwrap();
    answer(&mut a, 1, id, "d7d5", t0);
    type_str(&mut a, "exd5", t0);
    a.update(
        news(&a, seat_index(1, Color::Black), Report::Ptell("go".into())),
        t0,
    );
    let screen = render(&a, 80, 24);
    assert!(screen.contains("Bughouse moves"), "{screen}");
    assert!(
        screen.contains("1A. e4") && screen.contains("2A. exd5"),
        "{screen}"
    );
    assert!(
        screen.contains("Partners") && screen.contains("│Partner: go"),
        "{screen}"
    );
    // Names shortened by words, never "Kibitz leve".
    assert!(
        screen.contains("Kibitz L2") || screen.contains("Kibitz level 2"),
        "{screen}"
    );
    for line in screen.lines() {
        assert!(
            !line.contains("Kibitz leve") || line.contains("Kibitz level"),
            "{screen}"
        );
    }
    // Every size still draws, the tiny ones included.
    for w in [1, 30, 54, 60, 79, 80, 81, 100, 159, 160, 240] {
        for h in [1, 11, 13, 20, 23, 24, 25, 40, 50, 70] {
            render(&a, w, h);
        }
    }
}

#[test]
fn the_house_layout_keeps_its_parts_apart_and_inside() {
    use crate::ui::layout::house_layout;
    let inside = |r: Rect, area: Rect| {
        r.x >= area.x
            && r.y >= area.y
            && r.x + r.width <= area.x + area.width
            && r.y + r.height <= area.y + area.height
    };
    for boards in [1, 2] {
        for bar in [false, true] {
            for w in (20..=260).step_by(3) {
                for h in (8..=80).step_by(2) {
                    let area = Rect::new(0, 0, w, h);
                    let Some(l) = house_layout(area, boards, bar) else {
                        continue;
                    };
                    let mut parts: Vec<Rect> = Vec::new();
                    for b in &l.boards {
                        let g = b.board;
                        parts.push(Rect::new(g.x - 2, g.y, 2 + 8 * g.sq_w, 8 * g.sq_h + 1));
                        parts.push(b.top);
                        parts.push(b.bottom);
                    }
                    parts.extend(l.eval_bar);
                    parts.extend(l.panel);
                    parts.push(l.status);
                    for (i, p) in parts.iter().enumerate() {
                        assert!(inside(*p, area), "{w}x{h} {boards} {bar}: {p:?}");
                        for q in &parts[i + 1..] {
                            assert!(!p.intersects(*q), "{w}x{h} {boards} {bar}: {p:?} {q:?}");
                        }
                    }
                    assert_eq!(l.boards.len(), boards);
                }
            }
        }
    }
    // 80x24 Bughouse: a bigger main board, the panel under the partner's.
    let l = house_layout(Rect::new(0, 0, 80, 24), 2, true).unwrap();
    assert!(l.boards[0].board.sq_w > l.boards[1].board.sq_w);
    assert!(
        l.panel
            .is_some_and(|p| p.height >= 7 && p.x >= l.boards[1].top.x)
    );
    assert!(l.eval_bar.is_some());
}

/// Beside the boards the panel is wide enough for a partner's message on
/// a line or two: at 160x50 the partner's board is a size smaller for it
/// (issue 50: a 20-column Partners box cut "Opponent asks: -trad"), the
/// main board as large as before; and a standing request too long for a
/// line wraps on words.
#[test]
fn the_bughouse_panel_beside_the_boards_has_room_for_words() {
    use crate::ui::layout::house_layout;
    let l = house_layout(Rect::new(0, 0, 160, 50), 2, true).unwrap();
    let panel = l.panel.expect("a panel");
    assert!(panel.width >= 32, "{panel:?}");
    assert_eq!(
        (l.boards[0].board.sq_w, l.boards[0].board.sq_h),
        (9, 4),
        "the main board keeps its pixel-art squares"
    );
    // The partner's engine asks for many things at once: each word whole.
    let t0 = Instant::now();
    let mut a = super::house_live::bughouse(t0);
    let bb = crate::ui::seats::seat_index(1, Color::Black);
    for ask in ["++n", "++b", "--q", "--r", "sit"] {
        a.update(
            super::house_live::news(&a, bb, Report::Ptell(ask.into())),
            t0,
        );
    }
    for (w, h) in [(160, 50), (100, 30)] {
        let screen = render(&a, w, h);
        let lines: Vec<&str> = screen.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("│Partner asks:"))
            .unwrap_or_else(|| panic!("{w}x{h}: no request\n{screen}"));
        // The request's rows: inside the box, up to the next line that is
        // not a continuation (the messages, or the border).
        let x = lines[at].find("│Partner asks:").unwrap_or(0);
        let rows: Vec<String> = lines[at..]
            .iter()
            .map(|l| l.get(x..).unwrap_or("").to_string())
            .take_while(|l| l.starts_with('│') && !l.contains("no messages"))
            .map(|l| {
                l.trim_start_matches('│')
                    .split('│')
                    .next()
                    .unwrap_or("")
                    .trim_end()
                    .to_string()
            })
            .collect();
        let text = rows.join(" ");
        for word in ["++n", "++b", "--q", "--r", "sit"] {
            assert!(
                text.split(' ').any(|w| w == word),
                "{w}x{h}: {word} not whole in {rows:?}\n{screen}"
            );
        }
    }
}

/// An engine's move search in Bughouse carries the partner's board's
/// clocks, so a Kibitz engine never asks a partner behind on time to sit
/// (issue 50); the game's own clocks at 1+0: a minute each.
#[test]
fn a_bughouse_engine_hears_its_partners_clocks() {
    let t0 = Instant::now();
    let mut a = super::house_live::bughouse(t0);
    let jobs = super::house_live::jobs(&mut a);
    // B's White engine moves first; its partner is you, White on A.
    let bw = crate::ui::seats::seat_index(1, Color::White);
    let go = jobs
        .iter()
        .find_map(|j| match j {
            EngineJob::Go { seat, go } if *seat == bw => Some(go.clone()),
            _ => None,
        })
        .expect("B's White engine is asked for a move");
    let [w, b] = go.partner_clock.expect("the partner's clocks");
    assert_eq!((w.as_secs(), b.as_secs()), (60, 60), "{go:?}");
    assert!(go.partner_fen.is_some());
}

/// Who is who in a Bughouse game you play, when every engine bears the
/// same name (issue 50): the start says your seat and your partner's in
/// words, and each board strip names the player's side.
#[test]
fn partner_and_opponents_are_named_by_side() {
    let t0 = Instant::now();
    let a = super::house_live::bughouse(t0);
    assert!(
        super::house_live::status(&a).contains(
            "Bughouse: you play White on board A; your partner, Kibitz level 3, plays Black on B."
        ),
        "{}",
        super::house_live::status(&a)
    );
    for (w, h) in [(80, 24), (160, 50)] {
        let screen = render(&a, w, h);
        // The level stays when the name is cut ("Opponent: L3").
        assert!(
            screen.contains("Partner: Kibitz level 3")
                || screen.contains("Partner: Kibitz L3")
                || screen.contains("Partner: L3"),
            "{w}x{h}: {screen}"
        );
        assert_eq!(
            screen.matches("Opponent: Kibitz level 3").count()
                + screen.matches("Opponent: Kibitz L3").count()
                + screen.matches("Opponent: L3").count(),
            2,
            "{w}x{h}: {screen}"
        );
        assert!(!screen.contains("you play You"), "{screen}");
    }
}
