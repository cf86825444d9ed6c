//! What the chess screens are drawn with: [`ChessView`] (the game, its
//! task and what every screen shares) and the drawing toolkit's names, the
//! bottom of the chess screens' drawing (it uses none of the files beside
//! it, so the panels of every task may use it).

pub(crate) use crate::ui::view::overlays::*;
pub(crate) use crate::ui::view::widgets::*;
pub(crate) use crate::ui::view::*;

/// A chess screen and what it is drawn with.
pub struct ChessView<'a> {
    pub ui: &'a Shared,
    pub s: &'a ChessGame,
    /// What the screen is for (a game, a replay, a trainer game, a drill).
    pub task: TaskView<'a>,
}

impl<'a> ChessView<'a> {
    /// The replayed file, on a replay screen.
    pub fn replay(&self) -> Option<&'a crate::ui::screens::chess::replay::Replay> {
        match self.task {
            TaskView::Replay(r) => Some(r),
            _ => None,
        }
    }

    /// The trainer's game, on the endgame trainer's screen.
    pub fn trainer(&self) -> Option<&'a crate::ui::screens::chess::game::TrainerGame> {
        match self.task {
            TaskView::Trainer(t) => Some(t),
            _ => None,
        }
    }

    /// The puzzle or Retry drill, on a drill's screen.
    pub fn drill(&self) -> Option<&'a crate::ui::screens::chess::drill::Drill> {
        match self.task {
            TaskView::Drill(d) => Some(d),
            _ => None,
        }
    }

    /// The repertoire drill, on its screen.
    pub fn repertoire(&self) -> Option<&'a crate::ui::screens::chess::repdrill::RepertoireDrill> {
        match self.task {
            TaskView::Repertoire(d) => Some(d),
            _ => None,
        }
    }

    /// The human may move now (never on a replay).
    pub fn human_to_move(&self) -> bool {
        self.replay().is_none() && self.s.human_to_move(self.ui)
    }

    /// Clock text for `color`: the game's clock, or on a replay the
    /// file's clock comments.
    pub fn clock_text(&self, color: Color, now: Instant) -> Option<String> {
        match self.replay() {
            Some(r) => r.clock_text(color),
            None => self.s.clock_text(color, now),
        }
    }
}

/// The name of the player of `c` from the game's headers ("White" or
/// "Black" when there is none).
pub(crate) fn player_name(app: &ChessView<'_>, c: Color) -> String {
    let key = match c {
        Color::White => "White",
        Color::Black => "Black",
    };
    app.s.game.header(key).unwrap_or(key).to_string()
}

/// The opening explorer for the position on the board, in `area`.
pub(crate) fn draw_openings_here(buf: &mut Buffer, app: &ChessView<'_>, area: Rect) {
    crate::ui::openings::draw::draw_openings(
        buf,
        &app.ui.openings,
        app.s.board().chess(),
        app.s.game.moves().len(),
        area,
        app.ui.theme(),
    );
}
