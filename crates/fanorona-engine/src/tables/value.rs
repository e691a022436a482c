//! One table entry in one byte: the game value for the side to move with
//! the counter of turns since a capture left out, and its distance.
//!
//! The distance `z` counts turns up to and including the next capture, or
//! to the end of the game when it comes first. From a position with counter
//! `c` a stored win (loss) is a real win (loss) when `z <= 50 - c`, and a
//! draw otherwise. A distance above 50 is therefore a draw at every
//! counter, and the tables store it as a draw: `z` fits in 6 bits.

use fanorona::FIFTY_TURNS;

const WIN: u8 = 0x40;
const LOSS: u8 = 0x80;
const DISTANCE: u8 = 0x3f;

/// A packed entry: `0` draw, `0x40 | z` win, `0x80 | z` loss, `1 <= z <= 50`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Value(u8);

impl Value {
    /// The draw, and the entry of every position not (yet) decided.
    pub(crate) const DRAW: Value = Value(0);

    /// The longest distance kept; longer ones are draws.
    pub(crate) const MAX_DISTANCE: u32 = FIFTY_TURNS;

    /// A win in `z` turns.
    #[inline]
    pub(crate) fn win(z: u32) -> Value {
        debug_assert!((1..=Self::MAX_DISTANCE).contains(&z));
        Value(WIN | z as u8)
    }

    /// A loss in `z` turns.
    #[inline]
    pub(crate) fn loss(z: u32) -> Value {
        debug_assert!((1..=Self::MAX_DISTANCE).contains(&z));
        Value(LOSS | z as u8)
    }

    /// The entry stored as `byte`, or `None` when no entry is stored so.
    pub(crate) fn from_byte(byte: u8) -> Option<Value> {
        let z = u32::from(byte & DISTANCE);
        let valid = match byte & !DISTANCE {
            0 => z == 0,
            WIN | LOSS => (1..=Self::MAX_DISTANCE).contains(&z),
            _ => false,
        };
        valid.then_some(Value(byte))
    }

    /// The byte this entry is stored as.
    #[inline]
    pub(crate) fn byte(self) -> u8 {
        self.0
    }

    /// Whether the side to move wins (at a small enough counter).
    #[inline]
    pub(crate) fn is_win(self) -> bool {
        self.0 & WIN != 0
    }

    /// Whether the side to move loses (at a small enough counter).
    #[inline]
    pub(crate) fn is_loss(self) -> bool {
        self.0 & LOSS != 0
    }

    /// The distance in turns; 0 for a draw.
    #[inline]
    pub(crate) fn distance(self) -> u32 {
        u32::from(self.0 & DISTANCE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_read_back_only_when_it_is_a_valid_entry() {
        let valid = (0..=255u8).filter_map(Value::from_byte).count();
        assert_eq!(valid, 1 + 2 * 50);
        assert_eq!(Value::from_byte(0x40), None);
        assert_eq!(Value::from_byte(0x80 | 51), None);
        assert_eq!(Value::from_byte(0xc1), None);
        let w = Value::win(50);
        assert!(w.is_win() && !w.is_loss() && w.distance() == 50);
        assert_eq!(Value::from_byte(w.byte()), Some(w));
        let l = Value::loss(1);
        assert!(l.is_loss() && !l.is_win() && l.distance() == 1);
    }
}
