//! The record shown in `RULES.md` is one the crate reads and replays.

use fanorona::{Record, Score};

/// The first `text` block after the heading `## Records`.
fn record_example() -> String {
    let rules = include_str!("../../RULES.md");
    let section = rules
        .split_once("## Records")
        .map(|(_, rest)| rest)
        .expect("RULES.md has a Records section");
    let block = section
        .split_once("```text\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(block, _)| block)
        .expect("the Records section shows a record");
    block.to_owned()
}

#[test]
fn the_documented_record_reads_back_and_replays() {
    let text = record_example();
    let record: Record = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(
        record.to_string(),
        text,
        "the example is written as the crate writes it"
    );
    assert_eq!(record.score(), Some(Score::BlackWins));
    assert_eq!(record.turns().len(), 3);
    let end = record.replay().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(end.outcome(), None);
}
