//! The record of a game in play: made for a new game (with its seats and
//! clocks), taken up again from a saved file, and written after every
//! move (PGN for Crazyhouse, BPGN for Bughouse).

use super::*;

/// The record kept while playing.
#[derive(Clone, Debug)]
pub(super) enum Record {
    Zh(Box<Game<Zh>>),
    Bug(Box<BughouseGame>),
}

/// The clocks' control of a time control (none: clocks that are not shown).
pub(super) fn control(time: Option<TimeControl>) -> Control {
    Control {
        base: time.map_or(Duration::ZERO, |t| t.base),
        increment: time.map_or(Duration::ZERO, |t| t.increment),
    }
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
    pub(super) fn assemble(
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
            assistant: advice::Assistant::default(),
            search: None,
            watched: 0,
            pace: Pace::Fast,
            held: [None; 4],
            rng: crate::util::Rng::from_entropy(),
            partners: talk::Partners::default(),
        };
        for b in 0..live.clocks.len() {
            let turn = live.board(b).turn();
            live.clocks[b].start(turn, now);
        }
        live
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
}
