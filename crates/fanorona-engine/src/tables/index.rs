//! Where a position sits in its table: a dense index over every placement
//! of a given number of stones.
//!
//! Positions are stored from the side to move's point of view (`us` to
//! move, `them` the other side): the rules treat both colours alike, so a
//! White-to-move position and its colour swap share one entry, which
//! halves the tables.
//!
//! A table holds every position with `n` stones in all, grouped by how many
//! are ours (`m` from 1 to `n - 1`). Within a group, our squares are ranked
//! among the 45 points and the enemy's among the `45 - m` points left free
//! (the combinatorial number system, colex order), so no index is wasted on
//! two stones on one point: 4 stones take 2,085,930 entries where a
//! `45^4 * 2` grid would take 8.2 million.

use fanorona::{Bitboard, Square};

/// The most stones in all a table is laid out for.
pub(crate) const MAX_TABLE_STONES: usize = 5;

const POINTS: usize = Square::COUNT;

/// `BINOMIAL[n][k]` = n choose k, for n <= 45 and k <= 5.
static BINOMIAL: [[u64; MAX_TABLE_STONES + 1]; POINTS + 1] = binomials();

const fn binomials() -> [[u64; MAX_TABLE_STONES + 1]; POINTS + 1] {
    let mut t = [[0u64; MAX_TABLE_STONES + 1]; POINTS + 1];
    let mut n = 0;
    while n <= POINTS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_TABLE_STONES {
            if n > 0 {
                t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            }
            k += 1;
        }
        n += 1;
    }
    t
}

#[inline]
fn choose(n: usize, k: usize) -> u64 {
    BINOMIAL[n][k]
}

/// The colex rank of a set of points among all sets of its size.
#[inline]
fn rank(set: u64) -> u64 {
    let mut r = 0;
    let mut bits = set;
    let mut i = 1;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        r += choose(sq, i);
        bits &= bits - 1;
        i += 1;
    }
    r
}

/// The set of `k` points with colex rank `r`.
#[inline]
fn unrank(mut r: u64, k: usize) -> u64 {
    let mut set = 0u64;
    let mut c = POINTS;
    for i in (1..=k).rev() {
        c -= 1;
        while choose(c, i) > r {
            c -= 1;
        }
        r -= choose(c, i);
        set |= 1 << c;
    }
    set
}

/// Renumbers the points of `set` among the points not in `taken`.
#[inline]
fn squeeze(set: u64, taken: u64) -> u64 {
    let mut out = 0u64;
    let mut bits = set;
    while bits != 0 {
        let sq = bits.trailing_zeros();
        let below = (taken & ((1u64 << sq) - 1)).count_ones();
        out |= 1 << (sq - below);
        bits &= bits - 1;
    }
    out
}

/// The inverse of [`squeeze`]: the points named by their order among the
/// points not in `taken`.
#[inline]
fn unsqueeze(set: u64, taken: u64) -> u64 {
    let mut out = 0u64;
    let mut free = Bitboard::FULL.0 & !taken;
    let mut j = 0;
    while free != 0 && (set >> j) != 0 {
        let sq = free.trailing_zeros();
        if set & (1 << j) != 0 {
            out |= 1 << sq;
        }
        free &= free - 1;
        j += 1;
    }
    out
}

/// The layout of the table of every position with `stones` stones in all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    stones: usize,
    /// `offsets[m]`: where the group with `m` stones of ours starts, for
    /// `m` in `1..stones`; `offsets[stones]` is the size of the table.
    offsets: [usize; MAX_TABLE_STONES + 1],
}

impl Layout {
    /// The layout for `stones` in `2..=5` stones.
    pub(crate) fn new(stones: usize) -> Layout {
        debug_assert!((2..=MAX_TABLE_STONES).contains(&stones));
        let mut offsets = [0; MAX_TABLE_STONES + 1];
        for m in 1..stones {
            let group = choose(POINTS, m) * choose(POINTS - m, stones - m);
            offsets[m + 1] = offsets[m] + group as usize;
        }
        Layout { stones, offsets }
    }

    /// The number of positions in the table.
    pub(crate) fn size(&self) -> usize {
        self.offsets[self.stones]
    }

    /// The index of the position with `us` to move against `them`; the
    /// caller keeps the two sets apart and their sizes in the table's range.
    #[inline]
    pub(crate) fn index(&self, us: Bitboard, them: Bitboard) -> usize {
        let m = us.count();
        let o = self.stones - m;
        let ours = rank(us.0);
        let theirs = rank(squeeze(them.0, us.0));
        self.offsets[m] + (ours * choose(POINTS - m, o) + theirs) as usize
    }

    /// The position at `index`: our stones and the enemy's.
    #[inline]
    pub(crate) fn position(&self, index: usize) -> (Bitboard, Bitboard) {
        let mut m = 1;
        while self.offsets[m + 1] <= index {
            m += 1;
        }
        let o = self.stones - m;
        let per_us = choose(POINTS - m, o);
        let r = (index - self.offsets[m]) as u64;
        let us = unrank(r / per_us, m);
        let them = unsqueeze(unrank(r % per_us, o), us);
        (Bitboard(us), Bitboard(them))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_count_every_placement_once() {
        assert_eq!(Layout::new(2).size(), 45 * 44);
        // 3 points, then 6 ways to split them between the sides.
        assert_eq!(Layout::new(3).size(), 45 * 44 * 43 / 6 * 6);
        // (1,3) + (2,2) + (3,1).
        assert_eq!(Layout::new(4).size(), 595_980 + 893_970 + 595_980);
    }

    #[test]
    fn index_and_position_are_inverse_on_every_three_stone_position() {
        let layout = Layout::new(3);
        let mut seen = vec![false; layout.size()];
        for i in 0..layout.size() {
            let (us, them) = layout.position(i);
            assert!(us.any() && them.any() && (us & them).is_empty(), "{i}");
            assert_eq!(us.count() + them.count(), 3);
            assert!((us | them) - Bitboard::FULL == Bitboard::EMPTY);
            let j = layout.index(us, them);
            assert_eq!(j, i);
            assert!(!seen[j]);
            seen[j] = true;
        }
    }

    #[test]
    fn index_and_position_are_inverse_on_sampled_five_stone_positions() {
        let layout = Layout::new(5);
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..20_000 {
            let i = rng.usize(0..layout.size());
            let (us, them) = layout.position(i);
            assert_eq!(us.count() + them.count(), 5);
            assert!((us & them).is_empty());
            assert_eq!(layout.index(us, them), i);
        }
    }
}
