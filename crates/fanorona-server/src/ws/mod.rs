//! One WebSocket per browser tab: `GET /api/games/{id}/ws`.
//!
//! The seat is recognised from the `Authorization: Bearer` header or the
//! seat cookie. The socket first gets a `welcome`, then every state the
//! game publishes (skipping stale ones when it is slow), and an `error` for
//! each of its own refused messages.

pub mod protocol;

use std::ops::ControlFlow;

use axum::{
    extract::{
        ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade},
        Path, State,
    },
    http::HeaderMap,
    response::Response,
};
use axum_extra::extract::CookieJar;
use tokio_util::sync::CancellationToken;

use self::protocol::{parse_intent, Role, ServerMsg};
use crate::{
    error::AppError,
    hub::{GameHandle, Sender},
    ids::{GameId, Secret},
    seat,
    state::AppState,
};

/// The read buffer of a socket: intents are tiny.
const READ_BUFFER: usize = 4 * 1024;

/// The largest message a client may send.
const MAX_MESSAGE: usize = 4 * 1024;

/// Upgrades to a WebSocket for game `id`.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    State(state): State<AppState>,
    jar: CookieJar,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let handle = state.hub.get(&id).await?;
    let id: GameId = id.parse().map_err(|_| AppError::GameNotFound)?;
    let secret = credentials(&jar, &headers, &id, &handle)?
        .filter(|_| same_origin(&headers, state.config.public_url.as_deref()));
    let link = secret
        .as_ref()
        .map(|s| seat::seat_link(&state.config.origin(), &id, s));
    Ok(ws
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| run(socket, state, handle, id, secret, link)))
}

/// The seat secret of a request: the bearer header, the game's cookie, or
/// the cookie of the game this one is a rematch of.
fn credentials(
    jar: &CookieJar,
    headers: &HeaderMap,
    id: &GameId,
    handle: &GameHandle,
) -> Result<Option<Secret>, AppError> {
    if let Some(secret) = seat::bearer(headers)? {
        return Ok(Some(secret));
    }
    let previous = handle.snapshot().rematch_of.clone();
    Ok(seat::from_cookie(jar, id).or_else(|| previous.and_then(|p| seat::from_cookie(jar, &p))))
}

/// Whether the upgrade may use the visitor's credentials: always without a
/// configured public URL, else only when the browser's `Origin` is absent
/// (not a browser) or is the site itself, so another site's page cannot
/// open a socket that acts for the visitor.
fn same_origin(headers: &HeaderMap, public_url: Option<&str>) -> bool {
    let Some(public) = public_url else {
        return true;
    };
    match headers.get(axum::http::header::ORIGIN) {
        None => true,
        Some(origin) => origin.as_bytes() == public.trim_end_matches('/').as_bytes(),
    }
}

async fn run(
    mut socket: WebSocket,
    state: AppState,
    handle: GameHandle,
    id: GameId,
    secret: Option<Secret>,
    link: Option<String>,
) {
    let Ok(role) = handle.connect(secret).await else {
        return;
    };
    let welcome = ServerMsg::Welcome {
        game_id: &id,
        role,
        seat_link: if role == Role::Spectator { None } else { link },
    }
    .to_json();
    if socket.send(Message::Text(welcome.into())).await.is_ok() {
        serve_socket(&mut socket, role, &handle, &state.hub.shutdown_token()).await;
    }
    handle.disconnect(role).await;
}

/// The socket's loop: one task per socket, waiting on the client, the
/// game's states and shutdown at once. A socket that is slow to send
/// misses intermediate states and sends the latest.
async fn serve_socket(
    socket: &mut WebSocket,
    role: Role,
    handle: &GameHandle,
    shutdown: &CancellationToken,
) {
    let mut states = handle.subscribe();
    loop {
        let out = tokio::select! {
            changed = states.changed() => match changed {
                Ok(()) => Message::Text(states.borrow_and_update().json.clone()),
                Err(_) => restarting(),
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(message)) => match handle_message(message, role, handle).await {
                    ControlFlow::Continue(Some(error)) => Message::Text(error.into()),
                    ControlFlow::Continue(None) => continue,
                    ControlFlow::Break(()) => return,
                },
                _ => return,
            },
            () = shutdown.cancelled() => restarting(),
        };
        let last = matches!(out, Message::Close(_));
        if socket.send(out).await.is_err() || last {
            return;
        }
    }
}

/// The close code sent when the server stops: 1012, "service restart".
pub const CLOSE_RESTARTING: u16 = 1012;

/// The close sent to every socket when the server stops or the game's task
/// ends: the client should reconnect after a moment.
fn restarting() -> Message {
    Message::Close(Some(CloseFrame {
        code: CLOSE_RESTARTING,
        reason: Utf8Bytes::from_static("server restarting"),
    }))
}

/// Handles one client frame: an intent (answering with the error to send
/// back, if refused), or a close.
async fn handle_message(
    message: Message,
    role: Role,
    handle: &GameHandle,
) -> ControlFlow<(), Option<String>> {
    let text = match message {
        Message::Text(text) => text,
        Message::Binary(_) => Utf8Bytes::from_static(""),
        Message::Close(_) => return ControlFlow::Break(()),
        Message::Ping(_) | Message::Pong(_) => return ControlFlow::Continue(None),
    };
    let result = match parse_intent(text.as_str()) {
        Ok(intent) => handle.act(Sender::Role(role), intent).await.map(|_| ()),
        Err(e) => Err(e.into()),
    };
    ControlFlow::Continue(result.err().map(|error| error.to_json()))
}
