//! `crawlgate test` (being built; see the open issues).

use std::process::ExitCode;

/// Arguments of `crawlgate test`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `crawlgate test`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`crawlgate test` is not built yet")
}
