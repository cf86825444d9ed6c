//! The table file: a versioned header and run-length coded values.
//!
//! ```text
//! magic      8  "KIBITZTB"
//! version    4  u32 LE (FORMAT_VERSION)
//! metric     1  1 = DTM in plies (Gaviota signs), one byte per position
//! name_len   1  then the material name, e.g. "KQvKR"
//! size       8  u64 positions per side to move (the index size)
//! stats     80  per side to move: positions, wins, draws, losses (u64),
//!               longest win, longest loss (u32)
//! payload    8  u64 length of the coded values
//! checksum   8  u64 over every byte above and the payload
//! payload       the 2 * size value codes, run-length coded
//! ```
//!
//! Unused indices (overlapping pieces, non-canonical symmetric images,
//! illegal positions) are "don't care": they take the value before them,
//! which lengthens runs. Probes never reach them.
//!
//! Run-length code: a control byte `c`; `c < 128`: `c + 1` literal bytes
//! follow; `128 <= c < 255`: the next byte repeated `c - 125` times (3 to
//! 129); `c = 255`: a LEB128 count, then the byte repeated that often.

use super::index::Layout;
use super::material::Material;
use super::table::{ILLEGAL, SideStats, Table, TableStats};
use std::path::{Path, PathBuf};

pub(crate) const MAGIC: &[u8; 8] = b"KIBITZTB";
pub const FORMAT_VERSION: u32 = 1;
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

fn rle_encode(values: &[u8]) -> Vec<u8> {
    // Fill unused entries with their predecessor's value.
    let mut out = Vec::with_capacity(values.len() / 4);
    let mut prev = 0u8;
    let filled: Vec<u8> = values
        .iter()
        .map(|&v| {
            if v != ILLEGAL {
                prev = v;
            }
            prev
        })
        .collect();
    let v = &filled;
    let mut i = 0;
    let mut lit_start = 0;
    let flush_literals = |out: &mut Vec<u8>, from: usize, to: usize| {
        let mut s = from;
        while s < to {
            let n = (to - s).min(128);
            out.push((n - 1) as u8);
            out.extend_from_slice(&v[s..s + n]);
            s += n;
        }
    };
    while i < v.len() {
        let b = v[i];
        let mut j = i + 1;
        while j < v.len() && v[j] == b {
            j += 1;
        }
        let run = j - i;
        if run >= 3 {
            flush_literals(&mut out, lit_start, i);
            if run <= 129 {
                out.push((run + 125) as u8);
            } else {
                out.push(255);
                let mut n = run as u64;
                loop {
                    let byte = (n & 0x7f) as u8;
                    n >>= 7;
                    if n == 0 {
                        out.push(byte);
                        break;
                    }
                    out.push(byte | 0x80);
                }
            }
            out.push(b);
            lit_start = j;
        }
        i = j;
    }
    flush_literals(&mut out, lit_start, v.len());
    out
}

fn rle_decode(data: &[u8], expected: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(expected);
    let mut i = 0;
    let short = || "the values end early".to_string();
    while i < data.len() {
        let c = data[i];
        i += 1;
        if c < 128 {
            let n = c as usize + 1;
            let lit = data.get(i..i + n).ok_or_else(short)?;
            out.extend_from_slice(lit);
            i += n;
        } else {
            let n = if c < 255 {
                c as usize - 125
            } else {
                let mut n: u64 = 0;
                let mut shift = 0;
                loop {
                    let byte = *data.get(i).ok_or_else(short)?;
                    i += 1;
                    if shift > 56 {
                        return Err("a run length is too long".into());
                    }
                    n |= u64::from(byte & 0x7f) << shift;
                    shift += 7;
                    if byte & 0x80 == 0 {
                        break;
                    }
                }
                n as usize
            };
            let b = *data.get(i).ok_or_else(short)?;
            i += 1;
            if n > expected - out.len() {
                return Err("more values than positions".into());
            }
            out.resize(out.len() + n, b);
        }
        if out.len() > expected {
            return Err("more values than positions".into());
        }
    }
    if out.len() != expected {
        return Err(format!("{} values for {} positions", out.len(), expected));
    }
    Ok(out)
}

/// The file's bytes.
pub(crate) fn encode(table: &Table) -> Vec<u8> {
    let name = table.layout.material.to_string();
    let payload = rle_encode(&table.values);
    let mut h = Vec::with_capacity(128);
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
    h.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let sum = checksum(&[&h, &payload]);
    h.extend_from_slice(&sum.to_le_bytes());
    h.extend_from_slice(&payload);
    h
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.data.get(self.pos..self.pos + n)?;
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

/// Reads and checks a table file.
pub(crate) fn read(path: &Path, material: &Material) -> Result<Table, FileError> {
    let data = std::fs::read(path).map_err(|source| FileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode(&data, path, material)
}

pub(crate) fn decode(data: &[u8], path: &Path, material: &Material) -> Result<Table, FileError> {
    let corrupt = |reason: &str| FileError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    let mut r = Reader { data, pos: 0 };
    if r.take(8) != Some(&MAGIC[..]) {
        return Err(FileError::NotATable {
            path: path.to_path_buf(),
        });
    }
    let version = r.u32().ok_or_else(|| corrupt("the header is cut short"))?;
    if version != FORMAT_VERSION {
        return Err(FileError::Version {
            path: path.to_path_buf(),
            found: version,
        });
    }
    let short = || corrupt("the header is cut short");
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
    let payload_len = r.u64().ok_or_else(short)?;
    let header_end = r.pos;
    let sum = r.u64().ok_or_else(short)?;
    let payload = &data[r.pos..];
    if payload.len() as u64 != payload_len {
        return Err(corrupt(&format!(
            "{} bytes of values, the header says {payload_len}",
            payload.len()
        )));
    }
    if checksum(&[&data[..header_end], payload]) != sum {
        return Err(corrupt("checksum mismatch"));
    }
    if metric != METRIC_DTM {
        return Err(corrupt(&format!("unknown metric {metric}")));
    }
    if name != material.to_string().as_bytes() {
        return Err(corrupt(&format!(
            "it holds {}, not {material}",
            String::from_utf8_lossy(name)
        )));
    }
    let layout = Layout::new(*material);
    if size != layout.size as u64 {
        return Err(corrupt("its index size does not match this program's"));
    }
    let values = rle_decode(payload, 2 * layout.size).map_err(|e| corrupt(&e))?;
    Ok(Table {
        layout,
        values: values.into_boxed_slice(),
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rle_round_trip() {
        let mut v = vec![0u8; 1000];
        v.extend((0..300).map(|i| (i % 7) as u8 + 2));
        v.extend([5, 5, 5, 6, 6, 9]);
        v.extend(std::iter::repeat_n(7, 129));
        v.extend(std::iter::repeat_n(8, 130));
        v.extend(std::iter::repeat_n(9, 3));
        let enc = rle_encode(&v);
        assert!(enc.len() < v.len() / 3);
        assert_eq!(rle_decode(&enc, v.len()).unwrap(), v);
        assert!(rle_decode(&enc, v.len() + 1).is_err());
        assert!(rle_decode(&enc[..enc.len() - 1], v.len()).is_err());
        // Unused entries take the previous value.
        assert_eq!(
            rle_decode(&rle_encode(&[3, ILLEGAL, 4, ILLEGAL]), 4).unwrap(),
            [3, 3, 4, 4]
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
