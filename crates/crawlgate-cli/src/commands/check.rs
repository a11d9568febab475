//! `crawlgate check` (being built; see the open issues).

use std::process::ExitCode;

/// Arguments of `crawlgate check`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `crawlgate check`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`crawlgate check` is not built yet")
}
