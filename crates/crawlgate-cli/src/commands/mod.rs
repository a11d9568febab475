//! One module per subcommand.

pub mod batch;
pub mod check;
pub mod completions;
pub mod explain;
pub mod fetch;
pub mod lint;
pub mod man;
pub mod report;
pub mod serve;
pub mod survey;
pub mod test;

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::OnceLock;

use crate::args::{Cli, ColorChoice, Command};

/// The `--color` choice, set once before the subcommand runs.
static COLOR_CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let _ = COLOR_CHOICE.set(cli.color);
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Report(args) => report::run(args),
        Command::Test(args) => test::run(args),
        Command::Fetch(args) => fetch::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Survey(args) => survey::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => man::run(args),
    }
}

/// Parses a `--profile` value (clap value parser).
pub fn parse_profile(name: &str) -> Result<crawlgate::Profile, String> {
    name.parse::<crawlgate::Profile>()
        .map_err(|e| e.to_string())
}

/// Whether to colour standard output: as `--color` says; by default when it
/// is a terminal and `NO_COLOR` is unset (or empty), per
/// <https://no-color.org>.
pub fn stdout_color() -> bool {
    match COLOR_CHOICE.get().copied().unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// The exit status of a run that answered: 0 when everything asked about is
/// allowed (or held), 1 otherwise.
pub fn exit_status(all_good: bool) -> ExitCode {
    if all_good {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
