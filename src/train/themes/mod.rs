//! A puzzle's themes, found from its position and solution alone: mate in
//! N, fork, pin, skewer, discovered attack, hanging piece, back-rank mate,
//! promotion and more, with lichess' names and (re-implemented here)
//! lichess' definitions from its puzzle tagger, so that Kibitz's tags can
//! be checked against the lichess database's and mean the same to a user
//! who knows lichess.
//!
//! Like lichess, a motif counts anywhere in the solution line: a fork on
//! any of the solver's moves but the last makes a fork puzzle. Themes that
//! need an engine's evaluation (`crushing`, `advantage`, `equality`) or the
//! game the puzzle came from (`opening`, `middlegame`, `endgame`, `master`)
//! are not made here.

mod mates;
mod misc;
mod motifs;
mod score;

#[cfg(test)]
mod tests;

pub use score::{TagScore, compare, has_lichess_tags, table};

use crate::game::tactics;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

/// Every tag [`tag`] can give, in the order it gives them.
pub const TAGS: [&str; 44] = [
    "mateIn1",
    "mateIn2",
    "mateIn3",
    "mateIn4",
    "mateIn5",
    "mate",
    "smotheredMate",
    "backRankMate",
    "attraction",
    "deflection",
    "advancedPawn",
    "doubleCheck",
    "quietMove",
    "defensiveMove",
    "sacrifice",
    "xRayAttack",
    "fork",
    "hangingPiece",
    "trappedPiece",
    "discoveredAttack",
    "exposedKing",
    "skewer",
    "interference",
    "intermezzo",
    "pin",
    "attackingF2F7",
    "clearance",
    "enPassant",
    "castling",
    "promotion",
    "underPromotion",
    "capturingDefender",
    "pawnEndgame",
    "queenEndgame",
    "rookEndgame",
    "bishopEndgame",
    "knightEndgame",
    "queenRookEndgame",
    "kingsideAttack",
    "queensideAttack",
    "oneMove",
    "short",
    "long",
    "veryLong",
];

/// The themes of a puzzle: `start` is the position before the opponent's
/// move and `line` that move followed by the solution (solver, reply,
/// solver, ...), exactly as [`crate::train::puzzle::Puzzle::line`] gives
/// them, so every move must be legal in turn. A line of fewer than two
/// moves has no themes.
///
/// Deterministic and without search: a mate in N is a solution of N
/// solver moves ending in checkmate.
pub fn tag(start: &Chess, line: &[Move]) -> Vec<&'static str> {
    if line.len() < 2 {
        return Vec::new();
    }
    let l = Line::new(start, line);
    let mut tags = Vec::new();
    let mut add = |yes: bool, name: &'static str| {
        if yes {
            tags.push(name);
        }
    };
    let mut back_rank = false;
    if let Some(mate) = mates::mate_in(&l) {
        add(true, mate);
        add(true, "mate");
        let smothered = tactics::is_smothered_mate(l.end());
        add(smothered, "smotheredMate");
        back_rank = !smothered && tactics::is_back_rank_mate(l.end());
        add(back_rank, "backRankMate");
    }
    add(motifs::attraction(&l), "attraction");
    add(motifs::deflection(&l), "deflection");
    add(misc::advanced_pawn(&l), "advancedPawn");
    add(motifs::double_check(&l), "doubleCheck");
    add(misc::quiet_move(&l), "quietMove");
    add(
        misc::defensive_move(&l) || misc::check_escape(&l),
        "defensiveMove",
    );
    add(misc::sacrifice(&l), "sacrifice");
    add(motifs::x_ray(&l), "xRayAttack");
    let fork = motifs::fork(&l);
    add(fork, "fork");
    add(motifs::hanging_piece(&l), "hangingPiece");
    add(motifs::trapped_piece(&l), "trappedPiece");
    add(motifs::discovered_attack(&l), "discoveredAttack");
    add(misc::exposed_king(&l), "exposedKing");
    add(motifs::skewer(&l), "skewer");
    add(motifs::interference(&l), "interference");
    add(motifs::intermezzo(&l), "intermezzo");
    add(motifs::pin(&l), "pin");
    add(misc::attacking_f2_f7(&l), "attackingF2F7");
    add(motifs::clearance(&l), "clearance");
    add(misc::en_passant(&l), "enPassant");
    add(misc::castling(&l), "castling");
    add(misc::promotion(&l), "promotion");
    add(misc::under_promotion(&l), "underPromotion");
    add(motifs::capturing_defender(&l), "capturingDefender");
    let endgame = [
        (Role::Pawn, "pawnEndgame"),
        (Role::Queen, "queenEndgame"),
        (Role::Rook, "rookEndgame"),
        (Role::Bishop, "bishopEndgame"),
        (Role::Knight, "knightEndgame"),
    ]
    .into_iter()
    .find(|&(role, _)| misc::piece_endgame(&l, role));
    match endgame {
        Some((_, name)) => add(true, name),
        None => add(misc::queen_rook_endgame(&l), "queenRookEndgame"),
    }
    if !back_rank && !fork {
        let kingside = misc::kingside_attack(&l);
        add(kingside, "kingsideAttack");
        add(!kingside && misc::queenside_attack(&l), "queensideAttack");
    }
    add(line.len() == 2, "oneMove");
    add(line.len() == 4, "short");
    add(line.len() == 6, "long");
    add(line.len() >= 8, "veryLong");
    tags
}

/// A puzzle line with every position along it. Move `i` is played in
/// [`Line::before`]`(i)` and leads to [`Line::after`]`(i)`; the opponent
/// plays the even moves, the solver (`pov`) the odd ones.
struct Line<'a> {
    start: &'a Chess,
    moves: &'a [Move],
    after: Vec<Chess>,
    /// The solver's colour.
    pov: Color,
}

impl<'a> Line<'a> {
    fn new(start: &'a Chess, moves: &'a [Move]) -> Line<'a> {
        let mut after = Vec::with_capacity(moves.len());
        let mut pos = start.clone();
        for &m in moves {
            pos.play_unchecked(m);
            after.push(pos.clone());
        }
        Line {
            start,
            moves,
            after,
            pov: !start.turn(),
        }
    }

    fn len(&self) -> usize {
        self.moves.len()
    }

    fn before(&self, i: usize) -> &Chess {
        match i {
            0 => self.start,
            _ => &self.after[i - 1],
        }
    }

    fn after(&self, i: usize) -> &Chess {
        &self.after[i]
    }

    /// The position after the last move.
    fn end(&self) -> &Chess {
        &self.after[self.after.len() - 1]
    }

    fn mv(&self, i: usize) -> Move {
        self.moves[i]
    }

    /// The indices of the solver's moves: 1, 3, 5, ...
    fn solver_moves(&self) -> impl Iterator<Item = usize> + use<> {
        (1..self.moves.len()).step_by(2)
    }

    /// Where move `i`'s piece went (the king's square for castling).
    fn to(&self, i: usize) -> Square {
        tactics::dest(self.moves[i])
    }

    /// Where move `i`'s piece came from.
    fn from(&self, i: usize) -> Square {
        self.moves[i].from().unwrap_or_else(|| self.to(i))
    }

    /// The piece that moved, as it stands after the move (a promoted pawn
    /// is its new piece).
    fn moved(&self, i: usize) -> Role {
        self.after[i]
            .board()
            .role_at(self.to(i))
            .unwrap_or(self.moves[i].role())
    }

    /// Whether move `i` took something (en passant too).
    fn is_capture(&self, i: usize) -> bool {
        self.moves[i].is_capture()
    }

    /// The piece standing on move `i`'s target square before it (not the
    /// pawn taken en passant).
    fn on_target(&self, i: usize) -> Option<shakmaty::Piece> {
        self.before(i).board().piece_at(self.to(i))
    }
}
