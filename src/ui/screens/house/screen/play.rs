//! The keys and mouse of a Crazyhouse or Bughouse game in play: moves
//! typed or picked on the board component, drops, the commands (new game,
//! resign, takeback, the evaluation), the other board.

use super::*;
use crate::ui::board::{BoardInput, BoxKey, Intent};
use crate::ui::screens::house::live::seat_of;
use crate::ui::screens::house::pocket_of;

impl House<'_> {
    /// Keys of a live Crazyhouse/Bughouse game.
    pub(super) fn live_key(&mut self, k: KeyEvent, now: Instant) {
        if self.s.house.is_none() {
            return;
        }
        if matches!(self.ui.overlay, Overlay::ConfirmResign) {
            return self.confirm_resign_key(k, now);
        }
        let plain = !k
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        // A message being typed.
        if self.s.message_text.is_some() {
            return self.message_text_key(k, now);
        }
        // A partner message: `m`, then its key.
        if self.s.message {
            self.s.message = false;
            return self.message_key(k, now);
        }
        // `Nf5` that only a drop can make: y drops the piece.
        if let Some((role, to)) = self.s.confirm_drop.take() {
            return self.confirm_drop_key(role, to, k, now);
        }
        if self.live_typing_key(k, plain, now) {
            return;
        }
        if k.code == KeyCode::Tab || k.code == KeyCode::BackTab {
            return self.switch_board();
        }
        if plain && k.code == KeyCode::Char('m') {
            return self.start_message();
        }
        let action = self.ui.keys.action(&k);
        if action.is_some() {
            self.ui.last_action = action;
        }
        self.live_action(action, now);
    }

    /// The answer to "drop the piece?".
    pub(super) fn confirm_drop_key(&mut self, role: Role, to: Square, k: KeyEvent, now: Instant) {
        if matches!(k.code, KeyCode::Char('y' | 'Y') | KeyCode::Enter)
            && let Some(l) = self.s.live.as_deref_mut()
            && let Some(s) = l.human_to_move()
        {
            match l.pick_move(s, Move::Put { role, to }, now) {
                Ok(()) => self.ui.status = None,
                Err(e) => self.ui.error(e),
            }
            self.flush_live(now);
        } else {
            self.ui.info("Not dropped.");
        }
    }

    /// Typing a move (or a word on why none can be typed now); true if
    /// the key was for that. The board component's move box, as on the
    /// play screen.
    pub(super) fn live_typing_key(&mut self, k: KeyEvent, plain: bool, now: Instant) -> bool {
        if self.s.pick.typing.shown() {
            match self.s.pick.typing.key(k) {
                BoxKey::Pass => {}
                BoxKey::Taken => return true,
                BoxKey::Closed => {
                    self.ui.status = None;
                    return true;
                }
                BoxKey::Submit(text) => {
                    self.live_submit(text, now);
                    return true;
                }
            }
        }
        let KeyCode::Char(c) = k.code else {
            self.s.pick.not_typing();
            return false;
        };
        if !plain {
            self.s.pick.not_typing();
            return false;
        }
        let action = self.ui.keys.action(&k);
        if let Some((b, color, flipped)) = self.live_mover() {
            let held = self
                .s
                .live
                .as_deref()
                .map_or(0, |l| pocket_of(l.board(b), color).len());
            let could_begin = |t: &str| crate::ui::input::looks_like_move_prefix(t);
            if self
                .s
                .pick
                .typed_letter(c, action, &could_begin, flipped, held)
            {
                if let Some(a @ (Action::Up | Action::Down | Action::Left | Action::Right)) = action
                {
                    self.ui.last_action = Some(a);
                }
                return true;
            }
            self.s.pick.not_typing();
            return false;
        }
        // A move typed when none can be made is answered, not dropped.
        if crate::ui::keymap::begins_move(c)
            && let Some(l) = self.s.live.as_ref()
            && !l.human_seats().is_empty()
        {
            match l.ending.clone() {
                Some(e) => self.ui.error(format!(
                    "The game is over: {e}. {} starts a new game.",
                    self.ui.keys_hint(Action::NewGame)
                )),
                None => self.ui.info("Not your move: wait for the engine."),
            }
            return true;
        }
        false
    }

    /// Enter on a typed move: played, asked about (a piece move only a
    /// drop can make), or refused with the reason (the text stays on show).
    pub(super) fn live_submit(&mut self, text: String, now: Instant) {
        let Some(l) = self.s.live.as_deref_mut() else {
            return;
        };
        if let Err(crate::game::notation::MoveInputError::UseDrop { role, to }) =
            l.parse_typed(&text)
        {
            self.s.confirm_drop = Some((role, to));
            let piece = crate::ui::screens::house::role_word(role);
            self.ui.info(format!(
                "No {piece} can move to {to}. Drop the {piece} from your hand on {to}? y = drop, any other key = no"
            ));
            return;
        }
        match l.type_move(&text, now) {
            Ok(()) => self.ui.status = None,
            Err(e) => {
                self.ui.error(format!("{text}: {e}"));
                self.s.pick.typing.refuse(text);
            }
        }
        self.flush_live(now);
    }

    /// Tab: the other board large (Bughouse).
    pub(super) fn switch_board(&mut self) {
        let Some(h) = self.s.house.as_deref_mut() else {
            return;
        };
        if let Some(l) = self.s.live.as_deref_mut()
            && l.boards() == 2
        {
            h.main = 1 - h.main;
            l.watched = h.main;
            l.search = None;
            let b = if h.main == 0 { 'A' } else { 'B' };
            self.ui.info(format!(
                "Board {b} large; the search panel follows its engines."
            ));
        }
    }

    /// A command of the live game's screen.
    pub(super) fn live_action(&mut self, action: Option<Action>, now: Instant) {
        let Some(h) = self.s.house.as_deref_mut() else {
            return;
        };
        match action {
            Some(Action::Quit) => self.do_quit(),
            Some(Action::Help) => self.ui.overlay = Overlay::Help { scroll: 0 },
            Some(Action::Flip) => h.flipped = !h.flipped,
            Some(Action::CycleTheme) => self.ui.cycle_theme(),
            // The dialog: chess, Crazyhouse or Bughouse; Esc comes back here.
            Some(Action::NewGame) => self.live_new_game_dialog(),
            Some(Action::Explore) => self.open_house_explorer(),
            Some(a @ (Action::CopyFen | Action::CopyPgn)) => self.house_copy(a),
            Some(Action::SaveAs) => self.ui.overlay = Overlay::save_as(self.s.file.path()),
            Some(Action::EvalBreakdown) => self.live_eval_breakdown(),
            Some(Action::Analyse) => {
                let main = h.main;
                let b = self.live_mover().map_or(main, |(b, _, _)| b);
                if let Some(l) = self.s.live.as_deref_mut() {
                    let on = l.toggle_analysis(b);
                    self.ui.info(if on {
                        "Analysis on: Kibitz at full strength thinks about the position."
                    } else {
                        "Analysis off."
                    });
                }
                self.flush_live(now);
            }
            Some(Action::Hint) => {
                let asked = self.s.live.as_deref_mut().map(|l| l.ask_hint());
                match asked {
                    Some(Ok(())) => self.ui.info("Thinking about a hint..."),
                    Some(Err(e)) => self.ui.info(e),
                    None => {}
                }
                self.flush_live(now);
            }
            Some(Action::Resign) => self.live_resign(),
            Some(Action::Takeback) => self.live_takeback(now),
            Some(a @ (Action::Up | Action::Down | Action::Left | Action::Right)) => {
                self.live_cursor(a);
            }
            Some(Action::Select) => self.live_select(now),
            // Nothing picked up and a game waiting beneath: back to it
            // (this game is saved and can be resumed).
            Some(Action::Cancel)
                if self.ui.below > 0
                    && self.s.pick.selected.is_none()
                    && self.s.pick.drop.is_none()
                    && !self.s.pick.in_pocket =>
            {
                self.close_house();
                self.ui
                    .info("Back to your game (the Crazyhouse/Bughouse game is saved).");
            }
            Some(Action::Cancel) => {
                self.s.pick.selected = None;
                self.s.pick.drop = None;
                self.s.pick.in_pocket = false;
                self.ui.info(format!(
                    "{} quits (the game is saved), {} starts a new game.",
                    self.ui.keys_hint(Action::Quit),
                    self.ui.keys_hint(Action::NewGame)
                ));
            }
            Some(a) => {
                let what = a.description();
                self.ui.error(format!(
                    "Not in Crazyhouse or Bughouse yet ({}: {what}).",
                    self.ui.keys_hint(a)
                ));
            }
            None => {}
        }
    }

    /// The dialog: chess, Crazyhouse or Bughouse; Esc comes back here.
    pub(super) fn live_new_game_dialog(&mut self) {
        let variant = match self.s.live.as_ref() {
            Some(l) if l.boards() == 2 => 2,
            _ => 1,
        };
        let (mode, spec, time) = match &self.ui.launch_setup {
            Some(l) => (l.mode, l.engine.clone(), l.time),
            None => (
                Mode::HumanVsEngine {
                    human: Color::White,
                },
                EngineSpec::BuiltIn { level: 4 },
                None,
            ),
        };
        self.ui.open_new_game_dialog(mode, &spec, time, variant);
    }

    /// The evaluation, term by term, of the person's board (or the large
    /// one when engines play).
    pub(super) fn live_eval_breakdown(&mut self) {
        let Some(h) = self.s.house.as_deref_mut() else {
            return;
        };
        // The person's board (or the large one when engines play).
        let main = h.main;
        let b = self.live_mover().map_or(main, |(b, _, _)| b);
        if let Some(l) = self.s.live.as_deref() {
            let pos = l.board(b).clone();
            let trace = if l.boards() == 2 {
                crate::engine::eval::zh::trace(
                    &crate::engine::Board::<crate::engine::Bug>::from_pos(pos),
                )
            } else {
                crate::engine::eval::zh::trace(
                    &crate::engine::Board::<crate::engine::Zh>::from_pos(pos),
                )
            };
            let mut lines: Vec<String> = trace.to_string().lines().map(str::to_string).collect();
            lines.push(String::new());
            lines.push("any key closes".into());
            let title = if l.boards() == 2 {
                format!("Evaluation of board {}", if b == 0 { 'A' } else { 'B' })
            } else {
                "Evaluation".to_string()
            };
            self.ui.overlay = Overlay::Text { title, lines };
        }
    }

    /// The person's seat that may resign now, or why none may.
    fn resigning_seat(&self) -> Result<usize, &'static str> {
        let l = self.s.live.as_deref();
        match l.and_then(|l| l.human_seats().first().copied()) {
            None => Err("Nobody here to resign: four engines play."),
            Some(_) if l.is_none_or(|l| l.is_over()) => Err("The game is over."),
            Some(s) => Ok(s),
        }
    }

    /// Resign: asks first, as on the chess screen.
    pub(super) fn live_resign(&mut self) {
        match self.resigning_seat() {
            Ok(_) => self.ui.overlay = Overlay::ConfirmResign,
            Err(why) => self.ui.error(why),
        }
    }

    /// The answer to "Resign this game?": `y` resigns.
    fn confirm_resign_key(&mut self, k: KeyEvent, now: Instant) {
        self.ui.overlay = Overlay::None;
        let yes = matches!(k.code, KeyCode::Char('y' | 'Y'));
        match self.resigning_seat() {
            Ok(s) if yes => {
                if let Some(l) = self.s.live.as_deref_mut() {
                    l.resign(s, now);
                }
                self.flush_live(now);
            }
            _ => self.ui.info("Play on."),
        }
    }

    /// Takes back the person's last move (Crazyhouse).
    pub(super) fn live_takeback(&mut self, now: Instant) {
        let seat = self
            .s
            .live
            .as_ref()
            .and_then(|l| l.human_seats().first().copied());
        let result = match (self.s.live.as_deref_mut(), seat) {
            (Some(l), Some(s)) => l.takeback(s, now).map(|()| l.save_text()),
            _ => Err("Nobody here to take back: four engines play.".into()),
        };
        match result {
            Ok(text) => {
                // The show follows the shorter game.
                if let (Some(h), Some(l)) = (self.s.house.as_deref_mut(), self.s.live.as_deref()) {
                    h.cursor = 0;
                    h.refresh(l, now);
                    h.arrived = None;
                }
                self.s.pick = BoardInput::at(self.s.pick.cursor);
                self.s.file.save(&mut self.ui.effects, true, || text);
                self.flush_live(now);
                self.ui.info("Taken back.");
            }
            Err(e) => self.ui.error(e),
        }
    }

    /// The person to move's board and colour, with the screen's turn.
    pub(super) fn live_mover(&self) -> Option<(usize, Color, bool)> {
        let h = self.s.house.as_deref()?;
        let s = self.s.live.as_ref()?.human_to_move()?;
        let (b, c) = seat_of(s);
        Some((b, c, h.bottom(b) == Color::Black))
    }

    pub(super) fn live_cursor(&mut self, a: Action) {
        let Some((b, c, flipped)) = self.live_mover() else {
            return;
        };
        let held = self
            .s
            .live
            .as_ref()
            .map_or(0, |l| pocket_of(l.board(b), c).len());
        self.s.pick.move_cursor(a, flipped, held);
    }

    /// Enter or Space: pick up, put down, take from the pocket, drop.
    pub(super) fn live_select(&mut self, now: Instant) {
        let Some((b, _, _)) = self.live_mover() else {
            self.live_not_your_move();
            return;
        };
        let Some(l) = self.s.live.as_deref() else {
            return;
        };
        let intent = self.s.pick.choose_at_cursor(l.board(b));
        self.live_carry(b, intent, now);
    }

    pub(super) fn live_not_your_move(&mut self) {
        let ending = self.s.live.as_deref().and_then(|l| l.ending.clone());
        match ending {
            Some(e) => self.ui.info(format!("{e}. n starts a new game, q quits.")),
            None => self.ui.info("Not your move: wait for the engine."),
        }
    }

    /// Carries out what the board component made of a key or click on
    /// board `b`: a move is the seat's (a promotion makes a queen; type
    /// e8=N for another piece).
    pub(super) fn live_carry(&mut self, b: usize, intent: Intent, now: Instant) {
        let Some(l) = self.s.live.as_deref_mut() else {
            return;
        };
        let mv = match intent {
            Intent::Nothing => return,
            Intent::Picked => {
                self.ui.status = None;
                return;
            }
            Intent::Info(t) => return self.ui.info(t),
            Intent::Error(e) => return self.ui.error(e),
            Intent::Play(m) => m,
            Intent::Promote { from, to } => {
                let queen = l.board(b).legal_moves().into_iter().find(|m| {
                    m.from() == Some(from) && m.to() == to && m.promotion() == Some(Role::Queen)
                });
                self.s.pick.selected = None;
                match queen {
                    Some(m) => m,
                    None => return,
                }
            }
        };
        let seat = crate::ui::screens::house::live::seat_index(b, l.board(b).turn());
        match l.pick_move(seat, mv, now) {
            Ok(()) => self.ui.status = None,
            Err(e) => self.ui.error(e),
        }
        self.flush_live(now);
    }

    /// A mouse button on the live game's screen.
    pub(super) fn live_mouse(&mut self, m: MouseEvent, now: Instant) {
        let Some((b, c, flipped)) = self.live_mover() else {
            return;
        };
        let Some(h) = self.s.house.as_deref() else {
            return;
        };
        let (col, row) = (m.column, m.row);
        let area = ratatui::layout::Rect::new(0, 0, self.ui.size.0, self.ui.size.1);
        let Some(l) = h.layout(area, true) else {
            return;
        };
        let slot = usize::from(l.boards.len() == 2 && b != h.main);
        let Some(place) = l.boards.get(slot) else {
            return;
        };
        let sq = place.board.square_at(col, row, flipped);
        // The person's pocket, where the view draws it.
        let cells = h.pocket_cells(self.s.live.as_deref(), &l, b, c, now);
        let in_pocket = cells
            .iter()
            .position(|(_, r)| r.contains(ratatui::layout::Position::new(col, row)));
        let Some(live) = self.s.live.as_deref() else {
            return;
        };
        let pos = live.board(b);
        let intent = match m.kind {
            MouseEventKind::Down(MouseButton::Left) => match (sq, in_pocket) {
                (Some(sq), _) => self.s.pick.press(sq, pos),
                (None, Some(i)) => self.s.pick.take_from_pocket(cells[i].0, i),
                (None, None) => return,
            },
            MouseEventKind::Up(MouseButton::Left) => self.s.pick.release(sq, pos),
            MouseEventKind::Down(MouseButton::Right) => {
                self.s.pick.right_click();
                return;
            }
            _ => return,
        };
        self.live_carry(b, intent, now);
    }
}
