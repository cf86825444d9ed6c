//! The engines of a Crazyhouse or Bughouse game, one per engine seat, each
//! a process for the whole game on an engine thread of [`EngineHandle`],
//! the same as the chess screen's: Kibitz itself (this program's `uci`,
//! which speaks both variants and Kibitz's Bughouse extension), any other
//! UCI program that knows `UCI_Variant`, or an XBoard program such as
//! Sjeng (`xboard:CMD`), which gets its hand and its partner's messages as
//! on a chess server. The app sends
//! [`EngineJob`]s; answers come back as [`EngineNews`] through `send`, so
//! no frame ever waits on an engine.

use super::live::{EngineJob, EngineNews};
use crate::engine::variant::{ForVariant, dispatch};
use crate::engine::{Board, Clock, Limits, Variant};
use crate::uci::client::{UciClient, split_command};
use crate::uci::xboard::is_xboard_command;
use crate::ui::player::{
    Backend, EngineEvent, EngineHandle, EngineSpec, GoOptions, Purpose, Report, Request, Tell,
    UciProgram, UciSetup, lists_option,
};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long an engine may think about a move before it counts as hung
/// (the game's clock judges it long before).
const PATIENCE: Duration = Duration::from_secs(3600);

/// No request is waiting for an answer.
const NO_REQUEST: u64 = u64::MAX;

/// The running engines by table (one live game) and seat. A game's jobs
/// reach only its own engines: a new game starting while the last one's
/// engines quit keeps its own.
#[derive(Default)]
pub struct Engines {
    seats: HashMap<(u64, usize), Box<dyn SeatEngine>>,
}

impl Engines {
    /// Carries out `job` for the game at `table`; news goes to
    /// `send(seat, news)`.
    pub fn handle<F>(&mut self, table: u64, job: EngineJob, send: F)
    where
        F: Fn(usize, EngineNews) + Send + Clone + 'static,
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
                    partner_human,
                    send: send.clone(),
                };
                // A seat's old engine, if any, goes (without waiting for it).
                self.seats.remove(&(table, seat));
                match dispatch(kind, start) {
                    Ok(engine) => {
                        self.seats.insert((table, seat), engine);
                    }
                    Err(e) => send(seat, EngineNews::Failed(e.to_string())),
                }
            }
            EngineJob::QuitAll => self.seats.retain(|&(t, _), _| t != table),
            EngineJob::Go { seat, .. }
            | EngineJob::Update { seat, .. }
            | EngineJob::Ptell { seat, .. }
            | EngineJob::Stop { seat } => {
                if let Some(e) = self.seats.get_mut(&(table, seat))
                    && let Err(why) = e.handle(job)
                {
                    send(seat, EngineNews::Failed(why));
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

/// A seat's engine, whatever the variant.
trait SeatEngine {
    /// Carries out a job for the seat (`Go`, `Update`, `Ptell`, `Stop`);
    /// an error when its position is not one of the game's variant.
    fn handle(&mut self, job: EngineJob) -> Result<(), String>;
}

/// The engine of a seat in the variant `V`.
struct Seat<V: Variant> {
    engine: EngineHandle<V>,
    /// The request whose answer is wanted: the answers of stopped and
    /// superseded searches are dropped.
    wanted: Arc<AtomicU64>,
    /// The seat's own limits (custom limits).
    limits: Limits,
}

impl<V: Variant> SeatEngine for Seat<V> {
    fn handle(&mut self, job: EngineJob) -> Result<(), String> {
        let board =
            |fen: &str| Board::<V>::from_variant_fen(fen).map_err(|e| format!("{fen}: {e}"));
        match job {
            EngineJob::Go {
                id,
                fen,
                partner_fen,
                wtime,
                btime,
                inc,
                infinite,
                ..
            } => {
                let req = Request {
                    id,
                    purpose: if infinite {
                        Purpose::Analysis
                    } else {
                        Purpose::Move
                    },
                    multipv: 1,
                    start: board(&fen)?,
                    moves: Vec::new(),
                    limits: self.limits(wtime.zip(btime), inc, infinite),
                };
                // Without a clock, a move's time (and a grace) is all an
                // engine gets before it counts as failed.
                let timed = wtime.is_some() || infinite;
                let opts = GoOptions {
                    partner: partner_fen.and_then(|f| board(&f).ok()),
                    timeout: timed.then_some(PATIENCE),
                };
                self.wanted.store(id, Ordering::SeqCst);
                self.engine.go_with(req, opts);
            }
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

impl<V: Variant> Seat<V> {
    /// A move's limits: the seat's own, and the clock, which replaces
    /// `infinite`; a second when nothing else limits it.
    fn limits(&self, clock: Option<(Duration, Duration)>, inc: Duration, infinite: bool) -> Limits {
        let mut limits = self.limits.clone();
        match clock {
            Some((w, b)) => {
                limits.clock = Some(Clock {
                    wtime: Some(w),
                    btime: Some(b),
                    winc: inc,
                    binc: inc,
                    movestogo: None,
                })
            }
            None => limits.infinite = infinite,
        }
        if !limits.infinite
            && limits.clock.is_none()
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
        {
            limits.movetime = Some(Duration::from_secs(1));
        }
        limits
    }
}

/// Starts the engine of a seat (see [`dispatch`]).
struct Start<F> {
    seat: usize,
    spec: EngineSpec,
    partner_human: bool,
    send: F,
}

impl<F> ForVariant for Start<F>
where
    F: Fn(usize, EngineNews) + Send + Clone + 'static,
{
    type Out = std::io::Result<Box<dyn SeatEngine>>;

    fn run<V: Variant>(self) -> Self::Out {
        let wanted = Arc::new(AtomicU64::new(NO_REQUEST));
        let program = UciProgram {
            command: command(&self.spec),
            setup: Some(setup(&self.spec, V::BUGHOUSE, self.partner_human)),
        };
        let backend = match &self.spec {
            // An XBoard engine (`xboard:CMD`) has no UCI options to set.
            EngineSpec::External { command } if is_xboard_command(command) => {
                Backend::of(&self.spec)
            }
            _ => Backend::Uci(program),
        };
        let external = matches!(self.spec, EngineSpec::External { .. });
        let news = news(self.seat, external, wanted.clone(), self.send);
        let mut engine = EngineHandle::<V>::start(backend, news)?.detach_on_drop();
        engine.new_game();
        Ok(Box::new(Seat {
            engine,
            wanted,
            limits: self.spec.move_limits(),
        }))
    }
}

/// The command line of an engine seat.
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

/// What a seat's engine reports, as the game's news.
fn news<F>(
    seat: usize,
    external: bool,
    wanted: Arc<AtomicU64>,
    send: F,
) -> impl Fn(Report) + Send + 'static
where
    F: Fn(usize, EngineNews) + Send + 'static,
{
    move |report| {
        // The move, as the engine wrote it (the game judges it).
        let answer = |id: u64, uci: String| {
            if wanted.load(Ordering::SeqCst) == id {
                send(seat, EngineNews::Best { id, uci });
            }
        };
        match report {
            Report::Event(EngineEvent::Ready { name }) if external => {
                send(seat, EngineNews::Name(name));
            }
            Report::Event(EngineEvent::Info { id, line }) => {
                if let Some(score) = line.score
                    && line.multipv == 1
                    && !line.pv.is_empty()
                {
                    let pv = line.pv.iter().map(|&m| Board::uci(m)).collect();
                    let (depth, nodes) = (line.depth, line.nodes);
                    send(
                        seat,
                        EngineNews::Info {
                            id,
                            depth,
                            score,
                            nodes,
                            pv,
                        },
                    );
                }
            }
            Report::Event(EngineEvent::Done { id, best, .. }) => {
                answer(id, best.map_or_else(|| "0000".to_string(), Board::uci));
            }
            Report::Event(EngineEvent::IllegalMove { id, text })
            | Report::NoMove { id, text, .. } => answer(id, text),
            Report::Event(EngineEvent::Failed { message }) => {
                send(seat, EngineNews::Failed(message));
            }
            Report::Ptell(text) => send(seat, EngineNews::Ptell(text)),
            Report::Event(EngineEvent::Ready { .. } | EngineEvent::Progress { .. }) => {}
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::ui::player::tests::{fake_engine, heard, remove_fake};
    use crate::variant::VariantKind;
    use std::sync::mpsc::{Receiver, channel};

    fn news(rx: &Receiver<(usize, EngineNews)>) -> EngineNews {
        let (seat, news) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(seat, 2);
        news
    }

    fn go(id: u64, infinite: bool) -> EngineJob {
        let start = Board::<crate::engine::Bug>::start_position().fen();
        EngineJob::Go {
            seat: 2,
            id,
            fen: start.clone(),
            partner_fen: Some(start),
            wtime: (!infinite).then_some(Duration::from_secs(60)),
            btime: (!infinite).then_some(Duration::from_secs(50)),
            inc: Duration::from_secs(2),
            infinite,
        }
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
        rx: &Receiver<(usize, EngineNews)>,
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
        engines.handle(
            1,
            EngineJob::Go {
                seat: 2,
                id: 2,
                fen: fen.into(),
                partner_fen: None,
                wtime: Some(Duration::from_secs(60)),
                btime: Some(Duration::from_secs(60)),
                inc: Duration::ZERO,
                infinite: false,
            },
            send.clone(),
        );
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
