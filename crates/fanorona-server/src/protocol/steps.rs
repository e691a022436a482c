//! The answer of `GET /api/steps`: what the rules allow in a position, with
//! a turn perhaps begun there, in the fields and forms of the state
//! message, and why they refuse the other steps a stone could try.

use fanorona::{Color, Direction, PlayError, Position, Square, Step, StepError, StepKind};
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
    let refused = if over { Vec::new() } else { refused_steps(pos) };
    let view = StepsView {
        position: pos.to_string(),
        side_to_move: pos.turn(),
        turn: turn_view(game),
        legal_steps: RawValue::from_string(String::from_utf8(steps)?)?,
        refused_steps: refused
            .into_iter()
            .map(|(from, to, reason)| RefusedView {
                from: name(from),
                to: name(to),
                reason: reason.code(),
            })
            .collect(),
        can_end_turn: !over && pos.can_end_turn(),
        last_turn: game.last.as_ref().map(last_turn_view),
        result: result_view(game),
    };
    Ok(serde_json::to_string(&view)?)
}

/// Every step onto an empty neighbouring point that a stone of the side to
/// move (the capturing stone, during a turn) could try and the rules
/// refuse, with the rules' reason. A step that would take stones is judged
/// as that capture (its direction repeats, its point was visited); any
/// other as a step that takes nothing (a capture is compulsory, or only
/// captures continue a turn).
pub(crate) fn refused_steps(pos: &Position) -> Vec<(Square, Square, StepError)> {
    let legal = pos.legal_steps();
    let stones = match pos.chain() {
        Some(chain) => vec![chain.stone()],
        None => pos.board().by_color(pos.turn()).into_iter().collect(),
    };
    let empty = pos.board().empty_squares();
    let mut out = Vec::new();
    for from in stones {
        for dir in Direction::ALL {
            let Some(to) = dir.step(from).filter(|&to| empty.contains(to)) else {
                continue;
            };
            if legal.iter().any(|s| s.from() == from && s.to() == to) {
                continue;
            }
            let kind = [StepKind::Approach, StepKind::Withdrawal]
                .into_iter()
                .find(|&k| Step::new(from, dir, k).is_some_and(|s| !pos.captures(s).is_empty()))
                .unwrap_or(StepKind::Paika);
            if let Err(PlayError::IllegalStep { reason, .. }) = pos.check_step(from, to, kind) {
                out.push((from, to, reason));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use fanorona::{Setup, Turn};

    use super::*;
    use crate::game::{Action, Intent};

    fn position(text: &str) -> Position {
        let setup: Setup = text.parse().expect("position text");
        Position::from_setup(setup).expect("a valid position")
    }

    fn refused(pos: &Position) -> Vec<String> {
        refused_steps(pos)
            .into_iter()
            .map(|(from, to, reason)| format!("{from}-{to} {}", reason.code()))
            .collect()
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

    #[test]
    fn a_paika_while_a_capture_exists_is_refused_as_capture_required() {
        // d3 can take f3 by approach; the stone on a1 could only step.
        let pos = position("........./........./...W.B.../........./W........ w");
        let list = refused(&pos);
        assert!(
            list.contains(&"a1-b1 capture_required".to_owned()),
            "{list:?}"
        );
        assert!(
            list.contains(&"d3-d4 capture_required".to_owned()),
            "{list:?}"
        );
        assert!(!list.iter().any(|s| s.starts_with("d3-e3")), "{list:?}");
    }

    // White's b3-c3 can take a3 by withdrawal or d3 by approach; from c3
    // the stone can go on to take c5 by approach.
    const CHAIN: &str = "..B....../........./BW.B...../........./......... w";

    #[test]
    fn in_a_chain_only_the_capturing_stone_is_judged_and_a_visited_point_says_so() {
        let game = play(CHAIN, "b3-c3A");
        assert!(game.position.chain().is_some());
        let list = refused(&game.position);
        assert!(
            list.iter().all(|s| s.starts_with("c3-")),
            "only the capturing stone: {list:?}"
        );
        // Back to b3 would take a3 by approach, but c3's stone stood there.
        assert!(
            list.contains(&"c3-b3 revisits_point".to_owned()),
            "{list:?}"
        );
        assert!(
            list.contains(&"c3-c2 only_captures_continue".to_owned()),
            "{list:?}"
        );
        assert!(
            !list.iter().any(|s| s.starts_with("c3-c4")),
            "c3-c4 is legal: {list:?}"
        );
    }

    #[test]
    fn a_capture_in_the_same_direction_again_is_refused_as_a_repeat() {
        // b3-c3 takes a3 by withdrawal; c3-d3 would take e3 by approach,
        // east again.
        let game = play(
            "..B....../........./BW..B..../........./......... w",
            "b3-c3W",
        );
        assert!(game.position.chain().is_some());
        let list = refused(&game.position);
        assert!(
            list.contains(&"c3-d3 repeats_direction".to_owned()),
            "{list:?}"
        );
    }

    #[test]
    fn a_position_without_captures_refuses_nothing() {
        let pos = position("....B..../........./........./........./....W.... w");
        assert!(refused(&pos).is_empty());
    }

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
