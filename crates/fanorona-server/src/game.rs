//! One game as a pure value: its start position, the actions played so far,
//! and everything derived from them. No I/O: the hub validates intents here,
//! stores them, and replays them here when a game is loaded.

use fanorona::{ByColor, Color, EndReason, PlayError, Position, Square, Step, StepKind, Turn};
pub use fanorona_engine::Level;

use crate::ids::GameId;

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
    /// Against the computer: ask which step the engine would play. Recorded,
    /// with no effect on the position.
    Hint,
    /// Against the computer: it plays at `level` from its next turn.
    SetLevel {
        /// The new level.
        level: Level,
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
    /// [`Intent::Hint`].
    Hint = "hint",
    /// [`Intent::SetLevel`].
    SetLevel = "set_level",
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
            Intent::Hint => IntentKind::Hint,
            Intent::SetLevel { .. } => IntentKind::SetLevel,
        }
    }

    /// The intent of `kind` when it has no fields; `None` for
    /// [`IntentKind::Step`] and [`IntentKind::SetLevel`], the kinds with
    /// fields.
    pub(crate) const fn without_fields(kind: IntentKind) -> Option<Intent> {
        Some(match kind {
            IntentKind::Step | IntentKind::SetLevel => return None,
            IntentKind::EndTurn => Intent::EndTurn,
            IntentKind::Resign => Intent::Resign,
            IntentKind::OfferDraw => Intent::OfferDraw,
            IntentKind::AcceptDraw => Intent::AcceptDraw,
            IntentKind::DeclineDraw => Intent::DeclineDraw,
            IntentKind::ClaimVictory => Intent::ClaimVictory,
            IntentKind::Rematch => Intent::Rematch,
            IntentKind::Takeback => Intent::Takeback,
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
                | IntentKind::Rematch
        )
    }

    /// Whether the kind makes sense only between two people: what the
    /// computer cannot answer (draw offers) or cannot be (away).
    pub const fn people_only(self) -> bool {
        matches!(
            self,
            IntentKind::OfferDraw
                | IntentKind::AcceptDraw
                | IntentKind::DeclineDraw
                | IntentKind::ClaimVictory
        )
    }
}

/// The computer's seat in a game against it: its colour and its level now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ComputerSeat {
    /// The colour the computer plays.
    pub color: Color,
    /// How strongly it plays.
    pub level: Level,
}

/// An accepted intent and the seat that made it: one row of a game's history.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The player who acted.
    pub by: Color,
    /// What they did.
    pub intent: Intent,
}

/// Who a connection is: one of the players, or a spectator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The player of this colour.
    Player(Color),
    /// Someone watching.
    Spectator,
}

impl Role {
    /// `"white"`, `"black"` or `"spectator"`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Role::Player(c) => c.name(),
            Role::Spectator => "spectator",
        }
    }
}

/// Why a game ended, on the board or off it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// The loser has no stones left.
    NoStones,
    /// The loser, to move, has no legal step.
    NoLegalStep,
    /// Fifty turns without a capture: a draw.
    FiftyTurns,
    /// The loser resigned.
    Resignation,
    /// Both players agreed to a draw.
    Agreement,
    /// The loser left the game on their turn and the winner claimed it.
    Abandonment,
}

impl Reason {
    /// The stable wire name, like `no_stones`.
    pub(crate) const fn code(self) -> &'static str {
        match self {
            Reason::NoStones => "no_stones",
            Reason::NoLegalStep => "no_legal_step",
            Reason::FiftyTurns => "fifty_turns",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
            Reason::Abandonment => "abandonment",
        }
    }
}

/// How a game ended: the winner (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub(crate) winner: Option<Color>,
    /// Why the game ended.
    pub(crate) reason: Reason,
}

/// Why an intent is refused. Each has a stable code and a sentence.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The rules refuse the step or the end of turn.
    #[error("{0}")]
    Play(PlayError),
    /// The other player is to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Only a finished game can be followed by a rematch.
    #[error("a rematch can only be asked for once the game is over")]
    GameNotOver,
    /// The second seat is still free.
    #[error("your opponent has not joined yet")]
    WaitingForOpponent,
    /// No draw offer from the opponent is pending.
    #[error("your opponent has not offered a draw")]
    NoDrawOffer,
    /// This player's own offer is still pending.
    #[error("you have already offered a draw")]
    DrawAlreadyOffered,
    /// The opponent is not away on their own turn long enough.
    #[error(
        "you can claim victory only when your opponent has been away for a while on their turn"
    )]
    NotAbandoned,
    /// This player has already asked for a rematch.
    #[error("you have already asked for a rematch")]
    RematchAlreadyRequested,
    /// The intent needs a game against the computer, or is not possible
    /// in one.
    #[error("this is not possible in this game: it is only for games against the computer, or only for games between people")]
    NotAgainstComputer,
    /// The sender has no completed turn to take back.
    #[error("there is no turn of yours to take back")]
    NothingToTakeBack,
}

impl GameError {
    /// A stable snake_case identifier.
    pub(crate) const fn code(&self) -> &'static str {
        match self {
            GameError::Play(e) => e.code(),
            GameError::NotYourTurn => "not_your_turn",
            GameError::GameOver => "game_over",
            GameError::GameNotOver => "game_not_over",
            GameError::WaitingForOpponent => "waiting_for_opponent",
            GameError::NoDrawOffer => "no_draw_offer",
            GameError::DrawAlreadyOffered => "draw_already_offered",
            GameError::NotAbandoned => "not_abandoned",
            GameError::RematchAlreadyRequested => "rematch_already_requested",
            GameError::NotAgainstComputer => "not_against_computer",
            GameError::NothingToTakeBack => "nothing_to_take_back",
        }
    }
}

/// The turn being played: its notation so far and what it took.
#[derive(Clone, Debug)]
pub(crate) struct TurnSoFar {
    /// The steps so far, in turn notation.
    pub(crate) turn: Turn,
    /// Every enemy stone taken so far, in order.
    pub(crate) captured: Vec<Square>,
}

impl TurnSoFar {
    /// The points the stone has stood on, its start first.
    pub(crate) fn path(&self) -> Vec<Square> {
        std::iter::once(self.turn.origin())
            .chain(self.turn.landings().iter().map(|l| l.to))
            .collect()
    }
}

/// A game: start, history, and the state derived from them.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position the game started from.
    pub(crate) start: Position,
    /// The position now, with the turn in progress if any.
    pub position: Position,
    /// Completed turns in notation.
    pub moves: Vec<String>,
    /// What each completed turn took, in order: one entry per turn of
    /// `moves` (empty for a paika), so that nobody has to replay the rules
    /// to show the history.
    pub(crate) captures: Vec<Vec<Square>>,
    /// The turn in progress, if a capture chain is open.
    pub(crate) current: Option<TurnSoFar>,
    /// The last completed turn.
    pub(crate) last: Option<TurnSoFar>,
    /// The end of the game, once it has ended.
    pub result: Option<GameResult>,
    /// The player whose draw offer is pending.
    pub(crate) draw_offer: Option<Color>,
    /// Which players have asked for a rematch.
    pub(crate) rematch: ByColor<bool>,
    /// The rematch game, once both asked.
    pub(crate) next_game: Option<GameId>,
    /// How many actions have been applied.
    pub seq: u64,
    /// The computer's seat, in a game against it.
    pub computer: Option<ComputerSeat>,
    /// The steps and ends of turn of the current line, from the start: the
    /// position, `moves` and `captures` are these replayed (a takeback
    /// cuts the line and replays it).
    line: Vec<Action>,
    /// Where each turn of `moves` starts in `line`.
    turn_starts: Vec<usize>,
}

impl Game {
    /// A new game from `start`, which may already be over.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            captures: Vec::new(),
            current: None,
            last: None,
            result: start.outcome().map(board_result),
            draw_offer: None,
            rematch: ByColor::default(),
            next_game: None,
            seq: 0,
            computer: None,
            line: Vec::new(),
            turn_starts: Vec::new(),
        }
    }

    /// A new game from `start` against the computer in `seat`, or between
    /// people for `None`.
    pub fn with_computer(start: Position, seat: Option<ComputerSeat>) -> Game {
        Game {
            computer: seat,
            ..Game::new(start)
        }
    }

    /// Whether the computer is to move in a game that is on.
    pub fn computer_to_move(&self) -> bool {
        self.result.is_none()
            && self
                .computer
                .is_some_and(|c| c.color == self.position.turn())
    }

    /// Applies one action in place, or says why it is refused and changes
    /// nothing: `Game::plan`, then `Game::commit`.
    ///
    /// # Errors
    ///
    /// The [`GameError`] that explains the refusal.
    pub fn apply(&mut self, action: Action) -> Result<(), GameError> {
        let plan = self.plan(action)?;
        self.apply_plan(plan);
        Ok(())
    }

    /// Checks `action` against the game, changing nothing, and says what
    /// it will do: the one place where an intent is judged. The hub plans
    /// an intent, stores its action, then commits the plan.
    ///
    /// # Errors
    ///
    /// The [`GameError`] that explains the refusal.
    pub(crate) fn plan(&self, action: Action) -> Result<Plan, GameError> {
        let Action { by, intent } = action;
        let kind = intent.kind();
        let against_computer = self.computer.is_some();
        if (kind.computer_only() && !against_computer) || (kind.people_only() && against_computer) {
            return Err(GameError::NotAgainstComputer);
        }
        let effect = if intent == Intent::Rematch {
            self.plan_rematch(by)?
        } else if intent == Intent::Takeback {
            self.plan_takeback(by)?
        } else if self.result.is_some() {
            return Err(GameError::GameOver);
        } else {
            self.plan_play(by, intent)?
        };
        Ok(Plan {
            action,
            seq: self.seq,
            effect,
        })
    }

    fn plan_play(&self, by: Color, intent: Intent) -> Result<Effect, GameError> {
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
            Intent::ClaimVictory if by == mover => return Err(GameError::NotAbandoned),
            Intent::ClaimVictory => Effect::Finish(Some(by), Reason::Abandonment),
            Intent::Rematch => return self.plan_rematch(by),
            Intent::Takeback => return self.plan_takeback(by),
            Intent::Hint if by != mover => return Err(GameError::NotYourTurn),
            Intent::Hint => Effect::Nothing,
            Intent::SetLevel { level } => Effect::SetLevel(level),
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
        let first = self.start.turn();
        let mover = |turn: usize| if turn % 2 == 0 { first } else { !first };
        let turn = (0..self.moves.len())
            .rev()
            .find(|&t| mover(t) == by)
            .ok_or(GameError::NothingToTakeBack)?;
        let keep = self.turn_starts.get(turn).copied().unwrap_or(0);
        Ok(Effect::CutLine { keep })
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

    /// Applies a plan made by [`Game::plan`] on this game, checking nothing
    /// again.
    ///
    /// # Errors
    ///
    /// [`StalePlan`], changing nothing, when the game has changed since the
    /// plan was made.
    pub(crate) fn commit(&mut self, plan: Plan) -> Result<(), StalePlan> {
        if plan.seq != self.seq {
            return Err(StalePlan);
        }
        self.apply_plan(plan);
        Ok(())
    }

    /// Applies `plan`, made for the game as it is.
    fn apply_plan(&mut self, plan: Plan) {
        let by = plan.action.by;
        match plan.effect {
            Effect::Step(step) => {
                self.line.push(plan.action);
                self.step(by, step);
            }
            Effect::EndTurn(position) => {
                self.line.push(plan.action);
                self.position = position;
                if let Some(so_far) = self.current.take() {
                    self.complete_turn(so_far);
                }
            }
            Effect::CutLine { keep } => self.cut_line(keep),
            Effect::SetLevel(level) => {
                if let Some(seat) = &mut self.computer {
                    seat.level = level;
                }
            }
            Effect::Nothing => {}
            Effect::Finish(winner, reason) => {
                self.result = Some(GameResult { winner, reason });
                self.draw_offer = None;
            }
            Effect::OfferDraw => self.draw_offer = Some(by),
            Effect::DeclineDraw => self.draw_offer = None,
            Effect::AskRematch { .. } => *self.rematch.get_mut(by) = true,
        }
        self.seq += 1;
    }

    fn step(&mut self, by: Color, step: Step) {
        let captured = self.position.captures(step);
        let mut so_far = self.current.take().unwrap_or_else(|| {
            self.turn_starts.push(self.line.len() - 1);
            TurnSoFar {
                turn: Turn::new(step.from()),
                captured: Vec::new(),
            }
        });
        so_far.turn.push(step.to(), step.kind());
        so_far.captured.extend(captured);
        self.position = self.position.play_step_unchecked(step);
        if self.draw_offer == Some(!by) {
            self.draw_offer = None;
        }
        if self.position.chain().is_some() {
            self.current = Some(so_far);
        } else {
            self.complete_turn(so_far);
        }
    }

    /// Keeps the first `keep` actions of the line and replays them from
    /// the start: the position, `moves`, `captures` and the result are
    /// what they were then. The count of actions, the computer's level and
    /// the rematch stay.
    fn cut_line(&mut self, keep: usize) {
        let mut replayed = Game::with_computer(self.start, self.computer);
        for action in self.line.iter().take(keep) {
            // Each of these was accepted on the same line before.
            if let Ok(plan) = replayed.plan(*action) {
                replayed.apply_plan(plan);
            }
        }
        self.position = replayed.position;
        self.moves = replayed.moves;
        self.captures = replayed.captures;
        self.current = replayed.current;
        self.last = replayed.last;
        self.result = replayed.result;
        self.line = replayed.line;
        self.turn_starts = replayed.turn_starts;
        self.draw_offer = None;
    }

    fn complete_turn(&mut self, so_far: TurnSoFar) {
        self.moves.push(so_far.turn.to_string());
        self.captures.push(so_far.captured.clone());
        self.last = Some(so_far);
        if let Some(outcome) = self.position.outcome() {
            self.result = Some(board_result(outcome));
        }
    }
}

/// An action the game accepted, and what it will do: made by
/// [`Game::plan`], stored by the hub, applied by [`Game::commit`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    action: Action,
    /// How many actions the game had when the plan was made.
    seq: u64,
    effect: Effect,
}

impl Plan {
    /// The action to store.
    pub(crate) fn action(&self) -> Action {
        self.action
    }

    /// Whether the plan starts the rematch: the other player had asked.
    pub(crate) fn completes_rematch(&self) -> bool {
        matches!(self.effect, Effect::AskRematch { completes: true })
    }
}

/// What an accepted action does to the game, found while checking it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Effect {
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
    /// A rematch is asked for; `completes` when the other player had too
    /// (or the other player is the computer).
    AskRematch { completes: bool },
    /// The line is cut to its first `keep` actions and replayed.
    CutLine { keep: usize },
    /// The computer's level changes.
    SetLevel(Level),
    /// Recorded, changing nothing else (a hint).
    Nothing,
}

/// A plan applied to a game that changed after the plan was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game changed after this action was checked")]
pub(crate) struct StalePlan;

fn board_result(outcome: fanorona::Outcome) -> GameResult {
    let reason = match outcome.reason {
        EndReason::NoStones => Reason::NoStones,
        EndReason::NoLegalStep => Reason::NoLegalStep,
        _ => Reason::FiftyTurns,
    };
    GameResult {
        winner: outcome.winner,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_intent_kind_round_trips_through_its_name_and_its_intent() {
        assert_eq!(IntentKind::ALL.len(), 11);
        for &kind in IntentKind::ALL {
            assert_eq!(IntentKind::from_name(kind.name()), Some(kind));
            match Intent::without_fields(kind) {
                Some(intent) => assert_eq!(intent.kind(), kind),
                None => assert!(matches!(kind, IntentKind::Step | IntentKind::SetLevel)),
            }
        }
        assert_eq!(IntentKind::from_name("Step"), None);
    }

    fn step(by: Color, text: &str, kind: StepKind) -> Action {
        let (from, to) = text.split_once('-').expect("a step");
        Action {
            by,
            intent: Intent::Step {
                from: from.parse().expect("square"),
                to: to.parse().expect("square"),
                kind,
            },
        }
    }

    #[test]
    fn a_capture_is_recorded_in_notation_with_what_it_took() {
        let mut game = Game::new(Position::start());
        game.apply(step(Color::White, "d3-e3", StepKind::Approach))
            .expect("legal");
        assert_eq!(game.moves, ["d3-e3A"]);
        assert_eq!(game.captures, [vec![Square::F3]]);
        let last = game.last.as_ref().expect("a completed turn");
        assert_eq!(last.path(), [Square::D3, Square::E3]);
        assert_eq!(last.captured, [Square::F3]);
        assert_eq!(game.seq, 1);
    }

    #[test]
    fn every_completed_turn_keeps_what_it_took_beside_its_notation() {
        let mut game = Game::new(Position::start());
        let mut pos = game.position;
        let mut taken = Vec::new();
        let mut in_turn = Vec::new();
        for n in 0..120_usize {
            let steps = pos.legal_steps();
            let Some(&s) = steps.get(n * 5 % steps.len().max(1)) else {
                break;
            };
            if game.result.is_some() {
                break;
            }
            let by = pos.turn();
            in_turn.extend(pos.captures(s));
            game.apply(Action {
                by,
                intent: Intent::Step {
                    from: s.from(),
                    to: s.to(),
                    kind: s.kind(),
                },
            })
            .expect("legal");
            if game.current.is_none() {
                taken.push(std::mem::take(&mut in_turn));
            } else if n % 2 == 0 {
                game.apply(Action {
                    by,
                    intent: Intent::EndTurn,
                })
                .expect("may stop");
                taken.push(std::mem::take(&mut in_turn));
            }
            pos = game.position;
        }
        assert_eq!(game.captures, taken);
        assert_eq!(game.captures.len(), game.moves.len());
        assert!(game.captures.iter().filter(|c| c.len() > 1).count() > 0);
    }

    #[test]
    fn a_refused_action_changes_nothing() {
        let mut game = Game::new(Position::start());
        let err = game.apply(step(Color::Black, "d3-e3", StepKind::Approach));
        assert_eq!(err, Err(GameError::NotYourTurn));
        let err = game.apply(step(Color::White, "e2-e3", StepKind::Paika));
        assert_eq!(err.map_err(|e| e.code()), Err("capture_required"));
        assert_eq!(game.seq, 0);
        assert_eq!(game.position, Position::start());
    }

    #[test]
    fn a_refused_plan_leaves_the_game_byte_identical_and_an_accepted_one_is_played() {
        let intents = [
            Intent::EndTurn,
            Intent::Resign,
            Intent::OfferDraw,
            Intent::AcceptDraw,
            Intent::DeclineDraw,
            Intent::ClaimVictory,
            Intent::Rematch,
        ];
        let (mut refused, mut accepted) = (0, 0);
        let mut rng = 7_u64;
        for _ in 0..20 {
            let mut game = Game::new(Position::start());
            for _ in 0..200 {
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let by = if rng >> 40 & 1 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let steps = game.position.legal_steps();
                let pick = usize::try_from(rng >> 33).unwrap_or(0);
                let intent = match steps.get(pick % (steps.len() + 12)) {
                    Some(s) => Intent::Step {
                        from: s.from(),
                        to: s.to(),
                        kind: s.kind(),
                    },
                    None => intents[pick % intents.len()],
                };
                let action = Action { by, intent };
                let before = format!("{game:?}");
                let played = game.position;
                match game.apply(action) {
                    Err(_) => {
                        refused += 1;
                        assert_eq!(format!("{game:?}"), before, "{action:?}");
                    }
                    Ok(()) => {
                        accepted += 1;
                        if let Intent::Step { from, to, kind } = intent {
                            let step = played.check_step(from, to, kind).expect("was legal");
                            assert_eq!(game.position, played.play_step_unchecked(step));
                        }
                    }
                }
            }
        }
        assert!(refused > 100 && accepted > 50, "{refused} {accepted}");
    }

    #[test]
    fn a_plan_applies_only_to_the_game_it_was_made_for() {
        let mut game = Game::new(Position::start());
        let first = game
            .plan(step(Color::White, "d3-e3", StepKind::Approach))
            .expect("legal");
        let offer = game
            .plan(Action {
                by: Color::Black,
                intent: Intent::OfferDraw,
            })
            .expect("legal");
        game.commit(first).expect("fresh");
        let before = format!("{game:?}");
        assert_eq!(game.commit(offer), Err(StalePlan));
        assert_eq!(format!("{game:?}"), before);
    }

    #[test]
    fn draw_offers_are_accepted_or_declined_by_the_opponent_only() {
        let mut game = Game::new(Position::start());
        let act = |by, intent| Action { by, intent };
        game.apply(act(Color::White, Intent::OfferDraw))
            .expect("offer");
        assert_eq!(
            game.apply(act(Color::White, Intent::AcceptDraw)),
            Err(GameError::NoDrawOffer)
        );
        game.apply(act(Color::Black, Intent::DeclineDraw))
            .expect("decline");
        assert_eq!(game.draw_offer, None);
        game.apply(act(Color::Black, Intent::OfferDraw))
            .expect("offer");
        game.apply(act(Color::White, Intent::AcceptDraw))
            .expect("accept");
        assert_eq!(
            game.result,
            Some(GameResult {
                winner: None,
                reason: Reason::Agreement
            })
        );
        let ask = game.plan(act(Color::White, Intent::Rematch)).expect("ask");
        assert!(!ask.completes_rematch());
        game.commit(ask).expect("fresh");
        let answer = game.plan(act(Color::Black, Intent::Rematch)).expect("ask");
        assert!(answer.completes_rematch());
    }

    /// Plays a whole turn for the side to move: its first legal steps,
    /// ending the chain as soon as it may.
    fn play_turn(game: &mut Game, pick: usize) {
        let by = game.position.turn();
        loop {
            let intent = if game.position.can_end_turn() {
                Intent::EndTurn
            } else {
                let steps = game.position.legal_steps();
                let s = steps[pick % steps.len()];
                Intent::Step {
                    from: s.from(),
                    to: s.to(),
                    kind: s.kind(),
                }
            };
            game.apply(Action { by, intent }).expect("legal");
            if game.current.is_none() {
                return;
            }
        }
    }

    #[test]
    fn a_takeback_replays_the_line_before_the_senders_last_turn() {
        let seat = ComputerSeat {
            color: Color::Black,
            level: Level::MIN,
        };
        let mut game = Game::with_computer(Position::start(), Some(seat));
        let takeback = Action {
            by: Color::White,
            intent: Intent::Takeback,
        };
        assert_eq!(game.apply(takeback), Err(GameError::NothingToTakeBack));
        let mut snapshots = Vec::new();
        for n in 0..6 {
            snapshots.push(format!(
                "{:?}",
                (game.position, &game.moves, &game.captures)
            ));
            play_turn(&mut game, n);
            play_turn(&mut game, n + 1);
        }
        game.apply(Action {
            by: Color::White,
            intent: Intent::Hint,
        })
        .expect("on White's turn");
        let level = Level::new(4).expect("a level");
        game.apply(Action {
            by: Color::White,
            intent: Intent::SetLevel { level },
        })
        .expect("any time");
        let seq = game.seq;
        while let Some(before) = snapshots.pop() {
            game.apply(takeback).expect("a turn to take back");
            let now = format!("{:?}", (game.position, &game.moves, &game.captures));
            assert_eq!(now, before);
        }
        assert_eq!(game.seq, seq + 6);
        assert_eq!(game.computer.map(|c| c.level), Some(level));
        assert_eq!(game.apply(takeback), Err(GameError::NothingToTakeBack));
        let mut friends = Game::new(Position::start());
        assert_eq!(friends.apply(takeback), Err(GameError::NotAgainstComputer));
        let offer = Action {
            by: Color::White,
            intent: Intent::OfferDraw,
        };
        assert_eq!(game.apply(offer), Err(GameError::NotAgainstComputer));
    }
}
