//! The Crazyhouse/Bughouse screen: one or two boards with their pockets,
//! players and clocks, the moves in the order they were made, the
//! partners' messages, and the status line.

use super::board::paint_board;
use super::widgets::{block, key_label};
use super::*;
use crate::ui::clock::format_clock;
use crate::ui::house::{HouseReplay, Show};
use crate::ui::keymap::ReplayAction;
use crate::ui::layout::{HOUSE_MIN_H, HOUSE_MIN_W, HouseBoard, house_layout};
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
    let Some(l) = house_layout(area, n) else {
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
        if let Some(f) = h.pick.from {
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
        } else if let Some(f) = h.pick.from {
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
            let r = place.board.rect_of(h.pick.square, flipped);
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
    for (color, line) in [(!bottom, place.top), (bottom, place.bottom)] {
        let mover = picking.filter(|&(_, c)| c == color).is_some();
        info_line(buf, app, h, show, b, color, pos, line, mover, now);
    }
}

/// "A ▶ Name        ♛ ♞2 ♟3  0:57.0" for `color` on board `b`; `picking`:
/// this is the person to move, whose pocket shows the cursor and the piece
/// taken to drop.
#[allow(clippy::too_many_arguments)]
fn info_line(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    show: &Show,
    b: usize,
    color: Color,
    pos: &Crazyhouse,
    area: Rect,
    picking: bool,
    now: Instant,
) {
    let theme = app.theme();
    let ascii = app.ascii || theme.ascii;
    let to_move = pos.turn() == color;
    let dim = Style::default().fg(theme.dim);
    let bold = Style::default().fg(theme.text).add_modifier(Modifier::BOLD);
    let clock = h.clock(b, color, now).map(format_clock);
    let pocket = crate::ui::house::pocket_of(pos, color);
    let cells = crate::ui::house::pocket_cells(area, &pocket, clock.as_deref());
    let name_end = cells
        .first()
        .map_or(area.x + area.width, |(_, r)| r.x.saturating_sub(1));
    let mut left = Vec::new();
    if show.kind == VariantKind::Bughouse {
        left.push(Span::styled(
            format!("{} ", if b == 0 { 'A' } else { 'B' }),
            Style::default()
                .fg(theme.accent)
                .add_modifier(Modifier::BOLD),
        ));
    }
    left.push(Span::styled(
        if to_move { "▶ " } else { "  " },
        Style::default().fg(theme.accent),
    ));
    let name = show
        .players
        .get(b)
        .map(|p| p[usize::from(color == Color::Black)].clone())
        .unwrap_or_default();
    left.push(Span::styled(name, if to_move { bold } else { dim }));
    Paragraph::new(Line::from(left)).render_ref(
        Rect::new(area.x, area.y, name_end.saturating_sub(area.x), 1),
        buf,
    );
    let arrived = h
        .arrived
        .filter(|(board, p, _)| *board == b && p.color == color)
        .map(|(_, p, _)| p.role);
    for (i, ((role, r), (_, count))) in cells.iter().zip(&pocket).enumerate() {
        let piece = Piece { color, role: *role };
        let (fg, bg) = match color {
            Color::White => (theme.white_piece, theme.dark),
            Color::Black => (theme.black_piece, theme.light),
        };
        let mut st = Style::default().fg(fg).bg(bg).add_modifier(Modifier::BOLD);
        if arrived == Some(*role) {
            st = st.bg(theme.hint);
        }
        if picking && h.pick.drop == Some(*role) {
            st = st.bg(theme.selected);
        }
        if picking && h.pick.in_pocket && h.pick.pocket == i {
            st = st.bg(theme.cursor);
        }
        let text = if *count > 1 {
            format!(" {}{count} ", glyph(piece, ascii))
        } else {
            format!(" {} ", glyph(piece, ascii))
        };
        buf.set_string(r.x, r.y, text, st);
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
            buf.set_string(area.x + area.width - w, area.y, c, st);
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
    let (analysis, title) = panel_analysis(h, show);
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
        draw_analysis(buf, theme, a, &title, r);
    }
    draw_house_moves(buf, theme, h, show, moves_area);
    if let Some(chat_area) = chat_area {
        draw_chat(buf, theme, show, &chat, &standing, chat_area);
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
    } else {
        (area, None)
    }
}

/// The lines to show under the moves and their title: the analysis when
/// on, else the search of the engine that plays on the watched board.
fn panel_analysis<'a>(
    h: &'a HouseReplay,
    show: &Show,
) -> (Option<&'a crate::ui::house::live::Analysis>, String) {
    let live = h.live.as_ref();
    match live.and_then(|l| l.analysis.as_ref()) {
        Some(a) => {
            let t = if show.kind == VariantKind::Bughouse {
                format!("Analysis, board {}", if a.board == 0 { 'A' } else { 'B' })
            } else {
                "Analysis".to_string()
            };
            (Some(a), t)
        }
        None => match live.and_then(|l| l.search.as_ref()) {
            Some((seat, a)) => {
                let (b, c) = crate::ui::house::live::seat_of(*seat);
                let name = show
                    .players
                    .get(b)
                    .map_or(String::new(), |p| p[usize::from(c == Color::Black)].clone());
                (Some(a), format!("Search: {name}"))
            }
            None => (None, String::new()),
        },
    }
}

/// The analysis box: depth, score, nodes and line, deepest first.
fn draw_analysis(
    buf: &mut Buffer,
    theme: &Theme,
    a: &crate::ui::house::live::Analysis,
    title: &str,
    r: Rect,
) {
    let blk = block(title, theme);
    let inner = blk.inner(r);
    blk.render_ref(r, buf);
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
    for (r, row) in (first..rows).take(visible).enumerate() {
        let mut spans = Vec::new();
        for i in row * per_row..((row + 1) * per_row).min(show.moves.len()) {
            let text = show.numbered(i);
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
            let w = cell_w as usize;
            let cut: String = text.chars().take(w - 1).collect();
            spans.push(Span::styled(format!("{cut:<w$}", w = w - 1), st));
            spans.push(Span::raw(" "));
        }
        Paragraph::new(Line::from(spans))
            .render_ref(Rect::new(inner.x, inner.y + r as u16, inner.width, 1), buf);
    }
}

/// The partners' messages so far, the newest at the bottom.
fn draw_chat(
    buf: &mut Buffer,
    theme: &Theme,
    show: &Show,
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
    let lines: Vec<Line> = chat
        .iter()
        .rev()
        .take(inner.height as usize)
        .rev()
        .map(|c| {
            Line::from(vec![
                Span::styled(
                    format!("{}: ", show.seat_name(c.from.0, c.from.1)),
                    Style::default().fg(theme.accent),
                ),
                Span::styled(c.text.clone(), Style::default().fg(theme.text)),
            ])
        })
        .collect();
    if lines.is_empty() {
        Paragraph::new(Span::styled(
            "no messages yet",
            Style::default().fg(theme.dim),
        ))
        .render_ref(inner, buf);
    } else {
        // The newest at the bottom, long ones wrapped.
        let w = inner.width.max(1) as usize;
        let total: usize = lines.iter().map(|l| l.width().div_ceil(w).max(1)).sum();
        let total = total as u16;
        let p = Paragraph::new(lines).wrap(Wrap { trim: true });
        p.scroll((total.saturating_sub(inner.height), 0))
            .render_ref(inner, buf);
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
    let line1 = if !h.input.is_empty() {
        let mut spans = vec![
            Span::styled("Move: ", Style::default().fg(theme.accent)),
            Span::styled(
                format!("{}▏", h.input),
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
        Line::from(Span::styled(
            format!(
                "{} to move: type a move (e4, Nf3, N@f3) or pick with the cursor or mouse (below the board: your pocket)",
                l.seat_name(b, c)
            ),
            dim,
        ))
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
