//! Why an intent is refused.

use fanorona::PlayError;

/// Why an intent is refused. Each has a stable code and a sentence.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The rules refuse the step or the end of turn.
    #[error("{0}")]
    Play(PlayError),
    /// The other player is to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Only a finished game can be followed by a rematch.
    #[error("a rematch can only be asked for once the game is over")]
    GameNotOver,
    /// The second seat is still free.
    #[error("your opponent has not joined yet")]
    WaitingForOpponent,
    /// No draw offer from the opponent is pending.
    #[error("your opponent has not offered a draw")]
    NoDrawOffer,
    /// This player's own offer is still pending.
    #[error("you have already offered a draw")]
    DrawAlreadyOffered,
    /// The opponent is not away on their own turn long enough.
    #[error(
        "you can claim victory only when your opponent has been away for a while on their turn"
    )]
    NotAbandoned,
    /// This player has already asked for a rematch.
    #[error("you have already asked for a rematch")]
    RematchAlreadyRequested,
    /// The intent needs a game against the computer, or is not possible
    /// in one.
    #[error("this is not possible in this game: it is only for games against the computer, or only for games between people")]
    NotAgainstComputer,
    /// No takeback request from the opponent is pending.
    #[error("your opponent has not asked to take back a turn")]
    NoTakebackOffer,
    /// This player's own takeback request is still pending.
    #[error("you have already asked to take back your turn")]
    TakebackAlreadyOffered,
    /// The sender has no completed turn to take back.
    #[error("there is no turn of yours to take back")]
    NothingToTakeBack,
    /// A takeback request in a game with a clock.
    #[error("turns cannot be taken back in a game with a clock")]
    TimedGame,
    /// A time claim in a game without a clock.
    #[error("this game has no clock")]
    NoClock,
    /// A time claim while the player to move still has time.
    #[error("the player to move still has time")]
    TimeNotOut,
}

impl GameError {
    /// A stable snake_case identifier.
    pub(crate) const fn code(&self) -> &'static str {
        match self {
            GameError::Play(e) => e.code(),
            GameError::NotYourTurn => "not_your_turn",
            GameError::GameOver => "game_over",
            GameError::GameNotOver => "game_not_over",
            GameError::WaitingForOpponent => "waiting_for_opponent",
            GameError::NoDrawOffer => "no_draw_offer",
            GameError::DrawAlreadyOffered => "draw_already_offered",
            GameError::NotAbandoned => "not_abandoned",
            GameError::RematchAlreadyRequested => "rematch_already_requested",
            GameError::NotAgainstComputer => "not_against_computer",
            GameError::NoTakebackOffer => "no_takeback_offer",
            GameError::TakebackAlreadyOffered => "takeback_already_offered",
            GameError::NothingToTakeBack => "nothing_to_take_back",
            GameError::TimedGame => "timed_game",
            GameError::NoClock => "no_clock",
            GameError::TimeNotOut => "time_not_out",
        }
    }
}
