//! Small shared helpers.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A small, fast, seedable random number generator (SplitMix64). Used for
/// book move choice, strength levels and tests; not for anything secret.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// Seeded from the clock and the process id.
    pub fn from_entropy() -> Rng {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        Rng::new(t ^ (std::process::id() as u64).rotate_left(32))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Writes a file atomically: a temporary file in the same directory, flushed
/// and synced, then renamed over the target. A crash leaves either the old or
/// the new contents, never a mix.
/// (year, month, day, hour, minute, second) in UTC for a Unix time.
pub fn civil_time(unix_secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (unix_secs / 86_400) as i64;
    let rem = unix_secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        (rem / 60 % 60) as u32,
        (rem % 60) as u32,
    )
}

/// Seconds since 1970 (0 if the clock is before it).
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Today's date as PGN wants it: `2026.11.22` (UTC).
pub fn today() -> String {
    let (y, m, d, ..) = civil_time(unix_now());
    format!("{y:04}.{m:02}.{d:02}")
}

/// A file-name time stamp: `2026-11-22_081502` (UTC).
pub fn timestamp() -> String {
    let (y, mo, d, h, mi, s) = civil_time(unix_now());
    format!("{y:04}-{mo:02}-{d:02}_{h:02}{mi:02}{s:02}")
}

pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, true, |f| f.write_all(contents))
}

/// [`write_atomic`] of what `fill` writes into the (temporary) file: it
/// may write it in parts and seek back.
pub fn write_atomic_by(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_atomic_with(path, true, fill)
}

/// [`write_atomic`] without waiting for the disk: the new contents survive
/// the process being killed at any moment (the kernel has them), but not a
/// power cut until [`sync_file`] has run.
pub fn write_atomic_unsynced(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, false, |f| f.write_all(contents))
}

/// Waits until a file's contents are on disk.
pub fn sync_file(path: &Path) -> std::io::Result<()> {
    std::fs::File::open(path)?.sync_all()
}

fn write_atomic_with(
    path: &Path,
    sync: bool,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    // Unique per process and per call: two threads (or two copies of
    // Kibitz) writing the same file never share a temp file.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp_name = format!(".{name}.{}-{n}.tmp", std::process::id());
    let tmp = match dir {
        Some(d) => d.join(tmp_name),
        None => PathBuf::from(tmp_name),
    };
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        fill(&mut f)?;
        if sync {
            f.sync_all()?;
        }
        Ok(())
    })();
    written
        .and_then(|()| std::fs::rename(&tmp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
}

/// Removes the temp files [`write_atomic`] left in `dir` when its process
/// was killed mid-write (`.NAME.PID-N.tmp` of a process that is gone).
/// They were never renamed into place, so nothing reads them; this only
/// frees the space. Where a process cannot be looked up (no `/proc`), a
/// temp file older than a day counts as left over.
pub fn remove_stale_temp_files(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let proc = Path::new("/proc/self").exists();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
            continue;
        };
        let Some(pid) = rest
            .rsplit('.')
            .next()
            .and_then(|t| t.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let gone = if pid == std::process::id() {
            false
        } else if proc {
            !Path::new(&format!("/proc/{pid}")).exists()
        } else {
            e.metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 86_400)
        };
        if gone {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// 1234567 -> "1,234,567".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Where the shared reference data lives (tests and measurements), if present:
/// `$KIBITZ_DATA` or `../shared/data` next to the crate.
pub fn shared_data_dir() -> Option<std::path::PathBuf> {
    if let Ok(p) = std::env::var("KIBITZ_DATA") {
        let p = std::path::PathBuf::from(p);
        return p.is_dir().then_some(p);
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    p.is_dir().then_some(p)
}

/// The name in `names` closest to `word` (a misspelling, other capitals),
/// if one is close enough to be what was meant.
pub fn nearest<'a>(word: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word: Vec<char> = word.to_lowercase().chars().collect();
    names
        .into_iter()
        .map(|n| {
            let name: Vec<char> = n.chars().collect();
            let most = (word.len().max(name.len()) / 3).max(1);
            (edit_distance(&word, &name), most, n)
        })
        .filter(|&(d, most, _)| d <= most)
        .min_by_key(|&(d, _, _)| d)
        .map(|(_, _, n)| n)
}

/// Edits (insert, delete, change, swap two neighbours) from `a` to `b`.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// The text of a file: UTF-8 when it is (a leading byte-order mark
/// dropped), else Latin-1, one character per byte (older game databases
/// such as FICS' write names like "Müller" with the single byte 0xFC).
/// Never fails: every byte string is Latin-1.
pub fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.strip_prefix('\u{feff}').unwrap_or(s).to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_is_utf8_or_latin1() {
        assert_eq!(super::decode_text("Müller".as_bytes()), "Müller");
        assert_eq!(super::decode_text(b"M\xfcller"), "Müller");
        assert_eq!(super::decode_text(b"\xef\xbb\xbfabc"), "abc");
        assert_eq!(super::decode_text(b""), "");
    }

    #[test]
    fn civil_dates() {
        assert_eq!(super::civil_time(0), (1970, 1, 1, 0, 0, 0));
        // 2026-11-22 08:15:02 UTC
        assert_eq!(super::civil_time(1_795_335_302), (2026, 11, 22, 8, 15, 2));
        assert_eq!(super::civil_time(951_782_400), (2000, 2, 29, 0, 0, 0));
    }

    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = Rng::new(1);
        let mut b = Rng::new(1);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut counts = [0; 5];
        for _ in 0..5000 {
            counts[a.below(5)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 800), "{counts:?}");
        let u = a.unit();
        assert!((0.0..1.0).contains(&u));
    }

    #[test]
    fn atomic_write_replaces_contents() {
        let dir = std::env::temp_dir().join(format!("kibitz-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("game.pgn");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn threads_writing_one_file_at_once_leave_it_whole() {
        let dir = std::env::temp_dir().join(format!("kibitz-atomic-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("table.tbl");
        let texts: Vec<Vec<u8>> = (0..8u8).map(|k| vec![b'a' + k; 100_000]).collect();
        std::thread::scope(|s| {
            for t in &texts {
                let f = &f;
                s.spawn(move || {
                    for _ in 0..10 {
                        write_atomic_unsynced(f, t).unwrap();
                    }
                });
            }
        });
        let got = std::fs::read(&f).unwrap();
        assert!(texts.contains(&got), "one writer's whole text, not a mix");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stale_temp_files_of_dead_processes_go() {
        if !Path::new("/proc/self").exists() {
            eprintln!("skipped: no /proc to tell running processes");
            return;
        }
        let dir = std::env::temp_dir().join(format!("kibitz-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A pid above the kernel's maximum (4194304) is never running.
        let dead = dir.join(".KQvK.tbl.4999999-0.tmp");
        let alive = dir.join(format!(".KQvK.tbl.{}-3.tmp", std::process::id()));
        let other = dir.join("notes.tmp");
        for p in [&dead, &alive, &other] {
            std::fs::write(p, b"x").unwrap();
        }
        remove_stale_temp_files(&dir);
        assert!(!dead.exists());
        assert!(alive.exists(), "our own write in progress stays");
        assert!(other.exists(), "not a temp file of ours");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
