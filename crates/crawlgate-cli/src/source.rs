//! Where a robots.txt comes from (a file, standard input, or a site it is
//! fetched from) and what it says about one URL.

use std::io::Read as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context as _};
use crawlgate::{Profile, Reason, RobotsTxt, Rule, RuleKind};
use crawlgate_fetch::{Attempt, FetchError, FetchReport, Fetcher, Rules};
use serde::Serialize;

/// The `ROBOTS` argument.
#[derive(Clone, Debug)]
pub enum RobotsArg {
    /// `-`: read standard input.
    Stdin,
    /// A file, named as given.
    File(String),
    /// An http(s) URL: fetch the robots.txt of its origin.
    Url(url::Url),
}

impl RobotsArg {
    /// Reads the argument: `-`, an `http://` or `https://` URL, or a file.
    pub fn parse(text: &str) -> anyhow::Result<RobotsArg> {
        if text == "-" {
            return Ok(RobotsArg::Stdin);
        }
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            let url = url::Url::parse(text).with_context(|| format!("invalid URL `{text}`"))?;
            return Ok(RobotsArg::Url(url));
        }
        if lower.starts_with("ftp://") {
            bail!("cannot fetch `{text}`: fetching robots.txt over ftp is not supported");
        }
        Ok(RobotsArg::File(text.to_owned()))
    }
}

/// What a robots.txt that was read or fetched holds.
#[derive(Clone, Debug)]
pub enum Content {
    /// The bytes of the file.
    Text(Vec<u8>),
    /// The fetch outcome is full allow (why).
    FullAllow(String),
    /// The fetch outcome is full disallow (why).
    FullDisallow(String),
}

/// A robots.txt, loaded.
#[derive(Debug)]
pub struct Loaded {
    /// How line references name it: the file as given, `<stdin>`, or the
    /// robots.txt URL.
    pub name: String,
    /// What it holds.
    pub content: Content,
    /// The fetch, when it came from a site.
    pub fetch: Option<FetchReport>,
}

impl Loaded {
    /// Reads a file or standard input; `None` for a URL argument.
    pub fn read_local(arg: &RobotsArg) -> anyhow::Result<Option<Loaded>> {
        let (name, bytes) = match arg {
            RobotsArg::Url(_) => return Ok(None),
            RobotsArg::Stdin => {
                let mut bytes = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut bytes)
                    .context("cannot read robots.txt from standard input")?;
                ("<stdin>".to_owned(), bytes)
            }
            RobotsArg::File(path) => (path.clone(), read_file(path)?),
        };
        Ok(Some(Loaded {
            name,
            content: Content::Text(bytes),
            fetch: None,
        }))
    }

    /// What a fetch gave.
    pub fn from_report(report: FetchReport) -> Loaded {
        let content = match report.rules() {
            Rules::Conditional(copy) => Content::Text(copy.body().to_vec()),
            Rules::FullAllow => Content::FullAllow(report.reason.to_string()),
            Rules::FullDisallow => Content::FullDisallow(report.reason.to_string()),
        };
        Loaded {
            name: report.robots_url.clone(),
            content,
            fetch: Some(report),
        }
    }

    /// Parses it under `profile`.
    pub fn read(&self, profile: Profile) -> Reading<'_> {
        let robots = match &self.content {
            Content::Text(bytes) => Some(RobotsTxt::parse_with(bytes, profile)),
            _ => None,
        };
        Reading {
            loaded: self,
            robots,
        }
    }

    /// Warnings about the input as a whole: nothing valid in it, or cut at
    /// the size limit.
    pub fn warnings(&self, robots: &RobotsTxt) -> Vec<String> {
        let mut warnings = Vec::new();
        let stats = robots.stats();
        // Garbage, an HTML page: nothing a crawler reads. A file of comments
        // or only sitemaps is fine.
        let unreadable = !robots.diagnostics().is_empty() || stats.had_invalid_utf8;
        if robots.groups().len() == 0 && robots.sitemaps().len() == 0 && unreadable {
            warnings.push(format!(
                "{}: no user-agent line in {} bytes (is it a robots.txt?): no rule applies, every URL is allowed",
                self.name, stats.input_bytes
            ));
        }
        if stats.truncated() {
            warnings.push(format!(
                "{}: {} bytes, more than the {} bytes read: the rest is ignored",
                self.name,
                stats.input_bytes,
                robots.profile().max_bytes
            ));
        }
        warnings
    }
}

fn read_file(path: &str) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        let mut message = format!("cannot read robots.txt file `{path}`: {e}");
        // `crawlgate check example.com …`: a site was meant.
        let looks_like_host = !path.contains('/')
            && path.contains('.')
            && !path.ends_with(".txt")
            && !Path::new(path).exists();
        if looks_like_host && e.kind() == std::io::ErrorKind::NotFound {
            message.push_str(&format!(
                " (to fetch a site's robots.txt, give its URL: https://{path}/)"
            ));
        }
        anyhow::anyhow!(message)
    })
}

/// What decided a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// A rule matched and decided.
    Rule,
    /// The best match was an empty rule (`Disallow:`), which allows.
    EmptyRule,
    /// The crawler's groups have no rule matching the URL.
    NoMatchingRule,
    /// No group names the crawler and there is no `*` group.
    NoGroup,
    /// `/robots.txt` itself is always allowed.
    RobotsTxtItself,
    /// The fetch outcome is full allow.
    FullAllow,
    /// The fetch outcome is full disallow.
    FullDisallow,
}

/// The deciding rule, for output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleRef {
    /// 1-based line number.
    pub line: u32,
    /// `allow` or `disallow`.
    pub kind: &'static str,
    /// The path pattern as written.
    pub value: String,
    /// The line as it reads (`Disallow: /private`).
    pub text: String,
    /// Matched through Google's `index.html` alias.
    pub via_index_alias: bool,
}

impl RuleRef {
    /// The output form of a rule.
    pub fn new(rule: Rule<'_>, via_index_alias: bool) -> RuleRef {
        RuleRef {
            line: rule.line(),
            kind: match rule.kind() {
                RuleKind::Allow => "allow",
                RuleKind::Disallow => "disallow",
            },
            value: rule.value().to_owned(),
            text: rule.to_string(),
            via_index_alias,
        }
    }
}

/// The answer for one URL.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decided {
    /// May the crawler fetch it?
    pub allowed: bool,
    /// What decided.
    pub basis: Basis,
    /// The deciding rule, when one did.
    pub rule: Option<RuleRef>,
    /// Why the fetch outcome is full allow or full disallow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch_outcome: Option<String>,
}

impl Decided {
    /// Why, in a few words, without the line reference: for the
    /// `--all-profiles` table.
    pub fn short_reason(&self) -> String {
        match (self.basis, &self.rule) {
            (Basis::Rule, Some(rule)) => format!("line {}", rule.line),
            (Basis::EmptyRule, Some(rule)) => format!("line {} (empty rule)", rule.line),
            (Basis::NoGroup, _) => "no group".to_owned(),
            (Basis::RobotsTxtItself, _) => "robots.txt itself".to_owned(),
            (Basis::FullAllow, _) => "full allow".to_owned(),
            (Basis::FullDisallow, _) => "full disallow".to_owned(),
            _ => "no rule matched".to_owned(),
        }
    }
}

/// A loaded robots.txt read under one profile.
pub struct Reading<'a> {
    /// What was loaded.
    pub loaded: &'a Loaded,
    robots: Option<RobotsTxt>,
}

impl Reading<'_> {
    /// The parsed file, unless the fetch outcome made rules irrelevant.
    pub fn robots(&self) -> Option<&RobotsTxt> {
        self.robots.as_ref()
    }

    /// May `agent` fetch `url`?
    pub fn decide(&self, agent: &str, url: &str) -> Decided {
        let fixed = |allowed, basis, why: Option<&String>| Decided {
            allowed,
            basis,
            rule: None,
            fetch_outcome: why.cloned(),
        };
        // The fetch layer's rule (RFC 9309 §2.5), whatever the profile.
        if self.loaded.fetch.is_some() && crawlgate::path_of(url) == "/robots.txt" {
            return fixed(true, Basis::RobotsTxtItself, None);
        }
        let robots = match (&self.robots, &self.loaded.content) {
            (Some(robots), _) => robots,
            (None, Content::FullDisallow(why)) => {
                return fixed(false, Basis::FullDisallow, Some(why))
            }
            (None, Content::FullAllow(why)) => return fixed(true, Basis::FullAllow, Some(why)),
            (None, Content::Text(_)) => unreachable!("text is always parsed"),
        };
        let verdict = robots.decide(agent, url);
        Decided {
            allowed: verdict.is_allowed(),
            basis: match verdict.reason() {
                Reason::Rule => Basis::Rule,
                Reason::EmptyRule => Basis::EmptyRule,
                Reason::NoMatchingRule => Basis::NoMatchingRule,
                Reason::NoGroup => Basis::NoGroup,
                Reason::RobotsTxt => Basis::RobotsTxtItself,
            },
            rule: verdict
                .rule()
                .map(|rule| RuleRef::new(rule, verdict.via_index_alias())),
            fetch_outcome: None,
        }
    }
}

/// `--allow-private`, `--user-agent`, `--timeout`: how robots.txt files are
/// fetched.
#[derive(clap::Args, Debug, Clone)]
pub struct FetchOptions {
    /// Allow fetching from loopback, private and link-local addresses
    /// (refused by default, so a URL cannot make crawlgate probe a private
    /// network).
    #[arg(long)]
    pub allow_private: bool,

    /// The User-Agent header sent when fetching.
    #[arg(long, value_name = "HEADER", default_value = crawlgate_fetch::DEFAULT_USER_AGENT)]
    pub user_agent: String,

    /// Seconds allowed for a whole fetch, redirects and body included.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_seconds)]
    pub timeout: Duration,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
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
    let fetcher = builder.build()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    runtime.block_on(async {
        let mut reports = Vec::with_capacity(urls.len());
        for url in urls {
            let report = fetcher.fetch(url).await.map_err(|e| match e {
                FetchError::AddressRefused { .. } => {
                    anyhow::anyhow!("{e}: pass --allow-private to allow it")
                }
                e => e.into(),
            })?;
            reports.push(report);
        }
        Ok(reports)
    })
}

/// The URLs to ask about when ROBOTS is the URL `base`: each argument
/// (absolute, or a path relative to `base`'s site), or `base` itself when
/// there is none.
pub fn resolve_targets(base: &url::Url, urls: &[String]) -> anyhow::Result<Vec<String>> {
    if urls.is_empty() {
        return Ok(vec![base.to_string()]);
    }
    urls.iter()
        .map(|u| {
            if u.starts_with('/') {
                base.join(u)
                    .map(String::from)
                    .with_context(|| format!("invalid URL `{u}`"))
            } else {
                Ok(u.clone())
            }
        })
        .collect()
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

    fn loaded(text: &str) -> Loaded {
        Loaded {
            name: "robots.txt".into(),
            content: Content::Text(text.as_bytes().to_vec()),
            fetch: None,
        }
    }

    #[test]
    fn decides_with_the_deciding_rule() {
        let file = loaded("User-agent: *\nDisallow: /private\nDisallow:\n");
        let reading = file.read(Profile::GOOGLE);
        let decided = reading.decide("bot", "https://example.com/private/x");
        assert!(!decided.allowed);
        assert_eq!(decided.basis, Basis::Rule);
        assert_eq!(decided.rule.unwrap().text, "Disallow: /private");
        let open = reading.decide("bot", "/public");
        assert_eq!((open.allowed, open.basis), (true, Basis::EmptyRule));
    }

    #[test]
    fn fetch_outcomes_decide_without_rules() {
        let file = Loaded {
            name: "https://example.com/robots.txt".into(),
            content: Content::FullDisallow("server error".into()),
            fetch: None,
        };
        let decided = file.read(Profile::GOOGLE).decide("bot", "/x");
        assert_eq!(
            (decided.allowed, decided.basis),
            (false, Basis::FullDisallow)
        );
        assert_eq!(decided.fetch_outcome.as_deref(), Some("server error"));
    }

    #[test]
    fn garbage_gets_a_warning_and_an_empty_file_does_not() {
        let garbage = loaded("\u{1}\u{2}<html>\u{7f} no robots here\n");
        assert!(
            garbage.warnings(garbage.read(Profile::GOOGLE).robots().unwrap())[0]
                .contains("no user-agent line")
        );
        let empty = loaded("");
        assert!(empty
            .warnings(empty.read(Profile::GOOGLE).robots().unwrap())
            .is_empty());
    }

    #[test]
    fn robots_arguments() {
        assert!(matches!(RobotsArg::parse("-").unwrap(), RobotsArg::Stdin));
        assert!(matches!(
            RobotsArg::parse("HTTPS://example.com").unwrap(),
            RobotsArg::Url(_)
        ));
        assert!(matches!(
            RobotsArg::parse("robots.txt").unwrap(),
            RobotsArg::File(_)
        ));
        assert!(RobotsArg::parse("http://[::1").is_err());
        assert!(RobotsArg::parse("ftp://example.com/").is_err());
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("soon").is_err());
    }
}
