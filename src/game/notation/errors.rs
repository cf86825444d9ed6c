//! Why a typed move is not played: the errors, each one plain sentence
//! for the status line, and the names they use.

use shakmaty::{CastlingSide, Color, Role, Square};

use super::*;

/// Why castling is not possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CastlingBlock {
    #[error("your king or that rook has moved (or the rook is gone)")]
    NoRights,
    #[error("you are in check")]
    InCheck,
    #[error("there are pieces between your king and rook")]
    PiecesInTheWay,
    #[error("your king would pass through {0}, which is attacked")]
    PassesThroughAttack(Square),
    #[error("your king would land on {0}, which is attacked")]
    LandsInCheck(Square),
    #[error("it is not legal here")]
    Other,
}

/// Why typed text is not a move that can be played here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveInputError {
    #[error("type a move, like e4, Nf3, O-O or e2e4")]
    Empty,
    /// Not a move at all (the text as typed, shortened).
    #[error("'{0}' is not a move: write it like e4, Nf3, O-O or e2e4")]
    Syntax(String),
    #[error("no move is possible: the game is over ({})", over_name(.checkmate))]
    GameOver { checkmate: bool },
    /// Several legal moves fit; `candidates` are in full SAN.
    #[error("{input} is ambiguous: {}", or_list(.candidates))]
    Ambiguous {
        input: String,
        candidates: Vec<String>,
    },
    /// UCI move from an empty square.
    #[error("there is no piece on {0}")]
    EmptySquare(Square),
    /// UCI move of the opponent's piece.
    #[error("the {} on {square} is {}'s, and it is {}'s move", role_name(*.role), color_name(*.owner), other_color_name(.owner))]
    NotYourPiece {
        square: Square,
        role: Role,
        owner: Color,
    },
    /// The origin square was given (`Ng1f3`) but holds no such piece.
    #[error("you have no {} on {square}", role_name(*.role))]
    NoPieceOn { role: Role, square: Square },
    /// None of our pieces of that kind can get there. `which` narrows the
    /// pieces down as typed (" on the b-file", " on rank 1", or empty).
    #[error("no {}{which} can {} {to}", role_name(*.role), move_verb(.capture))]
    NoPieceCanReach {
        role: Role,
        which: String,
        to: Square,
        capture: bool,
    },
    /// The piece (given by its square, or the only king) cannot go there.
    #[error("the {} on {from} cannot move to {to}", role_name(*.role))]
    CannotReach {
        role: Role,
        from: Square,
        to: Square,
    },
    /// The piece could go there on an empty board, but `at` is in the way.
    #[error("the {} on {from} cannot get to {to}: {at} is in the way", role_name(*.role))]
    Blocked {
        role: Role,
        from: Square,
        to: Square,
        at: Square,
    },
    #[error("{to} is occupied by your own {}", role_name(*.role))]
    OwnPiece { to: Square, role: Role },
    #[error("there is nothing to capture on {0}")]
    NothingToCapture(Square),
    #[error("{san} would leave your king in check: your {} on {from} is pinned", role_name(*.role))]
    Pinned {
        san: String,
        role: Role,
        from: Square,
    },
    #[error("{san} would put your king in check")]
    KingIntoCheck { san: String },
    #[error("you are in check, and {san} does not get you out of it")]
    DoesNotAnswerCheck { san: String },
    #[error("{san} would leave your king in check")]
    LeavesKingInCheck { san: String },
    #[error("you cannot castle {}: {why}", side_name(.side))]
    CannotCastle {
        side: CastlingSide,
        why: CastlingBlock,
    },
    /// A pawn or promotion rule, e.g. "pawns promote only on the last rank".
    #[error("{input} is not possible: {reason}")]
    Impossible { input: String, reason: &'static str },
    /// Crazyhouse/Bughouse: an illegal drop, explained.
    #[error("{0}")]
    Drop(crate::variant::rules::DropError),
    /// Crazyhouse/Bughouse: no piece on the board can go there, but one in
    /// hand can be dropped there.
    #[error("no {} can move to {to}; to drop one from your hand, type {}", role_name(*.role), drop_text(*.role, *.to))]
    UseDrop { role: Role, to: Square },
    /// Crazyhouse/Bughouse: no board move is legal, only drops.
    #[error("only a drop can be played here (type it like N@f3, or @e4 for a pawn)")]
    OnlyDrops,
}

pub(super) fn over_name(checkmate: &bool) -> &'static str {
    if *checkmate { "checkmate" } else { "stalemate" }
}

/// "pawn", "knight"... (also for the rest of the UI).
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// "White" or "Black" (also for the rest of the UI).
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub(super) fn other_color_name(color: &Color) -> &'static str {
    color_name(!*color)
}

pub(super) fn move_verb(capture: &bool) -> &'static str {
    if *capture { "capture on" } else { "move to" }
}

pub(super) fn side_name(side: &CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

/// "a", "a or b", "a, b or c".
pub fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
