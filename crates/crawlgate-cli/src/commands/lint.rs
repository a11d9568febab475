//! `crawlgate lint` (being built; see the open issues).

use std::process::ExitCode;

/// Arguments of `crawlgate lint`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `crawlgate lint`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`crawlgate lint` is not built yet")
}
