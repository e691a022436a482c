//! Reading a client message into an [`Intent`].
//!
//! The reader is written by hand, as a serde `Visitor` over the message's
//! keys, rather than derived: serde's derived readers keep the last copy
//! of a key given twice (or refuse only known keys given twice), and no
//! attribute makes them refuse every duplicate, unknown keys and keys
//! spelled with escapes included. JSON readers disagree on which copy of
//! a duplicate counts, so the server refuses such a message instead of
//! guessing. One pass borrows the values as raw JSON; each is read once
//! the `type` says which the intent uses.

use std::{borrow::Cow, collections::HashSet, fmt};

use fanorona::{Square, StepKind};
use serde::{
    de::{self, DeserializeOwned, IgnoredAny, MapAccess, Visitor},
    Deserialize, Deserializer,
};
use serde_json::value::RawValue;

use super::ProtocolError;
use crate::game::{Intent, IntentKind, Level, MessageText};

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

/// A level of the computer, 1 to 6.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "u64")]
pub(crate) struct WireLevel(pub(crate) Level);

impl TryFrom<u64> for WireLevel {
    type Error = String;

    fn try_from(n: u64) -> Result<WireLevel, String> {
        u8::try_from(n)
            .ok()
            .and_then(Level::new)
            .map(WireLevel)
            .ok_or_else(|| format!("{n} is not a level: use 1 to 6"))
    }
}

/// How a step captures, read from a string. Not serde's own enum reading:
/// that one calls anything but a string or an object a syntax error, so
/// `"kind": null` was answered `bad_json` in an object that is JSON.
#[derive(Debug, Deserialize)]
#[serde(try_from = "String")]
struct WireKind(StepKind);

impl TryFrom<String> for WireKind {
    type Error = String;

    fn try_from(s: String) -> Result<WireKind, String> {
        match s.as_str() {
            "paika" => Ok(WireKind(StepKind::Paika)),
            "approach" => Ok(WireKind(StepKind::Approach)),
            "withdrawal" => Ok(WireKind(StepKind::Withdrawal)),
            _ => Err(format!(
                "{s:?} is not a kind of step: use paika, approach or withdrawal"
            )),
        }
    }
}

/// Reads one client message into an [`Intent`].
///
/// # Errors
///
/// [`ProtocolError`] saying what is wrong with it.
pub fn parse_intent(text: &str) -> Result<Intent, ProtocolError> {
    let fields: Fields<'_> = serde_json::from_str(text).map_err(|_| ProtocolError::BadJson)?;
    fields.intent()
}

/// A client message's keys, read in one pass over its text. The values of
/// the keys an intent uses are kept as raw JSON (borrowed, not copied) and
/// read once the `type` is known; other keys are skipped. A key given twice
/// is remembered: JSON readers disagree on which copy counts, so such a
/// message is refused instead of guessed at.
#[derive(Default)]
struct Fields<'a> {
    type_: Option<&'a RawValue>,
    from: Option<&'a RawValue>,
    to: Option<&'a RawValue>,
    kind: Option<&'a RawValue>,
    level: Option<&'a RawValue>,
    text: Option<&'a RawValue>,
    /// The other keys seen, to find their repeats. A set, not a list: a
    /// 16 KiB body of 1,746 keys took 1.8 ms to read with a list (each key
    /// compared with all before it) and 0.16 ms with a set (release build).
    others: HashSet<Cow<'a, str>>,
    /// The first key seen twice.
    repeated: Option<Cow<'a, str>>,
}

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fields<'de>, D::Error> {
        deserializer.deserialize_map(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de>, A::Error> {
        let mut fields = Fields::default();
        while let Some(Key(key)) = map.next_key()? {
            let slot = match &*key {
                "type" => &mut fields.type_,
                "from" => &mut fields.from,
                "to" => &mut fields.to,
                "kind" => &mut fields.kind,
                "level" => &mut fields.level,
                "text" => &mut fields.text,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    if fields.others.contains(&key) {
                        fields.repeated.get_or_insert(key);
                    } else {
                        fields.others.insert(key);
                    }
                    continue;
                }
            };
            let value = map.next_value()?;
            let seen = slot.is_some();
            slot.get_or_insert(value);
            if seen {
                fields.repeated.get_or_insert(key);
            }
        }
        Ok(fields)
    }
}

/// An object key, borrowed from the text unless it had escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key<'de>, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(key)))
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(key.to_owned())))
    }
}

impl Fields<'_> {
    /// The intent the fields spell, or what is wrong with them.
    fn intent(&self) -> Result<Intent, ProtocolError> {
        let Some(raw) = self.type_ else {
            return Err(ProtocolError::UnknownType(String::new()));
        };
        let Some(name) = string(raw) else {
            return Err(ProtocolError::UnknownType(raw.get().to_owned()));
        };
        let Some(kind) = IntentKind::from_name(&name) else {
            return Err(ProtocolError::UnknownType(name.into_owned()));
        };
        if let Some(key) = &self.repeated {
            return Err(ProtocolError::BadMessage {
                kind: name.into_owned(),
                detail: format!("the key {key:?} appears more than once"),
            });
        }
        match Intent::without_fields(kind) {
            Some(intent) => Ok(intent),
            None if kind == IntentKind::SetLevel => Ok(Intent::SetLevel {
                level: field::<WireLevel>(&name, "level", self.level)?.0,
            }),
            None if kind == IntentKind::Message => {
                let key: String = field(&name, "text", self.text)?;
                match MessageText::from_key(&key) {
                    Some(text) => Ok(Intent::Message { text }),
                    None => Err(ProtocolError::BadMessageText(key)),
                }
            }
            None => self.step(&name),
        }
    }

    /// The step the fields spell: the one intent with fields.
    fn step(&self, name: &str) -> Result<Intent, ProtocolError> {
        Ok(Intent::Step {
            from: field::<WireSquare>(name, "from", self.from)?.0,
            to: field::<WireSquare>(name, "to", self.to)?.0,
            kind: field::<WireKind>(name, "kind", self.kind)?.0,
        })
    }
}

/// The text of a JSON string value, or `None` for another kind of value.
fn string(raw: &RawValue) -> Option<Cow<'_, str>> {
    serde_json::from_str::<&str>(raw.get())
        .map(Cow::Borrowed)
        .or_else(|_| serde_json::from_str::<String>(raw.get()).map(Cow::Owned))
        .ok()
}

/// Reads the value of field `name` of a `kind` message. A value that is
/// not JSON the reader can hold (a number out of range) is `bad_json`, as it
/// is anywhere else in a message; a value of the wrong kind is
/// `bad_message`, saying why without the position in the field's own text.
/// A reader may call a value of the wrong kind a syntax error (serde's
/// enums do, for `null` or a number): the value is read again as any JSON
/// to tell the two apart.
fn field<T: DeserializeOwned>(
    kind: &str,
    name: &str,
    raw: Option<&RawValue>,
) -> Result<T, ProtocolError> {
    let bad = |detail| ProtocolError::BadMessage {
        kind: kind.to_owned(),
        detail,
    };
    let raw = raw.ok_or_else(|| bad(format!("missing field `{name}`")))?;
    serde_json::from_str(raw.get()).map_err(|e| {
        if e.is_syntax() {
            if serde_json::from_str::<serde_json::Value>(raw.get()).is_err() {
                return ProtocolError::BadJson;
            }
            return bad(format!("`{name}` is not of the right type"));
        }
        let text = e.to_string();
        let position = format!(" at line {} column {}", e.line(), e.column());
        bad(text.strip_suffix(&position).unwrap_or(&text).to_owned())
    })
}
