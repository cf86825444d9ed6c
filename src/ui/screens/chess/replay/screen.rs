//! The replay screen: opening game files, choosing a game, stepping through
//! its moves and variations, autoplay, keys and mouse (the review, playing
//! on and the export are in `review.rs`).

use super::super::*;
use crate::game::movetree::NodeId;
use crate::ui::keymap::ReplayAction;
use crate::ui::screens::chess::replay::{self as rp, DELAYS, Replay, ReviewState};

impl Task for Replay {
    const PLAYS: bool = false;
    const KEPT: bool = false;

    fn view(&self) -> TaskView<'_> {
        TaskView::Replay(self)
    }

    fn key(c: &mut Chess<'_, Self>, k: KeyEvent, now: Instant) -> bool {
        match c.ui.overlay {
            Overlay::Games { .. } => c.games_key(k),
            Overlay::None => c.replay_screen_key(k, now),
            _ => return false,
        }
        true
    }

    fn mouse(c: &mut Chess<'_, Self>, m: MouseEvent, now: Instant) -> bool {
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                c.replay_click(m.column, m.row);
            }
            MouseEventKind::ScrollUp => c.run_replay_action(ReplayAction::Previous, now),
            MouseEventKind::ScrollDown => c.run_replay_action(ReplayAction::Next, now),
            _ => {}
        }
        true
    }

    fn tick(c: &mut Chess<'_, Self>, now: Instant) {
        c.replay_tick(now);
    }

    /// A move from the explorer is tried like a typed one: followed when
    /// the game has it, a variation when not.
    fn explorer_move(c: &mut Chess<'_, Self>, m: Move, _now: Instant) {
        c.replay_add_move(m);
    }

    fn message(c: &mut Chess<'_, Self>, msg: Msg, now: Instant) -> Option<Msg> {
        match msg {
            Msg::Checked {
                id,
                statuses,
                left_repertoire,
                done,
            } if c.task.file_id == id => {
                c.task.left_repertoire.extend(left_repertoire);
                c.on_checked(id, statuses, done)
            }
            Msg::Reviewed {
                id,
                done,
                total,
                review,
                finished,
            } => c.on_reviewed(id, done, total, review, finished, now),
            other => return Some(other),
        }
        None
    }

    fn covered(c: &mut Chess<'_, Self>) {
        c.task.autoplay = None;
    }

    fn leave(c: &mut Chess<'_, Self>) {
        c.leave_replay();
    }

    fn eval_noted(c: &mut Chess<'_, Self>, ply: usize, board: &Board, white: Score) {
        let r = &mut *c.task;
        if ply == c.s.game.moves().len()
            && board.hash() == c.s.game.current().hash()
            && let Some(slot) = r.evals.get_mut(r.cursor)
        {
            *slot = Some(white);
        }
    }

    /// The whole game, variations and comments too.
    fn pgn(c: &Chess<'_, Self>) -> String {
        crate::game::write_pgn_tree(&c.task.parsed.game, &c.task.parsed.tree)
    }
}

impl ChessScreen<Replay> {
    /// A screen that replays `replay`: analysis follows the moves shown;
    /// nothing is saved (it is not a game of ours).
    pub fn replay(replay: Replay, spec: EngineSpec, ui: &mut Shared, now: Instant) -> Self {
        let mut s = ChessScreen {
            game: ChessGame::new(spec, None),
            task: replay,
        };
        s.game.started_at = Some(now);
        s.game.analysis.mode = Some(AnalysisMode { lines: 1 });
        ui.overlay = Overlay::None;
        s.at(ui).note_repertoire();
        s.at(ui).sync_replay();
        s
    }
}

impl Chess<'_, Replay> {
    /// Keys of a replayed game: its own commands, then the play screen's
    /// that make sense here.
    fn replay_screen_key(&mut self, k: KeyEvent, now: Instant) {
        if self.replay_key(k, now) {
            return;
        }
        match self.ui.keys.action(&k) {
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
                let play = self.ui.replay_key_hint(ReplayAction::PlayFromHere);
                let instead = format!("{play} plays on from here against the engine");
                self.ui.not_while_replaying(a, &instead);
            }
            // Esc stops autoplay; else it leaves the replay, back to the
            // game beneath (a new one if the app started on the file).
            Some(Action::Cancel) => {
                let playing = self.task.autoplay.take();
                self.ui.status = None;
                if playing.is_none() {
                    self.ui.close();
                }
            }
            Some(a) => self.run_action(a, now),
            None => self.ui.not_a_replay_command(k),
        }
    }

    // ------------------------------------------------------------------
    // Opening files.

    pub(super) fn on_checked(
        &mut self,
        id: u64,
        statuses: Vec<(
            usize,
            GameStatus,
            Option<&'static crate::game::openings::Opening>,
        )>,
        done: bool,
    ) {
        let r = &mut *self.task;
        if r.file_id != id {
            return; // another file's
        }
        for (i, st, opening) in statuses {
            if let Some(e) = r.library.entries.get_mut(i)
                && e.status == GameStatus::Unchecked
            {
                e.status = st;
                e.opening = opening;
            }
        }
        if done {
            r.checking = false;
        }
    }

    /// Stops the replay's background work (a review, the file's check).
    fn leave_replay(&mut self) {
        if matches!(self.task.review, ReviewState::Running { .. }) {
            self.ui.effects.push(Effect::CancelReview);
        }
        if self.task.checking {
            self.ui.effects.push(Effect::StopFile {
                id: self.task.file_id,
            });
        }
    }

    /// Shows game `index` of the open file.
    pub(super) fn show_game(&mut self, index: usize) {
        let r = &mut *self.task;
        if matches!(r.review, ReviewState::Running { .. }) {
            self.ui.effects.push(Effect::CancelReview);
        }
        let result = r.library.load(index);
        r.index = index;
        let problem = match result {
            Ok(p) => {
                r.parsed = p;
                None
            }
            Err(e) => {
                r.parsed = rp::empty_game(Board::startpos());
                Some(e)
            }
        };
        r.reset_game_state();
        self.note_repertoire();
        self.sync_replay();
        match problem {
            Some(e) => self
                .ui
                .error(format!("Game {} cannot be read: {e}", index + 1)),
            None => self.announce_game(),
        }
    }

    /// Finds where the game shown leaves your repertoire.
    pub(super) fn note_repertoire(&mut self) {
        let data = self.ui.dirs.data.clone();
        let reps = self.ui.openings.repertoires(data.as_deref());
        self.task.note_repertoire(reps);
    }

    pub(crate) fn announce_game(&mut self) {
        let r = &*self.task;
        let mut text = format!(
            "{} ({}): {}",
            r.library.name,
            r.file_summary(),
            r.parsed.game.header("White").map_or_else(
                || format!("game {}", r.index + 1),
                |w| format!("{w} - {}", r.parsed.game.header("Black").unwrap_or("?")),
            )
        );
        if let Some(w) = r.parsed.warnings.first() {
            text.push_str(&format!(". Note: {w}"));
        }
        let hint = format!(
            ". {}/{} step, {} autoplay, {} review",
            self.ui.replay_key_hint(ReplayAction::Previous),
            self.ui.replay_key_hint(ReplayAction::Next),
            self.ui.replay_key_hint(ReplayAction::Autoplay),
            self.ui.replay_key_hint(ReplayAction::Review)
        );
        text.push_str(&hint);
        self.ui.info(text);
    }

    pub fn replay_key_hint(&self, a: ReplayAction) -> String {
        self.ui
            .config
            .replay_keys
            .keys_for(a)
            .first()
            .cloned()
            .unwrap_or_default()
    }

    /// Makes the board, move list, evaluations and analysis follow the
    /// replay's cursor.
    pub(super) fn sync_replay(&mut self) {
        let r = &*self.task;
        self.s.game = r.game_at_cursor();
        self.s.opening.follow(&self.s.game);
        self.s.evals = r.path_evals();
        self.s.hint = None;
        self.s.pick.selected = None;
        if self.s.analysis.mode.is_none() {
            // No search: no lines about another position.
            self.s.search = SearchView::default();
        }
    }

    /// Moves the cursor to `node`.
    pub(super) fn replay_goto(&mut self, node: NodeId) {
        let r = &mut *self.task;
        if node >= r.tree().nodes.len() || node == r.cursor {
            return;
        }
        r.cursor = node;
        self.sync_replay();
        self.ui.status = None;
    }

    pub(super) fn autoplay_off(&mut self) {
        self.task.autoplay = None;
    }

    /// Autoplay: the next move when it is due; stops at the end.
    pub(super) fn replay_tick(&mut self, now: Instant) {
        let r = &mut *self.task;
        let Some(due) = r.autoplay else { return };
        if now < due || !matches!(self.ui.overlay, Overlay::None) {
            return;
        }
        match r.tree().node(r.cursor).children.first().copied() {
            Some(next) => {
                r.autoplay = Some(now + r.delay());
                self.replay_goto(next);
            }
            None => {
                r.autoplay = None;
                self.ui.info("Autoplay: the end of the line.");
            }
        }
    }

    // ------------------------------------------------------------------
    // Keys.

    /// Keys on the replay screen (no overlay open). Returns whether the key
    /// was used.
    pub(super) fn replay_key(&mut self, k: KeyEvent, now: Instant) -> bool {
        // The move-number box.
        if let Some(text) = &mut self.task.goto {
            match k.code {
                KeyCode::Enter => {
                    let text = self.task.goto.take().unwrap_or_default();
                    self.goto_move_number(&text);
                }
                KeyCode::Esc => {
                    self.task.goto = None;
                    self.ui.status = None;
                }
                KeyCode::Backspace => {
                    text.pop();
                    if text.is_empty() {
                        self.task.goto = None;
                    }
                }
                KeyCode::Char(c) if !c.is_control() && text.len() < 12 => {
                    text.push(c);
                }
                _ => {}
            }
            return true;
        }
        let plain = !k
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        if let KeyCode::Char(c) = k.code
            && plain
            && c.is_ascii_digit()
        {
            self.task.goto = Some(c.to_string());
            self.autoplay_off();
            self.ui.info("Go to move: type its number (23, or 23b for Black's) or a move to try, then Enter.");
            return true;
        }
        let Some(a) = self.ui.config.replay_keys.action(&k) else {
            return false;
        };
        self.run_replay_action(a, now);
        true
    }

    pub(super) fn run_replay_action(&mut self, a: ReplayAction, now: Instant) {
        self.ui.last_replay_action = Some(a);
        let r = &*self.task;
        let tree = r.tree();
        let cur = r.cursor;
        let next = tree.node(cur).children.first().copied();
        let parent = tree.node(cur).parent;
        let mut last = cur;
        while let Some(&c) = tree.node(last).children.first() {
            last = c;
        }
        let sibs = parent
            .map(|p| tree.node(p).children.clone())
            .unwrap_or_default();
        let autoplaying = r.autoplay.is_some();
        let index = r.index;
        let stepping = matches!(
            a,
            ReplayAction::Next
                | ReplayAction::Previous
                | ReplayAction::First
                | ReplayAction::Last
                | ReplayAction::Games
                | ReplayAction::VariationUp
                | ReplayAction::VariationDown
        );
        if stepping {
            self.autoplay_off();
        }
        match a {
            ReplayAction::Next => match next {
                Some(n) => self.replay_goto(n),
                None => self.ui.info("The end of the line."),
            },
            ReplayAction::Previous => match parent {
                Some(p) => self.replay_goto(p),
                None => self.ui.info("The start of the game."),
            },
            ReplayAction::First => self.replay_goto(0),
            ReplayAction::Last => self.replay_goto(last),
            ReplayAction::VariationUp | ReplayAction::VariationDown => {
                if sibs.len() < 2 {
                    self.ui.info("No alternatives to this move.");
                    return;
                }
                let i = sibs.iter().position(|&s| s == cur).unwrap_or(0);
                let j = if a == ReplayAction::VariationDown {
                    (i + 1) % sibs.len()
                } else {
                    (i + sibs.len() - 1) % sibs.len()
                };
                self.replay_goto(sibs[j]);
                let what = if j == 0 {
                    "the main line".to_string()
                } else {
                    format!("variation {j} of {}", sibs.len() - 1)
                };
                self.ui.info(format!("Now on {what}."));
            }
            ReplayAction::Autoplay => {
                if autoplaying {
                    self.autoplay_off();
                    self.ui.info("Autoplay stopped.");
                } else if next.is_none() {
                    self.ui.info("Autoplay: already at the end of the line.");
                } else {
                    let r = &mut *self.task;
                    r.autoplay = Some(now + r.delay());
                    let d = r.delay().as_secs_f64();
                    self.ui.info(format!(
                        "Autoplay: a move every {d:.2} s ({} faster, {} slower, {} stops).",
                        self.ui.replay_key_hint(ReplayAction::Faster),
                        self.ui.replay_key_hint(ReplayAction::Slower),
                        self.ui.replay_key_hint(ReplayAction::Autoplay)
                    ));
                }
            }
            ReplayAction::Faster | ReplayAction::Slower => {
                let r = &mut *self.task;
                r.delay = if a == ReplayAction::Faster {
                    r.delay.saturating_sub(1)
                } else {
                    (r.delay + 1).min(DELAYS.len() - 1)
                };
                if let Some(due) = &mut r.autoplay {
                    *due = now + DELAYS[r.delay];
                }
                let d = r.delay().as_secs_f64();
                self.ui.info(format!("Autoplay: a move every {d:.2} s."));
            }
            ReplayAction::GoTo => {
                self.autoplay_off();
                self.task.goto = Some(String::new());
                self.ui.info(
                    "Type a move number (23, or 23b for Black's) or a move to try (Nf3, e2e4), then Enter.",
                );
            }
            ReplayAction::Games => self.ui.overlay = Overlay::Games { selected: index },
            ReplayAction::Open => self.ui.open_file_picker(),
            ReplayAction::Review => self.toggle_review(),
            ReplayAction::PlayFromHere => self.play_from_here(now),
            ReplayAction::RetryWhite => self.start_retry(Color::White, now),
            ReplayAction::RetryBlack => self.start_retry(Color::Black, now),
            ReplayAction::Export => self.export_annotated(),
            ReplayAction::Refutation => self.explore_refutation(),
        }
    }

    /// Plays `mv` (legal here) as a move of the tree: an existing move is
    /// followed, a new one becomes a variation (in memory, not in the file).
    pub(super) fn replay_add_move(&mut self, mv: Move) {
        let board = self.board().clone();
        let r = &mut *self.task;
        let before = r.parsed.tree.nodes.len();
        let id = r.parsed.tree.add(r.cursor, &board, mv);
        let n = r.parsed.tree.nodes.len();
        r.evals.resize(n, None);
        r.reviews.resize(n, None);
        r.autoplay = None;
        let new = n > before;
        self.replay_goto(id);
        if new {
            self.ui.info(format!(
                "You try {} (not saved in the file; C copies the game with your moves).",
                board.san(mv)
            ));
        }
    }

    /// "23" goes to White's 23rd move, "23b" / "23..." to Black's; a move
    /// (e4, Nf3, e2e4) is played from the position shown.
    fn goto_move_number(&mut self, text: &str) {
        let looks_like_number = text
            .trim()
            .trim_end_matches(['b', 'B', '.'])
            .chars()
            .all(|c| c.is_ascii_digit());
        if !looks_like_number {
            let board = self.board().clone();
            match crate::ui::input::parse_move(board.chess(), text) {
                Ok(m) => self.replay_add_move(m),
                Err(e) => self.ui.error(format!("{e} (or a move number: 23, 23b)")),
            }
            return;
        }
        let t = text.trim().to_ascii_lowercase();
        let black = t.ends_with('b') || t.ends_with("...");
        let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
        let Ok(number) = digits.parse::<u32>() else {
            self.ui
                .error(format!("'{text}' is not a move number (try 23 or 23b)."));
            return;
        };
        let r = &*self.task;
        // On the line through the cursor: the path, then its main continuation.
        let tree = r.tree();
        let mut line = tree.path(r.cursor);
        let mut n = r.cursor;
        while let Some(&c) = tree.node(n).children.first() {
            line.push(c);
            n = c;
        }
        let want = if black {
            shakmaty::Color::Black
        } else {
            shakmaty::Color::White
        };
        if number == 0 {
            self.replay_goto(0);
            return;
        }
        // Not in this line: the main line's.
        let found = line
            .iter()
            .copied()
            .find(|&id| tree.move_number(id) == (number, want))
            .or_else(|| {
                let main = tree.main_line();
                let hit = main
                    .iter()
                    .copied()
                    .find(|&id| tree.move_number(id) == (number, want));
                if hit.is_some() {
                    line = main;
                }
                hit
            });
        match found {
            Some(id) => {
                self.replay_goto(id);
                self.ui.status = None;
            }
            None => {
                let last = line.last().map(|&id| tree.move_number(id).0).unwrap_or(0);
                self.ui.error(format!(
                    "There is no move {number}{} in this line (it has {last} moves).",
                    if black { " for Black" } else { "" }
                ));
            }
        }
    }

    /// Keys of the game list.
    pub(super) fn games_key(&mut self, k: KeyEvent) {
        let Overlay::Games { selected } = &mut self.ui.overlay else {
            return;
        };
        let r = &*self.task;
        let n = r.library.entries.len();
        let page = (self.ui.size.1 as usize).saturating_sub(8).max(1);
        match k.code {
            KeyCode::Up | KeyCode::Char('k') => *selected = selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => *selected = (*selected + 1).min(n - 1),
            KeyCode::PageUp => *selected = selected.saturating_sub(page),
            KeyCode::PageDown => *selected = (*selected + page).min(n - 1),
            KeyCode::Home | KeyCode::Char('g') => *selected = 0,
            KeyCode::End | KeyCode::Char('G') => *selected = n - 1,
            KeyCode::Enter => {
                let i = *selected;
                self.ui.overlay = Overlay::None;
                self.show_game(i);
            }
            KeyCode::Esc | KeyCode::Char('L') => self.ui.overlay = Overlay::None,
            KeyCode::Char('q') => self.do_quit(),
            KeyCode::Char('o') => self.ui.open_file_picker(),
            _ => {}
        }
    }

    // ------------------------------------------------------------------
    // Mouse.

    /// A click on the board while replaying: pick a piece of the side to
    /// move, then its square, to try a move (a queen when it promotes).
    fn replay_board_click(&mut self, col: u16, row: u16) -> bool {
        let Some(geo) = self.geometry() else {
            return false;
        };
        let Some(sq) = geo.square_at(col, row, self.ui.look.flipped) else {
            return false;
        };
        let board = self.board().clone();
        let own = board
            .chess()
            .board()
            .color_at(sq)
            .is_some_and(|c| c == board.turn());
        if let Some(from) = self.s.pick.selected.take()
            && from != sq
        {
            let legal = board.chess().legal_moves();
            let mv = legal
                .iter()
                .filter(|m| m.from() == Some(from) && shown_to(**m) == sq)
                .max_by_key(|m| m.promotion() == Some(Role::Queen))
                .copied();
            match mv {
                Some(m) => {
                    self.replay_add_move(m);
                    return true;
                }
                None if !own => {
                    self.ui.error(format!(
                        "{}{from} cannot go to {sq} here.",
                        board
                            .chess()
                            .board()
                            .role_at(from)
                            .map(|r| r.upper_char().to_string())
                            .unwrap_or_default()
                            .replace('P', "")
                    ));
                    return true;
                }
                None => {}
            }
        }
        if own {
            self.s.pick.selected = Some(sq);
            self.s.pick.cursor = sq;
        }
        true
    }

    /// A click on the replay panel: a move of the list, or the eval graph.
    pub(super) fn replay_click(&mut self, col: u16, row: u16) -> bool {
        if self.replay_board_click(col, row) {
            return true;
        }
        let r = &*self.task;
        let area = ratatui::layout::Rect::new(0, 0, self.ui.size.0, self.ui.size.1);
        let Some(l) = layout::layout(area) else {
            return false;
        };
        let parts = layout::replay_panel(l.panel);
        let inside = |a: ratatui::layout::Rect| {
            col >= a.x && col < a.x + a.width && row >= a.y && row < a.y + a.height
        };
        if let Some(moves) = parts.moves
            && inside(moves)
        {
            let head = super::draw::replay_titles(self.s.opening.text(), r, moves.width)
                .inside
                .len() as u16;
            let (rows, first, inner) = layout::replay_rows(r, moves, head);
            if row < inner.y || col < inner.x || row >= inner.y + inner.height {
                return true; // the border or the notes under the list
            }
            let i = first + (row - inner.y) as usize;
            let x = col - inner.x;
            let hit = rows.get(i).and_then(|rw| {
                rw.iter()
                    .find(|p| x >= p.x && x < p.x + p.tok.text.chars().count() as u16)
                    .and_then(|p| match p.tok.kind {
                        rp::TokKind::Move(id) => Some(id),
                        _ => None,
                    })
            });
            if let Some(id) = hit {
                self.task.autoplay = None;
                self.replay_goto(id);
            }
            return true;
        }
        if let Some(graph) = parts.graph
            && inside(graph)
            && graph.width > 2
        {
            let main = r.main_nodes();
            let width = (graph.width - 2) as usize;
            let c = col.saturating_sub(graph.x + 1) as usize;
            let ply = (c * main.len() / width.max(1)).min(main.len() - 1);
            self.replay_goto(main[ply]);
            return true;
        }
        false
    }
}
