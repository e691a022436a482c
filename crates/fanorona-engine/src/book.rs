//! The opening book: level 6's turns in the first positions of a game,
//! each chosen by a search far longer than a level's (`book/make.sh`
//! made `book/book.txt`, the first three turns, `book/turn-4.txt`, the
//! fourth, and `book/turn-5.txt`, the fifth after the book's third;
//! `docs/ENGINE.md`, "The opening book", says with what and at what
//! cost).
//!
//! The book is text, one position a line: the position, the turn, then
//! the search's score and depth, separated by tabs. Lines that start with
//! `#` are comments. It is read once, the first time a level asks; a line
//! that does not parse, or whose turn is not legal in its position, is
//! left out (the tests check that none is).

use std::{collections::HashMap, sync::OnceLock, time::Duration};

use fanorona::{Position, Setup, Turn};

use crate::{score::Score, search::Info, SearchResult};

/// The book the engine plays from, in parts, each with the command that
/// made it in its header.
const PARTS: [&str; 3] = [
    include_str!("../book/book.txt"),
    include_str!("../book/turn-4.txt"),
    include_str!("../book/turn-5.txt"),
];

/// One position of the book and the turn to play there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The position.
    pub(crate) pos: Position,
    /// The turn the book plays.
    pub(crate) turn: Turn,
    /// The position after the turn.
    pub(crate) after: Position,
    /// The search's score for the side to move.
    pub(crate) score: Score,
    /// The depth the search completed, in turns.
    pub(crate) depth: u32,
}

/// Reads one line of a book (not a comment).
pub(crate) fn parse_line(line: &str) -> Result<Entry, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [position, turn, score, depth] = fields[..] else {
        return Err(format!(
            "expected 4 fields separated by tabs, found {}",
            fields.len()
        ));
    };
    let setup: Setup = position
        .parse()
        .map_err(|e| format!("position {position:?}: {e}"))?;
    let pos = Position::from_setup(setup).map_err(|e| format!("position {position:?}: {e}"))?;
    let turn: Turn = turn.parse().map_err(|e| format!("turn {turn:?}: {e}"))?;
    let after = pos
        .play(&turn)
        .map_err(|e| format!("turn {turn} in {position:?}: {e}"))?;
    let score = parse_score(score).ok_or_else(|| format!("score {score:?}"))?;
    let depth = depth
        .parse()
        .map_err(|_| format!("depth {depth:?}: expected a number of turns"))?;
    Ok(Entry {
        pos,
        turn,
        after,
        score,
        depth,
    })
}

/// A score as [`Score`] displays it: `cp N`, `win N`, `loss N`, `won` or
/// `lost`.
fn parse_score(text: &str) -> Option<Score> {
    let mut words = text.split(' ');
    let score = match (words.next()?, words.next()) {
        ("cp", Some(n)) => Score::Value(n.parse().ok()?),
        ("win", Some(n)) => Score::Win(n.parse().ok()?),
        ("loss", Some(n)) => Score::Loss(n.parse().ok()?),
        ("won", None) => Score::Won,
        ("lost", None) => Score::Lost,
        _ => return None,
    };
    words.next().is_none().then_some(score)
}

/// Reads a whole book: each entry, or for each line that is not one, its
/// number (from 1) and what is wrong with it.
pub(crate) fn parse(text: &str) -> Vec<Result<Entry, (usize, String)>> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| parse_line(line).map_err(|e| (i + 1, e)))
        .collect()
}

/// The entries of the engine's book, by position.
fn entries() -> &'static HashMap<Position, Entry> {
    static BOOK: OnceLock<HashMap<Position, Entry>> = OnceLock::new();
    BOOK.get_or_init(|| {
        PARTS
            .iter()
            .flat_map(|text| parse(text))
            .filter_map(Result::ok)
            .map(|e| (e.pos, e))
            .collect()
    })
}

/// The book's entry for `pos`, if it has one.
pub(crate) fn lookup(pos: &Position) -> Option<&'static Entry> {
    entries().get(pos)
}

/// The book's turn for `pos` as a search result: no nodes searched, the
/// depth and score of the search that made the book.
pub(crate) fn result(pos: &Position) -> Option<SearchResult> {
    let e = lookup(pos)?;
    Some(SearchResult {
        best: Some(e.turn.clone()),
        after: Some(e.after),
        info: Info {
            depth: e.depth,
            seldepth: e.depth,
            score: e.score,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![e.turn.clone()],
        },
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_line_of_the_book_is_a_legal_turn_of_its_position() {
        let mut lines = 0;
        for text in PARTS {
            let part = parse(text);
            let bad: Vec<_> = part.iter().filter_map(|l| l.as_ref().err()).collect();
            assert!(bad.is_empty(), "{bad:?}");
            lines += part.len();
        }
        // Each position once, in one part only.
        assert_eq!(entries().len(), lines);
    }

    #[test]
    fn the_book_covers_the_first_four_turns_and_the_fifth_after_its_third() {
        // The start, every position after White's first turn, every
        // position after Black's reply, and every position after White's
        // second turn.
        let mut levels = vec![vec![Position::start()]];
        for n in 0..3 {
            let next = levels[n]
                .iter()
                .flat_map(|pos| {
                    pos.legal_turns()
                        .into_iter()
                        .map(|turn| pos.play(&turn).expect("legal"))
                })
                .collect();
            levels.push(next);
        }
        // Then, after each position of two turns, the book's turn (White's
        // second) and every reply to it: where White plays its third.
        let fifth: HashSet<Position> = levels[2]
            .iter()
            .flat_map(|pos| {
                let after = lookup(pos).expect("the book's third turn").after;
                after
                    .legal_turns()
                    .into_iter()
                    .map(move |turn| after.play(&turn).expect("legal"))
            })
            .collect();
        let mut reached: HashSet<Position> = levels.iter().flatten().copied().collect();
        let first_four = reached.len();
        reached.extend(&fifth);
        for pos in &reached {
            assert!(lookup(pos).is_some(), "{pos:?}");
        }
        // Those and no others.
        assert_eq!(reached.len(), entries().len());
        assert_eq!(first_four, 1 + 5 + 39 + 724);
        assert_eq!(fifth.len(), 701);
    }

    #[test]
    fn a_book_line_that_is_wrong_is_refused_with_its_reason() {
        let start = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0";
        assert!(parse_line(&format!("{start}\tf2-e3A\tcp 35\t14")).is_ok());
        for (line, why) in [
            (format!("{start}\tf2-e3A\tcp 35"), "4 fields"),
            (format!("{start}\ta1-a2\tcp 35\t14"), "turn"),
            (format!("{start}\tf2-e3A\tcp x\t14"), "score"),
            (format!("{start}\tf2-e3A\tcp 35 1\t14"), "score"),
            (format!("{start}\tf2-e3A\tcp 35\tdeep"), "depth"),
            ("BBB w 0\tf2-e3A\tcp 35\t14".to_string(), "position"),
        ] {
            let err = parse_line(&line).expect_err(&line);
            assert!(err.contains(why), "{line}: {err}");
        }
        let mixed = format!("# a comment\n\n{start}\tf2-e3A\tcp 35\t14\nnonsense\n");
        let read = parse(&mixed);
        assert_eq!(read.len(), 2);
        assert!(read[0].is_ok());
        assert_eq!(read[1].as_ref().map_err(|(n, _)| *n), Err(4));
    }

    #[test]
    fn level_6_plays_the_book_and_the_others_search() {
        use std::sync::atomic::AtomicBool;

        use crate::{Config, Engine, Level};

        let stop = AtomicBool::new(false);
        let start = Position::start();
        let after = start.play(&start.legal_turns()[0]).expect("legal");
        for pos in [start, after] {
            let entry = lookup(&pos).expect("in the book");
            let mut engine = Engine::new(Config::default());
            let six = engine.play_level(&pos, Level::MAX, 1, &stop);
            assert_eq!(six.best.as_ref(), Some(&entry.turn));
            assert_eq!(six.after, Some(entry.after));
            assert_eq!((six.info.nodes, six.info.depth), (0, entry.depth));
            let five = engine.play_level(&pos, Level::new(5).expect("5"), 1, &stop);
            assert!(five.info.nodes > 0, "level 5 searches");
            // With the book off, level 6 searches too.
            let mut off = Engine::new(Config {
                book: false,
                ..Config::default()
            });
            let searched = off.play_level(&pos, Level::MAX, 1, &stop);
            assert!(searched.info.nodes > 0);
            assert!(searched.best.is_some());
        }
    }

    #[test]
    fn scores_read_back_as_they_are_written() {
        for s in [
            Score::Value(-35),
            Score::Win(3),
            Score::Loss(4),
            Score::Won,
            Score::Lost,
        ] {
            assert_eq!(parse_score(&s.to_string()), Some(s));
        }
        assert_eq!(parse_score("won 3"), None);
        assert_eq!(parse_score(""), None);
    }
}
