use std::fmt;

use crate::{Bitboard, ByColor, Color, Square};

/// The stones on the board: one [`Bitboard`] per colour.
///
/// A board alone is not a game: it says nothing of whose turn it is. The
/// two sets never overlap.
///
/// # Examples
///
/// ```
/// use fanorona::{Board, Color, Square};
///
/// let board = Board::start();
/// assert_eq!(board.count(Color::White), 22);
/// assert_eq!(board.stone_at(Square::D3), Some(Color::White));
/// assert_eq!(board.stone_at(Square::E3), None);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Board {
    stones: ByColor<Bitboard>,
}

impl Board {
    /// The empty board.
    pub const fn empty() -> Board {
        Board {
            stones: ByColor {
                white: Bitboard::EMPTY,
                black: Bitboard::EMPTY,
            },
        }
    }

    /// The starting arrangement: rows 1-2 White, rows 4-5 Black, and row 3
    /// `B W B W . B W B W`.
    pub const fn start() -> Board {
        // Row 3: a3 B, b3 W, c3 B, d3 W, e3 empty, f3 B, g3 W, h3 B, i3 W.
        let row3_white: u64 = 0b1_0100_1010 << 18;
        let row3_black: u64 = 0b0_1010_0101 << 18;
        Board {
            stones: ByColor {
                white: Bitboard(Bitboard::rank(0).0 | Bitboard::rank(1).0 | row3_white),
                black: Bitboard(Bitboard::rank(3).0 | Bitboard::rank(4).0 | row3_black),
            },
        }
    }

    /// Builds a board from the two sets of stones, or `None` when they overlap.
    pub fn from_bitboards(white: Bitboard, black: Bitboard) -> Option<Board> {
        if (white & black).any() || (white | black) - Bitboard::FULL != Bitboard::EMPTY {
            return None;
        }
        Some(Board {
            stones: ByColor { white, black },
        })
    }

    /// The stones of one colour.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        *self.stones.get(color)
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones.white | self.stones.black
    }

    /// Every empty point.
    #[inline]
    pub fn empty_squares(&self) -> Bitboard {
        !self.occupied()
    }

    /// The colour of the stone on `sq`, if any.
    pub fn stone_at(&self, sq: Square) -> Option<Color> {
        if self.stones.white.contains(sq) {
            Some(Color::White)
        } else if self.stones.black.contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The number of stones of one colour.
    #[inline]
    pub fn count(&self, color: Color) -> usize {
        self.by_color(color).count()
    }

    /// Puts a stone of `color` on `sq`, replacing whatever was there.
    pub fn set(&mut self, sq: Square, color: Option<Color>) {
        self.stones.white = self.stones.white.without(sq);
        self.stones.black = self.stones.black.without(sq);
        if let Some(c) = color {
            let set = self.stones.get_mut(c);
            *set = set.with(sq);
        }
    }

    /// Replaces the stones of one colour; the caller keeps the sets apart.
    #[inline]
    pub(crate) fn set_color(&mut self, color: Color, stones: Bitboard) {
        *self.stones.get_mut(color) = stones;
    }
}

impl fmt::Debug for Board {
    /// Draws the board as the five rows of position text, rank 5 first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Nine points and a '/' per rank, built in place and written once:
        // the server writes a position into every state it sends.
        let mut text = [b'/'; 49];
        for (row, rank) in (0..5).rev().enumerate() {
            for file in 0..9 {
                let sq = Square::from_coords(file, rank).ok_or(fmt::Error)?;
                let c = self.stone_at(sq).map_or('.', Color::stone_char);
                text[row * 10 + usize::from(file)] = u8::try_from(c).map_err(|_| fmt::Error)?;
            }
        }
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_22_stones_each_and_one_empty_centre() {
        let b = Board::start();
        assert_eq!(b.count(Color::White), 22);
        assert_eq!(b.count(Color::Black), 22);
        assert_eq!(b.empty_squares(), Bitboard::from_square(Square::E3));
        let row3: String = (0..9)
            .map(|f| {
                let sq = Square::from_coords(f, 2).expect("on the board");
                b.stone_at(sq).map_or('.', Color::stone_char)
            })
            .collect();
        assert_eq!(row3, "BWBW.BWBW");
    }

    #[test]
    fn from_bitboards_rejects_overlap() {
        let a = Bitboard::from_square(Square::A1);
        assert!(Board::from_bitboards(a, a).is_none());
        assert!(Board::from_bitboards(Bitboard(1 << 50), Bitboard::EMPTY).is_none());
        assert!(Board::from_bitboards(a, Bitboard::EMPTY).is_some());
    }

    #[test]
    fn set_replaces_a_stone() {
        let mut b = Board::start();
        b.set(Square::A1, Some(Color::Black));
        assert_eq!(b.stone_at(Square::A1), Some(Color::Black));
        assert_eq!(b.count(Color::White), 21);
        b.set(Square::A1, None);
        assert_eq!(b.stone_at(Square::A1), None);
    }
}
