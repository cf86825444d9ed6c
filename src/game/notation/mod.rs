//! Move input typed by the user: SAN (lenient) or UCI.
//!
//! [`parse_move`] accepts what people actually type: `e4`, `Nf3`, `nf3`,
//! `exd5`, `ed5`, `Nd5` for a capture, `O-O`, `0-0`, `o-o`, `e8=Q`, `e8q`,
//! `e8` (a queen), `e2e4`, `e7e8q`, `e1g1`, `e1h1`, `1. e4`, `Nf3+!?`. When
//! the text is not a legal move, the error says why in one plain sentence
//! for the status line. Exact SAN is read as the standard defines it, so
//! `bxc3` is a b-pawn capture even when a bishop could also take.

mod drops;
mod errors;
mod explain;
mod numbered;

pub use drops::{drop_text, parse_variant_move};
pub use errors::{CastlingBlock, MoveInputError, color_name, or_list, role_name};
use explain::*;
pub use numbered::{numbered_line, numbered_san};

use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, File, Move, MoveList, Position, Rank, Role, Square};

/// Parses SAN (lenient) or UCI text against the position.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, MoveInputError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveInputError::Empty);
    }
    let core = clean(text);
    let syntax = || MoveInputError::Syntax(shown(text));
    if core.is_empty() || !core.is_ascii() {
        return Err(syntax());
    }
    let parsed = parse(core.as_bytes()).ok_or_else(syntax)?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(MoveInputError::GameOver {
            checkmate: pos.is_check(),
        });
    }
    // Exact SAN means what the standard says: `bxc3` is the b-pawn even
    // when a bishop could also take on c3 (that one is `Bxc3`). Files
    // written in SAN read back this way; only looser text needs guessing.
    if let Ok(san) = core.parse::<San>()
        && let Ok(m) = san.to_move(pos)
        && San::from_move(pos, m).to_string() == core
    {
        return Ok(m);
    }
    match parsed {
        Parsed::Castle(side) => castle(pos, side),
        Parsed::Uci {
            from,
            to,
            promotion,
        } => uci(pos, &legal, &core, from, to, promotion),
        Parsed::San(intents) => resolve(pos, &legal, &echo(&core), &intents),
    }
}

/// Could `prefix` be the start of some move text at all, legal or not
/// (SAN, lenient SAN, UCI, castling)? Piece letters may be lower case.
pub fn looks_like_move_prefix(prefix: &str) -> bool {
    #[derive(Clone, Copy)]
    enum C {
        File,
        Rank,
        Piece,
        Promo,
        Lit(u8),
        Castle,
        Held,
    }
    fn fits(class: C, b: u8) -> bool {
        match class {
            C::File => (b'a'..=b'h').contains(&b),
            C::Rank => (b'1'..=b'8').contains(&b),
            C::Piece => b"NBRQKnbrqk".contains(&b),
            C::Promo => b"QRBNqrbn".contains(&b),
            C::Lit(l) => b == l,
            C::Castle => b"Oo0".contains(&b),
            C::Held => b"PNBRQpnbrq".contains(&b),
        }
    }
    /// Elements with a flag: optional or not.
    fn matches(text: &[u8], pattern: &[(C, bool)]) -> bool {
        match (text.first(), pattern.first()) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(&b), Some(&(class, optional))) => {
                (fits(class, b) && matches(&text[1..], &pattern[1..]))
                    || (optional && matches(text, &pattern[1..]))
            }
        }
    }
    use C::*;
    const PATTERNS: [&[(C, bool)]; 6] = [
        // UCI: e2e4, e7e8q.
        &[
            (File, false),
            (Rank, false),
            (File, false),
            (Rank, false),
            (Promo, true),
        ],
        // Pawn push, maybe promoting: e4, e8=Q, e8q.
        &[
            (File, false),
            (Rank, false),
            (Lit(b'='), true),
            (Promo, true),
        ],
        // Pawn capture: exd5, ed5, exd8=Q.
        &[
            (File, false),
            (Lit(b'x'), true),
            (File, false),
            (Rank, false),
            (Lit(b'='), true),
            (Promo, true),
        ],
        // Piece move: Nf3, Nbd7, R1e2, Qh4xe1, nf3.
        &[
            (Piece, false),
            (File, true),
            (Rank, true),
            (Lit(b'x'), true),
            (File, false),
            (Rank, false),
        ],
        // A drop (Crazyhouse, Bughouse): N@f3, @f3 (a pawn), n@f3.
        &[
            (Held, true),
            (Lit(b'@'), false),
            (File, false),
            (Rank, false),
        ],
        // Castling: O-O, 0-0-0, o-o.
        &[
            (Castle, false),
            (Lit(b'-'), false),
            (Castle, false),
            (Lit(b'-'), true),
            (Castle, true),
        ],
    ];
    let t = prefix.trim().as_bytes();
    !t.is_empty() && PATTERNS.iter().any(|p| matches(t, p))
}

/// Could `prefix` be the start of a move typed in this position? Compares
/// (ignoring case) against the ways a legal move can be written: SAN with
/// and without `x`, a piece move with its origin square, UCI, and
/// castling as `O-O`/`0-0`. Used to tell a typed move from a command key.
pub fn could_begin_move(pos: &Chess, prefix: &str) -> bool {
    let p = prefix.trim_start();
    if p.is_empty() {
        return false;
    }
    // A piece letter (upper case in SAN) may be typed in either case; file
    // letters, digits and `x` must be as written.
    let begins = |form: &str| {
        form.len() >= p.len()
            && form
                .chars()
                .zip(p.chars())
                .all(|(f, c)| f == c || (f.is_ascii_uppercase() && f.to_ascii_lowercase() == c))
    };
    pos.legal_moves().iter().any(|m| {
        let san = San::from_move(pos, *m).to_string();
        if m.is_castle() {
            return begins(&san) || begins(&san.replace('O', "0"));
        }
        if begins(&san) || begins(&san.replace(['x', '='], "")) {
            return true;
        }
        let (Some(from), to) = (m.from(), m.to()) else {
            return false;
        };
        let promo = m
            .promotion()
            .map(|r| r.char().to_string())
            .unwrap_or_default();
        if begins(&format!("{from}{to}{promo}")) {
            return true;
        }
        if m.role() == Role::Pawn {
            from.file() != to.file() && begins(&format!("{}{to}", from.file().char()))
        } else {
            let c = m.role().upper_char();
            begins(&format!("{c}{from}{to}")) || begins(&format!("{c}{from}x{to}"))
        }
    })
}

/// The text as typed, safe and short enough for a status line.
fn shown(text: &str) -> String {
    const MAX: usize = 20;
    let mut out: String = text
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}

/// The cleaned input for messages: a lowercase piece letter (other than
/// `b`, which may be a file) is shown in upper case.
fn echo(core: &str) -> String {
    let mut s = core.to_string();
    if let Some(first) = s.get(0..1)
        && matches!(first, "n" | "r" | "q" | "k")
    {
        s.replace_range(0..1, &first.to_ascii_uppercase());
    }
    s
}

/// Removes whitespace, a leading move number (`12.`, `12...`) and trailing
/// annotations (`+`, `#`, `!`, `?`, `e.p.`).
fn clean(text: &str) -> String {
    let mut s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && s.as_bytes().get(digits) == Some(&b'.') {
        let dots = s[digits..].bytes().take_while(|&b| b == b'.').count();
        s.drain(..digits + dots);
    }
    loop {
        let before = s.len();
        while s.ends_with(['+', '#', '!', '?']) {
            s.pop();
        }
        let lower = s.to_ascii_lowercase();
        if lower.ends_with("e.p.") {
            s.truncate(s.len() - 4);
        } else if lower.ends_with("ep") && s.len() > 2 && s.as_bytes()[s.len() - 3].is_ascii_digit()
        {
            s.truncate(s.len() - 2);
        }
        if s.len() == before {
            return s;
        }
    }
}

enum Parsed {
    Castle(CastlingSide),
    Uci {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    /// Every reading of the text (two for a leading lowercase `b`).
    San(Vec<Intent>),
}

/// What a SAN-like text asks for.
#[derive(Clone, Copy, Debug)]
struct Intent {
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    /// `x` was written.
    capture: bool,
    to: Square,
    /// As written; `None` means a queen when the move promotes.
    promotion: Option<Role>,
}

impl Intent {
    fn origin(&self) -> Option<Square> {
        Some(Square::from_coords(self.file?, self.rank?))
    }

    /// A pawn move without an origin file or `x` is a push.
    fn is_pawn_push(&self) -> bool {
        self.role == Role::Pawn && !self.capture && self.file.is_none_or(|f| f == self.to.file())
    }

    fn matches(&self, m: &Move) -> bool {
        let Some(from) = m.from() else {
            return false;
        };
        if m.is_castle() || m.role() != self.role || m.to() != self.to {
            return false;
        }
        if self.file.is_some_and(|f| f != from.file())
            || self.rank.is_some_and(|r| r != from.rank())
        {
            return false;
        }
        if self.capture && !m.is_capture() {
            return false;
        }
        if self.is_pawn_push() && from.file() != self.to.file() {
            return false;
        }
        match (self.promotion, m.promotion()) {
            (Some(p), Some(q)) => p == q,
            (None, Some(q)) => q == Role::Queen,
            (None, None) => true,
            (Some(_), None) => false,
        }
    }

    /// The intent written back as SAN-like text (for messages).
    fn text(&self) -> String {
        let mut s = String::new();
        if self.role != Role::Pawn {
            s.push(self.role.upper_char());
        }
        if let Some(f) = self.file {
            s.push(f.char());
        }
        if let Some(r) = self.rank {
            s.push(r.char());
        }
        if self.capture {
            s.push('x');
        }
        s.push_str(&self.to.to_string());
        if let Some(p) = self.promotion {
            s.push('=');
            s.push(p.upper_char());
        }
        s
    }

    /// " on the b-file", " on rank 1" or "" (the pieces the text allows).
    fn which(&self) -> String {
        match (self.file, self.rank) {
            (Some(f), None) => format!(" on the {}-file", f.char()),
            (None, Some(r)) => format!(" on rank {}", r.char()),
            (Some(f), Some(r)) => format!(" on {}", Square::from_coords(f, r)),
            (None, None) => String::new(),
        }
    }

    fn is_capture_shaped(&self) -> bool {
        self.capture || (self.role == Role::Pawn && !self.is_pawn_push())
    }
}

fn parse(core: &[u8]) -> Option<Parsed> {
    let castle: Vec<u8> = core
        .iter()
        .map(|&b| {
            if b == b'0' {
                b'O'
            } else {
                b.to_ascii_uppercase()
            }
        })
        .collect();
    match castle.as_slice() {
        b"O-O" | b"OO" => return Some(Parsed::Castle(CastlingSide::KingSide)),
        b"O-O-O" | b"OOO" => return Some(Parsed::Castle(CastlingSide::QueenSide)),
        _ => {}
    }
    let lower = core.to_ascii_lowercase();
    if let Some((from, to, promotion)) = parse_uci(&lower) {
        return Some(Parsed::Uci {
            from,
            to,
            promotion,
        });
    }
    let (&first, _) = core.split_first()?;
    let mut intents = Vec::new();
    let mut add = |role, body: &[u8]| {
        if let Some(i) = parse_body(role, body) {
            intents.push(i);
        }
    };
    match first {
        b'N' | b'n' => add(Role::Knight, &lower[1..]),
        b'B' => add(Role::Bishop, &lower[1..]),
        b'b' => {
            // A b-pawn or a bishop: keep both readings, the position decides.
            add(Role::Pawn, &lower);
            add(Role::Bishop, &lower[1..]);
        }
        b'R' | b'r' => add(Role::Rook, &lower[1..]),
        b'Q' | b'q' => add(Role::Queen, &lower[1..]),
        b'K' | b'k' => add(Role::King, &lower[1..]),
        b'P' | b'p' => add(Role::Pawn, &lower[1..]),
        _ => add(Role::Pawn, &lower),
    }
    (!intents.is_empty()).then_some(Parsed::San(intents))
}

/// `e2e4`, `e7e8q`, also `e2-e4`, `e4xd5`, `e7e8=q` (lowercase input).
fn parse_uci(l: &[u8]) -> Option<(Square, Square, Option<Role>)> {
    let from = Square::from_ascii(l.get(0..2)?).ok()?;
    let mut rest = l.get(2..)?;
    if let [b'-' | b'x' | b':', tail @ ..] = rest {
        rest = tail;
    }
    let to = Square::from_ascii(rest.get(0..2)?).ok()?;
    rest = rest.get(2..)?;
    if let [b'=', tail @ ..] = rest {
        rest = tail;
    }
    match rest {
        [] => Some((from, to, None)),
        [c] => Some((from, to, Some(Role::from_char(char::from(*c))?))),
        _ => None,
    }
}

/// The part of a SAN after the piece letter, lowercase:
/// `[file][rank][x]square[[=]promotion]`.
fn parse_body(role: Role, body: &[u8]) -> Option<Intent> {
    let mut b = body;
    let mut promotion = None;
    if let [head @ .., last] = b
        && matches!(last, b'q' | b'r' | b'b' | b'n' | b'k' | b'p')
        && matches!(head.last(), Some(b'1'..=b'8' | b'='))
    {
        promotion = Role::from_char(char::from(*last));
        b = head;
        if let [head @ .., b'='] = b {
            b = head;
        }
    }
    let split = b.len().checked_sub(2)?;
    let (mut prefix, square) = b.split_at(split);
    let to = Square::from_ascii(square).ok()?;
    let mut capture = false;
    if let [head @ .., c @ (b'x' | b':' | b'-')] = prefix {
        capture = *c != b'-';
        prefix = head;
    }
    let mut file = None;
    if let [c, tail @ ..] = prefix
        && let Some(f) = File::from_char(char::from(*c))
    {
        file = Some(f);
        prefix = tail;
    }
    let mut rank = None;
    if let [c, tail @ ..] = prefix
        && let Some(r) = Rank::from_char(char::from(*c))
    {
        rank = Some(r);
        prefix = tail;
    }
    if !prefix.is_empty() {
        return None;
    }
    if role == Role::Pawn {
        // `4e5` means nothing; `bb5` is the bishop, not a b-pawn push.
        if rank.is_some() && file.is_none() {
            return None;
        }
        if file == Some(to.file()) && rank.is_none() {
            return None;
        }
    }
    Some(Intent {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

fn uci(
    pos: &Chess,
    legal: &MoveList,
    input: &str,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, MoveInputError> {
    let board = pos.board();
    let Some(piece) = board.piece_at(from) else {
        return Err(MoveInputError::EmptySquare(from));
    };
    if piece.color != pos.turn() {
        return Err(MoveInputError::NotYourPiece {
            square: from,
            role: piece.role,
            owner: piece.color,
        });
    }
    if piece.role == Role::King
        && promotion.is_none()
        && let Some(side) = castling_side_of_king_move(pos, from, to)
    {
        return castle(pos, side);
    }
    let intent = Intent {
        role: piece.role,
        file: Some(from.file()),
        rank: Some(from.rank()),
        capture: false,
        to,
        promotion,
    };
    resolve(pos, legal, input, &[intent])
}

/// A king move that stands for castling: two squares from the e-file along
/// the back rank (`e1g1`), or onto one of our rooks in a corner or with
/// castling rights (`e1h1`).
fn castling_side_of_king_move(pos: &Chess, from: Square, to: Square) -> Option<CastlingSide> {
    let us = pos.turn();
    if from.rank() != us.backrank() || to.rank() != us.backrank() || from == to {
        return None;
    }
    let side = CastlingSide::from_king_side(to.file() > from.file());
    let rook_square = pos.board().piece_at(to) == Some(us.rook())
        && (matches!(to.file(), File::A | File::H) || pos.castles().rook(us, side) == Some(to));
    let two_steps = from.file() == File::E && matches!(to.file(), File::C | File::G);
    (rook_square || two_steps).then_some(side)
}

fn castle(pos: &Chess, side: CastlingSide) -> Result<Move, MoveInputError> {
    if let Some(&m) = pos.castling_moves(side).first() {
        return Ok(m);
    }
    let why = castling_block(pos, side);
    Err(MoveInputError::CannotCastle { side, why })
}

fn resolve(
    pos: &Chess,
    legal: &MoveList,
    input: &str,
    intents: &[Intent],
) -> Result<Move, MoveInputError> {
    // `Kg1` from e1 (or `Kxh1`) means castling.
    if let [i] = intents
        && i.role == Role::King
        && let Some(king) = pos.board().king_of(pos.turn())
        && i.file.is_none_or(|f| f == king.file())
        && i.rank.is_none_or(|r| r == king.rank())
        && i.promotion.is_none()
        && let Some(side) = castling_side_of_king_move(pos, king, i.to)
        && king.distance(i.to) > 1
    {
        return castle(pos, side);
    }
    let found: Vec<Move> = legal
        .iter()
        .filter(|m| intents.iter().any(|i| i.matches(m)))
        .copied()
        .collect();
    match found.as_slice() {
        [m] => Ok(*m),
        [] => {
            // The most specific explanation over all readings; ties go to the
            // first reading (the pawn for a lowercase `b`).
            let mut best: Option<(u8, MoveInputError)> = None;
            for i in intents {
                let (score, e) = explain(pos, i);
                if best.as_ref().is_none_or(|(s, _)| score > *s) {
                    best = Some((score, e));
                }
            }
            Err(best.map_or_else(|| MoveInputError::Syntax(shown(input)), |(_, e)| e))
        }
        many => {
            let mut candidates: Vec<String> = many
                .iter()
                .map(|&m| San::from_move(pos, m).to_string())
                .collect();
            candidates.sort();
            Err(MoveInputError::Ambiguous {
                input: input.to_string(),
                candidates,
            })
        }
    }
}

#[cfg(test)]
mod tests;
