//! The files of `web/`, embedded in the binary (without `web/test/`), with
//! their content type and an ETag from their SHA-256.

use axum::{
    http::{header, HeaderMap, HeaderValue, StatusCode, Uri},
    response::{IntoResponse, Response},
};
use rust_embed::RustEmbed;

/// The site's files, from `web/` at the repository root.
#[derive(Debug, RustEmbed)]
#[folder = "../../web/"]
#[exclude = "test/**"]
#[allow_missing = true]
pub struct Web;

/// Every path not routed elsewhere: a file of `web/`, or 404.
pub(super) async fn static_file(uri: Uri, headers: HeaderMap) -> Response {
    respond::<Web>(uri.path(), &headers)
}

/// Answers a request for `path` from the embedded files `E`: `/` and paths
/// ending in `/` mean `index.html`, and `/rules` may stand for `rules.html`.
/// A matching `If-None-Match` gets 304.
pub fn respond<E: RustEmbed>(path: &str, headers: &HeaderMap) -> Response {
    let mut name = path.trim_start_matches('/').to_owned();
    if name.is_empty() || name.ends_with('/') {
        name.push_str("index.html");
    }
    let file = E::get(&name).or_else(|| {
        let last = name.rsplit('/').next().unwrap_or_default();
        (!last.contains('.'))
            .then(|| E::get(&format!("{name}.html")))
            .flatten()
    });
    let Some(file) = file else {
        return page_with_status::<E>("not-found.html", StatusCode::NOT_FOUND);
    };
    let hash = file.metadata.sha256_hash();
    let etag = format!(
        "\"{}\"",
        hash[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let mime = file.metadata.mimetype().to_owned();
    let mut response = if matches_etag(headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, mime)], file.data).into_response()
    };
    let out = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, value);
    }
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Serves the page `name` with `status` and no caching: the pages that
/// explain a link that leads nowhere. Falls back to a line of text when the
/// page is not embedded.
pub(super) fn page_with_status<E: RustEmbed>(name: &str, status: StatusCode) -> Response {
    let Some(file) = E::get(name) else {
        return (status, status.canonical_reason().unwrap_or("error")).into_response();
    };
    let mime = file.metadata.mimetype().to_owned();
    (
        status,
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, String::from("no-store")),
        ],
        file.data,
    )
        .into_response()
}

fn matches_etag(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| {
            let tag = tag.trim();
            tag == "*" || tag == etag || tag.strip_prefix("W/") == Some(etag)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(RustEmbed)]
    #[folder = "tests/fixtures/web/"]
    #[exclude = "test/**"]
    struct Fixture;

    fn get(path: &str, headers: &HeaderMap) -> Response {
        respond::<Fixture>(path, headers)
    }

    fn content_type(r: &Response) -> &str {
        r.headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }

    #[test]
    fn files_are_served_with_their_content_type() {
        let none = HeaderMap::new();
        let index = get("/", &none);
        assert_eq!(index.status(), StatusCode::OK);
        assert!(content_type(&index).starts_with("text/html"));
        assert!(content_type(&get("/css/site.css", &none)).starts_with("text/css"));
        assert!(content_type(&get("/js/app.js", &none)).contains("javascript"));
        assert_eq!(get("/rules", &none).status(), StatusCode::OK);
        assert_eq!(get("/missing.js", &none).status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn test_files_are_not_embedded() {
        let none = HeaderMap::new();
        assert_eq!(
            get("/test/unit/secret.test.js", &none).status(),
            StatusCode::NOT_FOUND
        );
        assert!(Fixture::iter().all(|name| !name.starts_with("test/")));
    }

    #[test]
    fn a_matching_etag_gets_not_modified() {
        let first = get("/css/site.css", &HeaderMap::new());
        let etag = first.headers().get(header::ETAG).cloned().expect("an etag");
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, etag);
        assert_eq!(
            get("/css/site.css", &headers).status(),
            StatusCode::NOT_MODIFIED
        );
        let mut other = HeaderMap::new();
        other.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"nope\""));
        assert_eq!(get("/css/site.css", &other).status(), StatusCode::OK);
    }
}
