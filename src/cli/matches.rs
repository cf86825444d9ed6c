//! `kibitz match`: two UCI engines play a match.

use anyhow::{Context, Result, bail};
use clap::ArgMatches;
use kibitz::matchplay::stats::{Sprt, SprtVerdict, Wdl};
use kibitz::matchplay::{self, MatchConfig, MoveLimits, Played, PlayerConfig, TimeControl};
use kibitz::uci::client::split_command;
use kibitz::uci::xboard::EngineCommand;
use kibitz::variant::VariantKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Which engine(s) an option given at argument position `idx` applies to.
fn scope(idx: usize, engine_idx: &[usize]) -> [bool; 2] {
    match engine_idx {
        [_, b, ..] if idx > *b => [false, true],
        [a, ..] if idx > *a => [true, false],
        _ => [true, true],
    }
}

fn per_engine<T: Clone + Send + Sync + 'static>(
    m: &ArgMatches,
    id: &str,
    engine_idx: &[usize],
) -> [Vec<T>; 2] {
    let mut out: [Vec<T>; 2] = [Vec::new(), Vec::new()];
    let (Some(vals), Some(idx)) = (m.get_many::<T>(id), m.indices_of(id)) else {
        return out;
    };
    for (v, i) in vals.zip(idx) {
        let s = scope(i, engine_idx);
        for p in 0..2 {
            if s[p] {
                out[p].push(v.clone());
            }
        }
    }
    out
}

/// Plays the match the `match` arguments describe and prints W/D/L and an Elo estimate.
pub fn run(m: &ArgMatches) -> Result<()> {
    let mut cfg = config(m)?;
    if m.get_flag("resume") {
        resume(&mut cfg)?;
    }
    let sprt = match m.get_one::<String>("sprt") {
        Some(t) => Some(Sprt::parse(t).map_err(|e| anyhow::anyhow!("--sprt {e}"))?),
        None => None,
    };
    print_start(&cfg, sprt.as_ref());
    let mut verdict = SprtVerdict::Continue;
    let start = Instant::now();
    let total = cfg.games;
    let wdl = matchplay::run_match(&cfg, |rec, wdl| {
        let (white, black) = (&rec.players[0], &rec.players[1]);
        let what = format!(
            ": {white} - {black} {} ({}, {} moves)",
            rec.ending.result.pgn(),
            rec.ending.termination.describe(),
            rec.plies.div_ceil(2),
        );
        println!("{}", game_line(rec.index, total, &what, wdl));
        match &sprt {
            Some(t) => {
                if verdict == SprtVerdict::Continue {
                    verdict = t.verdict(wdl);
                }
                println!("  LLR {:.2}", t.llr(wdl));
                verdict == SprtVerdict::Continue
            }
            None => true,
        }
    })?;
    print_totals("Engine 1", &wdl, cfg.played.wdl.games(), start);
    println!("LOS: {:.1}%", 100.0 * wdl.los());
    if let Some(t) = &sprt {
        let (lo, hi) = t.bounds();
        let llr = t.llr(&wdl);
        // The verdict stands once a bound is crossed: the games still being
        // played then are counted in the totals, and can move the LLR back
        // inside the bounds.
        let v = match verdict {
            SprtVerdict::Continue => t.verdict(&wdl),
            reached => reached,
        };
        let said = match v {
            SprtVerdict::H1 => format!("H1 accepted: at least {:+} Elo", t.elo1),
            SprtVerdict::H0 => format!("H0 accepted: not {:+} Elo (at most {:+})", t.elo1, t.elo0),
            SprtVerdict::Continue => "no verdict within --games".to_string(),
        };
        println!("SPRT: LLR {llr:.2} [{lo:.2}, {hi:.2}]: {said}");
    }
    Ok(())
}

/// The match the arguments describe (but the SPRT).
fn config(m: &ArgMatches) -> Result<MatchConfig> {
    let [p0, p1] = players(m)?;
    let games = *m.get_one::<usize>("games").unwrap_or(&10);
    if games == 0 {
        bail!("--games must be at least 1");
    }
    let variant = super::search::parse_variant(
        m.get_one::<String>("variant")
            .map(|s| s.as_str())
            .unwrap_or("chess"),
    )?;
    if variant == VariantKind::Bughouse {
        bail!("bughouse needs four players: use `kibitz bughouse`");
    }
    let openings = match m.get_one::<PathBuf>("openings") {
        Some(path) => openings(path, variant)?,
        None => Vec::new(),
    };
    Ok(MatchConfig {
        players: [p0, p1],
        games,
        openings,
        pgn_out: m.get_one::<PathBuf>("pgn").cloned(),
        concurrency: *m.get_one::<usize>("concurrency").unwrap_or(&1),
        event: "Kibitz match".into(),
        variant,
        played: Played::default(),
    })
}

/// `--resume`: the games of this match already in its file.
fn resume(cfg: &mut MatchConfig) -> Result<()> {
    let Some(path) = cfg.pgn_out.clone() else {
        bail!("--resume needs --pgn, the file of the match to continue");
    };
    let text = match std::fs::read(&path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let names = matchplay::player_names(cfg)?;
    let played = Played::from_pgn(&text, &cfg.event, [&names[0], &names[1]], cfg.games)
        .map_err(|e| anyhow::anyhow!("cannot resume from {}: {e}", path.display()))?;
    let w = &played.wdl;
    println!(
        "Resuming: {} games of {} - {} already in {} (score {:.1}, W{} D{} L{}), {} to play",
        w.games(),
        names[0],
        names[1],
        path.display(),
        w.points(),
        w.wins,
        w.draws,
        w.losses,
        cfg.games - played.rounds.len()
    );
    cfg.played = played;
    Ok(())
}

/// The two engines: `--engine` commands and the options that apply to
/// each.
fn players(m: &ArgMatches) -> Result<[PlayerConfig; 2]> {
    let engines: Vec<String> = m
        .get_many::<String>("engine")
        .map(|v| v.cloned().collect())
        .unwrap_or_default();
    if engines.len() != 2 {
        bail!("give exactly two --engine commands (got {})", engines.len());
    }
    let engine_idx: Vec<usize> = m
        .indices_of("engine")
        .map(|i| i.collect())
        .unwrap_or_default();
    let tcs = per_engine::<String>(m, "tc", &engine_idx);
    let movetimes = per_engine::<u64>(m, "movetime", &engine_idx);
    let depths = per_engine::<u32>(m, "depth", &engine_idx);
    let nodes = per_engine::<u64>(m, "nodes", &engine_idx);
    let options = per_engine::<String>(m, "option", &engine_idx);
    let names = per_engine::<String>(m, "name", &engine_idx);

    let exe = std::env::current_exe().context("cannot find the kibitz executable")?;
    let mut players = Vec::new();
    for p in 0..2 {
        let cmd = match engines[p].trim() {
            "kibitz" | "self" => vec![exe.display().to_string(), "uci".to_string()],
            other => split_command(other),
        };
        if cmd.is_empty() {
            bail!("engine {} has an empty command", p + 1);
        }
        EngineCommand::from_words(cmd.clone())
            .map_err(|e| anyhow::anyhow!("engine {}: {e}", p + 1))?;
        let mut opts = Vec::new();
        for o in &options[p] {
            let (k, v) = o
                .split_once('=')
                .with_context(|| format!("--option '{o}' is not NAME=VALUE"))?;
            opts.push((k.trim().to_string(), v.trim().to_string()));
        }
        let tc = match tcs[p].last() {
            Some(s) => Some(TimeControl::parse(s).map_err(|e| anyhow::anyhow!(e))?),
            None => None,
        };
        let limits = MoveLimits {
            tc,
            movetime: movetimes[p].last().map(|&ms| Duration::from_millis(ms)),
            depth: depths[p].last().copied(),
            nodes: nodes[p].last().copied(),
        };
        if limits.tc.is_some() && limits.movetime.is_some() {
            bail!("engine {}: give either --tc or --movetime, not both", p + 1);
        }
        players.push(PlayerConfig {
            cmd,
            name: names[p].last().cloned(),
            options: opts,
            limits: if limits.is_empty() {
                MoveLimits {
                    tc: Some(TimeControl {
                        base: Duration::from_secs(10),
                        inc: Duration::from_millis(100),
                    }),
                    ..MoveLimits::default()
                }
            } else {
                limits
            },
        });
    }
    match players.try_into() {
        Ok(a) => Ok(a),
        Err(_) => bail!("two engines expected"),
    }
}

/// The start positions in the `--openings` file, as positions of
/// `variant`; bad lines are reported (the first five) and skipped.
fn openings(path: &Path, variant: VariantKind) -> Result<Vec<String>> {
    let (fens, problems) = matchplay::load_openings(path)?;
    let fens = if variant == VariantKind::Crazyhouse {
        fens.iter()
            .filter_map(|f| matchplay::crazyhouse_opening(f).ok())
            .collect()
    } else {
        fens
    };
    for p in problems.iter().take(5) {
        eprintln!("warning: {}: {p}", path.display());
    }
    if problems.len() > 5 {
        eprintln!("warning: {} more bad lines skipped", problems.len() - 5);
    }
    Ok(fens)
}

/// What is about to be played.
fn print_start(cfg: &MatchConfig, sprt: Option<&Sprt>) {
    println!(
        "Match: {} games; engine 1: {} ({}); engine 2: {} ({})",
        cfg.games,
        cfg.players[0].cmd.join(" "),
        cfg.players[0].limits.describe(),
        cfg.players[1].cmd.join(" "),
        cfg.players[1].limits.describe()
    );
    if let Some(t) = sprt {
        let (lo, hi) = t.bounds();
        println!(
            "SPRT: H0 Elo {} vs H1 Elo {}, alpha {} beta {}: LLR bounds [{lo:.2}, {hi:.2}], at most {} games",
            t.elo0, t.elo1, t.alpha, t.beta, cfg.games
        );
    }
}

/// The line for a finished game (also of `kibitz bughouse`):
/// `Game   3/10<what>   score 2.5/3 W2 D1 L0`, the score the first
/// player's.
pub fn game_line(index: usize, total: usize, what: &str, wdl: &Wdl) -> String {
    format!(
        "Game {:>3}/{total}{what}   score {:.1}/{} W{} D{} L{}",
        index + 1,
        wdl.points(),
        wdl.games(),
        wdl.wins,
        wdl.draws,
        wdl.losses
    )
}

/// The totals at the end of a match (also of `kibitz bughouse`): games and
/// time (`earlier` of the games were played before this run), `who`'s
/// W/D/L, score and Elo difference.
pub fn print_totals(who: &str, wdl: &Wdl, earlier: u32, start: Instant) {
    println!("--------------------------------------------------");
    let earlier = if earlier > 0 {
        format!(" ({earlier} of them in an earlier run)")
    } else {
        String::new()
    };
    println!(
        "Finished {} games{earlier} in {:.0} s",
        wdl.games(),
        start.elapsed().as_secs_f64()
    );
    println!("{who} W/D/L: {}/{}/{}", wdl.wins, wdl.draws, wdl.losses);
    println!(
        "Score: {:.1}/{} ({:.1}%)",
        wdl.points(),
        wdl.games(),
        100.0 * wdl.score()
    );
    println!("Elo difference: {}", wdl.elo_text());
}
