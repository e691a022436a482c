//! The `fanorona` command-line tool: legal turns, perft counts, boards and
//! replays over the rules crate, and the engine's analysis, line protocol
//! and matches.
//!
//! Exit codes: 0 on success, 1 when a turn given to `play` is illegal or a
//! match game reports one, 2 for usage errors and text that does not parse
//! (position, turn, record, depth, limit, level or player).

use std::{
    io::{self, Write},
    process::ExitCode,
    sync::Arc,
    time::Instant,
};

use clap::Parser;
use fanorona::{perft, perft_steps, Position, Setup, Turn};
use fanorona_engine::{Config, Engine, Limits, MatchConfig, Player, Tables, BENCH_DEPTH};

mod cli;
mod draw;
mod echo;
mod engine_protocol;
mod match_runner;
mod openings;
mod puzzles;
mod record;
mod report;
mod sprt;
mod versus;

use cli::{Cli, Subcommand};
use report::{parse_level, parse_limit, Think};

/// Why a command failed; each kind has its own exit code.
#[derive(Debug)]
enum Failure {
    /// The input does not parse or is not a valid position (exit code 2).
    Usage(String),
    /// A turn is not legal where it is played (exit code 1).
    Illegal(String),
    /// Writing the output failed (exit code 2).
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Failure {
        Failure::Output(err)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // Help and version go to stdout with code 0, usage errors to
            // stderr with code 2: clap knows which.
            let _ = err.print();
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    match run(cli.subcommand) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => {
            // The reader went away (`fanorona moves ... | head`): not an error.
            ExitCode::SUCCESS
        }
        Err(Failure::Output(err)) => {
            eprintln!("fanorona: error writing output: {err}");
            ExitCode::from(2)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("fanorona: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Illegal(message)) => {
            eprintln!("fanorona: {message}");
            ExitCode::from(1)
        }
    }
}

fn run(subcommand: Subcommand) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match subcommand {
        Subcommand::Moves { position } => moves(&mut out, &parse_position(&position)?),
        Subcommand::Perft {
            depth,
            position,
            steps,
        } => {
            let depth = parse_depth(&depth)?;
            let pos = match position {
                Some(text) => parse_position(&text)?,
                None => Position::start(),
            };
            count(&mut out, &pos, depth, steps)
        }
        Subcommand::Show { position } => {
            let pos = parse_position(&position)?;
            out.write_all(draw::position(&pos).as_bytes())?;
            Ok(())
        }
        Subcommand::Play {
            position,
            turns,
            record,
        } => match (record, position) {
            (Some(source), _) => record::play(&mut out, &source),
            (None, Some(position)) => play(&mut out, parse_position(&position)?, &turns),
            (None, None) => Err(Failure::Usage("a position or --record is needed".into())),
        },
        Subcommand::Analyse {
            position,
            time,
            nodes,
            depth,
            level,
            tables,
        } => {
            let pos = parse_position(&position)?;
            // Every argument is read before the tables are built (seconds
            // for 5 stones), so a bad one fails at once.
            let how = match (level, time, nodes, depth) {
                (Some(level), ..) => Think::Level(usage(parse_level(&level))?),
                (None, Some(ms), ..) => Think::Limits(usage(parse_limit("time", &ms))?),
                (None, None, Some(n), _) => Think::Limits(usage(parse_limit("nodes", &n))?),
                (None, None, None, Some(d)) => Think::Limits(usage(parse_limit("depth", &d))?),
                (None, None, None, None) => Think::Limits(Limits::time_ms(1000)),
            };
            let tables = endgame_tables(&tables.value)?;
            let mut engine = Engine::new(Config::default());
            engine.set_tables(tables);
            report::think(&mut engine, &pos, how, &mut out)?;
            Ok(())
        }
        Subcommand::Bench { depth, network } => {
            let depth = usage(parse_limit("depth", &depth))?.depth;
            bench(&mut out, depth.unwrap_or(BENCH_DEPTH), network.config())
        }
        Subcommand::Engine {
            tables,
            network,
            hash,
            no_book,
        } => {
            let mib = match hash.parse::<usize>() {
                Ok(n @ 1..=4096) => n,
                _ => {
                    return Err(Failure::Usage(format!(
                        "invalid --hash {hash:?}: expected 1 to 4096 MiB"
                    )))
                }
            };
            let tables = endgame_tables(&tables.value)?;
            let config = fanorona_engine::Config {
                table_bytes: mib << 20,
                book: !no_book,
                ..network.config()
            };
            engine_protocol::run(io::stdin().lock(), &mut out, config, tables)?;
            Ok(())
        }
        Subcommand::Tables { stones, out: path } => {
            let n = match stones.parse::<usize>() {
                Ok(n @ 2..=5) => n,
                _ => {
                    return Err(Failure::Usage(format!(
                        "invalid --stones {stones:?}: expected 2 to 5"
                    )))
                }
            };
            let start = std::time::Instant::now();
            let tables = Tables::build(n);
            let took = start.elapsed();
            writeln!(
                out,
                "tables up to {n} stones: {} bytes, solved in {} ms",
                tables.bytes(),
                took.as_millis()
            )?;
            if let Some(path) = path {
                let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
                tables.write_to(&mut file)?;
                file.flush()?;
                writeln!(out, "written to {}", path.display())?;
            }
            Ok(())
        }
        Subcommand::Match {
            white,
            black,
            engine,
            games,
            time,
            nodes,
            depth,
            level,
            openings,
            seed,
            sprt,
            concurrency,
            timeout,
            record,
            adjudicate_draw,
            tables,
        } => {
            if !engine.is_empty() {
                let ask = match_runner::EngineMatch {
                    engine,
                    games,
                    time,
                    nodes,
                    depth,
                    level,
                    openings,
                    seed,
                    sprt,
                    concurrency,
                    timeout,
                    record,
                    adjudicate_draw,
                };
                return match_runner::engine_match(&mut out, ask);
            }
            let engine_only = [
                ("--nodes", nodes.is_some()),
                ("--depth", depth.is_some()),
                ("--level", level.is_some()),
                ("--sprt", sprt.is_some()),
                ("--concurrency", concurrency.is_some()),
                ("--timeout", timeout.is_some()),
                ("--record", record.is_some()),
                ("--adjudicate-draw", adjudicate_draw.is_some()),
            ];
            if let Some((flag, _)) = engine_only.iter().find(|(_, given)| *given) {
                return Err(Failure::Usage(format!(
                    "match: {flag} is for engines: it needs --engine CMD twice"
                )));
            }
            let (Some(white), Some(black), Some(games)) = (white, black, games) else {
                return Err(Failure::Usage(
                    "match: --white, --black and --games are needed without --engine".into(),
                ));
            };
            let first = parse_player("--white", &white)?;
            let second = parse_player("--black", &black)?;
            let config = MatchConfig {
                games: parse_number("games", &games, 1)?,
                opening_turns: parse_number("openings", &openings, 0)?,
                time: match time {
                    Some(ms) => usage(parse_limit("time", &ms))?.time,
                    None => None,
                },
                seed: parse_number("seed", &seed, 0)?,
                tables: endgame_tables(&tables.value)?,
            };
            match_runner::play(&mut out, first, second, &config)
        }
        Subcommand::Openings {
            turns,
            count,
            depth,
            max_score,
            seed,
            nodes,
            from,
            out: path,
        } => {
            let max_cp = parse_stones("max-score", &max_score, "0.3")?;
            let count_n = parse_number("count", &count, 1)?;
            let (limits, scored_by) = match &nodes {
                Some(n) => (usage(parse_limit("nodes", n))?, format!("--nodes {n}")),
                None => (
                    Limits::depth(usage(parse_limit("depth", &depth))?.depth.unwrap_or(1)),
                    format!("--depth {depth}"),
                ),
            };
            let (source, command) = match &from {
                Some(file) => {
                    let name = file.display().to_string();
                    let text = std::fs::read_to_string(file)
                        .map_err(|err| Failure::Usage(format!("cannot read {name}: {err}")))?;
                    let openings = usage(openings::parse_file(&name, &text))?;
                    (
                        openings::Source::File {
                            name: name.clone(),
                            openings,
                        },
                        format!(
                            "fanorona openings --from {name} --count {count} {scored_by} \
                             --max-score {max_score}"
                        ),
                    )
                }
                None => (
                    openings::Source::Random {
                        turns: parse_number("turns", &turns, 1)?,
                        seed: parse_number("seed", &seed, 0)?,
                    },
                    format!(
                        "fanorona openings --turns {turns} --count {count} {scored_by} \
                         --max-score {max_score} --seed {seed}"
                    ),
                ),
            };
            let considered = if from.is_some() { "read" } else { "drawn" };
            let ask = openings::Balanced {
                source,
                count: count_n,
                limits,
                max_cp,
                command,
            };
            match path {
                None => {
                    let (kept, drawn) = openings::balanced(&mut out, &ask)?;
                    writeln!(out, "# kept {kept} of {drawn} {considered}")?;
                }
                Some(path) => {
                    let file = std::fs::File::create(&path).map_err(|err| {
                        Failure::Usage(format!("cannot write {}: {err}", path.display()))
                    })?;
                    let mut file = io::BufWriter::new(file);
                    let (kept, drawn) = openings::balanced(&mut file, &ask)?;
                    file.flush()?;
                    writeln!(
                        out,
                        "kept {kept} of {drawn} {considered}, written to {}",
                        path.display()
                    )?;
                }
            }
            Ok(())
        }
        Subcommand::Puzzles {
            games,
            play_nodes,
            check_nodes,
            margin,
            seed,
            threads,
            out: path,
            tables,
        } => {
            let margin_cp = parse_stones("margin", &margin, "1.5")?;
            let ask = puzzles::Ask {
                games: parse_number("games", &games, 1)?,
                play_nodes: parse_number("play-nodes", &play_nodes, 1)?,
                check_nodes: parse_number("check-nodes", &check_nodes, 1)?,
                margin: margin_cp,
                seed: parse_number("seed", &seed, 0)?,
                threads: parse_number("threads", &threads, 1)?,
                command: format!(
                    "fanorona puzzles --games {games} --play-nodes {play_nodes} \
                     --check-nodes {check_nodes} --margin {margin} --seed {seed} --tables {}",
                    tables.value
                ),
            };
            let tables = endgame_tables(&tables.value)?;
            match path {
                None => {
                    puzzles::generate(&mut out, &ask, tables)?;
                }
                Some(path) => {
                    let file = std::fs::File::create(&path).map_err(|err| {
                        Failure::Usage(format!("cannot write {}: {err}", path.display()))
                    })?;
                    let mut file = io::BufWriter::new(file);
                    let written = puzzles::generate(&mut file, &ask, tables)?;
                    file.flush()?;
                    writeln!(out, "{written} puzzles written to {}", path.display())?;
                }
            }
            Ok(())
        }
    }
}

/// The endgame tables `--tables` asks for: solved up to that many stones,
/// none for 0, or read from a file.
fn endgame_tables(text: &str) -> Result<Option<Arc<Tables>>, Failure> {
    match text.parse::<usize>() {
        Ok(0) => Ok(None),
        Ok(n @ 2..=5) => Ok(Some(Arc::new(Tables::build(n)))),
        Ok(_) => Err(Failure::Usage(format!(
            "invalid --tables {text:?}: expected 0 (none), 2 to 5 stones, or a file"
        ))),
        Err(_) => {
            let read = std::fs::File::open(text)
                .map(std::io::BufReader::new)
                .and_then(|mut r| Tables::read_from(&mut r));
            read.map(|t| Some(Arc::new(t))).map_err(|err| {
                Failure::Usage(format!(
                    "cannot read the tables file --tables {text:?}: {err}"
                ))
            })
        }
    }
}

/// Reads a position argument: position text, or `-` or `start`.
fn parse_position(text: &str) -> Result<Position, Failure> {
    position_from_text(text).map_err(Failure::Usage)
}

/// Reads position text, or `-` or `start` for the start position.
fn position_from_text(text: &str) -> Result<Position, String> {
    if text == "-" || text == "start" {
        return Ok(Position::start());
    }
    let setup: Setup = text
        .parse()
        .map_err(|err| format!("invalid position {}: {err}", echo::quote(text)))?;
    Position::from_setup(setup)
        .map_err(|err| format!("illegal position {}: {err}", echo::quote(text)))
}

/// Makes a reason for bad input a usage failure.
fn usage<T>(result: Result<T, String>) -> Result<T, Failure> {
    result.map_err(Failure::Usage)
}

/// Reads a match player: `random`, `greedy`, a level 1 to 6, or a capped
/// level like `6/100000`.
fn parse_player(flag: &str, text: &str) -> Result<Player, Failure> {
    text.parse()
        .map_err(|err| Failure::Usage(format!("{flag}: {err}")))
}

/// Reads the whole number `what`, `min` or more.
fn parse_number<T: std::str::FromStr + PartialOrd + From<u8>>(
    what: &str,
    text: &str,
    min: u8,
) -> Result<T, Failure> {
    match text.parse::<T>() {
        Ok(n) if n >= T::from(min) => Ok(n),
        _ => Err(Failure::Usage(format!(
            "invalid {what} {}: expected a whole number, {min} or more",
            echo::quote(text)
        ))),
    }
}

/// Reads a number of stones, 0 to 100, like `example`, as hundredths.
fn parse_stones(what: &str, text: &str, example: &str) -> Result<i32, Failure> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=100.0).contains(&s) => Ok((s * 100.0).round() as i32),
        _ => Err(Failure::Usage(format!(
            "invalid {what} {}: expected stones, 0 to 100, like {example}",
            echo::quote(text)
        ))),
    }
}

/// Reads the perft depth: a whole number, 1 or more.
fn parse_depth(text: &str) -> Result<u32, Failure> {
    match text.parse::<u32>() {
        Ok(depth) if depth >= 1 => Ok(depth),
        _ => Err(Failure::Usage(format!(
            "invalid depth {}: expected a whole number of turns, 1 or more",
            echo::quote(text)
        ))),
    }
}

fn bench(out: &mut impl Write, depth: u32, config: Config) -> Result<(), Failure> {
    let start = Instant::now();
    let mut n = 0;
    let mut written = Ok(());
    let total = fanorona_engine::bench(config, depth, |line| {
        n += 1;
        if written.is_ok() {
            written = writeln!(
                out,
                "{n} nodes {} time {} position {}",
                line.nodes,
                line.elapsed.as_millis(),
                line.position
            )
            .and_then(|()| out.flush());
        }
    });
    written?;
    let elapsed = start.elapsed();
    let nps = u128::from(total) * 1_000_000 / elapsed.as_micros().max(1);
    writeln!(
        out,
        "bench {total} nodes nps {nps} time {}",
        elapsed.as_millis()
    )?;
    Ok(())
}

fn moves(out: &mut impl Write, pos: &Position) -> Result<(), Failure> {
    let mut turns = Vec::new();
    pos.for_each_turn(|turn| turns.push(turn.to_string()));
    turns.sort_unstable();
    for turn in turns {
        writeln!(out, "{turn}")?;
    }
    Ok(())
}

fn count(out: &mut impl Write, pos: &Position, depth: u32, steps: bool) -> Result<(), Failure> {
    for d in 1..=depth {
        let nodes = if steps {
            perft_steps(pos, d)
        } else {
            perft(pos, d)
        };
        writeln!(out, "{d} {nodes}")?;
        out.flush()?;
    }
    Ok(())
}

fn play(out: &mut impl Write, start: Position, turns: &[String]) -> Result<(), Failure> {
    let parsed = turns
        .iter()
        .enumerate()
        .map(|(i, text)| {
            text.parse::<Turn>()
                .map_err(|err| Failure::Usage(format!("turn {} ({text:?}): {err}", i + 1)))
        })
        .collect::<Result<Vec<Turn>, Failure>>()?;
    let mut pos = start;
    for (i, turn) in parsed.iter().enumerate() {
        pos = pos
            .play(turn)
            .map_err(|err| Failure::Illegal(format!("turn {} ({turn}): {err}", i + 1)))?;
    }
    writeln!(out, "{pos}")?;
    if let Some(outcome) = pos.outcome() {
        writeln!(out, "{outcome}")?;
    }
    Ok(())
}
