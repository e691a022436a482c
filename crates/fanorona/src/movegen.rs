//! Legal step generation over raw bitboards.
//!
//! Notation used below: `us` are the stones of the side to move, `them` the
//! enemy stones, `empty` the empty points. `pre(B, d)` is the set of points
//! from which one step along `d` lands in `B`; it is `B` shifted the
//! opposite way, because every line can be walked both ways.

use crate::{bitboard::RAYS, Bitboard, Direction, Square, Step, StepKind, StepList};

/// Points from which one step along `d` lands in `b`.
#[inline(always)]
fn pre(b: Bitboard, d: Direction) -> Bitboard {
    b.shift(d.opposite())
}

/// Stones that capture by approach stepping along `d`: the landing point is
/// empty and the next point along `d` holds an enemy.
#[inline(always)]
pub(crate) fn approach_movers(
    us: Bitboard,
    them: Bitboard,
    empty: Bitboard,
    d: Direction,
) -> Bitboard {
    us & pre(empty & pre(them, d), d)
}

/// Stones that capture by withdrawal stepping along `d`: the landing point
/// is empty and the point behind the stone holds an enemy.
#[inline(always)]
pub(crate) fn withdrawal_movers(
    us: Bitboard,
    them: Bitboard,
    empty: Bitboard,
    d: Direction,
) -> Bitboard {
    us & pre(empty, d) & them.shift(d)
}

/// Stones that can make a paika step along `d`.
#[inline(always)]
pub(crate) fn paika_movers(us: Bitboard, empty: Bitboard, d: Direction) -> Bitboard {
    us & pre(empty, d)
}

/// Files `a`, `b`, `h` and `i` as masks, for shifts that must not wrap
/// from one rank to the next.
const FILE_A: u64 = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36;
const NOT_FILE_A: u64 = Bitboard::FULL.0 & !FILE_A;
const NOT_FILE_I: u64 = Bitboard::FULL.0 & !(FILE_A << 8);
const NOT_FILE_AB: u64 = NOT_FILE_A & !(FILE_A << 1);
const NOT_FILE_HI: u64 = NOT_FILE_I & !(FILE_A << 7);

/// Moves every bit by `n` squares of index (negative: down), first
/// dropping the bits that would wrap around a rank. Bits pushed past rank 5
/// stay in the high bits of the word; callers clear them by intersecting
/// with a set on the board before shifting again.
#[inline(always)]
const fn raw_shift(b: u64, n: i32, keep: u64) -> u64 {
    if n > 0 {
        (b & keep) << n
    } else {
        (b & keep) >> -n
    }
}

/// Whether `us` has any capture at the start of a turn.
///
/// For each direction `d`, a stone at `q` captures when `q + d` is empty and
/// either `q + 2d` (approach) or `q - d` (withdrawal) holds an enemy. All
/// points of a diagonal pattern share the parity of `q`, so diagonal
/// patterns are computed on the whole board and kept only on strong points.
#[inline]
pub(crate) fn has_capture(us: Bitboard, them: Bitboard) -> bool {
    let (us, them) = (us.0, them.0);
    let empty = Bitboard::FULL.0 & !(us | them);
    // (offset, mask for moving one step back against d, mask for two steps back,
    //  mask for one step along d)
    let orth = capture_pattern(empty, them, 9, u64::MAX, u64::MAX, u64::MAX)
        | capture_pattern(empty, them, -9, u64::MAX, u64::MAX, u64::MAX)
        | capture_pattern(empty, them, 1, NOT_FILE_A, NOT_FILE_AB, NOT_FILE_I)
        | capture_pattern(empty, them, -1, NOT_FILE_I, NOT_FILE_HI, NOT_FILE_A);
    let diag = capture_pattern(empty, them, 10, NOT_FILE_A, NOT_FILE_AB, NOT_FILE_I)
        | capture_pattern(empty, them, -8, NOT_FILE_A, NOT_FILE_AB, NOT_FILE_I)
        | capture_pattern(empty, them, 8, NOT_FILE_I, NOT_FILE_HI, NOT_FILE_A)
        | capture_pattern(empty, them, -10, NOT_FILE_I, NOT_FILE_HI, NOT_FILE_A);
    us & (orth | (diag & Bitboard::STRONG.0)) != 0
}

/// The points from which a step of index offset `off` lands on an empty
/// point and captures by approach or withdrawal (ignoring strong points).
#[inline(always)]
const fn capture_pattern(
    empty: u64,
    them: u64,
    off: i32,
    back1: u64,
    back2: u64,
    fwd1: u64,
) -> u64 {
    let landing_from = raw_shift(empty, -off, back1) & Bitboard::FULL.0;
    let approach = raw_shift(them, -2 * off, back2);
    let withdrawal = raw_shift(them, off, fwd1);
    landing_from & (approach | withdrawal)
}

/// The number of paika steps available to `us`.
#[inline]
pub(crate) fn count_paika(us: Bitboard, them: Bitboard) -> u64 {
    let empty = !(us | them);
    Direction::ALL
        .iter()
        .map(|&d| paika_movers(us, empty, d).count() as u64)
        .sum()
}

/// The unbroken run of enemy stones beyond `from` along `d`: none when the
/// next point is empty, own or off the board.
#[inline]
pub(crate) fn enemy_run(from: Square, d: Direction, them: Bitboard) -> Bitboard {
    let ray = RAYS[from.index()][d.index()];
    let blockers = ray & !them.0;
    Bitboard(if blockers == 0 {
        ray
    } else if d.offset() > 0 {
        ray & ((blockers & blockers.wrapping_neg()) - 1)
    } else {
        let top = 63 - blockers.leading_zeros();
        ray & (u64::MAX << (top + 1))
    })
}

/// The enemy stones a capture step takes, or none if the step does not
/// capture in the way its kind says.
#[inline]
pub(crate) fn captured_by(step: Step, them: Bitboard) -> Bitboard {
    let d = step.direction();
    match step.kind() {
        StepKind::Paika => Bitboard::EMPTY,
        // The line starts just past the landing point and runs on.
        StepKind::Approach => enemy_run(step.to(), d, them),
        // The line starts just behind the stone and runs away from it.
        StepKind::Withdrawal => enemy_run(step.from(), d.opposite(), them),
    }
}

/// Pushes every step of `movers` along `d` with `kind`.
#[inline(always)]
fn push_all(out: &mut StepList, movers: Bitboard, d: Direction, kind: StepKind) {
    for from in movers {
        // A list of MAX_STEPS always has room: see its documentation.
        let _ = out.try_push(Step::from_parts(from, d, kind));
    }
}

/// Legal steps at the start of a turn: every capture, or every paika when
/// there is no capture anywhere.
pub(crate) fn start_steps(us: Bitboard, them: Bitboard, out: &mut StepList) {
    let empty = !(us | them);
    // One copy for each direction, so that each sees its shifts as
    // constants.
    captures_along::<0>(us, them, empty, out);
    captures_along::<1>(us, them, empty, out);
    captures_along::<2>(us, them, empty, out);
    captures_along::<3>(us, them, empty, out);
    captures_along::<4>(us, them, empty, out);
    captures_along::<5>(us, them, empty, out);
    captures_along::<6>(us, them, empty, out);
    captures_along::<7>(us, them, empty, out);
    if out.is_empty() {
        Direction::each(|d| push_all(out, paika_movers(us, empty, d), d, StepKind::Paika));
    }
}

/// The captures of `us` along the direction of index `D`.
#[inline(always)]
fn captures_along<const D: usize>(
    us: Bitboard,
    them: Bitboard,
    empty: Bitboard,
    out: &mut StepList,
) {
    let d = Direction::from_index(D);
    push_all(
        out,
        approach_movers(us, them, empty, d),
        d,
        StepKind::Approach,
    );
    push_all(
        out,
        withdrawal_movers(us, them, empty, d),
        d,
        StepKind::Withdrawal,
    );
}

/// The state of a capture chain in progress, for generation.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ChainState {
    pub(crate) stone: Square,
    pub(crate) visited: Bitboard,
    pub(crate) last: Direction,
}

/// Calls `f` for each further capture of the chain's stone.
#[inline(always)]
pub(crate) fn for_each_continuation(
    chain: ChainState,
    us: Bitboard,
    them: Bitboard,
    mut f: impl FnMut(Step),
) {
    let open = (!(us | them) - chain.visited).0;
    let reach = &REACH[chain.stone.index()];
    for (d, r) in reach.iter().enumerate() {
        if d == chain.last.index() || r.landing & open == 0 {
            continue;
        }
        let dir = Direction::from_index(d);
        if r.approach & them.0 != 0 {
            f(Step::from_parts(chain.stone, dir, StepKind::Approach));
        }
        if r.withdrawal & them.0 != 0 {
            f(Step::from_parts(chain.stone, dir, StepKind::Withdrawal));
        }
    }
}

/// For each point and direction: the landing point one step along the
/// direction, and the points whose enemy stone a step there would capture
/// by approach (two steps along it) and by withdrawal (one step back). No
/// landing where the line does not go on.
#[derive(Copy, Clone)]
struct Reach {
    landing: u64,
    approach: u64,
    withdrawal: u64,
}

const fn compute_reach() -> [[Reach; 8]; Square::COUNT] {
    let empty = Reach {
        landing: 0,
        approach: 0,
        withdrawal: 0,
    };
    let mut out = [[empty; 8]; Square::COUNT];
    let mut sq = 0;
    while sq < Square::COUNT {
        let stone = Bitboard(1 << sq);
        let mut d = 0;
        while d < 8 {
            let dir = Direction::from_index(d);
            let landing = stone.shift(dir);
            out[sq][d] = Reach {
                landing: landing.0,
                approach: landing.shift(dir).0,
                withdrawal: stone.shift(dir.opposite()).0,
            };
            d += 1;
        }
        sq += 1;
    }
    out
}

const REACH_TABLE: [[Reach; 8]; Square::COUNT] = compute_reach();
static REACH: [[Reach; 8]; Square::COUNT] = REACH_TABLE;

/// For each point, its [`REACH`] in all directions together: with no
/// landing open or no enemy stone where one would be taken, no capture.
static AROUND: [Reach; Square::COUNT] = {
    let mut out = [Reach {
        landing: 0,
        approach: 0,
        withdrawal: 0,
    }; Square::COUNT];
    let mut sq = 0;
    while sq < Square::COUNT {
        let mut d = 0;
        while d < 8 {
            let r = REACH_TABLE[sq][d];
            out[sq].landing |= r.landing;
            out[sq].approach |= r.approach;
            out[sq].withdrawal |= r.withdrawal;
            d += 1;
        }
        sq += 1;
    }
    out
};

/// Whether the chain's stone has any further capture.
#[inline]
pub(crate) fn has_continuation(chain: ChainState, us: Bitboard, them: Bitboard) -> bool {
    let open = (!(us | them) - chain.visited).0;
    let around = &AROUND[chain.stone.index()];
    if around.landing & open == 0 || (around.approach | around.withdrawal) & them.0 == 0 {
        return false;
    }
    let reach = &REACH[chain.stone.index()];
    let last = chain.last.index();
    let mut any = false;
    for (d, r) in reach.iter().enumerate() {
        any |= (d != last) & (r.landing & open != 0) & ((r.approach | r.withdrawal) & them.0 != 0);
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(squares: &[Square]) -> Bitboard {
        squares.iter().copied().collect()
    }

    #[test]
    fn enemy_run_stops_at_empty_own_and_edge() {
        let them = bb(&[Square::F3, Square::G3, Square::I3]);
        assert_eq!(
            enemy_run(Square::E3, Direction::East, them),
            bb(&[Square::F3, Square::G3])
        );
        assert_eq!(
            enemy_run(Square::D3, Direction::East, them),
            Bitboard::EMPTY
        );
        assert_eq!(
            enemy_run(Square::I3, Direction::East, them),
            Bitboard::EMPTY
        );
        let them = bb(&[Square::C3, Square::B3, Square::A3]);
        assert_eq!(enemy_run(Square::D3, Direction::West, them), them);
        let them = bb(&[Square::D2, Square::C1]);
        assert_eq!(enemy_run(Square::E3, Direction::SouthWest, them), them);
        // No diagonal runs from a weak point.
        assert_eq!(
            enemy_run(Square::D3, Direction::SouthWest, them),
            Bitboard::EMPTY
        );
    }

    #[test]
    fn has_capture_agrees_with_per_direction_movers_on_random_boards() {
        let mut seed = 0x1234_5678_9abc_def1_u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let a = seed & Bitboard::FULL.0;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let us = Bitboard(a & seed);
            let them = Bitboard(a & !seed);
            let empty = !(us | them);
            let expected = Direction::ALL.into_iter().any(|d| {
                approach_movers(us, them, empty, d).any()
                    || withdrawal_movers(us, them, empty, d).any()
            });
            assert_eq!(has_capture(us, them), expected, "{us:?}\n{them:?}");
        }
    }

    /// The continuations of a chain as the rules say them, point by point:
    /// a step along a line to an open point (empty, not visited, not back
    /// the way the stone came), capturing the enemy stone next beyond it
    /// or just behind the stone.
    fn continuations_by_definition(chain: ChainState, us: Bitboard, them: Bitboard) -> Vec<Step> {
        let open = !(us | them) - chain.visited;
        let mut out = Vec::new();
        for d in Direction::ALL {
            if d == chain.last || (d.is_diagonal() && !chain.stone.is_strong()) {
                continue;
            }
            let Some(to) = d.step(chain.stone).filter(|&to| open.contains(to)) else {
                continue;
            };
            if d.step(to).is_some_and(|q| them.contains(q)) {
                out.push(Step::from_parts(chain.stone, d, StepKind::Approach));
            }
            if d.opposite()
                .step(chain.stone)
                .is_some_and(|q| them.contains(q))
            {
                out.push(Step::from_parts(chain.stone, d, StepKind::Withdrawal));
            }
        }
        out
    }

    #[test]
    fn continuations_agree_with_the_rules_on_random_boards() {
        let mut seed = 0x0fed_cba9_8765_4321_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut continued = 0;
        for _ in 0..50_000 {
            let stones = next() & Bitboard::FULL.0;
            let split = next();
            let stone = Square::from_index_unchecked((next() % 45) as u32);
            let us = Bitboard(stones & split).with(stone);
            let them = Bitboard(stones & !split).without(stone);
            let visited = (Bitboard(next() & next() & Bitboard::FULL.0) - them - us).with(stone);
            let chain = ChainState {
                stone,
                visited,
                last: Direction::from_index((next() % 8) as usize),
            };
            let expected = continuations_by_definition(chain, us, them);
            let mut got = Vec::new();
            for_each_continuation(chain, us, them, |s| got.push(s));
            assert_eq!(got, expected, "{chain:?}\n{us:?}\n{them:?}");
            assert_eq!(has_continuation(chain, us, them), !expected.is_empty());
            continued += usize::from(!expected.is_empty());
        }
        // Both answers occur often enough to be tested.
        assert!(continued > 5_000 && continued < 45_000, "{continued}");
    }

    #[test]
    fn has_capture_agrees_with_generation() {
        let board = crate::Board::start();
        let us = board.by_color(crate::Color::White);
        let them = board.by_color(crate::Color::Black);
        assert!(has_capture(us, them));
        let mut steps = StepList::new();
        start_steps(us, them, &mut steps);
        assert_eq!(steps.len(), 5);
        assert!(steps.iter().all(|s| s.is_capture()));
    }
}
