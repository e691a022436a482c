//! How a request proves it holds a seat: the `Authorization: Bearer`
//! header, or the seat cookie the site sets (`seat_<game id>`).

use axum::http::{header, HeaderMap};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};

use crate::{
    error::AppError,
    ids::{GameId, Secret},
};

/// How long the seat cookie lives: 180 days.
pub(crate) const COOKIE_DAYS: i64 = 180;

/// The name of the cookie holding the seat of game `id`.
pub(crate) fn cookie_name(id: &GameId) -> String {
    format!("seat_{id}")
}

/// The secret in an `Authorization: Bearer` header, if there is one.
///
/// # Errors
///
/// [`AppError::WrongSecret`] when the header is there but holds no secret.
pub(crate) fn bearer(headers: &HeaderMap) -> Result<Option<Secret>, AppError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value.to_str().map_err(|_| AppError::WrongSecret)?;
    let token = text.strip_prefix("Bearer ").ok_or(AppError::WrongSecret)?;
    token
        .trim()
        .parse()
        .map(Some)
        .map_err(|_| AppError::WrongSecret)
}

/// The secret in the seat cookie of game `id`, if it is well formed.
pub(crate) fn from_cookie(jar: &CookieJar, id: &GameId) -> Option<Secret> {
    jar.get(&cookie_name(id))
        .and_then(|c| c.value().parse().ok())
}

/// The seat cookie for game `id`: HttpOnly, SameSite=Lax, 180 days, and
/// Secure when the site is served over HTTPS.
pub(crate) fn cookie(id: &GameId, secret: &Secret, secure: bool) -> Cookie<'static> {
    Cookie::build((cookie_name(id), secret.expose().to_owned()))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(cookie::time::Duration::days(COOKIE_DAYS))
        .build()
}

/// A player's own link: opening it recognises the seat on any device.
pub(crate) fn seat_link(origin: &str, id: &GameId, secret: &Secret) -> String {
    format!("{origin}/g/{id}?seat={}", secret.expose())
}

/// The link the creator sends to a friend.
pub(crate) fn invite_link(origin: &str, id: &GameId, invite: &Secret) -> String {
    format!("{origin}/g/{id}?invite={}", invite.expose())
}

/// The public link to watch a game.
pub(crate) fn spectator_link(origin: &str, id: &GameId) -> String {
    format!("{origin}/g/{id}")
}
