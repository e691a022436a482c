//! What `analyse` and `engine` share: the limits they read, and the `info`,
//! `result` and `bestturn` lines they print.

use std::{
    io::{self, Write},
    sync::atomic::AtomicBool,
};

use fanorona::Position;
use fanorona_engine::{zobrist, Engine, Info, Level, Limits, SearchResult, MAX_DEPTH};

use crate::echo::quote;

/// How the engine chooses a turn: a search within limits, or as a level
/// plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Think {
    /// Search until a limit is reached, reporting each depth.
    Limits(Limits),
    /// Play as this level.
    Level(Level),
}

/// Reads a search limit: `kind` is `time` (milliseconds), `nodes` or
/// `depth` (turns, at most [`MAX_DEPTH`]); each is a whole number, 1 or
/// more.
pub(crate) fn parse_limit(kind: &str, text: &str) -> Result<Limits, String> {
    let bad = |expected: &str| format!("invalid {kind} {}: expected {expected}", quote(text));
    match kind {
        "time" => match text.parse::<u64>() {
            Ok(ms) if ms >= 1 => Ok(Limits::time_ms(ms)),
            _ => Err(bad("a whole number of milliseconds, 1 or more")),
        },
        "nodes" => match text.parse::<u64>() {
            Ok(nodes) if nodes >= 1 => Ok(Limits::nodes(nodes)),
            _ => Err(bad("a whole number of nodes, 1 or more")),
        },
        "depth" => match text.parse::<u32>() {
            Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => Ok(Limits::depth(depth)),
            _ => Err(bad(&format!("a whole number of turns, 1 to {MAX_DEPTH}"))),
        },
        _ => Err(format!(
            "unknown limit {}: expected time, nodes or depth",
            quote(kind)
        )),
    }
}

/// Reads a level number, 1 to 6.
pub(crate) fn parse_level(text: &str) -> Result<Level, String> {
    text.parse::<u8>()
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("invalid level {}: expected a level 1 to 6", quote(text)))
}

/// The `info` line of a completed depth:
/// `info depth 3 seldepth 7 score cp 35 nodes 1200 nps 60000 time 20 pv d3-e3A f4-f3A`.
pub(crate) fn info_line(info: &Info) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps(),
        info.elapsed.as_millis()
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for turn in &info.pv {
            line.push(' ');
            line.push_str(&turn.to_string());
        }
    }
    line
}

/// Chooses a turn in `pos` and prints the `info` lines (flushed as they
/// come), then `bestturn TURN`. When the game is over it prints
/// `result OUTCOME` and `bestturn none`.
///
/// A level plays with the position's key as its seed, so the same
/// position and level always give the same turn.
pub(crate) fn think(
    engine: &mut Engine,
    pos: &Position,
    how: Think,
    out: &mut impl Write,
) -> io::Result<()> {
    if let Some(outcome) = pos.outcome() {
        writeln!(out, "result {outcome}")?;
        writeln!(out, "bestturn none")?;
        return out.flush();
    }
    let stop = AtomicBool::new(false);
    let result: SearchResult = match how {
        Think::Limits(limits) => {
            let mut written = Ok(());
            let result = engine.search(pos, limits, &stop, |info| {
                if written.is_ok() {
                    written = writeln!(out, "{}", info_line(info)).and_then(|()| out.flush());
                }
            });
            written?;
            result
        }
        Think::Level(level) => {
            let result = engine.play_level(pos, level, zobrist(pos), &stop);
            writeln!(out, "{}", info_line(&result.info))?;
            result
        }
    };
    match result.best {
        Some(turn) => writeln!(out, "bestturn {turn}")?,
        None => writeln!(out, "bestturn none")?,
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_whole_numbers_from_one() {
        assert_eq!(parse_limit("depth", "3"), Ok(Limits::depth(3)));
        assert_eq!(parse_limit("nodes", "5000"), Ok(Limits::nodes(5000)));
        assert_eq!(parse_limit("time", "250"), Ok(Limits::time_ms(250)));
        for text in ["0", "-1", "x", "", "1.5"] {
            for kind in ["time", "nodes", "depth"] {
                assert!(parse_limit(kind, text).is_err(), "{kind} {text}");
            }
        }
        assert_eq!(
            parse_limit("depth", "65"),
            Err("invalid depth \"65\": expected a whole number of turns, 1 to 64".to_owned())
        );
    }

    #[test]
    fn levels_run_from_one_to_six() {
        assert_eq!(parse_level("1").map(Level::number), Ok(1));
        assert_eq!(parse_level("6").map(Level::number), Ok(6));
        assert!(parse_level("0").is_err());
        assert!(parse_level("7").is_err());
        assert!(parse_level("two").is_err());
    }
}
