//! A link preview must never take a seat: opening an invitation link, by
//! any client and any number of times, changes nothing; the seat is taken
//! by the invitation page's POST, which gives the same seat again to the
//! same join key. A link that seats nobody (used, wrong, expired, or its
//! game deleted) says so, and what to do next.

use crate::common;

use std::{sync::Arc, time::Duration};

use common::{cookie_pair, durable, invite_of, set_cookie, start, start_in, TestServer, Ws};
use reqwest::{header, Method, StatusCode};
use serde_json::{json, Value};

/// The user agents of link previews that fetch every pasted link.
const PREVIEW_AGENTS: [&str; 4] = [
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "WhatsApp/2.23.20.0",
    "TelegramBot (like TwitterBot)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
];

/// Both seats' `joined` flags, as the state says.
async fn seats(server: &TestServer, id: &str) -> (Value, Value) {
    let state = server.state(id).await;
    (
        state["players"]["white"]["joined"].clone(),
        state["players"]["black"]["joined"].clone(),
    )
}

/// Opens `link` with `method`, as a client with no cookie would.
async fn open(
    server: &TestServer,
    method: Method,
    link: &str,
    agent: Option<&str>,
) -> reqwest::Response {
    let mut req = server.http.request(method, link);
    if let Some(agent) = agent {
        req = req.header(header::USER_AGENT, agent);
    }
    req.send().await.unwrap()
}

async fn join_with_key(
    server: &TestServer,
    id: &str,
    body: Value,
) -> (StatusCode, Value, Option<String>) {
    let resp = server
        .http
        .post(server.url(&format!("/api/games/{id}/join")))
        .json(&body)
        .send()
        .await
        .unwrap();
    let cookie = set_cookie(&resp);
    (resp.status(), resp.json().await.unwrap(), cookie)
}

#[tokio::test]
async fn a_link_preview_never_takes_a_seat() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let link = created["invite_link"].as_str().unwrap();
    let mut agents: Vec<Option<&str>> = PREVIEW_AGENTS.iter().copied().map(Some).collect();
    agents.push(None);
    for _ in 0..3 {
        for &agent in &agents {
            for method in [Method::HEAD, Method::GET] {
                let resp = open(&server, method.clone(), link, agent).await;
                assert_eq!(resp.status(), StatusCode::OK, "{method} {agent:?}");
                assert!(
                    resp.headers().get(header::SET_COOKIE).is_none(),
                    "{method} {agent:?} got a seat cookie"
                );
                let body = resp.text().await.unwrap();
                if method == Method::GET {
                    assert!(body.contains("Join the game"), "{agent:?}: {body}");
                } else {
                    assert!(body.is_empty());
                }
            }
        }
    }
    assert_eq!(
        seats(&server, id).await,
        (json!(true), json!(false)),
        "the friend's seat is still free"
    );
    // The friend, pressing the button, still gets it.
    let (joined, cookie) = server.join(id, invite_of(&created), None).await;
    assert_eq!(joined["role"], "black");
    assert!(cookie.is_some());
    assert_eq!(seats(&server, id).await, (json!(true), json!(true)));
}

#[tokio::test]
async fn the_invitation_page_has_preview_tags_and_no_token_or_secret() {
    let server = start().await;
    let (created, creator_cookie) = server.create(json!({ "first": "friend" })).await;
    let id = created["game_id"].as_str().unwrap();
    let origin = format!("http://{}", server.addr);
    let token = invite_of(&created);
    let seat = created["seat"].as_str().unwrap();
    let resp = server
        .http
        .get(created["invite_link"].as_str().unwrap())
        .header(header::ACCEPT_ENCODING, "identity")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()[header::CACHE_CONTROL], "no-store");
    assert!(resp.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let page = resp.text().await.unwrap();
    let canonical = format!("{origin}/g/{id}");
    for tag in [
        format!("<link rel=\"canonical\" href=\"{canonical}\">"),
        format!("<meta property=\"og:url\" content=\"{canonical}\">"),
        format!("<meta property=\"og:image\" content=\"{origin}/preview.png\">"),
        "<meta property=\"og:title\" content=\"Play Fanorona with me\"".to_owned(),
        "<meta property=\"og:description\" content=\"".to_owned(),
        "<meta property=\"og:type\" content=\"website\">".to_owned(),
        "<meta property=\"og:image:width\" content=\"1200\">".to_owned(),
        "<meta property=\"og:image:height\" content=\"630\">".to_owned(),
        "<meta name=\"twitter:card\" content=\"summary_large_image\">".to_owned(),
    ] {
        assert!(page.contains(&tag), "the invitation lacks {tag}");
    }
    // The creator plays Black: the friend is told they play White and begin.
    assert!(page.contains("Your friend plays Black."), "{page}");
    assert!(
        page.contains("You play White, and White moves first"),
        "{page}"
    );
    assert!(page.contains("capture is compulsory"));
    assert!(
        page.contains(&format!("href=\"/g/{id}\"")),
        "a way to just watch"
    );
    assert!(!page.contains("{{"), "a mark is left unfilled");
    assert!(!page.contains(token), "the invitation token is in the page");
    assert!(!page.contains(seat), "a seat secret is in the page");

    // The game page carries the same tags, never a secret, never cached,
    // even for the seat holder.
    let resp = server
        .http
        .get(server.url(&format!("/g/{id}")))
        .header(header::COOKIE, cookie_pair(&creator_cookie))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()[header::CACHE_CONTROL], "no-store");
    let game = resp.text().await.unwrap();
    assert!(game.contains(&format!("<link rel=\"canonical\" href=\"{canonical}\">")));
    assert!(game.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"));
    assert!(!game.contains("{{"));
    assert!(!game.contains(token) && !game.contains(seat));
    assert_eq!(seats(&server, id).await, (json!(false), json!(true)));
}

#[tokio::test]
async fn a_join_repeated_with_its_key_gets_the_same_seat_and_another_key_watches() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let invite = invite_of(&created);
    let key = "k3Y-of_the_friends_tab1";
    // The answer to the first try is lost: the second try, with no cookie,
    // gets the same seat, secret and cookie.
    let (status, first, first_cookie) =
        join_with_key(&server, id, json!({ "invite": invite, "key": key })).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let (status, again, again_cookie) =
        join_with_key(&server, id, json!({ "invite": invite, "key": key })).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(first["role"], "black");
    assert_eq!(again["role"], "black");
    assert_eq!(again["seat"], first["seat"]);
    assert_eq!(again["seat_link"], first["seat_link"]);
    let secret = first["seat"].as_str().unwrap();
    assert_ne!(secret, created["seat"].as_str().unwrap());
    for cookie in [first_cookie, again_cookie] {
        let cookie = cookie.expect("the seat cookie");
        assert_eq!(cookie_pair(&cookie), format!("seat_{id}={secret}"));
    }
    // The secret holds the seat.
    let mut socket = Ws::connect(&server, id, Some(secret)).await;
    let welcome = socket.next().await;
    assert_eq!(welcome["role"], "black", "{welcome}");
    socket.close().await;

    // Another browser, with its own key, watches.
    let (status, other, cookie) = join_with_key(
        &server,
        id,
        json!({ "invite": invite, "key": "another-browsers-key-22" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(other["role"], "spectator");
    assert_eq!(other["seat"], Value::Null);
    assert_eq!(other["seat_link"], Value::Null);
    assert_eq!(cookie, None);
    // And the first key still finds its seat.
    let (_, third, _) = join_with_key(&server, id, json!({ "invite": invite, "key": key })).await;
    assert_eq!(third["seat"], first["seat"]);
    assert_eq!(seats(&server, id).await, (json!(true), json!(true)));
}

#[tokio::test]
async fn a_malformed_join_key_is_refused_and_changes_nothing() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let invite = invite_of(&created);
    let before = durable(&server.state_text(id).await);
    for key in [
        json!("short"),
        json!("a".repeat(21)),
        json!("a".repeat(65)),
        json!(format!("{}=", "a".repeat(22))),
        json!(format!("{} ", "a".repeat(22))),
        json!(format!("{}é", "a".repeat(22))),
        json!(""),
        json!(12345),
        json!(["a"]),
    ] {
        let (status, error, cookie) =
            join_with_key(&server, id, json!({ "invite": invite, "key": key })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{key}: {error}");
        assert_eq!(error["code"], "bad_message", "{key}");
        if key.is_string() {
            let message = error["message"].as_str().unwrap();
            assert!(message.contains("invalid join key"), "{key}: {message}");
        }
        assert_eq!(cookie, None, "{key}");
    }
    assert_eq!(durable(&server.state_text(id).await), before);
    assert_eq!(seats(&server, id).await, (json!(true), json!(false)));
}

#[tokio::test]
async fn the_creators_own_invite_link_leads_to_the_board() {
    let server = start().await;
    let (created, cookie) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let link = created["invite_link"].as_str().unwrap();
    let bearer = format!("Bearer {}", created["seat"].as_str().unwrap());
    for (name, value) in [
        (header::COOKIE, cookie_pair(&cookie).to_owned()),
        (header::AUTHORIZATION, bearer),
    ] {
        for method in [Method::GET, Method::HEAD] {
            let resp = server
                .http
                .request(method.clone(), link)
                .header(name.clone(), &value)
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), StatusCode::SEE_OTHER, "{method} {name}");
            assert_eq!(resp.headers()[header::LOCATION], format!("/g/{id}"));
            assert!(resp.headers().get(header::SET_COOKIE).is_none());
        }
    }
    assert_eq!(seats(&server, id).await, (json!(true), json!(false)));
}

/// Opens `link` as a friend's browser with no cookie, in `lang`: the
/// status and the page.
async fn page_of(server: &TestServer, link: &str, lang: &str) -> (StatusCode, String) {
    let resp = server
        .http
        .get(format!(
            "{link}{}lang={lang}",
            if link.contains('?') { '&' } else { '?' }
        ))
        .send()
        .await
        .unwrap();
    // The link's `lang` is remembered; no seat cookie is ever set.
    for cookie in resp.headers().get_all(header::SET_COOKIE) {
        let cookie = cookie.to_str().unwrap();
        assert!(cookie.starts_with("lang="), "{link} set {cookie}");
    }
    (resp.status(), resp.text().await.unwrap())
}

/// Whether `page` shows the message `key` (its heading and text) with
/// `texts` in them, and its button leads to `href` as `action`.
fn explains(page: &str, key: &str, texts: &[&str], href: &str, action: &str) {
    assert!(
        page.contains(&format!("data-i18n=\"{key}.h\"")),
        "{key}: {page}"
    );
    assert!(
        page.contains(&format!("data-i18n=\"{key}.p\"")),
        "{key}: {page}"
    );
    for text in texts {
        assert!(page.contains(text), "{text} not in {page}");
    }
    let button = format!("href=\"{href}\" data-i18n=\"{action}\"");
    assert!(page.contains(&button), "{button} not in {page}");
    assert!(!page.contains("id=\"join\""), "a Join button in {page}");
}

#[tokio::test]
async fn a_used_invitation_says_both_seats_are_taken_and_offers_to_watch() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let link = created["invite_link"].as_str().unwrap();
    let (joined, friend) = server.join(id, invite_of(&created), None).await;
    let before = durable(&server.state_text(id).await);
    let watch = format!("/g/{id}");
    for (lang, texts) in [
        (
            "en",
            [
                "This invitation has already been used",
                "Both seats are taken. Ask your friend for a new link, or watch the game.",
            ],
        ),
        (
            "fr",
            [
                "Cette invitation a déjà servi",
                "Les deux places sont prises.",
            ],
        ),
        (
            "mg",
            [
                "Efa nampiasaina ity fanasana ity",
                "Angataho rohy vaovao amin&#39;ny namanao",
            ],
        ),
    ] {
        let (status, page) = page_of(&server, link, lang).await;
        assert_eq!(status, StatusCode::OK, "{lang}");
        explains(&page, "used", &texts, &watch, "invite.watchGame");
        assert!(page.contains(&format!("<html lang=\"{lang}\">")));
        assert!(
            !page.contains(invite_of(&created)),
            "the token is in the page"
        );
        assert!(!page.contains(joined["seat"].as_str().unwrap()));
        assert!(!page.contains(created["seat"].as_str().unwrap()));
    }
    let resp = open(&server, Method::HEAD, link, Some(PREVIEW_AGENTS[1])).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers().get(header::SET_COOKIE).is_none());
    // The friend who joined, with their cookie, still goes to the board.
    let resp = server
        .http
        .get(link)
        .header(
            header::COOKIE,
            cookie_pair(&friend.expect("the seat cookie")),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    assert_eq!(resp.headers()[header::LOCATION], watch);
    assert_eq!(
        durable(&server.state_text(id).await),
        before,
        "looking changed nothing"
    );
}

#[tokio::test]
async fn a_wrong_invitation_token_is_explained_with_403_and_takes_nothing() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let watch = format!("/g/{id}");
    let token = invite_of(&created);
    // Mistyped (another token of the right form), cut short, not a token.
    let cut = &token[..token.len() - 3];
    for bad in ["x".repeat(22), cut.to_owned(), "%3Cscript%3E".to_owned()] {
        let link = server.url(&format!("/g/{id}?invite={bad}"));
        for (lang, text) in [
            ("en", "This invitation link is wrong"),
            ("fr", "Ce lien d’invitation est erroné"),
            ("mg", "Diso ny fanasana ao amin&#39;ity rohy ity"),
        ] {
            let (status, page) = page_of(&server, &link, lang).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{bad} {lang}");
            explains(&page, "wrong", &[text], &watch, "invite.watchGame");
            assert!(!page.contains(token) && !page.contains(created["seat"].as_str().unwrap()));
            assert!(!page.contains("<script"), "{page}");
        }
        for agent in PREVIEW_AGENTS {
            let resp = open(&server, Method::GET, &link, Some(agent)).await;
            assert_eq!(resp.status(), StatusCode::FORBIDDEN, "{agent}");
            assert!(resp.headers().get(header::SET_COOKIE).is_none());
        }
    }
    // The full game says a wrong token is wrong, not that it was used.
    server.join(id, token, None).await;
    let (status, page) = page_of(
        &server,
        &server.url(&format!("/g/{id}?invite={}", "y".repeat(22))),
        "en",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    explains(
        &page,
        "wrong",
        &["is not this game’s"],
        &watch,
        "invite.watchGame",
    );
}

#[tokio::test]
async fn an_invitation_link_to_no_game_says_it_may_have_expired() {
    let server = start().await;
    // What the link of an invitation deleted by the sweep finds, as a
    // mistyped game id does.
    let link = server.url(&format!("/g/NoSuchGame?invite={}", "x".repeat(22)));
    for (lang, text) in [
        (
            "en",
            "An invitation nobody accepts within 30 days expires and is deleted",
        ),
        ("fr", "Cette invitation n’existe plus"),
        ("mg", "Tsy misy intsony ity fanasana ity"),
    ] {
        let (status, page) = page_of(&server, &link, lang).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{lang}");
        explains(&page, "gone", &[text], "/", "game.newGame");
    }
    // Without an invitation, the page of an unknown game stays "not found".
    let (status, page) = page_of(&server, &server.url("/g/NoSuchGame"), "en").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    explains(&page, "missing", &["Not found"], "/", "game.newGame");
}

#[tokio::test]
async fn an_expired_invitation_link_gets_410_for_get_and_head() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir, |c| c.invite_ttl = Duration::ZERO).await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let link = created["invite_link"].as_str().unwrap();
    for method in [Method::GET, Method::HEAD] {
        let resp = open(&server, method.clone(), link, Some(PREVIEW_AGENTS[0])).await;
        assert_eq!(resp.status(), StatusCode::GONE, "{method}");
        assert!(resp.headers().get(header::SET_COOKIE).is_none());
    }
    for (lang, text) in [
        ("en", "This invitation has expired"),
        ("fr", "Cette invitation a expiré"),
        ("mg", "Lany daty ity fanasana ity"),
    ] {
        let (status, page) = page_of(&server, link, lang).await;
        assert_eq!(status, StatusCode::GONE, "{lang}");
        explains(&page, "expired", &[text], "/", "game.newGame");
    }
    let (status, error, _) = join_with_key(
        &server,
        id,
        json!({ "invite": invite_of(&created), "key": "k".repeat(22) }),
    )
    .await;
    assert_eq!(status, StatusCode::GONE);
    assert_eq!(error["code"], "invitation_expired");
    assert_eq!(seats(&server, id).await, (json!(true), json!(false)));
}
