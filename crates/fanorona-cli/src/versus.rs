//! `fanorona match --engine CMD --engine CMD`: two programs that speak the
//! engine protocol play each other, every turn checked by the rules.
//!
//! Each concurrent game has its own process of each engine, told
//! `newgame` before every game and started again after it failed. An
//! engine that answers an illegal turn, no turn, an `error` line, exits or
//! takes longer than the timeout loses that game; the match goes on and
//! the game's line says why.

use std::{
    collections::BTreeMap,
    fmt,
    io::Write,
    path::PathBuf,
    sync::{
        atomic::{AtomicBool, AtomicU32, Ordering},
        mpsc,
    },
    thread,
    time::{Duration, Instant},
};

use fanorona::{Color, Position, Record, Score, Turn};
use fanorona_engine::{Level, WinDrawLoss};

mod adjudicate;
mod process;

pub(crate) use adjudicate::DrawRule;
use process::{Fault, Process};

use crate::{
    openings::Opening,
    sprt::{Counts, Sprt, Verdict},
    Failure,
};

/// A program that speaks the protocol: its name in the output and how to
/// start it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EngineCommand {
    /// What the output and the records call it.
    pub(crate) name: String,
    /// The program and its arguments.
    pub(crate) program: String,
    pub(crate) args: Vec<String>,
}

impl EngineCommand {
    /// Reads a command line, split at spaces: the program, then its
    /// arguments.
    pub(crate) fn parse(text: &str) -> Result<EngineCommand, String> {
        let mut words = text.split_whitespace().map(str::to_owned);
        let program = words
            .next()
            .ok_or_else(|| "--engine: expected a command, like \"fanorona engine\"".to_owned())?;
        Ok(EngineCommand {
            name: text.split_whitespace().collect::<Vec<_>>().join(" "),
            program,
            args: words.collect(),
        })
    }
}

/// How long each engine thinks about a turn: the lines it is sent.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Go {
    /// `go time MS`.
    Time(u64),
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth D`.
    Depth(u32),
    /// `level L`, then a plain `go`: the engine's own level.
    Level(Level),
}

impl fmt::Display for Go {
    /// The lines sent for each turn: `go time 100`, `go nodes 5000`, `go
    /// depth 3`, or `level 6, go`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Go::Time(ms) => write!(f, "go time {ms}"),
            Go::Nodes(n) => write!(f, "go nodes {n}"),
            Go::Depth(d) => write!(f, "go depth {d}"),
            Go::Level(level) => write!(f, "level {}, go", level.number()),
        }
    }
}

/// How the match is played.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    /// The first engine and the second.
    pub(crate) engines: [EngineCommand; 2],
    /// Each turn's thinking.
    pub(crate) go: Go,
    /// How long an engine may take to answer before it loses the game.
    pub(crate) timeout: Duration,
    /// The openings, used in order, each for a pair of games.
    pub(crate) openings: Vec<Opening>,
    /// Where the openings came from, for the records.
    pub(crate) openings_name: String,
    /// Stop after this many games.
    pub(crate) games: Option<u32>,
    /// Stop when this test decides.
    pub(crate) sprt: Option<Sprt>,
    /// Games played at once.
    pub(crate) concurrency: usize,
    /// Write every game here.
    pub(crate) record: Option<PathBuf>,
    /// Count a game both engines score as level for long enough a draw.
    pub(crate) draw: Option<DrawRule>,
}

/// One game played.
#[derive(Clone, Debug)]
struct Game {
    /// Its number, from 0.
    index: u32,
    /// The number of its opening, from 0.
    opening: usize,
    /// The first engine's colour.
    first_plays: Color,
    /// The turns after the opening.
    turns: Vec<Turn>,
    /// The result for the first engine.
    result: WinDrawLoss,
    /// How it ended: the rules' outcome, or the engine that failed and how.
    reason: String,
    /// The engine (0 or 1) that lost off the board.
    fault: Option<usize>,
}

/// Plays the match and prints a line per game, progress after each pair,
/// and the final tally and verdict. Returns whether an engine failed.
pub(crate) fn run(out: &mut impl Write, settings: &Settings) -> Result<bool, Failure> {
    let [first, second] = &settings.engines;
    let limit = settings.games.unwrap_or(u32::MAX);
    let mut record_file = match &settings.record {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|err| {
                Failure::Usage(format!("cannot write the record {}: {err}", path.display()))
            })?,
        )),
        None => None,
    };
    writeln!(
        out,
        "{} against {}: {}, {} openings from {}, each played with both colours; {}{}",
        first.name,
        second.name,
        settings.go,
        settings.openings.len(),
        settings.openings_name,
        settings
            .games
            .map_or_else(String::new, |n| format!("at most {n} games")),
        match (settings.games, &settings.sprt) {
            (Some(_), Some(sprt)) => format!(", SPRT {sprt}"),
            (None, Some(sprt)) => format!("SPRT {sprt}"),
            _ => String::new(),
        }
    )?;
    if let Some(rule) = &settings.draw {
        writeln!(out, "draws adjudicated: {rule}")?;
    }
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (send, receive) = mpsc::channel();
    let mut counts = Counts::default();
    let mut verdict = None;
    let mut faults = 0;
    let start = Instant::now();
    thread::scope(|scope| -> Result<(), Failure> {
        for _ in 0..settings.concurrency.max(1) {
            let send = send.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut processes: [Option<Process>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= limit {
                        break;
                    }
                    let Some(game) = play(&mut processes, settings, index, stop) else {
                        break;
                    };
                    if send.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut pending: BTreeMap<u32, Game> = BTreeMap::new();
        // Reports a game; true once the test has decided.
        let mut report = |game: Game| -> Result<bool, Failure> {
            writeln!(out, "{}", game_line(settings, &game))?;
            if let Some(file) = record_file.as_mut() {
                let record = record_of(settings, &game);
                writeln!(file, "{record}").and_then(|()| file.flush())?;
            }
            faults += usize::from(game.fault.is_some());
            let pairs = counts.pair_count();
            add(&mut counts, &mut pending, game);
            if let Some(sprt) = &settings.sprt {
                verdict = sprt.verdict(counts.llr(sprt));
            }
            if counts.pair_count() > pairs || verdict.is_some() {
                writeln!(out, "{}", progress(&counts, settings.sprt.as_ref(), start))?;
            }
            out.flush()?;
            Ok(verdict.is_some())
        };
        for game in &receive {
            // Once decided, the games still running are not counted; a
            // failure to write stops the match too.
            match report(game) {
                Ok(false) => {}
                Ok(true) => {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                Err(err) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(err);
                }
            }
        }
        Ok(())
    })?;
    let (wins, draws, losses) = (counts.wins, counts.draws, counts.losses);
    writeln!(
        out,
        "tally {}: +{wins} ={draws} -{losses} in {} games, pairs {}, elo {}{}",
        first.name,
        counts.games(),
        pairs_text(&counts),
        counts.elo(),
        if faults > 0 {
            format!(", {faults} lost by a failing engine")
        } else {
            String::new()
        }
    )?;
    if let Some(sprt) = &settings.sprt {
        let (low, high) = sprt.bounds();
        let verdict_text = verdict.map_or("undecided".to_owned(), |v: Verdict| v.to_string());
        writeln!(
            out,
            "sprt {sprt}: {verdict_text}, llr {:.2} [{low:.2}, {high:.2}]",
            counts.llr(sprt)
        )?;
    }
    Ok(faults > 0)
}

/// Counts `game`, and its pair once both games of it are in.
fn add(counts: &mut Counts, pending: &mut BTreeMap<u32, Game>, game: Game) {
    let points = |g: &Game| match g.result {
        WinDrawLoss::Win => 2,
        WinDrawLoss::Draw => 1,
        WinDrawLoss::Loss => 0,
    };
    match game.result {
        WinDrawLoss::Win => counts.wins += 1,
        WinDrawLoss::Draw => counts.draws += 1,
        WinDrawLoss::Loss => counts.losses += 1,
    }
    let partner = game.index ^ 1;
    if let Some(other) = pending.remove(&partner) {
        let sum = points(&game) + points(&other);
        counts.pairs[sum] += 1;
    } else {
        pending.insert(game.index, game);
    }
}

fn pairs_text(counts: &Counts) -> String {
    let p = counts.pairs;
    format!("{}-{}-{}-{}-{}", p[0], p[1], p[2], p[3], p[4])
}

/// `games 24 +10 =8 -6 pairs 0-2-5-4-1 elo +58.2 ± 40.1 llr 1.23 [-2.94,
/// 2.94] time 12 s`.
fn progress(counts: &Counts, sprt: Option<&Sprt>, start: Instant) -> String {
    let mut line = format!(
        "games {} +{} ={} -{} pairs {} elo {}",
        counts.games(),
        counts.wins,
        counts.draws,
        counts.losses,
        pairs_text(counts),
        counts.elo()
    );
    if let Some(sprt) = sprt {
        let (low, high) = sprt.bounds();
        line.push_str(&format!(
            " llr {:.2} [{low:.2}, {high:.2}]",
            counts.llr(sprt)
        ));
    }
    line.push_str(&format!(" time {} s", start.elapsed().as_secs()));
    line
}

/// `game 3 (opening 2): ENGINE as white vs ENGINE: win, 41 turns (white
/// wins: black has no stones left)`.
fn game_line(settings: &Settings, game: &Game) -> String {
    let result = match game.result {
        WinDrawLoss::Win => "win",
        WinDrawLoss::Draw => "draw",
        WinDrawLoss::Loss => "loss",
    };
    format!(
        "game {} (opening {}): {} as {} vs {}: {result}, {} turns ({})",
        game.index + 1,
        game.opening + 1,
        settings.engines[0].name,
        game.first_plays,
        settings.engines[1].name,
        game.turns.len(),
        game.reason
    )
}

/// The game as the site writes records, with tags naming the engines, the
/// opening and the thinking time.
fn record_of(settings: &Settings, game: &Game) -> Record {
    let opening = &settings.openings[game.opening];
    let (white, black) = if game.first_plays == Color::White {
        (0, 1)
    } else {
        (1, 0)
    };
    let mut record = Record::new();
    let score = match (game.result, game.first_plays) {
        (WinDrawLoss::Draw, _) => Score::Draw,
        (WinDrawLoss::Win, c) => Score::win(c),
        (WinDrawLoss::Loss, c) => Score::win(!c),
    };
    let tags = [
        ("Event", "fanorona match".to_owned()),
        ("Round", (game.index + 1).to_string()),
        ("White", settings.engines[white].name.clone()),
        ("Black", settings.engines[black].name.clone()),
        (
            "Opening",
            format!(
                "{} {}: {}",
                settings.openings_name,
                game.opening + 1,
                opening.line()
            ),
        ),
        ("TimeControl", settings.go.to_string()),
        ("Reason", game.reason.clone()),
    ];
    for (name, value) in tags {
        // The names are fixed and the values have no control characters
        // (the engine's lines were split at line ends).
        let clean: String = value.chars().filter(|c| !c.is_control()).collect();
        let _ = record.set_tag(name, &clean);
    }
    record.set_start(&opening.start);
    record.set_score(score);
    for turn in opening.turns.iter().chain(&game.turns) {
        record.push(turn.clone());
    }
    record
}

/// Plays game `index` with the slot's processes, starting them as needed;
/// `None` when the match was decided before it ended.
fn play(
    processes: &mut [Option<Process>; 2],
    settings: &Settings,
    index: u32,
    stop: &AtomicBool,
) -> Option<Game> {
    let opening_index = (index / 2) as usize % settings.openings.len();
    let opening = &settings.openings[opening_index];
    let first_plays = if index % 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut game = Game {
        index,
        opening: opening_index,
        first_plays,
        turns: Vec::new(),
        result: WinDrawLoss::Draw,
        reason: String::new(),
        fault: None,
    };
    let lose = |game: &mut Game, who: usize, processes: &mut [Option<Process>; 2], why: Fault| {
        processes[who] = None;
        game.fault = Some(who);
        game.result = if who == 0 {
            WinDrawLoss::Loss
        } else {
            WinDrawLoss::Win
        };
        game.reason = format!("{} lost: {why}", settings.engines[who].name);
    };
    // Both engines start the game fresh.
    for who in 0..2 {
        if let Err(why) = ready(
            &mut processes[who],
            &settings.engines[who],
            settings.timeout,
        ) {
            lose(&mut game, who, processes, why);
            return Some(game);
        }
    }
    let start_text = if opening.start == Position::start() {
        "start".to_owned()
    } else {
        opening.start.to_string()
    };
    let mut pos = opening.end;
    let mut moves: Vec<String> = opening.turns.iter().map(ToString::to_string).collect();
    // The score each turn after the opening was chosen with.
    let mut scores = Vec::new();
    while pos.outcome().is_none() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let who = usize::from(pos.turn() != first_plays);
        let Some(process) = processes[who].as_mut() else {
            lose(&mut game, who, processes, "is not running".into());
            return Some(game);
        };
        match turn(process, &start_text, &moves, settings, &pos) {
            Ok((turn, next, score)) => {
                moves.push(turn.to_string());
                game.turns.push(turn);
                scores.push(score);
                pos = next;
            }
            Err(why) => {
                lose(&mut game, who, processes, why);
                return Some(game);
            }
        }
        if let Some(rule) = &settings.draw {
            if pos.outcome().is_none() && rule.applies(moves.len(), &scores) {
                game.reason = rule.reason();
                return Some(game);
            }
        }
    }
    let outcome = pos.outcome()?;
    game.result = match outcome.winner {
        None => WinDrawLoss::Draw,
        Some(c) if c == first_plays => WinDrawLoss::Win,
        Some(_) => WinDrawLoss::Loss,
    };
    game.reason = outcome.to_string();
    Some(game)
}

/// Starts the engine if it is not running, then `newgame` and `isready`.
fn ready(
    slot: &mut Option<Process>,
    command: &EngineCommand,
    timeout: Duration,
) -> Result<(), Fault> {
    if slot.is_none() {
        *slot = Some(Process::start(command)?);
    }
    let Some(process) = slot.as_mut() else {
        return Err("is not running".into());
    };
    process.send("newgame")?;
    process.send("isready")?;
    process.expect(timeout, "isready", |line| (line == "readyok").then_some(()))
}

/// Asks for a turn in `pos` and checks it; with it, the score of the
/// engine's last `info` line (`None` without one in hundredths).
fn turn(
    process: &mut Process,
    start_text: &str,
    moves: &[String],
    settings: &Settings,
    pos: &Position,
) -> Result<(Turn, Position, Option<i32>), Fault> {
    let mut line = format!("position {start_text}");
    if !moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&moves.join(" "));
    }
    process.send(&line)?;
    match settings.go {
        Go::Level(level) => {
            process.send(&format!("level {}", level.number()))?;
            process.send("go")?;
        }
        go => process.send(&go.to_string())?,
    }
    let mut score = None;
    let answer = process.expect(settings.timeout, "go with a bestturn", |line| {
        if let Some(s) = adjudicate::info_score(line) {
            score = s;
        }
        line.strip_prefix("bestturn ").map(|t| t.trim().to_owned())
    })?;
    let shown = crate::echo::quote(&answer);
    if answer == "none" {
        return Err(format!("found no turn in {pos}"));
    }
    let turn: Turn = answer
        .parse()
        .map_err(|err| format!("answered bestturn {shown}, not a turn: {err}"))?;
    let next = pos
        .play(&turn)
        .map_err(|err| format!("played the illegal turn {turn} in {pos}: {err}"))?;
    Ok((turn, next, score))
}
