//! The bench: a fixed set of positions searched to a fixed depth, and the
//! total of their nodes as the search's signature.
//!
//! The search is deterministic when limited by depth alone, so the total
//! changes exactly when the search does: a change that should not alter
//! the search (a refactor, a faster move generator) keeps it, and one that
//! does (a new reduction, a retuned constant) must say the new total in
//! its commit. The engine's tests pin it; `fanorona bench` prints it.

use std::{
    sync::atomic::AtomicBool,
    time::{Duration, Instant},
};

use fanorona::{Position, Setup, Turn};

use crate::{
    limits::Limits,
    search::{Config, Engine},
};

/// The bench's positions, from the opening to the ending, in position
/// text: the start, positions of games between the levels, and the
/// middlegames of the speed measurements in docs/ENGINE.md.
pub const BENCH_POSITIONS: [&str; 16] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0",
    "BB.BBBBBB/BBBWBBBBB/BWBW..WBW/WWWWW.WWW/WWWWW.WWW b 0",
    "BB.BBBBBB/BBB.BBBBB/BW.BW.WBW/WWWWW.WWW/WWWWWWWWW b 0",
    "BBBB.B..B/BBBB..W.B/BWBWWB.../WWW..W.WW/WWWWWWWWW b 0",
    "BB.B.B.BB/BBB....../BWBW...BW/WWWW...../WWWW...WW w 0",
    "BB...BBBB/....W.BBB/BB....WBW/......WWW/.....WWWW w 0",
    "BB...B.B./BBBB....W/BWB....../WWW....W./WWW.....W b 0",
    "...B..BBB/......BBB/......WBW/...W..WWW/B..W..WWW b 0",
    "BB.....B./......W.B/BB...W.B./......WW./.....WWW. b 0",
    "BB...B.B./BB......W/BW......./.B.....W./.W......W w 0",
    "B.B.B.B../.W...W.B./..B.W..../W..B..W../.B.....W. b 7",
    "BB.....B./........B/BB..B..../......WW./.....W.W. w 2",
    "BB.....B./........B/BB......./.....BW../.....WW.W b 5",
    "BB..B..B./..W....W./........./.......W./.W......W b 2",
    "BB...B.../..W....../........W/.......W./.W......W w 1",
    ".B......./...W...../........W/.......W./.W......W w 1",
];

/// The depth `fanorona bench` searches each position to by default, in
/// turns, and the depth of the signature the engine's tests pin: 0.7 to
/// 1.5 seconds in a release build on the 2-core development machine (and
/// about as long in a test build, which optimises the engine too).
pub const BENCH_DEPTH: u32 = 8;

/// One position of the bench, searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The position searched.
    pub position: Position,
    /// The nodes its search visited.
    pub nodes: u64,
    /// The turn the search chose, `None` when the game is over.
    pub best: Option<Turn>,
    /// How long its search took.
    pub elapsed: Duration,
}

/// Searches every position of [`BENCH_POSITIONS`] to `depth` turns, one
/// after the other on this thread, calling `on_line` after each, and
/// returns the total of their nodes: the bench signature.
///
/// The engine is set up the same way every time, so the total depends on
/// the search alone: `config` (the signature is the default [`Config`]'s,
/// a 16 MB transposition table and the default weights), no endgame
/// tables, and a new game (an empty table and history) for each position.
pub fn bench(config: Config, depth: u32, mut on_line: impl FnMut(&BenchLine)) -> u64 {
    let mut engine = Engine::new(config);
    let stop = AtomicBool::new(false);
    let mut total = 0;
    for text in BENCH_POSITIONS {
        let setup: Setup = text.parse().expect("bench positions are position text");
        let position = Position::from_setup(setup).expect("bench positions are legal");
        engine.new_game();
        let start = Instant::now();
        let result = engine.search(&position, Limits::depth(depth), &stop, |_| {});
        let line = BenchLine {
            position,
            nodes: result.info.nodes,
            best: result.best,
            elapsed: start.elapsed(),
        };
        total += line.nodes;
        on_line(&line);
    }
    total
}
