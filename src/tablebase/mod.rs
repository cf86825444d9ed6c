//! Endgame tablebases for up to five pieces, made here by retrograde
//! analysis: distance to mate (DTM, in plies) and so win/draw/loss for
//! every position of a material signature, both sides to move. Tables of
//! up to four pieces take seconds in all and are made on demand; a
//! five-piece table takes up to a minute (and up to 0.75 GB while it is
//! made) and is made only when asked for by name or `--max-pieces 5`.
//!
//! - [`Tablebases`] holds the loaded tables of a directory (by default
//!   `<data dir>/tablebases`). [`Tablebases::ensure`] loads a table or
//!   generates it (smaller tables first) and writes its file;
//!   [`Tablebases::probe`] and [`Tablebases::best_moves`] only read what is
//!   loaded, so they are safe inside a search.
//! - Values use Gaviota's DTM convention: positive = the side to move mates
//!   in that many plies, negative = it is mated, 0 = draw or mated now.
//! - Castling and the 50-move rule are ignored (pure DTM); positions with
//!   a legal en-passant capture (or castling rights) are answered by a
//!   one-ply search over the tables.
//!
//! - The engine never generates or reads table files while it searches:
//!   [`shared_loader`] loads the tables of a directory once per process in
//!   a background thread and hands them out (as `Arc<Tablebases>`) when
//!   they are ready.
//!
//! Modules: [`material`] (signatures), `index` (symmetry and indexing),
//! `generate` (retrograde algorithm), `file` (file format), [`verify`]
//! (comparison with Syzygy tables), [`syzygy`] (Syzygy tables for the
//! engine), [`cli`] (`kibitz tb`).

mod cells;
pub mod cli;
pub(crate) mod file;
mod generate;
mod index;
mod make;
pub mod material;
mod slices;
pub mod syzygy;
mod table;
mod values;
pub mod verify;
pub mod verify_self;

pub use file::{FORMAT_VERSION, FileError, file_name};
pub use material::{Material, ParseMaterialError};
pub use table::{SideStats, Table, TableStats};

use index::{Layout, Raw};
use material::code;
use shakmaty::{Chess, Color, Move, Position, Role};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use table::{TableSet, UNKNOWN, dtm_of, is_loss, is_win, rank, via_move};

/// Most pieces (kings included) a table can have.
pub const MAX_PIECES: usize = 5;

/// Most pieces of the tables made without being named: by `kibitz tb
/// generate` with no names, `kibitz tb probe` and the trainer. (Five-piece
/// tables take minutes each.)
pub const DEFAULT_MAX_PIECES: usize = 4;

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = -1,
    Draw = 0,
    Win = 1,
}

impl Wdl {
    /// -1, 0 or 1.
    pub fn signum(self) -> i32 {
        self as i32
    }
}

/// A tablebase answer for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    pub wdl: Wdl,
    /// Plies to mate, Gaviota signs: positive = the side to move mates,
    /// negative = it is mated, 0 = draw or already mated.
    pub dtm: i32,
}

impl Probe {
    fn from_code(code: u8) -> Probe {
        let wdl = if is_win(code) {
            Wdl::Win
        } else if is_loss(code) {
            Wdl::Loss
        } else {
            Wdl::Draw
        };
        Probe {
            wdl,
            dtm: dtm_of(code),
        }
    }

    /// Sort key: larger is better for the side to move (quick wins first,
    /// slow losses before quick ones).
    pub fn goodness(&self) -> i32 {
        match self.wdl {
            Wdl::Win => 1000 - self.dtm,
            Wdl::Draw => 0,
            Wdl::Loss => -1000 - self.dtm,
        }
    }
}

/// What loading and generation report as they go.
#[derive(Debug)]
pub enum Event<'a> {
    /// A valid file was read.
    Loaded { material: Material, path: &'a Path },
    /// A file exists but cannot be trusted; it will be regenerated.
    Invalid {
        material: Material,
        error: &'a FileError,
    },
    /// The tables to generate, in order, with their index entries (both
    /// sides to move): said once, before the first starts.
    Planned { tables: &'a [(Material, u64)] },
    /// Generation starts (`positions` = index entries, both sides to move).
    Generating { material: Material, positions: u64 },
    /// A retrograde level is done.
    Level {
        material: Material,
        ply: u32,
        resolved: u64,
    },
    /// A table was generated and written.
    Generated {
        material: Material,
        stats: &'a TableStats,
        seconds: f64,
        path: &'a Path,
        bytes: u64,
    },
    /// A table could not be made; the run goes on without it and the
    /// tables that need it (`skipped`).
    Failed {
        material: Material,
        error: &'a TbError,
        skipped: &'a [Material],
    },
}

/// Index entries one thread generates per second, measured on a 2-core
/// AMD EPYC (`kibitz tb generate --max-pieces 5`: 7.7 million for the
/// slowest tables with pawns, 8.8 million for KQQvKQ, before captures were
/// read a word at a time; since, KRPvKR takes 0.70-0.72 of its time and
/// KRBvKR 0.55, so 7.5 million became 9, still on the slow side): the
/// base of the time said before generating starts.
pub const ENTRIES_PER_THREAD_SECOND: f64 = 9e6;

/// The expected time to generate `entries` index entries on `threads`
/// threads (default: every core), in words: "about 40 s", "about 6 min".
pub fn expected_time(entries: u64, threads: Option<usize>) -> String {
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    duration_words(entries as f64 / (ENTRIES_PER_THREAD_SECOND * threads as f64))
}

/// "about 40 s", "about 6 min", "about 2.5 h".
pub fn duration_words(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("about {:.0} s", seconds.max(1.0))
    } else if seconds < 5400.0 {
        format!("about {:.0} min", seconds / 60.0)
    } else {
        format!("about {:.1} h", seconds / 3600.0)
    }
}

/// Why a table could not be made ready.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    #[error("no data directory for tablebases on this system; pass --dir")]
    NoDataDir,
    #[error("{0}: tables exist for at most {MAX_PIECES} pieces")]
    TooManyPieces(Material),
    #[error("{0}: bare kings need no table (always a draw)")]
    BareKings(Material),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("generating {material} failed: {reason}")]
    Generate { material: Material, reason: String },
    #[error("{} not made ({}): {first}", plural(failed.len(), "table"), names(failed))]
    Incomplete {
        failed: Vec<Material>,
        first: Box<TbError>,
    },
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn names(ms: &[Material]) -> String {
    ms.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tables of one directory, loaded on demand.
pub struct Tablebases {
    dir: PathBuf,
    set: TableSet,
    threads: usize,
}

// Shared by the engines of a process (read-only once loaded).
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Tablebases>();
};

impl Tablebases {
    /// Tables in `dir` (nothing is read yet).
    pub fn new(dir: impl Into<PathBuf>) -> Tablebases {
        Tablebases {
            dir: dir.into(),
            set: TableSet::new(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// `$KIBITZ_TB_DIR` when set (and not empty), else
    /// `<data dir>/tablebases` (from `directories`).
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(d) = std::env::var_os("KIBITZ_TB_DIR").filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(d));
        }
        crate::paths::data_dir().map(|d| d.join("tablebases"))
    }

    /// `dir`, or the default directory.
    pub fn open(dir: Option<PathBuf>) -> Result<Tablebases, TbError> {
        match dir.or_else(Tablebases::default_dir) {
            Some(d) => Ok(Tablebases::new(d)),
            None => Err(TbError::NoDataDir),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Threads used by generation (default: all cores).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Where the table of `m` lives.
    pub fn path_of(&self, m: &Material) -> PathBuf {
        self.dir.join(file_name(&m.normalized().0))
    }

    /// The loaded table of `m` (either colour order).
    pub fn table(&self, m: &Material) -> Option<&Table> {
        self.set.get(m)
    }

    /// Loads the table of `m` from its file, if the file is valid. Does
    /// not generate.
    pub fn load(&mut self, m: &Material) -> Result<(), FileError> {
        let m = m.normalized().0;
        if self.set.get(&m).is_some() {
            return Ok(());
        }
        if m.key().is_none() || m == Material::KVK {
            return Err(FileError::NotATable {
                path: self.path_of(&m),
            });
        }
        let t = file::read(&self.path_of(&m), &m)?;
        self.insert(t);
        Ok(())
    }

    /// Loads every valid table file of the directory (for a search: no
    /// generation). Returns how many tables are loaded.
    pub fn load_available(&mut self) -> usize {
        for m in Material::all(MAX_PIECES) {
            let _ = self.load(&m);
        }
        self.loaded()
    }

    /// How many tables are loaded.
    pub fn loaded(&self) -> usize {
        self.set.tables.iter().flatten().count()
    }

    /// The most pieces (kings included) of any loaded table; 0 if none.
    pub fn max_pieces(&self) -> usize {
        self.set
            .tables
            .iter()
            .flatten()
            .map(|t| t.material().pieces())
            .max()
            .unwrap_or(0)
    }

    /// Makes the table of `m` ready: loaded from its file if that is
    /// valid, else generated (after every table a capture or promotion
    /// leads to) and written. Bad files are reported and replaced.
    pub fn ensure(
        &mut self,
        m: &Material,
        progress: &mut dyn FnMut(&Event),
    ) -> Result<(), TbError> {
        self.ensure_many(std::slice::from_ref(m), progress)
    }

    /// [`Tablebases::ensure`] for every table with up to `max_pieces`
    /// pieces.
    pub fn ensure_all(
        &mut self,
        max_pieces: usize,
        progress: &mut dyn FnMut(&Event),
    ) -> Result<(), TbError> {
        self.ensure_many(&Material::all(max_pieces), progress)
    }

    /// Makes ready the table needed to probe `pos` and its moves.
    pub fn ensure_for(
        &mut self,
        pos: &Chess,
        progress: &mut dyn FnMut(&Event),
    ) -> Result<(), TbError> {
        let m = Material::of_board(pos.board());
        if m.pieces() > MAX_PIECES {
            return Err(TbError::TooManyPieces(m));
        }
        if m != Material::KVK {
            self.ensure(&m, progress)?;
        }
        Ok(())
    }

    fn insert(&mut self, t: Table) {
        if let Some(key) = t.layout.material.key() {
            self.set.tables[key as usize] = Some(std::sync::Arc::new(t));
        }
    }

    /// The value of a position, or `None` if it has more than five pieces
    /// or its table is not loaded. Never generates; fast (a direct index
    /// computation) unless the position has castling rights or a legal
    /// en-passant capture (then a one-ply search over the tables).
    /// Takes anything that is a standard chess position (the engine's
    /// board is); [`Tablebases::probe_chess`] takes shakmaty's.
    #[inline]
    pub fn probe<P: AsRef<Chess>>(&self, pos: &P) -> Option<Probe> {
        self.probe_chess(pos.as_ref())
    }

    /// [`Tablebases::probe`] for a shakmaty position.
    pub fn probe_chess(&self, pos: &Chess) -> Option<Probe> {
        self.probe_code(pos).map(Probe::from_code)
    }

    fn probe_code(&self, pos: &Chess) -> Option<u8> {
        let board = pos.board();
        if board.occupied().count() > MAX_PIECES {
            return None;
        }
        if pos.castles().any() || pos.maybe_ep_square().is_some() {
            // Rare: search one ply (exact, with the special moves).
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return Some(if pos.is_check() { 2 } else { UNKNOWN });
            }
            let mut best: Option<u8> = None;
            for m in moves {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let v = via_move(self.probe_code(&child)?);
                best = Some(best.map_or(v, |b| table::better(b, v)));
            }
            return best;
        }
        let raw = raw_of(board)?;
        self.set.probe_raw(&raw, pos.turn())
    }

    /// Every legal move with its value for the side to move (the value of
    /// the position after it, negated and one ply longer), best first.
    /// `None` if a needed table is not loaded or there are too many pieces.
    pub fn best_moves<P: AsRef<Chess>>(&self, pos: &P) -> Option<Vec<(Move, Probe)>> {
        self.best_moves_chess(pos.as_ref())
    }

    /// [`Tablebases::best_moves`] for a shakmaty position.
    pub fn best_moves_chess(&self, pos: &Chess) -> Option<Vec<(Move, Probe)>> {
        if pos.board().occupied().count() > MAX_PIECES {
            return None;
        }
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let code = via_move(self.probe_code(&child)?);
            out.push((m, code));
        }
        out.sort_by_key(|&(m, code)| {
            (
                std::cmp::Reverse(rank(code)),
                m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
            )
        });
        Some(
            out.into_iter()
                .map(|(m, c)| (m, Probe::from_code(c)))
                .collect(),
        )
    }
}

/// Tables loaded in the background, once per process: see
/// [`shared_loader`].
pub struct SharedLoader {
    started: OnceLock<()>,
    result: OnceLock<Option<Loaded>>,
}

/// What the background loader found.
#[derive(Clone)]
pub struct Loaded {
    pub tables: Arc<Tablebases>,
    /// Tables loaded (at least one).
    pub count: usize,
    /// Time spent reading and checking the files.
    pub elapsed: Duration,
}

/// The process's background loader. Start it with [`SharedLoader::start`]
/// (the UCI engine does at startup), then ask [`SharedLoader::get`] before
/// each search: the engine plays without tables until they are ready.
pub fn shared_loader() -> &'static SharedLoader {
    static LOADER: SharedLoader = SharedLoader {
        started: OnceLock::new(),
        result: OnceLock::new(),
    };
    &LOADER
}

impl SharedLoader {
    /// Loads every valid table file of `dir` (default: the data
    /// directory's `tablebases/`) on a background thread. Only the first
    /// call of the process does anything; it returns whether loading was
    /// started (false when the directory does not exist: then there are no
    /// tables, and nothing is printed or created).
    pub fn start(&'static self, dir: Option<PathBuf>) -> bool {
        let mut started = false;
        self.started.get_or_init(|| {
            let dir = dir.or_else(Tablebases::default_dir).filter(|d| d.is_dir());
            let Some(dir) = dir else {
                let _ = self.result.set(None);
                return;
            };
            let spawned = std::thread::Builder::new()
                .name("tablebase-loader".into())
                .spawn(move || {
                    let start = Instant::now();
                    let mut tb = Tablebases::new(dir);
                    let count = tb.load_available();
                    let loaded = (count > 0).then(|| Loaded {
                        tables: Arc::new(tb),
                        count,
                        elapsed: start.elapsed(),
                    });
                    let _ = self.result.set(loaded);
                });
            started = spawned.is_ok();
            if !started {
                let _ = self.result.set(None);
            }
        });
        started
    }

    /// The loaded tables, once loading has finished and found at least one.
    pub fn get(&self) -> Option<&Loaded> {
        self.result.get()?.as_ref()
    }

    /// Has loading finished (or was there nothing to load)?
    pub fn is_done(&self) -> bool {
        self.result.get().is_some()
    }

    /// Waits until loading has finished (`None` at once if it was never
    /// started).
    pub fn wait(&self) -> Option<&Loaded> {
        self.started.get()?;
        self.result.wait().as_ref()
    }
}

/// The work on the longest chain from `m` through the tables of `todo`
/// that need it (in index entries), remembered in `memo`.
fn chain_cost(
    todo: &[Material],
    m: Material,
    size: &dyn Fn(&Material) -> usize,
    memo: &mut std::collections::HashMap<Material, usize>,
) -> usize {
    if let Some(&c) = memo.get(&m) {
        return c;
    }
    let own = size(&m);
    let parents: Vec<Material> = todo
        .iter()
        .filter(|p| p.children().contains(&m))
        .copied()
        .collect();
    let cost = own
        + parents
            .into_iter()
            .map(|p| chain_cost(todo, p, size, memo))
            .max()
            .unwrap_or(0);
    memo.insert(m, cost);
    cost
}

/// Generates one table from its children in `set`.
fn generate_table(
    m: &Material,
    set: &TableSet,
    threads: usize,
    spill: Option<&Path>,
    level: &mut (dyn FnMut(u32, u64) + Send),
) -> Result<(Table, f64), TbError> {
    let start = Instant::now();
    let layout = Layout::new(*m);
    // A large table is made alone, from tables its probes read through the
    // block cache: more of them stay decompressed meanwhile.
    let large = file::is_large(layout.size);
    if large {
        values::set_cache_bytes(values::GENERATION_CACHE_BYTES);
    }
    let made = generate::generate(&layout, set, threads, spill, |l| level(l.ply, l.resolved));
    if large {
        values::set_cache_bytes(values::CACHE_BYTES);
    }
    let (values, stats) = made.map_err(|reason| TbError::Generate {
        material: *m,
        reason,
    })?;
    let table = Table {
        layout,
        values,
        stats,
    };
    Ok((table, start.elapsed().as_secs_f64()))
}

/// The table form of a board with at most three non-king pieces.
#[inline]
fn raw_of(board: &shakmaty::Board) -> Option<Raw> {
    let kings = board.kings();
    let wk = (kings & board.white()).first()? as u8;
    let bk = (kings & board.black()).first()? as u8;
    let mut r = Raw {
        wk,
        bk,
        n: 0,
        pc: [(material::NONE, 0); index::SLOTS],
    };
    for sq in board.occupied() & !kings {
        if r.n as usize == index::SLOTS {
            return None;
        }
        let color = if board.white().contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        let role = board.role_at(sq)?;
        if role == Role::King {
            return None;
        }
        r.pc[r.n as usize] = (code(color, role), sq as u8);
        r.n += 1;
    }
    Some(r)
}

#[cfg(test)]
mod tests;
