use std::{
    fmt,
    iter::FusedIterator,
    ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub},
};

use crate::{Direction, Square};

/// A set of squares: bit `rank * 9 + file` of a `u64`, 45 bits in all.
///
/// ```text
/// rank 5   36 37 38 39 40 41 42 43 44
/// rank 4   27 28 29 30 31 32 33 34 35
/// rank 3   18 19 20 21 22 23 24 25 26
/// rank 2    9 10 11 12 13 14 15 16 17
/// rank 1    0  1  2  3  4  5  6  7  8
///           a  b  c  d  e  f  g  h  i
/// ```
///
/// # Examples
///
/// ```
/// use fanorona::{Bitboard, Square};
///
/// let set = Bitboard::from_square(Square::E3) | Bitboard::from_square(Square::A1);
/// assert_eq!(set.count(), 2);
/// assert_eq!(set.into_iter().collect::<Vec<_>>(), [Square::A1, Square::E3]);
/// assert_eq!(Bitboard::STRONG.count(), 23);
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

const fn board_mask() -> u64 {
    (1 << Square::COUNT) - 1
}

const fn compute_strong() -> u64 {
    let mut bb = 0;
    let mut i = 0;
    while i < Square::COUNT {
        if (i % 9 + i / 9) % 2 == 0 {
            bb |= 1 << i;
        }
        i += 1;
    }
    bb
}

/// The squares from which a step in each direction stays on a line.
const fn compute_sources() -> [u64; 8] {
    let mut out = [0; 8];
    let mut d = 0;
    while d < 8 {
        let dir = Direction::from_index(d);
        let mut i = 0;
        while i < Square::COUNT {
            if dir.step(Square::from_index_unchecked(i as u32)).is_some() {
                out[d] |= 1 << i;
            }
            i += 1;
        }
        d += 1;
    }
    out
}

/// For each square and direction, the squares beyond it along that line.
const fn compute_rays() -> [[u64; 8]; Square::COUNT] {
    let mut out = [[0; 8]; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let mut d = 0;
        while d < 8 {
            let dir = Direction::from_index(d);
            let mut sq = dir.step(Square::from_index_unchecked(i as u32));
            while let Some(s) = sq {
                out[i][d] |= 1 << s.index();
                sq = dir.step(s);
            }
            d += 1;
        }
        i += 1;
    }
    out
}

pub(crate) const SOURCES: [u64; 8] = compute_sources();
pub(crate) const RAYS: [[u64; 8]; Square::COUNT] = compute_rays();

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 45 squares.
    pub const FULL: Bitboard = Bitboard(board_mask());
    /// The 23 strong points, where diagonal lines cross.
    pub const STRONG: Bitboard = Bitboard(compute_strong());
    /// The 22 weak points, with horizontal and vertical lines only.
    pub const WEAK: Bitboard = Bitboard(board_mask() & !compute_strong());

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// The set of squares of a rank, 0 (`1`) to 4 (`5`); empty for larger values.
    pub const fn rank(rank: u8) -> Bitboard {
        if rank < 5 {
            Bitboard(0x1ff << (rank * 9))
        } else {
            Bitboard::EMPTY
        }
    }

    /// Whether the set holds no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The lowest square of the set (nearest `a1`), if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// Whether the set holds exactly one square.
    #[inline]
    pub const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & (self.0 - 1) == 0
    }

    /// Every square of the set moved one step along `dir`. Squares with no
    /// line in that direction (edges, and weak points for diagonals) drop out.
    ///
    /// ```
    /// use fanorona::{Bitboard, Direction, Square};
    ///
    /// let weak = Bitboard::from_square(Square::D3);
    /// assert!(weak.shift(Direction::NorthEast).is_empty());
    /// let strong = Bitboard::from_square(Square::E3);
    /// assert_eq!(strong.shift(Direction::NorthEast), Bitboard::from_square(Square::F4));
    /// ```
    #[inline]
    #[must_use]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let src = self.0 & SOURCES[dir.index()];
        let off = dir.offset();
        if off > 0 {
            Bitboard(src << off)
        } else {
            Bitboard(src >> -off)
        }
    }

    /// The squares beyond `sq` along `dir`, up to the edge of the board.
    #[inline]
    pub const fn ray(sq: Square, dir: Direction) -> Bitboard {
        Bitboard(RAYS[sq.index()][dir.index()])
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Sub for Bitboard {
    type Output = Bitboard;
    /// The squares of `self` that are not in `rhs`.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The squares of the board not in the set.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & board_mask())
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

/// The squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct IntoIter(u64);

impl Iterator for IntoIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index_unchecked(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for IntoIter {}
impl FusedIterator for IntoIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = IntoIter;

    fn into_iter(self) -> IntoIter {
        IntoIter(self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a 9x5 grid, rank 5 on top, `1` for a member.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..5).rev() {
            for file in 0..9 {
                let bit = self.0 >> (rank * 9 + file) & 1;
                f.write_str(if bit == 1 { "1" } else { "." })?;
                if file < 8 {
                    f.write_str(" ")?;
                }
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_agrees_with_direction_step() {
        for sq in Square::all() {
            for d in Direction::ALL {
                let expected = d.step(sq).map_or(Bitboard::EMPTY, Bitboard::from_square);
                assert_eq!(Bitboard::from_square(sq).shift(d), expected, "{sq} {d}");
            }
        }
    }

    #[test]
    fn rays_follow_the_line_to_the_edge() {
        assert_eq!(
            Bitboard::ray(Square::E3, Direction::East),
            [Square::F3, Square::G3, Square::H3, Square::I3]
                .into_iter()
                .collect()
        );
        assert_eq!(
            Bitboard::ray(Square::C1, Direction::NorthEast),
            [Square::D2, Square::E3, Square::F4, Square::G5]
                .into_iter()
                .collect()
        );
        assert!(Bitboard::ray(Square::D3, Direction::NorthEast).is_empty());
    }

    #[test]
    fn not_stays_on_the_board() {
        assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
        assert_eq!((!Bitboard::FULL).count(), 0);
        assert_eq!(Bitboard::STRONG.count() + Bitboard::WEAK.count(), 45);
    }

    #[test]
    fn iterates_in_index_order() {
        let set: Bitboard = [Square::I5, Square::A1, Square::E3].into_iter().collect();
        let squares: Vec<_> = set.into_iter().collect();
        assert_eq!(squares, [Square::A1, Square::E3, Square::I5]);
        assert_eq!(set.into_iter().len(), 3);
    }
}
