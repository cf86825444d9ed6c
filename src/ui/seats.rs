//! Who sits where, and the rules every game's seats follow whatever the
//! variant: chess, Crazyhouse and Bughouse games are tables of seats
//! (board × colour), each taken by a person or an engine. Here are the
//! seats, the engines a table starts, the limits an engine is given for
//! its move, when a move it found is due (a player's pace), and how far a
//! takeback goes. The chess screens and the Crazyhouse/Bughouse game use
//! these same functions; their engines run in [`crate::ui::engines`].

use crate::engine::{Clock, Limits};
use crate::ui::clock::Clocks;
use crate::ui::engines::EngineJob;
use crate::ui::pace::{PartnerClocks, Turn, think_time};
use crate::ui::player::EngineSpec;
use crate::util::Rng;
use crate::variant::VariantKind;
use shakmaty::Color;
use std::time::{Duration, Instant};

pub use crate::ui::engines::ASSISTANT;

/// Who sits at a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Engine(EngineSpec),
}

impl Player {
    /// The engine's strength level, for its pace (`None`: a person, full
    /// strength, fixed limits or another program).
    pub fn level(&self) -> Option<u8> {
        match self {
            Player::Engine(EngineSpec::BuiltIn { level }) => Some(*level),
            _ => None,
        }
    }
}

/// Seats are numbered board * 2 + colour (White 0, Black 1); the table's
/// assistant sits at [`ASSISTANT`].
pub fn seat_index(board: usize, color: Color) -> usize {
    board * 2 + usize::from(color == Color::Black)
}

pub fn seat_of(index: usize) -> (usize, Color) {
    (
        index / 2,
        if index.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        },
    )
}

/// The jobs that start a table's engines: one at each seat an engine
/// takes (in Bughouse each is told whether its partner is a person, to
/// whom it then talks).
pub fn start_engines(players: &[[Player; 2]], kind: VariantKind) -> Vec<EngineJob> {
    let boards = players.len();
    let mut jobs = Vec::new();
    for (b, pair) in players.iter().enumerate() {
        for (c, player) in [Color::White, Color::Black].into_iter().zip(pair) {
            let Player::Engine(spec) = player else {
                continue;
            };
            let partner_human =
                boards == 2 && players[1 - b][usize::from(c == Color::White)] == Player::Human;
            jobs.push(EngineJob::Start {
                seat: seat_index(b, c),
                spec: spec.clone(),
                kind,
                partner_human,
            });
        }
    }
    jobs
}

/// The limits of an engine's move: the clock when the game has one, else
/// its own limits (custom limits); else a second a move for another
/// program, two at full strength. Kibitz at a level plays chess within the
/// level's own limits, and the drop variants (through its `uci`) in a
/// second.
pub fn move_limits(spec: &EngineSpec, clock: Option<Clock>, kind: VariantKind) -> Limits {
    let mut limits = spec.move_limits();
    if clock.is_some() {
        limits.clock = clock;
        return limits;
    }
    if limits.depth.is_some() || limits.movetime.is_some() || limits.nodes.is_some() {
        return limits;
    }
    limits.movetime = match spec {
        EngineSpec::BuiltIn { level: 8 } => Some(Duration::from_secs(2)),
        EngineSpec::BuiltIn { .. } if kind == VariantKind::Chess => None,
        _ => Some(Duration::from_secs(1)),
    };
    limits
}

/// The clock as an engine is told it: both sides' time left now, and the
/// increment.
pub fn engine_clock(clocks: &Clocks, now: Instant) -> Clock {
    Clock {
        wtime: Some(clocks.remaining(Color::White, now)),
        btime: Some(clocks.remaining(Color::Black, now)),
        winc: clocks.control.increment,
        binc: clocks.control.increment,
        movestogo: None,
    }
}

/// When the move of the engine playing `mover` is due: when a player of
/// its level would have moved with this clock, counted from the start of
/// its turn (see [`crate::ui::pace`]); `None` once that time has passed.
pub fn engine_due(
    clocks: &Clocks,
    mover: Color,
    player: &Player,
    moves_made: usize,
    partner: Option<PartnerClocks>,
    rng: &mut Rng,
    now: Instant,
) -> Option<Instant> {
    let turn = Turn {
        // The clocks as they stood when this turn began.
        left: clocks.at_turn_start(mover),
        opponent: clocks.at_turn_start(!mover),
        increment: clocks.control.increment,
        moves_made,
        level: player.level(),
        partner,
    };
    let due = clocks.running_since().unwrap_or(now) + think_time(&turn, rng);
    (due > now).then_some(due)
}

/// The side to move after `ply` half-moves from a start with `start` to
/// move.
pub fn turn_at(start: Color, ply: usize) -> Color {
    if ply.is_multiple_of(2) { start } else { !start }
}

/// How many of a game's `plies` half-moves a takeback by the player of
/// `person` undoes: back to that player's last turn, so one move if the
/// reply has not come yet, else the reply and the move. `None` when that
/// player has not moved.
pub fn takeback_plies(plies: usize, start: Color, person: Color) -> Option<usize> {
    (1..=plies).find(|&k| turn_at(start, plies - k) == person)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_takeback_goes_back_to_the_players_last_turn() {
        // 1. e4 e5 2. Nf3: White takes back Nf3 only; Black takes back
        // Nf3 and e5.
        assert_eq!(takeback_plies(3, Color::White, Color::White), Some(1));
        assert_eq!(takeback_plies(3, Color::White, Color::Black), Some(2));
        assert_eq!(takeback_plies(4, Color::White, Color::White), Some(2));
        // Black started (a FEN): Black's first move is ply 0.
        assert_eq!(takeback_plies(1, Color::Black, Color::Black), Some(1));
        assert_eq!(takeback_plies(1, Color::Black, Color::White), None);
        assert_eq!(takeback_plies(0, Color::White, Color::White), None);
    }

    #[test]
    fn seats_and_their_engines() {
        let engine = |level| Player::Engine(EngineSpec::BuiltIn { level });
        for s in 0..4 {
            let (b, c) = seat_of(s);
            assert_eq!(seat_index(b, c), s);
        }
        // Bughouse, you White on A: your partner (Black on B) hears it.
        let players = [[Player::Human, engine(2)], [engine(3), engine(4)]];
        let jobs = start_engines(&players, VariantKind::Bughouse);
        let starts: Vec<(usize, bool)> = jobs
            .iter()
            .map(|j| match j {
                EngineJob::Start {
                    seat,
                    partner_human,
                    ..
                } => (*seat, *partner_human),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(starts, [(1, false), (2, false), (3, true)]);
        // Chess against the engine as Black: one engine, White's seat.
        let jobs = start_engines(&[[engine(2), Player::Human]], VariantKind::Chess);
        assert!(matches!(
            jobs.as_slice(),
            [EngineJob::Start {
                seat: 0,
                partner_human: false,
                ..
            }]
        ));
    }

    #[test]
    fn an_engine_gets_the_clock_or_its_limits() {
        let clock = Clock {
            wtime: Some(Duration::from_secs(60)),
            ..Clock::default()
        };
        let level = |l| EngineSpec::BuiltIn { level: l };
        let chess = VariantKind::Chess;
        let zh = VariantKind::Crazyhouse;
        assert_eq!(
            move_limits(&level(3), Some(clock), chess).clock,
            Some(clock)
        );
        assert_eq!(move_limits(&level(3), None, chess), Limits::default());
        let second = Some(Duration::from_secs(1));
        assert_eq!(move_limits(&level(3), None, zh).movetime, second);
        assert_eq!(
            move_limits(&level(8), None, chess).movetime,
            Some(Duration::from_secs(2))
        );
        let external = EngineSpec::External {
            command: "x".into(),
        };
        assert_eq!(move_limits(&external, None, chess).movetime, second);
        let custom = EngineSpec::Custom {
            depth: Some(5),
            movetime_ms: None,
            nodes: None,
        };
        let l = move_limits(&custom, None, zh);
        assert_eq!((l.depth, l.movetime), (Some(5), None));
    }
}
