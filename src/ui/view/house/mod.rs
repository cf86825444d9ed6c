//! The Crazyhouse/Bughouse screen: one or two boards with their pockets,
//! players and clocks, the moves in the order they were made, the
//! partners' messages, and the status line.

use super::board::{draw_sprite, paint_board, sprite_fit};
use super::widgets::{block, key_label};
use super::*;
use crate::ui::clock::format_clock;
use crate::ui::house::{HouseReplay, Show};
use crate::ui::keymap::ReplayAction;
use crate::ui::layout::{HOUSE_MIN_H, HOUSE_MIN_W, HouseBoard};
use crate::variant::VariantKind;
use shakmaty::variant::Crazyhouse;

pub(super) fn draw_house(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    area: Rect,
    now: Instant,
) {
    let theme = app.theme();
    let base = Style::default().fg(theme.text).bg(theme.background);
    let show = match h.show() {
        Ok(s) => s,
        Err(why) => {
            let msg = format!(
                "Game {} of this file cannot be shown: {why}. L lists the games, Esc goes back.",
                h.index + 1
            );
            Paragraph::new(msg)
                .wrap(Wrap { trim: true })
                .style(base)
                .render_ref(area, buf);
            draw_list(buf, app, h, area);
            return;
        }
    };
    let n = show.boards();
    let Some(l) = h.layout(area) else {
        let (w, hh) = if n == 2 {
            (HOUSE_MIN_W, HOUSE_MIN_H)
        } else {
            (MIN_W, MIN_H)
        };
        let what = if n == 2 {
            "Two boards need"
        } else {
            "The board needs"
        };
        let msg = format!(
            "Terminal too small: {what} at least {w} x {hh} (have {} x {}). Enlarge it or press q to quit.",
            area.width, area.height
        );
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .alignment(Alignment::Center)
            .style(base)
            .render_ref(area, buf);
        return;
    };
    let Some(frame) = h.frame() else { return };
    let order: Vec<usize> = if n == 2 {
        vec![h.main, 1 - h.main]
    } else {
        vec![0]
    };
    for (slot, &b) in order.iter().enumerate() {
        if let (Some(place), Some(pos)) = (l.boards.get(slot), frame.boards.get(b)) {
            draw_one(buf, app, h, show, b, pos, place, now);
        }
    }
    if let Some(bar) = l.eval_bar {
        super::search::paint_eval_bar(
            buf,
            app.theme(),
            bar,
            house_score(h),
            h.bottom(h.main) == Color::Black,
        );
    }
    if let Some(p) = l.panel {
        draw_panel(buf, app, h, show, p);
    }
    draw_house_status(buf, app, h, show, l.status);
    draw_list(buf, app, h, area);
}

/// One board with its info lines.
#[allow(clippy::too_many_arguments)]
fn draw_one(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    show: &Show,
    b: usize,
    pos: &Crazyhouse,
    place: &HouseBoard,
    now: Instant,
) {
    let theme = app.theme();
    let ascii = app.ascii || theme.ascii;
    let bottom = h.bottom(b);
    let flipped = bottom == Color::Black;
    // The last move made on this board so far, and what is picked up.
    let last = show.moves[..h.cursor].iter().rev().find(|m| m.board == b);
    let mut marked = Vec::new();
    if let Some(m) = last {
        marked.push(shown_to(m.mv));
        if let Some(f) = m.mv.from() {
            marked.push(f);
        }
    }
    let check = pos
        .is_check()
        .then(|| pos.board().king_of(pos.turn()))
        .flatten();
    paint_board(
        buf,
        &place.board,
        pos.board(),
        &marked,
        check,
        theme,
        ascii,
        flipped,
    );
    // A live game: the cursor and the picked piece on the mover's board.
    let picking = h
        .live
        .as_ref()
        .and_then(|l| l.human_to_move())
        .map(crate::ui::house::live::seat_of)
        .filter(|&(pb, _)| pb == b);
    if picking.is_some() {
        if let Some(f) = h.pick.selected {
            let r = place.board.rect_of(f, flipped);
            buf.set_style(r, Style::default().bg(theme.selected));
            if let Some(p) = pos.board().piece_at(f) {
                let st = Style::default()
                    .fg(if p.color == Color::White {
                        theme.white_piece
                    } else {
                        theme.black_piece
                    })
                    .bg(theme.selected)
                    .add_modifier(Modifier::BOLD);
                buf.set_string(
                    r.x + r.width / 2,
                    r.y + r.height / 2,
                    glyph(p, ascii).to_string(),
                    st,
                );
            }
        }
        // Where the picked piece (or the piece taken from the pocket) may go.
        let dests: Vec<shakmaty::Square> = if let Some(role) = h.pick.drop {
            shakmaty::Square::ALL
                .into_iter()
                .filter(|&sq| crate::variant::rules::check_drop(pos, role, sq).is_ok())
                .collect()
        } else if let Some(f) = h.pick.selected {
            pos.legal_moves()
                .iter()
                .filter(|m| m.from() == Some(f))
                .map(|m| shown_to(*m))
                .collect()
        } else {
            Vec::new()
        };
        for sq in dests {
            let r = place.board.rect_of(sq, flipped);
            let light = (sq.file() as u32 + sq.rank() as u32) % 2 == 1;
            let bg = if marked.contains(&sq) {
                theme.last_move
            } else if light {
                theme.light
            } else {
                theme.dark
            };
            let m = Style::default()
                .fg(theme.destination)
                .bg(bg)
                .add_modifier(Modifier::BOLD);
            if pos.board().piece_at(sq).is_some() {
                buf.set_string(r.x, r.y, "◤", m);
                if r.width > 2 {
                    buf.set_string(r.x + r.width - 1, r.y + r.height - 1, "◢", m);
                }
            } else {
                let dot = if r.width >= 7 { "●" } else { "•" };
                buf.set_string(r.x + r.width / 2, r.y + r.height / 2, dot, m);
            }
        }
        if !h.pick.in_pocket {
            let r = place.board.rect_of(h.pick.cursor, flipped);
            let m = Style::default()
                .fg(theme.cursor)
                .add_modifier(Modifier::BOLD);
            if r.width >= 3 {
                buf.set_string(r.x, r.y + r.height / 2, "[", m);
                buf.set_string(r.x + r.width - 1, r.y + r.height / 2, "]", m);
            } else {
                buf.set_style(r, Style::default().bg(theme.cursor));
            }
        }
    }
    for (color, strip, top) in [(!bottom, place.top, true), (bottom, place.bottom, false)] {
        let mover = picking.filter(|&(_, c)| c == color).is_some();
        let side = Side {
            b,
            color,
            strip,
            top,
            piece: place.pocket_piece(),
        };
        info_strip(buf, app, h, show, &side, pos, mover, now);
    }
}

/// The score beside the main board (White's view): the analysis of that
/// board when on, else the search of the engine playing there.
fn house_score(h: &HouseReplay) -> Option<crate::engine::Score> {
    let l = h.live.as_ref()?;
    l.analysis
        .as_ref()
        .filter(|a| a.board == h.main)
        .or(l
            .search
            .as_ref()
            .map(|(_, a)| a)
            .filter(|a| a.board == h.main))
        .and_then(|a| a.lines.last())
        .map(|line| line.1)
}

/// A player's strip beside a board.
struct Side {
    b: usize,
    color: Color,
    strip: Rect,
    /// Above the board (name and clock on the strip's first row), else
    /// below (on its last).
    top: bool,
    /// One pocket piece's size (see `HouseBoard::pocket_piece`).
    piece: (u16, u16),
}

/// "A ▶ Name        ♛ ♞2 ♟3  0:57.0" for a player: the pocket's pieces drawn
/// like the board's (pixel art on a pixel-art board, a square each, the
/// count in the corner). `picking`: this is the person to move, whose
/// pocket shows the cursor and the piece taken to drop.
#[allow(clippy::too_many_arguments)]
fn info_strip(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    show: &Show,
    side: &Side,
    pos: &Crazyhouse,
    picking: bool,
    now: Instant,
) {
    let (b, color, area) = (side.b, side.color, side.strip);
    if area.height == 0 {
        return;
    }
    let theme = app.theme();
    let ascii = app.ascii || theme.ascii;
    let to_move = pos.turn() == color;
    let dim = Style::default().fg(theme.dim);
    let bold = Style::default().fg(theme.text).add_modifier(Modifier::BOLD);
    // The name and clock row: the one away from the board.
    let y = if side.top {
        area.y
    } else {
        area.y + area.height - 1
    };
    let clock = h.clock(b, color, now).map(format_clock);
    let pocket = crate::ui::house::pocket_of(pos, color);
    let cells = crate::ui::house::pocket_cells(area, side.piece, &pocket, clock.as_deref());
    let clock_w = clock.as_ref().map_or(0, |c| c.chars().count() as u16 + 1);
    let name_end = cells
        .first()
        .map_or((area.x + area.width).saturating_sub(clock_w), |(_, r)| {
            r.x.saturating_sub(1)
        });
    let mut left = Vec::new();
    let mut used = 2;
    if show.kind == VariantKind::Bughouse {
        used += 2;
        left.push(Span::styled(
            if b == 0 { "A " } else { "B " },
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ));
    }
    left.push(Span::styled(
        if to_move { "▶ " } else { "  " },
        Style::default().fg(theme.accent),
    ));
    let room = name_end.saturating_sub(area.x);
    if let Some(p) = show.players.get(b) {
        let name = &p[usize::from(color == Color::Black)];
        let fitted = crate::ui::text::fit_name(name, usize::from(room.saturating_sub(used)));
        left.push(Span::styled(fitted, if to_move { bold } else { dim }));
    }
    buf.set_line(area.x, y, &Line::from(left), room);
    let arrived = h
        .arrived
        .filter(|(board, p, _)| *board == b && p.color == color)
        .map(|(_, p, _)| p.role);
    let (fg, outline, square) = match color {
        Color::White => (theme.white_piece, theme.white_outline, theme.dark),
        Color::Black => (theme.black_piece, theme.black_outline, theme.light),
    };
    for (i, ((role, r), (_, count))) in cells.iter().zip(&pocket).enumerate() {
        let piece = Piece { color, role: *role };
        let mut bg = square;
        if arrived == Some(*role) {
            bg = theme.hint;
        }
        if picking && h.pick.drop == Some(*role) {
            bg = theme.selected;
        }
        if picking && h.pick.in_pocket && h.pick.pocket == i {
            bg = theme.cursor;
        }
        let st = Style::default().fg(fg).bg(bg).add_modifier(Modifier::BOLD);
        if r.height > 1 {
            // A square of the board's size: the piece as the board draws
            // it, the count in the bottom-right corner.
            buf.set_style(*r, Style::default().bg(bg));
            if sprite_fit(r.width, r.height).is_some() && !ascii {
                draw_sprite(buf, *r, *role, fg, outline, bg);
            } else {
                buf.set_string(
                    r.x + r.width / 2,
                    r.y + r.height / 2,
                    glyph(piece, ascii).encode_utf8(&mut [0; 4]),
                    st,
                );
            }
            if *count > 1 {
                let n = format!("×{count}");
                let w = n.chars().count() as u16;
                buf.set_string(
                    (r.x + r.width).saturating_sub(w),
                    r.y + r.height - 1,
                    n,
                    Style::default()
                        .fg(theme.accent)
                        .bg(theme.background)
                        .add_modifier(Modifier::BOLD),
                );
            }
        } else {
            let mut text = String::with_capacity(8);
            text.push(' ');
            text.push(glyph(piece, ascii));
            if *count > 1 {
                text.push_str(&count.to_string());
            }
            text.push(' ');
            buf.set_stringn(r.x, r.y, text, usize::from(r.width), st);
        }
    }
    if let Some(c) = clock {
        let w = c.chars().count() as u16;
        if w < area.width {
            let st = if to_move && h.live.as_ref().is_some_and(|l| !l.is_over()) {
                Style::default()
                    .fg(theme.background)
                    .bg(theme.accent)
                    .add_modifier(Modifier::BOLD)
            } else if to_move {
                bold
            } else {
                dim
            };
            buf.set_string(area.x + area.width - w, y, c, st);
        }
    }
}

/// The moves (time order, the current one highlighted) and the messages.
fn draw_panel(buf: &mut Buffer, app: &Shared, h: &HouseReplay, show: &Show, area: Rect) {
    let theme = app.theme();
    let chat = h.chat_so_far();
    let standing = h.live.as_ref().map(|l| l.standing()).unwrap_or_default();
    let (moves_area, chat_area) = panel_split(area, show, chat.len() + standing.len());
    // The analysis under the moves, when on; else the search of the engine
    // that plays on the watched board.
    let (analysis, title, note) = panel_analysis(h, show, area.width);
    let (moves_area, analysis_area) = match analysis {
        Some(_) if moves_area.height >= 10 => {
            let ah = (moves_area.height / 3).clamp(5, 12);
            (
                Rect::new(
                    moves_area.x,
                    moves_area.y,
                    moves_area.width,
                    moves_area.height - ah,
                ),
                Some(Rect::new(
                    moves_area.x,
                    moves_area.y + moves_area.height - ah,
                    moves_area.width,
                    ah,
                )),
            )
        }
        _ => (moves_area, None),
    };
    if let (Some(a), Some(r)) = (analysis, analysis_area) {
        draw_analysis(buf, theme, a, &title, note.as_deref(), r);
    }
    draw_house_moves(buf, theme, h, show, moves_area);
    if let Some(chat_area) = chat_area {
        draw_chat(
            buf,
            theme,
            show,
            h.live.as_deref(),
            &chat,
            &standing,
            chat_area,
        );
    }
}

/// The panel's room for the moves and, in Bughouse, for the partners'
/// messages (`chat` of them so far): below the moves in a tall panel,
/// beside them in a wide one.
fn panel_split(area: Rect, show: &Show, chat: usize) -> (Rect, Option<Rect>) {
    let bughouse = show.kind == VariantKind::Bughouse;
    if bughouse && area.height >= 12 {
        let chat_h = (chat as u16 + 2).clamp(4, area.height / 3);
        (
            Rect::new(area.x, area.y, area.width, area.height - chat_h),
            Some(Rect::new(
                area.x,
                area.y + area.height - chat_h,
                area.width,
                chat_h,
            )),
        )
    } else if bughouse && area.width >= 60 && area.height >= 3 {
        let chat_w = (area.width / 3).min(50);
        (
            Rect::new(area.x, area.y, area.width - chat_w, area.height),
            Some(Rect::new(
                area.x + area.width - chat_w,
                area.y,
                chat_w,
                area.height,
            )),
        )
    } else if bughouse && area.height >= 7 {
        // Small: the newest message on a line under the moves.
        (
            Rect::new(area.x, area.y, area.width, area.height - 3),
            Some(Rect::new(area.x, area.y + area.height - 3, area.width, 3)),
        )
    } else {
        (area, None)
    }
}

/// The lines to show under the moves, their title and a note: the
/// analysis when on, else the search of the engine that plays on the
/// watched board (noted when it plays at a level below full strength,
/// which may then play another move: the move it chose, once it moved).
fn panel_analysis<'a>(
    h: &'a HouseReplay,
    show: &Show,
    width: u16,
) -> (
    Option<&'a crate::ui::house::live::Analysis>,
    String,
    Option<String>,
) {
    let live = h.live.as_ref();
    match live.and_then(|l| l.analysis.as_ref()) {
        Some(a) => {
            let t = if show.kind == VariantKind::Bughouse {
                format!("Analysis, board {}", if a.board == 0 { 'A' } else { 'B' })
            } else {
                "Analysis".to_string()
            };
            (Some(a), t, None)
        }
        None => match live.and_then(|l| l.search.as_ref()) {
            Some((seat, a)) => {
                let (b, c) = crate::ui::house::live::seat_of(*seat);
                let name = show
                    .players
                    .get(b)
                    .map_or(String::new(), |p| p[usize::from(c == Color::Black)].clone());
                let note = live.and_then(|l| weak_note(l, show, *seat, a));
                // The box's title: "Search: " between its corners.
                let name = crate::ui::text::fit_name(&name, usize::from(width.saturating_sub(12)));
                (Some(a), format!("Search: {name}"), note)
            }
            None => (None, String::new(), None),
        },
    }
}

/// For an engine playing below full strength: the search shown is its
/// level's, and the move it chose once it moved ("level 2 played Nf3"),
/// else that it may play another move than the line's first.
fn weak_note(
    l: &crate::ui::house::live::Live,
    show: &Show,
    seat: usize,
    a: &crate::ui::house::live::Analysis,
) -> Option<String> {
    use crate::ui::house::live::Player;
    use crate::ui::player::EngineSpec;
    let (b, c) = crate::ui::house::live::seat_of(seat);
    let level = match l.player(b, c) {
        Player::Engine(EngineSpec::BuiltIn { level })
            if *level < crate::engine::Level::MAX.get() =>
        {
            *level
        }
        _ => return None,
    };
    // It moved once its side is no longer to move on the board searched:
    // its move is the board's last.
    let played = (b == a.board && l.board(b).turn() != c)
        .then(|| {
            show.moves
                .iter()
                .rev()
                .find(|m| m.board == b && m.color == c)
        })
        .flatten();
    Some(match played {
        Some(m) => format!("level {level}'s search; it played {}", m.san),
        None => format!("level {level}'s search: it may play another move"),
    })
}

/// The analysis box: a note, the point of view, then depth, score, nodes
/// and line, deepest first.
fn draw_analysis(
    buf: &mut Buffer,
    theme: &Theme,
    a: &crate::ui::house::live::Analysis,
    title: &str,
    note: Option<&str>,
    r: Rect,
) {
    let blk = block(title, theme);
    let mut inner = blk.inner(r);
    blk.render_ref(r, buf);
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default().fg(theme.accent);
    for (text, st) in [(note, accent), (Some("scores: White's view"), dim)] {
        let Some(text) = text else { continue };
        // Wrapped on words, leaving a row for the lines.
        let chars: Vec<char> = text.chars().collect();
        for row in crate::ui::text::wrap_ranges(&chars, usize::from(inner.width)) {
            if inner.height <= 1 {
                break;
            }
            let piece: String = chars[row].iter().collect();
            buf.set_stringn(inner.x, inner.y, piece, usize::from(inner.width), st);
            inner.y += 1;
            inner.height -= 1;
        }
    }
    let lines: Vec<Line> = a
        .lines
        .iter()
        .rev()
        .take(inner.height as usize)
        .map(|(depth, score, nodes, line)| {
            Line::from(vec![
                Span::styled(format!("{depth:>2} "), Style::default().fg(theme.dim)),
                Span::styled(
                    format!("{:>6} ", score_text(*score)),
                    Style::default().fg(theme.text).add_modifier(Modifier::BOLD),
                ),
                Span::styled(
                    format!("{:>6} ", short_count(*nodes)),
                    Style::default().fg(theme.dim),
                ),
                Span::styled(line.clone(), Style::default().fg(theme.text)),
            ])
        })
        .collect();
    if lines.is_empty() {
        Paragraph::new(Span::styled("thinking...", Style::default().fg(theme.dim)))
            .render_ref(inner, buf);
    } else {
        Paragraph::new(lines).render_ref(inner, buf);
    }
}

/// The moves box: the start, then every move, wrapped into columns of
/// cells, the rows around the current move shown.
fn draw_house_moves(buf: &mut Buffer, theme: &Theme, h: &HouseReplay, show: &Show, area: Rect) {
    let title = match show.kind {
        VariantKind::Bughouse => "Bughouse moves",
        _ => "Crazyhouse moves",
    };
    let blk = block(title, theme);
    let inner = blk.inner(area);
    blk.render_ref(area, buf);
    let cell_w: u16 = if show.kind == VariantKind::Bughouse {
        13
    } else {
        12
    };
    let per_row = (inner.width / cell_w).max(1) as usize;
    let rows = show.moves.len().div_ceil(per_row);
    let current_row = h.cursor.saturating_sub(1) / per_row;
    let visible = inner.height as usize;
    let first = if visible == 0 {
        0
    } else {
        current_row
            .saturating_sub(visible.saturating_sub(1) / 2)
            .min(rows.saturating_sub(visible))
    };
    // Straight into the buffer: a frame is drawn many times a second.
    let w = cell_w - 1;
    for (r, row) in (first..rows).take(visible).enumerate() {
        let y = inner.y + r as u16;
        for (k, i) in (row * per_row..((row + 1) * per_row).min(show.moves.len())).enumerate() {
            let x = inner.x + k as u16 * cell_w;
            let room = (inner.x + inner.width).saturating_sub(x).min(w);
            if room == 0 {
                break;
            }
            let mut st = Style::default().fg(match show.moves[i].board {
                0 => theme.text,
                _ => theme.accent,
            });
            if show.kind == VariantKind::Crazyhouse {
                st = Style::default().fg(theme.text);
            }
            if i + 1 == h.cursor {
                st = st.bg(theme.selected).add_modifier(Modifier::BOLD);
            } else if i >= h.cursor {
                st = Style::default().fg(theme.dim);
            }
            buf.set_style(Rect::new(x, y, room, 1), st);
            buf.set_stringn(x, y, show.numbered(i), usize::from(room), st);
        }
    }
}

/// The partners' messages so far, the newest at the bottom.
fn draw_chat(
    buf: &mut Buffer,
    theme: &Theme,
    show: &Show,
    live: Option<&crate::ui::house::live::Live>,
    chat: &[&crate::ui::house::ShowChat],
    standing: &[(String, Vec<(String, String)>)],
    area: Rect,
) {
    let blk = block("Partners", theme);
    let mut inner = blk.inner(area);
    blk.render_ref(area, buf);
    // The requests that stand, one line per player who asked, on top (as
    // the bughouse clients show them); the messages below.
    for (who, what) in standing
        .iter()
        .take(inner.height.saturating_sub(1) as usize)
    {
        // In words when they fit, else the shorthand ("++n sit").
        let words: Vec<&str> = what.iter().map(|w| w.1.as_str()).collect();
        let words = words.join(" · ");
        let who = who.split(" (").next().unwrap_or(who);
        let who = if who == "You" {
            "You ask".to_string()
        } else {
            format!("{who} asks")
        };
        let text = if who.chars().count() + 2 + words.chars().count() <= inner.width as usize {
            words
        } else {
            what.iter()
                .map(|w| w.0.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let line = Line::from(vec![
            Span::styled(
                format!("{who}: "),
                Style::default()
                    .fg(theme.accent)
                    .add_modifier(Modifier::BOLD),
            ),
            Span::styled(text, Style::default().fg(theme.text)),
        ]);
        buf.set_line(inner.x, inner.y, &line, inner.width);
        inner.y += 1;
        inner.height -= 1;
    }
    if chat.is_empty() {
        buf.set_stringn(
            inner.x,
            inner.y,
            "no messages yet",
            usize::from(inner.width),
            Style::default().fg(theme.dim),
        );
        return;
    }
    // The newest at the bottom, long ones wrapped on words: the rows of
    // the newest messages that fit, wrapped straight into the buffer.
    let (name_st, text_st) = (
        Style::default().fg(theme.accent),
        Style::default().fg(theme.text),
    );
    let height = usize::from(inner.height);
    // Per message shown: its characters, where the text starts, its rows.
    let mut shown: Vec<(Vec<char>, usize, Vec<std::ops::Range<usize>>)> = Vec::new();
    let mut count = 0;
    for c in chat.iter().rev() {
        if count >= height {
            break;
        }
        // In a game being played, named from the person's side.
        let name = match live {
            Some(l) => l.short_name(c.from.0, c.from.1),
            None => show.seat_name(c.from.0, c.from.1),
        };
        let mut chars: Vec<char> = name.chars().collect();
        chars.extend([':', ' ']);
        let text_from = chars.len();
        chars.extend(c.text.chars());
        let rows = crate::ui::text::wrap_ranges(&chars, usize::from(inner.width));
        count += rows.len();
        shown.push((chars, text_from, rows));
    }
    let mut skip = count.saturating_sub(height);
    let mut y = inner.y;
    for (chars, text_from, rows) in shown.iter().rev() {
        for row in rows {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            for (k, i) in row.clone().take(usize::from(inner.width)).enumerate() {
                if let Some(cell) = buf.cell_mut((inner.x + k as u16, y)) {
                    cell.set_char(chars[i]).set_style(if i < *text_from {
                        name_st
                    } else {
                        text_st
                    });
                }
            }
            y += 1;
        }
    }
}

fn draw_house_status(buf: &mut Buffer, app: &Shared, h: &HouseReplay, show: &Show, area: Rect) {
    let theme = app.theme();
    if let Some(l) = &h.live {
        return draw_live_status(buf, app, h, l, show, area);
    }
    let line1 = if let Some(s) = &app.status {
        let st = match s.kind {
            StatusKind::Error => Style::default()
                .fg(theme.error)
                .add_modifier(Modifier::BOLD),
            StatusKind::Info => Style::default().fg(theme.text),
        };
        Line::from(Span::styled(s.text.clone(), st))
    } else {
        let mut spans = Vec::new();
        if h.cursor == 0 {
            spans.push(Span::styled(
                format!("{}: the start ({} moves)", show.title, show.moves.len()),
                Style::default().fg(theme.dim),
            ));
        } else {
            spans.push(Span::styled(
                show.describe_move(h.cursor - 1),
                Style::default().fg(theme.text),
            ));
        }
        if h.at_end() {
            let end = show
                .ending
                .clone()
                .unwrap_or_else(|| format!("Result {}", show.result));
            spans.push(Span::styled(
                format!("   {end}"),
                Style::default()
                    .fg(theme.accent)
                    .add_modifier(Modifier::BOLD),
            ));
        } else if let Some(c) = h.chat_so_far().last().filter(|c| c.after_moves == h.cursor) {
            spans.push(Span::styled(
                format!("   {}: {}", show.seat_name(c.from.0, c.from.1), c.text),
                Style::default().fg(theme.accent),
            ));
        }
        Line::from(spans)
    };
    super::overlays::draw_status_message(buf, theme, line1, area);
    let key = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let dim = Style::default().fg(theme.dim);
    let rk = |a: ReplayAction| {
        app.config
            .replay_keys
            .keys_for(a)
            .first()
            .cloned()
            .unwrap_or_else(|| "-".into())
    };
    let autoplay = if h.autoplay.is_some() {
        format!(" stop ({})  ", h.pace_text())
    } else {
        format!(" autoplay ({})  ", h.pace_text())
    };
    let mut spans = vec![
        Span::styled(
            format!("{}/{}", rk(ReplayAction::Previous), rk(ReplayAction::Next)),
            key,
        ),
        Span::styled(" step  ", dim),
        Span::styled(rk(ReplayAction::Autoplay), key),
        Span::styled(autoplay, dim),
        Span::styled(
            format!("{}/{}", rk(ReplayAction::Faster), rk(ReplayAction::Slower)),
            key,
        ),
        Span::styled(" speed  ", dim),
    ];
    if show.boards() == 2 {
        spans.push(Span::styled("Tab", key));
        spans.push(Span::styled(" big board  ", dim));
    }
    for (a, label) in [(Action::Flip, "flip"), (Action::Help, "help")] {
        spans.push(Span::styled(key_label(app, a), key));
        spans.push(Span::styled(format!(" {label}  "), dim));
    }
    if h.games.len() > 1 {
        spans.push(Span::styled(rk(ReplayAction::Games), key));
        spans.push(Span::styled(" games  ", dim));
    }
    spans.push(Span::styled("Esc", key));
    spans.push(Span::styled(" back  ", dim));
    spans.push(Span::styled(key_label(app, Action::Quit), key));
    spans.push(Span::styled(" quit", dim));
    Paragraph::new(Line::from(spans)).render_ref(Rect::new(area.x, area.y + 1, area.width, 1), buf);
}

/// The games of the file, when the list is open.
fn draw_list(buf: &mut Buffer, app: &Shared, h: &HouseReplay, area: Rect) {
    let Some(sel) = h.list else { return };
    let theme = app.theme();
    let w = (area.width.saturating_sub(4)).min(80);
    let rows = (h.games.len() as u16 + 2)
        .min(area.height.saturating_sub(2))
        .max(3);
    let r = centered(area, w, rows);
    Clear.render_ref(r, buf);
    let blk = block("Games: Enter shows, Esc closes", theme);
    let inner = blk.inner(r);
    blk.render_ref(r, buf);
    let visible = inner.height as usize;
    let first = sel.saturating_sub(visible.saturating_sub(1));
    for (row, i) in (first..h.games.len()).take(visible).enumerate() {
        let text = match &h.games[i] {
            Ok(s) => format!("{:>3}. {}", i + 1, s.title),
            Err(e) => format!("{:>3}. cannot be read: {e}", i + 1),
        };
        let mut st = Style::default().fg(theme.text);
        if i == sel {
            st = st.bg(theme.selected).add_modifier(Modifier::BOLD);
        }
        Paragraph::new(Span::styled(text, st)).render_ref(
            Rect::new(inner.x, inner.y + row as u16, inner.width, 1),
            buf,
        );
    }
}

/// The status lines of a game being played: the move being typed, news,
/// whose move it is; then the keys.
fn draw_live_status(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    l: &crate::ui::house::live::Live,
    show: &Show,
    area: Rect,
) {
    use crate::ui::house::live::seat_of;
    let theme = app.theme();
    let key = Style::default()
        .fg(theme.accent)
        .add_modifier(Modifier::BOLD);
    let dim = Style::default().fg(theme.dim);
    let status_span = app.status.as_ref().map(|s| {
        let st = match s.kind {
            StatusKind::Error => Style::default()
                .fg(theme.error)
                .add_modifier(Modifier::BOLD),
            StatusKind::Info => Style::default().fg(theme.text),
        };
        Span::styled(s.text.clone(), st)
    });
    let line1 = if h.pick.typing.shown() {
        let mut spans = vec![
            Span::styled("Move: ", Style::default().fg(theme.accent)),
            Span::styled(
                format!("{}▏", h.pick.typing.text),
                Style::default().fg(theme.text).add_modifier(Modifier::BOLD),
            ),
        ];
        if let Some(s) = status_span {
            spans.push(Span::raw("  "));
            spans.push(s);
        }
        Line::from(spans)
    } else if let Some(s) = status_span {
        Line::from(s)
    } else if let Some(e) = &l.ending {
        Line::from(Span::styled(
            e.clone(),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ))
    } else if let Some(s) = l.human_to_move() {
        let (b, c) = seat_of(s);
        let long = format!(
            "{} to move: type a move (e4, Nf3, N@f3) or pick with the cursor or mouse (your pocket: by your name)",
            l.seat_name(b, c)
        );
        // One row on a narrow screen, so the panel above keeps its rows.
        let text = if long.chars().count() <= usize::from(area.width) {
            long
        } else {
            format!(
                "{} to move: type a move (N@f3) or pick it",
                l.seat_name(b, c)
            )
        };
        Line::from(Span::styled(text, dim))
    } else if h.cursor > 0 {
        Line::from(Span::styled(
            show.describe_move(h.cursor - 1),
            Style::default().fg(theme.text),
        ))
    } else {
        Line::from(Span::styled("The engines think...", dim))
    };
    super::overlays::draw_status_message(buf, theme, line1, area);
    let mut spans = Vec::new();
    let mut push = |k: String, label: &str| {
        spans.push(Span::styled(k, key));
        spans.push(Span::styled(format!(" {label}  "), dim));
    };
    push(key_label(app, Action::Help), "help");
    let people = !l.human_seats().is_empty();
    if l.boards() == 2 && people {
        push("m".into(), "message");
    }
    // A finished game: no hint, takeback or resigning.
    let playing = people && !l.is_over();
    if playing {
        push(key_label(app, Action::Hint), "hint");
    }
    push(key_label(app, Action::Analyse), "analyse");
    push(key_label(app, Action::EvalBreakdown), "eval");
    push(key_label(app, Action::Explore), "explore");
    if l.boards() == 1 && playing {
        push(key_label(app, Action::Takeback), "takeback");
    }
    if playing {
        push(key_label(app, Action::Resign), "resign");
    }
    push(key_label(app, Action::Flip), "flip");
    push(key_label(app, Action::NewGame), "new");
    push(key_label(app, Action::Quit), "quit");
    Paragraph::new(Line::from(spans)).render_ref(Rect::new(area.x, area.y + 1, area.width, 1), buf);
}

/// 1234 -> "1234", 1234567 -> "1.2M".
fn short_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}
