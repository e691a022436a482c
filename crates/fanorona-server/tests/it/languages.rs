//! The site in Malagasy, French and English, as a browser gets it: the
//! language from the link, else the remembered choice, else
//! `Accept-Language`, else English; each page whole in its language
//! (`<html lang>`, texts, link previews), with its own ETag, and a choice
//! made by a link remembered for the next page.

use crate::common;

use common::{invite_of, start, TestServer};
use reqwest::{header, StatusCode};
use serde_json::{json, Value};

/// The catalog of `lang`, read from its file as the server embeds it.
fn catalog(lang: &str) -> Value {
    let path = format!("{}/../../web/i18n/{lang}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The message `key` of `lang`, as a page writes it in its text.
fn text(lang: &str, key: &str) -> String {
    let text = catalog(lang)[key].as_str().unwrap().to_owned();
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `GET path` with `headers`.
async fn get(server: &TestServer, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = server.http.get(server.url(path));
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.send().await.unwrap()
}

/// The page at `path` and the language it says it is in, checked against
/// its `Content-Language`.
async fn page_lang(server: &TestServer, path: &str, headers: &[(&str, &str)]) -> String {
    let resp = get(server, path, headers).await;
    let said = resp.headers()[header::CONTENT_LANGUAGE]
        .to_str()
        .unwrap()
        .to_owned();
    let page = resp.text().await.unwrap();
    assert!(
        page.contains(&format!("<html lang=\"{said}\">")),
        "{path}: {page}"
    );
    said
}

#[tokio::test]
async fn the_link_wins_then_the_remembered_choice_then_the_browser_then_english() {
    let server = start().await;
    for (path, headers, want) in [
        ("/", vec![], "en"),
        (
            "/",
            vec![("accept-language", "mg-MG,mg;q=0.9,fr;q=0.8")],
            "mg",
        ),
        (
            "/",
            vec![("accept-language", "de-DE, fr;q=0.5, en;q=0.4")],
            "fr",
        ),
        ("/", vec![("accept-language", "de-DE, mg;q=0")], "en"),
        (
            "/rules",
            vec![("cookie", "lang=fr"), ("accept-language", "mg")],
            "fr",
        ),
        ("/rules?lang=mg", vec![("cookie", "lang=fr")], "mg"),
        (
            "/which-rules?lang=xx",
            vec![("accept-language", "fr")],
            "fr",
        ),
        ("/?lang=EN", vec![("accept-language", "fr")], "en"),
    ] {
        assert_eq!(
            page_lang(&server, path, &headers).await,
            want,
            "{path} {headers:?}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn a_language_from_a_link_is_remembered_and_pages_vary_by_language() {
    let server = start().await;
    let resp = get(&server, "/?lang=mg", &[]).await;
    let cookie = resp.headers()[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(cookie.starts_with("lang=mg;"), "{cookie}");
    assert!(cookie.contains("Max-Age=31536000"), "{cookie}");
    let vary = resp.headers()[header::VARY].to_str().unwrap().to_owned();
    for part in ["accept-encoding", "accept-language", "cookie"] {
        assert!(vary.contains(part), "{vary}");
    }
    // No cookie when nothing was chosen; none for a script either.
    let plain = get(&server, "/", &[("accept-language", "fr")]).await;
    assert!(!plain.headers().contains_key(header::SET_COOKIE));
    let script = get(&server, "/js/i18n.js?lang=mg", &[]).await;
    assert!(!script.headers().contains_key(header::SET_COOKIE));
    assert!(!script.headers().contains_key(header::CONTENT_LANGUAGE));
    // Each language is its own body with its own ETag: a browser holding
    // the English page gets the French one whole, not a 304.
    let english = get(&server, "/rules", &[]).await;
    let etag = english.headers()[header::ETAG].to_str().unwrap().to_owned();
    let french = get(
        &server,
        "/rules",
        &[("cookie", "lang=fr"), ("if-none-match", &etag)],
    )
    .await;
    assert_eq!(french.status(), StatusCode::OK);
    assert_ne!(french.headers()[header::ETAG].to_str().unwrap(), etag);
    let again = get(&server, "/rules", &[("if-none-match", &etag)]).await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    server.stop().await;
}

#[tokio::test]
async fn every_page_is_written_in_its_language() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap().to_owned();
    let invite = invite_of(&created).to_owned();
    for lang in ["mg", "fr", "en"] {
        let lang_param = format!("lang={lang}");
        let cases = [
            ("/".to_owned(), "home.pitch"),
            ("/rules".to_owned(), "rules.title"),
            ("/which-rules".to_owned(), "which.title"),
            (format!("/g/{id}"), "game.endTurn"),
            (format!("/g/{id}?invite={invite}"), "invite.join"),
            ("/no/such/page".to_owned(), "missing.h"),
        ];
        for (path, key) in cases {
            let sep = if path.contains('?') { '&' } else { '?' };
            let resp = get(&server, &format!("{path}{sep}{lang_param}"), &[]).await;
            assert_eq!(resp.headers()[header::CONTENT_LANGUAGE], lang, "{path}");
            let page = resp.text().await.unwrap();
            assert!(page.contains(&format!("<html lang=\"{lang}\">")), "{path}");
            assert!(page.contains(&text(lang, key)), "{path} in {lang}: {key}");
            // The switcher marks the page's language, and only it.
            let current = format!("hreflang=\"{lang}\" lang=\"{lang}\" aria-current=\"true\"");
            assert!(page.contains(&current), "{path} in {lang}: {page}");
            assert_eq!(page.matches("aria-current=\"true\"").count(), 1, "{path}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn an_invitation_link_previews_in_its_language() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let link = format!("/g/{id}?invite={}&lang=mg", invite_of(&created));
    // A chat app's preview sends no cookie and often no Accept-Language.
    let page = get(&server, &link, &[("user-agent", "WhatsApp/2.23.20.0")])
        .await
        .text()
        .await
        .unwrap();
    for key in ["og.title", "og.description", "invite.from.white"] {
        let tag = text("mg", key);
        assert!(page.contains(&tag), "{key} not in {page}");
    }
    assert!(
        page.contains("<meta property=\"og:locale\" content=\"mg_MG\""),
        "{page}"
    );
    server.stop().await;
}

#[tokio::test]
async fn the_record_speaks_the_language_asked_and_keeps_its_tags() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    for lang in ["mg", "fr", "en"] {
        let path = format!("/api/games/{id}/record?lang={lang}");
        let record = get(&server, &path, &[]).await.text().await.unwrap();
        let creator = catalog(lang)["record.creator"].as_str().unwrap().to_owned();
        assert!(
            record.contains(&format!("[White \"{creator}\"]")),
            "{record}"
        );
        assert!(record.contains("[Result \"*\"]"), "{record}");
    }
    server.stop().await;
}
