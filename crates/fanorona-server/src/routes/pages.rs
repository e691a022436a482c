//! The HTML pages: the home page, a game's page (which also turns a seat
//! link into the seat cookie) and the invitation. Opening a link never
//! changes who holds a seat: chat apps fetch every pasted link for its
//! preview, so a seat is only ever taken by the invitation's POST.

use axum::{
    extract::{Query, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Redirect, Response},
};
use axum_extra::extract::CookieJar;
use serde::Deserialize;

use super::{api, assets, files, i18n::Choice, template, template::Message};
use crate::{
    clock,
    error::AppError,
    extract::GamePath,
    hub::{GameHandle, Invitation},
    ids::{GameId, Secret},
    seat,
    state::AppState,
};

/// `GET /`: the home page.
pub(super) async fn index(choice: Choice, headers: HeaderMap) -> Response {
    assets::respond::<files::Web>("index.html", choice, &headers)
}

/// The query of a game link: a seat link has `seat`, an invitation `invite`.
#[derive(Debug, Deserialize)]
pub(super) struct GameQuery {
    seat: Option<String>,
    invite: Option<String>,
}

/// `GET /g/{id}` (and `HEAD`): the game page. A seat link sets the seat
/// cookie and redirects to the plain game link, so the secret leaves the
/// address bar. An invitation link shows the invitation while its seat is
/// free, and redirects to the game otherwise; it never takes the seat.
pub(super) async fn game(
    game: Result<GamePath, AppError>,
    Query(query): Query<GameQuery>,
    State(state): State<AppState>,
    jar: CookieJar,
    choice: Choice,
    headers: HeaderMap,
) -> Response {
    let invited = query.invite.is_some();
    let page = match game {
        Ok(GamePath(id)) => game_page(&id, query, &state, jar, choice, &headers).await,
        Err(error) => Err(error),
    };
    match page {
        Ok(response) => response,
        // Expired invitations are deleted by the sweep: the link of one
        // then finds no game, as a mistyped one does.
        Err(AppError::GameNotFound) if invited => {
            assets::page_with_status(Message::Gone, StatusCode::NOT_FOUND, choice, &headers)
        }
        Err(error) => message_page(&error, choice, &headers),
    }
}

async fn game_page(
    game_id: &GameId,
    query: GameQuery,
    state: &AppState,
    jar: CookieJar,
    choice: Choice,
    headers: &HeaderMap,
) -> Result<Response, AppError> {
    let handle = state.hub.get(game_id).await?;
    let site = state.hub.site();
    let secure = site.https;
    let back = Redirect::to(&format!("/g/{game_id}"));
    if expired(&handle, state) {
        return Err(AppError::InvitationExpired);
    }
    if let Some(secret) = query.seat.and_then(|s| s.parse::<Secret>().ok()) {
        let jar = match handle.identify(secret.clone()).await? {
            Some(_) => jar.add(seat::cookie(game_id, &secret, secure)),
            None => jar,
        };
        let mut response = (jar, back).into_response();
        choice.mark(response.headers_mut());
        return Ok(response);
    }
    if let Some(invite) = query.invite {
        return invitation_page(&handle, game_id, &invite, state, &jar, choice, headers).await;
    }
    let jar = carry_rematch_seat(jar, &handle, game_id, secure).await;
    let page = template::game_page(&site.origin, game_id, choice.lang);
    Ok((jar, rendered(page, choice, headers)).into_response())
}

/// The answer to invitation link `invite` of game `id`: the invitation
/// while its seat is free, the board for a visitor who holds a seat, and
/// otherwise a page that says why the link seats nobody (both seats
/// taken: 200; not this game's token: 403), with the way to watch.
/// Looks, never takes.
async fn invitation_page(
    handle: &GameHandle,
    id: &GameId,
    invite: &str,
    state: &AppState,
    jar: &CookieJar,
    choice: Choice,
    headers: &HeaderMap,
) -> Result<Response, AppError> {
    let holder = api::holder(id, jar, headers)?;
    let open = match invite.parse::<Secret>() {
        Ok(invite) => handle.invitation(invite, holder).await?,
        Err(_) => Invitation::Wrong,
    };
    let closed = |kind, status| {
        let page = template::closed_invitation_page(kind, id, choice.lang);
        let mut response = rendered(page, choice, headers);
        if response.status() == StatusCode::OK {
            *response.status_mut() = status;
        }
        response
    };
    Ok(match open {
        Invitation::Open(seat, clock) => rendered(
            template::invite_page(&state.hub.site().origin, id, seat, clock, choice.lang),
            choice,
            headers,
        ),
        Invitation::Holder(_) => {
            let mut response = Redirect::to(&format!("/g/{id}")).into_response();
            choice.mark(response.headers_mut());
            response
        }
        Invitation::Used => closed(Message::Used, StatusCode::OK),
        Invitation::Wrong => closed(Message::Wrong, AppError::WrongInvite.status()),
    })
}

/// Sends a page made for this request, or the error page when its file is
/// missing from the binary.
fn rendered(page: Option<String>, choice: Choice, headers: &HeaderMap) -> Response {
    match page {
        Some(html) => assets::rendered_page(html, choice, headers),
        None => message_page(&AppError::Unavailable, choice, headers),
    }
}

/// Whether nobody joined the game within the invitation's lifetime.
fn expired(handle: &GameHandle, state: &AppState) -> bool {
    let now = clock::unix_seconds();
    handle
        .snapshot()
        .open_since
        .is_some_and(|t| state.hub.site().invitation_expired(t, now))
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
fn message_page(error: &AppError, choice: Choice, headers: &HeaderMap) -> Response {
    let (page, status) = match error {
        AppError::GameNotFound => (Message::Missing, StatusCode::NOT_FOUND),
        AppError::InvitationExpired => (Message::Expired, StatusCode::GONE),
        e => (Message::Failed, e.status()),
    };
    let mut response = assets::page_with_status(page, status, choice, headers);
    error.mark(response.headers_mut());
    response
}
