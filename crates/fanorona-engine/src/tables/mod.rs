//! Endgame tables: every position with few stones, solved exactly.
//!
//! [`Tables::build`] solves every position with up to 4 stones on the board
//! (both sides together, each with at least one), with either side to move
//! and no capture chain in progress, by retrograde analysis: first 2
//! stones, then 3, then 4, each table taking the values of captures from
//! the smaller ones. [`Tables::probe`] then gives win, draw or loss for the
//! side to move and the number of turns, the fifty-turn rule applied to the
//! position's counter.
//!
//! # Cost
//!
//! One byte per position, the side to move's view (a position and its
//! colour swap share the byte). Measured with `cargo run --release -p
//! fanorona-engine --example build_tables` on a 2-core machine shared with
//! other work, so CPU time is the steady figure and wall time varied with
//! the load:
//!
//! | up to    | positions  | bytes      | build, CPU | build, wall  |
//! |----------|------------|------------|------------|--------------|
//! | 3 stones | 87,120     | 87,120     | 0.05 s     | 0.05-0.17 s  |
//! | 4 stones | 2,173,050  | 2,173,050  | 1.4 s      | 1.2-6 s      |
//! | 5 stones | 38,825,820 | 38,825,820 | 34 s       | 69-74 s      |
//!
//! 5 stones was estimated from the 4-stone figures as 17.6 times the
//! positions (36.7 million more), so 37 MB more and about 25-30 s; it took
//! 33-34 s of CPU, 24 times 4 stones: 60% of its positions must capture
//! (45% with 4 stones), each capture played out through the rules crate,
//! and the pass back along paikas, which jumps about 37 MB instead of 2 MB,
//! took 35 times as long as with 4 stones. Building it peaks at 168 MB
//! resident (the entries, a byte of open children per position while
//! solving, and the example's copy of the written file). That is too slow
//! for a command that starts often, like the engine a match starts for
//! each game: [`Tables::DEFAULT_MAX_STONES`] is 4, and 5 are written once
//! with [`Tables::write_to`] and loaded with [`Tables::read_from`]. A
//! server, which runs for days, builds 5 in the background, growing them
//! from its 4 with [`Tables::extended`]: level 6 plays better with them.
//!
//! The [`Tables`] docs have an example.

mod format;
mod index;
mod probe;
mod solve;
mod table;
mod value;

use std::fmt;

use fanorona::Position;

pub use probe::{Probe, TableResult};

use index::MAX_TABLE_STONES;
use table::Table;

/// Solved endgame tables for every position with up to
/// [`Tables::max_stones`] stones on the board.
///
/// One byte per position: 2.2 MB for 4 stones, built in about 1.4 s of
/// CPU; 39 MB and 34 s for 5.
///
/// # Examples
///
/// ```
/// use fanorona::{Position, Setup};
/// use fanorona_engine::{Probe, TableResult, Tables};
///
/// let tables = Tables::build(3);
/// // White's e2 takes e4 by approach: the last black stone.
/// let text = "........./....B..../........./....W..../......... w 12";
/// let pos = Position::from_setup(text.parse::<Setup>()?)?;
/// let probe = tables.probe(&pos);
/// assert_eq!(probe, Some(Probe { result: TableResult::Win, turns: 1 }));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Tables {
    /// `tables[n - 2]` holds every position with `n` stones.
    tables: Vec<Table>,
}

impl Tables {
    /// The most stones worth building at every start: 4 stones take about
    /// 1.4 s, 5 stones 34 s.
    pub const DEFAULT_MAX_STONES: usize = 4;

    /// Solves every position with up to `max_stones` stones, clamped to
    /// `2..=5`. 4 takes about 1.4 s of CPU and 2.2 MB; 5 takes 34 s and
    /// 39 MB.
    ///
    /// # Examples
    ///
    /// ```
    /// let tables = fanorona_engine::Tables::build(1);
    /// assert_eq!(tables.max_stones(), 2);
    /// ```
    pub fn build(max_stones: usize) -> Tables {
        Tables { tables: Vec::new() }.extended(max_stones)
    }

    /// These tables with the positions of more stones solved too, up to
    /// `max_stones` (clamped to `2..=5`), without solving again those
    /// already held: what [`Tables::build`] of `max_stones` gives, at the
    /// cost of the new sizes alone. Tables of more stones than asked for
    /// are cut down to `max_stones`.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_engine::Tables;
    ///
    /// let small = Tables::build(2);
    /// assert!(small.extended(3) == Tables::build(3));
    /// ```
    #[must_use]
    pub fn extended(&self, max_stones: usize) -> Tables {
        let max = max_stones.clamp(2, MAX_TABLE_STONES);
        let mut tables = Vec::with_capacity(max - 1);
        tables.extend(self.tables.iter().take(max - 1).cloned());
        for stones in tables.len() + 2..=max {
            let table = solve::solve(stones, &tables);
            tables.push(table);
        }
        Tables { tables }
    }

    /// The most stones on the board a position may have to be in the tables.
    pub fn max_stones(&self) -> usize {
        self.tables.len() + 1
    }

    /// The number of bytes the entries take.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.values().len()).sum()
    }

    /// The value of `pos` for the side to move, with its counter of turns
    /// since a capture applied.
    ///
    /// `None` when the position has more stones than the tables hold, a
    /// capture chain is in progress, or the game is over.
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        if pos.chain().is_some() {
            return None;
        }
        let us = pos.board().by_color(pos.turn());
        let them = pos.board().by_color(!pos.turn());
        let table = self
            .tables
            .get((us.count() + them.count()).checked_sub(2)?)?;
        if pos.is_game_over() {
            return None;
        }
        let value = table.get(us, them);
        Some(Probe::at_counter(value, pos.turns_since_capture()))
    }
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tables")
            .field("max_stones", &self.max_stones())
            .field("bytes", &self.bytes())
            .finish()
    }
}
