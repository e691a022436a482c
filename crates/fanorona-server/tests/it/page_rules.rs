//! The rules the analysis board and the puzzles play by in the page (the
//! WebAssembly build's `steps`) answer as `GET /api/steps` does, on the
//! positions of random games and on every part of their turns.

use fanorona::{Position, Turn};
use serde_json::Value;

use crate::common::{self, TestServer};

/// The server's answer and the page's for one position and turn so far.
async fn both(server: &TestServer, position: &str, turn: &str) -> (Value, Value) {
    let mut url = reqwest::Url::parse(&server.url("/api/steps")).unwrap();
    url.query_pairs_mut()
        .append_pair("position", position)
        .append_pair("turn", turn);
    let served: Value = server
        .http
        .get(url)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let page = fanorona_wasm::steps::steps(&format!("{position}\n{turn}"));
    let page: Value = serde_json::from_str(&page)
        .unwrap_or_else(|err| panic!("{position} {turn}: not JSON ({err}): {page}"));
    (served, page)
}

/// The turn's first `landings` landings, in notation.
fn prefix(turn: &Turn, landings: usize) -> String {
    let mut part = Turn::new(turn.origin());
    for landing in &turn.landings()[..landings] {
        part.push(landing.to, landing.kind);
    }
    part.to_string()
}

fn assert_same(position: &str, turn: &str, served: &Value, page: &Value) {
    if served["type"] == "error" {
        assert_eq!(
            page["code"], served["code"],
            "{position} turn {turn:?}: the server says {served}, the page {page}"
        );
        assert!(
            page["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{page}"
        );
    } else {
        assert_eq!(page, served, "{position} turn {turn:?}");
    }
}

#[tokio::test]
async fn the_page_s_rules_answer_as_the_server_s_on_random_games() {
    let server = common::start().await;
    let mut rng = fastrand::Rng::with_seed(25);
    let kinds = ["", "A", "W"];
    let mut compared = 0;
    for _game in 0..12 {
        let mut pos = Position::start();
        for _turn in 0..70 {
            let turns = pos.legal_turns();
            if turns.is_empty() {
                break;
            }
            let text = pos.to_string();
            let turn = &turns[rng.usize(..turns.len())];
            // Every part of the turn, the whole, and a step after a part
            // that the rules may or may not allow.
            for landings in 0..=turn.landings().len() {
                let part = if landings == 0 {
                    String::new()
                } else {
                    prefix(turn, landings)
                };
                let (served, page) = both(&server, &text, &part).await;
                assert_same(&text, &part, &served, &page);
                let file = char::from(b'a' + rng.u8(..9));
                let rank = rng.u8(1..=5);
                let kind = kinds[rng.usize(..kinds.len())];
                let base = if landings == 0 {
                    turn.origin().to_string()
                } else {
                    part
                };
                let tried = format!("{base}-{file}{rank}{kind}");
                let (served, page) = both(&server, &text, &tried).await;
                assert_same(&text, &tried, &served, &page);
                compared += 2;
            }
            pos = pos.play(turn).unwrap();
        }
        // The game's last position, over or not.
        let text = pos.to_string();
        let (served, page) = both(&server, &text, "").await;
        assert_same(&text, "", &served, &page);
        compared += 1;
    }
    assert!(compared > 500, "{compared} answers compared");
}

#[tokio::test]
async fn the_page_s_rules_refuse_what_the_server_refuses() {
    let server = common::start().await;
    let chain = "..B....../........./BW.B...../........./......... w";
    let won = "........./........./....W..../........./......... b";
    for (position, turn) in [
        ("nonsense", ""),
        ("BBBBBBBBB/BBBBBBBBB/BBBBBBBBB/BBBBBBBBB/BBBBBBBBB w", ""),
        (chain, "b3-c3X"),
        (chain, "z9-c3A"),
        (chain, "b3"),
        (chain, "b3-b4"),
        (chain, "d3-c3A"),
        (chain, "b3-c3A-b3A"),
        (chain, "b3-c3A-c4A-c5A"),
        (chain, "b3-c3-c4"),
        (won, "e3-e4"),
        ("start", "d2-e3A"),
    ] {
        let (served, page) = both(&server, position, turn).await;
        assert_eq!(served["type"], "error", "{position} {turn}: {served}");
        assert_same(position, turn, &served, &page);
    }
}
