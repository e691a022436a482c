//! `fanorona engine`: the engine protocol, one command a line on stdin and
//! the answers on stdout, for matches against other programs. The
//! protocol is described in the engine crate's README.
//!
//! A line that cannot be obeyed gets one `error REASON` line and changes
//! nothing; the session goes on.

use std::{
    io::{self, BufRead, Write},
    ops::ControlFlow,
    sync::Arc,
};

use fanorona::{Position, Turn};
use fanorona_engine::{Config, Engine, Level, Tables};

use crate::{
    echo::{cut, quote},
    position_from_text,
    report::{parse_level, parse_limit, think, Think},
};

/// Why a line could not be answered.
#[derive(Debug)]
enum Problem {
    /// The line is wrong: answered with `error REASON`.
    Line(String),
    /// Writing the answer failed: the session ends.
    Output(io::Error),
}

impl From<io::Error> for Problem {
    fn from(err: io::Error) -> Problem {
        Problem::Output(err)
    }
}

impl From<String> for Problem {
    fn from(reason: String) -> Problem {
        Problem::Line(reason)
    }
}

/// The engine and what the lines so far have set.
#[derive(Debug)]
struct Session {
    engine: Engine,
    pos: Position,
    level: Level,
}

/// Answers the lines of `input` on `out` until `quit` or the end of input.
///
/// # Errors
///
/// Reading the input or writing an answer failed.
pub(crate) fn run(
    mut input: impl BufRead,
    out: &mut impl Write,
    config: Config,
    tables: Option<Arc<Tables>>,
) -> io::Result<()> {
    let mut engine = Engine::new(config);
    engine.set_tables(tables);
    let mut session = Session {
        engine,
        pos: Position::start(),
        level: Level::MAX,
    };
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        match session.answer(&line, out) {
            Ok(ControlFlow::Continue(())) => {}
            Ok(ControlFlow::Break(())) => return Ok(()),
            Err(Problem::Line(reason)) => writeln!(out, "{}", cut(&format!("error {reason}")))?,
            Err(Problem::Output(err)) => return Err(err),
        }
        out.flush()?;
    }
}

impl Session {
    /// Obeys one line.
    fn answer(&mut self, line: &str, out: &mut impl Write) -> Result<ControlFlow<()>, Problem> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(ControlFlow::Continue(()));
        };
        match command {
            "quit" => return Ok(ControlFlow::Break(())),
            "isready" => {
                no_arguments(command, args)?;
                writeln!(out, "readyok")?;
            }
            "newgame" => {
                no_arguments(command, args)?;
                self.engine.new_game();
            }
            "position" => self.pos = position(args)?,
            "level" => match args {
                [n] => self.level = parse_level(n)?,
                _ => return Err(Problem::Line("level: expected one level, 1 to 6".into())),
            },
            "go" => {
                let how = match args {
                    [] => Think::Level(self.level),
                    [kind, value] => Think::Limits(parse_limit(kind, value)?),
                    _ => {
                        return Err(Problem::Line(
                            "go: expected go, go time MS, go nodes N or go depth D".into(),
                        ))
                    }
                };
                think(&mut self.engine, &self.pos, how, out)?;
            }
            _ => {
                return Err(Problem::Line(format!(
                    "unknown command {}: expected position, level, go, newgame, \
                     isready or quit",
                    quote(command)
                )))
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

fn no_arguments(command: &str, args: &[&str]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("{command}: takes no arguments"))
    }
}

/// Reads the arguments of `position`: `start` or position text, then
/// optionally `moves` and turns to play from there.
fn position(args: &[&str]) -> Result<Position, String> {
    let (setup, turns) = match args.iter().position(|&w| w == "moves") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    if setup.is_empty() {
        return Err("position: expected start or position text".into());
    }
    let mut pos = position_from_text(&setup.join(" "))?;
    for (i, text) in turns.iter().enumerate() {
        let turn: Turn = text
            .parse()
            .map_err(|err| format!("turn {} ({}): {err}", i + 1, quote(text)))?;
        pos = pos
            .play(&turn)
            .map_err(|err| format!("turn {} ({turn}): {err}", i + 1))?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> String {
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out, Config::default(), None).expect("writes to memory");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn ready_and_quit() {
        assert_eq!(
            session("isready\n\n   \nisready\nquit\nisready\n"),
            "readyok\nreadyok\n"
        );
        assert_eq!(session(""), "");
    }

    #[test]
    fn every_bad_line_gets_one_error_and_changes_nothing() {
        let out = session(
            "position start moves d3-e3A\n\
             position start moves d3-e3A e2-e3\n\
             position WWW w\n\
             position\n\
             level 0\n\
             level\n\
             go depth 0\n\
             go depth\n\
             go fast 3\n\
             isready now\n\
             hello\n\
             \u{fffd}\n\
             go depth 1\n",
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 13, "{out}");
        assert!(lines[..11].iter().all(|l| l.starts_with("error ")), "{out}");
        assert!(lines[0].starts_with("error turn 2 (e2-e3): "), "{out}");
        assert!(lines[1].contains("invalid position \"WWW w\""), "{out}");
        assert!(lines[9].contains("unknown command \"hello\""), "{out}");
        // The first line was good, so the search is from Black's side after
        // d3-e3A: the failed second line did not move it on.
        assert!(lines[11].starts_with("info depth 1 "), "{out}");
        let best: Turn = lines[12]
            .strip_prefix("bestturn ")
            .expect("bestturn")
            .parse()
            .expect("notation");
        let pos = Position::start()
            .play(&"d3-e3A".parse().expect("notation"))
            .expect("legal");
        assert!(pos.play(&best).is_ok(), "{best}");
    }

    #[test]
    fn a_finished_game_has_no_best_turn() {
        let out = session("position ........./........./....W..../........./......... b 3\ngo\n");
        assert_eq!(
            out,
            "result white wins: black has no stones left\nbestturn none\n"
        );
    }
}
