//! Several server processes on one PostgreSQL database: what a player
//! does through one is seen at once through the others, and two intents
//! for the same turn sent through two of them at once are decided by the
//! database, one accepted and the other refused. Here two servers run in
//! this test's process, each with its own store (its own pool and
//! listening connection): to the database they are two processes.
//! `tests/it/proxy.rs` does the same with the real binary behind nginx.

use crate::common;

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use common::{
    across::{game_across, race, some_intent},
    durable,
    postgres::Schema,
    start_with_store, TestServer, Ws,
};
use fanorona_server::{store, Config};
use reqwest::StatusCode;
use serde_json::json;
use sqlx::Connection;

/// A server of its own over the database at `url`.
async fn server_on(url: &str) -> TestServer {
    server_with(url, |_| {}).await
}

/// A server of its own over the database at `url`, configured by
/// `configure` after the tests' defaults.
async fn server_with(url: &str, configure: impl FnOnce(&mut Config)) -> TestServer {
    let store = store::open(url).await.unwrap();
    start_with_store(Arc::new(tempfile::tempdir().unwrap()), store, configure).await
}

/// How often the presence tests' processes say who is here: a player
/// nobody speaks for counts as away after three times this.
const HEARTBEAT: Duration = Duration::from_millis(200);

/// Black claims victory over HTTP: the status and the answer's error code
/// (`null` when accepted).
async fn claim(server: &TestServer, id: &str, black: &str) -> (StatusCode, serde_json::Value) {
    let (status, body) = server
        .intent(id, black, json!({ "type": "claim_victory" }))
        .await;
    (status, body["code"].clone())
}

/// White on one process, Black on the other: each sees the other
/// connected, and keeps seeing it for many heartbeats; Black cannot claim
/// victory while White is connected through the other process; when
/// White leaves, Black's process shows it at once, and Black may claim
/// after the abandonment delay (10 ms in tests).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_on_another_process_is_connected_and_cannot_be_claimed_against() {
    let test = "a_player_on_another_process_is_connected_and_cannot_be_claimed_against";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let beat = |c: &mut Config| c.presence_heartbeat = HEARTBEAT;
    let (a, b) = (
        server_with(&schema.url(), beat).await,
        server_with(&schema.url(), beat).await,
    );
    let (id, white, black) = game_across(&a, &b).await;
    let mut w = Ws::connect(&a, &id, Some(&white)).await;
    let mut k = Ws::connect(&b, &id, Some(&black)).await;
    w.state_where(|s| s["players"]["black"]["connected"] == true)
        .await;
    k.state_where(|s| s["players"]["white"]["connected"] == true)
        .await;
    // Five lifetimes of heartbeats: White never looks away on Black's
    // process, and the claim is refused all along.
    let until = Instant::now() + HEARTBEAT * 15;
    while Instant::now() < until {
        let state = tokio::select! {
            (_, state) = k.state_where(|_| true) => state,
            () = tokio::time::sleep_until(until.into()) => break,
        };
        assert_eq!(state["players"]["white"]["connected"], true, "{state}");
        assert_eq!(state["abandoned"], false, "{state}");
    }
    assert_eq!(
        claim(&b, &id, &black).await,
        (StatusCode::CONFLICT, json!("not_abandoned"))
    );
    w.close().await;
    let (_, state) = k
        .state_where(|s| s["players"]["white"]["connected"] == false)
        .await;
    assert!(state["result"].is_null(), "{state}");
    k.state_where(|s| s["abandoned"] == true).await;
    let (status, code) = claim(&b, &id, &black).await;
    assert_eq!((status, code), (StatusCode::OK, json!(null)));
    let (_, state) = k.state_where(|s| !s["result"].is_null()).await;
    assert_eq!(state["result"]["winner"], "black", "{state}");
    a.stop().await;
    b.stop().await;
}

/// A process that says a player is here and then says nothing more (it
/// was killed, with no goodbye) is believed for the lifetime only: three
/// heartbeats later the player is away, and may lose by abandonment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_process_falls_silent_turns_away_after_the_lifetime() {
    let test = "a_player_whose_process_falls_silent_turns_away_after_the_lifetime";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let b = server_with(&schema.url(), |c| c.presence_heartbeat = HEARTBEAT).await;
    let (id, _white, black) = game_across(&b, &b).await;
    let mut k = Ws::connect(&b, &id, Some(&black)).await;
    k.state_where(|s| s["abandoned"] == true).await;

    // A process that is no server at all says White is here, once.
    let mut silent = sqlx::PgConnection::connect(&schema.url()).await.unwrap();
    // Taken before sending: `b` cannot hear it earlier, so its lifetime
    // cannot end before `heard` plus the lifetime.
    let heard = Instant::now();
    sqlx::query("SELECT pg_notify('fanorona.' || current_schema(), $1)")
        .bind(format!("here 5eed {id} white"))
        .execute(&mut silent)
        .await
        .unwrap();
    let (_, state) = k
        .state_where(|s| s["players"]["white"]["connected"] == true)
        .await;
    assert_eq!(state["abandoned"], false, "{state}");
    let (status, code) = claim(&b, &id, &black).await;
    if heard.elapsed() < HEARTBEAT * 2 {
        assert_eq!(
            (status, code),
            (StatusCode::CONFLICT, json!("not_abandoned"))
        );
    }
    k.state_where(|s| s["players"]["white"]["connected"] == false)
        .await;
    assert!(heard.elapsed() >= HEARTBEAT * 3, "{:?}", heard.elapsed());
    k.state_where(|s| s["abandoned"] == true).await;
    assert_eq!(claim(&b, &id, &black).await, (StatusCode::OK, json!(null)));
    silent.close().await.unwrap();
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_through_two_processes_is_seen_identically_by_both() {
    let test = "a_game_played_through_two_processes_is_seen_identically_by_both";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let (a, b) = (
        server_on(&schema.url()).await,
        server_on(&schema.url()).await,
    );
    let (id, white, black) = game_across(&a, &b).await;
    let mut sockets = [
        Ws::connect(&a, &id, Some(&white)).await,
        Ws::connect(&b, &id, Some(&black)).await,
        Ws::connect(&b, &id, None).await,
        Ws::connect(&a, &id, None).await,
    ];
    let mut rng = fastrand::Rng::with_seed(7);
    let mut seq = 0;
    let last = loop {
        // Every socket, whichever process it is on, sees the same game.
        let mut seen = Vec::new();
        for socket in &mut sockets {
            let (text, _) = socket.state_where(|s| s["seq"] == seq).await;
            seen.push(durable(&text));
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "action {seq}");
        let state = seen.pop().unwrap();
        if !state["result"].is_null() || seq == 400 {
            break state;
        }
        let mover = usize::from(state["side_to_move"] == "black");
        sockets[mover]
            .send(&some_intent(&state, &mut rng).to_string())
            .await;
        seq += 1;
    };
    assert!(seq > 10, "a game of {seq} actions");
    // Both processes answer the same state over HTTP too.
    assert_eq!(
        durable(&a.state_text(&id).await),
        durable(&b.state_text(&id).await)
    );
    assert_eq!(durable(&a.state_text(&id).await), last);
    a.stop().await;
    b.stop().await;
}

/// Two intents for the same turn, sent through two processes at the same
/// instant, many times over: exactly one is played each time; the other
/// is refused (`game_changed` with the new state when its process had not
/// yet heard of the first, else the rules' own refusal of it in the new
/// state), and nothing of it is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conflicting_intents_through_two_processes_one_wins_every_time() {
    let test = "conflicting_intents_through_two_processes_one_wins_every_time";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let (a, b) = (
        server_on(&schema.url()).await,
        server_on(&schema.url()).await,
    );
    let db = store::open(&schema.url()).await.unwrap();
    let mut rng = fastrand::Rng::with_seed(11);
    let (mut changed, mut tries) = (0, 0);
    while tries < 60 {
        let (id, white, black) = game_across(&a, &b).await;
        // Both processes hold the game live.
        let mut watchers = [
            Ws::connect(&a, &id, None).await,
            Ws::connect(&b, &id, None).await,
        ];
        let mut state = a.state(&id).await;
        while state["result"].is_null() && tries < 60 {
            let seq = state["seq"].as_u64().unwrap();
            for watcher in &mut watchers {
                watcher.state_where(|s| s["seq"] == seq).await;
            }
            let secret = if state["side_to_move"] == "white" {
                &white
            } else {
                &black
            };
            let (won, lost_as_changed) = race((&a, &b), &id, secret, &state, &mut rng).await;
            tries += 1;
            changed += usize::from(lost_as_changed);
            let stored = db.load_game(&id.parse().unwrap()).await.unwrap();
            assert_eq!(stored.actions.len() as u64, seq + 1, "one stored");
            state = won;
        }
    }
    println!("{tries} tries, one winner each; {changed} refused as game_changed");
    assert!(changed > 0, "the database decided at least once");
    a.stop().await;
    b.stop().await;
}

/// A process whose listening connection is cut (as by a database
/// restart) listens again, and then reads every game it holds again: a
/// change committed with no notice at all (as one committed while nobody
/// listened) reaches its sockets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_losing_its_listener_a_process_reads_every_live_game_again() {
    let test = "after_losing_its_listener_a_process_reads_every_live_game_again";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let server = server_on(&schema.url()).await;
    let (id, _white, _black) = game_across(&server, &server).await;
    let mut spectator = Ws::connect(&server, &id, None).await;
    spectator.state_where(|s| s["seq"] == 0).await;

    let mut admin = sqlx::PgConnection::connect(&schema.url()).await.unwrap();
    // White resigns behind the server's back: no notice is sent.
    sqlx::query(
        "INSERT INTO actions (game_id, seq, player, kind, created_at) \
         VALUES ($1, 0, 'white', 'resign', 0)",
    )
    .bind(&id)
    .execute(&mut admin)
    .await
    .unwrap();
    // Cut the connection that listens, whose last statement was LISTEN.
    let cut: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = current_setting('application_name') \
         AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()",
    )
    .fetch_all(&mut admin)
    .await
    .unwrap();
    assert_eq!(cut, [true], "one listening connection");
    let (_, state) = spectator.state_where(|s| s["seq"] == 1).await;
    assert_eq!(state["result"]["reason"], "resignation");
    admin.close().await.unwrap();
    server.stop().await;
}

/// A process that loads a game asks who is here, and the processes
/// holding a player's socket answer at once, not at their next heartbeat
/// (an hour away here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_that_loads_a_game_late_hears_at_once_who_is_here() {
    let test = "a_process_that_loads_a_game_late_hears_at_once_who_is_here";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let hour = |c: &mut Config| c.presence_heartbeat = Duration::from_secs(3600);
    let (a, b) = (
        server_with(&schema.url(), hour).await,
        server_with(&schema.url(), hour).await,
    );
    // Created through `a`, which does not load it; joined through `b`.
    let (id, white, black) = game_across(&a, &b).await;
    let mut k = Ws::connect(&b, &id, Some(&black)).await;
    k.state_where(|s| s["players"]["black"]["connected"] == true)
        .await;
    // `a` loads the game only now, long after Black said so.
    let mut w = Ws::connect(&a, &id, Some(&white)).await;
    w.state_where(|s| s["players"]["black"]["connected"] == true)
        .await;
    k.state_where(|s| s["players"]["white"]["connected"] == true)
        .await;
    a.stop().await;
    b.stop().await;
}

/// A game against the computer with the player's socket on one process
/// and a spectator's on the other: only the player's process plays the
/// computer. The other never says it is thinking (it would, searching),
/// yet shows every reply; the game goes on turn after turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_players_process_plays_the_computer() {
    let test = "only_the_players_process_plays_the_computer";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let configure = |c: &mut Config| {
        c.presence_heartbeat = HEARTBEAT;
        c.computer_min_think = Duration::from_millis(100);
        c.computer_step_delay = Duration::ZERO;
    };
    let (a, b) = (
        server_with(&schema.url(), configure).await,
        server_with(&schema.url(), configure).await,
    );
    let (created, _) = a
        .create(json!({ "opponent": "computer", "level": 1, "first": "me" }))
        .await;
    let id = created["game_id"].as_str().unwrap().to_owned();
    let white = created["seat"].as_str().unwrap().to_owned();
    let mut player = Ws::connect(&a, &id, Some(&white)).await;
    let mut watcher = Ws::connect(&b, &id, None).await;
    watcher
        .state_where(|s| s["players"]["white"]["connected"] == true)
        .await;
    let mut rng = fastrand::Rng::with_seed(15);
    let mut replies = 0;
    let mut seen_thinking_on_a = false;
    // The action number of the latest reply: older states are stale.
    let mut replied = 0;
    while replies < 4 {
        let (_, state) = player
            .state_where(|s| {
                s["side_to_move"] == "white"
                    && s["computer"]["thinking"] == false
                    && s["result"].is_null()
                    && s["seq"].as_u64().unwrap() >= replied
            })
            .await;
        // White plays a whole turn through `a`.
        let mut now = state;
        while now["side_to_move"] == "white" && now["result"].is_null() {
            now = a.play(&id, &white, some_intent(&now, &mut rng)).await;
        }
        if !now["result"].is_null() {
            break;
        }
        let seq = now["seq"].as_u64().unwrap();
        // The computer's reply, as the spectator on `b` sees it come.
        loop {
            let msg = watcher.next().await;
            if msg["type"] != "state" {
                continue;
            }
            assert_ne!(msg["computer"]["thinking"], true, "b searched: {msg}");
            if msg["side_to_move"] == "white" && msg["seq"].as_u64().unwrap() > seq {
                replied = msg["seq"].as_u64().unwrap();
                break;
            }
            if !msg["result"].is_null() {
                break;
            }
        }
        let (_, on_a) = player
            .state_where(|s| {
                s["seq"].as_u64().unwrap() >= seq
                    && (s["computer"]["thinking"] == true || s["side_to_move"] == "white")
            })
            .await;
        seen_thinking_on_a |= on_a["computer"]["thinking"] == true;
        replies += 1;
    }
    assert!(replies >= 1, "the computer replied");
    assert!(seen_thinking_on_a, "the player's process thought");
    a.stop().await;
    b.stop().await;
}
