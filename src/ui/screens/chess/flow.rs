//! Game flow: turns, engine answers, clocks, takebacks, draws and the end
//! of a game (starting and resuming games: `start.rs`).

use super::*;

impl<T: Task> Chess<'_, T> {
    // ------------------------------------------------------------------
    // Turn flow.

    /// After a move or a (re)start: end the game if the rules say so, else
    /// start the right clock and, if it is the engine's turn, ask it.
    pub(super) fn next_turn(&mut self, now: Instant) {
        if self.is_over() || self.task.finished() {
            return;
        }
        if let Some(ending) = self.s.game.rule_ending(self.s.mode == Mode::EngineVsEngine) {
            self.finish(ending, now);
            return;
        }
        if self.s.paused {
            return;
        }
        let turn = self.board().turn();
        if let Some(c) = &mut self.s.clocks
            && c.running() != Some(turn)
            && !self.s.game.moves().is_empty()
        {
            c.start(turn, now);
        }
        if self.engine_to_move() && !self.engine_thinking() {
            // The engine claims a draw it is entitled to when it is not better.
            if let Some(claim) = self.claimable_draw()
                && self.s.opponent.score.is_none_or(|s| s.0 <= 0)
            {
                self.finish(claim, now);
                return;
            }
            self.request_move(now);
        } else if self.human_to_move()
            && let Some(claim) = self.claimable_draw()
        {
            self.ui.info(format!(
                "{}: you may claim a draw ({}).",
                capitalise(claim.termination.describe()),
                self.ui.keys_hint(Action::OfferDraw)
            ));
        }
    }

    /// Threefold repetition or the 50-move rule, claimable now.
    pub fn claimable_draw(&self) -> Option<Ending> {
        self.s.claimable_draw()
    }

    /// The opponent's turn, as the task has it answered.
    pub(super) fn request_move(&mut self, now: Instant) {
        T::reply(self, now);
    }

    /// Asks the opponent engine for its move (with the clock, or the
    /// limits of its spec).
    pub(super) fn ask_engine(&mut self, now: Instant) {
        if self.s.opponent.table == 0 {
            self.s.opponent.seat_engines(self.ui, self.s.mode);
        } else if self.s.opponent.dead {
            self.s.opponent.restart(self.ui, self.s.mode);
        }
        let clock = self
            .s
            .clocks
            .as_ref()
            .map(|c| crate::ui::seats::engine_clock(c, now));
        let limits = crate::ui::seats::move_limits(
            &self.s.opponent.spec,
            clock,
            crate::variant::VariantKind::Chess,
        );
        let id = self.ui.next_id;
        self.ui.next_id += 1;
        let seat = usize::from(self.board().turn() == Color::Black);
        self.s.pending.push((seat, id, Purpose::Move));
        let name = match self.s.opponent.spec {
            // Full strength searches on every configured thread.
            EngineSpec::BuiltIn { level: 8 } => match self.threads() {
                Some(t) => format!("{} ({t})", self.s.opponent.name),
                None => self.s.opponent.name.clone(),
            },
            _ => self.s.opponent.name.clone(),
        };
        self.s.search = SearchView::new(name, self.board(), self.s.game.moves().len(), now);
        let go = Go::of(Request {
            id,
            purpose: Purpose::Move,
            multipv: 1,
            start: self.s.game.start().clone(),
            moves: self.s.game.moves().to_vec(),
            limits,
        });
        let job = EngineJob::Go {
            seat,
            go: Box::new(go),
        };
        self.s.opponent.job(self.ui, job);
    }

    /// When the move the engine to move found now is due: when a player
    /// of its level would have moved with this clock (see
    /// [`crate::ui::seats::engine_due`]); `None` without a clock, in fast
    /// mode, or once that time has passed.
    /// "2 threads" when the built-in engine searches at full strength on
    /// more than one (said on screen, as it is not the obvious default).
    fn threads(&self) -> Option<String> {
        let n = self.ui.config.engine_threads;
        (n > 1).then(|| format!("{n} threads"))
    }

    fn paced_move(&self, now: Instant) -> Option<Instant> {
        use crate::ui::seats::{Player, engine_due};
        let clocks = self.s.clocks.as_ref()?;
        if self.ui.config.engine_pace == crate::ui::pace::Pace::Fast {
            return None;
        }
        let mut rng = crate::util::Rng::from_entropy();
        let player = Player::Engine(self.s.opponent.spec.clone());
        let turn = self.board().turn();
        let moves_made = self.s.game.moves().len() / 2;
        engine_due(clocks, turn, &player, moves_made, None, &mut rng, now)
    }

    pub(super) fn request_hint(&mut self, now: Instant) {
        if !self.human_to_move() {
            self.ui.error("A hint is for your own move.");
            return;
        }
        T::hint(self, now);
    }

    /// The assistant engine's best line as a hint (the analysis' when it
    /// runs on this position).
    pub(super) fn engine_hint(&mut self, now: Instant) {
        if self.s.pending.iter().any(|p| p.2 == Purpose::Hint) {
            return;
        }
        // Analysing already: its best line is the hint.
        if self
            .s
            .analysis
            .running
            .is_some_and(|(ply, _, _)| ply == self.s.game.moves().len())
            && let Some(line) = self.s.search.lines.first().filter(|l| !l.pv.is_empty())
        {
            let board = self.board().clone();
            let mv = line.pv[0];
            let text = format!(
                "Hint: {} ({})   line: {}",
                board.san(mv),
                line.score.map(score_text).unwrap_or_default(),
                san_line(&board, &line.pv, 6)
            );
            self.s.hint = Some(Hint {
                mv,
                line: line.pv.clone(),
                score: line.score,
                ply: self.s.game.moves().len(),
            });
            self.ui.info(text);
            return;
        }
        let id = self.ui.next_id;
        self.ui.next_id += 1;
        self.s.pending.push((ASSISTANT, id, Purpose::Hint));
        self.s.search = SearchView::new(
            match self.threads() {
                Some(t) => format!("Kibitz (hint, {t})"),
                None => "Kibitz (hint)".to_string(),
            },
            self.board(),
            self.s.game.moves().len(),
            now,
        );
        self.ui.info("Thinking about a hint...");
        self.ui.ask_assistant(Request {
            id,
            purpose: Purpose::Hint,
            multipv: 1,
            start: self.s.game.start().clone(),
            moves: self.s.game.moves().to_vec(),
            limits: Limits {
                movetime: Some(self.s.hint_time),
                ..Limits::default()
            },
        });
    }

    /// Keeps the analysis search in step with the position: started when
    /// analysis is on and the opponent engine is not thinking, restarted
    /// when the position or the number of lines changed, stopped otherwise.
    pub(super) fn sync_analysis(&mut self, now: Instant) {
        let ply = self.s.game.moves().len();
        let want = self
            .s
            .analysis
            .mode
            .filter(|_| {
                !self.engine_thinking()
                    && !self.s.paused
                    && crate::engine::has_legal_moves(self.board())
            })
            .map(|a| (ply, a.lines, self.board().hash()));
        if want.is_some() && want == self.s.analysis.done {
            return; // finished by itself: the panel keeps its result
        }
        let running = self
            .s
            .pending
            .iter()
            .find(|p| p.2 == Purpose::Analysis)
            .map(|p| p.1);
        let current = running.zip(self.s.analysis.running);
        if want.is_some() && current.is_some_and(|(_, w)| Some(w) == want) {
            return;
        }
        if let Some(id) = running {
            self.s.pending.retain(|p| p.1 != id);
            self.ui.assistant(EngineJob::Stop { seat: ASSISTANT });
            self.s.search.thinking = self.engine_thinking();
        }
        self.s.analysis.running = None;
        let Some((ply, lines, hash)) = want else {
            return;
        };
        // A hint search in progress gives way to the analysis.
        self.s.pending.retain(|p| p.2 != Purpose::Hint);
        let id = self.ui.next_id;
        self.ui.next_id += 1;
        self.s.pending.push((ASSISTANT, id, Purpose::Analysis));
        self.s.analysis.running = Some((ply, lines, hash));
        self.s.search = SearchView::new(
            format!(
                "Kibitz analysis, {lines} line{}{}",
                if lines == 1 { "" } else { "s" },
                self.threads().map_or(String::new(), |t| format!(", {t}"))
            ),
            self.board(),
            ply,
            now,
        );
        self.ui.ask_assistant(Request {
            id,
            purpose: Purpose::Analysis,
            multipv: lines,
            start: self.s.game.start().clone(),
            moves: self.s.game.moves().to_vec(),
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
        });
    }

    /// Drops the hint on the board and any hint search still running (after
    /// a move or a takeback it would be about another position).
    pub(super) fn forget_hint(&mut self) {
        self.s.hint = None;
        let before = self.s.pending.len();
        self.s.pending.retain(|p| p.2 != Purpose::Hint);
        if self.s.pending.len() != before {
            self.ui.assistant(EngineJob::Stop { seat: ASSISTANT });
            self.s.search.thinking = !self.s.pending.is_empty();
        }
    }

    /// Stops and forgets every outstanding search.
    pub(super) fn stop_all(&mut self) {
        for (seat, _, _) in std::mem::take(&mut self.s.pending) {
            let stop = EngineJob::Stop { seat };
            match seat {
                ASSISTANT => self.ui.assistant(stop),
                _ => self.s.opponent.job(self.ui, stop),
            }
        }
        self.s.search.thinking = false;
        self.s.search.progress = None;
    }

    /// Plays a legal move for whoever is to move (unless the mover's flag
    /// fell before the move arrived).
    pub(super) fn play(&mut self, m: Move, now: Instant) {
        let mover = self.board().turn();
        if let Some(flagged) = self.s.clocks.as_ref().and_then(|c| c.flagged(now)) {
            self.flag_fall(flagged, now);
            return;
        }
        if !T::allows(self, m, now) {
            return;
        }
        self.forget_hint();
        let mut comment = None;
        if let Some(c) = &mut self.s.clocks {
            c.remember(now);
            if self.s.game.moves().is_empty() && c.running().is_none() {
                // The first move does not cost time.
            } else {
                c.press(mover, now);
            }
            if c.running().is_none() || self.s.game.moves().is_empty() {
                c.start(!mover, now);
            }
            comment = Some(format!("[%clk {}]", pgn_clock(c.remaining(mover, now))));
        }
        let before = self.board().clone();
        self.s.game.push(m, comment);
        T::after_move(self, &before, m);
        self.s.pick.not_typing();
        self.s.last_move_at = Some(now);
        self.s.pick.selected = None;
        self.s.pick.clear();
        self.close_move_box();
        self.s.scroll = 0;
        self.save();
        self.next_turn(now);
    }

    pub(super) fn finish(&mut self, ending: Ending, now: Instant) {
        if self.is_over() {
            return;
        }
        if matches!(
            self.ui.overlay,
            Overlay::ConfirmResign | Overlay::DrawOffer | Overlay::Promotion { .. }
        ) {
            self.ui.overlay = Overlay::None;
        }
        self.stop_all();
        self.s.opponent.queued = None;
        if let Some(c) = &mut self.s.clocks {
            c.pause(now);
        }
        self.s.game.ending = Some(ending);
        self.s.pick.selected = None;
        self.s.hint = None;
        let note = T::ending_note(self);
        self.ui
            .info(format!("Game over: {}.{note}", describe_ending(ending)));
        self.save();
        if T::KEPT && self.ui.openings.shown {
            // The game just saved joins My games in the explorer.
            self.ui.openings.asked = None;
            self.ui
                .effects
                .push(Effect::Openings(crate::ui::openings::OpeningsRequest::Load));
        }
    }

    pub(super) fn save(&mut self) {
        if !T::KEPT {
            return; // a replayed game is not a game of ours
        }
        // A game without moves gets no file (nor a resume prompt); once it
        // has one, the file follows every change, takebacks included.
        let played = !self.s.game.moves().is_empty();
        let game = &self.s.game;
        if self.s.file.save(&mut self.ui.effects, played, || {
            crate::game::write_pgn(game)
        }) {
            T::saved(self);
        }
    }

    pub(super) fn on_tick(&mut self, now: Instant) {
        if self.is_over() || self.s.paused {
            return;
        }
        if let Some(m) = self.s.opponent.take_due(now)
            && self.board().is_legal(m)
        {
            self.play(m, now);
        }
        if let Some(flagged) = self.s.clocks.as_ref().and_then(|c| c.flagged(now)) {
            self.flag_fall(flagged, now);
        }
    }

    pub(super) fn flag_fall(&mut self, flagged: Color, now: Instant) {
        // A flag fall is a draw when the opponent cannot possibly mate.
        let result = if self.board().chess().has_insufficient_material(!flagged) {
            GameResult::Draw
        } else {
            GameResult::win_for(!flagged)
        };
        self.finish(
            Ending {
                result,
                termination: Termination::TimeForfeit,
            },
            now,
        );
    }

    /// What an engine of this game (or the app's assistant) said.
    pub(super) fn on_engine(&mut self, seat: usize, report: Report, now: Instant) {
        let e = match report {
            Report::Event(e) => e,
            // No move though it has legal moves: a broken engine.
            Report::NoMove { message, .. } => EngineEvent::Failed { message },
            Report::Ptell(_) => return,
        };
        let assistant = seat == ASSISTANT;
        match e {
            EngineEvent::Ready { name } => {
                if !assistant {
                    // An engine of your own is named in the record as it
                    // names itself ("XShuffler", not its program "sh").
                    if matches!(self.s.opponent.spec, EngineSpec::External { .. }) {
                        let program = self.s.opponent.spec.describe();
                        for tag in ["White", "Black"] {
                            if self.s.game.header(tag) == Some(program.as_str()) {
                                self.s.game.set_header(tag, name.clone());
                            }
                        }
                    }
                    self.s.opponent.name = name.clone();
                    if !self.s.pending.iter().any(|p| p.2 == Purpose::Hint) {
                        self.s.search.engine = name;
                    }
                }
            }
            EngineEvent::Failed { message } => {
                self.s.pending.retain(|p| (p.0 == ASSISTANT) != assistant);
                self.s.search.thinking = !self.s.pending.is_empty();
                if assistant {
                    self.ui
                        .assistant(EngineJob::assistant(crate::variant::VariantKind::Chess));
                    self.ui.error(format!("Hint engine problem: {message}"));
                    return;
                }
                // The opponent is gone: the game cannot go on. The next
                // request (a new game, or after a takeback) starts a new one.
                let name = std::mem::take(&mut self.s.opponent.name);
                self.s.opponent.dead = true;
                if !self.is_over() && self.s.mode != Mode::HumanVsHuman {
                    let loser = match self.s.mode {
                        Mode::HumanVsEngine { human } => !human,
                        _ => self.board().turn(),
                    };
                    self.finish(
                        Ending {
                            result: GameResult::win_for(!loser),
                            termination: Termination::Abandoned,
                        },
                        now,
                    );
                    // Who lost, why, and the way on.
                    let name = if name.is_empty() { "The engine" } else { &name };
                    self.ui.error(format!(
                        "{name} ({}) failed and forfeits: {message}. {}",
                        color_name(loser),
                        self.game_over_text()
                    ));
                    return;
                }
                self.ui.error(format!("Engine problem: {message}"));
            }
            EngineEvent::IllegalMove { id, text } => {
                if !self.s.pending.iter().any(|p| p.1 == id) {
                    return;
                }
                self.s.pending.retain(|p| p.1 != id);
                self.s.search.thinking = !self.s.pending.is_empty();
                self.illegal_engine_move(&text, now);
            }
            EngineEvent::Info { id, line } => {
                // Lines of other requests, and MultiPV beyond what the panel
                // shows (an external engine could claim any number).
                if !self.s.pending.iter().any(|p| p.1 == id) || line.multipv > 8 {
                    return;
                }
                if line.multipv <= 1
                    && let Some(s) = line.score
                {
                    if !assistant {
                        self.s.opponent.score = Some(s);
                    }
                    if line.bound.is_none_or(|b| b == Bound::Exact)
                        && let Some(b) = self.s.search.board.clone()
                    {
                        self.note_eval(self.s.search.ply, &b, s);
                    }
                }
                self.s.search.add_line(line);
            }
            EngineEvent::Progress { id, progress } => {
                if self.s.pending.iter().any(|p| p.1 == id) {
                    self.s.search.progress = Some(progress);
                }
            }
            EngineEvent::Done {
                id,
                purpose,
                best,
                score,
                pv,
            } => self.on_search_done(id, purpose, (best, score, pv), now),
        }
    }

    /// A search of this game's ended: the engine's move played (or held
    /// until due), the hint shown, a check judged, an analysis finished.
    fn on_search_done(
        &mut self,
        id: u64,
        purpose: Purpose,
        (best, score, pv): (Option<Move>, Option<Score>, Vec<Move>),
        now: Instant,
    ) {
        let Some(pos) = self.s.pending.iter().position(|p| p.1 == id) else {
            return; // a cancelled request
        };
        self.s.pending.remove(pos);
        self.s.search.thinking = !self.s.pending.is_empty();
        self.s.search.progress = None;
        if let (Some(s), Some(b)) = (score, self.s.search.board.clone()) {
            self.note_eval(self.s.search.ply, &b, s);
        }
        match purpose {
            // An analysis that ends by itself (a mate found, the depth
            // limit) is not started again for this position.
            Purpose::Analysis => self.s.analysis.done = self.s.analysis.running,
            Purpose::Check => T::checked(self, id, score, now),
            Purpose::Hint => {
                if let Some(mv) = best {
                    let board = self.board().clone();
                    let line_san = san_line(&board, &pv, 6);
                    self.s.hint = Some(Hint {
                        mv,
                        line: pv,
                        score,
                        ply: self.s.game.moves().len(),
                    });
                    let s = score
                        .map(|s| format!(" ({})", score_text(s)))
                        .unwrap_or_default();
                    self.ui
                        .info(format!("Hint: {}{s}   line: {line_san}", board.san(mv)));
                }
            }
            Purpose::Move => {
                if let Some(s) = score {
                    self.s.opponent.score = Some(s);
                }
                if self.is_over() || self.s.paused {
                    return;
                }
                match best {
                    Some(m) if self.board().is_legal(m) => {
                        // Watching two engines without a clock: give each
                        // move time to be seen.
                        let watch = self
                            .s
                            .last_move_at
                            .map(|t| t + self.ui.config.watch_delay)
                            .filter(|_| {
                                self.s.mode == Mode::EngineVsEngine && self.s.clocks.is_none()
                            });
                        // With a clock: a player's time (paced).
                        match watch.max(self.paced_move(now)) {
                            Some(due) if now < due => self.s.opponent.hold(m, due),
                            _ => self.play(m, now),
                        }
                    }
                    Some(m) => self.illegal_engine_move(&Board::uci(m), now),
                    None => {}
                }
            }
        }
    }

    /// The engine to move answered with an illegal move: it loses.
    pub(super) fn illegal_engine_move(&mut self, text: &str, now: Instant) {
        let offender = self.board().turn();
        self.finish(
            Ending {
                result: GameResult::win_for(!offender),
                termination: Termination::IllegalMove,
            },
            now,
        );
        self.ui.error(format!(
            "{} ({}) played an illegal move ({text}) and loses the game.",
            self.s.opponent.name,
            color_name(offender)
        ));
    }

    pub(super) fn takeback(&mut self, now: Instant) {
        if self.s.mode == Mode::EngineVsEngine {
            self.ui.error("Takeback is for games you play.");
            return;
        }
        // A finished game keeps its result (an engine that failed aside:
        // taking back goes on with a new engine).
        if self
            .s
            .game
            .ending
            .is_some_and(|e| e.termination != Termination::Abandoned)
        {
            let text = self.game_over_text();
            self.ui.error(text);
            return;
        }
        if self.s.game.moves().is_empty() {
            self.ui.error("There is no move to take back.");
            return;
        }
        self.stop_all();
        let n = match self.s.mode {
            Mode::HumanVsEngine { human } => {
                let plies = self.s.game.moves().len();
                let start = self.s.game.start().turn();
                match crate::ui::seats::takeback_plies(plies, start, human) {
                    Some(k) => k,
                    None => {
                        self.ui.error("None of your moves to take back.");
                        return;
                    }
                }
            }
            _ => 1,
        };
        for _ in 0..n {
            self.s.game.pop();
        }
        if let Some(c) = &mut self.s.clocks {
            c.back_to(self.s.game.moves().len());
        }
        if let Some(c) = &mut self.s.clocks
            && !self.s.game.moves().is_empty()
            && !self.s.paused
        {
            c.start(self.s.game.current().turn(), now);
        }
        self.forget_hint();
        self.s.opponent.forget();
        self.s.pick.selected = None;
        self.s.search.lines.clear();
        // The panel's search was about a position taken back: it goes.
        if self.s.search.ply > self.s.game.moves().len() {
            self.s.search.iterations.clear();
            self.s.search.progress = None;
            self.s.search.board = None;
        }
        self.s.evals.truncate(self.s.game.moves().len() + 1);
        T::took_back(self);
        self.ui.info(format!(
            "Took back {n} move{}.",
            if n == 1 { "" } else { "s" }
        ));
        self.save();
        self.next_turn(now);
    }

    /// "The game is over (Black wins by time forfeit). n starts a new
    /// game." (and u takes back after an engine failure).
    pub(super) fn game_over_text(&self) -> String {
        let Some(e) = self.s.game.ending else {
            return String::new();
        };
        let back = if e.termination == Termination::Abandoned {
            format!(", {} takes back", self.ui.keys_hint(Action::Takeback))
        } else {
            String::new()
        };
        format!(
            "The game is over ({}). {} starts a new game{back}.",
            describe_ending(e),
            self.ui.keys_hint(Action::NewGame)
        )
    }

    pub(super) fn offer_draw(&mut self, now: Instant) {
        if self.is_over() {
            self.ui.error("The game is over.");
            return;
        }
        if let Some(claim) = self.claimable_draw() {
            self.finish(claim, now);
            return;
        }
        T::offer_draw(self, now);
    }

    /// A draw offered to whoever plays the other side: the engine judges
    /// it by its score, a person answers on the board.
    pub(super) fn offer_draw_to_opponent(&mut self, now: Instant) {
        match self.s.mode {
            Mode::EngineVsEngine => self.ui.error("The engine plays both sides."),
            Mode::HumanVsHuman => {
                self.ui.overlay = Overlay::DrawOffer;
            }
            Mode::HumanVsEngine { .. } => {
                let moves = self.s.game.moves().len() / 2;
                match draw_answer(self.s.opponent.score, moves) {
                    Ok(()) => {
                        self.finish(
                            Ending {
                                result: GameResult::Draw,
                                termination: Termination::Agreement,
                            },
                            now,
                        );
                        self.ui.info("The engine accepts the draw.");
                    }
                    Err(why) => self
                        .ui
                        .info(format!("The engine declines the draw: {why}.")),
                }
            }
        }
    }

    pub(super) fn toggle_pause(&mut self, now: Instant) {
        if self.is_over() {
            return;
        }
        self.s.paused = !self.s.paused;
        if self.s.paused {
            self.stop_all();
            if let Some(c) = &mut self.s.clocks {
                c.pause(now);
            }
            self.ui.info("Paused. p resumes.");
        } else {
            if let Some(c) = &mut self.s.clocks
                && !self.s.game.moves().is_empty()
            {
                c.start(self.s.game.current().turn(), now);
            }
            self.ui.info("Resumed.");
            self.next_turn(now);
        }
    }
}

/// Full moves before which an engine takes no draw it is not losing.
const OPENING_MOVES: usize = 15;

/// How an engine answers a draw offer, as a player would at any level:
/// with its score (its own view) after `moves` full moves. It takes a
/// draw when it is worse, or when the game is level and past move 30; it
/// declines in the opening unless it is lost, and whenever it stands
/// better. `Err`: why it declines.
pub(super) fn draw_answer(score: Option<Score>, moves: usize) -> Result<(), String> {
    let Some(s) = score else {
        return Err("it has not evaluated the position yet".into());
    };
    let lost = s.0 <= -300;
    if moves < OPENING_MOVES && !lost {
        return Err(format!("it is too early (move {}); play on", moves + 1));
    }
    if s.0 <= -30 || (s.0.abs() <= 15 && moves >= 30) {
        return Ok(());
    }
    Err(format!("it thinks it stands {}", score_text(s)))
}

/// "White" or "Black".
fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Engines take no draw in the opening unless lost, never when better,
    /// and take a level one late in the game (issue 50: a level-2 engine
    /// accepted 1. e4 g6 draw).
    #[test]
    fn engines_answer_draw_offers_as_players_do() {
        let at = |cp: i32, moves: usize| draw_answer(Some(Score(cp)), moves);
        assert!(at(-30, 1).is_err_and(|w| w.contains("too early (move 2)")));
        assert!(at(-150, 10).is_err());
        assert!(at(-400, 3).is_ok(), "lost: takes it");
        assert!(at(-40, 20).is_ok(), "worse: takes it");
        assert!(at(10, 20).is_err(), "level, move 21: plays on");
        assert!(at(10, 35).is_ok(), "level, move 36: takes it");
        assert!(at(80, 40).is_err_and(|w| w.contains("+0.80")));
        assert!(draw_answer(None, 40).is_err());
    }
}
