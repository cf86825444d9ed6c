//! Crazyhouse games in PGN: `[Variant "Crazyhouse"]`, drops in SAN
//! (`B@b6`, `P@e6`, `@e4`), as lichess and other servers write them.
//!
//! Written by [`super::write_variant_pgn`]; read here into a
//! [`Game<Zh>`]: tags, the main line with its comments (`[%clk]` kept in
//! them), the result and how the game ended. Variations are skipped (the
//! replay screen of standard games keeps them; Crazyhouse files are read
//! for their games). A game of another variant is refused by name.

use super::{Ending, Game, GameResult, Termination};
use crate::engine::{Board, Zh};
use crate::game::notation::parse_variant_move;
use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use std::io::Cursor;
use std::ops::ControlFlow;

/// Why a game of the file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantPgnError {
    #[error("game {game}: variant '{variant}' is not crazyhouse")]
    WrongVariant { game: usize, variant: String },
    #[error("game {game}: bad FEN: {reason}")]
    BadFen { game: usize, reason: String },
    #[error("game {game}, move {number}{dots} {san}: {reason}", dots = if *.white { "." } else { "..." })]
    BadMove {
        game: usize,
        number: u32,
        white: bool,
        san: String,
        reason: String,
    },
    #[error("game {game}: {reason}")]
    Malformed { game: usize, reason: String },
}

struct Tags {
    headers: Vec<(String, String)>,
    fen: Option<String>,
    variant: Option<String>,
}

struct Movetext {
    game: Game<Zh>,
    error: Option<VariantPgnError>,
    outcome: Option<Outcome>,
    /// Comments before the first move.
    leading: Vec<String>,
}

struct ZhVisitor {
    games: usize,
}

impl Visitor for ZhVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<Game<Zh>, VariantPgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(Tags {
            headers: Vec::new(),
            fen: None,
            variant: None,
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
        match name.as_str() {
            "FEN" => tags.fen = Some(value),
            "SetUp" | "" => {}
            _ => {
                if name == "Variant" {
                    tags.variant = Some(value.clone());
                }
                tags.headers.push((name, value));
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let game = self.games;
        if let Some(v) = &tags.variant
            && !v.trim().eq_ignore_ascii_case("crazyhouse")
        {
            return ControlFlow::Break(Err(VariantPgnError::WrongVariant {
                game,
                variant: v.clone(),
            }));
        }
        let start = match &tags.fen {
            Some(fen) => match Board::<Zh>::from_variant_fen(fen) {
                Ok(b) => b,
                Err(e) => {
                    return ControlFlow::Break(Err(VariantPgnError::BadFen {
                        game,
                        reason: e.to_string(),
                    }));
                }
            },
            None => Board::start_position(),
        };
        let mut g = Game::new(start);
        g.headers = tags.headers;
        ControlFlow::Continue(Movetext {
            game: g,
            error: None,
            outcome: None,
            leading: Vec::new(),
        })
    }

    fn san(&mut self, m: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        if m.error.is_some() {
            return ControlFlow::Continue(());
        }
        let board = m.game.current();
        let text = san.to_string();
        let parsed = san
            .san
            .to_move(board.pos())
            .or_else(|_| parse_variant_move(board.pos(), &text).map_err(|e| e.to_string()));
        match parsed {
            Ok(mv) => m.game.push(mv, None),
            Err(reason) => {
                let pos = board.pos();
                use shakmaty::Position;
                m.error = Some(VariantPgnError::BadMove {
                    game: self.games,
                    number: pos.fullmoves().get(),
                    white: pos.turn() == shakmaty::Color::White,
                    san: text,
                    reason: reason.to_string(),
                });
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn comment(&mut self, m: &mut Self::Movetext, c: RawComment<'_>) -> ControlFlow<Self::Output> {
        let text = String::from_utf8_lossy(c.as_bytes())
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() || m.error.is_some() {
            return ControlFlow::Continue(());
        }
        if m.game.moves().is_empty() {
            m.leading.push(text);
        } else {
            let joined = match m.game.comments().last().cloned().flatten() {
                Some(before) => format!("{before} {text}"),
                None => text,
            };
            m.game.set_last_comment(Some(joined));
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, m: &mut Self::Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        m.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, m: Self::Movetext) -> Self::Output {
        if let Some(e) = m.error {
            return Err(e);
        }
        let mut game = m.game;
        let _ = m.leading;
        game.ending = game.rule_ending(false).or_else(|| {
            let result = match m.outcome? {
                Outcome::Known(pgn_reader::KnownOutcome::Decisive { winner }) => {
                    GameResult::win_for(winner)
                }
                Outcome::Known(pgn_reader::KnownOutcome::Draw) => GameResult::Draw,
                _ => return None,
            };
            let tag = game
                .header("Termination")
                .unwrap_or("")
                .to_ascii_lowercase();
            let last = game
                .comments()
                .last()
                .cloned()
                .flatten()
                .unwrap_or_default()
                .to_ascii_lowercase();
            let termination = if tag.contains("time") || last.contains("time") {
                Termination::TimeForfeit
            } else if result == GameResult::Draw {
                Termination::Agreement
            } else {
                Termination::Resignation
            };
            Some(Ending {
                result,
                termination,
            })
        });
        Ok(game)
    }
}

/// Reads every game of a Crazyhouse PGN text.
pub fn read_variant_pgn(text: &str) -> Vec<Result<Game<Zh>, VariantPgnError>> {
    let mut reader = Reader::new(Cursor::new(text.as_bytes()));
    let mut visitor = ZhVisitor { games: 0 };
    let mut out = Vec::new();
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(r)) => out.push(r),
            Ok(None) => break,
            Err(e) => {
                out.push(Err(VariantPgnError::Malformed {
                    game: visitor.games,
                    reason: e.to_string(),
                }));
                if reader.skip_game().is_err() {
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::write_variant_pgn;

    #[test]
    fn round_trip() {
        let mut g: Game<Zh> = Game::new(Board::start_position());
        g.set_header("Event", "zh test");
        g.set_header("White", "A");
        g.set_header("Black", "B");
        for (uci, comment) in [
            ("e2e4", Some("[%clk 0:01:00]")),
            ("d7d5", None),
            ("e4d5", None),
            ("d8d5", None),
            ("P@e4", Some("a pawn from the hand")),
            ("d5e4", None),
        ] {
            let m = g.current().parse_uci(uci).unwrap();
            g.push(m, comment.map(String::from));
        }
        let text = write_variant_pgn(&g);
        assert!(text.contains("[Variant \"Crazyhouse\"]"), "{text}");
        assert!(text.contains("3. P@e4"), "{text}");
        let back = read_variant_pgn(&text);
        assert_eq!(back.len(), 1);
        let b = back[0].as_ref().unwrap();
        assert_eq!(b.moves(), g.moves());
        assert_eq!(b.comments(), g.comments());
        assert_eq!(b.header("Event"), Some("zh test"));
        assert_eq!(b.current().fen(), g.current().fen());
    }

    #[test]
    fn errors_name_the_game_and_move() {
        let text = "[Variant \"Crazyhouse\"]\n\n1. e4 N@f6 *\n\n[Variant \"Atomic\"]\n\n1. e4 *\n";
        let r = read_variant_pgn(text);
        assert_eq!(r.len(), 2);
        let e = r[0].as_ref().unwrap_err().to_string();
        assert!(
            e.contains("game 1, move 1... N@f6") && e.contains("no knight"),
            "{e}"
        );
        let e = r[1].as_ref().unwrap_err().to_string();
        assert!(e.contains("Atomic"), "{e}");
    }
}
