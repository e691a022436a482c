//! Every route on one screen.

mod api;
mod assets;
mod files;
mod headers;
mod health;
mod i18n;
mod metrics;
mod pages;
mod position;
mod preview;
mod record;
mod steps;
mod template;

use std::time::Duration;

use axum::{
    extract::DefaultBodyLimit,
    http::{Request, StatusCode},
    middleware,
    routing::{get, post},
    Router,
};
use tower_http::{timeout::TimeoutLayer, trace::TraceLayer};

pub(crate) use self::{assets::compress_all, preview::png as preview_png};
pub use self::{
    assets::compressed,
    files::{file, Web},
    template::TEMPLATES,
};
use crate::{limits::MAX_BODY, state::AppState, ws};

/// How long an HTTP request may take before it is answered with 408.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The whole site: pages, JSON API, WebSocket and embedded assets.
pub(crate) fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(pages::index))
        .route("/g/{id}", get(pages::game))
        .route("/preview.png", get(preview::preview))
        .route("/api/games", post(api::create_game))
        .route("/api/games/{id}", get(api::get_state))
        .route("/api/games/{id}/join", post(api::join_game))
        .route("/api/games/{id}/intents", post(api::post_intent))
        .route("/api/games/{id}/record", get(record::get_record))
        .route("/api/records", post(record::read_record))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api/steps", get(steps::get_steps))
        .route("/metrics", get(metrics::metrics))
        .fallback(assets::static_file)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(
            // Only the path is logged: query strings carry seat secrets.
            TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
                tracing::info_span!("request", method = %req.method(), path = %req.uri().path())
            }),
        )
        // Added after the layers above, so outside them: a proxy asks
        // these every few seconds, and the trace layer logged every failed
        // probe at ERROR, burying the one line `health::ready` writes when
        // readiness is lost. Each answers within its own bound.
        .route("/healthz", get(health::alive))
        .route("/readyz", get(health::ready))
        // Outermost, so even a timeout's answer carries the headers.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            headers::security_headers,
        ))
        .with_state(state)
}
