//! What a reverse proxy or an orchestrator asks of each process: whether
//! it is alive, and whether it can serve games (its database answers).

use std::time::Duration;

use axum::{extract::State, http::StatusCode, response::IntoResponse};

use crate::state::AppState;

/// How long `/readyz` waits for the database: below the one second a
/// probe commonly allows (Kubernetes' default), so that a probe hears
/// `503` rather than its own timeout while the database is down.
const READY_TIMEOUT: Duration = Duration::from_millis(800);

/// `GET /healthz`: the process answers requests.
pub(super) async fn alive() -> impl IntoResponse {
    (StatusCode::OK, "ok\n")
}

/// `GET /readyz`: the database answers within [`READY_TIMEOUT`] and the
/// process is not shutting down; otherwise 503, so that the proxy sends
/// new visitors elsewhere. Losing readiness is logged once, at WARN, and
/// getting it back once, at INFO: not every probe.
pub(super) async fn ready(State(state): State<AppState>) -> impl IntoResponse {
    let hub = &state.hub;
    if hub.shutdown_token().is_cancelled() {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down\n");
    }
    let answered = match tokio::time::timeout(READY_TIMEOUT, hub.store().ready()).await {
        Ok(answered) => answered.map_err(|e| e.to_string()),
        Err(_) => Err(format!("no answer within {READY_TIMEOUT:?}")),
    };
    let changed = state.readiness.changed(answered.is_ok());
    match answered {
        Ok(()) => {
            if changed {
                tracing::info!("ready again: the database answers");
            }
            (StatusCode::OK, "ready\n")
        }
        Err(error) => {
            if changed {
                tracing::warn!(%error, "not ready: the database does not answer");
            }
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the database does not answer\n",
            )
        }
    }
}
