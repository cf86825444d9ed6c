//! Starting a game (the setup, headers, save path) and resuming a saved
//! one with its clocks.

use super::*;

impl App {
    // ------------------------------------------------------------------
    // Starting and resuming games.

    /// The default setup: human White against the configured opponent.
    pub fn default_setup(&self) -> Setup {
        Setup {
            mode: Mode::HumanVsEngine {
                human: Color::White,
            },
            engine: self.spec.clone(),
            time: self.time,
            start: Board::startpos(),
        }
    }

    pub fn start_game(&mut self, setup: Setup, now: Instant) {
        self.stop_all();
        self.leave_replay();
        self.trainer = None;
        self.editor = None;
        if setup.engine != self.spec || self.opponent_name.is_empty() || self.engine_dead {
            self.effects.push(Effect::StartEngine(setup.engine.clone()));
            self.engine_dead = false;
        }
        self.effects.push(Effect::NewGame);
        self.spec = setup.engine;
        self.mode = setup.mode;
        self.time = setup.time;
        self.game = Game::new(setup.start);
        self.clock_history.clear();
        self.clocks = setup.time.map(|t| {
            Clocks::new(Control {
                base: t.base,
                increment: t.increment,
            })
        });
        self.paused = false;
        self.queued = None;
        self.last_move_at = None;
        self.pending_letters.clear();
        self.hint = None;
        self.selected = None;
        self.close_move_box();
        self.scroll = 0;
        self.engine_score = None;
        self.search.lines.clear();
        self.search.iterations.clear();
        self.search.progress = None;
        self.search.thinking = false;
        self.evals.clear();
        self.overlay = Overlay::None;
        self.set_headers(now);
        self.save_path = self.new_save_path();
        self.saved = false;
        if let Mode::HumanVsEngine { human } = self.mode {
            self.flipped = human == Color::Black;
            self.cursor = if human == Color::White {
                Square::E2
            } else {
                Square::E7
            };
        }
        self.started_at = Some(now);
        let who = match self.mode {
            Mode::HumanVsEngine { human } => format!(
                "You play {} against {}.",
                color_name(human),
                self.spec.describe()
            ),
            Mode::EngineVsEngine => format!("{} plays itself. p pauses.", self.spec.describe()),
            Mode::HumanVsHuman => "Two players on one keyboard.".to_string(),
        };
        self.info(format!("New game. {who}"));
        self.save();
        self.next_turn(now);
    }

    pub(super) fn set_headers(&mut self, now: Instant) {
        let _ = now;
        let engine = self.spec.describe();
        let (white, black) = match self.mode {
            Mode::HumanVsEngine {
                human: Color::White,
            } => ("You".to_string(), engine.clone()),
            Mode::HumanVsEngine {
                human: Color::Black,
            } => (engine.clone(), "You".to_string()),
            Mode::EngineVsEngine => (engine.clone(), engine.clone()),
            Mode::HumanVsHuman => ("White".to_string(), "Black".to_string()),
        };
        set_seven_tags(&mut self.game, "Kibitz game", white, black);
        let g = &mut self.game;
        g.set_header(
            "TimeControl",
            self.time.map_or("-".to_string(), |t| t.pgn_tag()),
        );
        g.set_header("KibitzMode", self.mode.tag());
        g.set_header("KibitzOpponent", spec_tag(&self.spec));
        if let EngineSpec::BuiltIn { level } = self.spec {
            g.set_header("KibitzLevel", level.to_string());
        }
    }

    pub(super) fn new_save_path(&self) -> Option<PathBuf> {
        if !self.config.autosave {
            return None;
        }
        let dir = self.data_dir.as_ref()?.join("games");
        let stamp = crate::util::timestamp();
        let mut path = dir.join(format!("{stamp}.pgn"));
        let mut n = 2;
        while path.exists() {
            path = dir.join(format!("{stamp}-{n}.pgn"));
            n += 1;
        }
        Some(path)
    }

    /// Resumes a saved, unfinished game.
    pub fn resume(&mut self, game: Game, path: PathBuf, now: Instant) {
        if game.header("KibitzTrainer").is_some() {
            self.overlay = Overlay::None;
            self.begin_trainer(TrainerStart::Resume(Box::new(game), path), now);
            return;
        }
        self.stop_all();
        self.leave_replay();
        self.trainer = None;
        let mode = game
            .header("KibitzMode")
            .and_then(Mode::from_tag)
            .unwrap_or(Mode::HumanVsEngine {
                human: Color::White,
            });
        let mut spec = game
            .header("KibitzOpponent")
            .and_then(parse_spec_tag)
            .unwrap_or_else(|| self.spec.clone());
        // A saved file names a command to run: only run the one configured
        // here, never a program named by a file.
        if let EngineSpec::External { command } = &spec
            && self.external_command().as_deref() != Some(command.as_str())
        {
            spec = self.spec.clone();
        }
        let time = game
            .header("TimeControl")
            .and_then(TimeControl::from_pgn_tag);
        self.effects.push(Effect::StartEngine(spec.clone()));
        self.engine_dead = false;
        self.effects.push(Effect::NewGame);
        self.spec = spec;
        self.mode = mode;
        self.time = time;
        // Clocks: the last [%clk] of each side.
        self.clock_history.clear();
        self.clocks = time.map(|t| {
            let control = Control {
                base: t.base,
                increment: t.increment,
            };
            let mut rem = [t.base, t.base];
            let mut board = game.start().clone();
            for (i, &m) in game.moves().iter().enumerate() {
                self.clock_history.push((rem[0], rem[1]));
                let side = board.turn();
                if let Some(Some(c)) = game.comments().get(i)
                    && let Some(d) = parse_pgn_clock(c)
                {
                    rem[side as usize ^ 1] = d;
                }
                board = board.play(m);
            }
            Clocks::with_remaining(control, rem[0], rem[1])
        });
        self.game = game;
        self.evals.clear();
        self.queued = None;
        self.save_path = Some(path);
        self.saved = true;
        self.overlay = Overlay::None;
        self.hint = None;
        self.selected = None;
        if let Mode::HumanVsEngine { human } = self.mode {
            self.flipped = human == Color::Black;
        }
        self.info(format!(
            "Resumed the game after {}.",
            super::super::text::game_progress(&self.game)
        ));
        self.next_turn(now);
    }
}

/// The tags of every game Kibitz writes (the PGN seven tag roster but the
/// result, which the game sets).
pub(super) fn set_seven_tags(g: &mut Game, event: &str, white: String, black: String) {
    g.set_header("Event", event);
    g.set_header("Site", "Kibitz terminal");
    g.set_header("Date", crate::util::today());
    g.set_header("Round", "-");
    g.set_header("White", white);
    g.set_header("Black", black);
}
