use std::{error::Error, fmt, str::FromStr};

use crate::{Board, Color, Square};

/// A position as written, not yet checked against the rules.
///
/// Position text is the five rows from row 5 down to row 1, separated by
/// `/`, each nine characters of `W`, `B` or `.`; a space and the side to
/// move (`w` or `b`); and optionally a space and the number of turns since
/// the last capture (0 when missing).
///
/// Turn a `Setup` into a playable [`Position`](crate::Position) with
/// [`Position::from_setup`](crate::Position::from_setup).
///
/// # Examples
///
/// ```
/// use fanorona::Setup;
///
/// let setup: Setup = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w".parse()?;
/// assert_eq!(setup, Setup::start());
/// assert_eq!(setup.to_string(), "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0");
///
/// let err = "BBBBBBBBB/BBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w".parse::<Setup>().unwrap_err();
/// assert_eq!(err.to_string(), "row 4 has 8 points, expected 9");
/// # Ok::<_, fanorona::ParseSetupError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The stones on the board.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// Complete turns played since the last capture.
    pub turns_since_capture: u32,
}

impl Setup {
    /// The starting position: White to move, counter 0.
    pub const fn start() -> Setup {
        Setup {
            board: Board::start(),
            turn: Color::White,
            turns_since_capture: 0,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

/// What is wrong with a piece of position text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseSetupError {
    /// The text is empty.
    Empty,
    /// The board part does not have five rows.
    RowCount {
        /// How many rows were found.
        found: usize,
    },
    /// A row does not have nine points.
    RowLength {
        /// The row's number on the board, 5 (first written) down to 1.
        row: u8,
        /// How many points were found.
        found: usize,
    },
    /// A row holds a character other than `W`, `B` or `.`.
    InvalidPoint {
        /// The square where it was found.
        square: Square,
        /// The character.
        found: char,
    },
    /// The side to move is missing.
    MissingTurn,
    /// The side to move is not `w` or `b`.
    InvalidTurn {
        /// What was written instead.
        found: String,
    },
    /// The counter of turns since the last capture is not a number.
    InvalidCounter {
        /// What was written instead.
        found: String,
    },
    /// Something follows the counter.
    TrailingText {
        /// The first unexpected word.
        found: String,
    },
}

impl fmt::Display for ParseSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSetupError::Empty => f.write_str("empty position text"),
            ParseSetupError::RowCount { found } => {
                write!(f, "the board has {found} rows, expected 5 separated by '/'")
            }
            ParseSetupError::RowLength { row, found } => {
                write!(f, "row {row} has {found} points, expected 9")
            }
            ParseSetupError::InvalidPoint { square, found } => write!(
                f,
                "invalid point {found:?} at {square}, expected 'W', 'B' or '.'"
            ),
            ParseSetupError::MissingTurn => {
                f.write_str("missing side to move after the board, expected 'w' or 'b'")
            }
            ParseSetupError::InvalidTurn { found } => {
                write!(f, "invalid side to move {found:?}, expected 'w' or 'b'")
            }
            ParseSetupError::InvalidCounter { found } => write!(
                f,
                "invalid turns-since-capture counter {found:?}, expected a number"
            ),
            ParseSetupError::TrailingText { found } => {
                write!(f, "unexpected text {found:?} after the counter")
            }
        }
    }
}

impl Error for ParseSetupError {}

fn parse_board(text: &str) -> Result<Board, ParseSetupError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 5 {
        return Err(ParseSetupError::RowCount { found: rows.len() });
    }
    let mut board = Board::empty();
    for (i, row) in rows.iter().enumerate() {
        let rank = 4 - i as u8;
        let found = row.chars().count();
        if found != 9 {
            return Err(ParseSetupError::RowLength {
                row: rank + 1,
                found,
            });
        }
        for (file, c) in row.chars().enumerate() {
            let square = Square::from_coords(file as u8, rank).ok_or(ParseSetupError::Empty)?;
            let stone = match c {
                'W' => Some(Color::White),
                'B' => Some(Color::Black),
                '.' => None,
                found => return Err(ParseSetupError::InvalidPoint { square, found }),
            };
            board.set(square, stone);
        }
    }
    Ok(board)
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(s: &str) -> Result<Setup, ParseSetupError> {
        let mut words = s.split_ascii_whitespace();
        let board = parse_board(words.next().ok_or(ParseSetupError::Empty)?)?;
        let turn = match words.next() {
            None => return Err(ParseSetupError::MissingTurn),
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => {
                return Err(ParseSetupError::InvalidTurn {
                    found: other.to_owned(),
                })
            }
        };
        let turns_since_capture = match words.next() {
            None => 0,
            Some(n) if n.bytes().all(|b| b.is_ascii_digit()) => {
                n.parse().map_err(|_| ParseSetupError::InvalidCounter {
                    found: n.to_owned(),
                })?
            }
            Some(n) => {
                return Err(ParseSetupError::InvalidCounter {
                    found: n.to_owned(),
                })
            }
        };
        if let Some(extra) = words.next() {
            return Err(ParseSetupError::TrailingText {
                found: extra.to_owned(),
            });
        }
        Ok(Setup {
            board,
            turn,
            turns_since_capture,
        })
    }
}

impl fmt::Display for Setup {
    /// Writes position text, always with the counter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} {} {}",
            self.board,
            self.turn.char(),
            self.turns_since_capture
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0";

    #[test]
    fn start_text_round_trips() {
        let setup: Setup = START.parse().expect("valid");
        assert_eq!(setup, Setup::start());
        assert_eq!(setup.to_string(), START);
    }

    #[test]
    fn reads_side_and_counter() {
        let setup: Setup = "........./........./....W..../........./....B.... b 17"
            .parse()
            .expect("valid");
        assert_eq!(setup.turn, Color::Black);
        assert_eq!(setup.turns_since_capture, 17);
        assert_eq!(setup.board.stone_at(Square::E3), Some(Color::White));
        assert_eq!(setup.board.stone_at(Square::E1), Some(Color::Black));
    }

    #[test]
    fn errors_say_what_and_where() {
        let cases = [
            ("", "empty position text"),
            (
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW w",
                "the board has 4 rows, expected 5 separated by '/'",
            ),
            (
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWB/WWWWWWWWW/WWWWWWWWW w",
                "row 3 has 8 points, expected 9",
            ),
            (
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWxWWWW/WWWWWWWWW w",
                "invalid point 'x' at e2, expected 'W', 'B' or '.'",
            ),
            (
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW",
                "missing side to move after the board, expected 'w' or 'b'",
            ),
            (
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW W",
                "invalid side to move \"W\", expected 'w' or 'b'",
            ),
            (
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w -1",
                "invalid turns-since-capture counter \"-1\", expected a number",
            ),
            (
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 99999999999",
                "invalid turns-since-capture counter \"99999999999\", expected a number",
            ),
            (
                "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0 x",
                "unexpected text \"x\" after the counter",
            ),
        ];
        for (text, message) in cases {
            let err = text.parse::<Setup>().expect_err(text);
            assert_eq!(err.to_string(), message, "{text:?}");
        }
    }
}
