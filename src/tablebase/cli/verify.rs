//! `kibitz tb verify`: the tables checked against Syzygy's win/draw/loss,
//! against themselves (`--self`), and against an independent engine's
//! mate search on random positions nobody chose (`--stockfish`).

use super::common::{open, parse_names, reporter};
use crate::tablebase::generate::is_legal;
use crate::tablebase::verify::{self, chess_of};
use crate::tablebase::{DEFAULT_MAX_PIECES, Material, Probe, Tablebases, Wdl};
use crate::util::thousands;
use anyhow::{Context, Result, bail};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// The tables to check: those named, else all up to four pieces.
fn tables(names: &[String]) -> Result<Vec<Material>> {
    Ok(if names.is_empty() {
        Material::all(DEFAULT_MAX_PIECES)
    } else {
        parse_names(names)?
    })
}

pub fn verify_self(names: &[String], sample: Option<usize>, dir: Option<PathBuf>) -> Result<()> {
    let list = tables(names)?;
    let mut tb = open(dir)?;
    tb.ensure_many(&list, &mut reporter())?;
    let (mut total, mut bad) = (0u64, 0u64);
    for m in &list {
        let every = sample.unwrap_or(if m.pieces() >= 5 { 101 } else { 1 });
        let started = Instant::now();
        let rep = tb
            .verify_self(m, every)
            .with_context(|| format!("{m} or a table its moves lead to is not loaded"))?;
        println!(
            "{m}: {} positions checked{}, {} mismatches ({:.1} s)",
            thousands(rep.checked),
            if every > 1 {
                format!(" (one index entry in {every})")
            } else {
                String::new()
            },
            thousands(rep.mismatches),
            started.elapsed().as_secs_f64()
        );
        for ex in &rep.examples {
            println!(
                "  {}: stored {:?}, best move gives {:?}",
                ex.fen, ex.stored, ex.search
            );
        }
        total += rep.checked;
        bad += rep.mismatches;
    }
    totals(
        list.len(),
        total,
        bad,
        "do not hold their best move's value",
    )
}

/// How the Stockfish check picks its positions.
#[derive(Clone, Copy, Debug)]
pub struct MateCheck {
    pub positions: usize,
    /// Mates of at most this many moves.
    pub max_mate: u32,
    pub seed: u64,
}

/// Random positions of the loaded table `m` whose side to move mates in
/// at most `max_mate` moves: FEN and mate in moves. Uniform over the index
/// (rejecting illegal entries and longer values), from `seed`.
pub fn random_short_mates(
    tb: &Tablebases,
    m: &Material,
    check: MateCheck,
) -> Option<Vec<(String, u32)>> {
    let t = tb.table(m)?;
    let total = 2 * t.layout.size;
    let mut rng = crate::util::Rng::new(check.seed);
    let mut out = Vec::new();
    let mut tries = 0u64;
    while out.len() < check.positions && tries < 200_000_000 {
        tries += 1;
        let i = (rng.next_u64() % total as u64) as usize;
        let (stm, idx) = if i < t.layout.size {
            (shakmaty::Color::White, i)
        } else {
            (shakmaty::Color::Black, i - t.layout.size)
        };
        let r = t.layout.decode(idx);
        if !t.layout.is_canonical(idx, &r) || !is_legal(&r, stm) {
            continue;
        }
        let Some(p) = t.values.get(i).map(Probe::from_code) else {
            continue;
        };
        if p.wdl != Wdl::Win || p.dtm > 2 * check.max_mate as i32 - 1 {
            continue;
        }
        let Some(pos) = chess_of(&r, stm) else {
            continue;
        };
        let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
        out.push((fen.to_string(), (p.dtm as u32).div_ceil(2)));
    }
    Some(out)
}

/// A UCI engine spoken to line by line.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(path: &Path) -> Result<Engine> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", path.display()))?;
        let stdin = child.stdin.take().context("no engine input")?;
        let stdout = BufReader::new(child.stdout.take().context("no engine output")?);
        let mut e = Engine {
            child,
            stdin,
            stdout,
        };
        e.send("uci")?;
        e.until("uciok")?;
        e.send("isready")?;
        e.until("readyok")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()?;
        Ok(())
    }

    /// Lines up to the one starting with `word` (returned last).
    fn until(&mut self, word: &str) -> Result<Vec<String>> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("the engine quit before '{word}'");
            }
            let line = line.trim_end().to_string();
            let done = line.starts_with(word);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// The mate the engine finds for the side to move of `fen`, searching
    /// for a mate in `moves` (at most `millis` ms): mate in how many
    /// moves, if any.
    fn mate(&mut self, fen: &str, moves: u32, millis: u64) -> Result<Option<i32>> {
        self.send("ucinewgame")?;
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go mate {moves} movetime {millis}"))?;
        let lines = self.until("bestmove")?;
        let mut found = None;
        for l in &lines {
            let words: Vec<&str> = l.split_whitespace().collect();
            if let Some(k) = words.windows(3).find(|w| w[0] == "score" && w[1] == "mate") {
                found = k[2].parse::<i32>().ok();
            }
        }
        Ok(found)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

pub fn verify_stockfish(
    engine: &Path,
    names: &[String],
    check: MateCheck,
    dir: Option<PathBuf>,
) -> Result<()> {
    let list = tables(names)?;
    let mut tb = open(dir)?;
    tb.ensure_many(&list, &mut reporter())?;
    let mut sf = Engine::start(engine)?;
    let (mut total, mut agree, mut shorter, mut missed) = (0usize, 0usize, 0usize, 0usize);
    for m in &list {
        let positions = random_short_mates(&tb, m, check).context("table not loaded")?;
        if positions.is_empty() {
            println!("{m}: no mate of at most {} moves found", check.max_mate);
            continue;
        }
        let (mut a, mut s, mut n) = (0, 0, 0);
        for (fen, moves) in &positions {
            let found = sf.mate(fen, *moves, 30_000)?;
            match found {
                Some(k) if k == *moves as i32 => a += 1,
                Some(k) if k > 0 && k < *moves as i32 => {
                    s += 1;
                    println!("  {fen}: ours mate in {moves}, the engine mates in {k}");
                }
                other => {
                    n += 1;
                    println!(
                        "  {fen}: ours mate in {moves}, the engine found {}",
                        other.map_or("no mate".to_string(), |k| format!("mate {k}"))
                    );
                }
            }
        }
        println!(
            "{m}: {} random mates of at most {} moves: {a} agree, {s} shorter by the engine, {n} not found by it",
            positions.len(),
            check.max_mate
        );
        total += positions.len();
        agree += a;
        shorter += s;
        missed += n;
    }
    println!(
        "{total} positions: {agree} agree, {shorter} where the engine mates faster, {missed} it did not confirm"
    );
    if shorter > 0 {
        bail!("{shorter} positions have a faster mate than the table says");
    }
    Ok(())
}

pub fn syzygy(syzygy: PathBuf, names: &[String], dir: Option<PathBuf>) -> Result<()> {
    let list = if names.is_empty() {
        Material::all(DEFAULT_MAX_PIECES)
    } else {
        parse_names(names)?
    };
    let list: Vec<Material> = list
        .into_iter()
        .filter(|m| verify::syzygy_has(&syzygy, m))
        .collect();
    if list.is_empty() {
        bail!(
            "no Syzygy WDL files (.rtbw) for these tables in {}",
            syzygy.display()
        );
    }
    let sz = verify::open_syzygy(&syzygy)
        .with_context(|| format!("reading Syzygy tables in {}", syzygy.display()))?;
    let mut tb = open(dir)?;
    let mut report = reporter();
    tb.ensure_many(&list, &mut report)?;
    let (mut total, mut bad) = (0u64, 0u64);
    for m in &list {
        let rep = tb
            .verify_syzygy(m, &sz)
            .with_context(|| format!("{m} is not loaded"))?;
        println!(
            "{m}: {} positions checked, {} mismatches",
            thousands(rep.checked),
            thousands(rep.mismatches)
        );
        for ex in &rep.examples {
            let theirs = ex.syzygy.map_or("error".to_string(), |w| w.to_string());
            println!("  {}: ours {}, Syzygy {theirs}", ex.fen, ex.ours);
        }
        total += rep.checked;
        bad += rep.mismatches;
    }
    totals(list.len(), total, bad, "disagree with Syzygy")
}

/// The last line of a check over several tables; an error when any
/// position failed (`why` says how).
fn totals(tables: usize, checked: u64, bad: u64, why: &str) -> Result<()> {
    println!(
        "{tables} tables, {} positions checked, {} mismatches",
        thousands(checked),
        thousands(bad)
    );
    if bad > 0 {
        bail!("{bad} positions {why}");
    }
    Ok(())
}
