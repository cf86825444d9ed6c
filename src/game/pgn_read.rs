//! PGN import: games read with `pgn-reader` into [`Game`](super::Game).
//!
//! Each game is read on its own: a bad game gives an error naming the game
//! (and the move), and reading goes on with the next one. Tags are kept in
//! order as headers (`SetUp`/`FEN` become the start position instead), the
//! main line is kept with its comments, variations and NAGs are dropped.
//!
//! pgn-reader silently skips tokens it cannot read as a move, so each game's
//! text is scanned once more for such tokens: `Nf9`, a move cut off at the
//! end of a truncated file, or binary junk are errors, not missing moves.

use super::movetree::{MoveTree, NodeId};
use super::{Ending, Game, GameResult, Termination};
use crate::engine::Board;
use crate::game::notation::{MoveInputError, parse_move};
use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position};
use std::io::{Cursor, Seek};
use std::ops::ControlFlow;

/// Why a game could not be read. `game` counts from 1 in the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("no game found in the PGN text")]
    NoGame,
    #[error("game {game}: bad FEN tag \"{fen}\": {reason}")]
    BadFen {
        game: usize,
        fen: String,
        reason: String,
    },
    #[error("game {game}: the SetUp tag is \"1\" but there is no FEN tag")]
    MissingFen { game: usize },
    #[error("game {game}: variant \"{variant}\" is not supported (only standard chess)")]
    UnsupportedVariant { game: usize, variant: String },
    /// A move that is illegal, ambiguous or not a move at all; `number` and
    /// `white` locate it (`14.` or `14...`).
    #[error("game {game}, move {number}{} {san}: {reason}", dots(.white))]
    BadMove {
        game: usize,
        number: u32,
        white: bool,
        san: String,
        reason: String,
        /// Main-line moves before it (to find it in the text).
        ply: usize,
    },
    /// Broken structure: unterminated comment or tag, missing result.
    #[error("game {game}: {reason}")]
    Malformed { game: usize, reason: String },
}

impl PgnError {
    /// The line (from 1) of `text`, one game's text, the error points at:
    /// the bad move, the FEN tag, or the game's first line.
    pub fn line_in(&self, text: &str) -> usize {
        let at = match self {
            PgnError::BadMove { ply, .. } => main_line_move_offset(text.as_bytes(), *ply),
            PgnError::BadFen { .. } | PgnError::MissingFen { .. } => {
                text.find("[FEN").or_else(|| text.find("[SetUp"))
            }
            PgnError::UnsupportedVariant { .. } => text.find("[Variant"),
            _ => None,
        };
        let bytes = text.as_bytes();
        at.map_or(1, |at| {
            bytes[..at.min(bytes.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1
        })
    }

    /// The game (counting from 1) the error is about.
    pub fn game(&self) -> Option<usize> {
        match self {
            PgnError::NoGame => None,
            PgnError::BadFen { game, .. }
            | PgnError::MissingFen { game }
            | PgnError::UnsupportedVariant { game, .. }
            | PgnError::BadMove { game, .. }
            | PgnError::Malformed { game, .. } => Some(*game),
        }
    }
}

fn dots(white: &bool) -> &'static str {
    if *white { "." } else { "..." }
}

/// A game read with everything in it: the main line as a [`Game`], the
/// whole tree with variations, NAGs and comments, and what had to be left
/// out (a broken variation is cut, the game is kept).
#[derive(Clone, Debug)]
pub struct ParsedGame {
    pub game: Game,
    pub tree: MoveTree,
    pub warnings: Vec<String>,
}

/// All games in a PGN text, each parsed independently (one bad game does not stop the others).
pub fn read_games(text: &str) -> Vec<Result<Game, PgnError>> {
    read_games_full(text)
        .into_iter()
        .map(|r| r.map(|p| p.game))
        .collect()
}

/// [`read_games`] with variations, NAGs and all comments kept.
pub fn read_games_full(text: &str) -> Vec<Result<ParsedGame, PgnError>> {
    let bytes = text.as_bytes();
    let mut reader = Reader::build(Cursor::new(bytes))
        .set_supported_tag_line_length(MAX_TAG_LINE)
        .finish();
    let mut visitor = GameVisitor { games: 0 };
    // Each game's outcome and where its text starts.
    let mut read: Vec<(Result<ParsedGame, Failure>, usize)> = Vec::new();
    let mut last_start = None;
    loop {
        // `has_more` also finishes skipping a game the visitor gave up on,
        // so the position is then the start of the next game.
        if !matches!(reader.has_more(), Ok(true)) {
            break;
        }
        let Ok(start) = reader.stream_position() else {
            break;
        };
        let start = start as usize;
        if last_start.is_some_and(|s| start <= s) {
            break; // No progress: never loop forever on odd input.
        }
        last_start = Some(start);
        match reader.read_game(&mut visitor) {
            Ok(Some(outcome)) => read.push((outcome, start)),
            Ok(None) => break,
            Err(e) => {
                // Unterminated tag or comment: this game is lost; skip what
                // is left of it so its remains are not taken for a game.
                let game = visitor.games;
                let reason = format!("{e} (is the text cut off?)");
                read.push((
                    Err(Failure::new(PgnError::Malformed { game, reason })),
                    start,
                ));
                if reader.skip_game().is_err() {
                    break;
                }
            }
        }
    }
    let starts: Vec<usize> = read.iter().map(|(_, start)| *start).collect();
    let mut out = Vec::with_capacity(read.len());
    for (i, (outcome, start)) in read.into_iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(bytes.len());
        let span = bytes.get(start..end).unwrap_or_default();
        let game_number = i + 1;
        out.push(match outcome {
            Ok(parsed) => match unreadable_token(span) {
                Some((ply, token)) => {
                    let start = Start::of(parsed.game.start().chess());
                    Err(not_a_move(game_number, start, ply, &token))
                }
                None => Ok(parsed),
            },
            // A skipped token before the failing move explains it better
            // (the moves after a skipped one are off by a ply).
            Err(failure) => match (failure.at, unreadable_token(span)) {
                (Some((ply, start)), Some((skip_ply, token))) if skip_ply <= ply => {
                    Err(not_a_move(game_number, start, skip_ply, &token))
                }
                _ => Err(failure.error),
            },
        });
    }
    out
}

/// The first game; error when there is none.
pub fn read_game(text: &str) -> Result<Game, PgnError> {
    read_games(text)
        .into_iter()
        .next()
        .unwrap_or(Err(PgnError::NoGame))
}

/// Longest tag line read in one piece (pgn-reader's default is 255 bytes; a
/// longer line would be cut and its rest read as another game).
const MAX_TAG_LINE: usize = 4096;

/// A game that could not be read, and where (ply and start position) when
/// the problem is in the moves.
struct Failure {
    at: Option<(usize, Start)>,
    error: PgnError,
}

impl Failure {
    fn new(error: PgnError) -> Failure {
        Failure { at: None, error }
    }
}

/// Where a game's move numbering starts.
#[derive(Clone, Copy)]
struct Start {
    fullmoves: u32,
    turn: Color,
}

impl Start {
    fn of(pos: &Chess) -> Start {
        Start {
            fullmoves: pos.fullmoves().get(),
            turn: pos.turn(),
        }
    }
}

/// Move number and side for the `ply`-th move (from 0) after `start`.
fn move_label(start: Start, ply: usize) -> (u32, bool) {
    let offset = ply + usize::from(start.turn == Color::Black);
    let number = u32::try_from(offset / 2)
        .unwrap_or(u32::MAX)
        .saturating_add(start.fullmoves);
    (number, offset.is_multiple_of(2))
}

fn bad_move(game: usize, start: Start, ply: usize, san: String, reason: String) -> PgnError {
    let (number, white) = move_label(start, ply);
    PgnError::BadMove {
        game,
        number,
        white,
        san,
        reason,
        ply,
    }
}

fn not_a_move(game: usize, start: Start, ply: usize, token: &str) -> PgnError {
    bad_move(game, start, ply, shown(token), "not a move".to_string())
}

/// Text from the file, safe and short enough for a message.
fn shown(text: &str) -> String {
    shown_up_to(text, 24)
}

fn shown_up_to(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

struct GameVisitor {
    /// Games begun so far (the current game's number).
    games: usize,
}

struct Tags {
    game: usize,
    headers: Vec<(String, String)>,
    fen: Option<String>,
    setup: bool,
    variant: Option<String>,
    /// Any tag at all was read (FEN and SetUp included).
    tagged: bool,
}

struct Movetext {
    game: usize,
    tagged: bool,
    headers: Vec<(String, String)>,
    start: Board,
    pos: Chess,
    moves: Vec<Move>,
    /// Comments after each move.
    comments: Vec<Vec<String>>,
    /// Comments before the first move.
    leading: Vec<String>,
    /// A comment longer than the reader's buffer, arriving in pieces.
    partial: Vec<u8>,
    outcome: Option<Outcome>,
    /// Everything, variations included; `cur` is where the next move goes
    /// and `pos` the position there (the main line's while `frames` is
    /// empty).
    tree: MoveTree,
    cur: NodeId,
    /// The position at each tree node.
    positions: Vec<Chess>,
    /// Open variations: where to go back to at their `)`.
    frames: Vec<Frame>,
    /// Depth of a variation being skipped after a bad move in it.
    broken: Option<usize>,
    warnings: Vec<String>,
    /// A variation just opened, no move in it yet: its comments so far
    /// ("{Also good is} 2. Bc4") belong to its first move.
    fresh: bool,
    before: Vec<String>,
}

enum Frame {
    /// A variation being read; back to this node at its end.
    Open(NodeId),
    /// A variation pgn-reader skips for us.
    Skipped,
}

impl Movetext {
    /// Plays a legal move at the current node (a new node, or the existing
    /// one with that move).
    fn add_move(&mut self, m: Move) {
        let san = shakmaty::san::SanPlus::from_move(self.pos.clone(), m).to_string();
        let before = self.tree.nodes.len();
        let id = self.tree.add_with_san(self.cur, m, san);
        self.pos.play_unchecked(m);
        if id == before {
            self.positions.push(self.pos.clone());
        }
        self.cur = id;
    }

    fn fail(&self, ply: usize, san: String, reason: String) -> Failure {
        Failure {
            at: Some((ply, Start::of(self.start.chess()))),
            error: bad_move(self.game, Start::of(self.start.chess()), ply, san, reason),
        }
    }
}

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<ParsedGame, Failure>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(Tags {
            game: self.games,
            headers: Vec::new(),
            fen: None,
            setup: false,
            variant: None,
            tagged: false,
        })
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let name = String::from_utf8_lossy(name).trim().to_string();
        let value = value.decode_utf8_lossy().into_owned();
        tags.tagged = true;
        match name.as_str() {
            "" => {}
            "FEN" => tags.fen = Some(value),
            "SetUp" => tags.setup = value.trim() == "1",
            _ => {
                if name == "Variant" {
                    tags.variant = Some(value.clone());
                }
                push_header(&mut tags.headers, name, value);
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let game = tags.game;
        let mut chess960 = false;
        if let Some(variant) = tags.variant {
            let v = variant.trim().to_ascii_lowercase();
            match v.as_str() {
                "" | "standard" | "chess" | "from position" => {}
                // Fischer random: the same rules but castling, which
                // shakmaty plays in its Chess960 mode.
                "chess960" | "chess 960" | "960" | "fischerandom" | "fischerrandom"
                | "fischer random" | "fischer-random" => chess960 = true,
                _ => {
                    return ControlFlow::Break(Err(Failure::new(PgnError::UnsupportedVariant {
                        game,
                        variant: shown(&variant),
                    })));
                }
            }
        }
        let parse = if chess960 {
            Board::from_fen_960
        } else {
            Board::from_fen
        };
        let start = match tags.fen {
            Some(fen) => match parse(&fen) {
                Ok(board) => board,
                Err(e) => {
                    return ControlFlow::Break(Err(Failure::new(PgnError::BadFen {
                        game,
                        fen: shown_up_to(&fen, 100),
                        reason: e.to_string(),
                    })));
                }
            },
            None if tags.setup => {
                return ControlFlow::Break(Err(Failure::new(PgnError::MissingFen { game })));
            }
            None => Board::startpos(),
        };
        ControlFlow::Continue(Movetext {
            game,
            tagged: tags.tagged,
            headers: tags.headers,
            pos: start.chess().clone(),
            positions: vec![start.chess().clone()],
            tree: MoveTree::new(start.clone()),
            cur: 0,
            frames: Vec::new(),
            broken: None,
            warnings: Vec::new(),
            fresh: false,
            before: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            leading: Vec::new(),
            partial: Vec::new(),
            outcome: None,
        })
    }

    fn san(
        &mut self,
        movetext: &mut Self::Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Self::Output> {
        if movetext.broken.is_some() {
            return ControlFlow::Continue(());
        }
        let depth = movetext.frames.len();
        let ply = movetext.moves.len();
        if depth == 0
            && let Some(outcome) = movetext.outcome
        {
            let reason = format!(
                "a move after the result {outcome} (is a blank line missing between two games?)"
            );
            return ControlFlow::Break(Err(movetext.fail(ply, san_plus.to_string(), reason)));
        }
        match resolve_san(&movetext.pos, san_plus.san) {
            Ok(m) => {
                movetext.add_move(m);
                movetext.fresh = false;
                if !movetext.before.is_empty() {
                    let cur = movetext.cur;
                    let before = std::mem::take(&mut movetext.before);
                    movetext.tree.nodes[cur].comments.splice(0..0, before);
                }
                if depth == 0 {
                    movetext.moves.push(m);
                    movetext.comments.push(Vec::new());
                }
                ControlFlow::Continue(())
            }
            Err(reason) if depth == 0 => {
                ControlFlow::Break(Err(movetext.fail(ply, san_plus.to_string(), reason)))
            }
            Err(reason) => {
                // A bad move in a variation cuts the variation, not the game.
                let (number, white) = move_label(
                    Start::of(movetext.start.chess()),
                    movetext.tree.ply(movetext.cur),
                );
                movetext.warnings.push(format!(
                    "a variation was cut at {number}{} {}: {reason}",
                    dots(&white),
                    shown(&san_plus.to_string())
                ));
                movetext.broken = Some(depth);
                ControlFlow::Continue(())
            }
        }
    }

    fn nag(
        &mut self,
        movetext: &mut Self::Movetext,
        nag: pgn_reader::Nag,
    ) -> ControlFlow<Self::Output> {
        if movetext.broken.is_none() && movetext.cur != 0 {
            let cur = movetext.cur;
            movetext.tree.nodes[cur].nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        movetext: &mut Self::Movetext,
    ) -> ControlFlow<Self::Output, pgn_reader::Skip> {
        // A variation replaces the move just played: it starts from the
        // position before it.
        let parent = movetext.tree.node(movetext.cur).parent;
        match (movetext.broken, parent) {
            (None, Some(parent)) => {
                movetext.frames.push(Frame::Open(movetext.cur));
                movetext.cur = parent;
                movetext.pos = movetext.positions[parent].clone();
                movetext.fresh = true;
                ControlFlow::Continue(pgn_reader::Skip(false))
            }
            _ => {
                movetext.frames.push(Frame::Skipped);
                ControlFlow::Continue(pgn_reader::Skip(true))
            }
        }
    }

    fn end_variation(&mut self, movetext: &mut Self::Movetext) -> ControlFlow<Self::Output> {
        let depth = movetext.frames.len();
        // A variation of comments only: they stay with the move before.
        let cur = movetext.cur;
        let before = std::mem::take(&mut movetext.before);
        movetext.tree.nodes[cur].comments.extend(before);
        movetext.fresh = false;
        if let Some(Frame::Open(back)) = movetext.frames.pop() {
            if movetext.broken == Some(depth) {
                movetext.broken = None;
            }
            movetext.cur = back;
            movetext.pos = movetext.positions[back].clone();
        }
        ControlFlow::Continue(())
    }

    fn partial_comment(
        &mut self,
        movetext: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        movetext.partial.extend_from_slice(comment.as_bytes());
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let mut bytes = std::mem::take(&mut movetext.partial);
        bytes.extend_from_slice(comment.as_bytes());
        let text = String::from_utf8_lossy(&bytes)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !text.is_empty() && movetext.broken.is_none() && movetext.fresh {
            movetext.before.push(text);
            return ControlFlow::Continue(());
        }
        if !text.is_empty() && movetext.broken.is_none() {
            let cur = movetext.cur;
            movetext.tree.nodes[cur].comments.push(text.clone());
            if movetext.frames.is_empty() {
                match movetext.comments.last_mut() {
                    Some(after) => after.push(text),
                    None => movetext.leading.push(text),
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        movetext: &mut Self::Movetext,
        outcome: Outcome,
    ) -> ControlFlow<Self::Output> {
        // A result inside a variation (some programs write one) is not the
        // game's.
        if movetext.frames.is_empty() {
            movetext.outcome = Some(outcome);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        finish(movetext)
    }
}

fn push_header(headers: &mut Vec<(String, String)>, name: String, value: String) {
    match headers.iter_mut().find(|(k, _)| *k == name) {
        Some(h) => h.1 = value,
        None => headers.push((name, value)),
    }
}

/// A SAN from the file as a legal move, or why not. Strict SAN first; then
/// the lenient reading of typed moves (a capture without `x`, a promotion
/// without the piece), which also explains an illegal move.
fn resolve_san(pos: &Chess, san: San) -> Result<Move, String> {
    match san {
        San::Null => return Err("null moves are not supported".to_string()),
        San::Put { .. } => return Err("piece drops are not supported".to_string()),
        San::Normal { .. } | San::Castle(_) => {}
    }
    if let Ok(m) = san.to_move(pos) {
        return Ok(m);
    }
    match parse_move(pos, &san.to_string()) {
        Ok(m) => Ok(m),
        Err(MoveInputError::Ambiguous { candidates, .. }) => {
            Err(format!("ambiguous ({})", candidates.join(" or ")))
        }
        Err(e) => Err(format!("illegal: {e}")),
    }
}

const TERMINATIONS: [Termination; 12] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::InsufficientMaterial,
    Termination::ThreefoldRepetition,
    Termination::FivefoldRepetition,
    Termination::FiftyMoveRule,
    Termination::SeventyFiveMoveRule,
    Termination::TimeForfeit,
    Termination::Resignation,
    Termination::Agreement,
    Termination::IllegalMove,
    Termination::Abandoned,
];

/// Can a game end in `result` for reason `t`?
fn fits(t: Termination, result: GameResult) -> bool {
    match t {
        Termination::Checkmate | Termination::Resignation => result != GameResult::Draw,
        Termination::Stalemate
        | Termination::InsufficientMaterial
        | Termination::ThreefoldRepetition
        | Termination::FivefoldRepetition
        | Termination::FiftyMoveRule
        | Termination::SeventyFiveMoveRule
        | Termination::Agreement => result == GameResult::Draw,
        Termination::TimeForfeit | Termination::IllegalMove | Termination::Abandoned => true,
    }
}

fn finish(mut mt: Movetext) -> Result<ParsedGame, Failure> {
    let ply = mt.moves.len();
    if mt.outcome.is_none() && mt.tagged {
        // Tagged PGN always ends its moves with a result: this one was cut.
        return Err(Failure {
            at: Some((ply, Start::of(mt.start.chess()))),
            error: PgnError::Malformed {
                game: mt.game,
                reason: "the moves end without a result (1-0, 0-1, 1/2-1/2 or *): \
                         is the text cut off?"
                    .to_string(),
            },
        });
    }
    let result = match mt.outcome {
        Some(Outcome::Known(KnownOutcome::Decisive { winner })) => {
            Some(GameResult::win_for(winner))
        }
        Some(Outcome::Known(KnownOutcome::Draw)) => Some(GameResult::Draw),
        Some(Outcome::Unknown) | None => None,
    };
    let tag = mt
        .headers
        .iter()
        .find(|(k, _)| k == "Termination")
        .map(|(_, v)| v.trim().to_ascii_lowercase());

    // `write_pgn` ends the moves with a comment naming the termination
    // ("{checkmate} 1-0"): take it back as the termination.
    let mut described = None;
    if let Some(result) = result {
        let last = match mt.comments.last_mut() {
            Some(after) => after,
            None => &mut mt.leading,
        };
        if let Some(text) = last.last()
            && let Some(t) = TERMINATIONS.iter().copied().find(|t| t.describe() == text)
            && fits(t, result)
            && tag.as_deref().is_none_or(|tag| {
                t.pgn_tag() == tag || !TERMINATIONS.iter().any(|x| x.pgn_tag() == tag)
            })
        {
            described = Some(t);
            last.pop();
            let end = mt.tree.main_line().last().copied().unwrap_or(0);
            mt.tree.nodes[end].comments.pop();
        }
    }

    let mut game = Game::new(mt.start);
    for (k, v) in mt.headers {
        game.set_header(&k, v);
    }
    for (m, comments) in mt.moves.into_iter().zip(mt.comments) {
        let comment = (!comments.is_empty()).then(|| comments.join(" "));
        game.push(m, comment);
    }
    game.ending = result.map(|result| Ending {
        result,
        termination: described.unwrap_or_else(|| termination(&game, result, tag.as_deref())),
    });
    Ok(ParsedGame {
        game,
        tree: mt.tree,
        warnings: mt.warnings,
    })
}

/// The reason a game ended in `result`: the `Termination` tag when it names
/// one of ours exactly, else the rules' verdict on the final position when
/// it agrees with the result, else resignation or a draw by agreement.
fn termination(game: &Game, result: GameResult, tag: Option<&str>) -> Termination {
    match tag {
        Some("time forfeit") => return Termination::TimeForfeit,
        Some("rules infraction") => return Termination::IllegalMove,
        Some("abandoned") => return Termination::Abandoned,
        _ => {}
    }
    if let Some(e) = game.rule_ending(true)
        && e.result == result
    {
        return e.termination;
    }
    match result {
        GameResult::Draw => Termination::Agreement,
        GameResult::WhiteWins | GameResult::BlackWins => Termination::Resignation,
    }
}

/// A main-line token of a game's text: a move pgn-reader reads, or one it
/// skips without telling the visitor. `ply` counts the moves before it,
/// `at` is its byte offset in the text.
enum Token<'a> {
    Move {
        ply: usize,
        at: usize,
    },
    Unreadable {
        ply: usize,
        at: usize,
        text: &'a [u8],
    },
}

/// The first main-line token of one game's text that pgn-reader skipped
/// without telling the visitor (it reads what it can as SAN and drops the
/// rest), with the number of main-line moves before it.
fn unreadable_token(span: &[u8]) -> Option<(usize, String)> {
    main_line_tokens(span, &mut |t| match t {
        Token::Unreadable { ply, text, .. } => {
            Some((ply, String::from_utf8_lossy(text).into_owned()))
        }
        Token::Move { .. } => None,
    })
}

/// Where (byte offset) the main-line move after `ply` moves is written.
pub fn main_line_move_offset(span: &[u8], ply: usize) -> Option<usize> {
    main_line_tokens(span, &mut |t| match t {
        Token::Move { ply: p, at } | Token::Unreadable { ply: p, at, .. } if p == ply => Some(at),
        _ => None,
    })
}

/// Walks one game's text the way `pgn_reader::Reader` does (tags, comments,
/// `;` and `%` lines, variations, NAGs, move numbers, results), calling `f`
/// for each main-line token until it returns something.
fn main_line_tokens<R>(span: &[u8], f: &mut dyn FnMut(Token<'_>) -> Option<R>) -> Option<R> {
    let mut s = Scan { b: span, i: 0 };
    if s.rest().starts_with(b"\xef\xbb\xbf") {
        s.i += 3;
    }
    s.skip_whitespace(true);
    while s.peek() == Some(b'[') {
        s.skip_tag();
    }
    let mut plies = 0;
    let mut depth = 0usize;
    while let Some(c) = s.peek() {
        match c {
            b'{' => s.skip_past(b'}'),
            b';' => s.skip_to(b'\n'),
            b'\n' => {
                s.i += 1;
                if s.peek() == Some(b'%') {
                    s.skip_to(b'\n');
                }
            }
            b'(' => {
                s.i += 1;
                depth += 1;
            }
            b')' => {
                s.i += 1;
                depth = depth.saturating_sub(1);
            }
            _ if depth > 0 => s.i += 1,
            b'$' => {
                s.i += 1;
                s.skip_token();
            }
            b'!' | b'?' | b'*' | b' ' | b'\t' | b'\r' | b'.' => s.i += 1,
            b'0' => {
                s.i += 1;
                let at = s.i - 1;
                if s.eat_dash() && !s.eat(b"1") && s.eat(b"0") {
                    // 0-0 or 0-0-0, read as castling.
                    let _ = s.eat_dash() && s.eat(b"0");
                    let _ = s.eat(b"+") || s.eat(b"#");
                    if let Some(r) = f(Token::Move { ply: plies, at }) {
                        return Some(r);
                    }
                    plies += 1;
                }
            }
            b'1' => {
                s.i += 1;
                if s.eat_dash() {
                    s.eat(b"0");
                } else if !(s.eat(b"/2") && s.eat_dash() && s.eat(b"1/2")) {
                    s.skip_move_number();
                }
            }
            0xc2 => {
                s.i += 1;
                let _ = s.eat(b"\xbd") && s.eat_dash() && s.eat("½".as_bytes());
            }
            b'2'..=b'9' => {
                s.i += 1;
                s.skip_move_number();
            }
            _ => {
                let start = s.i;
                match SanPlus::from_ascii_prefix(s.rest()) {
                    Ok((_, n)) if s.b.get(start + n).is_none_or(|&b| is_token_end(b)) => {
                        if let Some(r) = f(Token::Move {
                            ply: plies,
                            at: start,
                        }) {
                            return Some(r);
                        }
                        s.i += n;
                        plies += 1;
                    }
                    _ => {
                        s.i += 1;
                        s.skip_token();
                        if let Some(r) = f(Token::Unreadable {
                            ply: plies,
                            at: start,
                            text: &span[start..s.i],
                        }) {
                            return Some(r);
                        }
                    }
                }
            }
        }
    }
    None
}

/// pgn-reader's token delimiters.
fn is_token_end(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn rest(&self) -> &[u8] {
        self.b.get(self.i..).unwrap_or_default()
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, bytes: &[u8]) -> bool {
        if self.rest().starts_with(bytes) {
            self.i += bytes.len();
            true
        } else {
            false
        }
    }

    fn eat_dash(&mut self) -> bool {
        self.eat(b"-") || self.eat("–".as_bytes()) || self.eat("—".as_bytes())
    }

    /// Moves to the next `needle` (or the end).
    fn skip_to(&mut self, needle: u8) {
        self.i += self
            .rest()
            .iter()
            .position(|&b| b == needle)
            .unwrap_or(self.rest().len());
    }

    /// Moves past the next `needle` (or to the end).
    fn skip_past(&mut self, needle: u8) {
        self.skip_to(needle);
        if self.peek().is_some() {
            self.i += 1;
        }
    }

    fn skip_token(&mut self) {
        while self.peek().is_some_and(|b| !is_token_end(b)) {
            self.i += 1;
        }
    }

    /// After a move number's first digit: the other digits, dots and spaces.
    fn skip_move_number(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        while matches!(self.peek(), Some(b'.' | b' ')) {
            self.i += 1;
        }
    }

    /// Spaces, line breaks and `%` escape lines.
    fn skip_whitespace(&mut self, mut new_line: bool) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' => {
                    new_line = true;
                    self.i += 1;
                }
                b'%' if new_line => self.skip_past(b'\n'),
                _ => return,
            }
        }
    }

    /// One `[Name "value"]` tag, as pgn-reader reads it.
    fn skip_tag(&mut self) {
        self.i += 1; // '['
        let rest = self.rest();
        match rest.iter().position(|&b| matches!(b, b'"' | b'\n' | b']')) {
            Some(q) if rest[q] == b'"' => {
                let mut j = q + 1;
                loop {
                    match rest.get(j) {
                        Some(b'"') => {
                            j += 1;
                            break;
                        }
                        Some(b'\n') | None => break,
                        Some(b'\\') => j += 2,
                        Some(_) => j += 1,
                    }
                }
                self.i += j.min(rest.len());
            }
            Some(end) => self.i += end + 1,
            None => self.i = self.b.len(),
        }
        // The closing bracket and the rest of the line.
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return self.skip_whitespace(false);
                }
                b'\n' => {
                    self.i += 1;
                    return self.skip_whitespace(true);
                }
                _ => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::write_pgn;

    fn play(game: &mut Game, sans: &[&str], comments: &[Option<&str>]) {
        for (i, san) in sans.iter().enumerate() {
            let m = parse_move(game.current().chess(), san).unwrap();
            let c = comments.get(i).copied().flatten().map(str::to_string);
            game.push(m, c);
        }
    }

    fn assert_same(a: &Game, b: &Game) {
        assert_eq!(a.moves(), b.moves());
        assert_eq!(a.comments(), b.comments());
        assert_eq!(a.start().fen(), b.start().fen());
        assert_eq!(a.ending, b.ending);
        // Every header survives, in order (the reader adds the roster).
        let mut it = b.headers.iter();
        for h in &a.headers {
            assert!(it.any(|x| x == h), "header {h:?} lost: {:?}", b.headers);
        }
        assert_eq!(write_pgn(a), write_pgn(b));
    }

    #[test]
    fn round_trip_from_the_start() {
        let mut g = Game::new(Board::startpos());
        g.set_header("Event", "Club \"night\" \\ blitz");
        g.set_header("White", "Kibitz");
        g.set_header("Black", "Human");
        g.set_header("TimeControl", "300+2");
        g.set_header("Opening", "Ruy López");
        play(
            &mut g,
            &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"],
            &[
                Some("best by test"),
                None,
                None,
                Some("eval +0.3, depth 12"),
                None,
                None,
                None,
                Some("a comment with a } brace"),
                None,
            ],
        );
        g.ending = Some(Ending {
            result: GameResult::WhiteWins,
            termination: Termination::TimeForfeit,
        });
        let pgn = write_pgn(&g);
        let back = read_game(&pgn).unwrap();
        // write_pgn turns `}` into `)`.
        assert_eq!(
            back.comments()[7].as_deref(),
            Some("a comment with a ) brace")
        );
        let mut fixed = Game::new(Board::startpos());
        fixed.headers = g.headers.clone();
        for (i, &m) in g.moves().iter().enumerate() {
            let c = g.comments()[i].as_ref().map(|c| c.replace('}', ")"));
            fixed.push(m, c);
        }
        fixed.ending = g.ending;
        assert_same(&fixed, &back);
        assert_eq!(back.header("Event"), Some("Club \"night\" \\ blitz"));
        assert_eq!(back.header("Result"), Some("1-0"));
        assert_eq!(back.header("Termination"), Some("time forfeit"));

        // Every ending survives, including those the Termination tag cannot tell apart.
        for (result, termination) in [
            (GameResult::BlackWins, Termination::Resignation),
            (GameResult::Draw, Termination::Agreement),
            (GameResult::Draw, Termination::ThreefoldRepetition),
            (GameResult::Draw, Termination::FiftyMoveRule),
            (GameResult::WhiteWins, Termination::IllegalMove),
            (GameResult::BlackWins, Termination::Abandoned),
            (GameResult::Draw, Termination::TimeForfeit),
        ] {
            let mut h = fixed.clone();
            h.ending = Some(Ending {
                result,
                termination,
            });
            assert_same(&h, &read_game(&write_pgn(&h)).unwrap());
        }
        // Unfinished.
        let mut h = fixed.clone();
        h.ending = None;
        let back = read_game(&write_pgn(&h)).unwrap();
        assert_same(&h, &back);
        assert_eq!(back.ending, None);
    }

    #[test]
    fn round_trip_from_a_fen() {
        // Black to move at move 40; ends in checkmate.
        let start = Board::from_fen("6k1/5ppp/8/8/8/8/1r3PPP/6K1 b - - 3 40").unwrap();
        let mut g = Game::new(start);
        g.set_header("Event", "Endgame drill");
        g.set_header("Annotator", "Kibitz");
        play(
            &mut g,
            &["Ra2", "h3", "Ra1+", "Kh2"],
            &[None, Some("oops"), None, None],
        );
        g.ending = None;
        let pgn = write_pgn(&g);
        assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
        assert!(pgn.contains("40... Ra2"), "{pgn}");
        let back = read_game(&pgn).unwrap();
        assert_same(&g, &back);
        assert_eq!(back.header("FEN"), None);
        assert_eq!(back.header("SetUp"), None);

        let start = Board::from_fen("6k1/5ppp/8/8/8/8/1r3PPP/7K b - - 0 1").unwrap();
        let mut g = Game::new(start);
        play(&mut g, &["Rb1#"], &[Some("back rank")]);
        g.ending = g.rule_ending(true);
        assert_eq!(
            g.ending.map(|e| e.termination),
            Some(Termination::Checkmate)
        );
        let pgn = write_pgn(&g);
        assert!(pgn.contains("Rb1# {back rank} {checkmate} 0-1"), "{pgn}");
        assert_same(&g, &read_game(&pgn).unwrap());

        // Stalemate with no moves at all.
        let mut g = Game::new(Board::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap());
        g.ending = g.rule_ending(true);
        assert_same(&g, &read_game(&write_pgn(&g)).unwrap());
    }

    const CLASSICS: &str = include_str!("../../games/classics.pgn");
    const OPERA: &str = include_str!("../../games/morphy-opera-1858.pgn");

    #[test]
    fn reads_the_bundled_games() {
        let games = read_games(CLASSICS);
        assert_eq!(games.len(), 2);
        let mut plies = Vec::new();
        for g in &games {
            let g = g.as_ref().unwrap();
            plies.push(g.moves().len());
            assert_eq!(g.header("Result"), Some("1-0"));
            assert_eq!(
                g.ending,
                Some(Ending {
                    result: GameResult::WhiteWins,
                    termination: Termination::Checkmate
                })
            );
        }
        // The Immortal (23. Be7#) and the Evergreen (24. Bxe7#).
        assert_eq!(plies, [45, 47]);
        let immortal = games[0].as_ref().unwrap();
        assert_eq!(immortal.header("White"), Some("Adolf Anderssen"));
        assert_eq!(immortal.headers[0], ("Event".into(), "London".into()));
        assert!(immortal.current().chess().is_checkmate());

        let opera = read_games(OPERA);
        assert_eq!(opera.len(), 1);
        let opera = read_game(OPERA).unwrap();
        assert_eq!(opera.moves().len(), 33);
        assert!(opera.current().chess().is_checkmate());
        assert_eq!(opera.ending.map(|e| e.result), Some(GameResult::WhiteWins));
    }

    #[test]
    fn one_bad_game_does_not_stop_the_others() {
        let text = "[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
                    [Event \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 Nxe4 *\n\n\
                    [Event \"C\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";
        let games = read_games(text);
        assert_eq!(games.len(), 3);
        let a = games[0].as_ref().unwrap();
        assert_eq!(a.header("Event"), Some("A"));
        assert_eq!(
            a.ending.map(|e| e.termination),
            Some(Termination::Checkmate)
        );
        let e = games[1].as_ref().unwrap_err();
        assert_eq!(e.game(), Some(2));
        assert!(
            matches!(e, PgnError::BadMove { game: 2, number: 4, white: false, san, .. } if san == "Nxe4"),
            "{e:?}"
        );
        let msg = e.to_string();
        assert!(msg.starts_with("game 2, move 4... Nxe4: illegal"), "{msg}");
        assert!(msg.contains("no knight can capture on e4"), "{msg}");
        let c = games[2].as_ref().unwrap();
        assert_eq!(c.header("Event"), Some("C"));
        assert_eq!(
            c.ending,
            Some(Ending {
                result: GameResult::Draw,
                termination: Termination::Agreement
            })
        );
    }

    fn err(text: &str) -> PgnError {
        match read_game(text) {
            Ok(g) => panic!("{text:?} read as {}", write_pgn(&g)),
            Err(e) => e,
        }
    }

    #[test]
    fn errors_name_the_game_move_and_reason() {
        assert_eq!(err(""), PgnError::NoGame);
        assert_eq!(err("  \n\n "), PgnError::NoGame);
        assert_eq!(
            err("1. e4 e5 2. Nf9 Nc6 *").to_string(),
            "game 1, move 2. Nf9: not a move"
        );
        assert_eq!(
            err("1. e4 e5 2. Nf3x Nc6 *").to_string(),
            "game 1, move 2. Nf3x: not a move"
        );
        assert_eq!(
            err("hello world").to_string(),
            "game 1, move 1. hello: not a move"
        );
        assert_eq!(
            err("1. e4 e5 2. Ke3 *").to_string(),
            "game 1, move 2. Ke3: illegal: the king on e1 cannot move to e3"
        );
        let ambiguous = "[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n\n1. Nd2 *";
        assert_eq!(
            err(ambiguous).to_string(),
            "game 1, move 1. Nd2: ambiguous (Nbd2 or Nfd2)"
        );
        assert_eq!(
            err("1. e4 -- *").to_string(),
            "game 1, move 1... --: null moves are not supported"
        );
        let e = err("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*");
        assert!(matches!(e, PgnError::BadFen { game: 1, .. }), "{e:?}");
        assert!(
            e.to_string()
                .starts_with("game 1: bad FEN tag \"8/8/8/8/8/8/8/8 w - - 0 1\": "),
            "{e}"
        );
        assert!(matches!(
            err("[FEN \"garbage\"]\n\n*"),
            PgnError::BadFen { .. }
        ));
        assert_eq!(
            err("[SetUp \"1\"]\n\n1. e4 *"),
            PgnError::MissingFen { game: 1 }
        );
        assert!(matches!(
            err("[Variant \"Atomic\"]\n\n1. e4 *"),
            PgnError::UnsupportedVariant { game: 1, .. }
        ));
        // Cut off: in a comment, in a tag, after a move, in a move.
        assert!(
            err("[Event \"x\"]\n\n1. e4 { unfinished")
                .to_string()
                .contains("unterminated comment")
        );
        assert!(
            err("[Event \"x\"]\n[Site \"Lon")
                .to_string()
                .contains("unterminated tag")
        );
        assert!(
            err("[Event \"x\"]\n\n1. e4 e5 2. Nf3")
                .to_string()
                .contains("without a result")
        );
        assert_eq!(
            err("[Event \"x\"]\n\n1. e4 e5 2. N").to_string(),
            "game 1, move 2. N: not a move"
        );
        // Two games without the blank line between them.
        assert!(
            err("1. e4 e5 1-0 1. d4 *")
                .to_string()
                .contains("a move after the result 1-0"),
            "{}",
            err("1. e4 e5 1-0 1. d4 *")
        );
        // Move numbers from a FEN's move counter.
        let late = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 31. e5 *";
        assert_eq!(
            err(late).to_string(),
            "game 1, move 31. e5: illegal: no pawn can move to e5"
        );
    }

    #[test]
    fn lenient_and_odd_but_valid_text() {
        // Bare movetext without a result: an unfinished game.
        let g = read_game("1. e4 e5 2. Nf3").unwrap();
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.ending, None);
        // Variations, NAGs, `;` and `%` comments, several comments per move.
        let text = "[Event \"x\"]\n%escaped line\n\n1. e4! {first} {second} (1. d4 d5 (1... Nf6) 2. c4) \
                    1... e5 $1 ; rest of line\n2. Nf3?! {a\n  wrapped   comment} Nc6 1/2-1/2\n";
        let g = read_game(text).unwrap();
        assert_eq!(g.moves().len(), 4);
        assert_eq!(g.comments()[0].as_deref(), Some("first second"));
        assert_eq!(g.comments()[2].as_deref(), Some("a wrapped comment"));
        assert_eq!(g.comments()[1], None);
        // Missing capture mark and promotion piece, 0-0 castling.
        let g =
            read_game("1. e4 d5 2. ed5 Qxd5 3. Nc3 Qa5 4. Nf3 Nf6 5. Be2 Bg4 6. 0-0 *").unwrap();
        assert_eq!(g.moves().len(), 11);
        let g = read_game("[FEN \"8/4P1k1/8/8/8/8/6K1/8 w - - 0 1\"]\n\n1. e8 *").unwrap();
        assert_eq!(g.moves()[0].promotion(), Some(shakmaty::Role::Queen));
        // A comment longer than pgn-reader's buffer stays one comment.
        let long = "word ".repeat(200);
        let g = read_game(&format!("1. e4 {{{long}}} *")).unwrap();
        assert_eq!(g.comments()[0].as_deref(), Some(long.trim()));
        // CRLF line ends and a BOM.
        let crlf = CLASSICS.replace('\n', "\r\n");
        let games = read_games(&format!("\u{feff}{crlf}"));
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(Result::is_ok));
        // A decisive result on a board that is not over: resignation.
        let g = read_game("1. e4 e5 0-1").unwrap();
        assert_eq!(
            g.ending,
            Some(Ending {
                result: GameResult::BlackWins,
                termination: Termination::Resignation
            })
        );
        // The Termination tag decides when it can.
        let g = read_game("[Termination \"time forfeit\"]\n\n1. e4 e5 1-0").unwrap();
        assert_eq!(
            g.ending.map(|e| e.termination),
            Some(Termination::TimeForfeit)
        );
        let g = read_game("[Termination \"rules infraction\"]\n\n1. e4 e5 1-0").unwrap();
        assert_eq!(
            g.ending.map(|e| e.termination),
            Some(Termination::IllegalMove)
        );
        // A long tag line.
        let g = read_game(&format!("[Annotator \"{}\"]\n\n1. e4 *", "x".repeat(1000))).unwrap();
        assert_eq!(g.header("Annotator").map(str::len), Some(1000));
        assert_eq!(g.moves().len(), 1);
    }

    #[test]
    fn scanner_agrees_with_pgn_reader() {
        // Valid text: nothing skipped.
        let second = CLASSICS.find("\n[Event \"Berlin").unwrap();
        for text in [
            &CLASSICS[..second],
            &CLASSICS[second..],
            OPERA,
            "[White \"hello\\\" \"][Black \"world\"]1.f3! e5$71 2.g4 ?? (-- {}) O-O O-O-O#!?0-1",
            "1-0 0-1 1/2-1/2 1–0 0–1 ½–½",
            "[One \"1\"] [Two \"2\"]\n%[Three \"%\"]\n[Three \"3\"]\n\n\n[Four \"4\"]*",
            "1. e4 (1. d4 {x) y} 1... d5 (1... Nf6 2. c4)) 1... e5 *",
            "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.0-0 Be7 *",
        ] {
            assert_eq!(unreadable_token(text.as_bytes()), None, "{text}");
        }
        assert_eq!(
            unreadable_token(b"[A \"b\"]\n\n1. e4 e5 2. Nf3 xyz *"),
            Some((3, "xyz".to_string()))
        );
        assert_eq!(
            unreadable_token(b"1. e4 (1. Qz9) Nz9 *"),
            Some((1, "Nz9".to_string()))
        );
    }

    #[test]
    fn truncation_is_never_a_silent_success() {
        // Cut the file at every byte: a game is either read in full or an error.
        let full: Vec<usize> = read_games(CLASSICS)
            .iter()
            .map(|g| g.as_ref().unwrap().moves().len())
            .collect();
        for cut in 0..CLASSICS.len() {
            if !CLASSICS.is_char_boundary(cut) {
                continue;
            }
            for (i, g) in read_games(&CLASSICS[..cut]).iter().enumerate() {
                if let Ok(g) = g {
                    assert_eq!(
                        g.moves().len(),
                        full[i],
                        "cut at {cut}: {:?}",
                        &CLASSICS[..cut]
                    );
                }
            }
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut x: u64 = 0x853c_49e6_748f_ea9b;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        const PIECES: [&str; 16] = [
            "[Event \"x\"]\n",
            "[FEN \"",
            "\"]\n",
            "1. ",
            "e4 ",
            "Nf3 ",
            "O-O ",
            "{c} ",
            "(",
            ")",
            "1-0",
            "*",
            "\n\n",
            "exd5 ",
            "e8=Q ",
            "$1 ",
        ];
        for round in 0..3000 {
            let len = (next() % 200) as usize;
            let text: String = if round % 3 == 0 {
                // Raw bytes, made into a string lossily.
                let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            } else {
                // Pieces of PGN mixed with junk.
                let mut s = String::new();
                for _ in 0..len / 4 {
                    match next() % 4 {
                        0 => s.push(char::from((next() % 128) as u8)),
                        _ => s.push_str(PIECES[(next() % PIECES.len() as u64) as usize]),
                    }
                }
                s
            };
            for g in read_games(&text) {
                match g {
                    Ok(g) => assert_eq!(g.comments().len(), g.moves().len()),
                    Err(e) => assert!(!e.to_string().is_empty()),
                }
            }
        }
        // Mutations of a real file.
        let bytes = CLASSICS.as_bytes();
        for _ in 0..500 {
            let mut b = bytes.to_vec();
            for _ in 0..1 + next() % 8 {
                let i = (next() as usize) % b.len();
                b[i] = next() as u8;
            }
            let _ = read_games(&String::from_utf8_lossy(&b));
        }
    }
}
