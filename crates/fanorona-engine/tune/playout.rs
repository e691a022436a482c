//! What the endgame experiments share: their positions, a play-out
//! between two engines, the tables each side holds and the cost a turn.

use std::{
    fs,
    sync::{atomic::AtomicBool, Arc},
    time::Instant,
};

use fanorona::{Color, Position, Setup};
use fanorona_engine::{Config, Engine, Limits, Tables, WinDrawLoss};

use crate::Result;

/// Positions from `path` with at most 8 stones, a lead of `lead` stones or
/// more (at most 1 when `lead` is 0) and no capture pending, fresh from a
/// capture: `count` of them, spread evenly through the file.
pub(crate) fn endgame_positions(path: &str, count: usize, lead: usize) -> Result<Vec<Position>> {
    let mut all = Vec::new();
    for (pos, _) in data_positions(path)? {
        let b = pos.board();
        let (w, k) = (b.count(Color::White), b.count(Color::Black));
        let fits = if lead == 0 {
            w.abs_diff(k) <= 1
        } else {
            w.abs_diff(k) >= lead
        };
        let fresh = !pos.has_capture() && pos.turns_since_capture() == 0;
        if (5..=8).contains(&(w + k)) && fits && fresh {
            all.push(pos);
        }
    }
    all.dedup();
    Ok(spread(all, count))
}

/// The positions of a self-play data file, a `POSITION;RESULT` line each,
/// in order, with their results as written; lines without `;` are passed
/// over.
pub(crate) fn data_positions(path: &str) -> Result<Vec<(Position, String)>> {
    let text = fs::read_to_string(path)?;
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((pos, result)) = line.split_once(';') else {
            continue;
        };
        out.push((
            Position::from_setup(pos.parse::<Setup>()?)?,
            result.to_owned(),
        ));
    }
    Ok(out)
}

/// `count` of `all`, spread evenly through them.
pub(crate) fn spread<T>(all: Vec<T>, count: usize) -> Vec<T> {
    let step = (all.len() / count.max(1)).max(1);
    all.into_iter().step_by(step).take(count).collect()
}

/// How a play-out ended: the winner, if any, and the turns it took; and
/// per colour, the turns it played, the nodes searched and the time taken.
#[derive(Clone, Copy)]
pub(crate) struct PlayOut {
    pub(crate) winner: Option<Color>,
    pub(crate) turns: u32,
    played: [u32; 2],
    nodes: [u64; 2],
    micros: [u64; 2],
}

/// Plays `pos` out between two engines searching `nodes` nodes a turn,
/// `with[c]` the tables of colour c's engine, if any.
pub(crate) fn play_out(pos: Position, nodes: u64, with: [Option<&Arc<Tables>>; 2]) -> PlayOut {
    let mut engines = with.map(|t| {
        let mut e = Engine::new(Config {
            table_bytes: 8 << 20,
            ..Config::default()
        });
        e.set_tables(t.cloned());
        e
    });
    let stop = AtomicBool::new(false);
    let mut pos = pos;
    let mut out = PlayOut {
        winner: None,
        turns: 0,
        played: [0; 2],
        nodes: [0; 2],
        micros: [0; 2],
    };
    while pos.outcome().is_none() {
        let who = usize::from(pos.turn() == Color::Black);
        let started = Instant::now();
        let r = engines[who].search(&pos, Limits::nodes(nodes), &stop, |_| {});
        out.micros[who] += started.elapsed().as_micros() as u64;
        out.nodes[who] += r.info.nodes;
        out.played[who] += 1;
        match r.after {
            Some(after) => pos = after,
            None => break,
        }
        out.turns += 1;
    }
    out.winner = pos.outcome().and_then(|o| o.winner);
    out
}

/// Tables of up to `stones` stones (none for 0): read from the directory
/// that `TUNE_TABLES` names when it holds `tables-N.bin`, otherwise solved.
pub(crate) fn load_tables(stones: usize) -> Result<Option<Arc<Tables>>> {
    if stones == 0 {
        return Ok(None);
    }
    if let Ok(dir) = std::env::var("TUNE_TABLES") {
        let path = std::path::Path::new(&dir).join(format!("tables-{stones}.bin"));
        if path.exists() {
            let mut file = std::io::BufReader::new(fs::File::open(&path)?);
            let tables = Tables::read_from(&mut file)?;
            eprintln!(
                "tables up to {} stones read from {}",
                tables.max_stones(),
                path.display()
            );
            return Ok(Some(Arc::new(tables)));
        }
    }
    let started = Instant::now();
    let tables = Tables::build(stones);
    eprintln!(
        "tables up to {} stones solved in {:.1} s",
        tables.max_stones(),
        started.elapsed().as_secs_f64()
    );
    Ok(Some(Arc::new(tables)))
}

/// `AHEAD:BEHIND`, the tables of the side ahead and of the side behind.
pub(crate) fn parse_sides(text: &str) -> std::result::Result<[usize; 2], String> {
    let (a, b) = text
        .split_once(':')
        .ok_or_else(|| format!("expected AHEAD:BEHIND, got {text:?}"))?;
    let stones = |s: &str| s.parse().map_err(|e| format!("{s:?} in {text:?}: {e}"));
    Ok([stones(a)?, stones(b)?])
}

/// Loaded tables by their size, each loaded once.
#[derive(Default)]
pub(crate) struct TableSets(Vec<(usize, Option<Arc<Tables>>)>);

impl TableSets {
    pub(crate) fn load(&mut self, stones: usize) -> Result<()> {
        if !self.0.iter().any(|(n, _)| *n == stones) {
            self.0.push((stones, load_tables(stones)?));
        }
        Ok(())
    }

    pub(crate) fn get(&self, stones: usize) -> Option<&Arc<Tables>> {
        self.0
            .iter()
            .find(|(n, _)| *n == stones)
            .and_then(|(_, t)| t.as_ref())
    }
}

/// The side with more stones.
pub(crate) fn ahead(p: &Position) -> Color {
    let b = p.board();
    if b.count(Color::White) > b.count(Color::Black) {
        Color::White
    } else {
        Color::Black
    }
}

/// Mean nodes and milliseconds a turn of colour `side` over `outs`.
pub(crate) fn cost<'a>(outs: impl Iterator<Item = (&'a PlayOut, Color)>) -> (f64, f64) {
    let (mut turns, mut nodes, mut micros) = (0u64, 0u64, 0u64);
    for (o, side) in outs {
        let i = usize::from(side == Color::Black);
        turns += u64::from(o.played[i]);
        nodes += o.nodes[i];
        micros += o.micros[i];
    }
    let t = turns.max(1) as f64;
    (nodes as f64 / t, micros as f64 / t / 1000.0)
}

/// The result of a game won by `winner` (or drawn) for `side`.
pub(crate) fn result_for(winner: Option<Color>, side: Color) -> WinDrawLoss {
    match winner {
        None => WinDrawLoss::Draw,
        Some(c) if c == side => WinDrawLoss::Win,
        Some(_) => WinDrawLoss::Loss,
    }
}
