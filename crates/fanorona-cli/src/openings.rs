//! Files of openings, and `fanorona openings`, which makes balanced ones.
//!
//! An openings file has one opening a line, written as the arguments of
//! the engine protocol's `position` command: `start` or position text,
//! then optionally `moves` and the turns of the opening, like
//! `start moves d3-e3A f4-f3A`. A `#` starts a comment to the end of the
//! line; blank lines are skipped.

use std::{collections::HashSet, io::Write, sync::atomic::AtomicBool};

use fanorona::{Position, Turn};
use fanorona_engine::{Config, Engine, Limits, Score};

use crate::{echo::quote, position_from_text, Failure};

/// One opening: where it starts and the turns played from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Opening {
    /// The start position.
    pub(crate) start: Position,
    /// The opening's turns, legal from `start` one after the other.
    pub(crate) turns: Vec<Turn>,
    /// The position the turns lead to.
    pub(crate) end: Position,
}

impl Opening {
    /// The line that stands for this opening in a file and after
    /// `position` in the protocol: `start moves d3-e3A f4-f3A`.
    pub(crate) fn line(&self) -> String {
        let mut line = if self.start == Position::start() {
            "start".to_owned()
        } else {
            self.start.to_string()
        };
        if !self.turns.is_empty() {
            line.push_str(" moves");
            for turn in &self.turns {
                line.push(' ');
                line.push_str(&turn.to_string());
            }
        }
        line
    }
}

/// Reads one opening (a line without its comment).
pub(crate) fn parse_line(line: &str) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (setup, turn_words) = match words.iter().position(|&w| w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    if setup.is_empty() {
        return Err("expected start or position text, then optionally moves and turns".into());
    }
    let start = position_from_text(&setup.join(" "))?;
    let mut end = start;
    let mut turns = Vec::with_capacity(turn_words.len());
    for (i, text) in turn_words.iter().enumerate() {
        let turn: Turn = text
            .parse()
            .map_err(|err| format!("turn {} ({}): {err}", i + 1, quote(text)))?;
        end = end
            .play(&turn)
            .map_err(|err| format!("turn {} ({turn}): {err}", i + 1))?;
        turns.push(turn);
    }
    if let Some(outcome) = end.outcome() {
        return Err(format!("the game is already over ({outcome})"));
    }
    Ok(Opening { start, turns, end })
}

/// Reads an openings file's text; `name` names it in errors.
pub(crate) fn parse_file(name: &str, text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = parse_line(line).map_err(|err| format!("{name}: line {}: {err}", n + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(format!(
            "{name}: no openings: expected lines like `start moves d3-e3A f4-f3A`"
        ));
    }
    Ok(openings)
}

/// Where `fanorona openings` takes the openings it scores from.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    /// Random openings of `turns` turns from the start, drawn by `seed`.
    Random {
        /// Random turns from the start.
        turns: u32,
        /// The seed of the random turns.
        seed: u64,
    },
    /// The openings of a file, in its order (`--from`).
    File {
        /// The file's name, for the header.
        name: String,
        /// Its openings.
        openings: Vec<Opening>,
    },
}

/// What `fanorona openings` is asked for.
#[derive(Clone, Debug)]
pub(crate) struct Balanced {
    /// The openings to score.
    pub(crate) source: Source,
    /// Openings wanted.
    pub(crate) count: usize,
    /// The search that scores each: a depth or a number of nodes, the
    /// same on any machine either way.
    pub(crate) limits: Limits,
    /// The largest score kept, in hundredths of a stone.
    pub(crate) max_cp: i32,
    /// The command line, for the header.
    pub(crate) command: String,
}

impl Balanced {
    /// The search, as the header names it.
    fn search(&self) -> String {
        match (self.limits.depth, self.limits.nodes) {
            (_, Some(nodes)) => format!("a search of {nodes} nodes"),
            (Some(depth), None) => format!("a search {depth} turns deep"),
            (None, None) => "a search".to_owned(),
        }
    }
}

/// Scores openings (random ones from the start, or a file's) and writes
/// those the search scores within `max_cp` of level, each position once,
/// until `count` are kept, or a hundred times as many were drawn, or the
/// file's are all scored. Returns how many were kept and considered.
pub(crate) fn balanced(out: &mut impl Write, ask: &Balanced) -> Result<(usize, u64), Failure> {
    let kept_when = format!(
        "and kept when within {:.2} stones of level; each position once.",
        f64::from(ask.max_cp) / 100.0
    );
    match &ask.source {
        Source::Random { turns, .. } => writeln!(
            out,
            "# Balanced openings: {turns} random turns from the start, each scored by {} \
             {kept_when}",
            ask.search()
        )?,
        Source::File { name, .. } => writeln!(
            out,
            "# Balanced openings: the openings of {name}, each scored by {} {kept_when}",
            ask.search()
        )?,
    }
    writeln!(out, "# Made by: {}", ask.command)?;
    writeln!(
        out,
        "# One opening a line: start moves TURN...; the score after # is the \
         search's, in hundredths of a stone for the side to move."
    )?;
    let mut engine = Engine::new(Config::default());
    let stop = AtomicBool::new(false);
    let mut seen = HashSet::new();
    let mut kept = 0;
    let mut drawn = 0;
    let most = (ask.count as u64).saturating_mul(100).max(100);
    while kept < ask.count {
        let opening = match &ask.source {
            Source::Random { turns, seed } => {
                if drawn >= most {
                    break;
                }
                let index = u32::try_from(drawn).unwrap_or(u32::MAX);
                drawn += 1;
                match random_opening(*seed, index, *turns)? {
                    Some(opening) => opening,
                    None => continue,
                }
            }
            Source::File { openings, .. } => {
                let Some(opening) = usize::try_from(drawn).ok().and_then(|i| openings.get(i))
                else {
                    break;
                };
                drawn += 1;
                opening.clone()
            }
        };
        if opening.end.outcome().is_some() || !seen.insert(opening.end.to_string()) {
            continue;
        }
        engine.new_game();
        let result = engine.search(&opening.end, ask.limits, &stop, |_| {});
        let Score::Value(cp) = result.info.score else {
            continue;
        };
        if cp.abs() > ask.max_cp {
            continue;
        }
        writeln!(out, "{}  # {cp:+}", opening.line())?;
        out.flush()?;
        kept += 1;
    }
    Ok((kept, drawn))
}

/// The random opening of `turns` turns drawn `index`th by `seed`, or
/// `None` when its game ended sooner.
fn random_opening(seed: u64, index: u32, turns: u32) -> Result<Option<Opening>, Failure> {
    let played = fanorona_engine::opening(seed, index, turns);
    if played.len() != turns as usize {
        return Ok(None);
    }
    let mut end = Position::start();
    for turn in &played {
        match end.play(turn) {
            Ok(next) => end = next,
            Err(err) => return Err(Failure::Illegal(format!("opening {turn}: {err}"))),
        }
    }
    Ok(Some(Opening {
        start: Position::start(),
        turns: played,
        end,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back() {
        let opening = parse_line("start moves d3-e3A f4-f3A").expect("an opening");
        assert_eq!(opening.turns.len(), 2);
        assert_eq!(opening.line(), "start moves d3-e3A f4-f3A");
        assert_eq!(parse_line(&opening.line()), Ok(opening.clone()));
        let from_text = parse_line("B.......B/........./....W..../........./W.......W w 7")
            .expect("position text");
        assert!(from_text.turns.is_empty());
        assert_eq!(parse_line(&from_text.line()), Ok(from_text));
    }

    #[test]
    fn files_skip_comments_and_name_bad_lines() {
        let file = "# openings\n\nstart moves d3-e3A  # cp 0\nstart\n";
        let openings = parse_file("o.txt", file).expect("two openings");
        assert_eq!(openings.len(), 2);
        for (text, error) in [
            (
                "start moves d3-e3A e2-e3\n",
                "o.txt: line 1: turn 2 (e2-e3): ",
            ),
            ("\nWWW w\n", "o.txt: line 2: invalid position \"WWW w\""),
            ("moves d3-e3A\n", "o.txt: line 1: expected start"),
            (
                "........./........./....W..../........./......... b 3",
                "o.txt: line 1: the game is already over",
            ),
            ("# nothing\n", "o.txt: no openings"),
        ] {
            let err = parse_file("o.txt", text).expect_err(text);
            assert!(err.starts_with(error), "{err}");
        }
    }

    #[test]
    fn balanced_openings_are_level_and_distinct() {
        let ask = Balanced {
            source: Source::Random { turns: 2, seed: 1 },
            count: 6,
            limits: Limits::depth(2),
            max_cp: 100,
            command: "fanorona openings --turns 2".into(),
        };
        let mut out = Vec::new();
        let (kept, drawn) = balanced(&mut out, &ask).expect("written to memory");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(kept >= 1 && drawn >= kept as u64, "{text}");
        let openings = parse_file("out", &text).expect("reads back");
        assert_eq!(openings.len(), kept);
        let ends: HashSet<String> = openings.iter().map(|o| o.end.to_string()).collect();
        assert_eq!(ends.len(), kept, "{text}");
        assert!(
            text.contains("# Made by: fanorona openings --turns 2"),
            "{text}"
        );
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let cp: i32 = line
                .rsplit("# ")
                .next()
                .and_then(|s| s.parse().ok())
                .expect("a score");
            assert!(cp.abs() <= 100, "{line}");
        }
    }
}
