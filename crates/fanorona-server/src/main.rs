//! `fanorona-server`: reads the configuration and serves the site.

use std::process::ExitCode;

use clap::Parser;
use fanorona_server::{serve, store, AppState, Config};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let config = Config::parse();
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info")))
        .init();
    match run(config).await {
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
