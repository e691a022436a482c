use std::{error::Error, fmt, str::FromStr};

use crate::{Color, Outcome};

/// The result of a game as a record writes it: `1-0` (White won), `0-1`
/// (Black won), `1/2-1/2` (a draw) or `*` (not over yet).
///
/// It says who won, not why: a game may also end off the board, by
/// resignation or agreement, which the rules cannot see.
///
/// # Examples
///
/// ```
/// use fanorona::{Color, Score};
///
/// let score: Score = "0-1".parse()?;
/// assert_eq!(score, Score::win(Color::Black));
/// assert_eq!(score.winner(), Some(Color::Black));
/// assert_eq!(Score::Draw.to_string(), "1/2-1/2");
/// assert!("2-0".parse::<Score>().is_err());
/// # Ok::<_, fanorona::ParseScoreError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// White won: `1-0`.
    WhiteWins,
    /// Black won: `0-1`.
    BlackWins,
    /// A draw: `1/2-1/2`.
    Draw,
    /// The game goes on: `*`.
    Unfinished,
}

impl Score {
    /// The score of a game won by `winner`.
    pub const fn win(winner: Color) -> Score {
        match winner {
            Color::White => Score::WhiteWins,
            Color::Black => Score::BlackWins,
        }
    }

    /// The score of a finished game: won by `winner`, or drawn for `None`.
    pub const fn of_finished(winner: Option<Color>) -> Score {
        match winner {
            Some(color) => Score::win(color),
            None => Score::Draw,
        }
    }

    /// The score of a game that ended on the board with `outcome`.
    pub const fn of_outcome(outcome: Outcome) -> Score {
        Score::of_finished(outcome.winner)
    }

    /// The winner, if the game has one.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Score::WhiteWins => Some(Color::White),
            Score::BlackWins => Some(Color::Black),
            Score::Draw | Score::Unfinished => None,
        }
    }

    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        !matches!(self, Score::Unfinished)
    }

    /// How a record writes it: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn token(self) -> &'static str {
        match self {
            Score::WhiteWins => "1-0",
            Score::BlackWins => "0-1",
            Score::Draw => "1/2-1/2",
            Score::Unfinished => "*",
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// The error returned when text is not a score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParseScoreError;

impl fmt::Display for ParseScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a result of 1-0, 0-1, 1/2-1/2 or *")
    }
}

impl Error for ParseScoreError {}

impl FromStr for Score {
    type Err = ParseScoreError;

    fn from_str(s: &str) -> Result<Score, ParseScoreError> {
        [
            Score::WhiteWins,
            Score::BlackWins,
            Score::Draw,
            Score::Unfinished,
        ]
        .into_iter()
        .find(|score| score.token() == s)
        .ok_or(ParseScoreError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_score_reads_back_its_token() {
        for score in [
            Score::WhiteWins,
            Score::BlackWins,
            Score::Draw,
            Score::Unfinished,
        ] {
            assert_eq!(score.token().parse(), Ok(score));
            assert_eq!(score.is_over(), score != Score::Unfinished);
        }
        for bad in ["", "1-1", "½-½", " 1-0", "1-0 ", "draw"] {
            assert_eq!(bad.parse::<Score>(), Err(ParseScoreError), "{bad:?}");
        }
    }

    #[test]
    fn a_finished_game_scores_its_winner() {
        assert_eq!(Score::of_finished(Some(Color::White)), Score::WhiteWins);
        assert_eq!(Score::of_finished(None), Score::Draw);
        assert_eq!(Score::win(Color::Black).winner(), Some(Color::Black));
        assert_eq!(Score::Draw.winner(), None);
    }
}
