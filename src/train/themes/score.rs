//! How well [`super::tag`] agrees with the themes a puzzle file already
//! carries (lichess' `Themes` column): precision and recall per tag.

use super::{TAGS, tag};
use crate::train::puzzle::Puzzle;
use std::fmt::Write;

/// One tag's agreement with the file's themes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagScore {
    pub tag: &'static str,
    /// Puzzles both give the tag.
    pub true_pos: usize,
    /// Puzzles only Kibitz tags.
    pub false_pos: usize,
    /// Puzzles only the file tags.
    pub false_neg: usize,
}

impl TagScore {
    /// The share of Kibitz's tags the file agrees with (`None`: never
    /// tagged).
    pub fn precision(&self) -> Option<f64> {
        let n = self.true_pos + self.false_pos;
        (n > 0).then(|| self.true_pos as f64 / n as f64)
    }

    /// The share of the file's tags Kibitz finds (`None`: the file never
    /// has it).
    pub fn recall(&self) -> Option<f64> {
        let n = self.support();
        (n > 0).then(|| self.true_pos as f64 / n as f64)
    }

    /// How many puzzles the file gives the tag.
    pub fn support(&self) -> usize {
        self.true_pos + self.false_neg
    }
}

/// The tags lichess' tagger gives every puzzle it tags: one of them.
const LENGTH_TAGS: [&str; 4] = ["oneMove", "short", "long", "veryLong"];

/// Whether the puzzle's `Themes` column looks like lichess' tagger's work:
/// it has a length tag (`oneMove`, `short`, `long`, `veryLong`), which the
/// tagger gives every puzzle. A column with only the game phase (as some
/// lines of a sample may have) says nothing about the other themes.
pub fn has_lichess_tags(p: &Puzzle) -> bool {
    p.themes.iter().any(|t| LENGTH_TAGS.contains(&t.as_str()))
}

/// Every tag of [`TAGS`] scored over `puzzles` (puzzles whose moves are
/// not a legal line are left out: [`Puzzle::line`] fails on them).
pub fn compare(puzzles: &[Puzzle]) -> Vec<TagScore> {
    let mut scores: Vec<TagScore> = TAGS
        .iter()
        .map(|&tag| TagScore {
            tag,
            true_pos: 0,
            false_pos: 0,
            false_neg: 0,
        })
        .collect();
    for p in puzzles {
        let Ok((start, line)) = p.line() else {
            continue;
        };
        let ours = tag(&start, &line);
        for s in &mut scores {
            let mine = ours.contains(&s.tag);
            let theirs = p.themes.iter().any(|t| t == s.tag);
            match (mine, theirs) {
                (true, true) => s.true_pos += 1,
                (true, false) => s.false_pos += 1,
                (false, true) => s.false_neg += 1,
                (false, false) => {}
            }
        }
    }
    scores
}

/// The scores as a text table: tag, precision, recall, support, and the
/// counts behind them.
pub fn table(scores: &[TagScore]) -> String {
    let pct = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{:.1}%", v * 100.0));
    let mut s = format!(
        "{:<18} {:>9} {:>7} {:>7} {:>5} {:>5} {:>5}\n",
        "tag", "precision", "recall", "support", "tp", "fp", "fn"
    );
    for t in scores {
        let _ = writeln!(
            s,
            "{:<18} {:>9} {:>7} {:>7} {:>5} {:>5} {:>5}",
            t.tag,
            pct(t.precision()),
            pct(t.recall()),
            t.support(),
            t.true_pos,
            t.false_pos,
            t.false_neg
        );
    }
    s
}
