//! `fanorona-server`: reads the configuration and serves the site, or runs
//! one of its commands (`backup`, `migrate`, `protocol`).

use std::{path::PathBuf, process::ExitCode, time::Duration};

use clap::Parser;
use fanorona_server::{config::Operation, protocol, serve, store, AppState, Config};
use tokio::net::TcpListener;
use tracing_subscriber::{
    filter::{LevelFilter, Targets},
    layer::SubscriberExt,
    util::SubscriberInitExt,
    EnvFilter, Layer,
};

/// How long the end of `main` waits for blocking tasks still running (the
/// start-up compression of the pages, a file read): the shutdown bound
/// (`--shutdown-timeout`) has already been spent on what matters, writes
/// in flight and answers in progress.
const BLOCKING_GRACE: Duration = Duration::from_millis(200);

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("fanorona-server: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(start());
    // Dropping the runtime would wait for every blocking task to finish,
    // however long: under load the start-up compression alone took
    // seconds, and SIGTERM must end the server within its bound.
    runtime.shutdown_timeout(BLOCKING_GRACE);
    code
}

async fn start() -> ExitCode {
    let config = Config::parse();
    let operator = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_filter(operator)
                .with_filter(never_secrets()),
        )
        .init();
    let result = match config.operation.clone() {
        Some(Operation::Backup { file }) => backup(&config.database, file).await,
        Some(Operation::Protocol) => {
            println!("{}", protocol::describe());
            Ok(())
        }
        Some(Operation::Migrate) => migrate(&config.database).await,
        None => run(config).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{error}");
            // Also on stderr, where the operator looks when the server
            // does not start: the log may be filtered (`--log off`).
            eprintln!("fanorona-server: {error}");
            ExitCode::FAILURE
        }
    }
}

/// A filter applied after the operator's, whatever it allows: the
/// libraries that log what passes through them stay quiet at the levels
/// where they would write a seat secret or an invitation token. At
/// `--log trace`, tungstenite logs every frame and message it reads or
/// writes ("Received message {message}", "Sending frame: {frame:?}"),
/// among them a player's `welcome` with their seat link; it logs close
/// frames at debug. Axum logs every rejection's text at trace (target
/// `axum::rejection`), which can quote a request's values. Their
/// connection-level warnings and errors still show.
fn never_secrets() -> Targets {
    Targets::new()
        .with_default(LevelFilter::TRACE)
        .with_target("tungstenite", LevelFilter::INFO)
        .with_target("tokio_tungstenite", LevelFilter::INFO)
        .with_target("axum::rejection", LevelFilter::DEBUG)
}

async fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    // Every WebSocket is an open file: take as many as the system allows.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(files) => tracing::info!(files, "open-file limit"),
        Err(error) => tracing::warn!(%error, "could not raise the open-file limit"),
    }
    let store = store::open(&config.database).await?;
    let listener = TcpListener::bind(config.listen).await?;
    let address = listener.local_addr()?;
    let mut config = config;
    config.listen = address;
    tracing::info!(?config, "listening on http://{address}");
    serve(listener, AppState::new(config, store), shutdown_signal()).await?;
    tracing::info!("stopped");
    Ok(())
}

/// `fanorona-server backup FILE`: copies the live database to `file` and
/// says what it made.
async fn backup(database: &str, file: PathBuf) -> Result<(), Box<dyn std::error::Error>> {
    let made = store::backup_to(database, file).await?;
    println!(
        "backed up {} to {}: {} games, {} actions, {} bytes, integrity ok, in {:.1?}",
        made.source.display(),
        made.path.display(),
        made.games,
        made.actions,
        made.bytes,
        made.took,
    );
    Ok(())
}

/// `fanorona-server migrate`: brings the database up to date and says so.
async fn migrate(database: &str) -> Result<(), Box<dyn std::error::Error>> {
    let applied = store::migrate(database).await?;
    let scheme = database.split(':').next().unwrap_or_default();
    println!("the {scheme} database is up to date: {applied} migrations applied in all");
    Ok(())
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
