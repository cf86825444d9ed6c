//! `kibitz tb ...`: generate, probe, verify and describe tables.

mod common;
mod verify;

use super::{DEFAULT_MAX_PIECES, Event, MAX_PIECES, Material, TableStats};
use crate::util::thousands;
use anyhow::{Context, Result, bail};
use common::{open, parse_names, reporter};
use shakmaty::Position;
use std::path::PathBuf;
use std::time::Instant;

/// The `tb` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum TbCmd {
    /// Generate tables (all with up to --max-pieces pieces when none are
    /// named), smaller ones first, with every table they need. Valid files
    /// are kept; an interrupted run continues where it stopped. The 35
    /// tables of up to 4 pieces take about 4 s on two cores; a 5-piece
    /// table 10-55 s and under 0.75 GB of memory (KRPvKR first needs
    /// KQRvKR, KRRvKR, KRBvKR and KRNvKR), and all of them about 55 min.
    /// A table that cannot be made is skipped with those that need it;
    /// the others are made, and the command fails at the end.
    Generate {
        /// Material signatures of up to 5 pieces, e.g. KQvK KRvKP KRPvKR.
        names: Vec<String>,
        /// With no names: every table with at most this many pieces (4 or
        /// 5).
        #[arg(long, default_value_t = DEFAULT_MAX_PIECES)]
        max_pieces: usize,
        /// Table directory (default: $KIBITZ_TB_DIR, else the data
        /// directory's tablebases/).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Print a position's value and every move's as JSON, best move first
    /// (DTM in plies: positive = the side to move mates, negative = it is
    /// mated). Missing tables of up to 4 pieces are generated first; a
    /// 5-piece table must have been generated with `tb generate`.
    Probe {
        fen: String,
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Check tables: against Syzygy's win/draw/loss (--syzygy DIR),
    /// against themselves (--self: every position holds exactly its best
    /// move's value), or against Stockfish's mate search on random short
    /// mates (--stockfish PATH). Missing tables up to 4 pieces are made
    /// first; 5-piece tables must have been generated.
    Verify {
        /// Directory of Syzygy .rtbw files.
        #[arg(long)]
        syzygy: Option<PathBuf>,
        /// The retrograde invariant: each position's value is its best
        /// move's (mate and stalemate where there is no move).
        #[arg(long = "self")]
        self_check: bool,
        /// With --self: check every N-th index entry (default: all up to
        /// four pieces, every 101st for five).
        #[arg(long)]
        sample: Option<usize>,
        /// A UCI engine (Stockfish) whose `go mate` must find each random
        /// short mate in exactly the table's number of moves.
        #[arg(long)]
        stockfish: Option<PathBuf>,
        /// With --stockfish: positions per table.
        #[arg(long, default_value_t = 25)]
        positions: usize,
        /// With --stockfish: mates of at most this many moves.
        #[arg(long, default_value_t = 6)]
        max_mate: u32,
        /// With --stockfish: the seed of the random positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only these tables (default: every table up to 4 pieces, with a
        /// Syzygy file for --syzygy; 5-piece tables when named).
        names: Vec<String>,
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Position counts and win/draw/loss per side to move.
    Stats {
        name: String,
        #[arg(long)]
        dir: Option<PathBuf>,
    },
}

/// Runs a `tb` subcommand.
pub fn run(cmd: TbCmd) -> Result<()> {
    match cmd {
        TbCmd::Generate {
            names,
            max_pieces,
            dir,
            threads,
        } => generate(&names, max_pieces, dir, threads),
        TbCmd::Probe { fen, dir } => probe(&fen, dir),
        TbCmd::Verify {
            syzygy,
            self_check,
            sample,
            stockfish,
            positions,
            max_mate,
            seed,
            names,
            dir,
        } => match (syzygy, self_check, stockfish) {
            (Some(sz), false, None) => verify::syzygy(sz, &names, dir),
            (None, true, None) => verify::verify_self(&names, sample, dir),
            (None, false, Some(sf)) => verify::verify_stockfish(
                &sf,
                &names,
                verify::MateCheck {
                    positions,
                    max_mate,
                    seed,
                },
                dir,
            ),
            _ => bail!("say one of --syzygy DIR, --self or --stockfish PATH"),
        },
        TbCmd::Stats { name, dir } => stats(&name, dir),
    }
}

fn print_stats(st: &TableStats) {
    for (k, side) in ["White", "Black"].iter().enumerate() {
        let s = &st.sides[k];
        println!(
            "  {side} to move: {} positions, {} wins, {} draws, {} losses; longest win {} plies, longest loss {} plies",
            thousands(s.positions),
            thousands(s.wins),
            thousands(s.draws),
            thousands(s.losses),
            s.longest_win,
            s.longest_loss
        );
    }
}

fn generate(
    names: &[String],
    max_pieces: usize,
    dir: Option<PathBuf>,
    threads: Option<usize>,
) -> Result<()> {
    let list = if names.is_empty() {
        if max_pieces > MAX_PIECES {
            bail!("--max-pieces: tables cover at most {MAX_PIECES} pieces");
        }
        if max_pieces > DEFAULT_MAX_PIECES {
            eprintln!(
                "{} tables with {max_pieces} pieces: each takes up to a minute",
                Material::all(max_pieces)
                    .iter()
                    .filter(|m| m.pieces() > DEFAULT_MAX_PIECES)
                    .count()
            );
        }
        Material::all(max_pieces)
    } else {
        parse_names(names)?
    };
    let mut tb = open(dir)?;
    if let Some(t) = threads {
        tb.set_threads(t);
    }
    let start = Instant::now();
    let mut report = reporter();
    let mut done: Vec<(Material, String)> = Vec::new();
    tb.ensure_many(&list, &mut |e| {
        report(e);
        match e {
            Event::Generated {
                material,
                seconds,
                bytes,
                ..
            } => done.push((
                *material,
                format!("generated in {seconds:.2} s, {} bytes", thousands(*bytes)),
            )),
            Event::Loaded { material, .. } => {
                done.push((*material, "up to date (valid file)".into()))
            }
            _ => {}
        }
    })?;
    for (m, how) in &done {
        println!("{m}: {how}");
        if let Some(t) = tb.table(m) {
            print_stats(t.stats());
        }
    }
    println!(
        "{} tables ready in {} ({:.2} s)",
        done.len(),
        tb.dir().display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(fen: &str, dir: Option<PathBuf>) -> Result<()> {
    let board = crate::variant::fen::parse_chess(fen).with_context(|| format!("FEN '{fen}'"))?;
    let pieces = board.board().occupied().count();
    if pieces > MAX_PIECES {
        bail!("the position has {pieces} pieces; tables cover at most {MAX_PIECES} pieces");
    }
    let mut tb = open(dir)?;
    let m = Material::of_board(board.board()).normalized().0;
    if pieces > DEFAULT_MAX_PIECES && !tb.path_of(&m).is_file() {
        bail!(
            "the position has {pieces} pieces; tables are made on demand for at most \
             {DEFAULT_MAX_PIECES} pieces: make this one first with `kibitz tb generate {m}` \
             ({pieces}-piece tables take minutes each)"
        );
    }
    let mut report = reporter();
    tb.ensure_for(&board, &mut report)?;
    let p = tb
        .probe_chess(&board)
        .context("the table could not be read after generation")?;
    let moves = tb
        .best_moves_chess(&board)
        .context("a table the moves need is missing")?;
    // Fields in the documented order.
    #[derive(serde::Serialize)]
    struct MoveOut {
        uci: String,
        san: String,
        wdl: i32,
        dtm: i32,
    }
    #[derive(serde::Serialize)]
    struct Out {
        wdl: i32,
        dtm: i32,
        moves: Vec<MoveOut>,
    }
    let out = Out {
        wdl: p.wdl.signum(),
        dtm: p.dtm,
        moves: moves
            .iter()
            .map(|(m, v)| MoveOut {
                uci: m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                san: shakmaty::san::SanPlus::from_move(board.clone(), *m).to_string(),
                wdl: v.wdl.signum(),
                dtm: v.dtm,
            })
            .collect(),
    };
    let json = serde_json::to_string(&out)?;
    println!("{json}");
    Ok(())
}

fn stats(name: &str, dir: Option<PathBuf>) -> Result<()> {
    let m = parse_names(&[name.to_string()])?[0];
    let mut tb = open(dir)?;
    let mut report = reporter();
    tb.ensure(&m, &mut report)?;
    let t = tb.table(&m).context("table not loaded")?;
    let st = t.stats();
    println!(
        "{m} (symmetric images counted separately; legal = the side not to move is not in check)"
    );
    print_stats(st);
    println!("  longest mate: {} plies", st.longest_mate());
    Ok(())
}
