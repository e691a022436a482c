//! `GET /api/steps`: what the rules allow in a position, with a turn
//! perhaps begun there. The rules page's boards ask it, so that the page
//! holds no rules of its own. Nothing is stored and no game is made.

use axum::{
    extract::{rejection::QueryRejection, Query},
    http::header,
    response::{IntoResponse, Response},
};
use fanorona::{PlayError, Turn};
use serde::Deserialize;

use super::position::parse_position;
use crate::{
    error::AppError,
    game::{Action, Game, GameError, Intent},
    protocol::{encode_steps, ProtocolError},
};

/// The query: position text, and the turn so far in notation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StepsQuery {
    position: String,
    #[serde(default)]
    turn: Option<String>,
}

/// Answers the legal steps of the position after the turn so far, and the
/// steps the rules refuse there, with why.
pub(super) async fn get_steps(
    query: Result<Query<StepsQuery>, QueryRejection>,
) -> Result<Response, AppError> {
    let Query(query) = query.map_err(|r| bad(r.body_text()))?;
    let game = play_so_far(&query.position, query.turn.as_deref())?;
    let body = encode_steps(&game).map_err(AppError::Encode)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

fn bad(detail: String) -> AppError {
    ProtocolError::BadMessage {
        kind: "request".into(),
        detail,
    }
    .into()
}

/// A game from `position` with the steps of `turn` played in it, each
/// judged as a game judges a player's step.
fn play_so_far(position: &str, turn: Option<&str>) -> Result<Game, AppError> {
    let start = parse_position(position)?;
    let mut game = Game::new(start);
    let Some(text) = turn.filter(|t| !t.is_empty()) else {
        return Ok(game);
    };
    let turn: Turn = text.parse().map_err(|e| bad(format!("`turn`: {e}")))?;
    let by = start.turn();
    let mut from = turn.origin();
    for landing in turn.landings() {
        if !game.moves.is_empty() {
            return Err(GameError::Play(PlayError::TurnAlreadyOver { at: from }).into());
        }
        let intent = Intent::Step {
            from,
            to: landing.to,
            kind: landing.kind,
        };
        game.apply(Action { by, intent })?;
        from = landing.to;
    }
    Ok(game)
}
