//! `crawlgate explain` (being built; see the open issues).

use std::process::ExitCode;

/// Arguments of `crawlgate explain`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `crawlgate explain`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`crawlgate explain` is not built yet")
}
