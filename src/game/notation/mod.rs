//! Move input typed by the user: SAN (lenient) or UCI.
//!
//! [`parse_move`] accepts what people actually type: `e4`, `Nf3`, `nf3`,
//! `exd5`, `ed5`, `Nd5` for a capture, `O-O`, `0-0`, `o-o`, `e8=Q`, `e8q`,
//! `e8` (a queen), `e2e4`, `e7e8q`, `e1g1`, `e1h1`, `1. e4`, `Nf3+!?`. When
//! the text is not a legal move, the error says why in one plain sentence
//! for the status line.

mod drops;

pub use drops::{drop_text, parse_variant_move};

use shakmaty::san::San;
use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, File, Move, MoveList, Position, Rank, Role, Square,
    attacks,
};

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

fn over_name(checkmate: &bool) -> &'static str {
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

fn other_color_name(color: &Color) -> &'static str {
    color_name(!*color)
}

fn move_verb(capture: &bool) -> &'static str {
    if *capture { "capture on" } else { "move to" }
}

fn side_name(side: &CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

/// "a", "a or b", "a, b or c".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

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
    }
    fn fits(class: C, b: u8) -> bool {
        match class {
            C::File => (b'a'..=b'h').contains(&b),
            C::Rank => (b'1'..=b'8').contains(&b),
            C::Piece => b"NBRQKnbrqk".contains(&b),
            C::Promo => b"QRBNqrbn".contains(&b),
            C::Lit(l) => b == l,
            C::Castle => b"Oo0".contains(&b),
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
    const PATTERNS: [&[(C, bool)]; 5] = [
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

fn castling_block(pos: &Chess, side: CastlingSide) -> CastlingBlock {
    let us = pos.turn();
    let board = pos.board();
    let castles = pos.castles();
    if !castles.has(us, side) {
        return CastlingBlock::NoRights;
    }
    if pos.is_check() {
        return CastlingBlock::InCheck;
    }
    if (castles.path(us, side) & board.occupied()).any() {
        return CastlingBlock::PiecesInTheWay;
    }
    let Some(king) = board.king_of(us) else {
        return CastlingBlock::Other;
    };
    let king_to = side.king_to(us);
    let occupied = board.occupied().without(king);
    for sq in attacks::between(king, king_to) {
        if board.attacks_to(sq, !us, occupied).any() {
            return CastlingBlock::PassesThroughAttack(sq);
        }
    }
    if board.attacks_to(king_to, !us, occupied).any() {
        return CastlingBlock::LandsInCheck(king_to);
    }
    CastlingBlock::Other
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

/// Moves of our pieces of `role` to `to` that follow the rules of movement
/// but may leave our king in check (castling excluded; all promotions).
fn pseudo_moves(pos: &Chess, role: Role, to: Square) -> Vec<Move> {
    fn add_pawn_move(
        out: &mut Vec<Move>,
        from: Square,
        to: Square,
        capture: Option<Role>,
        last: bool,
    ) {
        let promotions: &[Option<Role>] = if last {
            &[
                Some(Role::Queen),
                Some(Role::Rook),
                Some(Role::Bishop),
                Some(Role::Knight),
            ]
        } else {
            &[None]
        };
        for &promotion in promotions {
            out.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion,
            });
        }
    }

    let board = pos.board();
    let us = pos.turn();
    let mut out = Vec::new();
    let target = board.piece_at(to);
    if target.is_some_and(|p| p.color == us) {
        return out;
    }
    let capture = target.map(|p| p.role);
    let ours = board.by_piece(role.of(us));
    if role == Role::Pawn {
        let last = to.rank() == us.fold_wb(Rank::Eighth, Rank::First);
        let forward = us.fold_wb(1, -1);
        if target.is_none()
            && let Some(r1) = to.rank().offset(-forward)
        {
            let s1 = Square::from_coords(to.file(), r1);
            if ours.contains(s1) {
                add_pawn_move(&mut out, s1, to, None, last);
            } else if board.piece_at(s1).is_none()
                && to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth)
                && let Some(r2) = r1.offset(-forward)
            {
                let s2 = Square::from_coords(to.file(), r2);
                if ours.contains(s2) {
                    add_pawn_move(&mut out, s2, to, None, last);
                }
            }
        }
        for from in attacks::pawn_attacks(!us, to) & ours {
            if capture.is_some() {
                add_pawn_move(&mut out, from, to, capture, last);
            } else if pos.maybe_ep_square() == Some(to) {
                out.push(Move::EnPassant { from, to });
            }
        }
    } else {
        for from in ours {
            if attacks::attacks(from, role.of(us), board.occupied()).contains(to) {
                out.push(Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
        }
    }
    out
}

/// Why no legal move fits the intent, with a score: 3 when the piece could
/// go there but the king would be in check, 2 for a specific rule, 1 for
/// "nothing can get there".
fn explain(pos: &Chess, i: &Intent) -> (u8, MoveInputError) {
    if let Some(&m) = pseudo_moves(pos, i.role, i.to)
        .iter()
        .find(|m| i.matches(m))
    {
        return (3, king_safety(pos, m));
    }
    let board = pos.board();
    let us = pos.turn();
    let impossible = |reason| MoveInputError::Impossible {
        input: i.text(),
        reason,
    };
    if let Some(p) = i.promotion {
        if i.role != Role::Pawn {
            return (2, impossible("only pawns promote"));
        }
        if matches!(p, Role::King | Role::Pawn) {
            return (
                2,
                impossible("a pawn promotes to a queen, rook, bishop or knight"),
            );
        }
        if i.to.rank() != us.fold_wb(Rank::Eighth, Rank::First) {
            return (2, impossible("pawns promote only on the last rank"));
        }
    }
    let target = board.piece_at(i.to);
    if let Some(p) = target
        && p.color == us
    {
        return (
            2,
            MoveInputError::OwnPiece {
                to: i.to,
                role: p.role,
            },
        );
    }
    let ep = i.role == Role::Pawn && pos.maybe_ep_square() == Some(i.to);
    if i.capture && target.is_none() && !ep {
        return (2, MoveInputError::NothingToCapture(i.to));
    }
    let mut froms = board.by_piece(i.role.of(us));
    if let Some(f) = i.file {
        froms &= Bitboard::from_file(f);
    }
    if let Some(r) = i.rank {
        froms &= Bitboard::from_rank(r);
    }
    let cannot_reach = |from| MoveInputError::CannotReach {
        role: i.role,
        from,
        to: i.to,
    };
    let no_piece = MoveInputError::NoPieceCanReach {
        role: i.role,
        which: i.which(),
        to: i.to,
        capture: i.is_capture_shaped(),
    };
    if froms.is_empty() {
        return match i.origin() {
            Some(square) => (
                1,
                MoveInputError::NoPieceOn {
                    role: i.role,
                    square,
                },
            ),
            None => (1, no_piece),
        };
    }
    if i.role == Role::Pawn {
        if let Some(e) = explain_pawn(pos, i, froms) {
            return (2, e);
        }
    } else {
        let piece = i.role.of(us);
        for from in froms {
            if attacks::attacks(from, piece, Bitboard::EMPTY).contains(i.to)
                && let Some(at) = (attacks::between(from, i.to) & board.occupied()).first()
            {
                return (
                    2,
                    MoveInputError::Blocked {
                        role: i.role,
                        from,
                        to: i.to,
                        at,
                    },
                );
            }
        }
    }
    match i.origin() {
        Some(from) => (1, cannot_reach(from)),
        None if i.role == Role::King => match froms.single_square() {
            Some(from) => (1, cannot_reach(from)),
            None => (1, no_piece),
        },
        None => (1, no_piece),
    }
}

/// Pawn rules: no capture straight ahead, a double step needs a free path,
/// a diagonal step needs something to capture.
fn explain_pawn(pos: &Chess, i: &Intent, froms: Bitboard) -> Option<MoveInputError> {
    let board = pos.board();
    let us = pos.turn();
    let to = i.to;
    let target = board.piece_at(to);
    if i.is_pawn_push() {
        let forward = us.fold_wb(1, -1);
        let r1 = to.rank().offset(-forward)?;
        let s1 = Square::from_coords(to.file(), r1);
        let s2 = (to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth))
            .then(|| r1.offset(-forward))
            .flatten()
            .map(|r| Square::from_coords(to.file(), r))
            .filter(|s| froms.contains(*s));
        if froms.contains(s1) || (s2.is_some() && board.piece_at(s1).is_none()) {
            if target.is_some() {
                return Some(MoveInputError::Impossible {
                    input: i.text(),
                    reason: "pawns capture diagonally, and the square ahead is taken",
                });
            }
        } else if let Some(from) = s2
            && board.piece_at(s1).is_some()
        {
            return Some(MoveInputError::Blocked {
                role: Role::Pawn,
                from,
                to,
                at: s1,
            });
        }
    } else if (attacks::pawn_attacks(!us, to) & froms).any() && target.is_none() {
        return Some(MoveInputError::NothingToCapture(to));
    }
    None
}

/// The move follows the rules of movement, so it is illegal only because
/// of our king: say how.
fn king_safety(pos: &Chess, m: Move) -> MoveInputError {
    let san = San::from_move(pos, m).to_string();
    if m.role() == Role::King {
        return MoveInputError::KingIntoCheck { san };
    }
    if pos.is_check() {
        return MoveInputError::DoesNotAnswerCheck { san };
    }
    let board = pos.board();
    if let Some(from) = m.from()
        && let Some(king) = board.king_of(pos.turn())
        && board
            .attacks_to(king, !pos.turn(), board.occupied().without(from))
            .any()
    {
        return MoveInputError::Pinned {
            san,
            role: m.role(),
            from,
        };
    }
    MoveInputError::LeavesKingInCheck { san }
}

#[cfg(test)]
mod tests;
