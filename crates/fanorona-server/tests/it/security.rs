//! Security: headers on every answer, cookies, and secrets that never
//! reach anyone but their owner; nothing a client sends comes back as HTML.

use crate::common;

use std::sync::Arc;

use common::{invite_of, start, start_in, Ws};
use reqwest::{header, Method, StatusCode};
use serde_json::json;

/// Checks the security headers of one answer.
fn assert_secured(what: &str, resp: &reqwest::Response, https: bool) {
    let h = resp.headers();
    let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    // The site's own scripts, and its own WebAssembly compiled (the
    // engine): never inline script, never `eval`.
    assert!(
        csp.contains("script-src 'self' 'wasm-unsafe-eval';"),
        "{what}: {csp}"
    );
    assert!(
        !csp.contains("unsafe-inline") && !csp.contains("'unsafe-eval'"),
        "{what}"
    );
    assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{what}");
    assert_eq!(h[header::REFERRER_POLICY], "no-referrer", "{what}");
    assert_eq!(
        h.contains_key(header::STRICT_TRANSPORT_SECURITY),
        https,
        "{what}"
    );
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    for https in [false, true] {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        let server = start_in(dir, |c| {
            if https {
                c.public_url = Some("https://fanorona.test".into());
            }
        })
        .await;
        let (id, ..) = server.two_player_game(None).await;
        let requests = [
            (Method::GET, "/".to_owned(), ""),
            (Method::GET, format!("/g/{id}"), ""),
            (Method::GET, "/g/0000000000".to_owned(), ""),
            (Method::GET, "/js/main.js".to_owned(), ""),
            (Method::GET, "/no/such/file".to_owned(), ""),
            (Method::GET, format!("/api/games/{id}"), ""),
            (Method::GET, "/api/games/0000000000".to_owned(), ""),
            (Method::POST, "/api/games".to_owned(), r#"{"first":"me"}"#),
            (Method::POST, "/api/games".to_owned(), "{bad"),
            (Method::POST, format!("/api/games/{id}/intents"), "{}"),
            (Method::GET, format!("/api/games/{id}/ws"), ""),
        ];
        for (method, path, body) in requests {
            let resp = server
                .http
                .request(method.clone(), server.url(&path))
                .header(header::CONTENT_TYPE, "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            assert_secured(
                &format!("{method} {path} ({})", resp.status()),
                &resp,
                https,
            );
        }
    }
}

#[tokio::test]
async fn seat_cookies_are_http_only_lax_and_secure_over_https() {
    let server = start().await;
    let (_, cookie) = server.create(json!({ "first": "me" })).await;
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert!(!cookie.contains("Secure"), "{cookie}");

    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir, |c| c.public_url = Some("https://fanorona.test".into())).await;
    let (created, cookie) = server.create(json!({ "first": "me" })).await;
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert!(cookie.contains("Secure"), "{cookie}");
    let id = created["game_id"].as_str().unwrap();
    let (_, joined) = server.join(id, invite_of(&created), None).await;
    let joined = joined.unwrap();
    assert!(
        joined.contains("HttpOnly") && joined.contains("Secure"),
        "{joined}"
    );
}

#[tokio::test]
async fn no_stream_but_the_owners_carries_a_seat_secret() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap().to_owned();
    let invite = invite_of(&created).to_owned();
    let white = created["seat"].as_str().unwrap().to_owned();
    let mut spectator = Ws::connect(&server, &id, None).await;
    let mut w = Ws::connect(&server, &id, Some(&white)).await;
    let (joined, _) = server.join(&id, &invite, None).await;
    let black = joined["seat"].as_str().unwrap().to_owned();
    let mut b = Ws::connect(&server, &id, Some(&black)).await;
    let step = json!({ "type": "step", "from": "d3", "to": "e3", "kind": "withdrawal" });
    server.play(&id, &white, step).await;
    server
        .play(&id, &black, json!({ "type": "offer_draw" }))
        .await;
    server
        .play(&id, &white, json!({ "type": "accept_draw" }))
        .await;
    server.play(&id, &white, json!({ "type": "rematch" })).await;
    server.play(&id, &black, json!({ "type": "rematch" })).await;

    let mut streams = Vec::new();
    for socket in [&mut spectator, &mut w, &mut b] {
        let mut seen = String::new();
        loop {
            let text = socket.next_text().await;
            seen.push_str(&text);
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            if !value["next_game"].is_null() {
                break;
            }
        }
        streams.push(seen);
    }
    let public = server.state_text(&id).await;
    let [watching, white_saw, black_saw] = &streams[..] else {
        unreachable!()
    };
    for (what, text, hidden) in [
        ("spectator", watching, vec![&white, &black, &invite]),
        ("public state", &public, vec![&white, &black, &invite]),
        ("white", white_saw, vec![&black, &invite]),
        ("black", black_saw, vec![&white, &invite]),
    ] {
        assert!(text.contains(&id), "{what} saw the game");
        for secret in hidden {
            assert!(!text.contains(secret.as_str()), "{what} saw a secret");
        }
    }
    assert!(white_saw.contains(&white), "white got its own link");
}

#[tokio::test]
async fn nothing_a_client_sends_comes_back_as_html() {
    let server = start().await;
    let (id, white, _) = server.two_player_game(None).await;
    let script = "<script>alert(1)</script>";
    let body = json!({ "type": script }).to_string();
    let resp = server
        .http
        .post(server.url(&format!("/api/games/{id}/intents")))
        .bearer_auth(&white)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    assert_eq!(resp.headers()[header::CONTENT_TYPE], "application/json");
    assert_eq!(resp.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    let mut ws = Ws::connect(&server, &id, Some(&white)).await;
    ws.send(&json!({ "type": script }).to_string()).await;
    let error = ws.error().await;
    assert_eq!(
        error["code"], "unknown_type",
        "a JSON string, for textContent only"
    );
    for path in [
        "/g/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/g/x?seat=%3Cscript%3E&invite=%3Cscript%3E",
    ] {
        let resp = server.http.get(server.url(path)).send().await.unwrap();
        let text = resp.text().await.unwrap();
        assert!(!text.contains("<script>alert"), "{path}");
        assert!(!text.contains("%3Cscript"), "{path}");
    }
}
