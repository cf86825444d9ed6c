//! Bughouse partners: the messages players send each other, what the
//! engine makes of the messages it receives, and the advice it gives.
//!
//! The usual requests, as players type them on servers: `need N` (or with a
//! reason, `need N: mate with N@f7`), `don't give Q`, `sit` (don't move: I
//! need time / don't feed my opponent), `go` (move again), `trade` (trades
//! are good for us), `no trades`. [`PartnerMsg::parse`] reads them
//! leniently (`n`, `need knight`, `dont give q`, `notrade`...).
//!
//! What the engine does with them lives in [`PartnerState`]: wanted pieces
//! count more when we capture them (they feed the partner), pieces the
//! partner must not give count more when we lose them (they would feed the
//! partner's opponent), and a request to sit makes the engine take its time
//! (the UCI layer does that).

use super::eval::PartnerTweaks;
use shakmaty::{Color, Role};
use std::fmt;

/// A message between Bughouse partners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartnerMsg {
    /// "I need this piece" (with an optional reason, e.g. a mate).
    Need(Role, Option<String>),
    /// "Don't let the opponents take this piece of yours."
    DontGive(Role),
    /// "Stop moving for a while."
    Sit,
    /// "Move again."
    Go,
    /// "Trades are good for us."
    Trade,
    /// "Avoid trades."
    NoTrades,
    /// "Forget my requests" (FICS `x`): back to normal play.
    Cancel,
    /// "Move fast" (FICS `fast`, `time`): the team needs tempo.
    Fast,
    /// "Move normally again" (FICS `slow`).
    Slow,
    /// "Flag your opponent" (FICS `flag`): they are short of time.
    Flag,
    /// Anything else, shown as it came.
    Text(String),
}

fn role_from_word(w: &str) -> Option<Role> {
    match w.trim_matches(|c: char| !c.is_ascii_alphanumeric()) {
        "p" | "pawn" | "pawns" => Some(Role::Pawn),
        "n" | "knight" | "knights" | "horse" => Some(Role::Knight),
        "b" | "bishop" | "bishops" => Some(Role::Bishop),
        "r" | "rook" | "rooks" => Some(Role::Rook),
        "q" | "queen" | "queens" => Some(Role::Queen),
        _ => None,
    }
}

/// Whether a Bughouse player may sit (keep its move back, waiting for a
/// piece) with `left` on its clock against its opponent's `opponent`: only
/// with time to spare over the opponent and not short itself. Sitting
/// while behind on time loses on time, so nobody asks it then either.
pub fn may_sit(left: std::time::Duration, opponent: std::time::Duration) -> bool {
    use std::time::Duration;
    left > Duration::from_secs(10) && left > opponent + Duration::from_secs(3)
}

/// "knight", "queen"...
pub fn role_word(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The FICS shorthand for a piece wish: `+n` (good), `++n` (very good),
/// `+++n` (mates), and `-q`, `--q`, `---q` for pieces not to give away;
/// `d` (diagonal: the bishop) and `h` (heavy: the rook) as FICS bots read
/// them; `+trades` / `-trades`. `None` when `t` is not one.
fn fics_wish(t: &str) -> Option<PartnerMsg> {
    let plus = t.chars().take_while(|&c| c == '+').count();
    let minus = t.chars().take_while(|&c| c == '-').count();
    let (n, want) = match (plus, minus) {
        (1..=3, 0) => (plus, true),
        (0, 1..=3) => (minus, false),
        _ => return None,
    };
    let rest = t[n..].trim();
    if rest.is_empty() || rest.starts_with("trade") {
        return Some(if want {
            PartnerMsg::Trade
        } else {
            PartnerMsg::NoTrades
        });
    }
    let role = match rest {
        "p" => Role::Pawn,
        "n" => Role::Knight,
        "b" | "d" => Role::Bishop,
        "r" | "h" => Role::Rook,
        "q" => Role::Queen,
        _ => return None,
    };
    Some(if want {
        PartnerMsg::Need(role, (n == 3).then(|| "mates".to_string()))
    } else {
        PartnerMsg::DontGive(role)
    })
}

impl PartnerMsg {
    /// Reads a message as players write it: in words (`need N`, `don't
    /// give Q`, `no trades`) or in the FICS shorthand (`++n`, `-q`, `x`,
    /// `fast`, `flag`...).
    pub fn parse(text: &str) -> PartnerMsg {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        if let Some(m) = fics_wish(&lower) {
            return m;
        }
        let (head, reason) = match lower.split_once(':') {
            Some((h, _)) => (
                h.trim().to_string(),
                Some(t[h.len() + 1..].trim().to_string()),
            ),
            None => (lower.clone(), None),
        };
        let words: Vec<&str> = head.split_whitespace().collect();
        match words.as_slice() {
            ["sit"] | ["sit", "please"] | ["wait"] => PartnerMsg::Sit,
            ["go"] | ["go", "go"] | ["move"] => PartnerMsg::Go,
            ["x"] | ["="] | ["cancel"] => PartnerMsg::Cancel,
            ["fast"] | ["time"] | ["hurry"] => PartnerMsg::Fast,
            ["slow"] => PartnerMsg::Slow,
            ["flag"] | ["flag", "him"] | ["flag", "her"] => PartnerMsg::Flag,
            ["trade"] | ["trades"] | ["trade", "all"] | ["trades", "ok"] | ["trades", "good"] => {
                PartnerMsg::Trade
            }
            ["trades", "bad"] => PartnerMsg::NoTrades,
            ["no", "trades"]
            | ["no", "trade"]
            | ["notrade"]
            | ["notrades"]
            | ["dont", "trade"]
            | ["don't", "trade"] => PartnerMsg::NoTrades,
            ["need", w] | [w] if role_from_word(w).is_some() => {
                PartnerMsg::Need(role_from_word(w).unwrap_or(Role::Pawn), reason)
            }
            ["don't", "give", w] | ["dont", "give", w] | ["no", w]
                if role_from_word(w).is_some() =>
            {
                PartnerMsg::DontGive(role_from_word(w).unwrap_or(Role::Pawn))
            }
            _ => PartnerMsg::Text(t.to_string()),
        }
    }
}

impl fmt::Display for PartnerMsg {
    /// The FICS form bughouse players and bots (Sjeng) use, which
    /// [`PartnerMsg::parse`] reads back: `++n` (a knight is very good for
    /// me), `+++n` (it mates), `--q` (don't give a queen), `sit`, `go`,
    /// `x`, `fast`, `slow`, `flag`, `+trades`, `-trades`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartnerMsg::Need(r, why) => {
                let mates = why.as_deref().is_some_and(|w| w.contains("mate"));
                let plus = if mates { "+++" } else { "++" };
                write!(f, "{plus}{}", r.char())
            }
            PartnerMsg::DontGive(r) => write!(f, "--{}", r.char()),
            PartnerMsg::Sit => f.write_str("sit"),
            PartnerMsg::Go => f.write_str("go"),
            PartnerMsg::Trade => f.write_str("+trades"),
            PartnerMsg::NoTrades => f.write_str("-trades"),
            PartnerMsg::Cancel => f.write_str("x"),
            PartnerMsg::Fast => f.write_str("fast"),
            PartnerMsg::Slow => f.write_str("slow"),
            PartnerMsg::Flag => f.write_str("flag"),
            PartnerMsg::Text(t) => f.write_str(t),
        }
    }
}

impl PartnerMsg {
    /// In plain words, for the person reading it: "needs a knight (it
    /// mates)", "don't give a queen", "sit (don't move)".
    pub fn describe(&self) -> String {
        match self {
            PartnerMsg::Need(r, None) => format!("needs a {}", role_word(*r)),
            PartnerMsg::Need(r, Some(why)) => format!("needs a {} ({why})", role_word(*r)),
            PartnerMsg::DontGive(r) => format!("don't give a {}", role_word(*r)),
            PartnerMsg::Sit => "sit (don't move)".into(),
            PartnerMsg::Go => "go (move again)".into(),
            PartnerMsg::Trade => "trades are good".into(),
            PartnerMsg::NoTrades => "trades are bad".into(),
            PartnerMsg::Cancel => "forget my requests".into(),
            PartnerMsg::Fast => "move fast".into(),
            PartnerMsg::Slow => "move normally".into(),
            PartnerMsg::Flag => "flag your opponent".into(),
            PartnerMsg::Text(t) => t.clone(),
        }
    }
}

/// What the partner has told us, as the engine keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartnerState {
    /// Pieces the partner needs (pawn..queen).
    pub wanted: [bool; 5],
    /// Our moves left before the wish for `wanted` lapses: a need is
    /// urgent or gone, and a wish kept for the whole game made every later
    /// capture of that piece look better than it is.
    pub want_moves: u8,
    /// Pieces of ours the partner does not want the opponents to take.
    pub dont_give: [bool; 5],
    /// The partner asked us to sit.
    pub sit: bool,
    /// The partner wants trades (`Some(true)`) or none (`Some(false)`).
    pub trades: Option<bool>,
}

/// Extra value of a sent piece for a wish, per role (pawn..queen), in
/// centipawns: about half what the piece is worth in hand.
const WISH_VALUE: [i32; 5] = [60, 150, 150, 220, 450];

/// How many of our moves a "need" wish lasts.
pub const WISH_MOVES: u8 = 3;

impl PartnerState {
    /// Takes a message into account. Returns whether anything changed.
    pub fn receive(&mut self, msg: &PartnerMsg) -> bool {
        let before = self.clone();
        match msg {
            PartnerMsg::Need(r, _) => {
                if let Some(i) = index(*r) {
                    self.wanted = [false; 5];
                    self.wanted[i] = true;
                    self.want_moves = WISH_MOVES;
                }
            }
            PartnerMsg::DontGive(r) => {
                if let Some(i) = index(*r) {
                    self.dont_give[i] = true;
                }
            }
            PartnerMsg::Sit => self.sit = true,
            PartnerMsg::Go => {
                self.sit = false;
                self.wanted = [false; 5];
                self.dont_give = [false; 5];
            }
            PartnerMsg::Trade => self.trades = Some(true),
            PartnerMsg::NoTrades => self.trades = Some(false),
            PartnerMsg::Cancel => {
                self.wanted = [false; 5];
                self.dont_give = [false; 5];
                self.trades = None;
            }
            PartnerMsg::Fast | PartnerMsg::Flag => self.sit = false,
            PartnerMsg::Slow | PartnerMsg::Text(_) => {}
        }
        *self != before
    }

    /// We have moved: a "need" wish lapses after [`WISH_MOVES`] moves.
    pub fn moved(&mut self) {
        self.want_moves = self.want_moves.saturating_sub(1);
        if self.want_moves == 0 {
            self.wanted = [false; 5];
        }
    }

    /// The evaluation changes these wishes make for a player of colour `us`.
    pub fn tweaks(&self, us: Color) -> PartnerTweaks {
        let mut t = PartnerTweaks::default();
        let (ours, theirs) = (us as usize, (!us) as usize);
        for (i, &value) in WISH_VALUE.iter().enumerate() {
            if self.wanted[i] {
                t.extra_sent[ours][i] += value;
            }
            if self.dont_give[i] {
                t.extra_sent[theirs][i] += value;
            }
            match self.trades {
                Some(true) => t.extra_sent[ours][i] += value / 3,
                Some(false) => t.extra_sent[theirs][i] += value / 3,
                None => {}
            }
        }
        t
    }
}

fn index(role: Role) -> Option<usize> {
    match role {
        Role::King => None,
        r => Some(r as usize - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_players_write_them() {
        assert_eq!(PartnerMsg::parse("n"), PartnerMsg::Need(Role::Knight, None));
        assert_eq!(
            PartnerMsg::parse("need N: mate with N@f7"),
            PartnerMsg::Need(Role::Knight, Some("mate with N@f7".into()))
        );
        assert_eq!(
            PartnerMsg::parse("Need knight"),
            PartnerMsg::Need(Role::Knight, None)
        );
        assert_eq!(
            PartnerMsg::parse("dont give q"),
            PartnerMsg::DontGive(Role::Queen)
        );
        assert_eq!(PartnerMsg::parse("no Q"), PartnerMsg::DontGive(Role::Queen));
        assert_eq!(PartnerMsg::parse(" SIT "), PartnerMsg::Sit);
        assert_eq!(PartnerMsg::parse("go"), PartnerMsg::Go);
        assert_eq!(PartnerMsg::parse("no trades"), PartnerMsg::NoTrades);
        assert_eq!(PartnerMsg::parse("trade"), PartnerMsg::Trade);
        assert_eq!(
            PartnerMsg::parse("good luck"),
            PartnerMsg::Text("good luck".into())
        );
        // The canonical forms read back as themselves.
        for m in [
            PartnerMsg::Need(Role::Bishop, Some("mates".into())),
            PartnerMsg::Need(Role::Knight, None),
            PartnerMsg::Cancel,
            PartnerMsg::Fast,
            PartnerMsg::Slow,
            PartnerMsg::Flag,
            PartnerMsg::DontGive(Role::Rook),
            PartnerMsg::Sit,
            PartnerMsg::Go,
            PartnerMsg::Trade,
            PartnerMsg::NoTrades,
        ] {
            assert_eq!(PartnerMsg::parse(&m.to_string()), m, "{m}");
        }
    }

    /// The FICS shorthand, as players and Sjeng write it.
    #[test]
    fn fics_words_read() {
        use PartnerMsg as M;
        assert_eq!(M::parse("+n"), M::Need(Role::Knight, None));
        assert_eq!(M::parse("++N"), M::Need(Role::Knight, None));
        assert_eq!(M::parse("+++q"), M::Need(Role::Queen, Some("mates".into())));
        assert_eq!(M::parse("-q"), M::DontGive(Role::Queen));
        assert_eq!(M::parse("---r"), M::DontGive(Role::Rook));
        assert_eq!(M::parse("+d"), M::Need(Role::Bishop, None));
        assert_eq!(M::parse("+trades"), M::Trade);
        assert_eq!(M::parse("trades good"), M::Trade);
        assert_eq!(M::parse("trades bad"), M::NoTrades);
        assert_eq!(M::parse("-"), M::NoTrades);
        assert_eq!(M::parse("x"), M::Cancel);
        assert_eq!(M::parse("fast"), M::Fast);
        assert_eq!(M::parse("slow"), M::Slow);
        assert_eq!(M::parse("flag"), M::Flag);
        assert_eq!(M::parse("+xyz"), M::Text("+xyz".into()));
        // What Kibitz sends is what Sjeng reads: the bare shorthand.
        assert_eq!(M::Need(Role::Knight, None).to_string(), "++n");
        assert_eq!(
            M::Need(Role::Knight, Some("mate with N@f7".into())).to_string(),
            "+++n"
        );
        assert_eq!(M::DontGive(Role::Queen).to_string(), "--q");
        // A cancel forgets the wishes.
        let mut s = PartnerState::default();
        s.receive(&M::Need(Role::Knight, None));
        s.receive(&M::DontGive(Role::Queen));
        assert!(s.receive(&M::Cancel));
        assert!(s.tweaks(Color::White).is_empty());
    }

    #[test]
    fn wishes_change_what_sent_pieces_are_worth() {
        let mut s = PartnerState::default();
        assert!(s.receive(&PartnerMsg::Need(Role::Knight, None)));
        assert!(s.receive(&PartnerMsg::DontGive(Role::Queen)));
        let t = s.tweaks(Color::White);
        // Our captured knights feed the partner: worth more.
        assert!(t.extra_sent[Color::White as usize][1] > 0);
        // Our queen taken by Black feeds the partner's opponent.
        assert!(t.extra_sent[Color::Black as usize][4] > 0);
        assert!(!s.receive(&PartnerMsg::Text("hi".into())));
        s.receive(&PartnerMsg::Go);
        assert!(s.tweaks(Color::White).is_empty());
    }

    #[test]
    fn a_need_lapses_after_a_few_moves_a_warning_does_not() {
        let mut s = PartnerState::default();
        s.receive(&PartnerMsg::Need(Role::Knight, None));
        s.receive(&PartnerMsg::DontGive(Role::Queen));
        for _ in 1..WISH_MOVES {
            s.moved();
        }
        assert!(s.wanted[1], "still wanted after {} moves", WISH_MOVES - 1);
        s.moved();
        assert!(!s.wanted[1]);
        assert!(s.dont_give[4], "a warning holds until the partner says go");
        let t = s.tweaks(Color::White);
        assert_eq!(t.extra_sent[Color::White as usize], [0; 5]);
        assert!(t.extra_sent[Color::Black as usize][4] > 0);
    }
}
