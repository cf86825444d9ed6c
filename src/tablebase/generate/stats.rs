//! The statistics of a finished window: wins, draws and losses for each
//! side to move, each position weighted by the board positions it stands
//! for, and the longest win and loss (a word at a time).

use super::*;

impl Gen<'_> {
    /// The unused positions of window word `w` (once finished).
    #[inline]
    fn unused(&self, w: usize) -> u64 {
        self.byte_bits(w, ILLEGAL) & self.good.word(w)
    }

    /// Counts wins, draws and losses of the window's positions, each
    /// weighted by the positions of the board it stands for.
    pub(super) fn stats(&self, threads: usize) -> TableStats {
        let half = self.half();
        let words = 2 * half;
        let next = AtomicUsize::new(0);
        let parts = parallel(threads, || {
            let mut st = TableStats::default();
            loop {
                let start = next.fetch_add(CHUNK_WORDS, Relaxed);
                if start >= words {
                    break;
                }
                for w in start..(start + CHUNK_WORDS).min(words) {
                    self.word_stats(w, &mut st.sides[w / half]);
                }
            }
            st
        });
        let mut st = TableStats::default();
        for p in &parts {
            st.add(p);
        }
        st
    }

    /// Adds window word `w`'s positions to `s`.
    #[inline]
    fn word_stats(&self, w: usize, s: &mut SideStats) {
        let tw = self.geo.base_word + w % self.half();
        let unused = self.unused(w);
        if unused == u64::MAX {
            return;
        }
        // Each position's weight: the board positions it stands for (the
        // same for the whole word, 4 instead of 8 on `sym`, or asked).
        let (base, sym) = match &self.layout.slices {
            Some(sl) if sl.is_symmetric(tw * WORD / self.layout.slice_size) => (1, Some(0)),
            Some(_) => (2, Some(0)),
            None => (8, self.geo.symmetric(tw, &self.outer(tw))),
        };
        // Wins and losses as bit sets, eight bytes at a time (a win: an
        // odd code from 3; a loss: an even one from 2, or code 1, mated
        // in MAX_DIST), and the largest codes among them (a loss's code 1
        // counted as 255: no loss has that code).
        const HI: u64 = 0x8080_8080_8080_8080;
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let used = !unused;
        let (mut win, mut loss) = (0u64, 0u64);
        // The codes of the wins and losses, others zero (the largest
        // found over the whole word at once: a vector maximum).
        let (mut top_w, mut top_l) = ([0u64; 8], [0u64; 8]);
        let xs = self.cells.words8(w);
        for (k, &x) in xs.iter().enumerate() {
            let y = x & !0x0101_0101_0101_0101;
            let from2 = (((y & LOW7) + LOW7) | y) & HI;
            let odd = (x << 7) & HI;
            let in_use = spread_bytes(used >> (8 * k)) & HI;
            let one = bytes_equal(x, ILLEGAL);
            let w_hi = from2 & odd & in_use;
            let l_hi = ((from2 & !odd) | one) & in_use;
            win |= gather_high_bits(w_hi) << (8 * k);
            loss |= gather_high_bits(l_hi) << (8 * k);
            top_w[k] = x & ((w_hi >> 7) * 0xFF);
            top_l[k] = (x | ((one >> 7) * 0xFF)) & ((l_hi >> 7) * 0xFF);
        }
        let top_win = max_byte64(top_w);
        let top_loss = max_byte64(top_l);
        let weighted = |bits: u64| match sym {
            Some(sym) => {
                base * u64::from((bits & !sym).count_ones())
                    + 4 * u64::from((bits & sym).count_ones())
            }
            None => Bitboard(bits)
                .into_iter()
                .map(|b| self.layout.weight(tw * WORD + b as usize))
                .sum(),
        };
        s.positions += weighted(used);
        s.wins += weighted(win);
        s.losses += weighted(loss);
        s.draws += weighted(used & !win & !loss);
        if win != 0 {
            s.longest_win = s.longest_win.max(dist_of(top_win));
        }
        if loss != 0 {
            let d = if top_loss == 255 {
                MAX_DIST
            } else {
                dist_of(top_loss)
            };
            s.longest_loss = s.longest_loss.max(d);
        }
    }
}
