//! A small network that corrects the weighted evaluation: the stones of
//! each side on each point in, one hidden layer of clipped linear units,
//! hundredths of a stone out. Integers only, so every machine computes
//! the same value. The weights are fitted by
//! `tune net` (`tune/README.md`) to the search's scores of self-play
//! positions, less what the weighted evaluation already says.

use fanorona::{Bitboard, Square};

mod weights;

/// The inputs: a stone of the side to move on each point, then a stone
/// of the other side on each point.
pub const INPUTS: usize = 2 * Square::COUNT;

/// The hidden units.
pub const HIDDEN: usize = 32;

/// A hidden unit's activation at its ceiling: the clip is at
/// `ACTIVATION_ONE`, and the first layer's weights are in these units.
pub const ACTIVATION_ONE: i32 = 256;

/// The divisor of the output layer's sum: its weights are in
/// `1 / OUTPUT_SCALE` hundredths of a stone per `ACTIVATION_ONE`.
pub const OUTPUT_SCALE: i32 = 4 * ACTIVATION_ONE;

/// A network's weights in the engine's integers: the ones committed in
/// `weights.rs`, or those `tune net` is fitting.
#[derive(Copy, Clone, Debug)]
pub struct Layers<'a> {
    /// The first layer's weights, a row of [`HIDDEN`] for each input.
    pub hidden_weights: &'a [[i16; HIDDEN]],
    /// The first layer's biases.
    pub hidden_bias: &'a [i16; HIDDEN],
    /// The output layer's weights.
    pub output_weights: &'a [i16; HIDDEN],
    /// The output layer's bias, in `1 / OUTPUT_SCALE` hundredths of a
    /// stone.
    pub output_bias: i32,
}

impl Layers<'_> {
    /// The output, in hundredths of a stone, for the inputs that are on
    /// (indices below [`INPUTS`]).
    ///
    /// # Panics
    ///
    /// If an input is past the rows of `hidden_weights`.
    pub fn output(&self, on: impl IntoIterator<Item = usize>) -> i32 {
        let mut acc = self.hidden_bias.map(i32::from);
        for i in on {
            for (a, &w) in acc.iter_mut().zip(&self.hidden_weights[i]) {
                *a += i32::from(w);
            }
        }
        let sum: i32 = acc
            .iter()
            .zip(self.output_weights)
            .map(|(&a, &w)| a.clamp(0, ACTIVATION_ONE) * i32::from(w))
            .sum();
        (sum + self.output_bias) / OUTPUT_SCALE
    }
}

/// The network the engine plays with.
const COMMITTED: Layers<'static> = Layers {
    hidden_weights: &weights::HIDDEN_WEIGHTS,
    hidden_bias: &weights::HIDDEN_BIAS,
    output_weights: &weights::OUTPUT_WEIGHTS,
    output_bias: weights::OUTPUT_BIAS,
};

/// The correction for the side to move with stones `us` against `them`,
/// in hundredths of a stone.
pub(crate) fn correction(us: Bitboard, them: Bitboard) -> i32 {
    let ours = us.into_iter().map(|sq| sq.index());
    let theirs = them.into_iter().map(|sq| Square::COUNT + sq.index());
    COMMITTED.output(ours.chain(theirs))
}

#[cfg(test)]
mod tests {
    use fanorona::{Position, Setup};

    use super::*;

    /// Every 50th position of `tune/positions.txt` (quiet positions of
    /// level-4 games).
    fn positions() -> Vec<Position> {
        include_str!("../../tune/positions.txt")
            .lines()
            .step_by(50)
            .map(|line| {
                let text = line.split(';').next().unwrap_or(line);
                Position::from_setup(text.parse::<Setup>().expect("setup")).expect("position")
            })
            .collect()
    }

    /// `pos` mirrored left to right (`files`) and top to bottom (`ranks`).
    fn mirrored(pos: &Position, files: bool, ranks: bool) -> Position {
        let text = crate::eval::tests::mirrored(&pos.to_string(), files, ranks);
        let setup: Setup = text.parse().expect("setup");
        Position::from_setup(setup).expect("position")
    }

    fn of(pos: &Position) -> i32 {
        let b = pos.board();
        correction(b.by_color(pos.turn()), b.by_color(!pos.turn()))
    }

    #[test]
    fn the_correction_is_at_most_a_few_stones() {
        let all = positions();
        assert!(all.len() > 200);
        let worst = all.iter().map(|p| of(p).abs()).max().unwrap_or(0);
        assert!(
            worst <= 400,
            "a correction of {worst} hundredths of a stone"
        );
    }

    /// The network was fitted to each position in its four symmetries,
    /// which the rules do not tell apart, so it changes less from a
    /// position to its mirror images than when its inputs are fed in
    /// another order than it was fitted with (the sides swapped).
    #[test]
    fn the_board_s_symmetries_change_the_correction_less_than_the_sides_swapped() {
        let all = positions();
        let mut mirrored_total = 0;
        let mut swapped_total = 0;
        for p in &all {
            let c = of(p);
            for (files, ranks) in [(true, false), (false, true), (true, true)] {
                mirrored_total += (of(&mirrored(p, files, ranks)) - c).abs();
            }
            let b = p.board();
            swapped_total +=
                3 * (correction(b.by_color(!p.turn()), b.by_color(p.turn())) - c).abs();
        }
        assert!(
            2 * mirrored_total < swapped_total,
            "{mirrored_total} mirrored against {swapped_total} swapped, over {} positions",
            all.len()
        );
    }

    /// The network adds knowledge to the weighted evaluation: in
    /// positions where it says something, it is not the same everywhere.
    #[test]
    fn the_correction_depends_on_the_stones() {
        let all = positions();
        let first = of(&all[0]);
        assert!(all.iter().any(|p| of(p) != first));
    }
}
