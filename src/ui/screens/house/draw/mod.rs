//! The Crazyhouse/Bughouse screen: one or two boards with their pockets,
//! players and clocks, the moves in the order they were made, the
//! partners' messages, and the status line.
//!
//! This file lays the screen out and puts the eval bar beside the main
//! board; the parts are drawn by the modules below.

use super::{HouseReplay, Playing};
use crate::ui::layout::{HOUSE_MIN_H, HOUSE_MIN_W};
use crate::ui::view::*;

mod analysis;
mod boards;
mod games;
mod panel;
mod partners;
mod status;

use boards::draw_one;
use games::draw_list;
use panel::draw_panel;
use status::draw_house_status;

pub(crate) fn draw_house(
    buf: &mut Buffer,
    app: &Shared,
    h: &HouseReplay,
    p: Option<Playing<'_>>,
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
    let Some(l) = h.layout(area, p.is_some()) else {
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
            draw_one(buf, app, h, p, show, b, pos, place, now);
        }
    }
    if let Some(bar) = l.eval_bar {
        crate::ui::view::evalbar::paint_eval_bar(
            buf,
            app.theme(),
            bar,
            house_score(h, p),
            h.bottom(h.main) == Color::Black,
        );
    }
    if let Some(panel) = l.panel {
        draw_panel(buf, app, h, p, show, panel);
    }
    draw_house_status(buf, app, h, p, show, l.status);
    draw_list(buf, app, h, area);
}

/// The score beside the main board (White's view): the analysis of that
/// board when on, else the search of the engine playing there.
fn house_score(h: &HouseReplay, p: Option<Playing<'_>>) -> Option<crate::engine::Score> {
    let l = p?.live;
    l.assistant
        .analysis
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
