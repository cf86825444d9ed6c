//! What every screen shares: settings, theme, key map, the status line,
//! the overlay above the screens, the effect queue for the runtime, ids
//! for background work, and the endgame trainer's tables.

use super::screen::{Nav, Screen};
use super::*;
use crate::ui::keymap::ReplayAction;

/// Where the user's files are.
#[derive(Clone, Debug, Default)]
pub struct Dirs {
    /// The data folder (games, tablebases, copies).
    pub data: Option<PathBuf>,
    /// The repository's sample games (for the file picker).
    pub samples: Option<PathBuf>,
    /// Where the trainer's tables live (default: the data folder's
    /// `tablebases`).
    pub tables: Option<PathBuf>,
}

/// The endgame trainer's shared part: tables loaded once for every trainer
/// game, the job preparing them, the menu's last choices.
pub struct TrainerState {
    pub tables: Option<crate::ui::screens::chess::trainer::Tables>,
    /// Tables being prepared for a trainer game (shown over the screen).
    pub preparing: Option<Preparing>,
    pub rng: crate::util::Rng,
    pub last_menu: Option<TrainerMenu>,
    /// Tables being made in the background: request id and material.
    pub job: Option<(u64, crate::tablebase::Material)>,
    /// The lessons passed (read from the data folder on first use).
    pub lessons: Option<crate::train::lessons::progress::Progress>,
}

/// The part of the app every screen sees.
/// How the board and the scores are shown, whatever the screen: the colour
/// theme, the pieces, which way up the board is, whose view scores take.
/// Remembered between runs (see `Effect::SaveState`).
#[derive(Clone, Debug)]
pub struct Look {
    pub themes: Vec<Theme>,
    /// The theme in use (an index into `themes`).
    pub theme: usize,
    /// Letters for the pieces instead of figurines.
    pub ascii: bool,
    /// Plain mode (the locale is not UTF-8): every frame is drawn in
    /// ASCII only.
    pub plain: bool,
    /// Black at the bottom.
    pub flipped: bool,
    /// Show scores from White's point of view instead of the side to move's.
    pub white_view: bool,
}

impl Look {
    pub fn theme(&self) -> &Theme {
        &self.themes[self.theme.min(self.themes.len().saturating_sub(1))]
    }

    /// Goes on to the next theme; false when there is none to go to.
    pub fn next_theme(&mut self) -> bool {
        if self.themes.is_empty() {
            return false;
        }
        self.theme = (self.theme + 1) % self.themes.len();
        true
    }
}

pub struct Shared {
    /// How the board and scores are shown: theme, pieces, orientation.
    pub look: Look,
    pub config: Config,
    pub keys: KeyMap,
    pub status: Option<Status>,
    /// The overlay above whatever screen is on top.
    pub overlay: Overlay,
    pub effects: Vec<Effect>,
    pub next_id: u64,
    pub size: (u16, u16),
    pub quit: bool,
    pub dirs: Dirs,
    /// What the command line asked for: new games from the resume prompt
    /// start like this.
    pub launch_setup: Option<Setup>,
    /// The last command a key ran, and the last replay command (for tests
    /// and the help screen).
    pub last_action: Option<Action>,
    pub last_replay_action: Option<ReplayAction>,
    /// A game file being opened.
    pub opening: Option<Opening>,
    pub trainer: TrainerState,
    /// The opening explorer beside the board (every chess screen's).
    pub openings: crate::ui::openings::OpeningsPanel,
    /// The user's puzzles, rating and history (opened on first use).
    pub puzzles: Option<crate::train::store::Store>,
    /// What opening the puzzle store had to say (a damaged file), shown
    /// once the puzzle screen is up.
    pub puzzle_notice: Option<String>,
    /// The game file whose last autosave failed: its game is kept in
    /// memory only until a save works again.
    pub save_failing: Option<PathBuf>,
    /// Screens to open or close once the event is handled.
    pub(crate) nav: Vec<Nav>,
    /// How many screens wait beneath the top one (none: leaving it quits).
    pub below: usize,
}

impl Shared {
    pub fn new(config: Config, themes: Vec<Theme>, data_dir: Option<PathBuf>) -> Shared {
        let theme = config
            .theme
            .as_ref()
            .and_then(|t| themes.iter().position(|x| &x.name == t))
            .unwrap_or(0);
        Shared {
            keys: config.keys.clone(),
            look: Look {
                ascii: config.piece_style == PieceStyle::Ascii,
                plain: false,
                themes,
                theme,
                flipped: false,
                white_view: true,
            },
            config,
            status: None,
            overlay: Overlay::None,
            effects: Vec::new(),
            next_id: 1,
            size: (80, 24),
            quit: false,
            dirs: Dirs {
                data: data_dir,
                ..Dirs::default()
            },
            launch_setup: None,
            last_action: None,
            last_replay_action: None,
            opening: None,
            openings: Default::default(),
            trainer: TrainerState {
                tables: None,
                preparing: None,
                rng: crate::util::Rng::from_entropy(),
                last_menu: None,
                job: None,
                lessons: None,
            },
            puzzles: None,
            puzzle_notice: None,
            save_failing: None,
            nav: Vec::new(),
            below: 0,
        }
    }

    pub fn theme(&self) -> &Theme {
        self.look.theme()
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            kind: StatusKind::Info,
        });
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            kind: StatusKind::Error,
        });
    }

    /// A new id for a request to an engine or a background job.
    pub fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Work for the app's assistant (Kibitz at full strength: hints,
    /// analysis, checks of the chess screens).
    pub fn assistant(&mut self, job: EngineJob) {
        self.effects.push(Effect::Engine {
            table: APP_TABLE,
            job,
        });
    }

    /// A search of the app's assistant.
    pub fn ask_assistant(&mut self, req: Request) {
        self.assistant(EngineJob::Go {
            seat: ASSISTANT,
            go: Box::new(Go::of(req)),
        });
    }

    /// The first key bound to `a`.
    pub fn keys_hint(&self, a: Action) -> String {
        self.keys.keys_for(a).first().cloned().unwrap_or_default()
    }

    /// The first key bound to the replay command `a`.
    pub fn replay_key_hint(&self, a: ReplayAction) -> String {
        self.config
            .replay_keys
            .keys_for(a)
            .first()
            .cloned()
            .unwrap_or_default()
    }

    /// A command of the game refused on a replay, and what to do instead.
    pub fn not_while_replaying(&mut self, a: Action, instead: &str) {
        let what = a.description();
        let key = self.keys_hint(a);
        self.error(format!("Not while replaying ({key}: {what}). {instead}."));
    }

    /// A key that is no command of a replay (a plain character is answered;
    /// others pass quietly).
    pub fn not_a_replay_command(&mut self, k: KeyEvent) {
        if let crossterm::event::KeyCode::Char(c) = k.code
            && !c.is_whitespace()
        {
            let help = self.keys_hint(Action::Help);
            self.error(format!(
                "'{c}' is not a replay command ({help} shows the keys)."
            ));
        }
    }

    /// Opens `screen` over the current one.
    pub fn open(&mut self, screen: Box<dyn Screen>) {
        self.nav.push(Nav::Open(screen));
    }

    /// Closes the top screen: back to the one beneath, as it was.
    pub fn close(&mut self) {
        self.nav.push(Nav::Close);
    }

    /// Opens `screen`, in place of the top screen if `instead` holds for it.
    pub fn open_instead(&mut self, screen: Box<dyn Screen>, instead: fn(&dyn Screen) -> bool) {
        self.nav.push(Nav::OpenInstead(screen, instead));
    }

    /// An overlay that stops the screen beneath opens (see [`Nav::Cover`]).
    pub fn cover(&mut self) {
        self.nav.push(Nav::Cover);
    }

    /// That overlay closed.
    pub fn uncover(&mut self) {
        self.nav.push(Nav::Uncover);
    }

    /// Closes every screen and shows `screen` alone (a new game).
    pub fn replace(&mut self, screen: Box<dyn Screen>) {
        self.nav.push(Nav::Replace(screen));
    }

    /// The next colour theme (remembered).
    pub fn cycle_theme(&mut self) {
        if self.look.next_theme() {
            let name = self.theme().name.clone();
            self.info(format!("Theme: {name}"));
            self.effects.push(Effect::SaveState);
        }
    }

    /// Quits the app (every screen saves first).
    pub fn quit(&mut self) {
        self.quit = true;
    }

    /// The directory tables are read from and written to.
    pub fn tables_dir(&self) -> Option<PathBuf> {
        self.dirs
            .tables
            .clone()
            .or_else(|| {
                std::env::var_os("KIBITZ_TB_DIR")
                    .filter(|d| !d.is_empty())
                    .map(PathBuf::from)
            })
            .or_else(|| self.dirs.data.as_ref().map(|d| d.join("tablebases")))
    }

    /// Where a new game of ours is saved (none without autosave or a data
    /// folder). The name is reserved at once (see [`crate::ui::gamefile`]):
    /// two copies of Kibitz started in the same second get two names.
    pub fn new_save_path(&self) -> Option<PathBuf> {
        self.reserve_save_path("", "pgn", &[])
    }

    /// [`Shared::new_save_path`] with a name prefix, an extension, and
    /// sibling extensions that must be free too.
    pub fn reserve_save_path(&self, prefix: &str, ext: &str, also: &[&str]) -> Option<PathBuf> {
        if !self.config.autosave {
            return None;
        }
        let dir = self.dirs.data.as_ref()?.join("games");
        Some(crate::ui::gamefile::reserve(&dir, prefix, ext, also))
    }

    /// Whether a game saved to `path` (none: not saved at all) is kept in
    /// memory only.
    pub fn unsaved(&self, path: Option<&std::path::Path>) -> bool {
        path.is_none_or(|p| self.save_failing.as_deref() == Some(p))
    }

    /// The board geometry of the chess screens at the terminal's size.
    pub fn geometry(&self) -> Option<BoardGeometry> {
        layout::layout(ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1)).map(|l| l.board)
    }
}
