//! Drills on the chess screen: puzzles (one move at a time, the
//! opponent's replies played for you, as on lichess) and Retry (the
//! positions before your marked mistakes in a reviewed game: find a better
//! move; any move almost as good as the best is accepted, which the
//! assistant engine judges).

use super::super::*;
use crate::game::review::{INACCURACY, white_view, win_chance};
use crate::train::puzzle::Puzzle;
use crate::train::session::{Check, Hint as RunHint, Run};

/// Time the assistant takes to judge a move that is not the best (Retry).
pub const CHECK_MOVETIME: Duration = Duration::from_millis(700);

impl Task for Drill {
    const OPENINGS: bool = false;
    const KEPT: bool = false;

    fn view(&self) -> TaskView<'_> {
        TaskView::Drill(self)
    }

    fn action(c: &mut Chess<'_, Self>, a: Action, now: Instant) -> bool {
        let retry = c.task.is_retry();
        match a {
            // Back to what was there before.
            Action::Quit => c.leave_drill(),
            Action::Cancel if c.s.pick.selected.is_none() => c.leave_drill(),
            Action::NewGame => c.drill_next(now),
            Action::Takeback => c.ui.error(format!(
                "No takebacks here: a wrong move is not played. {} = hint.",
                c.ui.keys_hint(Action::Hint)
            )),
            Action::OfferDraw | Action::Resign | Action::Pause => c.ui.error(format!(
                "Not in a puzzle: {} gives up (shows the answer step by step).",
                c.ui.keys_hint(Action::Hint)
            )),
            Action::Puzzles if !retry => c.open_theme_menu(),
            Action::Explore if retry => {
                if !c.drill_explore() {
                    c.open_explorer(crate::ui::screens::explorer::DEFAULT_DEPTH);
                }
            }
            _ => return false,
        }
        true
    }

    fn finished(&self) -> bool {
        Drill::finished(self)
    }

    fn reply(c: &mut Chess<'_, Self>, now: Instant) {
        c.drill_reply(now);
    }

    fn allows(c: &mut Chess<'_, Self>, m: Move, now: Instant) -> bool {
        !c.human_to_move() || c.drill_allows(m, now)
    }

    fn after_move(c: &mut Chess<'_, Self>, before: &Board, m: Move) {
        c.drill_after_move(before, m);
    }

    fn hint(c: &mut Chess<'_, Self>, now: Instant) {
        c.drill_hint(now);
    }

    fn checked(c: &mut Chess<'_, Self>, id: u64, score: Option<Score>, now: Instant) {
        c.drill_checked(id, score, now);
    }
}

impl ChessScreen<Drill> {
    /// A screen with `puzzle` on the board as the drill `kind`; None (and
    /// why said) if it cannot be played.
    pub fn drill(ui: &mut Shared, kind: DrillKind, puzzle: Puzzle, now: Instant) -> Option<Self> {
        let run = playable(ui, puzzle)?;
        let mut s = ChessScreen {
            game: ChessGame::new(EngineSpec::BuiltIn { level: 8 }, None),
            task: Drill::new(kind, run),
        };
        s.at(ui).begin(now);
        Some(s)
    }
}

/// The puzzle's run, or None (and why said) when it cannot be played.
fn playable(ui: &mut Shared, puzzle: Puzzle) -> Option<Run> {
    match Run::new(puzzle) {
        Ok(r) => Some(r),
        Err(e) => {
            ui.error(format!("This position cannot be played: {e}"));
            None
        }
    }
}

impl Chess<'_, Drill> {
    /// Leaves a drill's screen: back to the screen beneath.
    fn leave_drill(&mut self) {
        let retry = self.task.is_retry();
        self.stop_all();
        self.ui.info(if retry {
            "Left Retry (the positions you tried are among your puzzles)."
        } else {
            "Left the puzzles (your progress is saved)."
        });
        self.ui.close();
    }

    /// Puts `puzzle` on the board in place of the position shown, as the
    /// drill `kind`; false (and why said) if it cannot be played.
    fn restart(&mut self, kind: DrillKind, puzzle: Puzzle, now: Instant) -> bool {
        let Some(run) = playable(self.ui, puzzle) else {
            return false;
        };
        *self.task = Drill::new(kind, run);
        self.begin(now);
        true
    }

    /// Sets the board up for the drill's position and says what to find.
    fn begin(&mut self, now: Instant) {
        self.stop_all();
        let run = &self.task.run;
        let kind = &self.task.kind;
        let solver = run.solver();
        self.s.game = Game::new(Board::from_chess(run.start().clone()));
        self.s.mode = Mode::HumanVsEngine { human: solver };
        self.s.clocks = None;
        self.s.opponent.forget();
        self.s.pick.selected = None;
        self.s.pick.clear();
        self.s.hint = None;
        self.s.evals.clear();
        self.s.file = GameFile::default();
        self.s.scroll = 0;
        self.s.paused = false;
        self.s.pick.typing.close();
        self.ui.look.flipped = solver == Color::Black;
        self.s.pick.cursor = if solver == Color::White {
            Square::E2
        } else {
            Square::E7
        };
        let intro = match kind {
            DrillKind::Puzzles { .. } => format!(
                "Puzzle {} (rated {}): find the best move for {}.",
                run.puzzle.id,
                run.puzzle.rating,
                color_name(solver)
            ),
            DrillKind::Retry { items, index, .. } => match items.get(*index) {
                Some(it) => format!(
                    "Position {} of {}: in the game {} was a {}. Find a better move for {}.",
                    index + 1,
                    items.len(),
                    it.played,
                    it.judgement.name().to_lowercase(),
                    color_name(solver)
                ),
                None => String::new(),
            },
        };
        let (you, them) = match kind {
            DrillKind::Puzzles { .. } => ("You", "Puzzle"),
            DrillKind::Retry { .. } => ("You", "The game"),
        };
        let (w, b) = if solver == Color::White {
            (you, them)
        } else {
            (them, you)
        };
        self.s.game.set_header("White", w);
        self.s.game.set_header("Black", b);
        self.s.started_at = Some(now);
        self.ui.info(format!(
            "{intro} {} = hint, {} = next.",
            self.ui.keys_hint(Action::Hint),
            self.ui.keys_hint(Action::NewGame)
        ));
        self.next_turn(now);
    }

    /// The opponent's move from the drill's line, after a short pause.
    pub(super) fn drill_reply(&mut self, now: Instant) {
        let d = &*self.task;
        if let Some(m) = d.run.reply() {
            // The first move is the game's: shown a little later, so the
            // solver sees what happened.
            let delay = if d.run.played() == 0 {
                REPLY_DELAY * 2
            } else {
                REPLY_DELAY
            };
            self.s.opponent.hold(m, now + delay);
        }
    }

    /// Before the solver's move `m` is played: whether it may be (the
    /// solution's move, or another mate); a wrong move is refused and
    /// counted, and in Retry another move goes to the engine to be judged.
    pub(super) fn drill_allows(&mut self, m: Move, now: Instant) -> bool {
        let d = &mut *self.task;
        if d.pass == Some(m) {
            d.pass = None;
            return true;
        }
        if d.finished() {
            self.ui.info(format!(
                "Done here: {} for the next one.",
                self.ui.keys_hint(Action::NewGame)
            ));
            return false;
        }
        if matches!(d.state, DrillState::Checking { .. }) {
            self.ui.info("Still judging your last move…");
            return false;
        }
        let san = self.s.game.current().san(m);
        match d.run.check(m) {
            Check::Expected | Check::AlsoMates => {
                d.run.try_move(m);
                true
            }
            Check::Other if d.is_retry() => {
                // Not the engine's move: judged by how much it gives away.
                let id = self.ui.new_id();
                d.state = DrillState::Checking { id, mv: m };
                d.verdict = Some((true, format!("{san}: judging…")));
                let mut moves = self.s.game.moves().to_vec();
                moves.push(m);
                self.s.pending.push((ASSISTANT, id, Purpose::Check));
                self.ui.ask_assistant(Request {
                    id,
                    purpose: Purpose::Check,
                    multipv: 1,
                    start: self.s.game.start().clone(),
                    moves,
                    limits: Limits {
                        movetime: Some(CHECK_MOVETIME),
                        ..Limits::default()
                    },
                });
                self.ui.info(format!("{san}: let me check it…"));
                let _ = now;
                false
            }
            Check::Other => {
                d.run.try_move(m);
                let text = format!(
                    "{san} is not it. Try again ({} = hint).",
                    self.ui.keys_hint(Action::Hint)
                );
                d.verdict = Some((false, text.clone()));
                self.ui.error(text);
                self.drill_record(false);
                false
            }
        }
    }

    /// After a move of the drill was played: the reply's bookkeeping, or
    /// the verdict on the solver's move and the end of the position.
    pub(super) fn drill_after_move(&mut self, before: &Board, m: Move) {
        let d = &mut *self.task;
        if before.turn() != d.run.solver() {
            // The opponent's move, from the line.
            if d.run.reply() == Some(m) {
                d.run.play_reply();
            }
            return;
        }
        d.hint = None;
        let san = before.san(m);
        if !d.run.is_solved() {
            d.verdict = Some((true, format!("{san}: right. Keep going.")));
            self.ui.info(format!("{san}: right. Keep going."));
            return;
        }
        if d.state == DrillState::Solving {
            d.state = DrillState::Solved;
        }
        let clean = d.run.is_clean();
        let shown = d.state == DrillState::Shown;
        let what = match (&d.kind, shown, clean) {
            (_, true, _) => format!("The answer: {san}."),
            (DrillKind::Puzzles { .. }, false, true) => format!("{san}: solved!"),
            (DrillKind::Puzzles { .. }, false, false) => format!("{san}: solved, with help."),
            (DrillKind::Retry { .. }, false, true) => format!("{san}: found it!"),
            (DrillKind::Retry { .. }, false, false) => format!("{san}: found, with help."),
        };
        d.verdict = Some((clean && !shown, what.clone()));
        match &mut d.kind {
            DrillKind::Puzzles { done, solved, .. } => {
                *done += 1;
                if clean {
                    *solved += 1;
                }
            }
            DrillKind::Retry { found, .. } => {
                if clean {
                    *found += 1;
                }
            }
        }
        self.drill_record(clean);
        let rating = self
            .task
            .rating_note
            .clone()
            .map(|r| format!(" {r}."))
            .unwrap_or_default();
        self.ui.info(format!(
            "{what}{rating} {} = next.",
            self.ui.keys_hint(Action::NewGame)
        ));
    }

    /// The assistant judged a Retry move: accepted if it loses less than an
    /// inaccuracy's worth of winning chance against the best move.
    pub(super) fn drill_checked(&mut self, id: u64, score: Option<Score>, now: Instant) {
        let d = &mut *self.task;
        let DrillState::Checking { id: want, mv } = d.state else {
            return;
        };
        if want != id {
            return;
        }
        d.state = DrillState::Solving;
        let board = self.s.game.current().clone();
        let mover = board.turn();
        let san = board.san(mv);
        let Some(item) = d.retry_item().cloned() else {
            return;
        };
        let after = board.play(mv);
        let Some(score) = score else {
            d.verdict = Some((false, format!("{san}: the engine could not judge it.")));
            return;
        };
        let got = white_view(score, after.turn());
        let loss = (win_chance(item.best_score, mover) - win_chance(got, mover)).max(0.0);
        let shown = |s: Score| score_text(s);
        if loss < INACCURACY {
            d.run.accept(mv);
            d.pass = Some(mv);
            self.ui.info(format!(
                "{san} is as good ({}; best {}).",
                shown(got),
                shown(item.best_score)
            ));
            self.play(mv, now);
        } else {
            d.run.try_move(mv); // counted as a wrong try
            let text = format!(
                "{san} is not good enough ({}; the best keeps {}). Try again ({} = hint).",
                shown(got),
                shown(item.best_score),
                self.ui.keys_hint(Action::Hint)
            );
            d.verdict = Some((false, text.clone()));
            self.ui.error(text);
            self.drill_record(false);
        }
    }

    /// A hint: the piece to move, then its square, then the answer.
    pub(super) fn drill_hint(&mut self, now: Instant) {
        let d = &mut *self.task;
        if d.finished() || matches!(d.state, DrillState::Checking { .. }) {
            return;
        }
        let board = self.s.game.current().clone();
        let Some(h) = d.run.hint() else { return };
        match h {
            RunHint::Piece(sq, role) => {
                d.hint = Some((sq, None));
                self.s.pick.selected = Some(sq);
                self.ui
                    .info(format!("Hint: move the {} on {sq}.", role_name(role)));
            }
            RunHint::Move(from, to) => {
                d.hint = Some((from, Some(to)));
                if let Some(mv) = d.run.expected() {
                    self.s.hint = Some(Hint {
                        mv,
                        line: vec![mv],
                        score: None,
                        ply: self.s.game.moves().len(),
                    });
                }
                self.ui.info(format!("Hint: from {from} to {to}."));
            }
            RunHint::Answer(m) => {
                if d.run.is_solved() {
                    d.state = DrillState::Shown;
                }
                d.hint = None;
                let line = san_line(&board, &d.run.line()[d.run.played() - 1..], 8);
                self.ui.info(format!("The answer: {line}"));
                d.pass = Some(m);
                self.drill_record(false);
                self.play(m, now);
            }
        }
    }

    /// The next puzzle, or the next Retry position.
    pub(super) fn drill_next(&mut self, now: Instant) {
        let d = self.task.clone();
        if !d.finished() && !d.recorded && d.run.played() > 1 {
            // Leaving a position half solved counts as not solved (one
            // not yet tried is only skipped).
            self.drill_record(false);
        }
        match d.kind {
            DrillKind::Puzzles {
                theme,
                done,
                solved,
            } => {
                let current = d.run.puzzle.id.clone();
                match self.ui.next_puzzle(theme.as_deref(), Some(&current)) {
                    Some(p) => {
                        self.restart(
                            DrillKind::Puzzles {
                                theme,
                                done,
                                solved,
                            },
                            p,
                            now,
                        );
                    }
                    None => self.ui.info("No more puzzles here: try another theme."),
                }
            }
            DrillKind::Retry {
                side,
                items,
                index,
                found,
            } => {
                let next = index + 1;
                if next >= items.len() {
                    self.ui.info(format!(
                        "Retry done: {found} of {} found first time. They come back among your puzzles. {} = back to the game.",
                        items.len(),
                        self.ui.keys_hint(Action::Quit)
                    ));
                    return;
                }
                let p = items[next].puzzle.clone();
                self.restart(
                    DrillKind::Retry {
                        side,
                        items,
                        index: next,
                        found,
                    },
                    p,
                    now,
                );
            }
        }
    }

    /// Puzzles: the list of themes to filter by (the current one chosen).
    pub(super) fn open_theme_menu(&mut self) {
        let d = &*self.task;
        let DrillKind::Puzzles { theme, .. } = &d.kind else {
            return;
        };
        let theme = theme.clone();
        let themes = self.ui.puzzle_themes();
        let selected = theme
            .and_then(|t| themes.iter().position(|(n, _)| *n == t))
            .map_or(0, |i| i + 1);
        self.ui.overlay = Overlay::PuzzleThemes { themes, selected };
    }

    /// Puzzles: filter by `theme` (`None`: every theme) and go to a puzzle
    /// of it at once.
    pub(crate) fn drill_set_theme(&mut self, theme: Option<String>, now: Instant) {
        let d = &mut *self.task;
        let DrillKind::Puzzles { theme: current, .. } = &mut d.kind else {
            return;
        };
        *current = theme;
        self.drill_next(now);
    }

    /// Retry: the search-tree explorer on the position after the game's
    /// mistake, where the refutation is the principal variation.
    pub(super) fn drill_explore(&mut self) -> bool {
        let d = &*self.task;
        let Some(item) = d.retry_item() else {
            return false;
        };
        let mut pos = crate::engine::GamePosition::new(Board::from_chess(d.run.start().clone()));
        pos.push(d.run.line()[0]);
        if !pos.current().is_legal(item.played_move) {
            return false;
        }
        pos.push(item.played_move);
        if !crate::engine::has_legal_moves(pos.current()) {
            return false;
        }
        let ex = crate::ui::screens::explorer::Explorer::new(
            pos,
            crate::ui::screens::explorer::DEFAULT_DEPTH,
            crate::engine::Features::default(),
            crate::engine::tree::DEFAULT_NODE_CAP,
        );
        crate::ui::screens::explorer::open(self.ui, ex, false);
        true
    }

    /// Sends the position's result to the store, once: a puzzle moves the
    /// rating; a Retry position joins your puzzles (it comes back).
    pub(super) fn drill_record(&mut self, solved: bool) {
        let d = &mut *self.task;
        if d.recorded {
            return;
        }
        d.recorded = true;
        let source = if d.is_retry() {
            crate::train::store::Source::Mistake
        } else {
            crate::train::store::Source::Lichess
        };
        let puzzle = d.run.puzzle.clone();
        let note = self.ui.record_puzzle(&puzzle, source, solved);
        self.task.rating_note = note;
    }
}
