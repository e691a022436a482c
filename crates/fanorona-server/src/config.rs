//! Command-line flags with environment-variable fallbacks.

use std::{fmt, net::SocketAddr, path::PathBuf, time::Duration};

use clap::Parser;

/// The Fanorona web site: play a friend by sharing a link.
#[derive(Clone, Parser)]
#[command(version, about)]
pub struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "FANORONA_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Database URL: a `sqlite://` file, created and migrated when absent,
    /// or a `postgres://` database shared by several server processes,
    /// migrated at start.
    #[arg(
        long,
        env = "FANORONA_DATABASE",
        default_value = "sqlite://fanorona.db",
        global = true
    )]
    pub database: String,

    /// The origin written into links, like `https://fanorona.example`
    /// (default: `http://` and the listen address).
    #[arg(long, env = "FANORONA_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Log filter, like `info` or `fanorona_server=debug,info`.
    #[arg(long, env = "FANORONA_LOG", default_value = "info")]
    pub log: String,

    /// How long the player to move must be disconnected before the opponent
    /// may claim victory, like `5m` or `90s`.
    #[arg(long, env = "FANORONA_ABANDON_AFTER", default_value = "5m", value_parser = humantime::parse_duration)]
    pub abandon_after: Duration,

    /// How long an invitation nobody joined stays valid.
    #[arg(long, env = "FANORONA_INVITE_TTL", default_value = "30days", value_parser = humantime::parse_duration)]
    pub invite_ttl: Duration,

    /// With several processes on one database, how often a process says
    /// again which players it holds a socket of; a player nobody has
    /// said so of for three times this counts as away.
    #[arg(long, env = "FANORONA_PRESENCE_HEARTBEAT", default_value = "5s", value_parser = humantime::parse_duration)]
    pub presence_heartbeat: Duration,

    /// How long a game with no one watching stays in memory.
    #[arg(long, env = "FANORONA_IDLE_UNLOAD", default_value = "10m", value_parser = humantime::parse_duration)]
    pub idle_unload: Duration,

    /// The request header that holds the client's address, set by a
    /// reverse proxy you run (like `x-forwarded-for` or `x-real-ip`). Off
    /// by default: without a proxy, clients could forge it.
    #[arg(long, env = "FANORONA_TRUSTED_PROXY_HEADER")]
    pub trusted_proxy_header: Option<String>,

    /// Games one client address may create per minute.
    #[arg(long, env = "FANORONA_CREATE_PER_MINUTE", default_value_t = 5)]
    pub create_per_minute: u32,

    /// Intents per second one socket (or, over HTTP, one address) may send;
    /// bursts of twice as many are allowed.
    #[arg(long, env = "FANORONA_INTENTS_PER_SECOND", default_value_t = 10)]
    pub intents_per_second: u32,

    /// WebSockets one client address may hold open on one game.
    #[arg(long, env = "FANORONA_SOCKETS_PER_GAME", default_value_t = 32)]
    pub sockets_per_game: u32,

    /// How often the server pings each WebSocket.
    #[arg(long, env = "FANORONA_PING_EVERY", default_value = "30s", value_parser = humantime::parse_duration)]
    pub ping_every: Duration,

    /// A WebSocket from which nothing (not even a pong) arrives for this
    /// long is closed.
    #[arg(long, env = "FANORONA_SOCKET_IDLE", default_value = "75s", value_parser = humantime::parse_duration)]
    pub socket_idle: Duration,

    /// How often expired invitations are deleted.
    #[arg(long, env = "FANORONA_SWEEP_EVERY", default_value = "1h", value_parser = humantime::parse_duration)]
    pub(crate) sweep_every: Duration,

    /// WebSockets one client address may hold open across all games.
    #[arg(long, env = "FANORONA_SOCKETS_PER_ADDRESS", default_value_t = 128)]
    pub sockets_per_address: u32,

    /// How long a WebSocket may take to hand one message to a client that
    /// does not read; past it the socket is dropped.
    #[arg(long, env = "FANORONA_SOCKET_SEND_TIMEOUT", default_value = "10s", value_parser = humantime::parse_duration)]
    pub socket_send_timeout: Duration,

    /// How long a client has to send a request's headers, counted from
    /// when the connection opens or the previous answer ends (so it is
    /// also how long a kept-alive connection may sit idle).
    #[arg(long, env = "FANORONA_HEADER_TIMEOUT", default_value = "5s", value_parser = humantime::parse_duration)]
    pub header_timeout: Duration,

    /// TCP connections (WebSockets included) one client address may hold
    /// open. Not applied behind `--trusted-proxy-header`, where every
    /// connection comes from the proxy.
    #[arg(long, env = "FANORONA_CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    pub connections_per_address: u32,

    /// TCP connections open at once in all (default: the open-file limit
    /// less an eighth, at least 64, kept for the database and the rest).
    #[arg(long, env = "FANORONA_MAX_CONNECTIONS")]
    pub max_connections: Option<u32>,

    /// How long shutdown (SIGTERM, Ctrl-C) may wait for writes in flight
    /// and for clients before it drops the connections still open.
    #[arg(long, env = "FANORONA_SHUTDOWN_TIMEOUT", default_value = "10s", value_parser = humantime::parse_duration)]
    pub(crate) shutdown_timeout: Duration,

    /// Lets `POST /api/games` start from any position text (`position`
    /// field). For tests and analysis only: never enable it in production.
    #[arg(long, env = "FANORONA_ALLOW_CUSTOM_START")]
    pub allow_custom_start: bool,

    /// Threads that search for the computer's turns and for hints, outside
    /// the async runtime.
    #[arg(long, env = "FANORONA_ENGINE_THREADS", default_value_t = 1)]
    pub engine_threads: usize,

    /// Searches that may wait for a thread, from every client (at most as
    /// many as `--computer-max-wait` can serve at 50 ms each); past it a
    /// new game against the computer or a hint is refused (`503 busy`) and
    /// a waiting game tries again.
    #[arg(long, env = "FANORONA_ENGINE_QUEUE", default_value_t = 256)]
    pub engine_queue: usize,

    /// The longest a person should wait for the computer's turn or a hint
    /// while others wait for the search threads too: past their share of
    /// it, searches are cut short and play the best turn found so far.
    #[arg(long, env = "FANORONA_COMPUTER_MAX_WAIT", default_value = "5s", value_parser = humantime::parse_duration)]
    pub computer_max_wait: Duration,

    /// Games against the computer one client address may play at once
    /// (games not over whose player is connected, or was over HTTP a
    /// moment ago); also the most searches it may have waiting. Past it a
    /// new game against the computer is refused
    /// (`429 too_many_computer_games`).
    #[arg(long, env = "FANORONA_COMPUTER_GAMES_PER_ADDRESS", default_value_t = 4)]
    pub computer_games_per_address: u32,

    /// Hints one game may have searched per minute, in bursts of up to
    /// three; a hint asked again for the same position is answered from
    /// the first search and not counted. Past it `429 hint_limit`.
    #[arg(long, env = "FANORONA_HINTS_PER_MINUTE", default_value_t = 10)]
    pub hints_per_minute: u32,

    /// Actions one game may store: past it the game can only be played to
    /// its end (steps, ends of turn, resigning...), and takebacks, hints,
    /// level changes and draw offers get `409 game_too_long`.
    #[arg(long, env = "FANORONA_MAX_GAME_ACTIONS", default_value_t = 5000)]
    pub max_game_actions: u64,

    /// The longest one search may take; it then plays the best turn found.
    #[arg(long, env = "FANORONA_ENGINE_MAX_TIME", default_value = "5s", value_parser = humantime::parse_duration)]
    pub engine_max_time: Duration,

    /// The nice value of the search threads (Linux): 19 is the lowest
    /// priority, 0 the same as the rest of the server. In the load tool's
    /// runs it made no measurable difference to the relay; the number of
    /// search threads did (`docs/PERF.md`).
    #[arg(long, env = "FANORONA_ENGINE_NICE", default_value_t = 19, value_parser = clap::value_parser!(i32).range(0..=19))]
    pub engine_nice: i32,

    /// The transposition table of each search thread, in MiB.
    #[arg(long, env = "FANORONA_ENGINE_TABLE_MB", default_value_t = 16)]
    pub engine_table_mb: usize,

    /// The endgame tables hold every position with up to this many stones,
    /// 2 to 5: 4 take 2 MB and a second or two to solve at the first
    /// search; 5 take 39 MB and tens of seconds of one core more (the
    /// searches use the 4 meanwhile), and level 6 plays better with them
    /// (`docs/ENGINE.md`, "Endgames").
    #[arg(long, env = "FANORONA_ENGINE_TABLE_STONES", default_value_t = 5, value_parser = clap::value_parser!(u8).range(2..=5))]
    pub engine_table_stones: u8,

    /// The pause between two steps of the computer's capture chain, so
    /// people can follow it.
    #[arg(long, env = "FANORONA_COMPUTER_STEP_DELAY", default_value = "600ms", value_parser = humantime::parse_duration)]
    pub computer_step_delay: Duration,

    /// The least time between the person's turn and the computer's first
    /// step, however fast the search.
    #[arg(long, env = "FANORONA_COMPUTER_MIN_THINK", default_value = "500ms", value_parser = humantime::parse_duration)]
    pub computer_min_think: Duration,

    /// What to do instead of serving the site.
    #[command(subcommand)]
    pub operation: Option<Operation>,

    /// The clock the server reads the time from: the system's, or in
    /// tests a [`TestClock`](crate::clock::TestClock)'s.
    #[arg(skip)]
    pub wall: crate::clock::Wall,
}

/// What the program can do besides serving the site: its subcommands.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum Operation {
    /// Copies the database named by `--database` to a new file while the
    /// server may be running, and checks the copy.
    Backup {
        /// The new file; an existing file is never overwritten.
        file: PathBuf,
    },
    /// Prints the names of the intents a client may send, as JSON, so that
    /// the web client's own list can be checked against them.
    Protocol,
    /// Runs the migrations the database named by `--database` lacks, then
    /// exits: for operators who migrate before starting the processes
    /// (each process also migrates at start).
    Migrate,
}

impl Config {
    /// The configuration with every default, listening on `listen`, using
    /// the database at `database`.
    pub fn with_defaults(listen: SocketAddr, database: &str) -> Config {
        Config::parse_from([
            "fanorona-server",
            "--listen",
            &listen.to_string(),
            "--database",
            database,
        ])
    }

    /// The origin links are built on, without a trailing slash.
    fn origin(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{}", self.listen),
        }
    }
}

/// What the server derives from its configuration once, at start: the
/// origin of its links, whether it is served over HTTPS, and when an
/// invitation expires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Site {
    /// The origin links are built on, without a trailing slash.
    pub(crate) origin: String,
    /// Whether the origin is `https://`: cookies are then `Secure`, and
    /// the headers ask for HTTPS only.
    pub(crate) https: bool,
    /// How long an invitation nobody joined stays valid, in seconds.
    invite_ttl: i64,
}

impl Site {
    /// The site `config` describes.
    pub(crate) fn new(config: &Config) -> Site {
        let origin = config.origin();
        Site {
            https: origin.starts_with("https://"),
            origin,
            invite_ttl: i64::try_from(config.invite_ttl.as_secs()).unwrap_or(i64::MAX),
        }
    }

    /// Whether the invitation of a game created at `created_at` has
    /// expired at `now` (both in seconds since the Unix epoch).
    pub(crate) fn invitation_expired(&self, created_at: i64, now: i64) -> bool {
        now.saturating_sub(created_at) >= self.invite_ttl
    }

    /// The creation time before which an invitation has expired at `now`.
    pub(crate) fn invitations_expire_before(&self, now: i64) -> i64 {
        now.saturating_sub(self.invite_ttl)
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = self.database.split(':').next().unwrap_or_default();
        f.debug_struct("Config")
            .field("listen", &self.listen)
            .field("database", &format_args!("{scheme}://[redacted]"))
            .field("public_url", &self.public_url)
            .field("log", &self.log)
            .field("abandon_after", &self.abandon_after)
            .field("invite_ttl", &self.invite_ttl)
            .field("idle_unload", &self.idle_unload)
            .field("presence_heartbeat", &self.presence_heartbeat)
            .field("allow_custom_start", &self.allow_custom_start)
            .field("trusted_proxy_header", &self.trusted_proxy_header)
            .field("create_per_minute", &self.create_per_minute)
            .field("intents_per_second", &self.intents_per_second)
            .field("sockets_per_game", &self.sockets_per_game)
            .field("ping_every", &self.ping_every)
            .field("socket_idle", &self.socket_idle)
            .field("sweep_every", &self.sweep_every)
            .field("sockets_per_address", &self.sockets_per_address)
            .field("socket_send_timeout", &self.socket_send_timeout)
            .field("header_timeout", &self.header_timeout)
            .field("connections_per_address", &self.connections_per_address)
            .field("max_connections", &self.max_connections)
            .field("shutdown_timeout", &self.shutdown_timeout)
            .field("engine_threads", &self.engine_threads)
            .field("engine_nice", &self.engine_nice)
            .field("engine_queue", &self.engine_queue)
            .field("computer_max_wait", &self.computer_max_wait)
            .field(
                "computer_games_per_address",
                &self.computer_games_per_address,
            )
            .field("hints_per_minute", &self.hints_per_minute)
            .field("max_game_actions", &self.max_game_actions)
            .field("engine_max_time", &self.engine_max_time)
            .field("engine_table_mb", &self.engine_table_mb)
            .field("engine_table_stones", &self.engine_table_stones)
            .field("computer_step_delay", &self.computer_step_delay)
            .field("computer_min_think", &self.computer_min_think)
            .field("operation", &self.operation)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_documentation() {
        let config = Config::parse_from(["fanorona-server"]);
        assert_eq!(config.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(config.abandon_after, Duration::from_secs(300));
        assert_eq!(config.invite_ttl, Duration::from_secs(30 * 86400));
        assert_eq!(config.origin(), "http://127.0.0.1:8080");
        assert!(!config.allow_custom_start);
        assert_eq!(config.trusted_proxy_header, None);
        assert_eq!(config.create_per_minute, 5);
        assert_eq!(config.intents_per_second, 10);
        assert_eq!(config.sockets_per_game, 32);
        assert_eq!(config.sockets_per_address, 128);
        assert_eq!(config.socket_send_timeout, Duration::from_secs(10));
        assert_eq!(config.header_timeout, Duration::from_secs(5));
        assert_eq!(config.connections_per_address, 256);
        assert_eq!(config.max_connections, None);
        assert_eq!(config.shutdown_timeout, Duration::from_secs(10));
        assert_eq!(config.engine_threads, 1);
        assert_eq!(config.engine_queue, 256);
        assert_eq!(config.engine_max_time, Duration::from_secs(5));
        assert_eq!(config.computer_max_wait, Duration::from_secs(5));
        assert_eq!(config.computer_games_per_address, 4);
        assert_eq!(config.hints_per_minute, 10);
        assert_eq!(config.max_game_actions, 5000);
        assert_eq!(config.engine_table_mb, 16);
        assert_eq!(config.engine_table_stones, 5);
        assert_eq!(config.engine_nice, 19);
        assert_eq!(config.computer_step_delay, Duration::from_millis(600));
        assert_eq!(config.computer_min_think, Duration::from_millis(500));
    }

    #[test]
    fn the_search_threads_nice_value_is_0_to_19() {
        let nice = |v: &str| Config::try_parse_from(["fanorona-server", "--engine-nice", v]);
        assert_eq!(nice("0").map(|c| c.engine_nice).ok(), Some(0));
        assert_eq!(nice("19").map(|c| c.engine_nice).ok(), Some(19));
        for bad in ["-1", "20", "low"] {
            assert!(nice(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_endgame_tables_hold_2_to_5_stones() {
        let stones =
            |v: &str| Config::try_parse_from(["fanorona-server", "--engine-table-stones", v]);
        assert_eq!(stones("5").map(|c| c.engine_table_stones).ok(), Some(5));
        assert_eq!(stones("2").map(|c| c.engine_table_stones).ok(), Some(2));
        for bad in ["0", "1", "6", "all"] {
            assert!(stones(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn backup_takes_the_database_before_or_after_it() {
        for args in [
            [
                "fanorona-server",
                "--database",
                "sqlite://a.db",
                "backup",
                "b.db",
            ],
            [
                "fanorona-server",
                "backup",
                "--database",
                "sqlite://a.db",
                "b.db",
            ],
        ] {
            let config = Config::parse_from(args);
            assert_eq!(config.database, "sqlite://a.db");
            assert!(matches!(
                config.operation,
                Some(Operation::Backup { file }) if file == std::path::Path::new("b.db")
            ));
        }
        assert!(Config::try_parse_from(["fanorona-server", "backup"]).is_err());
    }

    #[test]
    fn debug_hides_the_database_url() {
        let mut config = Config::parse_from(["fanorona-server"]);
        config.database = "postgres://user:pw@host/db".into();
        let text = format!("{config:?}");
        assert!(!text.contains("pw"), "{text}");
    }
}
