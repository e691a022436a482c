//! The bad-input table of `docs/RELIABILITY.md`, row by row: each kind of
//! bad input gets its documented answer and changes nothing. Rows proved
//! elsewhere name their test in the table.

use crate::common;

use std::{sync::Arc, time::Duration};

use common::{durable, raw::RawSocket, start_in, TestServer, Ws};
use reqwest::StatusCode;
use serde_json::json;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

async fn patient() -> TestServer {
    start_in(Arc::new(tempfile::tempdir().unwrap()), |c| {
        c.abandon_after = Duration::from_secs(3600);
    })
    .await
}

/// An intent body sent by White over HTTP and over a socket: the status
/// (HTTP) and code expected.
const INTENTS: &[(&str, &str, StatusCode, &str)] = &[
    ("wrong types", r#"{"type":"step","from":1,"to":[],"kind":null}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("kind null", r#"{"type":"step","from":"d3","to":"e3","kind":null}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("kind a number", r#"{"type":"step","from":"d3","to":"e3","kind":7}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("kind an array", r#"{"type":"step","from":"d3","to":"e3","kind":["approach"]}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("kind an object", r#"{"type":"step","from":"d3","to":"e3","kind":{"approach":1}}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("kind true", r#"{"type":"step","from":"d3","to":"e3","kind":true}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("from null", r#"{"type":"step","from":null,"to":"e3","kind":"approach"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("to an object", r#"{"type":"step","from":"d3","to":{},"kind":"approach"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("level null", r#"{"type":"set_level","level":null}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("level an array", r#"{"type":"set_level","level":[4]}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("type not a string", r#"{"type":7}"#, StatusCode::BAD_REQUEST, "unknown_type"),
    ("huge numbers", r#"{"type":"step","from":1e999,"to":"e3","kind":"approach"}"#, StatusCode::BAD_REQUEST, "bad_json"),
    ("huge integer", r#"{"type":"step","from":123456789012345678901234567890,"to":"e3","kind":"approach"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("square off the board", r#"{"type":"step","from":"j9","to":"e3","kind":"approach"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("square in capitals", r#"{"type":"step","from":"D3","to":"E3","kind":"approach"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("empty square", r#"{"type":"step","from":"","to":"e3","kind":"approach"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("unknown capture kind", r#"{"type":"step","from":"d3","to":"e3","kind":"A"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("notation instead of fields", r#"{"type":"step","turn":"d3-e3A"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("not on a line", r#"{"type":"step","from":"d3","to":"h1","kind":"approach"}"#, StatusCode::UNPROCESSABLE_ENTITY, "not_on_a_line"),
    ("empty object", "{}", StatusCode::BAD_REQUEST, "unknown_type"),
    ("type given twice", r#"{"type":"accept_draw","type":"resign"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("escaped type given twice", r#"{"type":"accept_draw","typ\u0065":"resign"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("field given twice", r#"{"type":"step","from":"d3","from":"c3","to":"e3","kind":"approach"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("unknown key given twice", r#"{"type":"resign","by":"white","by":"black"}"#, StatusCode::BAD_REQUEST, "bad_message"),
    ("empty body", "", StatusCode::BAD_REQUEST, "bad_json"),
    ("null", "null", StatusCode::BAD_REQUEST, "bad_json"),
    ("deep nesting", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", StatusCode::BAD_REQUEST, "bad_json"),
];

#[tokio::test]
async fn malformed_intents_are_refused_over_http_and_sockets() {
    let server = patient().await;
    let (id, white, _) = server.two_player_game(None).await;
    let before = server.state_text(&id).await;
    let path = format!("/api/games/{id}/intents");
    let mut ws = Ws::connect(&server, &id, Some(&white)).await;
    for (what, body, status, code) in INTENTS {
        let (got, error) = server.post(&path, body, Some(&white)).await;
        assert_eq!(
            (got, error["code"].as_str()),
            (*status, Some(*code)),
            "{what}"
        );
        ws.send(body).await;
        assert_eq!(ws.error().await["code"], *code, "{what} on a socket");
    }
    let (got, error) = server
        .http
        .post(server.url(&path))
        .bearer_auth(&white)
        .header("content-type", "application/json")
        .body(vec![0xff, 0xfe, b'{'])
        .send()
        .await
        .map(|r| (r.status(), r))
        .unwrap();
    assert_eq!(got, StatusCode::BAD_REQUEST);
    assert_eq!(
        error.json::<serde_json::Value>().await.unwrap()["code"],
        "bad_json"
    );
    assert_eq!(durable(&server.state_text(&id).await), durable(&before));
}

#[tokio::test]
async fn unknown_fields_are_ignored_in_intents_and_refused_in_requests() {
    let server = patient().await;
    let (id, white, black) = server.two_player_game(None).await;
    let extra = r#"{"type":"offer_draw","by":"black","seat":"x"}"#;
    let (status, state) = server
        .post(&format!("/api/games/{id}/intents"), extra, Some(&white))
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(
        state["draw_offer"], "white",
        "the field `by` changes nothing"
    );
    let (status, error) = server
        .post("/api/games", r#"{"first":"me","admin":true}"#, None)
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_message"))
    );
    let _ = black;
}

/// A request body that is a JSON object is `bad_message` whatever its
/// fields hold; serde's enums called `null` or a number there a syntax
/// error, and so `bad_json`. See: issues/21.
#[tokio::test]
async fn wrong_json_types_in_a_request_are_bad_message_not_bad_json() {
    let server = patient().await;
    let (id, _, _) = server.two_player_game(None).await;
    let join = format!("/api/games/{id}/join");
    for (path, body) in [
        ("/api/games", r#"{"first":null}"#),
        ("/api/games", r#"{"first":7}"#),
        ("/api/games", r#"{"first":["me"]}"#),
        ("/api/games", r#"{"first":{}}"#),
        ("/api/games", r#"{"first":"me","opponent":null}"#),
        ("/api/games", r#"{"first":"me","opponent":3}"#),
        (
            "/api/games",
            r#"{"first":"me","opponent":"computer","level":[3]}"#,
        ),
        ("/api/games", r#"{"first":"me","position":12}"#),
        (&join, r#"{"invite":null}"#),
        (&join, r#"{"invite":7}"#),
        (&join, r#"{"invite":"U1F5jtvo2nbP9FZiyArH8x","key":[]}"#),
    ] {
        let (status, error) = server.post(path, body, None).await;
        assert_eq!(
            (status, error["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_message")),
            "{path} {body}"
        );
    }
    // Not an object, or not JSON: `bad_json` (an array was read as the
    // fields in order, and `["me"]` created a game).
    for body in [
        "null",
        "[]",
        r#"["me"]"#,
        "7",
        r#"{"first":"me""#,
        r#"{"first":1e999}"#,
    ] {
        let (status, error) = server.post("/api/games", body, None).await;
        assert_eq!(
            (status, error["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_json")),
            "{body}"
        );
    }
}

#[tokio::test]
async fn bad_position_text_is_refused_on_create() {
    let server = patient().await;
    for position in [
        "",
        "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW w 0",
        "BBBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0",
        "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW x 0",
        "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 99999999999999999999",
        "BBBBBBBBB/BBBBBBBBB/BWBWXBWBW/WWWWWWWWW/WWWWWWWWW w 0",
        "BBBBBBBBB/BBBBBBBBB/BBBBBBBBB/BBBBBBBBB/BBBBBBBBB w 0",
    ] {
        let body = json!({ "first": "me", "position": position }).to_string();
        let (status, error) = server.post("/api/games", &body, None).await;
        assert_eq!(
            (status, error["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("bad_position")),
            "{position:?}"
        );
    }
    let (status, _) = server
        .post("/api/games", r#"{"first":"me","position":12}"#, None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn unknown_ids_and_forged_or_truncated_secrets_are_refused() {
    let server = patient().await;
    let (id, white, _) = server.two_player_game(None).await;
    for bad_id in ["0000000000", "short", "%00", "a%2Fb", &"x".repeat(5000)] {
        let resp = server
            .http
            .get(server.url(&format!("/api/games/{bad_id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{bad_id}");
    }
    let path = format!("/api/games/{id}/intents");
    let truncated = &white[..white.len() - 1];
    let mut flipped = white.clone().into_bytes();
    flipped[0] = if flipped[0] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(flipped).unwrap();
    for secret in [truncated, flipped.as_str(), "", "Bearer", &"A".repeat(400)] {
        let (status, error) = server
            .post(&path, r#"{"type":"resign"}"#, Some(secret))
            .await;
        assert_eq!(
            (status, error["code"].as_str()),
            (StatusCode::FORBIDDEN, Some("wrong_secret")),
            "{secret:?}"
        );
    }
    // On a socket: a malformed secret is refused before the upgrade, a
    // well-formed wrong one only watches.
    let url = format!("ws://{}/api/games/{id}/ws", server.addr);
    let mut req = url.into_client_request().unwrap();
    let bearer = format!("Bearer {truncated}");
    req.headers_mut()
        .insert("authorization", bearer.parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), StatusCode::FORBIDDEN);
        }
        other => panic!("expected 403, got {other:?}"),
    }
    let mut ws = Ws::connect(&server, &id, Some(&flipped)).await;
    assert_eq!(
        ws.next().await["role"],
        "spectator",
        "a forged seat only watches"
    );
    ws.send(r#"{"type":"resign"}"#).await;
    assert_eq!(ws.error().await["code"], "not_a_player");
    assert!(server.state(&id).await["result"].is_null());
}

#[tokio::test]
async fn a_replayed_intent_is_played_once() {
    let server = patient().await;
    let (id, white, _) = server.two_player_game(None).await;
    let step = json!({ "type": "step", "from": "d3", "to": "e3", "kind": "approach" });
    let first = server.play(&id, &white, step.clone()).await;
    let (status, error) = server.intent(&id, &white, step.clone()).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_your_turn"))
    );
    let mut ws = Ws::connect(&server, &id, Some(&white)).await;
    ws.send(&step.to_string()).await;
    assert_eq!(ws.error().await["code"], "not_your_turn");
    let now = server.state(&id).await;
    assert_eq!(
        (now["seq"].clone(), now["moves"].clone()),
        (first["seq"].clone(), first["moves"].clone())
    );
}

/// A frame a client library would not send: what it is, its first byte
/// (FIN, reserved bits, opcode), whether it is masked, its payload, and the
/// close code and reason the server must answer with.
type BrokenFrame = (&'static str, u8, bool, &'static [u8], u16, &'static str);

/// Frames written by hand after a real upgrade.
const BROKEN_FRAMES: &[BrokenFrame] = &[
    (
        "text that is not UTF-8",
        0x81,
        true,
        &[0x7b, 0xff, 0xfe, 0x7d],
        1007,
        "invalid UTF-8",
    ),
    (
        "unmasked frame",
        0x81,
        false,
        br#"{"type":"resign"}"#,
        1002,
        "protocol error",
    ),
    (
        "reserved bit 1 set",
        0xc1,
        true,
        br#"{"type":"resign"}"#,
        1002,
        "protocol error",
    ),
    (
        "reserved bit 3 set",
        0x91,
        true,
        br#"{"type":"resign"}"#,
        1002,
        "protocol error",
    ),
    (
        "unknown data opcode",
        0x83,
        true,
        br#"{"type":"resign"}"#,
        1002,
        "protocol error",
    ),
    (
        "unknown control opcode",
        0x8b,
        true,
        b"",
        1002,
        "protocol error",
    ),
    (
        "fragmented ping",
        0x09,
        true,
        b"ping",
        1002,
        "protocol error",
    ),
    (
        "ping over 125 bytes",
        0x89,
        true,
        &[b'p'; 126],
        1002,
        "protocol error",
    ),
    (
        "continuation with nothing to continue",
        0x80,
        true,
        b"{}",
        1002,
        "protocol error",
    ),
    (
        "frame over 16 KiB",
        0x81,
        true,
        &[b' '; 20_000],
        1009,
        "message too large",
    ),
];

#[tokio::test]
async fn broken_frames_close_the_socket_with_the_code_for_what_is_wrong() {
    let server = patient().await;
    let (id, white, _) = server.two_player_game(None).await;
    let before = server.state_text(&id).await;
    for (what, first, masked, payload, code, reason) in BROKEN_FRAMES {
        let mut socket = RawSocket::connect(&server, &id, &white).await;
        socket.write_frame(*first, *masked, payload).await;
        assert_eq!(
            socket.close_frame().await,
            Some((*code, (*reason).to_owned())),
            "{what}"
        );
    }
    // A message over 16 KiB in fragments that are each small enough.
    let mut socket = RawSocket::connect(&server, &id, &white).await;
    socket.write_frame(0x01, true, &[b' '; 10_000]).await;
    socket.write_frame(0x80, true, &[b' '; 10_000]).await;
    assert_eq!(
        socket.close_frame().await,
        Some((1009, "message too large".to_owned()))
    );
    // A well-formed frame still plays, so the refusals above were for the
    // frames and not the test's way of writing them.
    assert_eq!(durable(&server.state_text(&id).await), durable(&before));
    let mut socket = RawSocket::connect(&server, &id, &white).await;
    socket
        .write_frame(0x81, true, br#"{"type":"resign"}"#)
        .await;
    socket.text_containing("resignation").await;
    assert_eq!(server.state(&id).await["result"]["reason"], "resignation");
}
