//! The whole wire protocol: client intents, server messages and the game
//! state, as serde types. HTTP and WebSocket share it; `docs/API.md`
//! describes it.

use fanorona::{ByColor, Color, Square, StepKind};
use serde::{Deserialize, Serialize, Serializer};

use crate::{
    error::AppError,
    game::{Action, Game, Intent, TurnSoFar},
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
    Ok(match msg {
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
    })
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

/// Whether a player holds their seat and has a connection open.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// Someone holds the seat.
    pub joined: bool,
    /// At least one connection of the seat's holder is open.
    pub connected: bool,
}

fn color_str<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}

fn opt_color_str<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_str(c.name()),
        None => s.serialize_none(),
    }
}

fn squares<S: Serializer>(list: &[Square], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(list.iter().map(|sq| sq.to_string()))
}

/// A value per colour, as `{"white": .., "black": ..}`.
#[derive(Serialize)]
struct Pair<T> {
    white: T,
    black: T,
}

impl<T> From<ByColor<T>> for Pair<T> {
    fn from(b: ByColor<T>) -> Pair<T> {
        Pair {
            white: b.white,
            black: b.black,
        }
    }
}

#[derive(Serialize)]
struct StepView {
    from: String,
    to: String,
    kind: &'static str,
    #[serde(serialize_with = "squares")]
    captures: Vec<Square>,
}

#[derive(Serialize)]
struct TurnView {
    stone: String,
    #[serde(serialize_with = "squares")]
    visited: Vec<Square>,
    last_direction: &'static str,
    #[serde(serialize_with = "squares")]
    captured: Vec<Square>,
    notation: String,
}

#[derive(Serialize)]
struct LastTurnView {
    notation: String,
    #[serde(serialize_with = "squares")]
    path: Vec<Square>,
    #[serde(serialize_with = "squares")]
    captured: Vec<Square>,
}

#[derive(Serialize)]
struct ResultView {
    #[serde(serialize_with = "opt_color_str")]
    winner: Option<Color>,
    reason: &'static str,
}

#[derive(Serialize)]
struct StateView<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    game_id: &'a GameId,
    version: u64,
    seq: u64,
    position: String,
    start_position: String,
    #[serde(serialize_with = "color_str")]
    side_to_move: Color,
    turn: Option<TurnView>,
    legal_steps: Vec<StepView>,
    can_end_turn: bool,
    moves: &'a [String],
    last_turn: Option<LastTurnView>,
    turns_since_capture: u32,
    players: Pair<PlayerView>,
    #[serde(serialize_with = "opt_color_str")]
    draw_offer: Option<Color>,
    abandoned: bool,
    rematch: Pair<bool>,
    next_game: Option<&'a GameId>,
    result: Option<ResultView>,
}

/// What the state message needs besides the game itself.
#[derive(Copy, Clone, Debug)]
pub struct Live<'a> {
    /// The game's id.
    pub id: &'a GameId,
    /// Counts published states.
    pub version: u64,
    /// Both seats' presence.
    pub players: ByColor<PlayerView>,
    /// The player to move has been away long enough to be claimed against.
    pub abandoned: bool,
}

/// Encodes the state message, once per change, for every watcher.
pub fn encode_state(game: &Game, live: Live<'_>) -> String {
    let pos = &game.position;
    let turn = match (pos.chain(), &game.current) {
        (Some(chain), Some(so_far)) => Some(TurnView {
            stone: chain.stone().to_string(),
            visited: so_far.path(),
            last_direction: chain.last_direction().name(),
            captured: so_far.captured.clone(),
            notation: so_far.turn.to_string(),
        }),
        _ => None,
    };
    let legal_steps = if game.result.is_some() {
        Vec::new()
    } else {
        pos.legal_steps()
            .iter()
            .map(|&step| StepView {
                from: step.from().to_string(),
                to: step.to().to_string(),
                kind: step.kind().name(),
                captures: pos.captures(step).into_iter().collect(),
            })
            .collect()
    };
    let view = StateView {
        kind: "state",
        game_id: live.id,
        version: live.version,
        seq: game.seq,
        position: pos.to_string(),
        start_position: game.start.to_string(),
        side_to_move: pos.turn(),
        turn,
        legal_steps,
        can_end_turn: game.result.is_none() && pos.can_end_turn(),
        moves: &game.moves,
        last_turn: game.last.as_ref().map(last_turn_view),
        turns_since_capture: pos.turns_since_capture(),
        players: live.players.into(),
        draw_offer: game.draw_offer,
        abandoned: live.abandoned,
        rematch: game.rematch.into(),
        next_game: game.next_game.as_ref(),
        result: game.result.map(|r| ResultView {
            winner: r.winner,
            reason: r.reason.code(),
        }),
    };
    serde_json::to_string(&view).unwrap_or_default()
}

fn last_turn_view(t: &TurnSoFar) -> LastTurnView {
    LastTurnView {
        notation: t.turn.to_string(),
        path: t.path(),
        captured: t.captured.clone(),
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
