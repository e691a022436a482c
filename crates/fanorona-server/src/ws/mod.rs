//! One WebSocket per browser tab: `GET /api/games/{id}/ws`.
//!
//! The seat is recognised from the `Authorization: Bearer` header or the
//! seat cookie. The socket first gets a `welcome`, then every state the
//! game publishes (skipping stale ones when it is slow), and an `error` for
//! each of its own refused messages.

use std::ops::ControlFlow;

use axum::{
    body::Bytes,
    extract::{
        ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade},
        State,
    },
    http::{header, HeaderMap, HeaderValue},
    response::Response,
};
use axum_extra::extract::CookieJar;
use governor::DefaultDirectRateLimiter;
use tokio::time::{sleep_until, timeout_at, Instant};

use crate::{
    error::AppError,
    extract::GamePath,
    game::{Intent, Role},
    hub::{Connection, Credentials, GameHandle},
    ids::{GameId, Secret},
    limits::ClientAddr,
    protocol::{parse_intent, ServerMsg},
    seat,
    state::AppState,
};

/// The read buffer of a socket: intents are tiny. Each socket keeps one, so
/// it weighs on memory: 2 KiB instead of 4 KiB took 2 KB off every socket
/// (12,720 -> 10,656 bytes at 1,000 games) for the same latency and CPU.
/// A larger message is read in more than one go.
const READ_BUFFER: usize = 2 * 1024;

/// The largest message a client may send; a larger one closes the socket
/// with 1009 "message too large".
pub(crate) const MAX_MESSAGE: usize = 4 * 1024;

/// The largest frame the transport reads at all; past it the connection is
/// dropped without reading further.
const MAX_FRAME: usize = 16 * 1024;

/// Upgrades to a WebSocket for game `id`. The connection is counted before
/// the upgrade, so a client over its limit gets a plain 429.
pub(crate) async fn upgrade(
    ws: WebSocketUpgrade,
    GamePath(id): GamePath,
    State(state): State<AppState>,
    ClientAddr(client): ClientAddr,
    jar: CookieJar,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let handle = state.hub.get(&id).await?;
    let secret = credentials(&jar, &headers, &id, &handle)?
        .filter(|_| same_origin(&headers, state.config.public_url.as_deref()));
    let link = secret
        .as_ref()
        .map(|s| seat::seat_link(&state.hub.site().origin, &id, s));
    let connection = handle.connect(secret, client).await?;
    Ok(ws
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| run(socket, state, connection, id, link)))
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

/// Whether the upgrade may use the visitor's credentials: only when the
/// browser's `Origin` is absent (not a browser) or is the site itself, so
/// another site's page cannot open a socket that acts for the visitor. The
/// site is the configured public URL, or without one the request's own
/// `Host` over `http` or `https`.
fn same_origin(headers: &HeaderMap, public_url: Option<&str>) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let origin = origin.as_bytes();
    if let Some(public) = public_url {
        return origin == public.trim_end_matches('/').as_bytes();
    }
    let Some(host) = headers.get(header::HOST).map(HeaderValue::as_bytes) else {
        return false;
    };
    [&b"http://"[..], b"https://"].iter().any(|scheme| {
        origin
            .strip_prefix(*scheme)
            .is_some_and(|rest| rest.eq_ignore_ascii_case(host))
    })
}

async fn run(
    mut socket: WebSocket,
    state: AppState,
    connection: Connection,
    id: GameId,
    link: Option<String>,
) {
    let role = connection.role;
    let welcome = ServerMsg::Welcome {
        game_id: &id,
        role,
        seat_link: if role == Role::Spectator { None } else { link },
    }
    .to_json();
    let mut this = Socket {
        role,
        client: connection.client,
        handle: &connection.handle,
        limiter: state.limits.socket(),
        last_heard: Instant::now(),
        idle: state.config.socket_idle,
        send_timeout: state.config.socket_send_timeout,
    };
    if this.send(&mut socket, Message::Text(welcome.into())).await {
        this.serve(&mut socket, &state).await;
    }
    // Dropping the connection tells the game the player is gone, whether
    // the socket closed, went idle or stopped reading.
    drop(connection);
}

/// One socket's side of the game.
struct Socket<'a> {
    role: Role,
    client: std::net::IpAddr,
    handle: &'a GameHandle,
    limiter: DefaultDirectRateLimiter,
    last_heard: Instant,
    idle: std::time::Duration,
    send_timeout: std::time::Duration,
}

impl Socket<'_> {
    /// The socket's loop: one task per socket, waiting on the client, the
    /// game's states, the ping and idle timers, and shutdown at once. A
    /// socket that is slow to send misses intermediate states and sends
    /// the latest.
    async fn serve(&mut self, socket: &mut WebSocket, state: &AppState) {
        let mut states = self.handle.subscribe();
        let shutdown = state.hub.shutdown_token();
        let idle = self.idle;
        let mut ping = tokio::time::interval(state.config.ping_every);
        ping.reset();
        loop {
            let out = tokio::select! {
                changed = states.changed() => match changed {
                    Ok(()) => Message::Text(states.borrow_and_update().json.clone()),
                    Err(_) if shutdown.is_cancelled() => close(CLOSE_RESTARTING, "server restarting"),
                    // While the server runs, a game's task stops under its
                    // sockets only when it cannot read the game from the
                    // store again (after a failed write, or a change heard
                    // from another process): nothing restarts, the
                    // database does not answer. (A state that cannot be
                    // encoded stops it too: a bug, logged as an error.)
                    Err(_) => close(CLOSE_TRY_AGAIN_LATER, "database unavailable"),
                },
                incoming = socket.recv() => match incoming {
                    Some(Ok(message)) => match self.handle_message(message).await {
                        ControlFlow::Continue(Some(reply)) => reply,
                        ControlFlow::Continue(None) => continue,
                        ControlFlow::Break(()) => return,
                    },
                    Some(Err(error)) => match close_for(error) {
                        Some(frame) => frame,
                        None => return,
                    },
                    None => return,
                },
                _ = ping.tick() => Message::Ping(Bytes::new()),
                () = sleep_until(self.last_heard + idle) => close(close_code::AWAY, "idle timeout"),
                () = shutdown.cancelled() => close(CLOSE_RESTARTING, "server restarting"),
            };
            let last = matches!(out, Message::Close(_));
            if !self.send(socket, out).await || last {
                return;
            }
        }
    }

    /// Sends `message`; false when the socket failed or the client did not
    /// take it in time. A client that stops reading fills the kernel's
    /// buffers and then `send` waits for ever, so every send has a
    /// deadline: `--socket-send-timeout`, or the idle deadline if sooner,
    /// since a socket that neither reads nor talks is idle. The ping and
    /// idle timers cannot run meanwhile, but they need not: a ping could
    /// only queue behind the waiting frame, and the deadline already ends
    /// the socket by the idle limit. Splitting the socket into a sender
    /// and a receiver task would keep reading during the wait, for no
    /// gain: a client that talks but never reads is dropped all the same.
    /// A close frame gets the whole send limit: it is the last frame.
    async fn send(&self, socket: &mut WebSocket, message: Message) -> bool {
        let mut deadline = Instant::now() + self.send_timeout;
        if !matches!(message, Message::Close(_)) {
            deadline = deadline.min(self.last_heard + self.idle);
        }
        matches!(timeout_at(deadline, socket.send(message)).await, Ok(Ok(())))
    }

    /// Handles one client frame: an intent (answering with the error to
    /// send back, if refused), or a close.
    async fn handle_message(&mut self, message: Message) -> ControlFlow<(), Option<Message>> {
        self.last_heard = Instant::now();
        let text = match message {
            Message::Text(text) => text,
            // The protocol is JSON text: a binary frame is not read as
            // anything (RFC 6455 section 7.4.1).
            Message::Binary(_) => {
                return ControlFlow::Continue(Some(close(
                    close_code::UNSUPPORTED,
                    "binary frames are not accepted",
                )))
            }
            Message::Close(_) => return ControlFlow::Break(()),
            Message::Ping(_) | Message::Pong(_) => return ControlFlow::Continue(None),
        };
        if text.len() > MAX_MESSAGE {
            return ControlFlow::Continue(Some(close(close_code::SIZE, "message too large")));
        }
        if self.limiter.check().is_err() {
            return ControlFlow::Continue(Some(error(&AppError::RateLimited)));
        }
        let reply = match parse_intent(text.as_str()) {
            Ok(intent) => match self
                .handle
                .act(Credentials::Role(self.role), self.client, intent)
                .await
            {
                // The state comes to every socket; a hint to its sender only.
                Ok(hint) if intent == Intent::Hint => Some(Message::Text(hint)),
                Ok(_) => None,
                Err(e) => Some(error(&e)),
            },
            Err(e) => Some(error(&e.into())),
        };
        ControlFlow::Continue(reply)
    }
}

/// The close code sent when the server stops: 1012, "service restart".
pub(crate) const CLOSE_RESTARTING: u16 = 1012;

/// The close code sent when the game cannot be read from its database:
/// 1013, "try again later".
pub(crate) const CLOSE_TRY_AGAIN_LATER: u16 = 1013;

/// The close frame that answers a frame the transport could not read
/// (RFC 6455 section 7.4.1): 1007 for a text message that is not UTF-8,
/// 1009 for a message or frame over the size limits, 1002 for any other
/// breach of the protocol (an unmasked frame, reserved bits set, an unknown
/// opcode, a fragmented or oversized control frame...). `None` when the
/// connection itself is gone and nothing can be sent.
fn close_for(error: axum::Error) -> Option<Message> {
    use tungstenite::error::{Error, ProtocolError};
    let Ok(error) = error.into_inner().downcast::<Error>() else {
        return Some(close(close_code::ERROR, "internal error"));
    };
    match *error {
        Error::Utf8(_) => Some(close(close_code::INVALID, "invalid UTF-8")),
        Error::Capacity(_) => Some(close(close_code::SIZE, "message too large")),
        Error::Protocol(ProtocolError::ResetWithoutClosingHandshake)
        | Error::ConnectionClosed
        | Error::AlreadyClosed
        | Error::Io(_) => None,
        _ => Some(close(close_code::PROTOCOL, "protocol error")),
    }
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

fn error(error: &AppError) -> Message {
    Message::Text(error.to_json().into())
}
