//! A BPGN or Crazyhouse PGN record turned into what the screen shows: the
//! moves in time order and, after each, both boards, pockets, clocks and
//! messages.

use super::*;

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
    // Bounded as the play screen's time controls are (a year of base
    // time would overflow the clock's sums; a huge one, the Duration).
    ((0.0..1e7).contains(&base) && (0.0..1e5).contains(&inc))
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
            let what = match (&g.closing, e.loser) {
                // As the file says it, when it says more than the seat's
                // code (`dave forfeits by disconnection`).
                (Some(text), _) if *text != e.describe() => text.clone(),
                (_, Some(seat)) => {
                    let d = e.describe();
                    format!("{seat} {}", d.split_once(' ').map_or("", |x| x.1))
                }
                (_, None) => capitalise_first(&e.describe()),
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
        } else if let Move::Put { role, to } = m.mv {
            s.push_str(&format!(": {who} drops a {} on {to}", role_word(role)));
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
        // Beyond 1e7 s (four months) it is not a thinking time, and
        // beyond 1.8e19 s no Duration holds it.
        (0.0..1e7)
            .contains(&secs)
            .then(|| Duration::from_secs_f64(secs))
    })
}

fn capitalise_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}
