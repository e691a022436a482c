//! A server stopped, or killed, and started again on the same database
//! continues every game where its last acknowledged action left it.
#![allow(clippy::unwrap_used)]

mod common;

use std::{process::Stdio, sync::Arc};

use common::{start_in, TestServer, WAIT};
use serde_json::{json, Value};
use tokio::{
    io::{AsyncBufReadExt, BufReader},
    process::{Child, Command},
};

/// The fields that must survive a restart (presence and version do not).
fn durable(state: &Value) -> Value {
    let mut state = state.clone();
    let object = state.as_object_mut().unwrap();
    object.remove("version");
    object.remove("players");
    object.remove("abandoned");
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

/// Starts the real binary on port 0; returns it and its address.
async fn spawn_binary(database: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--database",
            database,
            "--log",
            "info",
        ])
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let address = tokio::time::timeout(WAIT, async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(rest) = line.split("listening on http://").nth(1) {
                return rest.split_whitespace().next().unwrap().to_owned();
            }
        }
        panic!("the server exited before listening");
    })
    .await
    .expect("the server starts in time");
    (child, address)
}

#[tokio::test]
async fn a_killed_process_loses_no_acknowledged_action() {
    let dir = tempfile::tempdir().unwrap();
    let database = common::database_url(&dir);
    let (mut child, address) = spawn_binary(&database).await;
    let server = TestServer::remote(&address);
    let games = play_some(&server).await;
    let mut before = Vec::new();
    for (id, ..) in &games {
        before.push(durable(&server.state(id).await));
    }
    child.kill().await.unwrap();

    let (_child, address) = spawn_binary(&database).await;
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
