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
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

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
    let secret = credentials(&jar, &headers, &id, &handle)?;
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

async fn run(
    socket: WebSocket,
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
    let (mut sink, mut stream) = socket.split();
    let (errors_tx, mut errors) = mpsc::channel::<String>(8);
    let mut states = handle.subscribe();
    let shutdown = state.hub.shutdown_token();
    let mut send = tokio::spawn(async move {
        if sink.send(Message::Text(welcome.into())).await.is_err() {
            return;
        }
        loop {
            let message = tokio::select! {
                changed = states.changed() => match changed {
                    Ok(()) => Message::Text(states.borrow_and_update().json.clone()),
                    Err(_) => going_away(),
                },
                Some(error) = errors.recv() => Message::Text(error.into()),
                () = shutdown.cancelled() => going_away(),
            };
            let last = matches!(message, Message::Close(_));
            if sink.send(message).await.is_err() || last {
                return;
            }
        }
    });
    let intents = handle.clone();
    let mut receive = tokio::spawn(async move {
        while let Some(Ok(message)) = stream.next().await {
            if handle_message(message, role, &intents, &errors_tx)
                .await
                .is_break()
            {
                break;
            }
        }
    });
    tokio::select! {
        _ = &mut send => receive.abort(),
        _ = &mut receive => send.abort(),
    }
    handle.disconnect(role).await;
}

fn going_away() -> Message {
    Message::Close(Some(CloseFrame {
        code: axum::extract::ws::close_code::AWAY,
        reason: Utf8Bytes::from_static("server shutting down"),
    }))
}

/// Handles one client frame: an intent, or a close.
async fn handle_message(
    message: Message,
    role: Role,
    handle: &GameHandle,
    errors: &mpsc::Sender<String>,
) -> ControlFlow<()> {
    let text = match message {
        Message::Text(text) => text,
        Message::Binary(_) => Utf8Bytes::from_static(""),
        Message::Close(_) => return ControlFlow::Break(()),
        Message::Ping(_) | Message::Pong(_) => return ControlFlow::Continue(()),
    };
    let result = match parse_intent(text.as_str()) {
        Ok(intent) => handle.act(Sender::Role(role), intent).await.map(|_| ()),
        Err(e) => Err(e.into()),
    };
    if let Err(error) = result {
        if errors.send(error.to_json()).await.is_err() {
            return ControlFlow::Break(());
        }
    }
    ControlFlow::Continue(())
}
