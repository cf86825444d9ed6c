//! The chess engine. It knows nothing about terminals or protocols: give it
//! a position and limits, get a move, a score and a principal variation, and
//! watch it work through a [`SearchObserver`].
//!
//! # Layers
//!
//! Imports go one way only, from a layer to the ones above it in this list
//! (lowest first); nothing imports a module further down:
//!
//! 1. Plain values: `score` (scores, bounds, [`Line`]), `tapered` (the
//!    packed middlegame/endgame pair), `params`.
//! 2. Evaluation data: the weight tables (`eval/weights.rs`,
//!    `zh_weights.rs`, `level_weights.rs`, generated) and their layout
//!    (`eval/layout.rs`), with the board-free evaluation on shakmaty
//!    positions (`eval/mod.rs`, `full.rs`, `simple.rs`, `masks.rs`).
//! 3. `variant`: the rules of each variant. It knows neither the board type
//!    nor the evaluation.
//! 4. `psqt`: the material + piece-square table of each variant, which
//!    the board sums move by move.
//! 5. `board` (and `movegen`, `see`): the engine's position.
//! 6. The evaluation of a board: `eval/dispatch.rs` (which evaluation a
//!    variant uses) and `eval/zh.rs` (the drop variants' terms).
//! 7. Search support: `tt`, `history`, `movepick`, `observer`, `tb`.
//! 8. The search: `search/` (one node), `qsearch.rs`, `iterative.rs` (the
//!    root and iterative deepening).
//! 9. This module (the [`Engine`]), `position` (the game searched),
//!    `smp` (the helper threads), `levels`, `tree`, `bench`.

pub mod bench;
pub mod board;
pub mod book;
pub mod eval;
pub mod history;
mod iterative;
mod largemem;
pub mod levels;
pub mod movegen;
pub mod movepick;
pub mod observer;
pub mod params;
pub mod partner;
pub mod perft;
mod position;
pub mod psqt;
mod qsearch;
pub mod score;
mod search;
pub mod see;
mod smp;
pub mod tapered;
mod tb;
pub mod time;
pub mod tree;
pub mod tt;
pub mod variant;

pub use board::{Board, BugBoard, CheckInfo, FenError, ZhBoard};
pub use eval::{EvalKind, EvalTrace};
pub use iterative::SearchResult;
pub use levels::{Level, Strength};
pub use observer::{
    CountingObserver, IterationInfo, NoObserver, NodeInfo, NodeKind, Prune, Research,
    SearchObserver, SearchStats,
};
pub use position::GamePosition;
pub use score::{Bound, Depth, Line, Ply, Score};
pub use smp::{MAX_THREADS, SEARCH_STACK, every_core};
pub use time::{Clock, Features, Limits};
pub use variant::{Bug, Std, Variant, Zh};

use crate::tablebase::Tablebases;
use crate::tablebase::syzygy::{SyzygyPathError, SyzygyTables};
use crate::util::Rng;
use book::Book;
use eval::Evaluator;
use history::Histories;
use shakmaty::{Move, Position};
use smp::{Helper, RootTables};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tt::TranspositionTable;

/// Engine settings (the UCI options).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub multipv: usize,
    pub eval: EvalKind,
    pub move_overhead: Duration,
    pub own_book: bool,
    pub book_file: Option<PathBuf>,
    pub level: Level,
    /// A playing strength by Elo (`UCI_LimitStrength` with `UCI_Elo`);
    /// when set it replaces `level`.
    pub elo: Option<u32>,
    /// Syzygy directories, separated by `:` (`;` on Windows); empty = none.
    /// [`Engine::new`] opens them and ignores errors; use
    /// [`Engine::set_syzygy_path`] to see them.
    pub syzygy_path: String,
    /// Search threads (Lazy SMP: helpers share the transposition table).
    /// Only full strength without a node limit uses more than one.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: TranspositionTable::DEFAULT_MB,
            multipv: 1,
            eval: EvalKind::Nnue,
            move_overhead: Duration::from_millis(10),
            own_book: false,
            book_file: None,
            level: Level::MAX,
            elo: None,
            syzygy_path: String::new(),
            threads: 1,
        }
    }
}

/// How the engine chose its move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveSource {
    Search,
    Book,
    /// A strength level picked a weaker move than the search's best.
    Level,
    /// Our own tablebases decided (the fastest mate or the longest
    /// resistance); no search was needed.
    Tablebase,
}

/// The result of [`Engine::search`].
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// The move to play (`None` when there is no legal move).
    pub best_move: Option<Move>,
    pub source: MoveSource,
    pub result: SearchResult,
}

pub struct Engine {
    tt: TranspositionTable,
    hist: Histories,
    eval: Evaluator,
    options: EngineOptions,
    book: Option<Book>,
    rng: Rng,
    tablebases: Option<Arc<Tablebases>>,
    syzygy: Option<Arc<SyzygyTables>>,
    /// What each helper thread keeps between searches (`threads - 1`).
    helpers: Vec<Helper>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(EngineOptions::default())
    }
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        let syzygy_path = options.syzygy_path.clone();
        let mut engine = Engine {
            tt: TranspositionTable::new(options.hash_mb),
            hist: Histories::new(),
            eval: Evaluator::new(options.eval),
            options,
            book: None,
            rng: Rng::from_entropy(),
            tablebases: None,
            syzygy: None,
            helpers: Vec::new(),
        };
        engine.set_level(engine.options.level);
        let threads = engine.options.threads;
        engine.set_threads(threads);
        if !syzygy_path.is_empty() {
            let _ = engine.set_syzygy_path(&syzygy_path);
        }
        engine
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Fixes the random seed (book and level choices become repeatable).
    pub fn seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    pub fn set_hash(&mut self, mb: usize) {
        self.options.hash_mb = mb;
        self.tt.resize(mb);
    }

    pub fn set_eval(&mut self, kind: EvalKind) {
        self.options.eval = kind;
        self.eval.set_kind(kind);
    }

    /// The network [`EvalKind::Nnue`] evaluates with (the embedded one
    /// until this is called). The hash table's scores may be of another
    /// evaluation, so it is cleared.
    pub fn set_network(&mut self, net: Arc<eval::nnue::Network>) {
        self.eval.set_network(net);
        self.tt.clear();
    }

    /// Whether the network adds to the full evaluation (else replaces it).
    pub fn network_is_residual(&self) -> bool {
        self.eval.network().is_none_or(|n| n.residual)
    }

    /// Search threads, 1..=[`MAX_THREADS`].
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        self.options.threads = n;
        self.helpers.truncate(n - 1);
        while self.helpers.len() < n - 1 {
            self.helpers.push(Helper::new(self.options.eval));
        }
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.options.multipv = n.max(1);
    }

    pub fn set_move_overhead(&mut self, d: Duration) {
        self.options.move_overhead = d;
    }

    /// Bughouse: what the partner's wishes add to the value of pieces sent
    /// across (see [`partner::PartnerState::tweaks`]).
    pub fn set_partner_tweaks(&mut self, t: eval::zh::PartnerTweaks) {
        self.eval.set_partner_tweaks(t);
    }

    pub fn set_level(&mut self, level: Level) {
        self.options.level = level;
        self.strength_changed();
    }

    /// Plays as a player rated `elo` (see [`Strength::elo`]) instead of
    /// at the level; `None` goes back to the level.
    pub fn set_elo(&mut self, elo: Option<u32>) {
        self.options.elo = elo;
        self.strength_changed();
    }

    /// How strongly the engine plays now: the Elo if one is set, else the
    /// level.
    pub fn strength(&self) -> Strength {
        match self.options.elo {
            Some(elo) => Strength::elo(elo),
            None => Strength::level(self.options.level),
        }
    }

    fn strength_changed(&mut self) {
        let weights = Self::weights_for(self.strength());
        if weights != self.eval.weights() {
            // The hash table's scores came from the other weights.
            self.eval.set_weights(weights);
            self.tt.clear();
        }
    }

    /// Levels 1-7 (and the Elos between them) keep the weights they were
    /// calibrated with; full strength (and the Elos above level 7) plays
    /// with the current tuned ones.
    pub fn weights_for(strength: Strength) -> eval::WeightSet {
        if strength.full_eval() {
            eval::WeightSet::Tuned
        } else {
            eval::WeightSet::Levels
        }
    }

    pub fn set_own_book(&mut self, on: bool) {
        self.options.own_book = on;
    }

    /// Loads a Polyglot book; an empty path unloads it.
    pub fn set_book_file(&mut self, path: Option<PathBuf>) -> Result<(), book::BookError> {
        match &path {
            Some(p) => self.book = Some(Book::open(p)?),
            None => self.book = None,
        }
        self.options.book_file = path;
        Ok(())
    }

    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// Our own (DTM) tablebases, loaded elsewhere (see
    /// [`crate::tablebase::shared_loader`]): the search only reads them.
    /// `None` switches them off.
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>) {
        self.tablebases = tables;
    }

    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Uses the Syzygy tables of `path` (directories separated by `:`, `;`
    /// on Windows; empty or `<empty>` = none) and returns how many WDL
    /// tables were found. The WDL files are read into memory here, not
    /// during a search. A directory that cannot be read is an error, and
    /// then no Syzygy tables are used.
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<usize, SyzygyPathError> {
        let path = path.trim();
        self.syzygy = None;
        self.options.syzygy_path = String::new();
        if path.is_empty() || path == "<empty>" {
            return Ok(0);
        }
        let tables = SyzygyTables::open(path)?;
        let n = tables.wdl_tables();
        self.syzygy = Some(Arc::new(tables));
        self.options.syzygy_path = path.to_string();
        Ok(n)
    }

    /// Uses Syzygy tables opened elsewhere (several engines can share
    /// one set); `None` switches them off.
    pub fn set_syzygy_tables(&mut self, tables: Option<Arc<SyzygyTables>>) {
        self.options.syzygy_path = tables
            .as_ref()
            .map(|t| {
                t.dirs()
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(":")
            })
            .unwrap_or_default();
        self.syzygy = tables;
    }

    /// The Syzygy tables in use.
    pub fn syzygy(&self) -> Option<&SyzygyTables> {
        self.syzygy.as_deref()
    }

    /// Forget everything learned (new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.hist.clear();
        for h in &mut self.helpers {
            h.hist.clear();
        }
    }

    /// Evaluates the position with the current evaluation, side to move's view.
    pub fn static_eval<V: Variant>(&mut self, board: &Board<V>) -> i32 {
        self.eval.evaluate(board)
    }

    /// Searches `pos`. `stop` may be set from another thread; the search then
    /// returns its best move so far within a millisecond or so.
    ///
    /// With tablebases (see [`Engine::set_tablebases`] and
    /// [`Engine::set_syzygy_path`]), positions they know are scored by them
    /// inside the search; at full strength our own tables also decide the
    /// root (the fastest mate, the longest resistance; among the drawing
    /// moves the search chooses), and Syzygy DTZ tables restrict it to the
    /// moves that keep the best outcome under the 50-move rule.
    ///
    /// With more than one thread ([`Engine::set_threads`]) helpers search
    /// the same root and share the transposition table. `obs` watches the
    /// main thread; the nodes in its iteration reports are all threads',
    /// while the result's `stats` are the main thread's alone.
    pub fn search<V: Variant, O: SearchObserver>(
        &mut self,
        pos: &GamePosition<V>,
        limits: &Limits,
        stop: &AtomicBool,
        obs: &mut O,
    ) -> SearchReport {
        let root = pos.current();
        // The book and the tablebases know standard chess only.
        let std_root = root.as_std();
        if self.options.own_book
            && limits.searchmoves.is_empty()
            && let Some(book) = &self.book
            && let Some(std_root) = std_root
            && let Some(m) = book.pick(std_root, &mut self.rng)
        {
            return self.book_report(root, m);
        }

        // This move's settings (`None`: full strength).
        let spec = self.strength().draw(&mut self.rng);
        let (limits, multipv) = match spec {
            Some(s) => s.adjust(root, limits, self.options.multipv, &mut self.rng),
            None => (limits.clone(), self.options.multipv),
        };
        let started = Instant::now();

        // Tablebases at the root: only at full strength, where the engine
        // plays its best move anyway (a weaker level keeps its search,
        // blind spots and noise; the tables still score its leaves).
        let (own, syzygy) = (self.tablebases.clone(), self.syzygy.clone());
        let (own, syzygy) = (own.as_deref(), syzygy.as_deref());
        let mut tb = tb::TbAccess::new(own, syzygy);
        let (plan, root_hits) = match std_root {
            Some(std_root) if spec.is_none() => {
                tb::plan_root(own, syzygy, std_root, &limits.searchmoves, multipv)
            }
            _ => (tb::RootPlan::Search, 0),
        };
        let mut root_tb = Vec::new();
        match plan {
            tb::RootPlan::Decided(lines) => {
                return self.tablebase_report(lines, root_hits, started, obs);
            }
            tb::RootPlan::Restrict { moves, probe } => {
                root_tb = moves;
                if !probe {
                    tb = tb::TbAccess::none();
                }
            }
            tb::RootPlan::Search => {}
        }

        let tables = RootTables {
            tb,
            root_tb,
            root_hits,
        };
        let result = self.search_threads(pos, &limits, multipv, stop, obs, tables);
        let chosen = match spec {
            Some(s) => s.choose(&result, &mut self.rng),
            None => result.best_move,
        };
        let (best_move, source) = match chosen {
            Some(m) if Some(m) != result.best_move => (Some(m), MoveSource::Level),
            _ => (result.best_move, MoveSource::Search),
        };
        SearchReport {
            best_move,
            source,
            result,
        }
    }

    /// The report of a book move.
    fn book_report<V: Variant>(&mut self, root: &Board<V>, m: Move) -> SearchReport {
        let score = Score(self.eval.evaluate(root));
        SearchReport {
            best_move: Some(m),
            source: MoveSource::Book,
            result: SearchResult {
                best_move: Some(m),
                score,
                depth: 0,
                seldepth: 0,
                pv: vec![m],
                lines: vec![Line { score, pv: vec![m] }],
                stats: SearchStats::default(),
                elapsed: Duration::ZERO,
            },
        }
    }

    /// The report of a move our own tables chose: one "iteration" per line.
    fn tablebase_report<O: SearchObserver>(
        &self,
        lines: Vec<Line>,
        tb_hits: u64,
        started: Instant,
        obs: &mut O,
    ) -> SearchReport {
        let stats = SearchStats {
            nodes: 1,
            tb_hits,
            seldepth: lines.first().map_or(0, |l| l.pv.len()),
            ..SearchStats::default()
        };
        let elapsed = started.elapsed();
        for (i, line) in lines.iter().enumerate() {
            obs.iteration(&IterationInfo {
                depth: 1,
                seldepth: line.pv.len(),
                multipv: i + 1,
                score: line.score,
                bound: Bound::Exact,
                nodes: stats.nodes,
                elapsed,
                hashfull: self.tt.hashfull(),
                pv: line.pv.clone(),
                stats,
            });
        }
        let best = lines.first().cloned().unwrap_or(Line {
            score: Score::DRAW,
            pv: Vec::new(),
        });
        let best_move = best.pv.first().copied();
        SearchReport {
            best_move,
            source: MoveSource::Tablebase,
            result: SearchResult {
                best_move,
                score: best.score,
                depth: 1,
                seldepth: stats.seldepth,
                pv: best.pv,
                lines,
                stats,
                elapsed,
            },
        }
    }

    /// Convenience: a fixed-depth search with no observer.
    pub fn search_depth<V: Variant>(&mut self, board: &Board<V>, depth: Depth) -> SearchResult {
        let stop = AtomicBool::new(false);
        let pos = GamePosition::new(board.clone());
        self.search(&pos, &Limits::depth(depth), &stop, &mut NoObserver)
            .result
    }
}

/// Does the side to move have a legal move? (Convenience for callers.)
pub fn has_legal_moves<V: Variant>(board: &Board<V>) -> bool {
    !board.pos().legal_moves().is_empty()
}
