//! How a level plays a turn: the strong levels search as analysis does,
//! the weak ones score every turn to a small depth and let chance choose
//! among the nearly best ([`pick`]).

use std::sync::atomic::AtomicBool;

use fanorona::Position;

use crate::{
    children::{root_children, turn_to},
    clock::Start,
    limits::Limits,
    score::{Score, INFINITY},
    search::{params::FULL_QUIESCENCE, Engine, Info, SearchResult},
};

use super::{Level, LevelSpec};

impl Engine {
    /// Chooses a turn as `level` plays, with `seed` deciding the weak
    /// levels' choices: the same position, level and seed give the same
    /// turn. `stop` ends the search early with the best turn so far.
    pub fn play_level(
        &mut self,
        pos: &Position,
        level: Level,
        seed: u64,
        stop: &AtomicBool,
    ) -> SearchResult {
        let spec = level.spec();
        if spec.book && self.book {
            if let Some(result) = crate::book::result(pos) {
                return result;
            }
        }
        // A level without the tables plays with them put aside.
        let withheld = if spec.tables {
            None
        } else {
            self.tables.take()
        };
        self.max_quiescence = spec.quiescence;
        let result = self.play_spec(pos, spec, seed, stop);
        self.max_quiescence = FULL_QUIESCENCE;
        if withheld.is_some() {
            self.tables = withheld;
        }
        result
    }

    fn play_spec(
        &mut self,
        pos: &Position,
        spec: LevelSpec,
        seed: u64,
        stop: &AtomicBool,
    ) -> SearchResult {
        if spec.noise == 0 || spec.depth.is_none() {
            let limits = Limits {
                depth: spec.depth,
                nodes: spec.nodes,
                time: None,
            };
            return self.search(pos, limits, stop, |_| {});
        }
        let depth = spec.depth.unwrap_or(1);
        let start = Start::now();
        self.prepare(Limits::depth(depth), start);
        let (mut root, mut turns) = (Vec::new(), Vec::new());
        root_children(pos, &mut root, &mut turns);
        let mut scores = Vec::with_capacity(root.len());
        for c in &root {
            let s = -self.negamax(&c.pos, depth as i32 - 1, -INFINITY, INFINITY, 1, stop);
            scores.push(s);
        }
        let mut rng = fastrand::Rng::with_seed(seed);
        let chosen = root.get(pick(&scores, spec.noise, rng.f64()));
        let best = chosen.and_then(|c| turn_to(&root, &turns, &c.pos));
        let score = chosen.map_or(0, |c| scores[usize::from(c.place)]);
        SearchResult {
            info: Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(score),
                nodes: self.nodes,
                elapsed: start.elapsed(),
                pv: best.iter().cloned().collect(),
            },
            best,
            after: chosen.map(|c| c.pos),
        }
    }
}

/// Picks an index from `scores` (higher is better) as a level with `noise`
/// does; `roll` is a number in `[0, 1)`.
fn pick(scores: &[i32], noise: i32, roll: f64) -> usize {
    let Some(best) = scores.iter().copied().max() else {
        return 0;
    };
    if noise <= 0 {
        return scores.iter().position(|&s| s == best).unwrap_or(0);
    }
    let weight = |s: i32| {
        let loss = f64::from(best - s);
        if loss > 4.0 * f64::from(noise) {
            0.0
        } else {
            (-loss / f64::from(noise)).exp()
        }
    };
    let total: f64 = scores.iter().map(|&s| weight(s)).sum();
    let mut left = roll * total;
    for (i, &s) in scores.iter().enumerate() {
        let w = weight(s);
        if left < w {
            return i;
        }
        left -= w;
    }
    scores.iter().position(|&s| s == best).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_favours_the_best_and_never_blunders_far() {
        let scores = [100, 90, -500, 40];
        assert_eq!(pick(&scores, 0, 0.99), 0);
        let mut counts = [0; 4];
        for i in 0..1000 {
            counts[pick(&scores, 30, f64::from(i) / 1000.0)] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[3], "{counts:?}");
        assert_eq!(counts[2], 0, "a turn 600 worse is never chosen");
    }
}
