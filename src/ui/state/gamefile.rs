//! The file a game in play is kept in, the same for every game Kibitz
//! plays (chess, the trainer's games, Crazyhouse and Bughouse): written
//! after every change once the game has a move, never for a game left
//! without one (its reserved, empty file goes), and named again by "save
//! as". While there is no file, or its writing fails, the screen keeps a
//! mark ([`Shared::unsaved`]).

use super::*;

/// Where a game in play is saved.
#[derive(Clone, Debug, Default)]
pub struct GameFile {
    path: Option<PathBuf>,
    /// The game has been written there (so a takeback to no move writes
    /// it again).
    written: bool,
}

impl GameFile {
    /// A new game's file (reserved, still empty), if it gets one.
    pub fn new(path: Option<PathBuf>) -> GameFile {
        GameFile {
            path,
            written: false,
        }
    }

    /// The file a resumed game was read from.
    pub fn resumed(path: PathBuf) -> GameFile {
        GameFile {
            path: Some(path),
            written: true,
        }
    }

    pub fn path(&self) -> Option<&std::path::Path> {
        self.path.as_deref()
    }

    /// Writes the game (`contents`) to its file, atomically, by the
    /// runtime: once it has a move (`played`) or was written before. True
    /// when a write was asked for.
    pub fn save(
        &mut self,
        effects: &mut Vec<Effect>,
        played: bool,
        contents: impl FnOnce() -> String,
    ) -> bool {
        let Some(path) = &self.path else {
            return false;
        };
        if !played && !self.written {
            return false;
        }
        self.written = true;
        effects.push(Effect::Save {
            path: path.clone(),
            contents: contents(),
        });
        true
    }

    /// "Save as": the game goes to `path` now and its later moves too (the
    /// runtime writes it and says whether that worked).
    pub fn save_as(&mut self, effects: &mut Vec<Effect>, path: PathBuf, contents: String) {
        self.path = Some(path.clone());
        self.written = true;
        effects.push(Effect::SaveAs { path, contents });
    }

    /// The game is left: a reserved file it never wrote goes.
    pub fn leave(&self) {
        if let Some(p) = &self.path {
            crate::ui::gamefile::discard_if_empty(p);
        }
    }
}
