//! The application state and its one entry point, [`App::update`].
//!
//! Everything the app wants done outside itself (start a search, save a
//! file, copy to the clipboard) is queued as an [`Effect`] for the runtime in
//! `ui::run`; tests drive `update` with key, mouse and engine messages and
//! an injected clock, then look at the state and the effects.

pub use super::prelude::*;

mod dialog;
mod files;
mod house;
mod overlays;
mod save_as;

pub use crate::ui::screens::chess::{Chess, ChessScreen, Play, Task, game_of, game_of_mut};
pub use crate::ui::screens::editor::EditorScreen;
pub use crate::ui::screens::explorer::ExplorerScreen;
pub use crate::ui::screens::house::{HouseReplayScreen, HouseScreen};

/// Draws the app into the terminal's frame.
pub fn draw(frame: &mut ratatui::Frame, app: &App, now: Instant) {
    let area = frame.area();
    app.draw(frame.buffer_mut(), area, now);
}

/// Draws the app into a buffer (render tests and the benchmark).
pub fn draw_to(buf: &mut Buffer, area: Rect, app: &App, now: Instant) {
    app.draw(buf, area, now);
}

/// The app: the screens, bottom to top, and what they share.
pub struct App {
    pub ui: Shared,
    /// The screens, bottom to top; the top one is shown. Never empty.
    screens: Vec<Box<dyn Screen>>,
}

impl App {
    pub fn new(config: Config, themes: Vec<Theme>, data_dir: Option<PathBuf>) -> App {
        let level = config.level.clamp(1, 8);
        let spec = match &config.engine {
            Some(p) => EngineSpec::External {
                command: p.to_string_lossy().into_owned(),
            },
            None => EngineSpec::BuiltIn { level },
        };
        let time = config.time_control;
        App {
            ui: Shared::new(config, themes, data_dir),
            screens: vec![Box::new(ChessScreen::play(spec, time))],
        }
    }

    pub fn theme(&self) -> &Theme {
        self.ui.theme()
    }

    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.ui.effects)
    }

    /// The screen on top.
    pub fn top(&self) -> &dyn Screen {
        self.screens
            .last()
            .map(|s| s.as_ref())
            .expect("the app always has a screen")
    }

    /// The screen on top, if it is a `T`.
    pub fn top_as<T: Screen>(&self) -> Option<&T> {
        self.screens.last()?.as_any().downcast_ref::<T>()
    }

    /// The topmost screen that is a `T`.
    pub fn find<T: Screen>(&self) -> Option<&T> {
        self.screens
            .iter()
            .rev()
            .find_map(|s| s.as_any().downcast_ref::<T>())
    }

    pub fn find_mut<T: Screen>(&mut self) -> Option<&mut T> {
        self.screens
            .iter_mut()
            .rev()
            .find_map(|s| s.as_any_mut().downcast_mut::<T>())
    }

    /// How many screens are open.
    pub fn depth(&self) -> usize {
        self.screens.len()
    }

    /// The game of the topmost chess screen, whatever its task (there is
    /// always one at the bottom unless the app started on another screen).
    pub fn chess(&self) -> &ChessGame {
        self.find_game().expect("a chess screen is at the bottom")
    }

    /// The game of the topmost chess screen, if there is one.
    pub fn find_game(&self) -> Option<&ChessGame> {
        self.screens.iter().rev().find_map(|s| game_of(s.as_ref()))
    }

    /// The game of the topmost chess screen, to change.
    pub fn chess_game_mut(&mut self) -> Option<&mut ChessGame> {
        self.screens
            .iter_mut()
            .rev()
            .find_map(|s| game_of_mut(s.as_mut()))
    }

    /// The task of the topmost chess screen, if it is a `T` (the replay
    /// shown, the trainer's game, the drill).
    pub fn task<T: Task>(&self) -> Option<&T> {
        let top = self
            .screens
            .iter()
            .rev()
            .find(|s| game_of(s.as_ref()).is_some())?;
        top.as_any()
            .downcast_ref::<ChessScreen<T>>()
            .map(|s| &s.task)
    }

    pub fn task_mut<T: Task>(&mut self) -> Option<&mut T> {
        let top = self
            .screens
            .iter_mut()
            .rev()
            .find(|s| game_of(s.as_ref()).is_some())?;
        top.as_any_mut()
            .downcast_mut::<ChessScreen<T>>()
            .map(|s| &mut s.task)
    }

    /// The topmost chess screen for task `T`, at work.
    pub fn chess_at<T: Task>(&mut self) -> Option<Chess<'_, T>> {
        let App { ui, screens } = self;
        let s = screens
            .iter_mut()
            .rev()
            .find_map(|s| s.as_any_mut().downcast_mut::<ChessScreen<T>>())?;
        Some(s.at(ui))
    }

    /// The topmost game being played, at work.
    pub fn chess_mut(&mut self) -> Chess<'_> {
        self.chess_at::<Play>()
            .expect("a game is played at the bottom")
    }

    /// The board of the topmost chess screen.
    pub fn board(&self) -> &Board {
        self.chess().board()
    }

    // ------------------------------------------------------------------
    // Messages.

    pub fn update(&mut self, msg: Msg, now: Instant) {
        match msg {
            Msg::Key(k) => {
                if k.kind != KeyEventKind::Release {
                    self.on_key(k, now);
                }
            }
            Msg::Mouse(m) => {
                if matches!(self.ui.overlay, Overlay::None) && self.fits() {
                    let ui = &mut self.ui;
                    if let Some(top) = self.screens.last_mut() {
                        top.mouse(ui, m, now);
                    }
                }
            }
            Msg::Resize(w, h) => self.ui.size = (w, h),
            Msg::Tick => {
                let ui = &mut self.ui;
                for s in self.screens.iter_mut() {
                    s.tick(ui, now);
                }
            }
            Msg::Error(e) => self.ui.error(e),
            Msg::Note(n) => self.ui.info(n),
            Msg::Autosaved { path, ok } => {
                if !ok {
                    self.ui.save_failing = Some(path);
                } else if self.ui.save_failing.as_ref() == Some(&path) {
                    self.ui.save_failing = None;
                }
            }
            Msg::Indexing { id, share } => {
                if let Some(o) = &mut self.ui.opening
                    && o.id == id
                {
                    o.share = share;
                }
            }
            Msg::Opened { id, path, result } => match result {
                Ok(FileRead::Chess(library)) => self.on_opened(id, path, Ok(library), now),
                Ok(FileRead::House(games)) => self.on_house_opened(id, path, Ok(games), now),
                Err(e) => self.on_opened(id, path, Err(e), now),
            },
            Msg::Openings(report) => self.ui.openings.on_report(report),
            Msg::TablesProgress { id, text, share } => self.ui.on_tables_progress(id, text, share),
            Msg::TablesReady { id, result } => self.ui.on_tables_ready(id, result, now),
            other => self.offer(other, now),
        }
        self.settle(now);
    }

    /// Offers a message to the screens, top first, until one keeps it.
    fn offer(&mut self, msg: Msg, now: Instant) {
        let ui = &mut self.ui;
        let mut msg = Some(msg);
        for s in self.screens.iter_mut().rev() {
            match msg.take() {
                Some(m) => msg = s.message(ui, m, now),
                None => break,
            }
        }
    }

    /// After an event: the screens asked to open or close are, the screens
    /// covered or back on top are told, and the top one syncs its work.
    pub(crate) fn settle(&mut self, now: Instant) {
        for _ in 0..8 {
            let navs = std::mem::take(&mut self.ui.nav);
            if navs.is_empty() {
                break;
            }
            let mut navs = navs.into_iter().peekable();
            while let Some(nav) = navs.next() {
                // A screen closing as another opens (the editor starting a
                // trainer game): the one beneath stays covered.
                if matches!(nav, screen::Nav::Close)
                    && self.screens.len() > 1
                    && matches!(
                        navs.peek(),
                        Some(screen::Nav::Open(_) | screen::Nav::OpenInstead(..))
                    )
                {
                    let ui = &mut self.ui;
                    if let Some(mut top) = self.screens.pop() {
                        top.leave(ui);
                    }
                    if let Some(screen::Nav::Open(s) | screen::Nav::OpenInstead(s, _)) = navs.next()
                    {
                        self.screens.push(s);
                    }
                    continue;
                }
                self.navigate(nav, now);
            }
        }
        if self.ui.quit && !self.ui.effects.iter().any(|e| matches!(e, Effect::Quit)) {
            let ui = &mut self.ui;
            for s in self.screens.iter_mut().rev() {
                s.leave(ui);
            }
            self.ui.effects.push(Effect::Quit);
            return;
        }
        self.ui.below = self.screens.len().saturating_sub(1);
        let ui = &mut self.ui;
        if let Some(top) = self.screens.last_mut() {
            top.sync(ui, now);
        }
    }

    fn navigate(&mut self, nav: screen::Nav, now: Instant) {
        use screen::Nav;
        let ui = &mut self.ui;
        match nav {
            Nav::Open(s) => {
                if let Some(top) = self.screens.last_mut() {
                    top.covered(ui, now);
                }
                self.screens.push(s);
            }
            Nav::OpenInstead(s, instead) => {
                if self.screens.len() > 1
                    && self.screens.last().is_some_and(|t| instead(t.as_ref()))
                {
                    if let Some(mut top) = self.screens.pop() {
                        top.leave(ui);
                    }
                } else if let Some(top) = self.screens.last_mut() {
                    top.covered(ui, now);
                }
                self.screens.push(s);
            }
            Nav::Close => {
                if self.screens.len() > 1 {
                    if let Some(mut top) = self.screens.pop() {
                        top.leave(ui);
                    }
                    if let Some(top) = self.screens.last_mut() {
                        top.uncovered(ui, now);
                    }
                } else {
                    // The last screen closing ends the app.
                    ui.quit();
                }
            }
            Nav::Replace(s) => {
                while let Some(mut top) = self.screens.pop() {
                    top.leave(ui);
                }
                self.screens.push(s);
            }
            Nav::Cover => {
                if let Some(top) = self.screens.last_mut() {
                    top.covered(ui, now);
                }
            }
            Nav::Uncover => {
                if let Some(top) = self.screens.last_mut() {
                    top.uncovered(ui, now);
                }
            }
        }
        self.ui.below = self.screens.len().saturating_sub(1);
    }

    /// The top screen replays a file (its help lists the replay keys).
    pub fn replaying(&self) -> bool {
        self.top_as::<ChessScreen<crate::ui::screens::chess::replay::Replay>>()
            .is_some()
            || self.top_as::<HouseReplayScreen>().is_some()
    }

    /// Whether the top screen fits the terminal.
    fn fits(&self) -> bool {
        self.top()
            .fits(Rect::new(0, 0, self.ui.size.0, self.ui.size.1))
    }

    /// Draws the top screen and the overlays above it (drawing never
    /// changes the state).
    pub fn draw(&self, buf: &mut Buffer, area: Rect, now: Instant) {
        let theme = self.ui.theme();
        let base = ratatui::style::Style::default()
            .fg(theme.text)
            .bg(theme.background);
        buf.set_style(area, base);
        self.top().draw(&self.ui, buf, area, now);
        // Under an overlay the mark waits (it would show through cut).
        if self.top().fits(area)
            && matches!(self.ui.overlay, Overlay::None)
            && self.top().unsaved(&self.ui)
        {
            super::view::draw_unsaved_mark(buf, area, &self.ui);
        }
        if self.top().fits(area) {
            super::view::draw_overlays(buf, area, &self.ui, self.replaying());
        }
        if self.ui.look.plain {
            super::view::asciify(buf, area);
        }
    }

    /// Quits: every screen saves.
    pub(super) fn do_quit(&mut self) {
        self.ui.quit();
    }

    /// Starts a new game (it replaces every screen): the engine of the
    /// game before is kept when the new game uses the same.
    pub fn start_game(&mut self, setup: Setup, now: Instant) {
        let mut s = ChessGame::new(setup.engine.clone(), setup.time);
        if let Some(old) = self.find_game() {
            s.opponent = old.opponent.same_engine();
            s.hint_time = old.hint_time;
        }
        let ui = &mut self.ui;
        while let Some(mut top) = self.screens.pop() {
            top.leave(ui);
        }
        let mut s = ChessScreen {
            game: s,
            task: Play,
        };
        s.at(ui).start_game(setup, now);
        self.screens.push(Box::new(s));
        self.settle(now);
    }

    /// Resumes a saved, unfinished game (it replaces every screen).
    pub fn resume(&mut self, game: Game, path: PathBuf, now: Instant) {
        if game.header("KibitzTrainer").is_some() {
            self.ui.overlay = Overlay::None;
            self.ui
                .begin_trainer(TrainerStart::Resume(Box::new(game), path), now);
            self.settle(now);
            return;
        }
        let mut s = ChessScreen::play(self.chess().opponent.spec.clone(), None);
        let ui = &mut self.ui;
        while let Some(mut top) = self.screens.pop() {
            top.leave(ui);
        }
        s.at(ui).resume(game, path, now);
        self.screens.push(Box::new(s));
        self.settle(now);
    }

    /// The default setup: human White against the configured opponent.
    pub fn default_setup(&self) -> Setup {
        let (spec, time) = match self.find_game() {
            Some(c) => (c.opponent.spec.clone(), c.time),
            None => (EngineSpec::BuiltIn { level: 4 }, None),
        };
        Setup {
            mode: Mode::HumanVsEngine {
                human: Color::White,
            },
            engine: spec,
            time,
            start: Board::startpos(),
        }
    }

    /// Opens the tree explorer on the position of the chess screen.
    pub fn open_explorer(&mut self, depth: crate::engine::Depth, now: Instant) {
        self.chess_mut().open_explorer(depth);
        self.settle(now);
    }

    /// Shows `ex` (the app started on it: closing it quits).
    pub fn start_explorer(
        &mut self,
        ex: super::screens::explorer::Explorer,
        standalone: bool,
        now: Instant,
    ) {
        crate::ui::screens::explorer::open(&mut self.ui, ex, standalone);
        self.settle(now);
    }

    /// Opens the endgame trainer's menu over the current screen.
    pub fn open_trainer_menu(&mut self, now: Instant) {
        self.ui.open_trainer_menu();
        self.settle(now);
    }

    /// Opens the puzzle screen (puzzles of `theme`, or any).
    pub fn open_puzzles(&mut self, theme: Option<String>, now: Instant) {
        self.ui.open_puzzles(theme, now);
        self.settle(now);
    }

    /// Shows the puzzle screen alone (`kibitz puzzles`): leaving it quits.
    /// False when there is no puzzle (the status line says why).
    pub fn start_puzzles(&mut self, theme: Option<String>, now: Instant) -> bool {
        let shown = self.ui.show_puzzles(theme, true, now);
        self.settle(now);
        shown
    }

    /// Starts a trainer game (after preparing its tables if needed).
    pub fn begin_trainer(&mut self, start: TrainerStart, now: Instant) {
        self.ui.begin_trainer(start, now);
        self.settle(now);
    }

    /// Opens the board editor.
    pub fn open_editor(&mut self, board: Option<&Board>, now: Instant) {
        let editor = EditorScreen::new(board, &mut self.ui);
        self.ui.open(Box::new(editor));
        self.settle(now);
    }
}

/// Looking into the screens (tests and the runtime).
impl App {
    /// The game of the topmost Crazyhouse/Bughouse screen (played or
    /// replayed).
    pub fn house(&self) -> Option<&crate::ui::screens::house::HouseReplay> {
        self.screens.iter().rev().find_map(|s| {
            let s = s.as_any();
            match s.downcast_ref::<HouseScreen>() {
                Some(h) => h.house.as_deref(),
                None => s.downcast_ref::<HouseReplayScreen>().map(|r| &*r.house),
            }
        })
    }

    /// The Crazyhouse/Bughouse game played on the topmost game screen.
    pub fn live(&self) -> Option<&crate::ui::screens::house::live::Live> {
        self.find::<HouseScreen>()?.live.as_deref()
    }

    pub fn live_mut(&mut self) -> Option<&mut crate::ui::screens::house::live::Live> {
        self.find_mut::<HouseScreen>()?.live.as_deref_mut()
    }

    pub fn house_mut(&mut self) -> Option<&mut crate::ui::screens::house::HouseReplay> {
        self.screens.iter_mut().rev().find_map(|s| {
            if s.as_any().is::<HouseScreen>() {
                let h = s.as_any_mut().downcast_mut::<HouseScreen>()?;
                return h.house.as_deref_mut();
            }
            let r = s.as_any_mut().downcast_mut::<HouseReplayScreen>()?;
            Some(&mut *r.house)
        })
    }

    /// The board editor, when it is on top.
    pub fn editor(&self) -> Option<&crate::ui::screens::chess::trainer::Editor> {
        self.top_as::<EditorScreen>().map(|e| &e.ed)
    }

    /// The explorer of a chess position, when it is on top.
    pub fn explorer(&self) -> Option<&super::screens::explorer::Explorer> {
        match &self.top_as::<ExplorerScreen>()?.ex {
            super::screens::explorer::AnyExplorer::Chess(e) => Some(e),
            _ => None,
        }
    }

    /// The explorer of any variant, when it is on top.
    pub fn any_explorer(&self) -> Option<&super::screens::explorer::AnyExplorer> {
        self.top_as::<ExplorerScreen>().map(|e| &e.ex)
    }
}

/// Opening screens directly (the benchmarks and tests).
impl App {
    /// Opens a replay of `replay` on a chess screen of its own.
    pub fn enter_replay(
        &mut self,
        replay: crate::ui::screens::chess::replay::Replay,
        now: Instant,
    ) {
        let engine = self.default_setup().engine;
        let s = ChessScreen::replay(replay, engine, &mut self.ui, now);
        self.navigate(screen::Nav::Open(Box::new(s)), now);
    }

    /// Shows `house` on a Crazyhouse/Bughouse screen.
    pub fn show_house(&mut self, house: crate::ui::screens::house::HouseReplay, now: Instant) {
        let s = HouseReplayScreen {
            house: Box::new(house),
        };
        self.navigate(screen::Nav::Open(Box::new(s)), now);
    }

    /// Shows `ex` (already recorded, or waiting for its recording).
    pub fn show_explorer(&mut self, ex: super::screens::explorer::Explorer, now: Instant) {
        let ex = super::screens::explorer::AnyExplorer::Chess(Box::new(ex));
        self.navigate(screen::Nav::Open(Box::new(ExplorerScreen { ex })), now);
    }
}

impl App {
    /// The explorer of a chess position on top, to change.
    pub fn explorer_mut(&mut self) -> Option<&mut super::screens::explorer::Explorer> {
        let top = self
            .screens
            .last_mut()?
            .as_any_mut()
            .downcast_mut::<ExplorerScreen>()?;
        match &mut top.ex {
            super::screens::explorer::AnyExplorer::Chess(e) => Some(e),
            _ => None,
        }
    }

    /// Closes the top screen, as its own close key would.
    pub fn close_screen(&mut self, now: Instant) {
        self.navigate(screen::Nav::Close, now);
    }
}

impl App {
    /// Every screen that is a `T`, top first.
    pub fn find_screens<T: Screen>(&self) -> Vec<&T> {
        self.screens
            .iter()
            .rev()
            .filter_map(|s| s.as_any().downcast_ref::<T>())
            .collect()
    }
}
