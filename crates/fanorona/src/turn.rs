use std::{error::Error, fmt, str::FromStr};

use arrayvec::ArrayVec;

use crate::{Position, Square, Step, StepKind};

/// The most landings a turn can have: a stone never returns to a point it
/// occupied this turn, so it lands on at most 44 of the other points.
pub const MAX_LANDINGS: usize = 44;

/// One landing of a turn: the point reached and how the step captured.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Landing {
    /// The point the stone lands on.
    pub to: Square,
    /// How the step that reached it captured.
    pub kind: StepKind,
}

/// A complete turn as written: the origin square, then each landing.
///
/// Notation: `e2-e3` for a paika; `d3-e3A-e4W` for a capture by approach
/// continued by a capture by withdrawal. A `Turn` is only syntax; whether it
/// is legal is decided by [`Position::play`](crate::Position::play).
///
/// # Examples
///
/// ```
/// use fanorona::{Square, StepKind, Turn};
///
/// let turn: Turn = "d3-e3A-e4W".parse()?;
/// assert_eq!(turn.origin(), Square::D3);
/// assert_eq!(turn.landings().len(), 2);
/// assert_eq!(turn.landings()[1].kind, StepKind::Withdrawal);
/// assert_eq!(turn.to_string(), "d3-e3A-e4W");
///
/// let err = "d3-e3-e4".parse::<Turn>().unwrap_err();
/// assert_eq!(err.to_string(), "a step without A or W is a paika and must be the only step, at character 4");
/// # Ok::<_, fanorona::ParseTurnError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Turn {
    origin: Square,
    landings: ArrayVec<Landing, MAX_LANDINGS>,
}

impl Turn {
    /// A turn with no landings yet, for building one step at a time.
    pub fn new(origin: Square) -> Turn {
        Turn {
            origin,
            landings: ArrayVec::new(),
        }
    }

    /// The paika from `from` to `to`.
    pub fn paika(from: Square, to: Square) -> Turn {
        let mut turn = Turn::new(from);
        turn.push(to, StepKind::Paika);
        turn
    }

    /// The turn made of `steps`, played in order by one stone, or `None`
    /// when a step does not start where the previous one landed, or there
    /// are more than [`MAX_LANDINGS`].
    pub fn from_steps(steps: &[Step]) -> Option<Turn> {
        let first = steps.first()?;
        let mut turn = Turn::new(first.from());
        for step in steps {
            if step.from() != turn.last_square() || turn.landings.is_full() {
                return None;
            }
            turn.push(step.to(), step.kind());
        }
        Some(turn)
    }

    /// Adds a landing. Does nothing when the turn already has
    /// [`MAX_LANDINGS`], which no legal turn exceeds.
    pub fn push(&mut self, to: Square, kind: StepKind) {
        let _ = self.landings.try_push(Landing { to, kind });
    }

    /// Removes the last landing.
    pub fn pop(&mut self) -> Option<Landing> {
        self.landings.pop()
    }

    /// The point the stone starts from.
    pub fn origin(&self) -> Square {
        self.origin
    }

    /// The landings, in order.
    pub fn landings(&self) -> &[Landing] {
        &self.landings
    }

    /// Where the stone ends the turn.
    pub fn last_square(&self) -> Square {
        self.landings.last().map_or(self.origin, |l| l.to)
    }

    /// Whether the turn captures (its first step is a capture).
    pub fn is_capture(&self) -> bool {
        self.landings.first().is_some_and(|l| l.kind.is_capture())
    }

    /// The steps of the turn, or `None` where two consecutive points are not
    /// joined by a line.
    pub fn steps(&self) -> impl Iterator<Item = Option<Step>> + '_ {
        let froms = std::iter::once(self.origin).chain(self.landings.iter().map(|l| l.to));
        froms
            .zip(self.landings.iter())
            .map(|(from, l)| Step::between(from, l.to, l.kind))
    }
}

/// The turn between two positions, here beside the turn rather than in
/// `position.rs`, as it is the turn's question: which one leads there.
impl Position {
    /// The legal turn that leads from this position to `to`, or `None`
    /// when none does. With a turn in progress this is stopping it (a turn
    /// of no landings from the chain's stone) when that leads to `to`, else
    /// a continuation. When several turns lead to `to`, the first in the
    /// order of [`Position::for_each_turn`].
    ///
    /// It tries every legal turn: for showing a turn known only by where
    /// it leads, not for a search's inner loop.
    ///
    /// ```
    /// use fanorona::{Position, Turn};
    ///
    /// let start = Position::start();
    /// let turn: Turn = "d3-e3W".parse().unwrap();
    /// let after = start.play(&turn).unwrap();
    /// assert_eq!(start.turn_to(&after), Some(turn));
    /// assert_eq!(start.turn_to(&start), None);
    /// ```
    pub fn turn_to(&self, to: &Position) -> Option<Turn> {
        if let Some(chain) = self.chain() {
            if self.end_turn().ok().as_ref() == Some(to) {
                return Some(Turn::new(chain.stone()));
            }
        }
        let mut found = None;
        self.for_each_turn(|t| {
            if found.is_none() && self.play(t).ok().as_ref() == Some(to) {
                found = Some(t.clone());
            }
        });
        found
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.origin)?;
        for l in &self.landings {
            write!(f, "-{}{}", l.to, l.kind.suffix())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What is wrong with a turn in notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseTurnErrorKind {
    /// The text is empty.
    Empty,
    /// A square was expected.
    ExpectedSquare,
    /// A `-` was expected between squares.
    ExpectedDash,
    /// The origin square is not followed by any landing.
    NoLanding,
    /// A paika landing (no `A` or `W`) is followed by more steps, or follows a capture.
    PaikaNotAlone,
    /// More landings than any turn can have.
    TooLong,
}

/// The error returned when text is not a turn in notation: what is wrong
/// and at which character (counted from 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParseTurnError {
    /// What is wrong.
    pub kind: ParseTurnErrorKind,
    /// The character where it was found, counted from 1.
    pub column: usize,
}

impl fmt::Display for ParseTurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ParseTurnErrorKind::Empty => return f.write_str("empty turn"),
            ParseTurnErrorKind::ExpectedSquare => "expected a square a1-i5",
            ParseTurnErrorKind::ExpectedDash => "expected '-' between squares",
            ParseTurnErrorKind::NoLanding => "expected '-' and a landing square after the origin",
            ParseTurnErrorKind::PaikaNotAlone => {
                "a step without A or W is a paika and must be the only step"
            }
            ParseTurnErrorKind::TooLong => "too many steps for one turn",
        };
        write!(f, "{what}, at character {}", self.column)
    }
}

impl Error for ParseTurnError {}

impl FromStr for Turn {
    type Err = ParseTurnError;

    fn from_str(s: &str) -> Result<Turn, ParseTurnError> {
        let bytes = s.as_bytes();
        let err = |kind, at: usize| ParseTurnError {
            kind,
            column: at + 1,
        };
        if bytes.is_empty() {
            return Err(err(ParseTurnErrorKind::Empty, 0));
        }
        let origin = Square::from_ascii(bytes).ok_or(err(ParseTurnErrorKind::ExpectedSquare, 0))?;
        let mut turn = Turn::new(origin);
        let mut at = 2;
        if at >= bytes.len() {
            return Err(err(ParseTurnErrorKind::NoLanding, at));
        }
        while at < bytes.len() {
            if bytes[at] != b'-' {
                return Err(err(ParseTurnErrorKind::ExpectedDash, at));
            }
            let landing_at = at + 1;
            let to = Square::from_ascii(&bytes[landing_at..])
                .ok_or(err(ParseTurnErrorKind::ExpectedSquare, landing_at))?;
            at = landing_at + 2;
            let kind = match bytes.get(at) {
                Some(b'A') => StepKind::Approach,
                Some(b'W') => StepKind::Withdrawal,
                _ => StepKind::Paika,
            };
            if kind.is_capture() {
                at += 1;
            }
            if kind == StepKind::Paika && (at < bytes.len() || !turn.landings.is_empty()) {
                return Err(err(ParseTurnErrorKind::PaikaNotAlone, landing_at));
            }
            if turn.landings.is_full() {
                return Err(err(ParseTurnErrorKind::TooLong, landing_at));
            }
            turn.push(to, kind);
        }
        Ok(turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in ["e2-e3", "d3-e3A", "d3-e3W", "d3-e3A-e4W-d4A", "a1-b2W"] {
            let turn: Turn = text.parse().expect(text);
            assert_eq!(turn.to_string(), text);
        }
    }

    #[test]
    fn errors_point_at_the_problem() {
        let cases = [
            ("", ParseTurnErrorKind::Empty, 1),
            ("x3-e3", ParseTurnErrorKind::ExpectedSquare, 1),
            ("e3", ParseTurnErrorKind::NoLanding, 3),
            ("e3e4", ParseTurnErrorKind::ExpectedDash, 3),
            ("e3-", ParseTurnErrorKind::ExpectedSquare, 4),
            ("e3-e6", ParseTurnErrorKind::ExpectedSquare, 4),
            ("e3-e4A-", ParseTurnErrorKind::ExpectedSquare, 8),
            ("e3-e4X", ParseTurnErrorKind::PaikaNotAlone, 4),
            ("e3-e4-e5", ParseTurnErrorKind::PaikaNotAlone, 4),
            ("e3-e4A-e5", ParseTurnErrorKind::PaikaNotAlone, 8),
            ("e3-e4A ", ParseTurnErrorKind::ExpectedDash, 7),
            ("é3-e4", ParseTurnErrorKind::ExpectedSquare, 1),
        ];
        for (text, kind, column) in cases {
            assert_eq!(
                text.parse::<Turn>(),
                Err(ParseTurnError { kind, column }),
                "{text:?}"
            );
        }
    }

    #[test]
    fn rejects_more_landings_than_a_turn_can_have() {
        let mut text = String::from("a1");
        for _ in 0..MAX_LANDINGS + 1 {
            text.push_str("-b2A");
        }
        let err = text.parse::<Turn>().expect_err("too long");
        assert_eq!(err.kind, ParseTurnErrorKind::TooLong);
    }

    #[test]
    fn from_steps_needs_a_connected_path() {
        let a = Step::between(Square::D3, Square::E3, StepKind::Approach).expect("line");
        let b = Step::between(Square::E3, Square::E4, StepKind::Withdrawal).expect("line");
        let turn = Turn::from_steps(&[a, b]).expect("connected");
        assert_eq!(turn.to_string(), "d3-e3A-e4W");
        assert!(Turn::from_steps(&[b, a]).is_none());
        assert!(Turn::from_steps(&[]).is_none());
    }
}
