//! `crawlgate man`: the manual pages, in roff: `crawlgate(1)`, and one per
//! subcommand (`crawlgate-check(1)` …) that it refers to.

use std::io::Write as _;

use anyhow::Context as _;

use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate man | man -l -
  crawlgate man check | man -l -
  crawlgate man > ~/.local/share/man/man1/crawlgate.1";

/// Arguments of `crawlgate man`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The page of one subcommand (`check` gives crawlgate-check(1)).
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Runs `crawlgate man` for `cli` (the CLI's own command).
pub fn run(args: Args, cli: clap::Command) -> anyhow::Result<Status> {
    let man = match &args.command {
        None => clap_mangen::Man::new(cli),
        Some(name) => {
            let command = cli
                .find_subcommand(name)
                .with_context(|| format!("no subcommand `{name}` (try `crawlgate --help`)"))?
                .clone()
                .display_name(format!("crawlgate-{name}"))
                .bin_name(format!("crawlgate {name}"))
                .version(env!("CARGO_PKG_VERSION"));
            clap_mangen::Man::new(command).title(format!("crawlgate-{name}"))
        }
    };
    let mut page = Vec::new();
    man.render(&mut page)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&page)?;
    out.flush()?;
    Ok(Status::Success)
}
