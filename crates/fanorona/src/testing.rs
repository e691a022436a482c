//! Helpers for the tests, benches and tools of this workspace: random
//! positions. Hidden from the documentation and outside the crate's
//! stability promise.

use crate::{Board, Color, Setup, Square};

/// A setup with `white` White and `black` Black stones on distinct points
/// drawn at random, a random side to move and a counter of 0. `below(n)`
/// is the randomness: a number in `0..n` (like `|n| rng.usize(..n)` with
/// `fastrand`). A setup, not a position: the caller sets the side or the
/// counter it needs, then validates it ([`crate::Position::from_setup`]),
/// which fails when a side has no stones.
///
/// Panics when `white + black` exceeds the 45 points.
///
/// ```
/// use fanorona::{testing::random_setup, Position};
///
/// let mut state = 7_usize;
/// let mut below = |n: usize| {
///     state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
///     (state >> 33) % n
/// };
/// let setup = random_setup(&mut below, 3, 2);
/// assert_eq!(setup.board.occupied().count(), 5);
/// assert!(Position::from_setup(setup).is_ok());
/// ```
pub fn random_setup(below: &mut impl FnMut(usize) -> usize, white: usize, black: usize) -> Setup {
    let stones = white + black;
    assert!(stones <= 45, "{stones} stones do not fit on 45 points");
    let mut squares: Vec<Square> = Square::all().collect();
    // The first `stones` of a Fisher-Yates shuffle.
    for i in 0..stones {
        let j = i + below(squares.len() - i);
        squares.swap(i, j);
    }
    let mut board = Board::empty();
    for (i, &sq) in squares[..stones].iter().enumerate() {
        let color = if i < white {
            Color::White
        } else {
            Color::Black
        };
        board.set(sq, Some(color));
    }
    let turn = if below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    Setup {
        board,
        turn,
        turns_since_capture: 0,
    }
}
