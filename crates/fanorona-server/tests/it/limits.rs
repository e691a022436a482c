//! Limits against abuse: rate limits per address and per socket, sizes,
//! connection counts, idle sockets. Each is answered with a status, an
//! error message or a close frame, and the server goes on serving.

use crate::common;

use std::{sync::Arc, time::Duration};

use common::{durable, start_in, TestServer, Ws, WAIT};
use fanorona_server::Config;
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::json;
use tokio_tungstenite::tungstenite::{
    client::IntoClientRequest, protocol::frame::coding::CloseCode, Message,
};

async fn server(configure: impl FnOnce(&mut Config)) -> TestServer {
    start_in(Arc::new(tempfile::tempdir().unwrap()), |c| {
        c.abandon_after = Duration::from_secs(3600);
        configure(c);
    })
    .await
}

async fn create_from(server: &TestServer, forwarded: Option<&str>) -> (StatusCode, String) {
    let mut req = server
        .http
        .post(server.url("/api/games"))
        .json(&json!({ "first": "me" }));
    if let Some(addr) = forwarded {
        req = req.header("x-forwarded-for", addr);
    }
    let resp = req.send().await.unwrap();
    (resp.status(), resp.text().await.unwrap())
}

#[tokio::test]
async fn game_creation_is_limited_per_address() {
    let server = server(|c| c.create_per_minute = 5).await;
    for _ in 0..5 {
        assert_eq!(create_from(&server, None).await.0, StatusCode::CREATED);
    }
    let (status, body) = create_from(&server, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(body.contains("\"code\":\"rate_limited\""), "{body}");
    // Without a trusted proxy header, a forged one changes nothing.
    let (status, _) = create_from(&server, Some("198.51.100.1")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn behind_a_proxy_the_trusted_header_names_the_client() {
    let server = server(|c| {
        c.create_per_minute = 1;
        c.trusted_proxy_header = Some("x-forwarded-for".into());
    })
    .await;
    let one = Some("198.51.100.1");
    assert_eq!(create_from(&server, one).await.0, StatusCode::CREATED);
    assert_eq!(
        create_from(&server, one).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    // The proxy appends the real address last; earlier ones are claims.
    let other = Some("198.51.100.1, 203.0.113.9");
    assert_eq!(create_from(&server, other).await.0, StatusCode::CREATED);
}

#[tokio::test]
async fn oversized_bodies_get_413() {
    let server = server(|_| {}).await;
    let (id, white, _) = server.two_player_game(None).await;
    let huge = format!(r#"{{"first":"me","position":"{}"}}"#, "x".repeat(20_000));
    let (status, error) = server.post("/api/games", &huge, None).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large"))
    );
    let path = format!("/api/games/{id}/intents");
    let (status, error) = server.post(&path, &huge, Some(&white)).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("too_large"))
    );
}

#[tokio::test]
async fn bodies_not_declared_as_json_get_415() {
    let server = server(|_| {}).await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let invite = common::invite_of(&created);
    let white = created["seat"].as_str().unwrap();
    let requests = [
        (
            "/api/games".to_owned(),
            r#"{"first":"me"}"#.to_owned(),
            None,
        ),
        (
            format!("/api/games/{id}/join"),
            json!({ "invite": invite }).to_string(),
            None,
        ),
        (
            format!("/api/games/{id}/intents"),
            r#"{"type":"resign"}"#.to_owned(),
            Some(white),
        ),
    ];
    let post = |path: &str, body: &str, bearer: Option<&str>| {
        let req = server.http.post(server.url(path)).body(body.to_owned());
        match bearer {
            Some(secret) => req.bearer_auth(secret),
            None => req,
        }
    };
    for (path, body, bearer) in &requests {
        for content_type in [
            None,
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
            Some("application/jsonp"),
        ] {
            let mut req = post(path, body, *bearer);
            if let Some(t) = content_type {
                req = req.header("content-type", t);
            }
            let resp = req.send().await.unwrap();
            assert_eq!(
                resp.status(),
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{path} {content_type:?}"
            );
            let error: serde_json::Value = resp.json().await.unwrap();
            assert_eq!(error["code"], "unsupported_media_type", "{path}");
        }
    }
    assert!(
        server.state(id).await["players"]["black"]["joined"] == false,
        "nothing was joined"
    );
    // Parameters and capitals are fine.
    for (path, body, bearer) in &requests {
        let resp = post(path, body, *bearer)
            .header("content-type", "Application/JSON; charset=utf-8")
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_success(), "{path}: {}", resp.status());
    }
    assert_eq!(server.state(id).await["result"]["reason"], "resignation");
}

#[tokio::test]
async fn a_body_announced_too_large_gets_413_at_once() {
    let server = server(|_| {}).await;
    let (id, white, _) = server.two_player_game(None).await;
    for path in [
        "/api/games".to_owned(),
        format!("/api/games/{id}/join"),
        format!("/api/games/{id}/intents"),
    ] {
        // The body is announced but never sent: the answer must not wait
        // for it (the request timeout is 30 s).
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Authorization: Bearer {white}\r\nContent-Length: 1000000",
            server.addr
        );
        let (_tcp, status) = tokio::time::timeout(
            Duration::from_secs(1),
            common::raw::request_head(&server, &head),
        )
        .await
        .expect("answered within a second");
        assert_eq!(status, 413, "{path}");
    }
}

/// The close frame a socket ends with.
async fn close_frame(ws: Ws) -> Option<(CloseCode, String)> {
    let mut raw = ws.into_inner();
    tokio::time::timeout(WAIT, async {
        while let Some(Ok(message)) = raw.next().await {
            if let Message::Close(frame) = message {
                return frame.map(|f| (f.code, f.reason.to_string()));
            }
        }
        None
    })
    .await
    .expect("the socket ends in time")
}

#[tokio::test]
async fn oversized_messages_close_the_socket_with_1009() {
    let server = server(|_| {}).await;
    let (id, white, _) = server.two_player_game(None).await;
    let before = server.state_text(&id).await;
    let mut ws = Ws::connect(&server, &id, Some(&white)).await;
    ws.next().await;
    ws.send(&format!(
        r#"{{"type":"resign","pad":"{}"}}"#,
        "x".repeat(8_000)
    ))
    .await;
    let frame = close_frame(ws).await;
    assert_eq!(frame, Some((CloseCode::Size, "message too large".into())));

    let mut ws = Ws::connect(&server, &id, Some(&white)).await;
    ws.next().await;
    let mut raw = ws.into_inner();
    let _ = raw.send(Message::text("x".repeat(100_000))).await;
    tokio::time::timeout(WAIT, async { while let Some(Ok(_)) = raw.next().await {} })
        .await
        .expect("the server drops a connection sending a huge frame");
    assert_eq!(durable(&server.state_text(&id).await), durable(&before));
}

#[tokio::test]
async fn floods_of_intents_are_refused_not_played() {
    let server = server(|c| c.intents_per_second = 2).await;
    let (id, white, _) = server.two_player_game(None).await;
    let mut ws = Ws::connect(&server, &id, Some(&white)).await;
    for _ in 0..20 {
        ws.send(r#"{"type":"accept_draw"}"#).await;
    }
    let mut codes = Vec::new();
    while codes.len() < 20 {
        codes.push(ws.error().await["code"].as_str().unwrap().to_owned());
    }
    assert!(codes.iter().any(|c| c == "rate_limited"), "{codes:?}");
    assert!(codes.iter().any(|c| c == "no_draw_offer"), "{codes:?}");
    // The socket is still open and served.
    ws.send("[]").await;
    assert_eq!(ws.error().await["code"], "rate_limited");
    let (status, error) = server
        .intent(&id, &white, json!({ "type": "accept_draw" }))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{error}");
}

#[tokio::test]
async fn connections_per_game_are_limited_per_address() {
    let server = server(|c| c.sockets_per_game = 2).await;
    let (id, ..) = server.two_player_game(None).await;
    let _one = Ws::connect(&server, &id, None).await;
    let _two = Ws::connect(&server, &id, None).await;
    let url = format!("ws://{}/api/games/{id}/ws", server.addr);
    let refused = tokio_tungstenite::connect_async(url.into_client_request().unwrap()).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
        }
        other => panic!("expected 429, got {other:?}"),
    }
    let (other, ..) = server.two_player_game(None).await;
    Ws::connect(&server, &other, None).await.next().await;
}

#[tokio::test]
async fn an_idle_socket_is_closed() {
    let server = server(|c| {
        c.socket_idle = Duration::from_millis(100);
        c.ping_every = Duration::from_secs(3600);
    })
    .await;
    let (id, ..) = server.two_player_game(None).await;
    let ws = Ws::connect(&server, &id, None).await;
    let frame = close_frame(ws).await;
    assert_eq!(frame, Some((CloseCode::Away, "idle timeout".into())));
}

#[tokio::test]
async fn pongs_keep_a_live_socket_open() {
    let server = server(|c| {
        c.socket_idle = Duration::from_millis(150);
        c.ping_every = Duration::from_millis(10);
    })
    .await;
    let (id, ..) = server.two_player_game(None).await;
    let mut raw = Ws::connect(&server, &id, None).await.into_inner();
    // The client answers each ping while reading (tungstenite does so by
    // itself): forty pings span well over the idle limit.
    let mut pings = 0;
    while pings < 40 {
        let message = tokio::time::timeout(WAIT, raw.next()).await.unwrap();
        match message {
            Some(Ok(Message::Ping(_))) => pings += 1,
            Some(Ok(Message::Close(frame))) => panic!("closed: {frame:?}"),
            Some(Ok(_)) => {}
            other => panic!("socket ended: {other:?}"),
        }
    }
}

#[tokio::test]
async fn binary_frames_close_the_socket_with_1003_and_change_nothing() {
    let server = server(|_| {}).await;
    let (id, white, _) = server.two_player_game(None).await;
    let before = server.state_text(&id).await;
    let mut raw = Ws::connect(&server, &id, Some(&white)).await.into_inner();
    raw.send(Message::binary(br#"{"type":"resign"}"#.to_vec()))
        .await
        .unwrap();
    let frame = loop {
        match raw.next().await {
            Some(Ok(Message::Close(frame))) => break frame.expect("a close code"),
            Some(Ok(Message::Text(text))) => {
                let value: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_ne!(value["type"], "error", "{value}");
            }
            Some(Ok(_)) => {}
            other => panic!("the socket ended without a close frame: {other:?}"),
        }
    };
    assert_eq!(u16::from(frame.code), 1003);
    assert_eq!(frame.reason.as_str(), "binary frames are not accepted");
    assert_eq!(durable(&server.state_text(&id).await), durable(&before));
}

#[tokio::test]
async fn floods_of_http_intents_get_429() {
    let server = server(|c| c.intents_per_second = 1).await;
    let (id, white, _) = server.two_player_game(None).await;
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let (status, _) = server
            .intent(&id, &white, json!({ "type": "accept_draw" }))
            .await;
        statuses.push(status);
    }
    assert!(statuses.contains(&StatusCode::CONFLICT), "{statuses:?}");
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
}
