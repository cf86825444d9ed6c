//! Drawing the chess screens: the board, the eval bar, the panel of the
//! screen's task (the game, a replay, the trainer's game, a drill), the
//! status lines and the chess screens' own overlays.

use view::*;

mod board;
mod evalview;
mod panel;
pub(crate) mod search;
mod status;
pub mod view;

pub(crate) use board::draw_board;
pub(crate) use panel::draw_panel;
pub use panel::move_rows;
pub(crate) use status::*;
pub use view::ChessView;

/// The chess screen: board, eval bar, panel, status and its own overlays.
pub fn draw_chess(
    buf: &mut Buffer,
    area: Rect,
    ui: &Shared,
    s: &ChessGame,
    task: TaskView,
    now: Instant,
) {
    let app = &ChessView { ui, s, task };
    let l = layout(area);
    let Some(l) = l.filter(|_| !too_small(buf, area, ui, true)) else {
        too_small(buf, area, ui, false);
        return;
    };
    draw_board(buf, app, &l.board);
    if let Some(bar) = l.eval_bar {
        search::draw_eval_bar(buf, app, bar);
    }
    match app.replay() {
        Some(r) => {
            crate::ui::screens::chess::replay::draw::draw_replay_panel(buf, app, r, l.panel, now)
        }
        None => draw_panel(buf, app, l.panel, now),
    }
    draw_status(buf, app, l.status);
    let theme = ui.theme();
    match &ui.overlay {
        Overlay::Games { selected } => {
            if let Some(r) = app.replay() {
                crate::ui::screens::chess::replay::draw::draw_games(buf, app, r, *selected, area);
            }
        }
        Overlay::Eval { simple } => evalview::draw_eval(buf, app, *simple, area),
        Overlay::Promotion { choice, .. } => draw_promotion(buf, app, *choice, area),
        Overlay::DrawOffer => {
            let offering = color_name(s.board().turn());
            let answering = color_name(!s.board().turn());
            let line = format!("{offering} offers a draw. {answering}, do you accept?");
            draw_message(
                buf,
                theme,
                area,
                "Draw offer",
                &[&line, "", "y = accept    any other key = decline"],
            );
        }
        _ => {}
    }
}
