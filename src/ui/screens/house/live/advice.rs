//! The engines' side of a game in play: the jobs sent to them, their
//! answers, hints and the analysis of a board.

use super::*;

/// Work for the engines (the runtime keeps one engine per seat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineJob {
    /// Start the engine of `seat`. `partner_human`: its partner is a
    /// person, who reads its messages (Kibitz then plays for its partner).
    Start {
        seat: usize,
        spec: EngineSpec,
        kind: VariantKind,
        partner_human: bool,
    },
    /// Think about `fen` and answer with a move (request `id`).
    Go {
        seat: usize,
        id: u64,
        fen: String,
        /// Bughouse: the partner's board.
        partner_fen: Option<String>,
        wtime: Option<Duration>,
        btime: Option<Duration>,
        inc: Duration,
        /// Think until stopped (analysis).
        infinite: bool,
    },
    /// This seat's board changed while it thinks (a piece arrived).
    Update { seat: usize, fen: String },
    /// A message from the partner.
    Ptell { seat: usize, text: String },
    /// Stop thinking (the answer is dropped).
    Stop { seat: usize },
    /// The game is over: the engines may go.
    QuitAll,
}

/// What an engine said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineNews {
    /// Its move for request `id` (UCI).
    Best { id: u64, uci: String },
    /// A message for its partner.
    Ptell(String),
    /// It reported its name.
    Name(String),
    /// A line of its search for request `id` (side to move's view).
    Info {
        id: u64,
        depth: u32,
        score: crate::engine::Score,
        nodes: u64,
        pv: Vec<String>,
    },
    /// It could not be started or stopped answering.
    Failed(String),
}

impl Live {
    /// Asks Kibitz at full strength for the best move of the person to
    /// move (a second's thought); the answer comes as [`Live::hint`].
    pub fn ask_hint(&mut self) -> Result<(), String> {
        let Some(s) = self.human_to_move() else {
            return Err(if self.is_over() {
                "The game is over.".into()
            } else {
                "A hint when it is your move.".into()
            });
        };
        let (b, _) = seat_of(s);
        // The analysis runs on this board: its best move is the hint.
        if let Some(a) = &self.analysis
            && a.board == b
            && let Some(m) = a.best
        {
            let san = rules::san(self.board(b), m, self.kind);
            self.hint = Some((b, m, self.board_ply(b)));
            self.news.push(format!("Hint: {san} (Enter plays it)"));
            return Ok(());
        }
        if !self.assistant_started {
            self.assistant_started = true;
            self.jobs.push(EngineJob::Start {
                seat: ASSISTANT,
                spec: EngineSpec::BuiltIn { level: 8 },
                kind: self.kind,
                partner_human: false,
            });
        }
        let id = self.next_id;
        self.next_id += 1;
        self.hint_asked = Some((id, b, self.board_ply(b)));
        self.jobs.push(EngineJob::Go {
            seat: ASSISTANT,
            id,
            fen: write_fen(self.board(b)),
            partner_fen: (self.boards() == 2).then(|| write_fen(self.board(1 - b))),
            wtime: None,
            btime: None,
            inc: Duration::ZERO,
            infinite: false,
        });
        Ok(())
    }

    /// Analysis on or off: Kibitz at full strength thinks about the person's
    /// board (or board A when engines play) until the next move, and again
    /// after every move.
    pub fn toggle_analysis(&mut self, board: usize) -> bool {
        if self.analysis.take().is_some() {
            self.jobs.push(EngineJob::Stop { seat: ASSISTANT });
            return false;
        }
        self.analysis = Some(Analysis {
            board,
            ..Analysis::default()
        });
        self.analyse();
        true
    }

    /// (Re)starts the analysis on the position now.
    pub(super) fn analyse(&mut self) {
        let Some(board) = self.analysis.as_ref().map(|a| a.board) else {
            return;
        };
        if !self.assistant_started {
            self.assistant_started = true;
            self.jobs.push(EngineJob::Start {
                seat: ASSISTANT,
                spec: EngineSpec::BuiltIn { level: 8 },
                kind: self.kind,
                partner_human: false,
            });
        }
        if self.is_over() {
            self.jobs.push(EngineJob::Stop { seat: ASSISTANT });
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        if let Some(a) = &mut self.analysis {
            a.id = id;
            a.lines.clear();
            a.best = None;
        }
        self.jobs.push(EngineJob::Go {
            seat: ASSISTANT,
            id,
            fen: write_fen(self.board(board)),
            partner_fen: (self.boards() == 2).then(|| write_fen(self.board(1 - board))),
            wtime: None,
            btime: None,
            inc: Duration::ZERO,
            infinite: true,
        });
    }

    /// What the engine at `seat` said.
    pub fn engine_news(&mut self, seat: usize, news: EngineNews, now: Instant) {
        if seat == ASSISTANT {
            if let EngineNews::Info {
                id,
                depth,
                score,
                nodes,
                pv,
            } = &news
                && let Some(a) = &self.analysis
                && a.id == *id
            {
                let b = a.board;
                let line = san_line(self.board(b), pv, self.kind);
                let best = pv
                    .first()
                    .and_then(|u| u.parse::<shakmaty::uci::UciMove>().ok())
                    .and_then(|u| u.to_move(self.board(b)).ok());
                let white = match self.board(b).turn() {
                    Color::White => *score,
                    Color::Black => -*score,
                };
                if let Some(a) = &mut self.analysis {
                    a.best = best.or(a.best);
                    match a.lines.last_mut() {
                        Some(last) if last.0 == *depth => *last = (*depth, white, *nodes, line),
                        _ => a.lines.push((*depth, white, *nodes, line)),
                    }
                    if a.lines.len() > 30 {
                        a.lines.remove(0);
                    }
                }
                return;
            }
            if let EngineNews::Best { id, uci } = news
                && let Some((asked, b, played)) = self.hint_asked
                && asked == id
                && played == self.board_ply(b)
            {
                self.hint_asked = None;
                let mv = uci
                    .parse::<shakmaty::uci::UciMove>()
                    .ok()
                    .and_then(|u| u.to_move(self.board(b)).ok());
                if let Some(m) = mv {
                    let san = rules::san(self.board(b), m, self.kind);
                    self.hint = Some((b, m, played));
                    self.news.push(format!("Hint: {san} (Enter plays it)"));
                }
            }
            return;
        }
        let (b, c) = seat_of(seat);
        match news {
            EngineNews::Best { id, uci } => {
                if self.asked[seat] != Some(id) || self.is_over() {
                    return; // stale
                }
                self.asked[seat] = None;
                let mv = uci
                    .parse::<shakmaty::uci::UciMove>()
                    .ok()
                    .and_then(|u| u.to_move(self.board(b)).ok());
                match mv {
                    Some(m) => self.engine_move(seat, m, now),
                    None => {
                        let text = format!(
                            "{}'s engine played an illegal move ({uci})",
                            self.seat_name(b, c)
                        );
                        self.lose(
                            seat,
                            Termination::IllegalMove,
                            BugTermination::IllegalMove,
                            text,
                            now,
                        );
                    }
                }
            }
            EngineNews::Ptell(text) => self.say(seat, &text),
            // The search panel: the lines of the engine on the watched board.
            EngineNews::Info {
                id,
                depth,
                score,
                nodes,
                pv,
            } => {
                let Some((s, a)) = &self.search else { return };
                if *s != seat || a.id != id {
                    return;
                }
                let line = san_line(self.board(b), &pv, self.kind);
                let white = match self.board(b).turn() {
                    Color::White => score,
                    Color::Black => -score,
                };
                if let Some((_, a)) = &mut self.search {
                    match a.lines.last_mut() {
                        Some(last) if last.0 == depth => *last = (depth, white, nodes, line),
                        _ => a.lines.push((depth, white, nodes, line)),
                    }
                    if a.lines.len() > 30 {
                        a.lines.remove(0);
                    }
                }
            }
            EngineNews::Name(name) => self.set_name(b, c, &name),
            EngineNews::Failed(why) => {
                let text = format!("{}'s engine failed: {why}", self.seat_name(b, c));
                self.lose(
                    seat,
                    Termination::Abandoned,
                    BugTermination::Abandoned,
                    text,
                    now,
                );
            }
        }
    }
}

/// A line of UCI moves in SAN from `pos`, cut at the first that does not fit.
fn san_line(pos: &Crazyhouse, pv: &[String], kind: VariantKind) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for u in pv.iter().take(12) {
        let Some(m) = u
            .parse::<shakmaty::uci::UciMove>()
            .ok()
            .and_then(|m| m.to_move(&pos).ok())
        else {
            break;
        };
        out.push(rules::san(&pos, m, kind));
        pos = rules::play(&pos, m, kind).0;
    }
    out.join(" ")
}
