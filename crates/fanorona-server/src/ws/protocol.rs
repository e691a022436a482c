//! The whole wire protocol: client intents, server messages and the game
//! state, as serde types. HTTP and WebSocket share it; `docs/API.md`
//! describes it.

use fanorona::{Color, Square, StepKind};
use serde::{Deserialize, Serialize, Serializer};

mod state;

pub use self::state::{encode_state, Live, PlayerView, StateEncoder};
use crate::{
    error::AppError,
    game::{Action, Game, Intent},
    ids::GameId,
};

/// The intents a client may send, tagged by `"type"`. Unknown fields are
/// ignored.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMsg {
    Step {
        from: WireSquare,
        to: WireSquare,
        kind: WireKind,
    },
    EndTurn,
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    ClaimVictory,
    Rematch,
}

/// Every `"type"` a client may send.
pub const INTENT_TYPES: [&str; 8] = [
    "step",
    "end_turn",
    "resign",
    "offer_draw",
    "accept_draw",
    "decline_draw",
    "claim_victory",
    "rematch",
];

#[derive(Debug, Deserialize)]
#[serde(try_from = "String")]
struct WireSquare(Square);

impl TryFrom<String> for WireSquare {
    type Error = String;

    fn try_from(s: String) -> Result<WireSquare, String> {
        s.parse()
            .map(WireSquare)
            .map_err(|_| format!("{s:?} is not a point: use a1 to i5"))
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum WireKind {
    Paika,
    Approach,
    Withdrawal,
}

/// Why a client message could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// Not a JSON object.
    #[error("the message is not a JSON object")]
    BadJson,
    /// A JSON object whose `"type"` is missing or unknown.
    #[error("unknown message type {0:?}")]
    UnknownType(String),
    /// A known type with missing, extra or invalid fields.
    #[error("bad {kind} message: {detail}")]
    BadMessage {
        /// The message type.
        kind: String,
        /// What is wrong, from the parser.
        detail: String,
    },
}

impl ProtocolError {
    /// A stable snake_case identifier.
    pub const fn code(&self) -> &'static str {
        match self {
            ProtocolError::BadJson => "bad_json",
            ProtocolError::UnknownType(_) => "unknown_type",
            ProtocolError::BadMessage { .. } => "bad_message",
        }
    }
}

/// Reads one client message into an [`Intent`].
///
/// # Errors
///
/// [`ProtocolError`] saying what is wrong with it.
pub fn parse_intent(text: &str) -> Result<Intent, ProtocolError> {
    // A well-formed message is read in one pass; only a refused one is
    // read again, as a JSON value, to say what is wrong with it.
    match serde_json::from_str::<ClientMsg>(text) {
        Ok(msg) => Ok(intent_of(msg)),
        Err(_) => explain(text),
    }
}

/// Reads a message that did not read as a [`ClientMsg`], for its error
/// (or its intent, when only a detail such as a repeated key stood in the
/// way of the one-pass reading).
fn explain(text: &str) -> Result<Intent, ProtocolError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|_| ProtocolError::BadJson)?;
    let Some(object) = value.as_object() else {
        return Err(ProtocolError::BadJson);
    };
    let kind = match object.get("type") {
        Some(serde_json::Value::String(kind)) => kind.clone(),
        Some(other) => return Err(ProtocolError::UnknownType(other.to_string())),
        None => return Err(ProtocolError::UnknownType(String::new())),
    };
    if !INTENT_TYPES.contains(&kind.as_str()) {
        return Err(ProtocolError::UnknownType(kind));
    }
    let msg: ClientMsg = serde_json::from_value(value).map_err(|e| ProtocolError::BadMessage {
        kind,
        detail: e.to_string(),
    })?;
    Ok(intent_of(msg))
}

fn intent_of(msg: ClientMsg) -> Intent {
    match msg {
        ClientMsg::Step { from, to, kind } => Intent::Step {
            from: from.0,
            to: to.0,
            kind: match kind {
                WireKind::Paika => StepKind::Paika,
                WireKind::Approach => StepKind::Approach,
                WireKind::Withdrawal => StepKind::Withdrawal,
            },
        },
        ClientMsg::EndTurn => Intent::EndTurn,
        ClientMsg::Resign => Intent::Resign,
        ClientMsg::OfferDraw => Intent::OfferDraw,
        ClientMsg::AcceptDraw => Intent::AcceptDraw,
        ClientMsg::DeclineDraw => Intent::DeclineDraw,
        ClientMsg::ClaimVictory => Intent::ClaimVictory,
        ClientMsg::Rematch => Intent::Rematch,
    }
}

/// Reads one client message and plays it for `by` on `game`: the pure part
/// of handling an intent, with no runtime and no store. A refused message
/// leaves `game` unchanged.
///
/// # Errors
///
/// Why the message cannot be read, or why the game refuses it.
pub fn apply_message(game: &mut Game, by: Color, text: &str) -> Result<Action, AppError> {
    let intent = parse_intent(text)?;
    let action = Action { by, intent };
    game.apply(action)?;
    Ok(action)
}

/// Who a connection is: one of the players, or a spectator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// The player of this colour.
    Player(Color),
    /// Someone watching.
    Spectator,
}

impl Role {
    /// `"white"`, `"black"` or `"spectator"`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Player(c) => c.name(),
            Role::Spectator => "spectator",
        }
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The messages the server sends besides the state.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg<'a> {
    /// First message on a socket: who this connection is.
    Welcome {
        /// The game.
        game_id: &'a GameId,
        /// `white`, `black` or `spectator`.
        role: Role,
        /// The player's own link, to continue on another device; `null` for
        /// spectators.
        seat_link: Option<String>,
    },
    /// A refused message, sent to its sender only.
    Error {
        /// A stable snake_case identifier.
        code: &'a str,
        /// A sentence for a person.
        message: String,
    },
}

impl ServerMsg<'_> {
    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| String::from("{\"type\":\"error\"}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intents_parse_from_their_documented_json() {
        let step = parse_intent(r#"{"type":"step","from":"d3","to":"e3","kind":"approach"}"#);
        assert_eq!(
            step,
            Ok(Intent::Step {
                from: Square::D3,
                to: Square::E3,
                kind: StepKind::Approach
            })
        );
        assert_eq!(parse_intent(r#"{"type":"end_turn"}"#), Ok(Intent::EndTurn));
    }

    #[test]
    fn bad_messages_say_what_is_wrong() {
        let code = |text| parse_intent(text).map_err(|e| e.code());
        assert_eq!(code("{not json"), Err("bad_json"));
        assert_eq!(code("[1]"), Err("bad_json"));
        assert_eq!(code(r#"{"type":"fly"}"#), Err("unknown_type"));
        assert_eq!(code(r#"{"kind":"step"}"#), Err("unknown_type"));
        assert_eq!(
            code(r#"{"type":"step","from":"z9","to":"e3","kind":"approach"}"#),
            Err("bad_message")
        );
        assert_eq!(
            code(r#"{"type":"step","from":"d3","to":"e3"}"#),
            Err("bad_message")
        );
    }
}
