//! The built-in engine on an engine thread, in any variant.

use super::*;
use crate::engine::{Depth, Engine, EngineOptions, IterationInfo, SearchObserver};
use std::time::Instant;

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

/// Forwards each finished iteration as an `Info` event, and the root move
/// being searched as a `Progress` event at most every 50 ms.
struct Forward<'a> {
    id: u64,
    report: &'a dyn Fn(Report),
    last_progress: Option<Instant>,
}

impl SearchObserver for Forward<'_> {
    fn iteration(&mut self, info: &IterationInfo) {
        (self.report)(Report::Event(EngineEvent::Info {
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
        }));
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
        (self.report)(Report::Event(EngineEvent::Progress {
            id: self.id,
            progress: Progress {
                depth: depth.max(0) as u32,
                mv,
                number: index + 1,
                count,
            },
        }));
    }
}

/// Runs the built-in engine at `level` (`None`: full strength) until asked
/// to quit.
pub(super) fn run<V: Variant>(
    level: Option<Level>,
    rx: Receiver<Command<V>>,
    report: &dyn Fn(Report),
) {
    let mut engine = Engine::new(EngineOptions::default());
    attach_tables(&mut engine);
    let play_level = level.unwrap_or(Level::MAX);
    report(Report::Event(EngineEvent::Ready {
        name: format!("Kibitz {}", env!("CARGO_PKG_VERSION")),
    }));
    while let Ok(cmd) = rx.recv() {
        match cmd {
            Command::Quit => break,
            Command::NewGame => engine.new_game(),
            // It plays each board on its own: Bughouse news is for the
            // partner-aware `kibitz uci`.
            Command::Tell(_) => {}
            Command::Go(job) => search(&mut engine, play_level, &job, report),
        }
    }
}

/// One search, reported as it goes and when done.
fn search<V: Variant>(
    engine: &mut Engine,
    play_level: Level,
    job: &Job<V>,
    report: &dyn Fn(Report),
) {
    let req = &job.req;
    // Hints and analysis are always at full strength.
    engine.set_level(match req.purpose {
        Purpose::Move => play_level,
        Purpose::Hint | Purpose::Analysis | Purpose::Check => Level::MAX,
    });
    engine.set_multipv(req.multipv.max(1));
    attach_tables(engine);
    let pos = position_of(req);
    let mut forward = Forward {
        id: req.id,
        report,
        last_progress: None,
    };
    let r = engine.search(&pos, &req.limits, &job.stop, &mut forward);
    report(Report::Event(EngineEvent::Done {
        id: req.id,
        purpose: req.purpose,
        best: r.best_move,
        score: Some(r.result.score),
        pv: r.result.pv,
    }));
}
