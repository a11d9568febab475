//! Command-line arguments: one `Args` struct per subcommand, in its module.

use clap::{Parser, Subcommand};

use crate::commands::{batch, check, completions, explain, fetch, lint, test};

/// robots.txt, exactly as Google reads it: check URLs, explain verdicts,
/// lint files, test expectations, fetch as Google does, decide in bulk.
#[derive(Parser, Debug)]
#[command(name = "crawlgate", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// May this crawler fetch these URLs? One verdict per URL with the deciding line.
    Check(check::Args),
    /// How a crawler reads the file: its groups, rules in precedence order, extensions, and why each URL is decided.
    Explain(explain::Args),
    /// Find what breaks real crawlers before deploying a robots.txt.
    Lint(lint::Args),
    /// Check a file of `allow|disallow AGENT URL` expectations (for CI).
    Test(test::Args),
    /// Fetch a site's robots.txt as Google does and report what happened.
    Fetch(fetch::Args),
    /// Decide many (robots.txt, user-agent, URL) triples: JSON lines in, JSON lines out.
    Batch(batch::Args),
    /// Print shell completions (bash, zsh, fish, …).
    Completions(completions::Args),
}
