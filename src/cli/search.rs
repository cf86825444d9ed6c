//! `kibitz perft`, `analyse`, `tree` and `eval`, in any variant
//! (`--variant chess|crazyhouse|bughouse`).

use anyhow::{Context, Result, bail};
use kibitz::engine::tree::{self, export};
use kibitz::engine::variant::{ForVariant, dispatch};
use kibitz::engine::{
    Board, Engine, EngineOptions, EvalKind, Features, GamePosition, Limits, Variant, eval, perft,
};
use kibitz::uci::info::{InfoPrinter, Output};
use kibitz::variant::VariantKind;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Parses `--variant`.
pub fn parse_variant(s: &str) -> Result<VariantKind> {
    Ok(s.parse::<VariantKind>()?)
}

pub fn parse_eval(s: &str) -> Result<EvalKind> {
    EvalKind::parse(s).with_context(|| format!("unknown evaluation '{s}' (full, simple or nnue)"))
}

/// The board of `fen` (or the variant's start position).
fn board_from<V: Variant>(fen: Option<&str>) -> Result<Board<V>> {
    match fen {
        Some(f) => Board::from_variant_fen(f).map_err(|e| anyhow::anyhow!("{e}")),
        None => Ok(Board::start_position()),
    }
}

/// A position with moves played from it: each move in SAN (`Nf3`, `N@f3`)
/// or UCI (`g1f3`), move numbers allowed (`1. e4 e5`); errors name the
/// move.
fn position_from<V: Variant>(fen: Option<&str>, moves: &[String]) -> Result<GamePosition<V>> {
    let start = match fen {
        Some(f) => {
            Board::<V>::from_variant_fen(f).map_err(|e| anyhow::anyhow!("bad FEN '{f}': {e}"))?
        }
        None => Board::<V>::start_position(),
    };
    let mut g = GamePosition::new(start);
    let tokens = moves
        .iter()
        .flat_map(|m| m.split_ascii_whitespace())
        .filter(|t| !crate::cli::opening::is_move_number(t));
    for (i, tok) in tokens.enumerate() {
        let m = san_or_uci(g.current(), tok)
            .map_err(|e| anyhow::anyhow!("move {} ({tok}): {e}", i + 1))?;
        g.push(m);
    }
    Ok(g)
}

/// A move of `board` in UCI or SAN.
fn san_or_uci<V: Variant>(board: &Board<V>, text: &str) -> Result<shakmaty::Move, String> {
    if let Ok(m) = board.parse_uci(text) {
        return Ok(m);
    }
    let san: shakmaty::san::San = text
        .parse()
        .map_err(|_| format!("'{text}' is not a move (SAN like Nf3, or UCI like g1f3)"))?;
    san.to_move(board.pos())
        .map_err(|e| format!("'{text}' is not legal in {}: {e}", board.fen()))
}

pub struct Perft {
    pub depth: u32,
    pub fen: Option<String>,
    pub divide: bool,
}

impl ForVariant for Perft {
    type Out = Result<()>;
    fn run<V: Variant>(self) -> Result<()> {
        let board = board_from::<V>(self.fen.as_deref())?;
        let start = Instant::now();
        let nodes = if self.divide {
            let mut total = 0;
            for (m, n) in perft::divide_in::<V>(board.pos(), self.depth) {
                println!("{}: {n}", Board::uci(m));
                total += n;
            }
            println!();
            total
        } else {
            perft::perft_in::<V>(board.pos(), self.depth)
        };
        let secs = start.elapsed().as_secs_f64();
        println!(
            "time {:.3} s, {:.0} nodes/s",
            secs,
            nodes as f64 / secs.max(1e-9)
        );
        println!("nodes {nodes}");
        Ok(())
    }
}

pub fn perft(variant: VariantKind, p: Perft) -> Result<()> {
    dispatch(variant, p)
}

pub struct Analyse {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub depth: Option<i32>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub multipv: usize,
    pub eval: String,
    pub hash: usize,
    pub threads: usize,
}

impl ForVariant for Analyse {
    type Out = Result<()>;
    fn run<V: Variant>(self) -> Result<()> {
        let pos = position_from::<V>(self.fen.as_deref(), &self.moves)?;
        let limits = match (self.depth, self.movetime, self.nodes) {
            (Some(d), _, _) if d < 1 => bail!("depth must be at least 1"),
            (Some(d), _, _) => Limits::depth(d.min(100)),
            (_, Some(ms), _) => Limits::movetime(ms),
            (_, _, Some(n)) => Limits::nodes(n),
            _ => Limits::depth(12),
        };
        let mut engine = Engine::new(EngineOptions {
            hash_mb: self.hash,
            multipv: self.multipv.max(1),
            eval: parse_eval(&self.eval)?,
            move_overhead: Duration::ZERO,
            threads: self.threads,
            ..EngineOptions::default()
        });
        let stop = AtomicBool::new(false);
        let out = Output::stdout();
        let threads = engine.options().threads;
        out.line(&format!(
            "info string {threads} search thread{}",
            if threads == 1 { "" } else { "s" }
        ));
        let mut printer = InfoPrinter::new(out.clone());
        let report = engine.search(&pos, &limits, &stop, &mut printer);
        match report.best_move {
            Some(m) => out.line(&format!("bestmove {}", Board::uci(m))),
            None => {
                let board = pos.current();
                let why = match (V::BUGHOUSE, board.in_check()) {
                    (true, _) if report.result.score.is_mate() => "checkmate",
                    (true, _) => "no legal move: waiting for a piece from the partner",
                    (false, true) => "checkmate",
                    (false, false) => "stalemate",
                };
                out.line(&format!("info string no legal moves ({why})"));
                out.line("bestmove 0000");
            }
        }
        Ok(())
    }
}

pub fn analyse(variant: VariantKind, a: Analyse) -> Result<()> {
    dispatch(variant, a)
}

pub struct TreeCmd {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub depth: i32,
    /// `json` or `dot` (already checked).
    pub format: String,
    pub features: Features,
    pub max_nodes: usize,
    pub out: Option<PathBuf>,
}

impl ForVariant for TreeCmd {
    type Out = Result<()>;
    fn run<V: Variant>(self) -> Result<()> {
        let pos = position_from::<V>(self.fen.as_deref(), &self.moves)?;
        let rec = tree::record(
            &pos,
            self.depth,
            self.features,
            EngineOptions::default(),
            self.max_nodes,
        );
        let text = match self.format.as_str() {
            "dot" => export::to_dot(&rec.tree),
            _ => {
                let mut s = serde_json::to_string(&export::to_json(&rec.tree, &rec.report))?;
                s.push('\n');
                s
            }
        };
        match self.out {
            Some(path) => kibitz::util::write_atomic(&path, text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?,
            None => {
                use std::io::Write;
                let mut stdout = std::io::stdout().lock();
                // A closed pipe (`| head`) is not an error worth a message.
                let _ = stdout
                    .write_all(text.as_bytes())
                    .and_then(|_| stdout.flush());
            }
        }
        Ok(())
    }
}

/// `kibitz tree`: the terminal explorer (standard chess, on a terminal
/// without `--format`), or JSON/DOT.
#[allow(clippy::too_many_arguments)]
pub fn tree(
    variant: VariantKind,
    fen: Option<String>,
    moves: Vec<String>,
    depth: i32,
    format: Option<String>,
    no: &[String],
    max_nodes: usize,
    out: Option<PathBuf>,
) -> Result<()> {
    use std::io::IsTerminal;
    if !(1..=30).contains(&depth) {
        bail!("--depth must be 1 to 30");
    }
    let features = tree::features_without(no).map_err(|e| anyhow::anyhow!("--no: {e}"))?;
    let format = match format.as_deref() {
        Some(f) => f.to_ascii_lowercase(),
        None if out.is_none() && std::io::stdout().is_terminal() => {
            if variant != VariantKind::Chess {
                bail!(
                    "the terminal explorer shows standard chess for now: use --format json \
                     or --format dot for {variant} trees"
                );
            }
            let max = kibitz::ui::screens::explorer::MAX_DEPTH;
            if depth > max {
                bail!(
                    "the explorer records up to depth {max} (use --format json or dot for deeper trees)"
                );
            }
            let pos = position_from::<kibitz::engine::Std>(fen.as_deref(), &moves)?;
            return kibitz::ui::explore(pos, depth, features, max_nodes);
        }
        None => "json".to_string(),
    };
    if !matches!(format.as_str(), "json" | "dot") {
        bail!("--format must be json or dot, not '{format}'");
    }
    dispatch(
        variant,
        TreeCmd {
            fen,
            moves,
            depth,
            format,
            features,
            max_nodes,
            out,
        },
    )
}

pub struct EvalCmd {
    pub fen: Option<String>,
    pub kind: EvalKind,
}

impl ForVariant for EvalCmd {
    type Out = Result<()>;
    fn run<V: Variant>(self) -> Result<()> {
        let board = board_from::<V>(self.fen.as_deref())?;
        let trace = match V::as_std(&board) {
            Some(b) => eval::trace(b.chess(), self.kind),
            None => eval::zh::trace(&board),
        };
        println!("{trace}");
        if let (Some(b), EvalKind::Nnue) = (V::as_std(&board), self.kind) {
            let net = eval::nnue::Network::embedded();
            let correction = net.evaluate(shakmaty::Position::board(b.chess()), b.turn());
            let total = if net.residual {
                trace.score + correction
            } else {
                correction
            };
            println!("network: {correction:+} (side to move), total {total:+}");
        }
        Ok(())
    }
}

pub fn eval(variant: VariantKind, fen: Option<String>, kind: &str) -> Result<()> {
    let kind = parse_eval(kind)?;
    if variant != VariantKind::Chess && kind != EvalKind::Full {
        bail!("the {} evaluation is for standard chess only", kind.name());
    }
    dispatch(variant, EvalCmd { fen, kind })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz::engine::{Std, Zh};

    /// `--moves` of `analyse` and `tree` take SAN or UCI, with move numbers
    /// (as `opening --moves` does), and a bad move is named.
    #[test]
    fn moves_are_san_or_uci() {
        let line = |m: &str| vec![m.to_string()];
        let a = position_from::<Std>(None, &line("1. e4 e5 2. Nf3")).unwrap();
        let b = position_from::<Std>(None, &["e2e4".into(), "e7e5".into(), "g1f3".into()]).unwrap();
        assert_eq!(a.current().fen(), b.current().fen());
        let err = position_from::<Std>(None, &line("e4 Zz9"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("move 2 (Zz9)") && err.contains("SAN like Nf3"),
            "{err}"
        );
        let err = position_from::<Std>(None, &line("e4 e4"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("not legal"), "{err}");
        // Drops in Crazyhouse, in either notation.
        let zh = position_from::<Zh>(None, &line("e4 d5 exd5 Qxd5 P@e4")).unwrap();
        let uci = position_from::<Zh>(None, &line("e2e4 d7d5 e4d5 d8d5 P@e4")).unwrap();
        assert_eq!(zh.current().fen(), uci.current().fen());
    }
}
