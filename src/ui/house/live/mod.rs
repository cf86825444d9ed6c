//! A Crazyhouse or Bughouse game being played: seats (people or engines),
//! the clocks (on both boards at once in Bughouse), moves and drops, the
//! pieces passed to the partner, partner messages, the end, and the record
//! written after every move.
//!
//! Pure state: time comes in as `now`, and what the engines must do goes
//! out as [`EngineJob`]s for the runtime, whose answers come back through
//! [`Live::engine_news`]. So the tests drive it with a fake clock and fake
//! engines.

use super::Show;
use crate::bughouse::{BoardId, BugEnding, BugTermination, BughouseGame, Seat};
use crate::engine::{Board, Zh};
use crate::game::notation::parse_variant_move;
use crate::game::{Ending, Game, GameResult, Termination};
use crate::ui::clock::{Clocks, Control, pgn_clock};
use crate::ui::config::TimeControl;
use crate::ui::pace::Pace;
use crate::ui::player::EngineSpec;
use crate::variant::VariantKind;
use crate::variant::fen::write_fen;
use crate::variant::rules::{self, BoardStatus};
use shakmaty::variant::Crazyhouse;
use shakmaty::{Color, Move, Position};
use std::time::{Duration, Instant};

mod advice;
mod pacing;
mod seats;
mod talk;
pub use advice::{EngineJob, EngineNews};
pub use seats::*;

/// The record kept while playing.
#[derive(Clone, Debug)]
enum Record {
    Zh(Box<Game<Zh>>),
    Bug(Box<BughouseGame>),
}

/// A Crazyhouse or Bughouse game in play.
#[derive(Clone, Debug)]
pub struct Live {
    pub kind: VariantKind,
    pub players: Vec<[Player; 2]>,
    record: Record,
    pub time: Option<TimeControl>,
    /// Per board: the clocks, running for the side to move (the same
    /// clocks as the play screen's; they remember the times before each
    /// move, for a Crazyhouse takeback).
    clocks: Vec<Clocks>,
    /// Outstanding engine requests by seat.
    asked: [Option<u64>; 4],
    next_id: u64,
    /// How the game ended, in words (also in the record).
    pub ending: Option<String>,
    /// Work for the runtime.
    pub jobs: Vec<EngineJob>,
    /// Something worth telling the player (a piece arrived, a message).
    pub news: Vec<String>,
    /// The hint asked for: request id, board, and the board's half-moves then.
    hint_asked: Option<(u64, usize, usize)>,
    assistant_started: bool,
    /// The hint found: its board, move, and the board's half-moves (valid
    /// while no move is made there).
    pub hint: Option<(usize, Move, usize)>,
    /// The analysis shown, when on.
    pub analysis: Option<Analysis>,
    /// The latest search of an engine player on the shown board: its seat
    /// and lines (the search panel).
    pub search: Option<(usize, Analysis)>,
    /// The board whose players' searches are shown.
    pub watched: usize,
    /// Whether engines take a player's time over their moves.
    pub pace: Pace,
    /// Per seat: an engine's move found before a player of its level would
    /// have moved, and when it is due (played by [`Live::tick`]).
    held: [Option<(Move, Instant)>; 4],
    /// Per seat: its partner asked it to sit / to move fast.
    sitting: [bool; 4],
    hurry: [bool; 4],
    rng: crate::util::Rng,
    /// The partners' standing requests: who asked, what, and the moves
    /// played on both boards then (a "need" lapses).
    requests: Vec<(usize, crate::engine::partner::PartnerMsg, usize)>,
}

/// The clocks' control of a time control (none: clocks that are not shown).
fn control(time: Option<TimeControl>) -> Control {
    Control {
        base: time.map_or(Duration::ZERO, |t| t.base),
        increment: time.map_or(Duration::ZERO, |t| t.increment),
    }
}

/// Moves on both boards after which an unmet "need" lapses.
const NEED_LAPSES: usize = 12;

/// The analysis of one board: the assistant's lines, newest depth last.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub board: usize,
    /// The request the lines belong to.
    id: u64,
    /// Depth, score (White's view), nodes, the line in SAN.
    pub lines: Vec<(u32, crate::engine::Score, u64, String)>,
    /// The first move of the deepest line.
    best: Option<Move>,
}

impl Live {
    pub fn new(setup: LiveSetup, names: Vec<[String; 2]>, now: Instant) -> Live {
        let boards = if setup.kind == VariantKind::Bughouse {
            2
        } else {
            1
        };
        let mut players = setup.players;
        players.resize(boards, [Player::Human, Player::Human]);
        let start = setup.start.filter(|s| s.len() == boards);
        let record = if boards == 2 {
            let mut g = match start.as_deref() {
                Some([a, b]) => BughouseGame::from_boards([a.clone(), b.clone()]),
                _ => BughouseGame::new(),
            };
            g.set_header("Event", "Kibitz bughouse game");
            g.set_header("Site", "Kibitz");
            g.set_header("Date", crate::util::today());
            for (b, tags) in [["WhiteA", "BlackA"], ["WhiteB", "BlackB"]]
                .iter()
                .enumerate()
            {
                for (c, tag) in tags.iter().enumerate() {
                    let name = names.get(b).map_or("?", |n| n[c].as_str());
                    g.set_header(tag, name);
                }
            }
            if let Some(t) = setup.time {
                g.set_header(
                    "TimeControl",
                    format!("{}+{}", t.base.as_secs(), t.increment.as_secs()),
                );
            }
            Record::Bug(Box::new(g))
        } else {
            let first = start.and_then(|s| s.into_iter().next());
            let mut g = Game::new(first.map_or_else(Board::<Zh>::start_position, Board::from_pos));
            g.set_header("Event", "Kibitz crazyhouse game");
            g.set_header("Site", "Kibitz");
            g.set_header("Date", crate::util::today());
            g.set_header("White", names.first().map_or("?", |n| n[0].as_str()));
            g.set_header("Black", names.first().map_or("?", |n| n[1].as_str()));
            g.set_header("Variant", "Crazyhouse");
            if let Some(t) = setup.time {
                g.set_header(
                    "TimeControl",
                    format!("{}+{}", t.base.as_secs(), t.increment.as_secs()),
                );
            }
            Record::Zh(Box::new(g))
        };
        let seats: Vec<String> = players
            .iter()
            .flatten()
            .map(|p| match p {
                Player::Human => "human".to_string(),
                Player::Engine(spec) => crate::ui::player::spec_tag(spec),
            })
            .collect();
        let mut record = record;
        match &mut record {
            Record::Zh(g) => g.set_header(SEATS_TAG, seats.join(", ")),
            Record::Bug(g) => g.set_header(SEATS_TAG, seats.join(", ")),
        }
        let clocks = vec![Clocks::new(control(setup.time)); boards];
        let mut live = Live::assemble(players, record, setup.time, clocks, now);
        live.start_engines();
        live.ask_engines(now);
        live
    }

    /// A game of `record` with its seats and clocks (each started for its
    /// board's side to move), before its engines start.
    fn assemble(
        players: Vec<[Player; 2]>,
        record: Record,
        time: Option<TimeControl>,
        clocks: Vec<Clocks>,
        now: Instant,
    ) -> Live {
        let kind = match record {
            Record::Bug(_) => VariantKind::Bughouse,
            Record::Zh(_) => VariantKind::Crazyhouse,
        };
        let mut live = Live {
            kind,
            players,
            record,
            time,
            clocks,
            asked: [None; 4],
            next_id: 1,
            ending: None,
            jobs: Vec::new(),
            news: Vec::new(),
            hint_asked: None,
            assistant_started: false,
            hint: None,
            analysis: None,
            search: None,
            watched: 0,
            pace: Pace::Fast,
            held: [None; 4],
            sitting: [false; 4],
            hurry: [false; 4],
            rng: crate::util::Rng::from_entropy(),
            requests: Vec::new(),
        };
        for b in 0..live.clocks.len() {
            let turn = live.board(b).turn();
            live.clocks[b].start(turn, now);
        }
        live
    }

    pub fn boards(&self) -> usize {
        self.clocks.len()
    }

    /// A saved game taken up again: the seats from its tags, the clocks as
    /// their last readings left them (the side to move's clock starts
    /// running now), the engines started again.
    pub fn resume(text: &str, kind: VariantKind, now: Instant) -> Result<Live, String> {
        let (record, seats, tc) = match kind {
            VariantKind::Bughouse => {
                let g = crate::bughouse::bpgn::read_bpgn(text)
                    .map_err(|e| e.to_string())?
                    .into_iter()
                    .next()
                    .ok_or("no game in the file")?;
                let seats = g.header(SEATS_TAG).map(str::to_string);
                let tc = g.header("TimeControl").map(str::to_string);
                (Record::Bug(Box::new(g)), seats, tc)
            }
            _ => {
                let g = crate::game::variant_pgn::read_variant_pgn(text)
                    .into_iter()
                    .next()
                    .ok_or("no game in the file")?
                    .map_err(|e| e.to_string())?;
                let seats = g.header(SEATS_TAG).map(str::to_string);
                let tc = g.header("TimeControl").map(str::to_string);
                (Record::Zh(Box::new(g)), seats, tc)
            }
        };
        let boards = if matches!(record, Record::Bug(_)) {
            2
        } else {
            1
        };
        let seats = seats.ok_or("not a game played in Kibitz (no KibitzSeats tag)")?;
        let parsed: Vec<Player> = seats
            .split(',')
            .map(|s| match s.trim() {
                "human" => Some(Player::Human),
                other => crate::ui::player::parse_spec_tag(other).map(Player::Engine),
            })
            .collect::<Option<_>>()
            .ok_or_else(|| format!("cannot read the seats '{seats}'"))?;
        if parsed.len() != boards * 2 {
            return Err(format!("cannot read the seats '{seats}'"));
        }
        let players: Vec<[Player; 2]> = parsed
            .chunks(2)
            .map(|p| [p[0].clone(), p[1].clone()])
            .collect();
        let time = tc.as_deref().and_then(|t| {
            let (b, i) = t.split_once('+').unwrap_or((t, "0"));
            Some(TimeControl::new(
                b.trim().parse().ok()?,
                i.trim().parse().ok()?,
            ))
        });
        let mut clocks = vec![Clocks::new(control(time)); boards];
        let over = match &record {
            Record::Zh(g) => {
                let white_first = g.start().turn() == Color::White;
                let comments =
                    (0..g.moves().len()).map(|i| g.comments().get(i).and_then(|c| c.as_deref()));
                clocks[0] = Clocks::from_record(control(time), white_first, comments);
                g.ending.is_some()
            }
            Record::Bug(g) => {
                for (b, id) in [BoardId::A, BoardId::B].into_iter().enumerate() {
                    let last = |color| g.last_clock(Seat::new(id, color));
                    let base = control(time).base;
                    clocks[b] = Clocks::with_remaining(
                        control(time),
                        last(Color::White).unwrap_or(base),
                        last(Color::Black).unwrap_or(base),
                    );
                }
                g.ending.is_some()
            }
        };
        if over {
            return Err("that game is over".into());
        }
        let mut live = Live::assemble(players, record, time, clocks, now);
        live.start_engines();
        live.ask_engines(now);
        Ok(live)
    }

    fn start_engines(&mut self) {
        let boards = self.boards();
        for s in 0..boards * 2 {
            let (b, c) = seat_of(s);
            if let Player::Engine(spec) = self.player(b, c) {
                let partner_human = boards == 2 && self.player(1 - b, !c) == &Player::Human;
                self.jobs.push(EngineJob::Start {
                    seat: s,
                    spec: spec.clone(),
                    kind: self.kind,
                    partner_human,
                });
            }
        }
    }

    pub fn player(&self, board: usize, color: Color) -> &Player {
        &self.players[board][usize::from(color == Color::Black)]
    }

    pub fn board(&self, b: usize) -> &Crazyhouse {
        match &self.record {
            Record::Zh(g) => g.current().pos(),
            Record::Bug(g) => g.board(if b == 0 { BoardId::A } else { BoardId::B }),
        }
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// Half-moves played on board `b` (a hint is good until it changes).
    pub fn board_ply(&self, b: usize) -> usize {
        let pos = self.board(b);
        (pos.fullmoves().get() as usize) * 2 + usize::from(pos.turn() == Color::Black)
    }

    pub fn moves_played(&self) -> usize {
        match &self.record {
            Record::Zh(g) => g.moves().len(),
            Record::Bug(g) => g.moves().len(),
        }
    }

    /// The seats people play, in order.
    pub fn human_seats(&self) -> Vec<usize> {
        (0..self.boards() * 2)
            .filter(|&s| {
                let (b, c) = seat_of(s);
                self.player(b, c) == &Player::Human
            })
            .collect()
    }

    /// The seat whose move is typed or picked now: a person to move (the
    /// first person's own board first).
    pub fn human_to_move(&self) -> Option<usize> {
        if self.is_over() {
            return None;
        }
        let humans = self.human_seats();
        humans.into_iter().find(|&s| {
            let (b, c) = seat_of(s);
            self.board(b).turn() == c
        })
    }

    /// Time left for `color` on board `b`, running for the side to move.
    pub fn remaining(&self, b: usize, color: Color, now: Instant) -> Option<Duration> {
        self.time?;
        Some(self.clocks.get(b)?.remaining(color, now))
    }

    /// Time passes: flags fall; engines due to move are asked.
    pub fn tick(&mut self, now: Instant) {
        if self.is_over() {
            return;
        }
        self.play_held(now);
        if self.is_over() || self.time.is_none() {
            return;
        }
        for b in 0..self.boards() {
            let c = self.board(b).turn();
            if self.remaining(b, c, now) == Some(Duration::ZERO) {
                self.flag(b, c, now);
                return;
            }
        }
    }

    fn flag(&mut self, b: usize, c: Color, now: Instant) {
        let text = format!("{} lost on time", self.seat_name(b, c));
        self.freeze(now);
        match &mut self.record {
            Record::Zh(g) => {
                g.ending = Some(Ending {
                    result: GameResult::win_for(!c),
                    termination: Termination::TimeForfeit,
                });
            }
            Record::Bug(g) => g.flag(Seat::new(board_id(b), c)),
        }
        self.end(text);
    }

    /// Stops every clock where it stands.
    fn freeze(&mut self, now: Instant) {
        for c in &mut self.clocks {
            c.pause(now);
        }
    }

    fn end(&mut self, text: String) {
        // Said from the person's side when one plays: "you win".
        let said = |won: Option<bool>, plain: String| match won {
            Some(true) => format!("you win ({plain})"),
            Some(false) => format!("you lose ({plain})"),
            None => plain,
        };
        let team = match &self.record {
            Record::Bug(g) => g.ending.map(|e| match e.result {
                crate::bughouse::BugResult::TeamOneWins => said(
                    self.person_won(true),
                    "team 1 (White A + Black B) wins".to_string(),
                ),
                crate::bughouse::BugResult::TeamTwoWins => said(
                    self.person_won(false),
                    "team 2 (Black A + White B) wins".to_string(),
                ),
                crate::bughouse::BugResult::Draw => "drawn".to_string(),
            }),
            Record::Zh(g) => g.ending.map(|e| match e.result {
                // In Crazyhouse "team 1" is White.
                GameResult::WhiteWins => said(self.person_won(true), "White wins".to_string()),
                GameResult::BlackWins => said(self.person_won(false), "Black wins".to_string()),
                GameResult::Draw => "drawn".to_string(),
            }),
        };
        self.ending = Some(match team {
            Some(t) => format!("{text}: {t}"),
            None => text,
        });
        for s in 0..4 {
            if self.asked[s].take().is_some() {
                self.jobs.push(EngineJob::Stop { seat: s });
            }
        }
        self.jobs.push(EngineJob::QuitAll);
    }

    /// A seat as the person playing sees it: "You (White, A)", "Partner
    /// (Kibitz level 2, Black, B)", "Opponent (Kibitz level 2, Black, A)";
    /// with no one or two people at the table, "White on A" (Bughouse) or
    /// "White".
    pub fn seat_name(&self, b: usize, c: Color) -> String {
        let side = match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        let place = if self.boards() == 2 {
            format!("{side}, {}", board_id(b).letter())
        } else {
            side.to_string()
        };
        let Some(you) = self.person() else {
            return if self.boards() == 2 {
                format!("{side} on {}", board_id(b).letter())
            } else {
                side.to_string()
            };
        };
        let seat = seat_index(b, c);
        let (yb, yc) = seat_of(you);
        if seat == you {
            return format!("You ({place})");
        }
        let role = if self.boards() == 2 && seat == seat_index(1 - yb, !yc) {
            "Partner"
        } else {
            "Opponent"
        };
        match self.player_name(b, c) {
            Some(n) => format!("{role} ({n}, {place})"),
            None => format!("{role} ({place})"),
        }
    }

    /// A seat in a few letters, for the Partners box: "You", "Partner",
    /// "Opponent A"; with no single person, "White on A".
    pub fn short_name(&self, b: usize, c: Color) -> String {
        let full = self.seat_name(b, c);
        match full.split(" (").next() {
            Some("Opponent") if self.boards() == 2 => {
                format!("Opponent {}", board_id(b).letter())
            }
            Some(short) => short.to_string(),
            None => full,
        }
    }

    /// The one person at the table, if exactly one plays.
    fn person(&self) -> Option<usize> {
        match self.human_seats().as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// A player's name from the record ("Kibitz level 2").
    fn player_name(&self, b: usize, c: Color) -> Option<String> {
        let tag = match (self.boards(), b, c) {
            (2, 0, Color::White) => "WhiteA",
            (2, 0, Color::Black) => "BlackA",
            (2, _, Color::White) => "WhiteB",
            (2, _, Color::Black) => "BlackB",
            (_, _, Color::White) => "White",
            (_, _, Color::Black) => "Black",
        };
        let name = match &self.record {
            Record::Zh(g) => g.header(tag),
            Record::Bug(g) => g.header(tag),
        }?;
        (!name.is_empty() && name != "?").then(|| name.to_string())
    }

    /// Whether the person playing (the one at the table) won: `None` for a
    /// draw or with no single person.
    fn person_won(&self, team_one_won: bool) -> Option<bool> {
        let (b, c) = seat_of(self.person()?);
        let team_one = (b == 0) == (c == Color::White);
        Some(team_one == team_one_won)
    }

    /// Asks the engines whose turn it is (and who are not asked yet).
    fn ask_engines(&mut self, now: Instant) {
        if self.is_over() {
            return;
        }
        for b in 0..self.boards() {
            let pos = self.board(b).clone();
            let c = pos.turn();
            let s = seat_index(b, c);
            if self.asked[s].is_some()
                || self.held[s].is_some()
                || !matches!(self.player(b, c), Player::Engine(_))
            {
                continue;
            }
            if rules::status(&pos, self.kind) != BoardStatus::Playing {
                continue; // waiting for a piece (Bughouse), or over
            }
            let id = self.next_id;
            self.next_id += 1;
            self.asked[s] = Some(id);
            if b == self.watched {
                self.search = Some((
                    s,
                    Analysis {
                        board: b,
                        id,
                        ..Analysis::default()
                    },
                ));
            }
            let fen = write_fen(&pos);
            let partner_fen = (self.boards() == 2).then(|| write_fen(self.board(1 - b)));
            let wtime = self.remaining(b, Color::White, now);
            let btime = self.remaining(b, Color::Black, now);
            self.jobs.push(EngineJob::Go {
                seat: s,
                id,
                fen,
                partner_fen,
                wtime,
                btime,
                inc: self.time.map_or(Duration::ZERO, |t| t.increment),
                infinite: false,
            });
        }
    }

    /// Plays `mv` on board `b` for its side to move.
    fn play(&mut self, b: usize, mv: Move, now: Instant) -> Result<(), String> {
        if self.is_over() {
            return Err("The game is over.".into());
        }
        let pos = self.board(b).clone();
        if !pos.is_legal(mv) {
            return Err("That move is not legal here.".into());
        }
        let c = pos.turn();
        let left = self.clocks[b].remaining(c, now);
        if self.time.is_some() && left.is_zero() {
            self.flag(b, c, now);
            return Err("Your time ran out.".into());
        }
        let inc = self.time.map_or(Duration::ZERO, |t| t.increment);
        let remaining = self.time.map(|_| left + inc);
        let mut changed_other = None;
        match &mut self.record {
            Record::Zh(g) => {
                let comment = remaining.map(|r| format!("[%clk {}]", pgn_clock(r)));
                g.push(mv, comment);
            }
            Record::Bug(g) => {
                let sent = g
                    .push(board_id(b), mv, remaining)
                    .map_err(|e| e.to_string())?;
                if let Some(p) = sent {
                    changed_other = Some(1 - b);
                    let partner = seat_index(1 - b, p.color);
                    self.news.push(format!(
                        "{} took a {}: it goes to {}.",
                        self.seat_name(b, c),
                        super::role_word(p.role),
                        self.seat_name(1 - b, p.color)
                    ));
                    // A need met is a need no more.
                    self.requests.retain(|r| {
                        !(r.0 == partner
                            && matches!(r.1, crate::engine::partner::PartnerMsg::Need(role, _) if role == p.role))
                    });
                    // A partner engine thinking on the other board hears of it.
                    if self.asked[partner].is_some() {
                        let fen = write_fen(self.board(1 - b));
                        self.jobs.push(EngineJob::Update { seat: partner, fen });
                    }
                }
            }
        }
        self.clocks[b].remember(now);
        self.clocks[b].press(c, now);
        self.check_end(b, now);
        self.ask_engines(now);
        // The analysis follows its board: a move there, or a piece sent to it.
        if self
            .analysis
            .as_ref()
            .is_some_and(|a| a.board == b || changed_other == Some(a.board))
        {
            self.analyse();
        }
        Ok(())
    }

    fn check_end(&mut self, b: usize, now: Instant) {
        match &mut self.record {
            Record::Zh(g) => {
                if let Some(e) = g.rule_ending(false) {
                    g.ending = Some(e);
                    let text = capitalise(e.termination.describe());
                    self.freeze(now);
                    self.end(text);
                }
            }
            Record::Bug(g) => {
                if let Some(e) = g.ending {
                    let text = match e.loser {
                        Some(l) => {
                            format!("{} is checkmated", self.seat_name(l.board.index(), l.color))
                        }
                        None => "Drawn".into(),
                    };
                    let _ = b;
                    self.freeze(now);
                    self.end(text);
                }
            }
        }
    }

    /// What a typed move means on the board of the person to move.
    pub fn parse_typed(&self, text: &str) -> Result<Move, crate::game::notation::MoveInputError> {
        let b = self.human_to_move().map_or(0, |s| seat_of(s).0);
        parse_variant_move(self.board(b), text)
    }

    /// A move typed by the person to move (SAN, UCI or a drop).
    pub fn type_move(&mut self, text: &str, now: Instant) -> Result<(), String> {
        let Some(s) = self.human_to_move() else {
            return Err(if self.is_over() {
                "The game is over.".into()
            } else {
                "Not your move: wait for the engine.".into()
            });
        };
        let (b, _) = seat_of(s);
        let mv = parse_variant_move(self.board(b), text).map_err(|e| e.to_string())?;
        self.play(b, mv, now)
    }

    /// A move picked on the board (or a drop from the pocket) by the person
    /// at `seat`.
    pub fn pick_move(&mut self, seat: usize, mv: Move, now: Instant) -> Result<(), String> {
        let (b, c) = seat_of(seat);
        if self.player(b, c) != &Player::Human {
            return Err("Not your seat.".into());
        }
        if self.board(b).turn() != c {
            return Err("Not your move.".into());
        }
        self.play(b, mv, now)
    }

    fn set_name(&mut self, b: usize, c: Color, name: &str) {
        match &mut self.record {
            Record::Zh(g) => g.set_header(if c == Color::White { "White" } else { "Black" }, name),
            Record::Bug(g) => g.set_header(&Seat::new(board_id(b), c).tag(), name),
        }
    }

    fn lose(
        &mut self,
        seat: usize,
        zh: Termination,
        bug: BugTermination,
        text: String,
        now: Instant,
    ) {
        if self.is_over() {
            return;
        }
        let (b, c) = seat_of(seat);
        self.freeze(now);
        match &mut self.record {
            Record::Zh(g) => {
                g.ending = Some(Ending {
                    result: GameResult::win_for(!c),
                    termination: zh,
                });
            }
            Record::Bug(g) => g.finish(BugEnding::lost(Seat::new(board_id(b), c), bug)),
        }
        self.end(text);
    }

    /// The person at `seat` resigns (for the team in Bughouse).
    pub fn resign(&mut self, seat: usize, now: Instant) {
        let (b, c) = seat_of(seat);
        let text = format!("{} resigned", self.seat_name(b, c));
        self.lose(
            seat,
            Termination::Resignation,
            BugTermination::Resignation,
            text,
            now,
        );
    }

    /// A message from `seat` to its partner: recorded, and passed to the
    /// partner's engine (a person sees it on screen).
    pub fn say(&mut self, seat: usize, text: &str) {
        let (b, c) = seat_of(seat);
        let Record::Bug(g) = &mut self.record else {
            return;
        };
        g.say(Seat::new(board_id(b), c), text);
        let partner = seat_index(1 - b, !c);
        // What the partner's clock does with it.
        use crate::engine::partner::PartnerMsg as M;
        match M::parse(text) {
            M::Sit => self.sitting[partner] = true,
            M::Go => self.sitting[partner] = false,
            M::Fast | M::Flag => {
                self.hurry[partner] = true;
                self.sitting[partner] = false;
            }
            M::Slow => self.hurry[partner] = false,
            _ => {}
        }
        let msg = M::parse(text);
        let standing = self.stand(seat, msg.clone());
        let (pb, pc) = seat_of(partner);
        if matches!(self.player(pb, pc), Player::Engine(_)) {
            self.jobs.push(EngineJob::Ptell {
                seat: partner,
                text: text.to_string(),
            });
        } else if !standing {
            // A request goes to the standing list (the screen shows it);
            // anything else is news.
            self.news.push(format!("{}: {text}", self.seat_name(b, c)));
        }
    }

    /// Takes back the last move of the person at `seat` (and the engine's
    /// reply): Crazyhouse only.
    pub fn takeback(&mut self, seat: usize, now: Instant) -> Result<(), String> {
        // A finished game keeps its result.
        if let Some(e) = &self.ending {
            return Err(format!("The game is over ({e}). n starts a new game."));
        }
        let Record::Zh(g) = &mut self.record else {
            return Err("There are no takebacks in Bughouse: the other board plays on.".into());
        };
        let (_, c) = seat_of(seat);
        let mine = g
            .moves()
            .iter()
            .enumerate()
            .rev()
            .find(|(i, _)| {
                let mover = if (*i % 2 == 0) == (g.start().turn() == Color::White) {
                    Color::White
                } else {
                    Color::Black
                };
                mover == c
            })
            .map(|(i, _)| i);
        let Some(keep) = mine else {
            return Err("Nothing to take back yet.".into());
        };
        while g.moves().len() > keep {
            g.pop();
        }
        self.clocks[0].back_to(keep);
        self.ending = None;
        for s in 0..2 {
            if self.asked[s].take().is_some() {
                self.jobs.push(EngineJob::Stop { seat: s });
            }
            self.held[s] = None;
        }
        let turn = self.board(0).turn();
        self.clocks[0].start(turn, now);
        self.ask_engines(now);
        Ok(())
    }

    /// The game as the screen shows it.
    pub fn show(&self) -> Show {
        match &self.record {
            Record::Zh(g) => Show::from_crazyhouse(g),
            Record::Bug(g) => Show::from_bughouse(g),
        }
    }

    /// The record as a file: Crazyhouse PGN or BPGN.
    pub fn save_text(&self) -> String {
        match &self.record {
            Record::Zh(g) => crate::game::write_variant_pgn(g),
            Record::Bug(g) => crate::bughouse::bpgn::write_bpgn(g),
        }
    }

    /// The file extension of the record.
    pub fn extension(&self) -> &'static str {
        match self.record {
            Record::Zh(_) => "pgn",
            Record::Bug(_) => "bpgn",
        }
    }

    /// Whether an engine is thinking at `seat`.
    pub fn thinking(&self, seat: usize) -> bool {
        self.asked.get(seat).is_some_and(Option::is_some) || self.holding(seat)
    }
}

fn board_id(b: usize) -> BoardId {
    if b == 0 { BoardId::A } else { BoardId::B }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}
