//! The files of `web/` served: each with its content type, an ETag from
//! its SHA-256, and a brotli or gzip body when the request's
//! `Accept-Encoding` takes one.

use std::{
    collections::HashMap,
    io::Write,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, LazyLock, Mutex, OnceLock, PoisonError,
    },
};

use axum::{
    body::Bytes,
    http::{header, HeaderMap, HeaderValue, StatusCode, Uri},
    response::{IntoResponse, Response},
};
use tokio::sync::watch;

use super::{
    files::{File, Folder, Web},
    i18n::Choice,
    template::Message,
};

/// Files smaller than this go out as they are: compressing them saves a
/// few bytes at most, less than a response header.
const MIN_COMPRESSED_SIZE: usize = 256;

/// Every path not routed elsewhere: a file of `web/`, or 404 (also for
/// the templates, which only their routes fill in and serve).
pub(super) async fn static_file(uri: Uri, choice: Choice, headers: HeaderMap) -> Response {
    if super::template::is_template(uri.path()) {
        return page_with_status(Message::Missing, StatusCode::NOT_FOUND, choice, &headers);
    }
    let mut response = respond::<Web>(uri.path(), choice, &headers);
    if versioned(&uri, &response) {
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
    }
    response
}

/// Whether the request names the file's content: a query `v=` with the
/// first 16 hex digits of its SHA-256, as the pages ask for the engine
/// (`scripts/build-wasm.sh` writes the name). Such an answer never
/// changes, so it may be cached for a year without asking again; any other
/// `v` (an older file's) gets the current file, revalidated as usual.
fn versioned(uri: &Uri, response: &Response) -> bool {
    let Some(version) = uri.query().and_then(|q| q.strip_prefix("v=")) else {
        return false;
    };
    let etag = response.headers().get(header::ETAG);
    version.len() == 16
        && version.bytes().all(|b| b.is_ascii_hexdigit())
        && etag
            .and_then(|e| e.to_str().ok())
            .is_some_and(|e| e.trim_start_matches('"').starts_with(version))
}

/// Answers a request for `path` from the files of `E`: `/` and paths
/// ending in `/` mean `index.html`, and `/rules` may stand for `rules.html`.
/// The body is compressed when `Accept-Encoding` allows it, and a matching
/// `If-None-Match` gets 304. A page goes in the language of `choice`.
pub(crate) fn respond<E: Folder>(path: &str, choice: Choice, headers: &HeaderMap) -> Response {
    let mut name = path.trim_start_matches('/').to_owned();
    if name.is_empty() || name.ends_with('/') {
        name.push_str("index.html");
    }
    let files = E::files();
    let last = name.rsplit('/').next().unwrap_or_default();
    if !last.contains('.') && files.get(&name).is_none() {
        name.push_str(".html");
    }
    let Some(file) = files.page(&name, choice.lang) else {
        return page_with_status(Message::Missing, StatusCode::NOT_FOUND, choice, headers);
    };
    let (coding, body) = encode(file, headers);
    let etag = etag(file, coding);
    let mut response = if matches_etag(headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        encoded_response(file, coding, body)
    };
    let out = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, value);
    }
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if name.ends_with(".html") {
        choice.mark(out);
    }
    response
}

/// Serves the page that explains `page` with `status` and no caching,
/// compressed as `headers` allow. Falls back to a line of text when the
/// template is not embedded.
pub(super) fn page_with_status(
    page: Message,
    status: StatusCode,
    choice: Choice,
    headers: &HeaderMap,
) -> Response {
    let Some(html) = super::template::message_page(page, choice.lang) else {
        return (status, status.canonical_reason().unwrap_or("error")).into_response();
    };
    let mut response = rendered_page(html, choice, headers);
    *response.status_mut() = status;
    response
}

/// Sends `html`, a page made for this request, compressed as `headers`
/// allow, with `Cache-Control: no-store`: such a page may depend on the
/// request's link or cookie, so no cache may keep it. It is in the
/// language of `choice`.
pub(super) fn rendered_page(html: String, choice: Choice, headers: &HeaderMap) -> Response {
    let plain = Bytes::from(html);
    let (coding, body) = encode_now(&plain, headers);
    let mime = "text/html; charset=utf-8";
    let mut response = ([(header::CONTENT_TYPE, mime)], body).into_response();
    let out = response.headers_mut();
    if let Some(token) = coding.token() {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static(token));
    }
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    choice.mark(out);
    response
}

/// A 200 answer with `body`, the file's content type and, for a
/// compressed body, its `Content-Encoding`.
fn encoded_response(file: &File, coding: Coding, body: Bytes) -> Response {
    let mime = file.mime.clone();
    let mut response = ([(header::CONTENT_TYPE, mime)], body).into_response();
    if let Some(token) = coding.token() {
        response
            .headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static(token));
    }
    response
}

/// The file's ETag: the first half of its SHA-256, and the coding of the
/// body. Each coding has its own strong ETag rather than one weak ETag for
/// all: a strong ETag names exact bytes, and the gzip, brotli and plain
/// bodies are different bytes, so a cache or a range request must never
/// take one for another. The browser sends back the ETag of the body it
/// holds, which matches only an answer in the same coding.
fn etag(file: &File, coding: Coding) -> String {
    let hex: String = file.hash[..16].iter().map(|b| format!("{b:02x}")).collect();
    match coding.token() {
        Some(token) => format!("\"{hex}-{token}\""),
        None => format!("\"{hex}\""),
    }
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

// ---- content codings ------------------------------------------------------

/// A content coding of a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    Brotli,
    Gzip,
    Identity,
}

impl Coding {
    /// The codings in the order the server prefers them when the request
    /// weighs them the same: brotli is the smaller.
    const PREFERRED: [Coding; 3] = [Coding::Brotli, Coding::Gzip, Coding::Identity];

    /// The `Content-Encoding` token; none for the plain body.
    fn token(self) -> Option<&'static str> {
        match self {
            Coding::Brotli => Some("br"),
            Coding::Gzip => Some("gzip"),
            Coding::Identity => None,
        }
    }
}

/// The codings `Accept-Encoding` allows, best first, each with its weight
/// (RFC 9110 §12.5.3). A coding not named takes the weight of `*`, or is
/// refused without one. The plain body is acceptable unless refused by
/// name or by `*;q=0`; when not named, it comes after every named coding.
fn accepted(headers: &HeaderMap) -> Vec<Coding> {
    let mut named: HashMap<String, f32> = HashMap::new();
    let entries = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    for entry in entries {
        let mut parts = entry.split(';');
        let token = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        if token.is_empty() {
            continue;
        }
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        named.insert(token, q);
    }
    let star = named.get("*").copied();
    let weight = |coding: Coding| -> f32 {
        let by_name = match coding {
            Coding::Brotli => named.get("br"),
            Coding::Gzip => named.get("gzip").or_else(|| named.get("x-gzip")),
            Coding::Identity => named.get("identity"),
        };
        match (by_name, coding) {
            (Some(q), _) => *q,
            // Acceptable, but after any coding the request names.
            (None, Coding::Identity) => star.unwrap_or(f32::MIN_POSITIVE),
            (None, _) => star.unwrap_or(0.0),
        }
    };
    let mut codings: Vec<(Coding, f32)> = Coding::PREFERRED
        .into_iter()
        .map(|c| (c, weight(c)))
        .filter(|&(_, q)| q > 0.0)
        .collect();
    // A stable sort keeps the server's order among equal weights.
    codings.sort_by(|a, b| b.1.total_cmp(&a.1));
    codings.into_iter().map(|(c, _)| c).collect()
}

/// The body to send for `file`: the first coding `headers` accept whose
/// compressed copy is ready, else the plain bytes. A request never waits
/// for compression (brotli at its best quality takes up to tens of
/// milliseconds a file, on an async worker): until the start-up task
/// ([`compress_all`]) has made the copies, the file goes as it is, and a
/// file it has not reached yet is compressed on a blocking thread.
fn encode(file: &File, headers: &HeaderMap) -> (Coding, Bytes) {
    if !compressible(file) {
        return (Coding::Identity, file.data.clone());
    }
    let forms = forms_of(file);
    for coding in accepted(headers) {
        if coding == Coding::Identity {
            break;
        }
        if let Some(body) = forms.ready(coding) {
            return (coding, body);
        }
    }
    if !forms.complete() {
        compress_later(forms, file.data.clone());
    }
    (Coding::Identity, file.data.clone())
}

/// Makes the compressed copies of `data` on a thread that may block, once
/// per file, unless no runtime runs.
fn compress_later(forms: Arc<Encodings>, data: Bytes) {
    if forms.started.swap(true, Ordering::AcqRel) {
        return;
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        forms.started.store(false, Ordering::Release);
        return;
    };
    runtime.spawn_blocking(move || {
        for coding in [Coding::Brotli, Coding::Gzip] {
            forms.get(coding, &data);
        }
    });
}

/// Set once [`compress_all`] has made every copy.
static COMPRESSED: LazyLock<watch::Sender<bool>> = LazyLock::new(|| watch::Sender::new(false));

/// Completes once the start-up compression (`compress_all`) has finished:
/// from then on, every embedded file goes compressed to a client that
/// takes it.
pub async fn compressed() {
    let mut ready = COMPRESSED.subscribe();
    // The sender is a static, never dropped: waiting cannot fail.
    let _never_closed = ready.wait_for(|done| *done).await;
}

/// The body to send for `data`, made for one request: compressed now, in
/// the first coding `headers` accept, at a quick level, else the plain
/// bytes.
fn encode_now(data: &Bytes, headers: &HeaderMap) -> (Coding, Bytes) {
    if data.len() < MIN_COMPRESSED_SIZE {
        return (Coding::Identity, data.clone());
    }
    for coding in accepted(headers) {
        let compressed = match coding {
            Coding::Brotli => brotli(data, QUICK_BROTLI),
            Coding::Gzip => gzip(data, flate2::Compression::default()),
            Coding::Identity => break,
        };
        match compressed {
            Ok(out) if shrinks(data.len(), out.len()) => return (coding, Bytes::from(out)),
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, ?coding, "cannot compress a page"),
        }
    }
    (Coding::Identity, data.clone())
}

/// The brotli quality of pages made for one request. On the 8,778-byte
/// game page (brotli built optimised, as in the tests): quality 4 gives
/// 2,318 bytes in 1.5 ms, as small as gzip's best (2,336); quality 5 saves
/// 171 bytes more but takes 7.4 ms, and quality 11 1,920 bytes in 48 ms.
const QUICK_BROTLI: i32 = 4;

/// Compresses every file of `E` in every coding now; requests
/// get the plain files until then (see [`compressed`]). Blocks: run it off
/// the async workers.
pub(crate) fn compress_all<E: Folder>() {
    for (_, file) in E::files().iter() {
        if compressible(file) {
            let forms = forms_of(file);
            for coding in [Coding::Brotli, Coding::Gzip] {
                forms.get(coding, &file.data);
            }
        }
    }
    COMPRESSED.send_replace(true);
}

/// Whether a file is worth compressing: text or WebAssembly of some size.
/// Images other than SVG, fonts and archives are compressed already.
fn compressible(file: &File) -> bool {
    let mime = &file.mime;
    let text = mime.starts_with("text/")
        || mime.contains("javascript")
        || mime.contains("json")
        || mime.contains("xml")
        || mime == "application/wasm";
    text && file.data.len() >= MIN_COMPRESSED_SIZE
}

/// The compressed bodies of one file, made once off the async workers and
/// kept for the life of the process; `None` when that coding does not
/// make the file smaller.
#[derive(Debug, Default)]
struct Encodings {
    brotli: OnceLock<Option<Bytes>>,
    gzip: OnceLock<Option<Bytes>>,
    /// A blocking task making them has been started by a request.
    started: AtomicBool,
}

impl Encodings {
    /// The body in `coding` if it has been made and is smaller; never
    /// compresses.
    fn ready(&self, coding: Coding) -> Option<Bytes> {
        match coding {
            Coding::Brotli => self.brotli.get().cloned().flatten(),
            Coding::Gzip => self.gzip.get().cloned().flatten(),
            Coding::Identity => None,
        }
    }

    /// Whether every coding has been tried.
    fn complete(&self) -> bool {
        self.brotli.get().is_some() && self.gzip.get().is_some()
    }

    /// The body of `data` in `coding`, compressing it on first use: blocks.
    fn get(&self, coding: Coding, data: &[u8]) -> Option<Bytes> {
        let (cell, compress): (_, Compressor) = match coding {
            Coding::Brotli => (&self.brotli, brotli_best),
            Coding::Gzip => (&self.gzip, gzip_best),
            Coding::Identity => return None,
        };
        cell.get_or_init(|| match compress(data) {
            Ok(out) if shrinks(data.len(), out.len()) => Some(Bytes::from(out)),
            Ok(_) => None,
            Err(error) => {
                tracing::warn!(%error, ?coding, "cannot compress an embedded file");
                None
            }
        })
        .clone()
    }
}

/// A function that compresses bytes in one coding.
type Compressor = fn(&[u8]) -> std::io::Result<Vec<u8>>;

/// The compressed bodies of every file served so far, by the SHA-256 of
/// its content (so `/rules` and `/rules.html` share theirs).
static FORMS: LazyLock<Mutex<HashMap<[u8; 32], Arc<Encodings>>>> = LazyLock::new(Mutex::default);

/// The compressed bodies of `file`. The map is locked only to find them:
/// the compression itself runs outside it, once per file and coding.
fn forms_of(file: &File) -> Arc<Encodings> {
    let mut forms = FORMS.lock().unwrap_or_else(PoisonError::into_inner);
    forms.entry(file.hash).or_default().clone()
}

/// Whether a compressed body is worth its coding: a tenth smaller at least.
fn shrinks(plain: usize, compressed: usize) -> bool {
    compressed.saturating_add(plain / 10) <= plain
}

/// Brotli at its best quality: slow, but done once.
fn brotli_best(data: &[u8]) -> std::io::Result<Vec<u8>> {
    brotli(data, 11)
}

/// Brotli at `quality`. The window is the smallest that holds the whole
/// file (a window of `2^lgwin - 16` bytes, 2^10 to 2^22), which
/// compresses as well as a larger one in less memory.
fn brotli(data: &[u8], quality: i32) -> std::io::Result<Vec<u8>> {
    let bits = usize::BITS - data.len().saturating_add(16).leading_zeros();
    let params = brotli::enc::BrotliEncoderParams {
        quality,
        lgwin: i32::try_from(bits.clamp(10, 22)).unwrap_or(22),
        size_hint: data.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(data.len() / 3);
    brotli::BrotliCompress(&mut &data[..], &mut out, &params)?;
    Ok(out)
}

/// Gzip at level 9: slow, but done once.
fn gzip_best(data: &[u8]) -> std::io::Result<Vec<u8>> {
    gzip(data, flate2::Compression::best())
}

/// Gzip at `level`.
fn gzip(data: &[u8], level: flate2::Compression) -> std::io::Result<Vec<u8>> {
    let out = Vec::with_capacity(data.len() / 3);
    let mut encoder = flate2::write::GzEncoder::new(out, level);
    encoder.write_all(data)?;
    encoder.finish()
}

#[cfg(test)]
mod tests {
    use rust_embed::RustEmbed;

    use super::*;
    use crate::routes::files::Files;

    #[derive(RustEmbed)]
    #[folder = "tests/fixtures/web/"]
    #[exclude = "test/**"]
    struct Fixture;

    impl Folder for Fixture {
        fn files() -> &'static Files {
            static FILES: LazyLock<Files> = LazyLock::new(Files::load::<Fixture, Fixture>);
            &FILES
        }
    }

    fn get(path: &str, headers: &HeaderMap) -> Response {
        respond::<Fixture>(path, Choice::of(None, headers), headers)
    }

    fn content_type(r: &Response) -> &str {
        r.headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }

    #[test]
    fn compress_all_prepares_every_compressible_file() {
        compress_all::<Web>();
        let mut prepared = 0;
        for (name, file) in Web::files().iter() {
            let forms = forms_of(file);
            let done = forms.brotli.get().is_some() && forms.gzip.get().is_some();
            assert_eq!(done, compressible(file), "{name}");
            prepared += usize::from(done);
        }
        assert!(prepared > 5, "{prepared} files compressed");
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
        assert!(Fixture::files()
            .iter()
            .all(|(name, _)| !name.starts_with("test/")));
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

    fn accept(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn accept_encoding_orders_the_codings_by_weight() {
        use Coding::{Brotli, Gzip, Identity};
        assert_eq!(accepted(&HeaderMap::new()), [Identity]);
        assert_eq!(
            accepted(&accept("gzip, deflate, br, zstd")),
            [Brotli, Gzip, Identity]
        );
        assert_eq!(accepted(&accept("gzip")), [Gzip, Identity]);
        assert_eq!(
            accepted(&accept("GZIP;q=0.5, br;q=0.8")),
            [Brotli, Gzip, Identity]
        );
        assert_eq!(accepted(&accept("gzip;q=0.5, identity")), [Identity, Gzip]);
        assert_eq!(accepted(&accept("gzip;q=0, br;q=0")), [Identity]);
        assert_eq!(accepted(&accept("identity")), [Identity]);
        assert_eq!(accepted(&accept("*")), [Brotli, Gzip, Identity]);
        assert_eq!(accepted(&accept("*;q=0, gzip")), [Gzip]);
        assert_eq!(accepted(&accept("br;q=0, *")), [Gzip, Identity]);
    }

    #[test]
    fn each_coding_has_its_own_etag() {
        let file = Web::files().get("js/panel.js").expect("an embedded file");
        let tags = Coding::PREFERRED.map(|c| etag(file, c));
        assert!(tags[0].ends_with("-br\"") && tags[1].ends_with("-gzip\""));
        assert_ne!(tags[0], tags[2]);
        assert_ne!(tags[1], tags[2]);
    }

    #[test]
    fn tiny_files_and_images_are_not_compressed() {
        // Files go plain until compressed at start: compress them first.
        compress_all::<Web>();
        let any = accept("gzip, br");
        let tiny = get("/css/site.css", &any);
        assert!(!tiny.headers().contains_key(header::CONTENT_ENCODING));
        let big = respond::<Web>("/js/panel.js", Choice::of(None, &any), &any);
        assert_eq!(big.headers()[header::CONTENT_ENCODING], "br");
        assert!(!shrinks(1000, 950));
        assert!(shrinks(1000, 300));
    }
}
