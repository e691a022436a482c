//! `fanorona-load`: drives live games against a running server.

use std::process::ExitCode;

use clap::Parser;
use fanorona_load::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("fanorona-load: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match cli.command {
            Command::Run(args) => fanorona_load::run::run(args).await,
            Command::EchoServer(args) => fanorona_load::echo::serve(args).await,
            Command::Plot(args) => fanorona_load::plot::plot(&args),
            Command::Fairness(args) => fanorona_load::fairness::fairness(args).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("fanorona-load: {error}");
            ExitCode::FAILURE
        }
    }
}
