//! Helpers shared by the integration tests: position text to a position, a
//! small seeded random generator, and random play.

// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use fanorona::{testing::random_setup, Bitboard, Position, Setup, Square, StepList};

/// The start position as position text.
pub(crate) const START: &str = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0";

/// Parses and validates position text, panicking with the reason if either fails.
pub(crate) fn pos(text: &str) -> Position {
    let setup: Setup = text
        .parse()
        .unwrap_or_else(|e| panic!("{text:?} is not position text: {e}"));
    Position::from_setup(setup).unwrap_or_else(|e| panic!("{text:?} is not legal: {e}"))
}

/// The set of the given squares.
pub(crate) fn squares(names: &[&str]) -> Bitboard {
    names
        .iter()
        .map(|n| n.parse::<Square>().unwrap_or_else(|e| panic!("{n:?}: {e}")))
        .collect()
}

/// A xorshift64 generator: tiny, seeded, reproducible.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from any seed (zero is replaced, as xorshift needs a set bit).
    pub(crate) fn new(seed: u64) -> Rng {
        Rng((seed ^ 0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`; `n` must not be zero.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Plays up to `actions` random actions from `pos`, each chosen uniformly
/// among the legal steps plus ending the turn when a capture chain is open.
/// Stops early when the game ends. The result may have a chain open.
pub(crate) fn random_actions(mut pos: Position, rng: &mut Rng, actions: usize) -> Position {
    let mut steps = StepList::new();
    for _ in 0..actions {
        pos.legal_steps_into(&mut steps);
        let n = steps.len() + usize::from(pos.can_end_turn());
        if n == 0 {
            break;
        }
        let k = rng.below(n);
        pos = match steps.get(k) {
            Some(&step) => pos.play_step(step).expect("a listed step is legal"),
            None => pos.end_turn().expect("a chain is open"),
        };
    }
    pos
}

/// Plays up to `turns` random complete turns from `pos`, calling `visit` on
/// every position reached (the first included) that has no chain open.
pub(crate) fn random_turns(
    mut pos: Position,
    rng: &mut Rng,
    turns: usize,
    mut visit: impl FnMut(&Position),
) {
    visit(&pos);
    for _ in 0..turns {
        let legal = pos.legal_turns();
        if legal.is_empty() {
            break;
        }
        let turn = &legal[rng.below(legal.len())];
        pos = pos.play(turn).expect("a listed turn is legal");
        visit(&pos);
    }
}

/// A random sparse position: each point holds a stone with probability
/// about `density` in 16, of either colour; a random side to move and a
/// random counter below 50. `None` when the setup is not a legal position.
pub(crate) fn random_sparse(rng: &mut Rng, density: u64) -> Option<Position> {
    let stones = (0..45).filter(|_| rng.next_u64() % 16 < density).count();
    let white = (0..stones).filter(|_| rng.next_u64() & 1 == 0).count();
    let mut setup = random_setup(&mut |n| rng.below(n), white, stones - white);
    setup.turns_since_capture = (rng.next_u64() % 50) as u32;
    Position::from_setup(setup).ok()
}

/// The perft data files of `tests/data`, in name order.
pub(crate) fn data_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    files
}
