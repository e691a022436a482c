//! Scores: hundredths of a stone, or a won or lost game at a known distance.

use std::fmt;

/// The score of the side to move winning right now; a win found `n` turns
/// later scores `MATE - n`.
pub(crate) const MATE: i32 = 30_000;
/// Scores above this (or below its negation) are won (lost) games.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Above every score; the search window starts as `-INFINITY..INFINITY`.
pub(crate) const INFINITY: i32 = MATE + 1;
/// The score of a won endgame in the tables, less 100 for each stone the
/// loser still has and 1 for each turn to the next capture: so the search
/// prefers captures first, then the quickest way to the next one.
pub(crate) const TABLE_WIN: i32 = 20_000;
/// Scores above this (or below its negation) are proven: a won game, or
/// a won endgame in the tables.
pub(crate) const WIN_BOUND: i32 = 10_000;

/// A search result as a player reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// An advantage in hundredths of a stone for the side to move.
    Value(i32),
    /// The side to move wins in this many turns (its own and the
    /// opponent's counted together).
    Win(u32),
    /// The side to move loses in this many turns.
    Loss(u32),
    /// The side to move wins: the endgame tables say so, counting turns to
    /// the next capture rather than to the end.
    Won,
    /// The side to move loses, by the endgame tables.
    Lost,
}

impl Score {
    pub(crate) fn from_internal(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Win((MATE - score) as u32)
        } else if score < -MATE_BOUND {
            Score::Loss((MATE + score) as u32)
        } else if score > WIN_BOUND {
            Score::Won
        } else if score < -WIN_BOUND {
            Score::Lost
        } else {
            Score::Value(score)
        }
    }
}

impl fmt::Display for Score {
    /// `cp 35`, `win 3`, `loss 4`, `won` or `lost`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Value(v) => write!(f, "cp {v}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
            Score::Won => f.write_str("won"),
            Score::Lost => f.write_str("lost"),
        }
    }
}

/// A score to store in the table: wins counted from this node, not from
/// the root, so the entry is right wherever the position comes up again.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The reverse of [`to_table`].
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_read_as_turns() {
        assert_eq!(Score::from_internal(MATE - 3), Score::Win(3));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Loss(2));
        assert_eq!(Score::from_internal(-40), Score::Value(-40));
        assert_eq!(Score::Win(3).to_string(), "win 3");
        assert_eq!(from_table(to_table(MATE - 7, 4), 4), MATE - 7);
        assert_eq!(to_table(MATE - 7, 4), MATE - 3);
        assert_eq!(Score::from_internal(TABLE_WIN - 130), Score::Won);
        assert_eq!(from_table(to_table(-TABLE_WIN + 9, 5), 5), -TABLE_WIN + 9);
    }
}
