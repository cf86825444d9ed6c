//! `kibitz opening`: the name of the opening a line of moves (or a
//! position) is in, from lichess' opening table.

use anyhow::Result;
use kibitz::engine::Board;
use kibitz::game::notation::parse_move;
use kibitz::game::openings::name_line;
use shakmaty::{Chess, Color, Move, Position};

/// Input the command cannot use (a bad FEN, an illegal or ambiguous
/// move): `main` ends with exit status 2 for it, as for a bad option.
#[derive(Debug)]
pub struct BadInput(pub String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Prints the opening of `moves` played from `fen` (or the initial
/// position): "C65 Ruy Lopez: Berlin Defense", or "unknown".
pub fn run(fen: Option<&str>, moves: Option<&str>) -> Result<()> {
    println!("{}", name(fen, moves.unwrap_or(""))?);
    Ok(())
}

/// The opening's name (the last named position along the moves), or
/// "unknown". Moves are SAN or UCI, with or without move numbers; a
/// result at the end (`1-0`, `*`) is allowed.
pub fn name(fen: Option<&str>, moves: &str) -> Result<String, BadInput> {
    let start: Chess = match fen {
        Some(f) => Board::from_fen(f.trim())
            .map_err(|e| BadInput(format!("bad FEN '{f}': {e}")))?
            .into_chess(),
        None => Chess::default(),
    };
    let tokens: Vec<&str> = moves.split_ascii_whitespace().collect();
    let (_, played) = play_tokens(&start, &tokens)?;
    Ok(name_line(&start, &played).map_or_else(|| "unknown".to_string(), |(_, o)| o.to_string()))
}

/// Plays `tokens` (SAN or UCI; move numbers, `12.e4` and a result at the
/// end are passed over) from `start`: the position reached and the moves,
/// or which move is bad and why.
pub(crate) fn play_tokens(start: &Chess, tokens: &[&str]) -> Result<(Chess, Vec<Move>), BadInput> {
    let mut pos = start.clone();
    let mut played = Vec::new();
    for &tok in tokens {
        if is_move_number(tok) || ["1-0", "0-1", "1/2-1/2", "½-½", "*"].contains(&tok) {
            continue;
        }
        let tok = tok
            .find('.')
            .filter(|&i| tok[..i].bytes().all(|b| b.is_ascii_digit()))
            .map_or(tok, |i| tok[i..].trim_start_matches('.'));
        let m = parse_move(&pos, tok).map_err(|e| {
            let number = pos.fullmoves().get();
            let dots = if pos.turn() == Color::White {
                "."
            } else {
                "..."
            };
            BadInput(format!("move {number}{dots} {tok}: {e}"))
        })?;
        pos.play_unchecked(m);
        played.push(m);
    }
    Ok((pos, played))
}

/// `12.` or `12...` on its own.
pub(crate) fn is_move_number(tok: &str) -> bool {
    let digits = tok.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && tok.len() > digits && tok[digits..].bytes().all(|b| b == b'.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_any_notation_name_the_opening() {
        let berlin = "C65 Ruy Lopez: Berlin Defense";
        for moves in [
            "e4 e5 Nf3 Nc6 Bb5 Nf6",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6",
            "1.e4 e5 2.Nf3 Nc6 3.Bb5 Nf6 *",
            "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6",
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. h4 h5",
        ] {
            assert_eq!(name(None, moves).unwrap(), berlin, "{moves}");
        }
        assert_eq!(name(None, "").unwrap(), "unknown");
        let fen = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
        assert_eq!(name(Some(fen), "3... Nf6").unwrap(), berlin);
        assert_eq!(
            name(Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "").unwrap(),
            "unknown"
        );
    }

    #[test]
    fn bad_input_names_the_move() {
        let e = name(None, "1. e4 e5 2. Nf3 Nc6 3. Bb6").unwrap_err();
        assert!(e.0.starts_with("move 3. Bb6: "), "{e}");
        let e = name(None, "1. Nf3 e6 2. d4 d6 3. Nd2").unwrap_err();
        assert!(
            e.0.starts_with("move 3. Nd2: ") && e.0.contains("ambiguous"),
            "{e}"
        );
        let e = name(None, "e4 e5 N").unwrap_err();
        assert!(e.0.starts_with("move 2. N: "), "{e}");
        let e = name(Some("not a fen"), "").unwrap_err();
        assert!(e.0.starts_with("bad FEN 'not a fen'"), "{e}");
    }
}
