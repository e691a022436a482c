//! The answer of `GET /api/steps`: what the rules allow in a position, with
//! a turn perhaps begun there, in the fields and forms of the state
//! message, and why they refuse the other steps a stone could try.

use fanorona::Color;
use serde::Serialize;
use serde_json::value::RawValue;

use super::state::{
    color_str, last_turn_view, name, result_view, turn_view, write_legal_steps, EncodeError,
    LastTurnView, ResultView, TurnView,
};
use crate::game::Game;

#[derive(Serialize)]
struct StepsView<'a> {
    position: String,
    #[serde(serialize_with = "color_str")]
    side_to_move: Color,
    turn: Option<TurnView<'a>>,
    legal_steps: Box<RawValue>,
    refused_steps: Vec<RefusedView>,
    can_end_turn: bool,
    last_turn: Option<LastTurnView<'a>>,
    result: Option<ResultView>,
}

#[derive(Serialize)]
struct RefusedView {
    from: &'static str,
    to: &'static str,
    reason: &'static str,
}

/// The steps answer for `game`: a game made from the position asked about,
/// with the steps of the turn so far played in it.
///
/// # Errors
///
/// [`EncodeError`] when a part cannot be written as JSON: a bug.
pub fn encode_steps(game: &Game) -> Result<String, EncodeError> {
    let pos = &game.position;
    let over = game.result.is_some();
    let mut steps = b"[".to_vec();
    if !over {
        write_legal_steps(&mut steps, pos);
    }
    steps.push(b']');
    let refused = if over {
        Vec::new()
    } else {
        pos.refused_steps()
    };
    let view = StepsView {
        position: pos.to_string(),
        side_to_move: pos.turn(),
        turn: turn_view(game),
        legal_steps: RawValue::from_string(String::from_utf8(steps)?)?,
        refused_steps: refused
            .into_iter()
            .map(|r| RefusedView {
                from: name(r.from),
                to: name(r.to),
                reason: r.reason.code(),
            })
            .collect(),
        can_end_turn: !over && pos.can_end_turn(),
        last_turn: game.last.as_ref().map(last_turn_view),
        result: result_view(game),
    };
    Ok(serde_json::to_string(&view)?)
}

#[cfg(test)]
mod tests {
    use fanorona::{Position, Setup, Turn};

    use super::*;
    use crate::game::{Action, Intent};

    fn position(text: &str) -> Position {
        let setup: Setup = text.parse().expect("position text");
        Position::from_setup(setup).expect("a valid position")
    }

    fn play(text: &str, turn: &str) -> Game {
        let mut game = Game::new(position(text));
        let turn: Turn = turn.parse().expect("notation");
        let mut from = turn.origin();
        for landing in turn.landings() {
            let intent = Intent::Step {
                from,
                to: landing.to,
                kind: landing.kind,
            };
            let by = game.position.turn();
            game.apply(Action { by, intent }).expect("legal");
            from = landing.to;
        }
        game
    }

    // White's b3-c3 can take a3 by withdrawal or d3 by approach; from c3
    // the stone can go on to take c5 by approach.
    const CHAIN: &str = "..B....../........./BW.B...../........./......... w";

    #[test]
    fn the_answer_carries_the_state_fields_and_the_refusals() {
        let game = play(CHAIN, "b3-c3A");
        let json: serde_json::Value =
            serde_json::from_str(&encode_steps(&game).expect("encodes")).expect("JSON");
        assert_eq!(json["turn"]["notation"], "b3-c3A");
        assert_eq!(json["turn"]["captured"], serde_json::json!(["d3"]));
        assert_eq!(json["side_to_move"], "white");
        assert_eq!(json["can_end_turn"], true);
        assert_eq!(
            json["legal_steps"],
            serde_json::json!([{"from": "c3", "to": "c4", "kind": "approach", "captures": ["c5"]}])
        );
        assert!(json["refused_steps"].as_array().is_some_and(|list| list
            .contains(&serde_json::json!({"from": "c3", "to": "b3", "reason": "revisits_point"}))));
        assert_eq!(json["last_turn"], serde_json::Value::Null);
    }
}
