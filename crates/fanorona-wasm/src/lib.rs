//! The rules and the engine for the browser: what the page's worker asks
//! of them, as text in and text out, the same lines the command line
//! prints (`fanorona analyse`). [`abi`] is the thin layer of exported
//! functions the worker calls; everything else is safe Rust, tested on
//! the host like the rest of the workspace.

pub mod abi;
pub mod steps;

use std::{fmt::Write, sync::atomic::AtomicBool, sync::Arc};

use fanorona::{Position, Setup};
use fanorona_engine::{Config, Engine, Info, Limits, Tables, MAX_DEPTH};

/// What the worker holds between calls: the engine (made at the first
/// search, its table allocated once) and its tables.
#[derive(Debug, Default)]
pub struct Analyser {
    engine: Option<Engine>,
    tables: Option<Arc<Tables>>,
}

/// Reads position text, or `start` for the start position.
pub fn position(text: &str) -> Result<Position, String> {
    let text = text.trim();
    if text == "start" {
        return Ok(Position::start());
    }
    let setup: Setup = text
        .parse()
        .map_err(|err| format!("invalid position {text:?}: {err}"))?;
    Position::from_setup(setup).map_err(|err| format!("illegal position {text:?}: {err}"))
}

/// The `info` line of a completed depth, as `fanorona analyse` prints it
/// but without `nps` and `time` (the page times the search itself):
/// `info depth 3 seldepth 7 score cp 35 nodes 1200 pv d3-e3A f4-f3A`.
pub fn info_line(info: &Info) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {}",
        info.depth, info.seldepth, info.score, info.nodes
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for turn in &info.pv {
            let _ = write!(line, " {turn}");
        }
    }
    line
}

impl Analyser {
    /// Builds the endgame tables of up to `stones` stones (0 for none, at
    /// most 5) for the searches that follow; returns their size in bytes.
    pub fn set_tables(&mut self, stones: usize) -> usize {
        self.tables = (stones >= 2).then(|| Arc::new(Tables::build(stones)));
        self.tables.as_ref().map_or(0, |t| t.bytes())
    }

    /// The tables in use as [`Tables::write_to`] writes them, so that
    /// another worker can load them instead of building them; empty when
    /// there are none.
    pub fn saved_tables(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        if let Some(tables) = &self.tables {
            // Writing to a vector cannot fail.
            let _ = tables.write_to(&mut bytes);
        }
        bytes
    }

    /// Uses the tables `bytes` holds, as [`Analyser::saved_tables`] gave
    /// them; returns their size in memory.
    ///
    /// # Errors
    ///
    /// The reason when `bytes` are not such tables; the tables in use stay.
    pub fn load_tables(&mut self, mut bytes: &[u8]) -> Result<usize, String> {
        let tables = Tables::read_from(&mut bytes).map_err(|err| err.to_string())?;
        let size = tables.bytes();
        self.tables = Some(Arc::new(tables));
        Ok(size)
    }

    /// Searches the position `text` with a new game's engine, as
    /// `fanorona analyse TEXT --nodes N` (or `--depth D`) does: `nodes`
    /// and `depth` are limits where not 0 (depth at most
    /// [`MAX_DEPTH`]). Calls `on_line` with each depth's `info` line and
    /// returns the nodes searched in all, `nodes N`, and the best turn,
    /// `bestturn TURN`, on two lines; or the game's `result` and `bestturn
    /// none`; or `error REASON` for a bad position or no limit.
    ///
    /// A second line of `text`, the turn so far in notation, searches the
    /// turn in progress there, as the server's hint does: the best turn is
    /// then the rest of it from the moving stone, the stone's point alone
    /// when stopping is best.
    pub fn analyse(
        &mut self,
        text: &str,
        nodes: u64,
        depth: u32,
        mut on_line: impl FnMut(&str),
    ) -> String {
        let (board, so_far) = text.split_once('\n').unwrap_or((text, ""));
        let pos = match position(board).and_then(|start| {
            steps::played_from(start, so_far.trim())
                .map(|played| played.position)
                .map_err(|(_, reason)| format!("the turn so far: {reason}"))
        }) {
            Ok(pos) => pos,
            Err(reason) => return format!("error {reason}"),
        };
        if nodes == 0 && depth == 0 {
            return "error a limit is needed: nodes or depth".into();
        }
        if depth > MAX_DEPTH {
            return format!("error invalid depth {depth}: expected 1 to {MAX_DEPTH}");
        }
        if let Some(outcome) = pos.outcome() {
            return format!("result {outcome}\nbestturn none");
        }
        let limits = Limits {
            nodes: (nodes > 0).then_some(nodes),
            depth: (depth > 0).then_some(depth),
            time: None,
        };
        // A new game's engine, as the command line's: nothing kept from
        // the search before.
        let engine = self
            .engine
            .get_or_insert_with(|| Engine::new(Config::default()));
        engine.new_game();
        engine.set_tables(self.tables.clone());
        let stop = AtomicBool::new(false);
        let result = engine.search(&pos, limits, &stop, |info| on_line(&info_line(info)));
        let nodes = result.info.nodes;
        match result.best {
            Some(turn) => format!("nodes {nodes}\nbestturn {turn}"),
            None => format!("nodes {nodes}\nbestturn none"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_tables_load_in_another_analyser_and_search_the_same() {
        let mut built = Analyser::default();
        let size = built.set_tables(3);
        let saved = built.saved_tables();
        let mut loaded = Analyser::default();
        assert_eq!(loaded.load_tables(&saved), Ok(size));
        // Black's two stones against White's one, where the tables answer.
        let ending = "........./.B......./......B../....W..../......... w";
        let answer = built.analyse(ending, 5_000, 0, |_| {});
        assert!(answer.contains("bestturn "), "{answer}");
        assert_eq!(answer, loaded.analyse(ending, 5_000, 0, |_| {}));
        assert!(loaded.load_tables(&saved[..saved.len() - 1]).is_err());
        assert_eq!(Analyser::default().saved_tables(), Vec::<u8>::new());
    }

    #[test]
    fn a_search_by_nodes_reports_each_depth_and_a_legal_best_turn() {
        let mut analyser = Analyser::default();
        let mut lines = Vec::new();
        let last = analyser.analyse("start", 100_000, 0, |l| lines.push(l.to_owned()));
        assert!(lines.len() >= 2, "{lines:?}");
        for (i, line) in lines.iter().enumerate() {
            assert!(
                line.starts_with(&format!("info depth {} ", i + 1)),
                "{line}"
            );
        }
        let (nodes, turn) = last.split_once('\n').expect("two lines");
        let nodes: u64 = nodes
            .strip_prefix("nodes ")
            .expect("nodes")
            .parse()
            .expect("a count");
        assert!((95_000..=100_000).contains(&nodes), "{nodes}");
        let turn = turn.strip_prefix("bestturn ").expect("a best turn");
        let parsed: fanorona::Turn = turn.parse().expect("a turn");
        assert!(Position::start().play(&parsed).is_ok(), "{turn}");
    }

    #[test]
    fn the_same_search_gives_the_same_lines_every_time() {
        let mut analyser = Analyser::default();
        let run = |a: &mut Analyser| {
            let mut lines = Vec::new();
            let last = a.analyse("start", 5_000, 0, |l| lines.push(l.to_owned()));
            lines.push(last);
            lines
        };
        let first = run(&mut analyser);
        assert_eq!(first, run(&mut analyser));
    }

    #[test]
    fn a_turn_in_progress_is_searched_as_the_server_searches_it() {
        let (before, step) = first_chain();
        let chain = before.play_step_unchecked(step);
        let mut so_far = fanorona::Turn::new(step.from());
        so_far.push(step.to(), step.kind());
        let mut analyser = Analyser::default();
        let answer = analyser.analyse(&format!("{before}\n{so_far}"), 20_000, 0, |_| {});
        let best = answer
            .lines()
            .find_map(|l| l.strip_prefix("bestturn "))
            .expect("a best turn");
        let mut engine = Engine::new(Config::default());
        let limits = Limits {
            nodes: Some(20_000),
            depth: None,
            time: None,
        };
        let found = engine.search(&chain, limits, &AtomicBool::new(false), |_| {});
        let expected = found.best.expect("a turn");
        assert_eq!(best, expected.to_string());
        assert!(best.starts_with(&step.to().to_string()), "{best}");
        assert!(chain.play(&expected).is_ok(), "{best}");
        // A turn so far that the rules refuse is an error, not a search.
        let none = |_: &str| panic!("no search");
        let refused = analyser.analyse(&format!("{before}\n{}", step.to()), 100, 0, none);
        assert!(refused.starts_with("error the turn so far"), "{refused}");
    }

    /// The first capture, along the game of first legal steps, that the
    /// stone may go on from: the position before it and the step.
    fn first_chain() -> (Position, fanorona::Step) {
        let mut pos = Position::start();
        for _ in 0..200 {
            let steps = pos.legal_steps();
            for &step in steps.iter() {
                if step.is_capture() && pos.play_step_unchecked(step).chain().is_some() {
                    return (pos, step);
                }
            }
            pos = pos.play_step_unchecked(*steps.iter().next().expect("a step"));
            while pos.chain().is_some() {
                let steps = pos.legal_steps();
                pos = pos.play_step_unchecked(*steps.iter().next().expect("a step"));
            }
        }
        panic!("no capture went on");
    }

    #[test]
    fn bad_input_gets_an_error_line() {
        let mut analyser = Analyser::default();
        let none = |_: &str| panic!("no search");
        assert!(analyser
            .analyse("nonsense", 100, 0, none)
            .starts_with("error invalid position"));
        assert!(analyser
            .analyse("start", 0, 0, none)
            .starts_with("error a limit"));
        assert!(analyser
            .analyse("start", 0, 99, none)
            .starts_with("error invalid depth"));
    }
}
