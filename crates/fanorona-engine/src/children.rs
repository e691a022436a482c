//! The positions a turn can lead to: the search's move list.
//!
//! The search walks whole turns, so a node's children are the positions at
//! the start of the opponent's turn, one for every legal complete turn
//! (every capture kind, every point where a chain may stop). Inside the
//! tree a turn is not kept: the search needs only where it leads. At the
//! root, where the search must say which turn it chose, [`root_children`]
//! also writes down each child's turn.

use fanorona::{Position, Square, StepKind, StepList, Turn};

/// One child of a node: the position after a complete turn, and how many
/// stones the turn took.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Child {
    pub(crate) pos: Position,
    pub(crate) captured: u8,
    /// The turn's origin and final point (`from * 45 + to`): how the
    /// killer and history tables know a turn.
    pub(crate) from_to: u16,
    /// The child's place in generation order, by which the transposition
    /// table remembers the best child.
    pub(crate) place: u16,
    /// The move-ordering score, set by the search.
    pub(crate) order: i32,
}

/// Fills `out` (cleared first) with the children of `pos`.
///
/// With a chain open in `pos` (only at the root, when a player asks in the
/// middle of a turn) the children are: end the turn now, or each way to
/// continue it.
pub(crate) fn children(pos: &Position, out: &mut Vec<Child>) {
    out.clear();
    generate(pos, out, &mut NoTurns);
    number(out);
}

/// [`children`], and in `turns` (cleared first) the turn of each child,
/// `turns[i]` leading to `out[i]`. With a chain open the turns are those
/// of the rest of the turn: stopping now is a turn of no landings.
pub(crate) fn root_children(pos: &Position, out: &mut Vec<Child>, turns: &mut Vec<Turn>) {
    out.clear();
    turns.clear();
    let origin = pos.chain().map_or(Square::A1, |c| c.stone());
    let mut record = Record {
        turn: Turn::new(origin),
        turns,
    };
    generate(pos, out, &mut record);
    number(out);
}

/// The turn of [`root_children`] that leads to `to`: the turn of the
/// first child that does, the one the rules crate's `Position::turn_to`
/// gives, so the turn a player is shown does not depend on which of two
/// turns to the same position the search preferred.
pub(crate) fn turn_to(out: &[Child], turns: &[Turn], to: &Position) -> Option<Turn> {
    let first = out.iter().position(|c| c.pos == *to)?;
    turns.get(first).cloned()
}

fn number(out: &mut [Child]) {
    for (i, c) in out.iter_mut().enumerate() {
        c.place = i as u16;
    }
}

/// Where the generator writes down the turn it is building: nowhere in
/// the tree, a list at the root.
trait Turns {
    /// A new turn from `origin`.
    fn start(&mut self, origin: Square);
    /// The turn goes on to `to`.
    fn push(&mut self, to: Square, kind: StepKind);
    /// The last landing is taken back.
    fn pop(&mut self);
    /// A child was pushed for the turn as it stands.
    fn child(&mut self);
}

struct NoTurns;

impl Turns for NoTurns {
    #[inline(always)]
    fn start(&mut self, _: Square) {}
    #[inline(always)]
    fn push(&mut self, _: Square, _: StepKind) {}
    #[inline(always)]
    fn pop(&mut self) {}
    #[inline(always)]
    fn child(&mut self) {}
}

struct Record<'a> {
    turn: Turn,
    turns: &'a mut Vec<Turn>,
}

impl Turns for Record<'_> {
    fn start(&mut self, origin: Square) {
        self.turn = Turn::new(origin);
    }
    fn push(&mut self, to: Square, kind: StepKind) {
        self.turn.push(to, kind);
    }
    fn pop(&mut self) {
        self.turn.pop();
    }
    fn child(&mut self) {
        self.turns.push(self.turn.clone());
    }
}

fn generate(pos: &Position, out: &mut Vec<Child>, turns: &mut impl Turns) {
    let them = pos.board().by_color(!pos.turn()).count();
    if pos.chain().is_some() {
        let origin = pos.chain().map_or(0, |c| c.stone().index());
        extend(pos, them, origin, origin, out, turns);
        return;
    }
    let mut steps = StepList::new();
    pos.legal_steps_into(&mut steps);
    for &step in &steps {
        let next = pos.play_step_unchecked(step);
        turns.start(step.from());
        turns.push(step.to(), step.kind());
        if step.is_capture() {
            extend(
                &next,
                them,
                step.from().index(),
                step.to().index(),
                out,
                turns,
            );
        } else {
            push(out, next, 0, step.from().index(), step.to().index());
            turns.child();
        }
    }
}

fn push(out: &mut Vec<Child>, pos: Position, captured: usize, from: usize, to: usize) {
    out.push(Child {
        pos,
        captured: captured as u8,
        from_to: (from * 45 + to) as u16,
        place: 0,
        order: 0,
    });
}

/// After a capture that landed on `to`: stop here, or go on with each
/// continuation.
fn extend(
    pos: &Position,
    them_before: usize,
    origin: usize,
    to: usize,
    out: &mut Vec<Child>,
    turns: &mut impl Turns,
) {
    if pos.chain().is_none() {
        // The turn ended by itself: no further capture was possible, and
        // the side to move is now the one that was captured from.
        let taken = them_before - pos.board().by_color(pos.turn()).count();
        push(out, *pos, taken, origin, to);
        turns.child();
        return;
    }
    let taken = them_before - pos.board().by_color(!pos.turn()).count();
    if let Ok(ended) = pos.end_turn() {
        push(out, ended, taken, origin, to);
        turns.child();
    }
    let mut steps = StepList::new();
    pos.legal_steps_into(&mut steps);
    for &step in &steps {
        let next = pos.play_step_unchecked(step);
        turns.push(step.to(), step.kind());
        extend(&next, them_before, origin, step.to().index(), out, turns);
        turns.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona::Setup;

    #[test]
    fn one_child_per_legal_turn() {
        let texts = [
            "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0",
            "........./....B..../......B../....W..../......... w 0",
            "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. b 7",
        ];
        let mut out = Vec::new();
        for text in texts {
            let pos = Position::from_setup(text.parse::<Setup>().expect("text")).expect("legal");
            children(&pos, &mut out);
            let mut want: Vec<Position> = pos
                .legal_turns()
                .iter()
                .map(|t| pos.play(t).expect("legal turn"))
                .collect();
            let mut got: Vec<Position> = out.iter().map(|c| c.pos).collect();
            let key = |p: &Position| p.to_string();
            want.sort_by_key(key);
            got.sort_by_key(key);
            assert_eq!(got, want, "{text}");
            for c in &out {
                let before = pos.board().by_color(!pos.turn()).count();
                let after = c.pos.board().by_color(!pos.turn()).count();
                assert_eq!(usize::from(c.captured), before - after);
            }
        }
    }

    #[test]
    fn the_root_writes_down_the_turn_of_each_child() {
        let mut texts = vec![
            "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0".to_string(),
            "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. b 7".to_string(),
            "....B..../........./......B../....W..../....B.... w".to_string(),
        ];
        // Along a game of first turns, and in the middle of its chains.
        let mut pos = Position::start();
        let mut chains = Vec::new();
        for _ in 0..30 {
            let Some(turn) = pos.legal_turns().into_iter().next_back() else {
                break;
            };
            if let Some(Some(step)) = turn.steps().next() {
                let mid = pos.play_step(step).expect("legal step");
                if mid.chain().is_some() {
                    chains.push(mid);
                }
            }
            pos = pos.play(&turn).expect("legal turn");
            texts.push(pos.to_string());
        }
        let mut positions: Vec<Position> = texts
            .iter()
            .map(|t| Position::from_setup(t.parse::<Setup>().expect("text")).expect("legal"))
            .collect();
        assert!(!chains.is_empty());
        positions.extend(chains);
        let (mut plain, mut out, mut turns) = (Vec::new(), Vec::new(), Vec::new());
        for pos in positions {
            children(&pos, &mut plain);
            root_children(&pos, &mut out, &mut turns);
            assert_eq!(out, plain, "{pos}");
            assert_eq!(turns.len(), out.len(), "{pos}");
            for (c, turn) in out.iter().zip(&turns) {
                let after = if turn.landings().is_empty() {
                    pos.end_turn().expect("a chain to stop")
                } else {
                    pos.play(turn).expect("a legal turn")
                };
                assert_eq!(after, c.pos, "{pos} {turn}");
                assert_eq!(turn_to(&out, &turns, &c.pos), pos.turn_to(&c.pos), "{pos}");
            }
        }
    }
}
