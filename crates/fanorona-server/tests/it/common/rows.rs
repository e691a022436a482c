//! The stored row of a game between people from the usual start: what
//! the store's tests and benchmarks write first. Depends on
//! `fanorona_server` alone, so that an example can include it by path.

use fanorona::{ByColor, Color, Position};
use fanorona_server::{
    ids::{GameId, Secret, SecretHash},
    store::GameRow,
};

/// Game `id`, created by White at a fixed time, with these seats taken
/// and a fresh invitation.
pub fn row(id: &GameId, white: Option<SecretHash>, black: Option<SecretHash>) -> GameRow {
    GameRow {
        id: id.clone(),
        created_at: 1_700_000_000,
        start_position: Position::start().to_string(),
        creator: Color::White,
        seats: ByColor { white, black },
        invite: Secret::random().expect("a random invitation").hash(),
        rematch_of: None,
        next_game: None,
        computer: None,
        time_control: None,
        score: None,
    }
}

/// A fresh random seat.
pub fn seat() -> Option<SecretHash> {
    Some(Secret::random().expect("a random seat").hash())
}
