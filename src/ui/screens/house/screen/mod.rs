//! The Crazyhouse/Bughouse screens in the app: a game played (this file,
//! `game.rs`, `play.rs`, `talk.rs`) and a file replayed (`replay.rs`), and
//! going back to the game beneath.

use crate::ui::keymap::ReplayAction;
use crate::ui::prelude::*;
use crate::ui::screens::house::live::Live;
use crate::ui::screens::house::{HouseReplay, Playing};
use crate::ui::state::screen::{Screen, screen_any};

mod game;
mod play;
mod replay;
mod talk;

pub use replay::HouseReplayScreen;

/// A Crazyhouse or Bughouse game being played (a file replayed is
/// [`HouseReplayScreen`]). Its boards are shown by the same viewer as a
/// replay's, which follows the game's last move.
#[derive(Default)]
pub struct HouseScreen {
    /// The game's boards as shown: the same viewer as a replay's, which
    /// follows the game's last move (none while the resume prompt waits).
    pub house: Option<Box<HouseReplay>>,
    /// The game played (none while the resume prompt waits).
    pub live: Option<Box<crate::ui::screens::house::live::Live>>,
    /// Keyboard and mouse picking on the person's board (the board
    /// component).
    pub pick: crate::ui::board::BoardInput,
    /// Where the game is saved.
    pub file: GameFile,
    /// `m` was pressed: the next key picks a partner message.
    pub message: bool,
    /// A message to the partner being typed (`m` then `'`).
    pub message_text: Option<String>,
    /// A typed board move only a drop can make (`Nf5` with a knight in
    /// hand): asking whether to drop it.
    pub(super) confirm_drop: Option<(Role, Square)>,
    /// The live game's table: its engines' jobs and news carry it, so a
    /// game never hears (or stops) the engines of another.
    pub(super) table: u64,
}

impl HouseScreen {
    /// The live game's table (see [`crate::ui::engines`]).
    pub fn table(&self) -> u64 {
        self.table
    }

    /// A live game is on this screen.
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }
}

/// The Crazyhouse/Bughouse screen at work.
pub struct House<'a> {
    pub ui: &'a mut Shared,
    pub s: &'a mut HouseScreen,
}

impl Screen for HouseScreen {
    fn key(&mut self, ui: &mut Shared, k: KeyEvent, now: Instant) {
        House { ui, s: self }.live_key(k, now);
    }

    fn mouse(&mut self, ui: &mut Shared, m: MouseEvent, now: Instant) {
        House { ui, s: self }.on_mouse(m, now);
    }

    fn tick(&mut self, ui: &mut Shared, now: Instant) {
        House { ui, s: self }.live_tick(now);
    }

    fn message(&mut self, ui: &mut Shared, msg: Msg, now: Instant) -> Option<Msg> {
        match msg {
            Msg::Engine {
                table,
                seat,
                report,
            } if table == self.table => House { ui, s: self }.on_engine(seat, report, now),
            other => return Some(other),
        }
        None
    }

    fn draw(&self, ui: &Shared, buf: &mut Buffer, area: Rect, now: Instant) {
        // Empty while the resume prompt waits.
        if let Some(h) = self.house.as_deref() {
            let playing = self.live.as_deref().map(|live| Playing {
                live,
                pick: &self.pick,
            });
            crate::ui::screens::house::draw::draw_house(buf, ui, h, playing, area, now);
        }
    }

    fn leave(&mut self, ui: &mut Shared) {
        // A game left before its first move leaves no empty file behind.
        self.file.leave();
        if self.is_live() {
            ui.effects.push(Effect::Engine {
                table: self.table,
                job: EngineJob::QuitAll,
            });
        }
    }

    fn fits(&self, area: Rect) -> bool {
        let boards = self
            .house
            .as_ref()
            .and_then(|h| h.show().ok().map(|s| s.boards()))
            .unwrap_or(1);
        crate::ui::layout::house_layout(area, boards, false).is_some()
    }

    fn unsaved(&self, ui: &Shared) -> bool {
        self.is_live() && ui.unsaved(self.file.path())
    }

    fn game_in_progress(&self) -> Option<String> {
        let l = self.live.as_deref()?;
        if l.is_over() || l.moves_played() == 0 {
            return None;
        }
        let game = if l.boards() == 2 {
            "Bughouse"
        } else {
            "Crazyhouse"
        };
        let n = l.moves_played();
        let moves = format!("{n} move{}", if n == 1 { "" } else { "s" });
        Some(match self.file.path() {
            Some(_) => format!(
                "your {game} game after {moves} (it is saved: Kibitz offers it again when it starts)"
            ),
            None => format!("your {game} game after {moves}, which is not saved"),
        })
    }

    fn continue_typing(&mut self, _ui: &mut Shared, text: &str) -> bool {
        let to_move = self
            .live
            .as_ref()
            .is_some_and(|l| l.human_to_move().is_some());
        if !to_move || !crate::ui::input::looks_like_move_prefix(text) {
            return false;
        }
        self.pick.typing.take(text);
        true
    }

    screen_any!();
}

impl House<'_> {
    /// Leaves the Crazyhouse/Bughouse screen: back to the screen beneath.
    pub(super) fn close_house(&mut self) {
        self.ui.status = None;
        self.ui.close();
    }

    fn do_quit(&mut self) {
        self.ui.quit();
    }

    /// The mouse: picks on the board.
    fn on_mouse(&mut self, m: MouseEvent, now: Instant) {
        if matches!(m.kind, MouseEventKind::Down(_) | MouseEventKind::Up(_)) {
            self.live_mouse(m, now);
        }
    }
}

impl House<'_> {
    /// Opens the search-tree explorer on the person's board (the large
    /// one when nobody is to move).
    pub fn open_house_explorer(&mut self) {
        let Some(h) = self.s.house.as_deref() else {
            return;
        };
        let b = self.live_mover().map_or(h.main, |(b, _, _)| b);
        explore(self.ui, h, self.s.live.as_deref(), b);
    }

    pub(super) fn house_copy(&mut self, what: Action) {
        if let Some(h) = self.s.house.as_deref() {
            copy(self.ui, h, self.s.live.as_deref(), what);
        }
    }
}

/// Opens the search-tree explorer on board `b` of the Crazyhouse/Bughouse
/// position shown.
fn explore(ui: &mut Shared, h: &HouseReplay, live: Option<&Live>, b: usize) {
    use crate::engine::tree::DEFAULT_NODE_CAP;
    use crate::engine::{Board, Bug, Features, GamePosition, Zh};
    use crate::ui::screens::explorer::{AnyExplorer, DEFAULT_DEPTH, Explorer};
    let Some(frame) = h.frame() else { return };
    let Some(pos) = frame.boards.get(b).cloned() else {
        return;
    };
    if pos.legal_moves().is_empty() {
        ui.error("No moves here: there is no search to explore.");
        return;
    }
    let ex = if frame.boards.len() == 2 {
        AnyExplorer::Bug(Box::new(Explorer::new(
            GamePosition::new(Board::<Bug>::from_pos(pos)),
            DEFAULT_DEPTH,
            Features::default(),
            DEFAULT_NODE_CAP,
        )))
    } else {
        AnyExplorer::Zh(Box::new(Explorer::new(
            GamePosition::new(Board::<Zh>::from_pos(pos)),
            DEFAULT_DEPTH,
            Features::default(),
            DEFAULT_NODE_CAP,
        )))
    };
    let running = live
        .as_ref()
        .is_some_and(|l| !l.is_over() && l.time.is_some());
    crate::ui::screens::explorer::open_any(ui, ex);
    if running {
        ui.info("The clocks keep running while you explore (q comes back).");
    }
}

/// `y`: the position shown (both boards in Bughouse, `A | B`); `Y`: the
/// game (the record of a game being played; the file's game in a replay,
/// as BPGN or Crazyhouse PGN).
fn copy(ui: &mut Shared, h: &HouseReplay, live: Option<&Live>, what: Action) {
    {
        let (kind, text, file) = if what == Action::CopyFen {
            let Some(frame) = h.frame() else { return };
            let fens: Vec<String> = frame
                .boards
                .iter()
                .map(crate::variant::fen::write_fen)
                .collect();
            ("FEN", fens.join(" | "), "position.fen")
        } else {
            match live {
                Some(l) => {
                    let ext = if l.boards() == 2 {
                        "game.bpgn"
                    } else {
                        "game.pgn"
                    };
                    ("PGN", l.save_text(), ext)
                }
                None => {
                    // The game shown, written again from the file.
                    let text = h
                        .path
                        .as_ref()
                        .and_then(|p| std::fs::read(p).ok())
                        .map(|b| crate::util::decode_text(&b))
                        .unwrap_or_default();
                    let two = h.show().is_ok_and(|s| s.boards() == 2);
                    let game = if two {
                        crate::bughouse::bpgn::read_bpgn_games(&text)
                            .get(h.index)
                            .and_then(|g| g.as_ref().ok())
                            .map(crate::bughouse::bpgn::write_bpgn)
                    } else {
                        crate::game::variant_pgn::read_variant_pgn(&text)
                            .get(h.index)
                            .and_then(|g| g.as_ref().ok())
                            .map(crate::game::write_variant_pgn)
                    };
                    let Some(game) = game else {
                        ui.error("Nothing to copy: the game cannot be read from its file.");
                        return;
                    };
                    ("PGN", game, if two { "game.bpgn" } else { "game.pgn" })
                }
            }
        };
        ui.effects.push(Effect::Copy {
            what: kind,
            text,
            path: ui.dirs.data.as_ref().map(|d| d.join(file)),
        });
    }
}
