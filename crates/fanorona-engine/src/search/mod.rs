//! The search: iterative deepening over whole turns, negamax alpha-beta
//! with principal-variation search and aspiration windows, a
//! transposition table, killer and history move ordering, late move
//! reductions, and a quiescence search over captures so the horizon never
//! falls in the middle of a fight.
//!
//! Depth is counted in turns. A node's children are the positions after
//! each complete turn ([`crate::children`]), so a capture chain is one move
//! of the tree and the fifty-turn counter advances once per ply.

mod alphabeta;
mod ordering;
pub(crate) mod params;
mod pv;

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use fanorona::{Position, Turn};

use crate::{
    children::{root_children, turn_to, Child},
    clock::Start,
    eval::Weights,
    limits::Limits,
    score::{Score, INFINITY, MATE, MATE_BOUND, TABLE_WIN, WIN_BOUND},
    tables::{TableResult, Tables},
    tt::Table,
};

use ordering::History;
pub use params::MAX_DEPTH;
use params::{
    ASPIRATION, ASPIRATION_GROWTH, ASPIRATION_MAX, ASPIRATION_MIN_DEPTH, CHECK_EVERY,
    CHILDREN_ROOM, FULL_QUIESCENCE, MAX_PLY,
};
use pv::Pv;

/// How an engine is set up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The size of the transposition table in bytes.
    pub table_bytes: usize,
    /// The evaluation weights.
    pub weights: Weights,
    /// Whether the network (`src/net/`) corrects the evaluation: off
    /// unless asked for, as it has not yet won a match at level 6's
    /// budget (`docs/ENGINE.md`, "Changes measured").
    pub network: bool,
    /// Whether the levels that have an opening book (level 6) play from
    /// it: on unless turned off, as for a match that measures the book.
    pub book: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            table_bytes: 16 << 20,
            weights: Weights::DEFAULT,
            network: false,
            book: true,
        }
    }
}

/// What the search reports after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The depth completed, in turns.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation: the best line found.
    pub pv: Vec<Turn>,
}

impl Info {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best turn found, `None` when the game is over: the turn the
    /// search chose, written down as the root's children were generated
    /// (with a chain open, the rest of the turn; stopping it is a turn of
    /// no landings).
    pub best: Option<Turn>,
    /// The position after the best turn.
    pub after: Option<Position>,
    /// The last report: depth, score, nodes, principal variation.
    pub info: Info,
}

/// A search engine: the transposition table and ordering tables, kept
/// between searches of the same game.
#[derive(Debug)]
pub struct Engine {
    tt: Table,
    weights: Weights,
    network: bool,
    pub(crate) book: bool,
    pub(crate) tables: Option<Arc<Tables>>,
    stack: Vec<Vec<Child>>,
    pv: Pv,
    history: History,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The most capture turns quiescence follows (a level may set fewer).
    pub(crate) max_quiescence: u32,
}

impl Engine {
    /// A new engine.
    pub fn new(config: Config) -> Engine {
        Engine {
            tt: Table::new(config.table_bytes),
            weights: config.weights,
            network: config.network,
            book: config.book,
            tables: None,
            stack: (0..=MAX_PLY)
                .map(|_| Vec::with_capacity(CHILDREN_ROOM))
                .collect(),
            pv: Pv::new(),
            history: History::new(),
            nodes: 0,
            seldepth: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            max_quiescence: FULL_QUIESCENCE,
        }
    }

    /// Forgets everything learnt, as for a new game.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Gives the engine endgame tables to use (or takes them away). They
    /// are shared: many engines may hold the same tables.
    pub fn set_tables(&mut self, tables: Option<Arc<Tables>>) {
        self.tables = tables;
    }

    /// The endgame tables in use, if any.
    pub fn tables(&self) -> Option<&Arc<Tables>> {
        self.tables.as_ref()
    }

    /// The exact score of `pos` from the endgame tables, when it is in
    /// them.
    #[inline]
    fn probe(&self, pos: &Position, ply: usize) -> Option<i32> {
        let tables = self.tables.as_ref()?;
        if pos.board().occupied().count() > tables.max_stones() {
            return None;
        }
        let probe = tables.probe(pos)?;
        let turns = probe.turns as i32;
        let score = |loser: usize| TABLE_WIN - 100 * loser as i32 - turns - ply as i32;
        Some(match probe.result {
            TableResult::Draw => 0,
            TableResult::Win => score(pos.board().by_color(!pos.turn()).count()),
            TableResult::Loss => -score(pos.board().by_color(pos.turn()).count()),
        })
    }

    /// The evaluation weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Searches `pos` within `limits`, calling `on_info` after each depth,
    /// until a limit is reached or `stop` is raised. Always returns a legal
    /// turn when the game is not over, even when stopped at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        stop: &AtomicBool,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        let start = Start::now();
        self.prepare(limits, start);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut root = std::mem::take(&mut self.stack[0]);
        let mut turns = Vec::new();
        root_children(pos, &mut root, &mut turns);
        let mut info = Info {
            depth: 0,
            seldepth: 0,
            score: Score::Value(0),
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if root.is_empty() {
            self.stack[0] = root;
            return SearchResult {
                best: None,
                after: None,
                info,
            };
        }
        // Until a depth completes, the first turn generated is the answer.
        let mut best = root[0].pos;
        let mut best_score = 0;
        let mut scores = vec![-INFINITY; root.len()];
        for depth in 1..=max_depth {
            let (score, found) = self.aspiration(&mut root, &mut scores, depth, best_score, stop);
            if let Some(found) = found {
                best = found;
            }
            if self.stopped {
                break;
            }
            best_score = score;
            info = Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(score),
                nodes: self.nodes,
                elapsed: start.elapsed(),
                pv: self.pv.turns(pos),
            };
            on_info(&info);
            let decided = score.abs() > MATE_BOUND && (MATE - score.abs()) as u32 <= depth;
            // A forced turn needs no thought when playing (time or node
            // limits); an analysis to a set depth still scores it.
            let forced = root.len() == 1 && limits.depth.is_none();
            if forced || decided {
                break;
            }
        }
        let best_turn = turn_to(&root, &turns, &best);
        self.stack[0] = root;
        info.nodes = self.nodes;
        info.elapsed = start.elapsed();
        if info.pv.first().and_then(|t| pos.play(t).ok()) != Some(best) {
            info.pv = best_turn.iter().cloned().collect();
        }
        SearchResult {
            best: best_turn,
            after: Some(best),
            info,
        }
    }

    /// Sets the limits of a search starting at `start`, and clears what
    /// the last one counted.
    pub(crate) fn prepare(&mut self, limits: Limits, start: Start) {
        self.tt.new_search();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.and_then(|t| start.deadline(t));
        self.history.new_search();
    }

    /// One depth with a narrow window around the last score, widened when
    /// the score falls outside it. Returns the score and the best child
    /// found at this depth, if any completed.
    fn aspiration(
        &mut self,
        root: &mut [Child],
        scores: &mut [i32],
        depth: u32,
        last: i32,
        stop: &AtomicBool,
    ) -> (i32, Option<Position>) {
        let mut window = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && last.abs() < WIN_BOUND {
            (last - window, last + window)
        } else {
            (-INFINITY, INFINITY)
        };
        let mut found = None;
        loop {
            let (score, best) = self.root(root, scores, depth, alpha, beta, stop);
            if best.is_some() {
                found = best;
            }
            if self.stopped {
                return (score, found);
            }
            if score <= alpha {
                alpha = (alpha - window).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + window).min(INFINITY);
            } else {
                return (score, found);
            }
            window *= ASPIRATION_GROWTH;
            if window > ASPIRATION_MAX {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Whether the search must stop: the node budget is spent, or, looked
    /// at every few nodes, the stop flag is raised or the time is up.
    #[inline]
    fn out_of_time(&mut self, stop: &AtomicBool) -> bool {
        if self.stopped {
            return true;
        }
        let look = self.nodes % CHECK_EVERY == 0;
        if self.nodes >= self.node_limit
            || (look
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.stopped = true;
        }
        self.stopped
    }
}
