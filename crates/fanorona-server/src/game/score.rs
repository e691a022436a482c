//! The score of a match: the games two players have played in a row,
//! one rematch after another, counted in the colours of one of them.

use fanorona::Color;

use super::GameResult;

/// How many games of a match each colour won, and how many were drawn, in
/// the colours of the game it belongs to (colours swap at every rematch).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// The games won by whoever plays White in this game.
    pub white: u32,
    /// The games won by whoever plays Black in this game.
    pub black: u32,
    /// The drawn games.
    pub draws: u32,
}

impl Score {
    /// This score with one more game that ended in `result`, in the same
    /// colours.
    #[must_use]
    pub fn with(self, result: GameResult) -> Score {
        let mut score = self;
        match result.winner {
            Some(Color::White) => score.white = score.white.saturating_add(1),
            Some(Color::Black) => score.black = score.black.saturating_add(1),
            None => score.draws = score.draws.saturating_add(1),
        }
        score
    }

    /// The same score in the colours of the rematch, where each player
    /// plays the other colour.
    #[must_use]
    pub fn swapped(self) -> Score {
        Score {
            white: self.black,
            black: self.white,
            draws: self.draws,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Reason;

    #[test]
    fn a_result_counts_once_and_colours_swap_for_the_rematch() {
        let win = |winner| GameResult {
            winner,
            reason: Reason::Resignation,
        };
        let score = Score::default()
            .with(win(Some(Color::White)))
            .swapped()
            .with(win(Some(Color::White)))
            .swapped()
            .with(win(None));
        // The first game's White won it and lost the second as Black.
        assert_eq!(
            score,
            Score {
                white: 1,
                black: 1,
                draws: 1
            }
        );
        assert_eq!(score.swapped().swapped(), score);
    }
}
