//! `crawlgate fetch` (being built; see the open issues).

use std::process::ExitCode;

/// Arguments of `crawlgate fetch`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `crawlgate fetch`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`crawlgate fetch` is not built yet")
}
