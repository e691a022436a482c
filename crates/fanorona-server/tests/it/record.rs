//! `GET /api/games/{id}/record`: the text record of a game, running or
//! finished, for anyone with the game's link; it replays with the rules
//! crate to the position the game's state shows. `POST /api/records`
//! reads such a record back, turn by turn.

use crate::common;

use std::sync::Arc;

use common::{play_turns, start, start_in, TestServer};
use fanorona::{Record, Score};
use reqwest::{header, StatusCode};
use serde_json::{json, Value};

/// Fetches the record of `id` without credentials, as a spectator would:
/// (status, content type, content disposition, body).
async fn fetch(server: &TestServer, id: &str) -> (StatusCode, String, String, String) {
    let resp = server
        .http
        .get(server.url(&format!("/api/games/{id}/record")))
        .send()
        .await
        .unwrap();
    let header = |name| {
        resp.headers()
            .get(name)
            .map(|v: &header::HeaderValue| v.to_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    let (kind, disposition) = (
        header(header::CONTENT_TYPE),
        header(header::CONTENT_DISPOSITION),
    );
    (resp.status(), kind, disposition, resp.text().await.unwrap())
}

/// A record's time, `2025-06-01T14:03:09Z`, in seconds since the epoch.
fn seconds(text: &str) -> u64 {
    let time = humantime::parse_rfc3339(text).unwrap();
    time.duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The record of `id`, which must be served as a text file to save.
async fn record(server: &TestServer, id: &str) -> Record {
    let (status, kind, disposition, text) = fetch(server, id).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(kind, "text/plain; charset=utf-8");
    assert_eq!(
        disposition,
        format!("attachment; filename=\"fanorona-{id}.txt\"")
    );
    text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[tokio::test]
async fn a_running_game_is_recorded_turn_by_turn_and_replays_to_its_position() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    let state = play_turns(&server, &id, [&white, &black], 6).await;
    assert!(state["result"].is_null());
    let record = record(&server, &id).await;
    assert_eq!(
        record.tag("Site"),
        Some(server.url(&format!("/g/{id}")).as_str())
    );
    assert_eq!(record.tag("White"), Some("the player who started the game"));
    assert_eq!(record.tag("Black"), Some("the invited friend"));
    assert_eq!(record.score(), Some(Score::Unfinished));
    assert_eq!(record.tag("Ended"), None);
    assert_eq!(record.tag("Reason"), None);
    assert!(record
        .tag("Rules")
        .unwrap()
        .contains("capture is compulsory"));
    let moves: Vec<String> = record.turns().iter().map(ToString::to_string).collect();
    assert_eq!(json!(moves), state["moves"]);
    assert_eq!(moves.len(), 6);
    let end = record.replay().unwrap();
    assert_eq!(json!(end.to_string()), state["position"]);
    server.stop().await;
}

#[tokio::test]
async fn a_finished_game_says_who_won_why_and_when_and_keeps_it_after_a_restart() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let server = start_in(dir.clone(), |_| {}).await;
    let (id, white, black) = server.two_player_game(None).await;
    play_turns(&server, &id, [&white, &black], 3).await;
    server.play(&id, &white, json!({ "type": "resign" })).await;
    let before = record(&server, &id).await;
    assert_eq!(before.score(), Some(Score::BlackWins));
    assert_eq!(before.tag("Reason"), Some("Black wins. By resignation."));
    let (created, ended) = (before.tag("Created").unwrap(), before.tag("Ended").unwrap());
    assert!(created.len() == 20 && created.ends_with('Z'), "{created}");
    assert!(ended >= created, "{created} {ended}");
    assert_eq!(before.turns().len(), 3);
    // A rematch asked after the end changes nothing in the record.
    server.play(&id, &black, json!({ "type": "rematch" })).await;
    assert_eq!(record(&server, &id).await, before);
    server.stop().await;

    // Loaded from the store: the same record, the end read back from the
    // time its action was stored (live, the time it was applied, after).
    let server = start_in(dir, |_| {}).await;
    let after = record(&server, &id).await;
    assert_eq!(after.turns(), before.turns());
    for tag in ["Created", "White", "Black", "Result", "Reason"] {
        assert_eq!(after.tag(tag), before.tag(tag), "{tag}");
    }
    let live = seconds(before.tag("Ended").unwrap());
    let stored = seconds(after.tag("Ended").unwrap());
    assert!(live >= stored, "{live} {stored}");
    assert!(stored >= seconds(after.tag("Created").unwrap()));
    server.stop().await;
}

#[tokio::test]
async fn a_game_against_the_computer_names_it_and_its_level() {
    let server = start().await;
    let (created, _) = server
        .create(json!({ "opponent": "computer", "level": 6, "first": "me" }))
        .await;
    let id = created["game_id"].as_str().unwrap();
    let seat = created["seat"].as_str().unwrap();
    server.play(id, seat, json!({ "type": "resign" })).await;
    let record = record(&server, id).await;
    assert_eq!(record.tag("White"), Some("the player who started the game"));
    assert_eq!(record.tag("Black"), Some("Computer · Strongest (level 6)"));
    assert_eq!(record.score(), Some(Score::BlackWins));
    assert!(record.turns().is_empty());
    server.stop().await;
}

#[tokio::test]
async fn a_game_from_a_custom_start_records_it_and_ends_on_the_board() {
    let server = start().await;
    let start = "........./....B..../........./....W..../......... w 0";
    let (created, _) = server
        .create(json!({ "first": "me", "position": start }))
        .await;
    let id = created["game_id"].as_str().unwrap();
    let seat = created["seat"].as_str().unwrap();
    let record_open = record(&server, id).await;
    assert_eq!(
        record_open.tag("Black"),
        Some("nobody yet: the invitation is open")
    );
    let (joined, _) = server.join(id, common::invite_of(&created), None).await;
    assert_eq!(joined["role"], "black");
    let state = server
        .play(
            id,
            seat,
            json!({ "type": "step", "from": "e2", "to": "e3", "kind": "approach" }),
        )
        .await;
    let record = record(&server, id).await;
    assert_eq!(record.tag("Position"), Some(start));
    assert_eq!(record.score(), Some(Score::WhiteWins));
    assert_eq!(
        record.tag("Reason"),
        Some("White wins. All stones captured.")
    );
    assert_eq!(
        json!(record.replay().unwrap().to_string()),
        state["position"]
    );
    server.stop().await;
}

#[tokio::test]
async fn a_takeback_of_the_last_turn_takes_the_end_out_of_the_record() {
    let server = start().await;
    let start = "........./....B..../........./....W..../......... w 0";
    let (created, _) = server
        .create(json!({ "opponent": "computer", "level": 1, "first": "me", "position": start }))
        .await;
    let id = created["game_id"].as_str().unwrap();
    let seat = created["seat"].as_str().unwrap();
    let step = json!({ "type": "step", "from": "e2", "to": "e3", "kind": "approach" });
    server.play(id, seat, step).await;
    let over = record(&server, id).await;
    assert_eq!(over.score(), Some(Score::WhiteWins));
    assert!(over.tag("Ended").is_some());
    let state = server.play(id, seat, json!({ "type": "takeback" })).await;
    assert!(state["result"].is_null(), "{state}");
    let back = record(&server, id).await;
    assert_eq!(back.score(), Some(Score::Unfinished));
    assert_eq!((back.tag("Ended"), back.tag("Reason")), (None, None));
    assert!(back.turns().is_empty());
    server.stop().await;
}

/// The record's sentences are in the language of the request: the answer
/// says which (`Content-Language`) and on what it depends (`Vary`), so a
/// cache never gives one reader's language to another. See: issues/21.
#[tokio::test]
async fn the_record_says_its_language_and_what_chose_it() {
    let server = start().await;
    let (id, _, _) = server.two_player_game(None).await;
    let path = format!("/api/games/{id}/record");
    for (query, headers, lang) in [
        ("", &[][..], "en"),
        (
            "",
            &[("accept-language", "fr-FR,fr;q=0.9,en;q=0.5")][..],
            "fr",
        ),
        (
            "",
            &[("accept-language", "fr"), ("cookie", "lang=mg")][..],
            "mg",
        ),
        ("?lang=fr", &[("cookie", "lang=mg")][..], "fr"),
        ("?lang=xx", &[("accept-language", "mg")][..], "mg"),
    ] {
        let mut request = server.http.get(server.url(&format!("{path}{query}")));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let resp = request.send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let header = |name| {
            resp.headers()
                .get(name)
                .map(|v: &header::HeaderValue| v.to_str().unwrap().to_owned())
        };
        assert_eq!(
            header(header::CONTENT_LANGUAGE).as_deref(),
            Some(lang),
            "{query} {headers:?}"
        );
        let vary = header(header::VARY)
            .unwrap_or_default()
            .to_ascii_lowercase();
        for name in ["accept-language", "cookie"] {
            assert!(vary.contains(name), "Vary: {vary}");
        }
        assert_eq!(header(header::SET_COOKIE), None, "a record sets no cookie");
    }
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_game_has_no_record() {
    let server = start().await;
    for id in ["abcdefghij", "not-an-id", "x"] {
        let (status, kind, disposition, text) = fetch(&server, id).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{id}");
        assert_eq!(kind, "application/json");
        assert_eq!(disposition, "");
        let body: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(body["type"], "error");
        assert_eq!(body["code"], "game_not_found");
    }
    server.stop().await;
}

/// Posts `body` to `/api/records`.
async fn read_back(server: &TestServer, body: &Value) -> (StatusCode, Value) {
    server.post("/api/records", &body.to_string(), None).await
}

#[tokio::test]
async fn a_downloaded_record_reads_back_turn_by_turn_to_the_game_as_it_was() {
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    let state = play_turns(&server, &id, [&white, &black], 8).await;
    let (_, _, _, text) = fetch(&server, &id).await;
    let (status, read) = read_back(&server, &json!({ "record": text })).await;
    assert_eq!(status, StatusCode::OK, "{read}");
    let notations: Vec<&Value> = read["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|turn| &turn["notation"])
        .collect();
    assert_eq!(json!(notations), state["moves"]);
    assert_eq!(read["turns"].as_array().unwrap().len(), 8);
    // What each turn took is what the game says it took (the state
    // writes each turn's points as one string).
    let taken: Vec<String> = read["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|turn| {
            let points = turn["captured"].as_array().unwrap().iter();
            points.map(|p| p.as_str().unwrap()).collect()
        })
        .collect();
    assert_eq!(json!(taken), state["captures"]);
    assert_eq!(read["position"], state["position"]);
    assert_eq!(read["turns"][7]["position"], state["position"]);
    assert_eq!(read["start_position"], state["start_position"]);
    assert_eq!(read["result"], "*");
    let tags = read["tags"].as_array().unwrap();
    assert_eq!(tags[0][0], "Site");
    assert!(tags.iter().any(|tag| tag[0] == "White"));
    // Nothing was created: the same game is still the only one here.
    assert_eq!(server.state(&id).await["seq"], state["seq"]);
}

#[tokio::test]
async fn the_documented_record_reads_back_as_documented() {
    let server = start().await;
    let request: Value = serde_json::from_str(&common::doc_blocks("read-record")[0]).unwrap();
    let answer: Value = serde_json::from_str(&common::doc_blocks("read-record-answer")[0]).unwrap();
    assert_eq!(read_back(&server, &request).await, (StatusCode::OK, answer));
}

#[tokio::test]
async fn a_record_that_is_not_one_or_breaks_the_rules_is_refused_with_its_reason() {
    let server = start().await;
    for (record, says) in [
        ("hello", "line 1"),
        ("1. d3-e3A\n2. d3-e3A\n", "turn 2"),
        ("[Position \"BBBBBBBBB/9/9/9/WWWWWWWWW w 0\"]\n", "Position"),
        (
            "[Position \"........./........./........./........./WWWWWWWWW w 0\"]\n",
            "start",
        ),
        ("1. d3-e3A\n2. d3-e3P\n", "turn 2"),
    ] {
        let (status, error) = read_back(&server, &json!({ "record": record })).await;
        assert_eq!(
            (status, error["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("bad_record")),
            "{record:?}: {error}"
        );
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(says), "{record:?}: {message}");
    }
    let (status, error) = read_back(&server, &json!({ "text": "1. d3-e3A" })).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_message")),
        "{error}"
    );
}
