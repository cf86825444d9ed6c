//! Lazy SMP: the main search thread and its helpers. Helpers search the
//! same root without an observer and share the transposition table (its
//! entries are read and written without locks); the main thread alone
//! decides when to stop and what to play.

use super::board::Board;
use super::eval::Evaluator;
use super::history::Histories;
use super::iterative::SearchResult;
use super::observer::{NoObserver, SearchObserver};
use super::position::GamePosition;
use super::score::Score;
use super::search::Searcher;
use super::time::{Limits, TimeManager};
use super::tt::TranspositionTable;
use super::variant::Variant;
use super::{Engine, tb};
use shakmaty::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// A helper thread's own tables: its histories and evaluation caches.
pub(super) struct Helper {
    pub(super) hist: Histories,
    eval: Evaluator,
}

impl Helper {
    pub(super) fn new(eval: super::EvalKind) -> Helper {
        Helper {
            hist: Histories::new(),
            eval: Evaluator::new(eval),
        }
    }

    /// A helper thread's search of `root`: until the main thread is done
    /// (or its depth limit), without an observer.
    #[allow(clippy::too_many_arguments)]
    fn search<V: Variant>(
        &mut self,
        tt: &TranspositionTable,
        root: &Board<V>,
        keys: Vec<u64>,
        limits: &Limits,
        tables: &RootTables<'_>,
        stop: &AtomicBool,
        nodes: &AtomicU64,
    ) {
        let helper_limits = Limits {
            depth: limits.depth,
            mate: limits.mate,
            infinite: true,
            searchmoves: limits.searchmoves.clone(),
            features: limits.features,
            ..Limits::default()
        };
        let time = TimeManager::new(&helper_limits, root.turn(), Duration::ZERO);
        let mut quiet = NoObserver;
        let mut searcher = Searcher::new(
            tt,
            &mut self.hist,
            &mut self.eval,
            &mut quiet,
            stop,
            time,
            u64::MAX,
            keys,
            limits.features,
        );
        searcher.tb = tables.tb;
        searcher.root_tb = tables.root_tb.clone();
        searcher.shared_nodes = Some(nodes);
        searcher.run(root, &helper_limits, 1);
    }
}

/// What the tablebases decided at the root, for every search thread: the
/// tables to probe inside the search, the root moves they allow (with
/// their scores; empty: all), and the probes the root took.
pub(super) struct RootTables<'a> {
    pub(super) tb: tb::TbAccess<'a>,
    pub(super) root_tb: Vec<(Move, Score)>,
    pub(super) root_hits: u64,
}

/// Most search threads [`Engine::set_threads`] accepts.
pub const MAX_THREADS: usize = 256;

/// One search thread per core of this machine (at most [`MAX_THREADS`]):
/// what full-strength play and analysis use unless told otherwise.
pub fn every_core() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// Stack of a search thread: deep searches recurse ~100 plies with a few
/// KB a frame, more than a default 2 MB thread stack is sure to hold.
pub const SEARCH_STACK: usize = 16 << 20;

/// Sets the flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Engine {
    /// Runs the search on this thread and, at full strength without a
    /// node limit, on the helper threads too (they share the
    /// transposition table and stop when this thread is done).
    pub(super) fn search_threads<V: Variant, O: SearchObserver>(
        &mut self,
        pos: &GamePosition<V>,
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
        obs: &mut O,
        tables: RootTables<'_>,
    ) -> SearchResult {
        let root = pos.current();
        self.tt.new_search();
        self.hist.age();
        let time = TimeManager::new(limits, root.turn(), self.options.move_overhead);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        let keys = pos.keys();
        // Weaker levels search alone: their blind spots and capped
        // quiescence are per search, and they do not need the speed. A
        // node-limited search also stays on one thread, so it is repeatable.
        let helpers = if self.strength().is_full() && limits.nodes.is_none() {
            &mut self.helpers[..]
        } else {
            &mut []
        };
        let helper_stop = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let (tt, hist, eval) = (&self.tt, &mut self.hist, &mut self.eval);
        let tables = &tables;
        std::thread::scope(|scope| {
            // Stops the helpers however this closure ends (a panic in the
            // main search included), so the scope's join cannot hang.
            let _stop_helpers = SetOnDrop(&helper_stop);
            let mut handles = Vec::new();
            for h in helpers.iter_mut() {
                h.hist.age();
                h.eval.set_kind(eval.kind());
                if let Some(net) = eval.network() {
                    h.eval.set_network(net.clone());
                }
                h.eval.set_weights(eval.weights());
                h.eval.partner = eval.partner;
                let keys = keys.clone();
                let (helper_stop, helper_nodes) = (&helper_stop, &helper_nodes);
                let spawned = std::thread::Builder::new()
                    .name("kibitz-helper".into())
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(scope, move || {
                        h.search(tt, root, keys, limits, tables, helper_stop, helper_nodes);
                    });
                match spawned {
                    Ok(handle) => handles.push(handle),
                    // The system has no more threads: search with fewer.
                    Err(_) => break,
                }
            }
            let mut searcher = Searcher::new(
                tt,
                hist,
                eval,
                obs,
                stop,
                time,
                node_limit,
                keys,
                limits.features,
            );
            searcher.tb = tables.tb;
            searcher.root_tb = tables.root_tb.clone();
            if let Some(q) = limits.qsearch_plies {
                searcher.qs_cap = q as usize;
            }
            if let Some((pct, seed)) = limits.blind_spots {
                searcher.blind_pct = pct as u64;
                searcher.blind_seed = seed;
            }
            searcher.stats.tb_hits = tables.root_hits;
            if !handles.is_empty() {
                searcher.shared_nodes = Some(&helper_nodes);
            }
            let result = searcher.run(root, limits, multipv);
            helper_stop.store(true, Ordering::Relaxed);
            for h in handles {
                // A helper that panicked only cost us its help.
                let _ = h.join();
            }
            result
        })
    }
}
