//! `crawlgate lint`: what every crawler will do with a robots.txt, before it
//! is deployed. Findings in rustc style, JSON or SARIF 2.1.0; with `--audit`,
//! what the file says to each known crawler.

use std::io::{Read as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use crawlgate::{Profile, Severity};
use crawlgate_lint::{self as lint, render, Code, LintOptions, LintReport, RULES};

use super::{parse_profile, stdout_color};

const EXAMPLES: &str = "\
Examples:
  crawlgate lint robots.txt
  crawlgate lint site-a/robots.txt site-b/robots.txt --deny warnings
  curl -s https://example.com/robots.txt | crawlgate lint -
  crawlgate lint robots.txt --audit               # what GPTBot, CCBot, Googlebot… get
  crawlgate lint robots.txt --legacy              # also where 1996-style parsers differ
  crawlgate lint robots.txt --format sarif > robots.sarif
  crawlgate lint --explain R101                   # the documentation of one rule
  crawlgate lint --list-rules

Each finding reads `file:line:column: severity[code]: message`, then the line
with a caret under the span and, where there is one, `help:` with the fix.
JSON is an array of {file, code, name, category, severity, line, column,
end_column, message, fix: {message, replacement} | null} (byte columns,
end_column exclusive). SARIF 2.1.0 is for code-scanning upload in CI.

Exit status: 0 no errors (warnings and infos are shown but pass), 1 an error,
or a warning with --deny warnings, or any finding with --deny info; 2 usage or
input error (a file that cannot be read).";

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
    /// robots.txt files to lint; `-` for standard input.
    #[arg(value_name = "FILE", required_unless_present_any = ["explain", "list_rules"])]
    pub files: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,

    /// How to read robots.txt: google (default), rfc9309 or legacy.
    #[arg(long, default_value = "google", value_parser = parse_profile)]
    pub profile: Profile,

    /// Also fail (exit 1) on warnings, or on every finding with `info`.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub deny: Option<Deny>,

    /// Also say, for each known crawler (search engines, AI crawlers, …),
    /// which group it gets, whether it may crawl `/` and which line decides.
    #[arg(long)]
    pub audit: bool,

    /// Also compare Google's reading with the legacy one (R402, info): what
    /// Python's urllib.robotparser and other 1996-style parsers do.
    #[arg(long, conflicts_with = "no_profile_comparison")]
    pub legacy: bool,

    /// Do not compare Google's reading with RFC 9309's (R401).
    #[arg(long)]
    pub no_profile_comparison: bool,

    /// Print the documentation of one rule (`R101` or `merged-groups`) and exit.
    #[arg(long, value_name = "CODE", conflicts_with = "list_rules")]
    pub explain: Option<String>,

    /// List every rule (code, name, severity, summary) and exit.
    #[arg(long)]
    pub list_rules: bool,
}

struct Linted {
    path: String,
    source: Vec<u8>,
    report: LintReport,
}

fn read(path: &PathBuf) -> anyhow::Result<(String, Vec<u8>)> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        return Ok(("<stdin>".to_owned(), bytes));
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok((path.display().to_string(), bytes))
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
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
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
        return Ok(ExitCode::SUCCESS);
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
        return Ok(ExitCode::SUCCESS);
    }
    let options = LintOptions::default()
        .with_profile(args.profile)
        .with_audit(args.audit)
        .with_profile_comparison(!args.no_profile_comparison)
        .with_legacy_comparison(args.legacy);
    let mut linted = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let (path, source) = read(path)?;
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
            let color = stdout_color();
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
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
