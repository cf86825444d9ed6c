//! `kibitz puzzles check` (hidden): a reference engine (e.g. Stockfish)
//! judges a puzzle file. At every solver move it searches with MultiPV 2.
//! The puzzle is *ambiguous* there when the second move is clearly winning
//! too ([`clearly_winning`]: a mate, or the maker's [`WIN`] chance; two
//! mates in one excepted, lichess takes either); *narrow* when it is not,
//! but the maker's stricter [`only_move`] rule would still have refused it
//! (the best is not clearly winning, or the second is within the margin);
//! it *differs* when the reference prefers another move than the puzzle's.
//!
//! With `--failures`, the output of `kibitz puzzles solve` instead: for
//! each failed puzzle, is the move Kibitz played also clearly winning (the
//! file does not accept it), or a real miss?

use anyhow::{Context, Result, anyhow, bail};
use kibitz::engine::Score;
use kibitz::game::review::win_chance;
use kibitz::train::make::{WIN, clearly_winning, only_move};
use kibitz::train::puzzle::{Puzzle, read_csv};
use kibitz::uci::client::{EngineInfo, UciClient, split_command};
use shakmaty::Color;
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// How long the reference may take for one search beyond its limit.
const GRACE: Duration = Duration::from_secs(120);

/// The reference engine and its search limit (`go` parameters).
struct Reference {
    client: UciClient,
    go: String,
}

/// One MultiPV line: the first move (UCI) and its score, side to move's view.
struct RefLine {
    mv: String,
    score: Score,
}

impl Reference {
    fn start(cmd: &str, go: String) -> Result<Reference> {
        let argv = split_command(cmd);
        let mut client = UciClient::spawn(&argv, Duration::from_secs(10))
            .map_err(|e| anyhow!("cannot start {cmd}: {e}"))?;
        client
            .set_option("Hash", "128")
            .and_then(|_| client.set_option("Threads", "1"))
            .and_then(|_| client.set_option("MultiPV", "2"))
            .map_err(|e| anyhow!("{cmd}: {e}"))?;
        Ok(Reference { client, go })
    }

    /// The reference's lines (best first, at most 2) after `moves` from
    /// `fen`, restricted to `only` when given.
    fn lines(&mut self, fen: &str, moves: &[String], only: Option<&str>) -> Result<Vec<RefLine>> {
        self.client
            .position(Some(fen), moves)
            .map_err(|e| anyhow!("{e}"))?;
        let go = match only {
            Some(m) => format!("{} searchmoves {m}", self.go),
            None => self.go.clone(),
        };
        let r = self
            .client
            .go(&go, GRACE, |_| {})
            .map_err(|e| anyhow!("{e}"))?;
        // The last exact line of each MultiPV index.
        let mut last: [Option<&EngineInfo>; 2] = [None, None];
        for info in &r.infos {
            let k = info.multipv.unwrap_or(1) as usize;
            let exact = info.bound.is_none_or(|b| b == kibitz::engine::Bound::Exact);
            if (1..=2).contains(&k) && exact && info.score.is_some() && !info.pv.is_empty() {
                last[k - 1] = Some(info);
            }
        }
        Ok(last
            .iter()
            .flatten()
            .filter_map(|i| {
                Some(RefLine {
                    mv: i.pv.first()?.clone(),
                    score: i.score?,
                })
            })
            .collect())
    }
}

fn read(file: &Path) -> Result<Vec<Puzzle>> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let read = read_csv(&kibitz::util::decode_text(&bytes));
    for (line, e) in &read.errors {
        eprintln!("{}: line {line}: {e} (skipped)", file.display());
    }
    Ok(read.puzzles)
}

fn go_params(depth: Option<u32>, movetime: Option<u64>) -> String {
    match (depth, movetime) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(ms)) => format!("movetime {ms}"),
        (None, None) => "depth 18".to_string(),
    }
}

fn is_mate_in_one(s: Score) -> bool {
    s.mate_plies() == Some(1)
}

/// Checks every solver move of every puzzle of `file`.
pub fn run(
    file: &Path,
    engine: &str,
    depth: Option<u32>,
    movetime: Option<u64>,
    failures: Option<&Path>,
) -> Result<()> {
    let puzzles = read(file)?;
    let mut reference = Reference::start(engine, go_params(depth, movetime))?;
    if let Some(solved) = failures {
        return check_failures(&puzzles, solved, &mut reference);
    }
    let (mut moves, mut ambiguous, mut narrow, mut differ) = (0usize, 0usize, 0usize, 0usize);
    for p in &puzzles {
        let mut verdicts = Vec::new();
        for k in (1..p.moves.len()).step_by(2) {
            moves += 1;
            let lines = reference.lines(&p.fen, &p.moves[..k], None)?;
            let Some(best) = lines.first() else {
                continue;
            };
            let second = lines.get(1);
            let s = second.map_or(String::new(), |l| {
                format!(", second {} {}", l.mv, l.score.uci())
            });
            let both_mate_at_once =
                second.is_some_and(|l| is_mate_in_one(l.score)) && is_mate_in_one(best.score);
            if let Some(l) = second
                && clearly_winning(l.score)
                && !both_mate_at_once
            {
                verdicts.push(format!(
                    "ambiguous at ply {k}: best {} {}{s}",
                    best.mv,
                    best.score.uci()
                ));
                ambiguous += 1;
                break;
            }
            if best.mv != p.moves[k] && !both_mate_at_once {
                verdicts.push(format!(
                    "differs at ply {k}: reference {} {}{s}, puzzle {}",
                    best.mv,
                    best.score.uci(),
                    p.moves[k]
                ));
                differ += 1;
                break;
            }
            if !only_move(best.score, second.map(|l| l.score)) {
                verdicts.push(format!(
                    "narrow at ply {k}: best {} {}{s}",
                    best.mv,
                    best.score.uci()
                ));
                narrow += 1;
            }
        }
        if verdicts.is_empty() {
            println!("{} ok", p.id);
        } else {
            println!("{} {}", p.id, verdicts.join("; "));
        }
    }
    println!(
        "checked {} puzzles ({moves} solver moves): {ambiguous} ambiguous, {differ} differ, {narrow} narrow solver moves",
        puzzles.len()
    );
    Ok(())
}

/// For each `ID failed: played X, expected Y` line of `solved`: the
/// reference's score of X and of Y where the puzzle expects Y.
fn check_failures(puzzles: &[Puzzle], solved: &Path, reference: &mut Reference) -> Result<()> {
    let text = std::fs::read_to_string(solved)
        .with_context(|| format!("cannot read {}", solved.display()))?;
    let by_id: HashMap<&str, &Puzzle> = puzzles.iter().map(|p| (p.id.as_str(), p)).collect();
    let (mut also, mut miss) = (0usize, 0usize);
    for line in text.lines() {
        let Some((id, rest)) = line.split_once(" failed: played ") else {
            continue;
        };
        let Some((played, expected)) = rest.split_once(", expected ") else {
            bail!("cannot read {line:?}");
        };
        let Some(p) = by_id.get(id) else {
            eprintln!("{id}: not in the puzzle file");
            continue;
        };
        let Some(k) = (1..p.moves.len())
            .step_by(2)
            .find(|&k| p.moves[k] == expected)
        else {
            eprintln!("{id}: {expected} is not a solver move");
            continue;
        };
        let score_of = |r: &mut Reference, m: &str| -> Result<Option<Score>> {
            Ok(r.lines(&p.fen, &p.moves[..k], Some(m))?
                .first()
                .map(|l| l.score))
        };
        let (Some(x), Some(y)) = (score_of(reference, played)?, score_of(reference, expected)?)
        else {
            eprintln!("{id}: no score from the reference");
            continue;
        };
        let chance = |s: Score| win_chance(s, Color::White);
        let winning = |s: Score| s.is_win() || chance(s) >= WIN;
        // Also good: winning like the expected move, or as near as makes
        // no difference; a mate in one where another mates is solved
        // already, so only slower mates and plain wins land here.
        let ok = (winning(x) && winning(y)) || (is_mate_in_one(y) && is_mate_in_one(x));
        let verdict = if ok {
            also += 1;
            "also winning"
        } else {
            miss += 1;
            "miss"
        };
        println!(
            "{id} ply {k}: played {played} {}, expected {expected} {}: {verdict}",
            x.uci(),
            y.uci()
        );
    }
    println!("failures: {also} also winning, {miss} misses");
    Ok(())
}
