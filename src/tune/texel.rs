//! Texel tuning of the full evaluation's weights.
//!
//! The evaluation is linear in its weights once the game phase and the
//! endgame scale are fixed: `eval = Σ coef_i · w_i` (middlegame and endgame
//! parts tapered). For every training position we record the coefficients
//! (how often each weight counted for White minus for Black) with a tracer,
//! then minimise the mean squared error between the game result and
//! `sigmoid(K · eval)` by gradient descent (Adam), all weights at once.
//! `K` is fitted first so the untuned weights start from their best error.

use crate::engine::eval::layout::{NUM_WEIGHTS, SECTIONS, Section, WEIGHTS};
use crate::engine::eval::zh::{self, NUM_ZH_WEIGHTS, ZH_WEIGHTS, ZhWeights};
use crate::engine::eval::{S, Term, Tracer, trace_weights};
use crate::engine::variant::{Extra, Variant};
use crate::engine::{Board, Bug, Zh};
use crate::variant::VariantKind;
use shakmaty::Color;
use std::fmt::Write as _;

/// Collects `count` per weight, White minus Black, and the values that
/// come from no weight (the fixed king danger), which the tuner keeps as
/// they are.
struct CoefTracer {
    coef: Vec<i32>,
    fixed: S,
}

impl Tracer for CoefTracer {
    const ACTIVE: bool = true;
    fn add(&mut self, _term: Term, color: Color, index: usize, count: i32, _value: S) {
        self.coef[index] += if color == Color::White { count } else { -count };
    }
    fn fixed(&mut self, _term: Term, color: Color, value: S) {
        if color == Color::White {
            self.fixed += value;
        } else {
            self.fixed -= value;
        }
    }
}

/// A training position reduced to what the tuner needs.
struct Sample {
    /// Range in `Data::coefs`.
    start: u32,
    len: u16,
    /// Middlegame share (phase / 24) and endgame share times scale.
    mg_share: f32,
    eg_share: f32,
    /// The tapered value of the terms no weight controls (White's view):
    /// frozen while the weights are fitted.
    fixed: f32,
    /// What the prediction is fitted to: the game result, or a blend of it
    /// with the search score (see [`Data::blend_scores`]).
    result: f32,
    /// The game result from White's side.
    game: f32,
    /// The search score from White's side in centipawns, when the line had one.
    score: Option<f32>,
}

pub struct Data {
    samples: Vec<Sample>,
    coefs: Vec<(u16, i16)>,
    pub skipped: usize,
    /// Number of weights (standard chess or the drop variants).
    weights: usize,
}

impl Data {
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// In how many positions each weight is used (for White or Black).
    pub fn usage(&self) -> Vec<usize> {
        let mut n = vec![0usize; self.weights];
        for &(i, _) in &self.coefs {
            n[i as usize] += 1;
        }
        n
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// How many positions have a search score.
    pub fn scored(&self) -> usize {
        self.samples.iter().filter(|x| x.score.is_some()).count()
    }

    /// Fits to `lambda * sigmoid(K * score) + (1 - lambda) * result` where
    /// a position has a search score, to the result elsewhere. The score
    /// carries what a search saw in the position; the result what became
    /// of it.
    pub fn blend_scores(&mut self, k: f64, lambda: f64) {
        for x in &mut self.samples {
            x.result = match x.score {
                Some(s) => (lambda * sigmoid(k, s as f64) + (1.0 - lambda) * x.game as f64) as f32,
                None => x.game,
            };
        }
    }
}

/// Parses `FEN | result` or `FEN | result | score` lines of standard chess
/// (result from White's side: 1.0, 0.5, 0.0, or 1-0, 1/2-1/2, 0-1; the
/// score in centipawns from White's side, used by [`Data::blend_scores`]).
pub fn load(text: &str) -> Data {
    load_with(text, NUM_WEIGHTS, |fen, t| {
        let board = Board::from_fen(fen).ok()?;
        Some(trace_weights(board.chess(), t))
    })
}

/// [`load`] for Crazyhouse or Bughouse positions (pockets in the FEN), with
/// the drop variants' weights.
pub fn load_variant(text: &str, variant: VariantKind) -> Data {
    fn trace<V: Variant>(fen: &str, t: &mut CoefTracer) -> Option<(i32, i32)> {
        let board = Board::<V>::from_variant_fen(fen).ok()?;
        Some(zh::trace_weights(
            board.pos(),
            board.extra().sent(),
            &ZH_WEIGHTS,
            t,
        ))
    }
    match variant {
        VariantKind::Bughouse => load_with(text, NUM_ZH_WEIGHTS, trace::<Bug>),
        VariantKind::Crazyhouse => load_with(text, NUM_ZH_WEIGHTS, trace::<Zh>),
        VariantKind::Chess => load(text),
    }
}

fn load_with(
    text: &str,
    weights: usize,
    trace: impl Fn(&str, &mut CoefTracer) -> Option<(i32, i32)>,
) -> Data {
    let mut data = Data {
        samples: Vec::new(),
        coefs: Vec::new(),
        skipped: 0,
        weights,
    };
    let mut tracer = CoefTracer {
        coef: vec![0; weights],
        fixed: S::ZERO,
    };
    for line in text.lines() {
        // `FEN | result`, or `FEN | result | score`.
        let mut fields = line.split('|');
        let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
            if !line.trim().is_empty() {
                data.skipped += 1;
            }
            continue;
        };
        let result = match result.trim() {
            "1.0" | "1" | "1-0" => 1.0,
            "0.5" | "1/2-1/2" => 0.5,
            "0.0" | "0" | "0-1" => 0.0,
            _ => {
                data.skipped += 1;
                continue;
            }
        };
        let score = match fields.next().map(|s| s.trim().parse::<f32>()) {
            None => None,
            Some(Ok(s)) if s.is_finite() => Some(s),
            Some(_) => {
                data.skipped += 1;
                continue;
            }
        };
        tracer.coef.iter_mut().for_each(|c| *c = 0);
        tracer.fixed = S::ZERO;
        let Some((phase, scale)) = trace(fen.trim(), &mut tracer) else {
            data.skipped += 1;
            continue;
        };
        let start = data.coefs.len() as u32;
        for (i, &c) in tracer.coef.iter().enumerate() {
            if c != 0 {
                data.coefs.push((i as u16, c as i16));
            }
        }
        let mg_share = phase as f32 / 24.0;
        let eg_share = (24 - phase) as f32 / 24.0 * scale as f32 / 128.0;
        data.samples.push(Sample {
            start,
            len: (data.coefs.len() as u32 - start) as u16,
            mg_share,
            eg_share,
            fixed: tracer.fixed.mg() as f32 * mg_share + tracer.fixed.eg() as f32 * eg_share,
            result,
            game: result,
            score,
        });
    }
    data
}

/// Weights as floats: `[mg, eg]` per weight.
pub type Params = Vec<[f64; 2]>;

pub fn current_params() -> Params {
    WEIGHTS
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect()
}

/// The drop variants' current weights.
pub fn current_zh_params() -> Params {
    ZH_WEIGHTS
        .flat()
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect()
}

#[inline]
fn eval(sample: &Sample, coefs: &[(u16, i16)], p: &Params) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &coefs[sample.start as usize..sample.start as usize + sample.len as usize] {
        let w = p[i as usize];
        mg += w[0] * c as f64;
        eg += w[1] * c as f64;
    }
    mg * sample.mg_share as f64 + eg * sample.eg_share as f64 + sample.fixed as f64
}

#[inline]
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0).exp())
}

/// Mean squared error of the predictions (split over `threads`).
pub fn error(data: &Data, p: &Params, k: f64, threads: usize) -> f64 {
    let chunk = data.samples.len().div_ceil(threads.max(1)).max(1);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = data
            .samples
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|x| {
                            let d = x.result as f64 - sigmoid(k, eval(x, &data.coefs, p));
                            d * d
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / data.samples.len().max(1) as f64
}

/// The sigmoid scale that best fits the current weights (golden-section search).
pub fn fit_k(data: &Data, p: &Params, threads: usize) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(data, p, a, threads) < error(data, p, b, threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn gradient(data: &Data, p: &Params, k: f64, threads: usize) -> Vec<[f64; 2]> {
    let chunk = data.samples.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Vec<[f64; 2]>> = std::thread::scope(|s| {
        let handles: Vec<_> = data
            .samples
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut g = vec![[0.0f64; 2]; p.len()];
                    for x in part {
                        let e = eval(x, &data.coefs, p);
                        let sg = sigmoid(k, e);
                        // d/dE of (r - sigmoid)^2
                        let d = -2.0 * (x.result as f64 - sg) * sg * (1.0 - sg) * k / 400.0;
                        let (dm, de) = (d * x.mg_share as f64, d * x.eg_share as f64);
                        let range = x.start as usize..x.start as usize + x.len as usize;
                        for &(i, c) in &data.coefs[range] {
                            g[i as usize][0] += dm * c as f64;
                            g[i as usize][1] += de * c as f64;
                        }
                    }
                    g
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| vec![[0.0; 2]; p.len()]))
            .collect()
    });
    let n = data.samples.len().max(1) as f64;
    let mut g = vec![[0.0f64; 2]; p.len()];
    for part in parts {
        for (a, b) in g.iter_mut().zip(part) {
            a[0] += b[0] / n;
            a[1] += b[1] / n;
        }
    }
    g
}

/// How the optimisation runs.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    pub epochs: usize,
    pub rate: f64,
    pub threads: usize,
    /// Weights used in fewer positions than this stay as they are: too few
    /// examples make their values noise.
    pub min_usage: usize,
    /// L2 pull toward the starting values, per centipawn squared.
    pub l2: f64,
}

/// Adam over all weights; `report(epoch, error)` every few epochs.
pub fn tune(
    data: &Data,
    start: &Params,
    k: f64,
    settings: &TuneSettings,
    mut report: impl FnMut(usize, f64),
) -> Params {
    let TuneSettings {
        epochs,
        rate,
        threads,
        min_usage,
        l2,
    } = *settings;
    let usage = data.usage();
    let mut p = start.clone();
    let mut m = vec![[0.0f64; 2]; p.len()];
    let mut v = vec![[0.0f64; 2]; p.len()];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    for epoch in 1..=epochs {
        let g = gradient(data, &p, k, threads);
        for i in 0..p.len() {
            if usage[i] < min_usage {
                continue;
            }
            for j in 0..2 {
                let g = g[i][j] + 2.0 * l2 * (p[i][j] - start[i][j]);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                p[i][j] -= rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 25 == 0 || epoch == epochs {
            report(epoch, error(data, &p, k, threads));
        }
    }
    p
}

/// Renders `weights.rs` for the tuned parameters.
pub fn render_weights(p: &Params, note: &str) -> String {
    let mut out = String::new();
    out.push_str("//! Evaluation weights (middlegame, endgame) in centipawns.\n//!\n");
    out.push_str("//! Generated by `kibitz tune`, which rewrites this whole file; the layout\n");
    out.push_str("//! (what each entry means) is in `layout.rs`. Piece-square tables are from\n");
    out.push_str("//! White's side, rank 8 first, as a board is drawn.\n//!\n");
    for line in note.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::S;\n\nconst fn s(mg: i32, eg: i32) -> S {\n    S::new(mg, eg)\n}\n");
    render_sections(&mut out, p, SECTIONS);
    out
}

/// The drop variants' sections after the board part.
pub const ZH_SECTIONS: &[Section] = &[
    Section {
        name: "HAND",
        start: zh::HAND,
        len: 5,
        row: 5,
    },
    Section {
        name: "DROP_ZONE",
        start: zh::DROP_ZONE,
        len: 6,
        row: 6,
    },
    Section {
        name: "DROP_CHECK",
        start: zh::DROP_CHECK,
        len: 5,
        row: 5,
    },
    Section {
        name: "SENT",
        start: zh::SENT,
        len: 5,
        row: 5,
    },
];

/// Renders `zh_weights.rs` for tuned drop-variant parameters: the board
/// part as `BOARD` (standard layout), then the drop terms.
pub fn render_zh_weights(p: &Params, note: &str) -> String {
    let mut out = String::new();
    out.push_str(concat!(
        "//! Crazyhouse and Bughouse evaluation weights (middlegame, endgame) in\n",
        "//! centipawns: the board part has the layout of the standard evaluation\n",
        "//! (`layout.rs`), the drop terms follow it (`zh.rs`).\n//!\n",
        "//! Generated by `kibitz tune --variant crazyhouse`, which rewrites this\n",
        "//! whole file.\n//!\n",
    ));
    for line in note.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::S;\nuse super::layout::NUM_WEIGHTS;\n\nconst fn s(mg: i32, eg: i32) -> S {\n    S::new(mg, eg)\n}\n");
    out.push_str("\n/// The board terms (standard layout).\n");
    let _ = writeln!(out, "pub const BOARD: [S; NUM_WEIGHTS] = [");
    for row in (0..NUM_WEIGHTS).step_by(8) {
        out.push_str("   ");
        for w in &p[row..(row + 8).min(NUM_WEIGHTS)] {
            let _ = write!(out, " s({}, {}),", w[0].round() as i32, w[1].round() as i32);
        }
        out.push('\n');
    }
    out.push_str("];\n");
    render_sections(&mut out, p, ZH_SECTIONS);
    out
}

fn render_sections(out: &mut String, p: &Params, sections: &[Section]) {
    for sec in sections {
        let _ = writeln!(out, "\npub const {}: [S; {}] = [", sec.name, sec.len);
        for row in (0..sec.len).step_by(sec.row) {
            out.push_str("   ");
            for i in row..(row + sec.row).min(sec.len) {
                let w = p[sec.start + i];
                let _ = write!(out, " s({}, {}),", w[0].round() as i32, w[1].round() as i32);
            }
            out.push('\n');
        }
        out.push_str("];\n");
    }
}

/// Weights of a flat drop-variant vector as [`ZhWeights`].
pub fn zh_weights(p: &Params) -> Option<ZhWeights> {
    let flat: Vec<S> = p
        .iter()
        .map(|w| S::new(w[0].round() as i32, w[1].round() as i32))
        .collect();
    ZhWeights::from_flat(&flat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficients_reproduce_the_evaluation() {
        let text = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 | 0.5\n\
                    8/4P3/4K3/8/8/8/8/k7 b - - 0 1 | 1.0 | 812\n\
                    8/4P3/4K3/8/8/8/8/k7 b - - 0 1 | 812\n\
                    bad line\n";
        // `FEN | result` and `FEN | result | score` both load; a score
        // where the result belongs does not.
        let data = load(text);
        assert_eq!(data.len(), 2);
        assert_eq!(data.skipped, 2);
        assert_eq!(data.samples[1].result, 1.0);
        assert_eq!(data.samples[0].score, None);
        assert_eq!(data.samples[1].score, Some(812.0));
        assert_eq!(data.scored(), 1);
        // Blending moves the scored target toward the score's win
        // probability only; lambda 1 is the score alone.
        let mut blended = load(text);
        blended.blend_scores(2.0, 0.5);
        assert_eq!(blended.samples[0].result, 0.5);
        let s = sigmoid(2.0, 812.0);
        assert!((blended.samples[1].result as f64 - (0.5 * s + 0.5)).abs() < 1e-6);
        blended.blend_scores(2.0, 1.0);
        assert!((blended.samples[1].result as f64 - s).abs() < 1e-6);
        assert_eq!(blended.samples[1].game, 1.0);
        // A score that is no number makes the line bad.
        assert_eq!(
            load("8/4P3/4K3/8/8/8/8/k7 b - - 0 1 | 1.0 | x\n").skipped,
            1
        );
        let p = current_params();
        for (sample, fen) in data.samples.iter().zip([
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/4P3/4K3/8/8/8/8/k7 b - - 0 1",
        ]) {
            let b = Board::from_fen(fen).unwrap();
            let t = crate::engine::eval::trace(b.chess(), crate::engine::EvalKind::Full);
            let e = eval(sample, &data.coefs, &p);
            // The tuner's float taper is within rounding of the engine's.
            assert!((e - t.white as f64).abs() <= 2.0, "{e} vs {}", t.white);
        }
        // Rendering the current weights gives a file that names every section.
        let text = render_weights(&p, "test");
        for sec in SECTIONS {
            assert!(text.contains(&format!("pub const {}: [S; {}]", sec.name, sec.len)));
        }
    }

    #[test]
    fn drop_variant_coefficients_reproduce_the_evaluation() {
        let fens = [
            "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
            "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - - 0 1",
            "r1b1k1nr/pp3ppp/3pp1q1/7q/3nP2P/P3NP2/1PBP4/R1BK1B1R[nppp] b kq - 0 20",
        ];
        let text: String = fens.iter().map(|f| format!("{f} | 0.5\n")).collect();
        let data = load_variant(&text, VariantKind::Crazyhouse);
        assert_eq!(data.len(), 3);
        let p = current_zh_params();
        assert_eq!(p.len(), NUM_ZH_WEIGHTS);
        for (sample, fen) in data.samples.iter().zip(fens) {
            let b = Board::<Zh>::from_variant_fen(fen).unwrap();
            let t = zh::trace(&b);
            let e = eval(sample, &data.coefs, &p);
            assert!(
                (e - t.white as f64).abs() <= 2.0,
                "{fen}: {e} vs {}",
                t.white
            );
        }
        let text = render_zh_weights(&p, "test");
        for name in ["BOARD", "HAND", "DROP_ZONE", "DROP_CHECK", "SENT"] {
            assert!(text.contains(&format!("pub const {name}")), "{name}");
        }
        assert!(zh_weights(&p).is_some());
    }
}
