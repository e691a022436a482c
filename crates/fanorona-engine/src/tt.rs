//! The transposition table: a fixed array of entries indexed by the low
//! bits of the Zobrist key, allocated once and never resized.
//!
//! Each bucket holds one entry; a new result replaces the old one when it
//! is from a newer search or searched at least as deep.

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    /// The index of the best child in generation order, or `u16::MAX`.
    best: u16,
    depth: i8,
    /// 0 empty, else 1 + the bound's index.
    bound: u8,
    generation: u8,
}

/// A hit: the stored facts about a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) score: i32,
    pub(crate) best: Option<u16>,
    pub(crate) depth: i8,
    pub(crate) bound: Bound,
}

/// A transposition table of fixed size.
#[derive(Debug)]
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

/// Bytes per entry, to turn a size in bytes into a number of entries.
pub(crate) const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

impl Table {
    /// A table of at most `bytes` (rounded down to a power of two entries,
    /// at least 1,024).
    pub(crate) fn new(bytes: usize) -> Table {
        let wanted = (bytes / ENTRY_BYTES).max(1024);
        let n = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            entries: vec![Entry::default(); n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries give way.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[key as usize & self.mask];
        if e.bound == 0 || e.key != key {
            return None;
        }
        let bound = match e.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            score: e.score,
            best: (e.best != u16::MAX).then_some(e.best),
            depth: e.depth,
            bound,
        })
    }

    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: i8,
        score: i32,
        bound: Bound,
        best: Option<u16>,
    ) {
        let generation = self.generation;
        let e = &mut self.entries[key as usize & self.mask];
        let replace =
            e.bound == 0 || e.generation != generation || e.key == key || depth >= e.depth;
        if !replace {
            return;
        }
        // Keep the old best child when the new result has none for the same
        // position.
        let best = match best {
            Some(b) => b,
            None if e.key == key => e.best,
            None => u16::MAX,
        };
        *e = Entry {
            key,
            score,
            best,
            depth,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_and_respects_size() {
        let mut t = Table::new(1 << 16);
        assert!(t.entries.len() * ENTRY_BYTES <= 1 << 16);
        t.store(42, 3, 17, Bound::Lower, Some(2));
        let hit = t.probe(42).expect("stored");
        assert_eq!(
            (hit.score, hit.best, hit.depth, hit.bound),
            (17, Some(2), 3, Bound::Lower)
        );
        assert!(t.probe(43).is_none());
        // A shallower result of the same search for another position in the
        // same bucket does not replace a deeper one.
        let other = 42 + t.entries.len() as u64;
        t.store(other, 1, 5, Bound::Exact, None);
        assert_eq!(t.probe(42).map(|h| h.score), Some(17));
        t.new_search();
        t.store(other, 1, 5, Bound::Exact, None);
        assert_eq!(t.probe(other).map(|h| h.score), Some(5));
        t.clear();
        assert!(t.probe(other).is_none());
    }
}
