//! The static evaluation: what a quiet position is worth to the side to
//! move, in hundredths of a stone.
//!
//! It is a weighted sum of [`FEATURES`] (so the weights can be fitted to
//! game results, see `tune/`), scaled down as the fifty-turn counter runs
//! out: a lead that cannot be turned into a capture before the counter
//! reaches 50 is worth nothing.

use fanorona::{Bitboard, Direction, Position, Square, FIFTY_TURNS};

/// The number of features.
pub const FEATURE_COUNT: usize = 43;

/// The point classes of the point tables: the board folded along both of
/// its axes of symmetry, so a point and its mirror images share a class
/// (rank distance from the edge 0 to 2, file distance 0 to 4).
const CLASSES: usize = 15;

/// The names of the features, in the order of [`Weights::0`] and
/// [`features`]. The last thirty are the point tables: own stones less
/// enemy stones on each class of points, by phase (`open_`: weighted by
/// the stones on the board, `late_`: by the stones gone).
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
    "mobility_late",
    "exposed_all",
    "exposed_most",
    "pairs",
    "open_r0f0",
    "open_r0f1",
    "open_r0f2",
    "open_r0f3",
    "open_r0f4",
    "open_r1f0",
    "open_r1f1",
    "open_r1f2",
    "open_r1f3",
    "open_r1f4",
    "open_r2f0",
    "open_r2f1",
    "open_r2f2",
    "open_r2f3",
    "open_r2f4",
    "late_r0f0",
    "late_r0f1",
    "late_r0f2",
    "late_r0f3",
    "late_r0f4",
    "late_r1f0",
    "late_r1f1",
    "late_r1f2",
    "late_r1f3",
    "late_r1f4",
    "late_r2f0",
    "late_r2f1",
    "late_r2f2",
    "late_r2f3",
    "late_r2f4",
];

/// The weight of each feature, in hundredths of a stone per unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURE_COUNT]);

impl Weights {
    /// The weights the engine plays with: fitted by Texel's method to the
    /// search's scores of 232,735 quiet positions from 5,000 self-play
    /// games at 30,000 nodes a turn (round 2 in `tune/README.md`), which
    /// beat round 1's nine weights (`[100, 9, 10, -8, 7, 30, -90, -12, 4]`,
    /// the rest 0) by +11.6 ± 9.3 Elo over 510 games at 100,000 nodes a
    /// turn (SPRT 0/+10, H1 accepted). `threats` stays as set: it counts
    /// only when the side to move can capture, and the fitted positions
    /// are quiet.
    #[rustfmt::skip]
    pub const DEFAULT: Weights = Weights([
        // material, material_late, mobility, strong_points, centre, threats,
        // exposed, close_in, tempo
        100, 10, 9, -8, 6, 30, -84, -11, 9,
        // mobility_late, exposed_all, exposed_most, pairs
        0, -1, -3, 2,
        // open_r0f0 ..= open_r2f4
        -7, -3, -4, -1, -6, -7, -6, -6, -5, 0, -4, -2, -2, -4, 1,
        // late_r0f0 ..= late_r2f4
        0, -1, 0, -1, 0, 0, 0, 2, 1, -1, 1, 1, 0, 0, 0,
    ]);

    /// Weights for material alone, a baseline for tuning and tests.
    pub const MATERIAL: Weights = {
        let mut w = [0; FEATURE_COUNT];
        w[0] = 100;
        Weights(w)
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The class of each point (see [`CLASSES`]): `rank class * 5 + file
/// class`.
const fn class_of() -> [u8; Square::COUNT] {
    let mut out = [0; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let file = i % 9;
        let rank = i / 9;
        let f = if file < 8 - file { file } else { 8 - file };
        let r = if rank < 4 - rank { rank } else { 4 - rank };
        out[i] = (r * 5 + f) as u8;
        i += 1;
    }
    out
}

const CLASS_OF: [u8; Square::COUNT] = class_of();

/// The points of each class.
const CLASS_MASKS: [Bitboard; CLASSES] = {
    let mut out = [Bitboard::EMPTY; CLASSES];
    let mut i = 0;
    while i < Square::COUNT {
        let c = CLASS_OF[i] as usize;
        out[c] = Bitboard(out[c].0 | 1 << i);
        i += 1;
    }
    out
};

/// How central a class of points is: its distance from the nearest edge,
/// counted along both axes (rank class plus file class).
const fn class_centrality(class: usize) -> i32 {
    (class / 5 + class % 5) as i32
}

/// Own stones less enemy stones on each class of points, and the same for
/// how central the stones are ([`class_centrality`] summed over them).
fn points(us: Bitboard, them: Bitboard) -> (i32, [i32; CLASSES]) {
    let mut classes = [0; CLASSES];
    let mut centre = 0;
    for (c, (d, &mask)) in classes.iter_mut().zip(&CLASS_MASKS).enumerate() {
        *d = (us & mask).count() as i32 - (them & mask).count() as i32;
        centre += *d * class_centrality(c);
    }
    (centre, classes)
}

/// The most enemy stones one capturing step of `us` could take, the
/// stones all of them together could (each line counted once per way of
/// taking it), and the first stone of every such line: [`targets`].
fn sweeps(us: Bitboard, them: Bitboard, empty: Bitboard) -> (i32, i32, Bitboard) {
    let mut acc = (0, 0, Bitboard::EMPTY);
    // One copy for each direction, so that each sees its shifts as
    // constants.
    sweeps_along::<0>(us, them, empty, &mut acc);
    sweeps_along::<1>(us, them, empty, &mut acc);
    sweeps_along::<2>(us, them, empty, &mut acc);
    sweeps_along::<3>(us, them, empty, &mut acc);
    sweeps_along::<4>(us, them, empty, &mut acc);
    sweeps_along::<5>(us, them, empty, &mut acc);
    sweeps_along::<6>(us, them, empty, &mut acc);
    sweeps_along::<7>(us, them, empty, &mut acc);
    acc
}

/// [`sweeps`] along the direction of index `D`, added into `(most, total,
/// first)`.
#[inline(always)]
fn sweeps_along<const D: usize>(
    us: Bitboard,
    them: Bitboard,
    empty: Bitboard,
    (most, total, first): &mut (i32, i32, Bitboard),
) {
    // Approach along d: the line starts after the landing point and runs
    // along d. Withdrawal along d: it starts behind the stone and runs the
    // other way.
    let d = Direction::from_index(D);
    let back = d.opposite();
    for (line, along) in [
        (them & (us.shift(d) & empty).shift(d), d),
        (them & (us & empty.shift(back)).shift(back), back),
    ] {
        *first |= line;
        let (k, stones) = sweep(line, along, them);
        *total += stones;
        *most = (*most).max(k);
    }
}

/// How far the lines that start at `line` run along `along` through
/// `them` (the longest, in stones), and their stones together.
#[inline(always)]
fn sweep(mut line: Bitboard, along: Direction, them: Bitboard) -> (i32, i32) {
    let (mut k, mut stones) = (0, 0);
    while line.any() {
        k += 1;
        stones += line.count() as i32;
        line = line.shift(along) & them;
    }
    (k, stones)
}

/// Pairs of own stones next to each other on a line, each pair once.
fn pairs(us: Bitboard) -> i32 {
    [
        Direction::North,
        Direction::East,
        Direction::NorthEast,
        Direction::NorthWest,
    ]
    .iter()
    .map(|&d| (us & us.shift(d)).count() as i32)
    .sum()
}

/// Paika steps the stones `us` could make.
fn mobility(us: Bitboard, empty: Bitboard) -> i32 {
    let mut n = 0;
    Direction::each(|d| n += (us.shift(d) & empty).count() as i32);
    n
}

/// Enemy stones `us` could capture (the first stone of each line) with one
/// step, by approach or by withdrawal.
pub(crate) fn targets(us: Bitboard, them: Bitboard, empty: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    Direction::each(|d| {
        // Approach: step along d onto an empty point, the enemy is next.
        out |= them & (us.shift(d) & empty).shift(d);
        // Withdrawal: step along d, the enemy is just behind.
        let back = d.opposite();
        out |= them & (us & empty.shift(back)).shift(back);
    });
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
    let mobility_diff = mobility(us, empty) - mobility(them, empty);
    let (most_them, sweep_them, exposed) = sweeps(them, us, empty);
    let (centre, classes) = points(us, them);
    let mut f = [0; FEATURE_COUNT];
    f[0] = diff;
    f[1] = diff * (44 - total) / 4;
    f[2] = mobility_diff;
    f[3] = (us & Bitboard::STRONG).count() as i32 - (them & Bitboard::STRONG).count() as i32;
    f[4] = centre;
    f[5] = targets(us, them, empty).count() as i32;
    f[6] = exposed.count() as i32;
    f[7] = close_in;
    f[8] = 1;
    f[9] = mobility_diff * (44 - total) / 11;
    f[10] = sweep_them;
    f[11] = most_them;
    f[12] = pairs(us) - pairs(them);
    for (c, &d) in classes.iter().enumerate() {
        f[13 + c] = d * total / 4;
        f[13 + CLASSES + c] = d * (44 - total) / 4;
    }
    f
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
    evaluate_with(pos, weights, false)
}

/// [`evaluate`], with the correction of the network (`src/net/`) added
/// before the fade when `network` is on.
pub(crate) fn evaluate_with(pos: &Position, weights: &Weights, network: bool) -> i32 {
    let f = features(pos);
    let mut raw: i32 = f.iter().zip(weights.0).map(|(x, w)| x * w).sum();
    if network {
        let board = pos.board();
        raw += crate::net::correction(board.by_color(pos.turn()), board.by_color(!pos.turn()));
    }
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
pub(crate) mod tests {
    use super::*;
    use fanorona::Setup;

    fn pos(text: &str) -> Position {
        Position::from_setup(text.parse::<Setup>().expect("text")).expect("legal")
    }

    /// The stones of the side to move, the other side's, and the empty
    /// points of `p`.
    fn sides(p: &Position) -> (Bitboard, Bitboard, Bitboard) {
        let b = p.board();
        (
            b.by_color(p.turn()),
            b.by_color(!p.turn()),
            b.empty_squares(),
        )
    }

    /// How central each point is, counted on its own: its distance from
    /// the nearest edge along both axes.
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

    #[test]
    fn the_start_is_even_but_for_the_tempo_and_threats() {
        let f = features(&Position::start());
        assert_eq!(f[0], 0);
        assert_eq!(f[2], 0, "both sides have the same paika steps");
        assert_eq!(f[8], 1, "the tempo");
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
            let (us, them, empty) = sides(&p);
            let got = targets(us, them, empty);
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
    fn sweeps_count_what_the_first_captures_take() {
        let texts = [
            "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0",
            "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. b 7",
            "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. w 7",
            "........./....B..../......B../....W..../......... w 0",
            "BBB....../.BB....../.W......./W.......B/......... w 3",
        ];
        for text in texts {
            let p = pos(text);
            let (us, them, empty) = sides(&p);
            let (most, total, first) = sweeps(us, them, empty);
            let taken: Vec<i32> = p
                .legal_steps()
                .into_iter()
                .filter(|s| s.is_capture())
                .map(|s| p.captures(s).count() as i32)
                .collect();
            assert_eq!(most, taken.iter().copied().max().unwrap_or(0), "{text}");
            assert_eq!(total, taken.iter().sum::<i32>(), "{text}");
            assert_eq!(first, targets(us, them, empty), "{text}");
        }
    }

    /// `text` with its board turned about: files reversed when `files`,
    /// ranks when `ranks`.
    pub(crate) fn mirrored(text: &str, files: bool, ranks: bool) -> String {
        let (board, rest) = text.split_once(' ').expect("a board and a turn");
        let mut rows: Vec<String> = board
            .split('/')
            .map(|r| {
                if files {
                    r.chars().rev().collect()
                } else {
                    r.to_string()
                }
            })
            .collect();
        if ranks {
            rows.reverse();
        }
        format!("{} {rest}", rows.join("/"))
    }

    #[test]
    fn the_features_see_the_board_s_mirror_images_alike() {
        let texts = [
            "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. b 7",
            "BBB....../.BB....../.W......./W.......B/......... w 3",
            "BB.BBBBBB/B.BBB.BBB/BWBW.BWBW/WWW.WWWWW/WWWWWW.WW b 1",
        ];
        for text in texts {
            let f = features(&pos(text));
            for (files, ranks) in [(true, false), (false, true), (true, true)] {
                let m = mirrored(text, files, ranks);
                assert_eq!(features(&pos(&m)), f, "{text} against {m}");
            }
            assert!(
                f[13..].iter().any(|&x| x != 0),
                "the point tables see {text}"
            );
        }
    }

    #[test]
    fn point_classes_fold_the_board() {
        let mut sizes = [0; CLASSES];
        for c in CLASS_OF {
            sizes[usize::from(c)] += 1;
        }
        // Corners, edge points and the centre: 4 of each class off the
        // middle file and rank, 2 on one of them, 1 at the centre.
        assert_eq!(sizes, [4, 4, 4, 4, 2, 4, 4, 4, 4, 2, 2, 2, 2, 2, 1]);
        let (centre, classes) = points(Bitboard::from_square(Square::E3), Bitboard::EMPTY);
        assert_eq!(centre, CENTRALITY[Square::E3.index()]);
        assert_eq!(classes[14], 1);
        assert_eq!(classes.iter().sum::<i32>(), 1);
    }

    #[test]
    fn pairs_count_neighbours_on_lines() {
        // c3, d3 and e3 in a row: two pairs; d4 above d3 one more, and
        // two on the diagonals from the strong points c3 and e3.
        let stones = Bitboard::from_square(Square::C3)
            .with(Square::D3)
            .with(Square::E3)
            .with(Square::D4);
        assert_eq!(pairs(stones), 2 + 1 + 2);
        // d3 is a weak point: no diagonal runs from it to c4 or e4.
        let weak = Bitboard::from_square(Square::D3)
            .with(Square::C4)
            .with(Square::E4);
        assert_eq!(pairs(weak), 0);
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
