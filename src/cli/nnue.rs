//! `kibitz tune-nnue`: trains the evaluation network on `kibitz datagen`
//! data, starting from a network file or from random weights.

use anyhow::{Context, Result, bail};
use kibitz::engine::eval::nnue::Network;
use kibitz::tune::nnue::{self as train, FloatNet, LoadSettings, TrainSettings};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// `kibitz datagen` output (`FEN | result | score` lines); repeat for more files.
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Where the trained network is written (Kibitz's network format).
    #[arg(long)]
    pub out: PathBuf,
    /// Start from this network (a stage continues from the last one);
    /// random weights when not given.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// A whole evaluation instead of a correction to the hand-crafted one
    /// (only for a network trained from random weights).
    #[arg(long)]
    pub full: bool,
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// The last epoch's learning rate as a share of `--lr` (cosine decay).
    #[arg(long, default_value_t = 0.1)]
    pub lr_end: f32,
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Share of the search score in the target (the rest is the game's result).
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f64,
    /// Sigmoid scale K (win probability = 1 / (1 + exp(-K x cp / 400)));
    /// fitted to the data's scores and results when not given.
    #[arg(long)]
    pub k: Option<f64>,
    /// Do not also learn positions without castling rights mirrored left to right.
    #[arg(long)]
    pub no_mirror: bool,
    /// Hold out every N-th block of 4,096 lines for validation (0: none).
    #[arg(long, default_value_t = 20)]
    pub valid_every: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(a: Args) -> Result<()> {
    let start = Instant::now();
    let init = match &a.init {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
            Some(Network::from_bytes(&bytes).with_context(|| format!("{}", p.display()))?)
        }
        None => None,
    };
    if a.full && init.as_ref().is_some_and(|n| n.residual) {
        bail!("--full: the network given with --init is residual");
    }
    let residual = init.as_ref().map_or(!a.full, |n| n.residual);
    let k = match a.k {
        Some(k) => k,
        None => train::fit_k(&a.data, 2_000_000)?,
    };
    let load = LoadSettings {
        k,
        lambda: a.lambda,
        residual,
        mirror: !a.no_mirror,
        valid_every: a.valid_every,
    };
    let data = train::load(&a.data, &load)?;
    if data.train.is_empty() {
        bail!(
            "no training positions read ({} lines could not be read)",
            data.bad_lines
        );
    }
    println!(
        "{} positions ({} lines skipped): {} training samples (mirrored ones included), {} held out; K {k:.4}, lambda {}, {}; loaded in {:.0} s",
        data.positions,
        data.bad_lines,
        data.train.len(),
        data.valid.len(),
        a.lambda,
        if residual {
            "residual"
        } else {
            "whole evaluation"
        },
        start.elapsed().as_secs_f64()
    );
    let mut rng = kibitz::util::Rng::new(a.seed);
    let net = match &init {
        Some(n) => FloatNet::from_network(n),
        None => FloatNet::random(residual, &mut rng),
    };
    if !data.valid.is_empty() {
        println!(
            "validation loss: {} {:.6}, start network {:.6}",
            // A whole-evaluation network's samples carry no hand-crafted
            // score: its baseline is an even score for every position.
            if residual {
                "hand-crafted evaluation"
            } else {
                "even score (0) everywhere"
            },
            train::base_loss(&data.valid, k),
            train::loss(&net, &data.valid, k)
        );
    }
    let settings = TrainSettings {
        epochs: a.epochs,
        lr: a.lr,
        lr_end: a.lr_end,
        batch: a.batch,
        threads: a.threads,
        k,
        seed: a.seed,
    };
    let best = train::train(net, &data, &settings, |r| {
        println!(
            "epoch {:>3}: train {:.6}, validation {:.6} ({:.0} s)",
            r.epoch, r.train, r.valid, r.seconds
        );
    });
    let int = best.quantise();
    if !data.valid.is_empty() {
        let back = FloatNet::from_network(&int);
        println!(
            "kept: validation {:.6} (float), {:.6} (as written)",
            train::loss(&best, &data.valid, k),
            train::loss(&back, &data.valid, k)
        );
    }
    kibitz::util::write_atomic(&a.out, &int.to_bytes())
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    println!(
        "written to {} in {:.0} s",
        a.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
