//! How a game ended, and why.

use fanorona::{Color, EndReason};

/// Why a game ended, on the board or off it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// The loser has no stones left.
    NoStones,
    /// The loser, to move, has no legal step.
    NoLegalStep,
    /// Fifty turns without a capture: a draw.
    FiftyTurns,
    /// The loser resigned.
    Resignation,
    /// Both players agreed to a draw.
    Agreement,
    /// The loser left the game on their turn and the winner claimed it.
    Abandonment,
    /// The loser's clock reached zero on their turn.
    Time,
}

impl Reason {
    /// The stable wire name, like `no_stones`.
    pub(crate) const fn code(self) -> &'static str {
        match self {
            Reason::NoStones => "no_stones",
            Reason::NoLegalStep => "no_legal_step",
            Reason::FiftyTurns => "fifty_turns",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Abandonment => "abandonment",
            Reason::Time => "time",
        }
    }
}

/// How a game ended: the winner (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub(crate) winner: Option<Color>,
    /// Why the game ended.
    pub(crate) reason: Reason,
}

/// The result of a game the rules ended on the board.
pub(super) fn board_result(outcome: fanorona::Outcome) -> GameResult {
    let reason = match outcome.reason {
        EndReason::NoStones => Reason::NoStones,
        EndReason::NoLegalStep => Reason::NoLegalStep,
        _ => Reason::FiftyTurns,
    };
    GameResult {
        winner: outcome.winner,
        reason,
    }
}
