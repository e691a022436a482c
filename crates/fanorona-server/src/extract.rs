//! Typed input at the edge, shared by the pages, the API and the socket
//! upgrade: each route's `{id}` is read into a [`GameId`] once, here.

use axum::{
    extract::{FromRequestParts, Path},
    http::request::Parts,
};

use crate::{error::AppError, ids::GameId};

/// The game id of a route's `{id}`. One that is not a well-formed game id
/// is answered as a game nobody created: [`AppError::GameNotFound`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GamePath(pub(crate) GameId);

impl<S: Send + Sync> FromRequestParts<S> for GamePath {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GamePath, AppError> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| AppError::GameNotFound)?;
        id.parse().map(GamePath).map_err(|_| AppError::GameNotFound)
    }
}
