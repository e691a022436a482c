//! Games played through several server processes on one database.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::{durable, invite_of, TestServer};

/// A game created through `a` and joined through `b`: (id, white's
/// secret, black's secret).
pub async fn game_across(a: &TestServer, b: &TestServer) -> (String, String, String) {
    let (created, _) = a.create(json!({ "first": "me" })).await;
    let id = created["game_id"].as_str().unwrap().to_owned();
    let (joined, _) = b.join(&id, invite_of(&created), None).await;
    assert_eq!(joined["role"], "black");
    (
        id,
        created["seat"].as_str().unwrap().to_owned(),
        joined["seat"].as_str().unwrap().to_owned(),
    )
}

/// The intent that plays one of the legal steps of `state`, chosen by
/// `rng`, or ends the turn.
pub fn some_intent(state: &Value, rng: &mut fastrand::Rng) -> Value {
    let steps = state["legal_steps"].as_array().unwrap();
    if steps.is_empty() || (state["can_end_turn"] == true && rng.u8(..4) == 0) {
        return json!({ "type": "end_turn" });
    }
    some_step(state, rng)
}

/// The intent that plays one of the legal steps of `state`, which has
/// some, chosen by `rng`.
fn some_step(state: &Value, rng: &mut fastrand::Rng) -> Value {
    let steps = state["legal_steps"].as_array().unwrap();
    let s = &steps[rng.usize(..steps.len())];
    json!({ "type": "step", "from": s["from"], "to": s["to"], "kind": s["kind"] })
}

/// Sends two intents for the turn of `state` at the same instant, one
/// through `a` and one through `b`, for `secret`'s holder. Exactly one
/// must be played: returns the winner's new state and whether the loser
/// was refused as `game_changed` (its process had not yet heard of the
/// winner) rather than by the rules in the new state.
pub async fn race(
    (a, b): (&TestServer, &TestServer),
    id: &str,
    secret: &str,
    state: &Value,
    rng: &mut fastrand::Rng,
) -> (Value, bool) {
    let seq = state["seq"].as_u64().unwrap();
    // Two ends of turn, or two steps: whichever is played first, the
    // other is refused. A step then an end of turn could both be played
    // (the chain goes on, then stops), and a process that had heard of
    // the first would rightly accept the second.
    let one = some_intent(state, rng);
    let other = if one["type"] == "end_turn" {
        one.clone()
    } else {
        some_step(state, rng)
    };
    let ((status_a, answer_a), (status_b, answer_b)) =
        tokio::join!(a.intent(id, secret, one), b.intent(id, secret, other));
    let (won, lost, status) = match (status_a, status_b) {
        (StatusCode::OK, s) if s != StatusCode::OK => (answer_a, answer_b, s),
        (s, StatusCode::OK) if s != StatusCode::OK => (answer_b, answer_a, s),
        _ => panic!("action {seq}: {status_a} {answer_a} / {status_b} {answer_b}"),
    };
    assert_eq!(won["seq"].as_u64(), Some(seq + 1), "{won}");
    assert_eq!(lost["type"], "error", "{lost}");
    let changed = lost["code"] == "game_changed";
    if changed {
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            durable(&lost["state"].to_string()),
            durable(&won.to_string()),
            "the refusal holds the new state"
        );
    } else {
        assert!(status.is_client_error(), "{status} {lost}");
    }
    (won, changed)
}
