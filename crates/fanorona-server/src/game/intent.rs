//! What a player asks for: the intents, their kinds and names, and the
//! action an accepted intent becomes.

use fanorona::{Color, Square, StepKind};

use super::{Level, MessageText};

/// What a player asks for. The wire form is in `protocol`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Move the stone on `from` to `to`, capturing as `kind` says.
    Step {
        /// Where the stone starts.
        from: Square,
        /// Where it lands.
        to: Square,
        /// Paika, approach or withdrawal.
        kind: StepKind,
    },
    /// Stop a capture chain.
    EndTurn,
    /// Give up the game.
    Resign,
    /// Propose a draw (accepts the opponent's pending offer, if any).
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Refuse the opponent's draw offer.
    DeclineDraw,
    /// Win because the opponent, to move, has been away too long.
    ClaimVictory,
    /// Ask for another game with colours swapped.
    Rematch,
    /// Against the computer: undo the sender's last completed turn and
    /// everything after it (the computer's reply).
    Takeback,
    /// Between people: ask the opponent to let the sender take back their
    /// last completed turn (and everything after it).
    OfferTakeback,
    /// Between people: let the opponent take back their last completed
    /// turn, as they asked.
    AcceptTakeback,
    /// Between people: refuse the opponent's takeback request.
    DeclineTakeback,
    /// In a game with a clock: the player to move has run out of time,
    /// and loses. Accepted only once their time is out; the server decides
    /// it by itself too, at the moment the clock reaches zero.
    Flag,
    /// Against the computer: ask which step the engine would play. Recorded,
    /// with no effect on the position.
    Hint,
    /// Against the computer: it plays at `level` from its next turn.
    SetLevel {
        /// The new level.
        level: Level,
    },
    /// Between people: say one of the preset messages to everyone
    /// watching. Recorded, with no effect on the game.
    Message {
        /// Which message.
        text: MessageText,
    },
}

/// Declares [`IntentKind`] from one list of kinds and their names.
macro_rules! intent_kinds {
    ($($(#[$doc:meta])* $kind:ident = $name:literal,)*) => {
        /// The kind of an [`Intent`], without its fields. Its name is the
        /// message `type` on the wire and the `kind` column in the store;
        /// this is the one list of them.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum IntentKind {
            $($(#[$doc])* $kind,)*
        }

        impl IntentKind {
            /// Every kind, in the order of the protocol's documentation.
            pub const ALL: &'static [IntentKind] = &[$(IntentKind::$kind),*];

            /// The stable name used on the wire and in the store.
            pub const fn name(self) -> &'static str {
                match self {
                    $(IntentKind::$kind => $name,)*
                }
            }

            /// The kind called `name`, if there is one.
            pub(crate) fn from_name(name: &str) -> Option<IntentKind> {
                match name {
                    $($name => Some(IntentKind::$kind),)*
                    _ => None,
                }
            }
        }
    };
}

intent_kinds! {
    /// [`Intent::Step`].
    Step = "step",
    /// [`Intent::EndTurn`].
    EndTurn = "end_turn",
    /// [`Intent::Resign`].
    Resign = "resign",
    /// [`Intent::OfferDraw`].
    OfferDraw = "offer_draw",
    /// [`Intent::AcceptDraw`].
    AcceptDraw = "accept_draw",
    /// [`Intent::DeclineDraw`].
    DeclineDraw = "decline_draw",
    /// [`Intent::ClaimVictory`].
    ClaimVictory = "claim_victory",
    /// [`Intent::Rematch`].
    Rematch = "rematch",
    /// [`Intent::Takeback`].
    Takeback = "takeback",
    /// [`Intent::OfferTakeback`].
    OfferTakeback = "offer_takeback",
    /// [`Intent::AcceptTakeback`].
    AcceptTakeback = "accept_takeback",
    /// [`Intent::DeclineTakeback`].
    DeclineTakeback = "decline_takeback",
    /// [`Intent::Flag`].
    Flag = "flag",
    /// [`Intent::Hint`].
    Hint = "hint",
    /// [`Intent::SetLevel`].
    SetLevel = "set_level",
    /// [`Intent::Message`].
    Message = "message",
}

impl Intent {
    /// The kind of this intent.
    pub(crate) const fn kind(&self) -> IntentKind {
        match self {
            Intent::Step { .. } => IntentKind::Step,
            Intent::EndTurn => IntentKind::EndTurn,
            Intent::Resign => IntentKind::Resign,
            Intent::OfferDraw => IntentKind::OfferDraw,
            Intent::AcceptDraw => IntentKind::AcceptDraw,
            Intent::DeclineDraw => IntentKind::DeclineDraw,
            Intent::ClaimVictory => IntentKind::ClaimVictory,
            Intent::Rematch => IntentKind::Rematch,
            Intent::Takeback => IntentKind::Takeback,
            Intent::OfferTakeback => IntentKind::OfferTakeback,
            Intent::AcceptTakeback => IntentKind::AcceptTakeback,
            Intent::DeclineTakeback => IntentKind::DeclineTakeback,
            Intent::Flag => IntentKind::Flag,
            Intent::Hint => IntentKind::Hint,
            Intent::SetLevel { .. } => IntentKind::SetLevel,
            Intent::Message { .. } => IntentKind::Message,
        }
    }

    /// The intent of `kind` when it has no fields; `None` for
    /// [`IntentKind::Step`], [`IntentKind::SetLevel`] and
    /// [`IntentKind::Message`], the kinds with fields.
    pub(crate) const fn without_fields(kind: IntentKind) -> Option<Intent> {
        Some(match kind {
            IntentKind::Step | IntentKind::SetLevel | IntentKind::Message => return None,
            IntentKind::EndTurn => Intent::EndTurn,
            IntentKind::Resign => Intent::Resign,
            IntentKind::OfferDraw => Intent::OfferDraw,
            IntentKind::AcceptDraw => Intent::AcceptDraw,
            IntentKind::DeclineDraw => Intent::DeclineDraw,
            IntentKind::ClaimVictory => Intent::ClaimVictory,
            IntentKind::Rematch => Intent::Rematch,
            IntentKind::Takeback => Intent::Takeback,
            IntentKind::OfferTakeback => Intent::OfferTakeback,
            IntentKind::AcceptTakeback => Intent::AcceptTakeback,
            IntentKind::DeclineTakeback => Intent::DeclineTakeback,
            IntentKind::Flag => Intent::Flag,
            IntentKind::Hint => Intent::Hint,
        })
    }

    /// The stable name used on the wire and in the store: `step`, `end_turn`...
    pub(crate) const fn name(&self) -> &'static str {
        self.kind().name()
    }
}

impl IntentKind {
    /// Whether the kind makes sense only against the computer.
    pub const fn computer_only(self) -> bool {
        matches!(
            self,
            IntentKind::Takeback | IntentKind::Hint | IntentKind::SetLevel
        )
    }

    /// Whether the kind plays the game on to its end: what a game that
    /// has reached `--max-game-actions` still accepts. The rules bound how
    /// many of these a game can have once takebacks stop.
    pub const fn plays_on(self) -> bool {
        matches!(
            self,
            IntentKind::Step
                | IntentKind::EndTurn
                | IntentKind::Resign
                | IntentKind::AcceptDraw
                | IntentKind::ClaimVictory
                | IntentKind::Flag
                | IntentKind::Rematch
        )
    }

    /// Whether the kind makes sense only between two people: what the
    /// computer cannot answer (draw offers, takeback requests, messages)
    /// or cannot be (away).
    pub const fn people_only(self) -> bool {
        matches!(
            self,
            IntentKind::OfferDraw
                | IntentKind::AcceptDraw
                | IntentKind::DeclineDraw
                | IntentKind::ClaimVictory
                | IntentKind::OfferTakeback
                | IntentKind::AcceptTakeback
                | IntentKind::DeclineTakeback
                | IntentKind::Message
                | IntentKind::Flag
        )
    }
}

/// An accepted intent and the seat that made it: one row of a game's history.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The player who acted.
    pub by: Color,
    /// What they did.
    pub intent: Intent,
}
