//! Moves typed in Crazyhouse and Bughouse: everything [`parse_move`]
//! accepts for board moves, plus drops: `N@f3`, `n@f3` (as the earlier
//! Bughouse engine wrote them), `P@e4` and `@e4` for a pawn, with any
//! check or annotation marks (`N@f7+`, `Q@h7#!`).
//!
//! An illegal drop is explained ("you have no knight in hand", "a pawn
//! cannot be dropped on the 1st or 8th rank"), and a board move that no
//! piece can make while one in hand could go there says how to drop it.

use super::{MoveInputError, clean, parse_move, shown};
use crate::variant::rules::check_drop;
use shakmaty::variant::Crazyhouse;
use shakmaty::{CastlingMode, Chess, FromSetup, Move, Position, PositionError, Role, Square};

/// The drop a text asks for: a piece letter (any case, none for a pawn),
/// `@` and a square.
fn parse_drop(core: &str) -> Option<Result<(Role, Square), ()>> {
    let (piece, square) = core.split_once('@')?;
    let role = match piece {
        "" => Some(Role::Pawn),
        p if p.len() == 1 => p
            .chars()
            .next()
            .and_then(|c| Role::from_char(c.to_ascii_lowercase())),
        _ => None,
    };
    let square = square.to_ascii_lowercase().parse::<Square>().ok();
    Some(match (role, square) {
        (Some(r), Some(s)) => Ok((r, s)),
        _ => Err(()),
    })
}

/// The board part of a Crazyhouse position as standard chess (for parsing
/// and explaining board moves; a Bughouse board may hold more of a piece
/// than a chess set).
fn board_as_chess(pos: &Crazyhouse) -> Option<Chess> {
    let mut setup = pos.to_setup(shakmaty::EnPassantMode::Always);
    setup.pockets = None;
    setup.promoted = shakmaty::Bitboard::EMPTY;
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_too_much_material)
        .ok()
}

/// Parses a move typed in a Crazyhouse or Bughouse position.
pub fn parse_variant_move(pos: &Crazyhouse, text: &str) -> Result<Move, MoveInputError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveInputError::Empty);
    }
    let core = clean(text);
    if let Some(drop) = parse_drop(&core) {
        let Ok((role, to)) = drop else {
            return Err(MoveInputError::Syntax(shown(text)));
        };
        if pos.legal_moves().is_empty() {
            return Err(MoveInputError::GameOver {
                checkmate: pos.is_check(),
            });
        }
        return check_drop(pos, role, to).map_err(MoveInputError::Drop);
    }
    let Some(chess) = board_as_chess(pos) else {
        return Err(MoveInputError::Syntax(shown(text)));
    };
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(MoveInputError::GameOver {
            checkmate: pos.is_check(),
        });
    }
    match parse_move(&chess, text) {
        Ok(m) if pos.is_legal(m) => Ok(m),
        // Legal on the board, but the position differs (cannot happen:
        // drops never make a board move illegal); say so plainly.
        Ok(_) => Err(MoveInputError::Syntax(shown(text))),
        Err(MoveInputError::NoPieceCanReach {
            role,
            which,
            to,
            capture: false,
        }) if which.is_empty()
            && check_drop(pos, role, to).is_ok()
            && pos.board().piece_at(to).is_none() =>
        {
            Err(MoveInputError::UseDrop { role, to })
        }
        // Only drops are possible (the board has no legal move).
        Err(MoveInputError::GameOver { .. }) => Err(MoveInputError::OnlyDrops),
        Err(e) => Err(e),
    }
}

/// `N@f3`: the drop in the form the error messages suggest.
pub fn drop_text(role: Role, to: Square) -> String {
    format!("{}@{to}", role.upper_char())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::fen::parse_crazyhouse;

    fn pos(fen: &str) -> Crazyhouse {
        parse_crazyhouse(fen, true).unwrap()
    }

    #[test]
    fn every_drop_spelling() {
        let p = pos("rnbqkb1r/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKB1R[PNnp] w KQkq - 0 4");
        let put = |role, to| Move::Put { role, to };
        for (text, m) in [
            ("N@f3", put(Role::Knight, Square::F3)),
            ("n@f3", put(Role::Knight, Square::F3)),
            ("N@F3", put(Role::Knight, Square::F3)),
            ("P@e4", put(Role::Pawn, Square::E4)),
            ("p@e4", put(Role::Pawn, Square::E4)),
            ("@e4", put(Role::Pawn, Square::E4)),
            ("N@d6+", put(Role::Knight, Square::D6)),
            ("12. N@d6+!?", put(Role::Knight, Square::D6)),
        ] {
            assert_eq!(parse_variant_move(&p, text), Ok(m), "{text}");
        }
        // Board moves still work, in SAN and UCI.
        assert!(parse_variant_move(&p, "Nc3").is_ok());
        assert!(parse_variant_move(&p, "e2e4").is_err(), "no pawn on e2");
        assert!(parse_variant_move(&p, "d2d4").is_ok());
    }

    #[test]
    fn bad_drops_are_explained() {
        let p = pos("rnbqkb1r/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKB1R[Pnp] w KQkq - 0 4");
        let err = |t: &str| parse_variant_move(&p, t).unwrap_err().to_string();
        assert_eq!(err("N@f3"), "you have no knight in hand");
        assert_eq!(
            err("P@e8"),
            "a pawn cannot be dropped on the 1st or 8th rank"
        );
        assert_eq!(err("P@d2"), "d2 is occupied by your pawn");
        assert!(err("X@e4").contains("is not a move"));
        assert!(err("N@z9").contains("is not a move"));
        assert!(err("K@e4").contains("king is never dropped"));
    }

    #[test]
    fn a_board_move_that_only_a_drop_can_make() {
        // No knight can reach f5, but one is in hand.
        let p = pos("rnbqkb1r/ppp1pppp/8/8/8/8/PPPP1PPP/R1BQKB1R[Nnpp] w KQkq - 0 4");
        let e = parse_variant_move(&p, "Nf5").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no knight can move to f5; to drop one from your hand, type N@f5"
        );
        // A board knight that can get there is just a board move.
        let p = pos("rnbqkb1r/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKB1R[Nnpp] w KQkq - 0 4");
        assert_eq!(
            parse_variant_move(&p, "Nc3").map(|m| m.from()),
            Ok(Some(Square::B1))
        );
    }
}
