use crate::{movegen, Position, StepList, FIFTY_TURNS};

/// Counts the distinct sequences of `depth` complete turns from `pos`.
///
/// Every choice of capture kind and every point where a capture chain may
/// stop makes a distinct turn. A finished game has no children. With a turn
/// in progress, the first level counts the ways to complete it, ending at
/// once included.
///
/// # Examples
///
/// ```
/// use fanorona::{perft, Position};
///
/// let pos = Position::start();
/// assert_eq!(perft(&pos, 1), 5);
/// assert_eq!(perft(&pos, 2), 39);
/// assert_eq!(perft(&pos, 3), 724);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (us, them, quiet) = pos.raw();
    if us.is_empty() || quiet >= FIFTY_TURNS {
        return 0;
    }
    if pos.chain().is_some() {
        return chain_perft(pos, depth);
    }
    if !movegen::has_capture(us, them) {
        if depth == 1 {
            return movegen::count_paika(us, them);
        }
        let mut steps = StepList::new();
        movegen::start_steps(us, them, &mut steps);
        return steps
            .iter()
            .map(|&s| perft(&pos.play_step_unchecked(s), depth - 1))
            .sum();
    }
    let mut steps = StepList::new();
    movegen::start_steps(us, them, &mut steps);
    steps
        .iter()
        .map(|&s| chain_perft(&pos.play_step_unchecked(s), depth))
        .sum()
}

/// Counts from a position just after a capture: stop now, or go on.
fn chain_perft(pos: &Position, depth: u32) -> u64 {
    let Some(chain) = pos.chain() else {
        return perft(pos, depth - 1);
    };
    let mut n = perft(&pos.finish_turn(), depth - 1);
    let (us, them, _) = pos.raw();
    movegen::for_each_continuation(chain_state(chain), us, them, |s| {
        n += chain_perft(&pos.play_step_unchecked(s), depth);
    });
    n
}

fn chain_state(chain: &crate::Chain) -> movegen::ChainState {
    movegen::ChainState {
        stone: chain.stone(),
        visited: chain.visited(),
        last: chain.last_direction(),
    }
}

/// Counts the sequences of `depth` single actions from `pos`, where an
/// action is one legal step or, with a capture chain open, ending the turn.
///
/// # Examples
///
/// ```
/// use fanorona::{perft_steps, Position};
///
/// assert_eq!(perft_steps(&Position::start(), 1), 5);
/// ```
pub fn perft_steps(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let steps = pos.legal_steps();
    let end = u64::from(pos.can_end_turn());
    if depth == 1 {
        return steps.len() as u64 + end;
    }
    let mut n: u64 = steps
        .iter()
        .map(|&s| perft_steps(&pos.play_step_unchecked(s), depth - 1))
        .sum();
    if let Ok(ended) = pos.end_turn() {
        n += perft_steps(&ended, depth - 1);
    }
    n
}
