//! One test per rule of `crates/fanorona/RULES.md` (the crate's `rules`
//! page), each on a position built by hand and written as position text,
//! plus the message of every way a step or a turn can be refused.
//!
//! Position text lists row 5 first: in `"..../..../..../..../W...."` the
//! last group is row 1, `a1` to `i1`.

use crate::common;

use std::collections::BTreeSet;

use common::{pos, squares, START};
use fanorona::{
    perft, Color, Direction, EndReason, Outcome, PlayError, Position, Square, Step, StepError,
    StepKind, Turn,
};

/// Every legal complete turn, in notation, as a set.
fn turns(p: &Position) -> BTreeSet<String> {
    p.legal_turns().iter().map(Turn::to_string).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn turn(text: &str) -> Turn {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is not notation: {e}"))
}

/// Plays a turn in notation that must be legal.
fn play(p: &Position, text: &str) -> Position {
    p.play(&turn(text))
        .unwrap_or_else(|e| panic!("{text} in {p}: {e}"))
}

/// Plays a turn in notation that must be refused, and returns the message.
fn refuse(p: &Position, text: &str) -> String {
    match p.play(&turn(text)) {
        Ok(after) => panic!("{text} in {p} was accepted, giving {after}"),
        Err(e) => e.to_string(),
    }
}

fn step(from: &str, to: &str, kind: StepKind) -> Step {
    let (from, to): (Square, Square) = (from.parse().expect("square"), to.parse().expect("square"));
    Step::between(from, to, kind).expect("a line joins the points")
}

/// The stones of `color` that `after` no longer has compared with `before`.
fn taken(before: &Position, after: &Position, color: Color) -> fanorona::Bitboard {
    before.board().by_color(color) - after.board().by_color(color)
}

// Rule: one step that is both an approach and a withdrawal captures one of
// the two lines, the player's choice; never both. They are two steps.
#[test]
fn a_step_that_captures_both_ways_is_two_steps_each_taking_its_own_line() {
    // White e3 between black c3-d3 (west) and g3-h3 (east, beyond f3).
    let p = pos("........./........./..BBW.BB./........./......... w");
    let steps: BTreeSet<String> = p.legal_steps().iter().map(Step::to_string).collect();
    assert_eq!(steps, set(&["e3-f3A", "e3-f3W"]));
    assert_eq!(turns(&p), set(&["e3-f3A", "e3-f3W"]));

    let approach = play(&p, "e3-f3A");
    assert_eq!(taken(&p, &approach, Color::Black), squares(&["g3", "h3"]));
    assert_eq!(
        approach.to_string(),
        "........./........./..BB.W.../........./......... b 0"
    );
    let withdrawal = play(&p, "e3-f3W");
    assert_eq!(taken(&p, &withdrawal, Color::Black), squares(&["c3", "d3"]));
    assert_eq!(
        withdrawal.to_string(),
        "........./........./.....WBB./........./......... b 0"
    );
    assert_eq!(
        p.captures(step("e3", "f3", StepKind::Approach)),
        squares(&["g3", "h3"])
    );
    assert_eq!(
        p.captures(step("e3", "f3", StepKind::Withdrawal)),
        squares(&["c3", "d3"])
    );
}

// Rule: the captured line runs up to the first empty point, own stone or
// edge. Here: an empty point.
#[test]
fn a_captured_line_stops_at_an_empty_point() {
    let p = pos("........./........./........./........./W.BB.B... w");
    let after = play(&p, "a1-b1A");
    assert_eq!(taken(&p, &after, Color::Black), squares(&["c1", "d1"]));
    assert_eq!(after.board().stone_at(Square::F1), Some(Color::Black));
}

// Rule: the captured line stops at the capturing side's own stone.
#[test]
fn a_captured_line_stops_at_an_own_stone() {
    let p = pos("........./........./........./........./W.BBWB... w");
    let after = play(&p, "a1-b1A");
    assert_eq!(taken(&p, &after, Color::Black), squares(&["c1", "d1"]));
    assert_eq!(after.board().stone_at(Square::F1), Some(Color::Black));
    assert_eq!(after.board().stone_at(Square::E1), Some(Color::White));
}

// Rule: the captured line stops at the edge of the board, for approach and
// withdrawal, along ranks and diagonals.
#[test]
fn a_captured_line_stops_at_the_edge() {
    let p = pos("........./........./........./........./W.BBBBBBB w");
    let after = play(&p, "a1-b1A");
    assert_eq!(
        taken(&p, &after, Color::Black),
        squares(&["c1", "d1", "e1", "f1", "g1", "h1", "i1"])
    );

    let p = pos("........./........./........./........./BBW...... w");
    let after = play(&p, "c1-d1W");
    assert_eq!(taken(&p, &after, Color::Black), squares(&["a1", "b1"]));

    // a1-b2 towards the diagonal c3-d4-e5, which ends at the top edge.
    let p = pos("....B..../...B...../..B....../........./W........ w");
    let after = play(&p, "a1-b2A");
    assert_eq!(
        taken(&p, &after, Color::Black),
        squares(&["c3", "d4", "e5"])
    );
}

// Rule: within one turn the stone may not step in the same direction twice
// in a row.
#[test]
fn a_chain_never_steps_the_same_direction_twice_in_a_row() {
    // e2-e3W takes e1; from e3 a second step north would take e5 by
    // approach, but north was the last direction. e3-f3A (g3) stays open.
    let p = pos("....B..../........./......B../....W..../....B.... w");
    assert_eq!(turns(&p), set(&["e2-e3W", "e2-e3W-f3A"]));

    let mid = p
        .play_step(step("e2", "e3", StepKind::Withdrawal))
        .expect("legal");
    let chain = mid.chain().expect("e3-f3A is still possible");
    assert_eq!(chain.last_direction(), Direction::North);
    let north = step("e3", "e4", StepKind::Approach);
    assert_eq!(mid.captures(north), squares(&["e5"]), "it would capture");
    assert!(!mid.is_legal(north));
    assert_eq!(
        refuse(&p, "e2-e3W-e4A"),
        "e3-e4A repeats the previous direction"
    );
}

// Rule: the stone may not land on the point it started from.
#[test]
fn a_chain_never_returns_to_its_start_point() {
    // c1-d1A takes e1; d1-c1A would take b1 but lands on c1, the start.
    let p = pos("........./........./...B...../........./.BW.B.... w");
    let mid = p
        .play_step(step("c1", "d1", StepKind::Approach))
        .expect("legal");
    assert!(mid.chain().is_some(), "d1-d2A is still possible");
    let back = step("d1", "c1", StepKind::Approach);
    assert_eq!(mid.captures(back), squares(&["b1"]), "it would capture");
    assert!(!mid.is_legal(back));
    assert_eq!(
        refuse(&p, "c1-d1A-c1A"),
        "d1-c1A returns to a point the stone already occupied this turn"
    );
    assert!(
        turns(&p).iter().all(|t| !t.contains("d1A-c1")),
        "{:?}",
        turns(&p)
    );
    assert!(turns(&p).contains("c1-d1A-d2A"));
}

// Rule: the stone may not land on any point it occupied earlier this turn.
#[test]
fn a_chain_never_returns_to_an_earlier_point() {
    // e2-e3A (e4), e3-f3A (g3), f3-f2A (f1); then f2-e3A would take d4, but
    // e3 was occupied earlier this turn. f2-g2A (h2) keeps the chain open.
    let p = pos("........./...BB..../......B../....W..B./.....B... w");
    let mut mid = p;
    for (from, to) in [("e2", "e3"), ("e3", "f3"), ("f3", "f2")] {
        mid = mid
            .play_step(step(from, to, StepKind::Approach))
            .expect("legal");
    }
    let chain = *mid.chain().expect("f2-g2A is still possible");
    assert_eq!(chain.visited(), squares(&["e2", "e3", "f3", "f2"]));
    let back = step("f2", "e3", StepKind::Approach);
    assert_eq!(mid.captures(back), squares(&["d4"]), "it would capture");
    assert_eq!(
        mid.check_step(Square::F2, Square::E3, StepKind::Approach),
        Err(PlayError::IllegalStep {
            from: Square::F2,
            to: Square::E3,
            kind: StepKind::Approach,
            reason: StepError::RevisitsPoint,
        })
    );
    assert_eq!(
        refuse(&p, "e2-e3A-f3A-f2A-e3A"),
        "f2-e3A returns to a point the stone already occupied this turn"
    );
    assert_eq!(
        turns(&p),
        set(&[
            "e2-e3A",
            "e2-e3A-f2W",
            // From f2 after taking d4: g3 by withdrawal, then f1.
            "e2-e3A-f2W-e1W",
            "e2-e3A-f2W-e1W-d1W",
            "e2-e3A-f2W-f3W",
            "e2-e3A-f2W-g2A",
            "e2-e3A-f2W-g2A-g1W",
            "e2-e3A-f2W-g2A-g1W-h1W",
            "e2-e3A-f3A",
            "e2-e3A-f3A-f2A",
            "e2-e3A-f3A-f2A-g2A",
        ])
    );
}

// Rule: the player may stop after any capture, and only after a capture.
#[test]
fn the_turn_may_end_after_any_capture_and_only_then() {
    let p = pos("........./...BB..../......B../....W..B./.....B... w");
    assert!(!p.can_end_turn());
    assert_eq!(p.end_turn(), Err(PlayError::CannotEndTurn));

    let mid = p
        .play_step(step("e2", "e3", StepKind::Approach))
        .expect("legal");
    assert!(mid.can_end_turn());
    let ended = mid.end_turn().expect("a capture was made");
    assert_eq!(ended.turn(), Color::Black);
    assert!(ended.chain().is_none());
    assert_eq!(
        ended.to_string(),
        "........./...B...../....W.B../.......B./.....B... b 0"
    );
    assert_eq!(ended, play(&p, "e2-e3A"));

    // Every prefix of a capture turn that made a capture is a turn too.
    let all = turns(&p);
    for t in &all {
        let parts: Vec<&str> = t.split('-').collect();
        for n in 2..parts.len() {
            let prefix = parts[..n].join("-");
            assert!(all.contains(&prefix), "{t} is listed but {prefix} is not");
        }
    }

    // After a paika the turn is over: there is nothing to end.
    let quiet = pos("........B/........./........./........./W........ w");
    let after = play(&quiet, "a1-a2");
    assert_eq!(after.end_turn(), Err(PlayError::CannotEndTurn));
    assert_eq!(
        PlayError::CannotEndTurn.to_string(),
        "the turn can only be ended after a capture"
    );
    assert_eq!(
        quiet.play(&Turn::new(Square::A1)),
        Err(PlayError::CannotEndTurn)
    );
}

// Rule: the turn ends by itself when no further capture exists.
#[test]
fn the_turn_ends_by_itself_when_no_capture_follows() {
    let p = pos("........./........./..BBW.BB./........./......... w");
    let after = p
        .play_step(step("e3", "f3", StepKind::Approach))
        .expect("legal");
    assert!(after.chain().is_none());
    assert!(!after.can_end_turn());
    assert_eq!(after.turn(), Color::Black);
    assert_eq!(after, play(&p, "e3-f3A"));
    assert_eq!(
        refuse(&p, "e3-f3A-e3W"),
        "the turn is already over at f3: no further capture was possible"
    );
    assert_eq!(
        p.play(&turn("e3-f3A-f4A")),
        Err(PlayError::TurnAlreadyOver { at: Square::F3 })
    );
}

// Rule: a paika is legal only when the side to move has no capture anywhere
// on the board, even when the capture belongs to another stone.
#[test]
fn a_paika_is_refused_while_any_stone_can_capture() {
    // Only e3 can capture (e3-f3A takes g3); a1 has three free neighbours.
    let p = pos("........./........./....W.B../........./W........ w");
    assert!(p.has_capture());
    assert_eq!(turns(&p), set(&["e3-f3A"]));
    for paika in ["a1-b1", "a1-a2", "a1-b2", "e3-e4"] {
        let err = p.play(&turn(paika)).expect_err(paika);
        assert_eq!(err.code(), "capture_required");
        assert_eq!(
            err.to_string(),
            "a capture is available, so a paika move is not allowed"
        );
    }

    // Without the black stone in reach, every paika is listed.
    let quiet = pos("........B/........./....W..../........./W........ w");
    assert!(!quiet.has_capture());
    assert_eq!(quiet.legal_steps().len(), 3 + 8);
    assert!(quiet.legal_steps().iter().all(|s| !s.is_capture()));
}

// Rule: weak points (file + rank odd) have only horizontal and vertical
// lines: no diagonal step, paika or capture, leaves them.
#[test]
fn weak_points_have_no_diagonal_steps() {
    // White d3 is weak. Black f5 would be taken by approach along d3-e4 and
    // black c2 by withdrawal along d3-e4, if that line existed.
    let p = pos(".....B.../........./...W...../..B....../......... w");
    assert!(!p.has_capture());
    assert_eq!(turns(&p), set(&["d3-c3", "d3-d2", "d3-d4", "d3-e3"]));
    assert_eq!(refuse(&p, "d3-e4A"), "d3-e4A: no line joins d3 and e4");
    assert_eq!(refuse(&p, "d3-e4W"), "d3-e4W: no line joins d3 and e4");
    assert_eq!(refuse(&p, "d3-c4"), "d3-c4: no line joins d3 and c4");

    // The same stone on the strong point e3 has all eight.
    let strong = pos(".....B.../........./....W..../..B....../......... w");
    assert!(!strong.has_capture());
    assert_eq!(strong.legal_steps().len(), 8);
}

// Rule: capturing is compulsory only for the first step; going on is
// optional, and a paika never follows a capture.
#[test]
fn capture_is_compulsory_only_for_the_first_step() {
    let p = pos("........./...BB..../......B../....W..B./.....B... w");
    // The first step must capture: no paika of e2 is listed.
    assert!(turns(&p)
        .iter()
        .all(|t| t.ends_with('A') || t.ends_with('W')));
    // Stopping after the first capture is listed though more can follow.
    assert!(turns(&p).contains("e2-e3A"));
    assert!(turns(&p).contains("e2-e3A-f3A"));

    let mid = play_steps(&p, &[("e2", "e3", StepKind::Approach)]);
    assert!(mid.legal_steps().iter().all(|s| s.is_capture()));
    let err = mid.play(&turn("e3-d3")).expect_err("paika after a capture");
    assert_eq!(err.code(), "only_captures_continue");
    assert_eq!(
        err.to_string(),
        "e3-d3 does not capture: after a capture only captures may follow"
    );
}

fn play_steps(p: &Position, steps: &[(&str, &str, StepKind)]) -> Position {
    steps.iter().fold(*p, |p, &(from, to, kind)| {
        p.play_step(step(from, to, kind))
            .unwrap_or_else(|e| panic!("{from}-{to} in {p}: {e}"))
    })
}

// Rule: 50 turns in a row without a capture is a draw; the counter counts
// whole turns and resets on every capturing turn.
#[test]
fn fifty_turns_without_capture_is_a_draw() {
    let p = pos("........B/........./........./........./W........ w 48");
    let p49 = play(&p, "a1-a2");
    assert_eq!(p49.turns_since_capture(), 49);
    assert_eq!(p49.outcome(), None);
    let p50 = play(&p49, "i5-i4");
    assert_eq!(p50.turns_since_capture(), 50);
    let draw = Outcome {
        winner: None,
        reason: EndReason::FiftyTurns,
    };
    assert_eq!(p50.outcome(), Some(draw));
    assert!(p50.legal_steps().is_empty());
    assert!(p50.legal_turns().is_empty());
    assert_eq!(
        refuse(&p50, "a2-a3"),
        "the game is over (draw: fifty turns without a capture)"
    );
    assert_eq!(perft(&p, 1), 3);
    assert_eq!(perft(&p, 2), 3 * 3);
    assert_eq!(perft(&p, 3), 0);

    // A capture at 49 resets the counter to 0.
    let p = pos("........B/........./........./........./..WB..... w 49");
    let after = play(&p, "c1-b1W");
    assert_eq!(after.turns_since_capture(), 0);
    let after = play(&after, "i5-i4");
    assert_eq!(after.turns_since_capture(), 1);

    // At 50 the game is drawn even though a capture is on the board.
    let p = pos("........B/........./........./........./..WB..... w 50");
    assert_eq!(p.outcome(), Some(draw));
    assert!(p.legal_steps().is_empty());
    assert!(p.has_capture());
}

// Rule: a player with no stones left has lost.
#[test]
fn a_side_with_no_stones_has_lost() {
    let p = pos("........./........./....W..../........./......... b");
    let outcome = p.outcome().expect("black has no stones");
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.reason, EndReason::NoStones);
    assert!(p.legal_steps().is_empty());
    assert!(p.legal_turns().is_empty());

    // Reached by play: a1-b1A takes the whole black row.
    let p = pos("........./........./........./........./W.BBBBBBB w");
    let after = play(&p, "a1-b1A");
    assert_eq!(after.board().count(Color::Black), 0);
    assert_eq!(after.outcome(), Some(outcome));
    assert_eq!(outcome.to_string(), "white wins: black has no stones left");
}

// Rule: a player to move who has stones but no legal step has lost.
#[test]
fn a_side_with_no_legal_step_has_lost() {
    // White a1 and a2 are walled in by black b1, b2 and a3: every
    // neighbour is occupied and nothing can be captured.
    let p = pos("........./........./B......../WB......./WB....... w");
    assert!(!p.has_capture());
    let outcome = p.outcome().expect("white is blocked");
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.reason, EndReason::NoLegalStep);
    assert_eq!(outcome.to_string(), "black wins: white has no legal move");
    assert!(p.legal_steps().is_empty());
    assert!(p.legal_turns().is_empty());
    assert_eq!(perft(&p, 1), 0);
    assert_eq!(
        refuse(&p, "a1-b2"),
        "the game is over (black wins: white has no legal move)"
    );

    // Black, with free points, is not blocked.
    let black = pos("........./........./B......../WB......./WB....... b");
    assert_eq!(black.outcome(), None);
}

// Rule: the opening captures. d3-e3A takes f3 only (g3 is white); d3-e3W
// takes c3 only (b3 behind it is white).
#[test]
fn opening_captures_take_the_right_stones() {
    let p = pos(START);
    assert_eq!(p, Position::start());
    assert_eq!(
        turns(&p),
        set(&["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"])
    );
    let expected = [
        ("d3-e3A", &["f3"][..]),
        ("d3-e3W", &["c3"][..]),
        ("e2-e3A", &["e4", "e5"][..]),
        ("d2-e3A", &["f4", "g5"][..]),
        ("f2-e3A", &["d4", "c5"][..]),
    ];
    for (text, stones) in expected {
        let after = play(&p, text);
        assert_eq!(taken(&p, &after, Color::Black), squares(stones), "{text}");
        assert_eq!(taken(&p, &after, Color::White).count(), 1, "{text}");
        assert_eq!(after.turn(), Color::Black);
    }
    assert_eq!(
        play(&p, "d3-e3A").to_string(),
        "BBBBBBBBB/BBBBBBBBB/BWB.W.WBW/WWWWWWWWW/WWWWWWWWW b 0"
    );
    assert_eq!(
        play(&p, "d3-e3W").to_string(),
        "BBBBBBBBB/BBBBBBBBB/BW..WBWBW/WWWWWWWWW/WWWWWWWWW b 0"
    );
}

// Every reason a step or turn is refused, through Position::play with
// notation, with its message and code.
#[test]
fn every_refusal_has_its_message() {
    let start = Position::start();
    let cases = [
        ("e3-f4A", "e3-f4A: there is no stone on e3", "no_stone"),
        (
            "e4-e3A",
            "e4-e3A: the stone on e4 is not yours",
            "not_your_stone",
        ),
        ("d3-f3A", "d3-f3A: no line joins d3 and f3", "not_on_a_line"),
        ("d3-e4A", "d3-e4A: no line joins d3 and e4", "not_on_a_line"),
        ("d3-d4A", "d3-d4A: d4 is not empty", "occupied"),
        (
            "d3-e3",
            "a capture is available, so a paika move is not allowed",
            "capture_required",
        ),
        (
            "d2-e3W",
            "d2-e3W captures nothing by withdrawal",
            "not_a_capture",
        ),
        (
            "e2-e3W",
            "e2-e3W captures nothing by withdrawal",
            "not_a_capture",
        ),
    ];
    for (text, message, code) in cases {
        let err = start.play(&turn(text)).expect_err(text);
        assert_eq!(err.to_string(), message, "{text}");
        assert_eq!(err.code(), code, "{text}");
    }

    // A capture chain is open at e3 after e2-e3A.
    let p = pos("........./...BB..../......B../....W..B./.....B... w");
    let mid = play_steps(&p, &[("e2", "e3", StepKind::Approach)]);
    let err = mid.play(&turn("h2-g2A")).expect_err("another stone");
    assert_eq!(
        err.to_string(),
        "h2-g2A: only the stone that captured may continue this turn"
    );
    assert_eq!(err.code(), "not_the_moving_stone");
    let err = mid.play(&turn("e3-d3")).expect_err("paika after capture");
    assert_eq!(err.code(), "only_captures_continue");
    assert_eq!(
        mid.play(&turn("e3-e2A")).map_err(|e| e.code()),
        Err("revisits_point")
    );
    assert_eq!(
        mid.play(&turn("e3-d3A")).map_err(|e| e.to_string()),
        Err("e3-d3A captures nothing by approach".to_string())
    );

    let p = pos("....B..../........./......B../....W..../....B.... w");
    let err = p.play(&turn("e2-e3W-e4A")).expect_err("repeats");
    assert_eq!(err.to_string(), "e3-e4A repeats the previous direction");
    assert_eq!(err.code(), "repeats_direction");

    let p = pos("........./........./..BBW.BB./........./......... w");
    let err = p.play(&turn("e3-f3A-e3W")).expect_err("over");
    assert_eq!(err.code(), "turn_already_over");

    let over = pos("........./........./....W..../........./......... b");
    let err = over.play(&turn("e3-e4")).expect_err("game over");
    assert_eq!(
        err.to_string(),
        "the game is over (white wins: black has no stones left)"
    );
    assert_eq!(err.code(), "game_over");

    // A refused turn leaves the position as it was: play takes &self and
    // the position is Copy, so check the value is unchanged all the same.
    assert_eq!(start, Position::start());
}

// Position text that parses but is not a legal position is refused with
// the reason.
#[test]
fn position_text_is_validated() {
    let cases = [
        (
            "BBBBBBBBB/BBBBBBBBB/BWBWWBWBW/WWWWWWWWW/WWWWWWWWW w",
            "white has 23 stones, at most 22 allowed",
        ),
        (
            "........./........./....W..../........./......... w",
            "black has no stones, so it cannot have made the last move",
        ),
        (
            "........B/........./........./........./W........ w 51",
            "51 turns since the last capture, at most 50 allowed",
        ),
    ];
    for (text, message) in cases {
        let setup: fanorona::Setup = text.parse().expect("syntax is fine");
        let err = Position::from_setup(setup).expect_err(text);
        assert_eq!(err.to_string(), message);
    }
    assert_eq!(
        pos("........B/........./........./........./W........ w").turns_since_capture(),
        0,
        "a missing counter means 0"
    );
}
