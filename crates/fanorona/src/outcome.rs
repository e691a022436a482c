use std::fmt;

use crate::Color;

/// Why a game ended on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// The side to move has no stones left.
    NoStones,
    /// The side to move has stones but no legal step.
    NoLegalStep,
    /// Fifty turns in a row passed without a capture.
    FiftyTurns,
}

impl EndReason {
    /// A stable lower-case identifier: `no_stones`, `no_legal_step` or `fifty_turns`.
    pub const fn code(self) -> &'static str {
        match self {
            EndReason::NoStones => "no_stones",
            EndReason::NoLegalStep => "no_legal_step",
            EndReason::FiftyTurns => "fifty_turns",
        }
    }
}

/// How a finished game ended: the winner (none for a draw) and why.
///
/// # Examples
///
/// ```
/// use fanorona::{Color, EndReason, Outcome, Position, Setup};
///
/// let setup: Setup = "........./........./....W..../........./......... b".parse()?;
/// let pos = Position::from_setup(setup)?;
/// let outcome = pos.outcome().expect("black has no stones");
/// assert_eq!(outcome.winner, Some(Color::White));
/// assert_eq!(outcome.reason, EndReason::NoStones);
/// assert_eq!(outcome.to_string(), "white wins: black has no stones left");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.reason) {
            (Some(w), EndReason::NoStones) => write!(f, "{w} wins: {} has no stones left", !w),
            (Some(w), EndReason::NoLegalStep) => {
                write!(f, "{w} wins: {} has no legal move", !w)
            }
            (_, EndReason::FiftyTurns) | (None, _) => {
                f.write_str("draw: fifty turns without a capture")
            }
        }
    }
}
