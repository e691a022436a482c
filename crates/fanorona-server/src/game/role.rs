//! Who acts: a player's seat or a spectator, and the computer's seat.

use fanorona::Color;

use super::Level;

/// The computer's seat in a game against it: its colour and its level now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ComputerSeat {
    /// The colour the computer plays.
    pub color: Color,
    /// How strongly it plays.
    pub level: Level,
}

/// Who a connection is: one of the players, or a spectator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The player of this colour.
    Player(Color),
    /// Someone watching.
    Spectator,
}

impl Role {
    /// `"white"`, `"black"` or `"spectator"`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Role::Player(c) => c.name(),
            Role::Spectator => "spectator",
        }
    }
}
