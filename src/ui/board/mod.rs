//! The one board component: what a person does on a board, whatever the
//! screen and the variant. The cursor (on a square, or in the pocket row
//! of a drop variant), the piece picked up or the pocket piece to drop, a
//! mouse drag, and the choice a click or Enter makes of them.
//!
//! It knows the rules only through [`Rules`] (chess, Crazyhouse and each
//! Bughouse board implement it) and says what happened as an [`Intent`]:
//! the screen plays the move, opens the promotion prompt, or shows the
//! words. So the play screen, the trainer, the drills and the Crazyhouse
//! and Bughouse boards share one piece of input code, and a fix to it is a
//! fix everywhere.

use crate::game::notation::role_name;
use crate::ui::keymap::Action;
use crate::ui::text::shown_to;
use shakmaty::variant::Crazyhouse;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

/// The rules a board is played by, as the board component asks them: a
/// shakmaty position, and the drops of a variant that has them.
pub trait Rules: Position {
    /// The legal moves of the piece on `from`.
    fn moves_from(&self, from: Square) -> Vec<Move> {
        self.legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from))
            .collect()
    }
    /// The pieces `color` holds in hand (drop variants), in pocket order.
    fn pocket(&self, color: Color) -> Vec<(Role, u8)> {
        let _ = color;
        Vec::new()
    }
    /// The drop of `role` on `to`, or why it is not legal.
    fn drop_move(&self, role: Role, to: Square) -> Result<Move, String> {
        let _ = to;
        Err(format!("There is no {} in hand.", role_name(role)))
    }
}

impl Rules for Chess {}

impl Rules for Crazyhouse {
    fn pocket(&self, color: Color) -> Vec<(Role, u8)> {
        crate::variant::rules::pocket_of(self, color)
    }
    fn drop_move(&self, role: Role, to: Square) -> Result<Move, String> {
        crate::variant::rules::check_drop(self, role, to).map_err(|e| e.to_string())
    }
}

/// What a key or click on the board comes to, for the screen to carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Nothing to do (the component's own state changed, if anything).
    Nothing,
    /// A piece was picked up or put back: old words on screen are stale.
    Picked,
    /// Play this move.
    Play(Move),
    /// A pawn reaches the last rank: ask which piece it becomes.
    Promote { from: Square, to: Square },
    /// Something to tell the player.
    Info(String),
    /// A choice that cannot be played, and why.
    Error(String),
}

/// The state of one board's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardInput {
    /// The cursor's square (kept while the cursor is in the pocket).
    pub cursor: Square,
    /// The cursor is in the pocket row, on piece `pocket` (drop variants).
    pub in_pocket: bool,
    pub pocket: usize,
    /// A piece picked up on the board (its square)...
    pub selected: Option<Square>,
    /// ...or a piece taken from the pocket to drop.
    pub drop: Option<Role>,
    /// A mouse drag in progress: from square, and whether the piece was
    /// already picked up when the button went down.
    drag: Option<(Square, bool)>,
    /// The move being typed.
    pub typing: MoveBox,
}

impl Default for BoardInput {
    fn default() -> Self {
        BoardInput::at(Square::E2)
    }
}

impl BoardInput {
    /// The cursor on `square`, nothing picked up.
    pub fn at(square: Square) -> BoardInput {
        BoardInput {
            cursor: square,
            in_pocket: false,
            pocket: 0,
            selected: None,
            drop: None,
            drag: None,
            typing: MoveBox::default(),
        }
    }

    /// Puts down whatever was picked up (a move was made, or undone).
    pub fn clear(&mut self) {
        self.selected = None;
        self.drop = None;
        self.drag = None;
    }

    /// An arrow key (`flipped`: Black at the bottom). Below the first rank
    /// the cursor goes into the pocket when `held` pieces are in it.
    pub fn move_cursor(&mut self, a: Action, flipped: bool, held: usize) {
        if self.in_pocket {
            match a {
                Action::Left => self.pocket = self.pocket.saturating_sub(1),
                Action::Right => self.pocket = (self.pocket + 1).min(held.saturating_sub(1)),
                Action::Up => self.in_pocket = false,
                _ => {}
            }
            return;
        }
        // Screen directions: up is away from the player at the bottom.
        let (df, dr): (i32, i32) = match a {
            Action::Up => (0, 1),
            Action::Down => (0, -1),
            Action::Left => (-1, 0),
            Action::Right => (1, 0),
            _ => return,
        };
        let (df, dr) = if flipped { (-df, -dr) } else { (df, dr) };
        let f = self.cursor.file() as i32 + df;
        let r = self.cursor.rank() as i32 + dr;
        if (0..8).contains(&f) && (0..8).contains(&r) {
            self.cursor =
                Square::from_coords(shakmaty::File::new(f as u32), shakmaty::Rank::new(r as u32));
        } else if a == Action::Down && held > 0 {
            self.in_pocket = true;
            self.pocket = self.pocket.min(held - 1);
        }
    }

    /// Enter or Space where the cursor is: the square, or the pocket piece.
    pub fn choose_at_cursor(&mut self, rules: &impl Rules) -> Intent {
        if self.in_pocket {
            let held = rules.pocket(rules.turn());
            return match held.get(self.pocket) {
                Some(&(role, _)) => self.take_from_pocket(role, self.pocket),
                None => Intent::Nothing,
            };
        }
        self.choose(self.cursor, rules)
    }

    /// Takes the `index`th pocket piece, `role`, to drop it.
    pub fn take_from_pocket(&mut self, role: Role, index: usize) -> Intent {
        self.drop = Some(role);
        self.selected = None;
        self.in_pocket = false;
        self.pocket = index;
        Intent::Info(format!("Drop a {}: pick an empty square.", role_name(role)))
    }

    /// A square chosen (click, or Enter on the cursor) by the player to
    /// move: pick up a piece, move the one picked up, drop the pocket
    /// piece, or put it back.
    pub fn choose(&mut self, sq: Square, rules: &impl Rules) -> Intent {
        self.cursor = sq;
        self.in_pocket = false;
        if let Some(role) = self.drop.take() {
            return match rules.drop_move(role, sq) {
                Ok(m) => Intent::Play(m),
                Err(e) => Intent::Error(e),
            };
        }
        if let Some(from) = self.selected {
            if from == sq {
                self.selected = None;
                return Intent::Picked;
            }
            let moves: Vec<Move> = rules
                .moves_from(from)
                .into_iter()
                .filter(|m| shown_to(*m) == sq || m.to() == sq)
                .collect();
            if moves.iter().any(|m| m.is_promotion()) {
                return Intent::Promote { from, to: sq };
            }
            if let Some(&m) = moves.first() {
                self.selected = None;
                return Intent::Play(m);
            }
        }
        let turn = rules.turn();
        match rules.board().piece_at(sq) {
            Some(p) if p.color == turn => {
                if rules.moves_from(sq).is_empty() {
                    self.selected = None;
                    Intent::Error(format!(
                        "The {} on {sq} has no legal move.",
                        role_name(p.role)
                    ))
                } else {
                    self.selected = Some(sq);
                    Intent::Picked
                }
            }
            _ => match self.selected.take() {
                Some(from) => Intent::Error(format!("{from}{sq} is not a legal move.")),
                None if !rules.pocket(turn).is_empty() => Intent::Info(
                    "Pick one of your pieces, or a piece from your pocket \
                     (move the cursor below the board)."
                        .into(),
                ),
                None => Intent::Nothing,
            },
        }
    }

    /// The left button goes down on `sq` (the player to move): a piece
    /// picked up may be dragged.
    pub fn press(&mut self, sq: Square, rules: &impl Rules) -> Intent {
        if self.selected == Some(sq) {
            // On the picked-up piece: a drag, or a click that puts it back
            // (decided on release).
            self.drag = Some((sq, true));
            return Intent::Nothing;
        }
        let intent = self.choose(sq, rules);
        self.drag = (self.selected == Some(sq)).then_some((sq, false));
        intent
    }

    /// The left button comes up over `sq` (none: off the board).
    pub fn release(&mut self, sq: Option<Square>, rules: &impl Rules) -> Intent {
        let Some((from, was_selected)) = self.drag.take() else {
            return Intent::Nothing;
        };
        match sq {
            Some(to) if to == from => {
                // A click on the picked-up piece puts it back.
                if was_selected {
                    self.selected = None;
                }
                Intent::Nothing
            }
            Some(to) if self.selected == Some(from) => self.choose(to, rules),
            _ => Intent::Nothing,
        }
    }

    /// The right button: put down whatever was picked up.
    pub fn right_click(&mut self) {
        self.clear();
    }

    /// The squares the picked-up piece can go to (shown on the board).
    pub fn destinations(&self, rules: &impl Rules) -> Vec<Square> {
        self.selected.map_or_else(Vec::new, |from| {
            rules.moves_from(from).into_iter().map(shown_to).collect()
        })
    }
}

#[cfg(test)]
mod tests;
mod typing;
pub use typing::{BoxKey, MoveBox};
