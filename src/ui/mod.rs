//! The terminal user interface (ratatui + crossterm).
//!
//! Data flows one way: terminal events, engine messages and clock ticks
//! become [`app::Msg`]s on one channel; [`app::App::update`] changes the
//! state and queues [`app::Effect`]s; the runtime here carries the effects
//! out (engine requests, atomic saves, clipboard) and [`view::draw`] draws
//! the state. Drawing never changes state and never waits on the engine,
//! which runs on its own thread.

pub mod app;
pub mod clock;
pub mod config;
pub mod explorer;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod player;
pub mod replay;
pub mod text;
pub mod theme;
pub mod trainer;
pub mod view;

use anyhow::{Context, Result, bail};
use app::{App, Effect, Msg, Overlay, Setup, Slot};
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use player::{EngineHandle, EngineSpec};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Command-line choices for the play screen.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub fen: Option<String>,
    pub ascii: bool,
    /// External UCI engine command.
    pub engine: Option<String>,
    pub level: Option<u8>,
    /// Fixed limits for the built-in engine ("depth 8", "movetime 500").
    pub limits: Option<String>,
    /// Time control in minutes+seconds, or "none".
    pub time: Option<String>,
    /// white, black, random, engines, humans.
    pub side: Option<String>,
    pub theme: Option<String>,
    /// Do not offer to resume an unfinished game.
    pub new_game: bool,
    /// Open this game file for replay (and this game of it, from 0).
    pub replay: Option<(PathBuf, Option<usize>)>,
    /// Open the endgame trainer.
    pub train: Option<TrainOptions>,
}

/// `kibitz train`: an ending or a position, and the menu's choices.
#[derive(Clone, Debug, Default)]
pub struct TrainOptions {
    /// An ending (`KBNvK`, `kqk`) or a FEN; `None` opens the menu.
    pub what: Option<String>,
    /// easy, medium or hard.
    pub difficulty: Option<String>,
    /// white, black or random.
    pub side: Option<String>,
}

impl TrainOptions {
    /// What the trainer starts with (`None`: the menu). Errors explain
    /// an unknown ending, a bad choice or an illegal position.
    pub fn start(&self) -> Result<Option<app::TrainerStart>> {
        use trainer::{Difficulty, ENDINGS, Ending, SideChoice};
        let difficulty = match self.difficulty.as_deref() {
            None => Difficulty::Medium,
            Some(d) => *Difficulty::ALL
                .iter()
                .find(|x| x.name() == d.to_ascii_lowercase())
                .with_context(|| format!("--difficulty must be easy, medium or hard, not '{d}'"))?,
        };
        let side = match self.side.as_deref() {
            None => SideChoice::White,
            Some(s) => *SideChoice::ALL
                .iter()
                .find(|x| x.name().eq_ignore_ascii_case(s))
                .with_context(|| format!("--side must be white, black or random, not '{s}'"))?,
        };
        let Some(what) = self.what.as_deref() else {
            return Ok(None);
        };
        if let Some(ending) = Ending::find(what) {
            return Ok(Some(app::TrainerStart::Random {
                ending,
                difficulty,
                side,
            }));
        }
        if !what.contains('/') {
            let names: Vec<&str> = ENDINGS.iter().map(|e| e.name).collect();
            bail!(
                "'{what}' is neither an ending nor a FEN; endings: {}",
                names.join(", ")
            );
        }
        let fen: shakmaty::fen::Fen = what
            .trim()
            .parse()
            .map_err(|e| anyhow::anyhow!("not a FEN ({e}): {what}"))?;
        let setup = fen.into_setup();
        match trainer::validate(&setup.board, setup.turn) {
            Ok(board) => Ok(Some(app::TrainerStart::Position(board))),
            Err(problems) => bail!("cannot train from this position: {}", problems.join(" ")),
        }
    }
}

/// The repository's sample games: `games/` in the working directory (as
/// with `cargo run`), else next to the sources this was built from.
pub fn samples_dir() -> Option<PathBuf> {
    let here = PathBuf::from("games");
    if here.is_dir() {
        return Some(here);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    built.is_dir().then_some(built)
}

/// Everything the app needs before the terminal is taken over; errors here
/// are printed normally.
struct Prepared {
    app: App,
    setup: Setup,
    resume: Option<(PathBuf, crate::game::Game)>,
    warnings: Vec<String>,
}

fn prepare(opts: &Options) -> Result<Prepared> {
    let dirs = crate::paths::project_dirs();
    let config_dir = dirs.as_ref().map(|d| d.config_dir().to_path_buf());
    let data_dir = dirs.as_ref().map(|d| d.data_dir().to_path_buf());
    let mut warnings = Vec::new();
    let mut cfg = match &config_dir {
        Some(dir) => {
            let (c, err) = config::Config::load(&dir.join("config.toml"));
            if let Some(e) = err {
                warnings.push(format!("{e} (using defaults)"));
            }
            c
        }
        None => config::Config::default(),
    };
    if let Some(l) = opts.level {
        if !(1..=8).contains(&l) {
            bail!("--level must be 1 to 8, not {l}");
        }
        cfg.level = l;
        cfg.engine = None;
    }
    if let Some(e) = &opts.engine {
        cfg.engine = Some(PathBuf::from(e));
    }
    if opts.ascii {
        cfg.piece_style = config::PieceStyle::Ascii;
    }
    if let Some(t) = &opts.time {
        cfg.time_control = if t == "none" || t == "-" {
            None
        } else {
            Some(
                t.parse::<config::TimeControl>()
                    .map_err(|e| anyhow::anyhow!("--time {t}: {e}"))?,
            )
        };
    }
    let (themes, theme_warnings) =
        theme::load_all(config_dir.as_ref().map(|d| d.join("themes")).as_deref());
    warnings.extend(theme_warnings);
    if themes.is_empty() {
        bail!("no colour themes could be loaded");
    }
    let state = data_dir
        .as_ref()
        .map(|d| config::State::load(&d.join("state.toml")))
        .unwrap_or_default();
    let mut app = App::new(cfg, themes, data_dir.clone());
    if let Some(l) = &opts.limits {
        app.spec = app::parse_limits(l).map_err(|e| anyhow::anyhow!("--limits {l}: {e}"))?;
    }
    let wanted_theme = opts.theme.clone().or(state.theme.clone());
    if let Some(name) = wanted_theme {
        match app
            .themes
            .iter()
            .position(|t| t.name.eq_ignore_ascii_case(&name))
        {
            Some(i) => app.theme = i,
            None if opts.theme.is_some() => {
                let names: Vec<&str> = app.themes.iter().map(|t| t.name.as_str()).collect();
                bail!("no theme '{name}' (have: {})", names.join(", "));
            }
            None => {}
        }
    }
    app.flipped = state.flipped;
    app.samples_dir = samples_dir();

    let mut setup = app.default_setup();
    if let Some(fen) = &opts.fen {
        setup.start =
            crate::engine::Board::from_fen(fen).map_err(|e| anyhow::anyhow!("--fen: {e}"))?;
        if shakmaty::Position::legal_moves(setup.start.chess()).is_empty() {
            bail!("--fen: the position has no legal moves (the game would already be over)");
        }
    }
    if let Some(side) = &opts.side {
        use shakmaty::Color;
        setup.mode = match side.as_str() {
            "white" => app::Mode::HumanVsEngine {
                human: Color::White,
            },
            "black" => app::Mode::HumanVsEngine {
                human: Color::Black,
            },
            "random" => app::Mode::HumanVsEngine {
                human: if crate::util::Rng::from_entropy().below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                },
            },
            "engines" => app::Mode::EngineVsEngine,
            "humans" => app::Mode::HumanVsHuman,
            other => bail!("--side must be white, black, random, engines or humans, not '{other}'"),
        };
    }
    let resume =
        if opts.new_game || opts.fen.is_some() || opts.replay.is_some() || opts.train.is_some() {
            None
        } else if let Some(d) = &data_dir {
            let (found, warning) = find_unfinished(&d.join("games"));
            warnings.extend(warning);
            found
        } else {
            None
        };
    Ok(Prepared {
        app,
        setup,
        resume,
        warnings,
    })
}

/// The most recently saved game, if it is unfinished; a warning when that
/// file cannot be read (the file is left alone).
pub fn find_unfinished(dir: &Path) -> (Option<(PathBuf, crate::game::Game)>, Option<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (None, None);
    };
    let newest = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "pgn"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max();
    let Some((_, newest)) = newest else {
        return (None, None);
    };
    let game = std::fs::read_to_string(&newest)
        .map_err(|e| e.to_string())
        .and_then(|text| crate::game::pgn_read::read_game(&text).map_err(|e| e.to_string()));
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            let warning = format!(
                "The last saved game ({}) could not be read: {e}",
                newest.display()
            );
            return (None, Some(warning));
        }
    };
    if game.ending.is_some()
        || game.header("KibitzMode").is_none()
        || game.moves().is_empty()
        || game.rule_ending(false).is_some()
    {
        return (None, None);
    }
    (Some((newest, game)), None)
}

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
    let ex = explorer::Explorer::new(pos, depth, features, max_nodes);
    run_terminal(&mut app, Start::Explore(Box::new(ex)), warnings)
}

/// A game, or the offer to resume one.
struct PlayStart {
    setup: Setup,
    resume: Option<(PathBuf, crate::game::Game)>,
}

/// What the app does first.
enum Start {
    Play(Box<PlayStart>),
    Explore(Box<explorer::Explorer>),
    /// A game file (and the game of it to show first).
    Replay(PathBuf, Option<usize>),
    /// The endgame trainer: this start, or the menu.
    Train(Box<PlayStart>, Option<app::TrainerStart>),
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
    let syzygy = match app.config.syzygy_path.as_deref() {
        Some(path) => match crate::tablebase::syzygy::SyzygyTables::open(path) {
            Ok(t) => Some(std::sync::Arc::new(t)),
            Err(e) => {
                warnings.push(format!("syzygy_path: {e}; Syzygy tables off"));
                None
            }
        },
        None => None,
    };
    if app.config.own_tablebases {
        crate::tablebase::shared_loader().start(app.tables_dir());
    }
    player::set_engine_tables(player::EngineTables {
        own: app.config.own_tablebases,
        syzygy,
    });
    let start = match &opts.replay {
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
        None => Start::Play(Box::new(PlayStart { setup, resume })),
    };
    let result = run_terminal(&mut app, start, warnings);
    if let Some(path) = &app.save_path
        && path.exists()
    {
        eprintln!("Game saved to {}", path.display());
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
        let _ = crossterm::execute!(std::io::stdout(), DisableMouseCapture);
        ratatui::restore();
        default_hook(info);
        if thread.name() != Some("main") {
            std::process::exit(101);
        }
    }));
    let mut terminal = match init_terminal() {
        Ok(t) => t,
        Err(e) => {
            ratatui::restore();
            return Err(e).context("cannot start the terminal interface");
        }
    };
    let _ = crossterm::execute!(std::io::stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, app, start, warnings);
    let _ = crossterm::execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

/// Raw mode and the alternate screen (like `ratatui::try_init`, without its
/// panic hook: ours above decides which panics restore the terminal).
fn init_terminal() -> std::io::Result<ratatui::DefaultTerminal> {
    crossterm::terminal::enable_raw_mode()?;
    crossterm::execute!(std::io::stdout(), crossterm::terminal::EnterAlternateScreen)?;
    ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(std::io::stdout()))
}

fn engine_sink(tx: &Sender<Msg>, slot: Slot) -> impl Fn(player::EngineEvent) + Send + 'static {
    let tx = tx.clone();
    move |e| {
        let _ = tx.send(Msg::Engine(slot, e));
    }
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    start: Start,
    warnings: Vec<String>,
) -> Result<()> {
    let (tx, rx): (Sender<Msg>, Receiver<Msg>) = mpsc::channel();
    // Terminal events on their own thread.
    {
        let tx = tx.clone();
        std::thread::Builder::new()
            .name("kibitz-input".into())
            .spawn(move || {
                loop {
                    let msg = match event::read() {
                        Ok(Event::Key(k)) => Msg::Key(k),
                        Ok(Event::Mouse(m)) => Msg::Mouse(m),
                        Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                        Ok(_) => continue,
                        Err(_) => break,
                    };
                    if tx.send(msg).is_err() {
                        break;
                    }
                }
            })
            .context("cannot start the input thread")?;
    }
    let size = terminal.size().unwrap_or_default();
    let now = Instant::now();
    app.update(Msg::Resize(size.width, size.height), now);

    let saver = Saver::spawn().context("cannot start the saving thread")?;
    // The stop flag of the explorer's work in progress.
    let mut job_stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>> = None;
    // The stop flags of the file being opened (and checked) and of the review.
    let mut open_stops: Vec<(u64, std::sync::Arc<std::sync::atomic::AtomicBool>)> = Vec::new();
    let mut review_stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>> = None;
    let mut opponent: Option<EngineHandle> = None;
    let mut assistant = EngineHandle::spawn(
        &EngineSpec::BuiltIn { level: 8 },
        engine_sink(&tx, Slot::Assistant),
    );

    let mut replaying = false;
    let mut train = None;
    let (setup, resume) = match start {
        Start::Play(p) => (p.setup, p.resume),
        Start::Train(p, t) => {
            train = Some(t);
            (p.setup, None)
        }
        Start::Explore(ex) => {
            app.start_explorer(*ex, true, now);
            (app.default_setup(), None)
        }
        Start::Replay(path, game) => {
            replaying = true;
            app.open_file(path, game);
            (app.default_setup(), None)
        }
    };
    let exploring = app.explorer.is_some() || replaying;
    app.launch_setup = Some(setup.clone());
    match resume {
        _ if exploring => {}
        Some((path, game)) => {
            let moves = game.moves().len().div_ceil(2);
            let summary = format!(
                "{} vs {}, {moves} move{}, {}",
                game.header("White").unwrap_or("?"),
                game.header("Black").unwrap_or("?"),
                if moves == 1 { "" } else { "s" },
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            );
            app.overlay = Overlay::Resume {
                path,
                game: Box::new(game),
                summary,
            };
        }
        None => app.start_game(setup, now),
    }
    match train {
        Some(Some(t)) => app.begin_trainer(t, now),
        Some(None) => app.open_trainer_menu(now),
        None => {}
    }
    if !warnings.is_empty() {
        app.update(Msg::Error(warnings.join("; ")), now);
    }

    let tick = Duration::from_millis(100);
    loop {
        for effect in app.take_effects() {
            match effect {
                Effect::Quit => return Ok(()),
                Effect::StartEngine(spec) => {
                    drop(opponent.take()); // stops and joins the old engine
                    opponent = Some(EngineHandle::spawn(&spec, engine_sink(&tx, Slot::Opponent)));
                }
                Effect::RestartAssistant => {
                    assistant = EngineHandle::spawn(
                        &EngineSpec::BuiltIn { level: 8 },
                        engine_sink(&tx, Slot::Assistant),
                    );
                }
                Effect::NewGame => {
                    if let Some(o) = &mut opponent {
                        o.new_game();
                    }
                    assistant.new_game();
                }
                Effect::Go(slot, req) => match slot {
                    Slot::Opponent => match &mut opponent {
                        Some(o) => o.go(*req),
                        None => {
                            let mut o =
                                EngineHandle::spawn(&app.spec, engine_sink(&tx, Slot::Opponent));
                            o.go(*req);
                            opponent = Some(o);
                        }
                    },
                    Slot::Assistant => assistant.go(*req),
                },
                Effect::Stop(slot) => match slot {
                    Slot::Opponent => {
                        if let Some(o) = &mut opponent {
                            o.stop();
                        }
                    }
                    Slot::Assistant => assistant.stop(),
                },
                Effect::Save { path, contents } => {
                    if let Err(e) = saver.save(&path, &contents) {
                        app.update(
                            Msg::Error(format!("Could not save {}: {e}", path.display())),
                            Instant::now(),
                        );
                    }
                }
                Effect::Copy { what, text, path } => {
                    let clip = osc52(&text);
                    let mut out = std::io::stdout();
                    let _ = out.write_all(clip.as_bytes()).and_then(|_| out.flush());
                    let note = match path {
                        Some(p) => match save_file(&p, &text) {
                            Ok(()) => Msg::Note(format!(
                                "{what} copied to the clipboard and saved to {}",
                                p.display()
                            )),
                            Err(e) => Msg::Error(format!(
                                "{what} copied to the clipboard; saving {} failed: {e}",
                                p.display()
                            )),
                        },
                        None => Msg::Note(format!("{what} copied to the clipboard")),
                    };
                    app.update(note, Instant::now());
                }
                Effect::Explorer(req) => {
                    if let Some(flag) = job_stop.take() {
                        flag.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    if let Some(flag) = spawn_job(req, &tx) {
                        job_stop = Some(flag);
                    }
                }
                Effect::OpenFile { id, path } => {
                    if let Some(flag) = spawn_open(id, path, &tx) {
                        open_stops.push((id, flag));
                    }
                }
                Effect::PrepareTables { id, dir, materials } => {
                    spawn_tables(id, dir, materials, &tx);
                }
                Effect::StopFile { id } => {
                    open_stops.retain(|(i, flag)| {
                        if *i == id {
                            flag.store(true, std::sync::atomic::Ordering::Relaxed);
                        }
                        *i != id
                    });
                }
                Effect::Review(req) => {
                    if let Some(flag) = review_stop.take() {
                        flag.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    review_stop = spawn_review(*req, &tx);
                }
                Effect::CancelReview => {
                    if let Some(flag) = review_stop.take() {
                        flag.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                }
                Effect::SaveState => {
                    if let Some(d) = &app.data_dir {
                        let state = config::State {
                            theme: Some(app.theme().name.clone()),
                            flipped: app.flipped,
                        };
                        if let Err(e) = std::fs::create_dir_all(d)
                            .and_then(|_| state.save(&d.join("state.toml")))
                        {
                            app.update(
                                Msg::Error(format!("Could not remember the settings: {e}")),
                                Instant::now(),
                            );
                        }
                    }
                }
            }
        }
        if app.quit {
            return Ok(());
        }
        terminal.draw(|f| view::draw(f, app, Instant::now()))?;
        let msg = match rx.recv_timeout(tick) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => Msg::Tick,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        app.update(msg, Instant::now());
        // Handle whatever else is already waiting before drawing again.
        while let Ok(m) = rx.try_recv() {
            app.update(m, Instant::now());
        }
        app.update(Msg::Tick, Instant::now());
    }
}

/// Starts the explorer's work on a thread of its own; its results come back
/// as messages. Returns the job's stop flag.
fn spawn_job(
    req: explorer::Request,
    tx: &Sender<Msg>,
) -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let flag = Arc::new(AtomicBool::new(false));
    let stop = flag.clone();
    let tx = tx.clone();
    let work: Box<dyn FnOnce() + Send> = match req {
        explorer::Request::Record {
            id,
            pos,
            depth,
            features,
            cap,
        } => Box::new(move || {
            let recording = crate::engine::tree::record_until(
                &pos,
                depth,
                features,
                crate::engine::EngineOptions::default(),
                cap,
                &stop,
            );
            let _ = tx.send(Msg::TreeRecorded {
                id,
                recording: Box::new(recording),
            });
        }),
        explorer::Request::Compare {
            id,
            pos,
            depth,
            rows,
        } => Box::new(move || {
            explorer::run_compare(&pos, depth, &rows, &stop, |row, result| {
                let _ = tx.send(Msg::Compared { id, row, result });
            });
        }),
        explorer::Request::Cancel | explorer::Request::Close => return None,
    };
    std::thread::Builder::new()
        .name(player::ENGINE_THREAD.into())
        .spawn(move || {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        })
        .ok()?;
    Some(flag)
}

/// Reads and indexes a game file on a thread of its own (progress, then
/// the library), then reads every game once to mark the unreadable ones in
/// the game list. Returns the stop flag.
fn spawn_open(
    id: u64,
    path: PathBuf,
    tx: &Sender<Msg>,
) -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = Arc::new(AtomicBool::new(false));
    let stop = flag.clone();
    let tx = tx.clone();
    let work = move || {
        let mut last = 0.0;
        let progress_tx = tx.clone();
        let mut progress = |share: f64| {
            if share - last >= 0.01 {
                last = share;
                let _ = progress_tx.send(Msg::Indexing { id, share });
            }
        };
        let mut library = match crate::game::library::Library::open(&path, &mut progress) {
            Ok(l) => l,
            Err(e) => {
                let _ = tx.send(Msg::Opened {
                    id,
                    path,
                    result: Err(e.to_string()),
                });
                return;
            }
        };
        let check =
            library.format == crate::game::library::Format::Pgn && library.entries.len() > 1;
        let _ = tx.send(Msg::Opened {
            id,
            path,
            result: Ok(Box::new(library.clone())),
        });
        if !check {
            return;
        }
        let mut batch = Vec::new();
        let mut sent = Instant::now();
        for i in 0..library.entries.len() {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let _ = library.load(i);
            batch.push((i, library.entries[i].status.clone()));
            if sent.elapsed() > Duration::from_millis(100) {
                sent = Instant::now();
                let statuses = std::mem::take(&mut batch);
                if tx
                    .send(Msg::Checked {
                        id,
                        statuses,
                        done: false,
                    })
                    .is_err()
                {
                    return;
                }
            }
        }
        let _ = tx.send(Msg::Checked {
            id,
            statuses: batch,
            done: true,
        });
    };
    std::thread::Builder::new()
        .name("kibitz-open".into())
        .spawn(work)
        .ok()?;
    Some(flag)
}

/// Loads or generates the trainer's tables on a thread of its own.
fn spawn_tables(
    id: u64,
    dir: PathBuf,
    materials: Vec<crate::tablebase::Material>,
    tx: &Sender<Msg>,
) {
    let err_tx = tx.clone();
    let panic_tx = tx.clone();
    let tx = tx.clone();
    let work = move || {
        let progress_tx = tx.clone();
        let result = trainer::prepare_tables(Some(dir), &materials, &mut |text, share| {
            let _ = progress_tx.send(Msg::TablesProgress { id, text, share });
        })
        .map(|tb| trainer::Tables(std::sync::Arc::new(tb)));
        let _ = tx.send(Msg::TablesReady { id, result });
    };
    let spawned = std::thread::Builder::new()
        .name("kibitz-tables".into())
        .spawn(move || {
            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).is_err() {
                let _ = panic_tx.send(Msg::TablesReady {
                    id,
                    result: Err("the generator failed (a bug: please report it)".into()),
                });
            }
        });
    if let Err(e) = spawned {
        let _ = err_tx.send(Msg::TablesReady {
            id,
            result: Err(format!("cannot start a thread: {e}")),
        });
    }
}

/// Reviews a game on a thread of its own with the built-in engine.
fn spawn_review(
    req: app::ReviewRequest,
    tx: &Sender<Msg>,
) -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    let app::ReviewRequest {
        id,
        start,
        moves,
        limits,
    } = req;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = Arc::new(AtomicBool::new(false));
    let stop = flag.clone();
    let tx = tx.clone();
    let work = move || {
        crate::game::review::review_line(&start, &moves, &limits, &stop, &mut |done, total, r| {
            let _ = tx.send(Msg::Reviewed {
                id,
                done,
                total,
                review: r.map(|r| Box::new(r.clone())),
                finished: false,
            });
        });
        if !stop.load(Ordering::Relaxed) {
            let n = moves.len();
            let _ = tx.send(Msg::Reviewed {
                id,
                done: n,
                total: n,
                review: None,
                finished: true,
            });
        }
    };
    std::thread::Builder::new()
        .name(player::ENGINE_THREAD.into())
        .spawn(move || {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        })
        .ok()?;
    Some(flag)
}

/// Saves games: the file is written and renamed into place at once (a
/// fraction of a millisecond; from then on killing the process loses
/// nothing), and a thread of its own waits for the disk (`fsync`, which can
/// take long on a slow disk), so no frame is held up. Dropping it waits
/// until every file handed to it is on disk.
struct Saver {
    tx: Option<Sender<PathBuf>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Saver {
    fn spawn() -> std::io::Result<Saver> {
        let (tx, rx) = mpsc::channel::<PathBuf>();
        let thread = std::thread::Builder::new()
            .name("kibitz-saver".into())
            .spawn(move || {
                while let Ok(path) = rx.recv() {
                    // A failed sync leaves the file as written: nothing to
                    // report that the user could act on.
                    let _ = crate::util::sync_file(&path);
                }
            })?;
        Ok(Saver {
            tx: Some(tx),
            thread: Some(thread),
        })
    }

    fn save(&self, path: &Path, contents: &str) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::util::write_atomic_unsynced(path, contents.as_bytes())?;
        if let Some(tx) = &self.tx {
            let _ = tx.send(path.to_path_buf());
        }
        Ok(())
    }
}

impl Drop for Saver {
    fn drop(&mut self) {
        drop(self.tx.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn save_file(path: &Path, contents: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::util::write_atomic(path, contents.as_bytes())
}

/// The OSC 52 escape sequence that puts `text` on the terminal's clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 {
            T[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if chunk.len() > 2 {
            T[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn saver_writes_at_once_and_reports_errors() {
        let dir = std::env::temp_dir().join(format!("kibitz-saver-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let saver = super::Saver::spawn().unwrap();
        for i in 0..20 {
            saver.save(&dir.join("a.pgn"), &format!("a{i}")).unwrap();
            // On disk before save returns (a killed process loses nothing).
            assert_eq!(
                std::fs::read_to_string(dir.join("a.pgn")).unwrap(),
                format!("a{i}")
            );
        }
        let e = saver
            .save(&dir.join("a.pgn").join("sub.pgn"), "x")
            .unwrap_err();
        assert!(!e.to_string().is_empty());
        drop(saver);
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "no temporary files left");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(super::base64(b""), "");
        assert_eq!(super::base64(b"f"), "Zg==");
        assert_eq!(super::base64(b"fo"), "Zm8=");
        assert_eq!(super::base64(b"foo"), "Zm9v");
        assert_eq!(super::base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(super::osc52("hi"), "\x1b]52;c;aGk=\x07");
    }
}

#[cfg(test)]
mod tests_app;
