//! `crawlgate lint`: what every crawler will do with a robots.txt, before it
//! is deployed. Findings in rustc style, JSON or SARIF 2.1.0; with `--audit`,
//! what the file says to each known crawler.

use std::io::{IsTerminal as _, Write as _};

use anyhow::{bail, Context as _};
use crawlgate::{Profile, Reading, Severity};
use crawlgate_fetch::WarningCode;
use crawlgate_lint::{self as lint, render, Code, LintOptions, LintReport, RULES};

use crate::load::fetch::{fetch_summary, FetchOptions};
use crate::load::source::RobotsArg;
use crate::load::{load, Sites};
use crate::output::Ui;
use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate lint robots.txt
  crawlgate lint site-a/robots.txt site-b/robots.txt --deny warnings
  crawlgate lint https://example.com/            # fetched as Google does
  crawlgate lint < robots.txt                     # standard input, when piped
  crawlgate lint robots.txt --audit               # what GPTBot, CCBot, Googlebot… get
  crawlgate lint robots.txt --audit --one-token   # each crawler's token as Google's library reads it
  crawlgate lint robots.txt --legacy              # also where 1996-style parsers differ
  crawlgate lint robots.txt --format sarif > robots.sarif
  crawlgate lint --explain R101                   # the documentation of one rule
  crawlgate lint --list-rules

Each finding reads `file:line:column: severity[code]: message`, then the line
with a caret under the span and, where there is one, `help:` with the fix
(and `note:` when applying it changes what crawlers may fetch). JSON is an
array of {file, code, name, category, severity, line, column, end_column,
message, fix: {message, replacement, changes_verdicts, verdict_change} |
null} (byte columns, end_column exclusive). SARIF 2.1.0 is for
code-scanning upload in CI.

FILE is a file, `-` for standard input, or an http(s) URL of a site (its
/robots.txt is fetched, as `crawlgate check` does); with no FILE, standard
input is read when it is not a terminal.

Exit status: 0 no errors (warnings and infos are shown but pass), 1 an error,
or a warning with --deny warnings, or any finding with --deny info; 2 usage or
input error (a file that cannot be read, a site with no robots.txt to lint).";

/// The most bytes of a robots.txt `lint` reads: more than crawlers read
/// (500 KiB), so it can say which lines past their limit are lost.
pub const LINT_READ_LIMIT: usize = 8 * crawlgate::MAX_BYTES;

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// rustc-style text with carets and help.
    Human,
    /// One JSON array of findings.
    Json,
    /// SARIF 2.1.0, for code-scanning in CI.
    Sarif,
}

/// Which severities fail the run (errors always do).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deny {
    /// Warnings fail the run too.
    Warnings,
    /// Every finding fails the run, infos included.
    Info,
}

/// Arguments of `crawlgate lint`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// robots.txt files to lint: files, `-` for standard input, or http(s)
    /// URLs of sites (standard input when none is given and it is piped).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,

    /// How to read robots.txt: google (default), rfc9309, legacy, bing or
    /// yandex.
    #[arg(long, default_value = "google")]
    pub profile: Profile,

    /// Also fail (exit 1) on warnings, or on every finding with `info`.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub deny: Option<Deny>,

    /// Also say, for each known crawler (search engines, AI crawlers, …),
    /// which group it gets, whether it may crawl `/` and which line decides.
    #[arg(long)]
    pub audit: bool,

    /// With --audit, read each crawler's product token exactly as Google's
    /// library does (the one-token reading: no fallback tokens, `*` always
    /// obeyed, robots.txt always read) instead of as its operator documents
    /// (the crawler reading, the default).
    #[arg(long, requires = "audit")]
    pub one_token: bool,

    /// Also compare Google's reading with the legacy one (R402, info): what
    /// Python's urllib.robotparser and other 1996-style parsers do.
    #[arg(long, conflicts_with = "no_profile_comparison")]
    pub legacy: bool,

    /// Do not compare Google's reading with RFC 9309's, Bing's and Yandex's (R401,
    /// R403, R404).
    #[arg(long)]
    pub no_profile_comparison: bool,

    /// Print the documentation of one rule (`R101` or `merged-groups`) and exit.
    #[arg(long, value_name = "CODE", conflicts_with = "list_rules")]
    pub explain: Option<String>,

    /// List every rule (code, name, severity, summary) and exit.
    #[arg(long)]
    pub list_rules: bool,

    #[command(flatten, next_help_heading = "Fetching (when FILE is a URL)")]
    pub fetch: FetchOptions,
}

struct Linted {
    path: String,
    source: Vec<u8>,
    report: LintReport,
}

/// Loads one robots.txt through the loader every command shares; a
/// fetched one must have a body to lint.
fn read(file: &str, fetch: &FetchOptions) -> anyhow::Result<(String, Vec<u8>)> {
    let arg = RobotsArg::parse(file)?;
    let loaded = load(&arg, &[], Sites::One, fetch, LINT_READ_LIMIT)?
        .sources
        .remove(0);
    if let Some(report) = loaded.fetch() {
        // The parser's problems are what lint reports; the rest is said.
        for warning in &report.warnings {
            if warning.code != WarningCode::Diagnostics {
                crate::output::warn(&format!("{}: {}", report.robots_url, warning.message));
            }
        }
    }
    match loaded.bytes() {
        Some(bytes) => {
            let bytes = bytes.to_vec();
            if bytes.len() > LINT_READ_LIMIT {
                crate::output::warn(&format!(
                    "{}: only the first {LINT_READ_LIMIT} bytes are linted",
                    loaded.name
                ));
            }
            Ok((loaded.name, bytes))
        }
        None => bail!(
            "nothing to lint: {}",
            loaded.fetch().map(fetch_summary).unwrap_or_default()
        ),
    }
}

fn failed(reports: &[Linted], deny: Option<Deny>) -> bool {
    let threshold = match deny {
        None => Severity::Error,
        Some(Deny::Warnings) => Severity::Warning,
        Some(Deny::Info) => Severity::Info,
    };
    reports
        .iter()
        .any(|l| l.report.worst().is_some_and(|worst| worst >= threshold))
}

/// Runs `crawlgate lint`.
pub fn run(args: Args, ui: Ui) -> anyhow::Result<Status> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.list_rules {
        for rule in RULES {
            writeln!(
                out,
                "{}  {:<26} {:<8} {:<11} {}",
                rule.code,
                rule.name,
                rule.severity.as_str(),
                rule.category.as_str(),
                rule.summary
            )?;
        }
        return Ok(Status::Success);
    }
    if let Some(code) = &args.explain {
        let rule = Code::lookup(code)
            .and_then(lint::rule_info)
            .with_context(|| format!("no rule `{code}` (try --list-rules)"))?;
        writeln!(
            out,
            "{} {} ({}, {})\n\n{}\n\n{}",
            rule.code, rule.name, rule.severity, rule.category, rule.summary, rule.docs
        )?;
        return Ok(Status::Success);
    }
    let options = LintOptions::default()
        .with_profile(args.profile)
        .with_audit(args.audit)
        .with_audit_reading(if args.one_token {
            Reading::OneToken
        } else {
            Reading::Crawler
        })
        .with_profile_comparison(!args.no_profile_comparison)
        .with_legacy_comparison(args.legacy);
    let mut files = args.files.clone();
    if files.is_empty() {
        if std::io::stdin().is_terminal() {
            bail!("no robots.txt to lint: give a file, `-` for standard input, or a site's URL (or pipe one in)");
        }
        files.push("-".to_owned());
    }
    if files.iter().filter(|f| *f == "-").count() > 1 {
        bail!("standard input (`-`) can be linted once");
    }
    let mut linted = Vec::with_capacity(files.len());
    for file in &files {
        let (path, source) = read(file, &args.fetch)?;
        let report = lint::lint(&source, &options);
        linted.push(Linted {
            path,
            source,
            report,
        });
    }
    let files: Vec<render::LintedFile<'_>> = linted
        .iter()
        .map(|l| render::LintedFile {
            path: &l.path,
            source: &l.source,
            report: &l.report,
        })
        .collect();
    match args.format {
        Format::Human => {
            let color = ui.color;
            for l in &linted {
                let text = render::human(&l.report, &l.source, &l.path, color);
                if !text.is_empty() {
                    writeln!(out, "{text}")?;
                }
                if let Some(audit) = &l.report.audit {
                    writeln!(out, "{}", render::audit_table(audit, color))?;
                }
            }
            for l in &linted {
                writeln!(out, "{}", render::summary(&l.report, &l.path))?;
            }
        }
        Format::Json => {
            let findings = render::json(&files);
            if args.audit {
                let audits: Vec<String> = linted
                    .iter()
                    .map(|l| {
                        format!(
                            "{{\"file\":{},\"audit\":{}}}",
                            serde_json::to_string(&l.path).unwrap_or_default(),
                            render::audit_json(l.report.audit.as_deref().unwrap_or_default())
                        )
                    })
                    .collect();
                writeln!(
                    out,
                    "{{\"diagnostics\":{findings},\"audits\":[{}]}}",
                    audits.join(",")
                )?;
            } else {
                writeln!(out, "{findings}")?;
            }
        }
        Format::Sarif => writeln!(out, "{}", render::sarif(&files))?,
    }
    out.flush()?;
    Ok(if failed(&linted, args.deny) {
        Status::Failure
    } else {
        Status::Success
    })
}
