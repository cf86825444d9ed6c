//! Engines for the UI, each on its own thread: the built-in engine or an
//! external UCI or XBoard (`xboard:CMD`) program behind one interface, in any variant the engine
//! plays (chess, Crazyhouse, one board of Bughouse: see [`Variant`]). The UI
//! sends [`Request`]s and receives [`EngineEvent`]s through a callback
//! (normally a channel into the UI's message loop), so it never waits for a
//! search.
//!
//! [`EngineHandle`] is that thread. Every game's engines are started by
//! the engine runtime (`ui::engines`, one a seat of a table) with
//! [`EngineHandle::start`], which also reports what only the drop variants
//! need ([`Report`]) and passes on the Bughouse news ([`Tell`]);
//! [`EngineHandle::spawn`] is the short way to a chess engine.

use crate::engine::{Board, Bound, Level, Limits, Score, SearchStats, Std, Variant};
use crate::uci::client::{UciClient, UciError};
use crate::uci::xboard::EngineCommand;
use shakmaty::Move;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

mod builtin;
mod external;
mod spec;
mod xboard;
pub use builtin::{EngineSetup, set_engine_setup};
pub use external::{go_params, lists_option};
pub use spec::*;

/// Why a search was asked for; returned with the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Move,
    Hint,
    /// Open-ended analysis (MultiPV), until stopped.
    Analysis,
    /// A move of the user's, scored (Retry: is it almost as good as the
    /// best?).
    Check,
}

#[derive(Clone, Debug)]
pub struct Request<V: Variant = Std> {
    pub id: u64,
    pub purpose: Purpose,
    /// Lines to report (MultiPV).
    pub multipv: usize,
    pub start: Board<V>,
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

/// What an engine thread says, in any variant: the chess screen's
/// [`EngineEvent`]s, and what only the Crazyhouse and Bughouse games use.
#[derive(Clone, Debug)]
pub enum Report {
    Event(EngineEvent),
    /// An external engine answered request `id` with `bestmove 0000` (or
    /// `(none)`, the `text`) though it has legal moves; `message` says so.
    /// The chess screen takes it as a failure, a Crazyhouse or Bughouse
    /// game as an illegal move.
    NoMove {
        id: u64,
        text: String,
        message: String,
    },
    /// A message for the engine's partner (Bughouse: `info string ptell`).
    Ptell(String),
}

/// What runs on an engine thread.
pub enum Backend {
    /// The built-in engine, at a strength level (`None`: full strength).
    BuiltIn(Option<Level>),
    /// An external UCI program.
    Uci(UciProgram),
    /// An external XBoard program (`xboard:CMD`): its command line.
    Xboard(Vec<String>),
    /// An engine command that cannot be run (why).
    Broken(String),
}

/// Sets an external engine's options after its handshake (its `option`
/// lines are in the client).
pub type UciSetup = Box<dyn FnOnce(&mut UciClient) -> Result<(), UciError> + Send>;

/// An external UCI engine: its command line, and its options. The drop
/// variants set `UCI_Variant` first.
pub struct UciProgram {
    pub command: Vec<String>,
    pub setup: Option<UciSetup>,
}

impl Backend {
    /// The engine of the chess screen: `Custom` is the built-in engine at
    /// full strength (its limits come with each request).
    pub fn of(spec: &EngineSpec) -> Backend {
        match spec {
            EngineSpec::External { command } => match EngineCommand::parse(command) {
                Ok(EngineCommand::Xboard(words)) => Backend::Xboard(words),
                Ok(EngineCommand::Uci(words)) => Backend::Uci(UciProgram {
                    command: words,
                    setup: None,
                }),
                Err(why) => Backend::Broken(why),
            },
            EngineSpec::BuiltIn { level } => Backend::BuiltIn(Level::new(*level)),
            EngineSpec::Custom { .. } => Backend::BuiltIn(Level::new(8)),
        }
    }
}

/// What a search may come with besides its [`Request`].
#[derive(Clone, Debug, Default)]
pub struct GoOptions<V: Variant = Std> {
    /// Bughouse: the partner's board, for an engine that speaks Kibitz's
    /// Bughouse extension (see `uci::bughouse`).
    pub partner: Option<Board<V>>,
    /// Bughouse: the partner's board's clocks (White's, Black's), sent
    /// with it: an engine asks a partner behind on time for no sitting.
    pub partner_clock: Option<[Duration; 2]>,
    /// How long to wait for an external engine's `bestmove` (by default
    /// from the limits: the clock, the move time).
    pub timeout: Option<Duration>,
}

/// News for an engine that plays Bughouse. Only an external engine that
/// speaks Kibitz's Bughouse extension hears it (see `uci::bughouse`).
#[derive(Clone, Debug)]
pub enum Tell<V: Variant = Std> {
    /// Its board changed while it searches (a piece arrived); dropped when
    /// it is not searching (the next request has the board).
    Update(Board<V>),
    /// A message from its partner.
    Ptell(String),
}

/// What an engine thread is asked to do, in order.
enum Command<V: Variant> {
    Go(Box<Job<V>>),
    NewGame,
    Tell(Tell<V>),
    Quit,
}

/// A search, with the flag that stops it.
struct Job<V: Variant> {
    req: Request<V>,
    opts: GoOptions<V>,
    stop: Arc<AtomicBool>,
}

/// The game a request searches from (for repetitions).
fn position_of<V: Variant>(req: &Request<V>) -> crate::engine::GamePosition<V> {
    let mut pos = crate::engine::GamePosition::new(req.start.clone());
    for &m in &req.moves {
        pos.push(m);
    }
    pos
}

/// The name of engine threads (the panic hook treats them specially).
pub const ENGINE_THREAD: &str = "kibitz-engine";

/// A running engine thread, playing the variant `V`.
pub struct EngineHandle<V: Variant = Std> {
    tx: Sender<Command<V>>,
    /// The stop flag of the latest request.
    current: Option<Arc<AtomicBool>>,
    thread: Option<JoinHandle<()>>,
    /// Wait for the thread when dropped (see [`EngineHandle::detach_on_drop`]).
    join: bool,
    /// Set when the handle is dropped: from then on the thread reports
    /// nothing (a handshake that fails after a new engine has taken this
    /// one's place must not pass for the new engine's failure).
    gone: Arc<AtomicBool>,
}

impl EngineHandle {
    /// Starts the chess engine described by `spec`; events go to `sink`.
    pub fn spawn(spec: &EngineSpec, sink: impl Fn(EngineEvent) + Send + 'static) -> EngineHandle {
        let report = move |r: Report| match r {
            Report::Event(e) => sink(e),
            Report::NoMove { message, .. } => sink(EngineEvent::Failed { message }),
            Report::Ptell(_) => {}
        };
        EngineHandle::start(Backend::of(spec), report).unwrap_or_else(|_| {
            // No thread: requests go nowhere (the system is out of threads).
            let (tx, _) = channel();
            EngineHandle {
                tx,
                current: None,
                thread: None,
                join: true,
                gone: Arc::new(AtomicBool::new(false)),
            }
        })
    }
}

impl<V: Variant> EngineHandle<V> {
    /// Starts `backend` on its own thread; what it says goes to `report`.
    pub fn start(
        backend: Backend,
        report: impl Fn(Report) + Send + 'static,
    ) -> std::io::Result<EngineHandle<V>> {
        let (tx, rx) = channel::<Command<V>>();
        let gone = Arc::new(AtomicBool::new(false));
        let heard = gone.clone();
        let report = move |r: Report| {
            if !heard.load(Ordering::SeqCst) {
                report(r);
            }
        };
        let thread = std::thread::Builder::new()
            .name(ENGINE_THREAD.into())
            .spawn(move || run(backend, rx, &report))?;
        Ok(EngineHandle {
            tx,
            current: None,
            thread: Some(thread),
            join: true,
            gone,
        })
    }

    /// Dropping the handle then stops the engine without waiting for it:
    /// the thread ends once its search has stopped (an external engine is
    /// asked to quit and killed after 0.5 s).
    pub fn detach_on_drop(mut self) -> EngineHandle<V> {
        self.join = false;
        self
    }

    /// Starts a search; any search still running is stopped first.
    pub fn go(&mut self, req: Request<V>) {
        self.go_with(req, GoOptions::default());
    }

    /// [`EngineHandle::go`] with the partner's board or a timeout.
    pub fn go_with(&mut self, req: Request<V>, opts: GoOptions<V>) {
        self.stop();
        let stop = Arc::new(AtomicBool::new(false));
        self.current = Some(stop.clone());
        let _ = self.tx.send(Command::Go(Box::new(Job { req, opts, stop })));
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

    /// Passes Bughouse news to the engine (see [`Tell`]).
    pub fn tell(&mut self, news: Tell<V>) {
        let _ = self.tx.send(Command::Tell(news));
    }
}

impl<V: Variant> Drop for EngineHandle<V> {
    fn drop(&mut self) {
        self.gone.store(true, Ordering::SeqCst);
        self.stop();
        let _ = self.tx.send(Command::Quit);
        if let Some(t) = self.thread.take()
            && self.join
        {
            // The built-in engine stops within milliseconds; an external one
            // is asked to quit and killed after 0.5 s by UciClient's Drop.
            let _ = t.join();
        }
    }
}

/// The engine thread: runs `backend` until asked to quit.
fn run<V: Variant>(backend: Backend, rx: Receiver<Command<V>>, report: &dyn Fn(Report)) {
    // A bug in the engine must not take the app down: report it as a
    // failure (the panic hook leaves the terminal alone for this thread).
    let run = std::panic::AssertUnwindSafe(|| match backend {
        Backend::BuiltIn(level) => builtin::run(level, rx, report),
        Backend::Uci(program) => external::run(program, rx, report),
        Backend::Xboard(command) => xboard::run(command, rx, report),
        Backend::Broken(message) => report(Report::Event(EngineEvent::Failed { message })),
    });
    if let Err(panic) = std::panic::catch_unwind(run) {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown error".to_string());
        report(Report::Event(EngineEvent::Failed {
            message: format!("the engine crashed ({what})"),
        }));
    }
}

#[cfg(test)]
pub(crate) mod tests;
