//! `kibitz fuzz TARGET`: runs the fuzz harness ([`kibitz::fuzz`]) and
//! prints what it did.

use super::opening::BadInput;
use kibitz::fuzz::{self, Options, Target};
use std::path::PathBuf;

/// The command line's settings.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A target, `all`, or `list`.
    pub target: Option<String>,
    /// Name the targets.
    #[arg(long)]
    pub list: bool,
    /// Run this long (per target).
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Run this many inputs (per target; default 10000 without --seconds).
    #[arg(long)]
    pub iterations: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Save crash inputs here (default: the target's corpus folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The corpus folder, holding a folder per target (default: this
    /// source tree's tests/fuzz).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Run the target once on this file, a panic shown as usual (set
    /// RUST_BACKTRACE=1 to see where).
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// An input running longer than this many seconds is a hang.
    #[arg(long, default_value_t = 2.0)]
    pub hang_after: f64,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let all = fuzz::targets();
    let name = match a.target.as_deref() {
        None | Some("list") => {
            for t in &all {
                println!("{:14} {}", t.name, t.about);
            }
            println!("{:14} each of them in turn", "all");
            return Ok(());
        }
        Some(_) if a.list => return run(Args { target: None, ..a }),
        Some(n) => n,
    };
    let chosen: Vec<Target> = if name == "all" {
        all
    } else {
        match fuzz::find(name) {
            Some(t) => vec![t],
            None => {
                let names: Vec<&str> = all.iter().map(|t| t.name).collect();
                let hint = kibitz::util::nearest(name, names.iter().copied())
                    .map(|n| format!(" (did you mean {n}?)"))
                    .unwrap_or_default();
                return Err(BadInput(format!(
                    "no fuzz target '{name}'{hint}; `kibitz fuzz list` names them"
                ))
                .into());
            }
        }
    };
    if let Some(file) = &a.replay {
        let data = std::fs::read(file)
            .map_err(|e| BadInput(format!("cannot read {}: {e}", file.display())))?;
        for t in &chosen {
            let accepted = (t.run)(&data);
            println!(
                "fuzz {}: {} ran without a panic ({})",
                t.name,
                file.display(),
                if accepted { "accepted" } else { "refused" }
            );
        }
        return Ok(());
    }
    // Also no bigger than a Duration holds.
    if a.seconds
        .is_some_and(|s| !(s > 0.0 && std::time::Duration::try_from_secs_f64(s).is_ok()))
    {
        return Err(BadInput("--seconds must be a positive number".into()).into());
    }
    let hang_after = std::time::Duration::try_from_secs_f64(a.hang_after)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| BadInput("--hang-after must be a positive number of seconds".into()))?;
    let opts = Options {
        hang_after,
        iterations: a.iterations,
        seconds: a.seconds,
        seed: a.seed,
        corpus_dir: a.corpus.unwrap_or_else(fuzz::default_corpus_dir),
        out: a.out,
    };
    let mut crashes = 0;
    for t in &chosen {
        let r = fuzz::run(t, &opts);
        println!(
            "fuzz {}: {} executions in {:.1} s ({:.0}/s), {} distinct inputs, {} in the corpus",
            r.target,
            r.executions,
            r.elapsed.as_secs_f64(),
            r.execs_per_sec(),
            r.distinct,
            r.corpus
        );
        if let Some(c) = &r.crash {
            crashes += 1;
            println!("fuzz {}: PANIC: {}", r.target, c.message);
            match &c.file {
                Some(f) => println!("  input saved to {}", f.display()),
                None => println!(
                    "  the input could not be saved: {:?}",
                    String::from_utf8_lossy(&c.input)
                ),
            }
        }
    }
    if crashes > 0 {
        anyhow::bail!("{crashes} target(s) panicked");
    }
    Ok(())
}
