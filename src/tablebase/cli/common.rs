//! What the `tb` subcommands share: table names read, the table folder
//! opened, progress reported on standard error.

use crate::tablebase::{Event, MAX_PIECES, Material, Tablebases};
use crate::util::thousands;
use anyhow::{Result, bail};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

pub(crate) fn parse_names(names: &[String]) -> Result<Vec<Material>> {
    names
        .iter()
        .map(|n| {
            let m: Material = n.parse()?;
            if m.pieces() > MAX_PIECES {
                bail!("{m}: tables cover at most {MAX_PIECES} pieces");
            }
            if m.pieces() < 3 {
                bail!("{m}: bare kings need no table (always a draw)");
            }
            Ok(m.normalized().0)
        })
        .collect()
}

pub(crate) fn open(dir: Option<PathBuf>) -> Result<Tablebases> {
    Ok(Tablebases::open(dir)?)
}

/// Progress on standard error: a line per table, and a live ply counter
/// when standard error is a terminal.
pub(crate) fn reporter() -> impl FnMut(&Event) {
    let live = std::io::stderr().is_terminal();
    move |e: &Event| {
        let mut err = std::io::stderr().lock();
        match e {
            Event::Invalid { material, error } => {
                let _ = writeln!(err, "{material}: {error}; regenerating");
            }
            Event::Planned { tables } if tables.len() > 1 => {
                let entries: u64 = tables.iter().map(|t| t.1).sum();
                let _ = writeln!(
                    err,
                    "{} tables to generate ({} index entries): {}",
                    tables.len(),
                    thousands(entries),
                    crate::tablebase::expected_time(entries, None)
                );
            }
            Event::Generating {
                material,
                positions,
            } => {
                let _ = writeln!(
                    err,
                    "{material}: generating ({} index entries)",
                    thousands(*positions)
                );
            }
            Event::Level {
                material,
                ply,
                resolved,
            } if live => {
                let _ = write!(
                    err,
                    "\r\x1b[K  {material}: ply {ply}, {} positions decided",
                    thousands(*resolved)
                );
            }
            Event::Generated {
                material, seconds, ..
            } => {
                let clear = if live { "\r\x1b[K" } else { "" };
                let _ = writeln!(err, "{clear}{material}: made in {seconds:.1} s");
            }
            Event::Failed { error, skipped, .. } => {
                let clear = if live { "\r\x1b[K" } else { "" };
                let _ = write!(err, "{clear}{error}");
                if !skipped.is_empty() {
                    let names: Vec<String> = skipped.iter().map(|m| m.to_string()).collect();
                    let _ = write!(err, "; skipped, as they need it: {}", names.join(", "));
                }
                let _ = writeln!(err, "; going on with the rest");
            }
            _ => {}
        }
    }
}
