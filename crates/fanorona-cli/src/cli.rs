//! The command line as clap reads it: the subcommands, their options and
//! their help. `main` runs them.

use clap::{Args, Parser};
use fanorona_engine::BENCH_DEPTH;

/// Fanoron-tsivy (9x5 Fanorona) from the command line.
///
/// POSITION is position text, for example
/// "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW w 0", or `-` or
/// `start` for the start position.
#[derive(Debug, Parser)]
#[command(name = "fanorona", version)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) subcommand: Subcommand,
}

/// The subcommands, one variant each.
#[derive(Debug, clap::Subcommand)]
#[allow(
    clippy::large_enum_variant,
    reason = "made once from the command line, so its size costs nothing"
)]
pub(crate) enum Subcommand {
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
        #[command(flatten)]
        network: NetworkArg,
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
        #[command(flatten)]
        network: NetworkArg,
        /// The transposition table, in MiB, 1 to 4096 (the server's
        /// default, 16, unless told).
        #[arg(
            long,
            value_name = "MIB",
            default_value = "16",
            allow_negative_numbers = true
        )]
        hash: String,
        /// Level 6 searches even where the opening book has its turn (for
        /// matches that measure the book; `go` with a limit never uses it).
        #[arg(long)]
        no_book: bool,
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
    /// twice, colours swapped; by --nodes, --depth or --level an opening
    /// played again would replay the same two games, so such a match
    /// stops once every opening is played. Prints a line per game, a
    /// progress line per pair (`games N +W =D -L pairs P0-P1-P2-P3-P4 elo
    /// E ± ERR llr LLR [LOW, HIGH]`: P0 pairs where the first engine lost
    /// both games, P1 where it scored a draw, and so on to P4, both won),
    /// the tally and, with --sprt, the verdict: H0 accepted, H1 accepted
    /// or undecided.
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
        /// With --engine: `level L` and a plain `go` each turn, each engine
        /// searching as its own level L does (levels 5 and 6: their own
        /// node budgets).
        #[arg(
            long,
            value_name = "L",
            group = "go",
            requires = "engine",
            allow_negative_numbers = true
        )]
        level: Option<String>,
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
        /// With --engine: count a game a draw, without playing it out, once
        /// it has T turns or more (its opening's included) and each of its
        /// last N turns, both engines', was chosen with a score (the
        /// engine's last `info` line) within S hundredths of a stone of
        /// level: `after=T,turns=N,score=S`. Its line and record say so.
        #[arg(long, value_name = "SPEC", requires = "engine")]
        adjudicate_draw: Option<String>,
        #[command(flatten)]
        tables: TablesArg,
    },
    /// Make balanced openings: random turns from the start that a search
    /// scores near level, each position once.
    ///
    /// Draws openings of --turns random turns (seeded), searches the
    /// position each leads to --depth turns deep (or --nodes nodes) and
    /// keeps it when its score is at most --max-score stones from level,
    /// until --count are kept or a hundred times as many were drawn. With
    /// --from, scores the openings of a file instead, in its order (so a
    /// deeper search can keep those of a shallow one's file it also finds
    /// level). Writes a header of `#` comments naming the command, then
    /// one opening a line, as `start moves TURN...  # SCORE`, the file
    /// `match --openings` reads.
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
        /// Score each opening by a search of N nodes instead of --depth.
        #[arg(
            long,
            value_name = "N",
            conflicts_with = "depth",
            allow_negative_numbers = true
        )]
        nodes: Option<String>,
        /// Score the openings of FILE (an openings file) instead of
        /// drawing random ones.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["turns", "seed"])]
        from: Option<std::path::PathBuf>,
        /// Write to FILE instead of standard output (and print a summary).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// Make capture puzzles from games of the engine against itself.
    ///
    /// Plays --games games (each from 4 seeded random turns, the engine
    /// searching --play-nodes a turn) and, in each position of them where
    /// a capture is possible, scores every legal turn by a search of
    /// --check-nodes after it. A position is a puzzle when its best turn
    /// is a capture that does not lose and wins at least --margin stones
    /// more than the next best, and a search of the position itself
    /// chooses it too. Writes a header of `#` comments naming the
    /// command, then one puzzle a line, its fields separated by tabs: id,
    /// position, solution, difficulty (the depth from which the search
    /// keeps to the solution, 1 to 5), themes, the solution's score and
    /// the next best turn's.
    Puzzles {
        /// Games to look through, 1 or more.
        #[arg(
            long,
            value_name = "N",
            default_value = "400",
            allow_negative_numbers = true
        )]
        games: String,
        /// Nodes a turn in those games, 1 or more.
        #[arg(
            long,
            value_name = "N",
            default_value = "50000",
            allow_negative_numbers = true
        )]
        play_nodes: String,
        /// Nodes of the search after each turn of a candidate, 1 or more.
        #[arg(
            long,
            value_name = "N",
            default_value = "300000",
            allow_negative_numbers = true
        )]
        check_nodes: String,
        /// How much more than any other turn the solution must win, in
        /// stones, like 1.5.
        #[arg(
            long,
            value_name = "STONES",
            default_value = "1.5",
            allow_negative_numbers = true
        )]
        margin: String,
        /// The seed of the games' random openings.
        #[arg(
            long,
            value_name = "S",
            default_value = "0",
            allow_negative_numbers = true
        )]
        seed: String,
        /// Threads searching, 1 or more.
        #[arg(
            long,
            value_name = "N",
            default_value = "2",
            allow_negative_numbers = true
        )]
        threads: String,
        /// Write to FILE instead of standard output (and print a summary).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
        #[command(flatten)]
        tables: TablesArg,
    },
}

/// The `--network` option of `bench` and `engine`.
#[derive(Args, Debug)]
pub(crate) struct NetworkArg {
    /// Correct the evaluation by the engine's network, for matches that
    /// measure it (docs/ENGINE.md, "Changes measured"); the levels and
    /// the site play without it.
    #[arg(long = "network")]
    pub(crate) on: bool,
}

impl NetworkArg {
    /// The engine's default setup, with the network as asked.
    pub(crate) fn config(&self) -> fanorona_engine::Config {
        fanorona_engine::Config {
            network: self.on,
            ..fanorona_engine::Config::default()
        }
    }
}

/// The `--tables` option of `analyse`, `engine`, `match` and `puzzles`.
#[derive(Args, Debug)]
pub(crate) struct TablesArg {
    /// Use endgame tables: every position with up to this many stones (0
    /// to 5; 0 for none; 4 takes about a second to build), or a file that
    /// `fanorona tables --out FILE` wrote.
    #[arg(
        long = "tables",
        value_name = "STONES|FILE",
        default_value = "4",
        allow_negative_numbers = true
    )]
    pub(crate) value: String,
}
