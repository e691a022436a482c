//! Time controls and the two clocks of a timed game, as pure values: the
//! clocks change only when an action is applied at a time the caller
//! gives, so a game replayed from its stored actions and their times has
//! exactly the clocks it had.
//!
//! Neither clock runs during the first turn of each player (as on most
//! game sites: nobody loses on time before both have moved once). From
//! the end of the second turn, the clock of the player to move runs. In
//! real time, a player's time goes down while they are to move, and the
//! increment is added when their turn ends; by correspondence, each turn
//! has the same time, and a clock starts full at every turn.

use std::{fmt, str::FromStr};

use fanorona::{ByColor, Color};

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// How long the players have.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Each player has `minutes` for the game, and `increment` seconds
    /// added at the end of each of their turns (like 5+3).
    RealTime {
        /// Minutes for the game, 1 to [`TimeControl::MAX_MINUTES`].
        minutes: u32,
        /// Seconds added per turn, 0 to [`TimeControl::MAX_INCREMENT`].
        increment: u32,
    },
    /// Each turn must be played within `days` days, 1 to
    /// [`TimeControl::MAX_DAYS`].
    Correspondence {
        /// Days per turn.
        days: u32,
    },
}

/// A time control outside the limits, or text that names none.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a time control is 1 to 180 minutes with an increment of 0 to 180 seconds, or 1 to 14 days a turn"
)]
pub struct BadTimeControl;

impl TimeControl {
    /// The most minutes a real-time game may have.
    pub const MAX_MINUTES: u32 = 180;
    /// The longest increment, in seconds.
    pub const MAX_INCREMENT: u32 = 180;
    /// The most days a correspondence turn may have.
    pub const MAX_DAYS: u32 = 14;

    /// A real-time control, when within the limits.
    ///
    /// # Errors
    ///
    /// [`BadTimeControl`] outside them.
    pub fn real_time(minutes: u32, increment: u32) -> Result<TimeControl, BadTimeControl> {
        if (1..=Self::MAX_MINUTES).contains(&minutes) && increment <= Self::MAX_INCREMENT {
            Ok(TimeControl::RealTime { minutes, increment })
        } else {
            Err(BadTimeControl)
        }
    }

    /// A correspondence control, when within the limits.
    ///
    /// # Errors
    ///
    /// [`BadTimeControl`] outside them.
    pub fn correspondence(days: u32) -> Result<TimeControl, BadTimeControl> {
        if (1..=Self::MAX_DAYS).contains(&days) {
            Ok(TimeControl::Correspondence { days })
        } else {
            Err(BadTimeControl)
        }
    }

    /// What each clock holds at the start, in milliseconds.
    pub(crate) fn initial_ms(self) -> i64 {
        match self {
            TimeControl::RealTime { minutes, .. } => i64::from(minutes) * 60_000,
            TimeControl::Correspondence { days } => i64::from(days) * DAY_MS,
        }
    }
}

/// The text stored and written in records, as PGN's `TimeControl` tag
/// writes it: `300+3` (seconds, then seconds added per turn) in real
/// time, `1/259200` (one turn per 259,200 seconds) by correspondence.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::RealTime { minutes, increment } => {
                write!(f, "{}+{increment}", minutes * 60)
            }
            TimeControl::Correspondence { days } => write!(f, "1/{}", days * 86_400),
        }
    }
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    fn from_str(text: &str) -> Result<TimeControl, BadTimeControl> {
        let number = |t: &str| {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(BadTimeControl);
            }
            t.parse::<u32>().map_err(|_| BadTimeControl)
        };
        if let Some((seconds, increment)) = text.split_once('+') {
            let seconds = number(seconds)?;
            if seconds % 60 != 0 {
                return Err(BadTimeControl);
            }
            return TimeControl::real_time(seconds / 60, number(increment)?);
        }
        let seconds = text.strip_prefix("1/").ok_or(BadTimeControl)?;
        let seconds = number(seconds)?;
        if seconds % 86_400 != 0 {
            return Err(BadTimeControl);
        }
        TimeControl::correspondence(seconds / 86_400)
    }
}

/// The two clocks of a timed game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The time control.
    pub control: TimeControl,
    /// Each player's time left, in milliseconds, as of `since` for the
    /// player to move and as it stands for the other.
    left: ByColor<i64>,
    /// When the running clock started (milliseconds since the Unix
    /// epoch): the end of the previous turn. `None` while no clock runs
    /// (before each player has played a turn, and once the game is over).
    since: Option<i64>,
}

impl Clocks {
    /// Both clocks full, neither running.
    pub(crate) fn new(control: TimeControl) -> Clocks {
        let full = control.initial_ms();
        Clocks {
            control,
            left: ByColor::new_with(|_| full),
            since: None,
        }
    }

    /// When the clock of `mover`, to move, reaches zero; `None` while no
    /// clock runs.
    pub fn deadline(&self, mover: Color) -> Option<i64> {
        self.since
            .map(|since| since.saturating_add(*self.left.get(mover)))
    }

    /// Whether a clock runs.
    pub fn running(&self) -> bool {
        self.since.is_some()
    }

    /// Each player's time left at `now`, with `mover` to move: the running
    /// clock counted down, never below zero.
    pub fn left_at(&self, mover: Color, now: i64) -> ByColor<i64> {
        let mut left = self.left;
        if let Some(since) = self.since {
            let elapsed = now.saturating_sub(since).max(0);
            let running = left.get_mut(mover);
            *running = running.saturating_sub(elapsed).max(0);
        }
        left
    }

    /// `mover` ended a turn at `at`, after which `turns` turns have been
    /// played: their clock stops (with the increment added, or full again
    /// by correspondence), and from the second turn on the opponent's
    /// starts.
    pub(crate) fn turn_ended(&mut self, mover: Color, at: i64, turns: usize) {
        if self.since.is_some() {
            let left = *self.left_at(mover, at).get(mover);
            *self.left.get_mut(mover) = match self.control {
                TimeControl::RealTime { increment, .. } => {
                    left.saturating_add(i64::from(increment) * 1000)
                }
                TimeControl::Correspondence { .. } => self.control.initial_ms(),
            };
        }
        self.since = (turns >= 2).then_some(at);
    }

    /// The game ended at `at` with `mover` to move: the clocks stop as
    /// they are then.
    pub(crate) fn stop(&mut self, mover: Color, at: i64) {
        self.left = self.left_at(mover, at);
        self.since = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_control_round_trips_through_its_text_and_refuses_what_is_outside_the_limits() {
        for control in [
            TimeControl::real_time(5, 3),
            TimeControl::real_time(1, 0),
            TimeControl::real_time(180, 180),
            TimeControl::correspondence(1),
            TimeControl::correspondence(14),
        ] {
            let control = control.expect("within the limits");
            assert_eq!(control.to_string().parse::<TimeControl>(), Ok(control));
        }
        assert_eq!(
            TimeControl::real_time(5, 3).map(|c| c.to_string()),
            Ok("300+3".into())
        );
        assert_eq!(
            TimeControl::correspondence(3).map(|c| c.to_string()),
            Ok("1/259200".into())
        );
        for bad in [
            "",
            "+",
            "300",
            "30+3",
            "0+0",
            "10860+0",
            "300+181",
            "300+-1",
            "-300+3",
            "1/0",
            "1/100",
            "1/1296000",
            "2/86400",
            "300+3 ",
            "1/86400/1",
        ] {
            assert_eq!(bad.parse::<TimeControl>(), Err(BadTimeControl), "{bad:?}");
        }
        assert!(TimeControl::real_time(0, 0).is_err());
        assert!(TimeControl::correspondence(15).is_err());
    }

    #[test]
    fn real_time_counts_down_the_mover_only_from_the_second_turn_and_adds_the_increment() {
        let mut clocks = Clocks::new(TimeControl::RealTime {
            minutes: 1,
            increment: 2,
        });
        assert_eq!(clocks.deadline(Color::White), None);
        // The first two turns are free.
        clocks.turn_ended(Color::White, 50_000, 1);
        assert_eq!(clocks.deadline(Color::Black), None);
        clocks.turn_ended(Color::Black, 90_000, 2);
        assert_eq!(clocks.deadline(Color::White), Some(150_000));
        let left = clocks.left_at(Color::White, 100_000);
        assert_eq!((left.white, left.black), (50_000, 60_000));
        // White took 10 s and gets 2 back.
        clocks.turn_ended(Color::White, 100_000, 3);
        assert_eq!(clocks.deadline(Color::Black), Some(160_000));
        let left = clocks.left_at(Color::Black, 100_000);
        assert_eq!((left.white, left.black), (52_000, 60_000));
        // Past the deadline the clock shows zero, never less.
        assert_eq!(clocks.left_at(Color::Black, 500_000).black, 0);
        clocks.stop(Color::Black, 130_000);
        assert!(!clocks.running());
        let left = clocks.left_at(Color::Black, 999_999);
        assert_eq!((left.white, left.black), (52_000, 30_000));
    }

    #[test]
    fn a_correspondence_clock_is_full_again_at_every_turn() {
        let mut clocks = Clocks::new(TimeControl::Correspondence { days: 1 });
        clocks.turn_ended(Color::White, 0, 1);
        clocks.turn_ended(Color::Black, 5 * DAY_MS, 2);
        assert_eq!(clocks.deadline(Color::White), Some(6 * DAY_MS));
        clocks.turn_ended(Color::White, 6 * DAY_MS - 1, 3);
        assert_eq!(clocks.deadline(Color::Black), Some(7 * DAY_MS - 1));
        assert_eq!(clocks.left_at(Color::Black, 6 * DAY_MS).white, DAY_MS);
    }
}
