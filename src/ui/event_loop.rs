//! The runtime: the one message channel (terminal events, engine
//! messages, clock ticks), the loop that feeds it to `App::update` and draws,
//! and the background jobs that carry out the app's effects.

use crate::variant::VariantKind;
use anyhow::{Context, Result};
use app::{App, Effect, Msg, Overlay};
use crossterm::event::{self, Event};
use engines::{APP_TABLE, EngineJob, Engines};
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::*;

/// What the loop needs from its surroundings besides the app: the real
/// terminal needs nothing more, the headless runner (`headless.rs`) looks
/// at every frame drawn and feeds scripted messages. Static dispatch, so
/// the terminal's loop pays nothing for it.
pub(super) trait Driver {
    /// After a frame is drawn: `frame` is what it shows, `tx` the loop's
    /// channel for messages of the driver's own.
    fn drawn(&mut self, app: &App, frame: &ratatui::buffer::Buffer, tx: &Sender<Msg>) {
        let _ = (app, frame, tx);
    }
}

/// The terminal: its input arrives on the input thread.
struct Interactive;
impl Driver for Interactive {}

pub(super) fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    start: Start,
    warnings: Vec<String>,
) -> Result<()> {
    let (tx, rx): (Sender<Msg>, Receiver<Msg>) = mpsc::channel();
    spawn_input(&tx)?;
    run_loop(terminal, app, start, warnings, (tx, rx), &mut Interactive)
}

/// The loop on any ratatui backend: effects carried out, a frame drawn,
/// then the next messages (a tick when none comes within 100 ms).
pub(super) fn run_loop<B: ratatui::backend::Backend, D: Driver>(
    terminal: &mut ratatui::Terminal<B>,
    app: &mut App,
    start: Start,
    warnings: Vec<String>,
    (tx, rx): (Sender<Msg>, Receiver<Msg>),
    driver: &mut D,
) -> Result<()>
where
    B::Error: Send + Sync + 'static,
{
    let size = terminal.size().unwrap_or_default();
    let now = Instant::now();
    app.update(Msg::Resize(size.width, size.height), now);
    let mut runtime = Runtime::new(tx.clone())?;
    launch(app, start, warnings, now);

    // SIGTERM, SIGHUP (the terminal closed) and SIGINT end the loop like
    // `q`: every move is saved as it is played, the saving thread finishes
    // its work, and the terminal is given back.
    let wake = tx.clone();
    let _ = ctrlc::set_handler(move || {
        SIGNALLED.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = wake.send(Msg::Tick);
    });
    // A test hook: a panic on the UI thread after this many milliseconds
    // (the terminal must come back and the game file stay).
    let inject_panic = std::env::var("KIBITZ_INJECT_PANIC_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(|ms| now + Duration::from_millis(ms));

    let tick = Duration::from_millis(100);
    loop {
        // Effects before drawing: a move's file is in place before the
        // frame that shows the move (what tests/kill/ checks).
        for effect in app.take_effects() {
            if !runtime.run(app, effect) {
                return Ok(());
            }
        }
        if app.ui.quit || signalled() {
            return Ok(());
        }
        if inject_panic.is_some_and(|t| Instant::now() >= t) {
            panic!("injected panic (KIBITZ_INJECT_PANIC_MS)");
        }
        let frame = terminal.draw(|f| app::draw(f, app, Instant::now()))?;
        driver.drawn(app, frame.buffer, &tx);
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

/// Set when a signal asked Kibitz to stop.
static SIGNALLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a signal (SIGTERM, SIGHUP, SIGINT) stopped the app.
pub(super) fn signalled() -> bool {
    SIGNALLED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Terminal events on their own thread.
fn spawn_input(tx: &Sender<Msg>) -> Result<()> {
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
    Ok(())
}

/// The first screen: what the command line asked for (a game, a resume
/// prompt, the trainer, the explorer, a file, a Crazyhouse/Bughouse game).
fn launch(app: &mut App, start: Start, warnings: Vec<String>, now: Instant) {
    let mut replaying = false;
    let mut train = None;
    let mut puzzles = None;
    let (setup, resume) = match start {
        Start::Play(p) => (p.setup, p.resume),
        Start::Puzzles(p, theme) => {
            puzzles = Some(theme);
            (p.setup, None)
        }
        Start::Train(p, t) => {
            train = Some(t);
            (p.setup, None)
        }
        Start::Explore(ex) => {
            app.start_explorer(*ex, true, now);
            (app.default_setup(), None)
        }
        Start::House(live, new_game) => {
            replaying = true;
            app.offer_or_start_live(*live, new_game, now);
            (app.default_setup(), None)
        }
        Start::Replay(path, game) => {
            replaying = true;
            app.open_file(path, game);
            (app.default_setup(), None)
        }
    };
    // The puzzles alone: no game beneath them (leaving them quits).
    let puzzling = puzzles
        .take()
        .is_some_and(|theme| app.start_puzzles(theme, now));
    let exploring = app.top_as::<app::ExplorerScreen>().is_some() || replaying || puzzling;
    app.ui.launch_setup = Some(setup.clone());
    match resume {
        _ if exploring => {}
        Some((path, game)) => {
            let summary = crate::ui::text::resume_summary(&game, &path);
            app.ui.overlay = Overlay::Resume {
                path,
                summary,
                game: app::Unfinished::Chess(Box::new(game)),
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
}

/// What carries out the app's effects: the engines, the background jobs
/// and their stop flags, the saving thread.
struct Runtime {
    tx: Sender<Msg>,
    saver: Saver,
    /// The stop flag of the explorer's work in progress.
    job_stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The stop flags of the file being opened (and checked) and of the review.
    open_stops: Vec<(u64, std::sync::Arc<std::sync::atomic::AtomicBool>)>,
    review_stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The opening explorer's thread (started when first asked).
    openings: Option<Sender<crate::ui::openings::OpeningsRequest>>,
    /// Every game's engines, and the app's assistant.
    engines: Engines,
    save_reports: SaveReports,
}

impl Runtime {
    fn new(tx: Sender<Msg>) -> Result<Runtime> {
        let saver = Saver::spawn().context("cannot start the saving thread")?;
        let mut runtime = Runtime {
            tx,
            saver,
            job_stop: None,
            open_stops: Vec::new(),
            review_stop: None,
            openings: None,
            engines: Engines::default(),
            save_reports: SaveReports::default(),
        };
        runtime.engine_job(APP_TABLE, EngineJob::assistant(VariantKind::Chess));
        Ok(runtime)
    }

    fn engine_job(&mut self, table: u64, job: EngineJob) {
        let tx = self.tx.clone();
        self.engines.handle(table, job, move |seat, report| {
            let _ = tx.send(Msg::Engine {
                table,
                seat,
                report,
            });
        });
    }

    /// Writes a game file: an autosave (`named` false) is reported only
    /// when it fails or works again, a file the user named always.
    fn save_game(&mut self, app: &mut App, path: &std::path::Path, contents: &str, named: bool) {
        use crate::ui::keymap::Action;
        let result = self.saver.save(path, contents);
        if !named {
            let saved = Msg::Autosaved {
                path: path.to_path_buf(),
                ok: result.is_ok(),
            };
            app.update(saved, Instant::now());
        }
        let msg = if !named {
            let keys = (
                app.ui.keys_hint(Action::SaveAs),
                app.ui.keys_hint(Action::CopyPgn),
            );
            self.save_reports.news(path, result, keys)
        } else {
            Some(match result {
                Ok(()) => {
                    self.save_reports.failing = None;
                    Msg::Note(format!(
                        "Game saved to {}; later moves are saved there too.",
                        path.display()
                    ))
                }
                Err(e) => Msg::Error(format!(
                    "Could not save {}: {e}. The game goes on; {} tries another file.",
                    path.display(),
                    app.ui.keys_hint(Action::SaveAs)
                )),
            })
        };
        if let Some(msg) = msg {
            app.update(msg, Instant::now());
        }
    }

    /// Carries out one effect; false when the app is to quit.
    fn run(&mut self, app: &mut App, effect: Effect) -> bool {
        match effect {
            Effect::Quit => return false,
            Effect::Engine { table, job } => self.engine_job(table, job),
            Effect::Save { path, contents } => self.save_game(app, &path, &contents, false),
            Effect::SaveAs { path, contents } => self.save_game(app, &path, &contents, true),
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
                use crate::ui::screens::explorer::{AnyRecording, AnyRequest};
                if let Some(flag) = self.job_stop.take() {
                    flag.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                self.job_stop = match req {
                    AnyRequest::Chess(r) => spawn_job(r, &self.tx, |id, r| Msg::TreeRecorded {
                        id,
                        recording: AnyRecording::Chess(Box::new(r)),
                    }),
                    AnyRequest::Zh(r) => spawn_job(r, &self.tx, |id, r| Msg::TreeRecorded {
                        id,
                        recording: AnyRecording::Zh(Box::new(r)),
                    }),
                    AnyRequest::Bug(r) => spawn_job(r, &self.tx, |id, r| Msg::TreeRecorded {
                        id,
                        recording: AnyRecording::Bug(Box::new(r)),
                    }),
                };
            }
            Effect::OpenFile {
                id,
                path,
                repertoires,
            } => {
                if let Some(flag) = spawn_open(id, path, repertoires, &self.tx) {
                    self.open_stops.push((id, flag));
                }
            }
            Effect::RecordLesson { path, lesson, step } => {
                if let Err(e) =
                    crate::train::lessons::progress::Progress::record(&path, lesson, step)
                {
                    app.update(
                        Msg::Error(format!("Lesson progress not saved: {e}")),
                        Instant::now(),
                    );
                }
            }
            Effect::PrepareTables { id, dir, materials } => {
                spawn_tables(id, dir, materials, &self.tx);
            }
            Effect::StopFile { id } => {
                self.open_stops.retain(|(i, flag)| {
                    if *i == id {
                        flag.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    *i != id
                });
            }
            Effect::Review(req) => {
                if let Some(flag) = self.review_stop.take() {
                    flag.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                self.review_stop = spawn_review(*req, &self.tx);
            }
            Effect::WriteFile {
                what,
                path,
                contents,
            } => {
                let written = path
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .and_then(|()| crate::util::write_atomic(&path, contents.as_bytes()));
                if let Err(e) = written {
                    let msg =
                        Msg::Error(format!("Could not save {what} to {}: {e}", path.display()));
                    app.update(msg, Instant::now());
                }
            }
            Effect::Openings(req) => {
                if self.openings.is_none() {
                    let tx = self.tx.clone();
                    self.openings =
                        crate::ui::openings::service::spawn(app.ui.dirs.data.clone(), move |r| {
                            let _ = tx.send(Msg::Openings(r));
                        });
                }
                if let Some(tx) = &self.openings
                    && tx.send(req).is_err()
                {
                    self.openings = None;
                }
            }
            Effect::CancelReview => {
                if let Some(flag) = self.review_stop.take() {
                    flag.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            Effect::SaveState => {
                if let Some(d) = &app.ui.dirs.data {
                    let state = config::State {
                        theme: Some(app.theme().name.clone()),
                        flipped: app.ui.look.flipped,
                    };
                    if let Err(e) =
                        std::fs::create_dir_all(d).and_then(|_| state.save(&d.join("state.toml")))
                    {
                        app.update(
                            Msg::Error(format!("Could not remember the settings: {e}")),
                            Instant::now(),
                        );
                    }
                }
            }
        }
        true
    }
}

/// What the user hears of autosaves: the first failure of a file (with
/// the ways out), not one message a move; and when it works again.
#[derive(Default)]
pub(super) struct SaveReports {
    /// The game file whose saving failed last (reported once).
    pub(super) failing: Option<PathBuf>,
}

impl SaveReports {
    /// The message for one autosave's result, if any.
    pub(super) fn news(
        &mut self,
        path: &std::path::Path,
        result: std::io::Result<()>,
        (save_key, copy_key): (String, String),
    ) -> Option<Msg> {
        match result {
            Ok(()) => self
                .failing
                .take_if(|p| p == path)
                .map(|_| Msg::Note(format!("Saving works again: {}.", path.display()))),
            Err(_) if self.failing.as_deref() == Some(path) => None,
            Err(e) => {
                self.failing = Some(path.to_path_buf());
                Some(Msg::Error(save_failed_text(path, &e, &save_key, &copy_key)))
            }
        }
    }
}

/// Why an autosave failed, and what the user can do: the game is kept in
/// memory, `S` saves it to another file, `Y` copies it.
pub(super) fn save_failed_text(
    path: &std::path::Path,
    e: &std::io::Error,
    save_key: &str,
    copy_key: &str,
) -> String {
    format!(
        "Could not save {}: {e}. The game goes on and is kept in memory: \
         {save_key} saves it to another file, {copy_key} copies it to the clipboard.",
        path.display()
    )
}

impl Drop for Runtime {
    /// The engines are asked to quit; those still at work half a second
    /// later (hung, or in a handshake) are killed, so none outlives the
    /// program.
    fn drop(&mut self) {
        self.engines = Engines::default();
        crate::uci::client::end_all_engines(Duration::from_millis(600));
    }
}

/// Starts the explorer's work on a thread of its own; its results come back
/// as messages. Returns the job's stop flag.
pub(super) fn spawn_job<V: crate::engine::Variant>(
    req: explorer::Request<V>,
    tx: &Sender<Msg>,
    recorded: fn(u64, crate::engine::tree::Recording<V>) -> Msg,
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
            let _ = tx.send(recorded(id, recording));
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
pub(super) fn spawn_open(
    id: u64,
    path: PathBuf,
    repertoires: Option<std::sync::Arc<crate::ui::openings::Repertoires>>,
    tx: &Sender<Msg>,
) -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = Arc::new(AtomicBool::new(false));
    let stop = flag.clone();
    let tx = tx.clone();
    let work = move || {
        use crate::ui::screens::house::file;
        let kind = file::kind_of(&path);
        if kind != file::Kind::Chess {
            let result = file::read(&path, kind);
            let result = result.map(crate::ui::state::FileRead::House);
            let _ = tx.send(Msg::Opened { id, path, result });
            return;
        }
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
            result: Ok(crate::ui::state::FileRead::Chess(Box::new(library.clone()))),
        });
        if !check {
            return;
        }
        let mut batch = Vec::new();
        let mut left = Vec::new();
        let mut sent = Instant::now();
        for i in 0..library.entries.len() {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let parsed = library.load(i);
            if let (Some(reps), Ok(p)) = (&repertoires, &parsed) {
                let g = &p.game;
                let yours = crate::ui::openings::Repertoires::your_side(
                    g.header("White"),
                    g.header("Black"),
                );
                if let Some((_, d)) = reps.check(yours, g.start().chess(), g.moves()) {
                    left.push((i, d.words()));
                }
            }
            let e = &library.entries[i];
            batch.push((i, e.status.clone(), e.opening));
            if sent.elapsed() > Duration::from_millis(100) {
                sent = Instant::now();
                let statuses = std::mem::take(&mut batch);
                if tx
                    .send(Msg::Checked {
                        id,
                        statuses,
                        left_repertoire: std::mem::take(&mut left),
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
            left_repertoire: left,
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
pub(super) fn spawn_tables(
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
pub(super) fn spawn_review(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_autosave_is_said_once_with_the_ways_out() {
        let mut r = SaveReports::default();
        let keys = || ("S".to_string(), "Y".to_string());
        let full = || std::io::Error::from_raw_os_error(28); // ENOSPC
        let p = std::path::Path::new("/data/games/a.pgn");
        let first = r.news(p, Err(full()), keys());
        let Some(Msg::Error(text)) = first else {
            panic!("{first:?}");
        };
        assert!(text.contains("No space left on device"), "{text}");
        assert!(text.contains("kept in memory"), "{text}");
        assert!(text.contains("S saves it to another file"), "{text}");
        assert!(text.contains("Y copies it"), "{text}");
        // Not once a move.
        assert!(r.news(p, Err(full()), keys()).is_none());
        // Space again: said, then quiet.
        assert!(
            matches!(r.news(p, Ok(()), keys()), Some(Msg::Note(n)) if n.contains("works again"))
        );
        assert!(r.news(p, Ok(()), keys()).is_none());
        // Another file failing is news again.
        let q = std::path::Path::new("/elsewhere/b.pgn");
        assert!(r.news(q, Err(full()), keys()).is_some());
    }
}
