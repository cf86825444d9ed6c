//! An external UCI program on an engine thread, in any variant: chess
//! engines, and for Crazyhouse and Bughouse any program that knows
//! `UCI_Variant` (Kibitz itself among them, with its Bughouse extension).

use super::*;
use crate::uci::client::{EngineInfo, GoResult, Poll};
use crate::variant::VariantKind;
use std::collections::VecDeque;
use std::sync::mpsc::TryRecvError;
use std::time::Instant;

/// How long the handshake and `ucinewgame` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// `go` parameters for an external engine.
pub fn go_params(limits: &Limits) -> String {
    let mut p = Vec::new();
    if let Some(c) = &limits.clock {
        if let Some(w) = c.wtime {
            p.push(format!("wtime {}", w.as_millis()));
        }
        if let Some(b) = c.btime {
            p.push(format!("btime {}", b.as_millis()));
        }
        p.push(format!("winc {}", c.winc.as_millis()));
        p.push(format!("binc {}", c.binc.as_millis()));
        if let Some(n) = c.movestogo {
            p.push(format!("movestogo {n}"));
        }
    }
    if let Some(d) = limits.depth {
        p.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes {
        p.push(format!("nodes {n}"));
    }
    if let Some(t) = limits.movetime {
        p.push(format!("movetime {}", t.as_millis()));
    }
    if limits.infinite || p.is_empty() {
        p.push("infinite".to_string());
    }
    p.join(" ")
}

/// How long to wait for an external engine's `bestmove` before giving up.
pub(super) fn go_timeout(limits: &Limits, turn: shakmaty::Color) -> Duration {
    let grace = Duration::from_secs(10);
    if let Some(c) = &limits.clock {
        let mine = match turn {
            shakmaty::Color::White => c.wtime,
            shakmaty::Color::Black => c.btime,
        };
        if let Some(t) = mine {
            return t + grace;
        }
    }
    if limits.depth.is_none()
        && limits.nodes.is_none()
        && let Some(t) = limits.movetime
    {
        return t + grace;
    }
    // Depth/node limits and infinite analysis: the user stops it.
    Duration::from_secs(24 * 3600)
}

/// When a search limited by its time alone (no clock, depth or nodes) is
/// overdue: its time and a second. The engine is told to `stop` then (an
/// XBoard engine is too, by its client): one that is merely slow answers
/// at once, one that hangs fails two seconds later instead of at the
/// [`go_timeout`].
fn overdue(limits: &Limits) -> Option<Instant> {
    if limits.clock.is_some() || limits.depth.is_some() || limits.nodes.is_some() {
        return None;
    }
    limits
        .movetime
        .map(|t| Instant::now() + t + Duration::from_secs(1))
}

/// Does the engine have the option `name` (from its handshake)?
pub fn lists_option(client: &UciClient, name: &str) -> bool {
    let prefix = format!("option name {}", name.to_ascii_lowercase());
    client
        .options
        .iter()
        .any(|o| o.to_ascii_lowercase().starts_with(&prefix))
}

/// Plays UCI move strings from `board` while they are legal.
fn parse_line<V: Variant>(board: &Board<V>, moves: &[String]) -> Vec<Move> {
    let mut b = board.clone();
    let mut out = Vec::new();
    for s in moves {
        match b.parse_uci(s) {
            Ok(m) => {
                b = b.play(m);
                out.push(m);
            }
            Err(_) => break,
        }
    }
    out
}

fn to_line<V: Variant>(info: &EngineInfo, board: &Board<V>) -> SearchLine {
    SearchLine {
        depth: info.depth.unwrap_or(0),
        seldepth: info.seldepth.unwrap_or(0),
        multipv: info.multipv.unwrap_or(1),
        score: info.score,
        bound: info.bound,
        nodes: info.nodes.unwrap_or(0),
        nps: info.nps.unwrap_or(0),
        time: Duration::from_millis(info.time_ms.unwrap_or(0)),
        pv: parse_line(board, &info.pv),
        hashfull: info.hashfull,
        stats: None,
    }
}

/// Runs `program` until asked to quit or it fails.
pub(super) fn run<V: Variant>(
    program: UciProgram,
    rx: Receiver<Command<V>>,
    report: &dyn Fn(Report),
) {
    let fail = |e: UciError| {
        report(Report::Event(EngineEvent::Failed {
            message: e.to_string(),
        }))
    };
    let mut session = match Session::open(program) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    report(Report::Event(EngineEvent::Ready {
        name: session.client.name.clone(),
    }));
    loop {
        let cmd = match session.backlog.pop_front() {
            Some(c) => c,
            None => rx.recv().unwrap_or(Command::Quit),
        };
        let done = match cmd {
            Command::Quit => return,
            Command::NewGame => session.client.new_game(HANDSHAKE),
            Command::Tell(news) => session.tell(news),
            Command::Go(job) => session.go(*job, &rx, report),
        };
        if let Err(e) = done {
            // A search that failed on the way out is no news.
            if !session.quitting() {
                fail(e);
            }
            return;
        }
    }
}

/// An external engine between searches.
struct Session<V: Variant> {
    client: UciClient,
    /// It speaks Kibitz's Bughouse extension (it lists `BughousePartner`):
    /// it hears the partner's board and the [`Tell`]s.
    bughouse: bool,
    /// The MultiPV it was set to.
    multipv: usize,
    /// Commands that came during a search, for after it.
    backlog: VecDeque<Command<V>>,
}

impl<V: Variant> Session<V> {
    /// Starts the program: handshake, `UCI_Variant` for the drop variants,
    /// its own options, `isready`.
    fn open(program: UciProgram) -> Result<Session<V>, UciError> {
        let mut client = UciClient::spawn(&program.command, HANDSHAKE)?;
        if V::KIND != VariantKind::Chess {
            client.set_option("UCI_Variant", V::KIND.name())?;
        }
        if let Some(setup) = program.setup {
            setup(&mut client)?;
        }
        client.sync(HANDSHAKE)?;
        Ok(Session {
            bughouse: V::BUGHOUSE && lists_option(&client, "BughousePartner"),
            client,
            multipv: 1,
            backlog: VecDeque::new(),
        })
    }

    fn quitting(&self) -> bool {
        self.backlog.iter().any(|c| matches!(c, Command::Quit))
    }

    /// News between searches: a partner's message is passed on, a board
    /// update is not needed (the next search has the board).
    fn tell(&mut self, news: Tell<V>) -> Result<(), UciError> {
        if self.bughouse && matches!(news, Tell::Ptell(_)) {
            self.client.send(&tell_line(&news))?;
        }
        Ok(())
    }

    /// Runs one search and reports it: its lines and root moves as they
    /// come, then its answer.
    fn go(
        &mut self,
        job: Job<V>,
        rx: &Receiver<Command<V>>,
        report: &dyn Fn(Report),
    ) -> Result<(), UciError> {
        let Job { req, opts, stop } = job;
        let board = position_of(&req).current().clone();
        self.position(&req, opts.partner.as_ref(), opts.partner_clock)?;
        let timeout = opts
            .timeout
            .unwrap_or_else(|| go_timeout(&req.limits, board.turn()));
        let legal = board.legal_moves().len();
        let (backlog, bughouse) = (&mut self.backlog, self.bughouse);
        let tell = |n: &Tell<V>| bughouse.then(|| tell_line(n));
        let due = overdue(&req.limits);
        let answer = self.client.go_polling(
            &go_params(&req.limits),
            timeout,
            || {
                let mut p = poll(rx, backlog, &tell, &stop);
                p.stop |= due.is_some_and(|d| Instant::now() >= d);
                p
            },
            |info| on_info(info, &board, legal, req.id, report),
        )?;
        self.answer(&answer, &board, &req, report);
        Ok(())
    }

    /// `position` (and the partner's board and clocks) for `req`.
    fn position(
        &mut self,
        req: &Request<V>,
        partner: Option<&Board<V>>,
        clock: Option<[Duration; 2]>,
    ) -> Result<(), UciError> {
        if req.multipv != self.multipv {
            // Engines without the option ignore it.
            let _ = self
                .client
                .set_option("MultiPV", &req.multipv.max(1).to_string());
            self.multipv = req.multipv;
        }
        let start_fen = req.start.fen();
        let standard = start_fen == Board::<V>::start_position().fen();
        let moves: Vec<String> = req.moves.iter().map(|&m| Board::uci(m)).collect();
        self.client
            .position((!standard).then_some(start_fen.as_str()), &moves)?;
        if self.bughouse
            && let Some(p) = partner
        {
            self.client
                .send(&format!("bughouse partner fen {}", p.fen()))?;
            if let Some([w, b]) = clock {
                self.client.send(&format!(
                    "bughouse partner clock wtime {} btime {}",
                    w.as_millis(),
                    b.as_millis()
                ))?;
            }
        }
        Ok(())
    }

    /// Reports the engine's `bestmove` for `req`.
    fn answer(&self, r: &GoResult, board: &Board<V>, req: &Request<V>, report: &dyn Fn(Report)) {
        answer(&self.client.name, r, board, req, report);
    }
}

/// Reports the answer `r` of the engine `name` to `req`: its move, an
/// illegal move, or no move.
pub(super) fn answer<V: Variant>(
    name: &str,
    r: &GoResult,
    board: &Board<V>,
    req: &Request<V>,
    report: &dyn Fn(Report),
) {
    let best = if r.bestmove == "0000" || r.bestmove == "(none)" {
        None
    } else {
        match board.parse_uci(&r.bestmove) {
            Ok(m) => Some(m),
            Err(_) => {
                return report(Report::Event(EngineEvent::IllegalMove {
                    id: req.id,
                    text: r.bestmove.clone(),
                }));
            }
        }
    };
    if best.is_none() && !board.legal_moves().is_empty() {
        return report(Report::NoMove {
            id: req.id,
            text: r.bestmove.clone(),
            message: format!("{name} sent no move (bestmove 0000)"),
        });
    }
    let last = r.last_score();
    report(Report::Event(EngineEvent::Done {
        id: req.id,
        purpose: req.purpose,
        best,
        score: last.and_then(|i| i.score),
        pv: last.map(|i| parse_line(board, &i.pv)).unwrap_or_default(),
    }));
}

/// A line of Kibitz's Bughouse extension.
fn tell_line<V: Variant>(news: &Tell<V>) -> String {
    match news {
        Tell::Update(board) => format!("bughouse update fen {}", board.fen()),
        Tell::Ptell(text) => format!("bughouse ptell {text}"),
    }
}

/// During a search (every 10 ms): news for the engine goes to it (the line
/// `tell` makes of it, if any), other commands wait in `backlog` for the
/// search to end, which the stop flag asks for (a new request or a new
/// game has set it; a `Quit` sets it).
pub(super) fn poll<V: Variant>(
    rx: &Receiver<Command<V>>,
    backlog: &mut VecDeque<Command<V>>,
    tell: &dyn Fn(&Tell<V>) -> Option<String>,
    stop: &AtomicBool,
) -> Poll {
    let mut p = Poll::default();
    loop {
        match rx.try_recv() {
            Ok(Command::Tell(news)) => p.send.extend(tell(&news)),
            Ok(cmd) => {
                if matches!(cmd, Command::Quit) {
                    stop.store(true, Ordering::Relaxed);
                }
                backlog.push_back(cmd);
            }
            Err(TryRecvError::Empty) => break,
            Err(TryRecvError::Disconnected) => {
                // The handle is gone.
                stop.store(true, Ordering::Relaxed);
                backlog.push_back(Command::Quit);
                break;
            }
        }
    }
    p.stop = stop.load(Ordering::Relaxed);
    p
}

/// One `info` line: a message for the partner, the root move being
/// searched, a line of the search.
pub(super) fn on_info<V: Variant>(
    info: &EngineInfo,
    board: &Board<V>,
    legal: usize,
    id: u64,
    report: &dyn Fn(Report),
) {
    if let Some(text) = info
        .string
        .as_deref()
        .and_then(|s| s.strip_prefix("ptell "))
    {
        report(Report::Ptell(text.trim().to_string()));
    }
    if let (Some(cm), Some(depth)) = (&info.currmove, info.depth)
        && let Ok(mv) = board.parse_uci(cm)
    {
        report(Report::Event(EngineEvent::Progress {
            id,
            progress: Progress {
                depth,
                mv,
                number: info.currmovenumber.unwrap_or(0) as usize,
                count: legal,
            },
        }));
    }
    if info.pv.is_empty() && info.score.is_none() {
        return;
    }
    report(Report::Event(EngineEvent::Info {
        id,
        line: to_line(info, board),
    }));
}
