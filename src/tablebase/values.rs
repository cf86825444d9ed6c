//! A table's values: in memory (small tables, and tables being made), or
//! read from their file a block at a time when a probe needs one (large
//! tables: a probe reads and decompresses one block of
//! [`BLOCK_VALUES`], never the whole file).
//!
//! Blocks read are kept in one cache per process ([`CACHE_BYTES`] of
//! decompressed values, shared by every table, the least used evicted),
//! so the memory a five-piece table costs is what its probes touch.

use std::fs::File;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Values per block of a file (both sides to move run on: a block may
/// hold the end of White's half and the start of Black's).
pub(crate) const BLOCK_VALUES: usize = 1 << 15;

/// Decompressed blocks kept at most, in bytes.
pub(crate) const CACHE_BYTES: u64 = 64 << 20;
/// The cache while a table is made from five-piece tables read from their
/// files: a pawn's promotions probe four of them at once, all over their
/// indices (KQRvKP: 172 s with 64 MB, 137 s with 256 MB, 128 s with
/// 512 MB, which the memory a table may take cannot afford).
pub(crate) const GENERATION_CACHE_BYTES: u64 = 192 << 20;

/// Sets the block cache's size (bytes): [`GENERATION_CACHE_BYTES`] while
/// a table is made, [`CACHE_BYTES`] after.
pub(crate) fn set_cache_bytes(bytes: u64) {
    cache().set_capacity(bytes);
}

/// The last blocks this thread read, one per table slot: most probes of
/// a generation fall in the block the one before read, and are answered
/// without the shared cache's lock, hash and reference count.
type Memo = [Option<(u64, u32, Arc<[u8]>)>; MEMO_SLOTS];
const MEMO_SLOTS: usize = 16;

thread_local! {
    static MEMO: std::cell::RefCell<Memo> = const { std::cell::RefCell::new([const { None }; MEMO_SLOTS]) };
}

/// Value `i` of the `len` values of the table whose cache key is `id`,
/// its block `k` loaded by `load(k)` if neither this thread's memo nor the
/// cache has it.
#[inline]
fn block_value(
    id: u64,
    len: usize,
    i: usize,
    load: impl FnOnce(usize) -> Result<Vec<u8>, String>,
) -> Option<u8> {
    with_block(id, len, i, load, |b, at| b.get(at).copied())
}

/// `read(block, at)` on the block holding value `i` (`at` its place
/// there), loaded as [`block_value`] loads it.
#[inline]
fn with_block<T>(
    id: u64,
    len: usize,
    i: usize,
    load: impl FnOnce(usize) -> Result<Vec<u8>, String>,
    read: impl Fn(&[u8], usize) -> Option<T>,
) -> Option<T> {
    if i >= len {
        return None;
    }
    let (k, at) = (i / BLOCK_VALUES, i % BLOCK_VALUES);
    let slot = (id as usize) % MEMO_SLOTS;
    let hit = MEMO.with(|m| match &m.borrow()[slot] {
        Some((i, kk, b)) if *i == id && *kk == k as u32 => Some(read(b, at)),
        _ => None,
    });
    if let Some(v) = hit {
        return v;
    }
    let block = cache()
        .get_or_insert_with(&(id, k as u32), || load(k).map(Arc::<[u8]>::from))
        .ok()?;
    let v = read(&block, at);
    MEMO.with(|m| m.borrow_mut()[slot] = Some((id, k as u32, block)));
    v
}

/// The 64 values from `at` of `block` (`None` past its end).
#[inline]
fn word_at(block: &[u8], at: usize) -> Option<[u8; 64]> {
    block.get(at..at + 64)?.try_into().ok()
}

/// A table's value codes, `[White to move | Black to move]`.
pub(crate) enum Values {
    Memory(Box<[u8]>),
    /// Made here (a large table only until written and opened from its
    /// file; a small one stays).
    Made(super::cells::Cells),
    /// Just made, compressed as the file will hold them (large tables
    /// with pawns are made slice by slice and never held whole).
    Packed(Box<Packed>),
    Blocks(Box<Blocks>),
}

impl Values {
    /// The value at `i`; `None` only when its block cannot be read (the
    /// file changed or broke since it was opened).
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Option<u8> {
        match self {
            Values::Memory(v) => v.get(i).copied(),
            Values::Made(c) => (i < c.len()).then(|| c.get(i)),
            _ => self.get_block(i),
        }
    }

    /// [`Values::get`] of values in blocks (out of line: the values in
    /// memory are read where they are asked for).
    #[inline(never)]
    fn get_block(&self, i: usize) -> Option<u8> {
        match self {
            Values::Memory(_) | Values::Made(_) => self.get(i),
            Values::Packed(p) => p.get(i),
            Values::Blocks(b) => b.get(i),
        }
    }

    /// The 64 values from `i` (a multiple of 64: never across a block);
    /// `None` as for [`Values::get`], or past the end.
    #[inline]
    pub(crate) fn word(&self, i: usize) -> Option<[u8; 64]> {
        debug_assert!(i.is_multiple_of(64));
        match self {
            Values::Memory(v) => v.get(i..i + 64)?.try_into().ok(),
            Values::Made(c) => {
                if i + 64 > c.len() {
                    return None;
                }
                let mut out = [0u8; 64];
                for (k, b) in out.chunks_exact_mut(8).enumerate() {
                    b.copy_from_slice(&c.word(i / 8 + k).to_le_bytes());
                }
                Some(out)
            }
            Values::Packed(p) => with_block(p.id, p.len, i, |k| p.block(k), word_at),
            Values::Blocks(b) => with_block(b.id, b.len, i, |k| b.read_block(k), word_at),
        }
    }

    /// How many values (both sides to move).
    pub(crate) fn len(&self) -> usize {
        match self {
            Values::Memory(v) => v.len(),
            Values::Made(c) => c.len(),
            Values::Packed(p) => p.len,
            Values::Blocks(b) => b.len,
        }
    }

    /// Whether the values are read from their file on demand.
    pub(crate) fn is_lazy(&self) -> bool {
        matches!(self, Values::Blocks(_))
    }

    /// Copies values `start..start + out.len()` into `out` (the file's
    /// blocks read through the cache).
    pub(crate) fn copy_to(&self, start: usize, out: &mut [u8]) -> Result<(), String> {
        match self {
            Values::Memory(v) => out.copy_from_slice(&v[start..start + out.len()]),
            Values::Made(c) => c.copy_to(start, out),
            Values::Packed(p) => p.copy_to(start, out)?,
            Values::Blocks(b) => {
                for (k, o) in out.iter_mut().enumerate() {
                    *o = b
                        .get(start + k)
                        .ok_or_else(|| format!("{}: a block cannot be read", b.path.display()))?;
                }
            }
        }
        Ok(())
    }

    /// Reads every block of a table kept in its file and checks it
    /// against its checksum (a table a generation relies on is checked
    /// whole first: a probe of a bad block would otherwise count as a
    /// draw there).
    pub(crate) fn verify(&self) -> Result<(), String> {
        match self {
            Values::Memory(_) | Values::Made(_) | Values::Packed(_) => Ok(()),
            Values::Blocks(b) => (0..b.index.len()).try_for_each(|k| b.read_raw(k).map(|_| ())),
        }
    }
}

/// Where one compressed block lies in the file, and its checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockRef {
    pub offset: u64,
    pub len: u32,
    pub sum: u64,
}

/// A table file's blocks, read on demand.
pub(crate) struct Blocks {
    pub(crate) file: File,
    pub(crate) path: PathBuf,
    /// Values (both sides).
    pub(crate) len: usize,
    pub(crate) index: Box<[BlockRef]>,
    /// This table's key in the cache.
    id: u64,
}

type Cache = quick_cache::sync::Cache<(u64, u32), Arc<[u8]>, ByLength>;

#[derive(Clone)]
struct ByLength;

impl quick_cache::Weighter<(u64, u32), Arc<[u8]>> for ByLength {
    fn weight(&self, _key: &(u64, u32), val: &Arc<[u8]>) -> u64 {
        val.len() as u64
    }
}

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| {
        let blocks = (GENERATION_CACHE_BYTES / BLOCK_VALUES as u64) as usize;
        Cache::with_weighter(blocks, CACHE_BYTES, ByLength)
    })
}

/// A fresh key for a table's blocks in the cache.
fn cache_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A table just made, its blocks compressed as its file will hold them:
/// in memory, or (a five-piece table) in a spill file beside its file, so
/// that making it never holds the whole compressed table (up to 239 MB).
pub(crate) struct Packed {
    store: Store,
    len: usize,
    id: u64,
}

enum Store {
    Memory(Vec<Vec<u8>>),
    Spill(Spill),
}

/// Compressed blocks written to a file as they come, in any order.
pub(crate) struct Spill {
    file: File,
    path: PathBuf,
    /// Offset and length of each block written.
    at: Vec<Option<(u64, u32)>>,
    end: u64,
}

impl Spill {
    /// A spill file for `blocks` blocks at `path` (a temp name: one left
    /// by a killed run is removed by the next).
    pub(crate) fn create(path: PathBuf, blocks: usize) -> io::Result<Spill> {
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        Ok(Spill {
            file,
            path,
            at: vec![None; blocks],
            end: 0,
        })
    }

    /// Writes block `k`.
    pub(crate) fn put(&mut self, k: usize, bytes: &[u8]) -> io::Result<()> {
        write_all_at(&self.file, bytes, self.end)?;
        self.at[k] = Some((self.end, bytes.len() as u32));
        self.end += bytes.len() as u64;
        Ok(())
    }

    /// The blocks not written.
    pub(crate) fn missing(&self) -> Option<usize> {
        self.at.iter().position(|a| a.is_none())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(unix)]
fn write_all_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

#[cfg(windows)]
fn write_all_at(file: &File, mut bytes: &[u8], mut at: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !bytes.is_empty() {
        let n = file.seek_write(bytes, at)?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        bytes = &bytes[n..];
        at += n as u64;
    }
    Ok(())
}

impl Packed {
    /// Block `k` as stored (compressed).
    pub(crate) fn compressed(&self, k: usize) -> Result<Vec<u8>, String> {
        match &self.store {
            Store::Memory(b) => b.get(k).cloned().ok_or_else(|| format!("no block {k}")),
            Store::Spill(s) => {
                let (at, len) =
                    s.at.get(k)
                        .copied()
                        .flatten()
                        .ok_or_else(|| format!("no block {k}"))?;
                let mut out = vec![0; len as usize];
                read_exact_at(&s.file, &mut out, at)
                    .map_err(|e| format!("block {k} of {}: {e}", s.path.display()))?;
                Ok(out)
            }
        }
    }

    /// Block `k`'s values.
    fn block(&self, k: usize) -> Result<Vec<u8>, String> {
        let want = BLOCK_VALUES.min(self.len - k * BLOCK_VALUES);
        match zstd::bulk::decompress(&self.compressed(k)?, want) {
            Ok(v) if v.len() == want => Ok(v),
            _ => Err(format!("block {k} of a table just made cannot be read")),
        }
    }

    /// Copies values `start..start + out.len()` into `out`, a block at a
    /// time (not through the cache).
    fn copy_to(&self, start: usize, out: &mut [u8]) -> Result<(), String> {
        let mut at = start;
        let end = start + out.len();
        while at < end {
            let k = at / BLOCK_VALUES;
            let block = self.block(k)?;
            let upto = end.min((k + 1) * BLOCK_VALUES);
            let from = at - k * BLOCK_VALUES;
            out[at - start..upto - start].copy_from_slice(&block[from..from + upto - at]);
            at = upto;
        }
        Ok(())
    }

    pub(crate) fn new(blocks: Vec<Vec<u8>>, len: usize) -> Packed {
        debug_assert_eq!(blocks.len(), len.div_ceil(BLOCK_VALUES));
        Packed {
            store: Store::Memory(blocks),
            len,
            id: cache_id(),
        }
    }

    /// The blocks of a spill file (every one written).
    pub(crate) fn spilled(spill: Spill, len: usize) -> Packed {
        debug_assert_eq!(spill.at.len(), len.div_ceil(BLOCK_VALUES));
        Packed {
            store: Store::Spill(spill),
            len,
            id: cache_id(),
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Option<u8> {
        block_value(self.id, self.len, i, |k| self.block(k))
    }
}

impl Blocks {
    pub(crate) fn new(file: File, path: PathBuf, len: usize, index: Box<[BlockRef]>) -> Blocks {
        Blocks {
            file,
            path,
            len,
            index,
            id: cache_id(),
        }
    }

    #[inline]
    fn get(&self, i: usize) -> Option<u8> {
        block_value(self.id, self.len, i, |k| self.read_block(k))
    }

    /// The compressed bytes of block `k`, checked against its checksum.
    pub(crate) fn read_raw(&self, k: usize) -> Result<Vec<u8>, String> {
        let r = self.index.get(k).ok_or_else(|| format!("no block {k}"))?;
        let mut buf = vec![0; r.len as usize];
        read_exact_at(&self.file, &mut buf, r.offset)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        if checksum(&[&buf]) != r.sum {
            return Err(format!(
                "{} is corrupt: block {k} does not match its checksum",
                self.path.display()
            ));
        }
        Ok(buf)
    }

    /// Block `k`'s values.
    pub(crate) fn read_block(&self, k: usize) -> Result<Vec<u8>, String> {
        let raw = self.read_raw(k)?;
        let want = BLOCK_VALUES.min(self.len - k * BLOCK_VALUES);
        let out = zstd::bulk::decompress(&raw, want)
            .map_err(|e| format!("{} is corrupt: block {k}: {e}", self.path.display()))?;
        if out.len() != want {
            return Err(format!(
                "{} is corrupt: block {k} holds {} values, not {want}",
                self.path.display(),
                out.len()
            ));
        }
        Ok(out)
    }
}

/// Reads `buf.len()` bytes at `offset` (threads may read one file at once).
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            let n = std::os::windows::fs::FileExt::seek_read(
                file,
                &mut buf[done..],
                offset + done as u64,
            )?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            done += n;
        }
        Ok(())
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (file, buf, offset);
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "positioned reads are not supported here",
        ))
    }
}

/// A 64-bit checksum: every step is a bijection of the state, so any
/// single changed byte changes the result.
pub(crate) fn checksum(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        let mut chunks = part.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            h = (h ^ u64::from_le_bytes(w)).wrapping_mul(0x0000_0100_0000_01b3);
            h = h.rotate_left(29);
        }
        for &b in chunks.remainder() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= part.len() as u64;
    }
    h
}
