//! The Fanorona web site: pages, a JSON API and one WebSocket per browser
//! tab, over games stored in SQLite or PostgreSQL. See `docs/API.md` for
//! the protocol.
#![warn(missing_docs)]

pub mod clock;
pub mod computer;
pub mod config;
mod conn;
pub mod error;
mod extract;
pub mod game;
pub mod hub;
pub mod ids;
mod limits;
pub mod protocol;
pub mod routes;
mod seat;
pub mod state;
pub mod store;
mod ws;

use std::future::Future;

use axum::Router;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use crate::{config::Config, error::AppError, state::AppState};

/// The whole site as a router.
pub fn app(state: AppState) -> Router {
    routes::router(state)
}

/// Serves the site on `listener` until `shutdown` completes. Then it stops
/// accepting connections, every socket is closed with code 1012 and the
/// reason "server restarting", connections waiting for a request close,
/// and it returns once every game task has finished the write it was doing
/// and every answer in progress is sent, or when `--shutdown-timeout` has
/// passed, dropping whatever is still open.
///
/// # Errors
///
/// None so far: accept errors are logged and retried.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let token = state.hub.shutdown_token();
    let hub = state.hub.clone();
    let bound = state.config.shutdown_timeout;
    tokio::spawn(sweep_every(state.clone(), token.clone()));
    // Several processes on one database: hear what the others store.
    if let Some(changes) = hub.store().changes() {
        tokio::spawn(hub.clone().follow(changes));
    }
    // The pages' files, compressed on a thread that may block; until it
    // is done they go uncompressed.
    tokio::task::spawn_blocking(|| {
        routes::compress_all::<routes::Web>();
        tracing::info!("files compressed");
        routes::preview_png();
    });
    let server = conn::Server::new(&state.config);
    tokio::select! {
        () = server.accept(listener, app(state)) => {}
        () = shutdown => {}
    }
    // The listener is closed (dropped with the accept loop).
    token.cancel();
    server.shut_down();
    let finished = async {
        tokio::join!(server.ended(), hub.stopped());
    };
    if tokio::time::timeout(bound, finished).await.is_err() {
        tracing::warn!(
            ?bound,
            "shutdown timeout: dropping the connections still open"
        );
    }
    server.abort();
    Ok(())
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
