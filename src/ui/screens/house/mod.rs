//! Crazyhouse and Bughouse on screen. This part replays their files: BPGN
//! (both boards stepping in the order the moves were made, clocks, pockets
//! and partner messages) and Crazyhouse PGN (one board with pockets).
//!
//! A file is turned into a [`Show`]: the moves in time order and the
//! position after each of them (both boards, pockets, the four clocks and
//! the game time, for autoplay in real or scaled time). The screen state
//! ([`HouseReplay`]) is a cursor into it; the view draws from it.

pub mod draw;
pub mod file;
pub mod live;
mod screen;
mod show;
pub use screen::{House, HouseReplayScreen, HouseScreen};
pub use show::*;

use crate::bughouse::{BoardId, BugResult, BughouseGame, Seat};
use crate::engine::Zh;
use crate::game::{Game, GameResult};
use crate::variant::{VariantKind, rules};
use shakmaty::variant::Crazyhouse;
use shakmaty::{Color, Move, Piece, Position, Role};
use std::time::{Duration, Instant};

/// Autoplay speeds (times real time) to choose from with `+` / `-`.
pub const SPEEDS: [f64; 8] = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
pub const DEFAULT_SPEED: usize = 1;
/// Autoplay delays when the file has no clocks.
pub const DELAYS_MS: [u64; 7] = [100, 250, 500, 1000, 1500, 2000, 3000];
pub const DEFAULT_DELAY: usize = 3;
/// The longest autoplay pause between two moves, however long the player
/// thought (scaled time included).
pub const MAX_PAUSE: Duration = Duration::from_secs(20);

pub use crate::variant::rules::pocket_of;

/// Below this room for "A ▶ " and the name, a one-row pocket squeezes its
/// pieces together.
const NAME_ROOM: u16 = 14;

/// Where each pocket piece of a player's strip (see
/// [`crate::ui::layout::HouseBoard`]) sits: right-aligned before the clock
/// text. Where the board is pixel art each piece is a square as tall as
/// the strip (the count in its corner); else one row, ` ♞2 ` (the count
/// when more than one; ` ♞2` touching when the name would be short of
/// room). Pieces that do not fit are left out. The view
/// draws here and the mouse picks from here.
pub fn pocket_cells(
    strip: ratatui::layout::Rect,
    piece: (u16, u16),
    pocket: &[(Role, u8)],
    clock_text: Option<&str>,
) -> Vec<(Role, ratatui::layout::Rect)> {
    let clock_w = clock_text.map_or(0, |c| c.chars().count() as u16 + 1);
    let room = strip.width.saturating_sub(clock_w);
    let (w, h) = piece;
    let tall = h > 1;
    let digits = |n: u8| if n > 1 { n.ilog10() as u16 + 1 } else { 0 };
    // On one row ` ♞2 ` and a gap; where that leaves the name less than
    // `NAME_ROOM`, ` ♞2` touching (no gap, no space after).
    let wide: u16 = pocket.iter().map(|&(_, n)| w + digits(n) + 1).sum();
    let compact = !tall && room.saturating_sub(wide) < NAME_ROOM;
    // Each piece's width and the gap after it.
    let width = |n: u8| {
        if tall {
            w
        } else if compact {
            w - 1 + digits(n)
        } else {
            w + digits(n)
        }
    };
    let gap = u16::from(!tall && !compact);
    let mut total = 0;
    let mut fit = 0;
    for &(_, n) in pocket {
        let add = width(n) + gap;
        if total + add > room {
            break;
        }
        total += add;
        fit += 1;
    }
    let mut x = strip.x + room - total;
    let mut out = Vec::with_capacity(fit);
    for &(role, n) in &pocket[..fit] {
        let cw = width(n);
        out.push((
            role,
            ratatui::layout::Rect::new(x, strip.y, cw, h.min(strip.height)),
        ));
        x += cw + gap;
    }
    out
}

pub fn role_word(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// What a key did on the replay screen (for the app to act on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Handled here.
    Done,
    /// Not a key of this screen.
    Unhandled,
    /// Leave the screen.
    Close,
}

/// The replay screen of a Crazyhouse or Bughouse file.
pub struct HouseReplay {
    pub path: Option<std::path::PathBuf>,
    /// The file's games; `None` where a game could not be read (with why).
    pub games: Vec<Result<Show, String>>,
    pub index: usize,
    /// Moves shown (0 = the start).
    pub cursor: usize,
    /// Autoplay: when the next move is due.
    pub autoplay: Option<Instant>,
    pub speed: usize,
    pub delay: usize,
    /// The board shown large (0 = A).
    pub main: usize,
    /// Board A's (or the only board's) Black at the bottom.
    pub flipped: bool,
    /// The games list is open, with this one selected.
    pub list: Option<usize>,
    /// The last piece that arrived in a pocket and when (for a short
    /// highlight): board, piece.
    pub arrived: Option<(usize, Piece, Instant)>,
}

/// The game played on the Crazyhouse/Bughouse game screen, as its viewer
/// draws it and the mouse picks on it: the game and its board input (a
/// file replayed has neither).
#[derive(Clone, Copy)]
pub struct Playing<'a> {
    pub live: &'a live::Live,
    pub pick: &'a crate::ui::board::BoardInput,
}

/// How long a piece that arrives in a pocket stays highlighted.
pub const ARRIVAL_FLASH: Duration = Duration::from_millis(1200);

impl HouseReplay {
    pub fn new(
        path: Option<std::path::PathBuf>,
        games: Vec<Result<Show, String>>,
        index: usize,
    ) -> Self {
        HouseReplay {
            path,
            index: index.min(games.len().saturating_sub(1)),
            games,
            cursor: 0,
            autoplay: None,
            speed: DEFAULT_SPEED,
            delay: DEFAULT_DELAY,
            main: 0,
            flipped: false,
            list: None,
            arrived: None,
        }
    }

    /// The viewer of a game being played.
    pub fn following(live: &live::Live) -> Self {
        let mut h = HouseReplay::new(None, vec![Ok(live.show())], 0);
        h.refresh(live, Instant::now());
        h
    }

    /// After a move of the game played: the show follows it, pieces that
    /// arrived flash.
    pub fn refresh(&mut self, l: &live::Live, now: Instant) {
        let show = l.show();
        let n = show.moves.len();
        let before = self.cursor;
        self.games = vec![Ok(show)];
        self.index = 0;
        if n > before {
            // Step through the new moves so a piece passed flashes.
            for i in before + 1..=n {
                self.cursor = i - 1;
                self.go(i, now);
            }
        }
        self.cursor = n;
    }

    /// The clock of `color` on board `b`: running in the game played
    /// (`live`), else as the file has it at the move shown.
    pub fn clock(
        &self,
        live: Option<&live::Live>,
        b: usize,
        color: Color,
        now: Instant,
    ) -> Option<Duration> {
        if let Some(l) = live {
            return l.remaining(b, color, now);
        }
        self.frame()
            .and_then(|f| f.clocks.get(b))
            .and_then(|c| c[usize::from(color == Color::Black)])
    }

    /// The pieces `color` holds on board `b` now, in the order the pocket
    /// shows them (queen first).
    pub fn pocket(&self, b: usize, color: Color) -> Vec<(Role, u8)> {
        let Some(pos) = self.frame().and_then(|f| f.boards.get(b)) else {
            return Vec::new();
        };
        pocket_of(pos, color)
    }

    /// The pocket cells of `color` on board `b` in layout `l`: in the strip
    /// on that player's side of the board, before the clock (the view
    /// draws there, the mouse picks there).
    pub fn pocket_cells(
        &self,
        live: Option<&live::Live>,
        l: &crate::ui::layout::HouseLayout,
        b: usize,
        color: Color,
        now: Instant,
    ) -> Vec<(Role, ratatui::layout::Rect)> {
        let slot = usize::from(l.boards.len() == 2 && b != self.main);
        let Some(place) = l.boards.get(slot) else {
            return Vec::new();
        };
        let strip = if color == self.bottom(b) {
            place.bottom
        } else {
            place.top
        };
        let clock = self
            .clock(live, b, color, now)
            .map(crate::ui::clock::format_clock);
        pocket_cells(
            strip,
            place.pocket_piece(),
            &self.pocket(b, color),
            clock.as_deref(),
        )
    }

    /// The screen's layout in `area`: the boards of the game shown, an eval
    /// bar in a game being played (`playing`).
    pub fn layout(
        &self,
        area: ratatui::layout::Rect,
        playing: bool,
    ) -> Option<crate::ui::layout::HouseLayout> {
        let boards = self.show().map_or(1, |s| s.boards());
        crate::ui::layout::house_layout(area, boards, playing)
    }

    /// The game shown, or why it cannot be.
    pub fn show(&self) -> Result<&Show, &str> {
        match self.games.get(self.index) {
            Some(Ok(s)) => Ok(s),
            Some(Err(e)) => Err(e),
            None => Err("no games"),
        }
    }

    pub fn frame(&self) -> Option<&Frame> {
        self.show().ok().and_then(|s| s.frames.get(self.cursor))
    }

    fn len(&self) -> usize {
        self.show().map_or(0, |s| s.moves.len())
    }

    /// Shows the position after `n` moves.
    pub fn go(&mut self, n: usize, now: Instant) {
        let n = n.min(self.len());
        // A piece passed by the move just stepped over flashes.
        self.arrived = None;
        if n == self.cursor + 1
            && let Ok(s) = self.show()
            && let Some(m) = s.moves.get(self.cursor)
            && let Some(p) = m.sent
        {
            self.arrived = Some((1 - m.board, p, now));
        }
        self.cursor = n;
    }

    pub fn at_end(&self) -> bool {
        self.cursor >= self.len()
    }

    /// Time to wait before the move after the cursor, autoplay's pace.
    pub fn pause(&self) -> Duration {
        let fixed = Duration::from_millis(DELAYS_MS[self.delay.min(DELAYS_MS.len() - 1)]);
        let Ok(s) = self.show() else { return fixed };
        match (
            s.frames.get(self.cursor).and_then(|f| f.at),
            s.frames.get(self.cursor + 1).and_then(|f| f.at),
        ) {
            (Some(a), Some(b)) => {
                let real = b.saturating_sub(a).as_secs_f64() / SPEEDS[self.speed];
                Duration::from_secs_f64(real).min(MAX_PAUSE)
            }
            _ => fixed,
        }
    }

    /// Autoplay's word for its pace: "real time x4" or "1.0 s a move".
    pub fn pace_text(&self) -> String {
        if self.show().is_ok_and(|s| s.timed()) {
            let x = SPEEDS[self.speed];
            if x == 1.0 {
                "real time".into()
            } else if x < 1.0 {
                format!("real time x{x}")
            } else {
                format!("real time x{x:.0}")
            }
        } else {
            format!("{:.1} s a move", DELAYS_MS[self.delay] as f64 / 1000.0)
        }
    }

    pub fn toggle_autoplay(&mut self, now: Instant) {
        if self.autoplay.is_some() {
            self.autoplay = None;
        } else {
            if self.at_end() {
                self.go(0, now);
            }
            self.autoplay = Some(now + self.pause());
        }
    }

    /// Time passes: autoplay's next move when it is due.
    pub fn tick(&mut self, now: Instant) {
        if let Some(due) = self.autoplay
            && now >= due
        {
            if self.at_end() {
                self.autoplay = None;
            } else {
                self.go(self.cursor + 1, now);
                self.autoplay = (!self.at_end()).then(|| now + self.pause());
            }
        }
        if let Some((_, _, t)) = self.arrived
            && now.duration_since(t) > ARRIVAL_FLASH
        {
            self.arrived = None;
        }
    }

    pub fn faster(&mut self) {
        if self.show().is_ok_and(|s| s.timed()) {
            self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
        } else {
            self.delay = self.delay.saturating_sub(1);
        }
    }

    pub fn slower(&mut self) {
        if self.show().is_ok_and(|s| s.timed()) {
            self.speed = self.speed.saturating_sub(1);
        } else {
            self.delay = (self.delay + 1).min(DELAYS_MS.len() - 1);
        }
    }

    /// Shows game `i` of the file from its start.
    pub fn select_game(&mut self, i: usize, now: Instant) {
        if i < self.games.len() {
            self.index = i;
            self.cursor = 0;
            self.autoplay = None;
            self.main = 0;
            self.go(0, now);
        }
    }

    /// Which board is at the bottom of each board: board A's orientation
    /// follows `flipped`; board B stands the other way round, as at a real
    /// table (partners sit side by side and play opposite colours).
    pub fn bottom(&self, board: usize) -> Color {
        let a = if self.flipped {
            Color::Black
        } else {
            Color::White
        };
        if board == 0 { a } else { !a }
    }

    /// Chat sent up to the cursor, newest last.
    pub fn chat_so_far(&self) -> Vec<&ShowChat> {
        self.show().map_or_else(
            |_| Vec::new(),
            |s| {
                s.chat
                    .iter()
                    .filter(|c| c.after_moves <= self.cursor)
                    .collect()
            },
        )
    }
}

#[cfg(test)]
mod tests;
