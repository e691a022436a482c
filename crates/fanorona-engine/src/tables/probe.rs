//! What a table says about one position at its counter.

use fanorona::FIFTY_TURNS;

use super::value::Value;

/// The result of a position for the side to move, with perfect play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableResult {
    /// The side to move wins.
    Win,
    /// Neither side can force a win before the fifty-turn rule.
    Draw,
    /// The side to move loses.
    Loss,
}

/// A table's answer for a position, the fifty-turn rule already applied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Win, draw or loss for the side to move.
    pub result: TableResult,
    /// For a win or a loss: the number of turns, counting both players',
    /// until the next capture is complete or the game ends, the winner
    /// hurrying and the loser delaying. A win in `turns` from a position
    /// whose counter is `c` needs `turns <= 50 - c`. 0 for a draw.
    pub turns: u32,
}

impl Probe {
    /// Reads `value` at `counter` turns since the last capture.
    pub(crate) fn at_counter(value: Value, counter: u32) -> Probe {
        let z = value.distance();
        let in_time = z + counter <= FIFTY_TURNS;
        let result = if value.is_win() && in_time {
            TableResult::Win
        } else if value.is_loss() && in_time {
            TableResult::Loss
        } else {
            return Probe {
                result: TableResult::Draw,
                turns: 0,
            };
        };
        Probe { result, turns: z }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_turns_into_a_draw_when_the_counter_leaves_too_few_turns() {
        let win = Value::win(7);
        assert_eq!(Probe::at_counter(win, 43).result, TableResult::Win);
        assert_eq!(Probe::at_counter(win, 43).turns, 7);
        assert_eq!(Probe::at_counter(win, 44).result, TableResult::Draw);
        assert_eq!(Probe::at_counter(win, 44).turns, 0);
        let loss = Value::loss(1);
        assert_eq!(Probe::at_counter(loss, 49).result, TableResult::Loss);
        assert_eq!(Probe::at_counter(loss, 50).result, TableResult::Draw);
        assert_eq!(Probe::at_counter(Value::DRAW, 0).result, TableResult::Draw);
    }
}
