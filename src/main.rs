//! The `kibitz` command line.

mod cli;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use kibitz::engine::bench;
use kibitz::uci::info::Output;
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "kibitz",
    version,
    about = "A terminal chess trainer with its own engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Options of the play screen (also accepted without `play`).
    #[command(flatten)]
    play: PlayArgs,
}

/// Options for the terminal play screen.
#[derive(clap::Args, Debug, Clone, Default)]
struct PlayArgs {
    /// Start from this position (FEN) instead of the initial one.
    /// Crazyhouse: the pocket as [Pn], /[Pn] or /Pn (none: empty hands).
    /// Bughouse: board A's and board B's FENs joined by '|'.
    #[arg(long)]
    fen: Option<String>,
    /// Draw pieces as letters (K Q R B N P / k q r b n p).
    #[arg(long)]
    ascii: bool,
    /// Play against an external engine (command line): UCI, or XBoard as
    /// `xboard:CMD` (e.g. xboard:/usr/games/sjeng).
    #[arg(long)]
    engine: Option<String>,
    /// Built-in engine strength, 1 (beginner) to 8 (full strength).
    #[arg(long)]
    level: Option<u8>,
    /// Built-in engine at full strength with fixed limits, e.g. "depth 8",
    /// "movetime 500", "nodes 20000" (combinations allowed).
    #[arg(long, conflicts_with_all = ["level", "engine"])]
    limits: Option<String>,
    /// Time control in minutes+seconds, e.g. 5+3, or "none".
    #[arg(long)]
    time: Option<String>,
    /// Your side: white, black, random; or engines (watch), humans (two players).
    #[arg(long)]
    side: Option<String>,
    /// Colour theme by name.
    #[arg(long)]
    theme: Option<String>,
    /// Start a new game even if an unfinished one was saved.
    #[arg(long)]
    new: bool,
    /// chess (default), crazyhouse or bughouse.
    #[arg(long)]
    variant: Option<String>,
    /// Bughouse: your seat, A-white (default), A-black, B-white or B-black.
    #[arg(long)]
    seat: Option<String>,
    /// Bughouse: your partner, a level 1-8, kibitz, or an engine command
    /// (UCI, or XBoard as `xboard:CMD`).
    #[arg(long)]
    partner: Option<String>,
    /// Bughouse: the opponents, one for both or two separated by a comma
    /// (levels, kibitz, or engine commands; `xboard:CMD` for XBoard).
    #[arg(long)]
    opponents: Option<String>,
    /// Engines answer at once: with a clock they otherwise take the time a
    /// player of their level would over each move.
    #[arg(long)]
    fast: bool,
}

impl PlayArgs {
    fn options(self) -> kibitz::ui::Options {
        kibitz::ui::Options {
            fen: self.fen,
            ascii: self.ascii,
            engine: self.engine,
            level: self.level,
            limits: self.limits,
            time: self.time,
            side: self.side,
            theme: self.theme,
            new_game: self.new,
            replay: None,
            train: None,
            puzzles: None,
            variant: self.variant,
            seat: self.seat,
            partner: self.partner,
            opponents: self.opponents,
            fast: self.fast,
        }
    }
}

/// The subcommands, in three groups (their order is the order of the
/// help).
#[derive(Subcommand, Debug)]
enum Cmd {
    #[command(flatten)]
    Screen(ScreenCmd),
    #[command(flatten)]
    Engine(EngineCmd),
    #[command(flatten)]
    Batch(BatchCmd),
}

/// The terminal screens.
#[derive(Subcommand, Debug)]
enum ScreenCmd {
    /// Replay a game file in the terminal: PGN (any number of games), a
    /// move-history file (a FEN line, then `1. e2e4 e7e5` lines), a
    /// plain list of moves, Crazyhouse PGN or Bughouse BPGN (both boards).
    Replay {
        /// The file to open.
        file: PathBuf,
        /// Show this game of the file first (from 1) instead of the list.
        #[arg(long)]
        game: Option<usize>,
        /// Draw pieces as letters.
        #[arg(long)]
        ascii: bool,
        /// Colour theme by name.
        #[arg(long)]
        theme: Option<String>,
    },
    /// Endgame trainer in the terminal: a random won position of an ending
    /// (KQvK, KRvK, KBBvK, KBNvK, KPvK, KQvKR, ...) or your own position
    /// (FEN, up to 4 pieces) against perfect tablebase defence. Without
    /// an argument: the menu. Missing tables are generated first.
    Train {
        /// An ending (KBNvK, kbnk) or a FEN.
        what: Option<String>,
        /// easy, medium or hard (how long the mate is).
        #[arg(long)]
        difficulty: Option<String>,
        /// The side you play in a random position: white, black, random.
        #[arg(long)]
        side: Option<String>,
        /// Draw pieces as letters.
        #[arg(long)]
        ascii: bool,
        /// Colour theme by name.
        #[arg(long)]
        theme: Option<String>,
    },
    /// Play in the terminal (the default when no command is given).
    Play(PlayArgs),
    /// Puzzles: without a subcommand, solve them in the terminal (near
    /// your rating, failed ones coming back); the subcommands work on
    /// Lichess-format puzzle files (CSV) and your puzzle store.
    Puzzles {
        #[command(subcommand)]
        cmd: Option<cli::puzzles::PuzzlesCmd>,
        /// Only puzzles with this theme (lichess' names: fork, pin,
        /// mateIn2, backRankMate...).
        #[arg(long)]
        only: Option<String>,
        /// Draw pieces as letters.
        #[arg(long)]
        ascii: bool,
        /// Colour theme by name.
        #[arg(long)]
        theme: Option<String>,
    },
}

/// The engine on the command line: as a UCI engine, and its search and
/// evaluation tools.
#[derive(Subcommand, Debug)]
enum EngineCmd {
    /// Run as a UCI engine on stdin/stdout (for chess GUIs and matches).
    Uci,
    /// An engine that misbehaves on purpose (crash, hang-go, garbage,
    /// illegal...), for testing how Kibitz copes with broken engines.
    #[command(hide = true)]
    FakeEngine {
        /// good, crash, hang-isready, hang-go, garbage, illegal, nonsense,
        /// drop, wrong-board, slow-exit or silent.
        mode: String,
        /// uci or xboard.
        #[arg(long, default_value = "uci")]
        protocol: String,
        /// Misbehave from the Nth search on (hang-isready: the Nth isready).
        #[arg(long, default_value_t = 1)]
        after: u32,
        /// Milliseconds each move takes.
        #[arg(long, default_value_t = 0)]
        think: u64,
        /// Append the process id to this file.
        #[arg(long)]
        pid_file: Option<PathBuf>,
    },
    /// Count move-generation leaf nodes (last line: `nodes <N>`).
    Perft {
        depth: u32,
        #[arg(long)]
        fen: Option<String>,
        /// Show the count below each root move.
        #[arg(long)]
        divide: bool,
        /// chess, crazyhouse or bughouse (one board: captures go to the partner).
        #[arg(long, default_value = "chess")]
        variant: String,
    },
    /// Fixed-depth search of built-in positions (last line: `Bench: <nodes> nodes <nps> nps`).
    ///
    /// `--honesty`: how far the full search's root score and best move are
    /// from bare alpha-beta (no null move, reductions or pruning) at depths
    /// 1 to 4, over opening and middlegame positions.
    Bench {
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Measure shallow-search honesty instead of speed.
        #[arg(long)]
        honesty: bool,
        /// Positions for --honesty: EPD/FEN files (one position a line).
        /// Default: the shared opening files when present, else the bench
        /// positions.
        #[arg(long, num_args = 1..)]
        positions: Vec<std::path::PathBuf>,
        /// How many positions --honesty takes (spread over the files).
        #[arg(long, default_value_t = 500)]
        count: usize,
        /// Evaluation of the speed bench: nnue (the default at full
        /// strength), full or simple.
        #[arg(long, default_value = "nnue")]
        eval: String,
    },
    /// Analyse a position, printing UCI `info` lines and `bestmove`.
    #[command(alias = "analyze")]
    Analyse {
        #[arg(long)]
        fen: Option<String>,
        /// UCI moves to play from the position first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
        depth: Option<i32>,
        #[arg(long, conflicts_with = "nodes")]
        movetime: Option<u64>,
        #[arg(long)]
        nodes: Option<u64>,
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// Evaluation: nnue (the full evaluation and the network's
        /// correction), full, or simple (Michniewski's).
        #[arg(long, default_value = "nnue")]
        eval: String,
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Search threads (helpers share the hash table; 1 = deterministic).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// chess, crazyhouse or bughouse (pockets in the FEN: `...[Nn] w ...`).
        #[arg(long, default_value = "chess")]
        variant: String,
    },
    /// Record a real search as a tree: walk it in the terminal, or write
    /// it as JSON or Graphviz DOT (`--format`).
    Tree {
        #[arg(long)]
        fen: Option<String>,
        /// UCI moves to play from the position first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        #[arg(long, default_value_t = 3)]
        depth: i32,
        /// json or dot; without it the tree opens in the terminal explorer
        /// (JSON when the output is not a terminal).
        #[arg(long)]
        format: Option<String>,
        /// Switch a search feature off (repeat): alpha-beta, ordering, tt,
        /// null-move, lmr, pruning, quiescence, aspiration.
        #[arg(long = "no", action = clap::ArgAction::Append)]
        no: Vec<String>,
        /// Record at most this many nodes.
        #[arg(long, default_value_t = kibitz::engine::tree::DEFAULT_NODE_CAP)]
        max_nodes: usize,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// chess, crazyhouse or bughouse.
        #[arg(long, default_value = "chess")]
        variant: String,
    },
    /// Review games with the engine and write them as annotated PGN: an
    /// `[%eval]` after every move; inaccuracies, mistakes and blunders
    /// marked ?!, ? and ?? with the better line as a variation.
    ///
    /// FILE may hold PGN (any number of games), a move history or a plain
    /// move list. Games that cannot be read are skipped with the reason on
    /// standard error; progress goes there too.
    Annotate {
        /// The file of games.
        file: PathBuf,
        /// Search time per position, in milliseconds.
        #[arg(long, default_value_t = 500)]
        movetime: u64,
        /// Search each position to this depth instead (overrides --movetime).
        #[arg(long)]
        depth: Option<i32>,
        /// Annotate only this game (counting from 1).
        #[arg(long)]
        game: Option<usize>,
        /// Write to this file (atomically) instead of standard output.
        #[arg(short = 'o', long)]
        out: Option<PathBuf>,
    },
    /// Name the opening of a line of moves or of a position, as lichess
    /// does (prints e.g. `C65 Ruy Lopez: Berlin Defense`, or `unknown`).
    ///
    /// The name is the last named position along the moves: transpositions
    /// are named too. An illegal or ambiguous move, or a bad FEN, is an
    /// error (exit status 2).
    #[command(arg_required_else_help = true)]
    Opening {
        /// The moves, SAN or UCI, with or without move numbers, as one
        /// argument: "e4 e5 Nf3 Nc6 Bb5 Nf6".
        #[arg(long, allow_hyphen_values = true)]
        moves: Option<String>,
        /// The position to name (or to play --moves from).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Explain the static evaluation of a position, term by term.
    Eval {
        #[arg(long)]
        fen: Option<String>,
        #[arg(long, default_value = "full")]
        eval: String,
        /// chess, crazyhouse or bughouse.
        #[arg(long, default_value = "chess")]
        variant: String,
    },
}

/// Long runs that write files: tablebases, matches, tuning.
#[derive(Subcommand, Debug)]
enum BatchCmd {
    /// Endgame tablebases up to 4 pieces (distance to mate): generate,
    /// probe, verify against Syzygy, statistics.
    Tb {
        #[command(subcommand)]
        cmd: kibitz::tablebase::cli::TbCmd,
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

fn main() {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        None => kibitz::ui::run(cli.play.options()),
        Some(Cmd::Screen(cmd)) => cmd.run(),
        Some(Cmd::Engine(cmd)) => {
            if cmd.only_prints() {
                quiet_broken_pipe();
            }
            cmd.run()
        }
        Some(Cmd::Batch(cmd)) => {
            if cmd.only_prints() {
                quiet_broken_pipe();
            }
            cmd.run(&matches)
        }
    };
    if let Err(e) = result {
        // Not `eprintln!`, which panics when standard error is gone.
        let _ = writeln!(std::io::stderr(), "error: {e:#}");
        // Bad input on the command line, like a bad option.
        let code = if e.is::<cli::opening::BadInput>() {
            2
        } else {
            1
        };
        std::process::exit(code);
    }
}

/// Gives SIGPIPE back its default action, so that `kibitz bench | head`
/// ends quietly when the reader goes away, as command-line tools do,
/// instead of panicking at its next line (Rust ignores SIGPIPE, and
/// `println!` panics on the write error that follows).
///
/// Only for the commands that print and start no other program
/// (`only_prints`): the match runners must keep seeing a dead engine's
/// closed pipe as a write error they handle.
fn quiet_broken_pipe() {
    #[cfg(target_os = "linux")]
    // SAFETY: `signal` with SIG_DFL installs no handler; it runs before the
    // command starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

impl ScreenCmd {
    fn run(self) -> anyhow::Result<()> {
        match self {
            ScreenCmd::Play(args) => kibitz::ui::run(args.options()),
            ScreenCmd::Puzzles { cmd: Some(cmd), .. } => cli::puzzles::run(cmd),
            ScreenCmd::Puzzles {
                cmd: None,
                only,
                ascii,
                theme,
            } => kibitz::ui::run(kibitz::ui::Options {
                ascii,
                theme,
                puzzles: Some(only),
                ..kibitz::ui::Options::default()
            }),
            ScreenCmd::Replay {
                file,
                game,
                ascii,
                theme,
            } => {
                if game == Some(0) {
                    Err(anyhow::anyhow!("--game counts from 1"))
                } else {
                    kibitz::ui::run(kibitz::ui::Options {
                        ascii,
                        theme,
                        replay: Some((file, game.map(|g| g - 1))),
                        ..kibitz::ui::Options::default()
                    })
                }
            }
            ScreenCmd::Train {
                what,
                difficulty,
                side,
                ascii,
                theme,
            } => kibitz::ui::run(kibitz::ui::Options {
                ascii,
                theme,
                train: Some(kibitz::ui::TrainOptions {
                    what,
                    difficulty,
                    side,
                }),
                ..kibitz::ui::Options::default()
            }),
        }
    }
}

impl EngineCmd {
    /// Prints to standard output and starts no other program (see
    /// [`quiet_broken_pipe`]); every command must answer, so a new one
    /// cannot be forgotten.
    fn only_prints(&self) -> bool {
        match self {
            // The UCI loop ignores a vanished reader itself; the fake
            // engine plays a broken engine for the tests.
            EngineCmd::Uci | EngineCmd::FakeEngine { .. } => false,
            EngineCmd::Perft { .. }
            | EngineCmd::Bench { .. }
            | EngineCmd::Analyse { .. }
            | EngineCmd::Tree { .. }
            | EngineCmd::Annotate { .. }
            | EngineCmd::Opening { .. }
            | EngineCmd::Eval { .. } => true,
        }
    }

    fn run(self) -> anyhow::Result<()> {
        match self {
            EngineCmd::Uci => {
                kibitz::uci::engine::run(std::io::stdin().lock(), Output::stdout());
                Ok(())
            }
            EngineCmd::FakeEngine {
                mode,
                protocol,
                after,
                think,
                pid_file,
            } => cli::fake_engine::run(
                &mode,
                &protocol,
                after,
                std::time::Duration::from_millis(think),
                pid_file,
            ),
            EngineCmd::Perft {
                depth,
                fen,
                divide,
                variant,
            } => cli::search::parse_variant(&variant)
                .and_then(|v| cli::search::perft(v, cli::search::Perft { depth, fen, divide })),
            EngineCmd::Bench {
                depth,
                honesty: false,
                eval,
                ..
            } => cli::search::parse_eval(&eval).and_then(|eval| cli::bench::run(depth, eval)),
            EngineCmd::Bench {
                positions, count, ..
            } => cli::bench::honesty(&positions, count),
            EngineCmd::Analyse {
                fen,
                moves,
                depth,
                movetime,
                nodes,
                multipv,
                eval,
                hash,
                threads,
                variant,
            } => cli::search::parse_variant(&variant).and_then(|v| {
                cli::search::analyse(
                    v,
                    cli::search::Analyse {
                        fen,
                        moves,
                        depth,
                        movetime,
                        nodes,
                        multipv,
                        eval,
                        hash,
                        threads: threads as usize,
                    },
                )
            }),
            EngineCmd::Opening { moves, fen } => {
                cli::opening::run(fen.as_deref(), moves.as_deref())
            }
            EngineCmd::Eval { fen, eval, variant } => {
                cli::search::parse_variant(&variant).and_then(|v| cli::search::eval(v, fen, &eval))
            }
            EngineCmd::Annotate {
                file,
                movetime,
                depth,
                game,
                out,
            } => cli::annotate::run(&file, movetime, depth, game, out),
            EngineCmd::Tree {
                fen,
                moves,
                depth,
                format,
                no,
                max_nodes,
                out,
                variant,
            } => cli::search::parse_variant(&variant)
                .and_then(|v| cli::search::tree(v, fen, moves, depth, format, &no, max_nodes, out)),
        }
    }
}

impl BatchCmd {
    /// As [`EngineCmd::only_prints`]: the match runners and the headless
    /// screens talk to engines over pipes.
    fn only_prints(&self) -> bool {
        match self {
            BatchCmd::Match { .. } | BatchCmd::Bughouse { .. } | BatchCmd::Headless { .. } => false,
            BatchCmd::Tb { .. }
            | BatchCmd::Datagen { .. }
            | BatchCmd::Fuzz(_)
            | BatchCmd::TuneNnue(_)
            | BatchCmd::Tune { .. } => true,
        }
    }

    /// `matches`: the whole command line (`match` reads where each of its
    /// options stands).
    fn run(self, matches: &clap::ArgMatches) -> anyhow::Result<()> {
        match self {
            BatchCmd::Tb { cmd } => kibitz::tablebase::cli::run(cmd),
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
