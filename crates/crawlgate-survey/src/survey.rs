//! The survey's settings and the one function that turns a capture into a
//! row.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::SystemTime;

use crawlgate::{Profile, RobotsTxt};
use crawlgate_fetch::{FetchPolicy, FetchResult, HttpResponse, Outcome, Rules};

use crate::capture::{Capture, Payload};
use crate::classify::classify_outcome;
use crate::crawlers::{CrawlerSet, ANY};
use crate::findings::LintCounts;
use crate::row::SiteRow;

/// What a survey asks: which crawlers, under which reading.
///
/// ```
/// use crawlgate_survey::{Capture, Class, CrawlerSet, Payload, Survey};
///
/// let survey = Survey::new(CrawlerSet::from_tokens(["GPTBot", "*"]).unwrap());
/// let body = b"User-agent: GPTBot\nDisallow: /\n".to_vec();
/// let row = survey.observe(Capture {
///     host: Some("example.com".into()),
///     source: "example.com".into(),
///     payload: Payload::File { size: body.len() as u64, body },
/// });
/// assert_eq!(row.crawlers[0].class, Class::Blocked);
/// assert_eq!(row.crawlers[1].class, Class::Unmentioned);
/// assert_eq!(row.lint.unwrap().errors, 0);
/// ```
#[derive(Clone, Debug)]
pub struct Survey {
    crawlers: CrawlerSet,
    policy: FetchPolicy,
    now: SystemTime,
}

impl Survey {
    /// A survey of these crawlers under Google's reading.
    pub fn new(crawlers: CrawlerSet) -> Survey {
        Survey {
            crawlers,
            policy: FetchPolicy::default(),
            now: SystemTime::now(),
        }
    }

    /// The same survey under another reading.
    pub fn with_profile(mut self, profile: Profile) -> Survey {
        self.policy.profile = profile;
        self
    }

    /// The crawlers surveyed.
    pub fn crawlers(&self) -> &CrawlerSet {
        &self.crawlers
    }

    /// The reading files are parsed with.
    pub fn profile(&self) -> Profile {
        self.policy.profile
    }

    /// The row of one capture. Never panics: should anything inside fail
    /// unexpectedly, the row is an error row saying so.
    pub fn observe(&self, capture: Capture) -> SiteRow {
        let host = capture.host.clone();
        let source = capture.source.clone();
        catch_unwind(AssertUnwindSafe(|| self.observe_capture(capture))).unwrap_or_else(|_| {
            SiteRow::error(
                host,
                source,
                "internal error while reading this site (please report it)".to_owned(),
            )
        })
    }

    fn observe_capture(&self, capture: Capture) -> SiteRow {
        let Capture {
            host,
            source,
            payload,
        } = capture;
        let mut row = SiteRow {
            host,
            source,
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
        row.over_limit = row.size.map(|s| s > crawlgate::MAX_BYTES as u64);
        let served_html = (200..300).contains(&row.status.unwrap_or(200))
            && row
                .content_type
                .as_deref()
                .is_some_and(|ct| ct.to_ascii_lowercase().contains("html"));
        row.outcome = Some(outcome.kind());
        row.reason = Some(outcome.reason);
        if let Rules::Conditional(copy) = &outcome.rules {
            self.describe_file(&mut row, copy.body(), copy.robots());
        }
        let html_body = row
            .lint
            .as_ref()
            .is_some_and(|l| l.count(crawlgate_lint::Code::HtmlPage) > 0);
        row.html = Some(served_html || html_body);
        row.crawlers = classify_outcome(&outcome, self.crawlers.iter().map(|c| c.token.as_str()));
        row
    }

    /// The fetch rules' outcome for a response.
    fn apply(&self, response: HttpResponse) -> Outcome {
        self.policy
            .apply(&FetchResult::Response(response), None, self.now)
            .0
    }

    /// The facts of a parsed file.
    fn describe_file(&self, row: &mut SiteRow, body: &[u8], robots: &RobotsTxt) {
        row.lint = Some(LintCounts::of(body, robots, self.profile()));
        row.groups = Some(count(robots.groups().len()));
        row.sitemaps = Some(count(robots.sitemaps().len()));
        let any = robots.for_agent(ANY);
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
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::Class;
    use crawlgate_fetch::{OutcomeKind, OutcomeReason};

    fn survey() -> Survey {
        Survey::new(CrawlerSet::from_tokens(["GPTBot", "CCBot", "*"]).unwrap())
    }

    fn http(response: HttpResponse) -> SiteRow {
        let size = response.body.len() as u64;
        survey().observe(Capture {
            host: Some("example.com".into()),
            source: "test".into(),
            payload: Payload::Http {
                response,
                size,
                location: None,
            },
        })
    }

    #[test]
    fn a_server_error_blocks_everyone_and_a_404_names_no_one() {
        let row = http(HttpResponse::new(503).with_body("busy"));
        assert_eq!(row.outcome, Some(OutcomeKind::FullDisallow));
        assert_eq!(row.reason, Some(OutcomeReason::ServerError));
        assert!(row.crawlers.iter().all(|c| c.class == Class::Blocked));
        assert_eq!(row.lint, None);
        let row = http(HttpResponse::new(404).with_body("User-agent: *\nDisallow: /\n"));
        assert_eq!(row.outcome, Some(OutcomeKind::FullAllow));
        assert!(row.crawlers.iter().all(|c| c.class == Class::Unmentioned));
        assert_eq!((row.status, row.groups), (Some(404), None));
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
        let classes: Vec<Class> = row.crawlers.iter().map(|c| c.class).collect();
        assert_eq!(
            classes,
            [Class::Blocked, Class::Unmentioned, Class::Partial]
        );
        assert_eq!(row.over_limit, Some(false));
    }

    #[test]
    fn a_body_over_the_limit_is_flagged() {
        let body = vec![b'#'; crawlgate::MAX_BYTES + 1];
        let row = survey().observe(Capture {
            host: None,
            source: "big".into(),
            payload: Payload::File {
                body,
                size: 10 << 20,
            },
        });
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
