//! Syzygy tables for the engine, through `shakmaty-syzygy`.
//!
//! [`SyzygyTables::open`] takes a search path as the UCI option
//! `SyzygyPath` gives it (directories separated by `:` on Unix, `;` on
//! Windows). WDL files (the ones the search probes) are read into memory
//! when the path is set, up to [`PRELOAD_FILE_MAX`] per file and
//! [`PRELOAD_TOTAL_MAX`] in all, so that probing them inside the search
//! does no file I/O. Bigger sets (6 pieces and more) and the DTZ files
//! (probed only at the root, before the search starts) are read from disk
//! with positioned reads when a probe needs them.

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::filesystem::{Filesystem, RandomAccessFile, ReadHint};
use shakmaty_syzygy::{AmbiguousWdl, Dtz, MaybeRounded, Tablebase, Wdl};
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Largest WDL file kept in memory.
pub const PRELOAD_FILE_MAX: u64 = 64 << 20;
/// Most WDL bytes kept in memory (all 5-piece WDL files are 378 MB).
pub const PRELOAD_TOTAL_MAX: u64 = 512 << 20;

/// Why a Syzygy path was rejected.
#[derive(Debug, thiserror::Error)]
pub enum SyzygyPathError {
    #[error("SyzygyPath: {dir}: {source}")]
    Dir { dir: PathBuf, source: io::Error },
}

/// The Syzygy tables of a search path.
pub struct SyzygyTables {
    tb: Tablebase<Chess>,
    dirs: Vec<PathBuf>,
    wdl: usize,
    dtz: usize,
    preloaded_bytes: u64,
}

/// A root move as the DTZ tables see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootRank {
    pub mv: Move,
    /// Outcome for the side to move at the root under the 50-move rule,
    /// from the position's halfmove clock (ambiguous DTZ rounding is
    /// resolved the way [`AmbiguousWdl::after_zeroing`] does).
    pub wdl: Wdl,
    /// The move mates at once.
    pub mates: bool,
    /// A capture or pawn move.
    pub zeroing: bool,
    /// Plies from the position after the move to the next zeroing move
    /// (capture or pawn move) on the table's best line (0 for a draw).
    pub dtz: u32,
}

impl RootRank {
    /// Sort key: larger is better for the side to move at the root.
    /// Mates first, then by outcome; when winning a zeroing move, then the
    /// quickest next one; when losing the other way round (as
    /// `shakmaty-syzygy`'s `best_move` does).
    pub fn key(&self) -> (bool, i32, bool, i64) {
        let dtz = i64::from(self.dtz);
        let (zeroing, tie) = match self.wdl {
            Wdl::Win | Wdl::CursedWin => (self.zeroing, -dtz),
            Wdl::Loss | Wdl::BlessedLoss => (!self.zeroing, dtz),
            Wdl::Draw => (false, 0),
        };
        (self.mates, self.wdl as i32, zeroing, tie)
    }
}

impl SyzygyTables {
    /// Finds the tables of every directory of `path` (empty components are
    /// skipped) and reads the WDL files into memory. A directory that
    /// cannot be listed rejects the whole path.
    pub fn open(path: &str) -> Result<SyzygyTables, SyzygyPathError> {
        let dirs: Vec<PathBuf> = std::env::split_paths(path)
            .filter(|d| !d.as_os_str().is_empty())
            .collect();
        // Every candidate file, smaller first (so the preload budget holds
        // as many tables as possible).
        let mut files: Vec<(u64, PathBuf)> = Vec::new();
        for dir in &dirs {
            let entries = std::fs::read_dir(dir).map_err(|source| SyzygyPathError::Dir {
                dir: dir.clone(),
                source,
            })?;
            for entry in entries.flatten() {
                let p = entry.path();
                let ext = p.extension().and_then(|e| e.to_str());
                if matches!(ext, Some("rtbw" | "rtbz"))
                    && let Ok(meta) = std::fs::metadata(&p)
                    && meta.is_file()
                {
                    files.push((meta.len(), p));
                }
            }
        }
        files.sort();
        let fs = Arc::new(PreloadFs::default());
        let mut tb = Tablebase::with_filesystem(fs.clone());
        let (mut wdl, mut dtz, mut preloaded_bytes) = (0, 0, 0u64);
        for (size, p) in files {
            // Names that are no table, and files of an impossible size,
            // are skipped.
            if tb.add_file(&p).is_err() {
                continue;
            }
            if p.extension().is_some_and(|e| e == "rtbw") {
                wdl += 1;
                if size <= PRELOAD_FILE_MAX
                    && preloaded_bytes + size <= PRELOAD_TOTAL_MAX
                    && let Ok(bytes) = std::fs::read(&p)
                {
                    preloaded_bytes += bytes.len() as u64;
                    fs.insert(p, bytes.into());
                }
            } else {
                dtz += 1;
            }
        }
        Ok(SyzygyTables {
            tb,
            dirs,
            wdl,
            dtz,
            preloaded_bytes,
        })
    }

    /// The directories searched.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// WDL tables found.
    pub fn wdl_tables(&self) -> usize {
        self.wdl
    }

    /// DTZ tables found.
    pub fn dtz_tables(&self) -> usize {
        self.dtz
    }

    /// WDL bytes held in memory.
    pub fn preloaded_bytes(&self) -> u64 {
        self.preloaded_bytes
    }

    /// Pieces (kings included) of the largest table; 0 when none.
    pub fn max_pieces(&self) -> usize {
        self.tb.max_pieces()
    }

    /// The outcome of `pos` under the 50-move rule, for a position reached
    /// by a capture or pawn move (halfmove clock 0; the caller checks).
    /// `None`: castling rights, too many pieces, or a table missing.
    #[inline]
    pub fn probe_wdl_after_zeroing(&self, pos: &Chess) -> Option<Wdl> {
        if pos.castles().any() {
            return None;
        }
        self.tb.probe_wdl_after_zeroing(pos).ok()
    }

    /// The DTZ value of `pos` (needs the DTZ tables).
    pub fn probe_dtz(&self, pos: &Chess) -> Option<MaybeRounded<Dtz>> {
        if pos.castles().any() {
            return None;
        }
        self.tb.probe_dtz(pos).ok()
    }

    /// Every legal move of `pos` (or only those of `only`, when not empty)
    /// ranked by the DTZ tables, best first. `None` when one of them cannot
    /// be probed (castling, no DTZ table, too many pieces).
    pub fn rank_root_moves(&self, pos: &Chess, only: &[Move]) -> Option<Vec<RootRank>> {
        if pos.castles().any() || pos.board().occupied().count() > self.max_pieces() {
            return None;
        }
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            if !only.is_empty() && !only.contains(&m) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            if child.is_checkmate() {
                out.push(RootRank {
                    mv: m,
                    wdl: Wdl::Win,
                    mates: true,
                    zeroing: m.is_zeroing(),
                    dtz: 0,
                });
                continue;
            }
            let dtz = self.probe_dtz(&child)?;
            // The child's outcome with its clock (0 after a zeroing move).
            let theirs = AmbiguousWdl::from_dtz_and_halfmoves(dtz, child.halfmoves());
            out.push(RootRank {
                mv: m,
                wdl: -theirs.after_zeroing(),
                mates: false,
                zeroing: m.is_zeroing(),
                dtz: dtz.ignore_rounding().0.unsigned_abs(),
            });
        }
        out.sort_by_key(|r| std::cmp::Reverse(r.key()));
        Some(out)
    }
}

/// Files read into memory when the path is set; the others are read from
/// disk when a probe needs them.
#[derive(Default)]
struct PreloadFs {
    /// Only locked when a table is first opened, never while probing.
    files: Mutex<HashMap<PathBuf, Arc<[u8]>>>,
}

impl PreloadFs {
    fn insert(&self, path: PathBuf, bytes: Arc<[u8]>) {
        let mut files = match self.files.lock() {
            Ok(f) => f,
            Err(poisoned) => poisoned.into_inner(),
        };
        files.insert(path, bytes);
    }

    fn get(&self, path: &Path) -> Option<Arc<[u8]>> {
        let files = match self.files.lock() {
            Ok(f) => f,
            Err(poisoned) => poisoned.into_inner(),
        };
        files.get(path).cloned()
    }
}

impl Filesystem for PreloadFs {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        if let Some(bytes) = self.get(path) {
            return Ok(bytes.len() as u64);
        }
        let meta = path.metadata()?;
        if meta.is_file() {
            Ok(meta.len())
        } else {
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ))
        }
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect()
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        match self.get(path) {
            Some(bytes) => Ok(Box::new(MemFile(bytes))),
            None => Ok(Box::new(DiskFile(std::fs::File::open(path)?))),
        }
    }
}

struct MemFile(Arc<[u8]>);

impl RandomAccessFile for MemFile {
    #[inline]
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.0.len());
        let n = buf.len().min(self.0.len() - start);
        buf[..n].copy_from_slice(&self.0[start..start + n]);
        Ok(n)
    }
}

struct DiskFile(std::fs::File);

impl RandomAccessFile for DiskFile {
    #[cfg(unix)]
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(&self.0, buf, offset)
    }

    #[cfg(windows)]
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(&self.0, buf, offset)
    }

    #[cfg(not(any(unix, windows)))]
    fn read_at(&self, _buf: &mut [u8], _offset: u64, _hint: ReadHint) -> io::Result<usize> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "positioned reads are not supported here",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_file_reads_like_a_file() {
        let f = MemFile(Arc::from(&b"abcdef"[..]));
        let mut buf = [0u8; 4];
        assert_eq!(f.read_at(&mut buf, 4, ReadHint::Data).unwrap(), 2);
        assert_eq!(&buf[..2], b"ef");
        assert_eq!(f.read_at(&mut buf, 6, ReadHint::Data).unwrap(), 0);
        assert_eq!(f.read_at(&mut buf, u64::MAX, ReadHint::Data).unwrap(), 0);
        assert!(f.read_exact_at(&mut buf, 3, ReadHint::Data).is_err());
        f.read_exact_at(&mut buf, 1, ReadHint::Data).unwrap();
        assert_eq!(&buf, b"bcde");
    }

    #[test]
    fn a_missing_directory_is_an_error_and_empty_is_nothing() {
        let err = SyzygyTables::open("/no/such/kibitz/dir").err().unwrap();
        assert!(err.to_string().contains("/no/such/kibitz/dir"), "{err}");
        let none = SyzygyTables::open("").unwrap();
        assert_eq!((none.wdl_tables(), none.max_pieces()), (0, 0));
    }
}
