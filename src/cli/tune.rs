//! `kibitz datagen` and `kibitz tune`: self-play positions and Texel tuning of the evaluation.

use anyhow::{Context, Result, bail};
use kibitz::matchplay;
use std::path::PathBuf;
use std::time::Instant;

/// Plays self-play games from shuffled openings and writes their positions to `out`.
#[allow(clippy::too_many_arguments)]
pub fn datagen(
    openings: PathBuf,
    games: usize,
    nodes: u64,
    threads: usize,
    seed: u64,
    out: PathBuf,
    variant: kibitz::variant::VariantKind,
    eval: kibitz::engine::EvalKind,
    eval_file: Option<PathBuf>,
) -> Result<()> {
    let network = match eval_file {
        Some(p) => {
            let bytes =
                std::fs::read(&p).with_context(|| format!("cannot read {}", p.display()))?;
            let net = kibitz::engine::eval::nnue::Network::from_bytes(&bytes)
                .with_context(|| format!("{}", p.display()))?;
            Some(std::sync::Arc::new(net))
        }
        None => None,
    };
    use kibitz::variant::VariantKind;
    let (fens, _) = matchplay::load_openings(&openings)?;
    let mut order: Vec<String> = match variant {
        VariantKind::Chess => fens,
        VariantKind::Crazyhouse => fens
            .iter()
            .filter_map(|f| matchplay::crazyhouse_opening(f).ok())
            .collect(),
        VariantKind::Bughouse => bail!("self-play data is made for chess or crazyhouse"),
    };
    // Shuffle the openings deterministically.
    let mut rng = kibitz::util::Rng::new(seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let file =
        std::fs::File::create(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut w = std::io::BufWriter::new(file);
    let cfg = kibitz::tune::datagen::DatagenConfig {
        openings: order,
        games,
        nodes,
        threads,
        seed,
        variant,
        eval,
        network,
    };
    let start = Instant::now();
    let (g, p) = kibitz::tune::datagen::run(&cfg, &mut w, |g, p| {
        if g % 100 == 0 {
            eprintln!(
                "{g} games, {p} positions, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    })?;
    println!("{g} games, {p} positions written to {}", out.display());
    Ok(())
}

/// Texel-tunes the evaluation on `data` and writes the weights as Rust source to `out`.
pub fn tune(
    data: PathBuf,
    settings: kibitz::tune::texel::TuneSettings,
    k: Option<f64>,
    lambda: f64,
    out: PathBuf,
    variant: kibitz::variant::VariantKind,
) -> Result<()> {
    if !(0.0..=1.0).contains(&lambda) {
        bail!("lambda must be between 0 and 1, not {lambda}");
    }
    if k.is_some_and(|k| !(k.is_finite() && k > 0.0)) {
        bail!("K must be a positive number");
    }
    let drops = variant != kibitz::variant::VariantKind::Chess;
    let threads = settings.threads;
    use kibitz::tune::texel;
    let text = std::fs::read_to_string(&data)
        .with_context(|| format!("cannot read {}", data.display()))?;
    let start = Instant::now();
    let mut d = texel::load_variant(&text, variant);
    println!(
        "{} positions ({} lines skipped) loaded in {:.1} s",
        d.len(),
        d.skipped,
        start.elapsed().as_secs_f64()
    );
    if d.is_empty() {
        bail!("no usable positions in {}", data.display());
    }
    let p0 = if drops {
        texel::current_zh_params()
    } else {
        texel::current_params()
    };
    let k = match k {
        Some(k) => k,
        None => texel::fit_k(&d, &p0, threads),
    };
    if lambda > 0.0 {
        d.blend_scores(k, lambda);
        println!(
            "target: {lambda} x score + {} x result ({} positions have a score)",
            1.0 - lambda,
            d.scored()
        );
    }
    let e0 = texel::error(&d, &p0, k, threads);
    println!("K = {k:.4}, error of the current weights {e0:.6}");
    let frozen = d
        .usage()
        .iter()
        .filter(|&&n| n < settings.min_usage)
        .count();
    println!(
        "{frozen} of {} weights used in fewer than {} positions stay fixed",
        p0.len(),
        settings.min_usage
    );
    let p = texel::tune(&d, &p0, k, &settings, |epoch, e| {
        println!("epoch {epoch:>5}: error {e:.6}");
    });
    let (epochs, rate) = (settings.epochs, settings.rate);
    let e1 = texel::error(&d, &p, k, threads);
    let note = format!(
        "State: Texel-tuned on {} self-play positions ({}), K = {k:.4}, lambda {lambda},\nmean squared error {e0:.6} -> {e1:.6} after {epochs} epochs of Adam (rate {rate}).",
        d.len(),
        data.file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let text = if drops {
        texel::render_zh_weights(&p, &note)
    } else {
        texel::render_weights(&p, &note)
    };
    kibitz::util::write_atomic(&out, text.as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "error {e0:.6} -> {e1:.6}; weights written to {}",
        out.display()
    );
    Ok(())
}
