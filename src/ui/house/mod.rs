//! Crazyhouse and Bughouse on screen. This part replays their files: BPGN
//! (both boards stepping in the order the moves were made, clocks, pockets
//! and partner messages) and Crazyhouse PGN (one board with pockets).
//!
//! A file is turned into a [`Show`]: the moves in time order and the
//! position after each of them (both boards, pockets, the four clocks and
//! the game time, for autoplay in real or scaled time). The screen state
//! ([`HouseReplay`]) is a cursor into it; the view draws from it.

pub mod engines;
pub mod file;
pub mod live;

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

/// One move of a shown game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShowMove {
    /// 0 = board A (or the only board), 1 = board B.
    pub board: usize,
    pub color: Color,
    /// The move number on its board (1 for the first move of each side).
    pub number: u32,
    pub mv: Move,
    pub san: String,
    /// The mover's clock after the move, when the file says.
    pub remaining: Option<Duration>,
    /// The piece taken (its colour before the capture), if any.
    pub captured: Option<Piece>,
    /// Bughouse: the piece that went to the other board.
    pub sent: Option<Piece>,
}

/// The position after some moves.
#[derive(Clone, Debug)]
pub struct Frame {
    /// One board (Crazyhouse) or two (Bughouse, A then B).
    pub boards: Vec<Crazyhouse>,
    /// Per board: White's and Black's clock.
    pub clocks: Vec<[Option<Duration>; 2]>,
    /// The game time when this position was reached (both boards' clocks
    /// run from the start), when the file has clocks.
    pub at: Option<Duration>,
}

/// A message between partners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShowChat {
    pub after_moves: usize,
    /// Board and colour of the sender.
    pub from: (usize, Color),
    pub text: String,
}

/// A game ready to be shown.
#[derive(Clone, Debug)]
pub struct Show {
    pub kind: VariantKind,
    /// Per board: White's and Black's name.
    pub players: Vec<[String; 2]>,
    pub moves: Vec<ShowMove>,
    /// `moves.len() + 1` positions: the start and after each move.
    pub frames: Vec<Frame>,
    pub chat: Vec<ShowChat>,
    /// "1-0", "0-1", "1/2-1/2" or "*".
    pub result: String,
    /// How it ended, in words, when the file says.
    pub ending: Option<String>,
    /// The time control, when the file says.
    pub time_control: Option<String>,
    /// A one-line description for the games list.
    pub title: String,
}

/// Seconds and increment of a `[TimeControl "120+2"]` tag.
fn parse_time_control(tc: &str) -> Option<(Duration, Duration)> {
    let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
    let base: f64 = base.trim().parse().ok()?;
    let inc: f64 = inc.trim().parse().ok()?;
    (base.is_finite() && inc.is_finite() && base >= 0.0 && inc >= 0.0)
        .then(|| (Duration::from_secs_f64(base), Duration::from_secs_f64(inc)))
}

fn color_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Builds the frames of a game from its start boards and moves (each
/// already played once, so legal): positions, clocks and game times.
struct Builder {
    kind: VariantKind,
    boards: Vec<Crazyhouse>,
    clocks: Vec<[Option<Duration>; 2]>,
    /// Moves made by each seat (for the increment).
    made: Vec<[u32; 2]>,
    control: Option<(Duration, Duration)>,
    timed: bool,
    at: Duration,
    frames: Vec<Frame>,
}

impl Builder {
    fn new(
        kind: VariantKind,
        boards: Vec<Crazyhouse>,
        control: Option<(Duration, Duration)>,
    ) -> Self {
        let n = boards.len();
        let start = control.map(|(base, _)| base);
        let mut b = Builder {
            kind,
            boards,
            clocks: vec![[start, start]; n],
            made: vec![[0, 0]; n],
            control,
            timed: control.is_some(),
            at: Duration::ZERO,
            frames: Vec::new(),
        };
        b.snapshot();
        b
    }

    fn snapshot(&mut self) {
        self.frames.push(Frame {
            boards: self.boards.clone(),
            clocks: self.clocks.clone(),
            at: self.timed.then_some(self.at),
        });
    }

    /// The captured piece of `m` on `pos`, before the move.
    fn captured(pos: &Crazyhouse, m: Move) -> Option<Piece> {
        match m {
            Move::EnPassant { .. } => Some(Piece {
                color: !pos.turn(),
                role: Role::Pawn,
            }),
            Move::Normal {
                capture: Some(_),
                to,
                ..
            } => pos.board().piece_at(to),
            _ => None,
        }
    }

    /// Plays `m` on `board`; returns the move's record.
    fn play(&mut self, board: usize, m: Move, remaining: Option<Duration>) -> ShowMove {
        let pos = &self.boards[board];
        let color = pos.turn();
        let number = pos.fullmoves().get();
        let san = rules::san(pos, m, self.kind);
        let captured = Self::captured(pos, m);
        let sent = if self.kind == VariantKind::Bughouse {
            let (after, sent) = rules::play_bughouse(pos, m);
            self.boards[board] = after;
            if let Some(p) = sent {
                let other = 1 - board;
                if let Some(b) = self.boards.get(other)
                    && let Some(b2) = rules::add_to_pocket(b, p)
                {
                    self.boards[other] = b2;
                }
            }
            sent
        } else {
            let (after, _) = rules::play(pos, m, self.kind);
            self.boards[board] = after;
            None
        };
        let ci = color_index(color);
        self.made[board][ci] += 1;
        if remaining.is_none() {
            self.timed = false;
        }
        if let Some(r) = remaining {
            self.clocks[board][ci] = Some(r);
        }
        // The game time: what both players of this board have used.
        if self.timed
            && let Some((base, inc)) = self.control
        {
            let used = |c: usize| {
                let total = base + inc * self.made[board][c];
                self.clocks[board][c].map_or(Duration::ZERO, |r| total.saturating_sub(r))
            };
            self.at = self.at.max(used(0) + used(1));
        }
        self.snapshot();
        ShowMove {
            board,
            color,
            number,
            mv: m,
            san,
            remaining,
            captured,
            sent,
        }
    }
}

impl Show {
    /// A Bughouse game.
    pub fn from_bughouse(g: &BughouseGame) -> Show {
        let control = g.header("TimeControl").and_then(parse_time_control);
        let mut b = Builder::new(
            VariantKind::Bughouse,
            vec![g.start(BoardId::A).clone(), g.start(BoardId::B).clone()],
            control,
        );
        let moves: Vec<ShowMove> = g
            .moves()
            .iter()
            .map(|m| b.play(m.board.index(), m.mv, m.remaining))
            .collect();
        let name = |board, color| g.player(Seat::new(board, color)).to_string();
        let players = vec![
            [
                name(BoardId::A, Color::White),
                name(BoardId::A, Color::Black),
            ],
            [
                name(BoardId::B, Color::White),
                name(BoardId::B, Color::Black),
            ],
        ];
        let result = g.ending.map(|e| e.result).map_or_else(
            || g.header("Result").unwrap_or("*").to_string(),
            |r: BugResult| r.pgn().to_string(),
        );
        let ending = g.ending.map(|e| {
            let team = match e.result {
                BugResult::TeamOneWins => "team 1 (White A + Black B) wins",
                BugResult::TeamTwoWins => "team 2 (Black A + White B) wins",
                BugResult::Draw => "drawn",
            };
            let what = match e.loser {
                Some(seat) => {
                    let d = e.describe();
                    format!("{seat} {}", d.split_once(' ').map_or("", |x| x.1))
                }
                None => capitalise_first(&e.describe()),
            };
            format!("{what}: {team}")
        });
        let chat = g
            .chat
            .iter()
            .map(|c| ShowChat {
                after_moves: c.after_moves,
                from: (c.from.board.index(), c.from.color),
                text: c.text.clone(),
            })
            .collect();
        let title = format!(
            "{} & {} vs {} & {}  {}",
            players[0][0], players[1][1], players[0][1], players[1][0], result
        );
        Show {
            kind: VariantKind::Bughouse,
            players,
            moves,
            frames: b.frames,
            chat,
            result,
            ending,
            time_control: g.header("TimeControl").map(str::to_string),
            title,
        }
    }

    /// A Crazyhouse game (clocks from `[%clk]` comments).
    pub fn from_crazyhouse(g: &Game<Zh>) -> Show {
        let mut clocks: Vec<Option<Duration>> = g
            .comments()
            .iter()
            .map(|c| {
                c.as_deref()
                    .and_then(crate::game::review::parse_clk_comment)
            })
            .collect();
        let tc = g.header("TimeControl").and_then(parse_time_control);
        // Engine matches write the time each move took (`{+0.35/12 1.20s}`)
        // instead of clocks: the clocks follow from the time control.
        if clocks.iter().all(Option::is_none)
            && let Some((base, inc)) = tc
        {
            let thinks: Vec<Option<Duration>> = g
                .comments()
                .iter()
                .map(|c| c.as_deref().and_then(think_time))
                .collect();
            // A move without its time (a book move, a closing remark)
            // counts as instant.
            let known = thinks.iter().filter(|t| t.is_some()).count();
            if known > 0 && known * 10 >= thinks.len() * 9 {
                let mut left = [base, base];
                clocks = thinks
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let side = (i + usize::from(g.start().turn() == Color::Black)) % 2;
                        left[side] = (left[side] + inc).saturating_sub(t.unwrap_or_default());
                        Some(left[side])
                    })
                    .collect();
            }
        }
        // Without a TimeControl tag the first clock readings give the base.
        let control = tc.or_else(|| {
            let first = clocks.first().copied().flatten()?;
            Some((first, Duration::ZERO))
        });
        let mut b = Builder::new(
            VariantKind::Crazyhouse,
            vec![g.start().pos().clone()],
            control,
        );
        let moves: Vec<ShowMove> = g
            .moves()
            .iter()
            .enumerate()
            .map(|(i, &m)| b.play(0, m, clocks.get(i).copied().flatten()))
            .collect();
        let name = |k: &str| g.header(k).unwrap_or("?").to_string();
        let players = vec![[name("White"), name("Black")]];
        let result = g
            .ending
            .map(|e| e.result.pgn().to_string())
            .unwrap_or_else(|| g.header("Result").unwrap_or("*").to_string());
        let ending = g.ending.map(|e| {
            let who = match e.result {
                GameResult::WhiteWins => "White wins",
                GameResult::BlackWins => "Black wins",
                GameResult::Draw => "Drawn",
            };
            format!("{who} ({})", e.termination.describe())
        });
        let title = format!("{} vs {}  {}", players[0][0], players[0][1], result);
        Show {
            kind: VariantKind::Crazyhouse,
            players,
            moves,
            frames: b.frames,
            chat: Vec::new(),
            result,
            ending,
            time_control: g.header("TimeControl").map(str::to_string),
            title,
        }
    }

    pub fn boards(&self) -> usize {
        self.frames.first().map_or(1, |f| f.boards.len())
    }

    /// Whether autoplay can follow the clocks.
    pub fn timed(&self) -> bool {
        self.frames.last().is_some_and(|f| f.at.is_some())
    }

    /// The move in SAN with its number as BPGN writes it (`12A.`, `12a.`)
    /// or PGN does (`12.`, `12...`).
    pub fn numbered(&self, i: usize) -> String {
        let Some(m) = self.moves.get(i) else {
            return String::new();
        };
        if self.kind == VariantKind::Bughouse {
            let letter = match (m.board, m.color) {
                (0, Color::White) => 'A',
                (0, Color::Black) => 'a',
                (_, Color::White) => 'B',
                (_, Color::Black) => 'b',
            };
            format!("{}{letter}. {}", m.number, m.san)
        } else {
            let dots = if m.color == Color::White { "." } else { "..." };
            format!("{}{dots} {}", m.number, m.san)
        }
    }

    /// Who did what with move `i`, for the status line: "12B. Nxf7+: White
    /// on B takes a knight; it goes to Black on A".
    pub fn describe_move(&self, i: usize) -> String {
        let Some(m) = self.moves.get(i) else {
            return String::new();
        };
        let mut s = self.numbered(i);
        let who = self.seat_name(m.board, m.color);
        if let Some(p) = m.captured {
            s.push_str(&format!(": {who} takes a {}", role_word(p.role)));
            match m.sent {
                Some(sent) if self.kind == VariantKind::Bughouse => {
                    let partner = self.seat_name(1 - m.board, sent.color);
                    if sent.role != p.role {
                        s.push_str(&format!(" (promoted: a pawn goes to {partner})"));
                    } else {
                        s.push_str(&format!("; it goes to {partner}"));
                    }
                }
                _ if self.kind == VariantKind::Crazyhouse => s.push_str(" into the hand"),
                _ => {}
            }
        } else if matches!(m.mv, Move::Put { .. }) {
            s.push_str(&format!(": {who} drops"));
        }
        s
    }

    /// "White on A" (Bughouse) or "White".
    pub fn seat_name(&self, board: usize, color: Color) -> String {
        let c = match color {
            Color::White => "White",
            Color::Black => "Black",
        };
        if self.kind == VariantKind::Bughouse {
            format!("{c} on {}", if board == 0 { 'A' } else { 'B' })
        } else {
            c.to_string()
        }
    }
}

/// The thinking time at the end of an engine comment: `+0.35/12 1.20s`.
fn think_time(comment: &str) -> Option<Duration> {
    comment.split_whitespace().rev().find_map(|w| {
        let w = w.trim_end_matches(['}', ',', ';']);
        let secs: f64 = w.strip_suffix('s')?.parse().ok()?;
        (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
    })
}

fn capitalise_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The pieces `color` holds, queen first, with their counts.
pub fn pocket_of(pos: &Crazyhouse, color: Color) -> Vec<(Role, u8)> {
    let Some(hands) = pos.pockets() else {
        return Vec::new();
    };
    let hand = hands.get(color);
    [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .into_iter()
    .map(|r| (r, *hand.get(r)))
    .filter(|&(_, n)| n > 0)
    .collect()
}

/// Where each pocket piece of an info line sits: the pieces right-aligned
/// before the clock text, each ` ♞2 ` (symbol, count when more than one).
pub fn pocket_cells(
    line: ratatui::layout::Rect,
    pocket: &[(Role, u8)],
    clock_text: Option<&str>,
) -> Vec<(Role, ratatui::layout::Rect)> {
    let clock_w = clock_text.map_or(0, |c| c.chars().count() as u16 + 1);
    let widths: Vec<u16> = pocket
        .iter()
        .map(|&(_, n)| if n > 1 { 3 + n.to_string().len() as u16 } else { 3 } + 1)
        .collect();
    let total: u16 = widths.iter().sum::<u16>() + clock_w;
    if total > line.width {
        return Vec::new();
    }
    let mut x = line.x + line.width - total;
    let mut out = Vec::new();
    for (&(role, _), w) in pocket.iter().zip(widths) {
        out.push((role, ratatui::layout::Rect::new(x, line.y, w - 1, 1)));
        x += w;
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
    /// A game being played here (the screen then follows its last move).
    pub live: Option<Box<live::Live>>,
    /// The move being typed (live games).
    pub input: String,
    /// Keyboard and mouse picking (live games).
    pub pick: Pick,
}

/// Where the keyboard cursor is and what is picked up, on the board of the
/// person to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The cursor's square (kept while the cursor is in the pocket).
    pub square: shakmaty::Square,
    /// The cursor is in the pocket row, on piece `pocket`.
    pub in_pocket: bool,
    pub pocket: usize,
    /// A piece picked up on the board (its square)...
    pub from: Option<shakmaty::Square>,
    /// ...or a piece taken from the pocket to drop.
    pub drop: Option<Role>,
}

impl Default for Pick {
    fn default() -> Self {
        Pick {
            square: shakmaty::Square::E2,
            in_pocket: false,
            pocket: 0,
            from: None,
            drop: None,
        }
    }
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
            live: None,
            input: String::new(),
            pick: Pick::default(),
        }
    }

    /// A screen for a game being played.
    pub fn playing(live: live::Live) -> Self {
        let mut h = HouseReplay::new(None, vec![Ok(live.show())], 0);
        h.live = Some(Box::new(live));
        h.refresh(Instant::now());
        h
    }

    /// After a move of the live game: the show follows it, pieces that
    /// arrived flash.
    pub fn refresh(&mut self, now: Instant) {
        let Some(l) = &self.live else { return };
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

    /// The clock of `color` on board `b`: running in a live game, else as
    /// the file has it at the move shown.
    pub fn clock(&self, b: usize, color: Color, now: Instant) -> Option<Duration> {
        if let Some(l) = &self.live {
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
