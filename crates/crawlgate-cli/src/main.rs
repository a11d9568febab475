//! `crawlgate`: robots.txt from the command line.
//!
//! Exit status: 0 when everything asked about is allowed (or the command
//! succeeded), 1 when something is disallowed or a check failed, 2 on a usage
//! or input error. A closed output pipe (`crawlgate batch | head`) is not an
//! error.

mod args;
mod commands;
mod fetching;
mod load;
mod output;
mod query;
mod source;
mod target;

use std::io;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(error) => {
            if is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            eprintln!("crawlgate: error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
