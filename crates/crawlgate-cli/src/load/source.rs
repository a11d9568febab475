//! Where a robots.txt comes from (a file, standard input, or a site it is
//! fetched from), and what it says about one URL when read under a profile.

use std::borrow::Cow;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context as _};
use crawlgate::{Profile, RobotsTxt};
use crawlgate_answers::{Robots, RobotsSource};
use crawlgate_fetch::FetchReport;

use crate::load::input::{read_path, read_stdin, Input, Special};

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

/// A robots.txt, loaded: the one robots.txt type of the answers crate
/// ([`RobotsSource`], read under any profile once asked for it) with what
/// is about the command line's input (its name, a file's size, the fetch).
#[derive(Debug)]
pub struct Loaded {
    /// How line references name it: the file as given, `<stdin>`, or the
    /// robots.txt URL.
    pub name: String,
    /// The robots.txt.
    pub robots: RobotsSource,
    /// The size of the whole file, when it is known (a regular file).
    size: Option<u64>,
    /// What fetching it gave, when it came from a site.
    fetch: Option<Box<FetchReport>>,
}

impl Loaded {
    /// Reads a file or standard input, at most `limit` bytes and one more
    /// (to see a cut); `None` for a URL argument. A pipe or device given as
    /// a file must end within `timeout`.
    pub fn read_local(
        arg: &RobotsArg,
        limit: usize,
        timeout: Duration,
    ) -> anyhow::Result<Option<Loaded>> {
        let (name, input) = match arg {
            RobotsArg::Url(_) => return Ok(None),
            RobotsArg::Stdin => (
                "<stdin>".to_owned(),
                read_stdin(limit).context("cannot read robots.txt from standard input")?,
            ),
            RobotsArg::File(path) => (path.clone(), read_file(path, limit, timeout)?),
        };
        Ok(Some(Loaded {
            name,
            robots: RobotsSource::from_bytes(input.bytes),
            size: input.size,
            fetch: None,
        }))
    }

    /// What a fetch gave.
    pub fn from_report(report: FetchReport) -> Loaded {
        Loaded {
            name: report.robots_url.clone(),
            robots: RobotsSource::fetched(report.entry.outcome.clone()),
            size: None,
            fetch: Some(Box::new(report)),
        }
    }

    /// The fetch, when it came from a site.
    pub fn fetch(&self) -> Option<&FetchReport> {
        self.fetch.as_deref()
    }

    /// The bytes to read: the file's, or the fetched body (none when the
    /// fetch outcome left no rules to read).
    pub fn bytes(&self) -> Option<&[u8]> {
        self.robots.body()
    }

    /// Reads it under `profile` (once per profile): a file by its rules
    /// alone, a fetched one under its fetch outcome.
    pub fn read(&self, profile: Profile) -> Cow<'_, Robots> {
        self.robots.read(profile)
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
            let limit = robots.profile().max_bytes;
            let size = match self.size {
                Some(size) => format!("{size} bytes"),
                None => "more than that".to_owned(),
            };
            warnings.push(format!(
                "{}: only the first {limit} bytes are read ({size}): the rest is ignored",
                self.name
            ));
        }
        warnings
    }
}

fn read_file(path: &str, limit: usize, timeout: Duration) -> anyhow::Result<Input> {
    read_path(Path::new(path), limit, Special::Read { timeout }).map_err(|e| {
        let mut message = format!("cannot read robots.txt file `{path}`: {e}");
        // `crawlgate check example.com …`: a site was meant.
        let looks_like_host = !path.contains('/')
            && path.contains('.')
            && !path.ends_with(".txt")
            && !Path::new(path).exists();
        if looks_like_host {
            message.push_str(&format!(
                " (to fetch a site's robots.txt, give its URL: https://{path}/)"
            ));
        }
        anyhow::anyhow!(message)
    })
}

#[cfg(test)]
impl Loaded {
    /// A local file named `name` holding `text`, for unit tests.
    pub fn local(name: &str, text: &str) -> Loaded {
        Loaded {
            name: name.to_owned(),
            robots: RobotsSource::from_bytes(text.as_bytes().to_vec()),
            size: Some(text.len() as u64),
            fetch: None,
        }
    }

    /// What fetching `https://example.com/robots.txt` gives when the server
    /// answers `response`, for unit tests (the real fetches are tested end
    /// to end in `tests/cli/fetch.rs`).
    pub fn fetched(response: crawlgate_answers::HttpResponse) -> Loaded {
        use std::time::{Duration, SystemTime};

        use crawlgate_answers::{FetchPolicy, FetchResult, Origin};

        let (status, bytes_read) = (response.status, response.body.len() as u64);
        let result = FetchResult::Response(response);
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let (_, entry) = FetchPolicy::default().apply(&result, None, now);
        let origin = Origin::from_url("https://example.com/").unwrap();
        Loaded::from_report(FetchReport {
            robots_url: origin.robots_url().to_string(),
            origin,
            hops: Vec::new(),
            status: Some(status),
            attempt: result.attempt(),
            content_type: None,
            bytes_read,
            bytes_parsed: None,
            truncated: false,
            bytes_discarded: None,
            outcome: entry.outcome.kind(),
            reason: entry.outcome.reason,
            fetched_at: entry.fetched_at,
            expires_at: entry.expires_at,
            ttl_seconds: entry.ttl().as_secs(),
            elapsed_ms: 0,
            sitemaps: Vec::new(),
            groups: 0,
            diagnostics: 0,
            warnings: Vec::new(),
            entry,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::Reason;
    use crawlgate_answers::{Basis, HttpResponse, OutcomeKind, OutcomeReason};

    fn local(text: &str) -> Loaded {
        Loaded::local("robots.txt", text)
    }

    #[test]
    fn local_files_are_decided_by_their_rules() {
        let file = local("User-agent: *\nDisallow: /private\nDisallow:\n");
        let reading = file.read(Profile::GOOGLE);
        let verdict = reading.decide("bot", "https://example.com/private/x");
        assert!(!verdict.allowed);
        assert_eq!(verdict.basis, Basis::Rules(Reason::Rule));
        assert_eq!(verdict.rule.unwrap().text, "Disallow: /private");
        let open = reading.decide("bot", "/public");
        assert_eq!(
            (open.allowed, open.basis),
            (true, Basis::Rules(Reason::EmptyRule))
        );
        assert!(reading.outcome_without_rules().is_none());
        assert!(file.fetch().is_none());
    }

    #[test]
    fn a_local_file_decides_robots_txt_by_its_profile() {
        let file = local("User-agent: *\nDisallow: /\n");
        let google = file.read(Profile::GOOGLE).decide("bot", "/robots.txt");
        assert_eq!(
            (google.allowed, google.basis),
            (false, Basis::Rules(Reason::Rule))
        );
        let rfc = file.read(Profile::RFC9309).decide("bot", "/robots.txt");
        assert_eq!(
            (rfc.allowed, rfc.basis),
            (true, Basis::Rules(Reason::RobotsTxt))
        );
    }

    #[test]
    fn the_profile_changes_the_reading() {
        let file = local("User-agent: *\nDisallow /x\n");
        assert!(!file.read(Profile::GOOGLE).decide("bot", "/x").allowed);
        assert!(file.read(Profile::RFC9309).decide("bot", "/x").allowed);
        assert_eq!(
            file.read(Profile::LEGACY).robots().unwrap().profile().name,
            "legacy"
        );
    }

    #[test]
    fn garbage_gets_a_warning_and_an_empty_file_does_not() {
        let garbage = local("\u{1}\u{2}<html>\u{7f} no robots here\n");
        assert!(
            garbage.warnings(garbage.read(Profile::GOOGLE).robots().unwrap())[0]
                .contains("no user-agent line")
        );
        let empty = local("");
        assert!(empty
            .warnings(empty.read(Profile::GOOGLE).robots().unwrap())
            .is_empty());
    }

    #[test]
    fn a_file_past_the_size_limit_is_warned_about() {
        let mut text = "User-agent: *\nDisallow: /x\n".to_owned();
        while text.len() <= crawlgate::MAX_BYTES {
            text.push_str("# filler filler filler filler filler filler filler\n");
        }
        let big = local(&text);
        let warnings = big.warnings(big.read(Profile::GOOGLE).robots().unwrap());
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].starts_with("robots.txt: only the first 512000 bytes are read (5"),
            "{warnings:?}"
        );
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
    fn a_missing_file_named_like_a_site_gets_a_hint() {
        let read = |path| read_file(path, 100, Duration::from_secs(1));
        let error = read("no-such-site.example").unwrap_err().to_string();
        assert!(
            error.contains("give its URL: https://no-such-site.example/"),
            "{error}"
        );
        let error = read("missing.txt").unwrap_err().to_string();
        assert!(!error.contains("give its URL"), "{error}");
    }

    #[test]
    fn fetched_files_are_read_under_their_fetch_outcome() {
        let body = "User-agent: *\nDisallow: /\nDisallow: /*.php$\n";
        let fetched = Loaded::fetched(HttpResponse::new(200).with_body(body));
        assert_eq!(fetched.name, "https://example.com/robots.txt");
        let reading = fetched.read(Profile::GOOGLE);
        assert!(reading.outcome_without_rules().is_none());
        assert!(!reading.decide("bot", "/x").allowed);
        // The fetch layer's rule, whatever the profile says.
        let itself = reading.decide("bot", "https://example.com/robots.txt");
        assert_eq!(
            (itself.allowed, itself.basis),
            (true, Basis::Rules(Reason::RobotsTxt))
        );
        // The fetched bytes, read again under another profile.
        let legacy = fetched.read(Profile::LEGACY);
        assert_eq!(legacy.robots().unwrap().profile().name, "legacy");

        let failed = Loaded::fetched(HttpResponse::new(503));
        let reading = failed.read(Profile::GOOGLE);
        assert!(reading.robots().is_none());
        let outcome = reading.outcome_without_rules().unwrap();
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
        let verdict = reading.decide("bot", "/x");
        assert_eq!(
            (verdict.allowed, verdict.basis),
            (false, Basis::FullDisallow)
        );
        assert_eq!(verdict.fetch_outcome, Some(OutcomeReason::ServerError));
    }
}
