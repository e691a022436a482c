//! Negamax alpha-beta with principal-variation search, late move
//! reductions and a transposition table, and the quiescence search over
//! captures at its horizon.

use std::sync::atomic::AtomicBool;

use fanorona::Position;

use crate::{
    children::{children, Child},
    eval::evaluate_with,
    score::{from_table, to_table, INFINITY, MATE},
    tt::Bound,
    zobrist::zobrist,
};

use super::{
    ordering::pick_best,
    params::{
        DELTA_MARGIN, DELTA_STONE, FORCED_PLY_PER_DEPTH, FORCED_PLY_SLACK, MAX_PLY,
        REDUCE_MIN_CHILD, REDUCE_MIN_DEPTH, REDUCE_MORE_CHILD, REDUCE_MORE_DEPTH,
    },
    Engine,
};

impl Engine {
    /// The root: every child searched, the best moved to the front for the
    /// next depth.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn root(
        &mut self,
        root: &mut [Child],
        scores: &mut [i32],
        depth: u32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> (i32, Option<Position>) {
        // Order: last depth's scores, best first (stable, so ties keep
        // generation order and the search stays deterministic).
        let mut order: Vec<usize> = (0..root.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let mut best_score = -INFINITY;
        let mut best = None;
        for (n, &i) in order.iter().enumerate() {
            let child = root[i].pos;
            let d = depth as i32 - 1;
            let score = if n == 0 {
                -self.negamax(&child, d, -beta, -alpha, 1, stop)
            } else {
                let s = -self.negamax(&child, d, -alpha - 1, -alpha, 1, stop);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(&child, d, -beta, -alpha, 1, stop)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            scores[i] = score;
            if score > best_score {
                best_score = score;
            }
            if score > alpha {
                alpha = score;
                best = Some(child);
                self.pv.update(0, child);
                if score >= beta {
                    break;
                }
            } else if n > 0 {
                // Below the window: keep it after the searched ones.
                scores[i] = scores[i].min(alpha - 1);
            }
        }
        (best_score, best)
    }

    pub(crate) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv.clear(ply);
        if self.out_of_time(stop) {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = end_score(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return evaluate_with(pos, &self.weights, self.network);
        }
        if let Some(score) = self.probe(pos, ply) {
            return score;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0, stop);
        }
        let pv_node = beta - alpha > 1;
        let key = zobrist(pos);
        let mut tt_best = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_best = hit.best;
            if !pv_node && i32::from(hit.depth) >= depth {
                let s = from_table(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let mut list = std::mem::take(&mut self.stack[ply]);
        children(pos, &mut list);
        self.history.order(&mut list, tt_best, ply);
        // A forced turn costs no depth.
        let extend = i32::from(
            list.len() == 1 && (ply as i32) < FORCED_PLY_PER_DEPTH * depth + FORCED_PLY_SLACK,
        );
        let alpha_in = alpha;
        let mut best_score = -INFINITY;
        let mut best_index = None;
        for n in 0..list.len() {
            pick_best(&mut list, n);
            let child = list[n];
            let d = depth - 1 + extend;
            let quiet = child.captured == 0;
            let killer = self.history.is_killer(ply, child.from_to);
            let score = if n == 0 {
                -self.negamax(&child.pos, d, -beta, -alpha, ply + 1, stop)
            } else {
                let late = depth >= REDUCE_MIN_DEPTH && n >= REDUCE_MIN_CHILD;
                let reduce = if late && quiet && !killer {
                    1 + i32::from(n >= REDUCE_MORE_CHILD && depth >= REDUCE_MORE_DEPTH)
                } else {
                    0
                };
                let mut s =
                    -self.negamax(&child.pos, d - reduce, -alpha - 1, -alpha, ply + 1, stop);
                if s > alpha && reduce > 0 {
                    s = -self.negamax(&child.pos, d, -alpha - 1, -alpha, ply + 1, stop);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child.pos, d, -beta, -alpha, ply + 1, stop);
                }
                s
            };
            if self.stopped {
                self.stack[ply] = list;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_index = Some(child.place);
            }
            if score > alpha {
                alpha = score;
                self.pv.update(ply, child.pos);
                if score >= beta {
                    if quiet {
                        self.history.reward(ply, child.from_to, depth);
                    }
                    break;
                }
            }
        }
        self.stack[ply] = list;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            depth.clamp(0, i32::from(i8::MAX)) as i8,
            to_table(best_score, ply),
            bound,
            best_index,
        );
        best_score
    }

    /// Captures only, until the side to move has none: it may stand on the
    /// static value when that is already good enough.
    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv.clear(ply);
        if qdepth > 0 {
            if self.out_of_time(stop) {
                return 0;
            }
            self.nodes += 1;
            self.seldepth = self.seldepth.max(ply);
            if let Some(score) = end_score(pos, ply) {
                return score;
            }
        }
        if qdepth > 0 {
            if let Some(score) = self.probe(pos, ply) {
                return score;
            }
        }
        let stand = evaluate_with(pos, &self.weights, self.network);
        if ply >= MAX_PLY || qdepth >= self.max_quiescence || !pos.has_capture() {
            return stand;
        }
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        // Delta pruning before any capture is made: not even a turn that
        // took every stone of the opponent's could lift the static value
        // to alpha, so every capture would be pruned below.
        let them = pos.board().by_color(!pos.turn()).count() as u8;
        if delta_prunes(stand, them, alpha) {
            return stand;
        }
        let mut best = stand;
        let mut list = std::mem::take(&mut self.stack[ply]);
        children(pos, &mut list);
        for c in list.iter_mut() {
            c.order = i32::from(c.captured);
        }
        for n in 0..list.len() {
            pick_best(&mut list, n);
            // Delta pruning: a capture that could not lift the static
            // value to alpha even with a margin is not searched; the list
            // is in order of stones taken, so neither is any after it.
            if delta_prunes(stand, list[n].captured, alpha) {
                break;
            }
            let child = list[n].pos;
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1, stop);
            if self.stopped {
                self.stack[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                self.pv.update(ply, child);
                if score >= beta {
                    break;
                }
            }
        }
        self.stack[ply] = list;
        best
    }
}

/// Whether a capture of `stones` stones cannot lift the static value
/// `stand` to `alpha`, even with [`DELTA_MARGIN`] to spare: quiescence
/// does not search it.
#[inline]
fn delta_prunes(stand: i32, stones: u8, alpha: i32) -> bool {
    stand + DELTA_STONE * i32::from(stones) + DELTA_MARGIN <= alpha
}

/// The score of a finished game for the side to move, `ply` turns from
/// the root: a quicker win scores higher, a slower loss less low.
fn end_score(pos: &Position, ply: usize) -> Option<i32> {
    let outcome = pos.outcome()?;
    Some(match outcome.winner {
        None => 0,
        Some(w) if w == pos.turn() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    })
}
