//! Games with a clock: the server keeps both clocks from the times it
//! stores with each action, and decides a loss on time by itself, once,
//! at the moment the clock reached zero: across a restart, across two
//! processes on one PostgreSQL database, and by correspondence over days.
//! The servers here read a [`TestClock`], moved by hand, so nothing waits
//! for real minutes or days.

use crate::common;

use std::{sync::Arc, time::Duration};

use common::{invite_of, play_turns, postgres::Schema, start_in, start_with_store, TestServer, Ws};
use fanorona_server::{clock::TestClock, game::Intent, store, Config};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// 2026-12-01T00:00:00Z, in milliseconds.
const START: i64 = 1_796_083_200_000;

const MINUTE: Duration = Duration::from_secs(60);
const DAY: Duration = Duration::from_secs(86_400);

/// A server on the database in `dir` that reads `clock`.
async fn server_at(dir: Arc<tempfile::TempDir>, clock: &TestClock) -> TestServer {
    let wall = clock.wall();
    start_in(dir, move |c: &mut Config| c.wall = wall).await
}

/// A game between two people with the clock `clock` (the create request's
/// field): (id, white's secret, black's secret).
async fn timed_game(server: &TestServer, clock: Value) -> (String, String, String) {
    let (created, _) = server
        .create(json!({ "first": "me", "clock": clock }))
        .await;
    let id = created["game_id"].as_str().unwrap().to_owned();
    let (joined, _) = server.join(&id, invite_of(&created), None).await;
    (
        id,
        created["seat"].as_str().unwrap().to_owned(),
        joined["seat"].as_str().unwrap().to_owned(),
    )
}

/// The actions of game `id` stored in `store` that are a loss on time, and
/// when each was stored (milliseconds).
async fn flags(store: &dyn store::Store, id: &str) -> Vec<(u64, i64)> {
    let stored = store.load_game(&id.parse().unwrap()).await.unwrap();
    stored
        .actions
        .iter()
        .zip(&stored.action_times)
        .enumerate()
        .filter(|(_, (a, _))| a.intent == Intent::Flag)
        .map(|(n, (_, &at))| (n as u64, at))
        .collect()
}

#[tokio::test]
async fn the_clock_of_the_player_to_move_runs_and_the_flag_falls_at_zero() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let clock = TestClock::starting_at(START);
    let server = server_at(dir.clone(), &clock).await;
    let (id, white, black) = timed_game(&server, json!({ "minutes": 1, "increment": 2 })).await;
    let state = server.state(&id).await;
    assert_eq!(
        state["clock"],
        json!({ "kind": "real_time", "minutes": 1, "increment": 2,
                "white": 60_000, "black": 60_000, "running": null, "at": START }),
        "{state}"
    );
    // The first turn of each player is free.
    clock.advance(MINUTE * 5);
    play_turns(&server, &id, [&white, &black], 1).await;
    clock.advance(MINUTE * 5);
    let state = play_turns(&server, &id, [&white, &black], 1).await;
    assert_eq!(state["clock"]["running"], "white", "{state}");
    assert_eq!(state["clock"]["white"], 60_000);
    // White takes 50 s, gets 2 back.
    clock.advance(Duration::from_secs(50));
    let state = play_turns(&server, &id, [&white, &black], 1).await;
    assert_eq!(state["clock"]["white"], 12_000, "{state}");
    assert_eq!(state["clock"]["running"], "black");
    let black_started = clock.now_ms();
    clock.advance(Duration::from_secs(59));
    let state = server.state(&id).await;
    assert!(state["result"].is_null(), "{state}");
    // A time claim before zero is refused and changes nothing.
    let (status, body) = server.intent(&id, &white, json!({ "type": "flag" })).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("time_not_out"))
    );
    let mut ws = Ws::connect(&server, &id, Some(&white)).await;
    let (_, now) = ws.state_where(|_| true).await;
    assert_eq!(now["clock"]["black"], 1_000, "{now}");
    // Zero: the server decides by itself, with nobody sending anything.
    clock.advance(Duration::from_secs(5));
    let (_, over) = ws.state_where(|s| !s["result"].is_null()).await;
    assert_eq!(
        over["result"],
        json!({ "winner": "white", "reason": "time" }),
        "{over}"
    );
    assert_eq!(over["clock"]["black"], 0);
    assert_eq!(over["clock"]["white"], 12_000);
    assert_eq!(over["clock"]["running"], Value::Null);
    // A step sent after the flag meets the game over.
    let step = json!({ "type": "step", "from": "a1", "to": "a2", "kind": "paika" });
    let (status, body) = server.intent(&id, &black, step).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_over"))
    );
    let store = store::open(&common::database_url(&dir)).await.unwrap();
    let flags = flags(store.as_ref(), &id).await;
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert_eq!(flags[0].1, black_started + 60_000, "at the moment of zero");
    // The record says the time control and the reason.
    let record = server
        .get_text(&format!("/api/games/{id}/record?lang=en"))
        .await;
    assert!(record.contains("[TimeControl \"60+2\"]"), "{record}");
    assert!(
        record.contains("[Reason \"White wins. On time.\"]"),
        "{record}"
    );
    // A rematch has the same clock, both full and standing.
    server.play(&id, &white, json!({ "type": "rematch" })).await;
    let state = server.play(&id, &black, json!({ "type": "rematch" })).await;
    let next = state["next_game"].as_str().unwrap();
    let clock = &server.state(next).await["clock"];
    assert_eq!(
        (
            &clock["minutes"],
            &clock["increment"],
            &clock["white"],
            &clock["running"]
        ),
        (&json!(1), &json!(2), &json!(60_000), &Value::Null),
        "{clock}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_clock_that_reached_zero_while_the_server_was_down_falls_once_at_that_moment() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let clock = TestClock::starting_at(START);
    let server = server_at(dir.clone(), &clock).await;
    let (id, white, black) = timed_game(&server, json!({ "minutes": 3, "increment": 0 })).await;
    for _ in 0..3 {
        clock.advance(Duration::from_secs(10));
        play_turns(&server, &id, [&white, &black], 1).await;
    }
    // Black to move, 3 minutes on the clock from now.
    let zero = clock.now_ms() + 180_000;
    server.stop().await;
    clock.advance(MINUTE * 10);
    let again = server_at(dir.clone(), &clock).await;
    let state = again.state(&id).await;
    let state = if state["result"].is_null() {
        // The state first published on load may come just before the
        // task settles the clock: the next one holds the result.
        let mut ws = Ws::connect(&again, &id, None).await;
        ws.state_where(|s| !s["result"].is_null()).await.1
    } else {
        state
    };
    assert_eq!(state["result"]["reason"], "time", "{state}");
    assert_eq!(state["result"]["winner"], "white");
    assert_eq!(state["clock"]["black"], 0);
    again.stop().await;
    // And once only: a third start finds it decided.
    let third = server_at(dir.clone(), &clock).await;
    assert_eq!(third.state(&id).await["result"]["reason"], "time");
    third.stop().await;
    let store = store::open(&common::database_url(&dir)).await.unwrap();
    let flags = flags(store.as_ref(), &id).await;
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert_eq!(flags[0].1, zero, "at the moment of zero");
}

#[tokio::test]
async fn a_correspondence_clock_gives_each_turn_its_days_and_no_claim_of_abandonment() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let clock = TestClock::starting_at(START);
    let server = server_at(dir.clone(), &clock).await;
    let (id, white, black) = timed_game(&server, json!({ "days": 3 })).await;
    let state = server.state(&id).await;
    assert_eq!(state["clock"]["kind"], "correspondence");
    assert_eq!(state["clock"]["days"], 3);
    play_turns(&server, &id, [&white, &black], 1).await;
    play_turns(&server, &id, [&white, &black], 1).await;
    // Each turn may take almost its three days, again and again.
    for _ in 0..4 {
        clock.advance(DAY * 3 - MINUTE);
        let state = play_turns(&server, &id, [&white, &black], 1).await;
        let running = state["clock"]["running"].as_str().unwrap();
        assert_eq!(state["clock"][running], 3 * 86_400_000, "{state}");
    }
    // Away for days is how correspondence is played: no abandonment.
    let mover = server.state(&id).await["side_to_move"].clone();
    let waiting = if mover == "white" { &black } else { &white };
    let (status, body) = server
        .intent(&id, waiting, json!({ "type": "claim_victory" }))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_abandoned"))
    );
    let mut ws = Ws::connect(&server, &id, None).await;
    ws.state_where(|_| true).await;
    clock.advance(DAY * 3);
    let (_, over) = ws.state_where(|s| !s["result"].is_null()).await;
    assert_eq!(over["result"]["reason"], "time", "{over}");
    assert_ne!(over["result"]["winner"], mover);
    server.stop().await;
}

#[tokio::test]
async fn a_bad_clock_is_refused_at_creation_and_takebacks_are_refused_with_one() {
    let server = start_in(Arc::new(tempfile::tempdir().unwrap()), |_| {}).await;
    for (clock, status, code) in [
        (json!({ "minutes": 0 }), 422, "bad_time_control"),
        (json!({ "minutes": 181 }), 422, "bad_time_control"),
        (
            json!({ "minutes": 5, "increment": 181 }),
            422,
            "bad_time_control",
        ),
        (json!({ "days": 15 }), 422, "bad_time_control"),
        (json!({ "days": 0 }), 422, "bad_time_control"),
        (json!({ "minutes": 5, "days": 3 }), 400, "bad_message"),
        (json!({ "increment": 3 }), 400, "bad_message"),
        (json!({ "minutes": -1 }), 400, "bad_message"),
        (json!({ "minutes": 5, "hours": 1 }), 400, "bad_message"),
        (json!("5+3"), 400, "bad_message"),
    ] {
        let body = json!({ "first": "me", "clock": clock }).to_string();
        let (got, answer) = server.post("/api/games", &body, None).await;
        assert_eq!(
            (got.as_u16(), answer["code"].as_str()),
            (status, Some(code)),
            "{body}: {answer}"
        );
    }
    let body = json!({ "opponent": "computer", "level": 1, "first": "me",
                       "clock": { "minutes": 5 } });
    let (got, answer) = server.post("/api/games", &body.to_string(), None).await;
    assert_eq!(
        (got.as_u16(), answer["code"].as_str()),
        (400, Some("bad_message"))
    );
    // Without a clock, a time claim is refused.
    let (id, white, black) = server.two_player_game(None).await;
    let (status, body) = server.intent(&id, &white, json!({ "type": "flag" })).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (409, Some("no_clock"))
    );
    assert_eq!(server.state(&id).await["clock"], Value::Null);
    drop(black);
    // The invitation says the clock, in the page's language.
    for (clock, lang, words) in [
        (
            json!({ "minutes": 5, "increment": 3 }),
            "en",
            "Clock: 5 min + 3 s per turn.",
        ),
        (json!({ "days": 1 }), "fr", "Pendule : 1 jour par tour."),
        (
            json!({ "days": 7 }),
            "mg",
            "Fetra fotoana: Andro 7 isaky ny anjara.",
        ),
    ] {
        let (created, _) = server
            .create(json!({ "first": "me", "clock": clock }))
            .await;
        let link = created["invite_link"].as_str().unwrap();
        let page = server
            .http
            .get(format!("{link}&lang={lang}"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            page.contains(&format!("<p class=\"clock-line\">{words}</p>")),
            "{page}"
        );
    }
    let (id, white, black) = timed_game(&server, json!({ "minutes": 5, "increment": 3 })).await;
    let before = server.state(&id).await;
    play_turns(&server, &id, [&white, &black], 1).await;
    let (status, body) = server
        .intent(&id, &white, json!({ "type": "offer_takeback" }))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (409, Some("timed_game"))
    );
    assert_eq!(before["clock"]["minutes"], 5);
    server.stop().await;
}

/// Two processes on one PostgreSQL database read the same clock; White is
/// connected to one and Black to the other. When the clock of the player
/// to move reaches zero, both decide it, and the database keeps one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_decide_a_loss_on_time_once() {
    let test = "two_processes_decide_a_loss_on_time_once";
    let Some(schema) = Schema::create(test).await else {
        return;
    };
    let clock = TestClock::starting_at(START);
    let on = |url: String, clock: &TestClock| {
        let wall = clock.wall();
        async move {
            let store = store::open(&url).await.unwrap();
            start_with_store(Arc::new(tempfile::tempdir().unwrap()), store, move |c| {
                c.wall = wall
            })
            .await
        }
    };
    let a = on(schema.url(), &clock).await;
    let b = on(schema.url(), &clock).await;
    let (created, _) = a
        .create(json!({ "first": "me", "clock": { "minutes": 2, "increment": 1 } }))
        .await;
    let id = created["game_id"].as_str().unwrap().to_owned();
    let (joined, _) = b.join(&id, invite_of(&created), None).await;
    let (white, black) = (
        created["seat"].as_str().unwrap().to_owned(),
        joined["seat"].as_str().unwrap().to_owned(),
    );
    let mut w = Ws::connect(&a, &id, Some(&white)).await;
    let mut k = Ws::connect(&b, &id, Some(&black)).await;
    // Played through one process (its state is never behind), watched
    // through both.
    for _ in 0..3 {
        clock.advance(Duration::from_secs(3));
        play_turns(&a, &id, [&white, &black], 1).await;
    }
    let (_, state) = k
        .state_where(|s| {
            s["seq"].as_u64() > Some(0)
                && s["side_to_move"] == "black"
                && s["clock"]["running"] == "black"
        })
        .await;
    let zero = state["clock"]["at"].as_i64().unwrap() + state["clock"]["black"].as_i64().unwrap();
    w.state_where(|s| s["clock"]["running"] == "black").await;
    clock.advance(MINUTE * 3);
    let (_, on_a) = w.state_where(|s| !s["result"].is_null()).await;
    let (_, on_b) = k.state_where(|s| !s["result"].is_null()).await;
    for state in [&on_a, &on_b] {
        assert_eq!(
            state["result"],
            json!({ "winner": "white", "reason": "time" }),
            "{state}"
        );
    }
    assert_eq!(on_a["seq"], on_b["seq"]);
    let store = store::open(&schema.url()).await.unwrap();
    let stored = flags(store.as_ref(), &id).await;
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert_eq!(stored[0].1, zero);
    assert_eq!(Some(stored[0].0 + 1), on_a["seq"].as_u64());
    a.stop().await;
    b.stop().await;
}
