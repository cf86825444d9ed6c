//! Helpers shared by the integration tests (each test file includes this
//! module with `mod common;`, so not every helper is used by every file).
#![allow(dead_code)]

use kibitz::engine::Board;
use shakmaty::{Chess, Position};
use std::path::PathBuf;
use std::process::{Command, Output};

/// The shared reference data directory, or `None` (with the reason printed)
/// when it is absent. Tests that need it return early on `None`.
pub fn shared_data(what: &str) -> Option<PathBuf> {
    match kibitz::util::shared_data_dir() {
        Some(d) => Some(d),
        None => {
            eprintln!(
                "skipping {what}: shared reference data not found \
                 (set KIBITZ_DATA or provide ../shared/data)"
            );
            None
        }
    }
}

/// A file inside the shared data directory, or `None` (with the reason
/// printed) when the directory or the file is missing.
pub fn shared_file(rel: &str) -> Option<PathBuf> {
    let dir = shared_data(rel)?;
    let p = dir.join(rel);
    if p.is_file() {
        Some(p)
    } else {
        eprintln!("skipping: {} not found", p.display());
        None
    }
}

/// Runs `kibitz <args>` to completion.
pub fn kibitz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(args)
        .output()
        .expect("cannot run the kibitz binary")
}

pub fn stdout_of(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr_of(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Last non-empty line of a text.
pub fn last_line(s: &str) -> &str {
    s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("")
}

/// Parses a FEN with the engine's own parser; panics with the FEN on error.
pub fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

/// Is `uci` a legal move in `pos`?
pub fn is_legal_uci(pos: &Chess, uci: &str) -> bool {
    uci.parse::<shakmaty::uci::UciMove>()
        .ok()
        .and_then(|u| u.to_move(pos).ok())
        .is_some_and(|m| pos.is_legal(m))
}

/// A file in the temporary directory, removed when dropped. `name` should
/// say which test file made it (several test binaries run at once).
pub struct Temp(pub PathBuf);

impl Temp {
    pub fn new(name: &str, contents: &str) -> Temp {
        let p = std::env::temp_dir().join(format!("kibitz-{}-{name}", std::process::id()));
        std::fs::write(&p, contents).expect("write a temporary file");
        Temp(p)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
