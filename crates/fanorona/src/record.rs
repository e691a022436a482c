use std::{error::Error, fmt, str::FromStr};

use crate::{
    Outcome, ParseScoreError, ParseSetupError, ParseTurnError, PlayError, Position, PositionError,
    Score, Setup, Turn,
};

/// The tag that holds the start position as position text; without it a
/// record starts from the usual start.
pub const POSITION_TAG: &str = "Position";

/// The tag that holds the result as a [`Score`].
pub const RESULT_TAG: &str = "Result";

/// A game written down: a header of named tags, then the turns in
/// notation, one a line with its number.
///
/// ```text
/// [Site "https://fanorona.example/g/d04EUAqNQF"]
/// [Result "0-1"]
///
/// 1. d3-e3A
/// 2. f4-f3A
/// ```
///
/// A tag is `[Name "value"]`: a name of letters, digits and `_` that
/// starts with a letter, and a value in double quotes, where `\"` stands
/// for `"` and `\\` for `\`. Each name appears once, and every tag comes
/// before the first turn. Two tags have a meaning here: `Position` (the
/// start, as position text, when it is not the usual start) and `Result`
/// (a [`Score`]); any other tag is kept as it is. Turns are numbered from
/// 1 without gaps, as `12. d3-e3A`, and each is a complete turn. Blank
/// lines and the spaces around a line are ignored.
///
/// Reading a record checks its syntax only; [`Record::replay`] plays it
/// through the rules.
///
/// # Examples
///
/// ```
/// use fanorona::{Record, Score};
///
/// let record: Record = "[Result \"*\"]\n\n1. d3-e3A\n2. f4-f3A\n".parse()?;
/// assert_eq!(record.score(), Some(Score::Unfinished));
/// assert_eq!(record.turns().len(), 2);
/// let end = record.replay()?;
/// assert_eq!(end.to_string(), "BBBBBBBBB/BBBBB.BBB/BWB.WBWBW/WWWWW.WWW/WWWWW.WWW w 0");
///
/// // A bad line is named.
/// let err = "1. d3-e3A\n3. f4-f3A".parse::<Record>().unwrap_err();
/// assert_eq!(err.to_string(), "line 2: turn number 3, expected 2");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Record {
    tags: Vec<Tag>,
    turns: Vec<Turn>,
    /// The line each turn was read from; 0 for a turn pushed in memory.
    turn_lines: Vec<usize>,
    /// The `Position` tag, read.
    start: Option<Setup>,
    /// The `Result` tag, read.
    score: Option<Score>,
}

/// One tag of the header, and the line it was read from (0 when set in
/// memory).
#[derive(Clone, Debug)]
struct Tag {
    name: String,
    value: String,
    line: usize,
}

impl PartialEq for Record {
    /// Two records are equal when their tags (in order) and turns are;
    /// where they were read from does not count.
    fn eq(&self, other: &Record) -> bool {
        self.turns == other.turns && self.tags().eq(other.tags())
    }
}

impl Eq for Record {}

impl Record {
    /// An empty record: no tags, no turns.
    pub fn new() -> Record {
        Record::default()
    }

    /// Sets tag `name` to `value`: in its place if it is already there,
    /// last otherwise.
    ///
    /// # Errors
    ///
    /// [`TagError`] for a name that is not letters, digits and `_` after a
    /// letter, a value with a line break or another control character, or
    /// a `Position` or `Result` value that does not read as one. The record
    /// is unchanged then.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        let mut chars = name.chars();
        let first = chars.next();
        if !first.is_some_and(|c| c.is_ascii_alphabetic())
            || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(TagError::Name);
        }
        if value.chars().any(char::is_control) {
            return Err(TagError::ControlCharacter);
        }
        match name {
            POSITION_TAG => self.start = Some(value.parse().map_err(TagError::Position)?),
            RESULT_TAG => self.score = Some(value.parse().map_err(TagError::Result)?),
            _ => {}
        }
        match self.tags.iter_mut().find(|tag| tag.name == name) {
            Some(tag) => value.clone_into(&mut tag.value),
            None => self.tags.push(Tag {
                name: name.to_owned(),
                value: value.to_owned(),
                line: 0,
            }),
        }
        Ok(())
    }

    /// Removes tag `name`; returns its value if it was there.
    pub fn remove_tag(&mut self, name: &str) -> Option<String> {
        let at = self.tags.iter().position(|tag| tag.name == name)?;
        match name {
            POSITION_TAG => self.start = None,
            RESULT_TAG => self.score = None,
            _ => {}
        }
        Some(self.tags.remove(at).value)
    }

    /// The value of tag `name`, if the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.find(name).map(|tag| tag.value.as_str())
    }

    /// Every tag as `(name, value)`, in order.
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.tags
            .iter()
            .map(|tag| (tag.name.as_str(), tag.value.as_str()))
    }

    /// Records `start` as the position the game started from: the
    /// `Position` tag, or no tag for the usual start.
    pub fn set_start(&mut self, start: &Position) {
        if *start == Position::start() {
            self.remove_tag(POSITION_TAG);
        } else {
            // Position text always reads back as a setup.
            let _ = self.set_tag(POSITION_TAG, &start.to_string());
        }
    }

    /// The position the game started from, checked against the rules:
    /// the `Position` tag, or the usual start without one.
    ///
    /// # Errors
    ///
    /// Why the `Position` tag is not a legal position.
    pub fn start(&self) -> Result<Position, PositionError> {
        Position::from_setup(self.start.clone().unwrap_or_default())
    }

    /// Records the result: the `Result` tag.
    pub fn set_score(&mut self, score: Score) {
        // A score always reads back.
        let _ = self.set_tag(RESULT_TAG, score.token());
    }

    /// The `Result` tag, if the record has one.
    pub fn score(&self) -> Option<Score> {
        self.score
    }

    /// Adds a turn after the others.
    pub fn push(&mut self, turn: Turn) {
        self.turns.push(turn);
        self.turn_lines.push(0);
    }

    /// The turns, in the order they were played.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// Plays every turn from the start through the rules; returns the
    /// position they lead to.
    ///
    /// # Errors
    ///
    /// [`ReplayError`], with the line it was read from: a start that is not
    /// a legal position, the first turn the rules refuse, or a `Result` tag
    /// that says otherwise than the board when the game ended on it.
    pub fn replay(&self) -> Result<Position, ReplayError> {
        let mut pos = self.start().map_err(|error| ReplayError {
            line: self.line_of(POSITION_TAG),
            kind: ReplayErrorKind::Start(error),
        })?;
        for (i, turn) in self.turns.iter().enumerate() {
            pos = pos.play(turn).map_err(|error| ReplayError {
                line: self.turn_lines.get(i).copied().filter(|&line| line > 0),
                kind: ReplayErrorKind::Illegal {
                    number: i + 1,
                    turn: Box::new(turn.clone()),
                    error,
                },
            })?;
        }
        if let (Some(score), Some(outcome)) = (self.score, pos.outcome()) {
            if score != Score::of_outcome(outcome) {
                return Err(ReplayError {
                    line: self.line_of(RESULT_TAG),
                    kind: ReplayErrorKind::ResultDiffers { score, outcome },
                });
            }
        }
        Ok(pos)
    }

    fn find(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|tag| tag.name == name)
    }

    fn line_of(&self, name: &str) -> Option<usize> {
        self.find(name).map(|tag| tag.line).filter(|&line| line > 0)
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for tag in &self.tags {
            f.write_str("[")?;
            f.write_str(&tag.name)?;
            f.write_str(" \"")?;
            for c in tag.value.chars() {
                if c == '"' || c == '\\' {
                    f.write_str("\\")?;
                }
                write!(f, "{c}")?;
            }
            f.write_str("\"]\n")?;
        }
        if !self.tags.is_empty() && !self.turns.is_empty() {
            f.write_str("\n")?;
        }
        for (i, turn) in self.turns.iter().enumerate() {
            writeln!(f, "{}. {turn}", i + 1)?;
        }
        Ok(())
    }
}

impl FromStr for Record {
    type Err = ParseRecordError;

    fn from_str(text: &str) -> Result<Record, ParseRecordError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut record = Record::new();
        for (i, line) in text.lines().enumerate() {
            let number = i + 1;
            let err = |kind| ParseRecordError { line: number, kind };
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if line.starts_with('[') {
                if !record.turns.is_empty() {
                    return Err(err(ParseRecordErrorKind::TagAfterTurns));
                }
                let (name, value) = read_tag(line).ok_or(err(ParseRecordErrorKind::ExpectedTag))?;
                if record.find(&name).is_some() {
                    return Err(err(ParseRecordErrorKind::DuplicateTag(name)));
                }
                record
                    .set_tag(&name, &value)
                    .map_err(|e| err(ParseRecordErrorKind::Tag(e)))?;
                if let Some(tag) = record.tags.last_mut() {
                    tag.line = number;
                }
            } else {
                let turn = read_turn(line, record.turns.len() + 1).map_err(err)?;
                record.turns.push(turn);
                record.turn_lines.push(number);
            }
        }
        Ok(record)
    }
}

/// Reads `[Name "value"]` into its name and unescaped value; `None` when
/// the line is not shaped so.
fn read_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim_start();
    let name_len = inner
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_len);
    let mut chars = rest.trim_start().strip_prefix('"')?.chars();
    let mut value = String::new();
    loop {
        match chars.next()? {
            '\\' => match chars.next()? {
                c @ ('"' | '\\') => value.push(c),
                _ => return None,
            },
            '"' => break,
            c => value.push(c),
        }
    }
    chars
        .as_str()
        .trim()
        .is_empty()
        .then(|| (name.to_owned(), value))
}

/// Reads the turn line `N. TURN`, which must carry `number`.
fn read_turn(line: &str, number: usize) -> Result<Turn, ParseRecordErrorKind> {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (written, rest) = line.split_at(digits);
    let Some(text) = rest.strip_prefix('.').filter(|_| digits > 0) else {
        return Err(ParseRecordErrorKind::ExpectedNumber { expected: number });
    };
    if written.parse::<usize>().ok() != Some(number) {
        return Err(ParseRecordErrorKind::WrongNumber {
            expected: number,
            found: written.to_owned(),
        });
    }
    let text = text.trim_start();
    text.parse().map_err(|error| ParseRecordErrorKind::Turn {
        number,
        text: text.to_owned(),
        error,
    })
}

/// Why a tag cannot be set.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TagError {
    /// The name is not letters, digits and `_` after a letter.
    Name,
    /// The value holds a line break or another control character.
    ControlCharacter,
    /// The `Position` tag is not position text.
    Position(ParseSetupError),
    /// The `Result` tag is not a score.
    Result(ParseScoreError),
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagError::Name => f.write_str("a tag name is a letter, then letters, digits or '_'"),
            TagError::ControlCharacter => {
                f.write_str("a tag value cannot hold a line break or another control character")
            }
            TagError::Position(e) => write!(f, "invalid {POSITION_TAG} tag: {e}"),
            TagError::Result(e) => write!(f, "invalid {RESULT_TAG} tag: {e}"),
        }
    }
}

impl Error for TagError {}

/// What is wrong with a line of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseRecordErrorKind {
    /// A line starting with `[` is not `[Name "value"]`.
    ExpectedTag,
    /// The tag cannot be set.
    Tag(TagError),
    /// The tag was given before.
    DuplicateTag(String),
    /// A tag follows a turn.
    TagAfterTurns,
    /// The line is neither a tag nor a numbered turn.
    ExpectedNumber {
        /// The number the turn should have.
        expected: usize,
    },
    /// The turn's number is not the next one.
    WrongNumber {
        /// The number the turn should have.
        expected: usize,
        /// The number written.
        found: String,
    },
    /// The turn is not in notation.
    Turn {
        /// Its number.
        number: usize,
        /// The turn as written.
        text: String,
        /// What is wrong with it.
        error: ParseTurnError,
    },
}

/// The error returned when text is not a record: the line (counted from
/// 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRecordError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseRecordErrorKind,
}

impl fmt::Display for ParseRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            ParseRecordErrorKind::ExpectedTag => {
                f.write_str("expected a tag like [Name \"value\"]")
            }
            ParseRecordErrorKind::Tag(e) => write!(f, "{e}"),
            ParseRecordErrorKind::DuplicateTag(name) => write!(f, "the {name} tag is given twice"),
            ParseRecordErrorKind::TagAfterTurns => {
                f.write_str("a tag after the turns: the tags come first")
            }
            ParseRecordErrorKind::ExpectedNumber { expected } => write!(
                f,
                "expected a tag, or turn {expected} as its number, a full stop and the turn, \
                 like {expected}. d3-e3A"
            ),
            ParseRecordErrorKind::WrongNumber { expected, found } => {
                write!(f, "turn number {found}, expected {expected}")
            }
            ParseRecordErrorKind::Turn {
                number,
                text,
                error,
            } => write!(f, "turn {number} ({text:?}): {error}"),
        }
    }
}

impl Error for ParseRecordError {}

/// Why the turns of a record cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayErrorKind {
    /// The start is not a legal position.
    Start(PositionError),
    /// A turn is not legal where it is played.
    Illegal {
        /// Its number, counted from 1.
        number: usize,
        /// The turn.
        turn: Box<Turn>,
        /// Why the rules refuse it.
        error: PlayError,
    },
    /// The game ended on the board, and the `Result` tag says otherwise.
    ResultDiffers {
        /// The `Result` tag.
        score: Score,
        /// How the game ended on the board.
        outcome: Outcome,
    },
}

/// The error returned when a record cannot be replayed: what is wrong and
/// the line it was read from, if it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The line of the tag or turn at fault, counted from 1.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: ReplayErrorKind,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        match &self.kind {
            ReplayErrorKind::Start(e) => {
                write!(f, "the {POSITION_TAG} tag is not a legal position: {e}")
            }
            ReplayErrorKind::Illegal {
                number,
                turn,
                error,
            } => write!(f, "turn {number} ({turn}): {error}"),
            ReplayErrorKind::ResultDiffers { score, outcome } => write!(
                f,
                "the {RESULT_TAG} tag says {score}, but the game ended on the board: {outcome}"
            ),
        }
    }
}

impl Error for ReplayError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    fn read(text: &str) -> Result<Record, String> {
        text.parse::<Record>().map_err(|e| e.to_string())
    }

    #[test]
    fn tags_and_turns_are_written_and_read_back() {
        let mut record = Record::new();
        record
            .set_tag("Site", "https://fanorona.example/g/d04EUAqNQF")
            .expect("a tag");
        record
            .set_tag("Note", "a \"quoted\" \\ word")
            .expect("a tag");
        record.set_score(Score::BlackWins);
        for turn in ["d3-e3A", "f4-f3A"] {
            record.push(turn.parse().expect("a turn"));
        }
        let text = record.to_string();
        assert_eq!(
            text,
            "[Site \"https://fanorona.example/g/d04EUAqNQF\"]\n\
             [Note \"a \\\"quoted\\\" \\\\ word\"]\n\
             [Result \"0-1\"]\n\
             \n\
             1. d3-e3A\n\
             2. f4-f3A\n"
        );
        let back = read(&text).expect("reads");
        assert_eq!(back, record);
        assert_eq!(back.tag("Note"), Some("a \"quoted\" \\ word"));
        assert_eq!(back.score(), Some(Score::BlackWins));
    }

    #[test]
    fn setting_a_tag_again_keeps_its_place() {
        let mut record = Record::new();
        record.set_tag("A", "1").expect("a tag");
        record.set_tag("B", "2").expect("a tag");
        record.set_tag("A", "3").expect("a tag");
        assert_eq!(record.tags().collect::<Vec<_>>(), [("A", "3"), ("B", "2")]);
        assert_eq!(record.remove_tag("A"), Some("3".to_owned()));
        assert_eq!(record.remove_tag("A"), None);
    }

    #[test]
    fn bad_tags_are_refused_and_change_nothing() {
        let mut record = Record::new();
        for (name, value) in [
            ("", "x"),
            ("1st", "x"),
            ("Two words", "x"),
            ("Note", "two\nlines"),
            ("Note", "a\ttab"),
            (RESULT_TAG, "2-0"),
            (POSITION_TAG, "BBB w"),
        ] {
            assert!(record.set_tag(name, value).is_err(), "{name:?} {value:?}");
        }
        assert_eq!(record, Record::new());
        assert_eq!(record.score(), None);
        assert_eq!(record.start(), Ok(Position::start()));
    }

    #[test]
    fn a_record_starts_where_its_position_tag_says() {
        let text = "........./....B..../........./....W..../......... w";
        let start = Position::from_setup(text.parse().expect("setup")).expect("legal");
        let mut record = Record::new();
        record.set_start(&start);
        assert_eq!(record.tag(POSITION_TAG), Some(start.to_string().as_str()));
        record.push("e2-e3A".parse().expect("a turn"));
        record.set_score(Score::WhiteWins);
        let end = read(&record.to_string())
            .expect("reads")
            .replay()
            .expect("plays");
        assert_eq!(
            end.outcome().map(|o| o.winner),
            Some(Some(Color::White)),
            "{end}"
        );
        record.set_start(&Position::start());
        assert_eq!(record.tag(POSITION_TAG), None);
    }

    #[test]
    fn blank_lines_spaces_and_a_byte_order_mark_are_ignored() {
        let record = read("\u{feff}  [Result   \"*\" ] \r\n\r\n 1.d3-e3A\n\n2.   f4-f3A  \n")
            .expect("reads");
        assert_eq!(record.score(), Some(Score::Unfinished));
        assert_eq!(record.turns().len(), 2);
        assert_eq!(read(""), Ok(Record::new()));
    }

    #[test]
    fn every_bad_line_is_named() {
        let cases = [
            (
                "[Result \"*\"",
                "line 1: expected a tag like [Name \"value\"]",
            ),
            ("[Result *]", "line 1: expected a tag like [Name \"value\"]"),
            (
                "[Note \"a\\n\"]",
                "line 1: expected a tag like [Name \"value\"]",
            ),
            (
                "[Note \"a\" b]",
                "line 1: expected a tag like [Name \"value\"]",
            ),
            ("[A \"1\"]\n[A \"2\"]", "line 2: the A tag is given twice"),
            (
                "\n[Result \"win\"]",
                "line 2: invalid Result tag: expected a result of 1-0, 0-1, 1/2-1/2 or *",
            ),
            (
                "[Position \"BBB w\"]",
                "line 1: invalid Position tag: the board has 1 rows, expected 5 separated by '/'",
            ),
            (
                "[9 \"x\"]",
                "line 1: a tag name is a letter, then letters, digits or '_'",
            ),
            (
                "1. d3-e3A\n[Result \"*\"]",
                "line 2: a tag after the turns: the tags come first",
            ),
            (
                "d3-e3A",
                "line 1: expected a tag, or turn 1 as its number, a full stop and the turn, \
                 like 1. d3-e3A",
            ),
            ("1. d3-e3A\n1. f4-f3A", "line 2: turn number 1, expected 2"),
            (
                "1. d3-e3A\n99999999999999999999999. f4-f3A",
                "line 2: turn number 99999999999999999999999, expected 2",
            ),
            (
                "1. d3-e3A\n2. f4f3",
                "line 2: turn 2 (\"f4f3\"): expected '-' between squares, at character 3",
            ),
            ("1.", "line 1: turn 1 (\"\"): empty turn"),
        ];
        for (text, message) in cases {
            assert_eq!(read(text), Err(message.to_owned()), "{text:?}");
        }
    }

    #[test]
    fn replaying_names_the_line_of_an_illegal_turn() {
        let record = read("[Result \"*\"]\n\n1. d3-e3A\n2. e4-d3\n").expect("reads");
        let err = record.replay().expect_err("illegal");
        assert_eq!(err.line, Some(4));
        assert_eq!(
            err.to_string(),
            "line 4: turn 2 (e4-d3): e4-d3: no line joins e4 and d3"
        );
        let mut built = Record::new();
        built.push("e2-e3".parse().expect("a turn"));
        assert_eq!(
            built.replay().map_err(|e| e.to_string()),
            Err("turn 1 (e2-e3): a capture is available, so a paika move is not allowed".into())
        );
    }

    #[test]
    fn a_result_that_contradicts_the_board_is_refused() {
        let start = "[Position \"........./....B..../........./....W..../......... w\"]\n";
        for (result, ok) in [
            ("1-0", true),
            ("0-1", false),
            ("*", false),
            ("1/2-1/2", false),
        ] {
            let text = format!("{start}[Result \"{result}\"]\n1. e2-e3A\n");
            let replayed = read(&text).expect("reads").replay();
            assert_eq!(replayed.is_ok(), ok, "{result}: {replayed:?}");
            if let Err(e) = replayed {
                assert_eq!(
                    e.to_string(),
                    format!(
                        "line 2: the Result tag says {result}, but the game ended on the \
                         board: white wins: black has no stones left"
                    )
                );
            }
        }
        // Without a Result tag, nothing is claimed.
        let text = format!("{start}1. e2-e3A\n");
        assert!(read(&text).expect("reads").replay().is_ok());
        // An illegal start is named by its line.
        let err = read(
            "[Result \"*\"]\n[Position \"........./........./....W..../........./......... w\"]",
        )
        .expect("reads")
        .replay()
        .expect_err("no black stones");
        assert_eq!(err.line, Some(2));
    }
}
