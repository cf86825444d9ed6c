//! The names the app's modules and the screens use everywhere: the UI's
//! shared state, the game and engine types, crossterm's events, ratatui's
//! buffer, shakmaty's pieces and squares. `use crate::ui::prelude::*`.

pub(crate) use crate::engine::{Board, Bound, Limits, Score};
pub(crate) use crate::game::library::{Library, Status as GameStatus};
pub(crate) use crate::game::review::MoveReview;
pub(crate) use crate::game::{Ending, Game, GameResult, Termination};
pub(crate) use crate::ui::clock::{Control, pgn_clock};
pub(crate) use crate::ui::config::{Config, TimeControl};
pub use crate::ui::input::{color_name, role_name};
pub(crate) use crate::ui::input::{could_begin_move, parse_move};
pub(crate) use crate::ui::keymap::begins_move;
pub(crate) use crate::ui::layout::{self, BoardGeometry};
pub use crate::ui::player::parse_limits;
pub(crate) use crate::ui::player::{EngineEvent, EngineSpec, Purpose, Request};
pub(crate) use crate::ui::player::{parse_spec_tag, spec_tag};
pub use crate::ui::screens::chess::drill::{Drill, DrillKind, DrillState, RetryItem};
pub use crate::ui::screens::chess::game::{
    ChessGame, OpeningName, Opponent, REPLY_DELAY, TaskView, TrainerGame,
};
pub use crate::ui::state::*;
pub use crate::ui::text::{capitalise, describe_ending, san_line, score_text, shown_to};
pub(crate) use crate::ui::theme::Theme;
pub(crate) use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
pub(crate) use ratatui::buffer::Buffer;
pub(crate) use ratatui::layout::Rect;
pub(crate) use shakmaty::{Color, Move, Position, Role, Square};
pub(crate) use std::path::PathBuf;
pub(crate) use std::time::{Duration, Instant};
