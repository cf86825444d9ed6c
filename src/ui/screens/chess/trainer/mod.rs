//! The endgame trainer's logic, without terminal or app state: the endings
//! on offer, random won positions, the board editor (`editor`) and
//! the verdict on each move ("mate in 12 -> mate in 11: best").

use crate::engine::{Board, Score};
use crate::tablebase::{Material, Probe, Tablebases, Wdl};
use crate::util::Rng;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, FromSetup, Piece, Position, Rank, Role, Setup, Square,
};
use std::sync::Arc;

/// An ending the trainer offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Material, stronger side first, as the tables name it.
    pub name: &'static str,
    pub title: &'static str,
    /// Longest mate with the stronger side to move, in moves (our tables;
    /// the published figures).
    pub longest: u32,
}

pub const ENDINGS: &[Ending] = &[
    Ending {
        name: "KQvK",
        title: "Queen against king",
        longest: 10,
    },
    Ending {
        name: "KRvK",
        title: "Rook against king",
        longest: 16,
    },
    Ending {
        name: "KBBvK",
        title: "Two bishops",
        longest: 19,
    },
    Ending {
        name: "KBNvK",
        title: "Bishop and knight",
        longest: 33,
    },
    Ending {
        name: "KPvK",
        title: "King and pawn",
        longest: 28,
    },
    Ending {
        name: "KPPvK",
        title: "Two pawns",
        longest: 32,
    },
    Ending {
        name: "KQvKR",
        title: "Queen against rook",
        longest: 35,
    },
    Ending {
        name: "KQvKP",
        title: "Queen against pawn",
        longest: 28,
    },
    Ending {
        name: "KQvKN",
        title: "Queen against knight",
        longest: 21,
    },
    Ending {
        name: "KQvKB",
        title: "Queen against bishop",
        longest: 17,
    },
    Ending {
        name: "KRvKP",
        title: "Rook against pawn",
        longest: 26,
    },
    Ending {
        name: "KRvKN",
        title: "Rook against knight",
        longest: 40,
    },
    Ending {
        name: "KRvKB",
        title: "Rook against bishop",
        longest: 29,
    },
    Ending {
        name: "KRPvKR",
        title: "Rook, pawn against rook",
        longest: 74,
    },
];

impl Ending {
    pub fn material(&self) -> Material {
        // The names above are valid material signatures (tested).
        self.name.parse().unwrap_or(Material::KVK)
    }

    /// Looks an ending up by name, case-insensitive, with or without the
    /// `v` (`kqk`, `KQvK`).
    pub fn find(name: &str) -> Option<&'static Ending> {
        let want = name.to_ascii_uppercase().replace('V', "");
        ENDINGS
            .iter()
            .find(|e| e.name.to_ascii_uppercase().replace('V', "") == want)
    }
}

/// How far from the longest mate random positions are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// Share of the longest mate a position's mate should take.
    fn range(self) -> (f64, f64) {
        match self {
            Difficulty::Easy => (0.15, 0.45),
            Difficulty::Medium => (0.45, 0.75),
            Difficulty::Hard => (0.75, 1.01),
        }
    }
}

/// Which side the trainee plays in a random position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideChoice {
    White,
    Black,
    Random,
}

impl SideChoice {
    pub const ALL: [SideChoice; 3] = [SideChoice::White, SideChoice::Black, SideChoice::Random];

    pub fn name(self) -> &'static str {
        match self {
            SideChoice::White => "White",
            SideChoice::Black => "Black",
            SideChoice::Random => "random",
        }
    }
}

/// "mate in 12", "mated in 9", "draw", "checkmate" for the side to move
/// in the probed position.
pub fn describe(p: Probe) -> String {
    match p.wdl {
        Wdl::Win => format!("mate in {}", (p.dtm + 1) / 2),
        Wdl::Draw => "draw".to_string(),
        Wdl::Loss if p.dtm == 0 => "checkmated".to_string(),
        Wdl::Loss => format!("mated in {}", (-p.dtm) / 2),
    }
}

/// The mover's prospects after a move, from the probe of the position
/// after it (the opponent to move): "mate in 11", "checkmate", "draw",
/// "mated in 6".
fn describe_after(after: Probe) -> String {
    match after.wdl {
        Wdl::Loss if after.dtm == 0 => "checkmate".to_string(),
        Wdl::Loss => format!("mate in {}", (-after.dtm) / 2),
        Wdl::Draw => "draw".to_string(),
        Wdl::Win => format!("mated in {}", (after.dtm + 1) / 2),
    }
}

/// How a move compares with the table's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// As good as the best move (fastest win, longest resistance, a draw
    /// kept).
    Best,
    /// Still wins, but slower; or still loses, but faster.
    Slower,
    /// The result got worse: a win became a draw or loss, a draw a loss.
    Spoiled,
}

/// The trainer's judgement of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feedback {
    /// Half-move number of the move in the game (0 = first).
    pub ply: usize,
    pub san: String,
    pub verdict: Verdict,
    /// "mate in 12 -> mate in 11: best".
    pub text: String,
}

/// Judges a move: the mover's position was `before`; `after` is the
/// probe of the position after the move (the opponent to move); `best`
/// names the best moves.
pub fn judge(ply: usize, san: &str, before: Probe, after: Probe, best: &[String]) -> Feedback {
    // The value of the move from the mover's view, one ply longer.
    let mine = Probe {
        wdl: match after.wdl {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        },
        dtm: if after.dtm > 0 {
            -(after.dtm + 1)
        } else if after.dtm < 0 {
            -after.dtm + 1
        } else if after.wdl == Wdl::Loss {
            1 // mate on the board
        } else {
            0
        },
    };
    let verdict = if mine.wdl < before.wdl {
        Verdict::Spoiled
    } else if mine.goodness() >= before.goodness() {
        Verdict::Best
    } else {
        Verdict::Slower
    };
    let best_text = match best {
        [] => String::new(),
        [one] => one.clone(),
        [one, two] => format!("{one} or {two}"),
        [one, two, ..] => format!("{one}, {two}, ..."),
    };
    let how = match (verdict, before.wdl, mine.wdl) {
        (Verdict::Best, Wdl::Win, _) => "best".to_string(),
        (Verdict::Best, Wdl::Draw, _) => "holds the draw".to_string(),
        (Verdict::Best, Wdl::Loss, _) => "best defence".to_string(),
        (Verdict::Slower, Wdl::Win, _) => {
            let n = (mine.dtm - before.dtm) / 2;
            format!(
                "{} slower (best: {best_text})",
                if n == 1 {
                    "a move".to_string()
                } else {
                    format!("{n} moves")
                }
            )
        }
        (Verdict::Slower, _, _) => {
            let n = (mine.dtm - before.dtm).abs() / 2;
            format!(
                "gives in {} sooner (best: {best_text})",
                if n == 1 {
                    "a move".to_string()
                } else {
                    format!("{n} moves")
                }
            )
        }
        (Verdict::Spoiled, Wdl::Win, Wdl::Draw) => {
            format!("the win is gone ({best_text} kept it)")
        }
        (Verdict::Spoiled, Wdl::Win, _) => format!("the win is gone, you lose ({best_text} won)"),
        (Verdict::Spoiled, _, _) => format!("the draw is gone ({best_text} held)"),
    };
    Feedback {
        ply,
        san: san.to_string(),
        verdict,
        text: format!("{} -> {}: {how}", describe(before), describe_after(after)),
    }
}

/// Judges the trainee's move `m` from `before` (half-move `ply` of the
/// game) by the tables; `None` when they do not cover it.
pub fn judge_move(
    tb: &Tablebases,
    before: &Board,
    m: shakmaty::Move,
    ply: usize,
) -> Option<Feedback> {
    let after_board = before.play(m);
    let (b, a) = (probe(tb, before)?, probe(tb, &after_board)?);
    let best: Vec<String> = best_moves(tb, before)
        .unwrap_or_default()
        .iter()
        .map(|(mv, _)| before.san(*mv))
        .collect();
    let mut fb = judge(ply, &before.san(m), b, a, &best);
    if !after_board.in_check() && !crate::engine::has_legal_moves(&after_board) {
        fb.text = fb.text.replacen("-> draw:", "-> stalemate:", 1);
    }
    Some(fb)
}

/// The tables' reply among their `best` moves: when several hold a draw,
/// the one that leaves the trainee the most losing answers (a drawn
/// ending is practice only if it sets problems); else any, at random.
pub fn pick_reply(
    tb: &Tablebases,
    board: &Board,
    best: &[(shakmaty::Move, Probe)],
    rng: &mut Rng,
) -> shakmaty::Move {
    let mut pool: Vec<shakmaty::Move> = best.iter().map(|(m, _)| *m).collect();
    if best.len() > 1 && best[0].1.wdl == Wdl::Draw {
        let traps = |m: shakmaty::Move| {
            tb.best_moves(&board.play(m))
                .map_or(0, |v| v.iter().filter(|(_, p)| p.wdl == Wdl::Loss).count())
        };
        let scored: Vec<(shakmaty::Move, usize)> = pool.iter().map(|&m| (m, traps(m))).collect();
        let most = scored.iter().map(|x| x.1).max().unwrap_or(0);
        pool = scored
            .into_iter()
            .filter(|x| x.1 == most)
            .map(|x| x.0)
            .collect();
    }
    pool[rng.below(pool.len())]
}

/// A score for the eval bar and the hint: mate in `dtm` plies, or a draw.
pub fn probe_score(p: Probe) -> Score {
    match p.wdl {
        Wdl::Win => Score::mate_in(p.dtm.max(0) as usize),
        Wdl::Draw => Score::DRAW,
        Wdl::Loss => Score::mated_in((-p.dtm).max(0) as usize),
    }
}

/// The tables' value of `board`; bare kings are a draw.
pub fn probe(tb: &Tablebases, board: &Board) -> Option<Probe> {
    tb.probe(board).or_else(|| {
        (board.board().occupied().count() == 2).then_some(Probe {
            wdl: Wdl::Draw,
            dtm: 0,
        })
    })
}

/// The best moves of `board` by the tables (all that share the best
/// value), or `None` when a table is missing.
pub fn best_moves(tb: &Tablebases, board: &Board) -> Option<Vec<(shakmaty::Move, Probe)>> {
    let moves = tb.best_moves(board)?;
    let top = moves.first()?.1;
    Some(moves.into_iter().take_while(|(_, p)| *p == top).collect())
}

/// The line the tables play from `board`: best moves for both sides, at
/// most `max` plies.
pub fn table_line(tb: &Tablebases, board: &Board, max: usize) -> Vec<shakmaty::Move> {
    let mut b = board.clone();
    let mut line = Vec::new();
    while line.len() < max {
        let Some(m) = best_moves(tb, &b).and_then(|v| v.first().map(|x| x.0)) else {
            break;
        };
        line.push(m);
        b = b.play(m);
    }
    line
}

/// A random position of `ending` that the trainee (playing `side`) wins
/// with the move, its mate distance within the difficulty's range of the
/// longest. Gives the closest position found if none is in range after
/// many tries. `None` if the table is missing.
pub fn random_position(
    tb: &Tablebases,
    ending: &Ending,
    difficulty: Difficulty,
    side: Color,
    rng: &mut Rng,
) -> Option<(Board, Probe)> {
    let material = ending.material();
    tb.table(&material)?;
    let longest = f64::from(ending.longest * 2 - 1);
    let (lo, hi) = difficulty.range();
    let (lo, hi) = ((lo * longest).round() as i32, (hi * longest).round() as i32);
    let mut pieces = Vec::new();
    for color in [Color::White, Color::Black] {
        for role in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for _ in 0..material.count(color, role) {
                pieces.push(Piece { color, role });
            }
        }
    }
    let mut closest: Option<(i32, Chess, Probe)> = None;
    for _ in 0..400_000 {
        let mut board = shakmaty::Board::empty();
        let mut used = Bitboard::EMPTY;
        let mut place = |board: &mut shakmaty::Board, piece: Piece, rng: &mut Rng| -> bool {
            for _ in 0..16 {
                let sq = Square::new(rng.below(64) as u32);
                if used.contains(sq)
                    || (piece.role == Role::Pawn && matches!(sq.rank(), Rank::First | Rank::Eighth))
                {
                    continue;
                }
                used.add(sq);
                board.set_piece_at(sq, piece);
                return true;
            }
            false
        };
        let mut ok = place(&mut board, Color::White.king(), rng)
            && place(&mut board, Color::Black.king(), rng);
        for &p in &pieces {
            ok = ok && place(&mut board, p, rng);
        }
        if !ok {
            continue;
        }
        let setup = Setup {
            board,
            turn: Color::White,
            ..Setup::empty()
        };
        let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) else {
            continue;
        };
        let Some(p) = tb.probe_chess(&pos) else {
            continue;
        };
        if p.wdl != Wdl::Win {
            continue;
        }
        let miss = if p.dtm < lo {
            lo - p.dtm
        } else if p.dtm > hi {
            p.dtm - hi
        } else {
            0
        };
        if closest.as_ref().is_none_or(|c| miss < c.0) {
            closest = Some((miss, pos, p));
            if miss == 0 {
                break;
            }
        }
    }
    let (_, pos, p) = closest?;
    let pos = if side == Color::Black {
        let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
        setup.mirror();
        Chess::from_setup(setup, CastlingMode::Standard).ok()?
    } else {
        pos
    };
    Some((Board::from_chess(pos), p))
}

/// The tables ready for the trainer, shared with the background thread
/// that prepared them.
#[derive(Clone)]
pub struct Tables(pub Arc<Tablebases>);

impl std::ops::Deref for Tables {
    type Target = Tablebases;
    fn deref(&self) -> &Tablebases {
        &self.0
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({})", self.0.dir().display())
    }
}

/// Loads or generates what playing `materials` needs (tables of captures
/// and promotions included), reporting `(text, share done)` as it goes:
/// the share of all index entries to generate, and the time expected
/// (from the measured rate before the first table, then from the pace so
/// far).
pub fn prepare_tables(
    dir: Option<std::path::PathBuf>,
    materials: &[Material],
    progress: &mut dyn FnMut(String, f64),
) -> Result<Tablebases, String> {
    use crate::tablebase::{Event, duration_words, expected_time};
    let mut tb = Tablebases::open(dir).map_err(|e| e.to_string())?;
    let mut pace = Pace::default();
    let result = tb.ensure_many(materials, &mut |e| match e {
        Event::Loaded { material, .. } => {
            progress(format!("Loaded {material}"), pace.share());
        }
        Event::Invalid { material, error } => {
            progress(
                format!("{material}: {error}; generating it again"),
                pace.share(),
            );
        }
        Event::Planned { tables } => {
            pace.total = tables.iter().map(|t| t.1).sum();
            pace.tables = tables.len();
            pace.started = Some(std::time::Instant::now());
            let names: Vec<String> = tables.iter().map(|t| t.0.to_string()).collect();
            let what = if tables.len() == 1 {
                format!("Generating {}", names[0])
            } else {
                format!("Generating {} tables ({})", tables.len(), names.join(", "))
            };
            progress(format!("{what}: {}", expected_time(pace.total, None)), 0.0);
        }
        Event::Generating {
            material,
            positions,
        } => {
            pace.running.push((*material, *positions, 0));
            pace.started_tables += 1;
            pace.last = -1.0;
            progress(pace.text(*material, 0), pace.share());
        }
        Event::Level {
            material,
            ply,
            resolved,
        } => {
            if let Some(r) = pace.running.iter_mut().find(|r| r.0 == *material) {
                r.2 = (*resolved).min(r.1);
            }
            let share = pace.share();
            if (share - pace.last).abs() > 0.005 {
                pace.last = share;
                let left = pace
                    .left()
                    .map(|s| format!(", {} left", duration_words(s)))
                    .unwrap_or_default();
                progress(format!("{}{left}", pace.text(*material, *ply)), share);
            }
        }
        Event::Generated {
            material, seconds, ..
        } => {
            if let Some(i) = pace.running.iter().position(|r| r.0 == *material) {
                pace.done += pace.running.remove(i).1;
            }
            progress(
                format!("Generated {material} in {seconds:.1} s"),
                pace.share(),
            );
        }
        Event::Failed {
            material, error, ..
        } => {
            if let Some(i) = pace.running.iter().position(|r| r.0 == *material) {
                pace.done += pace.running.remove(i).1;
            }
            progress(format!("{error}"), pace.share());
        }
    });
    result.map_err(|e| e.to_string())?;
    Ok(tb)
}

/// How far generation has come, for [`prepare_tables`].
#[derive(Default)]
struct Pace {
    /// Index entries of every table to generate.
    total: u64,
    /// Entries of the tables finished.
    done: u64,
    /// Tables being generated: material, entries, positions decided.
    running: Vec<(Material, u64, u64)>,
    tables: usize,
    started_tables: usize,
    started: Option<std::time::Instant>,
    last: f64,
}

impl Pace {
    fn share(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let running: u64 = self.running.iter().map(|r| r.2).sum();
        ((self.done + running) as f64 / self.total as f64).clamp(0.0, 1.0)
    }

    /// Seconds left at the pace so far (once there is a pace to go by).
    fn left(&self) -> Option<f64> {
        let share = self.share();
        let elapsed = self.started?.elapsed().as_secs_f64();
        (share > 0.02 && elapsed > 1.0).then(|| elapsed * (1.0 - share) / share)
    }

    fn text(&self, material: Material, ply: u32) -> String {
        let of = if self.tables > 1 {
            format!(
                " (table {} of {})",
                self.started_tables.min(self.tables),
                self.tables
            )
        } else {
            String::new()
        };
        if ply == 0 {
            format!("Generating {material}{of}")
        } else {
            format!("Generating {material}{of}: depth {ply}")
        }
    }
}

pub use crate::ui::screens::editor::{Editor, validate};
pub(crate) mod draw;
mod lessons;
mod screen;
pub mod tables;

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(wdl: Wdl, dtm: i32) -> Probe {
        Probe { wdl, dtm }
    }

    #[test]
    fn ending_names_are_tables() {
        for e in ENDINGS {
            let m: Material = e.name.parse().expect(e.name);
            assert_eq!(m.to_string(), e.name);
        }
        assert_eq!(Ending::find("kbnk").map(|e| e.name), Some("KBNvK"));
        assert_eq!(Ending::find("KQvKR").map(|e| e.name), Some("KQvKR"));
        assert!(Ending::find("KNNvK").is_none());
    }

    #[test]
    fn verdicts_name_the_change_in_mate_distance() {
        let best = vec!["Qb6".to_string()];
        // Mate in 12 (23 plies); best leaves the opponent mated in 22.
        let f = judge(0, "Qb6", probe(Wdl::Win, 23), probe(Wdl::Loss, -22), &best);
        assert_eq!(f.verdict, Verdict::Best);
        assert_eq!(f.text, "mate in 12 -> mate in 11: best");
        let f = judge(0, "Qc7", probe(Wdl::Win, 23), probe(Wdl::Loss, -28), &best);
        assert_eq!(f.verdict, Verdict::Slower);
        assert_eq!(
            f.text,
            "mate in 12 -> mate in 14: 3 moves slower (best: Qb6)"
        );
        let f = judge(0, "Qd8", probe(Wdl::Win, 23), probe(Wdl::Draw, 0), &best);
        assert_eq!(f.verdict, Verdict::Spoiled);
        assert_eq!(f.text, "mate in 12 -> draw: the win is gone (Qb6 kept it)");
        let f = judge(0, "Qh7#", probe(Wdl::Win, 1), probe(Wdl::Loss, 0), &best);
        assert_eq!(f.verdict, Verdict::Best);
        assert_eq!(f.text, "mate in 1 -> checkmate: best");
        // Defending: mated in 5 (10 plies); the best keeps 9 plies.
        let f = judge(1, "Kd8", probe(Wdl::Loss, -10), probe(Wdl::Win, 9), &best);
        assert_eq!(
            (f.verdict, f.text.as_str()),
            (Verdict::Best, "mated in 5 -> mated in 5: best defence")
        );
        let f = judge(1, "Ke8", probe(Wdl::Loss, -10), probe(Wdl::Win, 3), &best);
        assert_eq!(f.verdict, Verdict::Slower);
        let f = judge(1, "Rd1", probe(Wdl::Draw, 0), probe(Wdl::Win, 7), &best);
        assert_eq!(f.verdict, Verdict::Spoiled);
        assert_eq!(f.text, "draw -> mated in 4: the draw is gone (Qb6 held)");
    }
}
