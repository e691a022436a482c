//! The HTML pages: the home page and a game's page, which also turns seat
//! and invitation links into the seat cookie.

use axum::{
    extract::{Path, Query, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Redirect, Response},
};
use axum_extra::extract::CookieJar;
use serde::Deserialize;

use super::{api, assets};
use crate::{
    clock,
    error::AppError,
    hub::{GameHandle, Joined},
    ids::{GameId, Secret},
    seat,
    state::AppState,
};

/// `GET /`: the home page.
pub(super) async fn index(headers: HeaderMap) -> Response {
    assets::respond::<assets::Web>("index.html", &headers)
}

/// The query of a game link: a seat link has `seat`, an invitation `invite`.
#[derive(Debug, Deserialize)]
pub(super) struct GameQuery {
    seat: Option<String>,
    invite: Option<String>,
}

/// `GET /g/{id}`: the game page. A seat or invitation link sets the seat
/// cookie and redirects to the plain game link, so the secret leaves the
/// address bar.
pub(super) async fn game(
    Path(id): Path<String>,
    Query(query): Query<GameQuery>,
    State(state): State<AppState>,
    jar: CookieJar,
    headers: HeaderMap,
) -> Response {
    match game_page(&id, query, &state, jar, &headers).await {
        Ok(response) => response,
        Err(error) => message_page(&error, &headers),
    }
}

async fn game_page(
    id: &str,
    query: GameQuery,
    state: &AppState,
    jar: CookieJar,
    headers: &HeaderMap,
) -> Result<Response, AppError> {
    let handle = state.hub.get(id).await?;
    let game_id: GameId = id.parse().map_err(|_| AppError::GameNotFound)?;
    let secure = state.config.origin().starts_with("https://");
    let back = Redirect::to(&format!("/g/{game_id}"));
    if expired(&handle, state) {
        return Err(AppError::InvitationExpired);
    }
    if let Some(secret) = query.seat.and_then(|s| s.parse::<Secret>().ok()) {
        let jar = match handle.identify(secret.clone()).await? {
            Some(_) => jar.add(seat::cookie(&game_id, &secret, secure)),
            None => jar,
        };
        return Ok((jar, back).into_response());
    }
    if let Some(invite) = query.invite {
        return match api::join(&state.hub, id, &invite, &jar, headers).await {
            Ok((_, Joined::Seated(_, s))) => {
                Ok((jar.add(seat::cookie(&game_id, &s, secure)), back).into_response())
            }
            Ok(_) | Err(AppError::WrongInvite) => Ok(back.into_response()),
            Err(e) => Err(e),
        };
    }
    let jar = carry_rematch_seat(jar, &handle, &game_id, secure).await;
    Ok((jar, assets::respond::<assets::Web>("game.html", headers)).into_response())
}

/// Whether nobody joined the game within the invitation's lifetime.
fn expired(handle: &GameHandle, state: &AppState) -> bool {
    let ttl = i64::try_from(state.config.invite_ttl.as_secs()).unwrap_or(i64::MAX);
    handle
        .snapshot()
        .open_since
        .is_some_and(|t| clock::unix_seconds().saturating_sub(t) >= ttl)
}

/// In a rematch, the seat cookie of the previous game also holds this one.
async fn carry_rematch_seat(
    jar: CookieJar,
    handle: &GameHandle,
    id: &GameId,
    secure: bool,
) -> CookieJar {
    if seat::from_cookie(&jar, id).is_some() {
        return jar;
    }
    let previous = handle.snapshot().rematch_of.clone();
    let Some(secret) = previous.and_then(|p| seat::from_cookie(&jar, &p)) else {
        return jar;
    };
    match handle.identify(secret.clone()).await {
        Ok(Some(_)) => jar.add(seat::cookie(id, &secret, secure)),
        _ => jar,
    }
}

/// A small page that explains an error in words, with a way on.
fn message_page(error: &AppError, headers: &HeaderMap) -> Response {
    let (page, status) = match error {
        AppError::GameNotFound => ("not-found.html", StatusCode::NOT_FOUND),
        AppError::InvitationExpired => ("expired.html", StatusCode::GONE),
        e => ("error.html", e.status()),
    };
    assets::page_with_status::<assets::Web>(page, status, headers)
}
