//! Levels 1 to 6: how deep the engine looks and how much it lets chance
//! pick among turns that are nearly as good as the best.
//!
//! The weak levels search every turn to a small depth, then choose with
//! probability falling off exponentially with the loss against the best
//! (`exp(-loss / noise)`), never a turn worse than the best by more than
//! four times the noise. So a beginner's turns are plausible but not
//! sharp, and it does not play a good move and then an absurd one. The
//! strong levels search by nodes, not time, so they play the same turn on
//! any machine.

mod choice;

use std::fmt;

use crate::search::params::FULL_QUIESCENCE;

/// A level of play, from 1 (Beginner) to 6 (Strongest).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// What a level does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// The level's name, for players.
    pub name: &'static str,
    /// Search depth in turns, when the level searches by depth.
    pub depth: Option<u32>,
    /// Search budget in nodes, when the level searches by nodes.
    pub nodes: Option<u64>,
    /// Temperature of the choice among near-best turns, in hundredths of a
    /// stone; 0 always plays the best.
    pub noise: i32,
    /// How many capture turns the search follows past its horizon: 0 for
    /// a beginner, who does not see the recapture; 1 sees the reply to its
    /// own capture but not what follows; the full search follows captures
    /// until none is left.
    pub quiescence: u32,
    /// Whether the level uses the endgame tables, when the engine has them.
    pub tables: bool,
    /// Whether the level plays the opening book's turn where it has one
    /// (and the engine's [`Config::book`](crate::Config::book) is on).
    pub book: bool,
}

const SPECS: [LevelSpec; 6] = [
    LevelSpec {
        name: "Beginner",
        depth: Some(1),
        nodes: None,
        noise: 200,
        quiescence: 0,
        tables: false,
        book: false,
    },
    LevelSpec {
        name: "Casual",
        depth: Some(1),
        nodes: None,
        noise: 60,
        quiescence: 1,
        tables: false,
        book: false,
    },
    LevelSpec {
        name: "Club",
        depth: Some(1),
        nodes: None,
        noise: 40,
        quiescence: FULL_QUIESCENCE,
        tables: false,
        book: false,
    },
    LevelSpec {
        name: "Strong",
        depth: Some(3),
        nodes: None,
        noise: 15,
        quiescence: FULL_QUIESCENCE,
        tables: false,
        book: false,
    },
    LevelSpec {
        name: "Expert",
        depth: None,
        nodes: Some(150_000),
        noise: 0,
        quiescence: FULL_QUIESCENCE,
        tables: true,
        book: false,
    },
    LevelSpec {
        name: "Strongest",
        depth: None,
        nodes: Some(2_600_000),
        noise: 0,
        quiescence: FULL_QUIESCENCE,
        tables: true,
        book: true,
    },
];

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(6);

    /// Level `n`, or `None` outside 1 to 6.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 6 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=6).map(Level)
    }

    /// The level's number, 1 to 6.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// What the level does.
    pub const fn spec(self) -> LevelSpec {
        SPECS[self.0 as usize - 1]
    }

    /// The level's name, like "Beginner".
    pub const fn name(self) -> &'static str {
        self.spec().name
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_numbered_and_named() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(7), None);
        let names: Vec<_> = Level::all().map(Level::name).collect();
        assert_eq!(
            names,
            [
                "Beginner",
                "Casual",
                "Club",
                "Strong",
                "Expert",
                "Strongest"
            ]
        );
        assert_eq!(Level::MAX.to_string(), "6 (Strongest)");
    }
}
