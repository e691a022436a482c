//! A write that fails is an error to its sender, never a silent success,
//! and what the server holds in memory stays what the store holds. The
//! server stops cleanly: sockets are told it is restarting. A database
//! that cannot be reached is said so at once: `503` with `Retry-After`,
//! and sockets closed with 1013 "database unavailable".

use crate::common;

use std::{
    sync::{atomic::Ordering, Arc},
    time::{Duration, Instant},
};

use common::{
    doubles::ControlledStore, outage::Outage, postgres::Schema, start_with_store, TestServer, Ws,
    WAIT,
};
use fanorona_server::store::{self, SqliteStore};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{protocol::CloseFrame, Message};

fn durable(text: &str) -> Value {
    let mut state: Value = serde_json::from_str(text).unwrap();
    let object = state.as_object_mut().unwrap();
    for volatile in ["version", "players", "abandoned", "watching"] {
        object.remove(volatile);
    }
    state
}

#[tokio::test]
async fn a_failed_write_is_refused_and_changes_nothing() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let sqlite = SqliteStore::open(&common::database_url(&dir))
        .await
        .unwrap();
    let store = Arc::new(ControlledStore::new(sqlite));
    let server = start_with_store(dir.clone(), store.clone(), |_| {}).await;
    let (id, white, black) = server.two_player_game(None).await;
    let mut spectator = Ws::connect(&server, &id, None).await;
    let before = server.state_text(&id).await;
    let capture = json!({ "type": "step", "from": "d3", "to": "e3", "kind": "approach" });

    store.fail_writes.store(true, Ordering::SeqCst);
    let (status, error) = server.intent(&id, &white, capture.clone()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(error["code"], "not_saved");
    assert_eq!(
        error["message"],
        "not saved, try again: the server could not store this"
    );
    let mut socket = Ws::connect(&server, &id, Some(&black)).await;
    socket.send(r#"{"type":"offer_draw"}"#).await;
    assert_eq!(socket.error().await["code"], "not_saved");
    let now = server.state_text(&id).await;
    assert_eq!(durable(&now), durable(&before), "memory unchanged");
    let (status, _) = server
        .post_text("/api/games", r#"{"first":"me"}"#, None)
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);

    store.fail_writes.store(false, Ordering::SeqCst);
    let after = server.play(&id, &white, capture).await;
    assert_eq!(after["seq"], 1);
    let (_, seen) = spectator.state_where(|s| s["seq"] == 1).await;
    assert_eq!(seen["moves"], json!(["d3-e3A"]));
    let live = server.state_text(&id).await;
    server.stop().await;

    // What memory said is what the store holds.
    let again = common::start_in(dir, |_| {}).await;
    assert_eq!(durable(&again.state_text(&id).await), durable(&live));
}

/// The close frame the server sends `socket` next, skipping other
/// messages.
async fn close_frame(socket: Ws) -> CloseFrame {
    let mut raw = socket.into_inner();
    tokio::time::timeout(WAIT, async {
        while let Some(Ok(message)) = raw.next().await {
            if let Message::Close(frame) = message {
                return frame;
            }
        }
        None
    })
    .await
    .expect("closed in time")
    .expect("a close frame")
}

#[tokio::test]
async fn shutdown_closes_sockets_with_server_restarting() {
    let server = common::start().await;
    let (id, white, _) = server.two_player_game(None).await;
    let mut socket = Ws::connect(&server, &id, Some(&white)).await;
    socket.next().await;
    server.stop().await;
    let close = close_frame(socket).await;
    assert_eq!(u16::from(close.code), 1012);
    assert_eq!(close.reason.as_str(), "server restarting");
}

/// Checks that game `id`, which the server must read from its store, is
/// answered `503 database_unavailable` with `Retry-After` within about a
/// second, wherever it is asked for: its state, its page, its record, an
/// intent and a socket upgrade.
async fn unavailable_at_once(server: &TestServer, id: &str) {
    let paths = [
        format!("/api/games/{id}"),
        format!("/g/{id}"),
        format!("/api/games/{id}/record"),
        format!("/api/games/{id}/intents"),
    ];
    for path in &paths {
        let asked = Instant::now();
        let request = if path.ends_with("/intents") {
            let url = server.url(path);
            server
                .http
                .post(url)
                .bearer_auth("x")
                .header("content-type", "application/json")
                .body(r#"{"type":"resign"}"#)
        } else {
            server.http.get(server.url(path))
        };
        let resp = tokio::time::timeout(WAIT, request.send())
            .await
            .expect("an answer")
            .unwrap();
        let took = asked.elapsed();
        assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert_eq!(resp.headers()["retry-after"], "5", "{path}");
        if path.starts_with("/api/") {
            let error: Value = resp.json().await.unwrap();
            assert_eq!(error["code"], "database_unavailable", "{path}");
        }
        // The store answers within a second; the rest is room for a slow
        // machine. It used to be 5 s, then `500 internal`.
        assert!(took < Duration::from_secs(2), "{path}: {took:?}");
    }
    let asked = Instant::now();
    let upgrade = format!("ws://{}/api/games/{id}/ws", server.addr);
    let refused = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(upgrade))
        .await
        .expect("an answer");
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(resp.headers()["retry-after"], "5");
        }
        other => panic!("the upgrade was not refused: {other:?}"),
    }
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
}

/// A store that cannot be read answers `503` with `Retry-After`, not
/// `500`, for a game not in memory; a game in memory is still shown.
/// See: issues/21.
#[tokio::test]
async fn a_game_that_cannot_be_read_gets_503_with_retry_after() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let sqlite = SqliteStore::open(&common::database_url(&dir))
        .await
        .unwrap();
    let store = Arc::new(ControlledStore::new(sqlite));
    let server = start_with_store(dir, store.clone(), |_| {}).await;
    let (id, _, _) = server.two_player_game(None).await;
    store.fail_reads.store(true, Ordering::SeqCst);
    unavailable_at_once(&server, "0000000000").await;
    let (status, _) = server
        .post("/api/games/0000000000/join", r#"{"invite":"x"}"#, None)
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        server.state(&id).await["seq"],
        0,
        "a live game is still shown"
    );
    store.fail_reads.store(false, Ordering::SeqCst);
    let resp = server
        .http
        .get(server.url("/api/games/0000000000"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    server.stop().await;
}

/// When a write fails and the game cannot be read again either, its task
/// stops: its sockets are closed with 1013 "database unavailable", not
/// 1012 "server restarting", since nothing restarts. See: issues/21.
#[tokio::test]
async fn a_socket_whose_game_cannot_be_read_again_closes_with_1013() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let sqlite = SqliteStore::open(&common::database_url(&dir))
        .await
        .unwrap();
    let store = Arc::new(ControlledStore::new(sqlite));
    let server = start_with_store(dir, store.clone(), |_| {}).await;
    let (id, white, _) = server.two_player_game(None).await;
    let mut socket = Ws::connect(&server, &id, Some(&white)).await;
    socket.state_where(|s| s["seq"] == 0).await;
    store.fail_writes.store(true, Ordering::SeqCst);
    store.fail_reads.store(true, Ordering::SeqCst);
    socket
        .send(r#"{"type":"step","from":"d3","to":"e3","kind":"approach"}"#)
        .await;
    assert_eq!(socket.error().await["code"], "not_saved");
    let close = close_frame(socket).await;
    assert_eq!(
        (u16::from(close.code), close.reason.as_str()),
        (1013, "database unavailable")
    );
    store.fail_writes.store(false, Ordering::SeqCst);
    store.fail_reads.store(false, Ordering::SeqCst);
    let mut again = Ws::connect(&server, &id, Some(&white)).await;
    again.state_where(|s| s["seq"] == 0).await;
    server.stop().await;
}

/// PostgreSQL goes away (a proxy in front of it is cut, as when it
/// stops): a game not in memory is `503` with `Retry-After` at once, not
/// `500` after the pool's 5 s; a socket whose game cannot be stored or
/// read again is closed with 1013 "database unavailable"; and once the
/// database is back the game is played on. See: issues/21.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_postgresql_is_down_games_get_503_at_once_and_sockets_1013() {
    let test = "while_postgresql_is_down_games_get_503_at_once_and_sockets_1013";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let outage = Outage::start(&schema.url()).await;
    let store = store::open(&outage.url(&schema.url())).await.unwrap();
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_with_store(dir, store, |_| {}).await;
    let (id, white, _) = server.two_player_game(None).await;
    let mut socket = Ws::connect(&server, &id, Some(&white)).await;
    socket.state_where(|s| s["seq"] == 0).await;

    outage.cut().await;
    // The step cannot be stored, nor the game read again: the socket is
    // closed. It may be closed before the step arrives, too: the
    // listening connection, lost, may open again on a pooled connection
    // not yet cut, and then the game reads itself again, and cannot.
    let mut raw = socket.into_inner();
    let step = r#"{"type":"step","from":"d3","to":"e3","kind":"approach"}"#;
    let _ = raw.send(Message::text(step)).await;
    let close = tokio::time::timeout(WAIT, async {
        while let Some(Ok(message)) = raw.next().await {
            match message {
                Message::Close(frame) => return frame,
                Message::Text(text) => {
                    let error: Value = serde_json::from_str(&text).unwrap();
                    // Refused: not stored, or the game's task had
                    // stopped already.
                    if error["type"] == "error" {
                        let code = error["code"].as_str();
                        assert!(matches!(code, Some("not_saved" | "unavailable")), "{error}");
                    }
                }
                _ => {}
            }
        }
        None
    })
    .await
    .expect("closed in time")
    .expect("a close frame");
    assert_eq!(
        (u16::from(close.code), close.reason.as_str()),
        (1013, "database unavailable")
    );
    unavailable_at_once(&server, "0000000000").await;

    outage.restore().await;
    let state = tokio::time::timeout(WAIT, async {
        loop {
            let resp = server
                .http
                .get(server.url(&format!("/api/games/{id}")))
                .send()
                .await;
            if let Ok(resp) = resp {
                if resp.status() == StatusCode::OK {
                    return resp.json::<Value>().await.unwrap();
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the game is read again once PostgreSQL is back");
    assert_eq!(state["seq"], 0, "the refused step was not stored");
    let after = server
        .play(
            &id,
            &white,
            json!({"type": "step", "from": "d3", "to": "e3", "kind": "approach"}),
        )
        .await;
    assert_eq!(after["seq"], 1);
    server.stop().await;
}
