//! The `kibitz` command line.

mod cli;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use cli::commands::batch::BatchCmd;
use cli::commands::engine::EngineCmd;
use cli::commands::screen::{PlayArgs, ScreenCmd};
use std::io::Write;

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
