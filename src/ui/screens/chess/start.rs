//! Starting a game (the setup, headers, save path) and resuming a saved
//! one with its clocks.

use super::*;

impl<T: Task> Chess<'_, T> {
    // ------------------------------------------------------------------
    // Starting and resuming games.

    /// The default setup: human White against the configured opponent.
    pub fn default_setup(&self) -> Setup {
        Setup {
            mode: Mode::HumanVsEngine {
                human: Color::White,
            },
            engine: self.s.opponent.spec.clone(),
            time: self.s.time,
            start: Board::startpos(),
        }
    }

    pub fn start_game(&mut self, setup: Setup, now: Instant) {
        self.stop_all();
        self.ui.launch_setup = Some(setup.clone());
        self.s.opponent.spec = setup.engine;
        self.s.mode = setup.mode;
        // A new game, new engines: the last game's go with it.
        self.s.opponent.seat_engines(self.ui, self.s.mode);
        self.ui.assistant(EngineJob::NewGame { seat: ASSISTANT });
        self.s.time = setup.time;
        self.s.game = Game::new(setup.start);
        self.s.clocks = setup.time.map(|t| {
            Clocks::new(Control {
                base: t.base,
                increment: t.increment,
            })
        });
        self.s.paused = false;
        self.s.opponent.forget();
        self.s.last_move_at = None;
        self.s.pick.not_typing();
        self.s.hint = None;
        self.s.pick.selected = None;
        self.close_move_box();
        self.s.scroll = 0;
        self.s.search.lines.clear();
        self.s.search.iterations.clear();
        self.s.search.progress = None;
        self.s.search.thinking = false;
        self.s.evals.clear();
        self.ui.overlay = Overlay::None;
        self.set_headers(now);
        self.s.file = GameFile::new(self.ui.new_save_path());
        if let Mode::HumanVsEngine { human } = self.s.mode {
            self.ui.look.flipped = human == Color::Black;
            self.s.pick.cursor = if human == Color::White {
                Square::E2
            } else {
                Square::E7
            };
        }
        self.s.started_at = Some(now);
        let who = match self.s.mode {
            Mode::HumanVsEngine { human } => format!(
                "You play {} against {}.",
                color_name(human),
                self.s.opponent.spec.describe()
            ),
            Mode::EngineVsEngine => format!(
                "{} plays itself. p pauses.",
                self.s.opponent.spec.describe()
            ),
            Mode::HumanVsHuman => "Two players on one keyboard.".to_string(),
        };
        self.ui.info(format!("New game. {who}"));
        self.save();
        self.next_turn(now);
    }

    pub(super) fn set_headers(&mut self, now: Instant) {
        let _ = now;
        let engine = self.s.opponent.spec.describe();
        let (white, black) = match self.s.mode {
            Mode::HumanVsEngine {
                human: Color::White,
            } => ("You".to_string(), engine.clone()),
            Mode::HumanVsEngine {
                human: Color::Black,
            } => (engine.clone(), "You".to_string()),
            Mode::EngineVsEngine => (engine.clone(), engine.clone()),
            Mode::HumanVsHuman => ("White".to_string(), "Black".to_string()),
        };
        set_seven_tags(&mut self.s.game, "Kibitz game", white, black);
        let g = &mut self.s.game;
        g.set_header(
            "TimeControl",
            self.s.time.map_or("-".to_string(), |t| t.pgn_tag()),
        );
        g.set_header("KibitzMode", self.s.mode.tag());
        g.set_header("KibitzOpponent", spec_tag(&self.s.opponent.spec));
        if let EngineSpec::BuiltIn { level } = self.s.opponent.spec {
            g.set_header("KibitzLevel", level.to_string());
        }
    }

    /// Resumes a saved, unfinished game.
    pub fn resume(&mut self, game: Game, path: PathBuf, now: Instant) {
        if game.header("KibitzTrainer").is_some() {
            self.ui.overlay = Overlay::None;
            self.ui
                .begin_trainer(TrainerStart::Resume(Box::new(game), path), now);
            return;
        }
        self.stop_all();
        let mode = game
            .header("KibitzMode")
            .and_then(Mode::from_tag)
            .unwrap_or(Mode::HumanVsEngine {
                human: Color::White,
            });
        let mut spec = game
            .header("KibitzOpponent")
            .and_then(parse_spec_tag)
            .unwrap_or_else(|| self.s.opponent.spec.clone());
        // A saved file names a command to run: only run the one configured
        // here, never a program named by a file.
        if let EngineSpec::External { command } = &spec
            && crate::ui::state::external_command(&self.s.opponent.spec, &self.ui.config).as_deref()
                != Some(command.as_str())
        {
            spec = self.s.opponent.spec.clone();
        }
        let time = game
            .header("TimeControl")
            .and_then(TimeControl::from_pgn_tag);
        self.s.opponent.spec = spec;
        self.s.mode = mode;
        self.s.opponent.seat_engines(self.ui, self.s.mode);
        self.ui.assistant(EngineJob::NewGame { seat: ASSISTANT });
        self.s.time = time;
        // Clocks: the last [%clk] of each side.
        self.s.clocks = time.map(|t| {
            let control = Control {
                base: t.base,
                increment: t.increment,
            };
            let white_first = game.start().turn() == Color::White;
            let comments =
                (0..game.moves().len()).map(|i| game.comments().get(i).and_then(|c| c.as_deref()));
            Clocks::from_record(control, white_first, comments)
        });
        self.s.game = game;
        self.s.evals.clear();
        self.s.opponent.forget();
        // Started (resumed) now: a screen opened over it and closed again
        // comes back to this game, not to a new one.
        self.s.started_at = Some(now);
        // Another Kibitz playing this very game would overwrite its file
        // with every move: this one goes on in a copy.
        let copy = !crate::ui::gamefile::claim(&path);
        self.s.file = if copy {
            GameFile::new(self.ui.new_save_path())
        } else {
            GameFile::resumed(path.clone())
        };
        self.ui.overlay = Overlay::None;
        self.s.hint = None;
        self.s.pick.selected = None;
        if let Mode::HumanVsEngine { human } = self.s.mode {
            self.ui.look.flipped = human == Color::Black;
        }
        let progress = crate::ui::text::game_progress(&self.s.game);
        match (self.s.file.path().map(PathBuf::from), copy) {
            (Some(p), true) => {
                self.save();
                self.ui.info(format!(
                    "Resumed the game after {progress}. Another Kibitz has it open, \
                     so this one goes on in a copy: {}.",
                    p.display()
                ));
            }
            _ => self.ui.info(format!("Resumed the game after {progress}.")),
        }
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
