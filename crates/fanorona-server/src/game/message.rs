//! The preset messages players send each other: a fixed list of keys,
//! each shown in the reader's own language, so nothing typed needs
//! watching over.

use fanorona::Color;

/// How many of the last messages a game keeps and its state shows.
pub(crate) const KEPT_MESSAGES: usize = 5;

/// Declares [`MessageText`] from one list of messages and their keys.
macro_rules! message_texts {
    ($($(#[$doc:meta])* $text:ident = $key:literal,)*) => {
        /// One of the preset messages. Its key is the `text` of a
        /// `message` intent, of the state's `messages` and of the store's
        /// `message` column; this is the one list of them.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum MessageText {
            $($(#[$doc])* $text,)*
        }

        impl MessageText {
            /// Every message, in the order the page lists them.
            pub const ALL: &'static [MessageText] = &[$(MessageText::$text),*];

            /// The stable key used on the wire and in the store.
            pub const fn key(self) -> &'static str {
                match self {
                    $(MessageText::$text => $key,)*
                }
            }

            /// The message of key `key`, if there is one.
            pub fn from_key(key: &str) -> Option<MessageText> {
                match key {
                    $($key => Some(MessageText::$text),)*
                    _ => None,
                }
            }
        }
    };
}

message_texts! {
    /// "Good luck".
    GoodLuck = "good_luck",
    /// "Your turn!".
    YourTurn = "your_turn",
    /// "Well played".
    WellPlayed = "well_played",
    /// "Sorry".
    Sorry = "sorry",
    /// "Thanks".
    Thanks = "thanks",
    /// "Good game".
    GoodGame = "good_game",
}

/// A message a player sent, as the state shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Who sent it.
    pub by: Color,
    /// What it says.
    pub text: MessageText,
    /// The number of its action in the game.
    pub seq: u64,
}
