//! Where each evaluation weight lives in the flat weight vector.
//!
//! The evaluation reads weights by index so that one code path serves the
//! engine (fixed weights), the trace shown in the UI (which term each weight
//! belongs to) and the Texel tuner (how often each weight is used).

use super::level_weights as lw;
use super::weights as w;
use crate::engine::tapered::S;

pub const MATERIAL: usize = 0;
pub const PST: usize = MATERIAL + 5;
pub const MOBILITY_KNIGHT: usize = PST + 384;
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
pub const PAWN_ISOLATED: usize = MOBILITY_QUEEN + 28;
pub const PAWN_DOUBLED: usize = PAWN_ISOLATED + 1;
pub const PAWN_BACKWARD: usize = PAWN_DOUBLED + 1;
pub const PAWN_PHALANX: usize = PAWN_BACKWARD + 1;
pub const PAWN_SUPPORTED: usize = PAWN_PHALANX + 8;
pub const PASSED: usize = PAWN_SUPPORTED + 8;
pub const PASSED_OWN_KING: usize = PASSED + 8;
pub const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 8;
pub const PASSED_BLOCKED: usize = PASSED_THEIR_KING + 8;
pub const KING_SHIELD: usize = PASSED_BLOCKED + 8;
pub const KING_OPEN_FILE: usize = KING_SHIELD + 2;
pub const KING_ATTACK: usize = KING_OPEN_FILE + 1;
pub const KING_ATTACKERS: usize = KING_ATTACK + 4;
pub const SAFE_CHECK: usize = KING_ATTACKERS + 8;
pub const BISHOP_PAIR: usize = SAFE_CHECK + 4;
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
pub const OUTPOST: usize = ROOK_SEMI_OPEN + 1;
pub const THREAT_BY_PAWN: usize = OUTPOST + 2;
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 4;
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 2;
pub const HANGING: usize = THREAT_BY_ROOK + 1;
pub const TEMPO: usize = HANGING + 1;
pub const NUM_WEIGHTS: usize = TEMPO + 1;

/// A named run of weights, for printing and for the tuner's output.
#[derive(Debug, Clone, Copy)]
pub struct Section {
    pub name: &'static str,
    pub start: usize,
    pub len: usize,
    /// Entries per line when written out.
    pub row: usize,
}

pub const SECTIONS: &[Section] = &[
    Section {
        name: "MATERIAL",
        start: MATERIAL,
        len: 5,
        row: 5,
    },
    Section {
        name: "PST",
        start: PST,
        len: 384,
        row: 8,
    },
    Section {
        name: "MOBILITY_KNIGHT",
        start: MOBILITY_KNIGHT,
        len: 9,
        row: 9,
    },
    Section {
        name: "MOBILITY_BISHOP",
        start: MOBILITY_BISHOP,
        len: 14,
        row: 7,
    },
    Section {
        name: "MOBILITY_ROOK",
        start: MOBILITY_ROOK,
        len: 15,
        row: 8,
    },
    Section {
        name: "MOBILITY_QUEEN",
        start: MOBILITY_QUEEN,
        len: 28,
        row: 7,
    },
    Section {
        name: "PAWN_ISOLATED",
        start: PAWN_ISOLATED,
        len: 1,
        row: 1,
    },
    Section {
        name: "PAWN_DOUBLED",
        start: PAWN_DOUBLED,
        len: 1,
        row: 1,
    },
    Section {
        name: "PAWN_BACKWARD",
        start: PAWN_BACKWARD,
        len: 1,
        row: 1,
    },
    Section {
        name: "PAWN_PHALANX",
        start: PAWN_PHALANX,
        len: 8,
        row: 8,
    },
    Section {
        name: "PAWN_SUPPORTED",
        start: PAWN_SUPPORTED,
        len: 8,
        row: 8,
    },
    Section {
        name: "PASSED",
        start: PASSED,
        len: 8,
        row: 8,
    },
    Section {
        name: "PASSED_OWN_KING",
        start: PASSED_OWN_KING,
        len: 8,
        row: 8,
    },
    Section {
        name: "PASSED_THEIR_KING",
        start: PASSED_THEIR_KING,
        len: 8,
        row: 8,
    },
    Section {
        name: "PASSED_BLOCKED",
        start: PASSED_BLOCKED,
        len: 8,
        row: 8,
    },
    Section {
        name: "KING_SHIELD",
        start: KING_SHIELD,
        len: 2,
        row: 2,
    },
    Section {
        name: "KING_OPEN_FILE",
        start: KING_OPEN_FILE,
        len: 1,
        row: 1,
    },
    Section {
        name: "KING_ATTACK",
        start: KING_ATTACK,
        len: 4,
        row: 4,
    },
    Section {
        name: "KING_ATTACKERS",
        start: KING_ATTACKERS,
        len: 8,
        row: 8,
    },
    Section {
        name: "SAFE_CHECK",
        start: SAFE_CHECK,
        len: 4,
        row: 4,
    },
    Section {
        name: "BISHOP_PAIR",
        start: BISHOP_PAIR,
        len: 1,
        row: 1,
    },
    Section {
        name: "ROOK_OPEN",
        start: ROOK_OPEN,
        len: 1,
        row: 1,
    },
    Section {
        name: "ROOK_SEMI_OPEN",
        start: ROOK_SEMI_OPEN,
        len: 1,
        row: 1,
    },
    Section {
        name: "OUTPOST",
        start: OUTPOST,
        len: 2,
        row: 2,
    },
    Section {
        name: "THREAT_BY_PAWN",
        start: THREAT_BY_PAWN,
        len: 4,
        row: 4,
    },
    Section {
        name: "THREAT_BY_MINOR",
        start: THREAT_BY_MINOR,
        len: 2,
        row: 2,
    },
    Section {
        name: "THREAT_BY_ROOK",
        start: THREAT_BY_ROOK,
        len: 1,
        row: 1,
    },
    Section {
        name: "HANGING",
        start: HANGING,
        len: 1,
        row: 1,
    },
    Section {
        name: "TEMPO",
        start: TEMPO,
        len: 1,
        row: 1,
    },
];

const fn copy<const N: usize>(
    mut out: [S; NUM_WEIGHTS],
    at: usize,
    src: [S; N],
) -> [S; NUM_WEIGHTS] {
    let mut i = 0;
    while i < N {
        out[at + i] = src[i];
        i += 1;
    }
    out
}

/// Flattens a weights module (`weights.rs` or `level_weights.rs`).
macro_rules! flatten {
    ($w:ident) => {{
        let mut out = [S::ZERO; NUM_WEIGHTS];
        out = copy(out, MATERIAL, $w::MATERIAL);
        out = copy(out, PST, $w::PST);
        out = copy(out, MOBILITY_KNIGHT, $w::MOBILITY_KNIGHT);
        out = copy(out, MOBILITY_BISHOP, $w::MOBILITY_BISHOP);
        out = copy(out, MOBILITY_ROOK, $w::MOBILITY_ROOK);
        out = copy(out, MOBILITY_QUEEN, $w::MOBILITY_QUEEN);
        out = copy(out, PAWN_ISOLATED, $w::PAWN_ISOLATED);
        out = copy(out, PAWN_DOUBLED, $w::PAWN_DOUBLED);
        out = copy(out, PAWN_BACKWARD, $w::PAWN_BACKWARD);
        out = copy(out, PAWN_PHALANX, $w::PAWN_PHALANX);
        out = copy(out, PAWN_SUPPORTED, $w::PAWN_SUPPORTED);
        out = copy(out, PASSED, $w::PASSED);
        out = copy(out, PASSED_OWN_KING, $w::PASSED_OWN_KING);
        out = copy(out, PASSED_THEIR_KING, $w::PASSED_THEIR_KING);
        out = copy(out, PASSED_BLOCKED, $w::PASSED_BLOCKED);
        out = copy(out, KING_SHIELD, $w::KING_SHIELD);
        out = copy(out, KING_OPEN_FILE, $w::KING_OPEN_FILE);
        out = copy(out, KING_ATTACK, $w::KING_ATTACK);
        out = copy(out, KING_ATTACKERS, $w::KING_ATTACKERS);
        out = copy(out, SAFE_CHECK, $w::SAFE_CHECK);
        out = copy(out, BISHOP_PAIR, $w::BISHOP_PAIR);
        out = copy(out, ROOK_OPEN, $w::ROOK_OPEN);
        out = copy(out, ROOK_SEMI_OPEN, $w::ROOK_SEMI_OPEN);
        out = copy(out, OUTPOST, $w::OUTPOST);
        out = copy(out, THREAT_BY_PAWN, $w::THREAT_BY_PAWN);
        out = copy(out, THREAT_BY_MINOR, $w::THREAT_BY_MINOR);
        out = copy(out, THREAT_BY_ROOK, $w::THREAT_BY_ROOK);
        out = copy(out, HANGING, $w::HANGING);
        out = copy(out, TEMPO, $w::TEMPO);
        out
    }};
}

/// The engine's weights, flattened (usable in constant expressions).
pub const DEFAULT_WEIGHTS: [S; NUM_WEIGHTS] = flatten!(w);

/// The engine's weights, flattened.
pub static WEIGHTS: [S; NUM_WEIGHTS] = DEFAULT_WEIGHTS;

/// The weights levels 1-7 were calibrated with (`level_weights.rs`).
pub static LEVEL_WEIGHTS: [S; NUM_WEIGHTS] = flatten!(lw);

/// Material plus piece-square value of every piece on every square, signed
/// (White positive): what [`crate::engine::Board`] updates incrementally.
/// Indexed `[color as usize][role as usize - 1][square]`.
pub static PSQT: [[[S; 64]; 6]; 2] = build_psqt(&DEFAULT_WEIGHTS);

pub(crate) const fn build_psqt(w: &[S; NUM_WEIGHTS]) -> [[[S; 64]; 6]; 2] {
    let mut t = [[[S::ZERO; 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let material = if role < 5 {
                w[MATERIAL + role]
            } else {
                S::ZERO
            };
            // White's square seen from White (table drawn rank 8 first).
            let white = w[PST + 64 * role + (sq ^ 56)];
            let black = w[PST + 64 * role + sq];
            t[1][role][sq] = S::new(material.mg() + white.mg(), material.eg() + white.eg());
            t[0][role][sq] = S::new(-material.mg() - black.mg(), -material.eg() - black.eg());
            sq += 1;
        }
        role += 1;
    }
    t
}
