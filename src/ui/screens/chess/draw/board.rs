//! The chess screens' board: the game's position, the last move, the
//! picked piece, hints and the cursor.

use crate::ui::screens::chess::draw::view::*;
use crate::ui::view::board::{Scene, draw_scene};
use shakmaty::Move;

pub(crate) fn draw_board(buf: &mut Buffer, app: &ChessView<'_>, g: &BoardGeometry) {
    let board = app.s.board();
    let last = app.s.game.moves().last().copied();
    let squares = |m: Move| {
        let mut v = vec![shown_to(m)];
        if let Some(f) = m.from() {
            v.push(f);
        }
        v
    };
    let scene = Scene {
        pieces: board.board(),
        last: last.map(squares).unwrap_or_default(),
        check: board
            .in_check()
            .then(|| board.board().king_of(board.turn()))
            .flatten(),
        dests: app.s.pick.destinations(board.chess()),
        hint: app
            .s
            .hint
            .as_ref()
            .filter(|h| h.ply == app.s.game.moves().len())
            .map(|h| squares(h.mv))
            .unwrap_or_default(),
        selected: app.s.pick.selected,
        cursor: app.human_to_move().then_some(app.s.pick.cursor),
    };
    draw_scene(buf, app.ui, g, &scene);
}
