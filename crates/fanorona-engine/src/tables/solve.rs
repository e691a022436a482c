//! Retrograde analysis of one number of stones, given the solved tables of
//! every smaller number.
//!
//! Captures always take at least one stone, so within a table only paikas
//! link positions, and the solver sees a graph whose leaves are:
//!
//! - a position where the side to move must capture: a win in 1 if some
//!   capture turn leaves the opponent lost (no stones left, or a loss in the
//!   smaller table at counter 0, which is a loss within 50 turns), a loss in
//!   1 if every capture turn leaves the opponent won, else a draw;
//! - a position with no legal step: a loss in 1.
//!
//! The quiet positions are then decided in order of distance, from the
//! leaves back along un-played paikas: a position is won in `z + 1` as soon
//! as one child is lost in `z` (the first such child found has the smallest
//! `z`), and lost in `z + 1` when its last child turns out won in `z` (the
//! largest). Why this is exact under the fifty-turn rule: with `h = 50 - c`
//! turns left, a quiet position wins iff some child loses with `h - 1` left,
//! that is iff `1 + min z <= h` over its lost children; and loses iff every
//! child wins with `h - 1` left, iff all are wins and `1 + max z <= h`.
//! Nothing beyond `z = 50` can matter at any counter, so the search stops
//! there and whatever is undecided is a draw. Up to 4 stones the cut never
//! bites: the longest distances are 7 turns with 2 stones, 29 with 3 and 30
//! with 4 (the last level that decided any position).

use fanorona::{Bitboard, Board, Color, Direction, Position, Setup};

use super::{index::Layout, table::Table, value::Value};
use crate::children::{children, Child};

/// Solves the table of `stones` stones; `smaller[n - 2]` is the table of
/// `n` stones for every `n` in `2..stones`.
pub(crate) fn solve(stones: usize, smaller: &[Table]) -> Table {
    let layout = Layout::new(stones);
    let mut values = vec![Value::DRAW; layout.size()];
    // For a quiet position not yet decided, how many of its paika children
    // are not yet known to be won; 0 for every other position.
    let mut open = vec![0u8; layout.size()];
    let mut frontier = Vec::new();
    let mut kids = Vec::new();
    for (i, value) in values.iter_mut().enumerate() {
        let (us, them) = layout.position(i);
        let pos = position(us, them);
        if pos.has_capture() {
            *value = capture_value(&pos, smaller, &mut kids);
        } else {
            match pos.legal_steps().len() {
                0 => *value = Value::loss(1),
                n => open[i] = n as u8,
            }
        }
        if *value != Value::DRAW {
            frontier.push(i as u32);
        }
    }
    retrograde(&layout, &mut values, &mut open, frontier);
    Table::new(layout, values).expect("one entry per position")
}

/// The position with `us` (as White) to move against `them`, counter 0.
fn position(us: Bitboard, them: Bitboard) -> Position {
    let board = Board::from_bitboards(us, them).expect("a layout keeps the sides apart");
    Position::from_setup(Setup {
        board,
        turn: Color::White,
        turns_since_capture: 0,
    })
    .expect("both sides have stones")
}

/// The value of a position where the side to move must capture.
fn capture_value(pos: &Position, smaller: &[Table], kids: &mut Vec<Child>) -> Value {
    children(pos, kids);
    let mut best = Value::loss(1);
    for kid in kids.iter() {
        let mover = kid.pos.turn();
        let us = kid.pos.board().by_color(mover);
        let them = kid.pos.board().by_color(!mover);
        if us.is_empty() {
            return Value::win(1);
        }
        let after = smaller[us.count() + them.count() - 2].get(us, them);
        if after.is_loss() {
            return Value::win(1);
        }
        if !after.is_win() {
            best = Value::DRAW;
        }
    }
    best
}

/// Decides the quiet positions level by level, from the decided positions
/// in `frontier` (all at distance 1).
fn retrograde(layout: &Layout, values: &mut [Value], open: &mut [u8], mut frontier: Vec<u32>) {
    let mut next = Vec::new();
    let mut z = 1;
    while !frontier.is_empty() && z < Value::MAX_DISTANCE {
        for &q in &frontier {
            let value = values[q as usize];
            let (us, them) = layout.position(q as usize);
            let occupied = us | them;
            // `them` just moved: step each of their stones back.
            for to in them {
                for d in Direction::ALL {
                    let Some(from) = d.step(to) else { continue };
                    if occupied.contains(from) {
                        continue;
                    }
                    let p = layout.index(them.without(to).with(from), us);
                    // 0: a capture position (its paika was not legal), a
                    // dead end, or decided already.
                    if open[p] == 0 {
                        continue;
                    }
                    if value.is_loss() {
                        values[p] = Value::win(z + 1);
                        open[p] = 0;
                        next.push(p as u32);
                    } else {
                        open[p] -= 1;
                        if open[p] == 0 {
                            values[p] = Value::loss(z + 1);
                            next.push(p as u32);
                        }
                    }
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
        z += 1;
    }
}
