//! The JSON API: create, join, read a game, and play intents over HTTP.

use axum::{
    body::Bytes,
    extract::{rejection::JsonRejection, FromRequest, Request, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use axum_extra::extract::CookieJar;
use fanorona::Position;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use super::position::parse_position;
use crate::{
    config::Config,
    error::AppError,
    extract::GamePath,
    game::TimeControl,
    hub::{Credentials, First, Hub, Joined},
    ids::{GameId, JoinKey, Secret},
    limits::{ClientAddr, MAX_BODY},
    protocol::{parse_intent, ProtocolError, WireLevel},
    seat,
    state::AppState,
};

/// A JSON body whose rejection is an [`AppError`]; its headers are checked
/// before it is read (see [`JsonBytes`]).
pub(super) struct Body<T>(pub(super) T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, AppError> {
        let JsonBytes(bytes) = JsonBytes::from_request(req, state).await?;
        // serde would read a struct from an array too (`["me"]`).
        if bytes.trim_ascii_start().first() != Some(&b'{') {
            return Err(ProtocolError::BadJson.into());
        }
        match Json::<T>::from_bytes(&bytes) {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(body_error(rejection, &bytes)),
        }
    }
}

/// Why a body that starts as an object was refused. serde calls a field
/// of the wrong kind for an enum (`"first": null`) a syntax error, as it
/// does broken JSON: a body that is a JSON object is `bad_message`
/// whatever its fields hold, and only one that is not is `bad_json`.
fn body_error(rejection: JsonRejection, bytes: &[u8]) -> AppError {
    match rejection {
        JsonRejection::JsonSyntaxError(e)
            if serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(bytes)
                .is_ok() =>
        {
            ProtocolError::BadMessage {
                kind: "request".into(),
                detail: e.body_text(),
            }
            .into()
        }
        other => other.into(),
    }
}

/// The raw bytes of a JSON body, up to [`MAX_BODY`]. The headers are
/// checked first: a body not declared as JSON is refused with 415, and one
/// announced larger than the limit with 413 at once, without waiting for
/// bytes the server would refuse anyway (a client that announced 1 MB and
/// sent nothing used to hold the request until the 30 s timeout, 408).
pub(super) struct JsonBytes(Bytes);

impl<S: Send + Sync> FromRequest<S> for JsonBytes {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<JsonBytes, AppError> {
        check_json_headers(req.headers())?;
        Bytes::from_request(req, state)
            .await
            .map(JsonBytes)
            .map_err(|r| match r.status() {
                StatusCode::PAYLOAD_TOO_LARGE => AppError::TooLarge,
                _ => ProtocolError::BadJson.into(),
            })
    }
}

/// Refuses a body announced larger than [`MAX_BODY`] (413) or not declared
/// as `application/json`, with or without parameters such as `charset`
/// (415).
fn check_json_headers(headers: &HeaderMap) -> Result<(), AppError> {
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if length.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(AppError::TooLarge);
    }
    let essence = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::trim);
    match essence {
        Some(t) if t.eq_ignore_ascii_case("application/json") => Ok(()),
        _ => Err(AppError::UnsupportedMediaType),
    }
}

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateGame {
    first: First,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    opponent: Opponent,
    #[serde(default)]
    level: Option<WireLevel>,
    #[serde(default)]
    clock: Option<WireClock>,
}

/// A time control as asked for: `minutes` and `increment` (seconds a
/// turn, default 0) in real time, or `days` a turn by correspondence.
#[derive(Copy, Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireClock {
    #[serde(default)]
    minutes: Option<u32>,
    #[serde(default)]
    increment: Option<u32>,
    #[serde(default)]
    days: Option<u32>,
}

/// Who the creator plays.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Opponent {
    /// A friend, invited by a link.
    #[default]
    Friend,
    /// The computer.
    Computer,
}

#[derive(Debug, Serialize)]
pub(super) struct CreatedView {
    game_id: GameId,
    color: &'static str,
    seat: String,
    seat_link: String,
    invite_link: Option<String>,
    spectator_link: String,
    computer: Option<ComputerView>,
}

#[derive(Debug, Serialize)]
struct ComputerView {
    color: &'static str,
    level: u8,
    name: &'static str,
}

impl CreateGame {
    /// The start position asked for, if any. Custom starts are refused
    /// before the text is read when they are not allowed.
    fn start(&self, config: &Config) -> Result<Option<Position>, AppError> {
        match self.position.as_deref() {
            None => Ok(None),
            Some(_) if !config.allow_custom_start => Err(AppError::CustomStartDisabled),
            Some(text) => parse_position(text).map(Some),
        }
    }

    /// The computer's level in a game against it; `None` against a friend.
    fn computer(&self) -> Result<Option<crate::game::Level>, AppError> {
        let bad = |detail: &str| ProtocolError::BadMessage {
            kind: "request".into(),
            detail: detail.into(),
        };
        match (self.opponent, self.level) {
            (Opponent::Friend, None) => Ok(None),
            (Opponent::Friend, Some(_)) => {
                Err(bad("`level` is only for games against the computer").into())
            }
            (Opponent::Computer, Some(WireLevel(level))) => Ok(Some(level)),
            (Opponent::Computer, None) => Err(bad("missing field `level`: 1 to 6").into()),
        }
    }

    /// The time control asked for, between people; `None` for none.
    fn time_control(&self) -> Result<Option<TimeControl>, AppError> {
        let bad = |detail: &str| ProtocolError::BadMessage {
            kind: "request".into(),
            detail: detail.into(),
        };
        let Some(clock) = self.clock else {
            return Ok(None);
        };
        if self.opponent == Opponent::Computer {
            return Err(bad("`clock` is only for games between people").into());
        }
        let control = match (clock.minutes, clock.increment, clock.days) {
            (Some(minutes), increment, None) => {
                TimeControl::real_time(minutes, increment.unwrap_or(0))?
            }
            (None, None, Some(days)) => TimeControl::correspondence(days)?,
            _ => {
                return Err(
                    bad("`clock` is {\"minutes\": m, \"increment\": s} or {\"days\": d}").into(),
                )
            }
        };
        Ok(Some(control))
    }
}

/// Creates a game; the creator's seat cookie is set.
pub(super) async fn create_game(
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    jar: CookieJar,
    Body(req): Body<CreateGame>,
) -> Result<(StatusCode, CookieJar, Json<CreatedView>), AppError> {
    state.limits.create(client)?;
    let computer = req.computer()?;
    let clock = req.time_control()?;
    let position = req.start(&state.config)?;
    let created = state
        .hub
        .create_game(req.first, position, computer, clock, client)
        .await?;
    let site = state.hub.site();
    let origin = &site.origin;
    let view = CreatedView {
        color: created.color.name(),
        seat: created.seat.expose().to_owned(),
        seat_link: seat::seat_link(origin, &created.id, &created.seat),
        invite_link: created
            .computer
            .is_none()
            .then(|| seat::invite_link(origin, &created.id, &created.invite)),
        spectator_link: seat::spectator_link(origin, &created.id),
        computer: created.computer.map(|seat| ComputerView {
            color: seat.color.name(),
            level: seat.level.number(),
            name: seat.level.name(),
        }),
        game_id: created.id.clone(),
    };
    let jar = jar.add(seat::cookie(&created.id, &created.seat, site.https));
    Ok((StatusCode::CREATED, jar, Json(view)))
}

/// `POST /api/games/{id}/join`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinGame {
    invite: String,
    /// The browser's join key: a repeated join with the same key gets the
    /// same seat. Without it a fresh secret is drawn each time.
    #[serde(default)]
    key: Option<JoinKey>,
}

#[derive(Debug, Serialize)]
pub(super) struct JoinedView {
    game_id: GameId,
    role: &'static str,
    seat: Option<String>,
    seat_link: Option<String>,
}

/// Accepts an invitation: takes the free seat, or gives the caller's own
/// seat again (by its credentials or its join key), or makes the caller a
/// spectator. The seat cookie is set whenever the seat is the caller's by
/// this request alone (taken now, or found by the key).
pub(super) async fn join_game(
    game: Result<GamePath, AppError>,
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    jar: CookieJar,
    headers: HeaderMap,
    Body(req): Body<JoinGame>,
) -> Result<(CookieJar, Json<JoinedView>), AppError> {
    state.limits.intent(client)?;
    let GamePath(id) = game?;
    let joined = join(&state.hub, &id, &req, &jar, &headers).await?;
    let site = state.hub.site();
    let origin = &site.origin;
    let (role, secret) = match &joined {
        Joined::Already(color, secret)
        | Joined::Seated(color, secret)
        | Joined::Again(color, secret) => (color.name(), Some(secret)),
        Joined::Spectator => ("spectator", None),
    };
    let jar = match &joined {
        Joined::Seated(_, secret) | Joined::Again(_, secret) => {
            jar.add(seat::cookie(&id, secret, site.https))
        }
        _ => jar,
    };
    let view = JoinedView {
        role,
        seat: secret.map(|s| s.expose().to_owned()),
        seat_link: secret.map(|s| seat::seat_link(origin, &id, s)),
        game_id: id,
    };
    Ok((jar, Json(view)))
}

/// Accepts the invitation of `req` to game `id` for the holder of the
/// request's credentials (bearer header or seat cookie) and join key.
async fn join(
    hub: &Hub,
    id: &GameId,
    req: &JoinGame,
    jar: &CookieJar,
    headers: &HeaderMap,
) -> Result<Joined, AppError> {
    let handle = hub.get(id).await?;
    let invite: Secret = req.invite.parse().map_err(|_| AppError::WrongInvite)?;
    let holder = holder(id, jar, headers)?;
    let keyed = req.key.as_ref().map(|key| Secret::derive(id, &invite, key));
    handle.join(invite, holder, keyed).await
}

/// The seat secret a request presents for game `id`: its bearer header,
/// else its seat cookie.
///
/// # Errors
///
/// [`AppError::WrongSecret`] for a bearer header that holds no secret.
pub(super) fn holder(
    id: &GameId,
    jar: &CookieJar,
    headers: &HeaderMap,
) -> Result<Option<Secret>, AppError> {
    Ok(seat::bearer(headers)?.or_else(|| seat::from_cookie(jar, id)))
}

/// `GET /api/games/{id}`: the state message, as every watcher gets it.
pub(super) async fn get_state(
    GamePath(id): GamePath,
    State(hub): State<Hub>,
) -> Result<Response, AppError> {
    let handle = hub.get(&id).await?;
    Ok(json_bytes(handle.snapshot().json.as_str().to_owned()))
}

/// `POST /api/games/{id}/intents`: plays one intent (same JSON as over the
/// WebSocket) for the seat in the `Authorization: Bearer` header; answers
/// with the new state.
pub(super) async fn post_intent(
    game: Result<GamePath, AppError>,
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Response, AppError> {
    state.limits.intent(client)?;
    let GamePath(id) = game?;
    let handle = state.hub.get(&id).await?;
    let text = std::str::from_utf8(&body).map_err(|_| ProtocolError::BadJson)?;
    let intent = parse_intent(text)?;
    let secret = seat::bearer(&headers)?;
    let state = handle
        .act(Credentials::Secret(secret), client, intent)
        .await?;
    Ok(json_bytes(state.as_str().to_owned()))
}

fn json_bytes(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}
