//! What the index knows of one move from one position: the games that
//! played it, by result, and the ratings of those that carry Elo tags.

/// A game's result as the index counts it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    White,
    Draw,
    Black,
    /// `*`: unfinished or unknown. Counted in the games, in no result.
    Unknown,
}

impl Outcome {
    fn code(self) -> u8 {
        match self {
            Outcome::White => 0,
            Outcome::Draw => 1,
            Outcome::Black => 2,
            Outcome::Unknown => 3,
        }
    }

    fn from_code(c: u8) -> Outcome {
        match c & 3 {
            0 => Outcome::White,
            1 => Outcome::Draw,
            2 => Outcome::Black,
            _ => Outcome::Unknown,
        }
    }

    /// From a PGN result ("1-0", "1/2-1/2", "0-1", anything else unknown).
    pub fn from_pgn(result: &str) -> Outcome {
        match result.trim() {
            "1-0" => Outcome::White,
            "0-1" => Outcome::Black,
            "1/2-1/2" | "½-½" => Outcome::Draw,
            _ => Outcome::Unknown,
        }
    }
}

/// Counts for one (position, move).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    pub unknown: u64,
    /// Games with a rating (the mean of both players' Elo tags, or the one
    /// given), and the sum of those ratings.
    pub rated: u64,
    pub rating_sum: u64,
}

impl Stats {
    /// One game.
    pub fn single(outcome: Outcome, rating: Option<u16>) -> Stats {
        let mut s = Stats::default();
        match outcome {
            Outcome::White => s.white = 1,
            Outcome::Draw => s.draws = 1,
            Outcome::Black => s.black = 1,
            Outcome::Unknown => s.unknown = 1,
        }
        if let Some(r) = rating {
            s.rated = 1;
            s.rating_sum = u64::from(r);
        }
        s
    }

    pub fn games(&self) -> u64 {
        self.white + self.draws + self.black + self.unknown
    }

    pub fn add(&mut self, o: &Stats) {
        self.white += o.white;
        self.draws += o.draws;
        self.black += o.black;
        self.unknown += o.unknown;
        self.rated += o.rated;
        self.rating_sum += o.rating_sum;
    }

    /// The mean rating of the rated games.
    pub fn average_rating(&self) -> Option<u32> {
        (self.rated > 0).then(|| ((self.rating_sum + self.rated / 2) / self.rated) as u32)
    }

    /// White's score in per cent (a draw is half), over decided and drawn
    /// games.
    pub fn white_score(&self) -> Option<f64> {
        let n = self.white + self.draws + self.black;
        (n > 0).then(|| (self.white as f64 + self.draws as f64 / 2.0) * 100.0 / n as f64)
    }

    /// Appends the stats in the index's form. One game (most entries past
    /// the first moves) takes one byte, two with a rating: a kind byte
    /// `0..=3` (the result), `4..=7` (the result, then the rating in steps
    /// of 16 Elo, which moves an average by 8 at most); `8` is followed by
    /// six varints.
    pub fn encode(&self, out: &mut Vec<u8>) {
        if self.games() == 1 && self.rated <= 1 {
            let outcome = if self.white == 1 {
                Outcome::White
            } else if self.draws == 1 {
                Outcome::Draw
            } else if self.black == 1 {
                Outcome::Black
            } else {
                Outcome::Unknown
            };
            if self.rated == 1 {
                out.push(4 + outcome.code());
                out.push(((self.rating_sum + 8) / 16).min(255) as u8);
            } else {
                out.push(outcome.code());
            }
            return;
        }
        out.push(8);
        for v in [
            self.white,
            self.draws,
            self.black,
            self.unknown,
            self.rated,
            self.rating_sum,
        ] {
            put_varint(out, v);
        }
    }

    /// Reads what [`Stats::encode`] wrote at `*at`, moving `at` past it.
    pub fn decode(bytes: &[u8], at: &mut usize) -> Option<Stats> {
        let kind = *bytes.get(*at)?;
        *at += 1;
        match kind {
            0..=3 => Some(Stats::single(Outcome::from_code(kind), None)),
            4..=7 => {
                let r = *bytes.get(*at)?;
                *at += 1;
                Some(Stats::single(
                    Outcome::from_code(kind),
                    Some(u16::from(r) * 16),
                ))
            }
            8 => {
                let mut v = [0u64; 6];
                for x in &mut v {
                    *x = get_varint(bytes, at)?;
                }
                Some(Stats {
                    white: v[0],
                    draws: v[1],
                    black: v[2],
                    unknown: v[3],
                    rated: v[4],
                    rating_sum: v[5],
                })
            }
            _ => None,
        }
    }
}

/// LEB128.
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub fn get_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_round_trip_in_their_short_and_long_forms() {
        let mut many = Stats::single(Outcome::White, Some(2400));
        many.add(&Stats::single(Outcome::Draw, None));
        many.add(&Stats::single(Outcome::Black, Some(1800)));
        for s in [
            Stats::single(Outcome::Black, None),
            Stats::single(Outcome::Unknown, Some(2400)),
            many,
        ] {
            let mut out = Vec::new();
            s.encode(&mut out);
            let mut at = 0;
            assert_eq!(Stats::decode(&out, &mut at), Some(s));
            assert_eq!(at, out.len());
        }
        let mut one = Vec::new();
        Stats::single(Outcome::Draw, None).encode(&mut one);
        assert_eq!(one.len(), 1, "one game is one byte");
        // A rating is kept to 8 Elo.
        let mut rated = Vec::new();
        Stats::single(Outcome::Draw, Some(1907)).encode(&mut rated);
        let back = Stats::decode(&rated, &mut 0).unwrap();
        assert_eq!((rated.len(), back.rating_sum), (2, 1904));
        assert_eq!(many.average_rating(), Some(2100));
        assert_eq!(many.games(), 3);
    }

    #[test]
    fn a_cut_or_unknown_entry_is_not_read() {
        assert_eq!(Stats::decode(&[9], &mut 0), None);
        assert_eq!(Stats::decode(&[5], &mut 0), None);
        assert_eq!(Stats::decode(&[8, 1, 2], &mut 0), None);
        assert_eq!(get_varint(&[0x80; 11], &mut 0), None);
    }
}
