//! The principal variation: the best line found, kept as a triangular
//! table of positions, one row per ply.

use fanorona::{Position, Turn};

use super::params::MAX_PLY;

/// The triangular table: row `ply` holds the best line from `ply` on.
#[derive(Debug)]
pub(super) struct Pv {
    table: Vec<Position>,
    len: [usize; MAX_PLY + 1],
}

impl Pv {
    pub(super) fn new() -> Pv {
        Pv {
            table: vec![Position::start(); (MAX_PLY + 1) * (MAX_PLY + 1)],
            len: [0; MAX_PLY + 1],
        }
    }

    /// A node at `ply` starts with an empty line.
    #[inline]
    pub(super) fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// `child` is the new best at `ply`: the line from `ply` is it, then
    /// the child's own line.
    pub(super) fn update(&mut self, ply: usize, child: Position) {
        let row = ply * (MAX_PLY + 1);
        let next = (ply + 1) * (MAX_PLY + 1);
        self.table[row + ply] = child;
        let len = self.len[ply + 1].max(ply + 1);
        for p in ply + 1..len {
            self.table[row + p] = self.table[next + p];
        }
        self.len[ply] = len;
    }

    /// The line from the root `pos`, as turns.
    pub(super) fn turns(&self, pos: &Position) -> Vec<Turn> {
        let mut out = Vec::new();
        let mut at = *pos;
        for p in 0..self.len[0] {
            let next = self.table[p];
            match at.turn_to(&next) {
                Some(t) => out.push(t),
                None => break,
            }
            at = next;
        }
        out
    }
}
