//! One game as a pure value: its start position, the actions played so far,
//! and everything derived from them. No I/O: the hub validates intents here,
//! stores them, and replays them here when a game is loaded.

mod clock;
mod error;
mod intent;
mod message;
mod plan;
mod result;
mod role;
mod score;
#[cfg(test)]
mod tests;

use fanorona::{ByColor, Color, Position, Square, Step, Turn};
pub use fanorona_engine::Level;

pub use self::{
    clock::{BadTimeControl, Clocks, TimeControl},
    error::GameError,
    intent::{Action, Intent, IntentKind},
    message::{Message, MessageText},
    result::GameResult,
    role::ComputerSeat,
    score::Score,
};
use self::{message::KEPT_MESSAGES, plan::Effect, result::board_result};
pub(crate) use self::{
    plan::{Plan, StalePlan},
    result::Reason,
    role::Role,
};
use crate::ids::GameId;

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
    /// The player whose takeback request is pending, between people.
    pub(crate) takeback_offer: Option<Color>,
    /// Which players have asked for a rematch.
    pub(crate) rematch: ByColor<bool>,
    /// The rematch game, once both asked.
    pub(crate) next_game: Option<GameId>,
    /// How many actions have been applied.
    pub seq: u64,
    /// The computer's seat, in a game against it.
    pub computer: Option<ComputerSeat>,
    /// The last messages the players sent, oldest first: at most
    /// [`KEPT_MESSAGES`].
    pub(crate) messages: Vec<Message>,
    /// The clocks, in a game with a time control.
    pub clock: Option<Clocks>,
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
            takeback_offer: None,
            rematch: ByColor::default(),
            next_game: None,
            seq: 0,
            computer: None,
            messages: Vec::new(),
            clock: None,
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

    /// This game with clocks for `control`, or without any for `None`:
    /// set before the first action.
    pub fn with_clock(self, control: Option<TimeControl>) -> Game {
        Game {
            clock: control.map(Clocks::new),
            ..self
        }
    }

    /// When the player to move runs out of time (milliseconds since the
    /// Unix epoch), while a clock runs in a game that is on.
    pub fn deadline(&self) -> Option<i64> {
        let clock = self.clock.as_ref()?;
        if self.result.is_some() {
            return None;
        }
        clock.deadline(self.position.turn())
    }

    /// Whether the computer is to move in a game that is on.
    pub fn computer_to_move(&self) -> bool {
        self.result.is_none()
            && self
                .computer
                .is_some_and(|c| c.color == self.position.turn())
    }

    /// Applies one action in place, or says why it is refused and changes
    /// nothing: `Game::plan`, then `Game::commit`. For a game without a
    /// clock, where the time of an action does not matter; see
    /// [`Game::apply_at`].
    ///
    /// # Errors
    ///
    /// The [`GameError`] that explains the refusal.
    pub fn apply(&mut self, action: Action) -> Result<(), GameError> {
        self.apply_at(action, 0)
    }

    /// Applies one action made at `at` (milliseconds since the Unix
    /// epoch), or says why it is refused and changes nothing.
    ///
    /// # Errors
    ///
    /// The [`GameError`] that explains the refusal.
    pub fn apply_at(&mut self, action: Action, at: i64) -> Result<(), GameError> {
        let plan = self.plan(action, at)?;
        self.apply_plan(plan);
        Ok(())
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
        let turns = self.moves.len();
        match plan.effect {
            Effect::Step(step) => {
                self.line.push(plan.action);
                self.takeback_offer = None;
                self.step(by, step);
            }
            Effect::EndTurn(position) => {
                self.line.push(plan.action);
                self.takeback_offer = None;
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
            Effect::Message(text) => {
                if self.messages.len() >= KEPT_MESSAGES {
                    self.messages.remove(0);
                }
                self.messages.push(Message {
                    by,
                    text,
                    seq: self.seq,
                });
            }
            Effect::Finish(winner, reason) => {
                if let Some(clock) = &mut self.clock {
                    clock.stop(self.position.turn(), plan.at);
                }
                self.result = Some(GameResult { winner, reason });
                self.draw_offer = None;
                self.takeback_offer = None;
            }
            Effect::OfferDraw => self.draw_offer = Some(by),
            Effect::DeclineDraw => self.draw_offer = None,
            Effect::OfferTakeback => self.takeback_offer = Some(by),
            Effect::DeclineTakeback => self.takeback_offer = None,
            Effect::AskRematch { .. } => *self.rematch.get_mut(by) = true,
        }
        if self.moves.len() > turns {
            self.clocks_after_turn(by, plan.at);
        }
        self.seq += 1;
    }

    /// `by`'s turn has just ended at `at`: their clock stops, and the
    /// opponent's starts unless the game is over.
    fn clocks_after_turn(&mut self, by: Color, at: i64) {
        let over = self.result.is_some();
        let turns = self.moves.len();
        let next = self.position.turn();
        if let Some(clock) = &mut self.clock {
            clock.turn_ended(by, at, turns);
            if over {
                clock.stop(next, at);
            }
        }
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
            if let Ok(plan) = replayed.plan(*action, 0) {
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
        self.takeback_offer = None;
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
