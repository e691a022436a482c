//! The static evaluation: what a quiet position is worth to the side to
//! move, in hundredths of a stone.
//!
//! It is a weighted sum of [`FEATURES`] (so the weights can be fitted to
//! game results, see `tune/`), scaled down as the fifty-turn counter runs
//! out: a lead that cannot be turned into a capture before the counter
//! reaches 50 is worth nothing.

use fanorona::{Bitboard, Direction, Position, Square, FIFTY_TURNS};

/// The number of features.
pub const FEATURE_COUNT: usize = 9;

/// The names of the features, in the order of [`Weights::0`] and
/// [`features`].
pub const FEATURES: [&str; FEATURE_COUNT] = [
    "material",
    "material_late",
    "mobility",
    "strong_points",
    "centre",
    "threats",
    "exposed",
    "close_in",
    "tempo",
];

/// The weight of each feature, in hundredths of a stone per unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURE_COUNT]);

impl Weights {
    /// The weights the engine plays with: fitted to 49,901 positions of
    /// 1,000 self-play games (see `tune/README.md`), which beat the
    /// hand-set start `[100, 12, 3, 4, 2, 30, -25, -4, 10]` by 61.5% over
    /// 200 games at depth 3. `threats` stays as set: it counts only when
    /// the side to move can capture, and the fitted positions are quiet.
    pub const DEFAULT: Weights = Weights([100, 9, 10, -8, 7, 30, -90, -12, 4]);

    /// Weights for material alone, a baseline for tuning and tests.
    pub const MATERIAL: Weights = Weights([100, 0, 0, 0, 0, 0, 0, 0, 0]);
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// How central each point is: its distance from the nearest edge, counted
/// along both axes.
const fn centrality() -> [i32; Square::COUNT] {
    let mut out = [0; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let file = (i % 9) as i32;
        let rank = (i / 9) as i32;
        let f = if file < 8 - file { file } else { 8 - file };
        let r = if rank < 4 - rank { rank } else { 4 - rank };
        out[i] = f + r;
        i += 1;
    }
    out
}

const CENTRALITY: [i32; Square::COUNT] = centrality();

fn centre(stones: Bitboard) -> i32 {
    stones.into_iter().map(|s| CENTRALITY[s.index()]).sum()
}

/// Paika steps the stones `us` could make.
fn mobility(us: Bitboard, empty: Bitboard) -> i32 {
    Direction::ALL
        .iter()
        .map(|&d| (us.shift(d) & empty).count() as i32)
        .sum()
}

/// Enemy stones `us` could capture (the first stone of each line) with one
/// step, by approach or by withdrawal.
pub(crate) fn targets(us: Bitboard, them: Bitboard, empty: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for d in Direction::ALL {
        // Approach: step along d onto an empty point, the enemy is next.
        out |= them & (us.shift(d) & empty).shift(d);
        // Withdrawal: step along d, the enemy is just behind.
        let back = d.opposite();
        out |= them & (us & empty.shift(back)).shift(back);
    }
    out
}

/// The king distance between two points (steps for a stone on a strong
/// point; near enough on weak ones).
fn distance(a: Square, b: Square) -> i32 {
    let df = (i32::from(a.file()) - i32::from(b.file())).abs();
    let dr = (i32::from(a.rank()) - i32::from(b.rank())).abs();
    df.max(dr)
}

/// Sum over `them` of the distance to the nearest stone of `us`.
fn spread(us: Bitboard, them: Bitboard) -> i32 {
    them.into_iter()
        .map(|t| us.into_iter().map(|u| distance(t, u)).min().unwrap_or(0))
        .sum()
}

/// The stones at or below which `close_in` counts.
const CLOSE_IN_STONES: usize = 12;

/// The feature values of `pos`, for the side to move (own minus enemy
/// where a feature applies to both sides).
pub fn features(pos: &Position) -> [i32; FEATURE_COUNT] {
    let us = pos.board().by_color(pos.turn());
    let them = pos.board().by_color(!pos.turn());
    let empty = pos.board().empty_squares();
    let (n_us, n_them) = (us.count() as i32, them.count() as i32);
    let total = n_us + n_them;
    let diff = n_us - n_them;
    let close_in = if (total as usize) <= CLOSE_IN_STONES && diff != 0 {
        // The side ahead wants the enemy stones near its own; the side
        // behind wants them far. Counted per enemy stone of the side ahead.
        let (ahead, behind) = if diff > 0 { (us, them) } else { (them, us) };
        diff.signum() * spread(ahead, behind)
    } else {
        0
    };
    [
        diff,
        diff * (44 - total) / 4,
        mobility(us, empty) - mobility(them, empty),
        (us & Bitboard::STRONG).count() as i32 - (them & Bitboard::STRONG).count() as i32,
        centre(us) - centre(them),
        targets(us, them, empty).count() as i32,
        targets(them, us, empty).count() as i32,
        close_in,
        1,
    ]
}

/// The value of `pos` for the side to move, in hundredths of a stone.
///
/// # Examples
///
/// ```
/// use fanorona::{Position, Setup};
/// use fanorona_engine::{evaluate, Weights};
///
/// let ahead: Setup = "........./..W.W..../....B..../........./......... w".parse()?;
/// let ahead = Position::from_setup(ahead)?;
/// assert!(evaluate(&ahead, &Weights::DEFAULT) > 0);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let f = features(pos);
    let raw: i32 = f.iter().zip(weights.0).map(|(x, w)| x * w).sum();
    scale_for_counter(raw, pos.turns_since_capture())
}

/// The turns since a capture after which a lead starts to fade, down to
/// nothing at [`FIFTY_TURNS`](fanorona::FIFTY_TURNS).
pub const FADE_FROM: u32 = 30;

/// Scales `score` down linearly from [`FADE_FROM`] turns without a capture
/// to nothing at 50.
pub(crate) fn scale_for_counter(score: i32, quiet: u32) -> i32 {
    if quiet <= FADE_FROM {
        return score;
    }
    let left = FIFTY_TURNS.saturating_sub(quiet) as i32;
    score * left / (FIFTY_TURNS - FADE_FROM) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona::Setup;

    fn pos(text: &str) -> Position {
        Position::from_setup(text.parse::<Setup>().expect("text")).expect("legal")
    }

    #[test]
    fn the_start_is_even_but_for_the_tempo_and_threats() {
        let f = features(&Position::start());
        assert_eq!(f[0], 0);
        assert_eq!(f[2], 0, "both sides have the same paika steps");
        assert_eq!(f[FEATURE_COUNT - 1], 1);
    }

    #[test]
    fn targets_agree_with_the_rules() {
        let texts = [
            "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0",
            "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. b 7",
            "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. w 7",
            "........./....B..../......B../....W..../......... w 0",
        ];
        for text in texts {
            let p = pos(text);
            let b = p.board();
            let us = b.by_color(p.turn());
            let them = b.by_color(!p.turn());
            let got = targets(us, them, b.empty_squares());
            assert_eq!(got.any(), p.has_capture(), "{text}");
            // Every first stone a legal capture takes is a target.
            let mut want = Bitboard::EMPTY;
            for step in p.legal_steps() {
                let taken = p.captures(step);
                if let Some(first) = taken
                    .into_iter()
                    .min_by_key(|s| distance(*s, step.to()).min(distance(*s, step.from())))
                {
                    want = want.with(first);
                }
            }
            assert_eq!(got & want, want, "{text}");
        }
    }

    #[test]
    fn a_lead_fades_as_the_counter_runs_out() {
        let fresh = pos("........./..W.W..../....B..../........./......... w 0");
        let late = pos("........./..W.W..../....B..../........./......... w 45");
        let gone = pos("........./..W.W..../....B..../........./......... w 49");
        let w = Weights::DEFAULT;
        assert!(evaluate(&fresh, &w) > evaluate(&late, &w));
        assert!(evaluate(&late, &w) > evaluate(&gone, &w));
    }
}
