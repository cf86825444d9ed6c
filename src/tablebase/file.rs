//! The table file: a versioned header, a block index, and the values in
//! compressed blocks that a probe reads one at a time.
//!
//! ```text
//! magic      8  "KIBITZTB"
//! version    4  u32 LE (FORMAT_VERSION; 2 is read for tables without
//!               pawns, whose index did not change)
//! metric     1  1 = DTM in plies (Gaviota signs), one byte per position
//! name_len   1  then the material name, e.g. "KQvKR"
//! size       8  u64 positions per side to move (the index size: whole
//!               blocks with pawns, so that each half starts a block)
//! stats     80  per side to move: positions, wins, draws, losses (u64),
//!               longest win, longest loss (u32)
//! block      4  u32 values per block (BLOCK_VALUES)
//! blocks     4  u32 number of blocks
//! index         per block: compressed length (u32), checksum (u64)
//! checksum   8  u64 over every byte above
//! payload       the blocks, one after the other: the 2 * size value
//!               codes, White to move first, each block a zstd frame
//! ```
//!
//! Unused indices (overlapping pieces, non-canonical symmetric images,
//! illegal positions) are "don't care": they take the value before them in
//! their block, which compresses better. Probes never reach them.
//!
//! Why blocks of 32,768 values and zstd: the files of the four-piece
//! tables take 3.1 times less than the run-length code of format 1 at
//! level 9 (about 50 MB/s a core to write, 850 MB/s to read: 40 µs a
//! block); xz would save another 12% and read five times slower. Smaller blocks cost size, larger ones each probe
//! that misses the cache.

use super::index::Layout;
use super::material::Material;
use super::table::{ILLEGAL, SideStats, Table, TableStats};
pub(crate) use super::values::checksum;
use super::values::{BLOCK_VALUES, BlockRef, Blocks, Values, read_exact_at};
use std::path::{Path, PathBuf};

pub(crate) const MAGIC: &[u8; 8] = b"KIBITZTB";
pub const FORMAT_VERSION: u32 = 3;
/// Version 2 indexed tables with pawns by the White king; its tables
/// without pawns are the same as version 3's and still read.
const PAWNLESS_SINCE: u32 = 2;
/// zstd's level for the blocks of large tables (slower to write, 10%
/// smaller than [`SMALL_LEVEL`]) and of the tables kept in memory (every
/// table of up to four pieces: 30 MB together either way, and they are
/// made in seconds, which level 9 would lengthen by 4 s of CPU; level 1
/// compresses them a quarter faster than 3, 1.6% larger).
const LEVEL: i32 = 9;
const SMALL_LEVEL: i32 = 1;
/// Tables with at most this many values are read whole into memory when
/// opened (every table of up to four pieces); larger ones are read a
/// block at a time as probes need them.
pub(crate) const MEMORY_VALUES: usize = 32 << 20;

/// Is a table of `index_size` entries per side to move large (five
/// pieces): kept in its file, made alone on every thread?
pub(crate) fn is_large(index_size: usize) -> bool {
    2 * index_size > MEMORY_VALUES
}
const METRIC_DTM: u8 = 1;

/// Why a table file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a kibitz tablebase file")]
    NotATable { path: PathBuf },
    #[error("{path} has format version {found}, this program reads version {FORMAT_VERSION}")]
    Version { path: PathBuf, found: u32 },
    #[error("{path} is corrupt: {reason}")]
    Corrupt { path: PathBuf, reason: String },
}

impl FileError {
    /// Missing file (as opposed to a bad one)?
    pub fn is_missing(&self) -> bool {
        matches!(self, FileError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// The file name of a table.
pub fn file_name(m: &Material) -> String {
    format!("{m}.kbtb")
}

/// zstd's level for a table of `len` values (both halves).
pub(crate) fn level_for(len: usize) -> i32 {
    if len <= MEMORY_VALUES {
        SMALL_LEVEL
    } else {
        LEVEL
    }
}

/// A block of values as stored: unused entries ([`ILLEGAL`]) filled with
/// the value before them in the block, unless `exact` (the block holds
/// positions mated in [`MAX_DIST`](super::table::MAX_DIST), whose code is
/// ILLEGAL's), then compressed.
pub(crate) fn compress_block(values: &[u8], level: i32, exact: bool) -> Vec<u8> {
    let mut prev = 0u8;
    let filled: Vec<u8> = values
        .iter()
        .map(|&v| {
            if v != ILLEGAL || exact {
                prev = v;
            }
            prev
        })
        .collect();
    // A level in range and a buffer in memory: zstd cannot fail here.
    // Each thread keeps its compressor: making one costs as much as
    // compressing a small table's block.
    thread_local! {
        static ZSTD: std::cell::RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
            const { std::cell::RefCell::new(None) };
    }
    let reused = ZSTD.with(|z| {
        let mut z = z.borrow_mut();
        if z.as_ref().is_none_or(|(l, _)| *l != level) {
            *z = zstd::bulk::Compressor::new(level).ok().map(|c| (level, c));
        }
        z.as_mut().and_then(|(_, c)| c.compress(&filled).ok())
    });
    let mut out = reused.unwrap_or_else(|| {
        zstd::bulk::compress(&filled, level)
            .unwrap_or_else(|_| zstd::bulk::compress(&filled, 1).unwrap_or_default())
    });
    // Its buffer had room for the worst case, about as many bytes as
    // values: kept for every block of a large table, that is its size
    // again in memory.
    out.shrink_to_fit();
    out
}

/// Blocks compressed at once while a file is written (then written and
/// dropped: memory stays small whatever the table's size).
const BATCH: usize = 256;

/// Writes the file of `table` atomically (a temp file renamed), its
/// blocks compressed on `threads` threads; returns its length. The header
/// is written last, over room left for it: its index holds the blocks'
/// lengths.
pub(crate) fn write(table: &Table, path: &Path, threads: usize) -> Result<u64, WriteError> {
    use std::io::{Seek, SeekFrom, Write};
    let len = table.values.len();
    let blocks = len.div_ceil(BLOCK_VALUES);
    let level = level_for(len);
    let name = table.layout.material.to_string();
    let head_len = 8 + 4 + 1 + 1 + name.len() + 8 + 80 + 4 + 4 + 12 * blocks + 8;
    let mut index: Vec<(u32, u64)> = Vec::with_capacity(blocks);
    let mut failure: Option<String> = None;
    let mut total = head_len as u64;
    let written = crate::util::write_atomic_by(path, |f| {
        let mut out = std::io::BufWriter::new(f);
        out.write_all(&vec![0; head_len])?;
        for first in (0..blocks).step_by(BATCH) {
            let batch =
                match compress_batch(table, first..(first + BATCH).min(blocks), level, threads) {
                    Ok(b) => b,
                    Err(e) => {
                        failure = Some(e);
                        return Err(std::io::Error::other("a block could not be read"));
                    }
                };
            for b in &batch {
                out.write_all(b)?;
                index.push((b.len() as u32, checksum(&[b])));
                total += b.len() as u64;
            }
        }
        let mut h = Vec::with_capacity(head_len);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        h.push(METRIC_DTM);
        h.push(name.len() as u8);
        h.extend_from_slice(name.as_bytes());
        h.extend_from_slice(&(table.layout.size as u64).to_le_bytes());
        for s in &table.stats.sides {
            for n in [s.positions, s.wins, s.draws, s.losses] {
                h.extend_from_slice(&n.to_le_bytes());
            }
            h.extend_from_slice(&s.longest_win.to_le_bytes());
            h.extend_from_slice(&s.longest_loss.to_le_bytes());
        }
        h.extend_from_slice(&(BLOCK_VALUES as u32).to_le_bytes());
        h.extend_from_slice(&(blocks as u32).to_le_bytes());
        for (n, sum) in &index {
            h.extend_from_slice(&n.to_le_bytes());
            h.extend_from_slice(&sum.to_le_bytes());
        }
        let sum = checksum(&[&h]);
        h.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(h.len(), head_len);
        let f = out.into_inner().map_err(|e| e.into_error())?;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&h)
    });
    match (written, failure) {
        (_, Some(e)) => Err(WriteError::Values(e)),
        (Err(e), None) => Err(WriteError::Io(e)),
        (Ok(()), None) => Ok(total),
    }
}

/// Why a table file was not written.
#[derive(Debug)]
pub(crate) enum WriteError {
    Io(std::io::Error),
    /// A value could not be read (a block of the table's own file).
    Values(String),
}

/// Blocks `range` of `table`, compressed on `threads` threads, in order.
fn compress_batch(
    table: &Table,
    range: std::ops::Range<usize>,
    level: i32,
    threads: usize,
) -> Result<Vec<Vec<u8>>, String> {
    if let super::values::Values::Packed(p) = &table.values {
        // Compressed as they are stored already.
        return range.map(|k| p.compressed(k)).collect();
    }
    let len = table.values.len();
    let next = std::sync::atomic::AtomicUsize::new(range.start);
    let parts = std::thread::scope(|s| {
        let work = || {
            let mut done = Vec::new();
            loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if k >= range.end {
                    break;
                }
                let start = k * BLOCK_VALUES;
                let mut block = vec![0; BLOCK_VALUES.min(len - start)];
                table.values.copy_to(start, &mut block)?;
                done.push((k, compress_block(&block, level, false)));
            }
            Ok(done)
        };
        let handles: Vec<_> = (0..threads.clamp(1, 16)).map(|_| s.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect::<Vec<Result<Vec<_>, String>>>()
    });
    let mut blocks: Vec<Vec<u8>> = vec![Vec::new(); range.len()];
    for part in parts {
        for (k, b) in part? {
            blocks[k - range.start] = b;
        }
    }
    Ok(blocks)
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.data.get(self.pos..self.pos.checked_add(n)?)?;
        self.pos += n;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|s| s[0])
    }
    fn u32(&mut self) -> Option<u32> {
        let mut b = [0; 4];
        b.copy_from_slice(self.take(4)?);
        Some(u32::from_le_bytes(b))
    }
    fn u64(&mut self) -> Option<u64> {
        let mut b = [0; 8];
        b.copy_from_slice(self.take(8)?);
        Some(u64::from_le_bytes(b))
    }
}

/// What the header says.
struct Header {
    stats: TableStats,
    layout: Layout,
    index: Vec<BlockRef>,
}

/// Reads and checks a table file: whole into memory if it is small (or
/// `whole`), else its header and block index, the blocks read as probes
/// need them (each checked against its checksum then).
pub(crate) fn read(path: &Path, material: &Material) -> Result<Table, FileError> {
    open(path, material, Keep::BySize)
}

/// Where a table's values are kept once its file is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// In memory up to [`MEMORY_VALUES`], else in the file.
    BySize,
    #[cfg(test)]
    InFile,
}

/// [`read`], keeping the values as `keep` says.
pub(crate) fn open(path: &Path, material: &Material, keep: Keep) -> Result<Table, FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let file_len = file.metadata().map_err(io)?.len();
    // The header: fixed fields, then the index (its length is in them).
    let mut head = vec![0; file_len.min(256) as usize];
    read_exact_at(&file, &mut head, 0).map_err(io)?;
    let blocks = fixed_fields(&head, path, material.has_pawns())?.1;
    let head_len = header_len(&head, blocks, path)?;
    if head_len as u64 > file_len {
        return Err(corrupt(path, "the header is cut short"));
    }
    let mut head = vec![0; head_len];
    read_exact_at(&file, &mut head, 0).map_err(io)?;
    let h = parse_header(&head, path, material, file_len)?;
    let len = 2 * h.layout.size;
    let in_memory = match keep {
        Keep::BySize => len <= MEMORY_VALUES,
        #[cfg(test)]
        Keep::InFile => false,
    };
    let values = if in_memory {
        let mut data = vec![0; (file_len - head_len as u64) as usize];
        read_exact_at(&file, &mut data, head_len as u64).map_err(io)?;
        Values::Memory(decompress_all(&data, &h.index, head_len as u64, len, path)?)
    } else {
        Values::Blocks(Box::new(Blocks::new(
            file,
            path.to_path_buf(),
            len,
            h.index.into(),
        )))
    };
    Ok(Table {
        layout: h.layout,
        values,
        stats: h.stats,
    })
}

/// Decodes a whole file held in memory (tests, corrupt-file checks).
pub(crate) fn decode(data: &[u8], path: &Path, material: &Material) -> Result<Table, FileError> {
    let blocks = fixed_fields(data, path, material.has_pawns())?.1;
    let head_len = header_len(data, blocks, path)?;
    let head = data
        .get(..head_len)
        .ok_or_else(|| corrupt(path, "the header is cut short"))?;
    let h = parse_header(head, path, material, data.len() as u64)?;
    let len = 2 * h.layout.size;
    let values = decompress_all(&data[head_len..], &h.index, head_len as u64, len, path)?;
    Ok(Table {
        layout: h.layout,
        values: Values::Memory(values),
        stats: h.stats,
    })
}

fn corrupt(path: &Path, reason: &str) -> FileError {
    FileError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

/// Checks the magic and version; returns the name's length and the number
/// of blocks.
fn fixed_fields(data: &[u8], path: &Path, pawns: bool) -> Result<(usize, u32), FileError> {
    let mut r = Reader { data, pos: 0 };
    if r.take(8) != Some(&MAGIC[..]) {
        return Err(FileError::NotATable {
            path: path.to_path_buf(),
        });
    }
    let short = || corrupt(path, "the header is cut short");
    let version = r.u32().ok_or_else(short)?;
    if version != FORMAT_VERSION && (pawns || version != PAWNLESS_SINCE) {
        return Err(FileError::Version {
            path: path.to_path_buf(),
            found: version,
        });
    }
    r.u8().ok_or_else(short)?;
    let name_len = r.u8().ok_or_else(short)? as usize;
    r.take(name_len + 8 + 80 + 4).ok_or_else(short)?;
    let blocks = r.u32().ok_or_else(short)?;
    Ok((name_len, blocks))
}

/// The header's length with `blocks` blocks: fixed fields, index, checksum.
fn header_len(data: &[u8], blocks: u32, path: &Path) -> Result<usize, FileError> {
    let name_len = fixed_fields(data, path, false)?.0;
    Ok(8 + 4 + 1 + 1 + name_len + 8 + 80 + 4 + 4 + 12 * blocks as usize + 8)
}

fn parse_header(
    data: &[u8],
    path: &Path,
    material: &Material,
    file_len: u64,
) -> Result<Header, FileError> {
    let short = || corrupt(path, "the header is cut short");
    let mut r = Reader { data, pos: 12 };
    let metric = r.u8().ok_or_else(short)?;
    let name_len = r.u8().ok_or_else(short)? as usize;
    let name = r.take(name_len).ok_or_else(short)?;
    let size = r.u64().ok_or_else(short)?;
    let mut stats = TableStats::default();
    for s in &mut stats.sides {
        *s = SideStats {
            positions: r.u64().ok_or_else(short)?,
            wins: r.u64().ok_or_else(short)?,
            draws: r.u64().ok_or_else(short)?,
            losses: r.u64().ok_or_else(short)?,
            longest_win: r.u32().ok_or_else(short)?,
            longest_loss: r.u32().ok_or_else(short)?,
        };
    }
    let block_values = r.u32().ok_or_else(short)?;
    let blocks = r.u32().ok_or_else(short)?;
    let mut index = Vec::with_capacity(blocks as usize);
    let mut offset = data.len() as u64;
    for _ in 0..blocks {
        let len = r.u32().ok_or_else(short)?;
        let sum = r.u64().ok_or_else(short)?;
        index.push(BlockRef { offset, len, sum });
        offset += u64::from(len);
    }
    let body_end = r.pos;
    let sum = r.u64().ok_or_else(short)?;
    if checksum(&[&data[..body_end]]) != sum {
        return Err(corrupt(path, "checksum mismatch in the header"));
    }
    if metric != METRIC_DTM {
        return Err(corrupt(path, &format!("unknown metric {metric}")));
    }
    if name != material.to_string().as_bytes() {
        return Err(corrupt(
            path,
            &format!("it holds {}, not {material}", String::from_utf8_lossy(name)),
        ));
    }
    let layout = Layout::new(*material);
    if size != layout.size as u64 {
        return Err(corrupt(
            path,
            "its index size does not match this program's",
        ));
    }
    if block_values as usize != BLOCK_VALUES
        || blocks as usize != (2 * layout.size).div_ceil(BLOCK_VALUES)
    {
        return Err(corrupt(path, "its blocks do not match its size"));
    }
    if offset != file_len {
        return Err(corrupt(
            path,
            &format!("{file_len} bytes, the header says {offset}"),
        ));
    }
    Ok(Header {
        stats,
        layout,
        index,
    })
}

/// Every block of `payload` (which starts at `base` in the file), checked
/// and decompressed.
fn decompress_all(
    payload: &[u8],
    index: &[BlockRef],
    base: u64,
    len: usize,
    path: &Path,
) -> Result<Box<[u8]>, FileError> {
    let mut out = Vec::with_capacity(len);
    for (k, b) in index.iter().enumerate() {
        let at = (b.offset - base) as usize;
        let raw = payload
            .get(at..at + b.len as usize)
            .ok_or_else(|| corrupt(path, "the values end early"))?;
        if checksum(&[raw]) != b.sum {
            return Err(corrupt(
                path,
                &format!("block {k} does not match its checksum"),
            ));
        }
        let want = BLOCK_VALUES.min(len - out.len());
        let block = zstd::bulk::decompress(raw, want)
            .map_err(|e| corrupt(path, &format!("block {k}: {e}")))?;
        if block.len() != want {
            return Err(corrupt(path, &format!("block {k} is short")));
        }
        out.extend_from_slice(&block);
    }
    Ok(out.into_boxed_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of made-up values for `material`, and its file.
    fn fake(material: &str, name: &str) -> (Vec<u8>, Table, PathBuf) {
        let m: Material = material.parse().unwrap();
        let layout = Layout::new(m);
        let values: Vec<u8> = (0..2 * layout.size)
            .map(|i| match i % 1000 {
                0..=9 => ILLEGAL,
                k => (2 + (i / 4096 + k / 300) % 40) as u8,
            })
            .collect();
        let table = Table {
            layout,
            values: Values::Memory(values.clone().into_boxed_slice()),
            stats: TableStats::default(),
        };
        let dir = std::env::temp_dir().join(format!("kibitz-tbfile-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(file_name(&m));
        write(&table, &path, 2).unwrap();
        (values, table, path)
    }

    #[test]
    fn a_table_read_block_by_block_has_every_value_and_a_bad_block_says_so() {
        let (values, table, path) = fake("KQvKR", "blocks");
        let m = table.layout.material;
        let lazy = open(&path, &m, Keep::InFile).unwrap();
        assert!(lazy.values.is_lazy());
        let whole = read(&path, &m).unwrap();
        assert!(!whole.values.is_lazy(), "four pieces: in memory");
        assert_eq!(lazy.values.len(), values.len());
        for i in (0..values.len()).step_by(997).chain([values.len() - 1]) {
            let want = if values[i] == ILLEGAL {
                None
            } else {
                Some(values[i])
            };
            if let Some(v) = want {
                assert_eq!(lazy.values.get(i), Some(v), "{i}");
                assert_eq!(whole.values.get(i), Some(v), "{i}");
            }
        }
        assert_eq!(lazy.values.get(values.len()), None);
        // One flipped byte in block 3: its values are refused, the others
        // still read.
        let mut bytes = std::fs::read(&path).unwrap();
        let Values::Blocks(b) = &lazy.values else {
            unreachable!()
        };
        let at = (b.index[3].offset + 5) as usize;
        bytes[at] ^= 0x20;
        std::fs::write(&path, &bytes).unwrap();
        let broken = open(&path, &m, Keep::InFile).unwrap();
        assert_eq!(broken.values.get(3 * BLOCK_VALUES + 20), None);
        assert_eq!(
            broken.values.get(2 * BLOCK_VALUES + 20),
            Some(values[2 * BLOCK_VALUES + 20])
        );
        let err = read(&path, &m)
            .err()
            .expect("read whole, the file is refused");
        assert!(err.to_string().contains("block 3"), "{err}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn blocks_fill_unused_entries_with_the_value_before_them() {
        let packed = compress_block(&[3, ILLEGAL, 4, ILLEGAL, ILLEGAL], LEVEL, false);
        assert_eq!(zstd::bulk::decompress(&packed, 5).unwrap(), [3, 3, 4, 4, 4]);
        // A block with positions mated in 254 plies keeps every code 1.
        let packed = compress_block(&[3, ILLEGAL, 4], LEVEL, true);
        assert_eq!(zstd::bulk::decompress(&packed, 3).unwrap(), [3, 1, 4]);
        // Each block starts afresh (files do not depend on the threads).
        assert_eq!(
            zstd::bulk::decompress(&compress_block(&[ILLEGAL, 7], SMALL_LEVEL, false), 2).unwrap(),
            [0, 7]
        );
    }

    #[test]
    fn checksum_sees_every_byte() {
        let data: Vec<u8> = (0..100u8).collect();
        let base = checksum(&[&data]);
        for i in 0..data.len() {
            let mut d = data.clone();
            d[i] ^= 0x10;
            assert_ne!(checksum(&[&d]), base, "byte {i}");
        }
    }
}
