//! The positions a turn can lead to: the search's move list.
//!
//! The search walks whole turns, so a node's children are the positions at
//! the start of the opponent's turn, one for every legal complete turn
//! (every capture kind, every point where a chain may stop). A turn is not
//! kept: the search needs only where it leads, and the few turns shown to a
//! player are found again from the rules crate ([`crate::turn_to`]).

use fanorona::{Position, StepList};

/// One child of a node: the position after a complete turn, and how many
/// stones the turn took.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Child {
    pub(crate) pos: Position,
    pub(crate) captured: u8,
    /// A small identity of the turn for the killer and history tables:
    /// origin and final point (`from * 45 + to`).
    pub(crate) id: u16,
    /// The position of the child in generation order, which the
    /// transposition table remembers as the best child.
    pub(crate) index: u16,
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
    generate(pos, out);
    for (i, c) in out.iter_mut().enumerate() {
        c.index = i as u16;
    }
}

fn generate(pos: &Position, out: &mut Vec<Child>) {
    let them = pos.board().by_color(!pos.turn()).count();
    if pos.chain().is_some() {
        let origin = pos.chain().map_or(0, |c| c.stone().index());
        extend(pos, them, origin, origin, out);
        return;
    }
    let mut steps = StepList::new();
    pos.legal_steps_into(&mut steps);
    for step in steps {
        let next = pos.play_step_unchecked(step);
        if step.is_capture() {
            extend(&next, them, step.from().index(), step.to().index(), out);
        } else {
            push(out, next, 0, step.from().index(), step.to().index());
        }
    }
}

fn push(out: &mut Vec<Child>, pos: Position, captured: usize, from: usize, to: usize) {
    out.push(Child {
        pos,
        captured: captured as u8,
        id: (from * 45 + to) as u16,
        index: 0,
        order: 0,
    });
}

/// After a capture that landed on `to`: stop here, or go on with each
/// continuation.
fn extend(pos: &Position, them_before: usize, origin: usize, to: usize, out: &mut Vec<Child>) {
    if pos.chain().is_none() {
        // The turn ended by itself: no further capture was possible, and
        // the side to move is now the one that was captured from.
        let taken = them_before - pos.board().by_color(pos.turn()).count();
        push(out, *pos, taken, origin, to);
        return;
    }
    let taken = them_before - pos.board().by_color(!pos.turn()).count();
    if let Ok(ended) = pos.end_turn() {
        push(out, ended, taken, origin, to);
    }
    let mut steps = StepList::new();
    pos.legal_steps_into(&mut steps);
    for step in steps {
        let next = pos.play_step_unchecked(step);
        extend(&next, them_before, origin, step.to().index(), out);
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
}
