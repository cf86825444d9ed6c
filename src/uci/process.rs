//! Engine processes: started with their output read line by line on a
//! thread of their own (so every wait on an engine can time out), ended
//! (asked to quit, killed if they linger, always waited for), and the list
//! of those still alive, so that none outlives Kibitz.

use super::error::UciError;
use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Starts `cmd[0]` with arguments `cmd[1..]`, its stdout read line by line
/// into a channel by a thread named `reader` (so every wait can time out).
pub(crate) fn start_process(
    cmd: &[String],
    reader: &str,
) -> Result<(Child, ChildStdin, Receiver<String>), UciError> {
    let (program, args) = cmd.split_first().ok_or(UciError::EmptyCommand)?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|err| UciError::Spawn {
            cmd: cmd.join(" "),
            err,
        })?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(UciError::Closed(program.clone()));
    };
    let (tx, rx) = channel();
    let spawned = std::thread::Builder::new()
        .name(reader.into())
        .spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_line(&mut reader) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    if let Err(err) = spawned {
        let _ = child.kill();
        let _ = child.wait();
        return Err(UciError::Spawn {
            cmd: cmd.join(" "),
            err,
        });
    }
    live()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(child.id());
    Ok((child, stdin, rx))
}

/// The longest line kept from an engine; the rest of a longer one is
/// skipped (an engine printing garbage must not fill the memory).
const MAX_LINE: usize = 64 * 1024;

/// The next line of an engine's output, without its line ending, bytes
/// that are not UTF-8 replaced (garbage is a line like any other, judged by
/// what reads it); `None` at the end of the output.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            if line.is_empty() {
                return None;
            }
            break;
        }
        let (taken, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let keep = taken - usize::from(end);
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&buf[..keep.min(room)]);
        reader.consume(taken);
        if end {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(String::from_utf8_lossy(&line).into_owned())
}

/// The engine processes started and not yet waited for, by process id.
/// While an id is listed its process is ours (a zombie at worst), so it
/// can be killed by id without hitting another process.
fn live() -> &'static std::sync::Mutex<Vec<u32>> {
    static LIVE: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());
    &LIVE
}

/// Ends every engine process still running, at the program's end: those
/// whose threads are still at work (a hung engine, a handshake not over)
/// would outlive it otherwise. Their threads get `grace` to end them the
/// usual way (`quit`), then the rest are killed.
pub fn end_all_engines(grace: Duration) {
    end_engines_where(grace, |_| true);
}

/// [`end_all_engines`] for the processes `pick` picks (a test ends only
/// its own).
fn end_engines_where(grace: Duration, pick: impl Fn(u32) -> bool) {
    let deadline = Instant::now() + grace;
    let left = || {
        let live = live().lock().unwrap_or_else(|p| p.into_inner());
        live.iter().any(|&p| pick(p))
    };
    while left() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let pids = live().lock().unwrap_or_else(|p| p.into_inner());
    for &pid in pids.iter().filter(|&&p| pick(p)) {
        kill_by_id(pid);
    }
}

#[cfg(target_os = "linux")]
fn kill_by_id(pid: u32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: kill(2) has no memory effects; the id is a child of ours
        // not yet waited for (see `live`).
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn kill_by_id(_pid: u32) {}

/// Gives an engine told to `quit` half a second to go, then kills it (both
/// protocols' clients end their process this way).
pub(crate) fn reap(child: &mut std::process::Child) {
    let deadline = Instant::now() + Duration::from_millis(500);
    while Instant::now() < deadline {
        if let Some(()) = waited(child, false) {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    waited(child, true);
}

/// Waits for `child` if it has ended (killed first when `kill`), and takes
/// it off the list of live engines in the same breath (see `live`).
/// `Some` once it is gone.
pub(crate) fn waited(child: &mut std::process::Child, kill: bool) -> Option<()> {
    let mut live = live().lock().unwrap_or_else(|p| p.into_inner());
    let gone = if kill {
        let _ = child.kill();
        child.wait().is_ok()
    } else {
        matches!(child.try_wait(), Ok(Some(_)) | Err(_))
    };
    if gone {
        live.retain(|&p| p != child.id());
    }
    gone.then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine process still at work at the end is killed; one that was
    /// waited for is off the list.
    #[cfg(target_os = "linux")]
    #[test]
    fn engines_left_at_the_end_are_killed() {
        use std::os::unix::process::ExitStatusExt;
        let cmd = ["sleep".to_string(), "30".to_string()];
        let (mut child, _stdin, _lines) = start_process(&cmd, "test-reader").unwrap();
        let pid = child.id();
        let listed = || live().lock().unwrap().contains(&pid);
        assert!(listed());
        let start = Instant::now();
        end_engines_where(Duration::from_millis(50), |p| p == pid);
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(listed(), "not waited for by the list");
        assert_eq!(waited(&mut child, false), Some(()));
        assert!(!listed());
    }

    #[test]
    fn long_and_broken_lines_are_read() {
        let mut text = b"uciok\r\n\xff\xfe garbage\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        text.extend(b"\nbestmove e2e4");
        let mut r = std::io::Cursor::new(text);
        assert_eq!(read_line(&mut r).as_deref(), Some("uciok"));
        assert_eq!(
            read_line(&mut r).as_deref(),
            Some("\u{fffd}\u{fffd} garbage")
        );
        assert_eq!(read_line(&mut r).map(|l| l.len()), Some(MAX_LINE));
        assert_eq!(read_line(&mut r).as_deref(), Some("bestmove e2e4"));
        assert_eq!(read_line(&mut r), None);
    }
}
