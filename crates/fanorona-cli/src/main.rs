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

use clap::{Args, Parser};
use fanorona::{perft, perft_steps, Position, Setup, Turn};
use fanorona_engine::{Config, Engine, Limits, MatchConfig, Player, Tables, BENCH_DEPTH};

mod draw;
mod echo;
mod engine_protocol;
mod match_runner;
mod openings;
mod record;
mod report;
mod sprt;
mod versus;

use report::{parse_level, parse_limit, Think};

/// Fanoron-tsivy (9x5 Fanorona) from the command line.
///
/// POSITION is position text, for example
/// "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0", or `-` or
/// `start` for the start position.
#[derive(Debug, Parser)]
#[command(name = "fanorona", version)]
struct Cli {
    #[command(subcommand)]
    subcommand: Subcommand,
}

/// The subcommands, one variant each.
#[derive(Debug, clap::Subcommand)]
enum Subcommand {
    /// Print every legal complete turn, one per line, sorted.
    Moves {
        /// The position: position text, `-` or `start`.
        position: String,
    },
    /// Count the turn sequences of each length from 1 to DEPTH.
    Perft {
        /// The deepest level to count, 1 or more.
        #[arg(allow_negative_numbers = true)]
        depth: String,
        /// The position: position text, `-` or `start` (the default).
        position: Option<String>,
        /// Count single steps (and turn ends) instead of complete turns.
        #[arg(long)]
        steps: bool,
    },
    /// Draw the board with its coordinates, the side to move and the result.
    Show {
        /// The position: position text, `-` or `start`.
        position: String,
    },
    /// Play turns in notation and print the position they lead to.
    ///
    /// With --record, replay a game record instead (as the site's
    /// "Download record" gives it: tags, then one numbered turn a line).
    /// A record that ended off the board (a resignation, an agreed draw)
    /// prints its result and reason on a second line.
    Play {
        /// The position: position text, `-` or `start`.
        #[arg(required_unless_present = "record")]
        position: Option<String>,
        /// The turns to play in order, like `d3-e3A` or `e2-e3`.
        #[arg(required_unless_present = "record")]
        turns: Vec<String>,
        /// Replay the record in FILE (`-` for standard input).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "turns"])]
        record: Option<String>,
    },
    /// Search a position and print the engine's best turn.
    ///
    /// Prints a line per completed depth,
    /// `info depth D seldepth S score SCORE nodes N nps N time MS pv TURN...`,
    /// where SCORE is `cp N` (hundredths of a stone for the side to move),
    /// `win N` or `loss N` (the game ends in N turns), `won` or `lost`
    /// (so say the endgame tables), then
    /// `bestturn TURN`. When the game is over it prints
    /// `result OUTCOME` and `bestturn none`. Without a limit the search
    /// runs for 1000 milliseconds.
    Analyse {
        /// The position: position text, `-` or `start`.
        position: String,
        /// Search for this many milliseconds.
        #[arg(
            long,
            value_name = "MS",
            group = "limit",
            allow_negative_numbers = true
        )]
        time: Option<String>,
        /// Search this many nodes (the same turn on any machine).
        #[arg(long, value_name = "N", group = "limit", allow_negative_numbers = true)]
        nodes: Option<String>,
        /// Search this many turns deep, 1 to 64.
        #[arg(long, value_name = "D", group = "limit", allow_negative_numbers = true)]
        depth: Option<String>,
        /// Choose the turn as level L (1 to 6) plays it, with one `info`
        /// line; the same position and level always give the same turn.
        #[arg(
            long,
            value_name = "L",
            conflicts_with = "limit",
            allow_negative_numbers = true
        )]
        level: Option<String>,
        #[command(flatten)]
        tables: TablesArg,
    },
    /// Search the bench positions to a fixed depth and print the total of
    /// their nodes: the search's signature.
    ///
    /// Sixteen positions from the opening to the ending, kept in the
    /// engine crate, each searched alone on one thread with no endgame
    /// tables and a new game's 16 MB table, so the total is the same on
    /// any machine and changes exactly when the search does. Prints a line
    /// per position, `N nodes NODES time MS position TEXT`, then
    /// `bench NODES nodes nps NPS time MS`. A change to the search quotes
    /// the new total in its commit; the engine's tests pin the total at
    /// the default depth.
    Bench {
        /// Search each position this many turns deep, 1 to 64.
        #[arg(
            long,
            value_name = "D",
            default_value_t = BENCH_DEPTH.to_string(),
            allow_negative_numbers = true
        )]
        depth: String,
    },
    /// Answer the engine protocol on stdin and stdout, for matches with
    /// other programs.
    ///
    /// One command a line: `position start|TEXT [moves TURN...]`,
    /// `level L`, `go time MS|nodes N|depth D`, `go` (as the level, 6 by
    /// default), `newgame`, `isready`, `quit`. `go` answers with `info`
    /// lines as `analyse` prints them, then `bestturn TURN` or
    /// `bestturn none`; a line that cannot be obeyed answers
    /// `error REASON`. The protocol is described in the engine crate's
    /// README.
    Engine {
        #[command(flatten)]
        tables: TablesArg,
    },
    /// Solve the endgame tables and print their size and the time taken;
    /// with --out, write them to a file that `--tables FILE` reads back.
    Tables {
        /// Every position with up to this many stones, 2 to 5.
        #[arg(
            long,
            value_name = "N",
            default_value = "4",
            allow_negative_numbers = true
        )]
        stones: String,
        /// Write the tables to this file.
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// Play games between two players and print the score.
    ///
    /// Games are numbered from 1: the --white player is White in odd
    /// games and Black in even ones, and games 1 and 2, 3 and 4, and so on
    /// start from the same random opening. Games run on every core. Prints
    /// a line per game and, last, the tally from the --white player's
    /// side: wins, draws, losses, score, and the Elo difference with its
    /// 95% interval.
    ///
    /// With --engine CMD twice, two programs that speak the engine
    /// protocol play instead, each game in its own pair of processes,
    /// every turn checked by the rules: an engine that answers an illegal
    /// turn, no turn or an error, exits, or is slower than --timeout loses
    /// that game, and the match exits with code 1 at its end. The first
    /// engine is White in odd games. Each opening (from the --openings
    /// file, in order, again from the first when they run out) is played
    /// twice, colours swapped. Prints a line per game, a progress line per
    /// pair (`games N +W =D -L pairs P0-P1-P2-P3-P4 elo E ± ERR llr LLR
    /// [LOW, HIGH]`: P0 pairs where the first engine lost both games, P1
    /// where it scored a draw, and so on to P4, both won), the tally and,
    /// with --sprt, the verdict: H0 accepted, H1 accepted or undecided.
    Match {
        /// The first player: `random`, `greedy`, a level 1 to 6, or level
        /// 5 or 6 stopped after at most so many nodes, like `6/100000` (as
        /// a busy server cuts its search short).
        #[arg(long, value_name = "P", required_unless_present = "engine")]
        white: Option<String>,
        /// The second player, as `--white`.
        #[arg(long, value_name = "P", required_unless_present = "engine")]
        black: Option<String>,
        /// An engine program and its arguments, split at spaces, like
        /// "target/release/fanorona engine": given twice, the first engine
        /// and the second, instead of --white and --black.
        #[arg(
            long,
            value_name = "CMD",
            conflicts_with_all = ["white", "black"],
            num_args = 1,
            action = clap::ArgAction::Append
        )]
        engine: Vec<String>,
        /// The number of games, 1 or more; with --sprt, the most to play.
        #[arg(
            long,
            value_name = "N",
            required_unless_present = "sprt",
            allow_negative_numbers = true
        )]
        games: Option<String>,
        /// Give levels 5 and 6 this many milliseconds a turn instead of
        /// their node budget (the games are then no longer reproducible);
        /// with --engine, `go time MS` each turn.
        #[arg(long, value_name = "MS", group = "go", allow_negative_numbers = true)]
        time: Option<String>,
        /// With --engine: `go nodes N` each turn.
        #[arg(
            long,
            value_name = "N",
            group = "go",
            requires = "engine",
            allow_negative_numbers = true
        )]
        nodes: Option<String>,
        /// With --engine: `go depth D` each turn.
        #[arg(
            long,
            value_name = "D",
            group = "go",
            requires = "engine",
            allow_negative_numbers = true
        )]
        depth: Option<String>,
        /// Random turns played from the start before the players take
        /// over; with --engine, also a file of openings, one a line as
        /// `start moves TURN...` (see `fanorona openings`).
        #[arg(
            long,
            value_name = "K|FILE",
            default_value = "2",
            allow_negative_numbers = true
        )]
        openings: String,
        /// The seed of the openings and of the weak levels' choices.
        #[arg(
            long,
            value_name = "S",
            default_value = "0",
            allow_negative_numbers = true
        )]
        seed: String,
        /// With --engine: stop when the sequential probability ratio test
        /// decides, like `elo0=0,elo1=5,alpha=0.05,beta=0.05` (alpha and
        /// beta default to 0.05), counted by pairs of games.
        #[arg(long, value_name = "SPEC", requires = "engine")]
        sprt: Option<String>,
        /// With --engine: games played at once (each with its own two
        /// processes); the machine's cores by default.
        #[arg(
            long,
            value_name = "N",
            requires = "engine",
            allow_negative_numbers = true
        )]
        concurrency: Option<String>,
        /// With --engine: the milliseconds an engine may take to answer
        /// (`isready`, or a `go` with its `bestturn`) before it loses the
        /// game; by default --time and 5000 more, or 60000.
        #[arg(
            long,
            value_name = "MS",
            requires = "engine",
            allow_negative_numbers = true
        )]
        timeout: Option<String>,
        /// With --engine: write every game to FILE, one record after the
        /// other, as the site writes them (`fanorona play --record FILE`
        /// replays them).
        #[arg(long, value_name = "FILE", requires = "engine")]
        record: Option<std::path::PathBuf>,
        #[command(flatten)]
        tables: TablesArg,
    },
    /// Make balanced openings: random turns from the start that a search
    /// scores near level, each position once.
    ///
    /// Draws openings of --turns random turns (seeded), searches the
    /// position each leads to --depth turns deep and keeps it when its
    /// score is at most --max-score stones from level, until --count are
    /// kept or a hundred times as many were drawn. Writes a header of `#`
    /// comments naming the command, then one opening a line, as
    /// `start moves TURN...  # SCORE`, the file `match --openings` reads.
    Openings {
        /// Random turns from the start, 1 or more (there are only 39
        /// openings of 2 turns).
        #[arg(
            long,
            value_name = "K",
            default_value = "4",
            allow_negative_numbers = true
        )]
        turns: String,
        /// Openings to keep, 1 or more.
        #[arg(
            long,
            value_name = "N",
            default_value = "100",
            allow_negative_numbers = true
        )]
        count: String,
        /// The depth of the search that scores them, 1 to 64.
        #[arg(
            long,
            value_name = "D",
            default_value = "8",
            allow_negative_numbers = true
        )]
        depth: String,
        /// The largest score kept, in stones, like 0.3.
        #[arg(
            long,
            value_name = "STONES",
            default_value = "0.3",
            allow_negative_numbers = true
        )]
        max_score: String,
        /// The seed of the random turns.
        #[arg(
            long,
            value_name = "S",
            default_value = "0",
            allow_negative_numbers = true
        )]
        seed: String,
        /// Write to FILE instead of standard output (and print a summary).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
}

/// The `--tables` option of `analyse`, `engine` and `match`.
#[derive(Args, Debug)]
struct TablesArg {
    /// Use endgame tables: every position with up to this many stones (0
    /// to 5; 0 for none; 4 takes about a second to build), or a file that
    /// `fanorona tables --out FILE` wrote.
    #[arg(
        long = "tables",
        value_name = "STONES|FILE",
        default_value = "4",
        allow_negative_numbers = true
    )]
    value: String,
}

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
        Subcommand::Bench { depth } => {
            let depth = usage(parse_limit("depth", &depth))?.depth;
            bench(&mut out, depth.unwrap_or(BENCH_DEPTH))
        }
        Subcommand::Engine { tables } => {
            let tables = endgame_tables(&tables.value)?;
            engine_protocol::run(io::stdin().lock(), &mut out, tables)?;
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
            openings,
            seed,
            sprt,
            concurrency,
            timeout,
            record,
            tables,
        } => {
            if !engine.is_empty() {
                let ask = EngineMatch {
                    engine,
                    games,
                    time,
                    nodes,
                    depth,
                    openings,
                    seed,
                    sprt,
                    concurrency,
                    timeout,
                    record,
                };
                return engine_match(&mut out, ask);
            }
            let engine_only = [
                ("--nodes", nodes.is_some()),
                ("--depth", depth.is_some()),
                ("--sprt", sprt.is_some()),
                ("--concurrency", concurrency.is_some()),
                ("--timeout", timeout.is_some()),
                ("--record", record.is_some()),
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
            out: path,
        } => {
            let max_cp = match max_score.parse::<f64>() {
                Ok(s) if (0.0..=100.0).contains(&s) => (s * 100.0).round() as i32,
                _ => {
                    return Err(Failure::Usage(format!(
                        "invalid max-score {}: expected stones, 0 to 100, like 0.3",
                        echo::quote(&max_score)
                    )))
                }
            };
            let ask = openings::Balanced {
                turns: parse_number("turns", &turns, 1)?,
                count: parse_number("count", &count, 1)?,
                depth: usage(parse_limit("depth", &depth))?.depth.unwrap_or(1),
                max_cp,
                seed: parse_number("seed", &seed, 0)?,
                command: format!(
                    "fanorona openings --turns {turns} --count {count} --depth {depth} \
                     --max-score {max_score} --seed {seed}"
                ),
            };
            match path {
                None => {
                    let (kept, drawn) = openings::balanced(&mut out, &ask)?;
                    writeln!(out, "# kept {kept} of {drawn} drawn")?;
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
                        "kept {kept} of {drawn} drawn, written to {}",
                        path.display()
                    )?;
                }
            }
            Ok(())
        }
    }
}

/// The options of `match --engine`.
struct EngineMatch {
    engine: Vec<String>,
    games: Option<String>,
    time: Option<String>,
    nodes: Option<String>,
    depth: Option<String>,
    openings: String,
    seed: String,
    sprt: Option<String>,
    concurrency: Option<String>,
    timeout: Option<String>,
    record: Option<std::path::PathBuf>,
}

/// `match --engine CMD --engine CMD`: reads every option, then plays.
fn engine_match(out: &mut impl Write, ask: EngineMatch) -> Result<(), Failure> {
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
    let go = match (&ask.time, &ask.nodes, &ask.depth) {
        (Some(ms), ..) => versus::Go::Time(parse_number("time", ms, 1)?),
        (None, Some(n), _) => versus::Go::Nodes(parse_number("nodes", n, 1)?),
        (None, None, Some(d)) => {
            versus::Go::Depth(usage(parse_limit("depth", d))?.depth.unwrap_or(1))
        }
        (None, None, None) => {
            return Err(Failure::Usage(
                "match --engine: expected --time MS, --nodes N or --depth D".into(),
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
    };
    let failed = versus::run(out, &settings)?;
    if failed {
        return Err(Failure::Illegal(
            "an engine failed: the games it lost say how".into(),
        ));
    }
    Ok(())
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

fn bench(out: &mut impl Write, depth: u32) -> Result<(), Failure> {
    let start = Instant::now();
    let mut n = 0;
    let mut written = Ok(());
    let total = fanorona_engine::bench(depth, |line| {
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
