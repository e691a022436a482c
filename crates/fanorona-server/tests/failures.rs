//! A write that fails is an error to its sender, never a silent success,
//! and what the server holds in memory stays what the store holds. The
//! server stops cleanly: sockets are told it is restarting.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{atomic::Ordering, Arc};

use common::{doubles::ControlledStore, start_with_store, Ws, WAIT};
use fanorona_server::store::SqliteStore;
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{json, Value};

fn durable(text: &str) -> Value {
    let mut state: Value = serde_json::from_str(text).unwrap();
    let object = state.as_object_mut().unwrap();
    for volatile in ["version", "players", "abandoned"] {
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

#[tokio::test]
async fn shutdown_closes_sockets_with_server_restarting() {
    let server = common::start().await;
    let (id, white, _) = server.two_player_game(None).await;
    let mut socket = Ws::connect(&server, &id, Some(&white)).await;
    socket.next().await;
    let mut raw = socket.into_inner();
    server.stop().await;
    let close = tokio::time::timeout(WAIT, async {
        while let Some(Ok(message)) = raw.next().await {
            if let tokio_tungstenite::tungstenite::Message::Close(frame) = message {
                return frame;
            }
        }
        None
    })
    .await
    .expect("closed in time")
    .expect("a close frame");
    assert_eq!(u16::from(close.code), 1012);
    assert_eq!(close.reason.as_str(), "server restarting");
}
