//! The search: iterative deepening over whole turns, negamax alpha-beta
//! with principal-variation search and aspiration windows, a
//! transposition table, killer and history move ordering, late move
//! reductions, and a quiescence search over captures so the horizon never
//! falls in the middle of a fight.
//!
//! Depth is counted in turns. A node's children are the positions after
//! each complete turn ([`crate::children`]), so a capture chain is one move
//! of the tree and the fifty-turn counter advances once per ply.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use fanorona::{Position, Turn};

use crate::{
    children::{children, Child},
    eval::{evaluate, Weights},
    level::{self, Level, LevelSpec, FULL_QUIESCENCE},
    limits::Limits,
    score::{from_table, to_table, Score, INFINITY, MATE, MATE_BOUND, TABLE_WIN, WIN_BOUND},
    tables::{TableResult, Tables},
    tt::{Bound, Table},
    zobrist::zobrist,
};

/// The deepest a search goes, quiescence included, in turns.
pub const MAX_DEPTH: u32 = 64;
const MAX_PLY: usize = 96;
/// How far above the static value plus the stones a capture takes its
/// position may still turn out, in quiescence (see `quiescence`).
const DELTA_MARGIN: i32 = 200;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// The first aspiration window, either side of the last score.
const ASPIRATION: i32 = 35;

/// How an engine is set up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The size of the transposition table in bytes.
    pub table_bytes: usize,
    /// The evaluation weights.
    pub weights: Weights,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            table_bytes: 16 << 20,
            weights: Weights::DEFAULT,
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
    /// The best turn found, `None` when the game is over.
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
    tables: Option<Arc<Tables>>,
    stack: Vec<Vec<Child>>,
    pv: Vec<Position>,
    pv_len: [usize; MAX_PLY + 1],
    killers: [[u16; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    nodes: u64,
    seldepth: usize,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    max_quiescence: u32,
}

/// Children of a node are at most this many in practice; each ply's list
/// is allocated once with this room and grows only past it.
const CHILDREN_ROOM: usize = 256;

impl Engine {
    /// A new engine.
    pub fn new(config: Config) -> Engine {
        Engine {
            tt: Table::new(config.table_bytes),
            weights: config.weights,
            tables: None,
            stack: (0..=MAX_PLY)
                .map(|_| Vec::with_capacity(CHILDREN_ROOM))
                .collect(),
            pv: vec![Position::start(); (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: [0; MAX_PLY + 1],
            killers: [[u16::MAX; 2]; MAX_PLY + 1],
            history: vec![0; 45 * 45],
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
        self.history.fill(0);
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
        let start = Instant::now();
        self.prepare(limits, start);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut root = std::mem::take(&mut self.stack[0]);
        children(pos, &mut root);
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
                pv: self.pv_turns(pos),
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
        self.stack[0] = root;
        info.nodes = self.nodes;
        info.elapsed = start.elapsed();
        if info.pv.first().and_then(|t| pos.play(t).ok()) != Some(best) {
            info.pv = turn_between(pos, &best).into_iter().collect();
        }
        SearchResult {
            best: turn_between(pos, &best),
            after: Some(best),
            info,
        }
    }

    /// Chooses a turn as `level` plays, with `seed` deciding the weak
    /// levels' choices: the same position, level and seed give the same
    /// turn. `stop` ends the search early with the best turn so far.
    pub fn play_level(
        &mut self,
        pos: &Position,
        level: Level,
        seed: u64,
        stop: &AtomicBool,
    ) -> SearchResult {
        let spec = level.spec();
        let tables = if spec.tables {
            None
        } else {
            self.tables.take()
        };
        self.max_quiescence = spec.quiescence;
        let result = self.play_spec(pos, spec, seed, stop);
        self.max_quiescence = FULL_QUIESCENCE;
        if tables.is_some() {
            self.tables = tables;
        }
        result
    }

    fn play_spec(
        &mut self,
        pos: &Position,
        spec: LevelSpec,
        seed: u64,
        stop: &AtomicBool,
    ) -> SearchResult {
        if spec.noise == 0 || spec.depth.is_none() {
            let limits = Limits {
                depth: spec.depth,
                nodes: spec.nodes,
                time: None,
            };
            return self.search(pos, limits, stop, |_| {});
        }
        let depth = spec.depth.unwrap_or(1);
        let start = Instant::now();
        self.prepare(Limits::depth(depth), start);
        let mut root = Vec::new();
        children(pos, &mut root);
        let mut scores = Vec::with_capacity(root.len());
        for c in &root {
            let s = -self.negamax(&c.pos, depth as i32 - 1, -INFINITY, INFINITY, 1, stop);
            scores.push(s);
        }
        let mut rng = fastrand::Rng::with_seed(seed);
        let chosen = root.get(level::pick(&scores, spec.noise, rng.f64()));
        let best = chosen.and_then(|c| turn_between(pos, &c.pos));
        let score = chosen.map_or(0, |c| scores[usize::from(c.index)]);
        SearchResult {
            info: Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(score),
                nodes: self.nodes,
                elapsed: start.elapsed(),
                pv: best.iter().cloned().collect(),
            },
            best,
            after: chosen.map(|c| c.pos),
        }
    }

    fn prepare(&mut self, limits: Limits, start: Instant) {
        self.tt.new_search();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.killers = [[u16::MAX; 2]; MAX_PLY + 1];
        for h in &mut self.history {
            *h /= 8;
        }
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
        let (mut alpha, mut beta) = if depth >= 4 && last.abs() < WIN_BOUND {
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
            window *= 4;
            if window > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root: every child searched, the best moved to the front for the
    /// next depth.
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        root: &mut [Child],
        scores: &mut [i32],
        depth: u32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> (i32, Option<Position>) {
        // Order: last depth's scores, best first (stable, so ties keep
        // generation order and the search stays deterministic).
        let mut order: Vec<usize> = (0..root.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let mut best_score = -INFINITY;
        let mut best = None;
        for (n, &i) in order.iter().enumerate() {
            let child = root[i].pos;
            let d = depth as i32 - 1;
            let score = if n == 0 {
                -self.negamax(&child, d, -beta, -alpha, 1, stop)
            } else {
                let s = -self.negamax(&child, d, -alpha - 1, -alpha, 1, stop);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(&child, d, -beta, -alpha, 1, stop)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            scores[i] = score;
            if score > best_score {
                best_score = score;
            }
            if score > alpha {
                alpha = score;
                best = Some(child);
                self.update_pv(0, child);
                if score >= beta {
                    break;
                }
            } else if n > 0 {
                // Below the window: keep it after the searched ones.
                scores[i] = scores[i].min(alpha - 1);
            }
        }
        (best_score, best)
    }

    fn update_pv(&mut self, ply: usize, child: Position) {
        let row = ply * (MAX_PLY + 1);
        let next = (ply + 1) * (MAX_PLY + 1);
        self.pv[row + ply] = child;
        let len = self.pv_len[ply + 1].max(ply + 1);
        for p in ply + 1..len {
            self.pv[row + p] = self.pv[next + p];
        }
        self.pv_len[ply] = len;
    }

    fn pv_turns(&self, pos: &Position) -> Vec<Turn> {
        let mut out = Vec::new();
        let mut at = *pos;
        for p in 0..self.pv_len[0] {
            let next = self.pv[p];
            match turn_between(&at, &next) {
                Some(t) => out.push(t),
                None => break,
            }
            at = next;
        }
        out
    }

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

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_time(stop) {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = end_score(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return evaluate(pos, &self.weights);
        }
        if let Some(score) = self.probe(pos, ply) {
            return score;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0, stop);
        }
        let pv_node = beta - alpha > 1;
        let key = zobrist(pos);
        let mut tt_best = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_best = hit.best;
            if !pv_node && i32::from(hit.depth) >= depth {
                let s = from_table(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let mut list = std::mem::take(&mut self.stack[ply]);
        children(pos, &mut list);
        self.order(&mut list, tt_best, ply);
        // A forced turn costs no depth.
        let extend = i32::from(list.len() == 1 && (ply as i32) < 2 * depth + 8);
        let alpha_in = alpha;
        let mut best_score = -INFINITY;
        let mut best_index = None;
        for n in 0..list.len() {
            pick_best(&mut list, n);
            let child = list[n];
            let d = depth - 1 + extend;
            let quiet = child.captured == 0;
            let killer = self.killers[ply].contains(&child.id);
            let score = if n == 0 {
                -self.negamax(&child.pos, d, -beta, -alpha, ply + 1, stop)
            } else {
                let reduce = if depth >= 3 && n >= 3 && quiet && !killer {
                    1 + i32::from(n >= 8 && depth >= 5)
                } else {
                    0
                };
                let mut s =
                    -self.negamax(&child.pos, d - reduce, -alpha - 1, -alpha, ply + 1, stop);
                if s > alpha && reduce > 0 {
                    s = -self.negamax(&child.pos, d, -alpha - 1, -alpha, ply + 1, stop);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child.pos, d, -beta, -alpha, ply + 1, stop);
                }
                s
            };
            if self.stopped {
                self.stack[ply] = list;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_index = Some(child.index);
            }
            if score > alpha {
                alpha = score;
                self.update_pv(ply, child.pos);
                if score >= beta {
                    if quiet {
                        self.reward(ply, child.id, depth);
                    }
                    break;
                }
            }
        }
        self.stack[ply] = list;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            depth.clamp(0, i32::from(i8::MAX)) as i8,
            to_table(best_score, ply),
            bound,
            best_index,
        );
        best_score
    }

    fn reward(&mut self, ply: usize, id: u16, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != id {
            k[1] = k[0];
            k[0] = id;
        }
        let h = &mut self.history[usize::from(id)];
        *h = (*h + depth * depth).min(1 << 20);
    }

    /// Sets each child's ordering score: the table's best child, then
    /// captures by stones taken, then killers, then history.
    fn order(&self, list: &mut [Child], tt_best: Option<u16>, ply: usize) {
        let killers = self.killers[ply];
        for c in list.iter_mut() {
            c.order = if Some(c.index) == tt_best {
                i32::MAX
            } else if c.captured > 0 {
                (1 << 28) + i32::from(c.captured) * 1024 + self.history[usize::from(c.id)].min(1023)
            } else if c.id == killers[0] {
                1 << 27
            } else if c.id == killers[1] {
                (1 << 27) - 1
            } else {
                self.history[usize::from(c.id)]
            };
        }
    }

    /// Captures only, until the side to move has none: it may stand on the
    /// static value when that is already good enough.
    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if qdepth > 0 {
            if self.out_of_time(stop) {
                return 0;
            }
            self.nodes += 1;
            self.seldepth = self.seldepth.max(ply);
            if let Some(score) = end_score(pos, ply) {
                return score;
            }
        }
        if qdepth > 0 {
            if let Some(score) = self.probe(pos, ply) {
                return score;
            }
        }
        let stand = evaluate(pos, &self.weights);
        if ply >= MAX_PLY || qdepth >= self.max_quiescence || !pos.has_capture() {
            return stand;
        }
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut list = std::mem::take(&mut self.stack[ply]);
        children(pos, &mut list);
        for c in list.iter_mut() {
            c.order = i32::from(c.captured);
        }
        for n in 0..list.len() {
            pick_best(&mut list, n);
            // Delta pruning: a capture that could not lift the static
            // value to alpha even with a margin is not searched; the list
            // is in order of stones taken, so neither is any after it.
            if stand + 100 * i32::from(list[n].captured) + DELTA_MARGIN <= alpha {
                break;
            }
            let child = list[n].pos;
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1, stop);
            if self.stopped {
                self.stack[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                self.update_pv(ply, child);
                if score >= beta {
                    break;
                }
            }
        }
        self.stack[ply] = list;
        best
    }
}

/// The score of a finished game for the side to move, `ply` turns from
/// the root: a quicker win scores higher, a slower loss less low.
fn end_score(pos: &Position, ply: usize) -> Option<i32> {
    let outcome = pos.outcome()?;
    Some(match outcome.winner {
        None => 0,
        Some(w) if w == pos.turn() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    })
}

/// Moves the child with the highest ordering score among `list[n..]` to
/// `list[n]` (a selection sort done lazily: most nodes cut off early).
#[inline]
fn pick_best(list: &mut [Child], n: usize) {
    let mut best = n;
    for i in n + 1..list.len() {
        if list[i].order > list[best].order {
            best = i;
        }
    }
    list.swap(n, best);
}

/// The turn that leads from `from` to `to`, in the rules crate's notation.
pub(crate) fn turn_between(from: &Position, to: &Position) -> Option<Turn> {
    if let Some(chain) = from.chain() {
        if from.end_turn().ok().as_ref() == Some(to) {
            return Some(Turn::new(chain.stone()));
        }
    }
    let mut found = None;
    from.for_each_turn(|t| {
        if found.is_none() && from.play(t).ok().as_ref() == Some(to) {
            found = Some(t.clone());
        }
    });
    found
}
