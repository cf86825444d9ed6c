//! Material signatures (`KQvKR`) and the compact piece codes the tables use.
//!
//! A non-king piece is a *code* `0..10`: `color * 5 + r` with `r` = 0 queen,
//! 1 rook, 2 bishop, 3 knight, 4 pawn (White = 0). Ascending codes therefore
//! list White's strongest piece first, which is also the order of a table's
//! piece slots. Tables exist for at most three non-king pieces, so a
//! material with up to five pieces has a *key*: its three codes sorted,
//! [`NONE`] filling the gaps, `(a * 11 + b) * 11 + c` (< 1331).

use shakmaty::{Color, Role};
use std::fmt;
use std::str::FromStr;

/// "No piece" in a code triple.
pub(crate) const NONE: u8 = 10;
/// Number of material keys (triples of codes including [`NONE`]).
pub(crate) const KEYS: usize = 1331;
/// The key of bare kings.
pub(crate) const KEY_KVK: u16 = (NONE as u16 * 11 + NONE as u16) * 11 + NONE as u16;

const ROLES: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];
const LETTERS: [char; 5] = ['Q', 'R', 'B', 'N', 'P'];

#[inline]
pub(crate) const fn code(color: Color, role: Role) -> u8 {
    let r = match role {
        Role::Queen => 0,
        Role::Rook => 1,
        Role::Bishop => 2,
        Role::Knight => 3,
        // Kings have no code; callers never ask.
        Role::Pawn | Role::King => 4,
    };
    match color {
        Color::White => r,
        Color::Black => r + 5,
    }
}

#[inline]
pub(crate) const fn code_color(c: u8) -> Color {
    if c < 5 { Color::White } else { Color::Black }
}

#[inline]
pub(crate) const fn code_role(c: u8) -> Role {
    ROLES[(c % 5) as usize]
}

#[inline]
pub(crate) const fn code_is_pawn(c: u8) -> bool {
    c % 5 == 4
}

/// The same piece with the other colour.
#[inline]
pub(crate) const fn flip_code(c: u8) -> u8 {
    if c < 5 { c + 5 } else { c - 5 }
}

/// The key of three codes (any of them may be [`NONE`]), in any order.
#[inline]
pub(crate) const fn key_of(a: u8, b: u8, c: u8) -> u16 {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    let (b, c) = if b <= c { (b, c) } else { (c, b) };
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    (a as u16 * 11 + b as u16) * 11 + c as u16
}

/// For every key: the key of its table (the stronger side White) and whether
/// the position must be colour-flipped to fit it.
pub(crate) static NORMALIZE: [(u16, bool); KEYS] = normalize_all();

const fn normalize_all() -> [(u16, bool); KEYS] {
    let mut out = [(0u16, false); KEYS];
    let mut k = 0;
    while k < KEYS {
        let codes = [(k / 121) as u8, (k / 11 % 11) as u8, (k % 11) as u8];
        // Strength of each side as [`Material::normalized`] compares it:
        // the number of pieces, then the counts from the queen down.
        let mut counts = [[0u8; 6]; 2];
        let mut i = 0;
        while i < 3 {
            let c = codes[i];
            if c != NONE {
                let s = (c / 5) as usize;
                counts[s][0] += 1;
                counts[s][1 + (c % 5) as usize] += 1;
            }
            i += 1;
        }
        let mut flip = false;
        let mut j = 0;
        while j < 6 {
            if counts[0][j] != counts[1][j] {
                flip = counts[1][j] > counts[0][j];
                break;
            }
            j += 1;
        }
        let key = if flip {
            key_of(fc(codes[0]), fc(codes[1]), fc(codes[2]))
        } else {
            key_of(codes[0], codes[1], codes[2])
        };
        out[k] = (key, flip);
        k += 1;
    }
    out
}

const fn fc(c: u8) -> u8 {
    if c == NONE { NONE } else { flip_code(c) }
}

/// A material signature: the pieces of each side besides the kings.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Material {
    /// `[color][r]` counts, White first, `r` as in the piece codes.
    counts: [[u8; 5]; 2],
}

/// Why a material name was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{name}' is not a material signature like KQvK or KRvKP: {reason}")]
pub struct ParseMaterialError {
    name: String,
    reason: &'static str,
}

impl Material {
    /// Bare kings.
    pub const KVK: Material = Material {
        counts: [[0; 5]; 2],
    };

    /// Number of pieces, kings included.
    pub fn pieces(&self) -> usize {
        2 + self
            .counts
            .iter()
            .flatten()
            .map(|&n| n as usize)
            .sum::<usize>()
    }

    pub fn has_pawns(&self) -> bool {
        self.counts[0][4] + self.counts[1][4] > 0
    }

    /// How many `role`s `color` has (kings: 1).
    pub fn count(&self, color: Color, role: Role) -> u8 {
        if role == Role::King {
            return 1;
        }
        self.counts[side(color)][code(Color::White, role) as usize]
    }

    /// The material of a board (kings must be there: one each).
    pub fn of_board(board: &shakmaty::Board) -> Material {
        let mut m = Material::KVK;
        for sq in board.occupied() & !board.kings() {
            if let Some(piece) = board.piece_at(sq) {
                let n = &mut m.counts[side(piece.color)][code(Color::White, piece.role) as usize];
                *n = n.saturating_add(1);
            }
        }
        m
    }

    /// The same material with the colours exchanged.
    pub fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// The name of the table that holds this material: the stronger side
    /// as White (Syzygy's convention), and whether positions must be
    /// colour-flipped to fit it.
    pub fn normalized(&self) -> (Material, bool) {
        let (w, b) = (self.strength(0), self.strength(1));
        if b > w {
            (self.flipped(), true)
        } else {
            (*self, false)
        }
    }

    pub fn is_normalized(&self) -> bool {
        !self.normalized().1
    }

    /// (number of pieces, counts from the queen down): bigger is stronger.
    fn strength(&self, s: usize) -> (u8, [u8; 5]) {
        (self.counts[s].iter().sum(), self.counts[s])
    }

    /// Non-king piece codes, ascending (the table's slot order).
    pub(crate) fn codes(&self) -> Vec<u8> {
        let mut v = Vec::new();
        for s in 0..2 {
            for r in 0..5 {
                for _ in 0..self.counts[s][r] {
                    v.push((s * 5 + r) as u8);
                }
            }
        }
        v
    }

    /// The key of a material with at most three non-king pieces.
    pub(crate) fn key(&self) -> Option<u16> {
        let c = self.codes();
        match c.as_slice() {
            [] => Some(key_of(NONE, NONE, NONE)),
            [a] => Some(key_of(*a, NONE, NONE)),
            [a, b] => Some(key_of(*a, *b, NONE)),
            [a, b, c] => Some(key_of(*a, *b, *c)),
            _ => None,
        }
    }

    pub(crate) fn from_key(key: u16) -> Material {
        let mut m = Material::KVK;
        for c in [key / 121, key / 11 % 11, key % 11] {
            let c = c as u8;
            if c != NONE {
                m.counts[(c / 5) as usize][(c % 5) as usize] += 1;
            }
        }
        m
    }

    /// Every normalized material with 3..=`max_pieces` pieces (at most
    /// [`super::MAX_PIECES`]), smaller tables first.
    pub fn all(max_pieces: usize) -> Vec<Material> {
        let mut out: Vec<Material> = (0..KEYS as u16)
            .filter(|&k| NORMALIZE[k as usize] == (k, false) && k != KEY_KVK)
            .map(Material::from_key)
            .filter(|m| m.pieces() <= max_pieces.min(super::MAX_PIECES))
            .collect();
        out.sort_by_key(|m| (m.pieces(), m.to_string()));
        out.dedup();
        out
    }

    /// The materials one capture or promotion away (normalized, without
    /// bare kings).
    pub fn children(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for s in 0..2 {
            for r in 0..5 {
                if self.counts[s][r] == 0 {
                    continue;
                }
                // Captured.
                let mut m = *self;
                m.counts[s][r] -= 1;
                out.push(m);
                // Promoted (a pawn becomes Q, R, B or N) ...
                if r == 4 {
                    for p in 0..4 {
                        let mut m = *self;
                        m.counts[s][4] -= 1;
                        m.counts[s][p] += 1;
                        out.push(m);
                        // ... possibly with a capture.
                        for r2 in 0..5 {
                            if m.counts[1 - s][r2] > 0 {
                                let mut m2 = m;
                                m2.counts[1 - s][r2] -= 1;
                                out.push(m2);
                            }
                        }
                    }
                }
            }
        }
        let mut out: Vec<Material> = out
            .into_iter()
            .map(|m| m.normalized().0)
            .filter(|m| *m != Material::KVK && m != self)
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

#[inline]
fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in 0..2 {
            if s == 1 {
                f.write_str("v")?;
            }
            f.write_str("K")?;
            for (letter, &n) in LETTERS.iter().zip(&self.counts[s]) {
                for _ in 0..n {
                    write!(f, "{letter}")?;
                }
            }
        }
        Ok(())
    }
}

impl FromStr for Material {
    type Err = ParseMaterialError;

    fn from_str(name: &str) -> Result<Material, ParseMaterialError> {
        let err = |reason| ParseMaterialError {
            name: name.to_string(),
            reason,
        };
        let upper = name.trim().to_ascii_uppercase();
        let Some((w, b)) = upper.split_once('V') else {
            return Err(err("the sides must be separated by 'v'"));
        };
        let mut m = Material::KVK;
        for (s, part) in [w, b].into_iter().enumerate() {
            let mut chars = part.chars();
            if chars.next() != Some('K') {
                return Err(err("each side starts with its king, K"));
            }
            for ch in chars {
                let Some(r) = LETTERS.iter().position(|&l| l == ch) else {
                    return Err(err("pieces are Q, R, B, N and P (one K per side)"));
                };
                m.counts[s][r] = m.counts[s][r].saturating_add(1);
            }
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_normalize() {
        let m: Material = "KRvKQ".parse().unwrap();
        assert_eq!(m.to_string(), "KRvKQ");
        assert_eq!(m.normalized(), ("KQvKR".parse().unwrap(), true));
        let m: Material = "kvkbn".parse().unwrap();
        assert_eq!(m.normalized().0.to_string(), "KBNvK");
        assert!("KQK".parse::<Material>().is_err());
        assert!("KQvKX".parse::<Material>().is_err());
        assert!("QvK".parse::<Material>().is_err());
        assert!(!"KPvKP".parse::<Material>().unwrap().normalized().1);
    }

    #[test]
    fn all_tables_up_to_four_pieces() {
        let all = Material::all(4);
        assert_eq!(all.iter().filter(|m| m.pieces() == 3).count(), 5);
        assert_eq!(all.iter().filter(|m| m.pieces() == 4).count(), 30);
        for m in &all {
            let key = m.key().unwrap();
            assert_eq!(NORMALIZE[key as usize], (key, false), "{m}");
            assert_eq!(Material::from_key(key), *m);
            let (k2, flip) = NORMALIZE[m.flipped().key().unwrap() as usize];
            assert_eq!(k2, key);
            assert_eq!(flip, m.flipped() != *m, "{m}");
        }
        let kpk: Material = "KPvKP".parse().unwrap();
        let mut names: Vec<String> = kpk.children().iter().map(|m| m.to_string()).collect();
        names.sort();
        let mut want = [
            "KQvKP", "KRvKP", "KBvKP", "KNvKP", "KPvK", "KQvK", "KRvK", "KBvK", "KNvK",
        ];
        want.sort();
        assert_eq!(names, want);
    }

    #[test]
    fn five_piece_keys() {
        let all = Material::all(5);
        assert_eq!(all[..35], Material::all(4)[..], "four-piece tables first");
        // Three pieces against none (35) or two against one (75).
        assert_eq!(all.iter().filter(|m| m.pieces() == 5).count(), 110);
        for m in &all {
            let key = m.key().unwrap();
            assert_eq!(NORMALIZE[key as usize], (key, false), "{m}");
            assert_eq!(Material::from_key(key), *m);
            assert_eq!(m.normalized(), (*m, false), "{m}");
            let (k2, flip) = NORMALIZE[m.flipped().key().unwrap() as usize];
            assert_eq!((k2, flip), (key, m.flipped() != *m), "{m}");
        }
        let krpkr: Material = "KRvKRP".parse().unwrap();
        assert_eq!(krpkr.normalized().0.to_string(), "KRPvKR");
        let mut names: Vec<String> = krpkr
            .normalized()
            .0
            .children()
            .iter()
            .map(|m| m.to_string())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "KQRvK", "KQRvKR", "KRBvK", "KRBvKR", "KRNvK", "KRNvKR", "KRPvK", "KRRvK",
                "KRRvKR", "KRvKP", "KRvKR"
            ]
        );
        assert!("KQRBNvK".parse::<Material>().unwrap().key().is_none());
    }
}
