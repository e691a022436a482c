use std::{error::Error, fmt};

use crate::{
    movegen::{self, ChainState},
    Bitboard, Board, Color, Direction, EndReason, Outcome, Setup, Square, Step, StepKind, StepList,
    Turn,
};

/// The number of turns without a capture that ends the game in a draw.
pub const FIFTY_TURNS: u32 = 50;

/// The most stones a side can have: what it starts with.
pub const MAX_STONES: usize = 22;

/// A capture chain in progress: the stone that has captured this turn and
/// may capture again.
///
/// # Examples
///
/// ```
/// use fanorona::{Direction, Position, Setup, Square, Turn};
///
/// // White's e2 takes e4 by approach; from e3 it may go on to take g3.
/// let setup: Setup = "........./....B..../......B../....W..../......... w".parse()?;
/// let pos = Position::from_setup(setup)?;
/// let after = pos.play(&"e2-e3A-f3A".parse()?)?;
/// assert_eq!(after.board().count(fanorona::Color::Black), 0);
/// let step = pos.legal_steps()[0];
/// let mid = pos.play_step(step)?;
/// let chain = mid.chain().expect("g3 can still be taken");
/// assert_eq!(chain.stone(), Square::E3);
/// assert_eq!(chain.last_direction(), Direction::North);
/// assert!(mid.can_end_turn());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    stone: Square,
    visited: Bitboard,
    last: Direction,
}

impl Chain {
    /// The point where the moving stone stands now.
    pub fn stone(&self) -> Square {
        self.stone
    }

    /// Every point the stone has occupied this turn, its start included.
    pub fn visited(&self) -> Bitboard {
        self.visited
    }

    /// The direction of the stone's last step; the next may not repeat it.
    pub fn last_direction(&self) -> Direction {
        self.last
    }

    #[inline]
    fn state(&self) -> ChainState {
        ChainState {
            stone: self.stone,
            visited: self.visited,
            last: self.last,
        }
    }
}

/// A legal game state: the stones, the side to move, the turns since the
/// last capture, and the capture chain in progress, if any.
///
/// A turn is one paika step, or a capturing step followed by any number of
/// further captures by the same stone. [`Position::play_step`] plays one
/// step; after a capture the turn stays open ([`Position::chain`]) until the
/// player ends it ([`Position::end_turn`]) or no further capture exists, when
/// it ends by itself. [`Position::play`] plays a whole [`Turn`].
///
/// # Examples
///
/// ```
/// use fanorona::{Position, Turn};
///
/// let pos = Position::start();
/// assert_eq!(pos.legal_steps().len(), 5);
/// let turn: Turn = "d3-e3A".parse()?;
/// let pos = pos.play(&turn)?;
/// assert_eq!(pos.to_string(), "BBBBBBBBB/BBBBBBBBB/BWB.W.WBW/WWWWWWWWW/WWWWWWWWW b 0");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
    quiet: u8,
    chain: Option<Chain>,
}

/// Why position text is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has more than 22 stones.
    TooManyStones {
        /// The side.
        color: Color,
        /// How many stones it has.
        count: usize,
    },
    /// The side that just moved has no stones, so it could not have moved.
    NoStonesForLastMover {
        /// The side that just moved.
        color: Color,
    },
    /// The counter of turns since the last capture is above 50.
    CounterTooLarge {
        /// The counter as written.
        found: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::TooManyStones { color, count } => {
                write!(
                    f,
                    "{color} has {count} stones, at most {MAX_STONES} allowed"
                )
            }
            PositionError::NoStonesForLastMover { color } => write!(
                f,
                "{color} has no stones, so it cannot have made the last move"
            ),
            PositionError::CounterTooLarge { found } => write!(
                f,
                "{found} turns since the last capture, at most {FIFTY_TURNS} allowed"
            ),
        }
    }
}

impl Error for PositionError {}

/// Why one step of a turn is not legal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StepError {
    /// No stone stands on the starting point.
    NoStone,
    /// The stone on the starting point belongs to the opponent.
    NotYourStone,
    /// No line joins the two points.
    NotOnALine,
    /// The landing point is occupied.
    Occupied,
    /// A paika step was tried while a capture exists somewhere.
    CaptureRequired,
    /// The step does not capture in the way it claims.
    NotACapture,
    /// A turn in progress continues only with the stone that captured.
    NotTheMovingStone,
    /// After a capture only further captures may follow.
    OnlyCapturesContinue,
    /// The step goes the same direction as the previous one.
    RepeatsDirection,
    /// The step lands on a point the stone already occupied this turn.
    RevisitsPoint,
}

impl StepError {
    /// A stable lower-case identifier for the reason, like `repeats_direction`.
    pub const fn code(self) -> &'static str {
        match self {
            StepError::NoStone => "no_stone",
            StepError::NotYourStone => "not_your_stone",
            StepError::NotOnALine => "not_on_a_line",
            StepError::Occupied => "occupied",
            StepError::CaptureRequired => "capture_required",
            StepError::NotACapture => "not_a_capture",
            StepError::NotTheMovingStone => "not_the_moving_stone",
            StepError::OnlyCapturesContinue => "only_captures_continue",
            StepError::RepeatsDirection => "repeats_direction",
            StepError::RevisitsPoint => "revisits_point",
        }
    }
}

/// Why an action cannot be played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The game is over.
    GameOver(Outcome),
    /// A step is illegal.
    IllegalStep {
        /// Where the stone starts.
        from: Square,
        /// Where it would land.
        to: Square,
        /// How it claims to capture.
        kind: StepKind,
        /// What is wrong.
        reason: StepError,
    },
    /// Ending the turn is only possible after a capture.
    CannotEndTurn,
    /// A turn goes on after it already ended, because no capture followed.
    TurnAlreadyOver {
        /// Where the stone stood when the turn ended.
        at: Square,
    },
}

impl PlayError {
    /// A stable lower-case identifier, like `repeats_direction` or `game_over`.
    pub const fn code(&self) -> &'static str {
        match self {
            PlayError::GameOver(_) => "game_over",
            PlayError::IllegalStep { reason, .. } => reason.code(),
            PlayError::CannotEndTurn => "cannot_end_turn",
            PlayError::TurnAlreadyOver { .. } => "turn_already_over",
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to, kind, reason) = match *self {
            PlayError::GameOver(outcome) => return write!(f, "the game is over ({outcome})"),
            PlayError::CannotEndTurn => {
                return f.write_str("the turn can only be ended after a capture")
            }
            PlayError::TurnAlreadyOver { at } => {
                return write!(
                    f,
                    "the turn is already over at {at}: no further capture was possible"
                )
            }
            PlayError::IllegalStep {
                from,
                to,
                kind,
                reason,
            } => (from, to, kind, reason),
        };
        let step = format!("{from}-{to}{}", kind.suffix());
        match reason {
            StepError::NoStone => write!(f, "{step}: there is no stone on {from}"),
            StepError::NotYourStone => write!(f, "{step}: the stone on {from} is not yours"),
            StepError::NotOnALine => write!(f, "{step}: no line joins {from} and {to}"),
            StepError::Occupied => write!(f, "{step}: {to} is not empty"),
            StepError::CaptureRequired => {
                f.write_str("a capture is available, so a paika move is not allowed")
            }
            StepError::NotACapture => {
                write!(f, "{step} captures nothing by {}", kind.name())
            }
            StepError::NotTheMovingStone => {
                write!(
                    f,
                    "{step}: only the stone that captured may continue this turn"
                )
            }
            StepError::OnlyCapturesContinue => {
                write!(
                    f,
                    "{step} does not capture: after a capture only captures may follow"
                )
            }
            StepError::RepeatsDirection => write!(f, "{step} repeats the previous direction"),
            StepError::RevisitsPoint => {
                write!(
                    f,
                    "{step} returns to a point the stone already occupied this turn"
                )
            }
        }
    }
}

impl Error for PlayError {}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The starting position, White to move.
    pub const fn start() -> Position {
        Position {
            board: Board::start(),
            turn: Color::White,
            quiet: 0,
            chain: None,
        }
    }

    /// Checks a [`Setup`] and makes it a position with no turn in progress.
    ///
    /// # Errors
    ///
    /// A side with more than 22 stones, a side that just moved with no
    /// stones, or a counter above 50.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        for color in Color::ALL {
            let count = setup.board.count(color);
            if count > MAX_STONES {
                return Err(PositionError::TooManyStones { color, count });
            }
        }
        if setup.board.count(!setup.turn) == 0 {
            return Err(PositionError::NoStonesForLastMover { color: !setup.turn });
        }
        if setup.turns_since_capture > FIFTY_TURNS {
            return Err(PositionError::CounterTooLarge {
                found: setup.turns_since_capture,
            });
        }
        Ok(Position {
            board: setup.board,
            turn: setup.turn,
            quiet: setup.turns_since_capture as u8,
            chain: None,
        })
    }

    /// The position as an unvalidated [`Setup`]; a turn in progress is not
    /// part of it.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            turns_since_capture: u32::from(self.quiet),
        }
    }

    /// The stones on the board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Complete turns played since the last capture (50 ends the game).
    #[inline]
    pub fn turns_since_capture(&self) -> u32 {
        u32::from(self.quiet)
    }

    /// The capture chain in progress, if the side to move has captured this
    /// turn and may capture again.
    #[inline]
    pub fn chain(&self) -> Option<&Chain> {
        self.chain.as_ref()
    }

    #[inline]
    fn us_them(&self) -> (Bitboard, Bitboard) {
        (
            self.board.by_color(self.turn),
            self.board.by_color(!self.turn),
        )
    }

    /// Whether the side to move could start a capture anywhere on the board.
    ///
    /// This looks at the board alone: it ignores a turn in progress.
    #[inline]
    pub fn has_capture(&self) -> bool {
        let (us, them) = self.us_them();
        movegen::has_capture(us, them)
    }

    /// Every legal step: the further captures of a turn in progress, or at
    /// the start of a turn every capture, or every paika when no capture
    /// exists. Empty when the game is over.
    pub fn legal_steps(&self) -> StepList {
        let mut out = StepList::new();
        self.legal_steps_into(&mut out);
        out
    }

    /// Like [`Position::legal_steps`], filling a list the caller owns
    /// (cleared first).
    pub fn legal_steps_into(&self, out: &mut StepList) {
        out.clear();
        if u32::from(self.quiet) >= FIFTY_TURNS {
            return;
        }
        let (us, them) = self.us_them();
        match self.chain {
            Some(chain) => movegen::for_each_continuation(chain.state(), us, them, |s| {
                let _ = out.try_push(s);
            }),
            None => movegen::start_steps(us, them, out),
        }
    }

    /// Whether the player may end the turn now (a capture chain is open).
    #[inline]
    pub fn can_end_turn(&self) -> bool {
        self.chain.is_some()
    }

    /// The enemy stones `step` would capture here: empty for a paika or for a
    /// step that does not capture the way it claims.
    pub fn captures(&self, step: Step) -> Bitboard {
        let (_, them) = self.us_them();
        movegen::captured_by(step, them)
    }

    /// Whether `step` is legal here.
    pub fn is_legal(&self, step: Step) -> bool {
        self.check_step(step.from(), step.to(), step.kind()).is_ok()
    }

    /// Checks a step given by its squares and kind, returning the step.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] or [`PlayError::IllegalStep`] with the first
    /// reason that applies.
    pub fn check_step(&self, from: Square, to: Square, kind: StepKind) -> Result<Step, PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        let illegal = |reason| PlayError::IllegalStep {
            from,
            to,
            kind,
            reason,
        };
        let (us, them) = self.us_them();
        if let Some(chain) = &self.chain {
            if from != chain.stone {
                return Err(illegal(StepError::NotTheMovingStone));
            }
        } else if them.contains(from) {
            return Err(illegal(StepError::NotYourStone));
        } else if !us.contains(from) {
            return Err(illegal(StepError::NoStone));
        }
        let step = Step::between(from, to, kind).ok_or_else(|| illegal(StepError::NotOnALine))?;
        if (us | them).contains(to) {
            return Err(illegal(StepError::Occupied));
        }
        if let Some(chain) = &self.chain {
            if kind == StepKind::Paika {
                return Err(illegal(StepError::OnlyCapturesContinue));
            }
            if step.direction() == chain.last {
                return Err(illegal(StepError::RepeatsDirection));
            }
            if chain.visited.contains(to) {
                return Err(illegal(StepError::RevisitsPoint));
            }
        }
        if kind == StepKind::Paika {
            if movegen::has_capture(us, them) {
                return Err(illegal(StepError::CaptureRequired));
            }
        } else if movegen::captured_by(step, them).is_empty() {
            return Err(illegal(StepError::NotACapture));
        }
        Ok(step)
    }

    /// Plays one step.
    ///
    /// # Errors
    ///
    /// When the step is illegal, saying why; `self` is unchanged.
    pub fn play_step(&self, step: Step) -> Result<Position, PlayError> {
        let step = self.check_step(step.from(), step.to(), step.kind())?;
        Ok(self.play_step_unchecked(step))
    }

    /// Plays a step known to be legal (one from [`Position::legal_steps`]).
    /// An illegal step gives a meaningless position, but never a panic.
    #[inline]
    pub fn play_step_unchecked(&self, step: Step) -> Position {
        let (us, them) = self.us_them();
        let us = us.without(step.from()).with(step.to());
        let mut next = *self;
        next.board.set_color(self.turn, us);
        if !step.is_capture() {
            next.turn = !self.turn;
            next.quiet = self.quiet.saturating_add(1);
            next.chain = None;
            return next;
        }
        let them = them - movegen::captured_by(step, them);
        next.board.set_color(!self.turn, them);
        next.quiet = 0;
        let visited = match &self.chain {
            Some(chain) => chain.visited,
            None => Bitboard::from_square(step.from()),
        }
        .with(step.to());
        let chain = Chain {
            stone: step.to(),
            visited,
            last: step.direction(),
        };
        if movegen::has_continuation(chain.state(), us, them) {
            next.chain = Some(chain);
        } else {
            next.chain = None;
            next.turn = !self.turn;
        }
        next
    }

    /// Ends a turn in progress, stopping the capture chain.
    ///
    /// # Errors
    ///
    /// [`PlayError::CannotEndTurn`] when no capture has been made this turn.
    pub fn end_turn(&self) -> Result<Position, PlayError> {
        if self.chain.is_none() {
            return Err(PlayError::CannotEndTurn);
        }
        Ok(self.end_turn_unchecked())
    }

    #[inline]
    fn end_turn_unchecked(&self) -> Position {
        Position {
            turn: !self.turn,
            chain: None,
            ..*self
        }
    }

    /// Plays a whole turn given in notation: each step in order, then ends
    /// the turn if the last capture left it open.
    ///
    /// # Errors
    ///
    /// The first step that is illegal and why, or
    /// [`PlayError::TurnAlreadyOver`] when steps follow the automatic end of
    /// the turn, or [`PlayError::CannotEndTurn`] for a turn with no landing
    /// that does not name the stone of the chain in progress. `self` is
    /// unchanged.
    pub fn play(&self, turn: &Turn) -> Result<Position, PlayError> {
        if turn.landings().is_empty() {
            // An empty turn only ends the chain of the stone it names.
            return match self.chain {
                Some(chain) if chain.stone == turn.origin() => Ok(self.end_turn_unchecked()),
                _ => Err(PlayError::CannotEndTurn),
            };
        }
        let mut pos = *self;
        let mut from = turn.origin();
        for (i, landing) in turn.landings().iter().enumerate() {
            if i > 0 && pos.chain.is_none() {
                return Err(PlayError::TurnAlreadyOver { at: from });
            }
            let step = pos.check_step(from, landing.to, landing.kind)?;
            pos = pos.play_step_unchecked(step);
            from = landing.to;
        }
        if pos.chain.is_some() {
            pos = pos.end_turn_unchecked();
        }
        Ok(pos)
    }

    /// The end of the game, if it has ended: the side to move has no stones,
    /// fifty turns passed without a capture, or the side to move has no
    /// legal step. `None` while a turn is in progress.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.chain.is_some() {
            return None;
        }
        let (us, them) = self.us_them();
        let win = |reason| Outcome {
            winner: Some(!self.turn),
            reason,
        };
        if us.is_empty() {
            Some(win(EndReason::NoStones))
        } else if u32::from(self.quiet) >= FIFTY_TURNS {
            Some(Outcome {
                winner: None,
                reason: EndReason::FiftyTurns,
            })
        } else if movegen::count_paika(us, them) == 0 && !movegen::has_capture(us, them) {
            Some(win(EndReason::NoLegalStep))
        } else {
            None
        }
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Every legal complete turn, in generation order.
    ///
    /// With a turn in progress these are its possible continuations; ending
    /// the turn at once ([`Position::end_turn`]) is not listed.
    pub fn legal_turns(&self) -> Vec<Turn> {
        let mut out = Vec::new();
        self.for_each_turn(|t| out.push(t.clone()));
        out
    }

    /// Calls `f` for every legal complete turn, without allocating.
    pub fn for_each_turn(&self, mut f: impl FnMut(&Turn)) {
        let mut steps = StepList::new();
        self.legal_steps_into(&mut steps);
        for &step in &steps {
            let mut turn = Turn::new(step.from());
            if step.is_capture() {
                let after = self.play_step_unchecked(step);
                turn.push(step.to(), step.kind());
                after.extend_turns(&mut turn, &mut f);
            } else {
                turn.push(step.to(), step.kind());
                f(&turn);
            }
        }
    }

    /// After a capture: report stopping here, then every continuation.
    fn extend_turns(&self, turn: &mut Turn, f: &mut impl FnMut(&Turn)) {
        f(turn);
        if let Some(chain) = self.chain {
            let (us, them) = self.us_them();
            movegen::for_each_continuation(chain.state(), us, them, |step| {
                let after = self.play_step_unchecked(step);
                turn.push(step.to(), step.kind());
                after.extend_turns(turn, f);
                turn.pop();
            });
        }
    }

    /// Ends a turn in progress (perft and search only).
    #[inline]
    pub(crate) fn finish_turn(&self) -> Position {
        self.end_turn_unchecked()
    }

    /// The raw parts for fast counting: own stones, enemy stones, quiet turns.
    #[inline]
    pub(crate) fn raw(&self) -> (Bitboard, Bitboard, u32) {
        let (us, them) = self.us_them();
        (us, them, u32::from(self.quiet))
    }
}

impl fmt::Display for Position {
    /// Writes position text; a turn in progress is not part of it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain_open() -> Position {
        let setup: Setup = "........./....B..../......B../....W..../......... w"
            .parse()
            .expect("valid text");
        let pos = Position::from_setup(setup).expect("legal");
        let turn: Turn = "e2-e3A".parse().expect("notation");
        let step = pos
            .check_step(Square::E2, Square::E3, StepKind::Approach)
            .expect("legal step");
        let mid = pos.play_step_unchecked(step);
        assert!(mid.chain().is_some(), "{turn} leaves g3 to take");
        mid
    }

    #[test]
    fn an_empty_turn_ends_only_the_chain_of_its_own_stone() {
        let mid = chain_open();
        assert_eq!(
            mid.play(&Turn::new(Square::A1)),
            Err(PlayError::CannotEndTurn)
        );
        let ended = mid.play(&Turn::new(Square::E3)).expect("the moving stone");
        assert_eq!(ended.turn(), Color::Black);
        assert_eq!(
            Position::start().play(&Turn::new(Square::D3)),
            Err(PlayError::CannotEndTurn)
        );
    }
}
