//! Game ids (public, base-62) and seat secrets (private, hashed at rest).

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The length of a game id: 10 base-62 characters, about 59 bits.
const GAME_ID_LEN: usize = 10;

/// The length of a seat secret or invitation token: 22 base-62 characters,
/// about 131 bits.
const SECRET_LEN: usize = 22;

/// Draws `len` base-62 characters from the operating system's random source.
///
/// Bytes of 248 or more are rejected so that every character is equally
/// likely.
fn random_base62(len: usize) -> Result<String, getrandom::Error> {
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 32];
    while out.len() < len {
        getrandom::fill(&mut buf)?;
        for &b in buf.iter().filter(|&&b| b < 248) {
            if out.len() == len {
                break;
            }
            out.push(char::from(ALPHABET[usize::from(b % 62)]));
        }
    }
    Ok(out)
}

fn is_base62(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The last `len` base-62 digits of the big-endian number `bytes`: 22
/// digits of a SHA-256 keep 131 of its bits, and the bias of the 125 bits
/// left out is far below anything measurable.
fn base62_digits(mut bytes: [u8; 32], len: usize) -> String {
    let mut digits = Vec::with_capacity(len);
    for _ in 0..len {
        let mut rest = 0u32;
        for byte in &mut bytes {
            let value = (rest << 8) | u32::from(*byte);
            // value < 62 * 256, so the quotient fits a byte.
            *byte = u8::try_from(value / 62).unwrap_or(u8::MAX);
            rest = value % 62;
        }
        digits.push(ALPHABET[usize::try_from(rest).unwrap_or(0)]);
    }
    digits.reverse();
    digits.into_iter().map(char::from).collect()
}

/// The public identifier of a game: 10 base-62 characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct GameId(String);

impl GameId {
    /// Draws a fresh random id.
    ///
    /// # Errors
    ///
    /// When the operating system's random source fails.
    pub fn random() -> Result<GameId, getrandom::Error> {
        random_base62(GAME_ID_LEN).map(GameId)
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Text that is not a game id.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid game id")]
pub struct ParseGameIdError;

impl FromStr for GameId {
    type Err = ParseGameIdError;

    fn from_str(s: &str) -> Result<GameId, ParseGameIdError> {
        if s.len() == GAME_ID_LEN && is_base62(s) {
            Ok(GameId(s.to_owned()))
        } else {
            Err(ParseGameIdError)
        }
    }
}

impl TryFrom<String> for GameId {
    type Error = ParseGameIdError;

    fn try_from(s: String) -> Result<GameId, ParseGameIdError> {
        s.parse()
    }
}

impl From<GameId> for String {
    fn from(id: GameId) -> String {
        id.0
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A secret that proves who holds a seat (or an invitation): 22 base-62
/// characters. Only its [`SecretHash`] is stored. `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Draws a fresh secret of about 131 bits from the OS random source.
    ///
    /// # Errors
    ///
    /// When the operating system's random source fails.
    pub fn random() -> Result<Secret, getrandom::Error> {
        random_base62(SECRET_LEN).map(Secret)
    }

    /// The seat secret that the joiner holding `key` gets from invitation
    /// `invite` of game `id`: base 62 of SHA-256("fanorona join" ‖ id ‖
    /// invite ‖ key), cut to [`SECRET_LEN`]. The same browser (the same
    /// key) asking again gets the same secret, so a join whose answer was
    /// lost can be repeated; nobody without both the invitation and the
    /// key can compute it.
    pub(crate) fn derive(id: &GameId, invite: &Secret, key: &JoinKey) -> Secret {
        let mut hash = Sha256::new();
        for part in ["fanorona join", id.as_str(), invite.expose(), key.as_str()] {
            // Each part with its length, so no two lists of parts hash
            // the same bytes.
            hash.update((part.len() as u64).to_be_bytes());
            hash.update(part.as_bytes());
        }
        Secret(base62_digits(hash.finalize().into(), SECRET_LEN))
    }

    /// The secret as text, to be given to its owner only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The SHA-256 hash that is stored in place of the secret.
    pub fn hash(&self) -> SecretHash {
        SecretHash(Sha256::digest(self.0.as_bytes()).into())
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// Text that is not a secret.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid secret")]
pub struct ParseSecretError;

impl FromStr for Secret {
    type Err = ParseSecretError;

    fn from_str(s: &str) -> Result<Secret, ParseSecretError> {
        if s.len() == SECRET_LEN && is_base62(s) {
            Ok(Secret(s.to_owned()))
        } else {
            Err(ParseSecretError)
        }
    }
}

/// The shortest join key: 22 characters of base 62 or base64url carry
/// at least 128 bits.
const JOIN_KEY_MIN_LEN: usize = 22;

/// The longest join key.
const JOIN_KEY_MAX_LEN: usize = 64;

/// A random key a browser draws once per game and sends with every try
/// of the same join, so that a repeated join gets the same seat: 22 to 64
/// characters of `0-9A-Za-z-_` (base 62 or base64url). `Debug` never
/// shows it: with the invitation, it makes the seat secret.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub(crate) struct JoinKey(String);

impl JoinKey {
    /// The key as text.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for JoinKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JoinKey(..)")
    }
}

/// Text that is not a join key.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid join key: 22 to 64 characters of 0-9, A-Z, a-z, - and _")]
pub(crate) struct ParseJoinKeyError;

impl FromStr for JoinKey {
    type Err = ParseJoinKeyError;

    fn from_str(s: &str) -> Result<JoinKey, ParseJoinKeyError> {
        let alphabet = s
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if (JOIN_KEY_MIN_LEN..=JOIN_KEY_MAX_LEN).contains(&s.len()) && alphabet {
            Ok(JoinKey(s.to_owned()))
        } else {
            Err(ParseJoinKeyError)
        }
    }
}

impl TryFrom<String> for JoinKey {
    type Error = ParseJoinKeyError;

    fn try_from(s: String) -> Result<JoinKey, ParseJoinKeyError> {
        s.parse()
    }
}

/// The SHA-256 hash of a [`Secret`], compared in constant time.
#[derive(Copy, Clone, Eq)]
pub struct SecretHash([u8; 32]);

impl SecretHash {
    /// The hash as 64 lower-case hex digits, as stored.
    pub(crate) fn to_hex(self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads 64 hex digits.
    ///
    /// # Errors
    ///
    /// When the text is not 64 hex digits.
    pub(crate) fn from_hex(s: &str) -> Result<SecretHash, ParseSecretError> {
        let bytes = s.as_bytes();
        if bytes.len() != 64 {
            return Err(ParseSecretError);
        }
        let mut out = [0u8; 32];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            let text = std::str::from_utf8(pair).map_err(|_| ParseSecretError)?;
            out[i] = u8::from_str_radix(text, 16).map_err(|_| ParseSecretError)?;
        }
        Ok(SecretHash(out))
    }

    /// Whether `secret` hashes to this value, in constant time.
    pub(crate) fn matches(&self, secret: &Secret) -> bool {
        *self == secret.hash()
    }
}

impl PartialEq for SecretHash {
    fn eq(&self, other: &SecretHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl fmt::Debug for SecretHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretHash(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_are_base62_and_round_trip() {
        let id = GameId::random().expect("random source");
        assert_eq!(id.as_str().len(), GAME_ID_LEN);
        assert_eq!(id.as_str().parse::<GameId>(), Ok(id.clone()));
        assert!("abc".parse::<GameId>().is_err());
        assert!("abcdefghi!".parse::<GameId>().is_err());
    }

    #[test]
    fn secrets_hash_and_match() {
        let a = Secret::random().expect("random source");
        let b = Secret::random().expect("random source");
        assert_ne!(a, b);
        let hash = a.hash();
        assert!(hash.matches(&a));
        assert!(!hash.matches(&b));
        assert_eq!(SecretHash::from_hex(&hash.to_hex()), Ok(hash));
        assert_eq!(format!("{a:?}"), "Secret(..)");
    }

    #[test]
    fn join_keys_are_22_to_64_url_safe_characters() {
        let ok = [
            "a".repeat(22),
            "Z9-_".repeat(16),
            "0123456789abcdefghijkl".into(),
        ];
        for key in ok {
            assert!(key.parse::<JoinKey>().is_ok(), "{key}");
        }
        let bad = [
            "a".repeat(21),
            "a".repeat(65),
            String::new(),
            format!("{}=", "a".repeat(22)),
            format!("{}+/", "a".repeat(22)),
            format!("{} ", "a".repeat(22)),
            "é".repeat(11),
        ];
        for key in bad {
            assert_eq!(key.parse::<JoinKey>(), Err(ParseJoinKeyError), "{key}");
        }
        let key: JoinKey = "k".repeat(22).parse().expect("a key");
        assert_eq!(format!("{key:?}"), "JoinKey(..)");
    }

    #[test]
    fn derived_secrets_are_stable_well_formed_and_depend_on_every_part() {
        let id: GameId = "abcdefghij".parse().expect("an id");
        let other_id: GameId = "abcdefghik".parse().expect("an id");
        let invite = Secret::random().expect("random source");
        let other_invite = Secret::random().expect("random source");
        let key: JoinKey = "k".repeat(22).parse().expect("a key");
        let other_key: JoinKey = "k".repeat(23).parse().expect("a key");
        let secret = Secret::derive(&id, &invite, &key);
        assert_eq!(secret, Secret::derive(&id, &invite, &key));
        assert_eq!(secret.expose().parse::<Secret>(), Ok(secret.clone()));
        assert_ne!(secret, Secret::derive(&other_id, &invite, &key));
        assert_ne!(secret, Secret::derive(&id, &other_invite, &key));
        assert_ne!(secret, Secret::derive(&id, &invite, &other_key));
    }

    #[test]
    fn base62_digits_convert_big_numbers() {
        let mut n = [0u8; 32];
        assert_eq!(base62_digits(n, 3), "000");
        n[31] = 61;
        assert_eq!(base62_digits(n, 2), "0z");
        n[31] = 62;
        assert_eq!(base62_digits(n, 2), "10");
        // 62^2 = 3844 = 0x0f04.
        n[30] = 0x0f;
        n[31] = 0x04;
        assert_eq!(base62_digits(n, 3), "100");
        assert_eq!(base62_digits([0xff; 32], 22).len(), 22);
    }
}
