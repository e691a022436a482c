//! The score of a match across rematches: a rematch stores the score so
//! far in its colours when it is created, and its state's `match` says
//! it, with its own result once it is over. See: issues/23.

use crate::common;

use std::sync::Arc;

use common::{postgres::Schema, start_in, start_with_store, TestServer};
use fanorona_server::store;
use serde_json::{json, Value};

/// `{"white": .., "black": .., "draws": ..}`.
fn score(white: u32, black: u32, draws: u32) -> Value {
    json!({ "white": white, "black": black, "draws": draws })
}

/// Both players ask for a rematch of `id`; the new game's id.
async fn rematch(server: &TestServer, id: &str, a: &str, b: &str) -> String {
    server.play(id, a, json!({ "type": "rematch" })).await;
    let state = server.play(id, b, json!({ "type": "rematch" })).await;
    state["next_game"].as_str().expect("a rematch").to_owned()
}

/// Three games in a row between A and B, A White in the first: B
/// resigns, then A resigns (now Black), then they agree a draw; a fourth
/// game starts. Each game's `match` is checked on the way; returns the
/// four ids and what each game's `match` says at the end.
async fn three_games(server: &TestServer) -> (Vec<String>, Vec<Value>) {
    let (first, a, b) = server.two_player_game(None).await;
    assert_eq!(server.state(&first).await["match"], Value::Null);
    let state = server.play(&first, &b, json!({ "type": "resign" })).await;
    assert_eq!(state["result"]["winner"], "white");
    // A first game is no match, over or not.
    assert_eq!(state["match"], Value::Null, "{state}");

    // A is Black now, with one win.
    let second = rematch(server, &first, &a, &b).await;
    assert_eq!(server.state(&second).await["match"], score(0, 1, 0));
    let state = server.play(&second, &a, json!({ "type": "resign" })).await;
    assert_eq!(state["result"]["winner"], "white");
    assert_eq!(state["match"], score(1, 1, 0), "{state}");

    let third = rematch(server, &second, &b, &a).await;
    assert_eq!(server.state(&third).await["match"], score(1, 1, 0));
    server
        .play(&third, &a, json!({ "type": "offer_draw" }))
        .await;
    let state = server
        .play(&third, &b, json!({ "type": "accept_draw" }))
        .await;
    assert_eq!(state["result"]["winner"], Value::Null);
    assert_eq!(state["match"], score(1, 1, 1), "{state}");

    // B is White again in the fourth.
    let fourth = rematch(server, &third, &a, &b).await;
    let ids = vec![first, second, third, fourth];
    let mut scores = Vec::new();
    for id in &ids {
        scores.push(server.state(id).await["match"].clone());
    }
    let expected = [Value::Null, score(1, 1, 0), score(1, 1, 1), score(1, 1, 1)];
    assert_eq!(scores, expected);
    (ids, scores)
}

/// The scores read again by a server started anew on the same database.
async fn scores_of(server: &TestServer, ids: &[String]) -> Vec<Value> {
    let mut scores = Vec::new();
    for id in ids {
        scores.push(server.state(id).await["match"].clone());
    }
    scores
}

#[tokio::test]
async fn a_win_each_way_and_a_draw_are_scored_and_kept_across_a_restart() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir.clone(), |_| {}).await;
    let (ids, scores) = three_games(&server).await;
    server.stop().await;
    let server = start_in(dir, |_| {}).await;
    assert_eq!(scores_of(&server, &ids).await, scores);
    server.stop().await;
}

#[tokio::test]
async fn the_score_is_stored_in_postgres_too() {
    let test = "the_score_is_stored_in_postgres_too";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let on = |url: String| async move {
        let store = store::open(&url).await.unwrap();
        start_with_store(Arc::new(tempfile::tempdir().unwrap()), store, |_| {}).await
    };
    let server = on(schema.url()).await;
    let (ids, scores) = three_games(&server).await;
    server.stop().await;
    let server = on(schema.url()).await;
    assert_eq!(scores_of(&server, &ids).await, scores);
    server.stop().await;
}
