//! The engine's game as positions, with what the drop variants (Crazyhouse,
//! Bughouse) need: the position after a line of moves with its `holding`
//! line, the bare board `setboard` takes, the one move that leads from one
//! position to another (drops included, whatever the hands hold), and the
//! engine's own move notation read back as UCI moves.

use crate::engine::variant::{ForVariant, dispatch};
use crate::engine::{Board, Variant};
use crate::variant::VariantKind;
use shakmaty::{Color, Role};

/// A position worked out from a start and moves, or a FEN.
#[derive(Clone, Debug)]
pub(super) struct Snapshot {
    pub(super) fen: String,
    pub(super) white_to_move: bool,
    /// It is the variant's start position.
    pub(super) is_start: bool,
    /// `holding [..] [..]` (the drop variants).
    pub(super) holding: Option<String>,
}

/// The `holding` line for a board of `kind` given as a FEN (for news while
/// the engine thinks); `None` without pockets or for a bad FEN.
pub fn holding_line(kind: VariantKind, fen: &str) -> Option<String> {
    snapshot(kind, Some(fen), &[]).ok().and_then(|s| s.holding)
}

/// The placement of a FEN without its pockets and promotion marks, for
/// `setboard` (Sjeng reads the pieces in hand from `holding` only).
pub(super) fn board_only(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(first) = fields.first_mut() {
        let mut placement = first.split('[').next().unwrap_or_default().replace('~', "");
        // The other pocket form: a ninth rank.
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() == 9 {
            placement = ranks[..8].join("/");
        }
        *first = placement;
    }
    fields.join(" ")
}

/// Two FENs have the same board, side to move, castling and en passant.
pub(super) fn same_position(a: &str, b: &str) -> bool {
    let key = |f: &str| -> Vec<String> {
        board_only(f)
            .split_whitespace()
            .take(4)
            .map(str::to_string)
            .collect()
    };
    key(a) == key(b)
}

/// The position after `moves` from `start` in `kind`.
pub(super) fn snapshot(
    kind: VariantKind,
    start: Option<&str>,
    moves: &[String],
) -> Result<Snapshot, String> {
    struct Go<'a>(Option<&'a str>, &'a [String]);
    impl ForVariant for Go<'_> {
        type Out = Result<Snapshot, String>;
        fn run<V: Variant>(self) -> Self::Out {
            let mut b = match self.0 {
                Some(f) => Board::<V>::from_variant_fen(f).map_err(|e| format!("{f}: {e}"))?,
                None => Board::<V>::start_position(),
            };
            let is_start = self.1.is_empty() && b.fen() == Board::<V>::start_position().fen();
            for m in self.1 {
                let mv = b.parse_uci(m)?;
                b = b.play(mv);
            }
            Ok(Snapshot {
                fen: b.fen(),
                white_to_move: b.turn() == Color::White,
                is_start,
                holding: V::DROPS.then(|| holding(&b)),
            })
        }
    }
    dispatch(kind, Go(start, moves))
}

/// The FEN after the UCI move `m` from `fen`.
pub(super) fn play_fen(kind: VariantKind, fen: &str, m: &str) -> Option<String> {
    struct Go<'a>(&'a str, &'a str);
    impl ForVariant for Go<'_> {
        type Out = Option<String>;
        fn run<V: Variant>(self) -> Self::Out {
            let b = Board::<V>::from_variant_fen(self.0).ok()?;
            let m = b.parse_uci(self.1).ok()?;
            Some(b.play(m).fen())
        }
    }
    dispatch(kind, Go(fen, m))
}

/// `holding [WHITE'S] [black's]`.
fn holding<V: Variant>(b: &Board<V>) -> String {
    let hand = |c: Color| -> String {
        let p = b.pocket(c);
        let mut s = String::new();
        for role in [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for _ in 0..p[role] {
                s.push(role.of(c).char());
            }
        }
        s
    };
    format!("holding [{}] [{}]", hand(Color::White), hand(Color::Black))
}

/// The one legal move from `before` to `after` (their boards, ignoring the
/// pieces in hand, which the partner may have changed; a drop is looked
/// for whatever the hand holds).
pub(super) fn step(kind: VariantKind, before: &str, after: &str) -> Option<String> {
    struct Go<'a>(&'a str, &'a str);
    impl ForVariant for Go<'_> {
        type Out = Option<String>;
        fn run<V: Variant>(self) -> Self::Out {
            let b = Board::<V>::from_variant_fen(self.0).ok()?;
            let a = Board::<V>::from_variant_fen(self.1).ok()?;
            if V::DROPS && a.turn() != b.turn() {
                // A drop: one more piece of the mover's, nothing else moved.
                let (before, after) = (b.board(), a.board());
                let added = after.occupied() & !before.occupied();
                if added.count() == 1
                    && (before.occupied() & !after.occupied()).is_empty()
                    && let Some(sq) = added.first()
                    && let Some(piece) = after.piece_at(sq)
                    && piece.color == b.turn()
                    && before
                        .occupied()
                        .into_iter()
                        .all(|s| before.piece_at(s) == after.piece_at(s))
                {
                    return Some(format!("{}@{}", piece.role.upper_char(), sq));
                }
            }
            let mut found = b
                .legal_moves()
                .into_iter()
                .filter(|&m| same_position(&b.play(m).fen(), self.1));
            let m = found.next()?;
            // Two moves to the same position: not ours to guess.
            found.next().is_none().then(|| Board::uci(m))
        }
    }
    dispatch(kind, Go(before, after))
}

/// A line of moves in the engine's notation (coordinates or SAN; Sjeng
/// marks moves from its hash table `<Nf3>`) as UCI moves from `fen`, cut
/// at the first one that does not read.
pub(super) fn line_to_uci(kind: VariantKind, fen: &str, moves: &[String]) -> Vec<String> {
    struct Go<'a>(&'a str, &'a [String]);
    impl ForVariant for Go<'_> {
        type Out = Vec<String>;
        fn run<V: Variant>(self) -> Self::Out {
            let Ok(mut b) = Board::<V>::from_variant_fen(self.0) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            for raw in self.1 {
                let word = raw.trim_matches(['<', '>', '!', '?']);
                let word = word.trim_end_matches(['+', '#']);
                let mv = b.parse_uci(&normalize_move(word)).ok().or_else(|| {
                    shakmaty::san::San::from_ascii(word.as_bytes())
                        .ok()
                        .and_then(|san| san.to_move(b.pos()).ok())
                });
                let Some(mv) = mv else { break };
                out.push(Board::uci(mv));
                b = b.play(mv);
            }
            out
        }
    }
    dispatch(kind, Go(fen, moves))
}

/// A move as the engine wrote it, in Kibitz's UCI form (a drop's piece in
/// capitals).
pub(super) fn normalize_move(m: &str) -> String {
    let m = m.trim_end_matches(['+', '#', '!', '?']);
    match m.as_bytes() {
        [p, b'@', ..] => format!("{}{}", (*p as char).to_ascii_uppercase(), &m[1..]),
        _ => m.to_string(),
    }
}
