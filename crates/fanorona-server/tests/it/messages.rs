//! Preset messages between the players: sent as a key, seen by every
//! socket of the game, kept across a restart and across processes, and
//! changing nothing of the play.

use crate::common;

use std::{sync::Arc, time::Duration};

use common::{across::game_across, postgres::Schema, start, start_in, start_with_store, Ws};
use fanorona_server::store;
use reqwest::StatusCode;
use serde_json::{json, Value};

fn say(text: &str) -> Value {
    json!({ "type": "message", "text": text })
}

/// The last message of `state`, as `(by, text)`.
fn last_message(state: &Value) -> (String, String) {
    let last = state["messages"].as_array().unwrap().last().unwrap();
    (
        last["by"].as_str().unwrap().to_owned(),
        last["text"].as_str().unwrap().to_owned(),
    )
}

fn said(state: &Value, by: &str, text: &str) -> bool {
    state["messages"]
        .as_array()
        .is_some_and(|m| m.iter().any(|m| m["by"] == by && m["text"] == text))
}

#[tokio::test]
async fn a_message_reaches_the_opponent_and_spectators_and_changes_nothing_else() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    let mut w = Ws::connect(&server, &id, Some(&white)).await;
    let mut b = Ws::connect(&server, &id, Some(&black)).await;
    let mut spectator = Ws::connect(&server, &id, None).await;
    let offered = server
        .play(&id, &white, json!({ "type": "offer_draw" }))
        .await;
    assert_eq!(offered["messages"], json!([]));
    w.send(&say("good_luck").to_string()).await;
    for socket in [&mut b, &mut spectator] {
        let (_, state) = socket.state_where(|s| said(s, "white", "good_luck")).await;
        assert_eq!(
            state["messages"],
            json!([{ "by": "white", "text": "good_luck", "seq": 1 }])
        );
        assert_eq!(state["seq"], 2);
        assert_eq!(state["draw_offer"], "white", "the offer stands");
        assert_eq!(state["position"], offered["position"]);
        assert_eq!(state["moves"], json!([]));
        assert_eq!(state["legal_steps"], offered["legal_steps"]);
    }
    // A second one at once is refused and changes nothing.
    let before = server.state_text(&id).await;
    w.send(&say("sorry").to_string()).await;
    let error = w.error().await;
    assert_eq!(error["code"], "too_many_messages");
    let (status, body) = server.intent(&id, &white, say("thanks")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("too_many_messages"))
    );
    assert_eq!(server.state_text(&id).await, before);
    // The opponent is not held back by it; after the end they still go.
    server.play(&id, &black, say("thanks")).await;
    server.play(&id, &black, json!({ "type": "resign" })).await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let after = server.play(&id, &black, say("good_game")).await;
    assert_eq!(after["result"]["reason"], "resignation");
    assert_eq!(last_message(&after), ("black".into(), "good_game".into()));
    let after = server.play(&id, &white, say("well_played")).await;
    assert_eq!(after["messages"].as_array().unwrap().len(), 4);
    assert_eq!(after["moves"], json!([]));
    // Not a move: the record has no trace of them.
    let record = server.get_text(&format!("/api/games/{id}/record")).await;
    for key in ["good", "thanks", "message", "well"] {
        assert!(!record.to_lowercase().contains(key), "{record}");
    }
}

#[tokio::test]
async fn only_the_last_five_are_kept_and_a_bad_key_changes_nothing() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    let keys = [
        "good_luck",
        "your_turn",
        "well_played",
        "sorry",
        "thanks",
        "good_game",
    ];
    for (n, key) in keys.iter().enumerate() {
        let secret = if n % 2 == 0 { &white } else { &black };
        if n >= 1 {
            // Each player waits between two of theirs.
            tokio::time::sleep(Duration::from_millis(1100)).await;
        }
        server.play(&id, secret, say(key)).await;
    }
    let state = server.state(&id).await;
    let kept: Vec<&str> = state["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(kept, keys[1..]);
    assert_eq!(state["messages"][4]["seq"], 5);
    assert_eq!(state["messages"][0]["by"], "black");
    let before = server.state_text(&id).await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    for bad in [say("Good game"), say(""), json!({ "type": "message" })] {
        let (status, body) = server.intent(&id, &white, bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert_eq!(server.state_text(&id).await, before, "{bad}");
    }
    let (_, body) = server.intent(&id, &white, say("hello")).await;
    assert_eq!(body["code"], "bad_message_text");
    // A refused key does not count against the sender's rate.
    server.play(&id, &white, say("good_game")).await;
}

#[tokio::test]
async fn messages_are_not_for_the_computer_nor_before_the_friend_joins() {
    let server = start().await;
    let (created, _) = server
        .create(json!({ "opponent": "computer", "level": 1, "first": "me" }))
        .await;
    let id = created["game_id"].as_str().unwrap();
    let seat = created["seat"].as_str().unwrap();
    let before = server.state(id).await;
    let (status, body) = server.intent(id, seat, say("good_game")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_against_computer"))
    );
    assert_eq!(server.state(id).await["seq"], before["seq"]);
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let seat = created["seat"].as_str().unwrap();
    let (status, body) = server.intent(id, seat, say("good_luck")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("waiting_for_opponent"))
    );
}

#[tokio::test]
async fn messages_do_not_play_on_past_the_length_limit() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir, |c| c.max_game_actions = 1).await;
    let (id, white, black) = server.two_player_game(None).await;
    server.play(&id, &white, say("good_luck")).await;
    let (status, body) = server.intent(&id, &black, say("good_luck")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_too_long"))
    );
    server.play(&id, &black, json!({ "type": "resign" })).await;
}

#[tokio::test]
async fn messages_survive_a_restart() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir.clone(), |_| {}).await;
    let (id, white, black) = server.two_player_game(None).await;
    server.play(&id, &white, say("good_luck")).await;
    server.play(&id, &black, say("your_turn")).await;
    let before = server.state(&id).await;
    server.stop().await;

    let server = start_in(dir, |_| {}).await;
    let after = server.state(&id).await;
    assert_eq!(after["messages"], before["messages"]);
    assert_eq!(after["seq"], 2);
    let mut spectator = Ws::connect(&server, &id, None).await;
    let (_, late) = spectator.state_where(|_| true).await;
    assert_eq!(
        late["messages"], before["messages"],
        "a late page sees them"
    );
    // The rate is memory only: a restart does not hold a player back.
    server.play(&id, &white, say("thanks")).await;
}

/// Two processes on one PostgreSQL database: a message said through one
/// reaches the sockets of the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_reaches_the_other_process() {
    let test = "a_message_reaches_the_other_process";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let mut servers = Vec::new();
    for _ in 0..2 {
        let store = store::open(&schema.url()).await.unwrap();
        servers.push(start_with_store(Arc::new(tempfile::tempdir().unwrap()), store, |_| {}).await);
    }
    let (a, b) = (&servers[0], &servers[1]);
    let (id, white, black) = game_across(a, b).await;
    let mut k = Ws::connect(b, &id, Some(&black)).await;
    let mut spectator = Ws::connect(b, &id, None).await;
    a.play(&id, &white, say("good_game")).await;
    for socket in [&mut k, &mut spectator] {
        let (_, state) = socket.state_where(|s| said(s, "white", "good_game")).await;
        assert_eq!(state["seq"], 1);
    }
    k.send(&say("thanks").to_string()).await;
    let mut w = Ws::connect(a, &id, Some(&white)).await;
    w.state_where(|s| said(s, "black", "thanks")).await;
    for server in servers {
        server.stop().await;
    }
}
