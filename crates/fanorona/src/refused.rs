//! The steps a player could try and the rules refuse, with why: what a
//! board explains when a stone is dragged where it may not go.

use crate::{Direction, PlayError, Position, Square, Step, StepError, StepKind};

/// A step onto an empty neighbouring point that the rules refuse.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Where the stone stands.
    pub from: Square,
    /// The empty point it would step to.
    pub to: Square,
    /// Why the rules refuse it.
    pub reason: StepError,
}

impl Position {
    /// Every step onto an empty neighbouring point that a stone of the side
    /// to move (the capturing stone, during a turn) could try and the
    /// rules refuse, with the rules' reason. A step that would take stones
    /// is judged as that capture (its direction repeats, its point was
    /// visited); any other as a step that takes nothing (a capture is
    /// compulsory, or only captures continue a turn). Empty once the game
    /// is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona::{Position, Setup, StepError};
    ///
    /// // d3 can take f3 by approach: the stone on a1 may not just step.
    /// let setup: Setup = "........./........./...W.B.../........./W........ w".parse()?;
    /// let pos = Position::from_setup(setup)?;
    /// let refused = pos.refused_steps();
    /// assert!(refused
    ///     .iter()
    ///     .any(|r| r.from.to_string() == "a1" && r.reason == StepError::CaptureRequired));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn refused_steps(&self) -> Vec<Refused> {
        let legal = self.legal_steps();
        let stones = match self.chain() {
            Some(chain) => vec![chain.stone()],
            None => self.board().by_color(self.turn()).into_iter().collect(),
        };
        let empty = self.board().empty_squares();
        let mut out = Vec::new();
        for from in stones {
            for dir in Direction::ALL {
                let Some(to) = dir.step(from).filter(|&to| empty.contains(to)) else {
                    continue;
                };
                if legal.iter().any(|s| s.from() == from && s.to() == to) {
                    continue;
                }
                let kind = [StepKind::Approach, StepKind::Withdrawal]
                    .into_iter()
                    .find(|&k| {
                        Step::new(from, dir, k).is_some_and(|s| !self.captures(s).is_empty())
                    })
                    .unwrap_or(StepKind::Paika);
                if let Err(PlayError::IllegalStep { reason, .. }) = self.check_step(from, to, kind)
                {
                    out.push(Refused { from, to, reason });
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Setup, Turn};

    fn position(text: &str) -> Position {
        let setup: Setup = text.parse().expect("position text");
        Position::from_setup(setup).expect("a valid position")
    }

    /// `pos` with the steps of `turn` (notation) played, the turn not ended.
    fn play(text: &str, turn: &str) -> Position {
        let mut pos = position(text);
        let turn: Turn = turn.parse().expect("notation");
        let mut from = turn.origin();
        for landing in turn.landings() {
            let step = pos
                .check_step(from, landing.to, landing.kind)
                .expect("legal");
            pos = pos.play_step(step).expect("legal");
            from = landing.to;
        }
        pos
    }

    fn refused(pos: &Position) -> Vec<String> {
        pos.refused_steps()
            .into_iter()
            .map(|r| format!("{}-{} {}", r.from, r.to, r.reason.code()))
            .collect()
    }

    #[test]
    fn a_paika_while_a_capture_exists_is_refused_as_capture_required() {
        // d3 can take f3 by approach; the stone on a1 could only step.
        let list = refused(&position(
            "........./........./...W.B.../........./W........ w",
        ));
        assert!(
            list.contains(&"a1-b1 capture_required".to_owned()),
            "{list:?}"
        );
        assert!(
            list.contains(&"d3-d4 capture_required".to_owned()),
            "{list:?}"
        );
        assert!(!list.iter().any(|s| s.starts_with("d3-e3")), "{list:?}");
    }

    #[test]
    fn in_a_chain_only_the_capturing_stone_is_judged_and_a_visited_point_says_so() {
        // White's b3-c3 takes d3 by approach; from c3 the stone can go on
        // to take c5 by approach.
        let pos = play(
            "..B....../........./BW.B...../........./......... w",
            "b3-c3A",
        );
        assert!(pos.chain().is_some());
        let list = refused(&pos);
        assert!(list.iter().all(|s| s.starts_with("c3-")), "{list:?}");
        // Back to b3 would take a3 by approach, but the stone stood there.
        assert!(
            list.contains(&"c3-b3 revisits_point".to_owned()),
            "{list:?}"
        );
        assert!(
            list.contains(&"c3-c2 only_captures_continue".to_owned()),
            "{list:?}"
        );
        assert!(
            !list.iter().any(|s| s.starts_with("c3-c4")),
            "c3-c4 is legal: {list:?}"
        );
    }

    #[test]
    fn a_capture_in_the_same_direction_again_is_refused_as_a_repeat() {
        // b3-c3 takes a3 by withdrawal; c3-d3 would take e3 by approach,
        // east again.
        let pos = play(
            "..B....../........./BW..B..../........./......... w",
            "b3-c3W",
        );
        assert!(pos.chain().is_some());
        let list = refused(&pos);
        assert!(
            list.contains(&"c3-d3 repeats_direction".to_owned()),
            "{list:?}"
        );
    }

    #[test]
    fn a_position_without_captures_refuses_nothing() {
        let pos = position("....B..../........./........./........./....W.... w");
        assert!(refused(&pos).is_empty());
    }

    #[test]
    fn a_finished_game_refuses_nothing() {
        let pos = position("........./........./....W..../........./......... b");
        assert!(pos.is_game_over());
        assert!(refused(&pos).is_empty());
    }
}
