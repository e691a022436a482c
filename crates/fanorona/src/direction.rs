use std::fmt;

use crate::Square;

/// One of the eight directions a stone can step in.
///
/// North is towards rank 5 and east towards file `i`, as White sees the
/// board. The four diagonal directions exist only from strong points.
///
/// # Examples
///
/// ```
/// use fanorona::{Direction, Square};
///
/// assert_eq!(Direction::between(Square::D3, Square::E3), Some(Direction::East));
/// assert_eq!(Direction::East.opposite(), Direction::West);
/// // d3 is a weak point: no diagonal line leaves it.
/// assert_eq!(Direction::between(Square::D3, Square::E4), None);
/// assert_eq!(Direction::NorthEast.step(Square::D2), Some(Square::E3));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// Towards rank 5.
    North = 0,
    /// Towards rank 5 and file `i`.
    NorthEast = 1,
    /// Towards file `i`.
    East = 2,
    /// Towards rank 1 and file `i`.
    SouthEast = 3,
    /// Towards rank 1.
    South = 4,
    /// Towards rank 1 and file `a`.
    SouthWest = 5,
    /// Towards file `a`.
    West = 6,
    /// Towards rank 5 and file `a`.
    NorthWest = 7,
}

impl Direction {
    /// All eight directions, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The four directions that exist from every point.
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The four directions that exist only from strong points.
    pub const DIAGONAL: [Direction; 4] = [
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::NorthWest,
    ];

    /// Calls `f` with each direction in the order of [`Direction::ALL`],
    /// written out one call after the other: where `f` is inlined, each
    /// call sees its direction as a constant, and shifts along it fold to
    /// one mask and one shift. For loops over bitboards that run often.
    #[inline(always)]
    pub fn each(mut f: impl FnMut(Direction)) {
        f(Direction::North);
        f(Direction::NorthEast);
        f(Direction::East);
        f(Direction::SouthEast);
        f(Direction::South);
        f(Direction::SouthWest);
        f(Direction::West);
        f(Direction::NorthWest);
    }

    /// The direction's position in [`Direction::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction at `index` in [`Direction::ALL`], taken modulo 8.
    #[inline]
    pub const fn from_index(index: usize) -> Direction {
        Direction::ALL[index % 8]
    }

    /// The direction pointing the other way.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as usize + 4)
    }

    /// Whether this is one of the four diagonal directions.
    #[inline]
    pub const fn is_diagonal(self) -> bool {
        self as usize % 2 == 1
    }

    /// The change of file and rank for one step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The change of square index for one step.
    #[inline]
    pub(crate) const fn offset(self) -> i32 {
        let (df, dr) = self.delta();
        dr as i32 * 9 + df as i32
    }

    /// The neighbour of `from` along a line in this direction, or `None` at
    /// the edge of the board or for a diagonal from a weak point.
    pub const fn step(self, from: Square) -> Option<Square> {
        if self.is_diagonal() && !from.is_strong() {
            return None;
        }
        let (df, dr) = self.delta();
        let file = from.file() as i8 + df;
        let rank = from.rank() as i8 + dr;
        if file < 0 || rank < 0 {
            return None;
        }
        Square::from_coords(file as u8, rank as u8)
    }

    /// The direction of the line joining two neighbouring points, or `None`
    /// when no line joins them.
    pub fn between(from: Square, to: Square) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|d| d.step(from) == Some(to))
    }

    /// The direction's name in lower case, like `"north-east"`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::North => "north",
            Direction::NorthEast => "north-east",
            Direction::East => "east",
            Direction::SouthEast => "south-east",
            Direction::South => "south",
            Direction::SouthWest => "south-west",
            Direction::West => "west",
            Direction::NorthWest => "north-west",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_is_an_involution_and_negates_the_delta() {
        for d in Direction::ALL {
            assert_eq!(d.opposite().opposite(), d);
            let (f, r) = d.delta();
            assert_eq!(d.opposite().delta(), (-f, -r));
        }
    }

    #[test]
    fn weak_points_have_no_diagonal_neighbours() {
        for sq in Square::all().filter(|s| !s.is_strong()) {
            for d in Direction::DIAGONAL {
                assert_eq!(d.step(sq), None, "{sq} {d}");
            }
        }
    }

    #[test]
    fn diagonals_join_strong_points() {
        for sq in Square::all().filter(|s| s.is_strong()) {
            for d in Direction::DIAGONAL {
                if let Some(to) = d.step(sq) {
                    assert!(to.is_strong(), "{sq} {d} {to}");
                }
            }
        }
    }

    #[test]
    fn the_board_has_108_lines_between_neighbours() {
        let directed: usize = Square::all()
            .map(|sq| {
                Direction::ALL
                    .iter()
                    .filter(|d| d.step(sq).is_some())
                    .count()
            })
            .sum();
        // 76 orthogonal and 32 diagonal lines, each counted from both ends.
        assert_eq!(directed, 2 * 108);
    }

    #[test]
    fn offset_matches_step() {
        for sq in Square::all() {
            for d in Direction::ALL {
                if let Some(to) = d.step(sq) {
                    assert_eq!(to.index() as i32 - sq.index() as i32, d.offset());
                }
            }
        }
    }
}
