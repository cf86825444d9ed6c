//! The boards of the Crazyhouse/Bughouse screen: each board with the
//! marks of a game being played (the picked piece, where it may go, the
//! cursor), and the players' strips above and below it: name, pocket and
//! clock.

use super::*;
use crate::ui::board::BoardInput;
use crate::ui::clock::format_clock;
use crate::ui::layout::HouseBoard;
use crate::ui::screens::house::live::Live;
use crate::ui::screens::house::{HouseReplay, Playing, Show};
use crate::ui::view::board::{draw_sprite, paint_board, sprite_fit};
use crate::variant::VariantKind;
use shakmaty::variant::Crazyhouse;

/// One board with its info lines.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_one(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    p: Option<Playing<'_>>,
    show: &Show,
    b: usize,
    pos: &Crazyhouse,
    place: &HouseBoard,
    now: Instant,
) {
    let theme = app.theme();
    let ascii = app.look.ascii || theme.ascii;
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
    let picking = p
        .and_then(|p| p.live.human_to_move().map(|s| (s, p.pick)))
        .map(|(s, pick)| (crate::ui::screens::house::live::seat_of(s), pick))
        .filter(|&((pb, _), _)| pb == b);
    if let Some((_, pick)) = picking {
        if let Some(f) = pick.selected {
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
        let dests: Vec<shakmaty::Square> = if let Some(role) = pick.drop {
            shakmaty::Square::ALL
                .into_iter()
                .filter(|&sq| crate::variant::rules::check_drop(pos, role, sq).is_ok())
                .collect()
        } else if let Some(f) = pick.selected {
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
        if !pick.in_pocket {
            let r = place.board.rect_of(pick.cursor, flipped);
            let m = Style::default()
                .fg(theme.cursor)
                .add_modifier(Modifier::BOLD);
            crate::ui::view::widgets::cursor_mark(buf, r, theme, m);
        }
    }
    for (color, strip, top) in [(!bottom, place.top, true), (bottom, place.bottom, false)] {
        let mover = picking
            .filter(|&((_, c), _)| c == color)
            .map(|(_, pick)| pick);
        let side = Side {
            b,
            color,
            strip,
            top,
            piece: place.pocket_piece(),
        };
        let live = p.map(|p| p.live);
        info_strip(buf, app, h, live, show, &side, pos, mover, now);
    }
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
/// pocket shows the cursor and the piece taken to drop (the board input).
#[allow(clippy::too_many_arguments)]
fn info_strip(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    live: Option<&Live>,
    show: &Show,
    side: &Side,
    pos: &Crazyhouse,
    picking: Option<&BoardInput>,
    now: Instant,
) {
    let (b, color, area) = (side.b, side.color, side.strip);
    if area.height == 0 {
        return;
    }
    let theme = app.theme();
    let ascii = app.look.ascii || theme.ascii;
    let to_move = pos.turn() == color;
    let dim = Style::default().fg(theme.dim);
    let bold = Style::default().fg(theme.text).add_modifier(Modifier::BOLD);
    // The name and clock row: the one away from the board.
    let y = if side.top {
        area.y
    } else {
        area.y + area.height - 1
    };
    let clock = h.clock(live, b, color, now).map(format_clock);
    let pocket = crate::ui::screens::house::pocket_of(pos, color);
    let cells =
        crate::ui::screens::house::pocket_cells(area, side.piece, &pocket, clock.as_deref());
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
        // In a Bughouse game you play, whose side each is: "Partner: Kibitz
        // level 4" and "Opponent: ..." (the same names otherwise).
        let role = live
            .filter(|l| l.boards() == 2 && l.human_seats().len() == 1)
            .map(|l| l.short_name(b, color))
            .filter(|r| r != "You");
        let name = match role {
            Some(r) => format!("{}: {name}", r.split(' ').next().unwrap_or(&r)),
            None => name.clone(),
        };
        let fitted =
            crate::ui::text::fit_name(&name, usize::from(room.saturating_sub(used))).to_string();
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
        if picking.is_some_and(|pick| pick.drop == Some(*role)) {
            bg = theme.selected;
        }
        if picking.is_some_and(|pick| pick.in_pocket && pick.pocket == i) {
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
            let st = if to_move && live.is_some_and(|l| !l.is_over()) {
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
