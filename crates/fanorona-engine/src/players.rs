//! The two test opponents the levels are measured against: a random mover
//! and a greedy player that takes the most stones it can.

use fanorona::{Position, Turn};

use crate::children::{root_children, turn_to};

/// A legal turn chosen uniformly at random, or `None` when the game is over.
pub fn random_turn(pos: &Position, rng: &mut fastrand::Rng) -> Option<Turn> {
    let (mut list, mut turns) = (Vec::new(), Vec::new());
    root_children(pos, &mut list, &mut turns);
    if list.is_empty() {
        return None;
    }
    let i = rng.usize(..list.len());
    turn_to(&list, &turns, &list[i].pos)
}

/// A turn that takes the most stones (a paika at random when none
/// captures), ties broken at random; `None` when the game is over.
pub fn greedy_turn(pos: &Position, rng: &mut fastrand::Rng) -> Option<Turn> {
    let (mut list, mut turns) = (Vec::new(), Vec::new());
    root_children(pos, &mut list, &mut turns);
    let most = list.iter().map(|c| c.captured).max()?;
    let best: Vec<usize> = (0..list.len())
        .filter(|&i| list[i].captured == most)
        .collect();
    let i = best[rng.usize(..best.len())];
    turn_to(&list, &turns, &list[i].pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona::Setup;

    #[test]
    fn greedy_takes_the_most() {
        // White can take one stone (e4 by approach from e2) or two in a row.
        let setup: Setup = "........./....B..../B......B./.BW...W../....W.... w"
            .parse()
            .expect("text");
        let pos = Position::from_setup(setup).expect("legal");
        let mut rng = fastrand::Rng::with_seed(1);
        let best = pos
            .legal_turns()
            .iter()
            .map(|t| {
                pos.board().count(!pos.turn())
                    - pos.play(t).expect("legal").board().count(!pos.turn())
            })
            .max()
            .expect("turns");
        for _ in 0..20 {
            let t = greedy_turn(&pos, &mut rng).expect("a turn");
            let after = pos.play(&t).expect("legal");
            assert_eq!(
                pos.board().count(!pos.turn()) - after.board().count(!pos.turn()),
                best
            );
            let r = random_turn(&pos, &mut rng).expect("a turn");
            assert!(pos.play(&r).is_ok());
        }
    }
}
