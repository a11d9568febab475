//! One module per subcommand, and the dispatcher that runs the chosen one.

pub mod audit;
pub mod batch;
pub mod check;
pub mod completions;
pub mod explain;
pub mod fetch;
pub mod lint;
pub mod man;
pub mod policy;
pub mod report;
pub mod serve;
pub mod survey;
pub mod test;

use clap::CommandFactory as _;

use crate::args::{Cli, Command};
use crate::output::Ui;
use crate::status::Status;

/// Runs the chosen subcommand; the commands that print for people get the
/// UI choices (`--color`) as a value.
pub fn run(cli: Cli) -> anyhow::Result<Status> {
    let ui = Ui::new(cli.color);
    match cli.command {
        Command::Check(args) => check::run(args, ui),
        Command::Explain(args) => explain::run(args, ui),
        Command::Lint(args) => lint::run(args, ui),
        Command::Report(args) => report::run(args, ui),
        Command::Policy(args) => policy::run(args),
        Command::Test(args) => test::run(args, ui),
        Command::Fetch(args) => fetch::run(args, ui),
        Command::Batch(args) => batch::run(args),
        Command::Audit(args) => audit::run(args),
        // A survey that answers has succeeded (its problems are errors).
        Command::Survey(args) => survey::run(args).map(|_| Status::Success),
        Command::Serve(args) => serve::run(args),
        Command::Completions(args) => completions::run(args, Cli::command()),
        Command::Man(args) => man::run(args, Cli::command()),
    }
}
