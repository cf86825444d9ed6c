//! Saving the game being played to a file the user names (`S`): the way
//! out when the data folder cannot be written (full disk, read-only, no
//! home folder). Later moves are saved to the new file too.

use super::*;
use crate::ui::keymap::Action;
use crate::ui::screens::house::HouseScreen;

impl<T: Task> Chess<'_, T> {
    /// `S`: the prompt for the game being played, or why there is none.
    pub(crate) fn open_save_as(&mut self) {
        if !T::KEPT {
            self.ui.error(format!(
                "Nothing to save here: {} saves a game you play; {} copies this one.",
                self.ui.keys_hint(Action::SaveAs),
                self.ui.keys_hint(Action::CopyPgn)
            ));
            return;
        }
        self.ui.overlay = Overlay::save_as(self.s.file.path());
    }
}

impl App {
    /// A key of the file-name prompt.
    pub(super) fn save_as_key(&mut self, k: KeyEvent) {
        let Overlay::SaveAs { input } = &mut self.ui.overlay else {
            return;
        };
        match k.code {
            KeyCode::Esc => self.ui.overlay = Overlay::None,
            KeyCode::Backspace => {
                input.pop();
            }
            KeyCode::Char('u') if k.modifiers.contains(KeyModifiers::CONTROL) => input.clear(),
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => input.push(c),
            KeyCode::Enter => {
                let text = input.trim().to_string();
                if text.is_empty() {
                    self.ui.error("Type a file name, or Esc.");
                    return;
                }
                self.ui.overlay = Overlay::None;
                self.save_as(expand_home(&text));
            }
            _ => {}
        }
    }

    /// Saves the game on the top screen to `path`, which later moves go
    /// to as well.
    pub fn save_as(&mut self, path: PathBuf) {
        if let Some(h) = self.top_as::<HouseScreen>()
            && h.is_live()
        {
            let text = h.live.as_ref().map(|l| l.save_text());
            let mut effects = Vec::new();
            if let (Some(text), Some(h)) = (text, self.find_mut::<HouseScreen>()) {
                h.file.save_as(&mut effects, path, text);
            }
            self.ui.effects.extend(effects);
            return;
        }
        let c = self.chess_mut();
        let contents = crate::game::write_pgn(&c.s.game);
        c.s.file.save_as(&mut c.ui.effects, path, contents);
    }
}

/// `~/x` as the home folder's `x` (the shell does this for arguments,
/// not for what is typed into Kibitz).
fn expand_home(text: &str) -> PathBuf {
    match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) if !home.is_empty() => PathBuf::from(home).join(rest),
        _ => PathBuf::from(text),
    }
}
