//! Every malformed or forbidden input gets its documented error, and the
//! state stays byte-for-byte the same.

use crate::common;

use std::{sync::Arc, time::Duration};

use common::{start, start_in, TestServer, Ws};
use fanorona_server::ids::Secret;
use reqwest::StatusCode;

/// Each case: who sends (white, black, a wrong secret, or nobody), the
/// body, and the expected status, code and message.
struct Case {
    who: &'static str,
    body: &'static str,
    status: StatusCode,
    code: &'static str,
    message: &'static str,
}

const CASES: &[Case] = &[
    Case {
        who: "white",
        body: "{not json",
        status: StatusCode::BAD_REQUEST,
        code: "bad_json",
        message: "the message is not a JSON object",
    },
    Case {
        who: "white",
        body: r#"{"type":"fly"}"#,
        status: StatusCode::BAD_REQUEST,
        code: "unknown_type",
        message: "unknown message type \"fly\"",
    },
    Case {
        who: "white",
        body: r#"{"type":"step","from":"d3"}"#,
        status: StatusCode::BAD_REQUEST,
        code: "bad_message",
        message: "bad step message: missing field `to`",
    },
    Case {
        who: "wrong",
        body: r#"{"type":"resign"}"#,
        status: StatusCode::FORBIDDEN,
        code: "wrong_secret",
        message: "this seat secret does not belong to a player of this game",
    },
    Case {
        who: "nobody",
        body: r#"{"type":"resign"}"#,
        status: StatusCode::FORBIDDEN,
        code: "not_a_player",
        message: "only the two players can do this, and you are watching",
    },
    Case {
        who: "black",
        body: r#"{"type":"step","from":"c3","to":"e3","kind":"paika"}"#,
        status: StatusCode::CONFLICT,
        code: "not_your_turn",
        message: "it is not your turn",
    },
    Case {
        who: "white",
        body: r#"{"type":"step","from":"e2","to":"e3","kind":"paika"}"#,
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "capture_required",
        message: "a capture is available, so a paika move is not allowed",
    },
    Case {
        who: "white",
        body: r#"{"type":"step","from":"e2","to":"e3","kind":"withdrawal"}"#,
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "not_a_capture",
        message: "e2-e3W captures nothing by withdrawal",
    },
    Case {
        who: "white",
        body: r#"{"type":"step","from":"c3","to":"e3","kind":"approach"}"#,
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "not_your_stone",
        message: "c3-e3A: the stone on c3 is not yours",
    },
    Case {
        who: "white",
        body: r#"{"type":"end_turn"}"#,
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "cannot_end_turn",
        message: "the turn can only be ended after a capture",
    },
    Case {
        who: "white",
        body: r#"{"type":"accept_draw"}"#,
        status: StatusCode::CONFLICT,
        code: "no_draw_offer",
        message: "your opponent has not offered a draw",
    },
    Case {
        who: "white",
        body: r#"{"type":"claim_victory"}"#,
        status: StatusCode::CONFLICT,
        code: "not_abandoned",
        message:
            "you can claim victory only when your opponent has been away for a while on their turn",
    },
    Case {
        who: "black",
        body: r#"{"type":"message","text":"Hello, you"}"#,
        status: StatusCode::BAD_REQUEST,
        code: "bad_message_text",
        message: "\"Hello, you\" is not one of the preset messages: use good_luck, your_turn, \
                  well_played, sorry, thanks, good_game",
    },
    Case {
        who: "white",
        body: r#"{"type":"message","text":3}"#,
        status: StatusCode::BAD_REQUEST,
        code: "bad_message",
        message: "bad message message: invalid type: integer `3`, expected a string",
    },
    Case {
        who: "nobody",
        body: r#"{"type":"message","text":"good_game"}"#,
        status: StatusCode::FORBIDDEN,
        code: "not_a_player",
        message: "only the two players can do this, and you are watching",
    },
];

async fn game(server: &TestServer) -> (String, String, String) {
    server.two_player_game(None).await
}

/// A server where nobody is ever away long enough to be claimed against,
/// so that no state changes while the test runs.
async fn patient_server() -> TestServer {
    start_in(Arc::new(tempfile::tempdir().unwrap()), |c| {
        c.abandon_after = Duration::from_secs(3600);
    })
    .await
}

#[tokio::test]
async fn refused_http_intents_change_nothing() {
    let server = patient_server().await;
    let (id, white, black) = game(&server).await;
    let wrong = Secret::random().unwrap().expose().to_owned();
    let before = server.state_text(&id).await;
    let documented = common::documented_errors();
    for case in CASES {
        assert_eq!(
            documented.get(case.code),
            Some(&case.status.as_u16()),
            "{} is documented with its status",
            case.code
        );
        let secret = match case.who {
            "white" => Some(white.as_str()),
            "black" => Some(black.as_str()),
            "wrong" => Some(wrong.as_str()),
            _ => None,
        };
        let path = format!("/api/games/{id}/intents");
        let (status, error) = server.post(&path, case.body, secret).await;
        assert_eq!(status, case.status, "{}", case.body);
        assert_eq!(error["type"], "error");
        assert_eq!(error["code"], case.code, "{}", case.body);
        assert_eq!(error["message"], case.message, "{}", case.body);
        assert_eq!(server.state_text(&id).await, before, "{}", case.body);
    }
    let (status, error) = server
        .post(
            "/api/games/0000000000/intents",
            r#"{"type":"resign"}"#,
            Some(&white),
        )
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("game_not_found"))
    );
    let (status, error) = server
        .post(
            &format!("/api/games/{id}/intents"),
            r#"{"type":"resign"}"#,
            Some("short"),
        )
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("wrong_secret"))
    );
    assert_eq!(server.state_text(&id).await, before);
}

#[tokio::test]
async fn refused_socket_messages_go_to_their_sender_and_change_nothing() {
    let server = patient_server().await;
    let (id, white, black) = game(&server).await;
    let mut w = Ws::connect(&server, &id, Some(&white)).await;
    let mut b = Ws::connect(&server, &id, Some(&black)).await;
    let mut spectator = Ws::connect(&server, &id, None).await;
    let (before, _) = w
        .state_where(|s| s["players"]["black"]["connected"] == true && s["watching"] == 1)
        .await;
    for case in CASES.iter().filter(|c| c.who != "wrong") {
        let socket = match case.who {
            "white" => &mut w,
            "black" => &mut b,
            _ => &mut spectator,
        };
        socket.send(case.body).await;
        let error = socket.error().await;
        assert_eq!(error["code"], case.code, "{}", case.body);
        assert_eq!(error["message"], case.message, "{}", case.body);
        assert_eq!(server.state_text(&id).await, before, "{}", case.body);
    }
}

#[tokio::test]
async fn an_unknown_game_has_no_socket_and_no_state() {
    let server = start().await;
    let resp = server
        .http
        .get(server.url("/api/games/0000000000"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    let error: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(error["code"], "game_not_found");
    let url = format!("ws://{}/api/games/0000000000/ws", server.addr);
    let refused = tokio_tungstenite::connect_async(url).await;
    assert!(refused.is_err());
}

#[tokio::test]
async fn nothing_can_be_played_before_the_friend_joins() {
    let server = start().await;
    let (created, _) = server.create(serde_json::json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let before = server.state_text(id).await;
    let (status, error) = server
        .intent(
            id,
            created["seat"].as_str().unwrap(),
            serde_json::json!({ "type": "step", "from": "d3", "to": "e3", "kind": "approach" }),
        )
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::CONFLICT, Some("waiting_for_opponent"))
    );
    assert_eq!(server.state_text(id).await, before);
}

/// A link that leads nowhere gets a page that says why, with its status,
/// never kept by a cache, under the site's CSP, and without the scripts
/// that draw boards.
#[tokio::test]
async fn error_pages_keep_their_status_and_headers_and_load_no_board() {
    let server = start().await;
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let expiring = start_in(dir, |c| c.invite_ttl = Duration::ZERO).await;
    let (open, _) = expiring.create(serde_json::json!({ "first": "me" })).await;
    let expired = format!("/g/{}", open["game_id"].as_str().unwrap());
    let cases = [
        (&server, "/g/NoSuchGame", StatusCode::NOT_FOUND, "Not found"),
        (&server, "/no/such.js", StatusCode::NOT_FOUND, "Not found"),
        (&server, "/message.html", StatusCode::NOT_FOUND, "Not found"),
        (&server, "/message", StatusCode::NOT_FOUND, "Not found"),
        (
            &expiring,
            &expired,
            StatusCode::GONE,
            "This invitation has expired",
        ),
    ];
    for (server, path, status, heading) in cases {
        let resp = server.http.get(server.url(path)).send().await.unwrap();
        assert_eq!(resp.status(), status, "{path}");
        let headers = resp.headers().clone();
        assert_eq!(headers["cache-control"], "no-store", "{path}");
        assert!(headers.contains_key("content-security-policy"), "{path}");
        let mime = headers["content-type"].to_str().unwrap();
        assert!(mime.starts_with("text/html"), "{path}");
        let page = resp.text().await.unwrap();
        assert!(page.contains(&format!(">{heading}</h1>")), "{path}: {page}");
        assert!(!page.contains("{{"), "{path}: {page}");
        // Written in its language by the server: nothing to run.
        assert!(!page.contains("<script"), "{path} loads a script");
    }
}
