//! What a reverse proxy or an orchestrator asks of each process: whether
//! it is alive, and whether it can serve games (its database answers).

use axum::{extract::State, http::StatusCode, response::IntoResponse};

use crate::hub::Hub;

/// `GET /healthz`: the process answers requests.
pub(super) async fn alive() -> impl IntoResponse {
    (StatusCode::OK, "ok\n")
}

/// `GET /readyz`: the database answers and the process is not shutting
/// down; otherwise 503, so that the proxy sends new visitors elsewhere.
pub(super) async fn ready(State(hub): State<Hub>) -> impl IntoResponse {
    if hub.shutdown_token().is_cancelled() {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down\n");
    }
    match hub.store().ready().await {
        Ok(()) => (StatusCode::OK, "ready\n"),
        Err(error) => {
            tracing::warn!(%error, "not ready: the database does not answer");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the database does not answer\n",
            )
        }
    }
}
