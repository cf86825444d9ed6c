//! The engines of every game, by table (one game) and seat: the chess
//! opponent, the seats of a Crazyhouse or Bughouse game, and the
//! assistant (Kibitz at full strength, for hints and analysis). Each is
//! an [`EngineHandle`] on its own thread, playing the game's variant:
//! Kibitz itself (in the process for chess; its `uci` for the drop
//! variants, which speaks Kibitz's Bughouse extension), any other UCI
//! program (`UCI_Variant` for the drop variants), or an XBoard program such
//! as Sjeng (`xboard:CMD`), which gets its hand and its partner's messages
//! as on a chess server.
//!
//! The app sends [`EngineJob`]s for a table; what an engine says comes back
//! as [`Report`]s with its table and seat, so no frame ever waits on an
//! engine, and a game's jobs reach only its own engines: a new game
//! starting while the last one's engines quit keeps its own.

use crate::engine::variant::{ForVariant, dispatch};
use crate::engine::{Board, Limits, Variant};
use crate::uci::client::{UciClient, split_command};
use crate::uci::xboard::is_xboard_command;
use crate::ui::player::{
    Backend, EngineEvent, EngineHandle, EngineSpec, GoOptions, Purpose, Report, Request, Tell,
    UciProgram, UciSetup, lists_option,
};
use crate::variant::VariantKind;
use shakmaty::Move;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The table of the app's own engines: the assistant that gives hints,
/// analyses and checks moves on the chess screens. Games get tables of
/// their own (ids from [`crate::ui::state::Shared::new_id`], never 0).
pub const APP_TABLE: u64 = 0;

/// The seat of a table's assistant (seats 0 to 3 are the players: board
/// * 2 + colour, White 0, Black 1).
pub const ASSISTANT: usize = 4;

/// No request is waiting for an answer.
const NO_REQUEST: u64 = u64::MAX;

/// Work for the engines of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineJob {
    /// Start the engine of `seat` (one that sat there goes). In Bughouse,
    /// `partner_human`: its partner is a person, who reads its messages
    /// (Kibitz then plays for its partner).
    Start {
        seat: usize,
        spec: EngineSpec,
        kind: VariantKind,
        partner_human: bool,
    },
    /// Search, and answer with `Done` (or only `Info`, until stopped).
    Go { seat: usize, go: Box<Go> },
    /// A new game begins for the engine of `seat` (its hash tables clear).
    NewGame { seat: usize },
    /// This seat's board changed while it thinks (a piece arrived).
    Update { seat: usize, fen: String },
    /// A message from the partner.
    Ptell { seat: usize, text: String },
    /// Stop thinking (the answer is dropped).
    Stop { seat: usize },
    /// The game is over or gone: its engines go.
    QuitAll,
}

impl EngineJob {
    /// Starts a table's assistant: Kibitz at full strength.
    pub fn assistant(kind: VariantKind) -> EngineJob {
        EngineJob::Start {
            seat: ASSISTANT,
            spec: EngineSpec::BuiltIn { level: 8 },
            kind,
            partner_human: false,
        }
    }

    /// The seat the job is for (none: the whole table).
    pub fn seat(&self) -> Option<usize> {
        match self {
            EngineJob::Start { seat, .. }
            | EngineJob::Go { seat, .. }
            | EngineJob::NewGame { seat }
            | EngineJob::Update { seat, .. }
            | EngineJob::Ptell { seat, .. }
            | EngineJob::Stop { seat } => Some(*seat),
            EngineJob::QuitAll => None,
        }
    }
}

/// A search: the position (a FEN of the game's variant, then moves, so
/// the engine knows the repetitions), what for, and how long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Go {
    pub id: u64,
    pub purpose: Purpose,
    /// Lines to report (MultiPV).
    pub multipv: usize,
    pub fen: String,
    pub moves: Vec<Move>,
    pub limits: Limits,
    /// Bughouse: the partner's board, and its clocks (White's, Black's).
    pub partner_fen: Option<String>,
    pub partner_clock: Option<[Duration; 2]>,
    /// How long to wait for an external engine's answer (by default from
    /// the limits).
    pub timeout: Option<Duration>,
}

impl Go {
    /// A chess search of `req`.
    pub fn of<V: Variant>(req: Request<V>) -> Go {
        Go {
            id: req.id,
            purpose: req.purpose,
            multipv: req.multipv,
            fen: req.start.fen(),
            moves: req.moves,
            limits: req.limits,
            partner_fen: None,
            partner_clock: None,
            timeout: None,
        }
    }

    /// The request of this search in the variant `V` (an error when the
    /// FEN is not one of `V`).
    pub fn request<V: Variant>(&self) -> Result<Request<V>, String> {
        let start =
            Board::<V>::from_variant_fen(&self.fen).map_err(|e| format!("{}: {e}", self.fen))?;
        Ok(Request {
            id: self.id,
            purpose: self.purpose,
            multipv: self.multipv,
            start,
            moves: self.moves.clone(),
            limits: self.limits.clone(),
        })
    }
}

/// The running engines by table and seat.
#[derive(Default)]
pub struct Engines {
    seats: HashMap<(u64, usize), Box<dyn SeatEngine>>,
}

impl Engines {
    /// Carries out `job` for the game at `table`; what its engines say goes
    /// to `send(seat, report)`.
    pub fn handle<F>(&mut self, table: u64, job: EngineJob, send: F)
    where
        F: Fn(usize, Report) + Send + Clone + 'static,
    {
        match job {
            EngineJob::Start {
                seat,
                spec,
                kind,
                partner_human,
            } => {
                let start = Start {
                    seat,
                    spec,
                    kind,
                    partner_human,
                    send: send.clone(),
                };
                // A seat's old engine, if any, goes (without waiting for it).
                self.seats.remove(&(table, seat));
                match dispatch(kind, start) {
                    Ok(engine) => {
                        self.seats.insert((table, seat), engine);
                    }
                    Err(e) => send(seat, failed(e.to_string())),
                }
            }
            EngineJob::QuitAll => self.seats.retain(|&(t, _), _| t != table),
            job => {
                let Some(seat) = job.seat() else { return };
                match self.seats.get_mut(&(table, seat)) {
                    Some(e) => {
                        if let Err(why) = e.handle(job) {
                            send(seat, failed(why));
                        }
                    }
                    // A search for a seat with no engine is never answered:
                    // said at once.
                    None if matches!(job, EngineJob::Go { .. }) => {
                        send(seat, failed("no engine was started for this seat".into()));
                    }
                    None => {}
                }
            }
        }
    }

    /// The seats whose engines run, by table (sorted).
    pub fn running(&self) -> Vec<(u64, usize)> {
        let mut v: Vec<_> = self.seats.keys().copied().collect();
        v.sort_unstable();
        v
    }
}

fn failed(message: String) -> Report {
    Report::Event(EngineEvent::Failed { message })
}

/// A seat's engine, whatever the variant.
trait SeatEngine {
    /// Carries out a job for the seat (`Go`, `NewGame`, `Update`, `Ptell`,
    /// `Stop`); an error when its position is not one of the game's
    /// variant.
    fn handle(&mut self, job: EngineJob) -> Result<(), String>;
}

/// The engine of a seat in the variant `V`.
struct Seat<V: Variant> {
    engine: EngineHandle<V>,
    /// The request whose answer is wanted: the answers of stopped and
    /// superseded searches are dropped.
    wanted: Arc<AtomicU64>,
}

impl<V: Variant> SeatEngine for Seat<V> {
    fn handle(&mut self, job: EngineJob) -> Result<(), String> {
        let board =
            |fen: &str| Board::<V>::from_variant_fen(fen).map_err(|e| format!("{fen}: {e}"));
        match job {
            EngineJob::Go { go, .. } => {
                let req = go.request::<V>()?;
                let opts = GoOptions {
                    partner: go.partner_fen.as_deref().and_then(|f| board(f).ok()),
                    partner_clock: go.partner_clock,
                    timeout: go.timeout,
                };
                self.wanted.store(go.id, Ordering::SeqCst);
                self.engine.go_with(req, opts);
            }
            EngineJob::NewGame { .. } => self.engine.new_game(),
            EngineJob::Update { fen, .. } => {
                if let Ok(b) = board(&fen) {
                    self.engine.tell(Tell::Update(b));
                }
            }
            EngineJob::Ptell { text, .. } => self.engine.tell(Tell::Ptell(text)),
            EngineJob::Stop { .. } => {
                self.wanted.store(NO_REQUEST, Ordering::SeqCst);
                self.engine.stop();
            }
            EngineJob::Start { .. } | EngineJob::QuitAll => {}
        }
        Ok(())
    }
}

/// Starts the engine of a seat (see [`dispatch`]).
struct Start<F> {
    seat: usize,
    spec: EngineSpec,
    kind: VariantKind,
    partner_human: bool,
    send: F,
}

impl<F> ForVariant for Start<F>
where
    F: Fn(usize, Report) + Send + Clone + 'static,
{
    type Out = std::io::Result<Box<dyn SeatEngine>>;

    fn run<V: Variant>(self) -> Self::Out {
        let wanted = Arc::new(AtomicU64::new(NO_REQUEST));
        let backend = match &self.spec {
            // Chess: the built-in engine runs in this process.
            _ if self.kind == VariantKind::Chess => Backend::of(&self.spec),
            // An XBoard engine (`xboard:CMD`) has no UCI options to set.
            EngineSpec::External { command } if is_xboard_command(command) => {
                Backend::of(&self.spec)
            }
            _ => Backend::Uci(UciProgram {
                command: command(&self.spec),
                setup: Some(setup(&self.spec, V::BUGHOUSE, self.partner_human)),
            }),
        };
        let report = answers(self.seat, wanted.clone(), self.send);
        let mut engine = EngineHandle::<V>::start(backend, report)?.detach_on_drop();
        engine.new_game();
        Ok(Box::new(Seat { engine, wanted }))
    }
}

/// The command line of an engine seat of a drop variant.
fn command(spec: &EngineSpec) -> Vec<String> {
    match spec {
        EngineSpec::External { command } => split_command(command),
        _ => {
            let exe = std::env::current_exe()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| "kibitz".into());
            vec![exe, "uci".into()]
        }
    }
}

/// The options of a seat's engine: Kibitz's level; no endgame tables (they
/// are for chess); in Bughouse, whether it plays with a person, to whom it
/// talks at a human pace.
fn setup(spec: &EngineSpec, bughouse: bool, partner_human: bool) -> UciSetup {
    let level = match spec {
        EngineSpec::BuiltIn { level } => Some(*level),
        _ => None,
    };
    Box::new(move |client: &mut UciClient| {
        if let Some(level) = level {
            client.set_option("Level", &level.to_string())?;
        }
        if lists_option(client, "OwnTablebases") {
            client.set_option("OwnTablebases", "false")?;
        }
        if bughouse && lists_option(client, "BughousePartner") {
            let on = if partner_human { "true" } else { "false" };
            client.set_option("BughousePartner", on)?;
            if partner_human {
                client.set_option("BughousePace", "human")?;
            }
        }
        Ok(())
    })
}

/// What a seat's engine reports, passed on but for the answers to
/// searches stopped or superseded.
fn answers<F>(seat: usize, wanted: Arc<AtomicU64>, send: F) -> impl Fn(Report) + Send + 'static
where
    F: Fn(usize, Report) + Send + 'static,
{
    move |report| {
        let id = match &report {
            Report::Event(EngineEvent::Done { id, .. } | EngineEvent::IllegalMove { id, .. })
            | Report::NoMove { id, .. } => Some(*id),
            _ => None,
        };
        if id.is_none_or(|id| wanted.load(Ordering::SeqCst) == id) {
            send(seat, report);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::engine::Clock;
    use crate::ui::player::tests::{fake_engine, heard, remove_fake};
    use std::sync::mpsc::{Receiver, channel};

    /// What the tests look at in a report.
    #[derive(Clone, Debug, PartialEq, Eq)]
    enum EngineNews {
        Best {
            id: u64,
            uci: String,
        },
        Ptell(String),
        Name(String),
        Info {
            id: u64,
            depth: u32,
            score: crate::engine::Score,
            nodes: u64,
            pv: Vec<String>,
        },
        Failed(String),
    }

    /// A report as the tests' news (none for what they do not look at).
    fn digest(report: Report) -> Option<EngineNews> {
        let uci = |m: Move| m.to_uci(shakmaty::CastlingMode::Standard).to_string();
        Some(match report {
            Report::Event(EngineEvent::Ready { name }) => EngineNews::Name(name),
            Report::Event(EngineEvent::Info { id, line }) => {
                let score = line
                    .score
                    .filter(|_| line.multipv <= 1 && !line.pv.is_empty())?;
                EngineNews::Info {
                    id,
                    depth: line.depth,
                    score,
                    nodes: line.nodes,
                    pv: line.pv.into_iter().map(uci).collect(),
                }
            }
            Report::Event(EngineEvent::Done { id, best, .. }) => EngineNews::Best {
                id,
                uci: best.map_or_else(|| "0000".into(), uci),
            },
            Report::Event(EngineEvent::IllegalMove { id, text })
            | Report::NoMove { id, text, .. } => EngineNews::Best { id, uci: text },
            Report::Event(EngineEvent::Failed { message }) => EngineNews::Failed(message),
            Report::Ptell(text) => EngineNews::Ptell(text),
            Report::Event(EngineEvent::Progress { .. }) => return None,
        })
    }

    fn news(rx: &Receiver<(usize, Report)>) -> EngineNews {
        loop {
            let (seat, report) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
            assert_eq!(seat, 2);
            if let Some(news) = digest(report) {
                return news;
            }
        }
    }

    /// A clock: White's and Black's time, the increment.
    fn clock(w: u64, b: u64, inc: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                wtime: Some(Duration::from_secs(w)),
                btime: Some(Duration::from_secs(b)),
                winc: Duration::from_secs(inc),
                binc: Duration::from_secs(inc),
                movestogo: None,
            }),
            ..Limits::default()
        }
    }

    fn search(id: u64, fen: &str, partner_fen: Option<String>, limits: Limits) -> EngineJob {
        let purpose = if limits.infinite {
            Purpose::Analysis
        } else {
            Purpose::Move
        };
        EngineJob::Go {
            seat: 2,
            go: Box::new(Go {
                id,
                purpose,
                multipv: 1,
                fen: fen.into(),
                moves: Vec::new(),
                limits,
                partner_fen,
                partner_clock: None,
                timeout: None,
            }),
        }
    }

    fn go(id: u64, infinite: bool) -> EngineJob {
        let start = Board::<crate::engine::Bug>::start_position().fen();
        let limits = if infinite {
            Limits {
                infinite: true,
                ..Limits::default()
            }
        } else {
            clock(60, 50, 2)
        };
        search(id, &start, Some(start.clone()), limits)
    }

    #[test]
    fn a_bughouse_seat_talks_and_drops_stopped_answers() {
        let (command, log) = fake_engine("house");
        let (tx, rx) = channel();
        let send = move |seat, news| {
            let _ = tx.send((seat, news));
        };
        let mut engines = Engines::default();
        engines.handle(
            1,
            EngineJob::Start {
                seat: 2,
                spec: EngineSpec::External { command },
                kind: VariantKind::Bughouse,
                partner_human: true,
            },
            send.clone(),
        );
        assert_eq!(news(&rx), EngineNews::Name("Fake".into()));
        engines.handle(1, go(1, false), send.clone());
        let pv = vec!["e2e4".to_string(), "e7e5".to_string()];
        let info = |id| EngineNews::Info {
            id,
            depth: 1,
            score: crate::engine::Score(12),
            nodes: 5,
            pv: pv.clone(),
        };
        assert_eq!(news(&rx), info(1));
        let best = EngineNews::Best {
            id: 1,
            uci: "e2e4".into(),
        };
        assert_eq!(news(&rx), best);
        // Analysis, stopped: its answer is dropped.
        engines.handle(1, go(2, true), send.clone());
        assert_eq!(news(&rx), EngineNews::Ptell("need N".into()));
        assert_eq!(news(&rx), info(2));
        engines.handle(1, EngineJob::Stop { seat: 2 }, send.clone());
        // Superseded: the same.
        engines.handle(1, go(3, true), send.clone());
        assert_eq!(news(&rx), EngineNews::Ptell("need N".into()));
        assert_eq!(news(&rx), info(3));
        engines.handle(1, go(4, false), send.clone());
        assert_eq!(news(&rx), info(4));
        assert_eq!(
            news(&rx),
            EngineNews::Best {
                id: 4,
                uci: "e2e4".into()
            }
        );
        engines.handle(1, EngineJob::QuitAll, send);
        // The engine goes by itself.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while heard(&log).last().map(String::as_str) != Some("quit") {
            assert!(std::time::Instant::now() < deadline, "{:?}", heard(&log));
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(rx.try_recv().is_err());
        let fen = Board::<crate::engine::Bug>::start_position().fen();
        let clock = "go wtime 60000 btime 50000 winc 2000 binc 2000";
        let partner = format!("bughouse partner fen {fen}");
        assert_eq!(
            heard(&log),
            [
                "uci",
                "setoption name UCI_Variant value bughouse",
                "setoption name BughousePartner value true",
                "setoption name BughousePace value human",
                "isready",
                "ucinewgame",
                "isready",
                "position startpos",
                &partner,
                clock,
                "position startpos",
                &partner,
                "go infinite",
                "stop",
                "position startpos",
                &partner,
                "go infinite",
                "stop",
                "position startpos",
                &partner,
                clock,
                "quit",
            ]
        );
        remove_fake(&log);
    }

    /// News until `pred` holds for one (others are kept in `seen`).
    fn wait_for(
        rx: &Receiver<(usize, Report)>,
        seen: &mut Vec<EngineNews>,
        pred: impl Fn(&EngineNews) -> bool,
    ) -> EngineNews {
        loop {
            let n = news(rx);
            if pred(&n) {
                return n;
            }
            seen.push(n);
        }
    }

    #[test]
    fn an_xboard_seat_gets_moves_hands_and_messages() {
        use crate::uci::xboard::fake::fake_xboard;
        let (command, log) = fake_xboard("house", "");
        let (tx, rx) = channel();
        let send = move |seat, news| {
            let _ = tx.send((seat, news));
        };
        let mut engines = Engines::default();
        let start = |command: String| EngineJob::Start {
            seat: 2,
            spec: EngineSpec::External { command },
            kind: VariantKind::Bughouse,
            partner_human: true,
        };
        engines.handle(1, start(command), send.clone());
        assert_eq!(news(&rx), EngineNews::Name("FakeX".into()));
        engines.handle(1, go(1, false), send.clone());
        let mut seen = Vec::new();
        let best = wait_for(&rx, &mut seen, |n| matches!(n, EngineNews::Best { .. }));
        assert_eq!(
            best,
            EngineNews::Best {
                id: 1,
                uci: "e2e4".into()
            }
        );
        assert!(
            seen.contains(&EngineNews::Ptell("need n".into())),
            "{seen:?}"
        );
        assert!(
            seen.iter()
                .any(|n| matches!(n, EngineNews::Info { pv, .. } if pv == &["e2e4"]))
        );
        // The partner talks; the engine answers between searches.
        engines.handle(
            1,
            EngineJob::Ptell {
                seat: 2,
                text: "+n".into(),
            },
            send.clone(),
        );
        let answer = wait_for(
            &rx,
            &mut seen,
            |n| matches!(n, EngineNews::Ptell(t) if t.starts_with("heard")),
        );
        assert_eq!(answer, EngineNews::Ptell("heard +n".into()));
        // 1. e4 e5, and a pawn from the partner: the engine drops it.
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[P] w KQkq - 0 2";
        engines.handle(1, search(2, fen, None, clock(60, 60, 0)), send.clone());
        let best = wait_for(&rx, &mut seen, |n| matches!(n, EngineNews::Best { .. }));
        assert_eq!(
            best,
            EngineNews::Best {
                id: 2,
                uci: "P@d4".into()
            }
        );
        engines.handle(1, EngineJob::QuitAll, send.clone());
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while heard(&log).last().map(String::as_str) != Some("quit") {
            assert!(std::time::Instant::now() < deadline, "{:?}", heard(&log));
            std::thread::sleep(Duration::from_millis(20));
        }
        let lines = heard(&log);
        for want in [
            "variant bughouse",
            "ptell +n",
            "usermove e7e5",
            "holding [P] []",
            "time 6000",
        ] {
            assert!(lines.iter().any(|l| l == want), "{want}: {lines:?}");
        }
        // Only the one move was sent: the game was not set up again.
        assert_eq!(lines.iter().filter(|l| *l == "new").count(), 1, "{lines:?}");
        remove_fake(&log);

        // An engine that dies: a clear failure, no move.
        let (command, log) = fake_xboard("house-dies", "die");
        engines.handle(1, start(command), send.clone());
        assert_eq!(news(&rx), EngineNews::Name("FakeX".into()));
        engines.handle(1, go(3, false), send.clone());
        let failed = wait_for(&rx, &mut Vec::new(), |n| matches!(n, EngineNews::Failed(_)));
        let EngineNews::Failed(why) = failed else {
            unreachable!()
        };
        assert!(why.contains("closed its output"), "{why}");
        engines.handle(1, EngineJob::QuitAll, send);
        remove_fake(&log);

        // No command after the prefix: said so at once.
        let (tx, rx) = channel();
        let send = move |seat, news| {
            let _ = tx.send((seat, news));
        };
        engines.handle(1, start("xboard:".into()), send);
        let EngineNews::Failed(why) = news(&rx) else {
            panic!("no failure")
        };
        assert!(why.contains("needs the engine's command"), "{why}");
    }
}
