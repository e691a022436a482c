//! Command-line flags.

use std::{net::IpAddr, path::PathBuf, time::Duration};

use clap::{Args, Parser, Subcommand};

/// Load generator for the Fanorona server, with a raw WebSocket echo
/// baseline measured in the same run.
///
/// Raise the open-file limit of the server before starting it when it
/// must hold many sockets, like `ulimit -n 65536` (this tool raises its
/// own).
#[derive(Debug, Parser)]
#[command(version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Plays live games against running servers, then the echo baseline.
    Run(RunArgs),
    /// Serves the raw WebSocket echo (started by `run` itself).
    EchoServer(EchoServerArgs),
    /// Draws an SVG from the CSV lines of several runs.
    Plot(PlotArgs),
    /// Measures whether attacker addresses flooding the computer within
    /// their limits take it from a victim address: the victim's reply
    /// times alone and under the flood, and how fast the queue drains
    /// after it. Against a server on 127.0.0.1 with its limits as shipped.
    Fairness(FairnessArgs),
}

/// Flags of `fairness`.
#[derive(Debug, Args)]
pub struct FairnessArgs {
    /// Base URL of the server, like `http://127.0.0.1:8080` (an IP
    /// address: the clients connect from other loopback addresses).
    #[arg(long)]
    pub url: String,

    /// The victim's address, of 127.0.0.0/8.
    #[arg(long, default_value = "127.0.0.3")]
    pub victim: IpAddr,

    /// The computer's level in the victim's games, 1 to 6.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub victim_level: u8,

    /// The victim's turns measured alone, and again under the flood.
    #[arg(long, default_value_t = 20)]
    pub turns: usize,

    /// An attacker's address, of 127.0.0.0/8; repeat it for several.
    #[arg(long = "attacker", default_value = "127.0.0.2")]
    pub attackers: Vec<IpAddr>,

    /// Games each attacker keeps busy (one more is asked for, to see the
    /// cap refuse it).
    #[arg(long, default_value_t = 4)]
    pub attacker_games: usize,

    /// The computer's level in the attackers' games, 1 to 6.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub attacker_level: u8,

    /// Sockets each attacker opens on its first game, each asking a hint
    /// ten times a second (a socket's limit).
    #[arg(long, default_value_t = 31)]
    pub hint_sockets: usize,

    /// Hints each attacker asks over HTTP per second, on its first game.
    #[arg(long, default_value_t = 10)]
    pub http_hints: u32,

    /// How long the flood runs before the victim's turns are measured.
    #[arg(long, default_value = "3s", value_parser = parse_duration)]
    pub ramp: Duration,
}

/// Flags of `run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Base URL of a server, like `http://127.0.0.1:8080`; repeat it to
    /// spread the games over several servers.
    #[arg(long = "url", required = true)]
    pub urls: Vec<String>,

    /// Number of live games to keep.
    #[arg(long, default_value_t = 100)]
    pub games: usize,

    /// Spectator sockets per game.
    #[arg(long, default_value_t = 0)]
    pub spectators: usize,

    /// Games against the computer to keep beside the `--games` between
    /// people: one socket each plays the person's side (White) at the same
    /// pace, and the computer replies. They play from twice `--interval`
    /// before the window until its end; their figures (the computer's
    /// turns, games finished, reply times) are counted apart and never
    /// enter the relay's.
    #[arg(long, default_value_t = 0)]
    pub computer_games: usize,

    /// The computer's level in those games, 1 to 6. The default, 6
    /// (Strongest), is the most expensive: 2,600,000 nodes a turn, about
    /// 0.8 s of a core, so it loads the server's search threads the
    /// most.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub computer_level: u8,

    /// Mean time between two steps of one game (each wait is drawn
    /// uniformly between half and one and a half of it).
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    pub interval: Duration,

    /// Step as soon as the state is seen (throughput) instead of at
    /// `--interval`.
    #[arg(long)]
    pub closed_loop: bool,

    /// How long to measure once every socket is up.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    pub duration: Duration,

    /// The longest wait for all games to be created and connected.
    #[arg(long, default_value = "300s", value_parser = parse_duration)]
    pub ramp_timeout: Duration,

    /// Games being set up at once (HTTP create, join, two connects).
    #[arg(long, default_value_t = 64)]
    pub setup_concurrency: usize,

    /// Process id of the (first) server; found from its listening port
    /// when not given.
    #[arg(long)]
    pub pid: Option<u32>,

    /// Skip the echo baseline.
    #[arg(long)]
    pub no_echo: bool,

    /// The echo server takes the first free port from this one (never
    /// above 32767).
    #[arg(long, default_value_t = 24000, value_parser = clap::value_parser!(u16).range(1024..32768))]
    pub echo_port: u16,

    /// Append the results as CSV lines to this file (a header is written
    /// when it is new).
    #[arg(long)]
    pub csv: Option<PathBuf>,

    /// Write every step of the relay window to this CSV file
    /// (`completed_us,latency_us`, time counted from the window's start),
    /// to see when slow steps happen.
    #[arg(long)]
    pub trace: Option<PathBuf>,

    /// A label for the CSV lines, like the commit measured.
    #[arg(long, default_value = "")]
    pub label: String,
}

/// Flags of `echo-server`.
#[derive(Debug, Args)]
pub struct EchoServerArgs {
    /// Listen on 127.0.0.1 at the first free port from this one.
    #[arg(long, default_value_t = 24000, value_parser = clap::value_parser!(u16).range(1024..32768))]
    pub port: u16,
}

/// Flags of `plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// CSV written by `run --csv`.
    #[arg(long)]
    pub csv: PathBuf,

    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let (number, unit) = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .map_or((text, "s"), |i| text.split_at(i));
    let value: f64 = number
        .parse()
        .map_err(|_| format!("invalid duration {text:?}: use like 500ms, 5s or 2m"))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" => value * 60.0,
        _ => return Err(format!("invalid duration unit in {text:?}: ms, s or m")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("invalid duration {text:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computer_games_are_off_unless_asked() {
        let Command::Run(args) =
            Cli::parse_from(["fanorona-load", "run", "--url", "http://a:1"]).command
        else {
            panic!("not run");
        };
        assert_eq!((args.computer_games, args.computer_level), (0, 6));
        let Command::Run(args) = Cli::parse_from([
            "fanorona-load",
            "run",
            "--url",
            "http://a:1",
            "--computer-games",
            "10",
            "--computer-level",
            "3",
        ])
        .command
        else {
            panic!("not run");
        };
        assert_eq!((args.computer_games, args.computer_level), (10, 3));
    }

    #[test]
    fn a_level_outside_one_to_six_is_refused() {
        for bad in ["0", "7", "-1", "strong"] {
            let parsed = Cli::try_parse_from([
                "fanorona-load",
                "run",
                "--url",
                "http://a:1",
                "--computer-level",
                bad,
            ]);
            assert!(parsed.is_err(), "{bad} was accepted");
        }
        let parsed = Cli::try_parse_from([
            "fanorona-load",
            "run",
            "--url",
            "http://a:1",
            "--computer-games",
            "-3",
        ]);
        assert!(parsed.is_err());
    }

    #[test]
    fn durations_read_their_unit() {
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("5h").is_err());
        assert!(parse_duration("s").is_err());
    }
}
