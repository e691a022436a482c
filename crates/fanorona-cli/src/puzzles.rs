//! `fanorona puzzles`: capture puzzles drawn from the engine's games with
//! itself, each a position where one turn wins clearly more than any
//! other, as a search of every turn says.
//!
//! A puzzles file has a header of `#` lines, then one puzzle a line, its
//! fields separated by tabs: an id (eight hex digits, a hash of the
//! position and the solution, so that a player's progress survives a new
//! file), the position, the solution, the difficulty (1 to 5), the themes
//! (words separated by commas), the solution's score and the next best
//! turn's, in hundredths of a stone for the side to move.

use std::{
    collections::{BTreeMap, HashSet},
    fmt::Write as _,
    io::Write,
    sync::{
        atomic::{AtomicBool, AtomicU32, Ordering},
        Arc, Mutex,
    },
};

use fanorona::{Position, Turn};
use fanorona_engine::{Config, Engine, Limits, Score, Tables};

#[cfg(test)]
use crate::position_from_text;
use crate::Failure;

/// What `fanorona puzzles` is asked for.
#[derive(Clone, Debug)]
pub(crate) struct Ask {
    /// Games of the engine against itself to look through.
    pub(crate) games: u32,
    /// Nodes a turn in those games.
    pub(crate) play_nodes: u64,
    /// Nodes for the search after each turn of a candidate position.
    pub(crate) check_nodes: u64,
    /// How much more than any other turn the solution must win, in
    /// hundredths of a stone.
    pub(crate) margin: i32,
    /// The seed of the games' random openings.
    pub(crate) seed: u64,
    /// Threads searching, one game each at a time.
    pub(crate) threads: usize,
    /// The command line, for the header.
    pub(crate) command: String,
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Puzzle {
    pub(crate) id: String,
    pub(crate) position: Position,
    pub(crate) solution: Turn,
    pub(crate) difficulty: u32,
    pub(crate) themes: Vec<&'static str>,
    pub(crate) score: i32,
    pub(crate) second: i32,
}

impl Puzzle {
    /// The puzzle's line in a file.
    pub(crate) fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.id,
            self.position,
            self.solution,
            self.difficulty,
            self.themes.join(","),
            self.score,
            self.second
        )
    }
}

/// The themes a puzzle may have, as the page names them.
#[cfg(test)]
const THEMES: [&str; 5] = ["capture", "chain", "choice", "clock", "ending"];

/// Stones on the board at most for an ending.
const ENDING_STONES: usize = 8;
/// The fifty-turn counter from which a puzzle is about the clock.
const CLOCK_FROM: u32 = 35;
/// Nodes for the first, cheap look at each turn of a candidate.
const GLANCE_NODES: u64 = 4_000;
/// Random turns from the start before the engine plays.
const OPENING_TURNS: u32 = 4;
/// Turns skipped after a puzzle is found in a game, for variety.
const SPACING: usize = 4;

/// A score as one number, higher better for the side to move: wins above
/// every value, sooner wins higher.
fn rank(score: Score) -> i32 {
    match score {
        Score::Value(v) => v,
        Score::Win(n) => 30_000 - n as i32,
        Score::Loss(n) => -30_000 + n as i32,
        Score::Won => 20_000,
        Score::Lost => -20_000,
    }
}

/// The id of a puzzle: FNV-1a of its position and solution, in hex.
pub(crate) fn puzzle_id(position: &Position, solution: &Turn) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in format!("{position} {solution}").bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("{hash:08x}")
}

/// A searcher of puzzles: one engine, its tables, the nodes it may use.
struct Searcher {
    engine: Engine,
    stop: AtomicBool,
}

impl Searcher {
    fn new(tables: Option<Arc<Tables>>) -> Searcher {
        let mut engine = Engine::new(Config::default());
        engine.set_tables(tables);
        Searcher {
            engine,
            stop: AtomicBool::new(false),
        }
    }

    /// Each legal turn of `pos` with its score for the side to move, a
    /// search of `nodes` after it, the best first.
    fn scored_turns(&mut self, pos: &Position, nodes: u64) -> Vec<(Turn, i32)> {
        let mut scored: Vec<(Turn, i32)> = pos
            .legal_turns()
            .into_iter()
            .filter_map(|turn| {
                let after = pos.play(&turn).ok()?;
                let score = match after.outcome() {
                    Some(outcome) if outcome.winner == Some(pos.turn()) => 30_000,
                    Some(outcome) if outcome.winner.is_some() => -30_000,
                    Some(_) => 0,
                    None => {
                        self.engine.new_game();
                        let found =
                            self.engine
                                .search(&after, Limits::nodes(nodes), &self.stop, |_| {});
                        -rank(found.info.score)
                    }
                };
                Some((turn, score))
            })
            .collect();
        scored.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
        scored
    }

    /// The puzzle `pos` makes, if one turn captures and wins clearly more
    /// than any other at both the glance and the check.
    fn puzzle(&mut self, pos: &Position, ask: &Ask) -> Option<Puzzle> {
        if pos.outcome().is_some() || !pos.has_capture() {
            return None;
        }
        let clear = |scored: &[(Turn, i32)], margin: i32| match scored {
            [(best, score), (_, second), ..] => {
                (*score >= 0 && score - second >= margin).then(|| (best.clone(), *score, *second))
            }
            _ => None,
        };
        let glance = self.scored_turns(pos, GLANCE_NODES);
        clear(&glance, ask.margin / 2)?;
        let checked = self.scored_turns(pos, ask.check_nodes);
        let (solution, score, second) = clear(&checked, ask.margin)?;
        if !solution.is_capture() {
            return None;
        }
        // The depth from which a search of the position itself keeps to
        // the solution: the puzzle's difficulty, and a second opinion.
        self.engine.new_game();
        let mut firsts = Vec::new();
        let found = self
            .engine
            .search(pos, Limits::nodes(ask.check_nodes), &self.stop, |info| {
                firsts.push(info.pv.first().cloned())
            });
        if found.best.as_ref() != Some(&solution) {
            return None;
        }
        let kept_from = firsts
            .iter()
            .rposition(|first| first.as_ref() != Some(&solution))
            .map_or(1, |i| i + 2);
        let difficulty = (kept_from as u32).clamp(1, 5);
        Some(Puzzle {
            id: puzzle_id(pos, &solution),
            position: *pos,
            themes: themes(pos, &solution, score),
            solution,
            difficulty,
            score,
            second,
        })
    }

    /// The puzzles of one game of the engine against itself.
    fn game(&mut self, index: u32, ask: &Ask) -> Vec<Puzzle> {
        let mut pos = Position::start();
        for turn in fanorona_engine::opening(ask.seed, index, OPENING_TURNS) {
            match pos.play(&turn) {
                Ok(next) => pos = next,
                Err(_) => return Vec::new(),
            }
        }
        self.engine.new_game();
        let mut found = Vec::new();
        let mut skip = 0;
        for _ in 0..300 {
            if pos.outcome().is_some() {
                break;
            }
            if skip == 0 {
                if let Some(puzzle) = self.puzzle(&pos, ask) {
                    found.push(puzzle);
                    skip = SPACING;
                }
            } else {
                skip -= 1;
            }
            self.engine.new_game();
            let played =
                self.engine
                    .search(&pos, Limits::nodes(ask.play_nodes), &self.stop, |_| {});
            match played.after {
                Some(after) => pos = after,
                None => break,
            }
        }
        found
    }
}

/// The themes of a solution: a long chain (three captures or more), a
/// choice of approach or withdrawal on its first step, the fifty-turn
/// clock running late, a won ending; else a plain capture.
fn themes(pos: &Position, solution: &Turn, score: i32) -> Vec<&'static str> {
    let mut themes = Vec::new();
    if solution.landings().len() >= 3 {
        themes.push("chain");
    }
    if let Some(first) = solution.landings().first() {
        let from = solution.origin();
        let both = pos
            .legal_steps()
            .iter()
            .filter(|s| s.from() == from && s.to() == first.to)
            .count()
            >= 2;
        if both {
            themes.push("choice");
        }
    }
    if pos.turns_since_capture() >= CLOCK_FROM {
        themes.push("clock");
    }
    if pos.board().occupied().count() <= ENDING_STONES && score > 10_000 {
        themes.push("ending");
    }
    if themes.is_empty() {
        themes.push("capture");
    }
    themes
}

/// Plays `ask.games` games and writes the puzzles found in them, in the
/// games' order, each position once. Returns how many were written.
pub(crate) fn generate(
    out: &mut impl Write,
    ask: &Ask,
    tables: Option<Arc<Tables>>,
) -> Result<usize, Failure> {
    let next = AtomicU32::new(0);
    let found: Mutex<BTreeMap<u32, Vec<Puzzle>>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..ask.threads.max(1) {
            scope.spawn(|| {
                let mut searcher = Searcher::new(tables.clone());
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= ask.games {
                        break;
                    }
                    let puzzles = searcher.game(index, ask);
                    if let Ok(mut found) = found.lock() {
                        found.insert(index, puzzles);
                    }
                }
            });
        }
    });
    let found = found
        .into_inner()
        .map_err(|_| Failure::Illegal("a puzzle search failed".into()))?;
    let mut header = String::new();
    let _ = writeln!(
        header,
        "# Capture puzzles from {} games of the engine against itself ({} nodes a turn, \
         after {OPENING_TURNS} random turns): positions where one capture wins at least \
         {:.2} stones more than any other turn, each turn scored by a search of {} nodes \
         after it, the solution confirmed by a search of the position.",
        ask.games,
        ask.play_nodes,
        f64::from(ask.margin) / 100.0,
        ask.check_nodes
    );
    let _ = writeln!(header, "# Made by: {}", ask.command);
    let _ = writeln!(
        header,
        "# id\tposition\tsolution\tdifficulty\tthemes\tscore\tnext best (hundredths of a stone for the side to move)"
    );
    out.write_all(header.as_bytes())?;
    let mut seen = HashSet::new();
    let mut written = 0;
    for puzzle in found.into_values().flatten() {
        if seen.insert(puzzle.position.to_string()) {
            writeln!(out, "{}", puzzle.line())?;
            written += 1;
        }
    }
    out.flush()?;
    Ok(written)
}

/// Reads a puzzles file's text, checking each line: a legal capture as
/// the solution, known themes, a difficulty of 1 to 5, the id its hash.
#[cfg(test)]
fn parse_file(text: &str) -> Result<Vec<Puzzle>, String> {
    let mut puzzles = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let puzzle = parse_line(line).map_err(|err| format!("line {}: {err}", n + 1))?;
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

#[cfg(test)]
fn parse_line(line: &str) -> Result<Puzzle, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [id, position, solution, difficulty, themes, score, second] = fields[..] else {
        return Err(format!(
            "expected 7 fields separated by tabs, found {}",
            fields.len()
        ));
    };
    let position = position_from_text(position)?;
    let solution: Turn = solution
        .parse()
        .map_err(|err| format!("solution {solution:?}: {err}"))?;
    position
        .play(&solution)
        .map_err(|err| format!("solution {solution}: {err}"))?;
    if !solution.is_capture() {
        return Err(format!("solution {solution} takes nothing"));
    }
    if puzzle_id(&position, &solution) != id {
        return Err(format!("id {id:?} is not the puzzle's"));
    }
    let difficulty = difficulty
        .parse()
        .ok()
        .filter(|d| (1..=5).contains(d))
        .ok_or_else(|| format!("difficulty {difficulty:?}: expected 1 to 5"))?;
    let themes = themes
        .split(',')
        .map(|theme| {
            THEMES
                .iter()
                .find(|&&known| known == theme)
                .copied()
                .ok_or_else(|| format!("unknown theme {theme:?}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let number = |text: &str| {
        text.parse::<i32>()
            .map_err(|_| format!("score {text:?}: expected a whole number"))
    };
    Ok(Puzzle {
        id: id.to_owned(),
        position,
        solution,
        difficulty,
        themes,
        score: number(score)?,
        second: number(second)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_give_puzzles_whose_solution_wins_clearly_more() {
        let ask = Ask {
            games: 2,
            play_nodes: 2_000,
            check_nodes: 10_000,
            margin: 150,
            seed: 3,
            threads: 2,
            command: "fanorona puzzles --games 2".into(),
        };
        let mut out = Vec::new();
        let written = generate(&mut out, &ask, None).expect("written to memory");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(
            text.contains("# Made by: fanorona puzzles --games 2"),
            "{text}"
        );
        let puzzles = parse_file(&text).expect("reads back");
        assert_eq!(puzzles.len(), written);
        assert!(written >= 1, "{text}");
        let mut searcher = Searcher::new(None);
        for puzzle in &puzzles {
            assert!(
                puzzle.score - puzzle.second >= ask.margin,
                "{}",
                puzzle.line()
            );
            // The same search of every turn finds the same solution.
            let scored = searcher.scored_turns(&puzzle.position, ask.check_nodes);
            assert_eq!(scored[0].0, puzzle.solution, "{}", puzzle.line());
            assert_eq!((scored[0].1, scored[1].1), (puzzle.score, puzzle.second));
        }
        // The same games give the same file with one thread.
        let mut again = Vec::new();
        generate(&mut again, &Ask { threads: 1, ..ask }, None).expect("written");
        assert_eq!(String::from_utf8(again).expect("UTF-8"), text);
    }

    #[test]
    fn the_site_s_puzzles_are_legal_captures_each_position_once() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/puzzles/puzzles.txt");
        let text = std::fs::read_to_string(path).expect("the site's puzzles");
        let puzzles = parse_file(&text).expect("every line reads");
        assert!(puzzles.len() >= 300, "{} puzzles", puzzles.len());
        let positions: HashSet<String> = puzzles.iter().map(|p| p.position.to_string()).collect();
        assert_eq!(positions.len(), puzzles.len());
        for puzzle in &puzzles {
            assert!(
                puzzle.score >= 0 && puzzle.score - puzzle.second >= 150,
                "{}",
                puzzle.line()
            );
            assert_eq!(
                themes(&puzzle.position, &puzzle.solution, puzzle.score),
                puzzle.themes,
                "{}",
                puzzle.line()
            );
        }
        assert!(text
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("# Made by: fanorona puzzles")));
    }

    #[test]
    fn themes_name_chains_choices_clocks_and_endings() {
        // b3-c3 takes d3 by approach or a3 by withdrawal; from c3 the
        // stone goes on to c4, taking c5.
        let pos = position_from_text("..B....../........./BW.B...../........./......... w 37")
            .expect("a position");
        let turn: Turn = "b3-c3A-c4A".parse().expect("a turn");
        assert_eq!(themes(&pos, &turn, 30_000), ["choice", "clock", "ending"]);
        // e2-e3 takes e4 and e5 by approach; nothing by withdrawal.
        let plain = position_from_text("....B..../....B..../..B....../....W..../......... w 0")
            .expect("a position");
        let turn: Turn = "e2-e3A".parse().expect("a turn");
        assert_eq!(themes(&plain, &turn, 50), ["capture"]);
    }

    #[test]
    fn bad_lines_are_refused_with_their_reason() {
        let pos = "..B....../........./BW.B...../........./......... w 0";
        let good = |solution: &str| {
            let p = position_from_text(pos).expect("position");
            let s: Turn = solution.parse().expect("turn");
            format!("{}\t{pos}\t{solution}\t2\tchain\t300\t0", puzzle_id(&p, &s))
        };
        assert!(parse_file(&good("b3-c3A-c4A")).is_ok());
        for (line, reason) in [
            (
                good("b3-c3A-c4A").replace("\tchain", "\tfork"),
                "unknown theme",
            ),
            (good("b3-c3A-c4A").replace("\t2\t", "\t9\t"), "difficulty"),
            (
                good("b3-c3A-c4A").replacen(|c: char| c.is_ascii_hexdigit(), "x", 1),
                "id",
            ),
            (good("b3-b4"), "solution b3-b4"),
            ("a\tb".to_owned(), "expected 7 fields"),
        ] {
            let err = parse_file(&line).expect_err(&line);
            assert!(err.contains(reason), "{err}");
        }
    }
}
