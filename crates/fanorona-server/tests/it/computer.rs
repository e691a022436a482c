//! Games against the computer through the API: it answers with legal
//! turns, moves first when asked, and its takebacks, hints and levels are
//! stored like any action and survive a restart.

use crate::common;

use std::{sync::Arc, time::Duration};

use common::{start_in, TestServer, Ws};
use fanorona::{Position, Setup, Turn};
use fanorona_server::Config;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// No thinking time and no delay between the computer's steps.
fn fast(config: &mut Config) {
    config.computer_step_delay = Duration::ZERO;
    config.computer_min_think = Duration::ZERO;
    config.engine_max_time = Duration::from_secs(2);
}

async fn fast_server() -> (TestServer, Arc<tempfile::TempDir>) {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    (start_in(dir.clone(), fast).await, dir)
}

/// Creates a game against the computer: (answer, id, seat secret).
async fn computer_game(server: &TestServer, body: Value) -> (Value, String, String) {
    let (created, _) = server.create(body).await;
    let id = created["game_id"].as_str().unwrap().to_owned();
    let seat = created["seat"].as_str().unwrap().to_owned();
    (created, id, seat)
}

fn step_intent(step: &Value) -> Value {
    json!({ "type": "step", "from": step["from"], "to": step["to"], "kind": step["kind"] })
}

/// Plays one whole turn for the person from `state` (which must be theirs),
/// choosing among the legal steps by `pick`; returns the last state.
async fn person_turn(
    server: &TestServer,
    id: &str,
    seat: &str,
    mut state: Value,
    pick: &mut usize,
) -> Value {
    let mover = state["side_to_move"].clone();
    loop {
        let steps = state["legal_steps"].as_array().unwrap().clone();
        let intent = if state["turn"].is_null() || (!steps.is_empty() && *pick % 3 != 0) {
            *pick = pick.wrapping_mul(31).wrapping_add(7);
            step_intent(&steps[*pick % steps.len()])
        } else {
            json!({ "type": "end_turn" })
        };
        state = server.play(id, seat, intent).await;
        if state["side_to_move"] != mover || !state["result"].is_null() {
            return state;
        }
    }
}

/// Waits until the game is over, or the computer has played and `color`
/// is to move again, after action number `after`.
async fn computer_reply(ws: &mut Ws, color: &Value, after: u64) -> Value {
    let color = color.clone();
    ws.state_where(|s| {
        !s["result"].is_null()
            || (s["seq"].as_u64().unwrap() > after
                && s["side_to_move"] == color
                && s["computer"]["thinking"] == false)
    })
    .await
    .1
}

/// Replays the state's `moves` from its start with the rules crate: every
/// turn must be legal, and they must lead to the state's position.
fn check_moves(state: &Value) {
    let start: Setup = state["start_position"].as_str().unwrap().parse().unwrap();
    let mut pos = Position::from_setup(start).unwrap();
    for notation in state["moves"].as_array().unwrap() {
        let turn: Turn = notation.as_str().unwrap().parse().unwrap();
        pos = pos
            .play(&turn)
            .unwrap_or_else(|e| panic!("{turn} is illegal in {pos}: {e}"));
    }
    if state["turn"].is_null() {
        assert_eq!(pos.to_string(), state["position"], "{state}");
    }
}

#[tokio::test]
async fn a_game_against_the_computer_is_created_at_each_level() {
    let (server, _dir) = fast_server().await;
    let names = [
        "Beginner",
        "Casual",
        "Club",
        "Strong",
        "Expert",
        "Strongest",
    ];
    for (level, name) in (1..=6).zip(names) {
        let body = json!({ "opponent": "computer", "level": level, "first": "me" });
        let (created, id, _) = computer_game(&server, body).await;
        assert_eq!(created["color"], "white");
        assert_eq!(created["invite_link"], Value::Null);
        assert_eq!(
            created["computer"],
            json!({ "color": "black", "level": level, "name": name })
        );
        let state = server.state(&id).await;
        assert_eq!(
            state["computer"],
            json!({ "color": "black", "level": level, "name": name, "thinking": false })
        );
        assert_eq!(
            state["players"]["black"],
            json!({ "joined": true, "connected": true })
        );
    }
    let (friend, _) = server.create(json!({ "first": "me" })).await;
    assert_eq!(friend["computer"], Value::Null);
    assert!(friend["invite_link"].is_string());
    for bad in [
        json!({ "opponent": "computer", "level": 0, "first": "me" }),
        json!({ "opponent": "computer", "level": 7, "first": "me" }),
        json!({ "opponent": "computer", "first": "me" }),
        json!({ "opponent": "computer", "level": 2, "first": "friend" }),
        json!({ "opponent": "friend", "level": 2, "first": "me" }),
        json!({ "level": 2, "first": "computer" }),
        json!({ "opponent": "robot", "level": 2, "first": "me" }),
    ] {
        let (status, error) = server.post("/api/games", &bad.to_string(), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {error}");
        assert_eq!(error["code"], "bad_message", "{bad}");
    }
}

#[tokio::test]
async fn the_computer_answers_every_turn_with_a_legal_one_at_every_level() {
    let (server, _dir) = fast_server().await;
    for level in 1..=6 {
        let body = json!({ "opponent": "computer", "level": level, "first": "me" });
        let (_, id, seat) = computer_game(&server, body).await;
        let mut ws = Ws::connect(&server, &id, Some(&seat)).await;
        let mut pick = level;
        let state = person_turn(&server, &id, &seat, server.state(&id).await, &mut pick).await;
        let after = state["seq"].as_u64().unwrap();
        let reply = computer_reply(&mut ws, &json!("white"), after).await;
        assert_eq!(reply["moves"].as_array().unwrap().len(), 2, "{reply}");
        check_moves(&reply);
    }
}

#[tokio::test]
async fn short_games_against_the_beginner_are_played_to_their_end() {
    let (server, _dir) = fast_server().await;
    let starts = [
        "........./..B.B..../...B...../..W.W..../......... w 0",
        "B.......B/........./....W..../...W.W.../......... w 0",
        "........./..BBB..../........./...WWW.../......... w 40",
    ];
    for (n, start) in starts.into_iter().enumerate() {
        let body = json!({ "opponent": "computer", "level": 1, "first": "me", "position": start });
        let (_, id, seat) = computer_game(&server, body).await;
        let mut ws = Ws::connect(&server, &id, Some(&seat)).await;
        let mut state = server.state(&id).await;
        let mut pick = n;
        for _ in 0..200 {
            if !state["result"].is_null() {
                break;
            }
            state = person_turn(&server, &id, &seat, state, &mut pick).await;
            let after = state["seq"].as_u64().unwrap();
            state = computer_reply(&mut ws, &json!("white"), after).await;
            check_moves(&state);
        }
        assert!(!state["result"].is_null(), "game {n} did not end: {state}");
        check_moves(&state);
        let moves = state["moves"].as_array().unwrap().len();
        assert!(moves >= 2, "{state}");
        // A game that ended on the board can be taken back.
        let back = server.play(&id, &seat, json!({ "type": "takeback" })).await;
        assert_eq!(back["result"], Value::Null, "{back}");
        assert_eq!(back["side_to_move"], "white");
        assert!(back["moves"].as_array().unwrap().len() < moves);
        check_moves(&back);
    }
}

#[tokio::test]
async fn the_computer_moves_first_when_asked() {
    let (server, _dir) = fast_server().await;
    let body = json!({ "opponent": "computer", "level": 2, "first": "computer" });
    let (created, id, seat) = computer_game(&server, body).await;
    assert_eq!(created["color"], "black");
    assert_eq!(created["computer"]["color"], "white");
    let mut ws = Ws::connect(&server, &id, Some(&seat)).await;
    let state = computer_reply(&mut ws, &json!("black"), 0).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 1, "{state}");
    check_moves(&state);
    // Nothing to take back: the person has not played yet.
    let (status, error) = server
        .intent(&id, &seat, json!({ "type": "takeback" }))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error["code"], "nothing_to_take_back");
}

/// Searches run at the lowest priority, so they never take a core from
/// the threads that relay the games between people; the server's other
/// threads keep theirs. The server runs as a process of its own, so that
/// only its threads are read (the other tests' servers share this one's).
#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_search_threads_run_at_the_lowest_priority() {
    use common::process::{spawn_binary, terminate, NO_RATE_LIMITS};
    let dir = tempfile::tempdir().unwrap();
    let database = common::database_url(&dir);
    let mut args = NO_RATE_LIMITS.to_vec();
    args.extend(["--computer-step-delay", "0s", "--computer-min-think", "0s"]);
    let (mut child, addr) = spawn_binary(&database, &args).await;
    let server = TestServer::remote(&addr);
    let body = json!({ "opponent": "computer", "level": 1, "first": "computer" });
    let (_, id, seat) = computer_game(&server, body).await;
    let mut ws = Ws::connect(&server, &id, Some(&seat)).await;
    computer_reply(&mut ws, &json!("black"), 0).await;
    // Each thread's name and nice value, from /proc (the nice value is the
    // 19th field of `stat`, the 17th after the name's closing parenthesis);
    // none for a thread that has ended since its directory was listed.
    let read = |dir: &std::path::Path| -> Option<(String, i32)> {
        let name = std::fs::read_to_string(dir.join("comm")).ok()?;
        let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
        let after_name = &stat[stat.rfind(')')? + 2..];
        let nice = after_name.split(' ').nth(16)?.parse().ok()?;
        Some((name.trim().to_owned(), nice))
    };
    let process = std::path::PathBuf::from(format!("/proc/{}", child.id().unwrap()));
    // The test may itself run niced, and the server with it: its other
    // threads keep the process's nice value.
    let (_, base) = read(&process).expect("the server's own stat");
    let mut searchers = 0;
    let mut others = 0;
    for task in std::fs::read_dir(process.join("task")).unwrap() {
        let Some((name, nice)) = read(&task.unwrap().path()) else {
            continue;
        };
        if name.starts_with("engine-") && name != "engine-watch" {
            assert_eq!(nice, 19, "{name}");
            searchers += 1;
        } else {
            assert_eq!(nice, base, "{name}");
            others += 1;
        }
    }
    assert!(searchers >= 1, "a search thread was found");
    assert!(others >= 2, "the other threads were found");
    drop(ws);
    assert!(terminate(&mut child).await, "the server stops cleanly");
}

/// The fields a takeback restores.
fn board(state: &Value) -> Value {
    json!({
        "position": state["position"],
        "moves": state["moves"],
        "captures": state["captures"],
        "last_turn": state["last_turn"],
        "side_to_move": state["side_to_move"],
    })
}

#[tokio::test]
async fn a_takeback_restores_the_previous_position_and_survives_a_restart() {
    let (server, dir) = fast_server().await;
    let body = json!({ "opponent": "computer", "level": 1, "first": "me" });
    let (_, id, seat) = computer_game(&server, body).await;
    let mut ws = Ws::connect(&server, &id, Some(&seat)).await;
    let white = json!("white");
    let mut pick = 1;
    let s0 = server.state(&id).await;
    let played = person_turn(&server, &id, &seat, s0.clone(), &mut pick).await;
    let s1 = computer_reply(&mut ws, &white, played["seq"].as_u64().unwrap()).await;
    let played = person_turn(&server, &id, &seat, s1.clone(), &mut pick).await;
    let s2 = computer_reply(&mut ws, &white, played["seq"].as_u64().unwrap()).await;
    assert_eq!(s2["moves"].as_array().unwrap().len(), 4, "{s2}");

    let back = server.play(&id, &seat, json!({ "type": "takeback" })).await;
    assert_eq!(board(&back), board(&s1));
    assert_eq!(back["seq"].as_u64(), s2["seq"].as_u64().map(|n| n + 1));
    assert_eq!(back["computer"]["thinking"], false);
    let back = server.play(&id, &seat, json!({ "type": "takeback" })).await;
    assert_eq!(board(&back), board(&s0));
    let (status, error) = server
        .intent(&id, &seat, json!({ "type": "takeback" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("nothing_to_take_back"))
    );
    // Play on from the taken-back position, then take that back too.
    let played = person_turn(&server, &id, &seat, back.clone(), &mut pick).await;
    let s3 = computer_reply(&mut ws, &white, played["seq"].as_u64().unwrap()).await;
    check_moves(&s3);
    let before = server.state(&id).await;
    drop(ws);
    server.stop().await;

    let server = start_in(dir, fast).await;
    let after = server.state(&id).await;
    assert_eq!(board(&after), board(&before));
    assert_eq!(after["seq"], before["seq"]);
    let back = server.play(&id, &seat, json!({ "type": "takeback" })).await;
    assert_eq!(board(&back), board(&s0));
}

#[tokio::test]
async fn a_takeback_while_the_computer_thinks_stops_it() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir, |c| {
        fast(c);
        c.computer_min_think = Duration::from_secs(3600);
    })
    .await;
    let body = json!({ "opponent": "computer", "level": 1, "first": "me" });
    let (_, id, seat) = computer_game(&server, body).await;
    let s0 = server.state(&id).await;
    let mut pick = 2;
    let played = person_turn(&server, &id, &seat, s0.clone(), &mut pick).await;
    assert_eq!(played["computer"]["thinking"], true, "{played}");
    let (status, error) = server.intent(&id, &seat, json!({ "type": "hint" })).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_your_turn"))
    );
    let back = server.play(&id, &seat, json!({ "type": "takeback" })).await;
    assert_eq!(board(&back), board(&s0));
    assert_eq!(back["computer"]["thinking"], false);
}

#[tokio::test]
async fn a_hint_goes_to_its_sender_alone_and_is_stored() {
    let (server, dir) = fast_server().await;
    let body = json!({ "opponent": "computer", "level": 1, "first": "me" });
    let (_, id, seat) = computer_game(&server, body).await;
    let state = server.state(&id).await;
    let legal = state["legal_steps"].as_array().unwrap().clone();
    let is_legal = |hint: &Value| {
        legal.iter().any(|s| {
            s["from"] == hint["from"] && s["to"] == hint["to"] && s["kind"] == hint["kind"]
        })
    };
    let (status, hint) = server.intent(&id, &seat, json!({ "type": "hint" })).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["type"], "hint");
    assert_eq!(hint["end_turn"], false);
    assert!(is_legal(&hint), "{hint}");
    let turn: Turn = hint["turn"].as_str().unwrap().parse().unwrap();
    assert!(Position::start().play(&turn).is_ok(), "{turn}");

    let mut player = Ws::connect(&server, &id, Some(&seat)).await;
    let mut watcher = Ws::connect(&server, &id, None).await;
    player.send(r#"{"type":"hint"}"#).await;
    let answer = loop {
        let message = player.next().await;
        if message["type"] == "hint" {
            break message;
        }
    };
    // Asked again for the same position, it is the first search's answer,
    // neither searched nor stored again.
    assert_eq!(answer, hint);
    // The watcher sees the hint counted, then a new level, and no hint.
    let level = json!({ "type": "set_level", "level": 2 });
    server.play(&id, &seat, level).await;
    loop {
        let message = watcher.next().await;
        assert_ne!(message["type"], "hint", "{message}");
        if message["type"] == "state" && message["seq"] == 2 {
            break;
        }
    }
    drop((player, watcher));
    server.stop().await;
    let server = start_in(dir, fast).await;
    let state = server.state(&id).await;
    assert_eq!(state["seq"], 2);
    assert_eq!(state["computer"]["level"], 2);
}

#[tokio::test]
async fn a_new_level_is_shown_and_stored() {
    let (server, dir) = fast_server().await;
    let body = json!({ "opponent": "computer", "level": 1, "first": "me" });
    let (_, id, seat) = computer_game(&server, body).await;
    let state = server
        .play(&id, &seat, json!({ "type": "set_level", "level": 4 }))
        .await;
    assert_eq!(
        state["computer"],
        json!({ "color": "black", "level": 4, "name": "Strong", "thinking": false })
    );
    assert_eq!(state["seq"], 1);
    let (status, error) = server
        .intent(&id, &seat, json!({ "type": "set_level", "level": 9 }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_message"))
    );
    server.stop().await;
    let server = start_in(dir, fast).await;
    let state = server.state(&id).await;
    assert_eq!(state["computer"]["level"], 4);
    assert_eq!(state["computer"]["name"], "Strong");
}

#[tokio::test]
async fn intents_for_one_kind_of_game_are_refused_in_the_other() {
    let (server, _dir) = fast_server().await;
    let (id, white, _) = server.two_player_game(None).await;
    for intent in ["takeback", "hint", "set_level"] {
        let body = json!({ "type": intent, "level": 3 });
        let (status, error) = server.intent(&id, &white, body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{intent}");
        assert_eq!(error["code"], "not_against_computer", "{intent}");
    }
    let body = json!({ "opponent": "computer", "level": 1, "first": "me" });
    let (_, id, seat) = computer_game(&server, body).await;
    let before = server.state_text(&id).await;
    for intent in ["offer_draw", "accept_draw", "decline_draw", "claim_victory"] {
        let (status, error) = server.intent(&id, &seat, json!({ "type": intent })).await;
        assert_eq!(status, StatusCode::CONFLICT, "{intent}");
        assert_eq!(error["code"], "not_against_computer", "{intent}");
    }
    assert_eq!(server.state_text(&id).await, before);
    let state = server.play(&id, &seat, json!({ "type": "resign" })).await;
    assert_eq!(state["result"]["reason"], "resignation");
    let (status, error) = server
        .intent(&id, &seat, json!({ "type": "takeback" }))
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_over"))
    );
    // A rematch starts the next game at once, colours swapped.
    let state = server.play(&id, &seat, json!({ "type": "rematch" })).await;
    let next = state["next_game"].as_str().unwrap();
    let next_state = server.state(next).await;
    assert_eq!(next_state["computer"]["color"], "white");
    assert_eq!(next_state["computer"]["level"], 1);
    let (status, _) = server
        .intent(next, &seat, json!({ "type": "resign" }))
        .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_restart_while_the_computer_is_to_move_lets_it_move() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir.clone(), |c| {
        fast(c);
        c.computer_min_think = Duration::from_secs(3600);
    })
    .await;
    let body = json!({ "opponent": "computer", "level": 1, "first": "me" });
    let (_, id, seat) = computer_game(&server, body).await;
    let mut pick = 3;
    let played = person_turn(&server, &id, &seat, server.state(&id).await, &mut pick).await;
    assert_eq!(played["side_to_move"], "black");
    server.stop().await;

    let server = start_in(dir, fast).await;
    let mut ws = Ws::connect(&server, &id, Some(&seat)).await;
    let after = played["seq"].as_u64().unwrap();
    let state = computer_reply(&mut ws, &json!("white"), after).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 2, "{state}");
    check_moves(&state);
}

#[tokio::test]
async fn a_full_engine_queue_refuses_new_games_against_the_computer() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir, |c| {
        fast(c);
        c.engine_queue = 0;
    })
    .await;
    let body = json!({ "opponent": "computer", "level": 1, "first": "me" });
    let resp = server
        .http
        .post(server.url("/api/games"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    // Refused at once, with when to come back.
    assert_eq!(resp.headers()["retry-after"], "5");
    let error: Value = resp.json().await.unwrap();
    assert_eq!(error["code"], "busy");
    server.create(json!({ "first": "me" })).await;
}
