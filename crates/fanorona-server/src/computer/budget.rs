//! How long a search may run once a thread takes it: its level's own
//! budget, unless the searches waiting would then make someone wait past
//! `--computer-max-wait`. Then it is cut short, and plays the best turn
//! found so far.
//!
//! Two bounds, both counted when the search starts:
//! - what is left of its own wait: `max_wait` less the time it waited;
//! - its share of the wait of those behind it: `max_wait` split between
//!   the heavy searches waiting (those by nodes, which may take long) and
//!   this one, times the threads. With `h` heavy searches waiting and one
//!   thread, each gets at most `max_wait / (h + 1)`, so the last of them
//!   starts within `max_wait` of now.
//!
//! A search short of time still gets [`MIN_SEARCH`]: the turn a search
//! stopped at once plays is the first one generated, and a few plies are
//! far better than that.

use std::time::Duration;

/// The least time a search gets, however long the queue.
pub(crate) const MIN_SEARCH: Duration = Duration::from_millis(50);

/// How long a search may run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Budget {
    /// The time it may run.
    pub(super) time: Duration,
    /// Whether the time is less than `--engine-max-time` because of the
    /// wait: a search that runs out of it was shortened.
    pub(super) cut: bool,
}

/// The pool's bounds on every search.
#[derive(Copy, Clone, Debug)]
pub(super) struct Bounds {
    /// `--engine-max-time`: the longest any search runs.
    pub(super) max_time: Duration,
    /// `--computer-max-wait`: the longest a person should wait.
    pub(super) max_wait: Duration,
    /// The search threads.
    pub(super) threads: usize,
}

impl Bounds {
    /// The budget of a search that waited `waited` and starts now, with
    /// `heavy` heavy searches waiting behind it.
    pub(super) fn budget(&self, waited: Duration, heavy: usize) -> Budget {
        let threads = u32::try_from(self.threads.max(1)).unwrap_or(u32::MAX);
        let sharers = u32::try_from(heavy)
            .unwrap_or(u32::MAX)
            .saturating_add(threads);
        let share = self.max_wait.saturating_mul(threads) / sharers;
        let left = self.max_wait.saturating_sub(waited);
        let bound = left.min(share).max(MIN_SEARCH);
        if bound < self.max_time {
            Budget {
                time: bound,
                cut: true,
            }
        } else {
            Budget {
                time: self.max_time,
                cut: false,
            }
        }
    }

    /// How many searches may wait at most: past it even [`MIN_SEARCH`]
    /// each would make the last wait longer than `max_wait`.
    pub(super) fn most_waiting(&self) -> usize {
        let per_thread = self.max_wait.as_millis() / MIN_SEARCH.as_millis().max(1);
        usize::try_from(per_thread)
            .unwrap_or(usize::MAX)
            .saturating_mul(self.threads.max(1))
            .max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(threads: usize) -> Bounds {
        Bounds {
            max_time: Duration::from_secs(5),
            max_wait: Duration::from_secs(4),
            threads,
        }
    }

    const fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn alone_a_search_has_its_whole_time() {
        let full = Budget {
            time: ms(5000),
            cut: false,
        };
        let generous = Bounds {
            max_wait: ms(10_000),
            ..bounds(1)
        };
        assert_eq!(generous.budget(ms(0), 0), full);
        // A wait shorter than the search's own cap bounds it even alone.
        let cut = bounds(1).budget(ms(0), 0);
        assert_eq!(cut.time, ms(4000));
        assert!(cut.cut);
    }

    #[test]
    fn the_heavy_searches_waiting_share_the_wait() {
        assert_eq!(bounds(1).budget(ms(0), 3).time, ms(1000));
        assert_eq!(bounds(1).budget(ms(0), 7).time, ms(500));
        // Two threads clear the queue twice as fast.
        assert_eq!(bounds(2).budget(ms(0), 6).time, ms(1000));
        // However long the queue, a search gets the least time.
        assert_eq!(bounds(1).budget(ms(0), 10_000).time, MIN_SEARCH);
    }

    #[test]
    fn a_search_that_waited_has_what_is_left_of_the_wait() {
        assert_eq!(bounds(1).budget(ms(3500), 0).time, ms(500));
        assert_eq!(bounds(1).budget(ms(3500), 1).time, ms(500));
        assert_eq!(bounds(1).budget(ms(9000), 0).time, MIN_SEARCH);
        assert_eq!(bounds(1).budget(ms(1000), 1).time, ms(2000));
    }

    #[test]
    fn the_queue_holds_what_the_least_time_can_serve_in_the_wait() {
        assert_eq!(bounds(1).most_waiting(), 80);
        assert_eq!(bounds(2).most_waiting(), 160);
        let instant = Bounds {
            max_wait: Duration::ZERO,
            ..bounds(1)
        };
        assert_eq!(instant.most_waiting(), 1);
    }
}
