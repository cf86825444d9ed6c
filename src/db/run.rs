//! A run: one immutable file of (position key, move) -> [`Stats`],
//! sorted by key, the way an LSM tree's sorted string tables are (and
//! lichess' explorer, on RocksDB, keeps its moves).
//!
//! ```text
//! "KBXRUN01"
//! blocks     entries sorted by (key, move); a position never straddles two
//!            blocks, so a lookup reads exactly one
//! index      per block: first key u64 LE, offset u64 LE
//! footer     index offset, blocks, entries, positions (u64 LE each),
//!            "KBXEND01"
//! ```
//! An entry is the key's distance from the previous entry's (a varint: 0
//! for the next move of the same position), the move (its rank among the
//! position's legal moves, see [`super::move_rank`]) and the stats. A run
//! is written to a temp file and renamed into place, so a reader sees a
//! whole run or the one before.

use super::stats::{Stats, get_varint, put_varint};
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"KBXRUN01";
const END: &[u8; 8] = b"KBXEND01";
const FOOTER: usize = 40;
/// A block ends at the first position boundary past this many bytes.
const BLOCK: usize = 4096;

/// One (position, move) and its counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub mv: u8,
    pub stats: Stats,
}

/// What a finished run holds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RunInfo {
    pub entries: u64,
    pub positions: u64,
    pub bytes: u64,
}

/// Writes entries given in (key, move) order; equal neighbours are summed,
/// so raw one-game records can be pushed straight from a sort.
pub struct RunWriter {
    out: BufWriter<File>,
    tmp: PathBuf,
    path: PathBuf,
    written: u64,
    block: Vec<u8>,
    block_first: u64,
    last_key: u64,
    index: Vec<(u64, u64)>,
    pending: Option<Entry>,
    info: RunInfo,
}

impl RunWriter {
    /// A run that appears at `path` when [`RunWriter::finish`] succeeds.
    pub fn create(path: &Path) -> io::Result<RunWriter> {
        let tmp = temp_path(path);
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&tmp)?);
        out.write_all(MAGIC)?;
        Ok(RunWriter {
            out,
            tmp,
            path: path.to_path_buf(),
            written: MAGIC.len() as u64,
            block: Vec::with_capacity(BLOCK * 2),
            block_first: 0,
            last_key: 0,
            index: Vec::new(),
            pending: None,
            info: RunInfo::default(),
        })
    }

    pub fn push(&mut self, e: Entry) -> io::Result<()> {
        match &mut self.pending {
            Some(p) if p.key == e.key && p.mv == e.mv => {
                p.stats.add(&e.stats);
                Ok(())
            }
            Some(p) => {
                debug_assert!((p.key, p.mv) < (e.key, e.mv), "entries out of order");
                let done = std::mem::replace(p, e);
                self.emit(done)
            }
            None => {
                self.pending = Some(e);
                Ok(())
            }
        }
    }

    fn emit(&mut self, e: Entry) -> io::Result<()> {
        let new_position = self.info.entries == 0 || e.key != self.last_key;
        if new_position && self.block.len() >= BLOCK {
            self.flush_block()?;
        }
        if self.block.is_empty() {
            self.block_first = e.key;
            self.last_key = e.key;
        }
        put_varint(&mut self.block, e.key - self.last_key);
        self.block.push(e.mv);
        e.stats.encode(&mut self.block);
        self.last_key = e.key;
        self.info.entries += 1;
        if new_position {
            self.info.positions += 1;
        }
        Ok(())
    }

    fn flush_block(&mut self) -> io::Result<()> {
        if self.block.is_empty() {
            return Ok(());
        }
        self.index.push((self.block_first, self.written));
        self.out.write_all(&self.block)?;
        self.written += self.block.len() as u64;
        self.block.clear();
        Ok(())
    }

    /// Writes the index and footer, syncs, and renames the run into place.
    pub fn finish(mut self) -> io::Result<RunInfo> {
        let result = (|| {
            if let Some(p) = self.pending.take() {
                self.emit(p)?;
            }
            self.flush_block()?;
            let index_at = self.written;
            for (k, off) in &self.index {
                self.out.write_all(&k.to_le_bytes())?;
                self.out.write_all(&off.to_le_bytes())?;
            }
            for v in [
                index_at,
                self.index.len() as u64,
                self.info.entries,
                self.info.positions,
            ] {
                self.out.write_all(&v.to_le_bytes())?;
            }
            self.out.write_all(END)?;
            self.out.flush()?;
            self.out.get_ref().sync_all()?;
            self.info.bytes = index_at + 16 * self.index.len() as u64 + FOOTER as u64;
            std::fs::rename(&self.tmp, &self.path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        result.map(|()| self.info)
    }

    /// Drops the run unwritten.
    pub fn abandon(self) {
        let tmp = self.tmp.clone();
        drop(self);
        let _ = std::fs::remove_file(tmp);
    }
}

fn temp_path(path: &Path) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// Why a run cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("not an index run, or a damaged one ({0})")]
    Damaged(&'static str),
}

/// An open run: its block index in memory, blocks read on demand.
pub struct Run {
    file: File,
    index: Vec<(u64, u64)>,
    index_at: u64,
    info: RunInfo,
}

impl Run {
    pub fn open(path: &Path) -> Result<Run, RunError> {
        let mut file = File::open(path)?;
        let len = file.metadata()?.len();
        if len < (MAGIC.len() + FOOTER) as u64 {
            return Err(RunError::Damaged("too short"));
        }
        let mut head = [0u8; 8];
        file.read_exact(&mut head)?;
        if &head != MAGIC {
            return Err(RunError::Damaged("no run header"));
        }
        file.seek(SeekFrom::Start(len - FOOTER as u64))?;
        let mut foot = [0u8; FOOTER];
        file.read_exact(&mut foot)?;
        if &foot[32..] != END {
            return Err(RunError::Damaged("no footer"));
        }
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&foot[i * 8..i * 8 + 8]);
            u64::from_le_bytes(w)
        };
        let (index_at, blocks, entries, positions) = (word(0), word(1), word(2), word(3));
        if blocks
            .checked_mul(16)
            .and_then(|b| b.checked_add(index_at))
            .and_then(|b| b.checked_add(FOOTER as u64))
            != Some(len)
            || index_at < MAGIC.len() as u64
        {
            return Err(RunError::Damaged("sizes do not add up"));
        }
        file.seek(SeekFrom::Start(index_at))?;
        let mut raw = vec![0u8; blocks as usize * 16];
        file.read_exact(&mut raw)?;
        let index: Vec<(u64, u64)> = raw
            .chunks_exact(16)
            .map(|c| {
                let mut k = [0u8; 8];
                let mut o = [0u8; 8];
                k.copy_from_slice(&c[..8]);
                o.copy_from_slice(&c[8..]);
                (u64::from_le_bytes(k), u64::from_le_bytes(o))
            })
            .collect();
        let ordered = index.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1);
        if !ordered || index.first().is_some_and(|f| f.1 != MAGIC.len() as u64) {
            return Err(RunError::Damaged("block index out of order"));
        }
        Ok(Run {
            file,
            index,
            index_at,
            info: RunInfo {
                entries,
                positions,
                bytes: len,
            },
        })
    }

    pub fn info(&self) -> RunInfo {
        self.info
    }

    fn block(&mut self, i: usize) -> Result<Vec<u8>, RunError> {
        let start = self.index[i].1;
        let end = self.index.get(i + 1).map_or(self.index_at, |b| b.1);
        let mut buf = vec![0u8; (end - start) as usize];
        self.file.seek(SeekFrom::Start(start))?;
        self.file.read_exact(&mut buf)?;
        Ok(buf)
    }

    /// The moves stored for a position: (move rank, stats), by rank.
    pub fn lookup(&mut self, key: u64) -> Result<Vec<(u8, Stats)>, RunError> {
        // The block is the last one starting at or before the key.
        let i = self.index.partition_point(|b| b.0 <= key);
        if i == 0 {
            return Ok(Vec::new());
        }
        let (first, _) = self.index[i - 1];
        let block = self.block(i - 1)?;
        let mut out = Vec::new();
        for e in BlockEntries::new(&block, first) {
            let e = e?;
            if e.key > key {
                break;
            }
            if e.key == key {
                out.push((e.mv, e.stats));
            }
        }
        Ok(out)
    }

    /// Every entry in order (for merging runs).
    pub fn entries(&mut self) -> impl Iterator<Item = Result<Entry, RunError>> + '_ {
        let mut i = 0;
        let mut current: Vec<Entry> = Vec::new();
        let mut at = 0;
        std::iter::from_fn(move || {
            loop {
                if at < current.len() {
                    at += 1;
                    return Some(Ok(current[at - 1]));
                }
                if i >= self.index.len() {
                    return None;
                }
                let first = self.index[i].0;
                let block = match self.block(i) {
                    Ok(b) => b,
                    Err(e) => {
                        i = self.index.len();
                        return Some(Err(e));
                    }
                };
                i += 1;
                match BlockEntries::new(&block, first).collect::<Result<Vec<_>, _>>() {
                    Ok(v) => {
                        current = v;
                        at = 0;
                    }
                    Err(e) => {
                        i = self.index.len();
                        return Some(Err(e));
                    }
                }
            }
        })
    }
}

struct BlockEntries<'a> {
    bytes: &'a [u8],
    at: usize,
    key: u64,
}

impl<'a> BlockEntries<'a> {
    fn new(bytes: &'a [u8], first: u64) -> Self {
        BlockEntries {
            bytes,
            at: 0,
            key: first,
        }
    }
}

impl Iterator for BlockEntries<'_> {
    type Item = Result<Entry, RunError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let entry = (|| {
            let delta = get_varint(self.bytes, &mut self.at)?;
            self.key = self.key.checked_add(delta)?;
            let mv = *self.bytes.get(self.at)?;
            self.at += 1;
            let stats = Stats::decode(self.bytes, &mut self.at)?;
            Some(Entry {
                key: self.key,
                mv,
                stats,
            })
        })();
        match entry {
            Some(e) => Some(Ok(e)),
            None => {
                self.at = self.bytes.len();
                Some(Err(RunError::Damaged("a block does not decode")))
            }
        }
    }
}

/// Merges runs into one at `out` (summing entries present in several).
pub fn merge(runs: &mut [Run], out: &Path) -> Result<RunInfo, RunError> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut writer = RunWriter::create(out)?;
    let result = (|| {
        let mut iters: Vec<_> = runs.iter_mut().map(|r| r.entries()).collect();
        let mut heap = BinaryHeap::new();
        let mut heads: Vec<Option<Entry>> = Vec::with_capacity(iters.len());
        for (i, it) in iters.iter_mut().enumerate() {
            let head = it.next().transpose()?;
            if let Some(e) = head {
                heap.push(Reverse((e.key, e.mv, i)));
            }
            heads.push(head);
        }
        while let Some(Reverse((_, _, i))) = heap.pop() {
            if let Some(e) = heads[i].take() {
                writer.push(e)?;
            }
            let next = iters[i].next().transpose()?;
            if let Some(e) = next {
                heap.push(Reverse((e.key, e.mv, i)));
            }
            heads[i] = next;
        }
        Ok::<(), RunError>(())
    })();
    match result {
        Ok(()) => Ok(writer.finish()?),
        Err(e) => {
            writer.abandon();
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::stats::Outcome;
    use super::*;

    fn entry(key: u64, mv: u8, o: Outcome) -> Entry {
        Entry {
            key,
            mv,
            stats: Stats::single(o, Some(2000)),
        }
    }

    #[test]
    fn a_run_sums_equal_entries_and_finds_every_position() {
        let dir = std::env::temp_dir().join(format!("kbx-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.kbr");
        let mut w = RunWriter::create(&path).unwrap();
        // Enough positions for many blocks.
        let keys: Vec<u64> = (0..20_000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        for &k in &sorted {
            w.push(entry(k, 1, Outcome::White)).unwrap();
            w.push(entry(k, 1, Outcome::Draw)).unwrap();
            w.push(entry(k, 7, Outcome::Black)).unwrap();
        }
        let info = w.finish().unwrap();
        assert_eq!(info.entries, 40_000);
        assert_eq!(info.positions, 20_000);
        let mut run = Run::open(&path).unwrap();
        assert!(run.index.len() > 10, "{} blocks", run.index.len());
        for &k in keys.iter().step_by(97) {
            let moves = run.lookup(k).unwrap();
            assert_eq!(moves.len(), 2);
            assert_eq!((moves[0].0, moves[0].1.white, moves[0].1.draws), (1, 1, 1));
            assert_eq!((moves[1].0, moves[1].1.black), (7, 1));
        }
        assert!(run.lookup(0).unwrap().is_empty());
        assert!(run.lookup(u64::MAX).unwrap().is_empty());
        assert!(run.lookup(sorted[5] + 1).unwrap().is_empty());
        // Merging the run with itself doubles every count.
        let mut runs = vec![Run::open(&path).unwrap(), Run::open(&path).unwrap()];
        let merged = merge(&mut runs, &dir.join("m.kbr")).unwrap();
        assert_eq!(merged.entries, 40_000);
        let mut m = Run::open(&dir.join("m.kbr")).unwrap();
        assert_eq!(m.lookup(keys[3]).unwrap()[0].1.white, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_run_is_an_error_not_a_panic() {
        let dir = std::env::temp_dir().join(format!("kbx-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.kbr");
        let mut w = RunWriter::create(&path).unwrap();
        for k in 0..2000u64 {
            w.push(entry(k * 1000, 0, Outcome::White)).unwrap();
        }
        w.finish().unwrap();
        let good = std::fs::read(&path).unwrap();
        for cut in [0, 10, good.len() / 2, good.len() - 1] {
            std::fs::write(&path, &good[..cut]).unwrap();
            assert!(Run::open(&path).is_err(), "cut at {cut}");
        }
        // Garbage inside a block: an error when that block is read.
        let mut bad = good.clone();
        for b in &mut bad[8..200] {
            *b = 0xff;
        }
        std::fs::write(&path, &bad).unwrap();
        let mut run = Run::open(&path).unwrap();
        assert!(run.lookup(5000).is_err());
        assert!(run.entries().any(|e| e.is_err()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
