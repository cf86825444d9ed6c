//! `kibitz db`: the opening explorer's collections on the command line:
//! add, list and remove PGN files, the moves from a position, a test
//! corpus, and the index's speed and size.

use super::opening::BadInput;
use anyhow::{Context, Result};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kibitz::db::collection::{self, Answer, Collection, Store};
use kibitz::db::corpus::{CorpusOptions, write_corpus};
use kibitz::engine::Board;
use shakmaty::{Chess, Position};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Subcommand, Debug)]
pub enum DbCmd {
    /// Add PGN files to the collections and index them.
    Add {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// The collections: "My games" and the files added, with their games
    /// and index sizes.
    List,
    /// Take a file out of the collections (the PGN file stays).
    Remove { file: PathBuf },
    /// The moves played from a position, with their games and results.
    Moves {
        /// A PGN file (indexed first if needed); without it, "My games"
        /// and the added files.
        #[arg(long)]
        db: Option<PathBuf>,
        /// Moves from the start (SAN or UCI, move numbers allowed).
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Start from this position instead of the initial one.
        #[arg(long)]
        fen: Option<String>,
        /// Only this player's games (any part of the White or Black tag,
        /// any case: "morphy").
        #[arg(long)]
        player: Option<String>,
        /// With --player: only the games they played as white or black.
        #[arg(long = "as", requires = "player")]
        color: Option<String>,
        /// `{"games", "moves": [{"san", "uci", "games", "white", "draws",
        /// "black", "rating", "opening"}]}`.
        #[arg(long)]
        json: bool,
    },
    /// Write a made-up PGN collection (the same seed gives the same
    /// games): the corpus the index is measured and checked on.
    Corpus {
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2000)]
        players: usize,
        /// Where to write (standard output when not given).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Index a PGN file from scratch (in a temporary folder) and time it,
    /// then time lookups of positions from its games: the speed and size
    /// the README reports.
    Bench {
        file: PathBuf,
        /// Positions looked up.
        #[arg(long, default_value_t = 2000)]
        lookups: usize,
        #[arg(long)]
        threads: Option<usize>,
    },
}

pub fn run(cmd: DbCmd) -> Result<()> {
    match cmd {
        DbCmd::Add { files } => {
            let store = Store::user()?;
            for f in files {
                let c = store.add(&f, &mut progress_bar(&f))?;
                println!("added {}", summary(&c));
                report_bad(&c);
            }
            Ok(())
        }
        DbCmd::List => {
            let store = Store::user()?;
            let c = store.my_games(&mut progress_bar(Path::new(collection::MY_GAMES)))?;
            println!("{}", summary(&c));
            for f in store.added() {
                match store.file(&f, &mut progress_bar(&f)) {
                    Ok(c) => println!("{}", summary(&c)),
                    Err(e) => println!("{}: {e}", f.display()),
                }
            }
            Ok(())
        }
        DbCmd::Remove { file } => {
            let gone = Store::user()?.remove(&file)?;
            println!(
                "removed {} (its index deleted; the file stays)",
                gone.display()
            );
            Ok(())
        }
        DbCmd::Moves {
            db,
            moves,
            fen,
            player: Some(name),
            color,
            json,
        } => {
            let pos = position(fen.as_deref(), &moves)?;
            let color = match color.as_deref().map(str::to_ascii_lowercase).as_deref() {
                None => None,
                Some("white" | "w") => Some(shakmaty::Color::White),
                Some("black" | "b") => Some(shakmaty::Color::Black),
                Some(other) => {
                    return Err(
                        BadInput(format!("--as must be white or black, not '{other}'")).into(),
                    );
                }
            };
            let store = Store::user()?;
            let files = db.map(|d| vec![d]);
            let mut tree = store.player(
                files.as_deref(),
                kibitz::db::build::PlayerFilter { name, color },
                &mut progress_bar(Path::new("a player's games")),
            )?;
            let answer = tree.moves(&pos)?;
            if json {
                println!("{}", answer_json(&answer, &pos));
            } else {
                println!("{} games of the player", tree.games);
                print_answer(&answer, &pos);
            }
            Ok(())
        }
        DbCmd::Moves {
            db,
            moves,
            fen,
            player: None,
            json,
            ..
        } => {
            let pos = position(fen.as_deref(), &moves)?;
            let store = Store::user()?;
            let mut collections = match &db {
                Some(f) => {
                    let c = store.file(f, &mut progress_bar(f))?;
                    report_bad(&c);
                    vec![c]
                }
                None => {
                    let (open, errors) =
                        store.everything(&mut progress_bar(Path::new("collections")));
                    for e in errors {
                        eprintln!("warning: {e}");
                    }
                    open
                }
            };
            let answer = collection::moves_in(&mut collections, &pos)?;
            if json {
                println!("{}", answer_json(&answer, &pos));
            } else {
                print_answer(&answer, &pos);
            }
            Ok(())
        }
        DbCmd::Corpus {
            games,
            seed,
            players,
            out,
        } => {
            let opts = CorpusOptions {
                games,
                seed,
                players,
            };
            match out {
                Some(path) => {
                    let tmp = path.with_extension("pgn.part");
                    let file = std::fs::File::create(&tmp)
                        .with_context(|| format!("cannot write {}", tmp.display()))?;
                    let mut w = std::io::BufWriter::new(file);
                    write_corpus(&mut w, &opts)?;
                    use std::io::Write;
                    w.flush()?;
                    drop(w);
                    std::fs::rename(&tmp, &path)?;
                }
                None => {
                    let stdout = std::io::stdout();
                    let mut w = std::io::BufWriter::new(stdout.lock());
                    write_corpus(&mut w, &opts)?;
                }
            }
            Ok(())
        }
        DbCmd::Bench {
            file,
            lookups,
            threads,
        } => bench(&file, lookups, threads),
    }
}

/// The position after `moves` from `fen` (or the initial position).
fn position(fen: Option<&str>, moves: &[String]) -> Result<Chess, BadInput> {
    let pos: Chess = match fen {
        // A Chess960 position's castling rights only parse as such.
        Some(f) => Board::from_fen(f.trim())
            .or_else(|e| Board::from_fen_960(f.trim()).map_err(|_| e))
            .map_err(|e| BadInput(format!("bad FEN '{f}': {e}")))?
            .into_chess(),
        None => Chess::default(),
    };
    let tokens: Vec<&str> = moves
        .iter()
        .flat_map(|m| m.split_ascii_whitespace())
        .collect();
    Ok(super::opening::play_tokens(&pos, &tokens)?.0)
}

fn summary(c: &Collection) -> String {
    let mut s = format!(
        "{}: {} games indexed ({} positions, index {})",
        c.name,
        c.indexed(),
        c.positions(),
        human_bytes(c.index_bytes())
    );
    if c.bad_count() > 0 {
        s.push_str(&format!(", {} could not be read", c.bad_count()));
    }
    if c.other_variants() > 0 {
        s.push_str(&format!(
            ", {} of other variants left out",
            c.other_variants()
        ));
    }
    if c.source.is_file() {
        s.push_str(&format!(" [{}]", c.source.display()));
    }
    s
}

fn report_bad(c: &Collection) {
    for b in c.bad().iter().take(20) {
        eprintln!(
            "{}: game {} (line {}): {}",
            c.source.display(),
            b.number,
            b.line,
            b.reason
        );
    }
    if c.bad_count() > 20 {
        eprintln!("... and {} more bad games", c.bad_count() - 20);
    }
}

fn human_bytes(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{:.1} MB", b as f64 / (1 << 20) as f64)
    } else if b >= 1 << 10 {
        format!("{:.1} kB", b as f64 / 1024.0)
    } else {
        format!("{b} B")
    }
}

fn opening_after(pos: &Chess, m: &shakmaty::Move) -> Option<String> {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    kibitz::game::openings::name_position(&after).map(|o| o.to_string())
}

/// The JSON `db moves --json` prints, in the order the README gives.
#[derive(serde::Serialize)]
struct JsonAnswer {
    games: u64,
    white: u64,
    draws: u64,
    black: u64,
    moves: Vec<JsonMove>,
}

#[derive(serde::Serialize)]
struct JsonMove {
    san: String,
    uci: String,
    games: u64,
    white: u64,
    draws: u64,
    black: u64,
    /// The average rating of the games with Elo tags.
    rating: Option<u32>,
    /// The opening the move leads to.
    opening: Option<String>,
}

fn answer_json(a: &Answer, pos: &Chess) -> String {
    let json = JsonAnswer {
        games: a.total.games(),
        white: a.total.white,
        draws: a.total.draws,
        black: a.total.black,
        moves: a
            .moves
            .iter()
            .map(|m| JsonMove {
                san: m.san.clone(),
                uci: m.uci.clone(),
                games: m.stats.games(),
                white: m.stats.white,
                draws: m.stats.draws,
                black: m.stats.black,
                rating: m.stats.average_rating(),
                opening: opening_after(pos, &m.mv),
            })
            .collect(),
    };
    serde_json::to_string(&json).unwrap_or_default()
}

fn print_answer(a: &Answer, pos: &Chess) {
    if a.moves.is_empty() {
        println!("no games from this position");
        return;
    }
    println!(
        "{} games: White {} / draws {} / Black {}",
        a.total.games(),
        a.total.white,
        a.total.draws,
        a.total.black
    );
    for m in &a.moves {
        let s = &m.stats;
        let decided = (s.white + s.draws + s.black).max(1) as f64;
        println!(
            "{:8} {:>7} {:>5.1}% {:>5.1}% {:>5.1}%  {:>5}  {}",
            m.san,
            s.games(),
            s.white as f64 * 100.0 / decided,
            s.draws as f64 * 100.0 / decided,
            s.black as f64 * 100.0 / decided,
            s.average_rating().map_or("-".into(), |r| r.to_string()),
            opening_after(pos, &m.mv).unwrap_or_default()
        );
    }
}

fn progress_bar(what: &Path) -> impl FnMut(u64, u64) {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} {bar:30} {bytes}/{total_bytes} [{elapsed_precise}, about {eta} left]",
    ) {
        bar.set_style(style);
    }
    bar.set_message(format!("indexing {}", what.display()));
    let mut shown = false;
    move |done, total| {
        if !shown {
            shown = true;
            bar.reset_elapsed();
        }
        bar.set_length(total.max(done));
        bar.set_position(done);
        if done >= total {
            bar.finish_and_clear();
        }
    }
}

fn bench(file: &Path, lookups: usize, threads: Option<usize>) -> Result<()> {
    let dir = std::env::temp_dir().join(format!("kibitz-db-bench-{}", std::process::id()));
    let mut store = Store::new(&dir);
    if let Some(t) = threads {
        store.options.threads = t;
    }
    let size = std::fs::metadata(file)
        .with_context(|| format!("cannot read {}", file.display()))?
        .len();
    let began = Instant::now();
    let c = store.file(file, &mut |_, _| {})?;
    let took = began.elapsed();
    println!(
        "indexed {} games ({} bad) of {} in {:.2} s with {} threads: {:.1} MB/s, {:.0} games/s",
        c.indexed(),
        c.bad_count(),
        human_bytes(size),
        took.as_secs_f64(),
        store.options.threads,
        size as f64 / took.as_secs_f64() / 1e6,
        c.games() as f64 / took.as_secs_f64()
    );
    println!(
        "index {} = {:.1}% of the PGN ({} positions, {} plies a game)",
        human_bytes(c.index_bytes()),
        c.index_bytes() as f64 * 100.0 / size.max(1) as f64,
        c.positions(),
        c.max_plies()
    );
    // Positions to look up: along the games of the file, from its start.
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let games = kibitz::game::pgn_read::read_games(&text[..text.len().min(4 << 20)]);
    let mut positions = Vec::new();
    for g in games.into_iter().flatten() {
        let mut pos = g.start().chess().clone();
        for (i, m) in g.moves().iter().enumerate() {
            if i % 7 == 0 {
                positions.push(pos.clone());
            }
            pos.play_unchecked(*m);
        }
        if positions.len() >= lookups {
            break;
        }
    }
    drop(c);
    // A cold open (the index read from disk by a new process costs the
    // same: its block index, then one block).
    let began = Instant::now();
    let mut c = store.file(file, &mut |_, _| {})?;
    let first = c.moves(&Chess::default())?;
    let cold = began.elapsed();
    let mut worst = std::time::Duration::ZERO;
    let began = Instant::now();
    for p in &positions {
        let t = Instant::now();
        c.moves(p)?;
        worst = worst.max(t.elapsed());
    }
    let all = began.elapsed();
    println!(
        "open + first lookup {:.2} ms ({} moves); {} lookups: {:.3} ms each, slowest {:.2} ms",
        cold.as_secs_f64() * 1e3,
        first.moves.len(),
        positions.len(),
        all.as_secs_f64() * 1e3 / positions.len().max(1) as f64,
        worst.as_secs_f64() * 1e3
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
