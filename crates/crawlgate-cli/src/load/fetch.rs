//! Fetching robots.txt files for a command: the `--allow-private`,
//! `--allow-link-local`, `--user-agent` and `--timeout` options, the fetches
//! themselves, and the one-line account of each.

use std::time::Duration;

use anyhow::Context as _;
use crawlgate_answers::Attempt;
use crawlgate_fetch::{AddressClass, FetchError, FetchReport, Fetcher};

/// `--allow-private`, `--allow-link-local`, `--user-agent`, `--timeout`:
/// how robots.txt files are fetched.
#[derive(clap::Args, Debug, Clone)]
pub struct FetchOptions {
    /// Allow fetching from loopback, private and other non-public addresses
    /// (refused by default, so a URL cannot make crawlgate probe a private
    /// network). Link-local addresses stay refused.
    #[arg(long)]
    pub allow_private: bool,

    /// Allow fetching from link-local addresses (169.254/16, fe80::/10) and
    /// cloud metadata services (169.254.169.254 …), even through a redirect
    /// (refused by default, with or without --allow-private).
    #[arg(long)]
    pub allow_link_local: bool,

    /// The User-Agent header sent when fetching.
    #[arg(long, value_name = "HEADER", default_value = crawlgate_fetch::DEFAULT_USER_AGENT)]
    pub user_agent: String,

    /// Seconds allowed for a whole fetch, redirects and body included; also
    /// for reading a pipe or device given as a file.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_seconds)]
    pub timeout: Duration,
}

pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "`{text}` is not a number of seconds between 0 and 86400"
        )),
    }
}

/// Fetches the robots.txt of each URL's origin, in order, each once.
pub fn fetch_all(options: &FetchOptions, urls: &[&str]) -> anyhow::Result<Vec<FetchReport>> {
    let mut builder = Fetcher::builder()
        .user_agent(&options.user_agent)
        .timeout(options.timeout)
        .connect_timeout(options.timeout.min(Duration::from_secs(10)));
    if options.allow_private {
        builder = builder.allow_non_public_addresses();
    }
    if options.allow_link_local {
        builder = builder.allow_link_local_addresses();
    }
    let fetcher = builder.build()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    runtime.block_on(async {
        let mut reports = Vec::with_capacity(urls.len());
        for url in urls {
            let report = fetcher.fetch(url).await.map_err(|e| match e {
                FetchError::AddressRefused { class, .. } => {
                    let flag = match class {
                        AddressClass::LinkLocal | AddressClass::CloudMetadata => {
                            "--allow-link-local"
                        }
                        _ => "--allow-private",
                    };
                    anyhow::anyhow!("{e}: pass {flag} to allow it")
                }
                e => e.into(),
            })?;
            reports.push(report);
        }
        Ok(reports)
    })
}

/// One line about a fetch: `https://h/robots.txt: HTTP 200, 120 bytes:
/// conditional (robots.txt fetched and parsed)`.
pub fn fetch_summary(report: &FetchReport) -> String {
    let what = match report.attempt {
        Attempt::Status { status } => format!("HTTP {status}, {} bytes", report.bytes_read),
        Attempt::Redirect { stop } => stop.to_string(),
        Attempt::Network { error } => error.to_string(),
    };
    format!(
        "{}: {what}: {} ({})",
        report.robots_url, report.outcome, report.reason
    )
}

/// Prints a fetch's warnings on standard error.
pub fn warn_fetch(report: &FetchReport) {
    for warning in &report.warnings {
        crate::output::warn(&format!("{}: {warning}", report.robots_url));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetch_in_one_line() {
        let ok = crate::load::source::Loaded::fetched(
            crawlgate_answers::HttpResponse::new(200).with_body("User-agent: *\n"),
        );
        assert_eq!(
            fetch_summary(ok.fetch().unwrap()),
            "https://example.com/robots.txt: HTTP 200, 14 bytes: conditional (robots.txt fetched and parsed)"
        );
        let failed =
            crate::load::source::Loaded::fetched(crawlgate_answers::HttpResponse::new(500));
        assert!(fetch_summary(failed.fetch().unwrap()).ends_with(
            ": HTTP 500, 0 bytes: full disallow (server error or network failure: everything disallowed until a retry succeeds)"
        ));
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_seconds(" 30 "), Ok(Duration::from_secs(30)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("86401").is_err());
        assert!(parse_seconds("NaN").is_err());
        assert!(parse_seconds("soon").is_err());
    }
}
