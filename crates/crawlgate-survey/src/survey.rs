//! The survey's settings and the one function that turns a capture into a
//! row.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::SystemTime;

use crawlgate::{Profile, RobotsTxt, SearchConsoleReport};
use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse, Outcome, OutcomeReason, Rules};

use crate::capture::{Capture, Payload};
use crate::crawlers::{CrawlerSet, ANY};
use crate::findings::LintCounts;
use crate::row::SiteRow;
use crate::taxonomy::{FetchClass, HostClass};
use crate::verdict::{Cause, CrawlerVerdict, Reader};

/// The most `--path`s a survey answers (each adds a column per crawler).
pub const MAX_PATHS: usize = 16;

/// The longest path a survey answers for, in bytes.
pub const MAX_PATH_LEN: usize = 2048;

/// Why a path cannot be surveyed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// Not a path starting with `/`.
    #[error("--path {0:?} does not start with `/`: give the path of a URL, such as /news/")]
    NotAPath(String),
    /// Too long.
    #[error("--path of {0} bytes is too long (at most {MAX_PATH_LEN})")]
    TooLong(usize),
    /// Too many.
    #[error("{0} paths given; a survey answers at most {MAX_PATHS}")]
    TooMany(usize),
}

/// What a survey asks: which crawlers, about which paths besides `/`,
/// under which reading.
///
/// ```
/// use crawlgate_survey::{Capture, CrawlerSet, Payload, Survey};
/// use crawlgate_survey::verdict::Cause;
///
/// let survey = Survey::new(CrawlerSet::from_tokens(["GPTBot", "*"]).unwrap())
///     .with_paths(["/news/"])
///     .unwrap();
/// let body = b"User-agent: GPTBot\nDisallow: /\nAllow: /news/\n".to_vec();
/// let row = survey.observe(Capture::new(
///     Some("example.com".into()),
///     "example.com",
///     Payload::File { size: body.len() as u64, body },
/// ));
/// let gptbot = &row.crawlers[0];
/// assert_eq!((gptbot.root, gptbot.cause, gptbot.paths.as_slice()), (Some(false), Some(Cause::PartlyBlocked), &[true][..]));
/// assert_eq!(row.crawlers[1].cause, Some(Cause::Allowed));
/// ```
#[derive(Clone, Debug)]
pub struct Survey {
    crawlers: CrawlerSet,
    /// Each crawler's registry entry, as the crawler reading identifies
    /// its token, looked up once rather than for every file.
    identities: Vec<Option<&'static crawlgate::registry::Crawler>>,
    /// The hashes each crawler's tokens are looked up by in a file's
    /// user-agent lines ([`crate::verdict::token_hashes`]), worked out once.
    token_hashes: Vec<Box<[u64]>>,
    /// The readings crawlers are answered by: the survey's own first, then
    /// each other one in the crawlers' order ([`crawler_profile`](Survey::crawler_profile)).
    profiles: Vec<Profile>,
    /// Each crawler's reading, as an index into `profiles`: both worked
    /// out once, not for every file.
    profile_of: Vec<usize>,
    /// Whether the reading was named ([`with_profile`](Survey::with_profile)):
    /// then every crawler is read by it; else a crawler whose operator's
    /// reading crawlgate reproduces (Bing's crawlers, Yandex's robots) is read by that.
    profile_named: bool,
    paths: Vec<String>,
    policy: FetchPolicy,
    now: SystemTime,
}

impl Survey {
    /// A survey of these crawlers under Google's reading.
    pub fn new(crawlers: CrawlerSet) -> Survey {
        let identities: Vec<_> = crawlers
            .iter()
            .map(|c| crawlgate::registry::identify(&c.token))
            .collect();
        Survey {
            profiles: Vec::new(),
            profile_of: Vec::new(),
            token_hashes: crawlers
                .iter()
                .zip(&identities)
                .map(|(c, identity)| crate::verdict::token_hashes(&c.token, *identity))
                .collect(),
            identities,
            crawlers,
            profile_named: false,
            paths: Vec::new(),
            policy: FetchPolicy::default(),
            now: SystemTime::now(),
        }
        .with_readings()
    }

    /// The survey with the profiles its crawlers are answered by, and each
    /// crawler's index into them, worked out.
    fn with_readings(mut self) -> Survey {
        let mut profiles = vec![self.policy.profile];
        let profile_of = (0..self.crawlers.len())
            .map(|i| {
                let profile = self.crawler_profile(i);
                match profiles.iter().position(|p| *p == profile) {
                    Some(at) => at,
                    None => {
                        profiles.push(profile);
                        profiles.len() - 1
                    }
                }
            })
            .collect();
        self.profiles = profiles;
        self.profile_of = profile_of;
        self
    }

    /// The same survey under another reading, for every crawler. Without
    /// it, files are read as Google reads them, and each crawler of the
    /// registry whose operator's own parser crawlgate reproduces (Yandex's
    /// robots: `profile=yandex`) as that parser reads them.
    pub fn with_profile(mut self, profile: Profile) -> Survey {
        self.policy.profile = profile;
        self.profile_named = true;
        self.with_readings()
    }

    /// The reading crawler `i`'s columns are answered by.
    ///
    /// ```
    /// use crawlgate::Profile;
    /// use crawlgate_survey::{CrawlerSet, Survey};
    ///
    /// let survey = Survey::new(CrawlerSet::from_tokens(["YandexBot", "Googlebot", "*"]).unwrap());
    /// assert_eq!(survey.crawler_profile(0), Profile::YANDEX);
    /// assert_eq!(survey.crawler_profile(1), Profile::GOOGLE);
    /// assert_eq!(survey.crawler_profile(2), Profile::GOOGLE);
    /// let named = survey.with_profile(Profile::BING);
    /// assert_eq!(named.crawler_profile(0), Profile::BING);
    /// ```
    pub fn crawler_profile(&self, i: usize) -> Profile {
        match self
            .identities
            .get(i)
            .copied()
            .flatten()
            .and_then(|c| c.profile)
        {
            Some(own) if !self.profile_named => own,
            _ => self.policy.profile,
        }
    }

    /// The same survey, also answering for these paths (each starting with
    /// `/`; at most [`MAX_PATHS`], of at most [`MAX_PATH_LEN`] bytes).
    pub fn with_paths<S: AsRef<str>>(
        mut self,
        paths: impl IntoIterator<Item = S>,
    ) -> Result<Survey, PathError> {
        let paths: Vec<String> = paths.into_iter().map(|p| p.as_ref().to_owned()).collect();
        if paths.len() > MAX_PATHS {
            return Err(PathError::TooMany(paths.len()));
        }
        for path in &paths {
            if path.len() > MAX_PATH_LEN {
                return Err(PathError::TooLong(path.len()));
            }
            if !path.starts_with('/') {
                return Err(PathError::NotAPath(crate::capture::shown(path)));
            }
        }
        self.paths = paths;
        Ok(self)
    }

    /// The crawlers surveyed.
    pub fn crawlers(&self) -> &CrawlerSet {
        &self.crawlers
    }

    /// The paths answered besides `/`.
    pub fn paths(&self) -> &[String] {
        &self.paths
    }

    /// The reading files are parsed with.
    pub fn profile(&self) -> Profile {
        self.policy.profile
    }

    /// The readings the survey answers by, in words: the profile, then each
    /// other profile some crawler is read by (its operator's).
    ///
    /// ```
    /// use crawlgate::Profile;
    /// use crawlgate_survey::{CrawlerSet, Survey};
    ///
    /// let survey = Survey::new(CrawlerSet::from_tokens(["Googlebot", "bingbot", "YandexBot"]).unwrap());
    /// assert_eq!(
    ///     survey.readings(),
    ///     "google; bing for bingbot, yandex for YandexBot (their operators' readings)"
    /// );
    /// assert_eq!(survey.with_profile(Profile::BING).readings(), "bing");
    /// ```
    pub fn readings(&self) -> String {
        let mut others: Vec<(Profile, Vec<&str>)> = Vec::new();
        for (i, crawler) in self.crawlers.iter().enumerate() {
            let profile = self.crawler_profile(i);
            if profile == self.policy.profile {
                continue;
            }
            match others.iter_mut().find(|(p, _)| *p == profile) {
                Some((_, names)) => names.push(&crawler.token),
                None => others.push((profile, vec![&crawler.token])),
            }
        }
        if others.is_empty() {
            return self.policy.profile.name.to_owned();
        }
        let said: Vec<String> = others
            .iter()
            .map(|(p, names)| {
                // A long family is named by its first crawlers.
                let shown = names.iter().take(3).copied().collect::<Vec<_>>().join(", ");
                let more = match names.len() {
                    0..=3 => String::new(),
                    n => format!(" and {} more", n - 3),
                };
                format!("{} for {shown}{more}", p.name)
            })
            .collect();
        format!(
            "{}; {} (their operators' readings)",
            self.policy.profile.name,
            said.join(", ")
        )
    }

    /// The row of one capture. Never panics: should anything inside fail
    /// unexpectedly, the row is an error row saying so.
    pub fn observe(&self, capture: Capture) -> SiteRow {
        let host = capture.host.clone();
        let source = capture.source.clone();
        let offset = capture.offset;
        catch_unwind(AssertUnwindSafe(|| self.observe_capture(capture))).unwrap_or_else(|_| {
            let mut row = SiteRow::error(
                host,
                source,
                "internal error while reading this site (please report it)".to_owned(),
            );
            row.offset = offset;
            row
        })
    }

    fn observe_capture(&self, capture: Capture) -> SiteRow {
        let Capture {
            host,
            source,
            payload,
            url,
            date,
            offset,
            payload_type,
        } = capture;
        let mut row = SiteRow {
            host,
            source,
            offset,
            url,
            captured: date,
            captures: 1,
            payload_type,
            ..SiteRow::default()
        };
        let outcome = match payload {
            Payload::Error(reason) => {
                row.error = Some(reason);
                return row;
            }
            Payload::File { body, size } => {
                row.size = Some(size);
                self.apply(HttpResponse::new(200).with_body(body))
            }
            Payload::Http {
                response,
                size,
                location,
            } => {
                row.status = Some(response.status);
                row.content_type = response.content_type.clone();
                row.location = location;
                row.size = Some(size);
                if (300..=399).contains(&response.status) {
                    // A redirect: answered by its target's capture, if the
                    // input holds it (see the survey's run).
                    row.fetch_class = Some(FetchClass::of(response.status));
                    row.cc_class = Some(HostClass::HttpRedirectNotResolved);
                    row.crawlers = self.unanswered(Cause::Redirected);
                    return row;
                }
                self.apply(response)
            }
            Payload::Fetched(report) => {
                row.status = report.status;
                row.content_type = report.content_type.clone();
                row.size = Some(report.bytes_read + report.bytes_discarded.unwrap_or(0));
                let outcome = report.entry.outcome.clone();
                if outcome
                    .rules
                    .robots()
                    .is_some_and(|r| r.profile().name != self.profile().name)
                {
                    outcome.with_profile(self.profile())
                } else {
                    outcome
                }
            }
        };
        row.fetch_class = row.status.map(FetchClass::of);
        row.over_limit = row.size.map(|s| s > crawlgate::MAX_BYTES as u64);
        let served_html = (200..300).contains(&row.status.unwrap_or(200))
            && row
                .content_type
                .as_deref()
                .is_some_and(|ct| ct.to_ascii_lowercase().contains("html"));
        row.outcome = Some(outcome.kind());
        row.reason = Some(outcome.reason);
        let mut not_robots_txt = false;
        // The file under each other reading some crawler is answered by
        // (Bing's crawlers by Bing's, Yandex's robots by Yandex's parser),
        // parsed once per file for the linter and the verdicts both.
        let others = match &outcome.rules {
            Rules::Conditional(copy) => self.other_readings(copy.body(), copy.robots()),
            _ => Vec::new(),
        };
        if let Rules::Conditional(copy) = &outcome.rules {
            self.describe_file(&mut row, copy.body(), copy.robots(), &others);
            not_robots_txt = row.lint.as_ref().is_some_and(|l| {
                l.count(crawlgate_lint::Code::HtmlPage) > 0
                    || l.count(crawlgate_lint::Code::BinaryFile) > 0
            });
        }
        let html_body = row
            .lint
            .as_ref()
            .is_some_and(|l| l.count(crawlgate_lint::Code::HtmlPage) > 0);
        row.html = Some(served_html || html_body);
        row.crawlers = self.verdicts(&outcome, &others, not_robots_txt);
        row.cc_class = Some(HostClass::of(
            row.status.or(match outcome.reason {
                // A file given without a status was read as a 200.
                OutcomeReason::Fetched => Some(200),
                _ => None,
            }),
            false,
            row.content_type.as_deref(),
            row.payload_type.as_deref(),
            row.rules,
        ));
        row
    }

    /// No answer for any crawler, for this cause.
    fn unanswered(&self, cause: Cause) -> Vec<CrawlerVerdict> {
        vec![CrawlerVerdict::unanswered(cause); self.crawlers.len()]
    }

    /// `body` (parsed as `robots` under the survey's reading) under each
    /// other reading some crawler is answered by, in the crawlers' order:
    /// `robots` re-read where that provably gives the same records
    /// ([`RobotsTxt::reinterpret`]), else a fresh parse. A reading of the
    /// same records that decides alike ([`Profile::decides_alike`]: Bing's
    /// reading of most files) is left out: its crawlers are answered with
    /// the survey's own reading, whose answers for the same groups it
    /// shares.
    fn other_readings(&self, body: &[u8], robots: &RobotsTxt) -> Vec<(Profile, RobotsTxt)> {
        let base = self.profile();
        let mut others: Vec<(Profile, RobotsTxt)> = Vec::new();
        for &profile in &self.profiles[1..] {
            if base.decides_alike(&profile) && robots.can_reinterpret(profile) {
                continue;
            }
            let reading = robots
                .reinterpret(profile)
                .unwrap_or_else(|| RobotsTxt::parse_with(body, profile));
            others.push((profile, reading));
        }
        others
    }

    /// Every crawler's verdict under a fetch outcome (`others`: the file
    /// under the other readings, [`Survey::other_readings`]).
    fn verdicts(
        &self,
        outcome: &Outcome,
        others: &[(Profile, RobotsTxt)],
        not_robots_txt: bool,
    ) -> Vec<CrawlerVerdict> {
        let fixed = |allowed, cause| {
            vec![
                CrawlerVerdict::without_rules(allowed, cause, self.paths.len());
                self.crawlers.len()
            ]
        };
        match &outcome.rules {
            Rules::FullDisallow => fixed(false, Cause::Unreachable),
            Rules::FullAllow => match outcome.reason {
                // Redirects that loop or go on too long read as a 404.
                OutcomeReason::RedirectsNotFollowed => fixed(true, Cause::Redirected),
                _ => fixed(true, Cause::NoRobotsTxt),
            },
            Rules::Conditional(copy) => {
                let reader = Reader::new(copy.robots(), &self.paths).not_robots_txt(not_robots_txt);
                let other_readers: Vec<(Profile, Reader<'_>)> = others
                    .iter()
                    .map(|(p, robots)| {
                        (
                            *p,
                            Reader::new(robots, &self.paths).not_robots_txt(not_robots_txt),
                        )
                    })
                    .collect();
                // Each reading's reader: its own, or the survey's for a
                // reading left out (see `other_readings`).
                let readers: Vec<&Reader<'_>> = self
                    .profiles
                    .iter()
                    .map(|profile| {
                        other_readers
                            .iter()
                            .find(|(p, _)| p == profile)
                            .map_or(&reader, |(_, r)| r)
                    })
                    .collect();
                self.crawlers
                    .iter()
                    .zip(self.identities.iter().zip(&self.token_hashes))
                    .enumerate()
                    .map(|(i, (c, (identity, hashes)))| {
                        readers[self.profile_of[i]].hashed_verdict(&c.token, *identity, hashes)
                    })
                    .collect()
            }
        }
    }

    /// The fetch rules' outcome for a response.
    fn apply(&self, response: HttpResponse) -> Outcome {
        self.policy
            .apply(&FetchResult::Response(response), None, self.now)
            .0
    }

    /// The facts of a parsed file.
    fn describe_file(
        &self,
        row: &mut SiteRow,
        body: &[u8],
        robots: &RobotsTxt,
        others: &[(Profile, RobotsTxt)],
    ) {
        let readings: Vec<&RobotsTxt> = others.iter().map(|(_, r)| r).collect();
        row.lint = Some(LintCounts::sharing(body, robots, &readings, self.profile()));
        row.groups = Some(count(robots.groups().len()));
        row.rules = Some(count(robots.rules().len()));
        row.sitemaps = Some(count(robots.sitemaps().len()));
        let any = robots.view(ANY);
        row.crawl_delay = any.crawl_delay().map(|d| d.seconds);
        let usage: Vec<String> = any
            .content_usage_records()
            .iter()
            .map(|u| match u.path {
                Some(path) => format!("{path} {}", u.preferences),
                None => u.preferences.to_owned(),
            })
            .collect();
        row.content_usage = (!usage.is_empty()).then(|| usage.join("; "));
        row.content_signal = any.content_signal().map(|s| s.value.to_owned());
        row.licenses = Some(count(robots.licenses().count()));
        let counts = SearchConsoleReport::counts(body);
        row.sc_valid = Some(counts.valid_directives);
        row.sc_unused = Some(counts.unused_directives);
        row.sc_unknown = Some(counts.unknown_lines);
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::LineKind;
    use crawlgate_answers::OutcomeKind;

    fn survey() -> Survey {
        Survey::new(CrawlerSet::from_tokens(["GPTBot", "CCBot", "*"]).unwrap())
    }

    fn http(response: HttpResponse) -> SiteRow {
        let size = response.body.len() as u64;
        survey().observe(Capture::new(
            Some("example.com".into()),
            "test",
            Payload::Http {
                response,
                size,
                location: None,
            },
        ))
    }

    fn causes(row: &SiteRow) -> Vec<Option<Cause>> {
        row.crawlers.iter().map(|c| c.cause).collect()
    }

    #[test]
    fn a_server_error_is_an_outage_and_a_404_no_robots_txt() {
        let row = http(HttpResponse::new(503).with_body("busy"));
        assert_eq!(row.outcome, Some(OutcomeKind::FullDisallow));
        assert_eq!(row.reason, Some(OutcomeReason::ServerError));
        assert!(row
            .crawlers
            .iter()
            .all(|c| c.cause == Some(Cause::Unreachable) && c.root == Some(false)));
        assert_eq!(row.lint, None);
        assert_eq!(row.cc_class, Some(HostClass::HttpDeferVisits));
        let row = http(HttpResponse::new(404).with_body("User-agent: *\nDisallow: /\n"));
        assert_eq!(row.outcome, Some(OutcomeKind::FullAllow));
        assert!(row
            .crawlers
            .iter()
            .all(|c| c.cause == Some(Cause::NoRobotsTxt) && c.root == Some(true)));
        assert_eq!((row.status, row.groups), (Some(404), None));
        assert_eq!(row.fetch_class, Some(FetchClass::NotFound));
    }

    /// Bing's crawlers get the verdicts Bing's own reading of the file
    /// gives: answered with the survey's reading when Bing's reads the
    /// same records (and decides alike), with its own when a `Crawl-delay`
    /// line splits a group for Bing only.
    #[test]
    fn bings_crawlers_are_answered_as_bings_reading_answers() {
        let survey = Survey::new(CrawlerSet::from_tokens(["Bingbot", "GPTBot", "*"]).unwrap());
        assert_eq!(survey.crawler_profile(0), Profile::BING);
        let shared = "User-agent: *\nDisallow: /private\n\nUser-agent: bingbot\nDisallow: /b\nAllow: /b/open\n";
        let split = "User-agent: bingbot\nCrawl-delay: 5\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n";
        for (body, reread) in [(shared, true), (split, false)] {
            let google = RobotsTxt::parse(body.as_bytes());
            assert_eq!(google.can_reinterpret(Profile::BING), reread);
            let paths = vec![
                "/b/x".to_owned(),
                "/b/open/y".to_owned(),
                "/private".to_owned(),
            ];
            let survey = survey.clone().with_paths(paths.clone()).unwrap();
            let row = survey.observe(Capture::new(
                Some("example.com".into()),
                "test",
                Payload::File {
                    body: body.as_bytes().to_vec(),
                    size: body.len() as u64,
                },
            ));
            let bing = RobotsTxt::parse_with(body.as_bytes(), Profile::BING);
            let expected = Reader::new(&bing, &paths).verdict("Bingbot");
            assert_eq!(row.crawlers[0], expected, "{body}");
            let google_answer = Reader::new(&google, &paths).verdict("Bingbot");
            assert_eq!(row.crawlers[0] == google_answer, reread, "{body}");
        }
    }

    #[test]
    fn a_redirect_waits_for_its_target() {
        let mut response = HttpResponse::new(301);
        response.content_type = Some("text/html".into());
        let row = survey().observe(Capture::new(
            Some("example.com".into()),
            "test",
            Payload::Http {
                response,
                size: 0,
                location: Some("https://www.example.com/robots.txt".into()),
            },
        ));
        assert!(row.is_unresolved_redirect());
        assert_eq!(row.outcome, None);
        assert!(row.crawlers.iter().all(|c| c.root.is_none()));
        assert_eq!(row.cc_class, Some(HostClass::HttpRedirectNotResolved));
    }

    #[test]
    fn html_is_flagged_by_content_type_or_body() {
        let typed = http(
            HttpResponse::new(200)
                .with_body("User-agent: *\nDisallow: /x\n")
                .with_content_type("text/html; charset=utf-8"),
        );
        assert_eq!(typed.html, Some(true));
        let page = http(HttpResponse::new(200).with_body("<html><body>hi</body></html>"));
        assert_eq!(page.html, Some(true));
        let plain = http(
            HttpResponse::new(200)
                .with_body("User-agent: *\nDisallow: /x\n")
                .with_content_type("text/plain"),
        );
        assert_eq!(plain.html, Some(false));
        // A 404 page in HTML is not a robots.txt served as HTML.
        let missing = http(HttpResponse::new(404).with_content_type("text/html"));
        assert_eq!(missing.html, Some(false));
    }

    #[test]
    fn search_console_counts_and_licenses_are_the_librarys() {
        let body = "User-agent: *\nDisalow: /typo\nDisallow /no-colon\nCrawl-delay: 2\nNoindex: /x\nFoo: bar\nLicense: https://example.com/license.xml\n";
        let row = http(HttpResponse::new(200).with_body(body));
        let report = SearchConsoleReport::of(body.as_bytes());
        assert_eq!(row.sc_valid, Some(report.valid_directives()));
        assert_eq!(row.sc_unused, Some(report.unused_directives()));
        assert_eq!(row.sc_unknown, Some(count(report.count(LineKind::Unknown))));
        // The figures themselves, so the comparison cannot pass on zeros.
        // Google's library counts unknown keys among the unused directives.
        assert_eq!((row.sc_valid, row.sc_unused), (Some(3), Some(4)));
        assert_eq!(row.sc_unknown, Some(2));
        assert_eq!(row.licenses, Some(1));
        // Nothing to count without a file.
        let missing = http(HttpResponse::new(404));
        assert_eq!((missing.sc_valid, missing.licenses), (None, None));
    }

    #[test]
    fn file_facts_are_read_from_the_star_groups() {
        let body = "User-agent: *\nCrawl-delay: 2.5\nContent-Signal: search=yes, ai-train=no\nContent-Usage: train-ai=n\nContent-Usage: /news/ train-ai=y\nDisallow: /x\nSitemap: https://example.com/s.xml\n\nUser-agent: GPTBot\nCrawl-delay: 9\nDisallow: /\n";
        let row = http(HttpResponse::new(200).with_body(body));
        assert_eq!(row.crawl_delay, Some(2.5));
        assert_eq!(
            row.content_signal.as_deref(),
            Some("search=yes, ai-train=no")
        );
        assert_eq!(
            row.content_usage.as_deref(),
            Some("train-ai=n; /news/ train-ai=y")
        );
        assert_eq!((row.groups, row.sitemaps), (Some(2), Some(1)));
        assert_eq!(
            causes(&row),
            [
                Some(Cause::BlockedByName),
                Some(Cause::PartlyBlocked),
                Some(Cause::PartlyBlocked)
            ]
        );
        assert_eq!(row.rules, Some(2));
        assert_eq!(row.over_limit, Some(false));
    }

    #[test]
    fn a_body_over_the_limit_is_flagged() {
        let body = vec![b'#'; crawlgate::MAX_BYTES + 1];
        let row = survey().observe(Capture::new(
            None,
            "big",
            Payload::File {
                body,
                size: 10 << 20,
            },
        ));
        assert_eq!((row.size, row.over_limit), (Some(10 << 20), Some(true)));
        assert_eq!(row.status, None);
        assert_eq!(row.outcome, Some(OutcomeKind::Conditional));
    }

    #[test]
    fn error_captures_become_error_rows() {
        let row = survey().observe(Capture::error(None, "x.warc@12", "truncated record"));
        assert!(row.is_error());
        assert_eq!(row.error.as_deref(), Some("truncated record"));
        assert!(row.crawlers.is_empty() && row.outcome.is_none());
    }
}
