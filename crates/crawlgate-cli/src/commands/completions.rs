//! `crawlgate completions` (being built; see the open issues).

use std::process::ExitCode;

/// Arguments of `crawlgate completions`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `crawlgate completions`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`crawlgate completions` is not built yet")
}
