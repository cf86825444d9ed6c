//! The `kibitz` command line.

mod cli;

use anyhow::{Context, Result, bail};
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};
use kibitz::engine::{Limits, bench};
use kibitz::matchplay::{self, MatchConfig, MoveLimits, PlayerConfig, TimeControl};
use kibitz::uci::client::split_command;
use kibitz::uci::info::Output;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
    #[arg(long)]
    fen: Option<String>,
    /// Draw pieces as letters (K Q R B N P / k q r b n p).
    #[arg(long)]
    ascii: bool,
    /// Play against an external UCI engine (command line).
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
        }
    }
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Replay a game file in the terminal: PGN (any number of games), a
    /// move-history file (a FEN line, then `1. e2e4 e7e5` lines) or a
    /// plain list of moves.
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
    /// Run as a UCI engine on stdin/stdout (for chess GUIs and matches).
    Uci,
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
    Bench {
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
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
        /// Evaluation: full or simple (Michniewski's).
        #[arg(long, default_value = "full")]
        eval: String,
        #[arg(long, default_value_t = 16)]
        hash: usize,
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
    /// Endgame tablebases up to 4 pieces (distance to mate): generate,
    /// probe, verify against Syzygy, statistics.
    Tb {
        #[command(subcommand)]
        cmd: kibitz::tablebase::cli::TbCmd,
    },
    /// Play engine-vs-engine games over UCI and estimate the Elo difference.
    ///
    /// Give two `--engine` commands (`kibitz` means this program). `--option`,
    /// `--name`, `--tc`, `--movetime`, `--depth` and `--nodes` placed after an
    /// `--engine` apply to that engine only; placed before both, to both.
    Match {
        /// Engine command line (repeat twice). `kibitz` = this program.
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
        /// chess or crazyhouse (bughouse has its own command: `kibitz
        /// bughouse`). Chess openings become crazyhouse positions: the
        /// pieces missing from the board go to the capturer's hand.
        #[arg(long, default_value = "chess")]
        variant: String,
    },
    /// Four-engine Bughouse games in real time (two teams of two UCI
    /// engines, both boards at once), with W/D/L and an Elo estimate.
    ///
    /// A player is `CMD` or `CMD[key=value;...]`: `kibitz` is this
    /// program; `depth`, `movetime` (ms), `nodes` limit each move, `level`
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
    /// Self-play games for tuning: writes `FEN | result` lines.
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
    },
    /// Texel-tune the evaluation weights on `FEN | result` data.
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
        Some(Cmd::Play(args)) => kibitz::ui::run(args.options()),
        Some(Cmd::Replay {
            file,
            game,
            ascii,
            theme,
        }) => {
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
        Some(Cmd::Train {
            what,
            difficulty,
            side,
            ascii,
            theme,
        }) => kibitz::ui::run(kibitz::ui::Options {
            ascii,
            theme,
            train: Some(kibitz::ui::TrainOptions {
                what,
                difficulty,
                side,
            }),
            ..kibitz::ui::Options::default()
        }),
        Some(Cmd::Uci) => {
            kibitz::uci::engine::run(std::io::stdin().lock(), Output::stdout());
            Ok(())
        }
        Some(Cmd::Perft {
            depth,
            fen,
            divide,
            variant,
        }) => cli::search::parse_variant(&variant)
            .and_then(|v| cli::search::perft(v, cli::search::Perft { depth, fen, divide })),
        Some(Cmd::Bench { depth }) => cmd_bench(depth),
        Some(Cmd::Analyse {
            fen,
            moves,
            depth,
            movetime,
            nodes,
            multipv,
            eval,
            hash,
            variant,
        }) => cli::search::parse_variant(&variant).and_then(|v| {
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
                },
            )
        }),
        Some(Cmd::Eval { fen, eval, variant }) => {
            cli::search::parse_variant(&variant).and_then(|v| cli::search::eval(v, fen, &eval))
        }
        Some(Cmd::Annotate {
            file,
            movetime,
            depth,
            game,
            out,
        }) => cmd_annotate(&file, movetime, depth, game, out),
        Some(Cmd::Tree {
            fen,
            moves,
            depth,
            format,
            no,
            max_nodes,
            out,
            variant,
        }) => cli::search::parse_variant(&variant)
            .and_then(|v| cli::search::tree(v, fen, moves, depth, format, &no, max_nodes, out)),
        Some(Cmd::Tb { cmd }) => kibitz::tablebase::cli::run(cmd),
        Some(Cmd::Match { .. }) => match matches.subcommand_matches("match") {
            Some(m) => cmd_match(m),
            None => Ok(()),
        },
        Some(Cmd::Bughouse {
            team,
            games,
            tc,
            bpgn,
            max_moves,
        }) => cli::bughouse::run(team, games, &minutes_tc(&tc), bpgn, max_moves),
        Some(Cmd::Datagen {
            openings,
            games,
            nodes,
            threads,
            seed,
            out,
            variant,
        }) => cli::search::parse_variant(&variant)
            .and_then(|v| cmd_datagen(openings, games, nodes, threads, seed, out, v)),
        Some(Cmd::Tune {
            data,
            epochs,
            rate,
            threads,
            min_usage,
            l2,
            out,
            variant,
        }) => cli::search::parse_variant(&variant).and_then(|v| {
            cmd_tune(
                data,
                kibitz::tune::texel::TuneSettings {
                    epochs,
                    rate,
                    threads,
                    min_usage,
                    l2,
                },
                out,
                v,
            )
        }),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn cmd_bench(depth: i32) -> Result<()> {
    if !(1..=30).contains(&depth) {
        bail!("bench depth must be between 1 and 30");
    }
    let n = bench::POSITIONS.len();
    let result = bench::run(depth, |i, line| {
        println!(
            "{:>2}/{n} {:>10} nodes {:>6} ms  {:<6} {}",
            i + 1,
            line.nodes,
            line.elapsed.as_millis(),
            line.best_move,
            line.fen
        );
    });
    println!("===========================");
    println!("Total time (ms) : {}", result.elapsed.as_millis());
    println!("Nodes searched  : {}", result.nodes);
    println!("Nodes/second    : {}", result.nps());
    println!("Bench: {} nodes {} nps", result.nodes, result.nps());
    Ok(())
}

/// Judgements per side: [White, Black] x [inaccuracies, mistakes, blunders].
type Tally = [[usize; 3]; 2];

fn tally_text(t: &Tally) -> String {
    let side = |c: &[usize; 3]| format!("{}/{}/{}", c[0], c[1], c[2]);
    format!("?!/?/?? White {}, Black {}", side(&t[0]), side(&t[1]))
}

fn cmd_annotate(
    file: &std::path::Path,
    movetime: u64,
    depth: Option<i32>,
    game: Option<usize>,
    out: Option<PathBuf>,
) -> Result<()> {
    use kibitz::game::library::{Library, Status};
    use kibitz::game::review::{self, Judgement, Reviewer};
    use shakmaty::Color;
    use std::io::{IsTerminal, Write};

    let limits = match depth {
        Some(d) if !(1..=100).contains(&d) => bail!("--depth must be 1 to 100"),
        Some(d) => Limits::depth(d),
        None if movetime == 0 => bail!("--movetime must be at least 1"),
        None => Limits::movetime(movetime),
    };
    let mut lib = Library::open(file, &mut |_| {})
        .with_context(|| format!("cannot read {}", file.display()))?;
    let n = lib.entries.len();
    if n == 0 {
        bail!("no games in {}", file.display());
    }
    let which: Vec<usize> = match game {
        Some(g) if g == 0 || g > n => {
            bail!("--game {g}: {} has games 1 to {n}", file.display())
        }
        Some(g) => vec![g - 1],
        None => (0..n).collect(),
    };
    let name = file.display().to_string();
    let live = std::io::stderr().is_terminal();
    let mut reviewer = Reviewer::new(limits);
    let stop = AtomicBool::new(false);
    let mut text = String::new();
    let (mut annotated, mut skipped) = (0usize, 0usize);
    for &i in &which {
        let number = i + 1;
        let mut parsed = match lib.load(i) {
            Ok(p) => p,
            Err(e) => {
                match &lib.entries[i].status {
                    Status::Bad { line, reason } => {
                        eprintln!("{name}: game {number}, line {line}: {reason} (skipped)")
                    }
                    _ => eprintln!("{name}: game {number}: {e} (skipped)"),
                }
                skipped += 1;
                continue;
            }
        };
        for w in &parsed.warnings {
            eprintln!("{name}: game {number}: warning: {w}");
        }
        let players = lib.entries[i].players();
        let label = format!("game {number}/{n} ({players})");
        let start = parsed.game.start().clone();
        let moves = parsed.game.moves().to_vec();
        let first_turn = start.turn();
        let mut tally: Tally = [[0; 3]; 2];
        let began = Instant::now();
        let reviews = reviewer.review(&start, &moves, &stop, &mut |done, total, r| {
            if let Some(j) = r.and_then(|r| r.judgement) {
                // Who moved: the first mover on even plies.
                let white = (r.map_or(0, |r| r.ply) % 2 == 0) == (first_turn == Color::White);
                let kind = match j {
                    Judgement::Inaccuracy => 0,
                    Judgement::Mistake => 1,
                    Judgement::Blunder => 2,
                };
                tally[usize::from(!white)][kind] += 1;
            }
            if live {
                eprint!("\r{label}: move {done}/{total}\x1b[K");
            }
        });
        review::annotate_tree(&mut parsed.tree, &reviews);
        annotated += 1;
        let summary = format!(
            "{label}: {} moves in {:.1} s, {}",
            moves.len(),
            began.elapsed().as_secs_f64(),
            tally_text(&tally)
        );
        if live {
            eprintln!("\r{summary}\x1b[K");
        } else {
            eprintln!("{summary}");
        }
        let pgn = kibitz::game::write_pgn_tree(&parsed.game, &parsed.tree);
        if out.is_some() {
            text.push_str(&pgn);
        } else {
            // Game by game, so a long file shows results as they come. A
            // closed pipe (`| head`) ends the work without a message.
            let mut stdout = std::io::stdout().lock();
            if stdout
                .write_all(pgn.as_bytes())
                .and_then(|_| stdout.flush())
                .is_err()
            {
                return Ok(());
            }
        }
    }
    if annotated == 0 {
        bail!("no game in {name} could be annotated");
    }
    if let Some(path) = &out {
        kibitz::util::write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let target = out
        .as_ref()
        .map_or(String::new(), |p| format!(", written to {}", p.display()));
    eprintln!("{annotated} game(s) annotated, {skipped} skipped{target}");
    Ok(())
}

/// Which engine(s) an option given at argument position `idx` applies to.
fn scope(idx: usize, engine_idx: &[usize]) -> [bool; 2] {
    match engine_idx {
        [_, b, ..] if idx > *b => [false, true],
        [a, ..] if idx > *a => [true, false],
        _ => [true, true],
    }
}

fn per_engine<T: Clone + Send + Sync + 'static>(
    m: &ArgMatches,
    id: &str,
    engine_idx: &[usize],
) -> [Vec<T>; 2] {
    let mut out: [Vec<T>; 2] = [Vec::new(), Vec::new()];
    let (Some(vals), Some(idx)) = (m.get_many::<T>(id), m.indices_of(id)) else {
        return out;
    };
    for (v, i) in vals.zip(idx) {
        let s = scope(i, engine_idx);
        for p in 0..2 {
            if s[p] {
                out[p].push(v.clone());
            }
        }
    }
    out
}

fn cmd_match(m: &ArgMatches) -> Result<()> {
    let engines: Vec<String> = m
        .get_many::<String>("engine")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    if engines.len() != 2 {
        bail!("give exactly two --engine commands (got {})", engines.len());
    }
    let engine_idx: Vec<usize> = m
        .indices_of("engine")
        .map(|i| i.collect())
        .unwrap_or_default();
    let tcs = per_engine::<String>(m, "tc", &engine_idx);
    let movetimes = per_engine::<u64>(m, "movetime", &engine_idx);
    let depths = per_engine::<u32>(m, "depth", &engine_idx);
    let nodes = per_engine::<u64>(m, "nodes", &engine_idx);
    let options = per_engine::<String>(m, "option", &engine_idx);
    let names = per_engine::<String>(m, "name", &engine_idx);

    let exe = std::env::current_exe().context("cannot find the kibitz executable")?;
    let mut players = Vec::new();
    for p in 0..2 {
        let cmd = match engines[p].trim() {
            "kibitz" | "self" => vec![exe.display().to_string(), "uci".to_string()],
            other => split_command(other),
        };
        if cmd.is_empty() {
            bail!("engine {} has an empty command", p + 1);
        }
        let mut opts = Vec::new();
        for o in &options[p] {
            let (k, v) = o
                .split_once('=')
                .with_context(|| format!("--option '{o}' is not NAME=VALUE"))?;
            opts.push((k.trim().to_string(), v.trim().to_string()));
        }
        let tc = match tcs[p].last() {
            Some(s) => Some(TimeControl::parse(s).map_err(|e| anyhow::anyhow!(e))?),
            None => None,
        };
        let limits = MoveLimits {
            tc,
            movetime: movetimes[p].last().map(|&ms| Duration::from_millis(ms)),
            depth: depths[p].last().copied(),
            nodes: nodes[p].last().copied(),
        };
        if limits.tc.is_some() && limits.movetime.is_some() {
            bail!("engine {}: give either --tc or --movetime, not both", p + 1);
        }
        players.push(PlayerConfig {
            cmd,
            name: names[p].last().cloned(),
            options: opts,
            limits: if limits.is_empty() {
                MoveLimits {
                    tc: Some(TimeControl {
                        base: Duration::from_secs(10),
                        inc: Duration::from_millis(100),
                    }),
                    ..MoveLimits::default()
                }
            } else {
                limits
            },
        });
    }
    let games = *m.get_one::<usize>("games").unwrap_or(&10);
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let variant = cli::search::parse_variant(
        m.get_one::<String>("variant")
            .map(|s| s.as_str())
            .unwrap_or("chess"),
    )?;
    if variant == kibitz::variant::VariantKind::Bughouse {
        bail!("bughouse needs four players: use `kibitz bughouse`");
    }
    let openings = match m.get_one::<PathBuf>("openings") {
        Some(path) => {
            let (fens, problems) = matchplay::load_openings(path)?;
            let fens = if variant == kibitz::variant::VariantKind::Crazyhouse {
                fens.iter()
                    .filter_map(|f| matchplay::crazyhouse_opening(f).ok())
                    .collect()
            } else {
                fens
            };
            for p in problems.iter().take(5) {
                eprintln!("warning: {}: {p}", path.display());
            }
            if problems.len() > 5 {
                eprintln!("warning: {} more bad lines skipped", problems.len() - 5);
            }
            fens
        }
        None => Vec::new(),
    };
    let [p0, p1]: [PlayerConfig; 2] = match players.try_into() {
        Ok(a) => a,
        Err(_) => bail!("two engines expected"),
    };
    let cfg = MatchConfig {
        players: [p0, p1],
        games,
        openings,
        pgn_out: m.get_one::<PathBuf>("pgn").cloned(),
        concurrency: *m.get_one::<usize>("concurrency").unwrap_or(&1),
        event: "Kibitz match".into(),
        variant,
    };
    println!(
        "Match: {} games; engine 1: {} ({}); engine 2: {} ({})",
        cfg.games,
        cfg.players[0].cmd.join(" "),
        cfg.players[0].limits.describe(),
        cfg.players[1].cmd.join(" "),
        cfg.players[1].limits.describe()
    );
    let start = Instant::now();
    let total = cfg.games;
    let wdl = matchplay::run_match(&cfg, |rec, wdl| {
        let (white, black) = (&rec.white, &rec.black);
        println!(
            "Game {:>3}/{total}: {white} - {black} {} ({}, {} moves)   score {:.1}/{} W{} D{} L{}",
            rec.index + 1,
            rec.ending.result.pgn(),
            rec.ending.termination.describe(),
            rec.plies.div_ceil(2),
            wdl.points(),
            wdl.games(),
            wdl.wins,
            wdl.draws,
            wdl.losses
        );
    })?;
    println!("--------------------------------------------------");
    println!(
        "Finished {} games in {:.0} s",
        wdl.games(),
        start.elapsed().as_secs_f64()
    );
    println!("Engine 1 W/D/L: {}/{}/{}", wdl.wins, wdl.draws, wdl.losses);
    println!(
        "Score: {:.1}/{} ({:.1}%)",
        wdl.points(),
        wdl.games(),
        100.0 * wdl.score()
    );
    println!("Elo difference: {}", wdl.elo_text());
    println!("LOS: {:.1}%", 100.0 * wdl.los());
    Ok(())
}

fn cmd_datagen(
    openings: PathBuf,
    games: usize,
    nodes: u64,
    threads: usize,
    seed: u64,
    out: PathBuf,
    variant: kibitz::variant::VariantKind,
) -> Result<()> {
    use kibitz::variant::VariantKind;
    let (fens, _) = matchplay::load_openings(&openings)?;
    let mut order: Vec<String> = match variant {
        VariantKind::Chess => fens,
        VariantKind::Crazyhouse => fens
            .iter()
            .filter_map(|f| matchplay::crazyhouse_opening(f).ok())
            .collect(),
        VariantKind::Bughouse => bail!("self-play data is made for chess or crazyhouse"),
    };
    // Shuffle the openings deterministically.
    let mut rng = kibitz::util::Rng::new(seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let file =
        std::fs::File::create(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut w = std::io::BufWriter::new(file);
    let cfg = kibitz::tune::datagen::DatagenConfig {
        openings: order,
        games,
        nodes,
        threads,
        seed,
        variant,
    };
    let start = Instant::now();
    let (g, p) = kibitz::tune::datagen::run(&cfg, &mut w, |g, p| {
        if g % 100 == 0 {
            eprintln!(
                "{g} games, {p} positions, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    })?;
    println!("{g} games, {p} positions written to {}", out.display());
    Ok(())
}

fn cmd_tune(
    data: PathBuf,
    settings: kibitz::tune::texel::TuneSettings,
    out: PathBuf,
    variant: kibitz::variant::VariantKind,
) -> Result<()> {
    let drops = variant != kibitz::variant::VariantKind::Chess;
    let threads = settings.threads;
    use kibitz::tune::texel;
    let text = std::fs::read_to_string(&data)
        .with_context(|| format!("cannot read {}", data.display()))?;
    let start = Instant::now();
    let d = texel::load_variant(&text, variant);
    println!(
        "{} positions ({} lines skipped) loaded in {:.1} s",
        d.len(),
        d.skipped,
        start.elapsed().as_secs_f64()
    );
    if d.is_empty() {
        bail!("no usable positions in {}", data.display());
    }
    let p0 = if drops {
        texel::current_zh_params()
    } else {
        texel::current_params()
    };
    let k = texel::fit_k(&d, &p0, threads);
    let e0 = texel::error(&d, &p0, k, threads);
    println!("K = {k:.4}, error of the current weights {e0:.6}");
    let frozen = d
        .usage()
        .iter()
        .filter(|&&n| n < settings.min_usage)
        .count();
    println!(
        "{frozen} of {} weights used in fewer than {} positions stay fixed",
        p0.len(),
        settings.min_usage
    );
    let p = texel::tune(&d, &p0, k, &settings, |epoch, e| {
        println!("epoch {epoch:>5}: error {e:.6}");
    });
    let (epochs, rate) = (settings.epochs, settings.rate);
    let e1 = texel::error(&d, &p, k, threads);
    let note = format!(
        "State: Texel-tuned on {} self-play positions ({}), K = {k:.4},\nmean squared error {e0:.6} -> {e1:.6} after {epochs} epochs of Adam (rate {rate}).",
        d.len(),
        data.file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let text = if drops {
        texel::render_zh_weights(&p, &note)
    } else {
        texel::render_weights(&p, &note)
    };
    kibitz::util::write_atomic(&out, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "error {e0:.6} -> {e1:.6}; weights written to {}",
        out.display()
    );
    Ok(())
}

/// `2+0` (minutes + increment seconds, as players write it) as the
/// seconds form `120+0`; a bare `120s` or `120+0s` is taken as seconds.
fn minutes_tc(s: &str) -> String {
    let s = s.trim();
    if let Some(secs) = s.strip_suffix('s') {
        return secs.to_string();
    }
    let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
    match base.trim().parse::<f64>() {
        Ok(m) => format!("{}+{}", m * 60.0, inc.trim()),
        Err(_) => s.to_string(),
    }
}
