//! `GET /metrics`: the server's figures for a monitoring system, in the
//! OpenMetrics text format (Prometheus reads it): for now the computer's
//! search threads, their queue and how long people wait for them.

use axum::{extract::State, http::header, response::IntoResponse};

use crate::hub::Hub;

/// The content type of the OpenMetrics text format.
const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// `GET /metrics`.
pub(super) async fn metrics(State(hub): State<Hub>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, OPENMETRICS)], hub.metrics())
}
