//! Long runs on the command line that write files or play many games:
//! `tb`, `match`, `bughouse`, and the hidden `headless`, `datagen`, `fuzz`,
//! `tune-nnue` and `tune`, with their dispatch.

use crate::cli;
use clap::Subcommand;
use std::path::PathBuf;

/// Long runs that write files: tablebases, matches, tuning.
#[derive(Subcommand, Debug)]
pub enum BatchCmd {
    /// Endgame tablebases up to 4 pieces (distance to mate): generate,
    /// probe, verify against Syzygy, statistics.
    Tb {
        #[command(subcommand)]
        cmd: kibitz::tablebase::cli::TbCmd,
    },
    /// The opening explorer's collections: add, list and remove PGN
    /// files, the moves played from a position, a test corpus.
    Db {
        #[command(subcommand)]
        cmd: cli::db::DbCmd,
    },
    /// Your opening repertoire (White and Black, as PGN): import, export,
    /// and where games leave a repertoire.
    Repertoire {
        #[command(subcommand)]
        cmd: cli::repertoire::RepertoireCmd,
    },
    /// Play engine-vs-engine games over UCI or XBoard and estimate the Elo
    /// difference.
    ///
    /// Give two `--engine` commands (`kibitz` means this program,
    /// `xboard:CMD` an XBoard engine such as Sjeng). `--option`,
    /// `--name`, `--tc`, `--movetime`, `--depth` and `--nodes` placed after an
    /// `--engine` apply to that engine only; placed before both, to both.
    Match {
        /// Engine command line (repeat twice). `kibitz` = this program;
        /// `xboard:CMD` = an XBoard engine.
        #[arg(long, required = true, num_args = 1, action = clap::ArgAction::Append)]
        engine: Vec<String>,
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Clock per game: base seconds + increment seconds, e.g. 10+0.1.
        #[arg(long, action = clap::ArgAction::Append)]
        tc: Vec<String>,
        /// Fixed time per move in milliseconds.
        #[arg(long, action = clap::ArgAction::Append)]
        movetime: Vec<u64>,
        /// Fixed search depth per move.
        #[arg(long, action = clap::ArgAction::Append)]
        depth: Vec<u32>,
        /// Fixed node count per move.
        #[arg(long, action = clap::ArgAction::Append)]
        nodes: Vec<u64>,
        /// Start positions (EPD or FEN per line); each is played with both colours.
        #[arg(long)]
        openings: Option<PathBuf>,
        /// UCI option for the engine(s), NAME=VALUE.
        #[arg(long, action = clap::ArgAction::Append)]
        option: Vec<String>,
        /// Display name for the engine(s).
        #[arg(long, action = clap::ArgAction::Append)]
        name: Vec<String>,
        /// Append the games to this PGN file.
        #[arg(long)]
        pgn: Option<PathBuf>,
        /// Continue the match the --pgn file holds (same engines, names
        /// and event): its games count in the totals and are not played
        /// again; the others are played, with the openings and colours
        /// they would have had.
        #[arg(long, requires = "pgn")]
        resume: bool,
        /// Games played at the same time.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Sequential test: stop as soon as the games show the first
        /// engine is ELO1 stronger (H1) or not (H0); `--games` is the most
        /// it plays. ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, e.g. 0,10.
        #[arg(long)]
        sprt: Option<String>,
        /// chess or crazyhouse (bughouse has its own command: `kibitz
        /// bughouse`). Chess openings become crazyhouse positions: the
        /// pieces missing from the board go to the capturer's hand.
        #[arg(long, default_value = "chess")]
        variant: String,
    },
    /// Four-engine Bughouse games in real time (two teams of two UCI or
    /// XBoard engines, both boards at once), with W/D/L and an Elo estimate.
    ///
    /// A player is `CMD` or `CMD[key=value;...]`: `kibitz` is this
    /// program, `xboard:CMD` an XBoard engine (e.g. xboard:/usr/games/sjeng); `depth`, `movetime` (ms), `nodes` limit each move, `level`
    /// (1-8) makes Fairy-Stockfish play like Lichess's level, `name` names
    /// it, other keys are UCI options (e.g.
    /// `kibitz[BughousePartner=false]`).
    Bughouse {
        /// Two engines, board A's first: `CMD,CMD` (give it twice).
        #[arg(long, required = true, action = clap::ArgAction::Append)]
        team: Vec<String>,
        #[arg(long, default_value_t = 2)]
        games: usize,
        /// Clock per player: base+increment, in minutes+seconds (2+0) like
        /// the play screen's --time.
        #[arg(long, default_value = "2+0")]
        tc: String,
        /// Append the games to this BPGN file.
        #[arg(long)]
        bpgn: Option<PathBuf>,
        /// Moves on one board after which the game is drawn.
        #[arg(long, default_value_t = 300)]
        max_moves: usize,
    },
    /// The play screen without a terminal: engine-vs-engine games through
    /// the app's own loop, drawn into an off-screen buffer and saved to
    /// DATA/games. Prints `shown FILE PLIES SAN` for every move a frame
    /// shows and `report ...` lines (memory, threads, files, child
    /// processes): the soak and the kill test (tests/kill/) use it.
    #[command(hide = true)]
    Headless {
        #[arg(long, default_value_t = 1)]
        games: usize,
        /// Milliseconds per move (the built-in engine at full strength).
        #[arg(long, conflicts_with_all = ["level", "engine"])]
        movetime: Option<u64>,
        /// Built-in engine level 1-8.
        #[arg(long, conflicts_with = "engine")]
        level: Option<u8>,
        /// An external engine command (UCI, or `xboard:CMD`).
        #[arg(long)]
        engine: Option<String>,
        /// Clock for both sides, minutes+seconds (`10s+0.1` works too).
        #[arg(long)]
        time: Option<String>,
        /// Print a resource report every this many games.
        #[arg(long, default_value_t = 0)]
        report_every: usize,
        /// The data folder (games go to DATA/games).
        #[arg(long)]
        data: PathBuf,
        /// Give up when no move comes for this many seconds.
        #[arg(long, default_value_t = 120)]
        stall: u64,
        /// With --engine: every other game against the built-in level 1
        /// (the external engine is started and stopped each time).
        #[arg(long, requires = "engine")]
        alternate: bool,
    },
    /// Self-play games for tuning: writes `FEN | result | score` lines (quiet positions, the game result, the search score for White).
    #[command(hide = true)]
    Datagen {
        #[arg(long)]
        openings: PathBuf,
        #[arg(long, default_value_t = 1000)]
        games: usize,
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// chess or crazyhouse (chess openings become crazyhouse positions).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// The evaluation that plays and scores the games: full, simple or nnue.
        #[arg(long, default_value = "full")]
        eval: String,
        /// The network for `--eval nnue` (the embedded one when not given).
        #[arg(long)]
        eval_file: Option<PathBuf>,
    },
    /// Fuzz a reader of outside data with mutated inputs (`kibitz fuzz
    /// list` names the targets, `all` runs each in turn).
    #[command(hide = true)]
    Fuzz(cli::fuzz::Args),
    /// Train the evaluation network on `kibitz datagen` data.
    #[command(hide = true)]
    TuneNnue(cli::nnue::Args),
    /// Texel-tune the evaluation weights on `FEN | result [| score]` data.
    #[command(hide = true)]
    Tune {
        #[arg(long)]
        data: PathBuf,
        #[arg(long, default_value_t = 500)]
        epochs: usize,
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Weights used in fewer positions stay fixed.
        #[arg(long, default_value_t = 2000)]
        min_usage: usize,
        /// L2 pull toward the current weights.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// Sigmoid scale K (win probability = 1 / (1 + exp(-K * cp / 400)));
        /// fitted to the current weights when not given. Fixing it keeps
        /// the evaluation's centipawn scale, which the search's margins
        /// are tuned to.
        #[arg(long)]
        k: Option<f64>,
        /// Share of the search score in the target (0 = game results only):
        /// lambda * sigmoid(K * score) + (1 - lambda) * result, for lines
        /// that have a score.
        #[arg(long, default_value_t = 0.0)]
        lambda: f64,
        /// Where to write the new weights (e.g. src/engine/eval/weights.rs).
        #[arg(long)]
        out: PathBuf,
        /// chess, or crazyhouse/bughouse (the drop variants' weights,
        /// written as zh_weights.rs).
        #[arg(long, default_value = "chess")]
        variant: String,
    },
}

impl BatchCmd {
    /// As [`EngineCmd::only_prints`](super::engine::EngineCmd::only_prints):
    /// the match runners and the headless screens talk to engines over
    /// pipes.
    pub fn only_prints(&self) -> bool {
        match self {
            BatchCmd::Match { .. } | BatchCmd::Bughouse { .. } | BatchCmd::Headless { .. } => false,
            BatchCmd::Tb { .. }
            | BatchCmd::Db { .. }
            | BatchCmd::Repertoire { .. }
            | BatchCmd::Datagen { .. }
            | BatchCmd::Fuzz(_)
            | BatchCmd::TuneNnue(_)
            | BatchCmd::Tune { .. } => true,
        }
    }

    /// `matches`: the whole command line (`match` reads where each of its
    /// options stands).
    pub fn run(self, matches: &clap::ArgMatches) -> anyhow::Result<()> {
        match self {
            BatchCmd::Tb { cmd } => kibitz::tablebase::cli::run(cmd),
            BatchCmd::Db { cmd } => cli::db::run(cmd),
            BatchCmd::Repertoire { cmd } => cli::repertoire::run(cmd),
            BatchCmd::Match { .. } => match matches.subcommand_matches("match") {
                Some(m) => cli::matches::run(m),
                None => Ok(()),
            },
            BatchCmd::Bughouse {
                team,
                games,
                tc,
                bpgn,
                max_moves,
            } => cli::bughouse::run(
                team,
                games,
                &cli::bughouse::minutes_tc(&tc),
                bpgn,
                max_moves,
            ),
            BatchCmd::Headless {
                games,
                movetime,
                level,
                engine,
                time,
                report_every,
                data,
                stall,
                alternate,
            } => {
                use kibitz::ui::player::EngineSpec;
                let engine = match (movetime, level, engine) {
                    (Some(ms), _, _) => EngineSpec::Custom {
                        depth: None,
                        movetime_ms: Some(ms),
                        nodes: None,
                    },
                    (_, Some(l), _) if (1..=8).contains(&l) => EngineSpec::BuiltIn { level: l },
                    (_, Some(l), _) => {
                        return Err(anyhow::anyhow!("--level must be 1 to 8, not {l}"));
                    }
                    (_, _, Some(command)) => EngineSpec::External { command },
                    _ => EngineSpec::BuiltIn { level: 1 },
                };
                kibitz::ui::run_headless(kibitz::ui::HeadlessOptions {
                    games,
                    engine,
                    time,
                    report_every,
                    data,
                    size: (120, 40),
                    stall: std::time::Duration::from_secs(stall),
                    alternate,
                })
            }
            BatchCmd::Datagen {
                openings,
                games,
                nodes,
                threads,
                seed,
                out,
                variant,
                eval,
                eval_file,
            } => cli::search::parse_variant(&variant).and_then(|v| {
                let eval = cli::search::parse_eval(&eval)?;
                cli::tune::datagen(
                    openings, games, nodes, threads, seed, out, v, eval, eval_file,
                )
            }),
            BatchCmd::Fuzz(args) => cli::fuzz::run(args),
            BatchCmd::TuneNnue(args) => cli::nnue::run(args),
            BatchCmd::Tune {
                data,
                epochs,
                rate,
                threads,
                min_usage,
                l2,
                k,
                lambda,
                out,
                variant,
            } => cli::search::parse_variant(&variant).and_then(|v| {
                cli::tune::tune(
                    data,
                    kibitz::tune::texel::TuneSettings {
                        epochs,
                        rate,
                        threads,
                        min_usage,
                        l2,
                    },
                    k,
                    lambda,
                    out,
                    v,
                )
            }),
        }
    }
}
