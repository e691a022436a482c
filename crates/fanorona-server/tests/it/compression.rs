//! Compressed answers over real HTTP: the embedded files and pages go out
//! in brotli or gzip when the request takes it, as they are otherwise, and
//! revalidate with the ETag of the coding they were sent in. The JSON API
//! and the WebSocket are never compressed.

use crate::common;

use std::{io::Read, sync::Arc, time::Duration};

use common::{start, start_in, TestServer, Ws, WAIT};
use reqwest::{header, StatusCode};
use serde_json::json;

/// The file `web/{name}` as it is in the repository, except that a page
/// has its partials put in, as the server sends it.
fn web_file(name: &str) -> Vec<u8> {
    let path = format!("{}/../../web/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if !String::from_utf8_lossy(&file).contains("<!-- include ") {
        return file;
    }
    fanorona_server::routes::file(name)
        .unwrap_or_else(|| panic!("{name} is not embedded"))
        .to_vec()
}

/// An answer's status, `Content-Encoding`, `Vary`, `ETag` and raw body.
struct Answer {
    status: StatusCode,
    encoding: Option<String>,
    vary: Option<String>,
    etag: Option<String>,
    body: Vec<u8>,
}

impl Answer {
    /// The body with its content coding undone.
    fn decoded(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self.encoding.as_deref() {
            None => out.clone_from(&self.body),
            Some("gzip") => {
                flate2::read::GzDecoder::new(&self.body[..])
                    .read_to_end(&mut out)
                    .unwrap();
            }
            Some("br") => {
                brotli::Decompressor::new(&self.body[..], 4096)
                    .read_to_end(&mut out)
                    .unwrap();
            }
            Some(other) => panic!("unexpected Content-Encoding {other}"),
        }
        out
    }
}

/// GETs `path` with the given request headers, following no redirect.
async fn get(server: &TestServer, path: &str, headers: &[(header::HeaderName, &str)]) -> Answer {
    let mut req = server.http.get(server.url(path));
    for (name, value) in headers {
        req = req.header(name, *value);
    }
    let resp = tokio::time::timeout(WAIT, req.send())
        .await
        .unwrap()
        .unwrap();
    let text = |name| {
        resp.headers()
            .get(name)
            .map(|v: &header::HeaderValue| v.to_str().unwrap().to_owned())
    };
    Answer {
        status: resp.status(),
        encoding: text(header::CONTENT_ENCODING),
        vary: text(header::VARY),
        etag: text(header::ETAG),
        body: resp.bytes().await.unwrap().to_vec(),
    }
}

/// Waits until the server has compressed its files: until then it sends
/// them as they are, rather than make a request wait.
async fn compressed() {
    tokio::time::timeout(WAIT, fanorona_server::routes::compressed())
        .await
        .expect("the files are compressed in time");
}

fn accepting(value: &str) -> [(header::HeaderName, &str); 1] {
    [(header::ACCEPT_ENCODING, value)]
}

fn assert_varies(what: &str, answer: &Answer) {
    let vary = answer.vary.as_deref().unwrap_or_default().to_lowercase();
    assert!(vary.contains("accept-encoding"), "{what}: Vary is {vary:?}");
}

/// The files of the game page: its styles and scripts (the page itself
/// is made per request, see `tests/it/invite.rs`), and the front page.
const GAME_PAGE_FILES: [&str; 6] = [
    "index.html",
    "css/site.css",
    "css/board.css",
    "js/main.js",
    "js/panel.js",
    "js/render.js",
];

#[tokio::test]
async fn gzip_asked_gives_gzip_that_decodes_to_the_file() {
    let server = start().await;
    compressed().await;
    for name in GAME_PAGE_FILES {
        let answer = get(&server, &format!("/{name}"), &accepting("gzip")).await;
        assert_eq!(answer.status, StatusCode::OK, "{name}");
        assert_eq!(answer.encoding.as_deref(), Some("gzip"), "{name}");
        assert_varies(name, &answer);
        let file = web_file(name);
        assert!(answer.body.len() < file.len(), "{name} did not shrink");
        assert_eq!(answer.decoded(), file, "{name}");
    }
    server.stop().await;
}

#[tokio::test]
async fn brotli_is_preferred_when_the_browser_takes_both() {
    let server = start().await;
    compressed().await;
    let browser = accepting("gzip, deflate, br, zstd");
    for name in GAME_PAGE_FILES {
        let answer = get(&server, &format!("/{name}"), &browser).await;
        assert_eq!(answer.encoding.as_deref(), Some("br"), "{name}");
        assert_eq!(answer.decoded(), web_file(name), "{name}");
        let gzip = get(&server, &format!("/{name}"), &accepting("gzip")).await;
        assert!(answer.body.len() <= gzip.body.len(), "{name}");
    }
    server.stop().await;
}

#[tokio::test]
async fn every_embedded_file_decodes_to_itself_in_every_coding() {
    let server = start().await;
    compressed().await;
    let templates = fanorona_server::routes::TEMPLATES;
    for name in fanorona_server::routes::Web::iter().filter(|n| !templates.contains(&n.as_ref())) {
        for accept in [None, Some("gzip"), Some("br"), Some("gzip, br")] {
            let headers = accept.map(accepting);
            let answer = get(
                &server,
                &format!("/{name}"),
                headers.as_ref().map_or(&[], |h| h),
            )
            .await;
            assert_eq!(answer.status, StatusCode::OK, "{name} {accept:?}");
            assert_varies(&name, &answer);
            if accept.is_none() {
                assert_eq!(answer.encoding, None, "{name}");
            }
            assert_eq!(answer.decoded(), web_file(&name), "{name} {accept:?}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn no_accept_encoding_gets_the_file_as_it_is() {
    let server = start().await;
    compressed().await;
    for name in GAME_PAGE_FILES {
        let answer = get(&server, &format!("/{name}"), &[]).await;
        assert_eq!(answer.status, StatusCode::OK, "{name}");
        assert_eq!(answer.encoding, None, "{name}");
        assert_varies(name, &answer);
        assert_eq!(answer.body, web_file(name), "{name}");
    }
    server.stop().await;
}

#[tokio::test]
async fn refused_or_unnamed_codings_are_not_used() {
    let server = start().await;
    compressed().await;
    for accept in [
        "gzip;q=0",
        "identity",
        "gzip;q=0, br;q=0",
        "deflate",
        "*;q=0",
    ] {
        let answer = get(&server, "/js/panel.js", &accepting(accept)).await;
        assert_eq!(answer.status, StatusCode::OK, "{accept}");
        assert_eq!(answer.encoding, None, "{accept}");
        assert_varies(accept, &answer);
        assert_eq!(answer.body, web_file("js/panel.js"), "{accept}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_compressed_answer_revalidates_with_its_own_etag() {
    let server = start().await;
    compressed().await;
    for coding in ["gzip", "br"] {
        let first = get(&server, "/js/main.js", &accepting(coding)).await;
        assert_eq!(first.encoding.as_deref(), Some(coding));
        let etag = first.etag.clone().expect("an ETag");
        let again = get(
            &server,
            "/js/main.js",
            &[
                (header::ACCEPT_ENCODING, coding),
                (header::IF_NONE_MATCH, &etag),
            ],
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{coding}");
        assert!(again.body.is_empty(), "{coding}");
        assert_eq!(again.etag.as_deref(), Some(etag.as_str()), "{coding}");
        assert_varies(coding, &again);
        // The plain body is other bytes: the compressed body's ETag does
        // not stand for it.
        let plain = get(&server, "/js/main.js", &[(header::IF_NONE_MATCH, &etag)]).await;
        assert_eq!(plain.status, StatusCode::OK, "{coding}");
        assert_eq!(plain.encoding, None, "{coding}");
        assert_ne!(plain.etag, first.etag, "{coding}");
        assert_eq!(plain.body, web_file("js/main.js"), "{coding}");
    }
    server.stop().await;
}

/// A page with `status` that reads `says`: gzip-compressed when the
/// request takes gzip, and the same page as the plain answer.
async fn assert_compressed_page(server: &TestServer, path: &str, status: StatusCode, says: &str) {
    let answer = get(server, path, &accepting("gzip")).await;
    assert_eq!(answer.status, status, "{path}");
    assert_eq!(answer.encoding.as_deref(), Some("gzip"), "{path}");
    assert_varies(path, &answer);
    let plain = get(server, path, &accepting("identity")).await;
    assert_eq!(plain.status, status, "{path}");
    assert_eq!(answer.decoded(), plain.body, "{path}");
    let text = String::from_utf8(plain.body).unwrap();
    assert!(text.contains(says), "{path}: {text}");
    assert!(!text.contains("{{"), "{path} is not filled in");
}

/// A page made for the request (game page, invitation): compressed in
/// each coding asked for, the same page as the plain answer, all filled in.
async fn assert_compressed_rendered(server: &TestServer, path: &str, starts: &str) {
    let plain = get(server, path, &accepting("identity")).await;
    assert_eq!(plain.status, StatusCode::OK, "{path}");
    assert_eq!(plain.encoding, None, "{path}");
    assert_varies(path, &plain);
    let text = String::from_utf8(plain.body.clone()).unwrap();
    assert!(text.contains(starts), "{path}: {text}");
    assert!(!text.contains("{{"), "{path} is not filled in");
    for coding in ["gzip", "br"] {
        let answer = get(server, path, &accepting(coding)).await;
        assert_eq!(answer.status, StatusCode::OK, "{path} {coding}");
        assert_eq!(answer.encoding.as_deref(), Some(coding), "{path}");
        assert_varies(path, &answer);
        assert!(answer.body.len() * 2 < plain.body.len(), "{path} {coding}");
        assert_eq!(answer.decoded(), plain.body, "{path} {coding}");
    }
}

#[tokio::test]
async fn pages_and_error_pages_are_compressed() {
    let server = start().await;
    compressed().await;
    let (id, ..) = server.two_player_game(None).await;
    assert_compressed_rendered(&server, &format!("/g/{id}"), "<main id=\"game\"").await;
    let (open, _) = server.create(json!({ "first": "me" })).await;
    let invite = open["invite_link"].as_str().unwrap();
    let invite = invite.trim_start_matches(&format!("http://{}", server.addr));
    assert_compressed_rendered(&server, invite, "Join the game").await;
    let pages = [
        ("/".to_owned(), StatusCode::OK, "<main"),
        ("/rules".to_owned(), StatusCode::OK, "<main"),
        (
            "/g/NoSuchGame".to_owned(),
            StatusCode::NOT_FOUND,
            ">Not found<",
        ),
        (
            "/no/such/file.js".to_owned(),
            StatusCode::NOT_FOUND,
            ">Not found<",
        ),
        (
            "/message.html".to_owned(),
            StatusCode::NOT_FOUND,
            ">Not found<",
        ),
    ];
    for (path, status, file) in pages {
        assert_compressed_page(&server, &path, status, file).await;
    }
    server.stop().await;
    // Invitations that expire at once: an open game's link is expired.
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir, |c| c.invite_ttl = Duration::ZERO).await;
    compressed().await;
    let (open, _) = server.create(json!({ "first": "me" })).await;
    let path = format!("/g/{}", open["game_id"].as_str().unwrap());
    assert_compressed_page(
        &server,
        &path,
        StatusCode::GONE,
        ">This invitation has expired<",
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn the_api_and_the_websocket_are_not_compressed() {
    let server = start().await;
    compressed().await;
    let (id, white, _) = server.two_player_game(None).await;
    let answer = get(&server, &format!("/api/games/{id}"), &accepting("gzip, br")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.encoding, None);
    let state: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(state["game_id"], id.as_str());
    let created = server
        .http
        .post(server.url("/api/games"))
        .header(header::ACCEPT_ENCODING, "gzip, br")
        .json(&json!({ "first": "me" }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    assert!(!created.headers().contains_key(header::CONTENT_ENCODING));
    let bearer = format!("Bearer {white}");
    let mut ws = Ws::connect_headers(
        &server,
        &id,
        &[("authorization", &bearer), ("accept-encoding", "gzip, br")],
    )
    .await;
    let (_, state) = ws.state_where(|_| true).await;
    assert_eq!(state["game_id"], id.as_str());
    ws.close().await;
    server.stop().await;
}

#[tokio::test]
async fn the_engine_goes_out_compressed_and_named_by_its_content_is_cached_for_good() {
    let server = start().await;
    compressed().await;
    // The name the pages load it by, which scripts/build-wasm.sh writes.
    let module = String::from_utf8(web_file("js/engine-file.js")).unwrap();
    let name = module
        .split_once("ENGINE_FILE = '")
        .and_then(|(_, rest)| rest.split('\'').next())
        .expect("the file's name");
    let (path, version) = name.split_once("?v=").expect("a version in the name");
    assert_eq!(version.len(), 16, "{name}");
    let headers = |resp: &reqwest::Response, name| {
        resp.headers()
            .get(name)
            .map(|v: &header::HeaderValue| v.to_str().unwrap().to_owned())
    };
    let ask = |path: String| server.http.get(server.url(&path)).send();
    let resp = ask(name.to_owned()).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        headers(&resp, header::CONTENT_TYPE).as_deref(),
        Some("application/wasm")
    );
    assert_eq!(
        headers(&resp, header::CACHE_CONTROL).as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    // Any other name revalidates: the file itself, or an older version.
    for other in [path.to_owned(), format!("{path}?v=0123456789abcdef")] {
        let resp = ask(other.clone()).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{other}");
        assert_eq!(
            headers(&resp, header::CACHE_CONTROL).as_deref(),
            Some("no-cache"),
            "{other}"
        );
    }
    // Compressed, to the same bytes.
    let answer = get(&server, name, &accepting("br")).await;
    assert_eq!(answer.encoding.as_deref(), Some("br"));
    let file = web_file("engine/fanorona.wasm");
    assert!(
        answer.body.len() * 2 < file.len(),
        "{} of {}",
        answer.body.len(),
        file.len()
    );
    assert_eq!(answer.decoded(), file);
    server.stop().await;
}
