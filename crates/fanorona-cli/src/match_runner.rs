//! `fanorona match`: games between two built-in players on every core,
//! printed in the order they were numbered, then the tally; and for
//! `--engine CMD` twice, the options read and the match handed to
//! [`versus`], which plays engines over the line protocol.

use std::{
    collections::BTreeMap,
    io::Write,
    num::NonZeroUsize,
    sync::{
        atomic::{AtomicBool, AtomicU32, Ordering},
        mpsc,
    },
    thread,
};

use fanorona_engine::{play_game, GameRecord, MatchConfig, Player, Tally, WinDrawLoss};

use fanorona::Position;

use crate::{echo, openings, parse_limit, parse_number, sprt, usage, versus, Failure};

/// Plays `config.games` games between `first` (White in even games, Black
/// in odd ones) and `second`, printing a line per game and the tally from
/// the first player's side.
///
/// # Errors
///
/// A game reported an illegal turn ([`Failure::Illegal`]), or writing
/// failed.
pub(crate) fn play(
    out: &mut impl Write,
    first: Player,
    second: Player,
    config: &MatchConfig,
) -> Result<(), Failure> {
    writeln!(
        out,
        "{first} against {second}: {} games, {} opening turns, seed {}; \
         colours change every game",
        config.games, config.opening_turns, config.seed
    )?;
    let threads = thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .min(config.games as usize);
    let next = AtomicU32::new(0);
    let failed = AtomicBool::new(false);
    let (send, receive) = mpsc::channel();
    let mut tally = Tally::default();
    let mut failure = None;
    thread::scope(|scope| -> Result<(), Failure> {
        for _ in 0..threads {
            let send = send.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= config.games || failed.load(Ordering::Relaxed) {
                    break;
                }
                let record = play_game(first, second, config, index);
                failed.fetch_or(record.is_err(), Ordering::Relaxed);
                if send.send((index, record)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        // Results arrive as games end; each is printed once every game
        // before it has been.
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        for (index, record) in receive {
            waiting.insert(index, record);
            while let Some(record) = waiting.remove(&printed) {
                match record {
                    Ok(record) => {
                        writeln!(out, "{}", game_line(printed, first, second, &record))?;
                        out.flush()?;
                        tally.add(record.result);
                    }
                    Err(err) => {
                        failure.get_or_insert(format!("game {}: {err}", printed + 1));
                    }
                }
                printed += 1;
            }
        }
        Ok(())
    })?;
    if let Some(message) = failure {
        return Err(Failure::Illegal(message));
    }
    writeln!(out, "tally {first}: {tally}")?;
    Ok(())
}

/// `game 2: level 1 (Beginner) as black vs random: win, 38 turns (black
/// wins: white has no stones left)`.
fn game_line(index: u32, first: Player, second: Player, record: &GameRecord) -> String {
    let result = match record.result {
        WinDrawLoss::Win => "win",
        WinDrawLoss::Draw => "draw",
        WinDrawLoss::Loss => "loss",
    };
    let how = record
        .end
        .outcome()
        .map_or_else(String::new, |outcome| format!(" ({outcome})"));
    format!(
        "game {}: {first} as {} vs {second}: {result}, {} turns{how}",
        index + 1,
        record.first_plays,
        record.turns.len()
    )
}

/// The options of `match --engine`.
pub(crate) struct EngineMatch {
    pub(crate) engine: Vec<String>,
    pub(crate) games: Option<String>,
    pub(crate) time: Option<String>,
    pub(crate) nodes: Option<String>,
    pub(crate) depth: Option<String>,
    pub(crate) level: Option<String>,
    pub(crate) openings: String,
    pub(crate) seed: String,
    pub(crate) sprt: Option<String>,
    pub(crate) concurrency: Option<String>,
    pub(crate) timeout: Option<String>,
    pub(crate) record: Option<std::path::PathBuf>,
    pub(crate) adjudicate_draw: Option<String>,
}

/// `match --engine CMD --engine CMD`: reads every option, then plays.
pub(crate) fn engine_match(out: &mut impl Write, ask: EngineMatch) -> Result<(), Failure> {
    let [first, second] = ask.engine.as_slice() else {
        return Err(Failure::Usage(format!(
            "match: --engine is given {} times: expected twice, the first engine and the second",
            ask.engine.len()
        )));
    };
    let mut engines = [
        usage(versus::EngineCommand::parse(first))?,
        usage(versus::EngineCommand::parse(second))?,
    ];
    if engines[0].name == engines[1].name {
        engines[0].name.push_str(" #1");
        engines[1].name.push_str(" #2");
    }
    let go = match (&ask.time, &ask.nodes, &ask.depth, &ask.level) {
        (Some(ms), ..) => versus::Go::Time(parse_number("time", ms, 1)?),
        (None, Some(n), ..) => versus::Go::Nodes(parse_number("nodes", n, 1)?),
        (None, None, Some(d), _) => {
            versus::Go::Depth(usage(parse_limit("depth", d))?.depth.unwrap_or(1))
        }
        (None, None, None, Some(l)) => versus::Go::Level(usage(crate::report::parse_level(l))?),
        (None, None, None, None) => {
            return Err(Failure::Usage(
                "match --engine: expected --time MS, --nodes N, --depth D or --level L".into(),
            ))
        }
    };
    let games = match &ask.games {
        Some(n) => Some(parse_number("games", n, 1)?),
        None => None,
    };
    let sprt = match &ask.sprt {
        Some(text) => Some(usage(text.parse::<sprt::Sprt>())?),
        None => None,
    };
    let draw = match &ask.adjudicate_draw {
        Some(text) => Some(usage(text.parse::<versus::DrawRule>())?),
        None => None,
    };
    let concurrency = match &ask.concurrency {
        Some(n) => parse_number("concurrency", n, 1)?,
        None => std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
    };
    let timeout = match (&ask.timeout, go) {
        (Some(ms), _) => parse_number("timeout", ms, 1)?,
        (None, versus::Go::Time(ms)) => ms.saturating_add(5000),
        (None, _) => 60_000,
    };
    let seed: u64 = parse_number("seed", &ask.seed, 0)?;
    let (openings, openings_name) = match ask.openings.parse::<u32>() {
        Ok(turns) => {
            let pairs = games.map_or(1000, |g: u32| g.div_ceil(2));
            let list = (0..pairs)
                .map(|pair| {
                    let turns = fanorona_engine::opening(seed, pair, turns);
                    let mut end = Position::start();
                    for turn in &turns {
                        end = end
                            .play(turn)
                            .map_err(|err| Failure::Illegal(format!("opening {turn}: {err}")))?;
                    }
                    Ok(openings::Opening {
                        start: Position::start(),
                        turns,
                        end,
                    })
                })
                .filter(|o| !matches!(o, Ok(o) if o.end.outcome().is_some()))
                .collect::<Result<Vec<_>, Failure>>()?;
            if list.is_empty() {
                return Err(Failure::Usage(format!(
                    "--openings {turns}: every random opening ends the game"
                )));
            }
            (list, format!("{turns} random turns (seed {seed})"))
        }
        Err(_) => {
            let text = std::fs::read_to_string(&ask.openings).map_err(|err| {
                Failure::Usage(format!(
                    "cannot read the openings {}: {err}",
                    echo::quote(&ask.openings)
                ))
            })?;
            let list = usage(openings::parse_file(&ask.openings, &text))?;
            (list, ask.openings.clone())
        }
    };
    // By nodes, depth or level an engine plays the same turn in the same
    // position: an opening played again replays its two games, which would
    // count twice.
    let games = if matches!(go, versus::Go::Time(_)) {
        games
    } else {
        let all = u32::try_from(openings.len())
            .unwrap_or(u32::MAX)
            .saturating_mul(2);
        if games.is_none_or(|g| g > all) {
            writeln!(
                out,
                "{go}: an opening played again replays the same two games, so the match \
                 stops after {all} games, each opening played with both colours"
            )?;
        }
        Some(games.map_or(all, |g| g.min(all)))
    };
    let settings = versus::Settings {
        engines,
        go,
        timeout: std::time::Duration::from_millis(timeout),
        openings,
        openings_name,
        games,
        sprt,
        concurrency,
        record: ask.record,
        draw,
    };
    let failed = versus::run(out, &settings)?;
    if failed {
        return Err(Failure::Illegal(
            "an engine failed: the games it lost say how".into(),
        ));
    }
    Ok(())
}
