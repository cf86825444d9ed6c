//! The terminal screens on the command line: the play screen's options
//! (also taken without a subcommand) and `replay`, `train`, `play` and
//! `puzzles`, each started on the terminal UI.

use crate::cli;
use clap::Subcommand;
use std::path::PathBuf;

/// Options for the terminal play screen.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PlayArgs {
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
    pub fn options(self) -> kibitz::ui::Options {
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

/// The terminal screens.
#[derive(Subcommand, Debug)]
pub enum ScreenCmd {
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
    /// Endgame trainer in the terminal: a lesson (lucena, philidor, kpk,
    /// ...: see --list), a random won position of an ending (KQvK, KRvK,
    /// KBNvK, KPvK, KQvKR, KRPvKR, ...) or your own position (FEN, up to 5
    /// pieces) against perfect tablebase defence. Without an argument: the
    /// menu. Missing tables are generated first (five pieces: minutes).
    Train {
        /// A lesson (lucena), an ending (KBNvK, kbnk) or a FEN.
        what: Option<String>,
        /// List the lessons, with the positions you passed, and exit.
        #[arg(long)]
        list: bool,
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

impl ScreenCmd {
    pub fn run(self) -> anyhow::Result<()> {
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
            ScreenCmd::Train { list: true, .. } => list_lessons(),
            ScreenCmd::Train {
                what,
                difficulty,
                side,
                ascii,
                theme,
                ..
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

/// `kibitz train --list`: the lessons, a line each, with the positions
/// passed (from the progress file in the data folder).
fn list_lessons() -> anyhow::Result<()> {
    use kibitz::train::lessons::LESSONS;
    use kibitz::train::lessons::progress::{self, Progress};
    let progress = match kibitz::paths::data_dir() {
        Some(d) => Progress::load(&progress::path(&d))?,
        None => Progress::default(),
    };
    let mut out = String::new();
    for l in LESSONS {
        let passed = progress.passed(l);
        let mark = if passed == l.steps.len() {
            "passed"
        } else {
            ""
        };
        out.push_str(&format!(
            "{:<9} {:<7} {}/{} {:<6} {}: {}\n",
            l.id,
            l.material,
            passed,
            l.steps.len(),
            mark,
            l.title,
            l.line
        ));
    }
    if let Some(next) = progress.next_lesson() {
        out.push_str(&format!("\nNext: kibitz train {}\n", next.id));
    }
    use std::io::Write;
    std::io::stdout().write_all(out.as_bytes())?;
    Ok(())
}
