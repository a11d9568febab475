//! `crawlgate test`: check a webmaster's expectations against a robots.txt,
//! for CI.
//!
//! One expectation a line: `allow|disallow AGENT URL`; AGENT may be a
//! comma-separated list (`GPTBot,CCBot`), each checked; `#` starts a comment
//! (at the start of a line or after whitespace, so a URL's `#fragment`
//! stays); blank lines are ignored.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context as _};
use crawlgate::{ChoiceKind, Profile, Who};
use crawlgate_answers::{ExplainedVerdict, Origin, Robots};
use serde::Serialize;

use crate::load::fetch::{fetch_summary, warn_fetch, FetchOptions};
use crate::load::input::{is_standard_input, read_path, read_stdin, Special};
use crate::load::source::RobotsArg;
use crate::load::{load, Sites, READ_LIMIT};
use crate::output::{line_ref, reason, warn, Palette, Ui};
use crate::status::Status;
use crate::target::{agent_warning, url_problem};

const EXAMPLES: &str = "\
Examples:
  crawlgate test robots.txt robots.expect
  crawlgate test robots.txt robots.expect --verbose
  crawlgate test https://example.com robots.expect --json
  echo 'disallow GPTBot,CCBot /' | crawlgate test robots.txt -

An expectations file holds one expectation a line:
  # AGENT is a crawler's name or product token, or several separated by commas
  allow     Googlebot             /
  disallow  Googlebot             /private/report.pdf
  disallow  GPTBot,CCBot,Bytespider  https://example.com/
  allow     *                     /robots.txt     # not a token: a warning
A crawler the registry knows is read as its operator documents
(Googlebot-Image follows a Googlebot group, AdsBot-Google ignores `*`…);
--one-token reads every AGENT as one product token, as Google's library does.
`allowed`/`disallowed` are accepted too. `#` starts a comment at the start of a
line or after whitespace. A malformed line is an error (exit 2) and nothing runs.

Each failure is printed with the line of robots.txt that decided it, then
`N passed, M failed`.

Exit status: 0 every expectation holds, 1 some failed, 2 usage or input error.";

/// Arguments of `crawlgate test`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The robots.txt: a file, `-` for standard input, or an http(s) URL of
    /// the site (its /robots.txt is fetched).
    #[arg(value_name = "ROBOTS")]
    pub robots: String,

    /// The expectations file (`-` for standard input).
    #[arg(value_name = "EXPECTATIONS")]
    pub expectations: String,

    /// How to read robots.txt: google, rfc9309, legacy, bing or yandex. By
    /// default, each AGENT by its operator's own parser's reading (yandex
    /// for Yandex's robots, bing for Bing's crawlers), else google.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<Profile>,

    /// Read each AGENT as one product token, exactly as Google's library
    /// does (the one-token reading), not as the crawler a person names.
    #[arg(long)]
    pub one_token: bool,

    /// Print every expectation, not only the failures.
    #[arg(short, long)]
    pub verbose: bool,

    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,

    #[command(flatten, next_help_heading = "Fetching (when ROBOTS is a URL)")]
    pub fetch: FetchOptions,
}

/// One expectation for one crawler.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Expectation {
    line: u32,
    allow: bool,
    agent: String,
    url: String,
}

impl Expectation {
    /// `allow` or `disallow`, as the expectations file says it.
    fn keyword(&self) -> &'static str {
        if self.allow {
            "allow"
        } else {
            "disallow"
        }
    }
}

/// The text of a line without its comment: `#` at the start or after
/// whitespace.
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let cut = (0..bytes.len())
        .find(|&i| bytes[i] == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()));
    &line[..cut.unwrap_or(line.len())]
}

/// Parses an expectations file; every malformed line is reported.
fn parse_expectations(text: &str, name: &str) -> Result<Vec<Expectation>, Vec<String>> {
    let mut expectations = Vec::new();
    let mut errors = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index as u32 + 1;
        let content = strip_comment(raw).trim();
        if content.is_empty() {
            continue;
        }
        let at = line_ref(name, line);
        let fields: Vec<&str> = content.split_whitespace().collect();
        let [verdict, agents, url] = fields[..] else {
            errors.push(format!(
                "{at}: expected `allow|disallow AGENT URL`, found `{content}`"
            ));
            continue;
        };
        let allow = match verdict.to_ascii_lowercase().as_str() {
            "allow" | "allowed" => true,
            "disallow" | "disallowed" => false,
            _ => {
                errors.push(format!(
                    "{at}: `{verdict}` is neither `allow` nor `disallow`"
                ));
                continue;
            }
        };
        if let Some(problem) = url_problem(url) {
            errors.push(format!("{at}: {problem}"));
            continue;
        }
        if agents.split(',').any(str::is_empty) {
            errors.push(format!("{at}: empty agent in `{agents}`"));
            continue;
        }
        for agent in agents.split(',') {
            expectations.push(Expectation {
                line,
                allow,
                agent: agent.to_owned(),
                url: url.to_owned(),
            });
        }
    }
    if errors.is_empty() {
        Ok(expectations)
    } else {
        Err(errors)
    }
}

/// One expectation, checked.
struct Outcome {
    expectation: Expectation,
    /// The profile the agent was read by.
    profile: Profile,
    decided: ExplainedVerdict,
}

impl Outcome {
    fn passed(&self) -> bool {
        self.decided.allowed == self.expectation.allow
    }
}

/// The human report: failures (and with `verbose` every pass), then the
/// counts.
fn render(
    outcomes: &[Outcome],
    expectations_name: &str,
    robots_name: &str,
    verbose: bool,
    p: Palette,
) -> String {
    let mut out = String::new();
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    for outcome in outcomes {
        let e = &outcome.expectation;
        let passed = outcome.passed();
        if passed && !verbose {
            continue;
        }
        let _ = writeln!(
            out,
            "{}  {}  {} {} {}",
            if passed {
                p.allowed("ok  ")
            } else {
                p.disallowed("FAIL")
            },
            p.dim(&line_ref(expectations_name, e.line)),
            e.keyword(),
            e.agent,
            e.url
        );
        if !passed {
            let d = &outcome.decided;
            let _ = writeln!(
                out,
                "      but {}: {}",
                p.verdict(d.allowed, d.word()),
                reason(d, robots_name, 0, p)
            );
            // A crawler that obeys another token's group: say whose.
            if let Some(choice) = d
                .choice
                .as_ref()
                .filter(|c| matches!(c.kind, ChoiceKind::Fallback | ChoiceKind::ControlToken))
            {
                let _ = writeln!(out, "      {}", p.dim(&choice.why));
            }
        }
    }
    if failed > 0 || verbose {
        out.push('\n');
    }
    let summary = format!("{} passed, {failed} failed", outcomes.len() - failed);
    let _ = writeln!(
        out,
        "{}",
        if failed > 0 {
            p.disallowed(&summary)
        } else {
            p.allowed(&summary)
        }
    );
    out
}

#[derive(Serialize)]
struct JsonReport<'a> {
    robots: &'a str,
    expectations: &'a str,
    /// The profile every expectation was read by; `null` when agents were
    /// read by different ones (each result says its own).
    profile: Option<&'static str>,
    /// `crawler` or `one-token`.
    reading: &'static str,
    passed: usize,
    failed: usize,
    results: Vec<JsonResult<'a>>,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    line: u32,
    expect: &'static str,
    agent: &'a str,
    url: &'a str,
    profile: &'static str,
    pass: bool,
    #[serde(flatten)]
    decided: &'a ExplainedVerdict,
}

/// The most bytes of expectations read: far more than any hand-written
/// file, and a bound on what a stray device or pipe can make crawlgate hold.
const EXPECTATIONS_LIMIT: usize = 16 << 20;

fn read_expectations(path: &str, timeout: Duration) -> anyhow::Result<(String, String)> {
    let (name, input) = if path == "-" {
        let input = read_stdin(EXPECTATIONS_LIMIT)
            .context("cannot read expectations from standard input")?;
        ("<stdin>".to_owned(), input)
    } else {
        let input = read_path(
            Path::new(path),
            EXPECTATIONS_LIMIT,
            Special::Read { timeout },
        )
        .with_context(|| format!("cannot read expectations file `{path}`"))?;
        (path.to_owned(), input)
    };
    let bytes = input.bytes;
    if bytes.len() > EXPECTATIONS_LIMIT {
        bail!("{name}: more than {EXPECTATIONS_LIMIT} bytes of expectations: split the file");
    }
    let text =
        String::from_utf8(bytes).map_err(|e| anyhow::anyhow!("{name}: not UTF-8 text ({e})"))?;
    Ok((name, text))
}

/// Runs `crawlgate test`.
pub fn run(args: Args, ui: Ui) -> anyhow::Result<Status> {
    let from_stdin = |arg: &str| arg == "-" || is_standard_input(Path::new(arg));
    if from_stdin(&args.robots) && from_stdin(&args.expectations) {
        bail!("ROBOTS and EXPECTATIONS cannot both be standard input");
    }
    let robots = RobotsArg::parse(&args.robots)?;
    let (expectations_name, text) = read_expectations(&args.expectations, args.fetch.timeout)?;
    let expectations = match parse_expectations(&text, &expectations_name) {
        Ok(e) if e.is_empty() => {
            bail!("{expectations_name}: no expectations (one a line: `allow|disallow AGENT URL`)")
        }
        Ok(e) => e,
        Err(errors) => {
            let count = errors.len();
            bail!(
                "{}\n{count} malformed expectation line{}: nothing was tested",
                errors.join("\n"),
                if count == 1 { "" } else { "s" }
            );
        }
    };
    let how = crate::query::reading_of(args.one_token);
    // Each distinct agent is checked once: a set, so a file of many
    // distinct agents costs time in proportion to its length.
    let mut seen: HashSet<&str> = HashSet::new();
    for e in &expectations {
        if seen.insert(&e.agent)
            && let Some(w) = agent_warning(&e.agent, how)
        {
            warn(&format!("{}: {w}", line_ref(&expectations_name, e.line)));
        }
    }

    let loaded = load(&robots, &[], Sites::One, &args.fetch, READ_LIMIT)?
        .sources
        .remove(0);
    if let Some(report) = loaded.fetch() {
        warn_fetch(report);
        // A URL of another site is governed by another robots.txt.
        for e in &expectations {
            if !e.url.starts_with('/')
                && Origin::from_url(&e.url).ok() != Some(report.origin.clone())
            {
                bail!(
                    "{}: `{}` is not on {}: its robots.txt is another file",
                    line_ref(&expectations_name, e.line),
                    e.url,
                    report.origin
                );
            }
        }
    }
    // One reading per profile the agents are read by.
    let mut readings: Vec<(Profile, Cow<'_, Robots>)> = Vec::new();
    for e in &expectations {
        let profile = how.profile_for(&e.agent, args.profile);
        if !readings.iter().any(|(p, _)| *p == profile) {
            readings.push((profile, loaded.read(profile)));
        }
    }
    if let Some(robots) = readings.first().and_then(|(_, r)| r.robots()) {
        loaded.warnings(robots).iter().for_each(|w| warn(w));
    }
    let outcomes: Vec<Outcome> = expectations
        .into_iter()
        .map(|expectation| {
            let profile = how.profile_for(&expectation.agent, args.profile);
            let reading = readings
                .iter()
                .find(|(p, _)| *p == profile)
                .map(|(_, r)| r)
                .expect("a reading per profile");
            Outcome {
                decided: reading.decide(Who::read(&expectation.agent, how), &expectation.url),
                profile,
                expectation,
            }
        })
        .collect();
    let failed = outcomes.iter().filter(|o| !o.passed()).count();

    let mut out = std::io::stdout().lock();
    if args.json {
        let report = JsonReport {
            robots: &loaded.name,
            expectations: &expectations_name,
            profile: match readings.as_slice() {
                [(one, _)] => Some(one.name),
                _ => None,
            },
            reading: how.as_str(),
            passed: outcomes.len() - failed,
            failed,
            results: outcomes
                .iter()
                .map(|o| JsonResult {
                    line: o.expectation.line,
                    expect: o.expectation.keyword(),
                    agent: &o.expectation.agent,
                    url: &o.expectation.url,
                    profile: o.profile.name,
                    pass: o.passed(),
                    decided: &o.decided,
                })
                .collect(),
        };
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        let palette = ui.palette();
        if let Some(report) = loaded.fetch() {
            writeln!(out, "{}", palette.dim(&fetch_summary(report)))?;
        }
        let text = render(
            &outcomes,
            &expectations_name,
            &loaded.name,
            args.verbose,
            palette,
        );
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    Ok(Status::all_good(failed == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_expectations_with_comments_and_agent_lists() {
        let text = "# header\n\nallow Googlebot / # trailing\ndisallow GPTBot,CCBot /a#frag\n";
        let parsed = parse_expectations(text, "e").unwrap();
        assert_eq!(parsed.len(), 3);
        assert_eq!(
            parsed[0],
            Expectation {
                line: 3,
                allow: true,
                agent: "Googlebot".into(),
                url: "/".into()
            }
        );
        assert_eq!(
            (parsed[2].agent.as_str(), parsed[2].url.as_str()),
            ("CCBot", "/a#frag")
        );
    }

    #[test]
    fn reports_every_malformed_line() {
        let errors = parse_expectations(
            "allow /\npermit a /\nallow a example.com\nallow a, /\n",
            "e",
        )
        .unwrap_err();
        assert_eq!(errors.len(), 4);
        assert!(errors[0].starts_with("e:1: expected"));
        assert!(errors[1].contains("`permit` is neither"));
        assert!(errors[2].starts_with("e:3: invalid URL"));
        assert!(errors[3].contains("empty agent in `a,`"));
    }
}
