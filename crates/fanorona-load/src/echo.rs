//! The raw WebSocket baseline: an echo server on the server's stack (axum
//! on tokio, the same socket buffer settings) and the slots that drive it
//! like games.

use std::{sync::Arc, time::Duration};

use axum::{
    extract::ws::{Message as AxumMessage, WebSocket, WebSocketUpgrade},
    routing::get,
    Router,
};
use futures_util::{SinkExt, StreamExt};
use tokio::{
    net::TcpListener,
    sync::watch,
    time::{sleep_until, timeout, Instant},
};
use tokio_tungstenite::tungstenite::Message;

use crate::{
    cli::EchoServerArgs,
    game::{disconnect_kind, Pace, Phase},
    stats::Stats,
    wire,
};

/// The server's per-socket read buffer, the same as the game server's
/// (`crates/fanorona-server/src/ws/mod.rs`); the echo's messages, the size
/// of a state (under 1.3 KB), still arrive in one read.
const READ_BUFFER: usize = 2 * 1024;

/// The highest port a server started by this tool may use.
pub const MAX_SERVER_PORT: u16 = 32767;

/// Binds 127.0.0.1 at the first free port from `from`, never above
/// [`MAX_SERVER_PORT`].
///
/// # Errors
///
/// When no port in the range is free.
pub async fn bind_low_port(from: u16) -> std::io::Result<TcpListener> {
    let mut last = None;
    for port in from..=MAX_SERVER_PORT {
        match TcpListener::bind(("127.0.0.1", port)).await {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no port to try")))
}

/// Runs the echo server until killed; prints `listening on http://ADDR`.
///
/// # Errors
///
/// When no port can be bound.
pub async fn serve(args: EchoServerArgs) -> Result<(), Box<dyn std::error::Error>> {
    let listener = bind_low_port(args.port).await?;
    println!("listening on http://{}", listener.local_addr()?);
    let app = Router::new().route("/ws", get(upgrade));
    axum::serve(listener, app).await?;
    Ok(())
}

async fn upgrade(ws: WebSocketUpgrade) -> axum::response::Response {
    ws.read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(64 * 1024)
        .on_upgrade(echo)
}

async fn echo(mut socket: WebSocket) {
    while let Some(Ok(message)) = socket.recv().await {
        let reply = match message {
            AxumMessage::Text(_) | AxumMessage::Binary(_) => message,
            AxumMessage::Close(_) => break,
            AxumMessage::Ping(_) | AxumMessage::Pong(_) => continue,
        };
        if socket.send(reply).await.is_err() {
            break;
        }
    }
}

/// What the echo slots share.
#[derive(Debug)]
pub struct EchoCtx {
    /// `ws://127.0.0.1:PORT/ws`.
    pub url: String,
    /// The message sent and echoed: the size of a state message.
    pub payload: String,
    /// Sending pace, as for games.
    pub pace: Pace,
    /// Counters.
    pub stats: Arc<Stats>,
    /// Limits the pairs being connected at once.
    pub setup: tokio::sync::Semaphore,
}

/// One pair of sockets standing for one game: at each due time one of
/// them (in turn) sends the payload and waits for its echo.
pub async fn run_pair(ctx: Arc<EchoCtx>, mut phase: watch::Receiver<Phase>) {
    let stats = &ctx.stats;
    let connect = async {
        let _permit = ctx.setup.acquire().await;
        let a = wire::connect(&ctx.url, None).await?;
        let b = wire::connect(&ctx.url, None).await?;
        Ok::<_, wire::WireError>([a, b])
    };
    let mut sockets = match connect.await {
        Ok(sockets) => sockets,
        Err(e) => {
            stats.error(&e.kind);
            return;
        }
    };
    stats.add_sockets(2);
    stats
        .ready
        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let mut rng = fastrand::Rng::new();
    let mut due = match ctx.pace {
        Pace::Open(interval) => Instant::now() + interval.mul_f64(rng.f64()),
        Pace::Closed => Instant::now(),
    };
    let mut turn = 0usize;
    let payload: tokio_tungstenite::tungstenite::Utf8Bytes = ctx.payload.clone().into();
    loop {
        let measuring = *phase.borrow() == Phase::Measure;
        tokio::select! {
            changed = phase.changed() => {
                if changed.is_err() || *phase.borrow() == Phase::Stop { break; }
                // Spread the first messages over an interval from the
                // window's start (see `game::play`).
                if let Pace::Open(interval) = ctx.pace {
                    due = Instant::now() + interval.mul_f64(rng.f64());
                }
                continue;
            }
            () = sleep_until(due), if measuring => {}
        }
        let socket = &mut sockets[turn % 2];
        turn += 1;
        let sent = Instant::now();
        due = ctx.pace.next(sent, &mut rng);
        if let Err(e) = socket.send(Message::Text(payload.clone())).await {
            stats.disconnect(&disconnect_kind(&e));
            break;
        }
        match timeout(Duration::from_secs(10), socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                stats.message(text.len());
                stats.step(sent.elapsed());
            }
            Ok(Some(Ok(_))) => stats.error("echo_unexpected_frame"),
            Ok(Some(Err(e))) => {
                stats.disconnect(&disconnect_kind(&e));
                break;
            }
            Ok(None) => {
                stats.disconnect("stream_ended");
                break;
            }
            Err(_) => stats.error("echo_timeout"),
        }
    }
    for socket in &mut sockets {
        let _ = timeout(Duration::from_secs(2), socket.close(None)).await;
    }
    stats.add_sockets(-2);
}
