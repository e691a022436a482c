use std::{error::Error, fmt, str::FromStr};

/// A point of the 9x5 board, `a1` to `i5`.
///
/// Files `a`..`i` run left to right and ranks `1`..`5` bottom to top, as
/// White sees the board. The index of a square is `rank * 9 + file`, which
/// is also its bit in a [`Bitboard`](crate::Bitboard).
///
/// # Examples
///
/// ```
/// use fanorona::Square;
///
/// let e3: Square = "e3".parse()?;
/// assert_eq!(e3, Square::E3);
/// assert_eq!((e3.file(), e3.rank()), (4, 2));
/// assert!(e3.is_strong());
/// assert!(!Square::B1.is_strong());
/// # Ok::<_, fanorona::ParseSquareError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// The number of files (columns) of the board.
pub const FILES: u8 = 9;
/// The number of ranks (rows) of the board.
pub const RANKS: u8 = 5;

macro_rules! square_consts {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square `", stringify!($name), "`.")]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7, I1 = 8,
    A2 = 9, B2 = 10, C2 = 11, D2 = 12, E2 = 13, F2 = 14, G2 = 15, H2 = 16, I2 = 17,
    A3 = 18, B3 = 19, C3 = 20, D3 = 21, E3 = 22, F3 = 23, G3 = 24, H3 = 25, I3 = 26,
    A4 = 27, B4 = 28, C4 = 29, D4 = 30, E4 = 31, F4 = 32, G4 = 33, H4 = 34, I4 = 35,
    A5 = 36, B5 = 37, C5 = 38, D5 = 39, E5 = 40, F5 = 41, G5 = 42, H5 = 43, I5 = 44,
}

impl Square {
    /// The number of squares on the board.
    pub const COUNT: usize = 45;

    /// Returns the square with the given index (`rank * 9 + file`), or
    /// `None` when the index is 45 or more.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < Square::COUNT as u32 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Returns the square at 0-based `file` (0 = `a`) and `rank` (0 = `1`),
    /// or `None` when either is off the board.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be below 45.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < Square::COUNT as u32);
        Square(index as u8)
    }

    /// Iterates over all 45 squares, `a1`, `b1`, ... `i5`.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator + Clone {
        (0..Square::COUNT as u8).map(Square)
    }

    /// The index of the square, `rank * 9 + file`, in `0..45`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The 0-based file (column): 0 for `a` up to 8 for `i`.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// The 0-based rank (row): 0 for `1` up to 4 for `5`.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// Whether diagonal lines pass through this point (file + rank even).
    #[inline]
    pub const fn is_strong(self) -> bool {
        (self.file() + self.rank()) % 2 == 0
    }

    /// The file letter, `'a'` to `'i'`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `'1'` to `'5'`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }

    /// Parses a square from the first two bytes of `bytes`, if they name one.
    pub(crate) fn from_ascii(bytes: &[u8]) -> Option<Square> {
        match bytes {
            [f @ b'a'..=b'i', r @ b'1'..=b'5', ..] => Square::from_coords(f - b'a', r - b'1'),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The error returned when text does not name a square `a1`..`i5`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square: expected a file a-i and a rank 1-5, like e3")
    }
}

impl Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        if s.len() != 2 {
            return Err(ParseSquareError);
        }
        Square::from_ascii(s.as_bytes()).ok_or(ParseSquareError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_for_every_square() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::all().len(), 45);
    }

    #[test]
    fn corners_and_centre_are_strong() {
        for sq in [Square::A1, Square::I1, Square::A5, Square::I5, Square::E3] {
            assert!(sq.is_strong(), "{sq}");
        }
        for sq in [Square::B1, Square::A2, Square::D3, Square::E4] {
            assert!(!sq.is_strong(), "{sq}");
        }
    }

    #[test]
    fn rejects_text_off_the_board() {
        for bad in ["", "e", "j1", "a0", "a6", "e33", "E3", "3e", "é3"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad:?}");
        }
    }
}
