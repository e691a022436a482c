//! Properties of legal steps and turns over positions reached by random
//! play, from the start and from random sparse setups, sometimes in the
//! middle of a capture chain.

use crate::common;

use std::collections::HashSet;

use common::{random_actions, random_sparse, Rng};
use fanorona::{
    perft, perft_steps, Bitboard, Direction, PlayError, Position, Record, Score, Setup, Square,
    Step, StepKind, Turn,
};
use proptest::prelude::*;

/// A position reached by `plies` random actions (steps or ending a turn)
/// from the start, or from a random sparse setup.
fn position() -> impl Strategy<Value = Position> {
    let from_start = (any::<u64>(), 0usize..200)
        .prop_map(|(seed, plies)| random_actions(Position::start(), &mut Rng::new(seed), plies));
    let from_sparse = (any::<u64>(), 1u64..10, 0usize..40).prop_map(|(seed, density, plies)| {
        let mut rng = Rng::new(seed);
        let start = (0..100)
            .find_map(|_| random_sparse(&mut rng, density))
            .unwrap_or_else(Position::start);
        random_actions(start, &mut rng, plies)
    });
    prop_oneof![from_start, from_sparse]
}

/// A game of random complete turns from a position of [`position`] (its
/// chain ended, as a record starts between turns): its start, its turns
/// and where they lead.
fn game() -> impl Strategy<Value = (Position, Vec<Turn>, Position)> {
    (position(), any::<u64>(), 0usize..120).prop_map(|(start, seed, length)| {
        let start = start.end_turn().unwrap_or(start);
        let mut rng = Rng::new(seed);
        let (mut pos, mut turns) = (start, Vec::new());
        for _ in 0..length {
            let legal = pos.legal_turns();
            if legal.is_empty() {
                break;
            }
            let turn = legal[rng.below(legal.len())].clone();
            pos = pos.play(&turn).expect("a listed turn is legal");
            turns.push(turn);
        }
        (start, turns, pos)
    })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

/// The steps of a turn, which must all be on lines.
fn steps(turn: &Turn) -> Vec<Step> {
    turn.steps()
        .map(|s| s.unwrap_or_else(|| panic!("{turn}: consecutive points not on a line")))
        .collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_turn_prints_and_parses_back(pos in position()) {
        for turn in pos.legal_turns() {
            let text = turn.to_string();
            prop_assert_eq!(text.parse::<Turn>(), Ok(turn), "{}", text);
        }
    }

    #[test]
    fn playing_a_turn_takes_exactly_what_its_steps_capture(pos in position()) {
        let us = pos.turn();
        for turn in pos.legal_turns() {
            let after = pos.play(&turn);
            prop_assert!(after.is_ok(), "{} in {}: {:?}", turn, pos, after);
            let after = after.expect("checked");

            // Replay step by step, adding up what each step says it takes.
            let mut cur = pos;
            let mut taken = Bitboard::EMPTY;
            for step in steps(&turn) {
                let captures = cur.captures(step);
                prop_assert_eq!(captures.is_empty(), !step.is_capture(), "{} in {}", step, cur);
                prop_assert!((taken & captures).is_empty());
                taken |= captures;
                cur = cur.play_step(step).expect("each step of a listed turn is legal");
            }
            if cur.chain().is_some() {
                cur = cur.end_turn().expect("a chain is open");
            }
            prop_assert_eq!(cur, after, "{} in {}", turn, pos);

            let (before_us, before_them) = (pos.board().by_color(us), pos.board().by_color(!us));
            let (after_us, after_them) = (after.board().by_color(us), after.board().by_color(!us));
            prop_assert_eq!(before_them - after_them, taken, "{} in {}", turn, pos);
            prop_assert_eq!(after_them - before_them, Bitboard::EMPTY);
            // Only the moving stone moved: it left the origin for the last point.
            let expected_us = before_us
                .without(turn.origin())
                .with(turn.last_square());
            prop_assert_eq!(after_us, expected_us, "{} in {}", turn, pos);
            prop_assert_eq!(after.turn(), !us);
            let counter = if turn.is_capture() { 0 } else { pos.turns_since_capture() + 1 };
            prop_assert_eq!(after.turns_since_capture(), counter);
        }
    }

    #[test]
    fn no_turn_revisits_a_point_or_repeats_a_direction(pos in position()) {
        for turn in pos.legal_turns() {
            let mut seen: HashSet<Square> = pos
                .chain()
                .map_or(Bitboard::EMPTY, |c| c.visited())
                .into_iter()
                .collect();
            seen.insert(turn.origin());
            let mut last: Option<Direction> = pos.chain().map(|c| c.last_direction());
            for step in steps(&turn) {
                prop_assert!(seen.insert(step.to()), "{} revisits {} in {}", turn, step.to(), pos);
                prop_assert_ne!(Some(step.direction()), last, "{} in {}", turn, pos);
                last = Some(step.direction());
            }
        }
    }

    #[test]
    fn a_paika_is_listed_if_and_only_if_no_capture_exists(pos in position()) {
        let turns = pos.legal_turns();
        let paikas = turns.iter().filter(|t| !t.is_capture()).count();
        if pos.is_game_over() {
            prop_assert!(turns.is_empty());
        } else if pos.chain().is_some() {
            prop_assert_eq!(paikas, 0);
            prop_assert!(!turns.is_empty(), "an open chain has a continuation");
        } else if pos.has_capture() {
            prop_assert_eq!(paikas, 0, "{}", pos);
            prop_assert!(!turns.is_empty());
        } else {
            prop_assert!(paikas > 0, "{}", pos);
            prop_assert_eq!(paikas, turns.len(), "{}", pos);
        }
    }

    #[test]
    fn legal_steps_are_exactly_the_steps_that_pass_is_legal(pos in position()) {
        let legal = pos.legal_steps();
        let listed: HashSet<Step> = legal.iter().copied().collect();
        prop_assert_eq!(listed.len(), legal.len(), "a step is listed twice");
        let kinds = [StepKind::Paika, StepKind::Approach, StepKind::Withdrawal];
        for from in Square::all() {
            for dir in Direction::ALL {
                for kind in kinds {
                    let Some(step) = Step::new(from, dir, kind) else { continue };
                    let checked = pos.check_step(from, step.to(), kind);
                    if listed.contains(&step) {
                        prop_assert!(pos.is_legal(step), "{} in {}", step, pos);
                        prop_assert_eq!(checked, Ok(step));
                    } else {
                        prop_assert!(!pos.is_legal(step), "{} in {}", step, pos);
                        let refused = matches!(
                            checked,
                            Err(PlayError::IllegalStep { .. } | PlayError::GameOver(_))
                        );
                        prop_assert!(refused, "{} in {}: {:?}", step, pos, checked);
                        prop_assert!(pos.play_step(step).is_err());
                    }
                }
            }
        }
    }

    #[test]
    fn perft_counts_the_listed_turns_and_steps(pos in position()) {
        let turns = pos.legal_turns();
        let end = u64::from(pos.can_end_turn());
        // With a chain open, perft also counts ending the turn at once.
        prop_assert_eq!(perft(&pos, 1), turns.len() as u64 + end, "{}", pos);
        prop_assert_eq!(perft_steps(&pos, 1), pos.legal_steps().len() as u64 + end);
        let mut two: u64 = turns
            .iter()
            .map(|t| perft(&pos.play(t).expect("listed"), 1))
            .sum();
        if let Ok(ended) = pos.end_turn() {
            two += perft(&ended, 1);
        }
        prop_assert_eq!(perft(&pos, 2), two, "{}", pos);
    }

    #[test]
    fn position_text_round_trips(pos in position()) {
        let text = pos.to_string();
        let setup: Setup = text.parse().expect("printed text parses");
        prop_assert_eq!(setup.to_string(), text.clone());
        let back = Position::from_setup(setup).expect("a reached position is legal");
        prop_assert!(back.chain().is_none());
        if pos.chain().is_none() {
            prop_assert_eq!(back, pos, "{}", text);
        } else {
            prop_assert_eq!(back.board(), pos.board());
            prop_assert_eq!(back.turn(), pos.turn());
        }
    }

    #[test]
    fn a_written_record_reads_back_and_replays_to_the_same_position(
        (start, turns, end) in game(),
        note in "[^\\p{Cc}]{0,40}",
    ) {
        let mut record = Record::new();
        record.set_tag("Note", &note).expect("no control character");
        record.set_start(&start);
        for turn in &turns {
            record.push(turn.clone());
        }
        record.set_score(end.outcome().map_or(Score::Unfinished, Score::of_outcome));
        let text = record.to_string();
        let back: Record = text.parse().expect("a written record reads back");
        prop_assert_eq!(&back, &record);
        prop_assert_eq!(back.turns(), &turns[..]);
        prop_assert_eq!(back.tag("Note"), Some(note.as_str()));
        prop_assert_eq!(back.to_string(), text.clone());
        prop_assert_eq!(back.start(), Ok(start));
        prop_assert_eq!(back.replay(), Ok(end), "{}", text);
    }
}
