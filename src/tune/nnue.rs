//! Training the evaluation network ([`crate::engine::eval::nnue`]) on
//! self-play data (`kibitz datagen` lines: `FEN | result | score`).
//!
//! The network learns in floating point with Adam and is written in the
//! engine's integer format. The loss is the squared difference between
//! the win probability the evaluation gives, sigmoid(K x cp / 400), and a
//! target that blends the search's score with the game's result:
//! `lambda x sigmoid(K x score / 400) + (1 - lambda) x result`.
//!
//! A residual network predicts `full evaluation + network`, so the
//! hand-crafted evaluation of every position is computed once at loading.
//! Positions without castling rights are also learnt mirrored left to right
//! (chess is the same game mirrored then), which doubles what a few
//! million positions teach.
//!
//! Validation holds out whole blocks of consecutive lines (mostly whole
//! games), so that its loss measures positions from games the network has
//! not seen, not neighbours of the ones it has.

use crate::engine::eval::nnue::{
    HIDDEN, INPUTS, MAX_OUT_WEIGHT, Network, QA, QB, SCALE, for_each_feature,
};
use crate::engine::eval::{EvalKind, Evaluator, psqt_of};
use crate::util::Rng;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, FromSetup, Position};
use std::io::BufRead;

/// One training sample: the inputs of both views, the side to move's
/// first, and what it should predict.
#[derive(Clone)]
pub struct Sample {
    us: [u16; 32],
    them: [u16; 32],
    n: u8,
    /// The target win probability for the side to move.
    target: f32,
    /// The hand-crafted evaluation, side to move's view (residual base).
    base: f32,
}

/// Samples for training and validation.
pub struct Dataset {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    /// Lines that could not be read (skipped).
    pub bad_lines: usize,
    /// Positions read (before mirroring).
    pub positions: usize,
}

/// How to read the data.
#[derive(Clone, Debug)]
pub struct LoadSettings {
    pub k: f64,
    pub lambda: f64,
    pub residual: bool,
    pub mirror: bool,
    /// Every `valid_every`-th block of `VALID_BLOCK` lines is held out
    /// (0: none).
    pub valid_every: usize,
}

const VALID_BLOCK: usize = 4096;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// One data line: the position, the result and score from White's view.
pub fn parse_line(line: &str) -> Option<(Chess, f64, Option<i32>)> {
    let mut parts = line.split('|').map(str::trim);
    let fen = parts.next()?;
    let result: f64 = parts.next()?.parse().ok()?;
    if !(0.0..=1.0).contains(&result) {
        return None;
    }
    let score = match parts.next() {
        Some(s) => Some(s.parse::<i32>().ok()?),
        None => None,
    };
    let pos: Chess = fen
        .parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()?;
    Some((pos, result, score))
}

fn sample(
    pos: &Chess,
    result: f64,
    score: Option<i32>,
    eval: &mut Evaluator,
    s: &LoadSettings,
    mirror: bool,
) -> Sample {
    let turn = pos.turn();
    let mut white = [0u16; 32];
    let mut black = [0u16; 32];
    let mut n = 0usize;
    for_each_feature(pos.board(), mirror, |w, b| {
        if n < 32 {
            white[n] = w as u16;
            black[n] = b as u16;
        }
        n += 1;
    });
    let (us, them) = match turn {
        Color::White => (white, black),
        Color::Black => (black, white),
    };
    let stm = |white_view: f64| match turn {
        Color::White => white_view,
        Color::Black => 1.0 - white_view,
    };
    let result = stm(result);
    let target = match score {
        Some(cp) => {
            let cp = if turn == Color::White { cp } else { -cp };
            s.lambda * sigmoid(s.k * f64::from(cp) / 400.0) + (1.0 - s.lambda) * result
        }
        None => result,
    };
    let base = if s.residual {
        let p = if mirror {
            let mut b = pos.board().clone();
            b.flip_horizontal();
            mirrored(pos, b)
        } else {
            Some(pos.clone())
        };
        p.map_or(0, |p| eval.evaluate_chess(&p, psqt_of(&p)))
    } else {
        0
    };
    Sample {
        us,
        them,
        n: n.min(32) as u8,
        target: target as f32,
        base: base as f32,
    }
}

/// `pos` with its board replaced by `board` (mirrored; castling rights are
/// gone, which is why only positions without them are mirrored).
fn mirrored(pos: &Chess, board: shakmaty::Board) -> Option<Chess> {
    let setup = shakmaty::Setup {
        board,
        turn: pos.turn(),
        castling_rights: shakmaty::Bitboard::EMPTY,
        ep_square: None,
        halfmoves: pos.halfmoves(),
        fullmoves: pos.fullmoves(),
        ..shakmaty::Setup::empty()
    };
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// Reads data files into samples (two threads for the evaluations).
pub fn load(files: &[std::path::PathBuf], s: &LoadSettings) -> std::io::Result<Dataset> {
    let mut lines = Vec::new();
    for f in files {
        let file = std::fs::File::open(f)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", f.display())))?;
        for l in std::io::BufReader::new(file).lines() {
            lines.push(l?);
        }
    }
    let chunks: Vec<&[String]> = lines.chunks(lines.len().div_ceil(2).max(1)).collect();
    let mut parts = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .enumerate()
            .map(|(c, chunk)| {
                let first = c * lines.len().div_ceil(2).max(1);
                scope.spawn(move || {
                    let mut eval = Evaluator::new(EvalKind::Full);
                    let (mut train, mut valid, mut bad, mut read) = (Vec::new(), Vec::new(), 0, 0);
                    for (i, line) in chunk.iter().enumerate() {
                        let Some((pos, result, score)) = parse_line(line) else {
                            bad += 1;
                            continue;
                        };
                        read += 1;
                        let block = (first + i) / VALID_BLOCK;
                        let held_out =
                            s.valid_every > 0 && block % s.valid_every == s.valid_every - 1;
                        let out = if held_out { &mut valid } else { &mut train };
                        out.push(sample(&pos, result, score, &mut eval, s, false));
                        if s.mirror && !held_out && pos.castles().castling_rights().is_empty() {
                            out.push(sample(&pos, result, score, &mut eval, s, true));
                        }
                    }
                    (train, valid, bad, read)
                })
            })
            .collect();
        for h in handles {
            if let Ok(p) = h.join() {
                parts.push(p);
            }
        }
    });
    let mut d = Dataset {
        train: Vec::new(),
        valid: Vec::new(),
        bad_lines: 0,
        positions: 0,
    };
    for (t, v, b, r) in parts {
        d.train.extend(t);
        d.valid.extend(v);
        d.bad_lines += b;
        d.positions += r;
    }
    Ok(d)
}

/// The sigmoid scale K that best fits the search scores to the results
/// (lines with a score), as the Texel tuner defines it.
pub fn fit_k(files: &[std::path::PathBuf], max_lines: usize) -> std::io::Result<f64> {
    let mut pairs = Vec::new();
    'files: for f in files {
        let file = std::fs::File::open(f)?;
        for l in std::io::BufReader::new(file).lines() {
            if let Some((_, r, Some(cp))) = parse_line(&l?) {
                pairs.push((f64::from(cp), r));
                if pairs.len() >= max_lines {
                    break 'files;
                }
            }
        }
    }
    let err = |k: f64| {
        pairs
            .iter()
            .map(|&(cp, r)| (sigmoid(k * cp / 400.0) - r).powi(2))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (0.1f64, 10.0f64);
    for _ in 0..60 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if err(m1) < err(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    Ok((lo + hi) / 2.0)
}

/// The network in floating point.
#[derive(Clone)]
pub struct FloatNet {
    pub residual: bool,
    /// `[input * HIDDEN + neuron]`
    pub ft_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    pub out_w: Vec<f32>,
    pub out_b: f32,
}

const FT_CLIP: f32 = 1.98;
const OUT_CLIP: f32 = MAX_OUT_WEIGHT as f32 / QB as f32;

impl FloatNet {
    /// Small random hidden weights; the output starts at 0 for a residual
    /// network (it begins as the hand-crafted evaluation).
    pub fn random(residual: bool, rng: &mut Rng) -> FloatNet {
        let mut r = |scale: f32| (rng.unit() as f32 * 2.0 - 1.0) * scale;
        let ft_w = (0..INPUTS * HIDDEN).map(|_| r(0.1)).collect();
        let ft_b = (0..HIDDEN).map(|_| r(0.1)).collect();
        let out_w = (0..2 * HIDDEN)
            .map(|_| if residual { 0.0 } else { r(0.2) })
            .collect();
        FloatNet {
            residual,
            ft_w,
            ft_b,
            out_w,
            out_b: 0.0,
        }
    }

    /// The integer network read back into floats.
    pub fn from_network(n: &Network) -> FloatNet {
        FloatNet {
            residual: n.residual,
            ft_w: n
                .ft_weights
                .iter()
                .flatten()
                .map(|&w| f32::from(w) / QA as f32)
                .collect(),
            ft_b: n
                .ft_bias
                .iter()
                .map(|&w| f32::from(w) / QA as f32)
                .collect(),
            out_w: n
                .out_weights
                .iter()
                .map(|&w| f32::from(w) / QB as f32)
                .collect(),
            out_b: n.out_bias as f32 / (QA * QB) as f32,
        }
    }

    /// Rounds to the engine's integer format.
    pub fn quantise(&self) -> Network {
        let mut n = Network::zero(self.residual);
        let q16 = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        for (i, row) in n.ft_weights.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = q16(self.ft_w[i * HIDDEN + j], QA);
            }
        }
        for (w, &f) in n.ft_bias.iter_mut().zip(&self.ft_b) {
            *w = q16(f, QA);
        }
        for (w, &f) in n.out_weights.iter_mut().zip(&self.out_w) {
            *w = q16(f, QB).clamp(-MAX_OUT_WEIGHT as i16, MAX_OUT_WEIGHT as i16);
        }
        n.out_bias = (self.out_b * (QA * QB) as f32).round() as i32;
        n
    }

    /// The network's output in centipawns, and the hidden activations
    /// (pre-activation accumulators) of both views.
    fn forward(&self, s: &Sample, acc: &mut [f32; 2 * HIDDEN]) -> f32 {
        acc[..HIDDEN].copy_from_slice(&self.ft_b);
        acc[HIDDEN..].copy_from_slice(&self.ft_b);
        let (a_us, a_them) = acc.split_at_mut(HIDDEN);
        for k in 0..s.n as usize {
            let (fu, ft) = (s.us[k] as usize * HIDDEN, s.them[k] as usize * HIDDEN);
            for (a, w) in a_us.iter_mut().zip(&self.ft_w[fu..fu + HIDDEN]) {
                *a += w;
            }
            for (a, w) in a_them.iter_mut().zip(&self.ft_w[ft..ft + HIDDEN]) {
                *a += w;
            }
        }
        let mut out = self.out_b;
        for (a, w) in acc.iter().zip(&self.out_w) {
            let v = a.clamp(0.0, 1.0);
            out += v * v * w;
        }
        out * SCALE as f32
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub epochs: usize,
    pub lr: f32,
    /// The learning rate at the last epoch, as a share of `lr` (cosine decay).
    pub lr_end: f32,
    pub batch: usize,
    pub threads: usize,
    pub k: f64,
    pub seed: u64,
}

/// One epoch's losses.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train: f64,
    pub valid: f64,
    pub seconds: f64,
}

struct Grad {
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: f32,
    loss: f64,
}

impl Grad {
    fn new() -> Grad {
        Grad {
            ft_w: vec![0.0; INPUTS * HIDDEN],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; 2 * HIDDEN],
            out_b: 0.0,
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.ft_w.fill(0.0);
        self.ft_b.fill(0.0);
        self.out_w.fill(0.0);
        self.out_b = 0.0;
        self.loss = 0.0;
    }
}

/// The win probability a network gives a sample.
fn predict(net: &FloatNet, s: &Sample, k: f32, acc: &mut [f32; 2 * HIDDEN]) -> f32 {
    let cp = net.forward(s, acc) + if net.residual { s.base } else { 0.0 };
    1.0 / (1.0 + (-k * cp / 400.0).exp())
}

fn accumulate(net: &FloatNet, batch: &[&Sample], k: f32, g: &mut Grad) {
    let mut acc = [0f32; 2 * HIDDEN];
    let mut d_acc = [0f32; 2 * HIDDEN];
    for s in batch {
        let p = predict(net, s, k, &mut acc);
        let err = p - s.target;
        g.loss += f64::from(err * err);
        // d loss / d out, with out in network units (cp = SCALE x out).
        let d_out = 2.0 * err * p * (1.0 - p) * k / 400.0 * SCALE as f32;
        g.out_b += d_out;
        for i in 0..2 * HIDDEN {
            let a = acc[i];
            if a > 0.0 && a < 1.0 {
                g.out_w[i] += d_out * a * a;
                d_acc[i] = d_out * net.out_w[i] * 2.0 * a;
            } else if a >= 1.0 {
                g.out_w[i] += d_out;
                d_acc[i] = 0.0;
            } else {
                d_acc[i] = 0.0;
            }
        }
        let (d_us, d_them) = d_acc.split_at(HIDDEN);
        for j in 0..HIDDEN {
            g.ft_b[j] += d_us[j] + d_them[j];
        }
        for i in 0..s.n as usize {
            let (fu, ft) = (s.us[i] as usize * HIDDEN, s.them[i] as usize * HIDDEN);
            for (gw, d) in g.ft_w[fu..fu + HIDDEN].iter_mut().zip(d_us) {
                *gw += d;
            }
            for (gw, d) in g.ft_w[ft..ft + HIDDEN].iter_mut().zip(d_them) {
                *gw += d;
            }
        }
    }
}

/// The mean loss of `net` on `samples`.
pub fn loss(net: &FloatNet, samples: &[Sample], k: f64) -> f64 {
    let mut acc = [0f32; 2 * HIDDEN];
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = predict(net, s, k as f32, &mut acc);
            f64::from((p - s.target).powi(2))
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The loss of the hand-crafted evaluation alone on `samples` (the
/// baseline a residual network has to beat).
pub fn base_loss(samples: &[Sample], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (sigmoid(k * f64::from(s.base) / 400.0) - f64::from(s.target)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32, clip: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        for i in 0..w.len() {
            let gi = g[i];
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * gi;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * gi * gi;
            let update = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            w[i] = (w[i] - update).clamp(-clip, clip);
        }
    }
}

/// Trains `net` on `data`; calls `report` after each epoch. Returns the
/// network of the epoch with the lowest validation loss (the last one when
/// nothing is held out).
pub fn train(
    mut net: FloatNet,
    data: &Dataset,
    s: &TrainSettings,
    mut report: impl FnMut(&EpochReport),
) -> FloatNet {
    let mut rng = Rng::new(s.seed);
    let mut order: Vec<usize> = (0..data.train.len()).collect();
    let threads = s.threads.max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new()).collect();
    let mut total = Grad::new();
    let (mut a_ftw, mut a_ftb, mut a_ow, mut a_ob) = (
        Adam::new(INPUTS * HIDDEN),
        Adam::new(HIDDEN),
        Adam::new(2 * HIDDEN),
        Adam::new(1),
    );
    let mut t = 0;
    let mut best: Option<(f64, FloatNet)> = None;
    let k = s.k as f32;
    for epoch in 1..=s.epochs {
        let start = std::time::Instant::now();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        // Cosine decay from lr to lr x lr_end over the epochs.
        let progress = if s.epochs > 1 {
            (epoch - 1) as f32 / (s.epochs - 1) as f32
        } else {
            0.0
        };
        let lr = s.lr
            * (s.lr_end + (1.0 - s.lr_end) * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        let mut train_loss = 0.0;
        for chunk in order.chunks(s.batch.max(1)) {
            let batch: Vec<&Sample> = chunk.iter().map(|&i| &data.train[i]).collect();
            let per = batch.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (g, part) in grads.iter_mut().zip(batch.chunks(per.max(1))) {
                    let net = &net;
                    scope.spawn(move || {
                        g.clear();
                        accumulate(net, part, k, g);
                    });
                }
            });
            total.clear();
            for g in grads.iter().take(batch.len().div_ceil(per.max(1))) {
                for (a, b) in total.ft_w.iter_mut().zip(&g.ft_w) {
                    *a += b;
                }
                for (a, b) in total.ft_b.iter_mut().zip(&g.ft_b) {
                    *a += b;
                }
                for (a, b) in total.out_w.iter_mut().zip(&g.out_w) {
                    *a += b;
                }
                total.out_b += g.out_b;
                total.loss += g.loss;
            }
            train_loss += total.loss;
            let scale = 1.0 / batch.len() as f32;
            for x in total
                .ft_w
                .iter_mut()
                .chain(&mut total.ft_b)
                .chain(&mut total.out_w)
            {
                *x *= scale;
            }
            total.out_b *= scale;
            t += 1;
            a_ftw.step(&mut net.ft_w, &total.ft_w, lr, t, FT_CLIP);
            a_ftb.step(&mut net.ft_b, &total.ft_b, lr, t, FT_CLIP);
            a_ow.step(&mut net.out_w, &total.out_w, lr, t, OUT_CLIP);
            let mut ob = [net.out_b];
            a_ob.step(&mut ob, &[total.out_b], lr, t, 100.0);
            net.out_b = ob[0];
        }
        let valid = if data.valid.is_empty() {
            f64::NAN
        } else {
            loss(&net, &data.valid, s.k)
        };
        report(&EpochReport {
            epoch,
            train: train_loss / data.train.len().max(1) as f64,
            valid,
            seconds: start.elapsed().as_secs_f64(),
        });
        let better = best
            .as_ref()
            .is_none_or(|(b, _)| valid.is_nan() || valid < *b);
        if better {
            best = Some((valid, net.clone()));
        }
    }
    best.map_or(net, |(_, n)| n)
}

/// How far the integer network's scores are from the float network's on
/// `samples`: the mean absolute difference in centipawns.
pub fn quantisation_error(float: &FloatNet, samples: &[Sample], positions: &[Chess]) -> f64 {
    let int = float.quantise();
    let mut acc = [0f32; 2 * HIDDEN];
    let mut sum = 0.0;
    for (s, p) in samples.iter().zip(positions) {
        let f = float.forward(s, &mut acc);
        let i = int.evaluate(p.board(), p.turn());
        sum += f64::from((f - i as f32).abs());
    }
    sum / samples.len().max(1) as f64
}

/// Samples of `positions` (no result or score: for comparing evaluations).
pub fn bare_samples(positions: &[Chess]) -> Vec<Sample> {
    let s = LoadSettings {
        k: 1.0,
        lambda: 0.0,
        residual: false,
        mirror: false,
        valid_every: 0,
    };
    let mut eval = Evaluator::new(EvalKind::Full);
    positions
        .iter()
        .map(|p| sample(p, 0.5, None, &mut eval, &s, false))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions() -> Vec<Chess> {
        [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        ]
        .iter()
        .map(|f| {
            parse_line(&format!("{f} | 0.5 | 0"))
                .map(|p| p.0)
                .unwrap_or_default()
        })
        .collect()
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(parse_line("not a fen | 1.0 | 20").is_none());
        assert!(parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 2.0 | 20").is_none());
        assert!(parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 1.0 | x").is_none());
        assert!(parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 1.0 | 20").is_some());
        assert!(parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5").is_some());
    }

    #[test]
    fn the_integer_network_follows_the_float_one() {
        let mut rng = Rng::new(3);
        let net = FloatNet::random(false, &mut rng);
        let pos = positions();
        let samples = bare_samples(&pos);
        let err = quantisation_error(&net, &samples, &pos);
        assert!(err < 3.0, "mean quantisation error {err} cp");
        // And the float forward pass is not trivially 0.
        let mut acc = [0f32; 2 * HIDDEN];
        assert!(samples.iter().any(|s| net.forward(s, &mut acc).abs() > 1.0));
        // The file round trip keeps the float weights within a rounding.
        let back = FloatNet::from_network(&net.quantise());
        assert!((back.ft_w[1000] - net.ft_w[1000]).abs() <= 0.5 / QA as f32);
    }

    #[test]
    fn training_lowers_the_loss_on_what_it_learns() {
        // A residual network learns that White is better than the
        // hand-crafted evaluation says in these positions.
        let pos = positions();
        let s = LoadSettings {
            k: 1.0,
            lambda: 0.0,
            residual: true,
            mirror: false,
            valid_every: 0,
        };
        let mut eval = Evaluator::new(EvalKind::Full);
        let samples: Vec<Sample> = pos
            .iter()
            .map(|p| sample(p, 1.0, None, &mut eval, &s, false))
            .collect();
        let data = Dataset {
            train: samples,
            valid: Vec::new(),
            bad_lines: 0,
            positions: pos.len(),
        };
        let mut rng = Rng::new(5);
        let net = FloatNet::random(true, &mut rng);
        let before = loss(&net, &data.train, 1.0);
        assert!(
            (before - base_loss(&data.train, 1.0)).abs() < 1e-6,
            "a new residual net adds 0"
        );
        let settings = TrainSettings {
            epochs: 200,
            lr: 0.01,
            lr_end: 0.1,
            batch: 4,
            threads: 2,
            k: 1.0,
            seed: 1,
        };
        let trained = train(net, &data, &settings, |_| {});
        let after = loss(&trained, &data.train, 1.0);
        assert!(after < before * 0.5, "loss {before} -> {after}");
    }

    #[test]
    fn mirrored_samples_are_the_mirror_images() {
        let pos = positions();
        let p = &pos[1]; // no castling rights
        let s = LoadSettings {
            k: 1.0,
            lambda: 0.0,
            residual: true,
            mirror: true,
            valid_every: 0,
        };
        let mut eval = Evaluator::new(EvalKind::Full);
        let a = sample(p, 1.0, None, &mut eval, &s, false);
        let b = sample(p, 1.0, None, &mut eval, &s, true);
        let mut fa: Vec<u16> = a.us[..a.n as usize].iter().map(|&f| f ^ 7).collect();
        let mut fb = b.us[..b.n as usize].to_vec();
        fa.sort_unstable();
        fb.sort_unstable();
        assert_eq!(fa, fb);
        assert_eq!(a.target, b.target);
    }
}
