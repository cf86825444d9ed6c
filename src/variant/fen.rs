//! FENs with pockets, as other programs write them, and why a FEN is wrong
//! in plain words.
//!
//! Read:
//! - the bracket form (`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pn] w
//!   KQkq - 0 1`), promoted pieces marked `~` (`Q~`);
//! - lichess' slash form (`.../RNBQKBNR/Pn w ...`, `.../RNBQKBNR/ w ...`
//!   for empty hands) and Fairy-Stockfish's slash-and-brackets form
//!   (`.../RNBQKBNR/[Pn] w ...`);
//! - EPD-style FENs without the two move counters;
//! - the earlier Bughouse engine's form: two extra fields after the
//!   counters with White's and Black's hand, a count before each letter
//!   (`... 0 1 2P1R -`: White holds two pawns and a rook, Black nothing; a
//!   missing count is one, letter case does not matter, `-` is empty);
//! - a Bughouse position: both boards' FENs joined by ` | ` (board A first).
//!
//! Written: the bracket form with `~`, as shakmaty writes X-FEN (White's
//! pieces first, pawn to queen).

use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::variant::Crazyhouse;
use shakmaty::{
    ByColor, ByRole, CastlingMode, Color, EnPassantMode, FromSetup, Position, PositionError,
    PositionErrorKinds, Role, Setup,
};

/// Why a FEN was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("malformed FEN: {0}")]
    Syntax(String),
    #[error("illegal position: {0}")]
    Illegal(String),
}

/// What is wrong with the text of a FEN, in plain words.
pub fn explain_syntax(e: ParseFenError) -> String {
    use ParseFenError as E;
    match e {
        E::InvalidBoard => "the pieces must be 8 ranks separated by '/', each adding up to 8 \
                            squares, with pieces from KQRBNP (White) and kqrbnp (Black)"
            .into(),
        E::InvalidTurn => "the side to move must be 'w' or 'b'".into(),
        E::InvalidCastling => "castling must be '-' or letters from KQkq".into(),
        E::InvalidEpSquare => "the en passant field must be '-' or a square like e3".into(),
        E::InvalidHalfmoveClock => "the halfmove clock must be a number".into(),
        E::InvalidFullmoves => "the move number must be a number from 1".into(),
        E::InvalidPocket => "the pocket (pieces in hand) goes in brackets after the board, \
                             with letters from PNBRQ (White) and pnbrq (Black), e.g. [Pn]"
            .into(),
        _ => "write it as pieces, side to move, castling, en passant, halfmove clock and \
              move number, e.g. rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            .into(),
    }
}

/// The text of the field a parse error is about, when there is one.
fn wrong_field(fen: &str, e: &ParseFenError) -> Option<String> {
    use ParseFenError as E;
    let fields: Vec<&str> = fen.split([' ', '_']).filter(|f| !f.is_empty()).collect();
    let board = *fields.first()?;
    let field = match e {
        E::InvalidBoard => board.split('[').next().unwrap_or(board),
        E::InvalidPocket => match board.split_once('[') {
            Some((_, pocket)) => pocket.trim_end_matches(']'),
            None => board.rsplit('/').next().unwrap_or(board),
        },
        E::InvalidTurn => fields.get(1)?,
        E::InvalidCastling => fields.get(2)?,
        E::InvalidEpSquare => fields.get(3)?,
        E::InvalidHalfmoveClock => fields.get(4)?,
        E::InvalidFullmoves => fields.get(5)?,
        _ => return None,
    };
    Some(field.to_string())
}

/// Why a position cannot occur in a game, in plain words.
pub fn explain_illegal(kinds: PositionErrorKinds) -> String {
    use PositionErrorKinds as K;
    let reasons = [
        (K::EMPTY_BOARD, "the board is empty"),
        (K::MISSING_KING, "each side needs exactly one king"),
        (
            K::TOO_MANY_KINGS,
            "a side has more than one king (and a king is never in a pocket)",
        ),
        (
            K::PAWNS_ON_BACKRANK,
            "pawns cannot stand on the first or eighth rank",
        ),
        (
            K::INVALID_CASTLING_RIGHTS,
            "the castling rights do not match the kings and rooks (K needs the white king on e1 \
             and a rook on h1, Q a rook on a1, k and q the same for Black)",
        ),
        (
            K::INVALID_EP_SQUARE,
            "the en passant square must be just behind a pawn that has moved two squares",
        ),
        (
            K::OPPOSITE_CHECK,
            "the side that is not to move is in check",
        ),
        (
            K::IMPOSSIBLE_CHECK,
            "no legal move can give this check (too many or impossible checkers)",
        ),
        (
            K::TOO_MUCH_MATERIAL,
            "there are more pieces (on the board and in hand) than promotions could give",
        ),
        (
            K::VARIANT,
            "more than 64 pieces on the board and in the pockets",
        ),
    ];
    let found: Vec<&str> = reasons
        .iter()
        .filter(|(k, _)| kinds.contains(*k))
        .map(|(_, r)| *r)
        .collect();
    if found.is_empty() {
        "the position is not legal".into()
    } else {
        found.join("; ")
    }
}

/// Reads one hand of the earlier engine's form (`2P1R`, `PPR`, `-`).
fn legacy_hand(field: &str, into: &mut ByRole<u8>) -> Option<()> {
    if field == "-" {
        return Some(());
    }
    let mut count: Option<u32> = None;
    for c in field.chars() {
        if let Some(d) = c.to_digit(10) {
            count = Some(count.unwrap_or(0) * 10 + d);
            if count? > 64 {
                return None;
            }
            continue;
        }
        let role = Role::from_char(c.to_ascii_lowercase())?;
        let n = count.take().unwrap_or(1);
        let slot = into.get_mut(role);
        *slot = slot.checked_add(u8::try_from(n).ok()?)?;
    }
    // A count must be followed by a piece.
    count.is_none().then_some(())
}

/// Parses the text of a FEN into a setup: pockets in brackets, after a
/// slash or as the earlier engine's two trailing fields; counters optional.
pub fn parse_setup(text: &str) -> Result<Setup, FenError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(FenError::Syntax("empty FEN".into()));
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    // The earlier engine's hands: two fields after the six usual ones.
    let (main, hands) = if fields.len() == 8
        && fields[4].parse::<u32>().is_ok()
        && fields[5].parse::<u32>().is_ok()
    {
        (fields[..6].join(" "), Some((fields[6], fields[7])))
    } else {
        (fields.join(" "), None)
    };
    // `.../RNBQKBNR/[Pn]`: the slash before the brackets is dropped.
    let main = main.replacen("/[", "[", 1);
    let fen: Fen = main.parse().map_err(|e: ParseFenError| {
        let got = wrong_field(&main, &e)
            .map(|f| format!(" (got '{f}')"))
            .unwrap_or_default();
        FenError::Syntax(format!("{}{got}", explain_syntax(e)))
    })?;
    let mut setup = fen.into_setup();
    if let Some((white, black)) = hands {
        if setup.pockets.is_some() {
            return Err(FenError::Syntax(
                "the pieces in hand are given twice (in brackets and as the last two fields)"
                    .into(),
            ));
        }
        let mut pockets = ByColor::<ByRole<u8>>::default();
        for (field, color) in [(white, Color::White), (black, Color::Black)] {
            legacy_hand(field, pockets.get_mut(color)).ok_or_else(|| {
                FenError::Syntax(format!(
                    "{} hand '{field}' must be '-' or counts and pieces like 2P1R",
                    if color == Color::White {
                        "White's"
                    } else {
                        "Black's"
                    }
                ))
            })?;
        }
        setup.pockets = Some(pockets);
    }
    Ok(setup)
}

/// A standard chess position, with the errors explained; pieces in hand
/// are refused.
pub fn parse_chess(text: &str) -> Result<shakmaty::Chess, FenError> {
    let setup = parse_setup(text)?;
    if setup.pockets.is_some() {
        return Err(FenError::Illegal(
            "pieces in hand exist only in crazyhouse and bughouse".into(),
        ));
    }
    shakmaty::Chess::from_setup(setup, CastlingMode::Standard)
        .map_err(|e| FenError::Illegal(explain_illegal(e.kinds())))
}

/// A Crazyhouse board (or, with `bughouse`, one board of Bughouse, which
/// may hold more of a piece than a chess set has) from any of the forms
/// above.
pub fn parse_crazyhouse(text: &str, bughouse: bool) -> Result<Crazyhouse, FenError> {
    let mut setup = parse_setup(text)?;
    // No pocket given: empty hands.
    setup.pockets.get_or_insert_with(Default::default);
    let pos = Crazyhouse::from_setup(setup, CastlingMode::Standard);
    let pos = if bughouse {
        pos.or_else(PositionError::ignore_too_much_material)
    } else {
        pos
    };
    pos.map_err(|e| FenError::Illegal(explain_illegal(e.kinds())))
}

/// The FEN of a position (pockets in brackets, promoted pieces with `~`).
pub fn write_fen<P: Position>(pos: &P) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// A Bughouse position: board A's and board B's FEN joined by ` | `.
pub fn parse_bughouse(text: &str) -> Result<[Crazyhouse; 2], FenError> {
    let Some((a, b)) = text.split_once('|') else {
        return Err(FenError::Syntax(
            "a bughouse position is two FENs joined by ' | ' (board A first)".into(),
        ));
    };
    let on = |board: &str, e: FenError| match e {
        FenError::Syntax(s) => FenError::Syntax(format!("board {board}: {s}")),
        FenError::Illegal(s) => FenError::Illegal(format!("board {board}: {s}")),
    };
    Ok([
        parse_crazyhouse(a, true).map_err(|e| on("A", e))?,
        parse_crazyhouse(b, true).map_err(|e| on("B", e))?,
    ])
}

/// Writes a Bughouse position (`FEN A | FEN B`).
pub fn write_bughouse<P: Position>(a: &P, b: &P) -> String {
    format!("{} | {}", write_fen(a), write_fen(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

    #[test]
    fn pocket_forms() {
        let bracket = parse_crazyhouse(&format!("{START}[Pn] w KQkq - 0 1"), true).unwrap();
        let slash = parse_crazyhouse(&format!("{START}/Pn w KQkq - 0 1"), true).unwrap();
        let legacy = parse_crazyhouse(&format!("{START} w KQkq - 0 1 P n"), true).unwrap();
        let legacy2 = parse_crazyhouse(&format!("{START} w KQkq - 0 1 1p 1N"), true).unwrap();
        for p in [&slash, &legacy, &legacy2] {
            assert_eq!(write_fen(p), write_fen(&bracket));
        }
        assert_eq!(write_fen(&bracket), format!("{START}[Pn] w KQkq - 0 1"));
        // Counts: two pawns and a rook for White, nothing for Black.
        let p = parse_crazyhouse("4k3/8/8/8/8/8/8/4K3 w - - 0 1 2P1R -", false).unwrap();
        assert_eq!(write_fen(&p), "4k3/8/8/8/8/8/8/4K3[PPR] w - - 0 1");
        // EPD without counters, no pocket at all: empty hands.
        let p = parse_crazyhouse("4k3/8/8/8/8/8/8/4K3 w - -", false).unwrap();
        assert_eq!(write_fen(&p), "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        // Slash forms: lichess' and Fairy-Stockfish's, empty hands too.
        for (text, want) in [
            (format!("{START}/[Pn] w KQkq - 0 1"), "[Pn]"),
            (format!("{START}/[] b KQkq - 0 1"), "[]"),
            (format!("{START}/ w KQkq - 0 1"), "[]"),
            (format!("{START}/Pn w KQkq - 0 1"), "[Pn]"),
        ] {
            let p = parse_crazyhouse(&text, true).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(
                write_fen(&p).starts_with(&format!("{START}{want} ")),
                "{text}"
            );
        }
        // A promoted queen keeps its mark.
        let p = parse_crazyhouse("4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1", false).unwrap();
        assert!(write_fen(&p).contains("Q~"));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |s: &str| parse_crazyhouse(s, false).unwrap_err().to_string();
        assert!(err("4k3/8/8/8/8/8/8/4K3[X] w - - 0 1").contains("pocket"));
        assert!(err("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1").contains("never in a pocket"));
        assert!(err("4k3/8/8/8/8/8/8/4K3[QQQ] w - - 0 1").contains("more pieces"));
        assert!(err("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1 P -").contains("given twice"));
        assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 2 -").contains("White's hand"));
        assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 - 3x").contains("Black's hand"));
        assert!(err("").contains("empty"));
        // The wrong field is named, and quoted.
        let e = err("4k3/8/8/8/8/8/8/4K3[] x - - 0 1");
        assert!(e.contains("side to move") && e.contains("'x'"), "{e}");
        let e = err("4k3/8/8/8/8/8/8/4K3[] w KX - 0 1");
        assert!(e.contains("castling") && e.contains("'KX'"), "{e}");
        let e = err("4k3/8/8/8/8/8/8/4K3/[Z] w - - 0 1");
        assert!(e.contains("pocket") && e.contains("'Z'"), "{e}");
        let e = err("4k3/8/8/9/8/8/8/4K3[] w - - 0 1");
        assert!(
            e.contains("8 ranks") && e.contains("'4k3/8/8/9/8/8/8/4K3'"),
            "{e}"
        );
        // Bughouse allows more material than a chess set.
        assert!(parse_crazyhouse("4k3/8/8/8/8/8/8/4K3[QQQ] w - - 0 1", true).is_ok());
    }

    #[test]
    fn bughouse_pairs() {
        let text = format!("{START}[] w KQkq - 0 1 | {START}[Pp] b KQkq - 0 1");
        let [a, b] = parse_bughouse(&text).unwrap();
        assert_eq!(write_bughouse(&a, &b), text);
        let e = parse_bughouse(&format!("{START}[] w KQkq - 0 1 | nonsense")).unwrap_err();
        assert!(e.to_string().contains("board B"), "{e}");
        assert!(parse_bughouse(START).is_err());
    }
}
