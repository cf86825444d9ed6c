//! Spaced repetition of failed puzzles: a failed puzzle comes back after 1
//! day; each time it is solved when due, it comes back after 3, then 7,
//! then 15, then 30 days; solved once more it is learnt and comes back no
//! more. Failing it at any point starts again at 1 day.
//!
//! A puzzle solved before it is due (chosen by hand, not by
//! [`super::Store::next`]) keeps its date: the point of the wait is to
//! test memory after it, so an early solve proves little. A puzzle solved
//! at its first try never enters the schedule. One of the user's own
//! mistakes starts as if just failed and due at once ([`Repeat::NOW`]): it
//! was failed in the game it came from.

/// One day in seconds.
pub const DAY: u64 = 86_400;

/// The waits, in days, after a failure (the first) and after each solve
/// of a due repeat. Solving at the last step ends the schedule.
pub const INTERVALS: [u64; 5] = [1, 3, 7, 15, 30];

/// A puzzle in the schedule: how many due repeats were solved in a row
/// (the index into [`INTERVALS`] of the wait that led here) and when it
/// is due (Unix seconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Repeat {
    pub step: u8,
    pub due: u64,
}

impl Repeat {
    /// Failed, due at once: a mistake from one of the user's games.
    pub const NOW: Repeat = Repeat { step: 0, due: 0 };
}

/// The schedule after an attempt at `at` (Unix seconds): `None` when the
/// puzzle is not (or no longer) to be repeated.
pub fn after(prev: Option<Repeat>, solved: bool, at: u64) -> Option<Repeat> {
    let wait = |step: u8| at.saturating_add(INTERVALS[usize::from(step)] * DAY);
    match (prev, solved) {
        (_, false) => Some(Repeat {
            step: 0,
            due: wait(0),
        }),
        (None, true) => None,
        (Some(r), true) if at < r.due => Some(r),
        (Some(r), true) => {
            let step = r.step + 1;
            (usize::from(step) < INTERVALS.len()).then(|| Repeat {
                step,
                due: wait(step),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_puzzle_comes_back_after_1_3_7_15_30_days_then_never() {
        let mut at = 1_000_000;
        let mut r = after(None, false, at);
        let mut waits = Vec::new();
        while let Some(rep) = r {
            waits.push((rep.due - at) / DAY);
            at = rep.due + 3600; // solved an hour after it fell due
            r = after(Some(rep), true, at);
        }
        assert_eq!(waits, [1, 3, 7, 15, 30]);
    }

    #[test]
    fn failing_again_starts_over_and_early_solves_do_not_count() {
        let at = 5 * DAY;
        let r = after(None, false, at).expect("failed: scheduled");
        let r = after(Some(r), true, r.due).expect("3 days");
        assert_eq!(r.step, 1);
        assert_eq!(after(Some(r), true, r.due - 1), Some(r));
        let again = after(Some(r), false, r.due + 10).expect("failed again");
        assert_eq!(again.step, 0);
        assert_eq!(again.due, r.due + 10 + DAY);
        assert_eq!(after(None, true, at), None);
    }

    #[test]
    fn a_mistake_is_due_at_once_and_counts_as_failed() {
        let r = after(Some(Repeat::NOW), true, 7 * DAY).expect("next wait");
        assert_eq!(
            r,
            Repeat {
                step: 1,
                due: 10 * DAY
            }
        );
    }
}
