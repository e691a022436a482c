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

/// The unbroken run of enemy stones starting at `first` and going along `d`.
#[inline]
pub(crate) fn enemy_line(first: Square, d: Direction, them: Bitboard) -> Bitboard {
    let ray = RAYS[first.index()][d.index()];
    let blockers = ray & !them.0;
    let beyond = if blockers == 0 {
        ray
    } else if d.offset() > 0 {
        ray & ((blockers & blockers.wrapping_neg()) - 1)
    } else {
        let top = 63 - blockers.leading_zeros();
        ray & (u64::MAX << (top + 1))
    };
    Bitboard(beyond) | Bitboard::from_square(first)
}

/// The enemy stones a capture step takes, or none if the step does not
/// capture in the way its kind says.
#[inline]
pub(crate) fn captured_by(step: Step, them: Bitboard) -> Bitboard {
    let d = step.direction();
    let first = match step.kind() {
        StepKind::Paika => None,
        StepKind::Approach => d.step(step.to()),
        StepKind::Withdrawal => d.opposite().step(step.from()),
    };
    match first {
        Some(sq) if them.contains(sq) => {
            let line_dir = if step.kind() == StepKind::Approach {
                d
            } else {
                d.opposite()
            };
            enemy_line(sq, line_dir, them)
        }
        _ => Bitboard::EMPTY,
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
    for d in Direction::ALL {
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
    if out.is_empty() {
        for d in Direction::ALL {
            push_all(out, paika_movers(us, empty, d), d, StepKind::Paika);
        }
    }
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
    let stone = Bitboard::from_square(chain.stone);
    let open = !(us | them) - chain.visited;
    for d in Direction::ALL {
        if d == chain.last {
            continue;
        }
        let landing = stone.shift(d) & open;
        if landing.is_empty() {
            continue;
        }
        if (landing.shift(d) & them).any() {
            f(Step::from_parts(chain.stone, d, StepKind::Approach));
        }
        if (stone.shift(d.opposite()) & them).any() {
            f(Step::from_parts(chain.stone, d, StepKind::Withdrawal));
        }
    }
}

/// Whether the chain's stone has any further capture.
#[inline]
pub(crate) fn has_continuation(chain: ChainState, us: Bitboard, them: Bitboard) -> bool {
    let stone = Bitboard::from_square(chain.stone);
    let open = !(us | them) - chain.visited;
    Direction::ALL.into_iter().any(|d| {
        d != chain.last && {
            let landing = stone.shift(d) & open;
            landing.any()
                && ((landing.shift(d) & them).any() || (stone.shift(d.opposite()) & them).any())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(squares: &[Square]) -> Bitboard {
        squares.iter().copied().collect()
    }

    #[test]
    fn enemy_line_stops_at_empty_own_and_edge() {
        let them = bb(&[Square::F3, Square::G3, Square::I3]);
        assert_eq!(
            enemy_line(Square::F3, Direction::East, them),
            bb(&[Square::F3, Square::G3])
        );
        let them = bb(&[Square::C3, Square::B3, Square::A3]);
        assert_eq!(enemy_line(Square::C3, Direction::West, them), them);
        let them = bb(&[Square::D2, Square::C1]);
        assert_eq!(enemy_line(Square::D2, Direction::SouthWest, them), them);
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
