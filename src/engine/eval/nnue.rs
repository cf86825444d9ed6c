//! A small efficiently-updatable neural network (NNUE) evaluation.
//!
//! Architecture: 768 inputs (colour relative to the side of the view x 6
//! piece types x 64 squares, the board flipped for Black's view) -> a hidden
//! layer of [`HIDDEN`] neurons per point of view, with shared weights ->
//! the two halves concatenated, the side to move's first -> squared clipped
//! ReLU -> one output in centipawns.
//!
//! A *residual* network learns a correction to the hand-crafted evaluation
//! (the score is the full evaluation plus the network's output), so that a
//! network trained on a few million positions starts from everything the
//! tuned terms know instead of from nothing. Which kind a file holds is in
//! its header.
//!
//! The weights are integers (the hidden layer's in units of 1/[`QA`], the
//! output layer's in 1/[`QB`]), so the evaluation is exact and the same on
//! every machine; the trainer (`tune::nnue`) learns in floating point and
//! writes this format.
//!
//! The hidden layer is not updated move by move inside the board (which
//! would cost the hand-crafted evaluation's search too): the evaluator keeps
//! the sums of the last position evaluated at each ply ([`AccStack`]) and
//! updates them by the pieces that differ from the ply before (usually the
//! parent) or from the same ply's last position, whichever is closer.

use shakmaty::{Bitboard, Board, Color, Role};
use std::sync::{Arc, OnceLock};

/// Hidden neurons per point of view.
pub const HIDDEN: usize = 128;
/// Inputs: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Hidden-layer quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output-layer quantisation: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
/// The largest output weight (in 1/QB), so that the sum of 2 x HIDDEN
/// squared activations times a weight stays within an `i32`.
pub const MAX_OUT_WEIGHT: i32 = 120;

const MAGIC: &[u8; 8] = b"KBZNNUE1";
const FLAG_RESIDUAL: u32 = 1;

/// The network Kibitz ships with (see `stages.md` beside it for how it was
/// made).
static EMBEDDED_BYTES: &[u8] = include_bytes!("nnue/kibitz.nnue");

/// A network's integer weights.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Added to the hand-crafted evaluation rather than replacing it.
    pub residual: bool,
    /// `[input][neuron]`, so one input's weights are one contiguous row.
    pub ft_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    pub ft_bias: [i16; HIDDEN],
    /// The side to move's half first, then the other side's.
    pub out_weights: [i16; 2 * HIDDEN],
    /// In units of 1/(QA x QB).
    pub out_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &HIDDEN)
            .field("residual", &self.residual)
            .finish_non_exhaustive()
    }
}

/// Why a network file could not be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error("not a Kibitz network file (it does not start with KBZNNUE1)")]
    Magic,
    #[error("the network has {0} hidden neurons; this Kibitz reads {HIDDEN}")]
    Hidden(u32),
    #[error("the network file is {got} bytes; {want} were expected")]
    Size { got: usize, want: usize },
    #[error("an output weight is {0}, beyond the +-{MAX_OUT_WEIGHT} this format allows")]
    OutWeight(i16),
}

/// Index of a piece's input from `view`'s side: own pieces first, the
/// board flipped for Black, and mirrored left to right when `mirror`.
#[inline(always)]
pub fn feature(view: Color, color: Color, role: Role, sq: usize, mirror: bool) -> usize {
    let rel = usize::from(color != view);
    let sq = if view == Color::Black { sq ^ 56 } else { sq };
    let sq = if mirror { sq ^ 7 } else { sq };
    (rel * 6 + (role as usize - 1)) * 64 + sq
}

/// Calls `f(white_view_input, black_view_input)` for every piece.
#[inline(always)]
pub fn for_each_feature(board: &Board, mirror: bool, mut f: impl FnMut(usize, usize)) {
    for color in [Color::White, Color::Black] {
        let ours: Bitboard = board.by_color(color);
        for role in Role::ALL {
            for sq in ours & board.by_role(role) {
                let sq = sq as usize;
                f(
                    feature(Color::White, color, role, sq, mirror),
                    feature(Color::Black, color, role, sq, mirror),
                );
            }
        }
    }
}

impl Network {
    /// The size of a network file in bytes.
    pub const FILE_SIZE: usize = 8 + 4 + 4 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

    /// A network whose output is always 0: residual, it leaves the
    /// hand-crafted evaluation as it is.
    pub fn zero(residual: bool) -> Network {
        Network {
            residual,
            ft_weights: vec![[0i16; HIDDEN]; INPUTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("INPUTS rows")),
            ft_bias: [0; HIDDEN],
            out_weights: [0; 2 * HIDDEN],
            out_bias: 0,
        }
    }

    /// The network Kibitz ships with.
    pub fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(
                Network::from_bytes(EMBEDDED_BYTES)
                    .unwrap_or_else(|e| panic!("the embedded network is broken: {e}")),
            )
        })
        .clone()
    }

    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let hidden = u32_at(8);
        if hidden as usize != HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        if bytes.len() != Self::FILE_SIZE {
            return Err(NetError::Size {
                got: bytes.len(),
                want: Self::FILE_SIZE,
            });
        }
        let flags = u32_at(12);
        let mut net = Network::zero(flags & FLAG_RESIDUAL != 0);
        let mut words = bytes[16..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut next = || words.next().unwrap_or(0);
        for row in net.ft_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        for b in net.ft_bias.iter_mut() {
            *b = next();
        }
        for w in net.out_weights.iter_mut() {
            *w = next();
            if i32::from(*w).abs() > MAX_OUT_WEIGHT {
                return Err(NetError::OutWeight(*w));
            }
        }
        net.out_bias = u32_at(Self::FILE_SIZE - 4) as i32;
        Ok(net)
    }

    /// Writes the network in the format [`Network::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::FILE_SIZE);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let flags = if self.residual { FLAG_RESIDUAL } else { 0 };
        out.extend_from_slice(&flags.to_le_bytes());
        let words = self
            .ft_weights
            .iter()
            .flatten()
            .chain(self.ft_bias.iter())
            .chain(self.out_weights.iter());
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// The network's output for `board` with `turn` to move, in
    /// centipawns from the side to move's view (for a residual network: the
    /// correction to add to the hand-crafted evaluation).
    pub fn evaluate(&self, board: &Board, turn: Color) -> i32 {
        self.evaluate_with(&mut Accumulators::default(), board, turn)
    }
}

/// The hidden layer of a position evaluated earlier, so that a later one
/// (in a search, usually a sibling or a child of it: a few pieces moved)
/// is computed from the difference instead of from every piece.
#[derive(Clone)]
pub struct Accumulators {
    /// `[colour][role - 1]` of the position the sums are of.
    pieces: [[Bitboard; 6]; 2],
    white: [i16; HIDDEN],
    black: [i16; HIDDEN],
    valid: bool,
}

impl Default for Accumulators {
    fn default() -> Self {
        Accumulators {
            pieces: [[Bitboard::EMPTY; 6]; 2],
            white: [0; HIDDEN],
            black: [0; HIDDEN],
            valid: false,
        }
    }
}

impl Accumulators {
    /// Forget the last position (the network changed).
    pub fn clear(&mut self) {
        self.valid = false;
    }
}

/// One [`Accumulators`] per search ply: the position evaluated at a ply is
/// updated from the one at the ply before (usually its parent: two to four
/// features change) or, when more changed since that one, from its own
/// slot's last position (a sibling or a cousin), whichever is closer. In
/// `bench` that is 3.5 changed features per evaluation; a single sum
/// updated from the last position evaluated, whatever it was, changed 4.3.
pub struct AccStack {
    slots: Box<[Accumulators]>,
}

impl Default for AccStack {
    fn default() -> Self {
        AccStack {
            slots: vec![Accumulators::default(); Self::SLOTS].into_boxed_slice(),
        }
    }
}

impl AccStack {
    /// Plies beyond the last share its slot.
    pub const SLOTS: usize = 64;

    /// Forget every position (the network changed).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(Accumulators::clear);
    }
}

/// Updating costs two rows per changed piece; past this many changes a
/// fresh sum is as cheap.
const MAX_CHANGES: u32 = 16;

/// The pieces of `board` by `[colour][role - 1]` (black first).
#[inline(always)]
fn pieces_of(board: &Board) -> [[Bitboard; 6]; 2] {
    let mut now = [[Bitboard::EMPTY; 6]; 2];
    for (c, color) in [Color::Black, Color::White].into_iter().enumerate() {
        let ours = board.by_color(color);
        for (r, role) in Role::ALL.into_iter().enumerate() {
            now[c][r] = ours & board.by_role(role);
        }
    }
    now
}

/// How many squares changed from `old` to `now`, and which colours and
/// roles changed (bit c x 6 + r).
#[inline(always)]
fn diff(old: &[[Bitboard; 6]; 2], now: &[[Bitboard; 6]; 2]) -> (u32, u16) {
    let mut changes = 0;
    let mut changed = 0u16;
    for c in 0..2 {
        for r in 0..6 {
            let d = now[c][r] ^ old[c][r];
            changes += d.count() as u32;
            changed |= u16::from(d.any()) << (c * 6 + r);
        }
    }
    (changes, changed)
}

impl Network {
    /// [`Network::evaluate`], computing the hidden layer from the
    /// difference to the last position `acc` holds (same result).
    pub fn evaluate_with(&self, acc: &mut Accumulators, board: &Board, turn: Color) -> i32 {
        self.evaluate_from(std::slice::from_mut(acc), 0, board, turn)
    }

    /// [`Network::evaluate`] for a position at `ply` of a search, from the
    /// sum `stack` holds for the ply before or, when that is further off,
    /// for this ply (same result).
    pub fn evaluate_in(&self, stack: &mut AccStack, ply: usize, board: &Board, turn: Color) -> i32 {
        self.evaluate_from(&mut stack.slots, ply.min(AccStack::SLOTS - 1), board, turn)
    }

    /// Computes `slots[i]` for `board` from itself or from `slots[i - 1]`.
    #[inline(always)]
    fn evaluate_from(
        &self,
        slots: &mut [Accumulators],
        i: usize,
        board: &Board,
        turn: Color,
    ) -> i32 {
        let now = pieces_of(board);
        // The ply before first: when it holds the parent, a move changed
        // two to four features and nothing is closer.
        let (mut src, mut changes, mut changed) = (i, u32::MAX, 0);
        if i > 0 && slots[i - 1].valid {
            (changes, changed) = diff(&slots[i - 1].pieces, &now);
            src = i - 1;
        }
        if changes > 4 && slots[i].valid {
            let (c, d) = diff(&slots[i].pieces, &now);
            if c < changes {
                (src, changes, changed) = (i, c, d);
            }
        }
        if changes > MAX_CHANGES {
            let acc = &mut slots[i];
            acc.white = self.ft_bias;
            acc.black = self.ft_bias;
            for_each_feature(board, false, |w, b| {
                add_row(&mut acc.white, &self.ft_weights[w]);
                add_row(&mut acc.black, &self.ft_weights[b]);
            });
            acc.valid = true;
        } else if changes > 0 || src != i {
            // Gather the rows first, then pass over each sum once: adding
            // row by row would load and store the whole sum per row.
            let mut added = [[0usize; MAX_CHANGES as usize]; 2];
            let mut removed = [[0usize; MAX_CHANGES as usize]; 2];
            let (mut n_added, mut n_removed) = (0, 0);
            let old_pieces = &slots[src].pieces;
            while changed != 0 {
                let k = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                let (c, r) = (k / 6, k % 6);
                let color = [Color::Black, Color::White][c];
                let role = Role::ALL[r];
                let (old, new) = (old_pieces[c][r], now[c][r]);
                for sq in old & !new {
                    let sq = sq as usize;
                    removed[0][n_removed] = feature(Color::White, color, role, sq, false);
                    removed[1][n_removed] = feature(Color::Black, color, role, sq, false);
                    n_removed += 1;
                }
                for sq in new & !old {
                    let sq = sq as usize;
                    added[0][n_added] = feature(Color::White, color, role, sq, false);
                    added[1][n_added] = feature(Color::Black, color, role, sq, false);
                    n_added += 1;
                }
            }
            let (white, black) = update(
                [&slots[src].white, &slots[src].black],
                &self.ft_weights[..],
                [&added[0][..n_added], &added[1][..n_added]],
                [&removed[0][..n_removed], &removed[1][..n_removed]],
            );
            let acc = &mut slots[i];
            acc.white = white;
            acc.black = black;
            acc.valid = true;
        }
        let acc = &mut slots[i];
        acc.pieces = now;
        self.output(&acc.white, &acc.black, turn)
    }

    #[inline(always)]
    fn output(&self, white: &[i16; HIDDEN], black: &[i16; HIDDEN], turn: Color) -> i32 {
        let (us, them) = match turn {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let (w_us, w_them) = self.out_weights.split_at(HIDDEN);
        let sum = screlu_dot(us, w_us) + screlu_dot(them, w_them);
        // `sum` is in QA^2 x QB units; one QA goes here, the other with the
        // bias's scale below.
        let out = sum / QA + self.out_bias;
        out * SCALE / (QA * QB)
    }
}

/// Each view's sum plus its rows `added`, minus its rows `removed`. Both
/// views go through one loop, each sum held in registers, so that the
/// loads of both views' rows overlap.
#[inline(always)]
fn update(
    acc: [&[i16; HIDDEN]; 2],
    rows: &[[i16; HIDDEN]],
    added: [&[usize]; 2],
    removed: [&[usize]; 2],
) -> ([i16; HIDDEN], [i16; HIDDEN]) {
    let (mut w, mut b) = (*acc[0], *acc[1]);
    for (&fw, &fb) in added[0].iter().zip(added[1]) {
        for ((w, b), (&rw, &rb)) in w
            .iter_mut()
            .zip(b.iter_mut())
            .zip(rows[fw].iter().zip(&rows[fb]))
        {
            *w = w.wrapping_add(rw);
            *b = b.wrapping_add(rb);
        }
    }
    for (&fw, &fb) in removed[0].iter().zip(removed[1]) {
        for ((w, b), (&rw, &rb)) in w
            .iter_mut()
            .zip(b.iter_mut())
            .zip(rows[fw].iter().zip(&rows[fb]))
        {
            *w = w.wrapping_sub(rw);
            *b = b.wrapping_sub(rb);
        }
    }
    (w, b)
}

#[inline(always)]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

/// Sum of clamp(a, 0, QA)^2 x w.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    const _: () = assert!(HIDDEN.is_multiple_of(16));
    assert!(w.len() >= HIDDEN);
    // SAFETY: AVX2 is enabled at compile time (the cfg above); every load
    // reads 16 lanes below HIDDEN of `acc` and `w` (checked above).
    unsafe {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(16) {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            let wv = _mm256_loadu_si256(w.as_ptr().add(i).cast());
            // v x w fits an i16 (255 x 120); times v again, pairs summed
            // into i32 lanes.
            let vw = _mm256_mullo_epi16(v, wv);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}

/// Sum of clamp(a, 0, QA)^2 x w.
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
#[inline(always)]
fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    screlu_dot_scalar(acc, w)
}

/// [`screlu_dot`] one neuron at a time (without AVX2, and the reference
/// the vector version is tested against).
#[inline(always)]
#[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
fn screlu_dot_scalar(acc: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w) {
        let v = i32::from(a).clamp(0, QA);
        // v x w fits an i16 product's range (255 x 120), then x v.
        sum += v * i32::from(w) * v;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("bad test FEN {fen}"))
    }

    /// A network with random hidden weights in +-`hidden` and output
    /// weights in +-100.
    fn random_net(seed: u64, hidden: usize) -> Network {
        let mut net = Network::zero(false);
        let mut rng = crate::util::Rng::new(seed);
        for row in net.ft_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = rng.below(2 * hidden) as i16 - hidden as i16;
            }
        }
        for w in net.out_weights.iter_mut() {
            *w = rng.below(200) as i16 - 100;
        }
        net
    }

    #[test]
    fn the_vector_output_is_the_scalar_one() {
        let mut rng = crate::util::Rng::new(5);
        for _ in 0..200 {
            let mut acc = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for (a, w) in acc.iter_mut().zip(w.iter_mut()) {
                // Both sides of the clamp, and the extreme weights.
                *a = rng.below(800) as i16 - 300;
                *w = rng.below(2 * MAX_OUT_WEIGHT as usize + 1) as i16 - MAX_OUT_WEIGHT as i16;
            }
            assert_eq!(screlu_dot(&acc, &w), screlu_dot_scalar(&acc, &w));
        }
        let full = [QA as i16; HIDDEN];
        let max = [MAX_OUT_WEIGHT as i16; HIDDEN];
        assert_eq!(
            screlu_dot(&full, &max),
            QA * QA * MAX_OUT_WEIGHT * HIDDEN as i32
        );
    }

    #[test]
    fn file_round_trip_and_bad_files() {
        let mut net = Network::zero(true);
        net.ft_weights[5][7] = -300;
        net.ft_bias[3] = 17;
        net.out_weights[200] = -99;
        net.out_bias = 123_456;
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::FILE_SIZE);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        assert_eq!(Network::from_bytes(b"garbage"), Err(NetError::Magic));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 2]),
            Err(NetError::Size { .. })
        ));
        let mut wide = bytes.clone();
        wide[8] = 64;
        assert_eq!(Network::from_bytes(&wide), Err(NetError::Hidden(64)));
    }

    #[test]
    fn the_embedded_network_reads() {
        let net = Network::embedded();
        let start = Chess::default();
        // Symmetric position, either side to move: the same view.
        let a = net.evaluate(start.board(), Color::White);
        let b = net.evaluate(start.board(), Color::Black);
        assert_eq!(a, b);
    }

    #[test]
    fn the_stage_1_network_reads() {
        let net = Network::from_bytes(include_bytes!("nnue/stage1.nnue"));
        assert!(net.is_ok_and(|n| n.residual));
    }

    #[test]
    fn the_views_are_mirror_images() {
        // A position and its colour-flipped twin give the same score to the
        // side to move.
        let net = random_net(7, 100);
        let a = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = pos("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        let ea = net.evaluate(a.board(), a.turn());
        let eb = net.evaluate(b.board(), b.turn());
        assert_eq!(ea, eb);
        assert_ne!(ea, 0, "random weights give some score");
    }

    #[test]
    fn updating_from_the_last_position_gives_the_fresh_sum() {
        let net = random_net(11, 50);
        let mut rng = crate::util::Rng::new(1);
        let mut acc = Accumulators::default();
        // A game's positions in order, then jumps between unrelated ones.
        let mut p = Chess::default();
        let mut others = Vec::new();
        for _ in 0..60 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            p.play_unchecked(m);
            assert_eq!(
                net.evaluate_with(&mut acc, p.board(), p.turn()),
                net.evaluate(p.board(), p.turn())
            );
            others.push(p.clone());
        }
        for q in others.iter().rev().step_by(7) {
            assert_eq!(
                net.evaluate_with(&mut acc, q.board(), q.turn()),
                net.evaluate(q.board(), q.turn())
            );
        }
    }

    #[test]
    fn updating_from_the_ply_before_gives_the_fresh_sum() {
        // A random walk down and up a search tree: each position is
        // evaluated at its ply, so its sum comes from its parent's slot or
        // from its own slot's last position (a sibling or a cousin).
        let net = random_net(12, 50);
        let mut rng = crate::util::Rng::new(2);
        let mut stack = AccStack::default();
        let mut line = vec![Chess::default()];
        for _ in 0..400 {
            let p = line.last().cloned().unwrap_or_default();
            let moves = p.legal_moves();
            let down = !moves.is_empty() && (line.len() < 3 || rng.below(3) != 0);
            if down && line.len() < 12 {
                let mut q = p.clone();
                q.play_unchecked(moves[rng.below(moves.len())]);
                line.push(q);
            } else if line.len() > 1 {
                line.truncate(1 + rng.below(line.len() - 1));
            }
            let ply = line.len() - 1;
            let q = &line[ply];
            // Null moves too: the same pieces, the other side to move.
            let turn = if rng.below(8) == 0 {
                !q.turn()
            } else {
                q.turn()
            };
            assert_eq!(
                net.evaluate_in(&mut stack, ply, q.board(), turn),
                net.evaluate(q.board(), turn)
            );
        }
        // Plies past the last slot share it.
        let q = &line[0];
        assert_eq!(
            net.evaluate_in(&mut stack, 500, q.board(), q.turn()),
            net.evaluate(q.board(), q.turn())
        );
        stack.clear();
        assert!(stack.slots.iter().all(|a| !a.valid));
    }

    #[test]
    fn features_are_distinct_and_in_range() {
        let p = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let mut white = Vec::new();
        let mut black = Vec::new();
        for_each_feature(p.board(), false, |w, b| {
            white.push(w);
            black.push(b);
        });
        assert_eq!(white.len(), 32);
        for v in [&mut white, &mut black] {
            assert!(v.iter().all(|&i| i < INPUTS));
            v.sort_unstable();
            v.dedup();
            assert_eq!(v.len(), 32);
        }
        // The white king on e1 is "own king on e1" for White and "enemy
        // king on e8" for Black.
        assert!(white.contains(&feature(Color::White, Color::White, Role::King, 4, false)));
        assert_eq!(
            feature(Color::Black, Color::White, Role::King, 4, false),
            (6 + 5) * 64 + 60
        );
    }
}
