//! The one place where an intent is judged: [`Game::plan`] checks an
//! action against the game, changing nothing, and says what it will do;
//! the hub stores it, then [`Game::commit`] applies it.

use fanorona::{Color, Position, Step};

use super::{Action, Game, GameError, Intent, Level, MessageText, Reason};

impl Game {
    /// Checks `action`, made at `at` (milliseconds since the Unix epoch),
    /// against the game, changing nothing, and says what it will do: the
    /// one place where an intent is judged. The hub plans an intent,
    /// stores its action with its time, then commits the plan. The time
    /// matters only in a game with a clock.
    ///
    /// # Errors
    ///
    /// The [`GameError`] that explains the refusal.
    pub(crate) fn plan(&self, action: Action, at: i64) -> Result<Plan, GameError> {
        let Action { by, intent } = action;
        let kind = intent.kind();
        let against_computer = self.computer.is_some();
        if (kind.computer_only() && !against_computer) || (kind.people_only() && against_computer) {
            return Err(GameError::NotAgainstComputer);
        }
        let effect = if let Intent::Message { text } = intent {
            // A finished game still takes them: "Good game" comes after
            // the end.
            Effect::Message(text)
        } else if intent == Intent::Rematch {
            self.plan_rematch(by)?
        } else if intent == Intent::Takeback {
            self.plan_takeback(by)?
        } else if self.result.is_some() {
            return Err(GameError::GameOver);
        } else {
            self.plan_play(by, intent, at)?
        };
        Ok(Plan {
            action,
            seq: self.seq,
            at,
            effect,
        })
    }

    fn plan_play(&self, by: Color, intent: Intent, at: i64) -> Result<Effect, GameError> {
        let mover = self.position.turn();
        let effect = match intent {
            Intent::Step { .. } | Intent::EndTurn if by != mover => {
                return Err(GameError::NotYourTurn)
            }
            Intent::Step { from, to, kind } => Effect::Step(
                self.position
                    .check_step(from, to, kind)
                    .map_err(GameError::Play)?,
            ),
            Intent::EndTurn => Effect::EndTurn(self.position.end_turn().map_err(GameError::Play)?),
            Intent::Resign => Effect::Finish(Some(!by), Reason::Resignation),
            Intent::OfferDraw => match self.draw_offer {
                Some(c) if c == by => return Err(GameError::DrawAlreadyOffered),
                Some(_) => Effect::Finish(None, Reason::Agreement),
                None => Effect::OfferDraw,
            },
            Intent::AcceptDraw | Intent::DeclineDraw if self.draw_offer != Some(!by) => {
                return Err(GameError::NoDrawOffer)
            }
            Intent::AcceptDraw => Effect::Finish(None, Reason::Agreement),
            Intent::DeclineDraw => Effect::DeclineDraw,
            Intent::OfferTakeback | Intent::AcceptTakeback if self.clock.is_some() => {
                return Err(GameError::TimedGame)
            }
            Intent::OfferTakeback if self.takeback_offer == Some(by) => {
                return Err(GameError::TakebackAlreadyOffered)
            }
            Intent::OfferTakeback => {
                self.takeback_keep(by)?;
                Effect::OfferTakeback
            }
            Intent::AcceptTakeback | Intent::DeclineTakeback
                if self.takeback_offer != Some(!by) =>
            {
                return Err(GameError::NoTakebackOffer)
            }
            Intent::AcceptTakeback => Effect::CutLine {
                keep: self.takeback_keep(!by)?,
            },
            Intent::DeclineTakeback => Effect::DeclineTakeback,
            Intent::ClaimVictory if by == mover => return Err(GameError::NotAbandoned),
            Intent::ClaimVictory => Effect::Finish(Some(by), Reason::Abandonment),
            Intent::Flag => {
                let clock = self.clock.as_ref().ok_or(GameError::NoClock)?;
                match clock.deadline(mover) {
                    Some(deadline) if at >= deadline => Effect::Finish(Some(!mover), Reason::Time),
                    _ => return Err(GameError::TimeNotOut),
                }
            }
            Intent::Rematch => return self.plan_rematch(by),
            Intent::Takeback => return self.plan_takeback(by),
            Intent::Hint if by != mover => return Err(GameError::NotYourTurn),
            Intent::Hint => Effect::Nothing,
            Intent::SetLevel { level } => Effect::SetLevel(level),
            Intent::Message { text } => Effect::Message(text),
        };
        Ok(effect)
    }

    /// A takeback cuts the line where the sender's last completed turn
    /// starts. It is allowed while the game is on and after an end on the
    /// board, not after a resignation or once the next game exists.
    fn plan_takeback(&self, by: Color) -> Result<Effect, GameError> {
        let on_board = matches!(
            self.result.map(|r| r.reason),
            None | Some(Reason::NoStones | Reason::NoLegalStep | Reason::FiftyTurns)
        );
        if !on_board || self.next_game.is_some() || self.rematch.white || self.rematch.black {
            return Err(GameError::GameOver);
        }
        Ok(Effect::CutLine {
            keep: self.takeback_keep(by)?,
        })
    }

    /// How many actions of the line stay when `by` takes back their last
    /// completed turn: those before it.
    fn takeback_keep(&self, by: Color) -> Result<usize, GameError> {
        let first = self.start.turn();
        let mover = |turn: usize| if turn % 2 == 0 { first } else { !first };
        let turn = (0..self.moves.len())
            .rev()
            .find(|&t| mover(t) == by)
            .ok_or(GameError::NothingToTakeBack)?;
        Ok(self.turn_starts.get(turn).copied().unwrap_or(0))
    }

    fn plan_rematch(&self, by: Color) -> Result<Effect, GameError> {
        if self.result.is_none() {
            return Err(GameError::GameNotOver);
        }
        if *self.rematch.get(by) {
            return Err(GameError::RematchAlreadyRequested);
        }
        Ok(Effect::AskRematch {
            completes: self.computer.is_some() || *self.rematch.get(!by),
        })
    }
}

/// An action the game accepted, and what it will do: made by
/// [`Game::plan`], stored by the hub, applied by [`Game::commit`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    pub(super) action: Action,
    /// How many actions the game had when the plan was made.
    pub(super) seq: u64,
    /// When the action is made, in milliseconds since the Unix epoch.
    pub(super) at: i64,
    pub(super) effect: Effect,
}

impl Plan {
    /// The action to store.
    pub(crate) fn action(&self) -> Action {
        self.action
    }

    /// When it is made, to store with it.
    pub(crate) fn at(&self) -> i64 {
        self.at
    }

    /// Whether the plan starts the rematch: the other player had asked.
    pub(crate) fn completes_rematch(&self) -> bool {
        matches!(self.effect, Effect::AskRematch { completes: true })
    }
}

/// What an accepted action does to the game, found while checking it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Effect {
    /// A legal step, checked against the position.
    Step(Step),
    /// The end of the capture chain, and the position after it.
    EndTurn(Position),
    /// The game ends off the board: the winner (`None` for a draw), why.
    Finish(Option<Color>, Reason),
    /// A draw offer stands.
    OfferDraw,
    /// The opponent's draw offer is withdrawn.
    DeclineDraw,
    /// A takeback request stands.
    OfferTakeback,
    /// The opponent's takeback request is refused.
    DeclineTakeback,
    /// A rematch is asked for; `completes` when the other player had too
    /// (or the other player is the computer).
    AskRematch { completes: bool },
    /// The line is cut to its first `keep` actions and replayed.
    CutLine { keep: usize },
    /// The computer's level changes.
    SetLevel(Level),
    /// Recorded, changing nothing else (a hint).
    Nothing,
    /// A message is said: kept among the last ones, changing nothing of
    /// the play (not the offers standing either).
    Message(MessageText),
}

/// A plan applied to a game that changed after the plan was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game changed after this action was checked")]
pub(crate) struct StalePlan;
