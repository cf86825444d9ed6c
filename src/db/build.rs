//! Indexing PGN: the file is read in blocks on one thread and cut at game
//! boundaries into chunks; worker threads (both cores) parse the games,
//! play their moves and collect one record per (position, move) of each
//! game; each worker sorts its records and writes them as a run when its
//! buffer is full and at the end; the runs are merged into the index.
//! Memory stays bounded whatever the file's size: a few chunks in flight
//! and each worker's record buffer.

use super::run::{self, Entry, Run, RunError, RunInfo, RunWriter};
use super::stats::{Outcome, Stats};
use super::{index_key, move_code};
use crate::game::pgn_read::resolve_san;
use pgn_reader::{KnownOutcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen};
use std::io::{self, Cursor, Read, Seek};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// The file is read and hashed in blocks of this size.
pub const HASH_BLOCK: usize = 1 << 20;
/// A chunk handed to a worker is cut at the first game boundary past this.
const CHUNK: usize = 4 << 20;

#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Plies indexed per game (from its start position).
    pub max_plies: usize,
    pub threads: usize,
    /// Records a worker holds before it writes them out as a run.
    pub spill_records: usize,
    /// Only the games of this player (see [`PlayerFilter`]).
    pub player: Option<PlayerFilter>,
}

/// One player's games: a name (any part of the White or Black tag, in
/// any case: "morphy" finds "Morphy, Paul"), and the colour if one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerFilter {
    pub name: String,
    pub color: Option<Color>,
}

impl PlayerFilter {
    fn matches(&self, white: Option<&str>, black: Option<&str>) -> bool {
        let name = self.name.to_lowercase();
        let has = |tag: Option<&str>| tag.is_some_and(|t| t.to_lowercase().contains(&name));
        match self.color {
            Some(Color::White) => has(white),
            Some(Color::Black) => has(black),
            None => has(white) || has(black),
        }
    }
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_plies: super::DEFAULT_MAX_PLIES,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get().min(8)),
            spill_records: 8 << 20,
            player: None,
        }
    }
}

/// A game that was not indexed, and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BadGame {
    /// From 1, counted over the whole file.
    pub number: u64,
    /// The line (from 1) its first tag or move is on.
    pub line: u64,
    pub reason: String,
}

/// What one indexing pass read.
#[derive(Clone, Debug, Default)]
pub struct Indexed {
    /// Games read (bad ones included).
    pub games: u64,
    /// Games counted in the index.
    pub indexed: u64,
    /// Games of another variant (Crazyhouse...), or of other players
    /// under a [`PlayerFilter`], left out.
    pub other_variants: u64,
    pub bad: Vec<BadGame>,
    /// Bytes read and their hash (see [`hash_block`]).
    pub bytes: u64,
    pub hash: u64,
    pub lines: u64,
    pub run: RunInfo,
}

/// Why indexing stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("{0}")]
    Run(#[from] RunError),
    #[error("stopped")]
    Cancelled,
}

/// The hash of the indexed bytes, one [`HASH_BLOCK`] at a time (the last
/// may be shorter), so that a file can be checked later for having kept
/// what was indexed.
pub fn hash_block(h: u64, block: &[u8]) -> u64 {
    let mut h = h ^ block.len() as u64;
    let mut words = block.chunks_exact(8);
    for w in &mut words {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(a))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
    }
    h
}

/// Hashes the first `len` bytes of `src` the way indexing did.
pub fn hash_prefix(src: &mut dyn Read, len: u64) -> io::Result<u64> {
    let mut h = 0;
    let mut left = len;
    let mut buf = vec![0u8; HASH_BLOCK];
    while left > 0 {
        let want = (left as usize).min(HASH_BLOCK);
        src.read_exact(&mut buf[..want])?;
        h = hash_block(h, &buf[..want]);
        left -= want as u64;
    }
    Ok(h)
}

/// One worker's record of a (position, move) in one game.
#[derive(Copy, Clone)]
struct Rec {
    key: u64,
    mv: u8,
    outcome: u8,
    rating: u16,
}

const NO_RATING: u16 = 0;

struct Chunk {
    seq: usize,
    bytes: Vec<u8>,
    first_line: u64,
}

struct ChunkReport {
    seq: usize,
    games: u64,
    indexed: u64,
    other_variants: u64,
    /// (game number within the chunk, line, reason).
    bad: Vec<(u64, u64, String)>,
}

/// Indexes the PGN read from `src` into a run at `out`. `stop` is polled
/// between blocks; `progress` gets the bytes read so far.
pub fn index_pgn(
    src: &mut dyn Read,
    out: &Path,
    opts: &BuildOptions,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(u64),
) -> Result<Indexed, BuildError> {
    let threads = opts.threads.max(1);
    let (tx, rx) = mpsc::sync_channel::<Chunk>(threads + 1);
    let rx = Arc::new(Mutex::new(rx));
    let spill_dir = out.parent().unwrap_or(Path::new(".")).to_path_buf();
    let stem = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut indexed = Indexed::default();
    let outcome = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                let rx = Arc::clone(&rx);
                let spill_dir = spill_dir.clone();
                let stem = stem.clone();
                scope.spawn(move || work(w, &rx, opts, &spill_dir, &stem))
            })
            .collect();
        let read = feed(src, &tx, stop, progress, &mut indexed);
        drop(tx);
        let mut reports = Vec::new();
        let mut spills = Vec::new();
        let mut failed: Option<BuildError> = read.err();
        for h in workers {
            match h.join() {
                Ok(Ok((r, s))) => {
                    reports.extend(r);
                    spills.extend(s);
                }
                Ok(Err(e)) => failed = failed.or(Some(e)),
                Err(_) => {
                    failed = failed.or(Some(BuildError::Io(io::Error::other(
                        "an indexing thread failed",
                    ))))
                }
            }
        }
        (reports, spills, failed)
    });
    let (mut reports, spills, failed) = outcome;
    if let Some(e) = failed {
        for s in &spills {
            let _ = std::fs::remove_file(s);
        }
        return Err(e);
    }
    reports.sort_by_key(|r| r.seq);
    for r in reports {
        for (n, line, reason) in r.bad {
            indexed.bad.push(BadGame {
                number: indexed.games + n,
                line,
                reason,
            });
        }
        indexed.games += r.games;
        indexed.indexed += r.indexed;
        indexed.other_variants += r.other_variants;
    }
    let merged = combine(&spills, out);
    for s in &spills {
        let _ = std::fs::remove_file(s);
    }
    indexed.run = merged?;
    Ok(indexed)
}

/// The runs written by the workers, as one run at `out`.
fn combine(spills: &[PathBuf], out: &Path) -> Result<RunInfo, BuildError> {
    if spills.len() == 1 {
        std::fs::rename(&spills[0], out)?;
        return Ok(Run::open(out)?.info());
    }
    if spills.is_empty() {
        return Ok(RunWriter::create(out)?.finish()?);
    }
    let mut runs = spills
        .iter()
        .map(|p| Run::open(p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(run::merge(&mut runs, out)?)
}

/// Reads blocks, hashes them, cuts chunks at game boundaries and sends them.
fn feed(
    src: &mut dyn Read,
    tx: &mpsc::SyncSender<Chunk>,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(u64),
    indexed: &mut Indexed,
) -> Result<(), BuildError> {
    let mut pending: Vec<u8> = Vec::with_capacity(CHUNK + HASH_BLOCK);
    let mut block = vec![0u8; HASH_BLOCK];
    let mut seq = 0;
    let mut line = 1;
    loop {
        if stop() {
            return Err(BuildError::Cancelled);
        }
        let n = read_full(src, &mut block)?;
        indexed.hash = if n > 0 {
            hash_block(indexed.hash, &block[..n])
        } else {
            indexed.hash
        };
        indexed.bytes += n as u64;
        pending.extend_from_slice(&block[..n]);
        progress(indexed.bytes);
        let eof = n < HASH_BLOCK;
        while pending.len() >= CHUNK || (eof && !pending.is_empty()) {
            let cut = if eof {
                pending.len()
            } else {
                match game_boundary(&pending[CHUNK / 2..]) {
                    Some(c) => CHUNK / 2 + c,
                    // One game longer than half a chunk: read on.
                    None if pending.len() < 16 * CHUNK => break,
                    None => pending.len(),
                }
            };
            let rest = pending.split_off(cut);
            let bytes = std::mem::replace(&mut pending, rest);
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
            let chunk = Chunk {
                seq,
                bytes,
                first_line: line,
            };
            line += lines;
            seq += 1;
            if tx.send(chunk).is_err() {
                // A worker failed; its error is reported by the caller.
                return Ok(());
            }
        }
        if eof {
            indexed.lines = line;
            return Ok(());
        }
    }
}

/// Reads until `buf` is full or the input ends.
fn read_full(src: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match src.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Where the first game starting in `bytes` begins: a `[` that opens a
/// line after a blank line.
fn game_boundary(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i + 2 < bytes.len() {
        let nl = bytes[i..].iter().position(|&b| b == b'\n')? + i;
        let mut j = nl + 1;
        if bytes.get(j) == Some(&b'\r') {
            j += 1;
        }
        if bytes.get(j) == Some(&b'\n') {
            let mut k = j + 1;
            while matches!(bytes.get(k), Some(b'\r' | b'\n' | b' ' | b'\t')) {
                k += 1;
            }
            if bytes.get(k) == Some(&b'[') {
                return Some(k);
            }
        }
        i = nl + 1;
    }
    None
}

type WorkOutput = (Vec<ChunkReport>, Vec<PathBuf>);

fn work(
    worker: usize,
    rx: &Mutex<mpsc::Receiver<Chunk>>,
    opts: &BuildOptions,
    dir: &Path,
    stem: &str,
) -> Result<WorkOutput, BuildError> {
    let mut recs: Vec<Rec> = Vec::new();
    let mut reports = Vec::new();
    let mut spills = Vec::new();
    let result = (|| {
        loop {
            let chunk = {
                let Ok(rx) = rx.lock() else { break };
                match rx.recv() {
                    Ok(c) => c,
                    Err(_) => break,
                }
            };
            reports.push(parse_chunk(&chunk, &mut recs, opts.max_plies, &opts.player));
            if recs.len() >= opts.spill_records {
                spills.push(spill(&mut recs, dir, stem, worker, spills.len())?);
            }
        }
        if !recs.is_empty() {
            spills.push(spill(&mut recs, dir, stem, worker, spills.len())?);
        }
        Ok(())
    })();
    match result {
        Ok(()) => Ok((reports, spills)),
        Err(e) => {
            for s in &spills {
                let _ = std::fs::remove_file(s);
            }
            // Keep taking chunks so the reader is never stuck on a full
            // channel; the error ends the build.
            if let Ok(rx) = rx.lock() {
                while rx.recv().is_ok() {}
            }
            Err(e)
        }
    }
}

/// Sorts the records and writes them as a run.
fn spill(
    recs: &mut Vec<Rec>,
    dir: &Path,
    stem: &str,
    worker: usize,
    n: usize,
) -> Result<PathBuf, BuildError> {
    recs.sort_unstable_by_key(|r| (r.key, r.mv));
    let path = dir.join(format!(".{stem}.{}-{worker}-{n}.spill", std::process::id()));
    let mut w = RunWriter::create(&path)?;
    for r in recs.iter() {
        let rating = (r.rating != NO_RATING).then_some(r.rating);
        let outcome = match r.outcome {
            0 => Outcome::White,
            1 => Outcome::Draw,
            2 => Outcome::Black,
            _ => Outcome::Unknown,
        };
        if let Err(e) = w.push(Entry {
            key: r.key,
            mv: r.mv,
            stats: Stats::single(outcome, rating),
        }) {
            w.abandon();
            return Err(e.into());
        }
    }
    recs.clear();
    w.finish()?;
    Ok(path)
}

fn parse_chunk(
    chunk: &Chunk,
    recs: &mut Vec<Rec>,
    max_plies: usize,
    player: &Option<PlayerFilter>,
) -> ChunkReport {
    let bytes = &chunk.bytes;
    let mut reader = Reader::build(Cursor::new(&bytes[..]))
        .set_supported_tag_line_length(4096)
        .finish();
    let mut visitor = Indexer {
        recs,
        max_plies,
        player: player.as_ref(),
    };
    let mut report = ChunkReport {
        seq: chunk.seq,
        games: 0,
        indexed: 0,
        other_variants: 0,
        bad: Vec::new(),
    };
    // Lines counted up to `counted`, for the line of a bad game.
    let mut counted = 0usize;
    let mut line = chunk.first_line;
    let mut line_at = |start: usize| {
        let first = bytes[start..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map_or(start, |p| start + p);
        if first >= counted {
            line += bytes[counted..first]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
            counted = first;
        }
        line
    };
    loop {
        if !matches!(reader.has_more(), Ok(true)) {
            break;
        }
        let start = reader
            .stream_position()
            .map_or(0, |s| s as usize)
            .min(bytes.len());
        let result = reader.read_game(&mut visitor);
        match result {
            Ok(None) => break,
            Ok(Some(Ok(()))) => {
                report.games += 1;
                report.indexed += 1;
            }
            Ok(Some(Err(None))) => {
                report.games += 1;
                report.other_variants += 1;
            }
            Ok(Some(Err(Some(reason)))) => {
                report.games += 1;
                report.bad.push((report.games, line_at(start), reason));
            }
            Err(e) => {
                report.games += 1;
                report
                    .bad
                    .push((report.games, line_at(start), e.to_string()));
                if !matches!(reader.skip_game(), Ok(true)) {
                    break;
                }
            }
        }
    }
    report
}

struct Indexer<'a> {
    recs: &'a mut Vec<Rec>,
    max_plies: usize,
    player: Option<&'a PlayerFilter>,
}

#[derive(Default)]
struct Tags {
    fen: Option<String>,
    setup: bool,
    variant: Option<String>,
    result: Option<Outcome>,
    white_elo: Option<u16>,
    black_elo: Option<u16>,
    white: Option<String>,
    black: Option<String>,
}

struct Movetext {
    pos: Chess,
    ply: usize,
    /// Where this game's records begin in the buffer.
    start: usize,
    /// Records since the last capture or pawn move: a repeated
    /// (position, move) among them is not counted twice.
    since_reset: usize,
    error: Option<String>,
    /// At a null move: the rest is not read.
    stopped: bool,
    outcome: Option<Outcome>,
    tags: Tags,
}

impl Visitor for Indexer<'_> {
    type Tags = Tags;
    type Movetext = Movetext;
    /// `Err(None)`: a game of another variant, left out.
    type Output = Result<(), Option<String>>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let text = || value.decode_utf8_lossy().trim().to_string();
        match name {
            b"FEN" => tags.fen = Some(text()),
            b"SetUp" => tags.setup = text() == "1",
            b"Variant" => tags.variant = Some(text()),
            b"Result" => tags.result = Some(Outcome::from_pgn(&text())),
            b"White" if self.player.is_some() => tags.white = Some(text()),
            b"Black" if self.player.is_some() => tags.black = Some(text()),
            b"WhiteElo" => tags.white_elo = text().parse().ok().filter(|&r| r > 0),
            b"BlackElo" => tags.black_elo = text().parse().ok().filter(|&r| r > 0),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        if let Some(f) = self.player
            && !f.matches(tags.white.as_deref(), tags.black.as_deref())
        {
            return ControlFlow::Break(Err(None));
        }
        let mode = match tags
            .variant
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            None | Some("" | "standard" | "chess" | "from position") => CastlingMode::Standard,
            Some(
                "chess960" | "chess 960" | "960" | "fischerandom" | "fischerrandom"
                | "fischer random",
            ) => CastlingMode::Chess960,
            Some(_) => return ControlFlow::Break(Err(None)),
        };
        let pos = match &tags.fen {
            Some(fen) => match fen
                .parse::<Fen>()
                .map_err(|e| e.to_string())
                .and_then(|f| f.into_position::<Chess>(mode).map_err(|e| e.to_string()))
            {
                Ok(p) => p,
                Err(e) => return ControlFlow::Break(Err(Some(format!("bad FEN \"{fen}\": {e}")))),
            },
            None if tags.setup => {
                return ControlFlow::Break(Err(Some("SetUp 1 without a FEN tag".into())));
            }
            None => Chess::default(),
        };
        let start = self.recs.len();
        ControlFlow::Continue(Movetext {
            pos,
            ply: 0,
            start,
            since_reset: start,
            error: None,
            stopped: false,
            outcome: None,
            tags,
        })
    }

    fn san(&mut self, mt: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if mt.error.is_some() || mt.stopped {
            return ControlFlow::Continue(());
        }
        if san_plus.san == shakmaty::san::San::Null {
            // A null move (ChessBase's `--`): the moves after it are not
            // the game's; what came before still counts.
            mt.stopped = true;
            return ControlFlow::Continue(());
        }
        // Strict SAN, then what the game reader also takes (UCI moves, a
        // capture without its x).
        let m = match san_plus
            .san
            .to_move(&mt.pos)
            .or_else(|_| resolve_san(&mt.pos, san_plus.san))
        {
            Ok(m) => m,
            Err(e) => {
                let number = mt.pos.fullmoves().get();
                let dots = if mt.pos.turn() == Color::White {
                    "."
                } else {
                    "..."
                };
                mt.error = Some(format!("{number}{dots}{san_plus}: {e}"));
                return ControlFlow::Continue(());
            }
        };
        // Past the indexed plies the moves are still checked: a game with
        // an illegal move anywhere is reported, not counted.
        if mt.ply >= self.max_plies {
            mt.pos.play_unchecked(m);
            mt.ply += 1;
            return ControlFlow::Continue(());
        }
        let key = index_key(&mt.pos);
        let code = move_code(&m);
        let rank = mt
            .pos
            .legal_moves()
            .iter()
            .filter(|o| move_code(o) < code)
            .count() as u8;
        if mt.pos.halfmoves() == 0 {
            mt.since_reset = self.recs.len();
        }
        let repeated = self.recs[mt.since_reset..]
            .iter()
            .any(|r| r.key == key && r.mv == rank);
        if !repeated {
            self.recs.push(Rec {
                key,
                mv: rank,
                outcome: 3,
                rating: NO_RATING,
            });
        }
        mt.pos.play_unchecked(m);
        mt.ply += 1;
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
    ) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(
        &mut self,
        mt: &mut Self::Movetext,
        outcome: pgn_reader::Outcome,
    ) -> ControlFlow<Self::Output> {
        mt.outcome = Some(match outcome {
            pgn_reader::Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White,
            }) => Outcome::White,
            pgn_reader::Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black,
            }) => Outcome::Black,
            pgn_reader::Outcome::Known(KnownOutcome::Draw) => Outcome::Draw,
            pgn_reader::Outcome::Unknown => Outcome::Unknown,
        });
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Self::Movetext) -> Self::Output {
        if let Some(e) = mt.error {
            self.recs.truncate(mt.start);
            return Err(Some(e));
        }
        let outcome = match (mt.outcome, mt.tags.result) {
            (Some(o), _) if o != Outcome::Unknown => o,
            (_, Some(t)) => t,
            (o, None) => o.unwrap_or(Outcome::Unknown),
        };
        let code = match outcome {
            Outcome::White => 0,
            Outcome::Draw => 1,
            Outcome::Black => 2,
            Outcome::Unknown => 3,
        };
        let rating = match (mt.tags.white_elo, mt.tags.black_elo) {
            (Some(w), Some(b)) => ((u32::from(w) + u32::from(b)) / 2) as u16,
            (Some(r), None) | (None, Some(r)) => r,
            (None, None) => NO_RATING,
        };
        for r in &mut self.recs[mt.start..] {
            r.outcome = code;
            r.rating = rating;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
