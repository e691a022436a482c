//! Creating and joining games, pages and files, over real HTTP.

use crate::common;

use common::{cookie_pair, invite_of, start, start_in, WAIT};
use fanorona_server::{
    ids::{GameId, Secret},
    store::{self, GameRow},
};
use reqwest::{header, StatusCode};
use serde_json::{json, Value};

#[tokio::test]
async fn create_gives_links_a_seat_and_a_long_lived_cookie() {
    let server = start().await;
    for (first, colors) in [
        ("me", &["white"][..]),
        ("friend", &["black"]),
        ("random", &["white", "black"]),
    ] {
        let (created, cookie) = server.create(json!({ "first": first })).await;
        let id = created["game_id"].as_str().unwrap();
        assert!(id.parse::<GameId>().is_ok(), "{id}");
        assert!(
            colors.contains(&created["color"].as_str().unwrap()),
            "{created}"
        );
        let seat = created["seat"].as_str().unwrap();
        let origin = format!("http://{}", server.addr);
        assert_eq!(created["seat_link"], format!("{origin}/g/{id}?seat={seat}"));
        assert!(created["invite_link"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{origin}/g/{id}?invite=")));
        assert_eq!(created["spectator_link"], format!("{origin}/g/{id}"));
        assert!(cookie.starts_with(&format!("seat_{id}={seat}")), "{cookie}");
        for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=15552000"] {
            assert!(cookie.contains(part), "{cookie} lacks {part}");
        }
        let state = server.state(id).await;
        let creator = created["color"].as_str().unwrap();
        assert_eq!(state["players"][creator]["joined"], true);
        assert_eq!(state["side_to_move"], "white");
    }
}

#[tokio::test]
async fn the_first_other_visitor_joins_and_everyone_later_watches() {
    let server = start().await;
    let (created, creator_cookie) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let invite = invite_of(&created);

    // The creator opening the invitation stays the creator.
    let (again, cookie) = server.join(id, invite, Some(&creator_cookie)).await;
    assert_eq!(again["role"], "white");
    assert_eq!(again["seat"], created["seat"]);
    assert_eq!(cookie, None);
    assert_eq!(server.state(id).await["players"]["black"]["joined"], false);

    // The friend takes the free seat.
    let (friend, friend_cookie) = server.join(id, invite, None).await;
    assert_eq!(friend["role"], "black");
    let friend_cookie = friend_cookie.expect("the joiner's cookie");
    assert!(friend_cookie.starts_with(&format!("seat_{id}=")));
    assert_ne!(friend["seat"], created["seat"]);

    // The same friend again keeps the one seat.
    let (twice, _) = server.join(id, invite, Some(&friend_cookie)).await;
    assert_eq!(twice["role"], "black");
    assert_eq!(twice["seat"], friend["seat"]);

    // A third visitor watches.
    let (third, cookie) = server.join(id, invite, None).await;
    assert_eq!(third["role"], "spectator");
    assert_eq!(third["seat"], serde_json::Value::Null);
    assert_eq!(cookie, None);
    let state = server.state(id).await;
    assert_eq!(state["players"]["white"]["joined"], true);
    assert_eq!(state["players"]["black"]["joined"], true);
}

#[tokio::test]
async fn seat_links_set_the_cookie_and_invite_links_only_show_the_invitation() {
    let server = start().await;
    let (created, creator_cookie) = server.create(json!({ "first": "friend" })).await;
    let id = created["game_id"].as_str().unwrap();
    let get = |path: String, cookie: Option<String>| {
        let mut req = server.http.get(server.url(&path));
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        req.send()
    };
    let invite_path = format!("/g/{id}?invite={}", invite_of(&created));
    let resp = get(
        invite_path.clone(),
        Some(cookie_pair(&creator_cookie).to_owned()),
    )
    .await
    .unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_eq!(resp.headers()[header::LOCATION], format!("/g/{id}"));
    assert!(
        resp.headers().get(header::SET_COOKIE).is_none(),
        "the creator keeps their seat"
    );

    // A visitor without a seat gets the invitation, and no seat.
    let resp = get(invite_path.clone(), None).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers().get(header::SET_COOKIE).is_none());
    assert!(resp.text().await.unwrap().contains("Join the game"));
    assert_eq!(server.state(id).await["players"]["white"]["joined"], false);

    let seat_path = format!("/g/{id}?seat={}", created["seat"].as_str().unwrap());
    let resp = get(seat_path, None).await.unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        cookie_pair(resp.headers()[header::SET_COOKIE].to_str().unwrap()),
        cookie_pair(&creator_cookie)
    );
    let wrong = format!("/g/{id}?seat={}", Secret::random().unwrap().expose());
    let resp = get(wrong, None).await.unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert!(resp.headers().get(header::SET_COOKIE).is_none());

    // Once the friend has joined by the button, the link leads them to
    // the game, and tells anyone else it was used, with the way to watch.
    let (joined, friend_cookie) = server.join(id, invite_of(&created), None).await;
    assert_eq!(joined["role"], "white");
    let friend = friend_cookie.map(|c| cookie_pair(&c).to_owned());
    let resp = get(invite_path.clone(), friend).await.unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_eq!(resp.headers()[header::LOCATION], format!("/g/{id}"));
    let resp = get(invite_path, None).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers().get(header::SET_COOKIE).is_none());
    let page = resp.text().await.unwrap();
    assert!(
        page.contains("This invitation has already been used"),
        "{page}"
    );
    assert!(page.contains(&format!("href=\"/g/{id}\"")), "{page}");
}

#[tokio::test]
async fn an_invitation_nobody_joined_expires_with_a_friendly_page() {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let store = store::open(&common::database_url(&dir)).await.unwrap();
    let invite = Secret::random().unwrap();
    let id = GameId::random().unwrap();
    let seats = fanorona::ByColor {
        white: Some(Secret::random().unwrap().hash()),
        black: None,
    };
    let month_ago = fanorona_server::clock::unix_seconds() - 31 * 86400;
    let row = GameRow {
        id: id.clone(),
        created_at: month_ago,
        start_position: fanorona::Position::start().to_string(),
        creator: fanorona::Color::White,
        seats,
        invite: invite.hash(),
        rematch_of: None,
        next_game: None,
        computer: None,
        time_control: None,
        score: None,
    };
    store.create_game(&row).await.unwrap();
    let server = start_in(dir, |_| {}).await;
    let resp = server
        .http
        .get(server.url(&format!("/g/{id}?invite={}", invite.expose())))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::GONE);
    assert!(resp.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert!(resp
        .text()
        .await
        .unwrap()
        .contains("This invitation has expired"));
    let body = json!({ "invite": invite.expose() }).to_string();
    let (status, error) = server
        .post(&format!("/api/games/{id}/join"), &body, None)
        .await;
    assert_eq!(status, StatusCode::GONE);
    assert_eq!(error["code"], "invitation_expired");
}

#[tokio::test]
async fn unknown_games_and_bad_requests_get_their_documented_errors() {
    let server = start().await;
    let resp = server
        .http
        .get(server.url("/g/0000000000"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    assert!(resp
        .text()
        .await
        .unwrap()
        .contains("There is no game or page at this address"));
    let (status, error) = server
        .post("/api/games/0000000000/join", r#"{"invite":"x"}"#, None)
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("game_not_found"))
    );
    let (status, error) = server.post("/api/games", r#"{"first":"me""#, None).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_json"))
    );
    let (status, error) = server.post("/api/games", r#"{"first":"both"}"#, None).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_message"))
    );
    let (status, error) = server
        .post(
            "/api/games",
            r#"{"first":"me","position":"nonsense"}"#,
            None,
        )
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("bad_position"))
    );
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let (status, error) = server
        .post(
            &format!("/api/games/{id}/join"),
            r#"{"invite":"wrong"}"#,
            None,
        )
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("wrong_invite"))
    );
}

#[tokio::test]
async fn custom_start_positions_are_refused_unless_enabled() {
    let server = start_in(std::sync::Arc::new(tempfile::tempdir().unwrap()), |c| {
        c.allow_custom_start = false;
    })
    .await;
    let body =
        r#"{"first":"me","position":"W......../........./........./........./........B w 0"}"#;
    let (status, error) = server.post("/api/games", body, None).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("custom_start_disabled"))
    );
}

#[tokio::test]
async fn embedded_web_files_are_served_with_types_and_etags() {
    let server = start().await;
    for name in fanorona_server::routes::Web::iter() {
        assert!(!name.starts_with("test/"), "{name} must not be embedded");
        if fanorona_server::routes::TEMPLATES.contains(&name.as_ref()) {
            // Served only filled in, by their routes: never as they are.
            for path in [
                format!("/{name}"),
                format!("/{}", name.trim_end_matches(".html")),
            ] {
                let resp = server.http.get(server.url(&path)).send().await.unwrap();
                assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{path}");
                let body = resp.text().await.unwrap();
                assert!(!body.contains("{{"), "{path}: {body}");
            }
            continue;
        }
        let resp = server
            .http
            .get(server.url(&format!("/{name}")))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{name}");
        assert!(resp.headers().contains_key(header::CONTENT_TYPE), "{name}");
        let etag = resp.headers()[header::ETAG].clone();
        let again = server
            .http
            .get(server.url(&format!("/{name}")))
            .header(header::IF_NONE_MATCH, etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{name}");
    }
    let resp = server
        .http
        .get(server.url("/test/unit/state.test.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    tokio::time::timeout(WAIT, server.stop()).await.unwrap();
}

/// `GET /api/steps` with a query; returns the status and the body as JSON.
async fn steps(server: &common::TestServer, query: &[(&str, &str)]) -> (StatusCode, Value) {
    let mut url = reqwest::Url::parse(&server.url("/api/steps")).unwrap();
    if !query.is_empty() {
        url.query_pairs_mut().extend_pairs(query);
    }
    let resp = server.http.get(url).send().await.unwrap();
    let status = resp.status();
    assert_eq!(
        resp.headers()[header::CONTENT_TYPE],
        "application/json",
        "{query:?}"
    );
    (status, resp.json().await.unwrap())
}

// White's b3-c3 takes d3 by approach or a3 by withdrawal; from c3 the
// stone may go on to take c5.
const CHAIN: &str = "..B....../........./BW.B...../........./......... w";

#[tokio::test]
async fn steps_lists_the_legal_steps_of_a_position_as_the_state_does() {
    let server = start().await;
    let start_text = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0";
    let (status, answer) = steps(&server, &[("position", start_text)]).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (id, _, _) = server.two_player_game(None).await;
    let state = server.state(&id).await;
    for field in [
        "position",
        "side_to_move",
        "turn",
        "legal_steps",
        "can_end_turn",
        "last_turn",
        "result",
    ] {
        assert_eq!(answer[field], state[field], "{field}");
    }
    // Every step onto the empty middle point captures, so nothing else is
    // refused: there is nowhere else to go.
    assert_eq!(answer["refused_steps"], json!([]));

    // Both lines of b3-c3 are offered; a paika of the stone is refused.
    let (_, answer) = steps(&server, &[("position", CHAIN)]).await;
    let mut kinds: Vec<_> = answer["legal_steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["to"].as_str().unwrap(), s["kind"].as_str().unwrap()))
        .collect();
    kinds.sort_unstable();
    assert_eq!(kinds, [("c3", "approach"), ("c3", "withdrawal")]);
    assert!(answer["refused_steps"]
        .as_array()
        .unwrap()
        .contains(&json!({"from": "b3", "to": "b4", "reason": "capture_required"})));
}

#[tokio::test]
async fn steps_plays_the_turn_so_far_and_says_when_it_is_over() {
    let server = start().await;
    let (status, answer) = steps(&server, &[("position", CHAIN), ("turn", "b3-c3A")]).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        answer["position"],
        "..B....../........./B.W....../........./......... w 0"
    );
    assert_eq!(answer["turn"]["notation"], "b3-c3A");
    assert_eq!(answer["turn"]["visited"], json!(["b3", "c3"]));
    assert_eq!(answer["turn"]["captured"], json!(["d3"]));
    assert_eq!(answer["can_end_turn"], true);
    assert_eq!(
        answer["legal_steps"],
        json!([{"from": "c3", "to": "c4", "kind": "approach", "captures": ["c5"]}])
    );
    assert!(answer["refused_steps"]
        .as_array()
        .unwrap()
        .contains(&json!({"from": "c3", "to": "b3", "reason": "revisits_point"})));
    assert_eq!(answer["last_turn"], Value::Null);

    // The last capture ends the turn by itself: Black is to move.
    let (status, answer) = steps(&server, &[("position", CHAIN), ("turn", "b3-c3A-c4A")]).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["turn"], Value::Null);
    assert_eq!(answer["side_to_move"], "black");
    assert_eq!(answer["last_turn"]["notation"], "b3-c3A-c4A");
    assert_eq!(answer["last_turn"]["path"], json!(["b3", "c3", "c4"]));
    assert_eq!(answer["last_turn"]["captured"], json!(["d3", "c5"]));
}

#[tokio::test]
async fn steps_refuses_bad_positions_turns_and_queries_with_their_documented_errors() {
    let server = start().await;
    let documented = common::documented_errors();
    let won = "........./........./....W..../........./......... b";
    for (query, status, code) in [
        (&[("position", "nonsense")][..], 422, "bad_position"),
        (
            &[(
                "position",
                "BBBBBBBBB/BBBBBBBBB/BBBBBBBBB/BBBBBBBBB/BBBBBBBBB w",
            )],
            422,
            "bad_position",
        ),
        (&[], 400, "bad_message"),
        (
            &[("position", CHAIN), ("colour", "white")],
            400,
            "bad_message",
        ),
        (
            &[("position", CHAIN), ("turn", "b3-c3X")],
            400,
            "bad_message",
        ),
        (
            &[("position", CHAIN), ("turn", "z9-c3A")],
            400,
            "bad_message",
        ),
        (
            &[("position", CHAIN), ("turn", "b3-b4")],
            422,
            "capture_required",
        ),
        (
            &[("position", CHAIN), ("turn", "d3-c3A")],
            422,
            "not_your_stone",
        ),
        (
            &[("position", CHAIN), ("turn", "b3-c3A-b3A")],
            422,
            "revisits_point",
        ),
        (
            &[("position", CHAIN), ("turn", "b3-c3A-c4A-c5A")],
            422,
            "turn_already_over",
        ),
        (&[("position", won), ("turn", "e3-e4")], 409, "game_over"),
    ] {
        let (got, error) = steps(&server, query).await;
        assert_eq!(
            (got.as_u16(), error["code"].as_str()),
            (status, Some(code)),
            "{query:?}: {error}"
        );
        assert_eq!(error["type"], "error");
        assert!(!error["message"].as_str().unwrap().is_empty());
        assert_eq!(documented.get(code), Some(&status), "{code} is documented");
    }
}
