//! The engines' side of a game in play: the jobs sent to them, their
//! answers, hints and the analysis of a board.

use super::*;
use crate::engine::{Limits, Score};
use crate::ui::engines::{ASSISTANT, EngineJob, Go};
use crate::ui::player::{EngineEvent, Purpose, Report, SearchLine};

/// How long an engine may think about a move before it counts as hung
/// (the game's clock judges it long before).
const PATIENCE: Duration = Duration::from_secs(3600);

/// The game's assistant (Kibitz at full strength, started at the first
/// hint or analysis): the hint asked and found, and the analysis shown.
#[derive(Clone, Debug, Default)]
pub struct Assistant {
    started: bool,
    /// The hint asked for: request id, board, and the board's half-moves
    /// then.
    asked: Option<(u64, usize, usize)>,
    /// The hint found: its board, move, and the board's half-moves (valid
    /// while no move is made there).
    pub hint: Option<(usize, Move, usize)>,
    /// The analysis shown, when on.
    pub analysis: Option<Analysis>,
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
        if let Some(a) = &self.assistant.analysis
            && a.board == b
            && let Some(m) = a.best
        {
            let san = rules::san(self.board(b), m, self.kind);
            self.assistant.hint = Some((b, m, self.board_ply(b)));
            self.news.push(format!("Hint: {san} (Enter plays it)"));
            return Ok(());
        }
        self.start_assistant();
        let id = self.next_id;
        self.next_id += 1;
        self.assistant.asked = Some((id, b, self.board_ply(b)));
        let limits = Limits {
            movetime: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        let go = self.go(id, b, limits, None);
        self.jobs.push(EngineJob::Go {
            seat: ASSISTANT,
            go,
        });
        Ok(())
    }

    /// Analysis on or off: Kibitz at full strength thinks about the person's
    /// board (or board A when engines play) until the next move, and again
    /// after every move.
    pub fn toggle_analysis(&mut self, board: usize) -> bool {
        if self.assistant.analysis.take().is_some() {
            self.jobs.push(EngineJob::Stop { seat: ASSISTANT });
            return false;
        }
        self.assistant.analysis = Some(Analysis {
            board,
            ..Analysis::default()
        });
        self.analyse();
        true
    }

    /// (Re)starts the analysis on the position now.
    pub(super) fn analyse(&mut self) {
        let Some(board) = self.assistant.analysis.as_ref().map(|a| a.board) else {
            return;
        };
        self.start_assistant();
        if self.is_over() {
            self.jobs.push(EngineJob::Stop { seat: ASSISTANT });
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        if let Some(a) = &mut self.assistant.analysis {
            a.id = id;
            a.lines.clear();
            a.best = None;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let go = self.go(id, board, limits, Some(PATIENCE));
        self.jobs.push(EngineJob::Go {
            seat: ASSISTANT,
            go,
        });
    }

    /// The game's assistant starts at its first hint or analysis.
    fn start_assistant(&mut self) {
        if !self.assistant.started {
            self.assistant.started = true;
            self.jobs.push(EngineJob::assistant(self.kind));
        }
    }

    /// A search of board `b` (with its partner's in Bughouse): request
    /// `id`, for a move unless `limits` are infinite.
    pub(super) fn go(
        &self,
        id: u64,
        b: usize,
        limits: Limits,
        timeout: Option<Duration>,
    ) -> Box<Go> {
        let purpose = if limits.infinite {
            Purpose::Analysis
        } else {
            Purpose::Move
        };
        Box::new(Go {
            id,
            purpose,
            multipv: 1,
            fen: write_fen(self.board(b)),
            moves: Vec::new(),
            limits,
            partner_fen: (self.boards() == 2).then(|| write_fen(self.board(1 - b))),
            partner_clock: None,
            timeout,
        })
    }

    /// A search for the engine at `seat`, whose turn it is on board `b`:
    /// the board's clock, or the seat's own limits.
    pub(super) fn go_for_move(&self, seat: usize, id: u64, b: usize, now: Instant) -> Box<Go> {
        let (_, c) = seat_of(seat);
        let clock = self
            .time
            .map(|_| crate::ui::seats::engine_clock(&self.clocks[b], now));
        let timeout = clock.is_some().then_some(PATIENCE);
        let limits = match self.player(b, c) {
            Player::Engine(spec) => crate::ui::seats::move_limits(spec, clock, self.kind),
            Player::Human => Limits::default(),
        };
        let mut go = self.go(id, b, limits, timeout);
        // The partner's board's clocks: an engine asks a partner behind on
        // time for no sitting.
        if self.boards() == 2 && self.time.is_some() {
            let other = &self.clocks[1 - b];
            go.partner_clock = Some([
                other.remaining(Color::White, now),
                other.remaining(Color::Black, now),
            ]);
        }
        go
    }

    /// What the engine at `seat` said.
    pub fn engine_news(&mut self, seat: usize, report: Report, now: Instant) {
        match report {
            Report::Event(EngineEvent::Info { id, line }) => {
                if let Some(score) = line.score
                    && line.multipv <= 1
                    && !line.pv.is_empty()
                {
                    self.search_line(seat, id, &line, score);
                }
            }
            Report::Event(EngineEvent::Done { id, best, .. }) => {
                self.answer(seat, id, best.ok_or_else(|| "0000".to_string()), now)
            }
            Report::Event(EngineEvent::IllegalMove { id, text })
            | Report::NoMove { id, text, .. } => self.answer(seat, id, Err(text), now),
            Report::Ptell(text) if seat != ASSISTANT => self.say(seat, &text),
            Report::Event(EngineEvent::Ready { name }) if seat != ASSISTANT => {
                // Kibitz's own seats keep their level's name.
                let (b, c) = seat_of(seat);
                if matches!(
                    self.player(b, c),
                    Player::Engine(EngineSpec::External { .. })
                ) {
                    self.set_name(b, c, &name);
                }
            }
            Report::Event(EngineEvent::Failed { message }) if seat != ASSISTANT => {
                let (b, c) = seat_of(seat);
                let text = format!("{}'s engine failed: {message}", self.seat_name(b, c));
                self.lose(
                    seat,
                    Termination::Abandoned,
                    BugTermination::Abandoned,
                    text,
                    now,
                );
            }
            _ => {}
        }
    }

    /// The lines a search of the engine at `seat` (request `id`) goes
    /// to: the analysis' (the assistant), or the search panel's (the
    /// engine to move on the watched board).
    fn lines_for(&mut self, seat: usize, id: u64) -> Option<&mut Analysis> {
        if seat == ASSISTANT {
            self.assistant.analysis.as_mut().filter(|a| a.id == id)
        } else {
            self.search
                .as_mut()
                .filter(|(s, a)| *s == seat && a.id == id)
                .map(|(_, a)| a)
        }
    }

    /// A line of a search, in SAN and White's view, for the box it goes to.
    fn search_line(&mut self, seat: usize, id: u64, line: &SearchLine, score: Score) {
        let Some(b) = self.lines_for(seat, id).map(|a| a.board) else {
            return;
        };
        let pos = self.board(b);
        let text = san_line(pos, &line.pv, self.kind);
        let white = match pos.turn() {
            Color::White => score,
            Color::Black => -score,
        };
        let best = line.pv.first().copied().filter(|m| pos.is_legal(*m));
        let Some(a) = self.lines_for(seat, id) else {
            return;
        };
        if seat == ASSISTANT {
            a.best = best.or(a.best);
        }
        let depth = line.depth;
        match a.lines.last_mut() {
            Some(last) if last.0 == depth => *last = (depth, white, line.nodes, text),
            _ => a.lines.push((depth, white, line.nodes, text)),
        }
        if a.lines.len() > 30 {
            a.lines.remove(0);
        }
    }

    /// The answer to request `id` of the engine at `seat`: its move, or
    /// what it wrote when that was no move.
    fn answer(&mut self, seat: usize, id: u64, answer: Result<Move, String>, now: Instant) {
        if seat == ASSISTANT {
            // The hint, if the board is still as it was.
            if let Some((asked, b, played)) = self.assistant.asked
                && asked == id
                && played == self.board_ply(b)
            {
                self.assistant.asked = None;
                if let Ok(m) = answer
                    && self.board(b).is_legal(m)
                {
                    let san = rules::san(self.board(b), m, self.kind);
                    self.assistant.hint = Some((b, m, played));
                    self.news.push(format!("Hint: {san} (Enter plays it)"));
                }
            }
            return;
        }
        if self.asked[seat] != Some(id) || self.is_over() {
            return; // stale
        }
        self.asked[seat] = None;
        let (b, c) = seat_of(seat);
        match answer {
            Ok(m) if self.board(b).is_legal(m) => self.engine_move(seat, m, now),
            answer => {
                let text = match answer {
                    Ok(m) => m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                    Err(text) => text,
                };
                let text = format!(
                    "{}'s engine played an illegal move ({text})",
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
}

/// A line of moves in SAN from `pos`, cut at the first that is not legal.
fn san_line(pos: &Crazyhouse, pv: &[Move], kind: VariantKind) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &m in pv.iter().take(12) {
        if !pos.is_legal(m) {
            break;
        }
        out.push(rules::san(&pos, m, kind));
        pos = rules::play(&pos, m, kind).0;
    }
    out.join(" ")
}
