//! Engines for the UI, each on its own thread: the built-in engine or an
//! external UCI program behind one interface. The UI sends [`Request`]s and
//! receives [`EngineEvent`]s through a callback (normally a channel into the
//! UI's message loop), so it never waits for a search.

use crate::engine::{
    Board, Bound, Depth, Engine, EngineOptions, GamePosition, IterationInfo, Level, Limits, Score,
    SearchObserver, SearchStats,
};
use crate::uci::client::{EngineInfo, UciClient, split_command};
use shakmaty::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

mod spec;
pub use spec::*;

/// Why a search was asked for; returned with the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Move,
    Hint,
    /// Open-ended analysis (MultiPV), until stopped.
    Analysis,
}

#[derive(Clone, Debug)]
pub struct Request {
    pub id: u64,
    pub purpose: Purpose,
    /// Lines to report (MultiPV).
    pub multipv: usize,
    pub start: Board,
    pub moves: Vec<Move>,
    pub limits: Limits,
}

/// One line of search progress, from either kind of engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLine {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    /// Side to move's view.
    pub score: Option<Score>,
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    /// Legal moves from the searched position (an external engine's line is
    /// cut at its first move that does not parse or is illegal).
    pub pv: Vec<Move>,
    /// Permille of the hash table in use, when the engine says.
    pub hashfull: Option<u32>,
    /// The built-in engine's counters (TT hits, cutoffs...); external
    /// engines do not report them.
    pub stats: Option<SearchStats>,
}

/// Which root move a search is on: "depth 12, move 5 of 31: Nf3".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub depth: u32,
    pub mv: Move,
    /// 1-based.
    pub number: usize,
    pub count: usize,
}

#[derive(Clone, Debug)]
pub enum EngineEvent {
    /// The engine is ready; its name.
    Ready {
        name: String,
    },
    Info {
        id: u64,
        line: SearchLine,
    },
    /// The root move being searched (at most a few times a second).
    Progress {
        id: u64,
        progress: Progress,
    },
    Done {
        id: u64,
        purpose: Purpose,
        /// `None`: no legal move, or the search was cancelled before it began.
        best: Option<Move>,
        score: Option<Score>,
        pv: Vec<Move>,
    },
    /// The engine answered request `id` with a move that is not legal.
    IllegalMove {
        id: u64,
        text: String,
    },
    /// The engine could not start, crashed or stopped answering.
    Failed {
        message: String,
    },
}

enum Command {
    Go(Box<Request>, Arc<AtomicBool>),
    NewGame,
    Quit,
}

/// The name of engine threads (the panic hook treats them specially).
pub const ENGINE_THREAD: &str = "kibitz-engine";

/// A running engine thread.
pub struct EngineHandle {
    tx: Sender<Command>,
    /// The stop flag of the latest request.
    current: Option<Arc<AtomicBool>>,
    thread: Option<JoinHandle<()>>,
}

impl EngineHandle {
    /// Starts the engine described by `spec`; events go to `sink`.
    pub fn spawn(spec: &EngineSpec, sink: impl Fn(EngineEvent) + Send + 'static) -> EngineHandle {
        let (tx, rx) = channel::<Command>();
        let spec = spec.clone();
        let thread = std::thread::Builder::new()
            .name(ENGINE_THREAD.into())
            .spawn(move || {
                // A bug in the engine must not take the app down: report it
                // as a failure (the panic hook leaves the terminal alone for
                // this thread).
                let run = std::panic::AssertUnwindSafe(|| match spec {
                    EngineSpec::External { command } => run_external(&command, rx, &sink),
                    EngineSpec::BuiltIn { level } => run_builtin(Level::new(level), rx, &sink),
                    EngineSpec::Custom { .. } => run_builtin(Level::new(8), rx, &sink),
                });
                if let Err(panic) = std::panic::catch_unwind(run) {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown error".to_string());
                    sink(EngineEvent::Failed {
                        message: format!("the engine crashed ({what})"),
                    });
                }
            })
            .ok();
        EngineHandle {
            tx,
            current: None,
            thread,
        }
    }

    /// Starts a search; any search still running is stopped first.
    pub fn go(&mut self, req: Request) {
        self.stop();
        let flag = Arc::new(AtomicBool::new(false));
        self.current = Some(flag.clone());
        let _ = self.tx.send(Command::Go(Box::new(req), flag));
    }

    /// Stops the current search (its `Done` still arrives, with the best move
    /// so far).
    pub fn stop(&mut self) {
        if let Some(f) = self.current.take() {
            f.store(true, Ordering::Relaxed);
        }
    }

    pub fn new_game(&mut self) {
        self.stop();
        let _ = self.tx.send(Command::NewGame);
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        self.stop();
        let _ = self.tx.send(Command::Quit);
        if let Some(t) = self.thread.take() {
            // The built-in engine stops within milliseconds; an external one
            // is asked to quit and killed after 0.5 s by UciClient's Drop.
            let _ = t.join();
        }
    }
}

/// Forwards each finished iteration as an `Info` event, and the root move
/// being searched as a `Progress` event at most every 50 ms.
struct Forward<'a, F: Fn(EngineEvent)> {
    id: u64,
    sink: &'a F,
    last_progress: Option<Instant>,
}

impl<F: Fn(EngineEvent)> SearchObserver for Forward<'_, F> {
    fn iteration(&mut self, info: &IterationInfo) {
        (self.sink)(EngineEvent::Info {
            id: self.id,
            line: SearchLine {
                depth: info.depth.max(0) as u32,
                seldepth: info.seldepth as u32,
                multipv: info.multipv as u32,
                score: Some(info.score),
                bound: Some(info.bound),
                nodes: info.nodes,
                nps: info.nps(),
                time: info.elapsed,
                pv: info.pv.clone(),
                hashfull: Some(info.hashfull),
                stats: Some(info.stats),
            },
        });
    }

    fn root_move(&mut self, depth: Depth, mv: Move, index: usize, count: usize) {
        let now = Instant::now();
        if self
            .last_progress
            .is_some_and(|t| now.duration_since(t) < Duration::from_millis(50))
        {
            return;
        }
        self.last_progress = Some(now);
        (self.sink)(EngineEvent::Progress {
            id: self.id,
            progress: Progress {
                depth: depth.max(0) as u32,
                mv,
                number: index + 1,
                count,
            },
        });
    }
}

fn position_of(req: &Request) -> GamePosition {
    let mut pos = GamePosition::new(req.start.clone());
    for &m in &req.moves {
        pos.push(m);
    }
    pos
}

/// Endgame tables and threads for the built-in engines, as the
/// configuration asks.
#[derive(Clone, Default)]
pub struct EngineSetup {
    /// Use our own tables (loaded once in the background by
    /// [`crate::tablebase::shared_loader`]).
    pub own: bool,
    /// Syzygy tables, opened once and shared by every engine thread.
    pub syzygy: Option<Arc<crate::tablebase::syzygy::SyzygyTables>>,
    /// Search threads at full strength (0 or 1: one).
    pub threads: usize,
}

static ENGINE_SETUP: std::sync::OnceLock<EngineSetup> = std::sync::OnceLock::new();

/// Sets up every built-in engine started from now on (once per process;
/// later calls are ignored).
pub fn set_engine_setup(setup: EngineSetup) {
    let _ = ENGINE_SETUP.set(setup);
}

/// Gives `engine` the configured threads and tables; our own tables as
/// soon as the background loader has them (the engine plays without until
/// then).
fn attach_tables(engine: &mut Engine) {
    let Some(t) = ENGINE_SETUP.get() else {
        return;
    };
    if engine.options().threads != t.threads.max(1) {
        engine.set_threads(t.threads);
    }
    if engine.syzygy().is_none() && t.syzygy.is_some() {
        engine.set_syzygy_tables(t.syzygy.clone());
    }
    if t.own
        && engine.tablebases().is_none()
        && let Some(loaded) = crate::tablebase::shared_loader().get()
    {
        engine.set_tablebases(Some(loaded.tables.clone()));
    }
}

fn run_builtin(
    level: Option<Level>,
    rx: std::sync::mpsc::Receiver<Command>,
    sink: &impl Fn(EngineEvent),
) {
    let mut engine = Engine::new(EngineOptions::default());
    attach_tables(&mut engine);
    let play_level = level.unwrap_or(Level::MAX);
    sink(EngineEvent::Ready {
        name: format!("Kibitz {}", env!("CARGO_PKG_VERSION")),
    });
    while let Ok(cmd) = rx.recv() {
        match cmd {
            Command::Quit => break,
            Command::NewGame => engine.new_game(),
            Command::Go(req, stop) => {
                // Hints and analysis are always at full strength.
                engine.set_level(match req.purpose {
                    Purpose::Move => play_level,
                    Purpose::Hint | Purpose::Analysis => Level::MAX,
                });
                engine.set_multipv(req.multipv.max(1));
                attach_tables(&mut engine);
                let pos = position_of(&req);
                let mut forward = Forward {
                    id: req.id,
                    sink,
                    last_progress: None,
                };
                let report = engine.search(&pos, &req.limits, &stop, &mut forward);
                sink(EngineEvent::Done {
                    id: req.id,
                    purpose: req.purpose,
                    best: report.best_move,
                    score: Some(report.result.score),
                    pv: report.result.pv,
                });
            }
        }
    }
}

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
fn go_timeout(limits: &Limits, turn: shakmaty::Color) -> Duration {
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

/// Plays UCI move strings from `board` while they are legal.
fn parse_line(board: &Board, moves: &[String]) -> Vec<Move> {
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

fn to_line(info: &EngineInfo, board: &Board) -> SearchLine {
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

fn run_external(
    command: &str,
    rx: std::sync::mpsc::Receiver<Command>,
    sink: &impl Fn(EngineEvent),
) {
    let cmd = split_command(command);
    let mut client = match UciClient::spawn(&cmd, Duration::from_secs(10)) {
        Ok(c) => c,
        Err(e) => {
            sink(EngineEvent::Failed {
                message: e.to_string(),
            });
            return;
        }
    };
    if let Err(e) = client.sync(Duration::from_secs(10)) {
        sink(EngineEvent::Failed {
            message: e.to_string(),
        });
        return;
    }
    sink(EngineEvent::Ready {
        name: client.name.clone(),
    });
    let mut multipv = 1;
    while let Ok(cmd) = rx.recv() {
        match cmd {
            Command::Quit => break,
            Command::NewGame => {
                if let Err(e) = client.new_game(Duration::from_secs(10)) {
                    sink(EngineEvent::Failed {
                        message: e.to_string(),
                    });
                    return;
                }
            }
            Command::Go(req, stop) => {
                let pos = position_of(&req);
                let board = pos.current().clone();
                let legal_count = board.chess().legal_moves().len();
                let start_fen = req.start.fen();
                let standard = start_fen == Board::startpos().fen();
                let moves: Vec<String> = req.moves.iter().map(|&m| Board::uci(m)).collect();
                if req.multipv != multipv {
                    // Engines without the option ignore it.
                    let _ = client.set_option("MultiPV", &req.multipv.max(1).to_string());
                    multipv = req.multipv;
                }
                let result = client
                    .position((!standard).then_some(start_fen.as_str()), &moves)
                    .and_then(|_| {
                        client.go_stoppable(
                            &go_params(&req.limits),
                            go_timeout(&req.limits, board.turn()),
                            &stop,
                            |info| {
                                if let (Some(cm), Some(depth)) = (&info.currmove, info.depth)
                                    && let Ok(mv) = board.parse_uci(cm)
                                {
                                    sink(EngineEvent::Progress {
                                        id: req.id,
                                        progress: Progress {
                                            depth,
                                            mv,
                                            number: info.currmovenumber.unwrap_or(0) as usize,
                                            count: legal_count,
                                        },
                                    });
                                }
                                if info.pv.is_empty() && info.score.is_none() {
                                    return;
                                }
                                sink(EngineEvent::Info {
                                    id: req.id,
                                    line: to_line(info, &board),
                                });
                            },
                        )
                    });
                match result {
                    Err(e) => {
                        sink(EngineEvent::Failed {
                            message: e.to_string(),
                        });
                        return;
                    }
                    Ok(r) => {
                        let best = if r.bestmove == "0000" || r.bestmove == "(none)" {
                            None
                        } else {
                            match board.parse_uci(&r.bestmove) {
                                Ok(m) => Some(m),
                                Err(_) => {
                                    sink(EngineEvent::IllegalMove {
                                        id: req.id,
                                        text: r.bestmove.clone(),
                                    });
                                    continue;
                                }
                            }
                        };
                        if best.is_none() && !board.chess().legal_moves().is_empty() {
                            sink(EngineEvent::Failed {
                                message: format!("{} sent no move (bestmove 0000)", client.name),
                            });
                            return;
                        }
                        let last = r.last_score();
                        sink(EngineEvent::Done {
                            id: req.id,
                            purpose: req.purpose,
                            best,
                            score: last.and_then(|i| i.score),
                            pv: last.map(|i| parse_line(&board, &i.pv)).unwrap_or_default(),
                        });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
