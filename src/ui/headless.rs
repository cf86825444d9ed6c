//! The app without a terminal (`kibitz headless`): the same loop and
//! runtime as the terminal (`event_loop::run_loop`), drawing every frame
//! into ratatui's `TestBackend`, with engines playing both sides game after
//! game. It prints a `shown` line for every move a frame shows (what the
//! kill test compares the saved games against) and the process's
//! resources every few games (the soak: leaks show as growth).

use anyhow::{Result, bail};
use app::{App, ChessScreen, Mode, Msg, Setup};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use keymap::Action;
use player::EngineSpec;
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::{self, Sender};
use std::time::{Duration, Instant};

use super::event_loop::{Driver, run_loop};
use super::*;

/// What `kibitz headless` plays.
#[derive(Clone, Debug)]
pub struct HeadlessOptions {
    /// Games to finish before quitting.
    pub games: usize,
    /// Who plays both sides.
    pub engine: EngineSpec,
    /// A clock for both sides (`5+3`, `10s+0.1`), or none.
    pub time: Option<String>,
    /// A resource report every this many games (0: only at the start and
    /// the end).
    pub report_every: usize,
    /// The data folder: games are saved to its `games` folder.
    pub data: PathBuf,
    /// The size of the screen drawn into.
    pub size: (u16, u16),
    /// Give up when no move comes for this long (a stuck engine).
    pub stall: Duration,
    /// With an external engine: every other game is the built-in engine
    /// at level 1 (chosen in the new-game dialog), so the external engine
    /// is started and stopped again and again.
    pub alternate: bool,
}

/// The process's resources, from `/proc/self` (Linux); `None` elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resources {
    pub rss_kb: u64,
    pub threads: usize,
    pub fds: usize,
    /// Processes whose parent is this one (external engines).
    pub children: usize,
}

impl Resources {
    pub fn now() -> Option<Resources> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let rss_kb = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        let count = |dir: &str| std::fs::read_dir(dir).map(|d| d.count()).ok();
        // `read_dir` itself holds one descriptor while it counts.
        let fds = count("/proc/self/fd")?.saturating_sub(1);
        Some(Resources {
            rss_kb,
            threads: count("/proc/self/task")?,
            fds,
            children: children(std::process::id()),
        })
    }

    fn line(&self, games: usize) -> String {
        format!(
            "report games={games} rss_kb={} threads={} fds={} children={}",
            self.rss_kb, self.threads, self.fds, self.children
        )
    }
}

/// How many processes have `pid` as their parent (`/proc/*/stat`).
fn children(pid: u32) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| parent_of(stat) == Some(pid))
        .count()
}

/// The parent pid in a `/proc/PID/stat` line: the second field after the
/// command name, which is in parentheses and may hold spaces or `)`.
fn parent_of(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Plays `opts.games` engine-vs-engine games through the app's own loop.
pub fn run_headless(opts: HeadlessOptions) -> Result<()> {
    let time = match opts.time.as_deref() {
        None | Some("none") => None,
        Some(t) => Some(
            t.parse::<config::TimeControl>()
                .map_err(|e| anyhow::anyhow!("--time {t}: {e}"))?,
        ),
    };
    if opts.games == 0 {
        bail!("--games must be at least 1");
    }
    let config = config::Config {
        autosave: true,
        // Engines move as soon as they have a move: no human-like pauses.
        engine_pace: pace::Pace::Fast,
        // Nor the pause that gives a watcher time to see each move.
        watch_delay: Duration::ZERO,
        own_tablebases: false,
        time_control: time,
        // The new-game dialog offers the configured external engine.
        engine: match &opts.engine {
            EngineSpec::External { command } => Some(PathBuf::from(command)),
            _ => None,
        },
        ..config::Config::default()
    };
    let mut app = App::new(config, theme::builtin(), Some(opts.data.clone()));
    let setup = Setup {
        mode: Mode::EngineVsEngine,
        engine: opts.engine.clone(),
        time,
        start: crate::engine::Board::startpos(),
    };
    let backend = ratatui::backend::TestBackend::new(opts.size.0, opts.size.1);
    let mut terminal = ratatui::Terminal::new(backend)?;
    let (tx, rx) = mpsc::channel();
    let mut watcher = Watcher::new(&opts);
    let start = Start::Play(Box::new(PlayStart {
        setup,
        resume: None,
    }));
    run_loop(
        &mut terminal,
        &mut app,
        start,
        Vec::new(),
        (tx, rx),
        &mut watcher,
    )?;
    // The runtime is gone: its engines and threads have ended.
    if let Some(r) = Resources::now() {
        say(&format!("{} (after shutdown)", r.line(watcher.finished)));
    }
    if let Some(why) = watcher.failure {
        bail!(why);
    }
    watcher.summary();
    Ok(())
}

/// Prints a line to standard output at once (the kill test reads it as it
/// comes). A closed output is no reason to stop playing.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|_| out.flush());
}

/// Looks at every frame: prints the moves it shows, starts the next game
/// when one ends, quits after the last one.
struct Watcher {
    games: usize,
    report_every: usize,
    stall: Duration,
    finished: usize,
    /// The game file and ply count last printed.
    shown: Option<(Option<PathBuf>, usize)>,
    /// The game whose end was counted (its file and ply count).
    ended: Option<(Option<PathBuf>, usize)>,
    last_progress: Instant,
    quitting: bool,
    alternate: bool,
    failure: Option<String>,
    /// The reports: (games finished, resources).
    reports: Vec<(usize, Resources)>,
}

impl Watcher {
    fn new(opts: &HeadlessOptions) -> Watcher {
        Watcher {
            games: opts.games,
            report_every: opts.report_every,
            stall: opts.stall,
            finished: 0,
            shown: None,
            ended: None,
            last_progress: Instant::now(),
            quitting: false,
            alternate: opts.alternate,
            failure: None,
            reports: Vec::new(),
        }
    }

    fn report(&mut self) {
        if let Some(r) = Resources::now() {
            say(&r.line(self.finished));
            self.reports.push((self.finished, r));
        }
    }

    /// The soak's verdict: growth from the first report after warm-up
    /// (the second report, or the first if there is one) to the last.
    /// Alternating games compare reports after the same kind of game (the
    /// built-in engine's hash table and an external engine's pipes come
    /// and go with their games).
    fn summary(&self) {
        let Some((g1, b)) = self.reports.last() else {
            return;
        };
        let same_kind = |g: &usize| !self.alternate || g % 2 == g1 % 2;
        let Some((g0, a)) = self
            .reports
            .iter()
            .skip(1)
            .find(|(g, _)| same_kind(g))
            .or(self.reports.first())
        else {
            return;
        };
        let growth = (b.rss_kb as f64 / a.rss_kb.max(1) as f64 - 1.0) * 100.0;
        say(&format!(
            "summary games {g0}..{g1}: rss {} -> {} kB ({growth:+.1}%), threads {} -> {}, fds {} -> {}, children {} -> {}",
            a.rss_kb, b.rss_kb, a.threads, b.threads, a.fds, b.fds, a.children, b.children
        ));
    }

    /// Presses the first key bound to `action`.
    fn press(app: &App, action: Action, tx: &Sender<Msg>) {
        if let Some(k) = app
            .ui
            .keys
            .keys_for(action)
            .first()
            .and_then(|name| keymap::key_event(name))
        {
            let _ = tx.send(Msg::Key(k));
        }
    }

    fn quit(&mut self, app: &App, tx: &Sender<Msg>) {
        if !self.quitting {
            self.quitting = true;
            Self::press(app, Action::Quit, tx);
        }
    }
}

impl Driver for Watcher {
    fn drawn(&mut self, app: &App, frame: &ratatui::buffer::Buffer, tx: &Sender<Msg>) {
        if self.reports.is_empty() {
            self.report();
        }
        let Some(s) = app.top_as::<ChessScreen>().map(|c| &c.game) else {
            return;
        };
        let plies = s.game.moves().len();
        let now = (s.file.path().map(PathBuf::from), plies);
        if plies > 0 && self.shown.as_ref() != Some(&now) {
            let view = crate::ui::screens::chess::draw::ChessView {
                ui: &app.ui,
                s,
                task: app::TaskView::Play,
            };
            let rows = crate::ui::screens::chess::draw::move_rows(&view);
            // The frame shows the move when its row of the move list is
            // on screen (the list keeps the newest rows in view).
            let row = rows.last().map(|r| r.trim_end()).unwrap_or_default();
            if shows(frame, row) {
                let mut board = s.game.start().clone();
                for &m in &s.game.moves()[..plies - 1] {
                    board = board.play(m);
                }
                let san = board.san(s.game.moves()[plies - 1]);
                let file = now
                    .0
                    .as_ref()
                    .map_or("-".to_string(), |p| p.display().to_string());
                say(&format!("shown {file} {plies} {san}"));
                self.shown = Some(now.clone());
                self.last_progress = Instant::now();
            }
        }
        if s.game.ending.is_some() && self.ended.as_ref() != Some(&now) {
            self.ended = Some(now.clone());
            self.finished += 1;
            let result = s.game.ending.map_or("*", |e| e.result.pgn());
            let file = now
                .0
                .as_ref()
                .map_or("-".to_string(), |p| p.display().to_string());
            say(&format!(
                "game {} {file} {result} {plies} plies",
                self.finished
            ));
            if self.finished >= self.games
                || (self.report_every > 0 && self.finished.is_multiple_of(self.report_every))
            {
                self.report();
            }
            if self.finished >= self.games {
                self.quit(app, tx);
            } else {
                Self::press(app, Action::NewGame, tx);
                let key = |code| {
                    let _ = tx.send(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
                };
                if self.alternate {
                    // The dialog's opponent field: from the external
                    // engine (the last choice) on to level 1 (the first),
                    // and back.
                    key(KeyCode::Down);
                    key(match s.opponent.spec {
                        EngineSpec::External { .. } => KeyCode::Right,
                        _ => KeyCode::Left,
                    });
                }
                key(KeyCode::Enter);
                self.last_progress = Instant::now();
            }
        }
        if !self.quitting && self.last_progress.elapsed() > self.stall {
            self.failure = Some(format!(
                "no move for {} s after game {} ({plies} plies): the engine is stuck",
                self.stall.as_secs(),
                self.finished
            ));
            self.quit(app, tx);
        }
    }
}

/// Whether a row of text is on screen (a line of the buffer contains it).
fn shows(frame: &ratatui::buffer::Buffer, row: &str) -> bool {
    if row.is_empty() {
        return false;
    }
    let area = frame.area;
    let mut line = String::with_capacity(area.width as usize * 3);
    for y in area.top()..area.bottom() {
        line.clear();
        for x in area.left()..area.right() {
            line.push_str(frame[(x, y)].symbol());
        }
        if line.contains(row) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn parent_pid_is_read_past_the_command_name() {
        assert_eq!(super::parent_of("42 (sh) S 7 42 42 0"), Some(7));
        // A command name with spaces and a parenthesis in it.
        assert_eq!(super::parent_of("42 (a b) c) R 9 1 1"), Some(9));
        assert_eq!(super::parent_of("garbage"), None);
    }

    #[test]
    fn resources_count_this_process() {
        let Some(r) = super::Resources::now() else {
            eprintln!("skipping: no /proc on this system");
            return;
        };
        assert!(r.rss_kb > 0);
        assert!(r.threads >= 1);
        let child = std::process::Command::new("sleep").arg("5").spawn();
        if let Ok(mut child) = child {
            let with = super::Resources::now().map(|r| r.children);
            let _ = child.kill();
            let _ = child.wait();
            assert!(with.is_some_and(|n| n >= 1), "the child is counted");
        }
    }
}
