//! The Fanorona web site: pages, a JSON API and one WebSocket per browser
//! tab, over games stored in SQLite. See `docs/API.md` for the protocol.
#![warn(missing_docs)]

pub mod clock;
pub mod config;
pub mod error;
pub mod game;
pub mod hub;
pub mod ids;
pub mod limits;
pub mod routes;
pub mod seat;
pub mod state;
pub mod store;
pub mod ws;

use std::{future::Future, net::SocketAddr};

use axum::{serve::ListenerExt, Router};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use crate::{config::Config, error::AppError, state::AppState};

/// The whole site as a router.
pub fn app(state: AppState) -> Router {
    routes::router(state)
}

/// Serves the site on `listener` until `shutdown` completes. Then it stops
/// accepting connections, every socket is closed with code 1012 and the
/// reason "server restarting", and it returns once every game task has
/// finished the write it was doing.
///
/// # Errors
///
/// When accepting connections fails.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let token = state.hub.shutdown_token();
    let hub = state.hub.clone();
    tokio::spawn(sweep_every(state.clone(), token.clone()));
    // The pages' files, compressed before anyone asks, on a thread that
    // may block.
    tokio::task::spawn_blocking(|| {
        routes::compress_all::<routes::Web>();
        routes::preview_png();
    });
    let app = app(state).into_make_service_with_connect_info::<SocketAddr>();
    // Small frames go out at once: without this, a frame written in two
    // parts waits for the peer's delayed ACK (Nagle), about 40 ms.
    let listener = listener.tap_io(|tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
    });
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            token.cancel();
        })
        .await;
    hub.stopped().await;
    served
}

/// Runs [`AppState::sweep`] every `--sweep-every` until shutdown.
async fn sweep_every(state: AppState, shutdown: CancellationToken) {
    let period = state.config.sweep_every;
    let mut every = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        tokio::select! {
            _ = every.tick() => match state.sweep().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(deleted = n, "expired invitations deleted"),
                Err(error) => tracing::warn!(%error, "sweep failed"),
            },
            () = shutdown.cancelled() => return,
        }
    }
}
