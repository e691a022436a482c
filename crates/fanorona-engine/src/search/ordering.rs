//! Move ordering: the transposition table's best child first, then
//! captures by stones taken, then the killer turns of the ply, then the
//! history of quiet turns that caused cut-offs.

use crate::children::Child;

use super::params::{
    HISTORY_DECAY, HISTORY_MAX, KILLERS, MAX_PLY, ORDER_CAPTURE, ORDER_CAPTURE_HISTORY,
    ORDER_CAPTURE_STONE, ORDER_KILLER, ORDER_TT,
};

/// A turn's identity in the killer and history tables (see
/// `Child::from_to`) that no turn has.
const NONE: u16 = u16::MAX;

/// The killer and history tables.
#[derive(Debug)]
pub(super) struct History {
    killers: [[u16; KILLERS]; MAX_PLY + 1],
    history: Vec<i32>,
}

impl History {
    pub(super) fn new() -> History {
        History {
            killers: [[NONE; KILLERS]; MAX_PLY + 1],
            history: vec![0; 45 * 45],
        }
    }

    /// Forgets the history, as for a new game.
    pub(super) fn clear(&mut self) {
        self.history.fill(0);
    }

    /// At the start of a search: no killers yet, and the history of past
    /// searches counts less.
    pub(super) fn new_search(&mut self) {
        self.killers = [[NONE; KILLERS]; MAX_PLY + 1];
        for h in &mut self.history {
            *h /= HISTORY_DECAY;
        }
    }

    /// Whether the turn `from_to` is a killer at `ply`.
    #[inline]
    pub(super) fn is_killer(&self, ply: usize, from_to: u16) -> bool {
        self.killers[ply].contains(&from_to)
    }

    /// A quiet turn caused a cut-off at `ply` with `depth` left.
    pub(super) fn reward(&mut self, ply: usize, from_to: u16, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != from_to {
            k[1] = k[0];
            k[0] = from_to;
        }
        let h = &mut self.history[usize::from(from_to)];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// Sets each child's ordering score: the table's best child, then
    /// captures by stones taken, then killers, then history.
    pub(super) fn order(&self, list: &mut [Child], tt_best: Option<u16>, ply: usize) {
        let killers = self.killers[ply];
        for c in list.iter_mut() {
            c.order = if Some(c.place) == tt_best {
                ORDER_TT
            } else if c.captured > 0 {
                ORDER_CAPTURE
                    + i32::from(c.captured) * ORDER_CAPTURE_STONE
                    + self.history[usize::from(c.from_to)].min(ORDER_CAPTURE_HISTORY)
            } else if c.from_to == killers[0] {
                ORDER_KILLER
            } else if c.from_to == killers[1] {
                ORDER_KILLER - 1
            } else {
                self.history[usize::from(c.from_to)]
            };
        }
    }
}

/// Moves the child with the highest ordering score among `list[n..]` to
/// `list[n]` (a selection sort done lazily: most nodes cut off early).
#[inline]
pub(super) fn pick_best(list: &mut [Child], n: usize) {
    let mut best = n;
    for i in n + 1..list.len() {
        if list[i].order > list[best].order {
            best = i;
        }
    }
    list.swap(n, best);
}
