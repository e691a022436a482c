//! How many are watching a game: the state's `watching` counts the
//! spectators' sockets open on it, on every process sharing the
//! database, and never a player's own sockets.
//! See: issues/23.

use crate::common;

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use common::{across::game_across, postgres::Schema, start, start_with_store, TestServer, Ws};
use fanorona_server::{store, Config};
use serde_json::Value;
use sqlx::Connection;

/// How often the processes of the test on PostgreSQL say what they hold.
const HEARTBEAT: Duration = Duration::from_millis(200);

/// The count a state says.
fn watching(state: &Value) -> u64 {
    state["watching"].as_u64().expect("a count")
}

/// Reads `socket`'s states until one says `n` watching; every state
/// before it must say one of `allowed`.
async fn until_watching(socket: &mut Ws, n: u64, allowed: &[u64]) -> Value {
    let (_, state) = socket
        .state_where(|s| {
            let seen = watching(s);
            assert!(seen == n || allowed.contains(&seen), "{seen} watching");
            seen == n
        })
        .await;
    state
}

#[tokio::test]
async fn spectators_are_counted_and_the_players_own_sockets_are_not() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    // Three sockets of White's (three tabs, a phone) and one of Black's.
    let mut w = Ws::connect(&server, &id, Some(&white)).await;
    let _w2 = Ws::connect(&server, &id, Some(&white)).await;
    let _w3 = Ws::connect(&server, &id, Some(&white)).await;
    let mut k = Ws::connect(&server, &id, Some(&black)).await;
    let state = until_watching(&mut k, 0, &[]).await;
    assert_eq!(state["players"]["white"]["connected"], true, "{state}");
    assert_eq!(watching(&server.state(&id).await), 0);

    // A spectator, then another: every state on the way says 0, 1 or 2.
    let s1 = Ws::connect(&server, &id, None).await;
    until_watching(&mut w, 1, &[0]).await;
    let mut s2 = Ws::connect(&server, &id, None).await;
    until_watching(&mut w, 2, &[0, 1]).await;
    until_watching(&mut k, 2, &[0, 1]).await;
    // The spectators see it too, and so does a reader over HTTP.
    until_watching(&mut s2, 2, &[1]).await;
    assert_eq!(watching(&server.state(&id).await), 2);

    // A closed socket lowers the count; a player's closed one does not.
    s1.close().await;
    until_watching(&mut w, 1, &[2]).await;
    _w2.close().await;
    s2.close().await;
    let state = until_watching(&mut k, 0, &[1, 2]).await;
    assert_eq!(state["players"]["white"]["connected"], true, "{state}");
    assert_eq!(watching(&server.state(&id).await), 0);
    server.stop().await;
}

/// A crowd arriving at once gets a state a second, not one per arrival
/// sent to every socket.
#[tokio::test]
async fn a_crowd_arriving_at_once_is_published_in_few_states() {
    let server = start().await;
    let (id, white, _black) = server.two_player_game(None).await;
    let mut w = Ws::connect(&server, &id, Some(&white)).await;
    until_watching(&mut w, 0, &[]).await;
    let mut crowd = Vec::new();
    for _ in 0..30 {
        crowd.push(Ws::connect(&server, &id, None).await);
    }
    let states = std::cell::Cell::new(0);
    w.state_where(|s| {
        states.set(states.get() + 1);
        watching(s) == 30
    })
    .await;
    let states = states.get();
    // The first arrival at once, the rest within a few seconds.
    assert!(states <= 12, "{states} states for 30 arrivals");
    server.stop().await;
}

/// A server of its own on the PostgreSQL database at `url`.
async fn server_on(url: &str) -> TestServer {
    let store = store::open(url).await.unwrap();
    let beat = |c: &mut Config| c.presence_heartbeat = HEARTBEAT;
    start_with_store(Arc::new(tempfile::tempdir().unwrap()), store, beat).await
}

/// Two processes on one database: each player's page shows the sum of
/// both processes' spectators; a spectator leaving one process lowers
/// the count on the other; and what a process that falls silent said is
/// forgotten after three heartbeats.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_spectators_of_every_process_are_summed() {
    let test = "the_spectators_of_every_process_are_summed";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let (a, b) = (
        server_on(&schema.url()).await,
        server_on(&schema.url()).await,
    );
    let (id, white, black) = game_across(&a, &b).await;
    let mut w = Ws::connect(&a, &id, Some(&white)).await;
    let mut k = Ws::connect(&b, &id, Some(&black)).await;
    let _k2 = Ws::connect(&b, &id, Some(&black)).await;
    w.state_where(|s| s["players"]["black"]["connected"] == true)
        .await;
    let _on_a = [
        Ws::connect(&a, &id, None).await,
        Ws::connect(&a, &id, None).await,
    ];
    let on_b = Ws::connect(&b, &id, None).await;
    until_watching(&mut w, 3, &[0, 1, 2]).await;
    until_watching(&mut k, 3, &[0, 1, 2]).await;
    // Many heartbeats later both still say 3.
    let until = Instant::now() + HEARTBEAT * 10;
    while Instant::now() < until {
        tokio::select! {
            (_, state) = k.state_where(|_| true) => assert_eq!(watching(&state), 3, "{state}"),
            () = tokio::time::sleep_until(until.into()) => break,
        }
    }

    on_b.close().await;
    until_watching(&mut w, 2, &[3]).await;
    until_watching(&mut k, 2, &[3]).await;

    // Something that is no server says it holds four spectators at every
    // heartbeat, then falls silent.
    let mut silent = sqlx::PgConnection::connect(&schema.url()).await.unwrap();
    let payload = format!("watch 5eed {id} 4");
    let speaking = tokio::spawn(async move {
        loop {
            sqlx::query("SELECT pg_notify('fanorona.' || current_schema(), $1)")
                .bind(&payload)
                .execute(&mut silent)
                .await
                .unwrap();
            tokio::time::sleep(HEARTBEAT).await;
        }
    });
    until_watching(&mut w, 6, &[2]).await;
    until_watching(&mut k, 6, &[2]).await;
    speaking.abort();
    until_watching(&mut k, 2, &[6]).await;
    a.stop().await;
    b.stop().await;
}
