//! `crawlgate fetch`: fetch a site's robots.txt as Google does and report
//! what happened: the redirect chain, status, bytes, outcome, how long it is
//! kept, sitemaps and warnings.

use std::fmt::Write as _;
use std::io::Write as _;

use anyhow::bail;
use crawlgate_answers::{time::rfc3339, OutcomeKind, Rules};
use crawlgate_fetch::FetchReport;

use crate::load::fetch::{fetch_all, FetchOptions};
use crate::output::{pad, Palette, Ui};
use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate fetch https://example.com/
  crawlgate fetch https://example.com/any/page --json
  crawlgate fetch https://example.com --body > robots.txt
  crawlgate fetch http://127.0.0.1:8080/ --allow-private

The robots.txt of the URL's site (scheme, host and port) is fetched with a plain
GET, following up to 5 redirects, reading at most 500 KiB, and the result is
read as Google does: 2xx the rules apply (conditional), 4xx everything is
allowed, 429/5xx or a network failure everything is disallowed.

Exit status: 0 fetched (rules apply, or full allow), 1 full disallow (server
error or network failure), 2 usage error or fetch refused (invalid URL,
non-public address without --allow-private).";

/// Arguments of `crawlgate fetch`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// A URL of the site (any path: its /robots.txt is fetched).
    #[arg(value_name = "URL")]
    pub url: String,

    /// Print the report as JSON.
    #[arg(long, conflicts_with = "body")]
    pub json: bool,

    /// Print only the robots.txt body as fetched (nothing for full allow or
    /// full disallow).
    #[arg(long)]
    pub body: bool,

    #[command(flatten)]
    pub fetch: FetchOptions,
}

/// Runs `crawlgate fetch`.
pub fn run(args: Args, ui: Ui) -> anyhow::Result<Status> {
    let lower = args.url.to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        bail!(
            "`{}` is not an http(s) URL: give the site's URL, e.g. https://example.com/",
            args.url
        );
    }
    let report = fetch_all(&args.fetch, &[&args.url])?.remove(0);
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else if args.body {
        if let Rules::Conditional(copy) = report.rules() {
            out.write_all(copy.body())?;
        }
    } else {
        out.write_all(render(&report, ui.palette()).as_bytes())?;
    }
    out.flush()?;
    Ok(Status::all_good(
        report.outcome != OutcomeKind::FullDisallow,
    ))
}

/// `86400 s (24 h)`.
fn duration_text(seconds: u64) -> String {
    match seconds {
        s if s >= 3600 && s % 3600 == 0 => format!("{s} s ({} h)", s / 3600),
        s if s >= 60 && s % 60 == 0 => format!("{s} s ({} min)", s / 60),
        s => format!("{s} s"),
    }
}

/// The human report.
fn render(report: &FetchReport, p: Palette) -> String {
    let mut out = String::new();
    let label = |text: &str| p.heading(&pad(text, 10));
    let _ = writeln!(
        out,
        "{}{}  {}",
        label("robots"),
        report.robots_url,
        p.dim(&format!("(for {})", report.origin))
    );
    for (i, hop) in report.hops.iter().enumerate() {
        let result = match (hop.status, &hop.error) {
            (Some(status), _) => status.to_string(),
            (None, Some(error)) => error.clone(),
            (None, None) => "no response".to_owned(),
        };
        let location = hop
            .location
            .as_deref()
            .map(|l| format!(" → {l}"))
            .unwrap_or_default();
        let address = hop
            .remote_address
            .as_deref()
            .map(|a| p.dim(&format!("  ({a})")))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{}{}. GET {}  {result}{location}{address}",
            pad("", 10),
            i + 1,
            hop.url
        );
    }
    let status = match report.status {
        Some(status) => format!(
            "HTTP {status}{}",
            report
                .content_type
                .as_deref()
                .map(|ct| format!(", {ct}"))
                .unwrap_or_default()
        ),
        None => serde_json::to_value(report.attempt)
            .ok()
            .and_then(|v| {
                let v = v
                    .get("error")
                    .or_else(|| v.get("stop"))?
                    .as_str()?
                    .to_owned();
                Some(v.replace('_', " "))
            })
            .unwrap_or_else(|| "no response".to_owned()),
    };
    let _ = writeln!(out, "{}{status}", label("status"));
    let mut bytes = format!("{} read", report.bytes_read);
    if let Some(parsed) = report.bytes_parsed {
        let _ = write!(bytes, ", {parsed} parsed");
    }
    if report.truncated {
        match report.bytes_discarded {
            Some(n) => {
                let _ = write!(bytes, ", {n} past the limit not read");
            }
            None => bytes.push_str(", the rest past the limit not read"),
        }
    }
    let _ = writeln!(out, "{}{bytes}", label("bytes"));
    let outcome = format!("{}: {}", report.outcome, report.reason);
    let _ = writeln!(
        out,
        "{}{}",
        label("outcome"),
        match report.outcome {
            OutcomeKind::FullDisallow => p.disallowed(&outcome),
            OutcomeKind::FullAllow => p.allowed(&outcome),
            _ => outcome,
        }
    );
    let _ = writeln!(
        out,
        "{}{}, took {} ms",
        label("fetched"),
        rfc3339(report.fetched_at),
        report.elapsed_ms
    );
    let _ = writeln!(
        out,
        "{}{}, kept for {}",
        label("expires"),
        rfc3339(report.expires_at),
        duration_text(report.ttl_seconds)
    );
    if report.outcome == OutcomeKind::Conditional {
        let _ = writeln!(
            out,
            "{}{} group{}, {} parser diagnostic{}",
            label("rules"),
            report.groups,
            if report.groups == 1 { "" } else { "s" },
            report.diagnostics,
            if report.diagnostics == 1 { "" } else { "s" }
        );
    }
    for (i, sitemap) in report.sitemaps.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}{sitemap}",
            if i == 0 {
                label("sitemaps")
            } else {
                pad("", 10)
            }
        );
    }
    for (i, warning) in report.warnings.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}{}",
            if i == 0 {
                label("warnings")
            } else {
                pad("", 10)
            },
            p.notice(&warning.message)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::duration_text;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration_text(86_400), "86400 s (24 h)");
        assert_eq!(duration_text(120), "120 s (2 min)");
        assert_eq!(duration_text(61), "61 s");
    }
}
