//! A small mutational fuzzer for every reader of outside data (`kibitz
//! fuzz TARGET`), on stable Rust. Files, engines and users hand Kibitz
//! text and bytes it did not write; each reader must answer bad input with
//! an error, never a panic or a hang.
//!
//! A run starts from a corpus (the target's built-in seeds and the files in
//! `tests/fuzz/<target>/`), mutates inputs ([`mutate`]), and runs the
//! reader under `catch_unwind` with a watchdog. Inputs the reader accepts
//! join the pool, so later mutations start from valid data and reach
//! deeper. A panic or hang saves the input as `crash-<hash>` in the
//! target's corpus folder (where `tests/fuzz.rs` replays it from then on).
//! The run is deterministic for a seed and iteration count.
//!
//! The readers span every layer, so this module sits above them all.

pub mod mutate;
pub mod targets;

pub use targets::{Target, targets};

use crate::util::Rng;
use std::hash::{Hash, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one input may take before it counts as a hang. Readers take
/// microseconds; two seconds is far beyond any honest input here.
pub const HANG_AFTER: Duration = Duration::from_secs(2);

/// The inputs kept to mutate from (accepted ones replace old ones beyond
/// this many).
const POOL_MAX: usize = 1024;

/// The corpus folder of the source tree this binary was built from
/// (`tests/fuzz`).
pub fn default_corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fuzz")
}

/// How long a run goes and where it reads and writes.
#[derive(Clone, Debug)]
pub struct Options {
    /// Stop after this many executions (with `seconds`: whichever comes
    /// first).
    pub iterations: Option<u64>,
    pub seconds: Option<f64>,
    pub seed: u64,
    /// Holds `<target>/` folders of seed inputs.
    pub corpus_dir: PathBuf,
    /// Where a crash input is saved (default: the target's corpus folder).
    pub out: Option<PathBuf>,
    /// The watchdog's limit per input.
    pub hang_after: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            iterations: None,
            seconds: None,
            seed: 1,
            corpus_dir: default_corpus_dir(),
            out: None,
            hang_after: HANG_AFTER,
        }
    }
}

/// A panic found (hangs end the process, see [`run`]).
#[derive(Clone, Debug)]
pub struct Crash {
    pub message: String,
    /// Where the input was saved (`None` if it could not be).
    pub file: Option<PathBuf>,
    pub input: Vec<u8>,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Report {
    pub target: &'static str,
    pub executions: u64,
    pub elapsed: Duration,
    /// Distinct inputs tried, estimated (HyperLogLog, about 3 %).
    pub distinct: u64,
    /// Inputs in the starting corpus.
    pub corpus: usize,
    /// A hash of every input tried, in order: equal for two runs that
    /// tried the same inputs (a run is repeatable).
    pub fingerprint: u64,
    pub crash: Option<Crash>,
}

impl Report {
    pub fn execs_per_sec(&self) -> f64 {
        self.executions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The target named `name`.
pub fn find(name: &str) -> Option<Target> {
    targets().into_iter().find(|t| t.name == name)
}

/// The files of a target's corpus folder, sorted by name (so runs are
/// repeatable); none when the folder is missing.
pub fn corpus_files(dir: &Path, target: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir.join(target)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// A stable hash of an input (names crash files).
pub fn input_hash(data: &[u8]) -> u64 {
    // SipHash with fixed keys: the same on every run and machine.
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    data.hash(&mut h);
    h.finish()
}

// Panics are counted in every thread (a reader may panic in a thread it
// started and carry on), and the last message is kept for the report.
static PANICS: AtomicU64 = AtomicU64::new(0);
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

type Hook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Replaces the panic hook with a quiet one that records the panic, and
/// puts the old one back when dropped.
struct QuietPanics {
    old: Option<Hook>,
}

impl QuietPanics {
    fn install() -> QuietPanics {
        let old = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            let msg = match info.payload().downcast_ref::<&str>() {
                Some(s) => (*s).to_string(),
                None => match info.payload().downcast_ref::<String>() {
                    Some(s) => s.clone(),
                    None => "(no message)".to_string(),
                },
            };
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = format!("{msg}{at}");
            }
            PANICS.fetch_add(1, Ordering::SeqCst);
        }));
        QuietPanics { old: Some(old) }
    }
}

impl Drop for QuietPanics {
    fn drop(&mut self) {
        if let Some(old) = self.old.take() {
            std::panic::set_hook(old);
        }
    }
}

/// Runs `target` on one input; `Err` holds the panic message. Panics in
/// threads the reader started count too.
pub fn run_one(target: &Target, data: &[u8]) -> Result<bool, String> {
    let _quiet = QuietPanics::install();
    execute(target, data)
}

fn execute(target: &Target, data: &[u8]) -> Result<bool, String> {
    let before = PANICS.load(Ordering::SeqCst);
    let result = catch_unwind(AssertUnwindSafe(|| (target.run)(data)));
    let panicked = PANICS.load(Ordering::SeqCst) != before;
    match result {
        Ok(accepted) if !panicked => Ok(accepted),
        _ => Err(LAST_PANIC
            .lock()
            .map(|m| m.clone())
            .unwrap_or_else(|_| "(panic)".to_string())),
    }
}

/// Saves a crash input where `opts` says; its path.
fn save(opts: &Options, target: &str, data: &[u8]) -> Option<PathBuf> {
    let dir = opts
        .out
        .clone()
        .unwrap_or_else(|| opts.corpus_dir.join(target));
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!("crash-{:016x}", input_hash(data)));
    std::fs::write(&path, data).ok()?;
    Some(path)
}

/// The input being run, for the watchdog.
struct Current {
    started: Instant,
    input: Vec<u8>,
}

/// Watches for an input that runs too long. It cannot stop the reader's
/// thread, so on a hang it saves the input, says so and ends the process
/// with status 3.
fn watchdog(
    opts: Options,
    target: &'static str,
    current: Arc<Mutex<Option<Current>>>,
    done: Arc<AtomicBool>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !done.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(50));
            let hung = current.lock().ok().and_then(|c| {
                c.as_ref()
                    .filter(|c| c.started.elapsed() > opts.hang_after)
                    .map(|c| c.input.clone())
            });
            if let Some(input) = hung {
                let file = save(&opts, target, &input);
                eprintln!(
                    "fuzz {target}: HANG: an input ran over {:.1} s; saved to {}",
                    opts.hang_after.as_secs_f64(),
                    file.map_or("(could not save)".into(), |p| p.display().to_string())
                );
                std::process::exit(3);
            }
        }
    })
}

/// Fuzzes `target` until the iteration count or the time is reached, or
/// an input panics (the report's `crash`). A hang ends the process (see
/// [`watchdog`]). Without a limit it runs 10,000 inputs.
pub fn run(target: &Target, opts: &Options) -> Report {
    let mut pool: Vec<Vec<u8>> = (target.seeds)();
    for f in corpus_files(&opts.corpus_dir, target.name) {
        if let Ok(bytes) = std::fs::read(&f) {
            pool.push(bytes);
        }
    }
    if pool.is_empty() {
        pool.push(Vec::new());
    }
    let corpus = pool.len();
    // Accepted inputs much longer than the seeds are not kept: padding a
    // valid input (a FEN with 60 KB of spaces) is still valid, and a pool
    // of such inputs slows every execution a hundredfold.
    let keep_up_to = 2 * pool.iter().map(Vec::len).max().unwrap_or(0) + 256;
    let iterations = match (opts.iterations, opts.seconds) {
        (None, None) => Some(10_000),
        (i, _) => i,
    };
    // Too long for a Duration is for ever; NaN or negative, no time.
    let deadline = opts
        .seconds
        .map(|s| Duration::try_from_secs_f64(s.max(0.0)).unwrap_or(Duration::MAX));
    let mut rng = Rng::new(opts.seed);
    let mut distinct = Hll::new();
    let current = Arc::new(Mutex::new(None));
    let done = Arc::new(AtomicBool::new(false));
    let dog = watchdog(opts.clone(), target.name, current.clone(), done.clone());
    let quiet = QuietPanics::install();
    let start = Instant::now();
    let mut executions = 0u64;
    let mut fingerprint = 0u64;
    let mut crash = None;
    // The corpus as it is comes first, then mutations.
    let mut next_seed = 0;
    loop {
        if iterations.is_some_and(|n| executions >= n)
            || deadline.is_some_and(|d| start.elapsed() >= d)
        {
            break;
        }
        let mutated = next_seed >= corpus;
        let input = if !mutated {
            next_seed += 1;
            pool[next_seed - 1].clone()
        } else {
            let a = rng.below(pool.len());
            let b = rng.below(pool.len());
            mutate::mutate(&mut rng, &pool[a], &pool[b], target.tokens)
        };
        let h = input_hash(&input);
        distinct.add(h);
        fingerprint = fingerprint.rotate_left(7) ^ h;
        if let Ok(mut c) = current.lock() {
            *c = Some(Current {
                started: Instant::now(),
                input: input.clone(),
            });
        }
        let result = execute(target, &input);
        if let Ok(mut c) = current.lock() {
            *c = None;
        }
        executions += 1;
        match result {
            Ok(true) if mutated && input.len() <= keep_up_to => {
                if pool.len() < POOL_MAX {
                    pool.push(input);
                } else if pool.len() > corpus {
                    // Keep the seeds; replace an accepted input.
                    let i = corpus + rng.below(pool.len() - corpus);
                    pool[i] = input;
                }
            }
            Ok(_) => {}
            Err(message) => {
                let file = save(opts, target.name, &input);
                crash = Some(Crash {
                    message,
                    file,
                    input,
                });
                break;
            }
        }
    }
    let elapsed = start.elapsed();
    drop(quiet);
    done.store(true, Ordering::SeqCst);
    let _ = dog.join();
    Report {
        target: target.name,
        executions,
        elapsed,
        distinct: distinct.estimate(),
        corpus,
        fingerprint,
        crash,
    }
}

/// Replays every file of a target's corpus folder; the first that panics,
/// with its message.
pub fn replay_corpus(target: &Target, dir: &Path) -> Result<usize, (PathBuf, String)> {
    let files = corpus_files(dir, target.name);
    for f in &files {
        let data = std::fs::read(f).map_err(|e| (f.clone(), e.to_string()))?;
        run_one(target, &data).map_err(|m| (f.clone(), m))?;
    }
    Ok(files.len())
}

/// A HyperLogLog counter: distinct inputs in 1 KB, whatever the run's
/// length.
struct Hll {
    regs: Vec<u8>,
}

impl Hll {
    const BITS: u32 = 10;

    fn new() -> Hll {
        Hll {
            regs: vec![0; 1 << Self::BITS],
        }
    }

    fn add(&mut self, hash: u64) {
        let i = (hash >> (64 - Self::BITS)) as usize;
        let rest = hash << Self::BITS;
        let rank = (rest.leading_zeros() + 1).min(64 - Self::BITS + 1) as u8;
        if rank > self.regs[i] {
            self.regs[i] = rank;
        }
    }

    fn estimate(&self) -> u64 {
        let m = self.regs.len() as f64;
        let sum: f64 = self.regs.iter().map(|&r| 2f64.powi(-i32::from(r))).sum();
        let raw = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
        let zeros = self.regs.iter().filter(|&&r| r == 0).count();
        if raw <= 2.5 * m && zeros > 0 {
            // Small counts: linear counting is exact enough.
            (m * (m / zeros as f64).ln()).round() as u64
        } else {
            raw.round() as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hll_estimates_within_a_few_percent() {
        for n in [10u64, 1000, 100_000] {
            let mut h = Hll::new();
            for i in 0..n {
                h.add(input_hash(&i.to_le_bytes()));
                // Repeats do not count.
                h.add(input_hash(&i.to_le_bytes()));
            }
            let e = h.estimate() as f64;
            assert!((e - n as f64).abs() <= n as f64 * 0.08 + 1.0, "{n}: {e}");
        }
    }

    fn boom(data: &[u8]) -> bool {
        if data.windows(3).any(|w| w == b"BUG") {
            panic!("found it");
        }
        true
    }

    #[test]
    fn a_panic_is_caught_saved_and_reported() {
        let dir = std::env::temp_dir().join(format!("kibitz-fuzz-test-{}", std::process::id()));
        let target = Target {
            name: "boom",
            about: "test",
            run: boom,
            seeds: || vec![b"BU".to_vec()],
            tokens: &[b"G"],
        };
        let opts = Options {
            iterations: Some(200_000),
            corpus_dir: dir.join("corpus"),
            out: Some(dir.join("out")),
            ..Options::default()
        };
        let r = run(&target, &opts);
        let crash = r.crash.expect("the fuzzer finds BUG");
        assert!(crash.message.contains("found it"), "{}", crash.message);
        let file = crash.file.expect("saved");
        let saved = std::fs::read(&file).unwrap();
        assert!(saved.windows(3).any(|w| w == b"BUG"));
        assert!(run_one(&target, &saved).is_err());
        assert_eq!(run_one(&target, b"fine"), Ok(true));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
