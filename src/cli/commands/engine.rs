//! The engine on the command line: `uci`, the hidden `fake-engine`, and
//! the search and evaluation tools (`perft`, `bench`, `analyse`, `tree`,
//! `annotate`, `opening`, `eval`), with their dispatch.

use crate::cli;
use clap::Subcommand;
use kibitz::engine::bench;
use kibitz::uci::info::Output;
use std::path::PathBuf;

/// The engine on the command line: as a UCI engine, and its search and
/// evaluation tools.
#[derive(Subcommand, Debug)]
pub enum EngineCmd {
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
        /// Moves to play from the position first, in SAN or UCI (`e4 e5 Nf3`,
        /// `1. e4 e5`, `e2e4 e7e5`).
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
        /// Search threads (helpers share the hash table; default: one per
        /// core; 1 = the same result every run).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// chess, crazyhouse or bughouse (pockets in the FEN: `...[Nn] w ...`).
        #[arg(long, default_value = "chess")]
        variant: String,
    },
    /// Record a real search as a tree: walk it in the terminal, or write
    /// it as JSON or Graphviz DOT (`--format`).
    Tree {
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first, in SAN or UCI (`e4 e5 Nf3`,
        /// `1. e4 e5`, `e2e4 e7e5`).
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

impl EngineCmd {
    /// Prints to standard output and starts no other program (see
    /// [`quiet_broken_pipe`](crate::quiet_broken_pipe)); every command must
    /// answer, so a new one cannot be forgotten.
    pub fn only_prints(&self) -> bool {
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

    pub fn run(self) -> anyhow::Result<()> {
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
                        threads: threads.map_or_else(kibitz::engine::every_core, usize::from),
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
