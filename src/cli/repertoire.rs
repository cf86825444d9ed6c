//! `kibitz repertoire`: your prepared moves for White and for Black, kept
//! as PGN in the data folder; import, export, and games checked against a
//! repertoire.

use super::opening::BadInput;
use anyhow::{Context, Result};
use clap::Subcommand;
use kibitz::db::repertoire::{self, By, Repertoire};
use kibitz::game::pgn_read::read_games;
use shakmaty::Color;
use std::path::{Path, PathBuf};

#[derive(Subcommand, Debug)]
pub enum RepertoireCmd {
    /// Where each game leaves a repertoire, and who left it. Prints one
    /// line a game that leaves it (`--json`: one JSON object a line,
    /// `{"game", "ply", "played", "expected", "by"}`).
    Deviations {
        repertoire: PathBuf,
        games: PathBuf,
        /// The side the repertoire is for: white or black.
        #[arg(long)]
        side: String,
        #[arg(long)]
        json: bool,
    },
    /// Add the lines of a PGN file (variations too) to your repertoire.
    Import {
        file: PathBuf,
        #[arg(long)]
        side: String,
    },
    /// Print your repertoire as PGN (or write it to a file).
    Export {
        #[arg(long)]
        side: String,
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

fn side(s: &str) -> Result<Color, BadInput> {
    match s.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(BadInput(format!(
            "--side must be white or black, not '{s}'"
        ))),
    }
}

fn read(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(kibitz::util::decode_text(&bytes))
}

fn data_dir() -> Result<PathBuf> {
    kibitz::paths::data_dir().context("no data folder (no home folder?)")
}

#[derive(serde::Serialize)]
struct JsonDeviation<'a> {
    game: usize,
    ply: usize,
    played: &'a str,
    expected: &'a [String],
    by: By,
}

pub fn run(cmd: RepertoireCmd) -> Result<()> {
    match cmd {
        RepertoireCmd::Deviations {
            repertoire,
            games,
            side: s,
            json,
        } => {
            let side = side(&s)?;
            let r = Repertoire::from_pgn(&read(&repertoire)?, side)
                .map_err(|e| BadInput(format!("{}: {e}", repertoire.display())))?;
            let text = read(&games)?;
            for (i, g) in read_games(&text).into_iter().enumerate() {
                let g = match g {
                    Ok(g) => g,
                    Err(e) => {
                        eprintln!("{}: game {} skipped: {e}", games.display(), i + 1);
                        continue;
                    }
                };
                let Some(d) = r.deviation(g.start().chess(), g.moves()) else {
                    continue;
                };
                if json {
                    let line = JsonDeviation {
                        game: i + 1,
                        ply: d.ply,
                        played: &d.played,
                        expected: &d.expected,
                        by: d.by,
                    };
                    println!("{}", serde_json::to_string(&line)?);
                } else {
                    println!("game {} ({}): {}", i + 1, players(&g), d.words());
                }
            }
            Ok(())
        }
        RepertoireCmd::Import { file, side: s } => {
            let side = side(&s)?;
            let data = data_dir()?;
            let mut r = repertoire::load(&data, side)?;
            let added = r
                .merge_pgn(&read(&file)?)
                .map_err(|e| BadInput(format!("{}: {e}", file.display())))?;
            repertoire::save(&data, &r).context("cannot save the repertoire")?;
            println!(
                "{added} moves added; your repertoire for {} is in {}",
                s.to_ascii_lowercase(),
                repertoire::path(&data, side).display()
            );
            Ok(())
        }
        RepertoireCmd::Export { side: s, out } => {
            let side = side(&s)?;
            let r = repertoire::load(&data_dir()?, side)?;
            let pgn = r.to_pgn();
            match out {
                Some(p) => kibitz::util::write_atomic(&p, pgn.as_bytes())
                    .with_context(|| format!("cannot write {}", p.display()))?,
                None => print!("{pgn}"),
            }
            Ok(())
        }
    }
}

fn players(g: &kibitz::game::Game) -> String {
    format!(
        "{} - {}",
        g.header("White").unwrap_or("?"),
        g.header("Black").unwrap_or("?")
    )
}
