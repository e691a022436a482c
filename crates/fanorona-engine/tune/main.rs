//! Fits the evaluation weights to game results (Texel's method) and checks
//! the fit by matches; and the endgame experiments. See `tune/README.md`
//! and `tune/EXPERIMENTS.md`.
//!
//! ```text
//! cargo run --release -p fanorona-engine --example tune -- positions --games 1000 --out FILE
//! cargo run --release -p fanorona-engine --example tune -- fit --data FILE
//! cargo run --release -p fanorona-engine --example tune -- compare --games 200 --depth 3 --weights W1,W2,...
//! cargo run --release -p fanorona-engine --example tune -- endgames --data FILE --count 60 --nodes 1000000 [--close N]
//! cargo run --release -p fanorona-engine --example tune -- tablewins --count 20 --nodes 1000000 --min-turns 15 [--stones 4] [--winners 0,4]
//! cargo run --release -p fanorona-engine --example tune -- datawins --data FILE --count 200 --nodes 1000000 --min-turns 15 --stones 5 --winners 0,4,5
//! cargo run --release -p fanorona-engine --example tune -- convert --data FILE --count 100 --nodes 1000000 --sides 5:0,0:5,0:0
//! cargo run --release -p fanorona-engine --example tune -- tablestats --data FILE --stones 5 --min-turns 15
//! cargo run --release -p fanorona-engine --example tune -- net --data FILE --out src/net/weights.rs [--epochs 40]
//! ```
//!
//! Tables are given by the most stones they hold (0 for none). Tables that
//! `fanorona tables --stones N --out DIR/tables-N.bin` wrote are read from
//! there when the environment variable `TUNE_TABLES` names DIR; otherwise
//! they are solved (5 stones take about 34 s).

use std::error::Error;

use clap::{Parser, Subcommand};
use fanorona_engine::Weights;

mod endgames;
mod network;
mod playout;
mod tuning;
mod wins;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// Tunes the evaluation weights and measures the endgames.
#[derive(Debug, Parser)]
#[command(name = "tune")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Plays self-play games (level 4, or a full search by nodes) and
    /// writes their quiet positions with the result for White,
    /// `POSITION;RESULT` a line, and by nodes `;SCORE`, the search's score
    /// for the side to move.
    Positions {
        /// Games to play.
        #[arg(long)]
        games: u32,
        /// The file to write.
        #[arg(long)]
        out: String,
        /// Each turn a full search of this many nodes instead of level 4.
        #[arg(long)]
        nodes: Option<u64>,
        /// Random turns from the start before the engine plays.
        #[arg(long, default_value_t = 2)]
        opening_turns: u32,
        /// With --nodes: positions of at least --deep-from stones are
        /// searched (played and scored) with this many nodes instead.
        #[arg(long, requires = "nodes", requires = "deep_from")]
        deep_nodes: Option<u64>,
        /// The fewest stones of a position searched with --deep-nodes.
        #[arg(long, requires = "deep_nodes")]
        deep_from: Option<usize>,
    },
    /// Fits the weights to the positions of a data file and prints them.
    Fit {
        /// The positions, as `positions` writes them.
        #[arg(long)]
        data: String,
        /// The weight of the game's result in each target, against the
        /// search's score where the data has one (1: the result alone).
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
        /// The scale of the logistic curve that maps a search's score (in
        /// hundredths of a stone) to an expected result.
        #[arg(long, default_value_t = 0.01)]
        score_scale: f64,
        /// Leave out positions with at most this many stones.
        #[arg(long, default_value_t = 0)]
        min_stones: usize,
        /// Steps of gradient descent.
        #[arg(long, default_value_t = 3000)]
        epochs: u32,
    },
    /// Plays candidate weights against the current ones at a fixed depth
    /// and prints the candidate's score.
    Compare {
        /// Games in all, each opening twice with colours swapped.
        #[arg(long)]
        games: u32,
        /// The depth both sides search, in turns.
        #[arg(long)]
        depth: u32,
        /// The candidate's weights, comma-separated, one per feature.
        #[arg(long, value_parser = tuning::parse_weights)]
        weights: Weights,
    },
    /// Plays out endgames with 5 to 8 stones, one side 2 or more ahead,
    /// with and without the tables, and close endgames tables against none.
    Endgames {
        /// The positions, as `positions` writes them.
        #[arg(long)]
        data: String,
        /// Endgames with one side ahead.
        #[arg(long)]
        count: usize,
        /// Nodes a turn, for both sides.
        #[arg(long)]
        nodes: u64,
        /// Close endgames (at most one stone apart); `--count` if not given.
        #[arg(long)]
        close: Option<usize>,
    },
    /// Plays out random positions the tables win for the side to move,
    /// the winner with each of several tables against a defender with them.
    Tablewins {
        /// Positions.
        #[arg(long)]
        count: usize,
        /// Nodes a turn, for both sides.
        #[arg(long)]
        nodes: u64,
        /// The fewest turns the win must take to the next capture or the end.
        #[arg(long)]
        min_turns: u32,
        /// Stones of the positions, and the defender's tables.
        #[arg(long, default_value_t = 4)]
        stones: usize,
        /// The winner's tables, comma-separated (0 for none); `0,STONES` if
        /// not given.
        #[arg(long, value_delimiter = ',')]
        winners: Option<Vec<usize>>,
    },
    /// Like `tablewins`, with such positions of a data file.
    Datawins {
        /// The positions, as `positions` writes them.
        #[arg(long)]
        data: String,
        /// Positions, spread evenly through those that fit.
        #[arg(long)]
        count: usize,
        /// Nodes a turn, for both sides.
        #[arg(long)]
        nodes: u64,
        /// The fewest turns the win must take to the next capture or the end.
        #[arg(long)]
        min_turns: u32,
        /// Stones of the positions, and the defender's tables.
        #[arg(long)]
        stones: usize,
        /// The winner's tables, comma-separated (0 for none).
        #[arg(long, value_delimiter = ',', required = true)]
        winners: Vec<usize>,
    },
    /// Plays out the endgames of `endgames` with the tables of the side
    /// ahead and of the side behind as given.
    Convert {
        /// The positions, as `positions` writes them.
        #[arg(long)]
        data: String,
        /// Endgames.
        #[arg(long)]
        count: usize,
        /// Nodes a turn, for both sides.
        #[arg(long)]
        nodes: u64,
        /// The tables of the side ahead and of the side behind, like `5:0`;
        /// comma-separated or repeated for several.
        #[arg(long, value_delimiter = ',', value_parser = playout::parse_sides)]
        sides: Vec<[usize; 2]>,
    },
    /// Fits the evaluation's network to the search's scores of the
    /// positions (`positions --nodes N`) and writes its weights as the
    /// source of `src/net/weights.rs`.
    Net {
        /// The positions, as `positions --nodes N` writes them.
        #[arg(long)]
        data: String,
        /// The file to write.
        #[arg(long)]
        out: String,
        #[command(flatten)]
        fit: network::NetFit,
    },
    /// Counts the positions of a data file by stones and by what the tables
    /// say of them.
    Tablestats {
        /// The positions, as `positions` writes them.
        #[arg(long)]
        data: String,
        /// The most stones counted, and the tables'.
        #[arg(long)]
        stones: usize,
        /// The fewest turns a win counted as long takes.
        #[arg(long)]
        min_turns: u32,
    },
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Positions {
            games,
            out,
            nodes,
            opening_turns,
            deep_nodes,
            deep_from,
        } => tuning::positions(
            games,
            tuning::SelfPlay {
                nodes,
                opening_turns,
                deep: deep_nodes.zip(deep_from),
            },
            &out,
        ),
        Command::Fit {
            data,
            lambda,
            score_scale,
            min_stones,
            epochs,
        } => tuning::fit(
            &data,
            tuning::FitData {
                lambda,
                score_scale,
                min_stones,
                epochs,
            },
        ),
        Command::Compare {
            games,
            depth,
            weights,
        } => tuning::compare(games, depth, &weights),
        Command::Endgames {
            data,
            count,
            nodes,
            close,
        } => endgames::endgames(&data, count, nodes, close.unwrap_or(count)),
        Command::Tablewins {
            count,
            nodes,
            min_turns,
            stones,
            winners,
        } => {
            let winners = winners.unwrap_or_else(|| vec![0, stones]);
            wins::table_wins(count, nodes, min_turns, stones, &winners)
        }
        Command::Datawins {
            data,
            count,
            nodes,
            min_turns,
            stones,
            winners,
        } => wins::data_wins(&data, count, nodes, min_turns, stones, &winners),
        Command::Convert {
            data,
            count,
            nodes,
            sides,
        } => endgames::convert(&data, count, nodes, &sides),
        Command::Net { data, out, fit } => network::fit_net(&data, &fit, &out),
        Command::Tablestats {
            data,
            stones,
            min_turns,
        } => wins::table_stats(&data, stones, min_turns),
    }
}

/// `f(0)`, ..., `f(n - 1)` computed on every core, in that order.
fn on_every_core<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let f = &f;
    let mut parts: Vec<Vec<(usize, R)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|w| s.spawn(move || (w..n).step_by(threads).map(|i| (i, f(i))).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut all: Vec<(usize, R)> = parts.iter_mut().flat_map(std::mem::take).collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}
