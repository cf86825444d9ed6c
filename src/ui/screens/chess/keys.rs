//! Keys and mouse: moves typed or picked on the board, commands, the promotion dialog.

use super::*;
use crate::ui::board::{BoxKey, Intent};

impl<T: Task> Chess<'_, T> {
    // ------------------------------------------------------------------
    // Keys.

    pub(super) fn on_key(&mut self, k: KeyEvent, now: Instant) {
        if self.openings_key(k, now) || T::key(self, k, now) || self.overlay_key(k, now) {
            return;
        }
        if self.move_box_shown() && self.move_box_key(k, now) {
            return;
        }
        let action = self.ui.keys.action(&k);
        let plain_char = match k.code {
            KeyCode::Char(c)
                if !k
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                Some(c)
            }
            _ => None,
        };
        if let Some(c) = plain_char
            && self.typing_allowed()
            && self.typed_letter(c, action)
        {
            return;
        }
        self.s.pick.not_typing();
        self.command_key(action, plain_char, now);
    }

    /// The chess screen's own overlays (the games list, the evaluation,
    /// promotion, confirmations) take their keys; true if one was open.
    fn overlay_key(&mut self, k: KeyEvent, now: Instant) -> bool {
        match &self.ui.overlay {
            Overlay::None => return false,
            Overlay::Eval { simple } => {
                let simple = *simple;
                match k.code {
                    KeyCode::Tab | KeyCode::BackTab | KeyCode::Left | KeyCode::Right => {
                        self.ui.overlay = Overlay::Eval { simple: !simple };
                    }
                    _ => self.ui.overlay = Overlay::None,
                }
            }
            Overlay::Promotion { .. } => self.promotion_key(k, now),
            Overlay::ConfirmResign => {
                if matches!(k.code, KeyCode::Char('y') | KeyCode::Char('Y')) && !self.is_over() {
                    let loser = match self.s.mode {
                        Mode::HumanVsEngine { human } => human,
                        _ => self.board().turn(),
                    };
                    self.ui.overlay = Overlay::None;
                    self.finish(
                        Ending {
                            result: GameResult::win_for(!loser),
                            termination: Termination::Resignation,
                        },
                        now,
                    );
                } else {
                    self.ui.overlay = Overlay::None;
                    self.ui.info("Play on.");
                }
            }
            Overlay::DrawOffer => {
                self.ui.overlay = Overlay::None;
                if matches!(k.code, KeyCode::Char('y') | KeyCode::Char('Y')) && !self.is_over() {
                    self.finish(
                        Ending {
                            result: GameResult::Draw,
                            termination: Termination::Agreement,
                        },
                        now,
                    );
                } else {
                    self.ui.info("Draw declined.");
                }
            }
            // The overlays above every screen took their keys before.
            _ => return false,
        }
        true
    }

    /// Keys while the move box is shown; true if the key was for it.
    fn move_box_key(&mut self, k: KeyEvent, now: Instant) -> bool {
        match self.s.pick.typing.key(k) {
            BoxKey::Pass => return false,
            BoxKey::Taken => {}
            BoxKey::Closed => self.ui.status = None,
            BoxKey::Submit(text) => self.submit(text, now),
        }
        true
    }

    /// A letter typed where a move may be typed: true if it began or
    /// continued a move (or moved the cursor as part of one).
    fn typed_letter(&mut self, c: char, action: Option<Action>) -> bool {
        let board = self.board().clone();
        let could_begin = |t: &str| could_begin_move(board.chess(), t);
        let flipped = self.ui.look.flipped;
        let typed = self
            .s
            .pick
            .typed_letter(c, action, &could_begin, flipped, 0);
        if typed
            && let Some(a @ (Action::Up | Action::Down | Action::Left | Action::Right)) = action
        {
            self.ui.last_action = Some(a);
        }
        typed
    }

    /// A key that is not typing: a command, or a word on why not.
    fn command_key(&mut self, action: Option<Action>, plain_char: Option<char>, now: Instant) {
        match (action, plain_char) {
            (Some(a), _) => self.run_action(a, now),
            (None, Some(c)) if begins_move(c) && self.is_over() && T::PLAYS => {
                self.ui.error(self.game_over_text());
            }
            (None, Some(c)) if !c.is_whitespace() => {
                let hint = if "nbrqkp".contains(c) && self.typing_allowed() {
                    format!(
                        " Piece letters are capitals ({}{}); {} opens the move box for any spelling.",
                        c.to_ascii_uppercase(),
                        "f3",
                        self.ui.keys_hint(Action::TypeMove)
                    )
                } else {
                    String::new()
                };
                self.ui.error(format!(
                    "'{c}' is not a move or a command here ({} shows the keys).{hint}",
                    self.ui.keys_hint(Action::Help)
                ));
            }
            _ => {}
        }
    }

    /// Plays a legal move chosen other than on the board (the opening
    /// explorer), or says why it cannot be now.
    pub(super) fn play_typed_move(&mut self, m: Move, now: Instant) {
        if !self.human_to_move() {
            if self.is_over() {
                self.ui.error(self.game_over_text());
            } else {
                self.ui.error("Not your move yet.");
            }
            return;
        }
        self.ui.status = None;
        self.play(m, now);
    }

    /// Plays the move typed as `text`, or says why it cannot be.
    pub(super) fn submit(&mut self, text: String, now: Instant) {
        if !self.human_to_move() {
            self.ui
                .error("Not your move yet: press Enter again when it is.");
            self.s.pick.typing.take(&text);
            return;
        }
        let board = self.board().clone();
        match parse_move(board.chess(), &text) {
            Ok(m) => {
                self.ui.status = None;
                self.play(m, now);
            }
            Err(e) => {
                // The message names what was refused; the text stays on
                // show (Backspace corrects it) until a key types anew.
                let e = e.to_string();
                self.ui.error(if e.contains(&text) {
                    e
                } else {
                    format!("{text}: {e}")
                });
                self.s.pick.typing.refuse(text);
            }
        }
    }

    pub(super) fn run_action(&mut self, a: Action, now: Instant) {
        self.ui.last_action = Some(a);
        if T::action(self, a, now) {
            return;
        }
        match a {
            Action::Quit => self.do_quit(),
            Action::Help => self.ui.overlay = Overlay::Help { scroll: 0 },
            Action::NewGame => {
                let (mode, spec, time) = T::new_game_settings(self);
                self.ui.open_new_game_dialog(mode, &spec, time, 0);
            }
            Action::Flip => {
                self.ui.look.flipped = !self.ui.look.flipped;
                self.ui.effects.push(Effect::SaveState);
            }
            Action::CycleTheme => self.ui.cycle_theme(),
            Action::Takeback => self.takeback(now),
            Action::Hint => self.request_hint(now),
            Action::Resign => {
                if self.is_over() {
                    self.ui.error("The game is over.");
                } else if self.s.mode == Mode::EngineVsEngine {
                    self.ui
                        .error("Nobody to resign for: the engine plays both sides.");
                } else {
                    self.ui.overlay = Overlay::ConfirmResign;
                }
            }
            Action::OfferDraw => self.offer_draw(now),
            Action::Pause => self.toggle_pause(now),
            Action::CopyFen => {
                let fen = self.board().fen();
                self.ui.effects.push(Effect::Copy {
                    what: "FEN",
                    text: fen,
                    path: self.ui.dirs.data.as_ref().map(|d| d.join("position.fen")),
                });
            }
            Action::CopyPgn => {
                let pgn = T::pgn(self);
                self.ui.effects.push(Effect::Copy {
                    what: "PGN",
                    text: pgn,
                    path: self.ui.dirs.data.as_ref().map(|d| d.join("game.pgn")),
                });
            }
            Action::SaveAs => self.open_save_as(),
            Action::EvalBreakdown => self.ui.overlay = Overlay::Eval { simple: false },
            Action::Openings => self.toggle_openings(),
            Action::Repertoire => {
                if let Some(s) = ChessScreen::repertoire_drill(self.ui, now) {
                    self.ui.open_instead(Box::new(s), |top| {
                        top.as_any()
                            .downcast_ref::<ChessScreen<repdrill::RepertoireDrill>>()
                            .is_some()
                    });
                }
            }
            Action::Explore => {
                self.open_explorer(crate::ui::screens::explorer::DEFAULT_DEPTH);
            }
            Action::Analyse => {
                self.s.analysis.mode = match self.s.analysis.mode {
                    Some(_) => {
                        self.ui.info("Analysis off.");
                        None
                    }
                    None => {
                        self.ui
                            .info("Analysis on: + and - change the number of lines.");
                        Some(AnalysisMode { lines: 3 })
                    }
                };
            }
            Action::MoreLines | Action::FewerLines => match &mut self.s.analysis.mode {
                Some(mode) => {
                    mode.lines = if a == Action::MoreLines {
                        (mode.lines + 1).min(5)
                    } else {
                        mode.lines.saturating_sub(1).max(1)
                    };
                }
                None => self.ui.error("Lines are for analysis mode (a)."),
            },
            Action::WhiteView => {
                self.ui.look.white_view = !self.ui.look.white_view;
                self.ui.info(if self.ui.look.white_view {
                    "Scores from White's point of view."
                } else {
                    "Scores from the side to move's point of view (as engines report them)."
                });
            }
            Action::Up | Action::Down | Action::Left | Action::Right => self.move_cursor(a),
            Action::Select => self.select(self.s.pick.cursor, now),
            Action::Cancel => {
                self.s.pick.selected = None;
                self.ui.status = None;
            }
            Action::ScrollUp => self.s.scroll = (self.s.scroll + 5).min(self.max_scroll()),
            Action::ScrollDown => self.s.scroll = self.s.scroll.saturating_sub(5),
            Action::TypeMove => {
                if self.typing_allowed() {
                    self.s.pick.typing.open = true;
                    self.ui.info(
                        "Type a move in any spelling (nf3, n@f3, o-o); Enter plays it, Esc closes.",
                    );
                } else {
                    self.ui.error("There is no move to type here.");
                }
            }
            Action::Open => self.ui.open_file_picker(),
            Action::Trainer => self.ui.open_trainer_menu(),
            Action::Puzzles => self.ui.open_puzzles(None, now),
        }
    }

    /// The move list scrolls up at most this many rows.
    pub(super) fn max_scroll(&self) -> usize {
        self.s.game.moves().len().div_ceil(2)
    }

    pub(super) fn do_quit(&mut self) {
        self.ui.quit();
    }

    pub(super) fn move_cursor(&mut self, a: Action) {
        self.ui.last_action = Some(a);
        self.s.pick.move_cursor(a, self.ui.look.flipped, 0);
    }

    /// Click or Enter on a square: select a piece, or move the selected one.
    pub(super) fn select(&mut self, sq: Square, now: Instant) {
        self.s.pick.cursor = sq;
        if !self.human_to_move() {
            self.not_your_move();
            return;
        }
        let board = self.board().clone();
        let intent = self.s.pick.choose(sq, board.chess());
        self.carry(intent, now);
    }

    /// Why a square cannot be chosen now.
    fn not_your_move(&mut self) {
        if self.is_over() {
            self.ui.error(self.game_over_text());
        } else {
            self.ui.error("Wait for your turn.");
        }
    }

    /// Carries out what the board component made of a key or click.
    pub(super) fn carry(&mut self, intent: Intent, now: Instant) {
        match intent {
            Intent::Nothing => {}
            Intent::Picked => self.ui.status = None,
            Intent::Play(m) => {
                self.ui.status = None;
                self.play(m, now);
            }
            Intent::Promote { from, to } => {
                self.ui.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: 0,
                };
                self.ui
                    .info("Promote to: Enter = queen, or choose with arrows / q r b n.");
            }
            Intent::Info(t) => self.ui.info(t),
            Intent::Error(e) => self.ui.error(e),
        }
    }

    pub(super) fn promotion_key(&mut self, k: KeyEvent, now: Instant) {
        let Overlay::Promotion { from, to, choice } = self.ui.overlay.clone() else {
            return;
        };
        if self.is_over() || self.s.paused || !self.s.mode.is_human(self.board().turn()) {
            self.ui.overlay = Overlay::None;
            return;
        }
        let pick = |role: Role| PROMOTIONS.iter().position(|&r| r == role);
        let chosen = match k.code {
            KeyCode::Esc => {
                self.ui.overlay = Overlay::None;
                self.s.pick.selected = None;
                self.ui.status = None;
                return;
            }
            KeyCode::Left | KeyCode::Up => {
                self.ui.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: (choice + 3) % 4,
                };
                return;
            }
            KeyCode::Right | KeyCode::Down => {
                self.ui.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: (choice + 1) % 4,
                };
                return;
            }
            KeyCode::Enter | KeyCode::Char(' ') => Some(choice),
            KeyCode::Char(c) => match c.to_ascii_lowercase() {
                'q' => pick(Role::Queen),
                'r' => pick(Role::Rook),
                'b' => pick(Role::Bishop),
                'n' | 'k' => pick(Role::Knight),
                _ => None,
            },
            _ => None,
        };
        if let Some(i) = chosen {
            self.ui.overlay = Overlay::None;
            let role = PROMOTIONS[i];
            let m = self
                .board()
                .chess()
                .legal_moves()
                .iter()
                .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role))
                .cloned();
            if let Some(m) = m {
                self.ui.status = None;
                self.play(m, now);
            }
        }
    }

    // ------------------------------------------------------------------
    // Mouse.

    pub(super) fn geometry(&self) -> Option<BoardGeometry> {
        layout::layout(ratatui::layout::Rect::new(
            0,
            0,
            self.ui.size.0,
            self.ui.size.1,
        ))
        .map(|l| l.board)
    }

    pub(super) fn on_mouse(&mut self, m: MouseEvent, now: Instant) {
        self.s.pick.not_typing();
        if T::mouse(self, m, now) {
            return;
        }
        match m.kind {
            MouseEventKind::ScrollUp => self.s.scroll = (self.s.scroll + 1).min(self.max_scroll()),
            MouseEventKind::ScrollDown => self.s.scroll = self.s.scroll.saturating_sub(1),
            _ => {}
        }
        let Some(geo) = self.geometry() else { return };
        let sq = geo.square_at(m.column, m.row, self.ui.look.flipped);
        let board = self.board().clone();
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if let Some(sq) = sq {
                    self.s.pick.cursor = sq;
                    if !self.human_to_move() {
                        self.not_your_move();
                        return;
                    }
                    let intent = self.s.pick.press(sq, board.chess());
                    self.carry(intent, now);
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                let intent = if self.human_to_move() {
                    self.s.pick.release(sq, board.chess())
                } else {
                    self.s.pick.release(None, board.chess())
                };
                self.carry(intent, now);
            }
            MouseEventKind::Down(MouseButton::Right) => self.s.pick.right_click(),
            _ => {}
        }
    }
}
