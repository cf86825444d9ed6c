//! The trainer's board editor: placing pieces, and saying in words why a
//! position cannot be played.

mod draw;
mod screen;
pub use screen::EditorScreen;

use crate::engine::Board;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, FromSetup, Piece, PositionErrorKinds, Rank, Setup, Square,
};

/// Entering a position for the trainer.
#[derive(Clone, Debug)]
pub struct Editor {
    pub board: shakmaty::Board,
    pub turn: Color,
    pub cursor: Square,
    /// What is wrong with the position (empty when it can be played).
    pub problems: Vec<String>,
    /// A FEN being typed (`f`), if any.
    pub fen: Option<String>,
}

impl Editor {
    /// An editor holding `board` (or an empty board).
    pub fn new(board: Option<&Board>) -> Editor {
        let (b, turn) = match board {
            Some(b) => (b.board().clone(), b.turn()),
            None => (shakmaty::Board::empty(), Color::White),
        };
        let mut e = Editor {
            board: b,
            turn,
            cursor: Square::E4,
            problems: Vec::new(),
            fen: None,
        };
        e.check();
        e
    }

    /// Puts a piece on the cursor's square (`None` empties it).
    pub fn put(&mut self, piece: Option<Piece>) {
        match piece {
            Some(p) => self.board.set_piece_at(self.cursor, p),
            None => self.board.discard_piece_at(self.cursor),
        }
        self.check();
    }

    pub fn clear(&mut self) {
        self.board = shakmaty::Board::empty();
        self.check();
    }

    pub fn toggle_turn(&mut self) {
        self.turn = !self.turn;
        self.check();
    }

    /// Takes a FEN's placement and side to move. Errors say why not.
    pub fn load_fen(&mut self, fen: &str) -> Result<(), String> {
        let parsed: shakmaty::fen::Fen = fen
            .trim()
            .parse()
            .map_err(|e| format!("Not a FEN ({e})."))?;
        let setup = parsed.into_setup();
        self.board = setup.board;
        self.turn = setup.turn;
        self.check();
        Ok(())
    }

    /// Re-validates the position.
    pub fn check(&mut self) {
        self.problems = match validate(&self.board, self.turn) {
            Ok(_) => Vec::new(),
            Err(p) => p,
        };
    }

    /// The FEN of the position (whatever its legality).
    pub fn fen(&self) -> String {
        let setup = Setup {
            board: self.board.clone(),
            turn: self.turn,
            ..Setup::empty()
        };
        shakmaty::fen::Fen::try_from_setup(setup)
            .unwrap_or_else(shakmaty::fen::LossyFenError::ignore)
            .to_string()
    }
}

fn piece_name(p: Piece) -> String {
    format!(
        "{} {}",
        crate::ui::input::color_name(p.color).to_lowercase(),
        crate::ui::input::role_name(p.role)
    )
}

/// A position the trainer can play, or every reason it cannot, in words.
pub fn validate(board: &shakmaty::Board, turn: Color) -> Result<Board, Vec<String>> {
    let mut problems = Vec::new();
    for color in [Color::White, Color::Black] {
        let kings = (board.kings() & board.by_color(color)).count();
        let name = crate::ui::input::color_name(color);
        if kings == 0 {
            problems.push(format!("{name} has no king."));
        } else if kings > 1 {
            problems.push(format!("{name} has {kings} kings."));
        }
    }
    let n = board.occupied().count();
    if n > crate::tablebase::MAX_PIECES {
        problems.push(format!(
            "{n} pieces: the tables cover at most {} (kings included).",
            crate::tablebase::MAX_PIECES
        ));
    }
    for sq in board.pawns() & (Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth))
    {
        let rank = if sq.rank() == Rank::First {
            "1st"
        } else {
            "8th"
        };
        problems.push(format!(
            "The pawn on {sq} stands on the {rank} rank (pawns never do)."
        ));
    }
    if let (Some(wk), Some(bk)) = (board.king_of(Color::White), board.king_of(Color::Black))
        && problems.is_empty()
    {
        if wk.distance(bk) <= 1 {
            problems.push(format!(
                "The kings on {wk} and {bk} stand next to each other."
            ));
        } else {
            let other = !turn;
            let king = if other == Color::White { wk } else { bk };
            let checkers = board.attacks_to(king, turn, board.occupied());
            if let Some(from) = checkers.first()
                && let Some(p) = board.piece_at(from)
            {
                problems.push(format!(
                    "{} is in check from the {} on {from}, but {} is to move: the side not to move cannot be in check.",
                    crate::ui::input::color_name(other),
                    piece_name(p),
                    crate::ui::input::color_name(turn)
                ));
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if board.occupied().count() == 2 {
        return Err(vec!["Only the kings: a draw, nothing to play.".to_string()]);
    }
    let setup = Setup {
        board: board.clone(),
        turn,
        ..Setup::empty()
    };
    let pos = match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(pos) => Ok(pos),
        Err(e) => e.ignore_impossible_check().map_err(|e| {
            if e.kinds().contains(PositionErrorKinds::OPPOSITE_CHECK) {
                "The side not to move is in check.".to_string()
            } else {
                format!("Not a legal position: {e}.")
            }
        }),
    };
    pos.map(Board::from_chess).map_err(|why| vec![why])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(pieces: &[(&str, char)], turn: Color) -> Result<Board, Vec<String>> {
        let mut b = shakmaty::Board::empty();
        for (sq, c) in pieces {
            let sq: Square = sq.parse().unwrap();
            b.set_piece_at(sq, Piece::from_char(*c).unwrap());
        }
        validate(&b, turn)
    }

    #[test]
    fn the_editor_explains_illegal_positions() {
        let err = |r: Result<Board, Vec<String>>| r.err().unwrap_or_default().join(" ");
        assert!(placed(&[("e1", 'K'), ("e8", 'k'), ("d1", 'Q')], Color::White).is_ok());
        let e = err(placed(
            &[("e4", 'K'), ("e5", 'k'), ("a1", 'Q')],
            Color::White,
        ));
        assert!(e.contains("next to each other"), "{e}");
        let e = err(placed(
            &[("e1", 'K'), ("e8", 'k'), ("e2", 'R')],
            Color::White,
        ));
        assert!(
            e.contains("Black is in check from the white rook on e2"),
            "{e}"
        );
        // The same with Black to move is fine.
        assert!(placed(&[("e1", 'K'), ("e8", 'k'), ("e2", 'R')], Color::Black).is_ok());
        let e = err(placed(
            &[("e1", 'K'), ("e8", 'k'), ("a8", 'P')],
            Color::White,
        ));
        assert!(e.contains("pawn on a8 stands on the 8th rank"), "{e}");
        let e = err(placed(
            &[("e1", 'K'), ("e8", 'k'), ("a1", 'p')],
            Color::White,
        ));
        assert!(e.contains("pawn on a1 stands on the 1st rank"), "{e}");
        let e = err(placed(&[("e8", 'k'), ("a1", 'Q')], Color::White));
        assert!(e.contains("White has no king"), "{e}");
        let e = err(placed(
            &[
                ("e1", 'K'),
                ("e8", 'k'),
                ("a1", 'Q'),
                ("b1", 'Q'),
                ("c1", 'Q'),
                ("d1", 'Q'),
            ],
            Color::White,
        ));
        assert!(e.contains("6 pieces"), "{e}");
        let e = err(placed(&[("e1", 'K'), ("e8", 'k')], Color::White));
        assert!(e.contains("Only the kings"), "{e}");
    }

    #[test]
    fn editor_keeps_fen_and_reports_bad_ones() {
        let mut e = Editor::new(None);
        assert!(!e.problems.is_empty(), "an empty board is not a position");
        assert!(e.load_fen("8/8/8/4k3/8/8/8/4K2R w - - 0 1").is_ok());
        assert!(e.problems.is_empty(), "{:?}", e.problems);
        assert!(e.fen().starts_with("8/8/8/4k3/8/8/8/4K2R w"));
        assert!(e.load_fen("not a fen").is_err());
        assert!(e.fen().starts_with("8/8/8/4k3/8/8/8/4K2R w"), "kept");
        e.cursor = Square::H1;
        e.put(None);
        assert!(e.problems.iter().any(|p| p.contains("Only the kings")));
    }
}
