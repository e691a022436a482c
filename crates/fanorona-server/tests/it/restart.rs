//! A server stopped, or killed, and started again on the same database
//! continues every game where its last acknowledged action left it.

use crate::common;

use std::sync::Arc;

use common::{
    process::{spawn_binary, NO_RATE_LIMITS},
    start_in, TestServer,
};
use serde_json::{json, Value};

/// The fields that must survive a restart (presence and version do not).
fn durable(state: &Value) -> Value {
    let mut state = state.clone();
    let object = state.as_object_mut().unwrap();
    object.remove("version");
    object.remove("players");
    object.remove("abandoned");
    object.remove("watching");
    state
}

/// Plays some of every kind of game: one mid-chain, one resigned, one with
/// a draw offer pending. Returns their ids and secrets.
async fn play_some(server: &TestServer) -> Vec<(String, String, String)> {
    let step = |from: &str, to: &str, kind: &str| json!({ "type": "step", "from": from, "to": to, "kind": kind });
    let mut games = Vec::new();
    for n in 0..3 {
        let (id, white, black) = server.two_player_game(None).await;
        let state = server
            .play(&id, &white, step("d3", "e3", "withdrawal"))
            .await;
        match n {
            0 => {
                let first = &state["legal_steps"][0];
                let reply = step(
                    first["from"].as_str().unwrap(),
                    first["to"].as_str().unwrap(),
                    first["kind"].as_str().unwrap(),
                );
                server.play(&id, &black, reply).await;
            }
            1 => {
                server.play(&id, &black, json!({ "type": "resign" })).await;
            }
            _ => {
                server
                    .play(&id, &white, json!({ "type": "offer_draw" }))
                    .await;
            }
        }
        games.push((id, white, black));
    }
    games
}

#[tokio::test]
async fn a_restarted_server_continues_every_game() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir.clone(), |_| {}).await;
    let games = play_some(&server).await;
    let mut before = Vec::new();
    for (id, ..) in &games {
        before.push(durable(&server.state(id).await));
    }
    server.stop().await;

    let server = start_in(dir, |_| {}).await;
    for ((id, ..), before) in games.iter().zip(&before) {
        assert_eq!(&durable(&server.state(id).await), before, "game {id}");
    }
    let (id, _, black) = &games[2];
    let state = server
        .play(id, black, json!({ "type": "accept_draw" }))
        .await;
    assert_eq!(state["result"]["reason"], "agreement");
}

#[tokio::test]
async fn a_killed_process_loses_no_acknowledged_action() {
    let dir = tempfile::tempdir().unwrap();
    let database = common::database_url(&dir);
    let (mut child, address) = spawn_binary(&database, &NO_RATE_LIMITS).await;
    let server = TestServer::remote(&address);
    let games = play_some(&server).await;
    let mut before = Vec::new();
    for (id, ..) in &games {
        before.push(durable(&server.state(id).await));
    }
    child.kill().await.unwrap();

    let (_child, address) = spawn_binary(&database, &NO_RATE_LIMITS).await;
    let server = TestServer::remote(&address);
    for ((id, ..), before) in games.iter().zip(&before) {
        assert_eq!(&durable(&server.state(id).await), before, "game {id}");
    }
    let (id, white, black) = &games[0];
    let state = server.state(id).await;
    let mover = if state["side_to_move"] == "white" {
        white
    } else {
        black
    };
    let step = &state["legal_steps"][0];
    let intent =
        json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] });
    let after = server.play(id, mover, intent).await;
    assert!(after["seq"].as_u64() > state["seq"].as_u64());
}
