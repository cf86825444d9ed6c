//! Collections of games and their indexes, kept in step with their files.
//!
//! The data folder holds `db/collections.json` (the PGN files added) and,
//! per indexed source, a folder with `manifest.json` and the run it
//! names. An index is updated by writing a new run beside the old one and
//! then the manifest (both atomically), so a kill at any moment leaves the
//! old index whole. A PGN file that grew, and still holds what was indexed
//! (checked by hash), has only its new games indexed; any other change
//! indexes it again.

use super::build::{self, BadGame, BuildError, BuildOptions, Indexed};
use super::run::{self, Run, RunError};
use super::stats::Stats;
use super::{index_key, move_of_rank};
use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Chess, Move};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

const MANIFEST_VERSION: u32 = 1;
/// Bad games listed in a manifest (the count is always whole).
const BAD_LISTED: usize = 1000;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("cannot read {path}: {source}")]
    Source { path: String, source: io::Error },
    #[error("the index in {path}: {source}")]
    Index { path: String, source: RunError },
    #[error("cannot write the index in {path}: {source}")]
    Write { path: String, source: io::Error },
    #[error("{0}")]
    Build(#[from] BuildError),
    #[error("{path} is not in the collections (see `kibitz db list`)")]
    NotAdded { path: String },
    #[error("no data folder (no home folder?)")]
    NoDataDir,
}

/// What was indexed from one part of a file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Segment {
    start: u64,
    end: u64,
    hash: u64,
}

/// A file of a folder source, as indexed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Stamp {
    name: String,
    size: u64,
    modified: u128,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Manifest {
    version: u32,
    source: PathBuf,
    max_plies: usize,
    /// The run file, in the index folder.
    run: String,
    games: u64,
    indexed: u64,
    other_variants: u64,
    bad_count: u64,
    bad: Vec<BadGame>,
    /// Lines read (where the next segment's lines start).
    lines: u64,
    /// A file source: its size and time when indexed, and the segments.
    size: u64,
    modified: u128,
    segments: Vec<Segment>,
    /// A folder source: its files.
    files: Vec<Stamp>,
}

impl Manifest {
    /// A manifest of nothing indexed yet from `source` into `run`.
    fn new(source: PathBuf, max_plies: usize, run: String) -> Manifest {
        Manifest {
            version: MANIFEST_VERSION,
            source,
            max_plies,
            run,
            games: 0,
            indexed: 0,
            other_variants: 0,
            bad_count: 0,
            bad: Vec::new(),
            lines: 1,
            size: 0,
            modified: 0,
            segments: Vec::new(),
            files: Vec::new(),
        }
    }
}

/// How indexing is going, for a progress bar: bytes done of bytes to do.
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);

/// An indexed collection, open for lookups.
pub struct Collection {
    pub name: String,
    pub source: PathBuf,
    manifest: Manifest,
    run: Run,
}

/// One move from a position, with its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveStats {
    pub mv: Move,
    pub san: String,
    pub uci: String,
    pub stats: Stats,
}

/// The moves played from one position, most played first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// The sum over the moves (a game counts once per move it played
    /// here).
    pub total: Stats,
    pub moves: Vec<MoveStats>,
}

impl Answer {
    /// Adds another collection's moves from the same position.
    pub fn merge(&mut self, other: Answer) {
        for m in other.moves {
            match self.moves.iter_mut().find(|x| x.mv == m.mv) {
                Some(x) => x.stats.add(&m.stats),
                None => self.moves.push(m),
            }
        }
        self.sort();
    }

    fn sort(&mut self) {
        self.moves.sort_by(|a, b| {
            b.stats
                .games()
                .cmp(&a.stats.games())
                .then(a.san.cmp(&b.san))
        });
        self.total = Stats::default();
        for m in &self.moves {
            self.total.add(&m.stats);
        }
    }
}

impl Collection {
    /// The moves played from `pos` in this collection.
    pub fn moves(&mut self, pos: &Chess) -> Result<Answer, DbError> {
        let found = self
            .run
            .lookup(index_key(pos))
            .map_err(|e| DbError::Index {
                path: self.source.display().to_string(),
                source: e,
            })?;
        Ok(answer_from(found, pos))
    }
}

/// The moves of `found` (rank, stats) from `pos`, most played first.
fn answer_from(found: Vec<(u8, Stats)>, pos: &Chess) -> Answer {
    {
        let mut answer = Answer::default();
        for (rank, stats) in found {
            // A key shared by another position (a hash collision) can name
            // no legal move here; such entries are dropped.
            let Some(mv) = move_of_rank(pos, rank) else {
                continue;
            };
            let san = shakmaty::san::SanPlus::from_move(pos.clone(), mv).to_string();
            let uci = uci_of(&mv);
            answer.moves.push(MoveStats {
                mv,
                san,
                uci,
                stats,
            });
        }
        answer.sort();
        answer
    }
}

impl Collection {
    pub fn games(&self) -> u64 {
        self.manifest.games
    }

    pub fn indexed(&self) -> u64 {
        self.manifest.indexed
    }

    pub fn other_variants(&self) -> u64 {
        self.manifest.other_variants
    }

    /// Games that could not be read (the first thousand; see
    /// [`Collection::bad_count`]).
    pub fn bad(&self) -> &[BadGame] {
        &self.manifest.bad
    }

    pub fn bad_count(&self) -> u64 {
        self.manifest.bad_count
    }

    pub fn max_plies(&self) -> usize {
        self.manifest.max_plies
    }

    /// Bytes of the index on disk.
    pub fn index_bytes(&self) -> u64 {
        self.run.info().bytes
    }

    pub fn positions(&self) -> u64 {
        self.run.info().positions
    }
}

/// The indexes in a data folder.
pub struct Store {
    dir: PathBuf,
    games_dir: PathBuf,
    pub options: BuildOptions,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Registry {
    files: Vec<PathBuf>,
}

/// The name "My games" goes by.
pub const MY_GAMES: &str = "My games";

impl Store {
    /// The indexes under `data/db`, "My games" from `data/games`.
    pub fn new(data: &Path) -> Store {
        Store {
            dir: data.join("db"),
            games_dir: data.join("games"),
            options: BuildOptions::default(),
        }
    }

    /// In the user's data folder.
    pub fn user() -> Result<Store, DbError> {
        crate::paths::data_dir()
            .map(|d| Store::new(&d))
            .ok_or(DbError::NoDataDir)
    }

    fn registry_path(&self) -> PathBuf {
        self.dir.join("collections.json")
    }

    /// The added PGN files.
    pub fn added(&self) -> Vec<PathBuf> {
        std::fs::read(self.registry_path())
            .ok()
            .and_then(|b| serde_json::from_slice::<Registry>(&b).ok())
            .map(|r| r.files)
            .unwrap_or_default()
    }

    fn write_registry(&self, files: Vec<PathBuf>) -> Result<(), DbError> {
        let text = serde_json::to_vec_pretty(&Registry { files }).unwrap_or_default();
        self.write(&self.registry_path(), &text)
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), DbError> {
        std::fs::create_dir_all(&self.dir)
            .and_then(|()| crate::util::write_atomic(path, bytes))
            .map_err(|e| DbError::Write {
                path: path.display().to_string(),
                source: e,
            })
    }

    /// Adds a PGN file to the collections and indexes it.
    pub fn add(&self, file: &Path, progress: Progress) -> Result<Collection, DbError> {
        let path = absolute(file)?;
        let collection = self.file(&path, progress)?;
        let mut files = self.added();
        if !files.contains(&path) {
            files.push(path);
            self.write_registry(files)?;
        }
        Ok(collection)
    }

    /// Takes a file out of the collections and deletes its index (the PGN
    /// file stays).
    pub fn remove(&self, file: &Path) -> Result<PathBuf, DbError> {
        let mut files = self.added();
        let wanted = absolute(file).ok();
        let Some(i) = files
            .iter()
            .position(|f| Some(f) == wanted.as_ref() || f == file)
        else {
            return Err(DbError::NotAdded {
                path: file.display().to_string(),
            });
        };
        let gone = files.remove(i);
        self.write_registry(files)?;
        let _ = std::fs::remove_dir_all(self.index_dir(&gone));
        Ok(gone)
    }

    fn index_dir(&self, source: &Path) -> PathBuf {
        if source == self.games_dir {
            return self.dir.join("my-games");
        }
        let text = source.to_string_lossy();
        let h = build::hash_block(0, text.as_bytes());
        let name = source
            .file_stem()
            .map(|s| {
                s.to_string_lossy()
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .take(24)
                    .collect::<String>()
            })
            .unwrap_or_default();
        self.dir.join(format!("{name}-{h:016x}"))
    }

    /// The index of a PGN file, brought up to date first.
    pub fn file(&self, file: &Path, progress: Progress) -> Result<Collection, DbError> {
        let path = absolute(file)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let dir = self.index_dir(&path);
        let meta = std::fs::metadata(&path).map_err(|e| source_error(&path, e))?;
        if !meta.is_file() {
            return Err(source_error(&path, io::Error::other("not a file")));
        }
        let (size, modified) = (meta.len(), modified(&meta));
        let old = read_manifest(&dir).filter(|m| m.max_plies == self.options.max_plies);
        let manifest = match old {
            Some(m) if m.size == size && m.modified == modified => m,
            Some(m) if size > m.size && self.still_holds(&path, &m) && ends_a_game(&path, &m) => {
                self.append(&dir, &path, m, size, modified, progress)?
            }
            _ => self.rebuild_file(&dir, &path, size, modified, progress)?,
        };
        open(name, path, &dir, manifest)
    }

    /// Whether the file still begins with the bytes that were indexed.
    fn still_holds(&self, path: &Path, m: &Manifest) -> bool {
        let check = || -> io::Result<bool> {
            let mut f = std::fs::File::open(path)?;
            for s in &m.segments {
                f.seek(SeekFrom::Start(s.start))?;
                if build::hash_prefix(&mut f, s.end - s.start)? != s.hash {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        check().unwrap_or(false)
    }

    fn rebuild_file(
        &self,
        dir: &Path,
        path: &Path,
        size: u64,
        modified: u128,
        progress: Progress,
    ) -> Result<Manifest, DbError> {
        let mut f = std::fs::File::open(path).map_err(|e| source_error(path, e))?;
        let run_name = next_run_name(dir);
        let built = self.build(&mut f, dir, &run_name, size, progress)?;
        let manifest = Manifest {
            size,
            modified,
            segments: vec![Segment {
                start: 0,
                end: built.bytes,
                hash: built.hash,
            }],
            ..Manifest::new(path.to_path_buf(), self.options.max_plies, run_name)
        };
        self.commit(dir, manifest, built)
    }

    fn append(
        &self,
        dir: &Path,
        path: &Path,
        mut m: Manifest,
        size: u64,
        modified: u128,
        progress: Progress,
    ) -> Result<Manifest, DbError> {
        let mut f = std::fs::File::open(path).map_err(|e| source_error(path, e))?;
        let start = m.segments.last().map_or(0, |s| s.end);
        f.seek(SeekFrom::Start(start))
            .map_err(|e| source_error(path, e))?;
        let tail_name = format!("{}.tail", next_run_name(dir));
        let tail = self.build(&mut f, dir, &tail_name, size - start, progress)?;
        m.segments.push(Segment {
            start,
            end: start + tail.bytes,
            hash: tail.hash,
        });
        m.size = size;
        m.modified = modified;
        self.merge_into(dir, m, &tail_name, tail)
    }

    /// Merges a run of new games with the manifest's run into a new run.
    fn merge_into(
        &self,
        dir: &Path,
        mut m: Manifest,
        tail_name: &str,
        tail: Indexed,
    ) -> Result<Manifest, DbError> {
        let index_error = |e: RunError| DbError::Index {
            path: dir.display().to_string(),
            source: e,
        };
        let merged_name = next_run_name(dir);
        let result = (|| {
            let mut runs = vec![
                Run::open(&dir.join(&m.run)).map_err(index_error)?,
                Run::open(&dir.join(tail_name)).map_err(index_error)?,
            ];
            run::merge(&mut runs, &dir.join(&merged_name)).map_err(index_error)
        })();
        let _ = std::fs::remove_file(dir.join(tail_name));
        result?;
        m.run = merged_name;
        self.commit(dir, m, tail)
    }

    fn build(
        &self,
        src: &mut dyn Read,
        dir: &Path,
        run_name: &str,
        size: u64,
        progress: Progress,
    ) -> Result<Indexed, DbError> {
        std::fs::create_dir_all(dir).map_err(|e| DbError::Write {
            path: dir.display().to_string(),
            source: e,
        })?;
        crate::util::remove_stale_temp_files(dir);
        Ok(build::index_pgn(
            src,
            &dir.join(run_name),
            &self.options,
            &|| false,
            &mut |done| progress(done, size),
        )?)
    }

    /// Adds what a pass read to the manifest, writes it, and deletes the
    /// runs it no longer names.
    fn commit(&self, dir: &Path, mut m: Manifest, pass: Indexed) -> Result<Manifest, DbError> {
        let first_line = m.lines;
        for mut b in pass.bad {
            b.number += m.games;
            b.line += first_line - 1;
            if m.bad.len() < BAD_LISTED {
                m.bad.push(b);
            }
            m.bad_count += 1;
        }
        m.games += pass.games;
        m.indexed += pass.indexed;
        m.other_variants += pass.other_variants;
        m.lines += pass.lines.saturating_sub(1);
        let text = serde_json::to_vec_pretty(&m).unwrap_or_default();
        let path = dir.join("manifest.json");
        crate::util::write_atomic(&path, &text).map_err(|e| DbError::Write {
            path: path.display().to_string(),
            source: e,
        })?;
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.ends_with(".kbr") && name != m.run && is_old(&e) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        Ok(m)
    }

    /// "My games": every game saved in the data folder's `games`.
    pub fn my_games(&self, progress: Progress) -> Result<Collection, DbError> {
        let dir = self.index_dir(&self.games_dir);
        let files = game_files(&self.games_dir);
        let old = read_manifest(&dir).filter(|m| m.max_plies == self.options.max_plies);
        let manifest = match old {
            Some(m) if m.files == files => m,
            // Only new files: index them and merge.
            Some(m) if m.files.iter().all(|f| files.contains(f)) => {
                let new: Vec<Stamp> = files
                    .iter()
                    .filter(|f| !m.files.contains(f))
                    .cloned()
                    .collect();
                let size = new.iter().map(|f| f.size).sum();
                let tail_name = format!("{}.tail", next_run_name(&dir));
                let mut src = Concat::new(&self.games_dir, &new);
                let tail = self.build(&mut src, &dir, &tail_name, size, progress)?;
                let mut m = m;
                m.files = files;
                self.merge_into(&dir, m, &tail_name, tail)?
            }
            _ => {
                let size = files.iter().map(|f| f.size).sum();
                let run_name = next_run_name(&dir);
                let mut src = Concat::new(&self.games_dir, &files);
                let built = self.build(&mut src, &dir, &run_name, size, progress)?;
                let m = Manifest {
                    files,
                    ..Manifest::new(self.games_dir.clone(), self.options.max_plies, run_name)
                };
                self.commit(&dir, m, built)?
            }
        };
        open(MY_GAMES.to_string(), self.games_dir.clone(), &dir, manifest)
    }

    /// The collections as last indexed, not brought up to date (quick:
    /// for the repertoire drill's choice of replies).
    pub fn as_indexed(&self) -> Vec<Collection> {
        let mut dirs = vec![(MY_GAMES.to_string(), self.games_dir.clone())];
        for f in self.added() {
            let name = f
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            dirs.push((name, f));
        }
        dirs.into_iter()
            .filter_map(|(name, source)| {
                let dir = self.index_dir(&source);
                let m = read_manifest(&dir)?;
                open(name, source, &dir, m).ok()
            })
            .collect()
    }

    /// "My games" and every added file, each brought up to date. A file
    /// that cannot be read is left out, with the reason.
    pub fn everything(&self, progress: Progress) -> (Vec<Collection>, Vec<DbError>) {
        let mut open = Vec::new();
        let mut errors = Vec::new();
        match self.my_games(&mut *progress) {
            Ok(c) => open.push(c),
            Err(e) => errors.push(e),
        }
        for f in self.added() {
            match self.file(&f, &mut *progress) {
                Ok(c) => open.push(c),
                Err(e) => errors.push(e),
            }
        }
        (open, errors)
    }
}

/// The moves from `pos` over several collections.
pub fn moves_in(collections: &mut [Collection], pos: &Chess) -> Result<Answer, DbError> {
    let mut answer = Answer::default();
    for c in collections.iter_mut() {
        answer.merge(c.moves(pos)?);
    }
    Ok(answer)
}

/// Whether what was indexed ended with a game's result: a file read while
/// it was being written may have ended inside a game, and then its new
/// part does not begin a game of its own (it is indexed again whole).
fn ends_a_game(path: &Path, m: &Manifest) -> bool {
    let end = m.segments.last().map_or(0, |s| s.end);
    let check = || -> io::Result<bool> {
        let mut f = std::fs::File::open(path)?;
        let from = end.saturating_sub(64);
        f.seek(SeekFrom::Start(from))?;
        let mut tail = vec![0u8; (end - from) as usize];
        f.read_exact(&mut tail)?;
        let text = String::from_utf8_lossy(&tail);
        let last = text.trim_end();
        Ok(["1-0", "0-1", "1/2-1/2", "*"]
            .iter()
            .any(|r| last.ends_with(r)))
    };
    end == 0 || check().unwrap_or(false)
}

/// UCI as python-chess and GUIs write it: castling as the king's two
/// squares (e1g1), except where that cannot be said (Chess960 castling
/// from other squares: the king takes its rook, f1h1).
pub fn uci_of(m: &Move) -> String {
    let standard = match m {
        Move::Castle { king, rook } => {
            king.file() == shakmaty::File::E
                && matches!(rook.file(), shakmaty::File::A | shakmaty::File::H)
        }
        _ => true,
    };
    let mode = if standard {
        CastlingMode::Standard
    } else {
        CastlingMode::Chess960
    };
    m.to_uci(mode).to_string()
}

fn open(
    name: String,
    source: PathBuf,
    dir: &Path,
    manifest: Manifest,
) -> Result<Collection, DbError> {
    let run = Run::open(&dir.join(&manifest.run)).map_err(|e| DbError::Index {
        path: dir.display().to_string(),
        source: e,
    })?;
    Ok(Collection {
        name,
        source,
        manifest,
        run,
    })
}

fn read_manifest(dir: &Path) -> Option<Manifest> {
    let bytes = std::fs::read(dir.join("manifest.json")).ok()?;
    let m: Manifest = serde_json::from_slice(&bytes).ok()?;
    (m.version == MANIFEST_VERSION && dir.join(&m.run).is_file()).then_some(m)
}

/// A run name not used in `dir` yet.
fn next_run_name(dir: &Path) -> String {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut n = 0;
    loop {
        let name = format!("moves-{stamp:x}-{}-{n}.kbr", std::process::id());
        if !dir.join(&name).exists() {
            return name;
        }
        n += 1;
    }
}

/// A run not named by the manifest is deleted once it is a minute old
/// (younger, it may be another process's, about to be named).
fn is_old(e: &std::fs::DirEntry) -> bool {
    e.metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age.as_secs() > 60)
}

fn modified(meta: &std::fs::Metadata) -> u128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos())
}

fn absolute(file: &Path) -> Result<PathBuf, DbError> {
    std::path::absolute(file)
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
        .map_err(|e| source_error(file, e))
}

fn source_error(path: &Path, e: io::Error) -> DbError {
    DbError::Source {
        path: path.display().to_string(),
        source: e,
    }
}

/// The `.pgn` files of the games folder, by name.
fn game_files(dir: &Path) -> Vec<Stamp> {
    let mut files: Vec<Stamp> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !name.ends_with(".pgn") {
                return None;
            }
            let meta = e.metadata().ok().filter(|m| m.is_file())?;
            Some(Stamp {
                name,
                size: meta.len(),
                modified: modified(&meta),
            })
        })
        .collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files
}

/// Files read one after the other, a blank line between them (a file
/// that vanished reads as empty).
struct Concat<'a> {
    dir: &'a Path,
    files: &'a [Stamp],
    next: usize,
    current: Option<std::fs::File>,
    gap: bool,
}

impl<'a> Concat<'a> {
    fn new(dir: &'a Path, files: &'a [Stamp]) -> Self {
        Concat {
            dir,
            files,
            next: 0,
            current: None,
            gap: false,
        }
    }
}

impl Read for Concat<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if buf.is_empty() {
                return Ok(0);
            }
            if self.gap {
                self.gap = false;
                buf[0] = b'\n';
                if buf.len() > 1 {
                    buf[1] = b'\n';
                    return Ok(2);
                }
                return Ok(1);
            }
            if let Some(f) = &mut self.current {
                let n = f.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                self.current = None;
                self.gap = true;
                continue;
            }
            let Some(stamp) = self.files.get(self.next) else {
                return Ok(0);
            };
            self.next += 1;
            self.current = std::fs::File::open(self.dir.join(&stamp.name)).ok();
        }
    }
}

mod player;
pub use player::PlayerTree;

#[cfg(test)]
mod tests;
