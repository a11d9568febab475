//! Command-line arguments: one `Args` struct per subcommand, in its module.

use clap::{Parser, Subcommand};

use crate::commands::{
    audit, batch, check, completions, explain, fetch, lint, man, policy, report, serve, survey,
    test,
};
use crate::output::ColorChoice;

const EXIT_STATUS: &str = "\
Exit status:
  0  everything asked about is allowed, every expectation holds, the command succeeded
  1  something is disallowed, an expectation failed, or a fetch gave full disallow
  2  usage or input error (missing file, invalid URL, empty agent, malformed input)

Colour is used when standard output is a terminal and NO_COLOR is unset;
`--color always|never` overrides both.";

/// robots.txt, exactly as Google reads it: check URLs, explain verdicts,
/// lint files, test expectations, fetch as Google does, decide in bulk.
#[derive(Parser, Debug)]
#[command(name = "crawlgate", version, about, long_about = None, after_help = EXIT_STATUS)]
pub struct Cli {
    /// When to colour the output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

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
    /// What Search Console will say of each line: classified exactly as Google's robots.txt report does.
    Report(report::Args),
    /// Write the robots.txt (and server rules) that say what you mean about search, AI and other crawlers, proven for every known crawler.
    Policy(policy::Args),
    /// Check a file of `allow|disallow AGENT URL` expectations (for CI).
    Test(test::Args),
    /// Fetch a site's robots.txt as Google does and report what happened.
    Fetch(fetch::Args),
    /// Decide many (robots.txt, user-agent, URL) triples: JSON lines in, JSON lines out.
    Batch(batch::Args),
    /// Access logs against robots.txt: which crawlers came, verified or spoofed, obeyed or not; honeypots, Crawl-delay, deny lists.
    Audit(audit::Args),
    /// Who may crawl what across many sites: folders, tables, WARC files or live fetches to Parquet, CSV, JSON lines and an HTML report.
    Survey(survey::Args),
    /// Serve the API for crawler fleets and the robots.txt tester page (http://127.0.0.1:8080/).
    Serve(serve::Args),
    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    Completions(completions::Args),
    /// Print the manual page (roff, for `man -l -`).
    Man(man::Args),
}
