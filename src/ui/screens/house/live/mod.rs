//! A Crazyhouse or Bughouse game being played: seats (people or engines),
//! the clocks (on both boards at once in Bughouse), moves and drops, the
//! pieces passed to the partner, partner messages, the end, and the record
//! written after every move.
//!
//! Pure state: time comes in as `now`, and what the engines must do goes
//! out as [`EngineJob`]s for the engine runtime ([`crate::ui::engines`],
//! the same as the chess games'), whose answers come back through
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
mod end;
mod pacing;
mod record;
mod seats;
mod talk;
pub use crate::ui::engines::{ASSISTANT, EngineJob};
use record::Record;
pub use seats::*;

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
    /// The game's assistant: its hint and analysis.
    pub assistant: advice::Assistant,
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
    rng: crate::util::Rng,
    /// What the partners asked of each other (Bughouse).
    partners: talk::Partners,
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
    pub fn boards(&self) -> usize {
        self.clocks.len()
    }

    fn start_engines(&mut self) {
        let jobs = crate::ui::seats::start_engines(&self.players, self.kind);
        self.jobs.extend(jobs);
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
            let go = self.go_for_move(s, id, b, now);
            self.jobs.push(EngineJob::Go { seat: s, go });
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
                    self.partners.need_met(partner, p.role);
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
            .assistant
            .analysis
            .as_ref()
            .is_some_and(|a| a.board == b || changed_other == Some(a.board))
        {
            self.analyse();
        }
        Ok(())
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

    /// A message from `seat` to its partner: recorded, and passed to the
    /// partner's engine (a person sees it on screen).
    pub fn say(&mut self, seat: usize, text: &str) {
        let (b, c) = seat_of(seat);
        let Record::Bug(g) = &mut self.record else {
            return;
        };
        g.say(Seat::new(board_id(b), c), text);
        let partner = seat_index(1 - b, !c);
        // What the partner's clock does with it, and the standing list.
        let msg = crate::engine::partner::PartnerMsg::parse(text);
        self.partners.heard(partner, &msg);
        let played = self.moves_played();
        let standing = self.partners.stand(seat, msg, played);
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
