//! Which Kibitz owns which saved game. Two copies of Kibitz may run on one
//! data folder (two terminals); neither may overwrite the other's game.
//!
//! - A new game's file name is *reserved* when the game starts: the file
//!   is created empty with `O_EXCL` (`create_new`), so a second Kibitz
//!   started in the same second gets the next name (`...-2.pgn`). Saves
//!   then replace the file atomically (temp file + rename) as before.
//! - A game being played is *claimed*: an advisory lock (`flock`) on a
//!   hidden `.NAME.lock` beside it, held until Kibitz exits. The operating
//!   system drops the lock when the process dies, even by `kill -9`, so a
//!   stale lock never hides a game. The resume offer skips claimed games:
//!   two copies of Kibitz are never offered the same unfinished game.
//! - An empty file is a reservation whose game had no move yet. Readers
//!   skip it; it is removed when its game is left without a move, and a
//!   reservation left by a killed Kibitz (unclaimed) is removed on start.
//!
//! Locks are per open file, not per process, so this process keeps its
//! claims in one table and never locks the same game twice.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The games this process has claimed, by path, with their lock files.
static CLAIMS: Mutex<Option<HashMap<PathBuf, Lock>>> = Mutex::new(None);

/// A held lock: the open lock file (closing it unlocks).
struct Lock {
    file: File,
    path: PathBuf,
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still locked: a copy of Kibitz that opened it
        // before sees the name gone (or another file) after locking, and
        // tries again.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// The hidden lock file of a game file.
fn lock_path(game: &Path) -> PathBuf {
    let name = game
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    game.with_file_name(format!(".{name}.lock"))
}

/// Whether two open files are the same file on disk.
#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    true
}

/// Locks `game`'s lock file. `Ok(None)`: another process holds it.
fn lock(game: &Path) -> std::io::Result<Option<Lock>> {
    let path = lock_path(game);
    for _ in 0..8 {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        // The holder before us may have removed the name meanwhile: the
        // lock counts only if the name still leads to this file.
        match std::fs::metadata(&path) {
            Ok(m) if same_file(&m, &file.metadata()?) => {
                return Ok(Some(Lock { file, path }));
            }
            _ => continue,
        }
    }
    Ok(None)
}

/// Claims `game` for this process. True when this process owns it now
/// (or did already); false when another Kibitz has it. A folder where no
/// lock file can be made (read-only) gives true: nothing can be written
/// there anyway, so there is nothing to protect.
pub fn claim(game: &Path) -> bool {
    let Ok(mut claims) = CLAIMS.lock() else {
        return true;
    };
    let claims = claims.get_or_insert_with(HashMap::new);
    if claims.contains_key(game) {
        return true;
    }
    match lock(game) {
        Ok(Some(l)) => {
            claims.insert(game.to_path_buf(), l);
            true
        }
        Ok(None) => false,
        Err(_) => true,
    }
}

/// Gives up this process's claim on `game` (another Kibitz may now be
/// offered it).
pub fn release(game: &Path) {
    if let Ok(mut claims) = CLAIMS.lock()
        && let Some(c) = claims.as_mut()
    {
        c.remove(game);
    }
}

/// Whether another Kibitz has claimed `game` (this process's own claims
/// do not count).
pub fn claimed_elsewhere(game: &Path) -> bool {
    if let Ok(claims) = CLAIMS.lock()
        && claims.as_ref().is_some_and(|c| c.contains_key(game))
    {
        return false;
    }
    if !lock_path(game).exists() {
        return false;
    }
    matches!(lock(game), Ok(None))
}

/// Reserves a new game file `dir/PREFIX<stamp>[-n].EXT` and claims it:
/// the name is created (empty) only if no file has it, so no other Kibitz
/// can take it. `also` names sibling extensions that must be free too
/// (a trainer game's `.history`). When the folder cannot be written the
/// name is still returned: the first save then says why it failed.
pub fn reserve(dir: &Path, prefix: &str, ext: &str, also: &[&str]) -> PathBuf {
    let _ = std::fs::create_dir_all(dir);
    let stamp = crate::util::timestamp();
    let mut n = 1;
    loop {
        let name = match n {
            1 => format!("{prefix}{stamp}.{ext}"),
            _ => format!("{prefix}{stamp}-{n}.{ext}"),
        };
        let path = dir.join(name);
        n += 1;
        if also.iter().any(|x| path.with_extension(x).exists()) {
            continue;
        }
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(_) => {
                claim(&path);
                return path;
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            // Read-only, full, not a folder: keep the name; the save says.
            Err(_) if !path.exists() => return path,
            Err(_) => continue,
        }
    }
}

/// Whether `path` is a reservation without a game yet (an empty file).
pub fn is_empty_reservation(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0)
}

/// Removes `game` if it is still an empty reservation, and gives up the
/// claim: its game was left without a move.
pub fn discard_if_empty(game: &Path) {
    if is_empty_reservation(game) {
        let _ = std::fs::remove_file(game);
    }
    release(game);
}

/// On exit: removes this process's empty reservations and gives up every
/// claim.
pub fn release_all() {
    let games: Vec<PathBuf> = match CLAIMS.lock() {
        Ok(c) => c
            .as_ref()
            .map(|c| c.keys().cloned().collect())
            .unwrap_or_default(),
        Err(_) => return,
    };
    for g in games {
        discard_if_empty(&g);
    }
}

/// On start: removes empty reservations no running Kibitz claims (their
/// Kibitz was killed before the first move), and lock files left behind.
pub fn sweep(dir: &Path) {
    crate::util::remove_stale_temp_files(dir);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let ours: Vec<PathBuf> = CLAIMS
        .lock()
        .ok()
        .and_then(|c| c.as_ref().map(|c| c.keys().cloned().collect()))
        .unwrap_or_default();
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || ours.contains(&p) {
            continue;
        }
        if is_empty_reservation(&p) && !claimed_elsewhere(&p) {
            // Claimed for a moment so that no other Kibitz takes it while
            // it goes.
            if let Ok(Some(l)) = lock(&p) {
                if is_empty_reservation(&p) {
                    let _ = std::fs::remove_file(&p);
                }
                drop(l);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("kibitz-gamefile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn two_reservations_in_one_second_get_two_names() {
        let d = temp("names");
        let a = reserve(&d, "", "pgn", &[]);
        let b = reserve(&d, "", "pgn", &[]);
        let c = reserve(&d, "trainer-", "pgn", &["history"]);
        assert_ne!(a, b);
        assert!(a.exists() && b.exists() && c.exists());
        assert!(is_empty_reservation(&a));
        // A name whose sibling exists is not given.
        std::fs::write(d.join("x.history"), "").unwrap();
        discard_if_empty(&a);
        discard_if_empty(&b);
        discard_if_empty(&c);
        assert!(!a.exists() && !b.exists() && !c.exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_game_claimed_by_another_process_is_seen_as_such() {
        let d = temp("claims");
        let g = d.join("2026-01-01_120000.pgn");
        std::fs::write(&g, "1. e4 *").unwrap();
        // Another open file description stands for another process (flock
        // locks belong to the open file, not to the process).
        let other = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(lock_path(&g))
            .unwrap();
        other.try_lock().unwrap();
        assert!(claimed_elsewhere(&g));
        assert!(!claim(&g), "the other Kibitz has it");
        // Once it exits (its lock closes), the game can be claimed.
        drop(other);
        assert!(!claimed_elsewhere(&g));
        assert!(claim(&g));
        assert!(
            !claimed_elsewhere(&g),
            "our own claim does not hide it from us"
        );
        assert!(claim(&g), "claiming twice is fine");
        release(&g);
        assert!(!lock_path(&g).exists(), "the lock file goes with the claim");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn the_sweep_removes_only_unclaimed_empty_reservations() {
        let d = temp("sweep");
        let ours = reserve(&d, "", "pgn", &[]);
        let orphan = d.join("2020-01-01_000000.pgn");
        std::fs::write(&orphan, "").unwrap();
        let game = d.join("2020-01-01_000001.pgn");
        std::fs::write(&game, "1. e4 *").unwrap();
        let other = d.join("2020-01-01_000002.pgn");
        std::fs::write(&other, "").unwrap();
        let held = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(lock_path(&other))
            .unwrap();
        held.try_lock().unwrap();
        sweep(&d);
        assert!(!orphan.exists(), "a killed Kibitz's reservation goes");
        assert!(game.exists(), "a game stays");
        assert!(other.exists(), "another Kibitz's reservation stays");
        assert!(ours.exists(), "our own reservation stays");
        drop(held);
        discard_if_empty(&ours);
        let _ = std::fs::remove_dir_all(&d);
    }
}
