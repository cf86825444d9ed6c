//! The terminal user interface (ratatui + crossterm).
//!
//! Data flows one way: terminal events, engine messages and clock ticks
//! become [`app::Msg`]s on one channel; [`app::App::update`] changes the
//! state and queues [`app::Effect`]s; the runtime here carries the effects
//! out (engine requests, atomic saves, clipboard) and [`app::draw`] draws
//! the state. Drawing never changes state and never waits on the engine,
//! which runs on its own thread.

pub mod app;
pub mod board;
pub mod clock;
pub mod config;
pub mod engines;
mod event_loop;
pub mod gamefile;
mod headless;
pub mod help;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod openings;
mod output;
pub mod pace;
pub mod player;
pub mod prelude;
pub mod screens;
pub mod seats;
mod startup;
pub mod state;
pub mod terminal_env;
pub mod text;
pub mod theme;
pub mod view;

use anyhow::{Context, Result, bail};
use app::App;
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use screens::chess::trainer;
use screens::explorer;

use event_loop::*;
pub use headless::{HeadlessOptions, Resources, run_headless};
pub use output::osc52;
use output::*;
use startup::*;
pub use startup::{Options, TrainOptions, find_unfinished, samples_dir};

/// Opens the search-tree explorer on a position (`kibitz tree`); leaving it
/// quits.
pub fn explore(
    pos: crate::engine::GamePosition,
    depth: crate::engine::Depth,
    features: crate::engine::Features,
    max_nodes: usize,
) -> Result<()> {
    if !crate::engine::has_legal_moves(pos.current()) {
        bail!("the position has no legal moves: there is no search to explore");
    }
    let adapt = terminal_env::check(&terminal_env::Env::read()).map_err(anyhow::Error::msg)?;
    let dirs = crate::paths::project_dirs();
    let config_dir = dirs.as_ref().map(|d| d.config_dir().to_path_buf());
    let (cfg, warning) = match &config_dir {
        Some(dir) => config::Config::load(&dir.join("config.toml")),
        None => (config::Config::default(), None),
    };
    let (themes, mut warnings) =
        theme::load_all(config_dir.as_ref().map(|d| d.join("themes")).as_deref());
    warnings.extend(warning);
    if themes.is_empty() {
        bail!("no colour themes could be loaded");
    }
    let mut app = App::new(cfg, themes, None);
    warnings.extend(terminal_env::apply(adapt, &mut app, false));
    let ex = explorer::Explorer::new(pos, depth, features, max_nodes);
    run_terminal(&mut app, Start::Explore(Box::new(ex)), warnings)
}

/// Runs the terminal app until the user quits.
pub fn run(opts: Options) -> Result<()> {
    let Prepared {
        mut app,
        setup,
        resume,
        mut warnings,
    } = prepare(&opts)?;
    // Endgame tables for the built-in engines.
    let syzygy = match app.ui.config.syzygy_path.as_deref() {
        Some(path) => match crate::tablebase::syzygy::SyzygyTables::open(path) {
            Ok(t) => Some(std::sync::Arc::new(t)),
            Err(e) => {
                warnings.push(format!("syzygy_path: {e}; Syzygy tables off"));
                None
            }
        },
        None => None,
    };
    if app.ui.config.own_tablebases {
        crate::tablebase::shared_loader().start(app.ui.tables_dir());
    }
    player::set_engine_setup(player::EngineSetup {
        own: app.ui.config.own_tablebases,
        syzygy,
        threads: app.ui.config.engine_threads,
    });
    let start = match &opts.replay {
        None if opts.puzzles.is_some() => {
            let theme = opts.puzzles.clone().flatten();
            // A theme no puzzle has is said here, before the screen changes.
            if let Some(t) = &theme {
                app.ui.check_puzzle_theme(t).map_err(anyhow::Error::msg)?;
            }
            Start::Puzzles(Box::new(PlayStart { setup, resume }), theme)
        }
        None if opts.train.is_some() => {
            let train = opts.train.as_ref().map(TrainOptions::start).transpose()?;
            Start::Train(Box::new(PlayStart { setup, resume }), train.flatten())
        }
        Some((path, game)) => {
            // Errors a shell user should see before the screen changes.
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            if path.is_dir() {
                bail!("{} is a directory, not a game file", path.display());
            }
            Start::Replay(path.clone(), *game)
        }
        None => match startup::live_setup(&opts, &setup, &app)? {
            // A game from a FEN is new: no unfinished game is offered.
            Some(live) => Start::House(Box::new(live), opts.new_game || opts.fen.is_some()),
            None => Start::Play(Box::new(PlayStart { setup, resume })),
        },
    };
    // After every check of the command line: a bad option is said as such
    // wherever the output goes.
    let adapt = terminal_env::check(&terminal_env::Env::read()).map_err(anyhow::Error::msg)?;
    warnings.extend(terminal_env::apply(adapt, &mut app, opts.theme.is_some()));
    let result = run_terminal(&mut app, start, warnings);
    gamefile::release_all();
    // Written with `let _`: after SIGHUP there is no terminal to write to,
    // and `eprintln!` would panic.
    use std::io::Write;
    let mut err = std::io::stderr();
    if let Some(path) = app.chess().file.path()
        && path.exists()
    {
        let _ = writeln!(err, "Game saved to {}", path.display());
    }
    if event_loop::signalled() {
        let _ = writeln!(
            err,
            "Kibitz stopped by a signal; every move played is saved."
        );
        std::process::exit(143);
    }
    result
}

/// Takes over the terminal, runs the event loop, and gives the terminal
/// back (also on errors and panics).
fn run_terminal(app: &mut App, start: Start, warnings: Vec<String>) -> Result<()> {
    // Our panic hook: a panic in an engine thread is caught there and shown
    // as an engine failure, so the screen stays as it is; any other panic
    // restores the terminal before the message is printed, and a panic in a
    // helper thread then ends the program (the UI cannot go on without it).
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let thread = std::thread::current();
        if thread.name() == Some(player::ENGINE_THREAD) {
            return;
        }
        restore_terminal();
        default_hook(info);
        if thread.name() != Some("main") {
            std::process::exit(101);
        }
    }));
    let mut terminal = match init_terminal() {
        Ok(t) => t,
        Err(e) => {
            restore_terminal();
            return Err(e).context("cannot start the terminal interface");
        }
    };
    let _ = crossterm::execute!(std::io::stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, app, start, warnings);
    restore_terminal();
    // ratatui shows the cursor again when the terminal is dropped and
    // reports a failure with `eprintln!`, which panics when the terminal
    // is gone (SIGHUP): shown here, and a terminal that is gone is not
    // dropped but forgotten (the process ends next).
    if terminal.show_cursor().is_err() {
        std::mem::forget(terminal);
    }
    result
}

/// Gives the terminal back: mouse reporting off, the main screen, the
/// cursor shown, cooked mode. Errors are ignored and nothing is printed:
/// after SIGHUP there is no terminal, and `ratatui::restore` would print
/// its failure with `eprintln!`, which panics when that fails too (in the
/// panic hook, an abort).
fn restore_terminal() {
    let mut out = std::io::stdout();
    let _ = crossterm::execute!(
        out,
        DisableMouseCapture,
        crossterm::terminal::LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = crossterm::terminal::disable_raw_mode();
}

/// Raw mode and the alternate screen (like `ratatui::try_init`, without its
/// panic hook: ours above decides which panics restore the terminal).
fn init_terminal() -> std::io::Result<ratatui::DefaultTerminal> {
    crossterm::terminal::enable_raw_mode()?;
    crossterm::execute!(std::io::stdout(), crossterm::terminal::EnterAlternateScreen)?;
    ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(std::io::stdout()))
}

#[cfg(test)]
mod tests_app;
