//! Opening game files: the file picker, reading a file in the background,
//! and the screen it opens on (the chess replay screen, or the
//! Crazyhouse/Bughouse screen).

use super::*;
use crate::ui::screens::chess::replay::{self as rp, FilePicker, Replay};
use crate::ui::screens::house::{HouseReplay, Show};

impl Shared {
    /// Opens the file picker: saved games, then the sample games.
    pub fn open_file_picker(&mut self) {
        let mut dirs = Vec::new();
        if let Some(d) = &self.dirs.data {
            dirs.push((d.join("games"), "saved"));
        }
        if let Some(d) = &self.dirs.samples {
            dirs.push((d.clone(), "sample"));
        }
        let picker = FilePicker::scan(&dirs);
        if picker.files.is_empty() {
            self.info("No game files found: type a file's path and press Enter.");
        }
        self.overlay = Overlay::Files(Box::new(picker));
    }

    /// Starts reading a game file (on the runtime's thread); `game` (from
    /// 0) is shown first, else the game list opens for a file of many.
    pub fn open_file(&mut self, path: PathBuf, game: Option<usize>) {
        // A file still being read is given up.
        if let Some(o) = self.opening.take() {
            self.effects.push(Effect::StopFile { id: o.id });
        }
        let id = self.new_id();
        self.opening = Some(Opening {
            id,
            path: path.clone(),
            share: 0.0,
            game,
        });
        let data = self.dirs.data.clone();
        let reps = self.openings.repertoires(data.as_deref());
        let repertoires = (!reps.white.is_empty() || !reps.black.is_empty())
            .then(|| std::sync::Arc::new(reps.clone()));
        self.effects.push(Effect::OpenFile {
            id,
            path,
            repertoires,
        });
    }
}

impl App {
    /// Starts reading a game file (see [`Shared::open_file`]).
    pub fn open_file(&mut self, path: PathBuf, game: Option<usize>) {
        self.ui.open_file(path, game);
    }

    /// A chess game file was read: it opens on a replay screen (over the
    /// game in progress, which waits; in place of a file shown before).
    pub(super) fn on_opened(
        &mut self,
        id: u64,
        path: PathBuf,
        result: Result<Box<Library>, String>,
        now: Instant,
    ) {
        let Some(opening) = self.ui.opening.take_if(|o| o.id == id) else {
            return; // cancelled, or an older request
        };
        let mut library = match result {
            Ok(l) => *l,
            Err(e) => {
                self.open_failed(format!("Cannot open {}: {e}", path.display()), now);
                return;
            }
        };
        let n = library.entries.len();
        if n == 0 {
            self.open_failed(format!("{}: no games in this file.", library.name), now);
            return;
        }
        let wanted = opening.game;
        let missing = wanted.filter(|&g| g >= n).map(|g| {
            format!(
                "{} has {n} game{}; there is no game {}.",
                library.name,
                if n == 1 { "" } else { "s" },
                g + 1
            )
        });
        let index = wanted.filter(|&g| g < n).unwrap_or(0);
        let (parsed, problem) = match library.load(index) {
            Ok(p) => (p, None),
            Err(e) => (rp::empty_game(Board::startpos()), Some(e)),
        };
        let many = library.format == crate::game::library::Format::Pgn && n > 1;
        let mut replay = Replay::new(library, Some(path), index, parsed);
        replay.checking = many;
        replay.file_id = id;
        // A file shown until now gives way to this one.
        if self.top_as::<ChessScreen<Replay>>().is_some() {
            self.navigate(screen::Nav::Close, now);
        }
        let live = self
            .find::<ChessScreen>()
            .is_some_and(|c| !c.game.is_over() && !c.game.game.moves().is_empty());
        let engine = self.default_setup().engine;
        let mut s = ChessScreen::replay(replay, engine, &mut self.ui, now);
        let mut c = s.at(&mut self.ui);
        if many && (wanted.is_none() || missing.is_some()) {
            c.ui.overlay = Overlay::Games { selected: index };
        }
        match (missing, problem) {
            (Some(m), _) => c.ui.error(m),
            (None, Some(e)) => {
                c.ui.error(format!("Game {} cannot be read: {e}", index + 1))
            }
            (None, None) => {
                c.announce_game();
                if live {
                    c.ui.info("Your game waits beneath the replay: Esc goes back to it.");
                }
            }
        }
        self.navigate(screen::Nav::Open(Box::new(s)), now);
    }

    /// A file could not be opened: say why, and when nothing is on the
    /// screen yet (`kibitz replay` of a bad file), start a game and offer
    /// the file picker.
    pub(super) fn open_failed(&mut self, message: String, now: Instant) {
        if self.depth() == 1 && self.find_game().is_some_and(|c| c.started().is_none()) {
            self.start_launch_game(now);
            self.ui.open_file_picker();
        }
        self.ui.error(message);
    }

    /// Keys of the file picker.
    pub(super) fn files_key(&mut self, k: KeyEvent) {
        let Overlay::Files(p) = &mut self.ui.overlay else {
            return;
        };
        let n = p.shown().len();
        match k.code {
            KeyCode::Up => p.selected = p.selected.saturating_sub(1),
            KeyCode::Down => p.selected = (p.selected + 1).min(n.saturating_sub(1)),
            KeyCode::PageUp => p.selected = p.selected.saturating_sub(10),
            KeyCode::PageDown => p.selected = (p.selected + 10).min(n.saturating_sub(1)),
            KeyCode::Esc => {
                self.ui.overlay = Overlay::None;
                self.ui.status = None;
            }
            KeyCode::Backspace => {
                p.filter.pop();
                p.selected = 0;
            }
            KeyCode::Enter => match p.choice() {
                Some(path) => {
                    self.ui.overlay = Overlay::None;
                    self.ui.open_file(path, None);
                }
                None => {
                    let why = no_choice(p.filter.trim());
                    self.ui.error(why);
                }
            },
            KeyCode::Char(c)
                if !k
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                p.filter.push(c);
                p.selected = 0;
            }
            _ => {}
        }
    }

    /// A Crazyhouse or Bughouse file was read (or could not be).
    pub(super) fn on_house_opened(
        &mut self,
        id: u64,
        path: PathBuf,
        result: Result<Vec<Result<Show, String>>, String>,
        now: Instant,
    ) {
        let Some(opening) = self.ui.opening.take_if(|o| o.id == id) else {
            return; // cancelled, or an older request
        };
        let games = match result {
            Ok(g) => g,
            Err(e) => {
                self.open_failed(format!("Cannot open {}: {e}", path.display()), now);
                return;
            }
        };
        let n = games.len();
        let wanted = opening.game;
        let index = wanted.filter(|&g| g < n).unwrap_or(0);
        let mut house = HouseReplay::new(Some(path.clone()), games, index);
        house.flipped = self.ui.look.flipped;
        if n > 1 && wanted.is_none() {
            house.list = Some(index);
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        );
        let what = match house.show() {
            Ok(s) if s.boards() == 2 => "Bughouse",
            _ => "Crazyhouse",
        };
        // The games that cannot be read, said at once (the list shows why).
        let bad: Vec<String> = house
            .games
            .iter()
            .enumerate()
            .filter(|(_, g)| g.is_err())
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        let unread = match bad.len() {
            0 => String::new(),
            1 => format!(" Game {} cannot be read (see the games list).", bad[0]),
            k if k <= 5 => format!(
                " Games {} cannot be read (see the games list).",
                bad.join(", ")
            ),
            k => format!(" {k} of {n} games cannot be read (see the games list)."),
        };
        let message = match wanted.filter(|&g| g >= n) {
            Some(g) => format!("{name} has {n} game(s); there is no game {}.", g + 1),
            None => match house.show() {
                Ok(s) => format!("{what}: {}. → steps, Space plays it.{unread}", s.title),
                Err(e) => format!("Game {} cannot be read: {e}", index + 1),
            },
        };
        // A file shown until now gives way to this one.
        if self.top_as::<HouseReplayScreen>().is_some() {
            self.navigate(screen::Nav::Close, now);
        }
        self.ui.overlay = Overlay::None;
        self.navigate(
            screen::Nav::Open(Box::new(HouseReplayScreen {
                house: Box::new(house),
            })),
            now,
        );
        if message.starts_with("Game ") || message.contains("there is no game") {
            self.ui.error(message);
        } else {
            self.ui.info(message);
        }
    }
}

/// Why Enter in the file picker opened nothing: the path typed does not
/// exist or is a folder, the text typed matches no file listed, or
/// nothing was chosen.
fn no_choice(typed: &str) -> String {
    if typed.is_empty() {
        return "No file chosen: pick one, or type a path to a file.".into();
    }
    let path = std::path::Path::new(typed);
    let looks_like_path = typed.contains('/') || path.extension().is_some();
    if path.is_dir() {
        format!("{typed} is a folder: type the path of a file in it.")
    } else if looks_like_path {
        format!("There is no file {typed}.")
    } else {
        format!("No file listed matches '{typed}': Backspace clears it.")
    }
}
