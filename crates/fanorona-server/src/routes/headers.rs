//! Security headers on every answer: pages, assets, API and errors.

use axum::{
    extract::{Request, State},
    http::{header, HeaderValue},
    middleware::Next,
    response::Response,
};

use crate::state::AppState;

/// The Content-Security-Policy: only the site's own files, no inline script
/// or style, no framing, sockets to the site itself. `'wasm-unsafe-eval'`
/// lets the site's own WebAssembly (the engine, `web/engine/`) be
/// compiled, and nothing else: `eval` stays refused.
pub(crate) const CSP: &str =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
     img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// HSTS for a site served over HTTPS: one year.
const HSTS: &str = "max-age=31536000";

/// Adds the security headers to `next`'s answer.
pub(super) async fn security_headers(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = next.run(request).await;
    let site = state.hub.site();
    let (origin, https) = (&site.origin, site.https);
    let headers = response.headers_mut();
    if let Ok(csp) = HeaderValue::from_str(&csp_for(origin)) {
        headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if https {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
    }
    response
}

/// [`CSP`], naming the site's `wss://` origin too when it is served over
/// HTTPS, for browsers whose `'self'` does not cover WebSockets.
fn csp_for(origin: &str) -> String {
    match origin.strip_prefix("https://") {
        Some(host) => CSP.replace(
            "connect-src 'self'",
            &format!("connect-src 'self' wss://{host}"),
        ),
        None => CSP.to_owned(),
    }
}
