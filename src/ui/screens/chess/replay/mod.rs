//! Replay: a game file opened for stepping through. The state (which game,
//! where in its move tree, autoplay, the review), the file picker, and the
//! move list's layout with variations and comments (shared by the view and
//! the mouse).

pub(crate) mod draw;
mod retry;
mod review;
mod screen;

use crate::engine::{Board, Score};
use crate::game::library::{Library, Status};
use crate::game::movetree::{MoveTree, NodeId, nag_text};
use crate::game::pgn_read::ParsedGame;
use crate::game::review::{Judgement, MoveReview};
use crate::game::{Game, GameResult};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Autoplay delays to choose from with `+` / `-`.
pub const DELAYS: [Duration; 9] = [
    Duration::from_millis(100),
    Duration::from_millis(250),
    Duration::from_millis(500),
    Duration::from_millis(1000),
    Duration::from_millis(1500),
    Duration::from_millis(2000),
    Duration::from_millis(3000),
    Duration::from_millis(5000),
    Duration::from_millis(10000),
];
pub const DEFAULT_DELAY: usize = 3;

/// Time per position of the in-app game review.
pub const REVIEW_MOVETIME_MS: u64 = 300;

/// How far the review of the shown game has got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewState {
    Idle,
    Running { id: u64, done: usize, total: usize },
    Done,
    Cancelled { done: usize, total: usize },
}

pub struct Replay {
    pub library: Library,
    pub path: Option<PathBuf>,
    /// The game shown (index into the library).
    pub index: usize,
    pub parsed: ParsedGame,
    /// The node shown.
    pub cursor: NodeId,
    /// Autoplay: when the next move is due.
    pub autoplay: Option<Instant>,
    pub delay: usize,
    /// What each node's position is worth, White's view: from `[%eval]`
    /// comments, the review, and live analysis (by node id).
    pub evals: Vec<Option<Score>>,
    /// The review of each main-line move (by node id of the move).
    pub reviews: Vec<Option<MoveReview>>,
    pub review: ReviewState,
    /// Retry this side's mistakes when the running review is done.
    pub retry_after: Option<shakmaty::Color>,
    /// The background pass marking unreadable games is still going.
    pub checking: bool,
    /// The id of the file's opening: its background check's messages carry it.
    pub file_id: u64,
    /// Nodes up to here came from the file; later ones are moves the user
    /// tried.
    pub file_nodes: usize,
    /// Where the file's main line left the opening book: the node of the
    /// move that left it, and "last book move: 6.Re1; 6...b5 leaves the
    /// book" (for the review's summary and that move's notes).
    pub book_exit: Option<(NodeId, String)>,
    /// Where the file's main line left your repertoire: the node of the
    /// move that left it, and "7.Bc4 leaves your repertoire: you prepared
    /// 7.d4" (the review's summary and that move's notes).
    pub repertoire_exit: Option<(NodeId, String)>,
    /// The file's games that leave your repertoire (found by the
    /// background check), for the game list's mark.
    pub left_repertoire: std::collections::HashMap<usize, String>,
    /// The move-number box (a digit or the go-to key opens it).
    pub goto: Option<String>,
}

impl Replay {
    /// A replay of game `index` of `library` (already parsed), or of an
    /// empty game when it could not be read.
    pub fn new(
        library: Library,
        path: Option<PathBuf>,
        index: usize,
        parsed: ParsedGame,
    ) -> Replay {
        let mut r = Replay {
            library,
            path,
            index,
            parsed,
            cursor: 0,
            autoplay: None,
            delay: DEFAULT_DELAY,
            evals: Vec::new(),
            reviews: Vec::new(),
            review: ReviewState::Idle,
            retry_after: None,
            checking: false,
            file_id: 0,
            file_nodes: 0,
            book_exit: None,
            repertoire_exit: None,
            left_repertoire: Default::default(),
            goto: None,
        };
        r.reset_game_state();
        r
    }

    /// After a new game was put in `parsed`: back to its start, evaluations
    /// from the file's `[%eval]` comments, no review.
    pub fn reset_game_state(&mut self) {
        self.cursor = 0;
        self.file_nodes = self.parsed.tree.nodes.len();
        self.autoplay = None;
        let tree = &self.parsed.tree;
        self.evals = tree
            .nodes
            .iter()
            .map(|n| {
                n.comments
                    .iter()
                    .find_map(|c| crate::game::review::parse_eval_comment(c))
            })
            .collect();
        self.reviews = vec![None; tree.nodes.len()];
        self.review = ReviewState::Idle;
        let main = tree.main_line();
        let moves: Vec<shakmaty::Move> = main.iter().filter_map(|&id| tree.node(id).mv).collect();
        let start = tree.start.chess();
        self.book_exit = crate::game::openings::book_exit(start, &moves).and_then(|exit| {
            let node = *main.get(exit.first_out_ply - 1)?;
            Some((node, exit.describe(start, &moves)))
        });
    }

    /// Finds where the main line leaves your repertoire (`reps`).
    pub fn note_repertoire(&mut self, reps: &crate::ui::openings::Repertoires) {
        let tree = &self.parsed.tree;
        let main = tree.main_line();
        let moves: Vec<shakmaty::Move> = main.iter().filter_map(|&id| tree.node(id).mv).collect();
        let g = &self.parsed.game;
        let yours =
            crate::ui::openings::Repertoires::your_side(g.header("White"), g.header("Black"));
        self.repertoire_exit = reps
            .check(yours, tree.start.chess(), &moves)
            .and_then(|(_, d)| Some((*main.get(d.ply - 1)?, d.words())));
    }

    pub fn tree(&self) -> &MoveTree {
        &self.parsed.tree
    }

    pub fn delay(&self) -> Duration {
        DELAYS[self.delay.min(DELAYS.len() - 1)]
    }

    /// The file's main line, the start included (index = half-move); moves
    /// the user tried at its end are not part of it.
    pub fn main_nodes(&self) -> Vec<NodeId> {
        let mut v = vec![0];
        v.extend(self.file_main_line());
        v
    }

    /// The main line as the file has it (without moves the user added).
    pub fn file_main_line(&self) -> Vec<NodeId> {
        let mut line = self.tree().main_line();
        line.retain(|&id| id < self.file_nodes);
        line
    }

    /// A move the user tried (not from the file)?
    pub fn is_own(&self, id: NodeId) -> bool {
        id >= self.file_nodes
    }

    /// The game up to the cursor, with the file's headers.
    pub fn game_at_cursor(&self) -> Game {
        let tree = self.tree();
        let mut g = Game::new(tree.start.clone());
        g.headers = self.parsed.game.headers.clone();
        for id in tree.path(self.cursor) {
            if let Some(m) = tree.node(id).mv {
                let comment = tree.node(id).comments.first().cloned();
                g.push(m, comment);
            }
        }
        // The end of the game as the file records it, at the end of the
        // main line; elsewhere only what the rules say.
        let at_end = self.file_main_line().last().copied().unwrap_or(0) == self.cursor;
        g.ending = if at_end {
            self.parsed.game.ending.or_else(|| g.rule_ending(false))
        } else {
            g.rule_ending(false)
        };
        g
    }

    /// Evaluations along the path to the cursor, by half-move (White's view).
    pub fn path_evals(&self) -> Vec<Option<Score>> {
        let mut v = vec![self.evals.first().copied().flatten()];
        for id in self.tree().path(self.cursor) {
            v.push(self.evals.get(id).copied().flatten());
        }
        v
    }

    /// The node at half-move `ply` on the path to the cursor.
    pub fn node_at_ply(&self, ply: usize) -> Option<NodeId> {
        if ply == 0 {
            return Some(0);
        }
        self.tree().path(self.cursor).get(ply - 1).copied()
    }

    /// The clock each side had after its last move up to the cursor
    /// (`[%clk]` comments), White's then Black's.
    pub fn clocks(&self) -> (Option<Duration>, Option<Duration>) {
        let tree = self.tree();
        let mut white = None;
        let mut black = None;
        for id in tree.path(self.cursor) {
            let Some(t) = tree
                .node(id)
                .comments
                .iter()
                .find_map(|c| crate::ui::clock::parse_pgn_clock(c))
            else {
                continue;
            };
            match tree.move_number(id).1 {
                shakmaty::Color::White => white = Some(t),
                shakmaty::Color::Black => black = Some(t),
            }
        }
        (white, black)
    }

    /// The clock `color` had after its last move up to the cursor, as
    /// shown ("1:00"), if the file records it.
    pub fn clock_text(&self, color: shakmaty::Color) -> Option<String> {
        let (w, b) = self.clocks();
        match color {
            shakmaty::Color::White => w,
            shakmaty::Color::Black => b,
        }
        .map(crate::ui::clock::format_clock)
    }

    /// Counts of judgements per side: (inaccuracies, mistakes, blunders).
    pub fn judgement_counts(&self) -> [(usize, usize, usize); 2] {
        let mut out = [(0, 0, 0); 2];
        for (id, r) in self.reviews.iter().enumerate() {
            let Some(j) = r.as_ref().and_then(|r| r.judgement) else {
                continue;
            };
            let side = match self.tree().move_number(id).1 {
                shakmaty::Color::White => 0,
                shakmaty::Color::Black => 1,
            };
            match j {
                Judgement::Inaccuracy => out[side].0 += 1,
                Judgement::Mistake => out[side].1 += 1,
                Judgement::Blunder => out[side].2 += 1,
            }
        }
        out
    }

    /// "12/40 games readable" style summary of the file.
    pub fn file_summary(&self) -> String {
        let n = self.library.entries.len();
        let bad = self
            .library
            .entries
            .iter()
            .filter(|e| matches!(e.status, Status::Bad { .. }))
            .count();
        let mut s = format!("{n} game{}", if n == 1 { "" } else { "s" });
        if bad > 0 {
            s.push_str(&format!(", {bad} unreadable"));
        }
        if self.checking {
            s.push_str(", checking…");
        }
        s
    }
}

/// An empty game (the start position) for a file whose game could not be read.
pub fn empty_game(start: Board) -> ParsedGame {
    ParsedGame {
        game: Game::new(start.clone()),
        tree: MoveTree::new(start),
        warnings: Vec::new(),
    }
}

/// Text of a result for lists.
pub fn result_short(r: Option<GameResult>) -> &'static str {
    match r {
        Some(GameResult::WhiteWins) => "1-0",
        Some(GameResult::BlackWins) => "0-1",
        Some(GameResult::Draw) => "½-½",
        None => "*",
    }
}

/// A comment without its `[%...]` commands (clock, eval, arrows), trimmed.
pub fn comment_text(c: &str) -> String {
    let mut out = String::new();
    let mut rest = c;
    while let Some(start) = rest.find("[%") {
        out.push_str(&rest[..start]);
        match rest[start..].find(']') {
            Some(end) => rest = &rest[start + end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

// ----------------------------------------------------------------------
// The move list.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// A move (clickable).
    Move(NodeId),
    /// Words of a comment.
    Comment,
    /// The game's result at the end of the main line.
    Result,
}

/// One word of the move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    pub text: String,
    pub kind: TokKind,
    /// 0 on the main line, 1 inside a variation, and so on.
    pub depth: usize,
}

/// The move tree as words: numbered moves with NAGs and review marks,
/// variations in parentheses after the move they replace, comments.
pub fn tokens(tree: &MoveTree, reviews: &[Option<MoveReview>], result: Option<&str>) -> Vec<Tok> {
    let mut out = Vec::new();
    for c in &tree.node(0).comments {
        push_comment(&mut out, c, 0);
    }
    if let Some(&first) = tree.node(0).children.first() {
        emit_line(tree, reviews, first, 0, &mut out);
    }
    if let Some(r) = result {
        out.push(Tok {
            text: r.to_string(),
            kind: TokKind::Result,
            depth: 0,
        });
    }
    out
}

fn push_comment(out: &mut Vec<Tok>, c: &str, depth: usize) {
    let text = comment_text(c);
    for w in text.split_whitespace() {
        out.push(Tok {
            text: w.to_string(),
            kind: TokKind::Comment,
            depth,
        });
    }
}

fn move_text(
    tree: &MoveTree,
    reviews: &[Option<MoveReview>],
    id: NodeId,
    numbered: bool,
) -> String {
    let n = tree.node(id);
    let (number, color) = tree.move_number(id);
    let mut s = match color {
        shakmaty::Color::White => format!("{number}.{}", n.san),
        shakmaty::Color::Black if numbered => format!("{number}...{}", n.san),
        shakmaty::Color::Black => n.san.clone(),
    };
    let mut nags: Vec<u8> = n.nags.clone();
    if let Some(j) = reviews
        .get(id)
        .and_then(|r| r.as_ref())
        .and_then(|r| r.judgement)
        && !nags.iter().any(|&g| (1..=6).contains(&g))
    {
        nags.insert(0, j.nag());
    }
    for g in nags {
        s.push_str(&nag_text(g));
    }
    s
}

/// Emits `first` and the line that continues from it; the alternatives to
/// each main move follow it in parentheses.
fn emit_line(
    tree: &MoveTree,
    reviews: &[Option<MoveReview>],
    first: NodeId,
    depth: usize,
    out: &mut Vec<Tok>,
) {
    let mut id = first;
    let mut force = true;
    loop {
        out.push(Tok {
            text: move_text(tree, reviews, id, force),
            kind: TokKind::Move(id),
            depth,
        });
        force = false;
        for c in &tree.node(id).comments {
            let before = out.len();
            push_comment(out, c, depth);
            force |= out.len() > before;
        }
        if let Some(parent) = tree.node(id).parent {
            let siblings = &tree.node(parent).children;
            if siblings.first() == Some(&id) && siblings.len() > 1 {
                for &alt in &siblings[1..] {
                    let start = out.len();
                    emit_line(tree, reviews, alt, depth + 1, out);
                    if let Some(t) = out.get_mut(start) {
                        t.text.insert(0, '(');
                    }
                    if let Some(t) = out.last_mut() {
                        t.text.push(')');
                    }
                }
                force = true;
            }
        }
        match tree.node(id).children.first() {
            Some(&next) => id = next,
            None => break,
        }
    }
}

/// A word placed on a row of the move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub x: u16,
    pub tok: Tok,
}

/// Wraps the words into rows of `width` cells. Variations at the top level
/// start on a row of their own, indented.
pub fn wrap(tokens: &[Tok], width: u16) -> Vec<Vec<Placed>> {
    let width = width.max(8) as usize;
    let mut rows: Vec<Vec<Placed>> = vec![Vec::new()];
    let mut x = 0usize;
    let mut prev_depth = 0;
    for t in tokens {
        let len = t.text.chars().count();
        // A variation leaving or entering the main line breaks the row.
        let breaks = (t.depth > 0) != (prev_depth > 0) && x > 0;
        prev_depth = t.depth;
        let indent = if t.depth > 0 { 2 } else { 0 };
        if breaks || (x > indent && x + 1 + len > width) {
            rows.push(Vec::new());
            x = indent;
        } else if x > 0 {
            x += 1;
        } else {
            x = indent;
        }
        let text = if len > width - x.min(width - 1) {
            t.text.chars().take(width - x.min(width - 1)).collect()
        } else {
            t.text.clone()
        };
        let n = text.chars().count();
        if let Some(row) = rows.last_mut() {
            row.push(Placed {
                x: x as u16,
                tok: Tok {
                    text,
                    kind: t.kind,
                    depth: t.depth,
                },
            });
        }
        x += n;
    }
    if rows.last().is_some_and(|r| r.is_empty()) {
        rows.pop();
    }
    rows
}

/// The row holding node `id`, if shown.
pub fn row_of(rows: &[Vec<Placed>], id: NodeId) -> Option<usize> {
    rows.iter()
        .position(|r| r.iter().any(|p| p.tok.kind == TokKind::Move(id)))
}

/// First row to show so that `focus` is visible in `visible` rows (kept a
/// third of the way down once the list scrolls).
pub fn first_row(total: usize, focus: Option<usize>, visible: usize) -> usize {
    if total <= visible || visible == 0 {
        return 0;
    }
    let Some(f) = focus else { return 0 };
    f.saturating_sub(visible / 3).min(total - visible)
}

// ----------------------------------------------------------------------
// The file picker.

/// A game file the picker offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEntry {
    pub path: PathBuf,
    /// "saved" (the data directory) or "sample" (the repository's games/).
    pub place: &'static str,
    pub size: u64,
    pub modified: Option<std::time::SystemTime>,
}

#[derive(Clone, Debug)]
pub struct FilePicker {
    pub files: Vec<FileEntry>,
    pub selected: usize,
    /// Typed text: filters by name, or a path to open.
    pub filter: String,
}

impl FilePicker {
    /// Lists game files: the user's saved games (newest first), then the
    /// samples.
    pub fn scan(dirs: &[(PathBuf, &'static str)]) -> FilePicker {
        let mut files = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (dir, place) in dirs {
            let Ok(rd) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut here: Vec<FileEntry> = rd
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.path())
                .filter(|p| is_game_file(p))
                // An empty file is a game reserved before its first move.
                .filter(|p| !crate::ui::gamefile::is_empty_reservation(p))
                .filter(|p| seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())))
                .map(|p| {
                    let meta = std::fs::metadata(&p).ok();
                    FileEntry {
                        size: meta.as_ref().map_or(0, |m| m.len()),
                        modified: meta.and_then(|m| m.modified().ok()),
                        path: p,
                        place,
                    }
                })
                .collect();
            if *place == "saved" {
                here.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.path.cmp(&b.path)));
            } else {
                here.sort_by(|a, b| a.path.cmp(&b.path));
            }
            files.extend(here);
        }
        FilePicker {
            files,
            selected: 0,
            filter: String::new(),
        }
    }

    /// The files matching the filter.
    pub fn shown(&self) -> Vec<&FileEntry> {
        let f = self.filter.to_lowercase();
        self.files
            .iter()
            .filter(|e| {
                f.is_empty()
                    || e.path
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy().to_lowercase().contains(&f))
            })
            .collect()
    }

    /// What Enter opens: the selected file, or the typed path when it names
    /// a file.
    pub fn choice(&self) -> Option<PathBuf> {
        let typed = Path::new(self.filter.trim());
        if !self.filter.trim().is_empty() && typed.is_file() {
            return Some(typed.to_path_buf());
        }
        self.shown().get(self.selected).map(|e| e.path.clone())
    }
}

/// Files the picker lists: PGN, move-history and move-list files.
pub fn is_game_file(p: &Path) -> bool {
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        matches!(
            e.to_ascii_lowercase().as_str(),
            "pgn" | "bpgn" | "history" | "txt" | "moves"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pgn_read::read_games_full;

    fn parsed(pgn: &str) -> ParsedGame {
        match read_games_full(pgn).into_iter().next() {
            Some(Ok(g)) => g,
            other => panic!("test PGN does not read: {other:?}"),
        }
    }

    #[test]
    fn move_list_words_with_variations_and_comments() {
        let p = parsed("1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3! Nc6 *");
        let toks = tokens(&p.tree, &[], Some("*"));
        let words: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            words,
            [
                "1.e4", "best", "by", "test", "1...e5", "(1...c5", "2.Nf3", "(2.c3)", "2...d6)",
                "2.Nf3!", "Nc6", "*"
            ]
        );
        assert_eq!(toks[5].depth, 1);
        assert_eq!(toks[7].depth, 2);
        // Every move is clickable and leads to its own node.
        let moves = toks
            .iter()
            .filter(|t| matches!(t.kind, TokKind::Move(_)))
            .count();
        assert_eq!(moves, p.tree.move_count());
    }

    #[test]
    fn wrapping_keeps_words_and_breaks_at_variations() {
        let p = parsed("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *");
        let rows = wrap(&tokens(&p.tree, &[], None), 20);
        for r in &rows {
            let last = r.last().expect("no empty rows");
            assert!(last.x as usize + last.tok.text.chars().count() <= 20);
        }
        // The variation sits on its own indented row.
        assert_eq!(rows[1][0].tok.text, "(1...c5");
        assert_eq!(rows[1][0].x, 2);
        assert!(rows[2][0].tok.text.starts_with("2.Nf3"));
        let c5 = p.tree.node(p.tree.main_line()[0]).children[1];
        assert_eq!(row_of(&rows, c5), Some(1));
        assert_eq!(first_row(100, Some(50), 10), 47);
        assert_eq!(first_row(100, Some(99), 10), 90);
        assert_eq!(first_row(5, Some(4), 10), 0);
    }

    #[test]
    fn review_marks_and_commands_in_comments() {
        assert_eq!(
            comment_text("[%clk 0:01:02] Good [%eval 0.3] move"),
            "Good move"
        );
        assert_eq!(comment_text("[%clk 0:01:02]"), "");
        assert_eq!(comment_text("broken [%eval"), "broken");
        let p = parsed("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0");
        let mut reviews = vec![None; p.tree.nodes.len()];
        let nf6 = p.tree.main_line()[5];
        reviews[nf6] = Some(MoveReview {
            ply: 5,
            before: Score(0),
            after: Score::mated_in(1),
            best: None,
            best_line: Vec::new(),
            depth: 10,
            judgement: Some(Judgement::Blunder),
            loss: 0.5,
            reason: None,
        });
        let toks = tokens(&p.tree, &reviews, None);
        assert!(toks.iter().any(|t| t.text == "Nf6??"), "{toks:?}");
    }

    #[test]
    fn clocks_and_game_at_cursor() {
        let p = parsed(
            "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 {[%clk 0:05:00]} e5 {[%clk 0:04:58]} 2. Qh5 {[%clk 0:04:50]} Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        );
        let start = p.tree.start.clone();
        let lib = Library::from_text("t.pgn".into(), String::new(), &mut |_| {});
        let mut r = Replay::new(lib, None, 0, p);
        assert_eq!(r.clocks(), (None, None));
        r.cursor = r.tree().main_line()[2];
        assert_eq!(
            r.clocks(),
            (
                Some(Duration::from_secs(290)),
                Some(Duration::from_secs(298))
            )
        );
        let g = r.game_at_cursor();
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.header("White"), Some("A"));
        assert!(g.ending.is_none());
        r.cursor = *r.tree().main_line().last().expect("moves");
        let g = r.game_at_cursor();
        assert_eq!(g.ending.map(|e| e.result), Some(GameResult::WhiteWins));
        assert_eq!(r.path_evals().len(), 8);
        assert_eq!(empty_game(start).tree.move_count(), 0);
    }

    #[test]
    fn file_picker_lists_game_files() {
        let dir = std::env::temp_dir().join(format!("kibitz-picker-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        for f in ["a.pgn", "b.history", "notes.md", "c.PGN"] {
            std::fs::write(dir.join(f), "1. e4 *").expect("write");
        }
        let mut p = FilePicker::scan(&[(dir.clone(), "sample"), (dir.clone(), "saved")]);
        let names: Vec<String> = p
            .files
            .iter()
            .map(|e| {
                e.path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(names, ["a.pgn", "b.history", "c.PGN"], "listed once each");
        p.filter = "hist".into();
        assert_eq!(p.shown().len(), 1);
        assert_eq!(p.choice(), Some(dir.join("b.history")));
        p.filter = dir.join("a.pgn").display().to_string();
        assert_eq!(p.choice(), Some(dir.join("a.pgn")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
