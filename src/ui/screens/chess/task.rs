//! What a chess screen is for. Playing a game, replaying a file, an
//! endgame-trainer game and a puzzle or Retry drill all show the same
//! [`ChessGame`] (board, engines, analysis, move list) and share its code;
//! each is a [`Task`] that holds what only its screen has, and whose hooks
//! decide what differs: the keys of its own, who answers a move, what a
//! move means, what is kept. A hook gets the whole screen at work
//! ([`Chess`]), so it may use everything the game component does.

use super::*;

/// The part of a chess screen that makes it this screen and not another.
/// Every hook has the behaviour of a game played as its default.
pub trait Task: Sized + 'static {
    /// The board takes moves (a replay steps through a file instead).
    const PLAYS: bool = true;
    /// Its game is one of yours, kept in a file: the frame marks it while
    /// it is not being saved.
    const KEPT: bool = true;
    /// The opening explorer may be shown (not where it would give the
    /// answer away: a puzzle, the endgame trainer).
    const OPENINGS: bool = true;

    /// What the drawing shows for this task.
    fn view(&self) -> TaskView<'_>;

    /// A key before the screen's own handling (the task's overlays and
    /// commands); true if it was taken.
    fn key(c: &mut Chess<'_, Self>, k: KeyEvent, now: Instant) -> bool {
        let _ = (c, k, now);
        false
    }

    /// A command of the key map before the screen's; true if taken.
    fn action(c: &mut Chess<'_, Self>, a: Action, now: Instant) -> bool {
        let _ = (c, a, now);
        false
    }

    /// A move chosen in the opening explorer (Enter): played as if typed.
    fn explorer_move(c: &mut Chess<'_, Self>, m: Move, now: Instant) {
        c.play_typed_move(m, now);
    }

    /// The position is done with (a drill solved or shown): nobody moves.
    fn finished(&self) -> bool {
        false
    }

    /// The opponent's turn: the engine is asked (a drill plays its line's
    /// reply, the trainer the table's).
    fn reply(c: &mut Chess<'_, Self>, now: Instant) {
        c.ask_engine(now);
    }

    /// Whether the move `m` may be played (a drill refuses a wrong one).
    fn allows(c: &mut Chess<'_, Self>, m: Move, now: Instant) -> bool {
        let _ = (c, m, now);
        true
    }

    /// After the move `m` was played from `before`.
    fn after_move(c: &mut Chess<'_, Self>, before: &Board, m: Move) {
        let _ = (c, before, m);
    }

    /// A hint for the human's move: the assistant engine's best line.
    fn hint(c: &mut Chess<'_, Self>, now: Instant) {
        c.engine_hint(now);
    }

    /// The human offers a draw (not claimable): the opponent answers.
    fn offer_draw(c: &mut Chess<'_, Self>, now: Instant) {
        c.offer_draw_to_opponent(now);
    }

    /// Words after "Game over: ..." (how to learn from it, a score).
    fn ending_note(c: &Chess<'_, Self>) -> String {
        let _ = c;
        String::new()
    }

    /// The game was written to its file: anything kept beside it.
    fn saved(c: &mut Chess<'_, Self>) {
        let _ = c;
    }

    /// Moves were taken back: forget what was said about them.
    fn took_back(c: &mut Chess<'_, Self>) {
        let _ = c;
    }

    /// The assistant judged a move the task asked about (`Purpose::Check`).
    fn checked(c: &mut Chess<'_, Self>, id: u64, score: Option<Score>, now: Instant) {
        let _ = (c, id, score, now);
    }

    /// A mouse event before the board's; true if taken.
    fn mouse(c: &mut Chess<'_, Self>, m: MouseEvent, now: Instant) -> bool {
        let _ = (c, m, now);
        false
    }

    /// Time passes.
    fn tick(c: &mut Chess<'_, Self>, now: Instant) {
        c.on_tick(now);
    }

    /// A message the game component did not take (files checked, reviews).
    fn message(c: &mut Chess<'_, Self>, msg: Msg, now: Instant) -> Option<Msg> {
        let _ = (c, now);
        Some(msg)
    }

    /// Another screen opened over this one (after the game paused).
    fn covered(c: &mut Chess<'_, Self>) {
        let _ = c;
    }

    /// The screen leaves: stop the task's background work.
    fn leave(c: &mut Chess<'_, Self>) {
        let _ = c;
    }

    /// A search found what the position at `ply` is worth (White's view).
    fn eval_noted(c: &mut Chess<'_, Self>, ply: usize, board: &Board, white: Score) {
        let _ = (c, ply, board, white);
    }

    /// The game as PGN for the clipboard.
    fn pgn(c: &Chess<'_, Self>) -> String {
        crate::game::write_pgn(&c.s.game)
    }

    /// The settings a new game (`n`) starts from: those of the last game
    /// played (this task's game is not one).
    fn new_game_settings(c: &Chess<'_, Self>) -> (Mode, EngineSpec, Option<TimeControl>) {
        match &c.ui.launch_setup {
            Some(l) => (l.mode, l.engine.clone(), l.time),
            None => (c.s.mode, c.s.opponent.spec.clone(), c.s.time),
        }
    }

    /// The game in progress a new game would leave, in words.
    fn game_in_progress(c: &ChessGame, task: &Self) -> Option<String> {
        let _ = (c, task);
        None
    }
}

/// Playing a game: against an engine, two engines, or two people.
#[derive(Clone, Copy, Debug, Default)]
pub struct Play;

impl Task for Play {
    fn view(&self) -> TaskView<'_> {
        TaskView::Play
    }

    fn new_game_settings(c: &Chess<'_, Self>) -> (Mode, EngineSpec, Option<TimeControl>) {
        (c.s.mode, c.s.opponent.spec.clone(), c.s.time)
    }

    /// A game of yours with a file: how to learn from it (the file picker
    /// lists the newest game first).
    fn ending_note(c: &Chess<'_, Self>) -> String {
        use crate::ui::keymap::ReplayAction;
        if c.s.file.path().is_none()
            || c.s.mode == Mode::EngineVsEngine
            || c.s.game.moves().len() < 10
        {
            return String::new();
        }
        format!(
            " To learn from it: {}, Enter opens it, {} reviews it, {}/{} retry White's/Black's mistakes.",
            c.ui.keys_hint(Action::Open),
            c.ui.replay_key_hint(ReplayAction::Review),
            c.ui.replay_key_hint(ReplayAction::RetryWhite),
            c.ui.replay_key_hint(ReplayAction::RetryBlack)
        )
    }

    fn game_in_progress(g: &ChessGame, _: &Self) -> Option<String> {
        if g.is_over() || g.game.moves().is_empty() {
            return None;
        }
        let progress = crate::ui::text::game_progress(&g.game);
        Some(match g.file.path() {
            Some(_) => format!(
                "your game after {progress} (it is saved: Kibitz offers it again when it starts)"
            ),
            None => {
                format!("your game after {progress}, which is not saved (Esc, then S saves it)")
            }
        })
    }
}
