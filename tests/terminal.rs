//! The real binary on a real (pseudo) terminal: SIGTERM, SIGINT, a closed
//! terminal (SIGHUP) and a panic each end Kibitz with the terminal given
//! back (cooked mode, main screen, no mouse reporting) and every move
//! played in the saved game; two copies started at once on one home keep
//! both games; a new Crazyhouse or Bughouse game typed into keeps its
//! engines.
//!
//! Linux only (`openpty`); each test plays an engine-vs-engine game at
//! 30 ms a move for a few seconds.

#![cfg(target_os = "linux")]

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A Kibitz running on a pseudo terminal of its own.
struct OnPty {
    child: Child,
    /// The terminal's side Kibitz sees (kept to read its modes).
    slave: OwnedFd,
    /// Our side is read by a thread of its own, the only one holding it:
    /// stopping that thread closes the terminal (SIGHUP).
    reader: Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>,
    /// Everything Kibitz wrote to the terminal.
    output: Arc<Mutex<Vec<u8>>>,
    /// Our side of the terminal, to type on.
    keyboard: File,
    home: PathBuf,
}

fn temp_home(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kibitz-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary home");
    d
}

impl OnPty {
    fn start(home: &Path, env: &[(&str, &str)]) -> OnPty {
        OnPty::start_with(
            home,
            env,
            &["--side", "engines", "--limits", "movetime 30", "--new"],
        )
    }

    fn start_with(home: &Path, env: &[(&str, &str)], args: &[&str]) -> OnPty {
        let (mut master, mut slave) = (0, 0);
        let size = libc::winsize {
            ws_row: 32,
            ws_col: 100,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty writes two new descriptors into the integers.
        let r = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
        // Not inherited by Kibitz (it gets the terminal as 0, 1, 2 only):
        // a copy of our side in it would keep the terminal open.
        for fd in [master, slave] {
            // SAFETY: fcntl on descriptors just opened.
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
        // SAFETY: both descriptors are new and owned here.
        let (master, slave) = unsafe { (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let io = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup the terminal"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kibitz"));
        cmd.args(args)
            .env_clear()
            .env("HOME", home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("TERM", "xterm-256color")
            .env("LANG", "C.UTF-8")
            .stdin(io(&slave))
            .stdout(io(&slave))
            .stderr(io(&slave));
        for (k, v) in env {
            cmd.env(k, v);
        }
        // SAFETY: only async-signal-safe calls between fork and exec: a
        // session of its own with the terminal as its controlling one, as
        // a shell gives it (closing the terminal then sends SIGHUP).
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("start kibitz");
        let keyboard = master.try_clone().expect("dup our side");
        let output = Arc::new(Mutex::new(Vec::new()));
        let out = output.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let reader = std::thread::spawn(move || {
            let mut master = master;
            let mut buf = [0u8; 4096];
            while !stopped.load(Ordering::SeqCst) {
                let mut pfd = libc::pollfd {
                    fd: master.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                };
                // SAFETY: one valid pollfd.
                let ready = unsafe { libc::poll(&mut pfd, 1, 50) };
                if ready <= 0 {
                    continue;
                }
                match master.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => out.lock().expect("output").extend_from_slice(&buf[..n]),
                }
            }
        });
        OnPty {
            child,
            slave,
            reader: Some((stop, reader)),
            output,
            keyboard,
            home: home.to_path_buf(),
        }
    }

    /// Types `keys` on the terminal (`\r` is Enter).
    fn keys(&self, keys: &str) {
        use std::io::Write;
        (&self.keyboard)
            .write_all(keys.as_bytes())
            .expect("type on the terminal");
    }

    fn games_dir(&self) -> PathBuf {
        self.home.join(".local/share/kibitz/games")
    }

    /// The saved games with moves: (file, moves).
    fn saved(&self) -> Vec<(PathBuf, usize)> {
        let Ok(rd) = std::fs::read_dir(self.games_dir()) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "pgn") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            if text.is_empty() {
                continue;
            }
            let game = kibitz::game::pgn_read::read_game(&text)
                .unwrap_or_else(|e| panic!("{} does not parse: {e}", p.display()));
            out.push((p, game.moves().len()));
        }
        out.sort();
        out
    }

    /// Closes the terminal, as closing its window does.
    fn hang_up(&mut self) {
        if let Some((stop, reader)) = self.reader.take() {
            stop.store(true, Ordering::SeqCst);
            let _ = reader.join();
            // Our last copy of the terminal's side goes too.
            if let Ok(null) = File::open("/dev/null") {
                // SAFETY: both descriptors are valid; dup2 replaces ours.
                unsafe { libc::dup2(null.as_raw_fd(), self.keyboard.as_raw_fd()) };
            }
        }
    }

    /// Waits until the game on show has at least `n` moves saved.
    fn wait_for_moves(&self, n: usize) -> usize {
        let t = Instant::now();
        loop {
            if let Some(&(_, m)) = self.saved().first()
                && m >= n
            {
                return m;
            }
            assert!(
                t.elapsed() < Duration::from_secs(90),
                "no game of {n} moves saved; screen: {}",
                self.screen_tail()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn signal(&self, sig: i32) {
        // SAFETY: a signal to our own child.
        let r = unsafe { libc::kill(self.child.id() as i32, sig) };
        assert_eq!(r, 0);
    }

    /// Waits for the exit status (or kills it and fails).
    fn wait(&mut self) -> std::process::ExitStatus {
        let t = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                return s;
            }
            if t.elapsed() > Duration::from_secs(30) {
                let _ = self.child.kill();
                panic!("kibitz did not exit; screen: {}", self.screen_tail());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn output(&self) -> Vec<u8> {
        self.output.lock().expect("output").clone()
    }

    fn screen_tail(&self) -> String {
        let o = self.output();
        String::from_utf8_lossy(&o[o.len().saturating_sub(2000)..]).into_owned()
    }

    /// The terminal is as a shell left it: cooked mode with echo, the main
    /// screen, no mouse reporting.
    fn assert_terminal_restored(&self) {
        // Give the reader thread the last bytes.
        std::thread::sleep(Duration::from_millis(200));
        // SAFETY: tcgetattr fills the struct for a valid descriptor.
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::tcgetattr(self.slave.as_raw_fd(), &mut t) };
        assert_eq!(r, 0);
        assert!(t.c_lflag & libc::ICANON != 0, "still in raw mode");
        assert!(t.c_lflag & libc::ECHO != 0, "echo still off");
        let out = self.output();
        let last = |pat: &[u8]| out.windows(pat.len()).rposition(|w| w == pat);
        let entered = last(b"\x1b[?1049h").expect("the alternate screen was used");
        let left = last(b"\x1b[?1049l").expect("the alternate screen was left");
        assert!(left > entered, "left the alternate screen last");
        let mouse_on = last(b"\x1b[?1000h").expect("mouse reporting was on");
        let mouse_off = last(b"\x1b[?1000l").expect("mouse reporting was turned off");
        assert!(mouse_off > mouse_on);
    }
}

impl Drop for OnPty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        self.hang_up();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

/// Plays until `moves` are saved, sends `sig`, and checks the game and
/// the terminal.
fn stops_cleanly_on(sig: i32, name: &str) {
    let home = temp_home(name);
    let mut k = OnPty::start(&home, &[]);
    let before = k.wait_for_moves(4);
    k.signal(sig);
    let status = k.wait();
    assert_eq!(status.code(), Some(143), "{name}: {status:?}");
    k.assert_terminal_restored();
    let saved = k.saved();
    assert_eq!(saved.len(), 1, "one game: {saved:?}");
    assert!(
        saved[0].1 >= before,
        "{} moves saved, {before} seen",
        saved[0].1
    );
    let text = String::from_utf8_lossy(&k.output()).into_owned();
    assert!(text.contains("every move played is saved"), "{text}");
}

#[test]
fn sigterm_saves_and_gives_the_terminal_back() {
    stops_cleanly_on(libc::SIGTERM, "term");
}

#[test]
fn sigint_saves_and_gives_the_terminal_back() {
    stops_cleanly_on(libc::SIGINT, "int");
}

#[test]
fn a_closed_terminal_stops_kibitz_with_the_game_saved() {
    let home = temp_home("hup");
    let mut k = OnPty::start(&home, &[]);
    let before = k.wait_for_moves(4);
    // The terminal window closes: the kernel hangs up the session.
    k.hang_up();
    let status = k.wait();
    // Stopped as by SIGTERM, not by a panic (an abort) on the lost
    // terminal.
    assert_eq!(status.code(), Some(143), "{status:?}");
    let saved = k.saved();
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(saved[0].1 >= before);
    // Nothing left running: the game's engine thread went with it, and no
    // temp file was left.
    let junk: Vec<_> = std::fs::read_dir(k.games_dir())
        .expect("games")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(junk.is_empty(), "{junk:?}");
}

#[test]
fn a_panic_gives_the_terminal_back_and_keeps_the_game() {
    let home = temp_home("panic");
    let mut k = OnPty::start(&home, &[("KIBITZ_INJECT_PANIC_MS", "4000")]);
    let before = k.wait_for_moves(2);
    let status = k.wait();
    assert_eq!(status.code(), Some(101), "{status:?}");
    k.assert_terminal_restored();
    let text = String::from_utf8_lossy(&k.output()).into_owned();
    assert!(text.contains("injected panic"), "the message is shown");
    let saved = k.saved();
    assert_eq!(saved.len(), 1);
    assert!(saved[0].1 >= before);
}

#[test]
fn two_copies_started_together_keep_both_games() {
    let home = temp_home("two");
    let a = OnPty::start(&home, &[]);
    let b = OnPty::start(&home, &[]);
    let t = Instant::now();
    while a.saved().len() < 2 || a.saved().iter().any(|(_, m)| *m < 6) {
        assert!(
            t.elapsed() < Duration::from_secs(90),
            "two games of 6 moves: {:?}",
            a.saved()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    a.signal(libc::SIGTERM);
    b.signal(libc::SIGTERM);
    let (mut a, mut b) = (a, b);
    a.wait();
    b.wait();
    let saved = a.saved();
    assert_eq!(saved.len(), 2, "{saved:?}");
    assert!(saved.iter().all(|(_, m)| *m >= 6), "{saved:?}");
}

/// Waits until the terminal output holds `text` (or fails).
fn wait_for_text(k: &OnPty, text: &str) {
    let t = Instant::now();
    while !String::from_utf8_lossy(&k.output()).contains(text) {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "no '{text}' on screen: {}",
            k.screen_tail()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_unfinished_game_is_offered_to_one_copy_only() {
    let home = temp_home("resume");
    // An unfinished game: engines playing, stopped by SIGTERM.
    let mut first = OnPty::start(&home, &[]);
    first.wait_for_moves(4);
    first.signal(libc::SIGTERM);
    first.wait();
    let unfinished = first.saved();
    assert_eq!(unfinished.len(), 1);
    // The next Kibitz offers it, and holds it while it asks...
    let a = OnPty::start_with(&home, &[], &[]);
    wait_for_text(&a, "Unfinished game");
    // ...so a second one started meanwhile is not offered the same game:
    // it starts a new one.
    let b = OnPty::start_with(&home, &[], &[]);
    wait_for_text(&b, "Kibitz");
    std::thread::sleep(Duration::from_millis(1500));
    let shown = String::from_utf8_lossy(&b.output()).into_owned();
    assert!(!shown.contains("Unfinished game"), "offered twice");
    // Once the first Kibitz has gone, the game is offered again.
    a.signal(libc::SIGTERM);
    b.signal(libc::SIGTERM);
    let (mut a, mut b) = (a, b);
    a.wait();
    b.wait();
    let c = OnPty::start_with(&home, &[], &[]);
    wait_for_text(&c, "Unfinished game");
    drop(c);
    drop(first);
}

/// Half-moves of board A in each saved Crazyhouse (`.pgn`) or Bughouse
/// (`.bpgn`) game, by file name.
fn drop_games(k: &OnPty) -> Vec<usize> {
    let Ok(rd) = std::fs::read_dir(k.games_dir()) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    files.sort();
    let mut out = Vec::new();
    for p in files {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        let moves = match p.extension().and_then(|x| x.to_str()) {
            Some("pgn") => kibitz::game::variant_pgn::read_variant_pgn(&text)
                .first()
                .and_then(|g| g.as_ref().ok())
                .map(|g| g.moves().len()),
            Some("bpgn") => kibitz::bughouse::bpgn::read_bpgn_games(&text)
                .first()
                .and_then(|g| g.as_ref().ok())
                .map(|g| {
                    let a = kibitz::bughouse::BoardId::A;
                    g.moves().iter().filter(|m| m.board == a).count()
                }),
            _ => None,
        };
        out.extend(moves);
    }
    out
}

/// Waits until the saved games' board A have `want` half-moves (2 or
/// more count as 2; in increasing order).
fn wait_for_games(k: &OnPty, want: &[usize]) {
    let t = Instant::now();
    let now = || {
        let mut v: Vec<usize> = drop_games(k).iter().map(|&m| m.min(2)).collect();
        v.sort_unstable();
        v
    };
    while now() != want {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "games {:?}, want {want:?}; screen: {}",
            drop_games(k),
            k.screen_tail()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Seat 1 of issue 49, on the real binary with the built-in engine at
/// every engine seat (this program's `uci`, a process a seat): a
/// Crazyhouse or Bughouse game, `e4` answered; `n`, a new game; `e4`
/// answered again, and both games saved with the reply.
#[test]
fn a_new_drop_game_against_the_built_in_engine_answers() {
    for variant in ["crazyhouse", "bughouse"] {
        let home = temp_home(variant);
        let args = ["--variant", variant, "--time", "2+0", "--fast", "--new"];
        let k = OnPty::start_with(&home, &[], &args);
        // The game's screen is up: its moves box.
        wait_for_text(&k, "house moves");
        k.keys("e4\r");
        wait_for_games(&k, &[2]);
        // The dialog, and its "leave this game?" (Enter twice).
        k.keys("n");
        wait_for_text(&k, "New game");
        k.keys("\r");
        std::thread::sleep(Duration::from_millis(300));
        k.keys("\r");
        std::thread::sleep(Duration::from_millis(500));
        k.keys("e4\r");
        wait_for_games(&k, &[2, 2]);
    }
}
