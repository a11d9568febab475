//! `crawlgate serve`: the HTTP service of `crawlgate-server`, with its
//! embedded defaults (127.0.0.1:8080, a store in the data directory).

use crate::status::Status;

/// Arguments of `crawlgate serve` (each also read from a `CRAWLGATE_*`
/// environment variable).
pub type Args = crawlgate_server::ServeArgs;

/// Serves until Ctrl-C or SIGTERM.
pub fn run(args: Args) -> anyhow::Result<Status> {
    crawlgate_server::run_blocking(args.into_config()?)?;
    Ok(Status::Success)
}
