use std::fmt;

use arrayvec::ArrayVec;

use crate::{Direction, Square};

/// How a step captures, if it does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StepKind {
    /// A quiet step that captures nothing.
    Paika,
    /// The stone steps towards an enemy line and takes it.
    Approach,
    /// The stone steps away from an enemy line and takes it.
    Withdrawal,
}

impl StepKind {
    /// Whether the step captures.
    #[inline]
    pub const fn is_capture(self) -> bool {
        !matches!(self, StepKind::Paika)
    }

    /// The suffix written after the landing square: `"A"`, `"W"` or nothing.
    pub const fn suffix(self) -> &'static str {
        match self {
            StepKind::Paika => "",
            StepKind::Approach => "A",
            StepKind::Withdrawal => "W",
        }
    }

    /// A lower-case name: `"paika"`, `"approach"` or `"withdrawal"`.
    pub const fn name(self) -> &'static str {
        match self {
            StepKind::Paika => "paika",
            StepKind::Approach => "approach",
            StepKind::Withdrawal => "withdrawal",
        }
    }
}

/// One step of a stone along a line to the neighbouring point, with the way
/// it captures.
///
/// A step that can capture both ways is two different steps, one per kind.
/// A `Step` is only geometry: whether it is legal, and what it takes,
/// depends on a [`Position`](crate::Position).
///
/// # Examples
///
/// ```
/// use fanorona::{Direction, Square, Step, StepKind};
///
/// let step = Step::new(Square::D3, Direction::East, StepKind::Approach).expect("on the board");
/// assert_eq!(step.to(), Square::E3);
/// assert_eq!(step.to_string(), "d3-e3A");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Step {
    from: Square,
    to: Square,
    dir: Direction,
    kind: StepKind,
}

impl Step {
    /// The step from `from` along `dir`, or `None` when no line leaves
    /// `from` in that direction.
    #[inline]
    pub const fn new(from: Square, dir: Direction, kind: StepKind) -> Option<Step> {
        match dir.step(from) {
            Some(to) => Some(Step {
                from,
                to,
                dir,
                kind,
            }),
            None => None,
        }
    }

    /// The step from `from` to `to`, or `None` when no line joins them.
    pub fn between(from: Square, to: Square, kind: StepKind) -> Option<Step> {
        Direction::between(from, to).map(|dir| Step {
            from,
            to,
            dir,
            kind,
        })
    }

    /// Builds a step from parts the caller knows to be consistent.
    #[inline]
    pub(crate) const fn from_parts(from: Square, dir: Direction, kind: StepKind) -> Step {
        let to = Square::from_index_unchecked((from.index() as i32 + dir.offset()) as u32);
        Step {
            from,
            to,
            dir,
            kind,
        }
    }

    /// The point the stone leaves.
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The point the stone lands on.
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }

    /// The direction of the step.
    #[inline]
    pub const fn direction(self) -> Direction {
        self.dir
    }

    /// How the step captures.
    #[inline]
    pub const fn kind(self) -> StepKind {
        self.kind
    }

    /// Whether the step captures.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.kind.is_capture()
    }
}

impl fmt::Display for Step {
    /// Writes the step in turn notation: `e2-e3`, `d3-e3A`, `d3-e3W`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}{}", self.from, self.to, self.kind.suffix())
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most legal steps a position can have.
///
/// A line joins at most one own stone to one empty point in each position,
/// the board has 108 lines, and each such pair is at most two capture steps
/// (or one paika).
pub const MAX_STEPS: usize = 216;

/// A list of steps that never allocates.
pub type StepList = ArrayVec<Step, MAX_STEPS>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn between_needs_a_line() {
        assert!(Step::between(Square::D3, Square::E4, StepKind::Paika).is_none());
        assert!(Step::between(Square::D2, Square::E3, StepKind::Paika).is_some());
        assert!(Step::between(Square::A1, Square::A3, StepKind::Paika).is_none());
    }

    #[test]
    fn from_parts_matches_new() {
        for sq in Square::all() {
            for d in Direction::ALL {
                if let Some(step) = Step::new(sq, d, StepKind::Withdrawal) {
                    assert_eq!(Step::from_parts(sq, d, StepKind::Withdrawal), step);
                }
            }
        }
    }
}
