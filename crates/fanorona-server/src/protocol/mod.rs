//! The whole wire protocol: client intents, server messages and the game
//! state, as serde types. HTTP and WebSocket share it; `docs/API.md`
//! describes it.

use fanorona::{Square, Step};

mod intent;
mod json;
mod state;
mod steps;

pub(crate) use self::intent::WireLevel;
pub use self::{
    intent::parse_intent,
    state::{encode_state, EncodeError, LiveFacts, PlayerView, StateEncoder},
    steps::encode_steps,
};
use crate::{
    game::{IntentKind, Role},
    ids::GameId,
};

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
    /// A `message` whose `text` is not one of the preset messages.
    #[error("{0:?} is not one of the preset messages: use {list}", list = message_keys())]
    BadMessageText(String),
}

/// The keys of the preset messages, comma-separated.
fn message_keys() -> String {
    crate::game::MessageText::ALL
        .iter()
        .map(|t| t.key())
        .collect::<Vec<_>>()
        .join(", ")
}

impl ProtocolError {
    /// A stable snake_case identifier.
    pub(crate) const fn code(&self) -> &'static str {
        match self {
            ProtocolError::BadJson => "bad_json",
            ProtocolError::UnknownType(_) => "unknown_type",
            ProtocolError::BadMessage { .. } => "bad_message",
            ProtocolError::BadMessageText(_) => "bad_message_text",
        }
    }
}

/// The protocol's vocabulary as JSON, `{"intents": ["step", ...]}`: what
/// `fanorona-server protocol` prints, for the web client's test.
pub fn describe() -> String {
    let mut out = String::from("{\"intents\":[");
    for (i, kind) in IntentKind::ALL.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json::push_str(&mut out, kind.name());
    }
    out.push_str("]}");
    out
}

/// The messages the server sends besides the state.
#[derive(Debug)]
pub(crate) enum ServerMsg<'a> {
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
    /// The answer to a hint, sent to its sender only.
    Hint {
        /// The first step of the best turn; `None` when stopping the chain
        /// is best (or there is no turn).
        step: Option<Step>,
        /// Stopping the chain now is best.
        end_turn: bool,
        /// The best turn in notation, when it has a step.
        turn: Option<String>,
    },
    /// A refused message, sent to its sender only.
    Error {
        /// A stable snake_case identifier.
        code: &'a str,
        /// A sentence for a person.
        message: String,
        /// The game's state message, encoded, when the refusal is that the
        /// game changed meanwhile.
        state: Option<&'a str>,
    },
}

impl ServerMsg<'_> {
    /// The message as JSON text, written by hand into a `String`: every
    /// field is a string, `null` or a state already encoded, so nothing
    /// can fail.
    pub(crate) fn to_json(&self) -> String {
        let mut out = String::with_capacity(128);
        match self {
            ServerMsg::Welcome {
                game_id,
                role,
                seat_link,
            } => {
                out.push_str("{\"type\":\"welcome\",\"game_id\":");
                json::push_str(&mut out, game_id.as_str());
                out.push_str(",\"role\":");
                json::push_str(&mut out, role.name());
                out.push_str(",\"seat_link\":");
                json::push_opt_str(&mut out, seat_link.as_deref());
            }
            ServerMsg::Hint {
                step,
                end_turn,
                turn,
            } => {
                let name = |s: Square| s.to_string();
                out.push_str("{\"type\":\"hint\",\"from\":");
                json::push_opt_str(&mut out, step.map(|s| name(s.from())).as_deref());
                out.push_str(",\"to\":");
                json::push_opt_str(&mut out, step.map(|s| name(s.to())).as_deref());
                out.push_str(",\"kind\":");
                json::push_opt_str(&mut out, step.map(|s| s.kind().name()));
                out.push_str(",\"end_turn\":");
                out.push_str(if *end_turn { "true" } else { "false" });
                out.push_str(",\"turn\":");
                json::push_opt_str(&mut out, turn.as_deref());
            }
            ServerMsg::Error {
                code,
                message,
                state,
            } => {
                out.push_str("{\"type\":\"error\",\"code\":");
                json::push_str(&mut out, code);
                out.push_str(",\"message\":");
                json::push_str(&mut out, message);
                if let Some(state) = state {
                    out.push_str(",\"state\":");
                    out.push_str(state);
                }
            }
        }
        out.push('}');
        out
    }
}

#[cfg(test)]
mod tests {
    use fanorona::{Color, StepKind};
    use serde_json::json;

    use super::*;
    use crate::game::{Intent, Level};

    #[test]
    fn server_messages_are_the_documented_json() {
        let id: GameId = "abcdefghij".parse().expect("an id");
        let read = |msg: ServerMsg<'_>| {
            serde_json::from_str::<serde_json::Value>(&msg.to_json()).expect("JSON")
        };
        let link = "https://x.example/g/abcdefghij?seat=\"quoted\"\n".to_owned();
        let welcome = ServerMsg::Welcome {
            game_id: &id,
            role: Role::Player(Color::Black),
            seat_link: Some(link.clone()),
        };
        assert_eq!(
            read(welcome),
            json!({"type": "welcome", "game_id": "abcdefghij", "role": "black", "seat_link": link})
        );
        let spectator = ServerMsg::Welcome {
            game_id: &id,
            role: Role::Spectator,
            seat_link: None,
        };
        assert_eq!(
            read(spectator),
            json!({"type": "welcome", "game_id": "abcdefghij", "role": "spectator", "seat_link": null})
        );
        let error = ServerMsg::Error {
            code: "bad_message",
            message: "bad step message: \"z9\" is not a point\t\u{1}".into(),
            state: None,
        };
        assert_eq!(
            read(error),
            json!({"type": "error", "code": "bad_message",
                   "message": "bad step message: \"z9\" is not a point\t\u{1}"})
        );
        let changed = ServerMsg::Error {
            code: "game_changed",
            message: "changed".into(),
            state: Some(r#"{"type":"state","seq":3}"#),
        };
        assert_eq!(
            read(changed),
            json!({"type": "error", "code": "game_changed", "message": "changed",
                   "state": {"type": "state", "seq": 3}})
        );
    }

    #[test]
    fn the_description_lists_every_intent() {
        let value: serde_json::Value = serde_json::from_str(&describe()).expect("JSON");
        let names: Vec<&str> = IntentKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(value, json!({ "intents": names }));
    }

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
        assert_eq!(
            parse_intent(r#"{"type":"set_level","level":4}"#),
            Ok(Intent::SetLevel {
                level: Level::new(4).expect("a level")
            })
        );
        for bad in [
            r#"{"type":"set_level"}"#,
            r#"{"type":"set_level","level":0}"#,
            r#"{"type":"set_level","level":7}"#,
            r#"{"type":"set_level","level":"4"}"#,
            r#"{"type":"set_level","level":-1}"#,
        ] {
            assert_eq!(
                parse_intent(bad).map_err(|e| e.code()),
                Err("bad_message"),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_message_is_one_of_the_preset_keys() {
        use crate::game::MessageText;
        for &text in MessageText::ALL {
            let wire = format!(r#"{{"type":"message","text":"{}"}}"#, text.key());
            assert_eq!(parse_intent(&wire), Ok(Intent::Message { text }), "{wire}");
        }
        let code = |text: &str| parse_intent(text).map_err(|e| e.code());
        for unknown in ["Good game", "", "good_game ", "GOOD_GAME", "hello"] {
            let wire = format!(r#"{{"type":"message","text":"{unknown}"}}"#);
            assert_eq!(code(&wire), Err("bad_message_text"), "{wire}");
        }
        assert_eq!(
            parse_intent(r#"{"type":"message","text":"hi"}"#).map_err(|e| e.to_string()),
            Err(r#""hi" is not one of the preset messages: use good_luck, your_turn, well_played, sorry, thanks, good_game"#.into())
        );
        for bad in [
            r#"{"type":"message"}"#,
            r#"{"type":"message","text":null}"#,
            r#"{"type":"message","text":7}"#,
            r#"{"type":"message","text":["good_game"]}"#,
            r#"{"type":"message","text":"thanks","text":"sorry"}"#,
        ] {
            assert_eq!(code(bad), Err("bad_message"), "{bad}");
        }
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

    // See: issues/21 (a wrong type in an object was `bad_json`).
    #[test]
    fn a_field_of_the_wrong_json_type_is_a_bad_message_not_bad_json() {
        let good = [
            ("step", "from", r#""d3""#),
            ("step", "to", r#""e3""#),
            ("step", "kind", r#""approach""#),
            ("set_level", "level", "4"),
        ];
        for (kind, name, _) in good {
            for wrong in [
                "null",
                "7",
                "-1",
                "2.5",
                "true",
                "[]",
                "[1]",
                "{}",
                r#"{"a":1}"#,
                r#""""#,
            ] {
                let fields: Vec<String> = good
                    .iter()
                    .filter(|(k, _, _)| *k == kind)
                    .map(|(_, n, v)| format!("\"{n}\":{}", if *n == name { wrong } else { v }))
                    .collect();
                let text = format!("{{\"type\":\"{kind}\",{}}}", fields.join(","));
                let refused = parse_intent(&text);
                assert_eq!(
                    refused.as_ref().map_err(|e| e.code()),
                    Err("bad_message"),
                    "{text}"
                );
                let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
                assert!(
                    message.starts_with(&format!("bad {kind} message: ")),
                    "{message}"
                );
            }
        }
        assert_eq!(
            parse_intent(r#"{"type":"step","from":"d3","to":"e3","kind":null}"#)
                .map_err(|e| e.to_string()),
            Err("bad step message: invalid type: null, expected a string".into())
        );
        assert_eq!(
            parse_intent(r#"{"type":"step","from":"d3","to":"e3","kind":"A"}"#)
                .map_err(|e| e.to_string()),
            Err(
                r#"bad step message: "A" is not a kind of step: use paika, approach or withdrawal"#
                    .into()
            )
        );
        // A number no reader can hold is still not JSON the server reads.
        assert_eq!(
            parse_intent(r#"{"type":"set_level","level":1e999}"#).map_err(|e| e.code()),
            Err("bad_json")
        );
    }

    #[test]
    fn a_key_given_twice_is_refused_whichever_key_it_is() {
        for text in [
            r#"{"type":"accept_draw","type":"resign"}"#,
            r#"{"type":"resign","type":"resign"}"#,
            r#"{"type":"offer_draw","typ\u0065":"resign"}"#,
            r#"{"type":"step","from":"d3","to":"e3","kind":"approach","from":"c3"}"#,
            r#"{"type":"step","from":"d3","to":"e3","kind":"approach","kind":"withdrawal"}"#,
            r#"{"type":"resign","by":"white","by":"black"}"#,
        ] {
            assert_eq!(
                parse_intent(text).map_err(|e| e.code()),
                Err("bad_message"),
                "{text}"
            );
        }
        assert_eq!(
            parse_intent(r#"{"type":"resign","type":"resign"}"#).map_err(|e| e.to_string()),
            Err(r#"bad resign message: the key "type" appears more than once"#.into())
        );
        // Keys in any order, escaped, or next to unknown ones read as before.
        assert_eq!(
            parse_intent(r#"{"kind":"paika","to":"e3","typ\u0065":"step","from":"e2","x":[1]}"#),
            Ok(Intent::Step {
                from: Square::E2,
                to: Square::E3,
                kind: StepKind::Paika
            })
        );
        assert_eq!(
            parse_intent(r#"{"type":"step","to":"e3","from":7,"kind":"paika"}"#)
                .map_err(|e| e.to_string()),
            Err("bad step message: invalid type: integer `7`, expected a string".into())
        );
    }
}
