//! Whole games over real WebSockets and HTTP: every step is chosen from
//! the legal steps the server sends.

use crate::common;

use std::sync::Arc;

use common::{start, start_in, TestServer, Ws};
use fanorona::{Color, Position, Setup, Square, StepKind};
use reqwest::StatusCode;
use serde_json::{json, Value};

fn step_intent(step: &Value) -> Value {
    json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] })
}

fn captures(step: &Value) -> usize {
    step["captures"].as_array().unwrap().len()
}

/// (file, rank) of a square like `c4`, 0-based.
fn coords(square: &Value) -> (i32, i32) {
    let b = square.as_str().unwrap().as_bytes();
    (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
}

/// The squares holding `stone` (`'W'` or `'B'`) in position text.
fn stones(state: &Value, stone: char) -> Vec<(i32, i32)> {
    let board = state["position"]
        .as_str()
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let mut out = Vec::new();
    for (row, line) in board.split('/').enumerate() {
        for (file, c) in line.chars().enumerate() {
            if c == stone {
                out.push((file as i32, 4 - row as i32));
            }
        }
    }
    out
}

/// Whether after `step` (ending White's turn) Black has no capture, by the
/// rules crate.
fn safe(state: &Value, step: &Value) -> bool {
    let parse = |v: &Value| v.as_str().unwrap().parse::<Square>().unwrap();
    let kind = match step["kind"].as_str().unwrap() {
        "paika" => StepKind::Paika,
        "approach" => StepKind::Approach,
        _ => StepKind::Withdrawal,
    };
    let setup: Setup = state["position"].as_str().unwrap().parse().unwrap();
    let pos = Position::from_setup(setup).unwrap();
    pos.check_step(parse(&step["from"]), parse(&step["to"]), kind)
        .ok()
        .and_then(|s| pos.play_step(s).ok())
        .is_some_and(|after| after.turn() == Color::Black && !after.has_capture())
}

/// White's choice: the most captures, then a step after which Black cannot
/// capture, then the landing nearest to Black.
fn chase(state: &Value) -> Value {
    let black = stones(state, 'B');
    let distance = |step: &Value| {
        let (f, r) = coords(&step["to"]);
        black
            .iter()
            .map(|(bf, br)| (bf - f).abs().max((br - r).abs()))
            .min()
            .unwrap_or(0)
    };
    let steps = state["legal_steps"].as_array().unwrap();
    steps
        .iter()
        .max_by_key(|s| (captures(s), safe(state, s), -distance(s)))
        .unwrap()
        .clone()
}

/// The legal steps whose from/to pair can capture both ways.
fn both_kinds(state: &Value) -> Vec<Value> {
    let steps = state["legal_steps"].as_array().unwrap();
    steps
        .iter()
        .filter(|s| {
            s["kind"] == "withdrawal"
                && steps.iter().any(|o| {
                    o["kind"] == "approach" && o["from"] == s["from"] && o["to"] == s["to"]
                })
        })
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_game_is_played_to_a_win_over_websockets() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    let mut sockets = [
        Ws::connect(&server, &id, Some(&white)).await,
        Ws::connect(&server, &id, Some(&black)).await,
    ];
    for (socket, role) in sockets.iter_mut().zip(["white", "black"]) {
        let welcome = socket.next().await;
        assert_eq!(welcome["type"], "welcome");
        assert_eq!(welcome["role"], role);
        assert!(welcome["seat_link"].as_str().unwrap().contains("?seat="));
    }
    let mut spectator = Ws::connect(&server, &id, None).await;
    let welcome = spectator.next().await;
    assert_eq!(
        (welcome["role"].as_str(), &welcome["seat_link"]),
        (Some("spectator"), &Value::Null)
    );

    let (mut state_text, mut state) = sockets[0]
        .state_where(|s| s["players"]["black"]["connected"] == true)
        .await;
    let (mut chose_kind, mut ended_early) = (false, false);
    while state["result"].is_null() {
        let seq = state["seq"].as_u64().unwrap();
        let mover = usize::from(state["side_to_move"] == "black");
        let socket = &mut sockets[mover];
        let pick;
        if state["can_end_turn"] == true
            && !ended_early
            && !state["legal_steps"].as_array().unwrap().is_empty()
        {
            // A capture chain that could go on: stop it here.
            let notation = state["turn"]["notation"].clone();
            socket.send(r#"{"type":"end_turn"}"#).await;
            let (_, next) = socket.state_where(|s| s["seq"].as_u64() > Some(seq)).await;
            assert!(next["turn"].is_null());
            assert_ne!(next["side_to_move"], state["side_to_move"]);
            assert_eq!(next["moves"].as_array().unwrap().last(), Some(&notation));
            ended_early = true;
            state = next;
            continue;
        } else if let (false, Some(step)) = (chose_kind, both_kinds(&state).first()) {
            // One step, two possible lines: take the withdrawal line.
            pick = step.clone();
            chose_kind = true;
        } else {
            let steps = state["legal_steps"].as_array().unwrap();
            pick = if mover == 0 {
                chase(&state)
            } else {
                steps.iter().min_by_key(|s| captures(s)).unwrap().clone()
            };
        }
        socket.send(&step_intent(&pick).to_string()).await;
        let (text, next) = socket.state_where(|s| s["seq"].as_u64() > Some(seq)).await;
        let taken = if next["turn"].is_null() {
            &next["last_turn"]["captured"]
        } else {
            &next["turn"]["captured"]
        };
        let taken = taken.as_array().unwrap();
        for square in pick["captures"].as_array().unwrap() {
            assert!(taken.contains(square), "{square} was not taken by {pick}");
        }
        state_text = text;
        state = next;
    }
    assert!(chose_kind, "no step offered both capture kinds");
    assert!(ended_early, "no capture chain could be ended early");
    assert_eq!(state["result"]["winner"], "white", "{state}");
    assert!(["no_stones", "no_legal_step"].contains(&state["result"]["reason"].as_str().unwrap()));
    assert_eq!(state["legal_steps"], json!([]));
    // Everyone sees the same bytes, and so does HTTP.
    let (text, _) = sockets[1].state_where(|s| !s["result"].is_null()).await;
    assert_eq!(text, state_text);
    let (text, _) = spectator.state_where(|s| !s["result"].is_null()).await;
    assert_eq!(text, state_text);
    assert_eq!(server.state_text(&id).await, state_text);
}

const TWO_STONES: &str = "W......../........./........./........./........B w 0";

#[tokio::test]
async fn fifty_turns_without_a_capture_is_a_draw() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(Some(TWO_STONES)).await;
    let moves = [
        ("a5", "a4", &white),
        ("i1", "i2", &black),
        ("a4", "a5", &white),
        ("i2", "i1", &black),
    ];
    let mut state = server.state(&id).await;
    for turn in 0..50 {
        assert!(state["result"].is_null(), "ended early at turn {turn}");
        let (from, to, secret) = moves[turn % 4];
        let intent = json!({ "type": "step", "from": from, "to": to, "kind": "paika" });
        state = server.play(&id, secret, intent).await;
        assert_eq!(state["turns_since_capture"], turn + 1);
    }
    assert_eq!(
        state["result"],
        json!({ "winner": null, "reason": "fifty_turns" })
    );
    assert_eq!(state["moves"].as_array().unwrap().len(), 50);
}

#[tokio::test]
async fn resignation_ends_the_game_and_a_rematch_swaps_colours() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    let (status, error) = server
        .intent(&id, &white, json!({ "type": "rematch" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_not_over"))
    );
    let state = server.play(&id, &black, json!({ "type": "resign" })).await;
    assert_eq!(
        state["result"],
        json!({ "winner": "white", "reason": "resignation" })
    );
    let (status, error) = server
        .intent(&id, &black, json!({ "type": "resign" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_over"))
    );

    let mut watcher = Ws::connect(&server, &id, Some(&white)).await;
    let state = server.play(&id, &white, json!({ "type": "rematch" })).await;
    assert_eq!(state["rematch"], json!({ "white": true, "black": false }));
    assert_eq!(state["next_game"], Value::Null);
    let (status, error) = server
        .intent(&id, &white, json!({ "type": "rematch" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("rematch_already_requested"))
    );
    let state = server.play(&id, &black, json!({ "type": "rematch" })).await;
    let next = state["next_game"].as_str().unwrap().to_owned();
    let (_, seen) = watcher.state_where(|s| !s["next_game"].is_null()).await;
    assert_eq!(seen["next_game"], next.as_str());

    // In the new game the old Black plays White and moves first.
    let fresh = server.state(&next).await;
    assert_eq!(fresh["players"]["white"]["joined"], true);
    assert_eq!(fresh["players"]["black"]["joined"], true);
    let opening = json!({ "type": "step", "from": "d3", "to": "e3", "kind": "approach" });
    let (status, error) = server.intent(&next, &white, opening.clone()).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_your_turn"))
    );
    let state = server.play(&next, &black, opening).await;
    assert_eq!(state["moves"], json!(["d3-e3A"]));
    let mut socket = Ws::connect(&server, &next, Some(&black)).await;
    assert_eq!(socket.next().await["role"], "white");
}

/// A rematch of a game from a custom start begins from that start: the
/// position the players chose to play (a puzzle, a lesson) again, colours
/// swapped.
// See: issue 21
#[tokio::test]
async fn a_rematch_begins_from_the_games_own_start() {
    let server = start().await;
    let start = "........./..B.B..../...B...../..W.W..../......... w 0";
    let (id, white, black) = server.two_player_game(Some(start)).await;
    server.play(&id, &black, json!({ "type": "resign" })).await;
    server.play(&id, &white, json!({ "type": "rematch" })).await;
    let state = server.play(&id, &black, json!({ "type": "rematch" })).await;
    let next = state["next_game"].as_str().unwrap();
    let fresh = server.state(next).await;
    assert_eq!(fresh["start_position"], start);
    assert_eq!(fresh["position"], start);
    // The old Black plays White in it.
    let mut socket = Ws::connect(&server, next, Some(&black)).await;
    assert_eq!(socket.next().await["role"], "white");
}

#[tokio::test]
async fn a_draw_offer_can_be_declined_then_accepted() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    let state = server
        .play(&id, &white, json!({ "type": "offer_draw" }))
        .await;
    assert_eq!(state["draw_offer"], "white");
    let (status, error) = server
        .intent(&id, &white, json!({ "type": "offer_draw" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("draw_already_offered"))
    );
    let (status, error) = server
        .intent(&id, &white, json!({ "type": "accept_draw" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_draw_offer"))
    );
    let state = server
        .play(&id, &black, json!({ "type": "decline_draw" }))
        .await;
    assert_eq!(state["draw_offer"], Value::Null);
    assert!(state["result"].is_null());
    let state = server
        .play(&id, &black, json!({ "type": "offer_draw" }))
        .await;
    assert_eq!(state["draw_offer"], "black");
    let state = server
        .play(&id, &white, json!({ "type": "accept_draw" }))
        .await;
    assert_eq!(
        state["result"],
        json!({ "winner": null, "reason": "agreement" })
    );
    assert_eq!(state["draw_offer"], Value::Null);
}

#[tokio::test]
async fn victory_can_be_claimed_when_the_player_to_move_has_left() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    let mut w = Ws::connect(&server, &id, Some(&white)).await;
    let b = Ws::connect(&server, &id, Some(&black)).await;
    w.state_where(|s| s["players"]["black"]["connected"] == true)
        .await;
    w.send(r#"{"type":"step","from":"d3","to":"e3","kind":"approach"}"#)
        .await;
    let (_, state) = w.state_where(|s| s["side_to_move"] == "black").await;
    assert_eq!(state["abandoned"], false);
    w.send(r#"{"type":"claim_victory"}"#).await;
    let error = w.error().await;
    assert_eq!(error["code"], "not_abandoned");

    b.close().await;
    let (_, state) = w.state_where(|s| s["abandoned"] == true).await;
    assert_eq!(state["players"]["black"]["connected"], false);
    w.send(r#"{"type":"claim_victory"}"#).await;
    let (_, state) = w.state_where(|s| !s["result"].is_null()).await;
    assert_eq!(
        state["result"],
        json!({ "winner": "white", "reason": "abandonment" })
    );
}

#[tokio::test]
async fn a_reconnecting_client_gets_the_same_state() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    server
        .play(
            &id,
            &white,
            json!({ "type": "step", "from": "d3", "to": "e3", "kind": "approach" }),
        )
        .await;
    let mut socket = Ws::connect(&server, &id, Some(&black)).await;
    let (_, before) = socket.state_where(|_| true).await;
    socket.close().await;
    let mut socket = Ws::connect(&server, &id, Some(&black)).await;
    assert_eq!(socket.next().await["role"], "black");
    let (_, after) = socket.state_where(|_| true).await;
    for field in [
        "position",
        "side_to_move",
        "moves",
        "legal_steps",
        "last_turn",
        "seq",
        "turn",
    ] {
        assert_eq!(before[field], after[field], "{field}");
    }
    assert!(after["version"].as_u64() > before["version"].as_u64());
}

#[tokio::test]
async fn the_seat_cookie_identifies_a_socket() {
    let server = start().await;
    let (created, cookie) = server.create(json!({ "first": "friend" })).await;
    let id = created["game_id"].as_str().unwrap();
    let mut socket = Ws::connect_cookie(&server, id, common::cookie_pair(&cookie)).await;
    let welcome = socket.next().await;
    assert_eq!(welcome["role"], "black");
    assert_eq!(welcome["seat_link"], created["seat_link"]);
}

#[tokio::test]
async fn another_sites_page_cannot_use_the_seat_cookie() {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let server =
        common::start_in(dir, |c| c.public_url = Some("https://fanorona.test".into())).await;
    let (created, cookie) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let cookie = common::cookie_pair(&cookie);
    for (origin, role) in [
        ("https://evil.test", "spectator"),
        ("https://fanorona.test", "white"),
    ] {
        let mut socket =
            Ws::connect_headers(&server, id, &[("cookie", cookie), ("origin", origin)]).await;
        assert_eq!(socket.next().await["role"], role, "from {origin}");
    }
}

#[tokio::test]
async fn without_a_public_url_the_origin_must_be_the_requests_own_host() {
    let server = common::start().await;
    let (created, cookie) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let cookie = common::cookie_pair(&cookie);
    let own_http = format!("http://{}", server.addr);
    let own_https = format!("https://{}", server.addr);
    let other_port = format!("http://127.0.0.1:{}", server.addr.port() + 1);
    for (origin, role) in [
        (Some("https://evil.test"), "spectator"),
        (Some(other_port.as_str()), "spectator"),
        (Some("null"), "spectator"),
        (Some(own_http.as_str()), "white"),
        (Some(own_https.as_str()), "white"),
        (None, "white"),
    ] {
        let mut headers = vec![("cookie", cookie)];
        headers.extend(origin.map(|o| ("origin", o)));
        let mut socket = Ws::connect_headers(&server, id, &headers).await;
        assert_eq!(socket.next().await["role"], role, "from {origin:?}");
    }
}

/// Plays a whole turn for the side to move in `state`: the first legal
/// step each time, until the other side is to move; returns the last state.
async fn first_legal_turn(server: &TestServer, id: &str, seat: &str, mut state: Value) -> Value {
    let mover = state["side_to_move"].clone();
    while state["side_to_move"] == mover && state["result"].is_null() {
        state = server
            .play(id, seat, step_intent(&state["legal_steps"][0]))
            .await;
    }
    state
}

#[tokio::test]
async fn a_takeback_request_is_declined_then_granted_and_the_game_reloads_as_it_was() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir.clone(), |_| {}).await;
    let (id, white, black) = server.two_player_game(None).await;
    let (status, error) = server
        .intent(&id, &white, json!({ "type": "offer_takeback" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("nothing_to_take_back"))
    );
    let before = server.state(&id).await;
    let state = first_legal_turn(&server, &id, &white, before.clone()).await;
    let state = first_legal_turn(&server, &id, &black, state).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);

    let state = server
        .play(&id, &white, json!({ "type": "offer_takeback" }))
        .await;
    assert_eq!(state["takeback_offer"], "white");
    let (status, error) = server
        .intent(&id, &white, json!({ "type": "accept_takeback" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_takeback_offer"))
    );
    let state = server
        .play(&id, &black, json!({ "type": "decline_takeback" }))
        .await;
    assert_eq!(state["takeback_offer"], Value::Null);
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);

    server
        .play(&id, &white, json!({ "type": "offer_takeback" }))
        .await;
    let state = server
        .play(&id, &black, json!({ "type": "accept_takeback" }))
        .await;
    assert_eq!(state["takeback_offer"], Value::Null);
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["position"], before["position"]);
    assert_eq!(state["side_to_move"], "white");

    // Stored like any action: a server started again replays the same
    // game.
    server.stop().await;
    let restarted = start_in(dir, |_| {}).await;
    let reloaded = restarted.state(&id).await;
    for field in ["position", "moves", "seq", "takeback_offer", "side_to_move"] {
        assert_eq!(reloaded[field], state[field], "{field}");
    }
}
