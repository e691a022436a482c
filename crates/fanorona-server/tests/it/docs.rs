//! The examples in `docs/API.md` are real: the documented intents and
//! requests are sent to a server, and the state example is the state the
//! server sends in that situation.

use crate::common;

use std::collections::BTreeSet;

use common::{doc_blocks, start, Ws};
use fanorona_server::game::IntentKind;
use reqwest::StatusCode;
use serde_json::{json, Value};

#[tokio::test]
async fn every_documented_intent_is_well_formed_and_every_type_is_documented() {
    let server = start().await;
    let (id, white, _) = server.two_player_game(None).await;
    let mut types = BTreeSet::new();
    for block in doc_blocks("intent") {
        let intent: Value = serde_json::from_str(&block).unwrap();
        types.insert(intent["type"].as_str().unwrap().to_owned());
        let (status, answer) = server
            .post(&format!("/api/games/{id}/intents"), &block, Some(&white))
            .await;
        assert_ne!(status, StatusCode::BAD_REQUEST, "{block}: {answer}");
        assert!(
            answer["type"] == "state" || answer["type"] == "error",
            "{answer}"
        );
    }
    assert_eq!(
        types,
        IntentKind::ALL
            .iter()
            .map(|k| k.name().to_owned())
            .collect()
    );
}

#[tokio::test]
async fn every_documented_request_is_well_formed() {
    let server = start().await;
    let (created, _) = server.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap();
    let blocks = doc_blocks("request");
    assert_eq!(blocks.len(), 5);
    for block in blocks {
        let request: Value = serde_json::from_str(&block).unwrap();
        let path = if request.get("first").is_some() {
            "/api/games".to_owned()
        } else {
            format!("/api/games/{id}/join")
        };
        let (status, answer) = server.post(&path, &block, None).await;
        assert_ne!(status, StatusCode::BAD_REQUEST, "{block}: {answer}");
    }
}

#[tokio::test]
async fn the_documented_state_is_what_the_server_sends() {
    let blocks = doc_blocks("state");
    let documented: Value = serde_json::from_str(&blocks[0]).unwrap();
    let server = start().await;
    let start_position = documented["start_position"].as_str().unwrap();
    let (id, white, black) = server.two_player_game(Some(start_position)).await;
    let luck = json!({ "type": "message", "text": "good_luck" });
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/intents"),
            &luck.to_string(),
            Some(&black),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let mut socket = Ws::connect(&server, &id, Some(&white)).await;
    let step = json!({ "type": "step", "from": "e2", "to": "e3", "kind": "approach" });
    socket.send(&step.to_string()).await;
    let (_, mut state) = socket.state_where(|s| s["seq"] == 2).await;
    let mut expected = documented.clone();
    // The example shows a rematch watched by three: the fields are
    // there, their values are tested in `watching` and `match_score`.
    for field in ["game_id", "version", "watching", "match"] {
        expected[field] = state[field].clone();
    }
    state["players"]["white"]["connected"] = json!(true);
    assert_eq!(state, expected);
}

#[tokio::test]
async fn the_documented_steps_are_what_the_server_answers_to_the_documented_request() {
    let doc = common::api_doc();
    let request = doc
        .lines()
        .find_map(|line| line.strip_prefix("GET /api/steps?"))
        .expect("a documented steps request");
    let documented: Value = serde_json::from_str(&doc_blocks("steps")[0]).unwrap();
    let server = start().await;
    let resp = server
        .http
        .get(server.url(&format!("/api/steps?{request}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let answer: Value = resp.json().await.unwrap();
    assert_eq!(answer, documented);
}

/// Every test `docs/RELIABILITY.md` names as proof exists: `file::name`
/// for `tests/it/file.rs`, or `module::tests::name` in `src/` (`module.rs`
/// or `module/mod.rs`).
#[test]
fn every_test_named_in_the_reliability_doc_exists() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("../../docs/RELIABILITY.md")).unwrap();
    let mut named = 0;
    for quoted in doc.split('`').skip(1).step_by(2) {
        let parts: Vec<&str> = quoted.split("::").collect();
        let (files, name) = match parts[..] {
            [file, name] => (vec![root.join(format!("tests/it/{file}.rs"))], name),
            [ref module @ .., "tests", name] if !module.is_empty() => {
                let module = module.join("/");
                let files = [format!("src/{module}.rs"), format!("src/{module}/mod.rs")];
                (files.map(|f| root.join(f)).to_vec(), name)
            }
            _ => continue,
        };
        let snake = |word: &str| {
            word.chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
        };
        if !parts.iter().all(|part| snake(part)) {
            continue;
        }
        let found = files.iter().any(|file| {
            std::fs::read_to_string(file).is_ok_and(|text| text.contains(&format!("fn {name}(")))
        });
        assert!(found, "{quoted} is named in RELIABILITY.md but not found");
        named += 1;
    }
    assert!(named >= 30, "only {named} tests named");
}

/// The block of `docs/API.md` fenced as ```` ```text record ````.
fn documented_record() -> String {
    let doc = common::api_doc();
    let (_, rest) = doc
        .split_once("```text record\n")
        .expect("docs/API.md shows a record");
    let (block, _) = rest.split_once("```").expect("the record block ends");
    block.to_owned()
}

#[tokio::test]
async fn the_documented_record_is_what_the_server_writes_for_its_game() {
    let documented = documented_record();
    let example: fanorona::Record = documented.parse().unwrap();
    let server = start().await;
    let (id, white, black) = server.two_player_game(None).await;
    for (n, turn) in example.turns().iter().enumerate() {
        let secret = if n % 2 == 0 { &white } else { &black };
        let mut state = Value::Null;
        for step in turn.steps() {
            let step = step.unwrap();
            let kind = step.kind().name();
            let intent = json!({ "type": "step", "from": step.from().to_string(), "to": step.to().to_string(), "kind": kind });
            state = server.play(&id, secret, intent).await;
        }
        if !state["turn"].is_null() {
            server
                .play(&id, secret, json!({ "type": "end_turn" }))
                .await;
        }
    }
    server.play(&id, &white, json!({ "type": "resign" })).await;
    let resp = server
        .http
        .get(server.url(&format!("/api/games/{id}/record")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let written = resp.text().await.unwrap();
    let record: fanorona::Record = written.parse().unwrap();
    let mut expected = example.clone();
    for tag in ["Site", "Created", "Ended"] {
        expected.set_tag(tag, record.tag(tag).unwrap()).unwrap();
    }
    assert_eq!(written, expected.to_string());
    assert_eq!(
        example.to_string(),
        documented,
        "written as the server writes it"
    );
}
