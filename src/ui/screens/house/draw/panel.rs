//! The side panel of the Crazyhouse/Bughouse screen: how it is shared
//! between the moves, the analysis and the partners' messages, and the
//! moves box.

use super::analysis::{draw_analysis, panel_analysis};
use super::partners::draw_chat;
use super::*;
use crate::ui::screens::house::{HouseReplay, Playing, Show};
use crate::ui::view::widgets::block;
use crate::variant::VariantKind;

/// The moves (time order, the current one highlighted) and the messages.
pub(super) fn draw_panel(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    p: Option<Playing<'_>>,
    show: &Show,
    area: Rect,
) {
    let theme = app.theme();
    let live = p.map(|p| p.live);
    // In a game you play, your team's messages only.
    let mut chat = h.chat_so_far();
    if let Some(l) = live {
        chat.retain(|c| l.hears(crate::ui::seats::seat_index(c.from.0, c.from.1)));
    }
    let standing = live.map(|l| l.standing()).unwrap_or_default();
    let (moves_area, chat_area) = panel_split(area, show, chat.len() + standing.len());
    // The analysis under the moves, when on; else the search of the engine
    // that plays on the watched board.
    let (analysis, title, note) = panel_analysis(live, show, area.width);
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
        draw_chat(buf, theme, show, live, &chat, &standing, chat_area);
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
