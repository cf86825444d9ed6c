//! Keys and mouse: moves typed or picked on the board, commands, the promotion dialog.

use super::*;

impl App {
    // ------------------------------------------------------------------
    // Keys.

    pub fn keys_hint(&self, a: Action) -> String {
        self.keys.keys_for(a).first().cloned().unwrap_or_default()
    }

    pub(super) fn on_key(&mut self, k: KeyEvent, now: Instant) {
        // Ctrl+C always quits.
        if k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c') {
            self.do_quit();
            return;
        }
        // A terminal too small for the screen shows only that: no key acts
        // blind but quitting.
        if self.screen_too_small() {
            if k.code == KeyCode::Char('q') || self.keys.action(&k) == Some(Action::Quit) {
                self.do_quit();
            }
            return;
        }
        // The explorer has the keyboard while it is open (help aside).
        if let Some(ex) = &mut self.explorer
            && !matches!(self.overlay, Overlay::Help { .. })
        {
            if k.code == KeyCode::Char('?') || k.code == KeyCode::F(1) {
                self.overlay = Overlay::Help { scroll: 0 };
                return;
            }
            let req = ex.key(k, &mut self.next_id);
            match req {
                Some(super::super::explorer::Request::Close) => {
                    let standalone = ex.standalone;
                    self.explorer = None;
                    self.effects
                        .push(Effect::Explorer(super::super::explorer::Request::Cancel));
                    if standalone {
                        self.do_quit();
                    } else if self.paused_for_explorer {
                        self.paused_for_explorer = false;
                        self.toggle_pause(now);
                    }
                }
                Some(r) => self.effects.push(Effect::Explorer(r)),
                None => {}
            }
            return;
        }
        // The explorer of a Crazyhouse/Bughouse position, likewise.
        if let Some(ex) = &mut self.house_explorer
            && !matches!(self.overlay, Overlay::Help { .. })
        {
            if k.code == KeyCode::Char('?') || k.code == KeyCode::F(1) {
                self.overlay = Overlay::Help { scroll: 0 };
                return;
            }
            match ex.key(k, &mut self.next_id) {
                Some(r) if r.is_close() => {
                    self.house_explorer = None;
                    self.effects.push(Effect::HouseExplorer(match r {
                        super::super::explorer::AnyRequest::Zh(_) => {
                            super::super::explorer::AnyRequest::Zh(
                                super::super::explorer::Request::Cancel,
                            )
                        }
                        super::super::explorer::AnyRequest::Bug(_) => {
                            super::super::explorer::AnyRequest::Bug(
                                super::super::explorer::Request::Cancel,
                            )
                        }
                    }));
                }
                Some(r) => self.effects.push(Effect::HouseExplorer(r)),
                None => {}
            }
            return;
        }
        // A file being opened: Esc gives up on it.
        if self.opening.is_some() && k.code == KeyCode::Esc {
            if let Some(o) = self.opening.take() {
                self.effects.push(Effect::StopFile { id: o.id });
            }
            self.info("Opening cancelled.");
            return;
        }
        // Tables being prepared: Esc stops waiting, q quits.
        if self.preparing.is_some() && matches!(self.overlay, Overlay::None) {
            match k.code {
                KeyCode::Esc => self.cancel_preparing(now),
                KeyCode::Char('q') => self.do_quit(),
                _ => self.info("Preparing the tables... Esc stops waiting."),
            }
            return;
        }
        // The board editor has the keyboard (help aside).
        if self.editor.is_some() && matches!(self.overlay, Overlay::None) {
            if matches!(k.code, KeyCode::Char('?') | KeyCode::F(1)) {
                self.overlay = Overlay::Help { scroll: 0 };
            } else {
                self.editor_key(k, now);
            }
            return;
        }
        match &self.overlay {
            Overlay::None => {}
            Overlay::Trainer(_) => return self.trainer_menu_key(k, now),
            Overlay::Games { .. } => return self.games_key(k),
            Overlay::Files(_) => return self.files_key(k),
            Overlay::Help { scroll } => {
                // The arrows, PgUp/PgDn, Home and End scroll; other keys close.
                let v = crate::ui::help::help_view(
                    self,
                    ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1),
                    *scroll,
                );
                let (now_at, page) = (v.first, v.visible.saturating_sub(1).max(1));
                let to = match k.code {
                    KeyCode::Up => Some(now_at.saturating_sub(1)),
                    KeyCode::Down => Some(now_at + 1),
                    KeyCode::PageUp => Some(now_at.saturating_sub(page)),
                    KeyCode::PageDown => Some(now_at + page),
                    KeyCode::Home => Some(0),
                    KeyCode::End => Some(v.max_scroll()),
                    _ => None,
                };
                self.overlay = match to {
                    Some(s) => Overlay::Help {
                        scroll: s.min(v.max_scroll()) as u16,
                    },
                    None => Overlay::None,
                };
                return;
            }
            Overlay::Eval { simple } => {
                let simple = *simple;
                match k.code {
                    KeyCode::Tab | KeyCode::BackTab | KeyCode::Left | KeyCode::Right => {
                        self.overlay = Overlay::Eval { simple: !simple };
                    }
                    _ => self.overlay = Overlay::None,
                }
                return;
            }
            Overlay::NewGame(_) => return self.dialog_key(k, now),
            Overlay::Promotion { .. } => return self.promotion_key(k, now),
            Overlay::ConfirmResign => {
                if matches!(k.code, KeyCode::Char('y') | KeyCode::Char('Y')) && !self.is_over() {
                    let loser = match self.mode {
                        Mode::HumanVsEngine { human } => human,
                        _ => self.board().turn(),
                    };
                    self.overlay = Overlay::None;
                    self.finish(
                        Ending {
                            result: GameResult::win_for(!loser),
                            termination: Termination::Resignation,
                        },
                        now,
                    );
                } else {
                    self.overlay = Overlay::None;
                    self.info("Play on.");
                }
                return;
            }
            Overlay::DrawOffer => {
                self.overlay = Overlay::None;
                if matches!(k.code, KeyCode::Char('y') | KeyCode::Char('Y')) && !self.is_over() {
                    self.finish(
                        Ending {
                            result: GameResult::Draw,
                            termination: Termination::Agreement,
                        },
                        now,
                    );
                } else {
                    self.info("Draw declined.");
                }
                return;
            }
            Overlay::Text { .. } => {
                self.overlay = Overlay::None;
                return;
            }
            Overlay::ResumeHouse { .. } => {
                let resume = match k.code {
                    KeyCode::Char('y' | 'Y') | KeyCode::Enter => true,
                    KeyCode::Char('n' | 'N') => false,
                    KeyCode::Char('q') | KeyCode::Esc => return self.do_quit(),
                    _ => return,
                };
                let overlay = std::mem::replace(&mut self.overlay, Overlay::None);
                if let Overlay::ResumeHouse { path, setup, .. } = overlay {
                    if resume {
                        self.resume_live(path, *setup, now);
                    } else {
                        self.start_live(*setup, now);
                    }
                }
                return;
            }
            Overlay::Resume { .. } => {
                let resume = match k.code {
                    KeyCode::Char('y' | 'Y') | KeyCode::Enter => true,
                    KeyCode::Char('n' | 'N') => false,
                    KeyCode::Char('q') | KeyCode::Esc => return self.do_quit(),
                    _ => return,
                };
                let overlay = std::mem::replace(&mut self.overlay, Overlay::None);
                if let Overlay::Resume { path, game, .. } = overlay {
                    if resume {
                        self.resume(*game, path, now);
                    } else {
                        let setup = self
                            .launch_setup
                            .clone()
                            .unwrap_or_else(|| self.default_setup());
                        self.start_game(setup, now);
                        self.info(
                            "Started a new game; the unfinished one stays in your games folder.",
                        );
                    }
                }
                return;
            }
        }

        if self.house.is_some() {
            return self.house_key(k, now);
        }
        if self.replay.is_some() {
            if self.replay_key(k, now) {
                return;
            }
            match self.keys.action(&k) {
                Some(
                    a @ (Action::Takeback
                    | Action::Hint
                    | Action::Resign
                    | Action::OfferDraw
                    | Action::Pause
                    | Action::Select
                    | Action::Up
                    | Action::Down
                    | Action::Left
                    | Action::Right),
                ) => {
                    let what = a.description();
                    self.error(format!(
                        "Not while replaying ({}: {what}). {} plays on from here against the engine.",
                        self.keys_hint(a),
                        self.replay_key_hint(super::super::keymap::ReplayAction::PlayFromHere)
                    ));
                }
                Some(Action::Cancel) => {
                    if let Some(r) = &mut self.replay {
                        r.autoplay = None;
                    }
                    self.status = None;
                }
                Some(a) => self.run_action(a, now),
                None => {
                    if let KeyCode::Char(c) = k.code
                        && !c.is_whitespace()
                    {
                        self.error(format!(
                            "'{c}' is not a replay command ({} shows the keys).",
                            self.keys_hint(Action::Help)
                        ));
                    }
                }
            }
            return;
        }

        // Typing a move.
        if self.move_box_shown() {
            match k.code {
                KeyCode::Enter if self.input.is_empty() => return self.close_move_box(),
                KeyCode::Enter => return self.submit_input(now),
                KeyCode::Esc => {
                    self.close_move_box();
                    self.status = None;
                    return;
                }
                KeyCode::Backspace => {
                    self.input_refused = false;
                    if self.input.pop().is_none() {
                        self.move_box_open = false;
                    }
                    return;
                }
                KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
                    // A refused move gives way to the new one being typed.
                    if std::mem::take(&mut self.input_refused) {
                        self.input.clear();
                    }
                    if self.input.len() < 12 {
                        self.input.push(c);
                    }
                    return;
                }
                _ => {}
            }
        }

        let action = self.keys.action(&k);
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
        let cursor_key = matches!(
            action,
            Some(Action::Up | Action::Down | Action::Left | Action::Right)
        );
        if let Some(c) = plain_char
            && self.typing_allowed()
        {
            // Moves are typed without a prefix, and no command sits on a
            // key that begins one (`begins_move`: files a-h, K Q R B N P,
            // O o 0 for castling, @ for a drop; the config refuses such
            // bindings). So a key either begins a move or acts at once.
            // The one exception is the cursor: `h` (a file) moves it left
            // at once, and is remembered; if the next key continues a move
            // (`h3`, `hxg5`), the cursor goes back and the move box takes
            // the whole text.
            let pending = std::mem::take(&mut self.pending_letters);
            if !pending.is_empty() {
                let typed = format!("{pending}{c}");
                let board = self.board().clone();
                let continues = if cursor_key || action.is_some() {
                    could_begin_move(board.chess(), &typed)
                } else {
                    looks_like_move_prefix(&typed)
                };
                if continues && !cursor_key {
                    self.cursor = self.pending_cursor;
                    self.input = typed;
                    return;
                }
                if continues {
                    self.pending_letters = typed;
                    if let Some(a) = action {
                        self.move_cursor(a);
                    }
                    return;
                }
            }
            if begins_move(c) {
                if cursor_key {
                    self.pending_letters = c.to_string();
                    self.pending_cursor = self.cursor;
                    if let Some(a) = action {
                        self.move_cursor(a);
                    }
                } else {
                    self.input.push(c);
                }
                return;
            }
        }
        self.pending_letters.clear();
        match (action, plain_char) {
            (Some(a), _) => self.run_action(a, now),
            (None, Some(c)) if begins_move(c) && self.is_over() && self.replay.is_none() => {
                self.error(self.game_over_text());
            }
            (None, Some(c)) if !c.is_whitespace() => {
                let hint = if "nbrqkp".contains(c) && self.typing_allowed() {
                    format!(
                        " Piece letters are capitals ({}{}); {} opens the move box for any spelling.",
                        c.to_ascii_uppercase(),
                        "f3",
                        self.keys_hint(Action::TypeMove)
                    )
                } else {
                    String::new()
                };
                self.error(format!(
                    "'{c}' is not a move or a command here ({} shows the keys).{hint}",
                    self.keys_hint(Action::Help)
                ));
            }
            _ => {}
        }
    }

    pub(super) fn submit_input(&mut self, now: Instant) {
        let text = std::mem::take(&mut self.input);
        self.move_box_open = false;
        if !self.human_to_move() {
            self.error("Not your move yet: press Enter again when it is.");
            self.input = text;
            return;
        }
        let board = self.board().clone();
        match parse_move(board.chess(), &text) {
            Ok(m) => {
                self.status = None;
                self.play(m, now);
            }
            Err(e) => {
                // The message names what was refused; the text stays on
                // show (Backspace corrects it) until a key types anew.
                let e = e.to_string();
                self.error(if e.contains(&text) {
                    e
                } else {
                    format!("{text}: {e}")
                });
                self.input = text;
                self.input_refused = true;
            }
        }
    }

    pub(super) fn run_action(&mut self, a: Action, now: Instant) {
        self.last_action = Some(a);
        match a {
            Action::Quit => self.do_quit(),
            Action::Help => self.overlay = Overlay::Help { scroll: 0 },
            Action::NewGame => self.open_new_game_dialog(),
            Action::Flip => {
                self.flipped = !self.flipped;
                self.effects.push(Effect::SaveState);
            }
            Action::CycleTheme => {
                if !self.themes.is_empty() {
                    self.theme = (self.theme + 1) % self.themes.len();
                    let name = self.theme().name.clone();
                    self.info(format!("Theme: {name}"));
                    self.effects.push(Effect::SaveState);
                }
            }
            Action::Takeback => self.takeback(now),
            Action::Hint => self.request_hint(now),
            Action::Resign => {
                if self.is_over() {
                    self.error("The game is over.");
                } else if self.mode == Mode::EngineVsEngine {
                    self.error("Nobody to resign for: the engine plays both sides.");
                } else {
                    self.overlay = Overlay::ConfirmResign;
                }
            }
            Action::OfferDraw => self.offer_draw(now),
            Action::Pause => self.toggle_pause(now),
            Action::CopyFen => {
                let fen = self.board().fen();
                self.effects.push(Effect::Copy {
                    what: "FEN",
                    text: fen,
                    path: self.data_dir.as_ref().map(|d| d.join("position.fen")),
                });
            }
            Action::CopyPgn => {
                // Replaying: the whole game, variations and comments too.
                let pgn = match &self.replay {
                    Some(r) => crate::game::write_pgn_tree(&r.parsed.game, &r.parsed.tree),
                    None => crate::game::write_pgn(&self.game),
                };
                self.effects.push(Effect::Copy {
                    what: "PGN",
                    text: pgn,
                    path: self.data_dir.as_ref().map(|d| d.join("game.pgn")),
                });
            }
            Action::EvalBreakdown => self.overlay = Overlay::Eval { simple: false },
            Action::Explore => {
                self.open_explorer(super::super::explorer::DEFAULT_DEPTH, false, now);
            }
            Action::Analyse => {
                self.analysis = match self.analysis {
                    Some(_) => {
                        self.info("Analysis off.");
                        None
                    }
                    None => {
                        self.info("Analysis on: + and - change the number of lines.");
                        Some(AnalysisMode { lines: 3 })
                    }
                };
            }
            Action::MoreLines | Action::FewerLines => match &mut self.analysis {
                Some(mode) => {
                    mode.lines = if a == Action::MoreLines {
                        (mode.lines + 1).min(5)
                    } else {
                        mode.lines.saturating_sub(1).max(1)
                    };
                }
                None => self.error("Lines are for analysis mode (a)."),
            },
            Action::WhiteView => {
                self.white_view = !self.white_view;
                self.info(if self.white_view {
                    "Scores from White's point of view."
                } else {
                    "Scores from the side to move's point of view (as engines report them)."
                });
            }
            Action::Up | Action::Down | Action::Left | Action::Right => self.move_cursor(a),
            Action::Select => self.select(self.cursor, now),
            Action::Cancel => {
                self.selected = None;
                self.status = None;
            }
            Action::ScrollUp => self.scroll = (self.scroll + 5).min(self.max_scroll()),
            Action::ScrollDown => self.scroll = self.scroll.saturating_sub(5),
            Action::TypeMove => {
                if self.typing_allowed() {
                    self.move_box_open = true;
                    self.info(
                        "Type a move in any spelling (nf3, n@f3, o-o); Enter plays it, Esc closes.",
                    );
                } else {
                    self.error("There is no move to type here.");
                }
            }
            Action::Open => self.open_file_picker(),
            Action::Trainer => self.open_trainer_menu(now),
        }
    }

    /// The move list scrolls up at most this many rows.
    pub(super) fn max_scroll(&self) -> usize {
        self.game.moves().len().div_ceil(2)
    }

    pub(super) fn do_quit(&mut self) {
        self.stop_all();
        self.save();
        self.quit = true;
        self.effects.push(Effect::Quit);
    }

    pub(super) fn move_cursor(&mut self, a: Action) {
        self.last_action = Some(a);
        let (df, dr): (i32, i32) = match a {
            Action::Up => (0, 1),
            Action::Down => (0, -1),
            Action::Left => (-1, 0),
            Action::Right => (1, 0),
            _ => (0, 0),
        };
        let (df, dr) = if self.flipped { (-df, -dr) } else { (df, dr) };
        let f = (self.cursor.file() as i32 + df).clamp(0, 7);
        let r = (self.cursor.rank() as i32 + dr).clamp(0, 7);
        self.cursor =
            Square::from_coords(shakmaty::File::new(f as u32), shakmaty::Rank::new(r as u32));
    }

    /// Click or Enter on a square: select a piece, or move the selected one.
    pub(super) fn select(&mut self, sq: Square, now: Instant) {
        self.cursor = sq;
        if !self.human_to_move() {
            if self.is_over() {
                self.error(self.game_over_text());
            } else {
                self.error("Wait for your turn.");
            }
            return;
        }
        let board = self.board().clone();
        let turn = board.turn();
        if let Some(from) = self.selected {
            if from == sq {
                self.selected = None;
                return;
            }
            if self.destinations(from).contains(&sq) {
                self.move_from_to(from, sq, now);
                return;
            }
        }
        match board.board().piece_at(sq) {
            Some(p) if p.color == turn => {
                if self.destinations(sq).is_empty() {
                    self.error(format!(
                        "The {} on {sq} has no legal move.",
                        role_name(p.role)
                    ));
                    self.selected = None;
                } else {
                    self.selected = Some(sq);
                    self.status = None;
                }
            }
            _ => {
                if let Some(from) = self.selected {
                    self.error(format!("{}{} is not a legal move.", from, sq));
                }
                self.selected = None;
            }
        }
    }

    pub(super) fn move_from_to(&mut self, from: Square, to: Square, now: Instant) {
        let legal = self.board().chess().legal_moves();
        let candidates: Vec<Move> = legal
            .iter()
            .filter(|m| m.from() == Some(from))
            .filter(|m| shown_to(**m) == to || m.to() == to)
            .cloned()
            .collect();
        if candidates.iter().any(|m| m.is_promotion()) {
            self.overlay = Overlay::Promotion {
                from,
                to,
                choice: 0,
            };
            self.info("Promote to: Enter = queen, or choose with arrows / q r b n.");
            return;
        }
        if let Some(&m) = candidates.first() {
            self.status = None;
            self.play(m, now);
        }
    }

    pub(super) fn promotion_key(&mut self, k: KeyEvent, now: Instant) {
        let Overlay::Promotion { from, to, choice } = self.overlay.clone() else {
            return;
        };
        if self.is_over() || self.paused || !self.mode.is_human(self.board().turn()) {
            self.overlay = Overlay::None;
            return;
        }
        let pick = |role: Role| PROMOTIONS.iter().position(|&r| r == role);
        let chosen = match k.code {
            KeyCode::Esc => {
                self.overlay = Overlay::None;
                self.selected = None;
                self.status = None;
                return;
            }
            KeyCode::Left | KeyCode::Up => {
                self.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: (choice + 3) % 4,
                };
                return;
            }
            KeyCode::Right | KeyCode::Down => {
                self.overlay = Overlay::Promotion {
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
            self.overlay = Overlay::None;
            let role = PROMOTIONS[i];
            let m = self
                .board()
                .chess()
                .legal_moves()
                .iter()
                .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role))
                .cloned();
            if let Some(m) = m {
                self.status = None;
                self.play(m, now);
            }
        }
    }

    // ------------------------------------------------------------------
    // Mouse.

    pub(super) fn geometry(&self) -> Option<BoardGeometry> {
        layout::layout(ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1)).map(|l| l.board)
    }

    /// The terminal is too small for the screen shown (the chess screen's
    /// or the Crazyhouse/Bughouse screen's layout does not fit): the view
    /// says so and draws nothing else.
    pub fn screen_too_small(&self) -> bool {
        if self.explorer.is_some() || self.house_explorer.is_some() {
            return false;
        }
        let area = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        match self.house.as_deref().map(|h| h.show()) {
            Some(Ok(s)) => layout::house_layout(area, s.boards()).is_none(),
            Some(Err(_)) => false,
            None => layout::layout(area).is_none(),
        }
    }

    pub(super) fn on_mouse(&mut self, m: MouseEvent, now: Instant) {
        if self.screen_too_small() {
            return;
        }
        // The explorer covers the board: clicks must not reach the game.
        if self.explorer.is_some() || self.house_explorer.is_some() {
            return;
        }
        self.pending_letters.clear();
        if !matches!(self.overlay, Overlay::None) {
            return;
        }
        if let Some(h) = &self.house {
            let live = h.live.is_some();
            match m.kind {
                MouseEventKind::Down(MouseButton::Left) if live => {
                    self.live_click(m.column, m.row, now);
                }
                MouseEventKind::ScrollUp if !live => {
                    if let Some(h) = self.house.as_deref_mut() {
                        h.go(h.cursor.saturating_sub(1), now);
                    }
                }
                MouseEventKind::ScrollDown if !live => {
                    if let Some(h) = self.house.as_deref_mut() {
                        h.go(h.cursor + 1, now);
                    }
                }
                _ => {}
            }
            return;
        }
        if self.editor.is_some() {
            if let (MouseEventKind::Down(MouseButton::Left), Some(geo)) = (m.kind, self.geometry())
                && let Some(sq) = geo.square_at(m.column, m.row, self.flipped)
            {
                self.editor_click(sq);
            }
            return;
        }
        if self.replay.is_some() {
            use super::super::keymap::ReplayAction;
            match m.kind {
                MouseEventKind::Down(MouseButton::Left) => {
                    self.replay_click(m.column, m.row);
                }
                MouseEventKind::ScrollUp => self.run_replay_action(ReplayAction::Previous, now),
                MouseEventKind::ScrollDown => self.run_replay_action(ReplayAction::Next, now),
                _ => {}
            }
            return;
        }
        match m.kind {
            MouseEventKind::ScrollUp => self.scroll = (self.scroll + 1).min(self.max_scroll()),
            MouseEventKind::ScrollDown => self.scroll = self.scroll.saturating_sub(1),
            _ => {}
        }
        let Some(geo) = self.geometry() else { return };
        let sq = geo.square_at(m.column, m.row, self.flipped);
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                if let Some(sq) = sq {
                    if self.selected == Some(sq) {
                        // Pressing on the selected piece: a drag, or a click
                        // that deselects it (decided on release).
                        self.drag = Some((sq, true));
                    } else {
                        self.select(sq, now);
                        // Pressing on an own piece may start a drag.
                        self.drag = (self.selected == Some(sq)).then_some((sq, false));
                    }
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                if let Some((from, was_selected)) = self.drag.take() {
                    match sq {
                        Some(to) if to == from => {
                            // A click on the selected piece deselects it.
                            self.selected = self.selected.filter(|_| !was_selected);
                        }
                        Some(to) if self.selected == Some(from) => self.select(to, now),
                        _ => {}
                    }
                }
            }
            MouseEventKind::Down(MouseButton::Right) => {
                self.selected = None;
            }
            _ => {}
        }
    }
}
