//! Move-ordering memory that outlives a node: killers live on the search
//! stack; history, continuation history and countermoves live here and are
//! kept (aged) from one search to the next.

use super::board::Move16;
use super::score::Depth;
use shakmaty::{Color, Move, Square};

/// Largest absolute value a history entry reaches.
pub const HISTORY_MAX: i32 = 16384;

/// Index of a piece (color and role) in the 12-entry tables.
#[inline(always)]
pub fn piece_index(color: Color, m: Move) -> usize {
    color as usize * 6 + m.role() as usize - 1
}

/// The square a move lands on, with castling as the king's destination.
#[inline(always)]
pub fn dest(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            Square::from_coords(side.king_to_file(), king.rank())
        }
        _ => m.to(),
    }
}

/// The origin square of a move for the butterfly table; a drop counts as
/// coming from its own target square (no board move has from = to).
#[inline(always)]
fn from_sq(m: Move) -> usize {
    match m.from() {
        Some(s) => s as usize,
        None => m.to() as usize,
    }
}

/// A (piece, destination) pair identifying a move for continuation history.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ContKey {
    pub piece: u8,
    pub to: u8,
}

impl ContKey {
    #[inline(always)]
    pub fn new(color: Color, m: Move) -> ContKey {
        ContKey {
            piece: piece_index(color, m) as u8,
            to: dest(m) as u8,
        }
    }
}

type ContTable = [[[[i16; 64]; 12]; 64]; 12];

/// Quiet-move scoring with the node's table rows already looked up.
pub struct QuietScorer<'a> {
    butterfly: &'a [[i16; 64]; 64],
    cont: [&'a [[i16; 64]; 12]; 2],
    color: Color,
}

impl QuietScorer<'_> {
    #[inline(always)]
    pub fn score(&self, m: Move) -> i32 {
        let piece = (self.color as usize * 6 + m.role() as usize - 1) % 12;
        let to = dest(m) as usize;
        self.butterfly[from_sq(m)][to] as i32
            + self.cont[0][piece][to] as i32
            + self.cont[1][piece][to] as i32
    }
}

pub struct Histories {
    /// [color][from][to]
    butterfly: Box<[[[i16; 64]; 64]; 2]>,
    /// [previous piece][previous to][piece][to], shared by the 1-ply and
    /// 2-ply continuation.
    cont: Box<ContTable>,
    /// [piece][to] of the previous move -> the move that refuted it.
    counter: Box<[[Move16; 64]; 12]>,
    /// [side to move][pawn structure]: how far the search's results have
    /// been from the static evaluation in positions with these pawns, in
    /// 1/`CORR_GRAIN` centipawns (a running average).
    corr: Box<[[i32; CORR_SIZE]; 2]>,
}

/// Entries of the correction table per side.
pub const CORR_SIZE: usize = 16384;
const CORR_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORR_MAX_CP: i32 = 64;

/// The correction table's slot for the pawns of `board` (both colours).
#[inline(always)]
pub fn pawn_index(board: &shakmaty::Board) -> usize {
    let w = (board.pawns() & board.white()).0;
    let b = (board.pawns() & board.black()).0;
    let h = (w ^ b.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - CORR_SIZE.trailing_zeros())) as usize
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

/// `bonus` pulls `entry` toward +-HISTORY_MAX, saturating smoothly.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let v = e + bonus - e * bonus.abs() / HISTORY_MAX;
    *entry = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// History bonus for a move that caused a cutoff at `depth`.
#[inline(always)]
pub fn bonus(depth: Depth) -> i32 {
    (16 * depth * depth + 32 * depth + 16).min(1200)
}

impl Histories {
    pub fn new() -> Histories {
        // Large zeroed tables straight on the heap.
        fn zeroed<T>() -> Box<T> {
            let layout = std::alloc::Layout::new::<T>();
            // SAFETY: every table here is a plain array of integers, for
            // which all-zero bytes are a valid value; the layout is non-zero.
            unsafe {
                let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
                if ptr.is_null() {
                    std::alloc::handle_alloc_error(layout);
                }
                Box::from_raw(ptr)
            }
        }
        Histories {
            butterfly: zeroed(),
            cont: zeroed(),
            counter: zeroed(),
            corr: zeroed(),
        }
    }

    /// The correction of the static evaluation for `color` to move with
    /// the pawns at `index`, in centipawns.
    #[inline(always)]
    pub fn correction(&self, color: Color, index: usize) -> i32 {
        self.corr[color as usize][index % CORR_SIZE] / CORR_GRAIN
    }

    /// Moves the correction toward `diff` (search result minus raw static
    /// evaluation), more for deeper searches.
    #[inline(always)]
    pub fn update_correction(&mut self, color: Color, index: usize, diff: i32, depth: Depth) {
        let e = &mut self.corr[color as usize][index % CORR_SIZE];
        let w = (depth + 1).clamp(1, 16);
        let target = diff.clamp(-4 * CORR_MAX_CP, 4 * CORR_MAX_CP) * CORR_GRAIN;
        *e = ((*e * (256 - w) + target * w) / 256)
            .clamp(-CORR_MAX_CP * CORR_GRAIN, CORR_MAX_CP * CORR_GRAIN);
    }

    pub fn clear(&mut self) {
        *self = Histories::new();
    }

    /// Between searches: halve everything so old lessons fade.
    pub fn age(&mut self) {
        for side in self.butterfly.iter_mut() {
            for row in side.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }

    /// Scores quiet moves of one node: the table rows for the previous moves
    /// are looked up once.
    #[inline(always)]
    pub fn quiet_scorer(&self, color: Color, prev: [Option<ContKey>; 2]) -> QuietScorer<'_> {
        static ZERO: [[i16; 64]; 12] = [[0; 64]; 12];
        let row = |p: Option<ContKey>| match p {
            Some(p) => &self.cont[p.piece as usize % 12][p.to as usize % 64],
            None => &ZERO,
        };
        QuietScorer {
            butterfly: &self.butterfly[color as usize],
            cont: [row(prev[0]), row(prev[1])],
            color,
        }
    }

    /// Ordering score of a quiet move.
    #[inline(always)]
    pub fn quiet_score(&self, color: Color, m: Move, prev: [Option<ContKey>; 2]) -> i32 {
        let key = ContKey::new(color, m);
        let (piece, to) = (key.piece as usize, key.to as usize);
        let mut s = self.butterfly[color as usize][from_sq(m)][to] as i32;
        if let Some(p) = prev[0] {
            s += self.cont[p.piece as usize][p.to as usize][piece][to] as i32;
        }
        if let Some(p) = prev[1] {
            s += self.cont[p.piece as usize][p.to as usize][piece][to] as i32;
        }
        s
    }

    /// Butterfly history alone (used to adjust reductions).
    #[inline(always)]
    pub fn butterfly(&self, color: Color, m: Move) -> i32 {
        self.butterfly[color as usize][from_sq(m)][dest(m) as usize] as i32
    }

    /// Rewards `m` and punishes the quiet moves tried before it.
    pub fn update_quiet(
        &mut self,
        color: Color,
        best: Move,
        tried: &[Move],
        depth: Depth,
        prev: [Option<ContKey>; 2],
    ) {
        let b = bonus(depth);
        self.update_one(color, best, b, prev);
        for &m in tried {
            if m != best {
                self.update_one(color, m, -b, prev);
            }
        }
        if let Some(p) = prev[0] {
            self.counter[p.piece as usize][p.to as usize] = Move16::new(best);
        }
    }

    #[inline(always)]
    fn update_one(&mut self, color: Color, m: Move, bonus: i32, prev: [Option<ContKey>; 2]) {
        let key = ContKey::new(color, m);
        gravity(
            &mut self.butterfly[color as usize][from_sq(m)][key.to as usize],
            bonus,
        );
        for p in prev.into_iter().flatten() {
            gravity(
                &mut self.cont[p.piece as usize][p.to as usize][key.piece as usize]
                    [key.to as usize],
                bonus,
            );
        }
    }

    /// The stored reply to the previous move (not yet checked for legality).
    #[inline(always)]
    pub fn counter_move(&self, prev: Option<ContKey>) -> Move16 {
        match prev {
            Some(p) => self.counter[p.piece as usize][p.to as usize],
            None => Move16::NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_saturates() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 1200);
        }
        assert!(e as i32 <= HISTORY_MAX && e as i32 > HISTORY_MAX - 1300);
        for _ in 0..1000 {
            gravity(&mut e, -1200);
        }
        assert!(e as i32 >= -HISTORY_MAX && (e as i32) < -HISTORY_MAX + 1300);
    }

    #[test]
    fn correction_follows_the_search_and_stays_bounded() {
        let mut h = Histories::new();
        let board = shakmaty::Board::default();
        let i = pawn_index(&board);
        assert!(i < CORR_SIZE);
        assert_eq!(h.correction(Color::White, i), 0);
        // Searches keep finding +40 over the static evaluation.
        for _ in 0..200 {
            h.update_correction(Color::White, i, 40, 10);
        }
        let c = h.correction(Color::White, i);
        assert!((38..=40).contains(&c), "{c}");
        // The other side's entry is untouched.
        assert_eq!(h.correction(Color::Black, i), 0);
        // Huge differences are capped.
        for _ in 0..200 {
            h.update_correction(Color::Black, i, -5000, 16);
        }
        assert_eq!(h.correction(Color::Black, i), -CORR_MAX_CP);
        // Other pawns, another slot (the start position and one pawn moved).
        let moved: shakmaty::Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
            .parse()
            .expect("board");
        assert_ne!(pawn_index(&moved), i);
        h.clear();
        assert_eq!(h.correction(Color::White, i), 0);
    }
}
