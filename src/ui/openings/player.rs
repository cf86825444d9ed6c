//! One player's tree in the explorer, as lichess' player explorer gives
//! it: `/` opens a box for the name (any part of the White or Black tag)
//! and the colour (Tab); the explorer then counts only that player's games
//! (read from the collections' PGN on the explorer's thread, with its
//! progress shown), until the box is emptied.

use super::OpeningsPanel;
use crate::db::build::PlayerFilter;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::Color;

/// The player's name and colour being typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerBox {
    pub name: String,
    pub color: Option<Color>,
}

/// Where one player's games stand.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerStatus {
    /// Being read: the share of the files read.
    Reading(f64),
    /// Read: the player's games.
    Ready(u64),
    /// Could not be read, and why.
    Failed(String),
}

/// The player the explorer is limited to.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerView {
    pub filter: PlayerFilter,
    pub status: PlayerStatus,
}

/// What a key did to the player box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoxKey {
    /// Still typing.
    Typing,
    /// Closed, nothing changed.
    Cancelled,
    /// Closed: the explorer is limited to this player (none: every game).
    Chosen(Option<PlayerFilter>),
}

/// "Morphy as White", "Morphy" (either colour).
pub fn describe(f: &PlayerFilter) -> String {
    match f.color {
        Some(Color::White) => format!("{} as White", f.name),
        Some(Color::Black) => format!("{} as Black", f.name),
        None => f.name.clone(),
    }
}

impl PlayerBox {
    /// The colour choice as the box shows it.
    pub fn color_text(&self) -> &'static str {
        match self.color {
            Some(Color::White) => "as White",
            Some(Color::Black) => "as Black",
            None => "either colour",
        }
    }
}

impl OpeningsPanel {
    /// Opens the player box, holding the player shown now.
    pub fn open_player_box(&mut self) {
        self.player_box = Some(match &self.player {
            Some(p) => PlayerBox {
                name: p.filter.name.clone(),
                color: p.filter.color,
            },
            None => PlayerBox::default(),
        });
    }

    /// A key for the player box (it takes every key while open).
    pub fn player_box_key(&mut self, k: KeyEvent) -> BoxKey {
        let Some(b) = &mut self.player_box else {
            return BoxKey::Cancelled;
        };
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        match k.code {
            KeyCode::Esc => {
                self.player_box = None;
                return BoxKey::Cancelled;
            }
            KeyCode::Enter => {
                let name = b.name.trim().to_string();
                let filter = (!name.is_empty()).then_some(PlayerFilter {
                    name,
                    color: b.color,
                });
                self.player_box = None;
                self.set_player(filter.clone());
                return BoxKey::Chosen(filter);
            }
            KeyCode::Tab | KeyCode::BackTab => {
                let order = [None, Some(Color::White), Some(Color::Black)];
                let i = order.iter().position(|c| *c == b.color).unwrap_or(0);
                let step = if k.code == KeyCode::Tab { 1 } else { 2 };
                b.color = order[(i + step) % 3];
            }
            KeyCode::Backspace => {
                b.name.pop();
            }
            KeyCode::Char('u') if ctrl => b.name.clear(),
            KeyCode::Char(c) if !ctrl && b.name.chars().count() < 40 => b.name.push(c),
            _ => {}
        }
        BoxKey::Typing
    }

    /// Limits the explorer to one player's games (none: every game); the
    /// position is asked for again.
    pub fn set_player(&mut self, filter: Option<PlayerFilter>) {
        if self.player.as_ref().map(|p| &p.filter) == filter.as_ref() {
            return;
        }
        self.player = filter.map(|filter| PlayerView {
            filter,
            status: PlayerStatus::Reading(0.0),
        });
        self.asked = None;
        self.selected = 0;
    }
}
