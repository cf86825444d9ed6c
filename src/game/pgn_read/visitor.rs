//! The pgn-reader visitor that builds one game: tags, main line, comments,
//! and the checks when the game ends (result, termination).

use super::*;
use crate::engine::Board;
use crate::game::movetree::{MoveTree, NodeId};
use crate::game::notation::{MoveInputError, parse_move};
use crate::game::{Ending, Game, GameResult, Termination};
use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, SanPlus, Visitor};
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};
use std::ops::ControlFlow;

pub(super) struct GameVisitor {
    /// Games begun so far (the current game's number).
    pub(super) games: usize,
}

pub(super) struct Tags {
    game: usize,
    headers: Vec<(String, String)>,
    fen: Option<String>,
    setup: bool,
    variant: Option<String>,
    /// Any tag at all was read (FEN and SetUp included).
    tagged: bool,
}

pub(super) struct Movetext {
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

pub(super) enum Frame {
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

pub(super) fn push_header(headers: &mut Vec<(String, String)>, name: String, value: String) {
    match headers.iter_mut().find(|(k, _)| *k == name) {
        Some(h) => h.1 = value,
        None => headers.push((name, value)),
    }
}

/// A SAN from the file as a legal move, or why not. Strict SAN first; then
/// the lenient reading of typed moves (a capture without `x`, a promotion
/// without the piece), which also explains an illegal move.
pub fn resolve_san(pos: &Chess, san: San) -> Result<Move, String> {
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

pub(super) const TERMINATIONS: [Termination; 12] = [
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
pub(super) fn fits(t: Termination, result: GameResult) -> bool {
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

pub(super) fn finish(mut mt: Movetext) -> Result<ParsedGame, Failure> {
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
pub(super) fn termination(game: &Game, result: GameResult, tag: Option<&str>) -> Termination {
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
