//! What leaves the app besides the screen: game files saved atomically on
//! a thread of their own, and the clipboard (OSC 52).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};

/// Saves games: the file is written and renamed into place at once (a
/// fraction of a millisecond; from then on killing the process loses
/// nothing), and a thread of its own waits for the disk (`fsync`, which can
/// take long on a slow disk), so no frame is held up. Dropping it waits
/// until every file handed to it is on disk.
pub(super) struct Saver {
    tx: Option<Sender<PathBuf>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Saver {
    pub(super) fn spawn() -> std::io::Result<Saver> {
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

    pub(super) fn save(&self, path: &Path, contents: &str) -> std::io::Result<()> {
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

pub(super) fn save_file(path: &Path, contents: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::util::write_atomic(path, contents.as_bytes())
}

/// The OSC 52 escape sequence that puts `text` on the terminal's clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

pub(super) fn base64(data: &[u8]) -> String {
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
