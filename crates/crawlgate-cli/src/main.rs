//! `crawlgate`: robots.txt from the command line.
//!
//! Exit status: 0 when everything asked about is allowed (or the command
//! succeeded), 1 when something is disallowed or a check failed, 2 on a usage
//! or input error. A closed output pipe (`crawlgate batch | head`) is not an
//! error.

mod args;
mod commands;
mod load;
mod output;
mod preferences;
mod query;
mod status;
mod target;

use std::io::{self, Write as _};
use std::process::ExitCode;

use clap::Parser;

use crate::status::Status;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::run(cli) {
        Ok(status) => exit_code(status),
        Err(error) => {
            if is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(io::stderr(), "crawlgate: error: {error:#}");
            exit_code(Status::InputError)
        }
    }
}

/// The exit code of each status (the `Exit status` of `--help`).
fn exit_code(status: Status) -> ExitCode {
    match status {
        Status::Success => ExitCode::SUCCESS,
        Status::Failure => ExitCode::from(1),
        Status::InputError => ExitCode::from(2),
    }
}

/// Whether the error is a write to a closed pipe, however wrapped: an
/// `io::Error`, or a `serde_json::Error` (whose `source` skips the I/O error
/// it holds, so it is asked directly).
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let kind = cause
            .downcast_ref::<io::Error>()
            .map(io::Error::kind)
            .or_else(|| cause.downcast_ref::<serde_json::Error>()?.io_error_kind());
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}
