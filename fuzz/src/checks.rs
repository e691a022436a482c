//! Invariants of the position-text, turn-notation and game-record parsers,
//! checked on arbitrary bytes.
//!
//! Each check returns quietly for input the parsers reject and panics, with
//! the input in the message, when an invariant breaks. The fuzz targets
//! call them, and so does the rules crate's `fuzz_corpus` test, which
//! includes this file by path and runs every committed corpus file.
//! Nothing here may depend on more than `fanorona` and `std`.

use std::sync::OnceLock;

use fanorona::{perft, Color, Position, Record, Setup, Turn};

/// Checks a game record: a rejected one names a line of the text; a
/// parsed one writes text that reads back to the same record and writes
/// the same text again; replaying it never panics, and when it succeeds it
/// ends where its turns, played one by one from its start, end.
///
/// # Panics
///
/// When an invariant breaks.
pub fn game_record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let record = match text.parse::<Record>() {
        Ok(record) => record,
        Err(err) => {
            let lines = text.lines().count().max(1);
            assert!(
                (1..=lines).contains(&err.line),
                "{text:?}: error line {} outside the text",
                err.line
            );
            assert!(!err.to_string().is_empty(), "{text:?}: empty error text");
            return;
        }
    };
    let written = record.to_string();
    match written.parse::<Record>() {
        Ok(again) => {
            assert_eq!(again, record, "{text:?} written as {written:?}");
            assert_eq!(
                again.to_string(),
                written,
                "{text:?} writes differently twice"
            );
        }
        Err(err) => panic!("{text:?} written as {written:?} does not read: {err}"),
    }
    let Ok(end) = record.replay() else {
        return;
    };
    let mut pos = record
        .start()
        .unwrap_or_else(|e| panic!("{text:?}: replayed from {e}"));
    for turn in record.turns() {
        pos = pos
            .play(turn)
            .unwrap_or_else(|e| panic!("{text:?}: {turn} replayed, then refused: {e}"));
    }
    assert_eq!(pos, end, "{text:?}");
}

/// Positions every parsed turn is tried on: the start, an open middle
/// game, a capture chain, games over in each way, and sparse boards.
const FIXED_POSITIONS: [&str; 8] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0",
    "BBBBBBBBB/BBBBBBBBB/BWB.W.WBW/WWWWWWWWW/WWWWWWWWW b 0",
    "BB.BBB.BB/B.B.B.B.B/.W.WB.W.B/W.WW.WW.W/WWW.W.WWW w 12",
    "....B..../........./......B../....W..../....B.... w",
    "B.......B/........./....W..../........./W.......W b 49",
    "B.......B/........./....W..../........./W.......W w 50",
    "........./........./....W..../........./......... b 3",
    "........./........./........./BB......./WB....... w",
];

/// Checks position text: a `Setup` that parses writes text that parses
/// back to it; a valid `Position` from it agrees on its legal steps,
/// turns and result, and every legal turn plays.
///
/// # Panics
///
/// When an invariant breaks.
pub fn position_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let setup = match text.parse::<Setup>() {
        Ok(setup) => setup,
        Err(err) => {
            assert!(!err.to_string().is_empty(), "{text:?}: empty error text");
            return;
        }
    };
    let written = setup.to_string();
    match written.parse::<Setup>() {
        Ok(again) => assert_eq!(again, setup, "{text:?} written as {written:?}"),
        Err(err) => panic!("{text:?} written as {written:?} does not parse: {err}"),
    }
    let Ok(pos) = Position::from_setup(setup.clone()) else {
        return;
    };
    assert_eq!(pos.to_setup(), setup, "{text:?}");
    check_legal_moves(&pos);
}

/// Checks turn notation: a `Turn` that parses writes back the same text,
/// and on each of a few fixed positions it plays exactly when it is one of
/// the listed legal turns.
///
/// # Panics
///
/// When an invariant breaks.
pub fn turn_notation(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let turn = match text.parse::<Turn>() {
        Ok(turn) => turn,
        Err(err) => {
            assert!(
                (1..=text.len() + 1).contains(&err.column),
                "{text:?}: error column {} outside the text",
                err.column
            );
            assert!(!err.to_string().is_empty(), "{text:?}: empty error text");
            return;
        }
    };
    assert_eq!(turn.to_string(), text, "{text:?} does not write back");
    for (pos, legal) in fixed_positions() {
        let listed = legal.contains(&turn);
        match pos.play(&turn) {
            Ok(after) => {
                assert!(listed, "{text:?} plays on {pos} but is not listed");
                check_after_turn(pos, &turn, &after);
            }
            Err(err) => {
                assert!(!listed, "{text:?} is listed on {pos} but fails: {err}");
                assert!(!err.to_string().is_empty(), "{text:?}: empty error text");
            }
        }
    }
}

/// The fixed positions with their legal turns, computed once.
fn fixed_positions() -> &'static [(Position, Vec<Turn>)] {
    static POSITIONS: OnceLock<Vec<(Position, Vec<Turn>)>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        FIXED_POSITIONS
            .iter()
            .map(|text| {
                let setup: Setup = text.parse().expect("fixed position text parses");
                let pos = Position::from_setup(setup).expect("fixed position is valid");
                (pos, pos.legal_turns())
            })
            .collect()
    })
}

/// The legal steps, the legal turns, perft and the result agree, and every
/// listed turn plays.
fn check_legal_moves(pos: &Position) {
    let steps = pos.legal_steps();
    let outcome = pos.outcome();
    assert_eq!(
        outcome.is_some(),
        steps.is_empty(),
        "{pos}: result {outcome:?} with {} legal steps",
        steps.len()
    );
    for &step in &steps {
        assert!(pos.is_legal(step), "{pos}: listed step {step} is not legal");
    }
    let mut turns = 0u64;
    pos.for_each_turn(|turn| {
        turns += 1;
        let text = turn.to_string();
        assert_eq!(text.parse::<Turn>().as_ref(), Ok(turn), "{pos}: {text}");
        match pos.play(turn) {
            Ok(after) => check_after_turn(pos, turn, &after),
            Err(err) => panic!("{pos}: listed turn {text} does not play: {err}"),
        }
    });
    assert_eq!(turns, perft(pos, 1), "{pos}: turns listed and perft(1)");
    assert_eq!(turns == 0, outcome.is_some(), "{pos}: {turns} turns");
}

/// A played turn passes the move, keeps the mover's stones, takes enemy
/// stones exactly when it captures, keeps the counter, and leaves a
/// position whose text reads back as a valid position.
fn check_after_turn(before: &Position, turn: &Turn, after: &Position) {
    let us: Color = before.turn();
    assert_eq!(after.turn(), !us, "{before}: {turn} does not pass the move");
    assert!(
        after.chain().is_none(),
        "{before}: {turn} leaves a chain open"
    );
    let count = |pos: &Position, c| pos.board().count(c);
    assert_eq!(count(after, us), count(before, us), "{before}: {turn}");
    let (them_before, them_after) = (count(before, !us), count(after, !us));
    assert!(them_after <= them_before, "{before}: {turn} adds stones");
    assert_eq!(
        them_after < them_before,
        turn.is_capture(),
        "{before}: {turn} leaves {them_after} of {them_before} enemy stones"
    );
    let expected = if turn.is_capture() {
        0
    } else {
        before.turns_since_capture() + 1
    };
    assert_eq!(after.turns_since_capture(), expected, "{before}: {turn}");
    let text = after.to_string();
    match text.parse::<Setup>().map(Position::from_setup) {
        Ok(Ok(again)) => assert_eq!(again, *after, "{before}: {turn} gives {text}"),
        Ok(Err(err)) => panic!("{before}: {turn} gives {text}, an invalid position: {err}"),
        Err(err) => panic!("{before}: {turn} gives {text}, which does not parse: {err}"),
    }
}
